//! Numbers with their units, as every renderer writes them: clock times from a run's start,
//! durations rounded for reading, shares as percentages, wall-clock timestamps.

/// `h:mm:ss.mmm` from the start (with days when past one).
pub(crate) fn clock(ms: f64) -> String {
    if !ms.is_finite() {
        return "-".into();
    }
    let total = ms.max(0.0).round() as u64;
    let (days, rest) = (total / 86_400_000, total % 86_400_000);
    let (h, rest) = (rest / 3_600_000, rest % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    if days > 0 {
        format!("{days}d {h:02}:{m:02}:{s:02}.{milli:03}")
    } else {
        format!("{h}:{m:02}:{s:02}.{milli:03}")
    }
}

/// One format for a whole column of times since the start, so that `49.800 s` never stands
/// over `1:28.767` (and `43:13.441` is never read as hours): seconds while every time is under
/// a minute, else `m:ss.mmm` under an hour, else `h:mm:ss.mmm`, the header naming the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnClock {
    Seconds,
    Minutes,
    Hours,
}

impl ColumnClock {
    /// The format that holds the largest of `times` (ms since the start).
    pub(crate) fn for_times(times: impl IntoIterator<Item = f64>) -> ColumnClock {
        let max = times
            .into_iter()
            .filter(|t| t.is_finite())
            .fold(0.0, f64::max);
        // What rounds to a whole minute is shown as one.
        if max.round() < 60_000.0 {
            ColumnClock::Seconds
        } else if max.round() < 3_600_000.0 {
            ColumnClock::Minutes
        } else {
            ColumnClock::Hours
        }
    }

    /// A cell: `7.779 s`; `0:07.779`, `2:05.123`; `0:00:07.779`, `1d 02:03:04.005`.
    pub(crate) fn cell(self, ms: f64) -> String {
        if !ms.is_finite() {
            return "-".into();
        }
        let total = ms.max(0.0).round() as u64;
        match self {
            ColumnClock::Seconds => format!("{:.3} s", total as f64 / 1000.0),
            ColumnClock::Minutes => format!(
                "{}:{:02}.{:03}",
                total / 60_000,
                (total / 1000) % 60,
                total % 1000
            ),
            ColumnClock::Hours => clock(ms),
        }
    }

    /// The column's header: `launched`, `launched\n(m:ss)`, `launched\n(h:mm:ss)`.
    pub(crate) fn header(self, name: &str) -> String {
        match self {
            ColumnClock::Seconds => name.to_string(),
            ColumnClock::Minutes => format!("{name}\n(m:ss)"),
            ColumnClock::Hours => format!("{name}\n(h:mm:ss)"),
        }
    }
}

/// `40.1%`, `<0.1%`.
pub(crate) fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.1 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// `1,204,311`: a count with thousands separated.
pub(crate) fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `… 1,204,311 more`: what a folded list says where its items were left out.
pub(crate) fn more(folded: u64) -> String {
    format!("… {} more", count(folded))
}

/// A duration rounded for reading: to 100 ms from a second up, else to the millisecond.
pub(crate) fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

/// An instant as RFC 3339 UTC with milliseconds (`2026-12-01T03:36:30.123Z`).
pub(crate) fn rfc3339(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_of_times_has_one_format() {
        let c = ColumnClock::for_times([0.0, 49_800.0]);
        assert_eq!(c, ColumnClock::Seconds);
        assert_eq!(c.cell(49_800.0), "49.800 s");
        let c = ColumnClock::for_times([49_800.0, 88_767.0, 2_593_441.0]);
        assert_eq!(c, ColumnClock::Minutes);
        assert_eq!(
            [49_800.0, 88_767.0, 2_593_441.0].map(|t| c.cell(t)),
            ["0:49.800", "1:28.767", "43:13.441"]
        );
        assert_eq!(c.header("launched"), "launched\n(m:ss)");
        let c = ColumnClock::for_times([4_800.0, 3_600_000.0]);
        assert_eq!(c.cell(4_800.0), "0:00:04.800");
        assert_eq!(c.header("launched"), "launched\n(h:mm:ss)");
        // 59.9996 s shows as a minute: the minutes' form.
        assert_eq!(ColumnClock::for_times([59_999.6]), ColumnClock::Minutes);
    }
}
