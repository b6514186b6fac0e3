//! `simulate` on long work: the progress bar on a terminal (never elsewhere), and Ctrl-C
//! ending a run with the summary so far. Real child processes, real signals.

#![cfg(target_os = "linux")]

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::support::bin;

/// A run that steps every launch (jitter changes each 3-5 ms wait) for far longer than any test
/// waits: it ends only by Ctrl-C (or, past its bound, by itself within a few minutes).
const LONG_RUN: &[&str] = &[
    "simulate",
    "--preset",
    "reset-on-handshake",
    "--interval",
    "4ms",
    "--cap",
    "4ms",
    "--behaviour",
    "dies-after=0",
    "--for",
    "10d",
    "--seed",
    "7",
];

/// A child killed when the test ends, whatever happens.
struct Guard(Option<Child>);

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Guard {
    fn pid(&self) -> Pid {
        Pid::from_raw(self.0.as_ref().map_or(0, |c| c.id() as i32))
    }

    /// Waits (up to a minute) for the child to exit, reading its stdout.
    fn output(mut self) -> Output {
        let child = self.0.take().expect("a child");
        let done = std::sync::mpsc::channel();
        let (tx, rx) = done;
        let handle = std::thread::spawn(move || {
            let out = child.wait_with_output();
            let _ = tx.send(());
            out
        });
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            panic!("simulate did not end within a minute of Ctrl-C");
        }
        handle.join().expect("joined").expect("output")
    }
}

/// A field of /proc/PID/status (`SigCgt:` and so on).
fn status_field(pid: Pid, field: &str) -> Option<String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .map(|v| v.trim().to_string())
}

/// Whether the process catches SIGINT (bit 2 of its caught-signals mask).
fn catches_sigint(pid: Pid) -> bool {
    status_field(pid, "SigCgt:")
        .and_then(|mask| u64::from_str_radix(&mask, 16).ok())
        .is_some_and(|mask| mask & (1 << (Signal::SIGINT as i32 - 1)) != 0)
}

/// CPU time the process has used, in seconds (utime + stime from /proc/PID/stat).
fn cpu_seconds(pid: Pid) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i).and_then(|v| v.parse::<f64>().ok()))
        .sum();
    ticks / 100.0
}

/// Polls `cond` every 10 ms for up to `limit`.
fn wait_until(limit: Duration, what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < limit, "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn spawn(args: &[&str], stderr: Stdio) -> Guard {
    let child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the binary runs");
    Guard(Some(child))
}

#[test]
fn ctrl_c_ends_a_long_run_with_the_summary_so_far_and_no_bar_off_a_terminal() {
    let child = spawn(LONG_RUN, Stdio::piped());
    let pid = child.pid();
    wait_until(Duration::from_secs(30), "the SIGINT handler", || {
        catches_sigint(pid)
    });
    // Long enough that a terminal would show the bar (a run expected to take over a second).
    wait_until(Duration::from_secs(60), "1.2 s of CPU", || {
        cpu_seconds(pid) >= 1.2
    });
    kill(pid, Signal::SIGINT).expect("SIGINT");
    let out = child.output();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        text.contains("interrupted: these figures hold for the first "),
        "{text}"
    );
    assert!(text.contains(" of 10 d"), "{text}");
    assert!(text.contains("Summary over "), "{text}");
    assert!(!text.contains("Summary over 10 d"), "{text}");
    // Not a terminal: no bar, nothing on stderr at all.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn ctrl_c_in_json_marks_where_the_run_stopped() {
    let mut args = LONG_RUN.to_vec();
    args.extend(["--format", "json"]);
    let child = spawn(&args, Stdio::piped());
    let pid = child.pid();
    wait_until(Duration::from_secs(30), "the SIGINT handler", || {
        catches_sigint(pid)
    });
    kill(pid, Signal::SIGINT).expect("SIGINT");
    let out = child.output();
    assert_eq!(out.status.code(), Some(130));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    crate::support::assert_valid("simulate", &doc);
    let run = &doc["runs"][0];
    let at = run["interrupted_at_ms"]
        .as_f64()
        .expect("interrupted_at_ms");
    assert!(at > 0.0 && at < 10.0 * 86_400_000.0, "{at}");
    assert_eq!(run["summary"]["span_ms"].as_f64(), Some(at));
    assert!(run["summary"]["launches"].as_u64().unwrap_or(0) >= 1 << 20);
}

#[test]
fn a_terminal_shows_the_bar_and_ctrl_c_after_it_gives_the_summary() {
    use nix::pty::openpty;
    let pty = openpty(None, None).expect("a pseudo-terminal");
    let stderr = Stdio::from(std::fs::File::from(pty.slave));
    let mut cmd: Command = bin();
    cmd.env("TERM", "xterm");
    let child = cmd
        .args(LONG_RUN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the binary runs");
    let child = Guard(Some(child));
    let pid = child.pid();
    // Read the terminal's side until the bar shows.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let mut master = std::fs::File::from(pty.master);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = master.read(&mut buf) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    let mut seen = String::new();
    let start = Instant::now();
    while !(seen.contains("simulated") && seen.contains("ETA")) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no progress bar on the terminal: {seen:?}"
        );
        if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(100)) {
            seen.push_str(&chunk);
        }
    }
    assert!(seen.contains(" of 10 d"), "{seen:?}");
    assert!(seen.contains("Ctrl-C: summary so far"), "{seen:?}");
    kill(pid, Signal::SIGINT).expect("SIGINT");
    let out = child.output();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        text.contains("interrupted: these figures hold for the first "),
        "{text}"
    );
}
