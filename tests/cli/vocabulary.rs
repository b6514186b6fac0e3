//! One vocabulary across subcommands (issue 11): the usage errors a newcomer meets first, the
//! old spellings kept as hidden aliases, and choosing one of two entries that share an id.

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::support::{bin, fixture, server_mjs, stderr, stdout};

fn probe(args: &[&str]) -> Output {
    bin()
        .arg("probe")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

#[test]
fn the_forgotten_double_dash_gets_the_command_that_works() {
    let out = probe(&[
        "--launches",
        "1",
        "node",
        "server.mjs",
        "--exit-after-handshake",
        "300",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "tip: put the server's command after `--`: mcpl-doctor probe --launches 1 -- node \
             server.mjs --exit-after-handshake 300"
        ),
        "{err}"
    );
}

#[test]
fn usage_lines_are_satisfiable_and_list_the_three_forms() {
    let forms = [
        "mcpl-doctor probe [OPTIONS] -- <COMMAND>...",
        "mcpl-doctor probe [OPTIONS] --url <URL> [--token <TOKEN>]",
        "mcpl-doctor probe [OPTIONS] --config <FILE> <--server <ID>...|--all>",
    ];
    // --all without --config asks for --config only; --token without --url for --url only.
    for (args, missing) in [
        (&["--all"][..], "--config <FILE>"),
        (&["--token", "abc"][..], "--url <URL>"),
    ] {
        let out = probe(args);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains(missing), "{err}");
        assert!(!err.contains("<COMMAND>...\n\nUsage"), "{err}");
        for form in forms {
            assert!(err.contains(form), "{args:?}: {err}");
        }
    }
    // Nothing at all: the three forms, with what each does.
    let out = probe(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("nothing to probe"), "{err}");
    assert!(err.contains("mcpl-doctor probe --url URL"), "{err}");
    assert!(
        err.contains("mcpl-doctor probe --config FILE --server ID|--all"),
        "{err}"
    );
}

#[test]
fn a_token_without_a_url_is_refused_not_ignored() {
    let server = server_mjs();
    let out = probe(&["--token", "abc", "--launches", "1", "--", "node", &server]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("'--token <TOKEN>' cannot be used with"),
        "{}",
        stderr(&out)
    );
    let hosts = fixture("configs/hosts.json").display().to_string();
    let out = probe(&["--token", "abc", "--config", &hosts, "--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("'--token <TOKEN>' cannot be used with"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_entries_of_one_id_are_refused_listed_and_chosen_by_host() {
    let hosts = fixture("configs/hosts.json").display().to_string();
    let out = probe(&["--config", &hosts, "--server", "files"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("2 entries are named \"files\""), "{err}");
    assert!(
        err.contains("prod/files  ($.hosts.prod.mcplServers.files)"),
        "{err}"
    );
    assert!(
        err.contains("staging/files  ($.hosts.staging.mcpServers.files)"),
        "{err}"
    );
    // A qualified id or the JSON path picks one (this one the host refuses: its interval is 0).
    for id in ["prod/files", "$.hosts.prod.mcplServers.files"] {
        let out = probe(&["--config", &hosts, "--server", id]);
        let err = stderr(&out);
        assert!(err.contains("hosts.json:9:34"), "{id}: {err}");
    }
    // An unknown id lists the others, qualified where two share an id.
    let out = probe(&["--config", &hosts, "--server", "nope"]);
    assert!(
        stderr(&out).contains("no server \"nope\" (servers: prod/files, search, staging/files)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn stdin_is_named_stdin_and_disabled_entries_can_be_probed_on_request() {
    let server = server_mjs();
    let config = format!(
        r#"{{"mcplServers": {{"off": {{"command": "node", "args": [{server:?}, "--exit-after-handshake", "50"], "disabled": true}}}}}}"#
    );
    let run = |extra: &[&str]| {
        let mut child = bin()
            .arg("probe")
            .args(["--config", "-", "--launches", "1", "--watch", "300ms"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(config.as_bytes())
            .expect("writes");
        child.wait_with_output().expect("runs")
    };
    let out = run(&["--server", "off"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--include-disabled probes it anyway"),
        "{}",
        stderr(&out)
    );
    let out = run(&["--all", "--include-disabled", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        doc["servers"][0]["launches"].as_array().map(Vec::len),
        Some(1),
        "{doc}"
    );
    let text = run(&["--all", "--include-disabled"]);
    assert!(stdout(&text).contains("in <stdin>"), "{}", stdout(&text));
}

#[test]
fn help_lists_inf_among_durations_and_every_rule_as_a_value() {
    let out = probe(&["--help"]);
    let help = stdout(&out);
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("and inf are accepted"), "{help}");
    assert!(help.contains("reset-on-handshake"), "{help}");
    assert!(!help.contains("#999"), "{help}");
    let out = probe(&["--preset", "lastin", "--", "true"]);
    assert!(
        stderr(&out).contains("a similar value exists: 'lasting'"),
        "{}",
        stderr(&out)
    );
}
