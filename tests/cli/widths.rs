//! Output people can read at 80 and 120 columns: snapshots of every subcommand's text at both
//! widths (probe's own report, whose timings differ run to run, is snapshotted from a fixed run
//! in src/render/probe.rs), tables and prose within the width, help examples never wrapped.

use std::process::Stdio;

use crate::support::{bin, fixture, server_mjs, stdout};

/// Run the binary at `width` columns (`COLUMNS`, stdout not a terminal).
fn at(width: u16, args: &[&str]) -> std::process::Output {
    bin()
        .env("COLUMNS", width.to_string())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Every line of `text` fits in `width` columns, except the lines `exempt` accepts.
fn assert_fits(text: &str, width: usize, exempt: impl Fn(&str) -> bool) {
    for line in text.lines() {
        let w = unicode_width::UnicodeWidthStr::width(line);
        assert!(
            w <= width || exempt(line),
            "{w} > {width} columns: {line}\n{text}"
        );
    }
}

const SCHEDULE: &[&str] = &[
    "simulate",
    "--preset",
    "lasting",
    "--interval",
    "200ms",
    "--server",
    "dies-after=300ms",
    "--attempts",
    "7",
    "--seed",
    "3",
];

const COMPARE: &[&str] = &[
    "simulate",
    "--no-jitter",
    "--compare",
    "handshake,lasting,bounded,preceding-wait,kubernetes",
    "--cap",
    "1d",
    "--server",
    "drops-every=1h",
    "--span",
    "30d",
];

#[test]
fn simulate_at_80_and_120_columns() {
    for width in [80u16, 120] {
        let schedule = stdout(&at(width, SCHEDULE));
        assert_fits(&schedule, width.into(), |_| false);
        let compare = stdout(&at(width, COMPARE));
        assert_fits(&compare, width.into(), |_| false);
        insta::assert_snapshot!(format!("simulate_schedule_{width}"), schedule);
        insta::assert_snapshot!(format!("simulate_compare_{width}"), compare);
    }
}

#[test]
fn check_config_at_80_and_120_columns() {
    for width in [80u16, 120] {
        let out = bin()
            .env("COLUMNS", width.to_string())
            .current_dir(fixture("configs"))
            .args(["check-config", "hosts.json"])
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let text = stdout(&out);
        // A diagnostic's headline stays one line (rustc's habit, for grep; it fits 80 columns,
        // see below), and a source line is shown as it is in the file.
        assert_fits(&text, width.into(), |line| {
            line.starts_with("error[") || line.starts_with("warning[") || line.contains(" | ")
        });
        insta::assert_snapshot!(format!("check_config_{width}"), text);
    }
}

/// Every `.json` file under `dir`, recursively.
fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a fixture folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

#[test]
fn every_check_config_headline_fits_80_columns() {
    // Review 4 row 15: headlines of 170 to 316 characters. Every finding of every fixture
    // file, on every platform: the headline (`severity[code]: what`) fits 80 columns however
    // wide the terminal, the rest in the note lines. A value of the user's in backticks (a
    // path, a URL) may still make one longer: the fixtures' are of common lengths.
    let mut files = Vec::new();
    json_files(&fixture("configs"), &mut files);
    files.sort();
    let mut seen = 0;
    for file in &files {
        let out = bin()
            .env("COLUMNS", "200")
            .args(["check-config", "--platform", "all"])
            .arg(file)
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        for line in stdout(&out).lines() {
            if line.starts_with("error[") || line.starts_with("warning[") {
                seen += 1;
                let w = unicode_width::UnicodeWidthStr::width(line);
                assert!(w <= 80, "{w} columns in {}: {line}", file.display());
            }
        }
    }
    // The fixtures hold findings of most codes: a folder moved away must not pass vacuously.
    assert!(seen >= 60, "only {seen} headlines in {} files", files.len());
}

#[test]
fn probe_tables_fit_80_columns() {
    // The timings differ run to run; the layout must hold for any of them.
    let server = server_mjs();
    let out = at(
        80,
        &[
            "probe",
            "--launches",
            "3",
            "--interval",
            "100ms",
            "--seed",
            "1",
            "--",
            "node",
            &server,
            "--exit-after-handshake",
            "50",
        ],
    );
    let text = stdout(&out);
    assert_fits(&text, 80, |_| false);
    assert!(text.contains("┆ short-lived "), "{text}");
    let last = text
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let verdict = &text[text.rfind("Verdict:").expect("a verdict")..];
    assert!(verdict.contains(&last), "the verdict comes last:\n{text}");
}

#[test]
fn probe_all_repeats_its_summary_last_and_fits_80_columns() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let server = server_mjs();
    let config = serde_json::json!({"mcplServers": {
        "files": {"command": "node", "args": [&server], "reconnect": true, "reconnectIntervalMs": 100},
        "search": {"command": "node", "args": [&server, "--exit-after-handshake", "50"],
                   "reconnect": true, "reconnectIntervalMs": 100},
        "billing": {"command": "node", "args": [&server], "reconnect": true, "reconnectIntervalMs": 0},
    }});
    let file = dir.path().join("mcpl-servers.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let file = file.display().to_string();
    let out = at(
        80,
        &[
            "probe",
            "--config",
            &file,
            "--all",
            "--launches",
            "2",
            "--watch",
            "300ms",
            "--seed",
            "1",
        ],
    );
    let text = stdout(&out);
    // The command line in the detail header holds a long temp path, cut only there.
    assert_fits(&text, 80, |line| line.contains(&server));
    let summary = text.find("┆ pattern").expect("a summary table");
    let again = text.rfind("┆ pattern").expect("the summary again");
    assert!(
        again > text.find("== search").expect("search's details"),
        "{text}"
    );
    assert!(summary < again);
    assert!(
        text.trim_end().ends_with("(check-config errors)."),
        "{text}"
    );
}

#[test]
fn help_examples_are_never_wrapped() {
    let cmd = mcpl_doctor::cli::command();
    for sub in cmd.get_subcommands() {
        let Some(after) = sub.get_after_help().map(|h| h.to_string()) else {
            continue;
        };
        let Some((_, examples)) = after.split_once("Examples:\n") else {
            continue;
        };
        for width in [40u16, 60, 80, 200] {
            let help = stdout(&at(width, &[sub.get_name(), "--help"]));
            // The section ends at its first blank line (an "Exit status" paragraph may follow).
            for example in examples.lines().take_while(|l| !l.trim().is_empty()) {
                assert!(
                    help.lines().any(|l| l == example),
                    "{} --help at {width} columns broke the example {example:?}:\n{help}",
                    sub.get_name()
                );
            }
        }
    }
}

#[test]
fn color_always_works_in_every_subcommand_and_reaches_clap() {
    let esc = "\u{1b}[";
    let sim = at(100, &["--color", "always", "simulate", "--seed", "1"]);
    assert!(stdout(&sim).contains(esc), "simulate: {}", stdout(&sim));
    let check = bin()
        .current_dir(fixture("configs"))
        .args(["check-config", "--color", "always", "hosts.json"])
        .output()
        .expect("the binary runs");
    assert!(stdout(&check).contains(esc), "check-config");
    let server = server_mjs();
    let probe = at(
        100,
        &[
            "--color=always",
            "probe",
            "--watch",
            "200ms",
            "--",
            "node",
            &server,
        ],
    );
    let text = stdout(&probe);
    assert!(
        text.contains("\u{1b}[1;32mVerdict: "),
        "probe's verdict in green:\n{text}"
    );
    // clap's own errors follow --color, both ways.
    let typo = at(100, &["--color", "always", "prbe"]);
    assert!(
        crate::support::stderr(&typo).contains(esc),
        "clap's error in colour"
    );
    let typo = at(100, &["--color", "never", "prbe"]);
    assert!(!crate::support::stderr(&typo).contains(esc));
    assert!(crate::support::stderr(&typo).contains("tip: a similar subcommand exists"));
    // Without --color and not on a terminal: no colour anywhere.
    let plain = at(100, &["simulate", "--seed", "1"]);
    assert!(!stdout(&plain).contains(esc));
}
