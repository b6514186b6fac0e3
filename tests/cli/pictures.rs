//! Pictures through the real binary: the probe's timeline strip (one server, and one per server
//! with `--all`), in block characters and in plain ASCII.

use std::process::Stdio;

use serde_json::json;

use crate::support::{bin, server_mjs, stderr, stdout};

/// `probe` of the fixture dying 150 ms after each handshake, 4 launches, 100 ms interval.
fn probe_flapping(extra_env: &[(&str, &str)], extra_args: &[&str]) -> String {
    let mut cmd = bin();
    cmd.env("COLUMNS", "80")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE");
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let s = server_mjs();
    cmd.args([
        "probe",
        "--preset",
        "handshake",
        "--interval",
        "100ms",
        "--launches",
        "4",
    ])
    .args(extra_args)
    .args(["--", "node", &s, "--exit-after-handshake", "150"])
    .stdin(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stdout(&out)
}

/// The strip's line (between `|`), the launch line under it.
fn strip_of(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with('|') && l.contains("% connected"))
        .unwrap_or_else(|| panic!("no strip in:\n{text}"));
    let strip = lines[i][1..]
        .split('|')
        .next()
        .unwrap_or_default()
        .to_string();
    (strip, lines[i + 1].to_string())
}

#[test]
fn probe_ends_with_a_strip_before_the_verdict_within_80_columns() {
    let text = probe_flapping(&[("TERM", "xterm"), ("LANG", "en_GB.UTF-8")], &[]);
    let (strip, launches) = strip_of(&text);
    assert!(strip.contains('█') || strip.contains('▄'), "{text}");
    assert!(strip.contains('·'), "{text}");
    // One launch mark per launch: 4 launches at least 250 ms apart in a ~1.2 s run fit in
    // separate cells.
    assert_eq!(launches.matches('^').count(), 4, "{text}");
    let timeline = text.find("Timeline over").expect("a timeline");
    let verdict = text.find("Verdict:").expect("a verdict");
    assert!(timeline < verdict, "{text}");
    // The strip block fits 80 columns.
    let block = &text[timeline..verdict];
    for l in block.lines() {
        assert!(
            l.chars().count() <= 80,
            "{} columns: {l}",
            l.chars().count()
        );
    }
}

#[test]
fn plain_ascii_with_term_dumb_ascii_flag_or_a_c_locale() {
    for (env, args) in [
        (vec![("TERM", "dumb"), ("LANG", "en_GB.UTF-8")], vec![]),
        (
            vec![("TERM", "xterm"), ("LANG", "en_GB.UTF-8")],
            vec!["--ascii"],
        ),
        (vec![("TERM", "xterm"), ("LANG", "C")], vec![]),
    ] {
        let text = probe_flapping(&env, &args);
        let (strip, _) = strip_of(&text);
        assert!(strip.is_ascii(), "{env:?} {args:?}: {strip}");
        assert!(strip.contains('#') || strip.contains('+'), "{strip}");
        let from = text.find("Timeline over").expect("a timeline");
        let to = text.find("Verdict:").expect("a verdict");
        assert!(text[from..to].is_ascii(), "{}", &text[from..to]);
    }
}

#[test]
fn probe_all_draws_one_strip_per_server_on_one_time_axis() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let s = server_mjs();
    let entry = |args: &[&str]| {
        let mut all = vec![s.as_str()];
        all.extend_from_slice(args);
        json!({"command": "node", "args": all, "reconnect": true, "reconnectIntervalMs": 100})
    };
    let config = json!({"mcplServers": {
        "steady": entry(&[]),
        "flappy": entry(&["--exit-after-handshake", "100"]),
    }});
    let file = dir.path().join("servers.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let out = bin()
        .env("COLUMNS", "80")
        .args([
            "probe", "--ascii", "--all", "--for", "4s", "--watch", "10s", "--config",
        ])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let strips: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("% connected") && l.contains(" |"))
        .collect();
    // Both servers in the summary's strips (the flapping one's details repeat its own strip).
    let steady = strips
        .iter()
        .find(|l| l.trim_start().starts_with("steady |"));
    let flappy = strips
        .iter()
        .find(|l| l.trim_start().starts_with("flappy |"));
    let (steady, flappy) = (steady.expect(&text), flappy.expect(&text));
    // One shared axis: both strips are as wide.
    assert_eq!(steady.find('|'), flappy.find('|'), "{text}");
    assert_eq!(steady.rfind('|'), flappy.rfind('|'), "{text}");
    // The steady server is connected most of the time, the flapping one much less.
    let share = |l: &str| -> f64 {
        let p = l.split("| ").last().unwrap_or_default();
        p.trim_end_matches("% connected")
            .trim()
            .parse()
            .unwrap_or(-1.0)
    };
    assert!(share(steady) > 50.0, "{text}");
    assert!(share(flappy) < share(steady), "{text}");
}
