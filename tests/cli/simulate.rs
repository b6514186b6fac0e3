//! `simulate` through the real binary.

use serde_json::Value;

use crate::support::{run, stderr, stdout};

fn json(args: &[&str]) -> Value {
    let mut all = vec!["simulate", "--json"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn waits_s(run: &Value) -> Vec<f64> {
    run["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["wait"]["ms"].as_f64())
        .map(|ms| ms / 1000.0)
        .collect()
}

#[test]
fn no_arguments_prints_handshake_and_lasting_side_by_side() {
    let out = run(&["simulate", "--seed", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("dies right after its handshake"), "{text}");
    assert!(text.contains("handshake: agent-framework main"));
    assert!(text.contains("lasting: agent-framework #999"));
    assert!(text.contains("Summary over 1 d"));
    assert!(text.contains("MCPL server down (attempt 5)"), "{text}");
    // One timeline strip per preset.
    let strips: Vec<&str> = text.lines().filter(|l| l.contains("% connected")).collect();
    assert_eq!(strips.len(), 2, "{text}");
}

#[test]
fn defaults_never_waits_5_10_20_40_80_160_300_300() {
    let doc = json(&[
        "--preset",
        "lasting",
        "--server",
        "never",
        "--attempts",
        "9",
        "--no-jitter",
    ]);
    assert_eq!(doc["schema_version"], 1);
    let run = &doc["runs"][0];
    assert_eq!(
        waits_s(run),
        vec![5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0, 300.0]
    );
    let rows = run["rows"].as_array().expect("rows");
    for row in rows {
        let attempt = row["attempt"].as_u64().expect("attempt");
        assert_eq!(row["alert"].is_string(), attempt >= 5, "{row}");
    }
    assert_eq!(
        rows[5]["alert"],
        "MCPL server down (attempt 5): failed to connect"
    );
    // The envelope is the jitter's +-25%.
    assert_eq!(rows[0]["wait"]["min_ms"], 3750.0);
    assert_eq!(rows[0]["wait"]["max_ms"], 6250.0);
}

#[test]
fn issue_375_handshake_relaunches_every_half_second_without_alert() {
    let doc = json(&[
        "--preset",
        "handshake",
        "--interval",
        "200ms",
        "--server",
        "dies-after=300ms",
        "--span",
        "8s",
        "--no-jitter",
    ]);
    let run = &doc["runs"][0];
    let rows = run["rows"].as_array().expect("rows");
    let starts: Vec<f64> = rows
        .iter()
        .map(|r| r["launched_at_ms"].as_f64().expect("number"))
        .collect();
    assert_eq!(starts.len(), 16);
    assert!(
        starts
            .windows(2)
            .all(|w| (w[1] - w[0] - 500.0).abs() < 1e-6),
        "{starts:?}"
    );
    assert!(rows.iter().all(|r| r["alert"].is_null()));
    assert_eq!(run["summary"]["first_down_ms"], Value::Null);
}

#[test]
fn issue_375_lasting_waits_double_and_alerts_from_attempt_5() {
    let doc = json(&[
        "--preset",
        "lasting",
        "--interval",
        "200ms",
        "--server",
        "dies-after=300ms",
        "--attempts",
        "12",
        "--no-jitter",
    ]);
    let run = &doc["runs"][0];
    let rows = run["rows"].as_array().expect("rows");
    let attempts: Vec<u64> = rows
        .iter()
        .map(|r| r["attempt"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(attempts, (0..12).collect::<Vec<u64>>());
    assert!(rows
        .iter()
        .all(|r| r["happened_text"] == "connected, then closed after 0 s"));
    assert_eq!(&waits_s(run)[..4], &[0.2, 0.4, 0.8, 1.6]);
    assert_eq!(
        rows[5]["alert"],
        "MCPL server down (attempt 5): connected, then closed after 0 s"
    );
}

#[test]
fn compare_prints_one_column_per_preset() {
    let out = run(&[
        "simulate",
        "--compare",
        "handshake,lasting,kubernetes,systemd",
        "--server",
        "never",
        "--seed",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let header = text
        .lines()
        .find(|l| l.contains("handshake") && l.contains("kubernetes"))
        .expect("a header row naming the presets");
    assert!(
        header.contains("lasting") && header.contains("systemd"),
        "{header}"
    );
    // No schedule tables with --compare, only the summary.
    assert!(!text.contains("launched at"));
    assert!(text.contains("failed: start limit hit"), "{text}");
}

#[test]
fn same_seed_same_output() {
    let a = run(&["simulate", "--seed", "42", "--preset", "lasting", "--json"]);
    let b = run(&["simulate", "--seed", "42", "--preset", "lasting", "--json"]);
    assert_eq!(a.stdout, b.stdout);
    let c = run(&["simulate", "--seed", "43", "--preset", "lasting", "--json"]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn humantime_inf_and_bare_milliseconds_are_accepted() {
    for cap in ["86400000", "1d", "inf", "Infinity"] {
        let out = run(&[
            "simulate",
            "--preset",
            "lasting",
            "--cap",
            cap,
            "--no-jitter",
        ]);
        assert_eq!(out.status.code(), Some(0), "{cap}: {}", stderr(&out));
    }
    let day = json(&["--preset", "lasting", "--cap", "1d", "--no-jitter"]);
    assert_eq!(day["runs"][0]["cap_ms"], 86_400_000.0);
}

#[test]
fn bad_input_is_a_usage_error_naming_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--cap", "5 parsecs"], "--cap"),
        (&["simulate", "--server", "sometimes"], "--server"),
        (&["simulate", "--preset", "nope"], "--preset"),
        (&["simulate", "--span", "0"], "--span"),
        (&["simulate", "--attempts", "3", "--span", "1d"], "--span"),
        (&["simulate", "--seed", "1", "--no-jitter"], "--no-jitter"),
    ];
    for (args, flag) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty());
        assert!(stderr(&out).contains(flag), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn schedule_table_snapshot() {
    let out = run(&[
        "simulate",
        "--preset",
        "lasting",
        "--interval",
        "200ms",
        "--server",
        "dies-after=300ms",
        "--attempts",
        "8",
        "--seed",
        "7",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out));
}
