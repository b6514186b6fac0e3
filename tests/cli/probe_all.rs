//! `probe --config FILE --all` (and repeated `--server`) through the real binary: a generated
//! configuration mixing stdio fixtures, a WebSocket and an HTTP test server, entries the host
//! refuses and a disabled one. Checks the summary, what is not probed and why, that the servers
//! ran at once (the run takes about the slowest server's time, not the sum), that nothing is
//! left running, Ctrl-C, and that no token reaches any output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use mcpl_doctor::testing::{HttpScenario, HttpServer, WsScenario, WsServer};
use serde_json::{json, Value};

use crate::support::{assert_all_gone, bin, f, server_mjs, stderr, stdout, FixtureLog};

const WS_TOKEN: &str = "all-ws-tok-81c2f0";
const HTTP_TOKEN: &str = "all-http-tok-3e9d71";

/// A temporary folder with the fixture server and a config naming it.
struct Setup {
    dir: tempfile::TempDir,
    /// The stdio servers' log (all of them write to it).
    log: FixtureLog,
    /// The log the refused stdio entry would write to, were it launched.
    refused_log: FixtureLog,
    ws: WsServer,
    http: HttpServer,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::copy(server_mjs(), dir.path().join("server.mjs")).expect("copy the fixture");
        Setup {
            dir,
            log: FixtureLog::new(),
            refused_log: FixtureLog::new(),
            ws: WsServer::start(WsScenario::close_after(50, 4000, "idle")),
            http: HttpServer::start(HttpScenario::Discover),
        }
    }

    fn stdio(&self, args: &[&str]) -> Value {
        let mut all = vec!["./server.mjs"];
        all.extend_from_slice(args);
        json!({
            "command": "node",
            "args": all,
            "env": {"FIXTURE_LOG": self.log.path},
            "reconnect": true,
            "reconnectIntervalMs": 30
        })
    }

    /// The mixed configuration; returns its path.
    fn config(&self) -> PathBuf {
        let config = json!({"mcplServers": {
            "steady-a": self.stdio(&[]),
            "steady-b": self.stdio(&["--name", "b"]),
            "flappy": self.stdio(&["--exit-after-handshake", "100"]),
            "ws": {"url": self.ws.url("/mcpl"), "token": WS_TOKEN, "reconnect": true,
                   "reconnectIntervalMs": 30},
            "api": {"url": self.http.url("/mcp"), "token": HTTP_TOKEN},
            "zero": {"command": "node", "args": ["./server.mjs"],
                     "env": {"FIXTURE_LOG": self.refused_log.path},
                     "reconnect": true, "reconnectIntervalMs": 0},
            "badurl": {"url": "ftp://example.com/x"},
            "off": {"command": "node", "args": ["./server.mjs"], "disabled": true}
        }});
        let file = self.dir.path().join("mcpl-servers.json");
        std::fs::write(&file, serde_json::to_string_pretty(&config).expect("JSON"))
            .expect("write the config");
        file
    }
}

fn probe_all(file: &Path, args: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.current_dir(std::env::temp_dir())
        .args(["probe", "--config"])
        .arg(file)
        .args(args)
        .stdin(Stdio::null());
    cmd
}

fn run(mut cmd: Command) -> (Output, Duration) {
    let t = Instant::now();
    let out = cmd.output().expect("the binary runs");
    (out, t.elapsed())
}

fn assert_no_tokens(out: &Output) {
    let (o, e) = (stdout(out), stderr(out));
    for t in [WS_TOKEN, HTTP_TOKEN] {
        assert!(
            !o.contains(t) && !e.contains(t),
            "{t} is in the output:\n{o}\n{e}"
        );
    }
}

/// The probed servers of a `--json` document, by id.
fn server<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no server {id} in {doc}"))
}

const ARGS: &[&str] = &[
    "--all",
    "--launches",
    "3",
    "--watch",
    "700ms",
    "--seed",
    "4",
];

#[test]
fn all_servers_run_at_once_and_the_json_holds_every_one() {
    let setup = Setup::new();
    let file = setup.config();
    let mut args = ARGS.to_vec();
    args.extend(["--format", "json"]);
    let (out, took) = run(probe_all(&file, &args));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_tokens(&out);
    // No progress lines when stderr is not a terminal, and nothing else to say.
    assert_eq!(stderr(&out), "");
    let doc: Value = crate::support::json(&out);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["rule"], "lasting");
    let ids: Vec<&str> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["steady-a", "steady-b", "flappy", "ws", "api"]);

    // Each server is a whole single-server document, under its own entry's timings.
    for id in ["steady-a", "steady-b"] {
        let s = server(&doc, id);
        assert_eq!(s["schema_version"], 1);
        assert_eq!(s["transport"], "stdio");
        assert_eq!(s["stayed_up"], true);
        assert_eq!(s["verdict"]["pattern"], "stayed-up");
        assert_eq!(s["timings"]["interval_ms"], 30.0);
        assert_eq!(s["launches"][0]["outcome"]["kind"], "still-up");
    }
    let flappy = server(&doc, "flappy");
    assert_eq!(flappy["verdict"]["pattern"], "short-lived");
    assert_eq!(flappy["launches"].as_array().expect("launches").len(), 3);
    let nominal: Vec<f64> = flappy["launches"]
        .as_array()
        .expect("launches")
        .iter()
        .map(|l| f(&l["wait"]["nominal_ms"]))
        .collect();
    assert_eq!(nominal, [30.0, 60.0, 120.0]);
    let ws = server(&doc, "ws");
    assert_eq!(ws["transport"], "websocket");
    assert_eq!(ws["target"], setup.ws.url("/mcpl").as_str());
    assert_eq!(
        ws["launches"][0]["error"],
        "connected, then closed after 0 s (close 4000: idle)"
    );
    assert_eq!(ws["launches"].as_array().expect("launches").len(), 3);
    assert!(setup
        .ws
        .tokens()
        .iter()
        .all(|t| t.as_deref() == Some(WS_TOKEN)));
    let api = server(&doc, "api");
    assert_eq!(api["transport"], "http");
    assert_eq!(api["protocol"], "modern");
    assert_eq!(api["stayed_up"], true);
    // The modern engine's default timings (the entry has none).
    assert_eq!(api["timings"]["interval_ms"], 5000.0);

    // Refused entries are reported with the checker's findings, and never launched.
    let refused = doc["refused"].as_array().expect("refused");
    let codes: Vec<(&str, &str)> = refused
        .iter()
        .map(|r| {
            (
                r["id"].as_str().expect("id"),
                r["findings"][0]["code"].as_str().expect("code"),
            )
        })
        .collect();
    assert_eq!(codes, [("zero", "reconnect-timing"), ("badurl", "binding")]);
    assert_eq!(refused[0]["label"], "refused by the host");
    assert!(refused[0]["findings"][0]["message"]
        .as_str()
        .expect("message")
        .starts_with("`reconnectIntervalMs` is 0"));
    assert!(setup.refused_log.entries().is_empty());
    assert_eq!(doc["skipped"][0]["id"], "off");
    assert_eq!(doc["summary"]["probed"], 5);
    assert_eq!(doc["summary"]["stayed_up"], 3);
    assert_eq!(doc["summary"]["refused"], 2);
    assert_eq!(doc["summary"]["skipped"], 1);

    // At once: the whole run took about the slowest server's time, not the sum. Ratios of
    // the probe's own clock, which a loaded machine stretches alike (under two busy loops on 2
    // cores the slowest server took 9.3 s of a 9.3 s run, the sum 22 s).
    let slowest = f(&doc["summary"]["slowest_server_ms"]);
    let sum = f(&doc["summary"]["servers_one_after_another_ms"]);
    let elapsed = f(&doc["elapsed_ms"]);
    assert!(slowest >= 700.0, "{slowest}");
    assert!(
        slowest <= elapsed && elapsed < 1.25 * slowest + 500.0,
        "the run took {elapsed} ms, the slowest server {slowest} ms"
    );
    assert!(
        elapsed < 0.6 * sum,
        "the run took {elapsed} ms, the servers one after another {sum} ms"
    );
    // Only a hang guard: the process's start and end are the machine's, not the probe's.
    assert!(took < Duration::from_secs(60), "{took:?}");
    // Nothing left running: every stdio server launched is gone.
    let pids = setup.log.pids();
    assert_eq!(pids.len(), 2 + 3, "{pids:?}");
    assert_all_gone(&pids);
}

#[test]
fn the_text_report_is_one_table_then_what_was_not_probed_then_the_details() {
    let setup = Setup::new();
    let file = setup.config();
    let (out, _) = run(probe_all(&file, ARGS));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_tokens(&out);
    let text = stdout(&out);
    assert!(text.starts_with("Probed 5 of 8 entries in "), "{text}");
    let table_end = text
        .find("mcpl-down: when the host")
        .expect("the table's note");
    let table = &text[..table_end];
    for row in [
        ["steady-a", "stdio", "stayed up"],
        ["flappy", "stdio", "short-lived"],
        ["ws", "websocket", "short-lived"],
        ["api", "http", "stayed up"],
        ["zero", "stdio", "not probed"],
        ["off", "stdio", "skipped"],
    ] {
        let line = table
            .lines()
            .find(|l| l.contains(&format!(" {} ", row[0])))
            .unwrap_or_else(|| panic!("no row for {}:\n{table}", row[0]));
        assert!(
            line.contains(row[1]) && line.contains(row[2]),
            "{line}\n{table}"
        );
    }
    assert!(
        text.contains("3 servers stayed up, 2 did not (flapped or never connected), 2 not probed"),
        "{text}"
    );
    assert!(
        text.contains("\nNot probed:\n  zero: refused by the host: `reconnectIntervalMs` is 0"),
        "{text}"
    );
    assert!(
        text.contains(
            "  badurl: refused by the host: `url`'s scheme is not ws, wss, http or https"
        ),
        "{text}"
    );
    assert!(text.contains("  off: skipped: disabled"), "{text}");
    // Details only for the servers that did not stay up, in the single-server report's words.
    assert!(text.contains("\n== flappy (stdio, "), "{text}");
    assert!(text.contains("\n== ws (websocket, "), "{text}");
    assert!(!text.contains("== steady-a"), "{text}");
    assert!(!text.contains("== api"), "{text}");
    assert!(text.contains("Verdict: connected, then closed"), "{text}");
    assert!(text.contains("close 4000: idle"), "{text}");
    assert_all_gone(&setup.log.pids());
}

#[test]
fn events_are_json_lines_each_naming_its_server() {
    let setup = Setup::new();
    let file = setup.config();
    let mut args = ARGS.to_vec();
    args.push("--events");
    let (out, _) = run(probe_all(&file, &args));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_tokens(&out);
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(crate::support::event_line)
        .collect();
    let (report, events) = lines.split_last().expect("lines");
    assert_eq!(report["event"], "report");
    assert_eq!(report["schema_version"], 1);
    for e in events {
        let server = e["id"].as_str().unwrap_or_else(|| panic!("no server: {e}"));
        assert!(!server.is_empty());
        let keys: Vec<&String> = e.as_object().expect("object").keys().collect();
        assert_eq!(keys[..2], ["event", "id"], "{e}");
    }
    let count = |server: &str, event: &str| {
        events
            .iter()
            .filter(|e| e["id"] == server && e["event"] == event)
            .count()
    };
    assert_eq!(count("flappy", "launched"), 3);
    // What the server said about itself is still there, under `server`.
    let connected = events
        .iter()
        .find(|e| e["id"] == "ws" && e["event"] == "connected")
        .expect("a connected event");
    assert_eq!(connected["server"]["name"], "test-ws");
    assert_eq!(count("ws", "ended"), 3);
    assert_eq!(count("steady-a", "started"), 1);
    assert_eq!(count("steady-a", "finished"), 1);
    assert_eq!(count("zero", "refused"), 1);
    assert_eq!(count("badurl", "refused"), 1);
    assert_eq!(count("off", "skipped"), 1);
    assert_eq!(count("zero", "launched"), 0);
    assert_all_gone(&setup.log.pids());
}

#[test]
fn repeated_server_picks_those_entries_only() {
    let setup = Setup::new();
    let file = setup.config();
    let (out, _) = run(probe_all(
        &file,
        &[
            "--server",
            "flappy",
            "--server",
            "api",
            "--server",
            "flappy",
            "--launches",
            "2",
            // Far past flappy's 100 ms life, so that a loaded machine does not see it still up
            // when the watch ends (at 300 ms it once did); api stays up for all of it.
            "--watch",
            "1500ms",
            "--json",
        ],
    ));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: Value = crate::support::json(&out);
    let ids: Vec<&str> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["flappy", "api"]);
    assert_eq!(doc["refused"], json!([]));
    assert_all_gone(&setup.log.pids());

    // An unknown id is a usage error, before anything runs.
    let (out, _) = run(probe_all(
        &file,
        &["--server", "flappy", "--server", "nope"],
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no server \"nope\" (servers: "),
        "{}",
        stderr(&out)
    );
    // --protocol is per server; with several it is refused.
    let (out, _) = run(probe_all(&file, &["--all", "--protocol", "modern"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn only_servers_that_stay_up_exit_0() {
    let setup = Setup::new();
    let file = setup.config();
    let (out, _) = run(probe_all(
        &file,
        &[
            "--server", "steady-a", "--server", "api", "--watch", "300ms",
        ],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2 servers stayed up."), "{text}");
    assert!(!text.contains("=="), "{text}");
    assert_all_gone(&setup.log.pids());
}

#[test]
fn for_is_one_deadline_for_every_server() {
    let setup = Setup::new();
    let file = setup.config();
    // Long enough for three Node servers to start on a loaded 2-core machine (each logs its
    // launch first thing, and the check below needs their pids).
    let (out, took) = run(probe_all(&file, &["--all", "--for", "2500ms", "--json"]));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: Value = crate::support::json(&out);
    for s in doc["servers"].as_array().expect("servers") {
        assert_eq!(s["finish"]["reason"], "for", "{}", s["id"]);
        // Nothing launched past the deadline; stopping what was running takes at most the
        // host's stop ladder more (2 s of grace after SIGTERM, 2 s after SIGKILL).
        for l in s["launches"].as_array().expect("launches") {
            assert!(f(&l["launched_at_ms"]) < 2500.0, "{}: {l}", s["id"]);
        }
        assert!(
            f(&s["elapsed_ms"]) < 2500.0 + 4000.0,
            "{} ran {} ms",
            s["id"],
            s["elapsed_ms"]
        );
        assert!(f(&s["elapsed_ms"]) <= f(&doc["elapsed_ms"]) + 1.0);
    }
    // Only a hang guard: the process's start and end are the machine's, not the probe's.
    assert!(took < Duration::from_secs(60), "{took:?}");
    // Every process the probe launched is gone (its own pids: on a loaded machine a Node
    // server may not have run its first line, the one that logs its pid, within 2.5 s).
    let pids: Vec<u32> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .flat_map(|s| s["launches"].as_array().cloned().unwrap_or_default())
        .filter_map(|l| l["pid"].as_u64().map(|p| p as u32))
        .collect();
    assert_all_gone(&pids);
}

#[test]
fn ctrl_c_stops_every_server_and_prints_the_report_so_far() {
    let setup = Setup::new();
    let file = setup.config();
    let mut cmd = probe_all(
        &file,
        &["--server", "steady-a", "--server", "steady-b", "--json"],
    );
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let t = Instant::now();
    while setup.log.events("handshake").len() < 2 {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no handshakes logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("SIGINT");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stopping every server"),
        "{}",
        stderr(&out)
    );
    let doc: Value = crate::support::json(&out);
    assert_eq!(doc["interrupted"], true);
    for id in ["steady-a", "steady-b"] {
        let s = server(&doc, id);
        assert_eq!(s["finish"]["reason"], "interrupted");
        assert_eq!(s["launches"][0]["outcome"]["kind"], "still-up");
        assert_eq!(s["launches"][0]["stopped"], "after-sigterm");
    }
    // Stopped gracefully: each saw its stdin close.
    assert_eq!(setup.log.events("stdin-closed").len(), 2);
    assert_all_gone(&setup.log.pids());
}

#[test]
fn a_second_ctrl_c_kills_every_server_at_once() {
    let setup = Setup::new();
    let config = json!({"mcplServers": {
        "stubborn-a": setup.stdio(&["--ignore-sigterm"]),
        "stubborn-b": setup.stdio(&["--ignore-sigterm"]),
    }});
    let file = setup.dir.path().join("stubborn.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let mut cmd = probe_all(&file, &["--all", "--json"]);
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let t = Instant::now();
    while setup.log.events("handshake").len() < 2 {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no handshakes logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sigint = || {
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(child.id() as i32),
            nix::sys::signal::Signal::SIGINT,
        )
        .expect("SIGINT")
    };
    let t = Instant::now();
    sigint();
    while setup.log.events("sigterm-ignored").len() < 2 {
        // A hang guard: the server logs SIGTERM at once (past the 2 s grace the probe would
        // kill it itself, and `stopped` below would say "after-sigkill").
        assert!(t.elapsed() < Duration::from_secs(30), "no SIGTERM seen");
        std::thread::sleep(Duration::from_millis(5));
    }
    sigint();
    let out = child.wait_with_output().expect("wait");
    // Only a hang guard: "forced" below says the kill came from the second Ctrl-C, before the
    // 2 s grace after SIGTERM ran out (the grace running out is "after-sigkill").
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let doc: Value = crate::support::json(&out);
    for id in ["stubborn-a", "stubborn-b"] {
        assert_eq!(server(&doc, id)["launches"][0]["stopped"], "forced");
    }
    assert_all_gone(&setup.log.pids());
}

#[test]
fn a_command_that_cannot_be_launched_is_a_finding_among_many() {
    let setup = Setup::new();
    let config = json!({"mcplServers": {
        "steady": setup.stdio(&[]),
        "missing": {"command": "/nonexistent/mcp-server", "args": ["--stdio"]},
    }});
    let file = setup.dir.path().join("missing.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let (out, _) = run(probe_all(&file, &["--all", "--watch", "200ms", "--json"]));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: Value = crate::support::json(&out);
    assert_eq!(server(&doc, "steady")["stayed_up"], true);
    let cannot = &doc["cannot_launch"][0];
    assert_eq!(cannot["id"], "missing");
    assert_eq!(
        cannot["error"],
        "cannot launch \"/nonexistent/mcp-server\": command not found"
    );
    assert_all_gone(&setup.log.pids());
}
