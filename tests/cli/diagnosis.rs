//! The "Why" diagnosis through the real binary: one real server per failure mode
//! (`fixtures/servers/ailing.mjs` and `ailing.py`, `server.mjs` for the rest), each asserting the
//! diagnosis id and its evidence, and no cause at all for a healthy server.

use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::support::{bin, fixture, server_mjs, stderr, stdout};

fn ailing(ext: &str) -> String {
    fixture(&format!("servers/ailing.{ext}"))
        .display()
        .to_string()
}

/// `probe --json ARGS -- COMMAND...`.
fn probe_cmd(args: &[&str], command: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.arg("probe")
        .args(args)
        .arg("--json")
        .arg("--")
        .args(command)
        .env_remove("FIXTURE_API_KEY")
        .stdin(Stdio::null());
    cmd
}

fn json_of(out: &Output) -> Value {
    crate::support::json(out)
}

/// The run's diagnoses, after checking the exit status (1: the server did not stay up).
fn diagnoses(args: &[&str], command: &[&str]) -> Vec<Value> {
    let out = probe_cmd(args, command).output().expect("the binary runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    let doc = json_of(&out);
    doc["diagnoses"].as_array().expect("diagnoses").clone()
}

/// The surest diagnosis is `id`, and some evidence of it contains every one of `quoted`.
fn assert_first(d: &[Value], id: &str, quoted: &[&str]) -> Value {
    let first = d.first().unwrap_or_else(|| panic!("no diagnosis"));
    assert_eq!(first["id"], id, "{d:#?}");
    let texts: Vec<&str> = first["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| e["text"].as_str().expect("text"))
        .collect();
    for q in quoted {
        assert!(
            texts.iter().any(|t| t.contains(q)),
            "{q:?} not in {texts:#?}"
        );
    }
    assert!(first["next_step"].as_str().is_some_and(|s| !s.is_empty()));
    assert!(first["evidence"][0]["launches"][0].as_u64().is_some() || id == "command-not-found");
    first.clone()
}

const ONE: &[&str] = &["--launches", "1", "--watch", "5s"];

#[test]
fn a_missing_module_names_it_node_and_python() {
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "missing-module"]);
    let first = assert_first(
        &d,
        "missing-dependency",
        &["Cannot find package 'left-pad-not-installed'"],
    );
    assert_eq!(first["confidence"], "high");
    assert!(first["summary"]
        .as_str()
        .unwrap()
        .contains("left-pad-not-installed"));
    // A missing module is the cause: the crash it causes is not a second one.
    assert!(d.iter().all(|x| x["id"] != "crash"), "{d:#?}");
    let d = diagnoses(ONE, &["python3", &ailing("py"), "--mode", "missing-module"]);
    assert_first(
        &d,
        "missing-dependency",
        &["ModuleNotFoundError: No module named 'fixture_tools_not_installed'"],
    );
}

#[test]
fn a_missing_environment_variable_is_named_node_and_python() {
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "missing-env"]);
    let first = assert_first(&d, "missing-env-var", &["FIXTURE_API_KEY is not set"]);
    assert!(first["summary"]
        .as_str()
        .unwrap()
        .contains("`FIXTURE_API_KEY`"));
    let d = diagnoses(ONE, &["python3", &ailing("py"), "--mode", "missing-env"]);
    assert_first(&d, "missing-env-var", &["KeyError: 'FIXTURE_API_KEY'"]);
}

#[test]
fn a_port_in_use_node_and_python() {
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "port-in-use"]);
    let first = assert_first(&d, "port-in-use", &["EADDRINUSE", "127.0.0.1:"]);
    assert!(first["summary"].as_str().unwrap().starts_with("port "));
    let d = diagnoses(ONE, &["python3", &ailing("py"), "--mode", "port-in-use"]);
    assert_first(&d, "port-in-use", &["Address already in use"]);
}

#[test]
fn a_crash_quotes_the_error_line_and_the_first_frame() {
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "crash"]);
    assert_first(
        &d,
        "crash",
        &[
            "TypeError: cannot read properties of the config",
            "at Timeout.handleToolsCall",
        ],
    );
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "reject"]);
    assert_first(
        &d,
        "crash",
        &["Error: tool registry unavailable", "loadTools"],
    );
    let d = diagnoses(ONE, &["python3", &ailing("py"), "--mode", "crash"]);
    assert_first(
        &d,
        "crash",
        &[
            "ValueError: bad request",
            "ailing.py\", line 29, in handle_tools_call",
        ],
    );
    let mjs = ailing("mjs");
    let rust = ["node", &mjs, "--mode", "crash-text", "--runtime", "rust"];
    assert_first(
        &diagnoses(ONE, &rust),
        "crash",
        &["panicked at src/main.rs:42:9", "src/main.rs:42:9"],
    );
    let go = ["node", &mjs, "--mode", "crash-text", "--runtime", "go"];
    assert_first(
        &diagnoses(ONE, &go),
        "crash",
        &[
            "panic: runtime error",
            "main.handle(...) at /srv/main.go:27",
        ],
    );
}

#[test]
fn memory_node_heap_limit_and_sigkill_with_rss_rising() {
    let d = diagnoses(
        ONE,
        &[
            "node",
            "--max-old-space-size=16",
            &ailing("mjs"),
            "--mode",
            "heap",
        ],
    );
    assert_first(&d, "out-of-memory", &["JavaScript heap out of memory"]);
    let d = diagnoses(ONE, &["node", &ailing("mjs"), "--mode", "memory"]);
    let first = assert_first(&d, "out-of-memory", &["signal SIGKILL", "RSS "]);
    let memory = first["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["source"] == "memory")
        .expect("memory evidence");
    // The readings rise: the last one well above the first.
    let mib: Vec<f64> = memory["text"]
        .as_str()
        .unwrap()
        .split(" MiB")
        .filter_map(|s| s.rsplit(' ').next()?.parse().ok())
        .collect();
    assert!(mib.len() == 3 && mib[2] >= mib[0] + 16.0, "{memory}");
    assert!(d.iter().all(|x| x["id"] != "killed-from-outside"), "{d:#?}");
}

#[test]
fn a_signal_from_outside() {
    let d = diagnoses(
        ONE,
        &[
            "node",
            &ailing("mjs"),
            "--mode",
            "external-kill",
            "--ms",
            "300",
        ],
    );
    let first = assert_first(
        &d,
        "killed-from-outside",
        &["SIGTERM", "the probe had sent no signal"],
    );
    assert_eq!(first["confidence"], "medium");
}

#[test]
fn an_idle_timeout_is_a_timer() {
    // 3 s: its 5 % (150 ms) holds on a saturated 2-core machine, where a Node timer and the
    // probe's own reading are each late by tens of ms (under two busy loops on 2 cores, 2 s
    // timers lived 2,072 and 2,144 ms: 72 of the 100 ms a 2 s timer allows). Without the
    // host's opening: each of its messages restarts the server's idle timer, and on a loaded
    // machine the opening's pace varies by hundreds of ms (2,079 and 2,391 ms were seen).
    let mjs = ailing("mjs");
    let d = diagnoses(
        &[
            "--preset",
            "handshake",
            "--interval",
            "50ms",
            "--launches",
            "2",
            "--handshake-only",
        ],
        &["node", &mjs, "--mode", "idle-timeout", "--ms", "3000"],
    );
    let first = assert_first(&d, "timer", &["connected for "]);
    assert_eq!(first["launches"], json!([1, 2]));
    assert_eq!(first["confidence"], "medium");
    assert_eq!(first["evidence"][0]["source"], "lifetime");
}

#[test]
fn logs_on_stdout_that_break_the_answer() {
    let d = diagnoses(
        &["--launches", "1", "--handshake-timeout", "4s"],
        &["node", &ailing("mjs"), "--mode", "stdout-logs"],
    );
    let first = assert_first(
        &d,
        "stdout-logging",
        &["starting ailing server...", "[info] ready {\"jsonrpc\""],
    );
    assert_eq!(first["confidence"], "high");
}

#[test]
fn exit_0_right_after_the_handshake() {
    let server = server_mjs();
    let d = diagnoses(
        &[
            "--preset",
            "handshake",
            "--interval",
            "50ms",
            "--launches",
            "2",
            // Without the host's opening: a server exiting 5 ms after its handshake would
            // otherwise leave `tools/list` unanswered or not, depending on timing (and an
            // unanswered request is the stronger evidence, `dies-on-request`).
            "--handshake-only",
        ],
        &["node", &server, "--exit-after-handshake", "5"],
    );
    assert_first(&d, "exits-after-handshake", &["exit 0"]);
    assert!(d.iter().all(|x| x["id"] != "timer"), "{d:#?}");
}

#[test]
fn a_version_refusal_is_the_wrong_protocol() {
    let server = server_mjs();
    let d = diagnoses(ONE, &["node", &server, "--answer", "refuse"]);
    let first = assert_first(&d, "wrong-protocol", &["-32022"]);
    assert!(first["next_step"]
        .as_str()
        .unwrap()
        .contains("\"protocol\": \"modern\""));
}

#[test]
fn a_command_not_found_or_not_executable_shows_the_path_looked_at() {
    // Through a shell: exit 127 and the shell's words.
    let d = diagnoses(ONE, &["sh", "-c", "exec mcp-server-not-installed-x1"]);
    let first = assert_first(&d, "command-not-found", &["exit 127", "PATH="]);
    assert!(first["summary"]
        .as_str()
        .unwrap()
        .contains("mcp-server-not-installed-x1"));
    // Without one: the probe cannot start it (exit 2), and says why on stderr.
    let out = probe_cmd(&["--launches", "1"], &["mcp-server-not-installed-x1"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains("Why:\n  command-not-found (high confidence): `mcp-server-not-installed-x1` was not found"), "{e}");
    assert!(
        e.contains("spawn: mcp-server-not-installed-x1 is in none of PATH's folders"),
        "{e}"
    );
    assert!(e.contains("environment: PATH=/usr/bin:/bin"), "{e}");
    // A file without the execute bit.
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = dir.path().join("server.sh");
    std::fs::write(&script, "#!/bin/sh\nexit 0\n").expect("write");
    let out = probe_cmd(&["--launches", "1"], &[script.to_str().unwrap()])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains("not-executable (high confidence)"), "{e}");
    assert!(e.contains("has mode 644: not executable"), "{e}");
}

#[test]
fn a_healthy_server_has_no_cause_and_the_text_has_no_why() {
    let server = server_mjs();
    let out = probe_cmd(&["--launches", "1", "--watch", "300ms"], &["node", &server])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json_of(&out)["diagnoses"], json!([]));
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "300ms",
        "--",
        "node",
        &server,
    ])
    .stdin(Stdio::null());
    let out = cmd.output().expect("runs");
    assert!(!stdout(&out).contains("Why:"), "{}", stdout(&out));
}

#[test]
fn the_text_report_puts_why_after_the_verdict_and_events_carry_each_diagnosis() {
    let mjs = ailing("mjs");
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--",
        "node",
        &mjs,
        "--mode",
        "missing-module",
    ])
    .stdin(Stdio::null());
    let out = cmd.output().expect("runs");
    let text = stdout(&out);
    let verdict = text.find("\nVerdict: ").expect("a verdict");
    let why = text
        .find("\nWhy:\n  missing-dependency (high confidence): `left-pad-not-installed`")
        .expect("a Why section");
    assert!(why > verdict, "{text}");
    assert!(text[why..].contains("    launch 1, stderr: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad-not-installed'"), "{text}");
    assert!(
        text[why..].contains("    next: install the server's dependencies"),
        "{text}"
    );

    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--events",
        "--",
        "node",
        &mjs,
        "--mode",
        "missing-module",
    ])
    .stdin(Stdio::null());
    let out = cmd.output().expect("runs");
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(crate::support::event_line)
        .collect();
    let n = lines.len();
    assert_eq!(lines[n - 1]["event"], "report");
    assert_eq!(lines[n - 2]["event"], "diagnosis");
    assert_eq!(lines[n - 2]["diagnosis"]["id"], "missing-dependency");
    assert_eq!(lines[n - 1]["diagnoses"][0]["id"], "missing-dependency");
}

#[test]
fn all_gives_one_line_per_server_and_says_when_the_host_does_not_pass_a_variable() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = json!({"mcplServers": {
        "steady": {"command": "node", "args": [server_mjs()]},
        "deps": {"command": "node", "args": [ailing("mjs"), "--mode", "missing-module"]},
        "keyless": {"command": "node", "args": [ailing("mjs"), "--mode", "missing-env"]},
        "gone": {"command": "mcp-server-not-installed-x1"}
    }});
    let file = dir.path().join("mcpl-servers.json");
    std::fs::write(&file, config.to_string()).expect("write");
    let run = |extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["probe", "--config"])
            .arg(&file)
            .args(["--all", "--launches", "1", "--watch", "500ms"])
            .args(extra)
            // Set here, but not passed by the host (not in its allowlist, no inheritEnv).
            .env("FIXTURE_API_KEY", "k-123456")
            .stdin(Stdio::null());
        cmd.output().expect("runs")
    };
    let out = run(&["--json"]);
    let doc: Value = crate::support::json(&out);
    let server = |id: &str| {
        doc["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id}"))
            .clone()
    };
    assert_eq!(server("steady")["diagnoses"], json!([]));
    assert_eq!(server("deps")["diagnoses"][0]["id"], "missing-dependency");
    let keyless = &server("keyless")["diagnoses"][0];
    assert_eq!(keyless["id"], "missing-env-var");
    assert!(
        keyless["next_step"]
            .as_str()
            .unwrap()
            .contains("inheritEnv"),
        "{keyless}"
    );
    assert!(
        keyless.to_string().contains("the host does not pass it"),
        "{keyless}"
    );
    assert!(!doc.to_string().contains("k-123456"));
    assert_eq!(
        doc["cannot_launch"][0]["diagnoses"][0]["id"],
        "command-not-found"
    );

    let text = stdout(&run(&[]));
    let why = text
        .find("\nWhy (the surest cause of each server that did not stay up):\n")
        .expect("a Why list");
    let list: Vec<&str> = text[why..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(list.len(), 3, "{text}");
    assert!(
        list.iter()
            .any(|l| l.starts_with("  deps: missing-dependency: ")),
        "{list:#?}"
    );
    assert!(
        list.iter()
            .any(|l| l.starts_with("  keyless: missing-env-var: ")),
        "{list:#?}"
    );
    assert!(
        list.iter()
            .any(|l| l.starts_with("  gone: command-not-found: ")),
        "{list:#?}"
    );
}
