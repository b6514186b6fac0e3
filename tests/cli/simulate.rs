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
    assert!(text.contains("reset-on-handshake: older hosts"), "{text}");
    assert!(text.contains("lasting: hosts with the lasting-connection fix"));
    assert!(!text.contains("#999"), "{text}");
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
        .find(|l| l.contains("reset-on-") && l.contains("kubernetes"))
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
        (&["simulate", "--server", "sometimes"], "--behaviour"),
        (&["simulate", "--preset", "nope"], "--preset"),
        (&["simulate", "--span", "0"], "--for"),
        (&["simulate", "--attempts", "3", "--span", "1d"], "--for"),
        (&["simulate", "--format", "events"], "probe"),
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
        "--behaviour",
        "dies-after=300ms",
        "--launches",
        "8",
        "--seed",
        "7",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out));
}

/// One vocabulary: the new names, their short forms and the old spellings give the same
/// document; rule names are value enums with did-you-mean; a duration error has one hint.
#[test]
fn one_name_per_idea_and_old_spellings_stay_accepted() {
    let new = run(&[
        "simulate",
        "-p",
        "reset-on-handshake",
        "-b",
        "never",
        "-n",
        "6",
        "--no-jitter",
        "-f",
        "json",
    ]);
    let old = run(&[
        "simulate",
        "--preset",
        "handshake",
        "--server",
        "never",
        "--attempts",
        "6",
        "--no-jitter",
        "--json",
    ]);
    assert_eq!(new.status.code(), Some(0), "{}", stderr(&new));
    assert_eq!(stdout(&new), stdout(&old));
    let doc: Value = serde_json::from_slice(&new.stdout).expect("JSON");
    assert_eq!(doc["runs"][0]["preset"], "reset-on-handshake");
    let a = run(&["simulate", "--for", "1h", "--no-jitter", "--format", "json"]);
    let b = run(&["simulate", "--span", "1h", "--no-jitter", "--json"]);
    assert_eq!(stdout(&a), stdout(&b));

    let typo = run(&["simulate", "--preset", "lastin"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(
        stderr(&typo).contains("a similar value exists: 'lasting'"),
        "{}",
        stderr(&typo)
    );
    let compare = run(&["simulate", "--compare", "lasting,k8s,nope"]);
    assert!(stderr(&compare).contains("[possible values: reset-on-handshake, lasting"));

    let bad = run(&["simulate", "--interval", "5x"]);
    let err = stderr(&bad);
    assert!(
        err.contains("\"5x\" is not a duration (try 5000, 5s, 300ms, 1d or inf)"),
        "{err}"
    );
    assert!(!err.contains("supported units"), "{err}");

    // A bare number under 100 is milliseconds, and the note says so.
    // (A short span: the note is what is checked, not a day of 5 ms relaunches.)
    let small = run(&["simulate", "--interval", "5", "--rows", "0", "--for", "1m"]);
    assert!(
        stderr(&small).contains("note: 5 is read as 5 ms"),
        "{}",
        stderr(&small)
    );
    let ms = run(&[
        "simulate",
        "--interval",
        "5ms",
        "--rows",
        "0",
        "--for",
        "1m",
    ]);
    assert!(!stderr(&ms).contains("note:"));
}

/// Review 4 rows 12 and 13: in a locale that is not UTF-8 the tables are ASCII too, and one
/// count reset reads "once".
#[test]
fn tables_are_ascii_outside_utf8_and_one_reset_reads_once() {
    let out = crate::support::bin()
        .args([
            "simulate",
            "--behaviour",
            "dies-after=40s",
            "--for",
            "7d",
            "--seed",
            "1",
            "--compare",
            "reset-on-handshake,claude-code-stdio",
        ])
        .env("LC_ALL", "C")
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.is_ascii(), "{text}");
    assert!(
        text.contains("+----") && text.contains("| count resets"),
        "{text}"
    );
    let resets = text
        .lines()
        .find(|l| l.starts_with("| count resets"))
        .expect("the count resets row");
    assert!(resets.contains(" once "), "{resets}");
    assert!(!text.contains("1 times"), "{text}");
    // With a UTF-8 locale the same table draws boxes.
    let utf8 = crate::support::bin()
        .args([
            "simulate",
            "--seed",
            "1",
            "--compare",
            "reset-on-handshake,lasting",
        ])
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("the binary runs");
    assert!(String::from_utf8_lossy(&utf8.stdout).contains('┆'));
}

/// Review 4 row 9: a run names every file it wrote, on standard error after its report.
#[test]
fn every_file_written_is_named() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let html = dir.path().join("r.html");
    let svg = dir.path().join("r.svg");
    let out = run(&[
        "simulate",
        "--seed",
        "1",
        "--report",
        &html.display().to_string(),
        "--svg",
        &svg.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("report: {}\n", html.display())),
        "{err}"
    );
    assert!(err.contains(&format!("svg: {}\n", svg.display())), "{err}");
    assert!(html.is_file() && svg.is_file());
    let quiet = run(&[
        "simulate",
        "-q",
        "--seed",
        "1",
        "--report",
        &html.display().to_string(),
    ]);
    assert!(!stderr(&quiet).contains("report:"), "{}", stderr(&quiet));
}
