//! Reconnect timings as the host reads them, and durations as the command line takes them.

use super::jsnum::{self, JsValue};

/// The backoff's base when `reconnectIntervalMs` is absent or null.
pub(crate) const DEFAULT_INTERVAL_MS: f64 = 5000.0;
/// The backoff's ceiling when `reconnectMaxIntervalMs` is absent or null.
pub(crate) const DEFAULT_CAP_MS: f64 = 300_000.0;
/// The largest delay a JavaScript timer honours: 2^31-1 ms (about 24.8 days).
pub(crate) const TIMER_LIMIT_MS: f64 = 2_147_483_647.0;

/// The two timings of a server entry, in milliseconds, as `Number()` gives them (may be NaN,
/// negative, zero or infinite: the policy decides what the host does with such values).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timings {
    pub interval_ms: f64,
    pub cap_ms: f64,
}

impl Default for Timings {
    fn default() -> Self {
        Timings {
            interval_ms: DEFAULT_INTERVAL_MS,
            cap_ms: DEFAULT_CAP_MS,
        }
    }
}

impl Timings {
    /// Timings from the two JSON values of an entry (`None` = field absent).
    pub(crate) fn from_json(interval: Option<&JsValue<'_>>, cap: Option<&JsValue<'_>>) -> Timings {
        Timings {
            interval_ms: read_timing(interval, DEFAULT_INTERVAL_MS),
            cap_ms: read_timing(cap, DEFAULT_CAP_MS),
        }
    }
}

/// One timing field: absent or `null` is the default, anything else is `Number(value)`.
pub(crate) fn read_timing(value: Option<&JsValue<'_>>, default: f64) -> f64 {
    match value {
        None | Some(JsValue::Null) => default,
        Some(v) => jsnum::number(v),
    }
}

/// Whether the host (under #999) refuses this timing value: 0, below 0 or NaN.
pub(crate) fn is_refused_timing(ms: f64) -> bool {
    ms.is_nan() || ms <= 0.0
}

/// Why a command-line duration does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Nothing but blanks.
    #[error("empty duration")]
    Empty,
    /// Neither a number, `inf` nor humantime (the text as given, trimmed). humantime's own
    /// message lists its units; the tool's examples say enough.
    #[error("{0:?} is not a duration (try 5000, 5s, 300ms, 1d or inf)")]
    NotADuration(String),
}

/// Parse a duration given on the command line: a bare number is milliseconds (as in host
/// configs, fractions allowed), `inf`/`Infinity` is infinite, anything else is humantime
/// (`300ms`, `5s`, `5m`, `1d`, `1h 30m`).
pub(crate) fn parse_duration_ms(text: &str) -> Result<f64, DurationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(DurationError::Empty);
    }
    match t {
        "inf" | "Infinity" | "infinity" | "+Infinity" | "+inf" => return Ok(f64::INFINITY),
        _ => {}
    }
    if let Ok(v) = t.parse::<f64>() {
        if v.is_nan() {
            return Err(DurationError::NotADuration(t.to_string()));
        }
        return Ok(if v == 0.0 { 0.0 } else { v });
    }
    match humantime::parse_duration(t) {
        Ok(d) => Ok(d.as_secs_f64() * 1000.0),
        Err(_) => Err(DurationError::NotADuration(t.to_string())),
    }
}

/// A duration in milliseconds, written for a person: `0.3 s`, `5 s`, `2 min 30 s`, `4 h`,
/// `24.8 d`, `infinite`.
pub(crate) fn format_ms(ms: f64) -> String {
    if ms.is_nan() {
        return "NaN".to_string();
    }
    if ms.is_infinite() {
        return if ms > 0.0 { "infinite" } else { "-infinite" }.to_string();
    }
    let neg = ms < 0.0;
    let a = ms.abs();
    let body = if a < 1000.0 {
        format!("{} ms", trim_float(a, 1))
    } else if a < 60_000.0 {
        format!("{} s", trim_float(a / 1000.0, 2))
    } else if a < 3_600_000.0 {
        let total_s = (a / 1000.0).round() as u64;
        let (m, s) = (total_s / 60, total_s % 60);
        if s == 0 {
            format!("{m} min")
        } else {
            format!("{m} min {s} s")
        }
    } else if a < 86_400_000.0 {
        let total_m = (a / 60_000.0).round() as u64;
        let (h, m) = (total_m / 60, total_m % 60);
        if m == 0 {
            format!("{h} h")
        } else {
            format!("{h} h {m} min")
        }
    } else {
        format!("{} d", trim_float(a / 86_400_000.0, 1))
    };
    if neg {
        format!("-{body}")
    } else {
        body
    }
}

fn trim_float(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_and_null_take_defaults() {
        let t = Timings::from_json(None, Some(&JsValue::Null));
        assert_eq!(t, Timings::default());
        let t = Timings::from_json(
            Some(&JsValue::String(" 200 ")),
            Some(&JsValue::Number("1e400")),
        );
        assert_eq!(t.interval_ms, 200.0);
        assert_eq!(t.cap_ms, f64::INFINITY);
    }

    #[test]
    fn command_line_durations() {
        let cases: &[(&str, f64)] = &[
            ("86400000", 86_400_000.0),
            ("1d", 86_400_000.0),
            ("200ms", 200.0),
            ("5s", 5000.0),
            ("5m", 300_000.0),
            ("1h 30m", 5_400_000.0),
            ("inf", f64::INFINITY),
            ("Infinity", f64::INFINITY),
            ("0", 0.0),
            ("-5", -5.0),
            ("0.5", 0.5),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration_ms(text), Ok(*want), "{text}");
        }
        for bad in ["", "5 parsecs", "NaN", "abc"] {
            assert!(parse_duration_ms(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn refused_values() {
        assert!(is_refused_timing(0.0));
        assert!(is_refused_timing(-1.0));
        assert!(is_refused_timing(f64::NAN));
        assert!(!is_refused_timing(f64::INFINITY));
        assert!(!is_refused_timing(0.5));
    }

    #[test]
    fn formatting() {
        assert_eq!(format_ms(300.0), "300 ms");
        assert_eq!(format_ms(5000.0), "5 s");
        assert_eq!(format_ms(500.0), "500 ms");
        assert_eq!(format_ms(150_000.0), "2 min 30 s");
        assert_eq!(format_ms(300_000.0), "5 min");
        assert_eq!(format_ms(TIMER_LIMIT_MS), "24.9 d");
        assert_eq!(format_ms(f64::INFINITY), "infinite");
    }
}
