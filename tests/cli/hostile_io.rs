//! Hostile input and output (issue 8, items 1-8 and 13): servers that flood the probe, never read
//! what it sends, send oversized messages; a stdout that closes or cannot be written; signals.
//! Each test runs the real binary under a time bound, samples its peak memory (VmHWM from
//! /proc/PID/status) and checks that no process carrying the test's marker is left.
//!
//! Bounds are generous (a loaded 2-core machine, a debug build): memory is the tight bound (6 MB
//! over the same binary's healthy peak for every flood the server controls; the floods measured
//! 0.3-1.5 MB over it at stop 44), time only catches a hang.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, fixture, FixtureLog};

/// What a flood may add to the probe's peak memory over the same binary's peak on a healthy
/// server. The binary's own peak grows with its code (a debug build: 19 MB at issue 8, 23 MB at
/// stop 43, when a fixed 24 MB bound began failing in CI by 150 KB), so the bound is measured
/// against it, not written down; an unbounded flood adds hundreds of MB, a kept one at most 2.
const FLOOD_MARGIN_KB: u64 = 6 * 1024;

/// The peak memory the probe may reach while a server floods it: the healthy peak of this very
/// binary (measured once per test run, the largest of three runs) plus `FLOOD_MARGIN_KB`.
pub(crate) fn flood_peak_kb() -> u64 {
    static HEALTHY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *HEALTHY.get_or_init(|| {
        let server = stdio_server();
        // A small tools/list (four 8-byte names, one page), then the end: the flood tests'
        // shape without a flood.
        let args = [
            "probe",
            "--launches",
            "1",
            "--watch",
            "1s",
            "--json",
            "--",
            python(),
            &server,
            "tool-flood",
            "8",
            "4",
            "1",
        ];
        let healthy = (0..3)
            .map(|_| Run::start(&args, Stdio::piped()).wait(Duration::from_secs(60)))
            .map(|ended| {
                // It serves its one page and ends (exit 1: short-lived), as the floods do.
                assert!(
                    ended.stdout.contains("\"launches\""),
                    "the baseline: {}",
                    ended.stderr
                );
                ended.peak_kb
            })
            .max()
            .unwrap_or(0);
        assert!(healthy > 0, "no peak measured for the healthy baseline");
        // The baseline is itself bounded, so a bloated healthy path cannot loosen every bound.
        assert!(
            healthy < 64 * 1024,
            "the healthy baseline peaked at {healthy} KB"
        );
        healthy
    }) + FLOOD_MARGIN_KB
}

/// A marker in the environment of the probe and everything it starts, to find leftovers.
fn marker() -> String {
    format!(
        "hostile-io-{}-{}",
        std::process::id(),
        fastrand_u64() % 1_000_000_000
    )
}

fn fastrand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

const MARKER_VAR: &str = "MCPL_DOCTOR_HOSTILE_MARKER";

/// Pids of live processes (not zombies) whose environment holds `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    crate::support::processes_with_env(MARKER_VAR, marker)
}

/// Waits (up to 5 s, for a loaded machine) until no process carries `marker`.
fn assert_nothing_left(marker: &str) {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_with(marker);
        if left.is_empty() {
            return;
        }
        if Instant::now() > until {
            panic!("processes left behind: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// A probe run: the child, its marker, what was measured.
pub(crate) struct Run {
    child: Child,
    marker: String,
    started: Instant,
    peak_kb: u64,
}

/// How a run ended.
pub(crate) struct Ended {
    pub(crate) code: Option<i32>,
    pub(crate) elapsed: Duration,
    pub(crate) peak_kb: u64,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn start(args: &[&str], stdout: Stdio) -> Run {
        Run::start_env(args, stdout, &[])
    }

    pub(crate) fn start_env(args: &[&str], stdout: Stdio, env: &[(&str, &str)]) -> Run {
        let marker = marker();
        let child = bin()
            .args(args)
            .envs(env.iter().copied())
            .env(MARKER_VAR, &marker)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        Run {
            child,
            marker,
            started: Instant::now(),
            peak_kb: 0,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sample the peak memory until the probe exits; kill it (and fail) after `limit`. A
    /// stderr the test took is its own to read (`stderr` is then empty).
    pub(crate) fn wait(mut self, limit: Duration) -> Ended {
        let err_reader = self.child.stderr.take().map(|mut e| {
            std::thread::spawn(move || {
                let mut s = String::new();
                let _ = e.read_to_string(&mut s);
                s
            })
        });
        let out_reader = self.child.stdout.take().map(|mut o| {
            std::thread::spawn(move || {
                let mut s = String::new();
                let _ = o.read_to_string(&mut s);
                s
            })
        });
        let status = loop {
            if let Some(kb) = vm_hwm_kb(self.pid()) {
                self.peak_kb = self.peak_kb.max(kb);
            }
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            if self.started.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "the probe was still running after {limit:?} (peak {} KB)",
                    self.peak_kb
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let elapsed = self.started.elapsed();
        let ended = Ended {
            code: status.code(),
            elapsed,
            peak_kb: self.peak_kb,
            stdout: out_reader
                .map(|r| r.join().unwrap_or_default())
                .unwrap_or_default(),
            stderr: err_reader
                .map(|r| r.join().unwrap_or_default())
                .unwrap_or_default(),
        };
        assert_nothing_left(&self.marker);
        ended
    }

    fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{sig}"), &self.pid().to_string()])
            .status()
            .expect("kill runs")
            .success();
        assert!(ok, "kill -{sig} failed");
    }
}

/// Read lines of `out` until one contains `what`; fails after `limit` even when nothing at all
/// arrives (the reading thread is left blocked until the writer ends). Gives the reader back.
fn read_until<R: BufRead + Send + 'static>(mut out: R, what: &str, limit: Duration) -> R {
    let (tx, rx) = std::sync::mpsc::channel();
    let want = what.to_string();
    std::thread::spawn(move || {
        let mut line = String::new();
        let found = loop {
            line.clear();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                break false;
            }
            if line.contains(&want) {
                break true;
            }
        };
        let _ = tx.send(found.then_some(out));
    });
    match rx.recv_timeout(limit) {
        Ok(Some(out)) => out,
        Ok(None) => panic!("the output ended before {what:?}"),
        Err(_) => panic!("no {what:?} within {limit:?}"),
    }
}

/// Waits (up to `limit`) until the fixture server's log shows `n` handshakes.
fn wait_for_handshakes(log: &FixtureLog, n: usize, limit: Duration) {
    let t = Instant::now();
    while log.events("handshake").len() < n {
        assert!(t.elapsed() < limit, "no handshake logged within {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub(crate) fn python() -> &'static str {
    // A test needing Python fails loudly when it is missing.
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(ok, "these tests need python3 on PATH");
    "python3"
}

pub(crate) fn stdio_server() -> String {
    fixture("servers/hostile_stdio.py").display().to_string()
}

fn server_mjs() -> String {
    fixture("servers/server.mjs").display().to_string()
}

/// A hostile WebSocket server (killed on drop); what it says after its port stays readable.
pub(crate) struct WsServer {
    child: Child,
    pub(crate) url: String,
    out: Option<BufReader<std::process::ChildStdout>>,
}

impl WsServer {
    pub(crate) fn start(args: &[&str]) -> WsServer {
        let mut child = Command::new(python())
            .arg(fixture("servers/hostile_ws.py"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the WebSocket fixture starts");
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        out.read_line(&mut line).expect("its port");
        let port: u16 = line.trim().parse().expect("a port");
        WsServer {
            child,
            url: format!("ws://127.0.0.1:{port}/mcpl"),
            out: Some(out),
        }
    }

    /// Waits (up to `limit`) for a line of the server's containing `what`.
    fn wait_for(&mut self, what: &str, limit: Duration) {
        let out = self.out.take().expect("the server's stdout");
        self.out = Some(read_until(out, what, limit));
    }
}

impl Drop for WsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Signals (item 13).

#[test]
fn sigterm_says_terminated_exits_143_and_never_says_stayed_up() {
    let log = FixtureLog::new();
    let log_path = log.path.display().to_string();
    let run = Run::start_env(
        &[
            "probe",
            "--launches",
            "1",
            "--watch",
            "60s",
            "--",
            "node",
            &server_mjs(),
        ],
        Stdio::piped(),
        &[("FIXTURE_LOG", &log_path)],
    );
    // Once connected (the server logs its handshake), so the report has a launch to stop.
    wait_for_handshakes(&log, 1, Duration::from_secs(30));
    run.signal("TERM");
    let ended = run.wait(Duration::from_secs(30));
    assert_eq!(ended.code, Some(143), "stderr: {}", ended.stderr);
    assert!(
        ended.stderr.contains("terminated (SIGTERM)"),
        "{}",
        ended.stderr
    );
    assert!(!ended.stderr.contains("Ctrl-C"), "{}", ended.stderr);
    assert!(
        ended.stdout.contains("Stopped: terminated (SIGTERM)"),
        "{}",
        ended.stdout
    );
    assert!(!ended.stdout.contains("stayed up"), "{}", ended.stdout);
    assert!(!ended.stdout.contains("Ctrl-C"), "{}", ended.stdout);
}

#[test]
fn an_invalid_websocket_close_code_is_not_reported_as_the_servers_1002() {
    // Issue 21, item 10: tungstenite replaces a code no close frame may carry with 1002
    // "Protocol violation"; the report says which code the server sent instead. A 1002 the
    // server sends itself is its own.
    for (code, invalid) in [
        ("999", true),
        ("1005", true),
        ("5000", true),
        ("4000", false),
    ] {
        let server = WsServer::start(&["close-code", code]);
        let ended = Run::start(
            &["probe", "--url", &server.url, "--launches", "1", "--json"],
            Stdio::piped(),
        )
        .wait(Duration::from_secs(60));
        let doc = json_of(&ended);
        let e = &doc["launches"][0]["outcome"]["ended"];
        if invalid {
            assert_eq!(e["kind"], "transport-error", "{code}: {e}");
            let reason = e["reason"].as_str().unwrap_or_default();
            // What the server sent, as the host's `ws` reads it ("invalid status code 999").
            assert_eq!(reason, format!("invalid close code {code}: bye"), "{code}");
        } else {
            assert_eq!(e["kind"], "ws-close", "{code}: {e}");
            assert_eq!(e["code"], 4000);
            assert_eq!(e["reason"], "bye");
        }
    }
    let server = WsServer::start(&["close-code", "1002:Protocol violation"]);
    let ended = Run::start(
        &["probe", "--url", &server.url, "--launches", "1", "--json"],
        Stdio::piped(),
    )
    .wait(Duration::from_secs(60));
    let e = &json_of(&ended)["launches"][0]["outcome"]["ended"];
    assert_eq!(e["kind"], "ws-close", "{e}");
    assert_eq!(e["code"], 1002, "{e}");
    assert_eq!(e["reason"], "Protocol violation", "{e}");
}

#[test]
fn an_interrupted_run_never_gives_the_all_clear_in_any_format() {
    // Issue 21, item 10: the verdict of a run stopped by Ctrl-C while its server was up said
    // `stayed-up`.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = dir.path().join("fixture.log");
    let report = dir.path().join("report.html");
    let server = fixture("servers/hostile.py").display().to_string();
    let marker = marker();
    let mut child = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--watch",
            "60s",
            "--json",
            "--report",
        ])
        .arg(&report)
        .args(["--", python(), &server])
        .env("FIXTURE_LOG", &log)
        .env(MARKER_VAR, &marker)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while !std::fs::read_to_string(&log).is_ok_and(|l| l.contains("\"handshake\"")) {
        assert!(started.elapsed() < Duration::from_secs(30), "no handshake");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_string(&mut out);
    }
    let status = child.wait().expect("the probe ends");
    assert_eq!(status.code(), Some(130));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["interrupted"], true);
    assert_ne!(doc["verdict"]["pattern"], "stayed-up", "{}", doc["verdict"]);
    let text = doc["verdict"]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("interrupted while still up"), "{text}");
    let html = std::fs::read_to_string(&report).expect("the report");
    assert!(html.contains("interrupted while still up"));
    assert!(!html.contains("stayed up"));
    assert_nothing_left(&marker);
}

// ---------------------------------------------------------------------------------------------
// A closed or unwritable stdout (item 2, newcomer row 27).

#[test]
fn events_into_a_closed_pipe_stop_the_server_and_exit_0_quietly() {
    let mut run = Run::start(
        &[
            "probe",
            "--format",
            "events",
            "--launches",
            "50",
            "--interval",
            "100ms",
            "--watch",
            "60s",
            "--",
            "node",
            &server_mjs(),
        ],
        Stdio::piped(),
    );
    let out = BufReader::new(run.child.stdout.take().expect("stdout"));
    let out = read_until(out, "\"connected\"", Duration::from_secs(30));
    drop(out); // `| head -1` has what it wants
    let ended = run.wait(Duration::from_secs(20));
    assert_eq!(ended.code, Some(0), "stderr: {}", ended.stderr);
    assert_eq!(ended.stderr, "", "quietly");
    // Well before --watch (60 s) would have ended it.
    assert!(ended.elapsed < Duration::from_secs(20));
}

#[test]
fn a_text_or_json_report_into_a_closed_pipe_stops_the_run_and_exits_0() {
    for mode in ["--json", "--text"] {
        let mut args = vec!["probe", "--launches", "1", "--watch", "60s", "--", "node"];
        let server = server_mjs();
        args.push(&server);
        if mode == "--json" {
            args.splice(1..1, ["--format", "json"]);
        }
        let log = FixtureLog::new();
        let log_path = log.path.display().to_string();
        let mut run = Run::start_env(&args, Stdio::piped(), &[("FIXTURE_LOG", &log_path)]);
        // Nothing is written before the end: the reader goes away while the server runs.
        wait_for_handshakes(&log, 1, Duration::from_secs(30));
        drop(run.child.stdout.take());
        let ended = run.wait(Duration::from_secs(20));
        assert_eq!(ended.code, Some(0), "{mode}: {}", ended.stderr);
        assert_eq!(ended.stderr, "", "{mode}: quietly");
    }
}

#[test]
fn simulate_and_check_config_into_a_closed_pipe_exit_0_quietly() {
    let config = fixture("configs/binding.json").display().to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "simulate",
            "--json",
            "--attempts",
            "100000",
            "--rows",
            "100000",
        ],
        vec!["simulate", "--attempts", "100000", "--rows", "100000"],
        vec!["check-config", "--format", "json", &config],
        vec!["completions", "bash"],
    ];
    for args in cases {
        let mut child = bin()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut first = [0u8; 100];
        let _ = child
            .stdout
            .as_mut()
            .expect("stdout")
            .read(&mut first)
            .expect("reads");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("ends");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0) | Some(1)),
            "{args:?}: {:?} {err}",
            out.status
        );
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn an_unwritable_stdout_and_stderr_never_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        panic!("/dev/full is needed");
    };
    let server = server_mjs();
    let cases: Vec<Vec<&str>> = vec![
        vec!["simulate"],
        vec!["simulate", "--json"],
        vec!["check-config", "/nonexistent.json"],
        vec![
            "check-config",
            "--stdin-filename",
            "x.json",
            "/nonexistent.json",
        ],
        vec!["completions", "bash"],
        vec![
            "probe",
            "--launches",
            "1",
            "--watch",
            "200ms",
            "--",
            "node",
            &server,
        ],
        vec![
            "probe",
            "--json",
            "--launches",
            "1",
            "--watch",
            "200ms",
            "--",
            "node",
            &server,
        ],
        vec![
            "probe",
            "--events",
            "--launches",
            "1",
            "--watch",
            "200ms",
            "--",
            "node",
            &server,
        ],
        vec!["no-such-subcommand"],
    ];
    for args in cases {
        let out = bin()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(full.try_clone().expect("dup"))
            .stderr(full.try_clone().expect("dup"))
            .status()
            .expect("runs");
        // A panic exits 101; an I/O error is 2.
        assert!(matches!(out.code(), Some(0..=2)), "{args:?}: {out:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Servers that flood the probe and never read (items 1, 3, 4, 5).

pub(crate) fn json_of(ended: &Ended) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&ended.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\nstderr:\n{}",
            ended.stdout, ended.stderr
        )
    });
    crate::support::assert_valid("probe", &v);
    v
}

pub(crate) fn assert_bounded(ended: &Ended, what: &str) {
    assert!(
        ended.peak_kb > 0 && ended.peak_kb < flood_peak_kb(),
        "{what}: peak {} KB (bound {} KB: the healthy peak and {FLOOD_MARGIN_KB} KB)",
        ended.peak_kb,
        flood_peak_kb()
    );
}

#[test]
fn a_websocket_server_that_floods_requests_and_never_reads_is_bounded_and_reported() {
    let server = WsServer::start(&["flood-requests"]);
    let run = Run::start(
        &[
            "probe",
            "--url",
            &server.url,
            "--launches",
            "1",
            "--watch",
            "4s",
            "--json",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_bounded(&ended, "request flood over WebSocket");
    let doc = json_of(&ended);
    let l = &doc["launches"][0];
    assert_eq!(l["outcome"]["kind"], "still-up", "{l}");
    assert!(
        l["misbehaviour"]["unsent_messages"].as_u64().unwrap_or(0) >= 1,
        "{l}"
    );
}

#[test]
fn a_second_ctrl_c_ends_the_probe_of_a_non_reading_websocket_server_at_once() {
    let mut server = WsServer::start(&["flood-requests"]);
    let mut run = Run::start(
        &[
            "probe",
            "--url",
            &server.url,
            "--launches",
            "1",
            "--watch",
            "120s",
            "--events",
        ],
        Stdio::piped(),
    );
    let out = BufReader::new(run.child.stdout.take().expect("stdout"));
    let mut out = read_until(out, "\"connected\"", Duration::from_secs(30));
    // Keep reading the events so stdout never fills.
    let drain = std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = out.read_to_string(&mut sink);
        sink
    });
    // Once the probe's sends no longer reach the server (it would be stuck on one, had it no
    // bound): the server says so when what it leaves unread stops growing.
    server.wait_for("stalled", Duration::from_secs(30));
    let err = BufReader::new(run.child.stderr.take().expect("stderr"));
    run.signal("INT");
    // The first Ctrl-C is heard (two signals sent at once may arrive as one).
    let mut err = read_until(err, "again to kill at once", Duration::from_secs(30));
    run.signal("INT");
    let second = Instant::now();
    let ended = run.wait(Duration::from_secs(30));
    let after_second = second.elapsed();
    let events = drain.join().unwrap_or_default();
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    assert_eq!(ended.code, Some(130), "{stderr}");
    // The graceful stop no longer waits on the unread send (measured: the probe ended 10 ms
    // after the first Ctrl-C), so it often ends before the second is handled and `killing` is
    // not always said. What matters is that it ends.
    // 1 s is the goal (docs/benchmarks.md), measured there; here the bound only catches a
    // probe stuck on its send (it would run to --watch, 120 s).
    assert!(
        after_second < Duration::from_secs(20),
        "ended {after_second:?} after the second Ctrl-C"
    );
    assert!(events.contains("\"report\""), "{events}");
}

#[test]
fn probe_all_with_a_non_reading_websocket_entry_still_reports_every_server() {
    let server = WsServer::start(&["flood-requests"]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = dir.path().join("mcpl-servers.json");
    let doc = serde_json::json!({"mcplServers": {
        "flood": {"url": server.url},
        "steady": {"command": "node", "args": [server_mjs()]},
    }});
    std::fs::write(&config, doc.to_string()).expect("write the config");
    let config = config.display().to_string();
    let run = Run::start(
        &[
            "probe",
            "--config",
            &config,
            "--all",
            "--launches",
            "1",
            "--watch",
            "4s",
            "--json",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    let ids: Vec<&str> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(ids.contains(&"flood") && ids.contains(&"steady"), "{ids:?}");
}

#[test]
fn a_websocket_ping_flood_is_bounded_and_reported() {
    let server = WsServer::start(&["ping-flood"]);
    let run = Run::start(
        &[
            "probe",
            "--url",
            &server.url,
            "--launches",
            "1",
            "--watch",
            "4s",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_bounded(&ended, "ping flood");
    assert!(ended.stdout.contains("ping flood:"), "{}", ended.stdout);
}

#[test]
fn a_websocket_message_over_the_hosts_limit_ends_the_connection_with_its_reason() {
    let server = WsServer::start(&["big-message", &(200u64 << 20).to_string()]);
    let run = Run::start(
        &[
            "probe",
            "--url",
            &server.url,
            "--launches",
            "1",
            "--watch",
            "20s",
            "--json",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_bounded(&ended, "a 200 MiB message");
    let doc = json_of(&ended);
    let text = doc["launches"][0]["outcome"].to_string();
    assert!(
        text.contains("message too large: 209715200 bytes") && text.contains("at most 100 MiB"),
        "{text}"
    );
}

#[test]
fn a_stdio_server_that_floods_requests_and_never_reads_its_stdin_is_bounded_and_reported() {
    let python = python();
    let server = stdio_server();
    let run = Run::start(
        &[
            "probe",
            "--launches",
            "1",
            "--watch",
            "4s",
            "--handshake-timeout",
            "60s",
            "--",
            python,
            &server,
            "flood-requests",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(90));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_bounded(&ended, "request flood over stdio");
    assert!(
        ended
            .stdout
            .contains("the server stopped reading what the probe sends"),
        "{}",
        ended.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// Large answers (item 8).

#[test]
fn a_2_mib_and_a_5_mib_answer_are_read() {
    let python = python();
    let server = stdio_server();
    // A server that answers its handshake with `bytes` of JSON.
    let answer_of = |bytes: u64| {
        let size = bytes.to_string();
        let run = Run::start(
            &[
                "probe",
                "--launches",
                "1",
                "--watch",
                "500ms",
                "--handshake-timeout",
                "60s",
                "--json",
                "--",
                python,
                &server,
                "big-answer",
                &size,
            ],
            Stdio::piped(),
        );
        run.wait(Duration::from_secs(90))
    };
    let ended = answer_of(2 << 20);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    assert_eq!(doc["launches"][0]["outcome"]["kind"], "still-up");

    // Over the 4 MiB line kept whole: read as it comes, as the host reads it (issue 21,
    // item 10), the padding cut.
    let ended = answer_of(5 << 20);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    assert_eq!(doc["launches"][0]["outcome"]["kind"], "still-up");
    // The host's own reading limit: the kept 4 MiB head and the parser's copy of the one 5 MiB
    // string are the ceiling (the parsed answer keeps 64 KiB of it).
    assert!(
        ended.peak_kb < flood_peak_kb() + 9 * 1024,
        "a 5 MiB answer: peak {} KB",
        ended.peak_kb
    );
}

#[test]
fn a_notification_over_the_line_limit_before_the_answer_is_skipped_not_taken_for_it() {
    // 6 MiB, over the 4 MiB a line is read: it says `"method"` in its first bytes, so it is no
    // answer; the answer after it connects.
    let size = (6 << 20).to_string();
    let run = Run::start(
        &[
            "probe",
            "--launches",
            "1",
            "--watch",
            "300ms",
            "--json",
            "--",
            python(),
            &stdio_server(),
            "big-notification",
            &size,
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    let launch = &doc["launches"][0];
    assert_eq!(launch["outcome"]["kind"], "still-up", "{launch}");
    assert_eq!(launch["server"]["name"], "hostile-stdio");
}

#[test]
fn a_thousand_pages_with_huge_cursors_keep_the_probe_small() {
    // 1000 tools/list pages, each with a new 128 KiB nextCursor: 128 MB of cursors, of which
    // the probe keeps only what tells a repeated one.
    let run = Run::start(
        &[
            "probe",
            "--launches",
            "1",
            "--watch",
            "120s",
            "--json",
            "--",
            python(),
            &stdio_server(),
            "huge-cursors",
            "131072",
        ],
        Stdio::piped(),
    );
    // A hang guard: 1000 pages take seconds, and minutes under a load average of 19.
    let ended = run.wait(Duration::from_secs(600));
    let doc = json_of(&ended);
    let opening = &doc["launches"][0]["opening"];
    assert_eq!(opening["tool_pages"], 1000, "{}", ended.stderr);
    assert_bounded(&ended, "huge cursors");
}

#[test]
fn invalid_utf8_in_the_servers_name_is_decoded_as_the_host_does() {
    // Node reads the line with U+FFFD for the bad byte and connects; so does the probe.
    let run = Run::start(
        &[
            "probe",
            "--launches",
            "1",
            "--watch",
            "300ms",
            "--json",
            "--",
            python(),
            &stdio_server(),
            "bad-utf8",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(30));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    assert_eq!(doc["launches"][0]["outcome"]["kind"], "still-up");
    assert_eq!(
        doc["launches"][0]["server"]["name"],
        "hostile\u{fffd}-stdio"
    );
}

#[test]
fn a_2_mib_answer_over_websocket_is_read() {
    let server = WsServer::start(&["big-answer", &(2u64 << 20).to_string()]);
    let run = Run::start(
        &[
            "probe",
            "--url",
            &server.url,
            "--launches",
            "1",
            "--watch",
            "500ms",
            "--json",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let doc = json_of(&ended);
    assert_eq!(doc["launches"][0]["outcome"]["kind"], "still-up");
}

// ---------------------------------------------------------------------------------------------
// Endless configuration input (item 7).

#[test]
fn an_endless_configuration_stream_is_refused_at_the_cap() {
    for args in [
        vec!["check-config", "/dev/zero"],
        vec!["probe", "--config", "/dev/zero", "--all"],
    ] {
        let run = Run::start(&args, Stdio::piped());
        let ended = run.wait(Duration::from_secs(60));
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert!(
            ended.stderr.contains("larger than 256 MiB"),
            "{args:?}: {}",
            ended.stderr
        );
        // Never more than the cap (plus the program itself).
        assert!(
            ended.peak_kb < 300 * 1024,
            "{args:?}: peak {} KB",
            ended.peak_kb
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The end-of-run report of a long run (item 6).

#[test]
fn a_long_run_keeps_the_first_and_last_launches_and_folds_the_rest() {
    let sh_server = crate::support::root()
        .join("scripts/bench/sh-server.sh")
        .display()
        .to_string();
    let run = Run::start(
        &[
            "probe",
            "--preset",
            "handshake",
            "--interval",
            "1ms",
            "--launches",
            "130",
            "--json",
            "--",
            "sh",
            &sh_server,
            "flap",
            "0",
        ],
        Stdio::piped(),
    );
    let ended = run.wait(Duration::from_secs(120));
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let doc = json_of(&ended);
    let launches = doc["launches"].as_array().expect("launches");
    assert_eq!(launches.len(), 100);
    assert_eq!(launches[49]["launch"], 50);
    assert_eq!(launches[50]["launch"], 81);
    assert_eq!(launches[99]["launch"], 130);
    let folded = &doc["folded"];
    assert_eq!(folded["launches"], 30, "{folded}");
    assert_eq!(folded["first"], 51);
    assert_eq!(folded["last"], 80);
    assert_eq!(folded["closed"], 30);
}
