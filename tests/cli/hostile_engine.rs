//! The engine's ties (issue 21, item 11), through `simulate` as a user runs it: what the host
//! does at the very instant two things are due.

use crate::support::{bin, stderr};

/// `simulate ARGS --no-jitter --format json`: the first run's summary.
fn summary(args: &[&str]) -> serde_json::Value {
    let o = bin()
        .arg("simulate")
        .args(args)
        .args(["--no-jitter", "--format", "json"])
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    doc["runs"][0]["summary"].clone()
}

fn lines(s: &serde_json::Value) -> (u64, u64) {
    (
        s["status_down_lines"].as_u64().unwrap_or(u64::MAX),
        s["status_cleared_lines"].as_u64().unwrap_or(u64::MAX),
    )
}

#[test]
fn a_legacy_connection_ending_as_its_exchange_would_settle_clears_nothing() {
    // Before: `dies-after=0 --settle 0` gave 288 "down" lines and 287 "cleared", where the host
    // clears none (the connection ended at the instant its exchange would settle).
    let s = summary(&[
        "--preset",
        "lasting",
        "--behaviour",
        "dies-after=0",
        "--settle",
        "0",
    ]);
    assert_eq!(s["downs"], 288, "{s}");
    assert_eq!(lines(&s), (1, 0), "{s}");
    let s = summary(&[
        "--preset",
        "lasting",
        "--behaviour",
        "dies-after=100ms",
        "--settle",
        "100ms",
    ]);
    assert_eq!(lines(&s), (1, 0), "{s}");
    // One millisecond past the settle time, every reconnect clears the line.
    let s = summary(&[
        "--preset",
        "lasting",
        "--behaviour",
        "dies-after=101ms",
        "--settle",
        "100ms",
    ]);
    let (down, cleared) = lines(&s);
    assert!(cleared > 200 && cleared + 1 == down, "{s}");
}

#[test]
fn an_alert_due_exactly_at_the_end_of_the_span_is_not_counted() {
    // Modern engine, cap 22 ms, each connection 12 ms: the 105,883rd launch ends at exactly
    // 1 h. Before, its alert was counted (105,878 downs).
    let run = |span: &str| {
        summary(&[
            "--preset",
            "lasting",
            "--engine",
            "modern",
            "--interval",
            "5s",
            "--cap",
            "22ms",
            "--behaviour",
            "dies-after=12ms",
            "--for",
            span,
        ])
    };
    let s = run("1h");
    assert_eq!(
        (s["launches"].as_u64(), s["downs"].as_u64()),
        (Some(105_883), Some(105_877)),
        "{s}"
    );
    let s = run("3600001ms");
    assert_eq!(s["downs"], 105_878, "{s}");
}
