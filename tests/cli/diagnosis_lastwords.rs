//! A server's last words read right (issue 27), through the real binary: what it printed on
//! stdout before it exited on its own (read with the rows that read stderr, not as logs), a flag
//! with a placeholder it shows, a value of the entry's args outside the choices it lists, and a
//! required argument its parser names, restated in the doctor's words. Each fixture prints a
//! real server's recorded lines (fixtures/servers/lastwords.py names each); each has a healthy
//! look-alike that must not match.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, fixture, run_diagnoses};

fn probe(args: &[&str]) -> Command {
    let script = fixture("servers/lastwords.py");
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--format",
        "json",
        "--",
        "python3",
    ])
    .arg(script)
    .args(args)
    .stdin(Stdio::null());
    cmd
}

fn next(d: &Value) -> String {
    d["next_step"].as_str().unwrap_or_default().to_string()
}

/// The top cause is `id` and its next step holds every one of `words`.
fn assert_top(what: &str, (code, d): &(Option<i32>, Vec<Value>), id: &str, words: &[&str]) {
    assert_eq!(*code, Some(1), "{what}: {d:#?}");
    assert_eq!(d[0]["id"], id, "{what}: {d:#?}");
    for w in words {
        assert!(
            next(&d[0]).contains(w),
            "{what}: {w} not in {}",
            next(&d[0])
        );
    }
}

#[test]
fn words_on_stdout_before_an_exit_are_last_words_not_logs() {
    // lsmcp without a preset: its guidance on stdout, exit 0.
    let r = run_diagnoses(&mut probe(&["presets"]));
    assert_top(
        "lsmcp without -p",
        &r,
        "missing-argument",
        &["pass `-p <preset>`", "`typescript`, `tsgo`"],
    );
    assert!(
        r.1.iter()
            .all(|d| d["id"] != "stdout-logging" && d["id"] != "stdin-closed"),
        "{:#?}",
        r.1
    );
    // The same words, then it serves: healthy.
    let r = run_diagnoses(&mut probe(&["words-then-serve"]));
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
    // The flag given: it serves.
    let r = run_diagnoses(&mut probe(&["presets", "-p", "typescript"]));
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
}
