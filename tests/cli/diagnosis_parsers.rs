//! The Why of a command line an argument parser refuses, in every ecosystem, read by each
//! parser's own structure (issue 27): an unknown flag the entry passes, a command left out, a
//! value outside a flag's choices. Each fixture is a real child process: Python's argparse and
//! Node's util.parseArgs run for real; the others print their parser's exact lines (the
//! versions are named in fixtures/servers/parsers.py and parsers.mjs). Each has a healthy
//! look-alike that must not match.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, evidence_texts, fixture, run_diagnoses};

fn probe(lang: &str, script: &str, args: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s", "--json", "--"])
        .arg(lang)
        .arg(fixture(script))
        .args(args)
        .stdin(Stdio::null());
    cmd
}

/// The run's exit code and its diagnoses.
fn run(lang: &str, script: &str, args: &[&str]) -> (Option<i32>, Vec<Value>) {
    run_diagnoses(&mut probe(lang, script, args))
}

fn py(args: &[&str]) -> (Option<i32>, Vec<Value>) {
    run("python3", "servers/parsers.py", args)
}

fn node(args: &[&str]) -> (Option<i32>, Vec<Value>) {
    run("node", "servers/parsers.mjs", args)
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

/// A healthy run: exit 0 and no cause.
fn assert_healthy(what: &str, (code, d): &(Option<i32>, Vec<Value>)) {
    assert_eq!(*code, Some(0), "{what}: {d:#?}");
    assert!(d.is_empty(), "{what}: {d:#?}");
}

#[test]
fn go_flag_refuses_a_double_dash_flag_and_its_usage_names_no_variable_to_set() {
    // mcp-grafana run with `--url`: Go's flag names `-url`; its usage under it describes flags
    // with the variables they fall back to, which are no cause.
    let r = py(&["go-flag", "--url", "http://127.0.0.1:3999"]);
    assert_top("go-flag --url", &r, "bad-argument", &["remove `--url`"]);
    assert!(
        !serde_json::to_string(&r.1)
            .expect("json")
            .contains("GRAFANA_LOKI"),
        "{:#?}",
        r.1
    );
    assert!(
        r.1.iter().all(|d| d["id"] != "missing-env-var"),
        "{:#?}",
        r.1
    );
    // A close flag in its usage is named.
    let r = py(&["go-flag", "--adress", ":8000"]);
    assert_top(
        "go-flag --adress",
        &r,
        "bad-argument",
        &["change `--adress` to `-address`"],
    );
    // A value outside its transports (its slog line `Must be 'stdio', 'sse' or ...`).
    let r = py(&["go-flag", "-t", "http"]);
    assert_top(
        "go-flag -t http",
        &r,
        "bad-argument",
        &["`-t http`", "`-t stdio`"],
    );
    // Look-alike: its own flags, written with two dashes, run.
    assert_healthy(
        "go-flag --transport stdio",
        &py(&["go-flag", "--transport", "stdio"]),
    );
}

#[test]
fn cobra_and_clap_name_the_flag_and_the_one_suggested() {
    let r = py(&["cobra", "--url", "x"]);
    assert_top("cobra --url", &r, "bad-argument", &["remove `--url`"]);
    assert!(
        r.1.iter().all(|d| d["id"] != "missing-env-var"),
        "{:#?}",
        r.1
    );
    let r = py(&["cobra", "-x"]);
    assert_top("cobra -x", &r, "bad-argument", &["`-x`"]);
    let r = py(&["clap", "--api-kee", "k-1"]);
    assert_top(
        "clap --api-kee",
        &r,
        "bad-argument",
        &["change `--api-kee` to `--api-key`"],
    );
    assert_healthy("cobra --api-key", &py(&["cobra", "--api-key", "k-1"]));
    assert_healthy("clap --transport", &py(&["clap", "--transport", "stdio"]));
}

#[test]
fn a_flag_spelt_otherwise_than_the_usage_lists_it_names_the_usage_spelling() {
    // pdf-tools-mcp 0.x (argparse, real): `--workspace_path` in its usage, `--workspace-path`
    // in the entry; the fix is the usage's spelling, never to remove the flag. The same with
    // cobra (kubernetes-mcp-server's `--read-only` written `--read_only`) and a camelCase
    // spelling (`--apiKey` for `--api-key`, as a user copies from a JSON config).
    let r = py(&["argparse-underscore", "--workspace-path", "/tmp"]);
    assert_top(
        "argparse --workspace-path",
        &r,
        "bad-argument",
        &["use `--workspace_path` in place of `--workspace-path`"],
    );
    assert!(!next(&r.1[0]).contains("remove"), "{}", next(&r.1[0]));
    let r = py(&["cobra", "--api_key", "k-1"]);
    assert_top("cobra --api_key", &r, "bad-argument", &["use `--api-key`"]);
    let r = py(&["cobra", "--apiKey", "k-1"]);
    assert_top("cobra --apiKey", &r, "bad-argument", &["use `--api-key`"]);
    // Look-alike: the usage's own spelling serves.
    assert_healthy(
        "argparse --workspace_path",
        &py(&["argparse-underscore", "--workspace_path", "/tmp"]),
    );
}

#[test]
fn a_flag_the_error_names_beside_the_entrys_is_added_or_the_entrys_removed() {
    // markitdown-mcp (argparse, real): `--port` alone, "only valid when ... (see: --http)".
    let r = py(&["argparse-needs", "--port", "3021"]);
    assert_top(
        "argparse --port",
        &r,
        "missing-argument",
        &["add `--http` to the command, or remove `--port`"],
    );
    // mcp-server-motherduck (click): "In-memory databases require the --read-write flag."
    let r = py(&["click-needs"]);
    assert_top("click", &r, "missing-argument", &["add `--read-write`"]);
    // kubernetes-mcp-server (cobra's flag group): `missing [tls-key]`.
    let r = py(&["cobra-group", "--tls-cert", "/tmp/c.pem"]);
    assert_top("cobra group", &r, "missing-argument", &["add `--tls-key`"]);
    // Two of the entry's flags its parser refuses together name none it lacks: not this row's
    // (the table's `bad-argument` quotes the error).
    let r = py(&["argparse-apart", "--http", "--sse"]);
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert!(!next(&r.1[0]).contains("add `"), "{}", next(&r.1[0]));
    // Look-alikes: an error naming only the entry's own flag asks for no other one; the flags
    // together serve.
    let r = py(&["argparse-needs", "--port", "abc"]);
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert!(!next(&r.1[0]).contains("add `"), "{}", next(&r.1[0]));
    assert_healthy(
        "argparse --http --port",
        &py(&["argparse-needs", "--http", "--port", "3021"]),
    );
    assert_healthy("click --read-write", &py(&["click-needs", "--read-write"]));
    assert_healthy("argparse --http", &py(&["argparse-apart", "--http"]));
    assert_healthy(
        "cobra both",
        &py(&["cobra-group", "--tls-cert", "/tmp/c", "--tls-key", "/tmp/k"]),
    );
}

#[test]
fn click_and_typer_name_the_flag_the_command_and_the_choice() {
    let r = py(&["click", "serve", "--api-kee", "k-1"]);
    assert_top(
        "click --api-kee",
        &r,
        "bad-argument",
        &["change `--api-kee` to `--api-key`"],
    );
    // No command: click prints its help alone, exit 2.
    let r = py(&["click"]);
    assert_top("click", &r, "missing-argument", &["add `serve` first"]);
    let r = py(&["click", "serve", "--transport", "htp"]);
    assert_top(
        "click --transport htp",
        &r,
        "bad-argument",
        &["`--transport stdio`"],
    );
    let r = py(&["typer", "serve", "--api-kee", "k-1"]);
    assert_top(
        "typer --api-kee",
        &r,
        "bad-argument",
        &["change `--api-kee` to `--api-key`"],
    );
    // typer's `Missing command.` lists none: its `--help` is asked (rich boxes).
    let r = py(&["typer"]);
    assert_top("typer", &r, "missing-argument", &["add `serve` first"]);
    let tried = evidence_texts(&r.1[0], Some("tried"));
    assert!(tried.iter().any(|t| t.contains("--help")), "{tried:?}");
    assert_healthy("click serve", &py(&["click", "serve", "--api-key", "k-1"]));
    assert_healthy("typer serve", &py(&["typer", "serve"]));
}

#[test]
fn argparse_names_the_command_that_serves_the_flag_and_the_choice() {
    // web-forager without `serve`: argparse's `arguments are required: command` under a
    // usage with `{serve,search,news,fetch,version}`.
    let r = py(&["argparse"]);
    assert_top(
        "argparse",
        &r,
        "missing-argument",
        &["add `serve` first", "`search`", "`version`"],
    );
    let r = py(&["argparse", "serve", "--url", "x"]);
    assert_top("argparse --url", &r, "bad-argument", &["remove `--url`"]);
    let r = py(&["argparse", "--transport", "htp", "serve"]);
    assert_top(
        "argparse --transport htp",
        &r,
        "bad-argument",
        &["`--transport stdio`"],
    );
    assert_healthy("argparse serve", &py(&["argparse", "serve"]));
}

#[test]
fn a_choice_of_a_setting_about_a_secret_is_shown_and_the_secret_is_not() {
    // awslabs.eks-mcp-server 0.1 (stop 38): `--auth-mode kube` was masked as a secret, with the
    // `kube` of its choice `kubeconfig`; the key beside it must stay masked.
    let out = probe(
        "python3",
        "servers/parsers.py",
        &[
            "argparse",
            "--api-key",
            "tok-s3cret-98765",
            "--auth-mode",
            "kube",
            "serve",
        ],
    )
    .output()
    .expect("the binary runs");
    let r = crate::support::diagnoses_of(&out);
    assert_top(
        "argparse --auth-mode kube",
        &r,
        "bad-argument",
        &["change `--auth-mode kube`", "to `kubeconfig`, the closest"],
    );
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(!all.contains("tok-s3cret-98765"), "{all}");
    assert!(all.contains("[redacted]"), "{all}");
}

#[test]
fn a_misspelt_command_names_the_closest_one_the_cli_lists() {
    // jcodemunch-mcp 1.x (stop 38): `server` for `serve`, left over by argparse as an
    // unrecognised argument under a usage that lists the subcommands.
    let r = py(&["argparse-legacy", "server"]);
    assert_top(
        "argparse-legacy server",
        &r,
        "missing-argument",
        &[
            "write `serve` in the command, in place of `server`",
            "none of the commands",
        ],
    );
    // click's `No such command 'srve'.` lists nothing: its `--help` is asked.
    let r = py(&["click", "srve"]);
    assert_top(
        "click srve",
        &r,
        "missing-argument",
        &["write `serve` in the command, in place of `srve`"],
    );
    // Look-alikes: the command left out is put first by the CLI itself; the command given.
    assert_healthy("argparse-legacy", &py(&["argparse-legacy"]));
    assert_healthy("argparse-legacy serve", &py(&["argparse-legacy", "serve"]));
}

#[test]
fn node_parsers_name_the_flag_the_command_and_the_choice() {
    // util.parseArgs, for real: a TypeError with its code, read as the flag, not a crash.
    let r = node(&["parseargs", "--url", "x"]);
    assert_top("parseArgs --url", &r, "bad-argument", &["`--url`"]);
    let r = node(&["commander", "serve", "--api-kee", "k-1"]);
    assert_top(
        "commander --api-kee",
        &r,
        "bad-argument",
        &["change `--api-kee` to `--api-key`"],
    );
    let r = node(&["commander"]);
    assert_top("commander", &r, "missing-argument", &["add `serve` first"]);
    let r = node(&["commander", "serve", "--transport", "htp"]);
    assert_top(
        "commander --transport htp",
        &r,
        "bad-argument",
        &["`--transport stdio`"],
    );
    let r = node(&["yargs", "serve", "--url", "x"]);
    assert_top("yargs --url", &r, "bad-argument", &["remove `--url`"]);
    let r = node(&["yargs"]);
    assert_top("yargs", &r, "missing-argument", &["add `serve` first"]);
    let r = node(&["yargs", "serve", "--transport", "htp"]);
    assert_top(
        "yargs --transport htp",
        &r,
        "bad-argument",
        &["`--transport stdio`"],
    );
    assert_healthy("parseArgs", &node(&["parseargs", "--api-key", "k-1"]));
    assert_healthy("commander serve", &node(&["commander", "serve"]));
    assert_healthy(
        "yargs serve",
        &node(&["yargs", "serve", "--transport", "stdio"]),
    );
}

#[test]
fn a_usage_at_start_and_an_unknown_option_in_a_log_are_no_cause_on_a_server_that_serves() {
    // Its usage names variables and flags (`GRAFANA_URL environment variable`, `unknown
    // option`) on stderr; then it serves.
    assert_healthy("help at start", &py(&["help-at-start", "--url", "x"]));
    // A log line `unknown option 'cache'` while the entry passes `--cache`: it stays up.
    assert_healthy("log at start", &node(&["log-at-start", "--cache", "x"]));
}

#[test]
fn an_error_line_above_a_long_usage_is_read_and_tied_to_the_entry() {
    // kubernetes-mcp-server (cobra): `Error: ... no contexts are defined in kubeconfig.`, a hint,
    // then a usage longer than the stderr tail. The error is what it says, not the usage's last
    // flag; KUBECONFIG set (to no file) is the variable to fix, `--kubeconfig` the flag to pass.
    let dir = tempfile::tempdir().expect("tempdir");
    let absent = dir.path().join("config.yaml");
    let mut cmd = probe("python3", "servers/parsers.py", &["cobra-context"]);
    cmd.env("KUBECONFIG", &absent);
    let r = run_diagnoses(&mut cmd);
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert!(
        next(&r.1[0]).contains("no current-context"),
        "{}",
        next(&r.1[0])
    );
    assert!(
        next(&r.1[0]).contains("`--kubeconfig`"),
        "{}",
        next(&r.1[0])
    );
    assert!(!next(&r.1[0]).contains("--version"), "{}", next(&r.1[0]));
    // Without a kubeconfig at all: the flag its usage lists.
    let r = py(&["cobra-context"]);
    assert_top(
        "cobra-context",
        &r,
        "missing-argument",
        &["pass `--kubeconfig`", "no current-context"],
    );
    // The healthy look-alikes: a kubeconfig that exists, and an `Error:` line naming a flag of
    // the usage under it before the server serves.
    let kube = dir.path().join("config");
    std::fs::write(&kube, "apiVersion: v1\n").expect("write");
    let ok = py(&["cobra-context", "--kubeconfig", &kube.display().to_string()]);
    assert_healthy("cobra-context --kubeconfig", &ok);
    assert_healthy("error and help at start", &py(&["error-help-at-start"]));
}
