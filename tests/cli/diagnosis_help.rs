//! The Why of a command that printed its help and exited before its handshake (issue 27): a
//! usage with its commands, on stdout or stderr, is the CLI telling the user about its
//! arguments, not a log on stdout. Each fixture is a real child process printing a real CLI's
//! recorded help (fixtures/servers/helps.py names each); the package's other programs are read
//! from a real `entry_points.txt` and a real `package.json`. Each has a look-alike that must not
//! match: other lines on stdout before an exit are no help, a help printed before serving is
//! no cause. And `python -m` of a package without `__main__`: the module or console script to
//! run instead, asked of the interpreter that has the package.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, evidence_texts, fixture, run_diagnoses};

fn probe(program: &str, args: &[&str]) -> Command {
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
    ])
    .arg(program)
    .args(args)
    .stdin(Stdio::null());
    cmd
}

fn helps(args: &[&str]) -> (Option<i32>, Vec<Value>) {
    let script = fixture("servers/helps.py");
    let script = script.to_str().expect("utf-8 path");
    let mut all = vec![script];
    all.extend_from_slice(args);
    run_diagnoses(&mut probe("python3", &all))
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
fn a_help_on_stdout_names_the_command_that_serves() {
    // workiq 0.x (System.CommandLine): its help on stdout, `Required command was not
    // provided.` on stderr.
    let r = helps(&["system-commandline"]);
    assert_top(
        "System.CommandLine",
        &r,
        "missing-argument",
        &["add `mcp` first in the command", "Start MCP stdio server"],
    );
    assert!(
        r.1.iter().all(|d| d["id"] != "stdout-logging"),
        "{:#?}",
        r.1
    );
    // code-review-graph 2.3.9: a banner two columns in, `Commands:` and `Run
    // code-review-graph <command> --help for details` (no `Usage:`), exit 0.
    let r = helps(&["banner"]);
    assert_top("banner", &r, "missing-argument", &["add `serve` first"]);
    // github-mcp-server 0.x (cobra): its help on stdout, exit 0; `stdio` by its name.
    let r = helps(&["cobra"]);
    assert_top("cobra", &r, "missing-argument", &["add `stdio` first"]);
    // A command of its own in place of the one that serves.
    let r = helps(&["system-commandline", "ask"]);
    assert_top(
        "System.CommandLine ask",
        &r,
        "missing-argument",
        &["write `mcp` in place of `ask`"],
    );
    // Its command misspelt (`Unrecognized command or argument 'mpc'.` on stderr).
    let r = helps(&["system-commandline", "mpc"]);
    assert_top(
        "System.CommandLine mpc",
        &r,
        "missing-argument",
        &["write `mcp` in place of `mpc`"],
    );
}

#[test]
fn the_packages_other_program_is_named_when_its_help_lists_no_server() {
    // notebooklm-mcp-cli's `nlm` (typer, rich boxes on stdout): `setup  Configure MCP server`
    // is no command that serves; the venv's entry_points.txt lists the server's script.
    let nlm = fixture("servers/twoscripts/bin/fixture-nlm");
    let r = run_diagnoses(&mut probe(nlm.to_str().expect("utf-8"), &[]));
    let server = fixture("servers/twoscripts/bin/fixture-nlm-mcp");
    assert_top(
        "typer nlm",
        &r,
        "missing-argument",
        &[
            "run `fixture-nlm-mcp`, the package's server command, not `fixture-nlm`",
            server.to_str().expect("utf-8"),
        ],
    );
    let tried = evidence_texts(&r.1[0], Some("tried"));
    assert!(
        tried.iter().any(|t| t.contains("entry_points.txt")),
        "{tried:?}"
    );
    // task-master-ai's shape: the CLI of an npm package whose `bin` also has its server.
    let cli = fixture("servers/twobins/node_modules/fixture-tm/cli.js");
    let r = run_diagnoses(&mut probe("node", &[cli.to_str().expect("utf-8")]));
    assert_top(
        "npm bin",
        &r,
        "missing-argument",
        &["run `fixture-tm-mcp`, the package's server command, not `fixture-tm`"],
    );
}

#[test]
fn logs_on_stdout_and_a_help_before_serving_are_no_help_to_follow() {
    // Lines on stdout that are no help, then an exit: no help to follow (and no logs that
    // broke a message: the server ended on its own, its stdout lines are its last words).
    let r = helps(&["logs-then-exit"]);
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert!(
        r.1.iter()
            .all(|d| d["id"] != "stdout-logging" && d["id"] != "missing-argument"),
        "{:#?}",
        r.1
    );
    // Its usage on stdout, then it serves: healthy.
    let r = helps(&["help-then-serve"]);
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
    // The same banner, then it serves; or its serving command given: healthy.
    for args in [&["banner-then-serve"][..], &["banner", "serve"]] {
        let r = helps(args);
        assert_eq!(r.0, Some(0), "{args:?}: {:#?}", r.1);
        assert!(r.1.is_empty(), "{args:?}: {:#?}", r.1);
    }
    // The serving command given: healthy.
    let r = helps(&["system-commandline", "mcp"]);
    assert_eq!(r.0, Some(0), "{:#?}", r.1);
    assert!(r.1.is_empty(), "{:#?}", r.1);
}

#[test]
fn python_dash_m_of_a_package_without_main_names_the_module_or_script_to_run() {
    // awslabs.bedrock-kb-retrieval-mcp-server (stop 38): CPython's `is a package and cannot be
    // directly executed`; the interpreter has the package: asked, it names what runs.
    let site = fixture("servers/nomain");
    let (code, d) =
        run_diagnoses(probe("python3", &["-m", "fixture_nomain"]).env("PYTHONPATH", &site));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        next(&d[0]).starts_with("write `-m fixture_nomain.server` in place of `-m fixture_nomain`"),
        "{}",
        next(&d[0])
    );
    assert!(d.iter().all(|x| x["id"] != "wrong-interpreter"), "{d:#?}");
    let tried = evidence_texts(&d[0], Some("tried"));
    assert!(
        tried
            .iter()
            .any(|t| t.contains("its modules -m runs: fixture_nomain.server")),
        "{tried:?}"
    );
    // A package whose distribution installs a console script into it: the script.
    let site = fixture("servers/consolescript");
    let (_, d) = run_diagnoses(probe("python3", &["-m", "src_fixture"]).env("PYTHONPATH", &site));
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        next(&d[0]).starts_with("run `fixture-es-mcp-server`, the package's console script"),
        "{}",
        next(&d[0])
    );
    // Look-alike: the module that runs, given: healthy.
    let site = fixture("servers/nomain");
    let (code, d) =
        run_diagnoses(probe("python3", &["-m", "fixture_nomain.server"]).env("PYTHONPATH", &site));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}
