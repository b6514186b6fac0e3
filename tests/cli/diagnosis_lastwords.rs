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

#[test]
fn a_value_of_the_args_outside_the_choices_listed_names_its_argument() {
    // lsmcp -p ts: `Unknown preset: ts. Available presets: typescript, ...` on stderr.
    let r = run_diagnoses(&mut probe(&["presets", "-p", "ts"]));
    assert_top(
        "lsmcp -p ts",
        &r,
        "bad-argument",
        &["change `-p ts` in the command to one of its choices: `tsgo`, `typescript`, `deno`"],
    );
    // Look-alike: a preset it has serves (the same words never printed).
    let r = run_diagnoses(&mut probe(&["presets", "-p", "ocaml"]));
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
}

#[test]
fn a_required_argument_its_parser_names_is_restated() {
    // modular-mcp 0.x (commander): `error: missing required argument 'config-file-path'`.
    let r = run_diagnoses(&mut probe(&["required-commander"]));
    assert_top(
        "commander",
        &r,
        "missing-argument",
        &["add the `config-file-path` argument (a file's path) to the command"],
    );
    // click: its usage, `Error: Missing argument 'CONFIG_FILE'.`.
    let r = run_diagnoses(&mut probe(&["required-click"]));
    assert_top(
        "click",
        &r,
        "missing-argument",
        &["add the `CONFIG_FILE` argument (a file's path)"],
    );
    // yargs: its options, `Missing required argument: token`.
    let r = run_diagnoses(&mut probe(&["required-yargs"]));
    assert_top(
        "yargs",
        &r,
        "missing-argument",
        &["add `--token` with its value to the command"],
    );
    // @mondaydotcomorg/monday-api-mcp: a block under `The following required arguments are
    // missing:`, each item with its flags; the entry's MONDAY_API_TOKEN is not read for it.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("servers.json");
    let script = fixture("servers/lastwords.py").display().to_string();
    let entry = serde_json::json!({"mcplServers": {"it": {
        "command": "python3",
        "args": [script, "required-block"],
        "env": {"MONDAY_API_TOKEN": "planted-monday-secret"},
    }}});
    std::fs::write(&file, entry.to_string()).expect("write");
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(&file)
        .args(["--server", "it", "--launches", "1", "--watch", "2s"])
        .args(["--format", "json"])
        .stdin(Stdio::null());
    let r = run_diagnoses(&mut cmd);
    assert_top(
        "block",
        &r,
        "missing-argument",
        &[
            "add `--token` with its value to the entry's args",
            "the entry's `env` sets `MONDAY_API_TOKEN`, which the server does not read for it",
        ],
    );
    let r = run_diagnoses(probe(&["required-block"]).env("MONDAY_TOKEN", "planted-monday-secret"));
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
    // Look-alikes: given, each serves.
    for args in [
        &["required-commander", "servers.json"][..],
        &["required-click", "config.toml"],
        &["required-yargs", "--token", "t0k"],
    ] {
        let r = run_diagnoses(&mut probe(args));
        assert_eq!(r.0, Some(0), "{args:?}: {:#?}", r.1);
        assert!(r.1.is_empty(), "{args:?}: {:#?}", r.1);
    }
}
