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

/// `probe` of a host entry (`--config`) running `lastwords.py SHAPE` with `env`.
fn entry_probe(dir: &std::path::Path, shape: &str, env: Value, launches: &str) -> Command {
    let file = dir.join("servers.json");
    let script = fixture("servers/lastwords.py").display().to_string();
    let entry = serde_json::json!({"mcplServers": {"it": {
        "command": "python3",
        "args": [script, shape],
        "env": env,
    }}});
    std::fs::write(&file, entry.to_string()).expect("write");
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(&file)
        .args([
            "--server",
            "it",
            "--launches",
            launches,
            "--interval",
            "200ms",
        ])
        .args(["--watch", "2s", "--format", "json"])
        .stdin(Stdio::null());
    cmd
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
    let r = run_diagnoses(&mut entry_probe(
        dir.path(),
        "required-block",
        serde_json::json!({"MONDAY_API_TOKEN": "planted-monday-secret"}),
        "1",
    ));
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

#[test]
fn a_not_found_line_beside_a_variable_at_a_missing_path_names_the_variable() {
    // @modelcontextprotocol/server-gdrive: GDRIVE_CREDENTIALS_PATH at a file that does not
    // exist; "Credentials not found. Please run with 'auth' argument first.", exit 1, at the
    // same time after each start (a timer by its times alone).
    let dir = tempfile::tempdir().expect("tempdir");
    let creds = dir.path().join("creds.json").display().to_string();
    let r = run_diagnoses(&mut entry_probe(
        dir.path(),
        "credentials-path",
        serde_json::json!({"GDRIVE_CREDENTIALS_PATH": creds}),
        "2",
    ));
    assert_top(
        "gdrive",
        &r,
        "missing-file",
        &["point `GDRIVE_CREDENTIALS_PATH` at a file that exists"],
    );
    // Look-alike: another variable at a missing path, whose name is not the line's words.
    let other = dir.path().join("app.log").display().to_string();
    let r = run_diagnoses(&mut entry_probe(
        dir.path(),
        "credentials-path",
        serde_json::json!({"LOG_FILE_PATH": other}),
        "1",
    ));
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert!(r.1.iter().all(|d| d["id"] != "missing-file"), "{:#?}", r.1);
    // The same as a bare command (`probe -- CMD` with the variable in its environment, as
    // stop 41's corpus runs it): named too (was cause-unknown); `XDG_CONFIG_HOME` at a missing
    // folder, every shell's, never.
    let r = run_diagnoses(
        probe(&["credentials-path"])
            .env("GDRIVE_CREDENTIALS_PATH", &creds)
            .env("XDG_CONFIG_HOME", dir.path().join("nothing")),
    );
    assert_top(
        "gdrive bare",
        &r,
        "missing-file",
        &["point `GDRIVE_CREDENTIALS_PATH` at a file that exists"],
    );
    let r = run_diagnoses(
        probe(&["credentials-path"])
            .env_remove("GDRIVE_CREDENTIALS_PATH")
            .env("XDG_CONFIG_HOME", dir.path().join("nothing")),
    );
    assert!(
        r.1.iter().all(|d| !next(d).contains("XDG_CONFIG_HOME")),
        "{:#?}",
        r.1
    );
    // Look-alike: the file there, it serves.
    std::fs::write(dir.path().join("creds.json"), "{}").expect("write");
    let r = run_diagnoses(&mut entry_probe(
        dir.path(),
        "credentials-path",
        serde_json::json!({"GDRIVE_CREDENTIALS_PATH": creds}),
        "1",
    ));
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
}
