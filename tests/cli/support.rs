//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcpl-doctor"));
    cmd.env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .env("COLUMNS", "160");
    cmd
}

/// Run the binary with `args`, no stdin.
pub fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
}

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture's path.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The fixture server's path.
pub fn server_mjs() -> String {
    fixture("servers/server.mjs").display().to_string()
}

/// A fixture's own log (JSON lines written by `fixtures/servers/server.mjs` to `FIXTURE_LOG`).
pub struct FixtureLog {
    pub path: PathBuf,
    _dir: tempfile::TempDir,
}

impl FixtureLog {
    pub fn new() -> FixtureLog {
        let dir = tempfile::tempdir().expect("a temp dir");
        FixtureLog {
            path: dir.path().join("fixture.log"),
            _dir: dir,
        }
    }

    /// Every entry, in order.
    pub fn entries(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.path)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    }

    /// Entries with this `event`.
    pub fn events(&self, event: &str) -> Vec<serde_json::Value> {
        self.entries()
            .into_iter()
            .filter(|e| e["event"] == event)
            .collect()
    }

    /// The `t` (wall-clock ms) of the event `event` of process `pid`.
    pub fn time(&self, pid: u64, event: &str) -> Option<f64> {
        self.entries()
            .into_iter()
            .find(|e| e["event"] == event && e["pid"].as_u64() == Some(pid))
            .and_then(|e| e["t"].as_f64())
    }

    /// Every pid that logged a launch, and every grandchild pid.
    pub fn pids(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for e in self.entries() {
            if e["event"] == "launch" {
                out.push(e["pid"].as_u64().expect("pid") as u32);
            }
            if e["event"] == "grandchild" {
                out.push(e["child"].as_u64().expect("child pid") as u32);
            }
        }
        out
    }
}

/// Whether a process is running (a zombie counts as gone: it runs nothing and holds nothing).
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .unwrap_or("?")
                .to_string();
            state != "Z" && state != "X"
        }
        Err(_) => false,
    }
}

/// Assert that none of `pids` is left running (allowing a moment for the kernel to finish).
pub fn assert_all_gone(pids: &[u32]) {
    assert!(
        !pids.is_empty(),
        "no pids to check: the fixture logged nothing"
    );
    let t = std::time::Instant::now();
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| is_running(*p)).collect();
        if left.is_empty() {
            return;
        }
        if t.elapsed() > std::time::Duration::from_millis(500) {
            panic!("processes left running: {left:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Parse stdout as one JSON document.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\n{}", stdout(o), stderr(o)))
}
