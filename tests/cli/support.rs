//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcpl-doctor"));
    cmd.env_remove("NO_COLOR")
        .env_remove("MCPL_DOCTOR_PRESET")
        .env_remove("MCPL_DOCTOR_HOST")
        .env_remove("MCPL_DOCTOR_FORMAT")
        .env_remove("MCPL_DOCTOR_PLATFORM")
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
    // Bytes: the process name may be any (a hostile one is not UTF-8).
    match std::fs::read(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .iter()
                .rposition(|&b| b == b')')
                .and_then(|at| stat[at + 1..].iter().find(|b| !b.is_ascii_whitespace()));
            !matches!(state, Some(b'Z') | Some(b'X'))
        }
        Err(_) => false,
    }
}

/// Assert that none of `pids` is left running (allowing a moment for the kernel to finish; a
/// loaded machine may take seconds to reap, and a wait that ends as soon as they are gone costs
/// nothing when it is quick).
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
        if t.elapsed() > std::time::Duration::from_secs(10) {
            panic!("processes left running: {left:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// What the probe's `reaper` thread has read so far (`rchar` of `/proc/<pid>/task/<tid>/io`).
/// Between two of its scans for descendants outside their group (every 500 ms) it reads
/// nothing; each scan reads `/proc/<pid>/stat` of at least the servers' own processes.
fn reaper_read(probe: u32) -> Option<u64> {
    reaper_io(probe, "rchar:")
}

/// A `field` (`rchar:`, `syscr:`, ...) of the probe's `reaper` thread's `io` file.
pub fn reaper_io(probe: u32, field: &str) -> Option<u64> {
    for task in std::fs::read_dir(format!("/proc/{probe}/task"))
        .ok()?
        .flatten()
    {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() == "reaper" {
            let io = std::fs::read_to_string(task.path().join("io")).ok()?;
            return io
                .lines()
                .find_map(|l| l.strip_prefix(field))
                .and_then(|v| v.trim().parse().ok());
        }
    }
    None
}

/// Waits (up to `limit`) until the probe `probe` has run `n` more of its scans for descendants
/// outside their group (its reaper thread's reads grew `n` times, 200 ms apart or more: the
/// scans run every 500 ms), so that what a test set up before is known to have been scanned.
pub fn wait_for_scans(probe: u32, n: usize, limit: std::time::Duration) {
    let t = std::time::Instant::now();
    let (mut last, mut seen) = (None, 0);
    let mut grew_at: Option<std::time::Instant> = None;
    while seen < n {
        assert!(t.elapsed() < limit, "{seen} of {n} scans within {limit:?}");
        let now = reaper_read(probe);
        if now.is_some() && last.is_some() && now > last {
            let apart =
                grew_at.is_none_or(|g| g.elapsed() >= std::time::Duration::from_millis(200));
            if apart {
                seen += 1;
                grew_at = Some(std::time::Instant::now());
            }
        }
        if now.is_some() {
            last = now;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Parse stdout as one JSON document. A `probe` document (`"command": "probe"`) must also
/// validate against `schema/probe.schema.json`, so every probe test checks the schema too.
pub fn json(o: &Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\n{}", stdout(o), stderr(o)));
    if v["command"] == "probe" {
        assert_valid("probe", &v);
    }
    v
}

/// A checked-in schema under `schema/` (`probe`, `events`, ...), compiled once per test binary.
pub fn schema_validator(which: &'static str) -> &'static jsonschema::Validator {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static jsonschema::Validator>>> =
        OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    cache.entry(which).or_insert_with(|| {
        let path = root().join("schema").join(format!("{which}.schema.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schema: serde_json::Value = serde_json::from_str(&text).expect("a schema is JSON");
        let v = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("schema/{which}.schema.json: {e}"));
        Box::leak(Box::new(v))
    })
}

/// Panics, naming every error, unless `doc` validates against `schema/{which}.schema.json`.
/// When the schema is a choice (`anyOf`/`oneOf` at the top), the errors named are those of the
/// branch the document comes closest to, not just "valid under none of them".
pub fn assert_valid(which: &'static str, doc: &serde_json::Value) {
    let validator = schema_validator(which);
    if validator.is_valid(doc) {
        return;
    }
    let path = root().join("schema").join(format!("{which}.schema.json"));
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default())
            .unwrap_or_default();
    let branches: Vec<serde_json::Value> = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema[k].as_array())
        .flatten()
        .map(|b| {
            let mut b = b.clone();
            b["$defs"] = schema["$defs"].clone();
            b["$schema"] = schema["$schema"].clone();
            b
        })
        .collect();
    let errors_of = |v: &jsonschema::Validator| -> Vec<String> {
        v.iter_errors(doc)
            .take(20)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .map(|e| e.chars().take(300).collect())
            .collect()
    };
    let errors = branches
        .iter()
        .filter_map(|b| jsonschema::validator_for(b).ok())
        .map(|v| errors_of(&v))
        .min_by_key(Vec::len)
        .unwrap_or_else(|| errors_of(validator));
    panic!(
        "this document does not match schema/{which}.schema.json:\n{}\n{}",
        errors.join("\n"),
        serde_json::to_string(doc)
            .unwrap_or_default()
            .chars()
            .take(1500)
            .collect::<String>()
    );
}

/// One `probe --events` line, parsed and validated against `schema/events.schema.json`.
pub fn event_line(line: &str) -> serde_json::Value {
    let v: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
    assert_valid("events", &v);
    v
}

/// `mcpl-doctor probe ARGS -- node server.mjs FIXTURE_ARGS`, the fixture logging to `log`.
pub fn probe_cmd(log: &FixtureLog, args: &[&str], fixture_args: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.arg("probe")
        .args(args)
        .arg("--")
        .arg("node")
        .arg(server_mjs())
        .args(fixture_args)
        .env("FIXTURE_LOG", &log.path)
        .stdin(std::process::Stdio::null());
    cmd
}

/// [`probe_cmd`], run to its end.
pub fn probe(log: &FixtureLog, args: &[&str], fixture_args: &[&str]) -> Output {
    probe_cmd(log, args, fixture_args)
        .output()
        .expect("the binary runs")
}

/// A probe document's `launches`.
pub fn launches(doc: &serde_json::Value) -> &Vec<serde_json::Value> {
    doc["launches"].as_array().expect("launches")
}

/// A JSON number, or a panic naming what it was.
pub fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Live processes (not zombies) whose environment holds `name=value`: what a test's marker
/// variable finds of a probe's servers once it is over.
pub fn processes_with_env(name: &str, value: &str) -> Vec<u32> {
    let needle = format!("{name}={value}");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<u32>().ok()?;
            let env = std::fs::read(e.path().join("environ")).ok()?;
            env.split(|b| *b == 0)
                .any(|kv| kv == needle.as_bytes())
                .then_some(())?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let zombie = stat.rsplit(')').next()?.trim_start().starts_with('Z');
            (!zombie).then_some(pid)
        })
        .collect()
}

/// The diagnoses of a `probe --json` run that did not stay up (exit 1).
pub fn failed_diagnoses(out: &Output) -> Vec<serde_json::Value> {
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        stdout(out),
        stderr(out)
    );
    json(out)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

/// The exit code and the diagnoses of `probe --json --launches 1 --watch 1s -- PROGRAM
/// fixtures/SCRIPT MODE`, with the variables `clear` removed from the caller's environment and
/// `env` set: the shape every fixture-per-mode diagnosis test runs.
pub fn probe_fixture_mode(
    program: &str,
    script: &str,
    mode: &str,
    clear: &[&str],
    env: &[(&str, &str)],
) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s", "--"])
        .arg(program)
        .arg(fixture(script))
        .arg(mode)
        .stdin(std::process::Stdio::null());
    for k in clear {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    diagnoses_of(&cmd.output().expect("the binary runs"))
}

/// The exit code and the diagnoses of a `probe --json` run.
pub fn run_diagnoses(cmd: &mut Command) -> (Option<i32>, Vec<serde_json::Value>) {
    diagnoses_of(&cmd.output().expect("the binary runs"))
}

/// The exit code and the diagnoses of a `probe --json` run's output.
pub fn diagnoses_of(out: &Output) -> (Option<i32>, Vec<serde_json::Value>) {
    let doc: serde_json::Value = serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(out), stderr(out)));
    let d = doc["diagnoses"].as_array().cloned().unwrap_or_default();
    (out.status.code(), d)
}

/// The texts of a diagnosis's evidence, all of it or (`only`) of one source (`tried`).
pub fn evidence_texts(d: &serde_json::Value, only: Option<&str>) -> Vec<String> {
    d["evidence"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|x| only.is_none_or(|s| x["source"] == s))
                .map(|x| text_field(x, "text"))
                .collect()
        })
        .unwrap_or_default()
}

/// A string field of a JSON object, or "".
pub fn text_field(d: &serde_json::Value, name: &str) -> String {
    d[name].as_str().unwrap_or_default().to_string()
}

/// A port of 127.0.0.1 where nothing listens (bound, then let go).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
