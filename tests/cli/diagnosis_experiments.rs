//! The experiments the "Why" runs on a stdio server that answered nothing, through the real
//! binary and real child processes (`fixtures/servers/silent.py`): the TCP ports its
//! processes listen on (a server started in its HTTP mode that prints nothing), each with a
//! healthy look-alike that must not get the cause.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::support::{bin, evidence_texts, fixture, stderr, stdout};

fn silent() -> String {
    fixture("servers/silent.py").display().to_string()
}

fn probe(args: &[&str], command: &[&str], env: &[(&str, &str)], json: bool) -> Output {
    let mut cmd: Command = bin();
    cmd.arg("probe").args(args);
    if json {
        cmd.arg("--json");
    }
    cmd.arg("--").args(command).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

use crate::support::{failed_diagnoses as diagnoses, free_port, text_field as field};

/// Whether something accepts connections on 127.0.0.1:`port`.
fn listens(port: u16) -> bool {
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}

#[test]
fn a_silent_server_listening_on_a_port_is_http_mode_named_by_its_variable() {
    let port = free_port();
    let shown = port.to_string();
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "3s"],
        &["python3", &silent(), "listen"],
        &[("FASTMCP_PORT", &shown)],
        true,
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "http-mode", "{d:#?}");
    let url = format!("http://localhost:{port}");
    assert_eq!(
        field(&d[0], "next_step"),
        format!(
            "it listens on port {port} (HTTP mode): probe `--url {url}/mcp` (or `{url}/sse`) \
             while it runs, or remove `FASTMCP_PORT={port}` from the server's environment to \
             run it over stdio"
        )
    );
    assert_eq!(d[0]["evidence"][0]["source"], "tried", "{d:#?}");
    assert!(
        field(&d[0]["evidence"][0], "text").ends_with(&format!("127.0.0.1:{port}")),
        "{d:#?}"
    );
    // The cause is proven: it is not launched again.
    assert!(
        d.iter().all(|x| evidence_texts(x, Some("tried"))
            .iter()
            .all(|t| !t.starts_with("relaunched"))),
        "{d:#?}"
    );
    // Stopped with its group: nothing listens any more.
    assert!(!listens(port), "the server was left running");

    // The text Why shows what was tried; the argument that chose the mode comes first.
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "3s"],
        &["python3", &silent(), "listen", "streamable-http"],
        &[("FASTMCP_PORT", &shown)],
        false,
    );
    let text = stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("http-mode"), "{text}");
    assert!(
        text.contains("tried: the TCP sockets its processes listen on"),
        "{text}"
    );
    assert!(
        text.contains("or drop `streamable-http` from the command"),
        "{text}"
    );
    assert!(!listens(port), "the server was left running");
}

#[test]
fn a_stdio_server_that_also_listens_or_a_mute_one_that_does_not_is_not_http_mode() {
    // Healthy, with a port of its own besides stdio: connected, no cause.
    let port = free_port().to_string();
    let out = probe(
        &["--launches", "1", "--watch", "1s"],
        &["python3", &silent(), "both", &port],
        &[],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        crate::support::json(&out)["diagnoses"],
        serde_json::json!([])
    );
    // Silent and listening on nothing: never `http-mode`.
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "2s"],
        &["python3", &silent(), "mute"],
        &[],
        true,
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "http-mode"), "{d:#?}");
}

/// `probe --json` of a bare command without `PYTHONUNBUFFERED` (the shell running the tests
/// may set it).
fn probe_unbuffered(args: &[&str], command: &[&str]) -> Output {
    let mut cmd: Command = bin();
    cmd.arg("probe")
        .args(args)
        .arg("--json")
        .arg("--")
        .args(command)
        .env_remove("PYTHONUNBUFFERED")
        .stdin(Stdio::null());
    cmd.output().expect("the binary runs")
}

#[test]
fn an_answer_that_comes_only_once_stdin_is_closed_is_a_block_buffered_stdout() {
    let out = probe_unbuffered(
        &["--launches", "1", "--handshake-timeout", "4s"],
        &["python3", &silent(), "buffered"],
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "buffered-stdout", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with(
            "add `PYTHONUNBUFFERED=1` to the server's environment (or run it with `python -u`)"
        ),
        "{d:#?}"
    );
    let t = evidence_texts(&d[0], Some("tried"));
    assert!(
        t[0].starts_with("relaunched, initialize sent and stdin closed: answered in"),
        "{t:?}"
    );
    assert!(t[1].starts_with("relaunched, stdin held open"), "{t:?}");
    assert!(t[1].ends_with(": no answer"), "{t:?}");
    assert!(d.iter().all(|x| x["id"] != "cause-unknown"), "{d:#?}");
}

#[test]
fn a_slow_a_mute_or_a_cold_first_start_is_not_a_buffered_stdout() {
    // Slower than the host waits, unbuffered: no answer within the relaunch's limit either.
    let out = probe_unbuffered(
        &["--launches", "1", "--handshake-timeout", "2s"],
        &["python3", &silent(), "slow", "6"],
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "buffered-stdout"), "{d:#?}");
    assert!(
        evidence_texts(&d[0], Some("tried")).iter().any(|t| t
            == "relaunched, initialize sent and stdin closed: no answer in 2 s (not a buffered stdout)"),
        "{d:#?}"
    );
    // Never answers, even at the end of its stdin.
    let out = probe_unbuffered(
        &["--launches", "1", "--handshake-timeout", "2s"],
        &["python3", &silent(), "mute"],
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "buffered-stdout"), "{d:#?}");
    // A first start slower than the host waits, then quick: the relaunch answers with its
    // stdin closed, and the control with its stdin open answers too.
    let dir = tempfile::tempdir().expect("a temp dir");
    let mark = dir.path().join("started").display().to_string();
    let out = probe_unbuffered(
        &["--launches", "1", "--handshake-timeout", "3s"],
        &["python3", &silent(), "cold", &mark],
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "buffered-stdout"), "{d:#?}");
    assert!(
        evidence_texts(&d[0], Some("tried"))
            .iter()
            .any(|t| t.starts_with("relaunched with stdin open: answered in")),
        "{d:#?}"
    );
}

/// `probe --config FILE --server ID --json` of agent-framework's file holding `entry`, with
/// `env` in the probe's own environment (the caller's shell).
fn probe_entry(entry: Value, args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("mcpl-servers.json");
    let config = serde_json::json!({"mcplServers": {"srv": entry}});
    std::fs::write(&file, config.to_string()).expect("write the config");
    let mut cmd: Command = bin();
    cmd.arg("probe")
        .arg("--config")
        .arg(&file)
        .args(["--server", "srv", "--json"])
        .args(args)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn an_entry_the_host_starts_without_the_shells_variables_names_which_differ() {
    // The shell has PYTHONUNBUFFERED=1, the host does not pass it: buffered under the host.
    let entry = serde_json::json!({"command": "python3", "args": [silent(), "buffered"]});
    let out = probe_entry(
        entry,
        &["--launches", "1", "--handshake-timeout", "4s"],
        &[("PYTHONUNBUFFERED", "1")],
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "buffered-stdout", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("add `PYTHONUNBUFFERED=1` to the entry's `env`"),
        "{d:#?}"
    );
    assert_eq!(d[1]["id"], "host-environment", "{d:#?}");
    let t = evidence_texts(&d[1], Some("tried"));
    assert!(
        t[0].starts_with("relaunched with this shell's whole environment"),
        "{t:?}"
    );
    assert!(
        t[1].starts_with("the variables that differ (names only): `PYTHONUNBUFFERED`, "),
        "{t:?}"
    );

    // A variable the server names, held by the shell only; its value is never shown.
    let token = "xoxb-experiment-0d7c3e91";
    let entry = serde_json::json!({
        "command": "node",
        "args": [fixture("servers/faults.mjs").display().to_string(), "--mode", "slack"]
    });
    let out = probe_entry(
        entry,
        &["--launches", "1"],
        &[
            ("SLACK_BOT_TOKEN", token),
            ("SLACK_TEAM_ID", "T0EXPERIMENT"),
        ],
    );
    let d = diagnoses(&out);
    // The server's own words stay first, the relaunch their proof.
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        evidence_texts(&d[0], Some("tried")).iter().any(|t| {
            t.starts_with(
            "relaunched with this shell's whole environment (the entry's `env` on top): answered \
             initialize in"
        )
        }),
        "{d:#?}"
    );
    assert!(d.iter().all(|x| x["id"] != "host-environment"), "{d:#?}");
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        !all.contains(token) && !all.contains("T0EXPERIMENT"),
        "{all}"
    );
}

#[test]
fn an_entry_that_fails_the_same_with_the_shells_environment_is_not_host_environment() {
    let entry = serde_json::json!({
        "command": "python3",
        "args": ["-c", "import sys; sys.exit(3)"]
    });
    let out = probe_entry(
        entry,
        &["--launches", "1"],
        &[("EXPERIMENT_ONLY_HERE", "1")],
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "host-environment"), "{d:#?}");
    assert!(
        evidence_texts(&d[0], Some("tried"))
            .iter()
            .any(|t| t.starts_with(
                "relaunched with this shell's whole environment: exited with code 3 too, so the \
             environment is not the cause ("
            )),
        "{d:#?}"
    );
}

/// The relaunches the Why runs (stdin closed, then its control) leave nothing running: a
/// child the server put in the background in its own group, and one that left the group
/// with `setsid`, are gone when the probe ends, as after the run's own launches.
#[test]
fn the_relaunch_experiments_leave_no_process_behind() {
    let marker = format!("relaunch-{}", std::process::id());
    let script = format!(
        "sleep 300 & setsid sleep 300 & exec python3 '{}' buffered",
        silent()
    );
    let mut cmd: Command = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--handshake-timeout",
        "3s",
        "--json",
    ])
    .args(["--", "sh", "-c", &script])
    .env_remove("PYTHONUNBUFFERED")
    .env("MCPL_DOCTOR_RELAUNCH_MARKER", &marker)
    .stdin(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    let d = diagnoses(&out);
    // The relaunches did run: their result is the cause.
    assert_eq!(d[0]["id"], "buffered-stdout", "{d:#?}");
    // The probe has exited; give a killed process a moment to be reaped by its reaper.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut left = crate::support::processes_with_env("MCPL_DOCTOR_RELAUNCH_MARKER", &marker);
    while !left.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        left = crate::support::processes_with_env("MCPL_DOCTOR_RELAUNCH_MARKER", &marker);
    }
    assert!(left.is_empty(), "left running: {left:?}");
}
