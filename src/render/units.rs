//! Numbers with their units, as every renderer writes them: clock times from a run's start,
//! durations rounded for reading, shares as percentages, wall-clock timestamps.

/// `h:mm:ss.mmm` from the start (with days when past one).
pub fn clock(ms: f64) -> String {
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

/// `40.1%`, `<0.1%`.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.1 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// `1,204,311`: a count with thousands separated.
pub fn count(n: u64) -> String {
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
pub fn more(folded: u64) -> String {
    format!("… {} more", count(folded))
}

/// A duration rounded for reading: to 100 ms from a second up, else to the millisecond.
pub fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

/// An instant as RFC 3339 UTC with milliseconds (`2026-12-01T03:36:30.123Z`).
pub fn rfc3339(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}
