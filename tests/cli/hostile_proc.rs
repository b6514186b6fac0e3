//! Hostile servers, part 2 (issue 8 items 9-12, 14, 15): secrets from `${VAR}`, `--token`-like
//! arguments and URL query parameters; short secrets and the 8 KiB cut; descendants that leave
//! the process group; SIGKILL to the probe; raw control, bidi and separator characters; launch
//! errors that say what is true. Every run is under a time bound, every fixture process carries
//! a marker in its environment and none may be left, and no secret may reach any output format.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{bin, fixture, is_running, stderr, stdout, FixtureLog};

/// The hostile fixture server.
fn hostile_py() -> String {
    fixture("servers/hostile.py").display().to_string()
}

/// Python 3 runs the fixture; fail loudly when it is missing.
fn python() -> &'static str {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "python3 is needed for the hostile fixture servers");
    "python3"
}

/// A marker unique to one test: every process a test starts carries `H4_MARKER=<marker>`.
fn marker(name: &str) -> String {
    format!("{name}-{}-{}", std::process::id(), fastrand_u64())
}

fn fastrand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(Instant::now().elapsed().as_nanos() as u64);
    h.finish()
}

/// Every live process (zombies excluded) whose environment holds `H4_MARKER=<marker>`.
fn marked(marker: &str) -> Vec<u32> {
    let needle = format!("H4_MARKER={marker}");
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) && is_running(pid) {
            out.push(pid);
        }
    }
    out
}

/// Assert that no process carrying `marker` is left (a moment allowed for the kernel); kill
/// any that are, so a failing test does not leave them for the next.
fn assert_none_left(marker: &str) {
    let t = Instant::now();
    loop {
        let left = marked(marker);
        if left.is_empty() {
            return;
        }
        if t.elapsed() > Duration::from_secs(10) {
            for pid in &left {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
            panic!("processes left running: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Run `cmd` to its end within `bound` (killed and failed past it).
fn bounded(mut cmd: Command, bound: Duration) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let t = Instant::now();
    let child = cmd.spawn().expect("the binary runs");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(bound) {
        Ok(out) => out.expect("the output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("the probe did not end within {bound:?} ({:?})", t.elapsed());
        }
    }
}

/// The binary with the marker in its environment (inherited by a `--` command).
fn doctor(marker: &str) -> Command {
    let mut cmd = bin();
    cmd.env("H4_MARKER", marker);
    cmd
}

/// The three output formats of one probe: human, `--json`, `--events` (stdout and stderr).
fn all_formats(make: &dyn Fn() -> Command, bound: Duration) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in ["human", "--json", "--events"] {
        let mut cmd = make();
        if format != "human" {
            cmd.arg(format);
        }
        let o = bounded(cmd, bound);
        out.push((
            format.to_string(),
            format!("{}\n--- stderr ---\n{}", stdout(&o), stderr(&o)),
        ));
    }
    out
}

fn assert_no_secret(outputs: &[(String, String)], secrets: &[&str]) {
    for (format, text) in outputs {
        for s in secrets {
            assert!(!text.contains(s), "{format} output shows {s:?}:\n{text}");
        }
    }
}

/// A config file in a temp dir.
fn config(dir: &Path, doc: serde_json::Value) -> PathBuf {
    let path = dir.join("hosts.json");
    std::fs::write(&path, serde_json::to_string_pretty(&doc).expect("json")).expect("write");
    path
}

// ---------------------------------------------------------------------------------------------
// Secrets (items 9, 10; newcomer row 29).

#[test]
fn substituted_values_token_args_and_url_secrets_reach_no_output() {
    let py = python();
    let m = marker("subst");
    let dir = tempfile::tempdir().expect("a temp dir");
    const TOKEN: &str = "ghp_h4SubstitutedToken0042";
    const LONG: &str = "h4-long-secret-cut-at-8KiB-0042";
    const ARG: &str = "h4-flag-secret-0042";
    const KEY: &str = "h4-query-key-0042";
    const CMD: &str = "h4-secret-command-0042";
    let path = config(
        dir.path(),
        json!({"mcpServers": {
            "gh": {
                "command": py,
                "args": [hostile_py(), "--echo", "--x", "${H4_TOKEN}", "--long-secret",
                         "${H4_LONG}", "--password", ARG, "--exit-after-handshake", "200"],
                "env": {"H4_MARKER": m, "HOSTILE_ECHO_ENV": "H4_MARKER"}
            },
            "missing": {"command": "/nonexistent/${H4_CMD}/server", "env": {"H4_MARKER": m}},
            "ws": {"url": "ws://127.0.0.1:9/mcp?api_key=${H4_KEY}&auth=h4-auth-0042&n=1"}
        }}),
    );
    let make = || {
        let mut cmd = doctor(&m);
        cmd.env("H4_TOKEN", TOKEN)
            .env("H4_LONG", LONG)
            .env("H4_KEY", KEY)
            .env("H4_CMD", CMD)
            .arg("probe")
            .arg("--config")
            .arg(&path)
            .args([
                "--all",
                "--launches",
                "1",
                "--watch",
                "300ms",
                "--interval",
                "50ms",
            ])
            .args(["--handshake-timeout", "5s", "--open-timeout", "1s"]);
        cmd
    };
    let outputs = all_formats(&make, Duration::from_secs(30));
    assert_no_secret(
        &outputs,
        &[TOKEN, LONG, ARG, KEY, CMD, "h4-auth-0042", "h4-long"],
    );
    // The server did run and say them: they were masked, not absent.
    let human = &outputs[0].1;
    assert!(human.contains("[redacted]"), "{human}");
    assert_none_left(&m);
}

#[test]
fn a_commands_token_like_arguments_are_masked() {
    let py = python();
    let m = marker("args");
    const TOKEN: &str = "h4-cli-token-0043";
    const KEY: &str = "h4-cli-apikey-0043";
    let make = || {
        let mut cmd = doctor(&m);
        cmd.args(["probe", "--launches", "1", "--watch", "200ms", "--"])
            .args([py, &hostile_py(), "--echo", "--token", TOKEN])
            .arg(format!("--api-key={KEY}"));
        cmd
    };
    let outputs = all_formats(&make, Duration::from_secs(20));
    assert_no_secret(&outputs, &[TOKEN, KEY]);
    assert!(
        outputs[0].1.contains("--token [redacted]"),
        "{}",
        outputs[0].1
    );
    assert_none_left(&m);
}

#[test]
fn a_short_redact_value_is_masked_where_it_stands_and_warned_about() {
    let py = python();
    let m = marker("short");
    let make = || {
        let mut cmd = doctor(&m);
        cmd.args([
            "probe",
            "--redact",
            "qz",
            "--launches",
            "1",
            "--watch",
            "200ms",
            "--",
        ])
        .args([py, &hostile_py(), "--echo", "--x", "qz"]);
        cmd
    };
    let outputs = all_formats(&make, Duration::from_secs(20));
    for (format, text) in &outputs {
        assert!(
            text.contains("warning: a --redact value is shorter than 3 characters"),
            "{format}: {text}"
        );
        assert!(!text.contains(" qz"), "{format}: {text}");
    }
    assert_none_left(&m);
}

// ---------------------------------------------------------------------------------------------
// Hostile text (item 14).

/// Whether `c` may never reach output raw.
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

#[test]
fn control_bidi_and_separator_characters_never_reach_output_raw() {
    let py = python();
    let m = marker("text");
    let make = || {
        let mut cmd = doctor(&m);
        cmd.args(["probe", "--launches", "1", "--watch", "200ms", "--"])
            .args([py, &hostile_py(), "--hostile-text"]);
        cmd
    };
    for (format, text) in all_formats(&make, Duration::from_secs(20)) {
        if let Some(c) = text.chars().find(|&c| unsafe_char(c)) {
            panic!("{format} output holds U+{:04X}:\n{text}", c as u32);
        }
        assert!(
            text.contains("evil"),
            "{format}: the server's text is shown: {text}"
        );
    }
    assert_none_left(&m);
}

// ---------------------------------------------------------------------------------------------
// Launch errors that say what is true (item 15).

#[test]
fn launch_errors_say_what_is_true() {
    let cases = [
        (
            fixture("servers").display().to_string(),
            "it is a directory, not a program",
        ),
        (
            fixture("servers/missing-interpreter.sh")
                .display()
                .to_string(),
            "its #! interpreter /nonexistent/mcpl-doctor-fixture-interpreter does not exist",
        ),
        (
            "mcpl-doctor-no-such-command-h4".to_string(),
            "command not found",
        ),
    ];
    for (command, want) in cases {
        let mut cmd = bin();
        cmd.args(["probe", "--launches", "1", "--", &command]);
        let o = bounded(cmd, Duration::from_secs(10));
        assert_eq!(o.status.code(), Some(2), "{command}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(want), "{command}: {err}");
        assert!(!err.contains("not executable?"), "{command}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Processes that leave the group (item 11) and SIGKILL to the probe (item 12).

#[test]
fn descendants_that_leave_the_group_are_found_stopped_and_reported() {
    let py = python();
    // setsid-badname: a process name that is not UTF-8 hid it from every scan (issue 21).
    for how in ["setsid", "setpgid", "double-fork", "setsid-badname"] {
        let m = marker(how);
        for format in ["human", "--json"] {
            let mut cmd = doctor(&m);
            cmd.args(["probe", "--launches", "1", "--watch", "300ms"]);
            if format != "human" {
                cmd.arg(format);
            }
            cmd.args(["--", py, &hostile_py(), "--escape", how]);
            let o = bounded(cmd, Duration::from_secs(20));
            if format == "human" {
                assert!(
                    stdout(&o).contains(
                        "launch 1: left 1 process outside its process group (setsid, setpgid or a double fork"
                    ),
                    "{how}: {}\n{}",
                    stdout(&o),
                    stderr(&o)
                );
            } else {
                let doc = crate::support::json(&o);
                assert_eq!(doc["launches"][0]["escaped_processes"], 1, "{how}: {doc}");
            }
            assert_none_left(&m);
        }
    }
}

/// The probe's children that are zombies.
fn zombie_children(parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.first() == Some(&"Z") && f.get(1) == Some(&parent.to_string().as_str()) {
            out.push(pid);
        }
    }
    out
}

#[test]
fn inherited_children_are_reaped_as_they_exit() {
    let py = python();
    let m = marker("orphans");
    let log = FixtureLog::new();
    let mut cmd = doctor(&m);
    cmd.env("FIXTURE_LOG", &log.path)
        .args(["probe", "--launches", "1", "--watch", "20s", "--"])
        .args([py, &hostile_py(), "--orphans", "9"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut probe = cmd.spawn().expect("the probe runs");
    let probe_pid = probe.id();
    let t = Instant::now();
    let orphans = loop {
        let pids: Vec<u32> = log
            .events("grandchild")
            .iter()
            .filter_map(|e| e["child"].as_u64().map(|p| p as u32))
            .collect();
        if pids.len() == 9 {
            break pids;
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the fixture started {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // Each lives 200 ms, is then the probe's (its subreaper's) child, and must be reaped: no
    // zombie under the probe once they are all gone.
    let t = Instant::now();
    loop {
        let running = orphans.iter().any(|&p| is_running(p));
        let zombies = zombie_children(probe_pid);
        if !running && zombies.is_empty() {
            break;
        }
        if t.elapsed() > Duration::from_secs(15) {
            let _ = probe.kill();
            panic!("zombies under the probe: {zombies:?} (orphans running: {running})");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .args(["-TERM", &probe_pid.to_string()])
        .status();
    let _ = probe.wait();
    assert_none_left(&m);
}

#[test]
fn sigkill_to_the_probe_takes_every_servers_processes_with_it() {
    let py = python();
    // At the launch, during the handshake, connected (the escaped one reported by then), and
    // connected with the escaped one just born, before the probe's scan could see it (the keeper
    // then finds it by its launch marker), also with a process name that is not UTF-8 (which
    // hid it from the keeper's scan).
    for (i, when) in [
        "launch",
        "handshake",
        "connected",
        "escaped-unseen",
        "badname-unseen",
    ]
    .into_iter()
    .enumerate()
    {
        let m = marker(&format!("kill{i}"));
        let log = FixtureLog::new();
        let mut cmd = doctor(&m);
        cmd.env("FIXTURE_LOG", &log.path)
            .args(["probe", "--launches", "1", "--watch", "30s", "--"])
            .args([py, &hostile_py(), "--grandchild"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if when == "connected" || when == "escaped-unseen" {
            cmd.args(["--escape", "setsid"]);
        } else if when == "badname-unseen" {
            cmd.args(["--escape", "setsid-badname"]);
        }
        let mut probe = cmd.spawn().expect("the probe runs");
        let t = Instant::now();
        let ready = |log: &FixtureLog| match when {
            "launch" => !log.events("launch").is_empty(),
            "handshake" => !log.events("handshake").is_empty(),
            _ => log.events("grandchild").len() == 2,
        };
        while !ready(&log) {
            assert!(
                t.elapsed() < Duration::from_secs(15),
                "{when}: the fixture did not start"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        if when == "connected" {
            // The probe's scans for descendants outside the group (every 500 ms) have seen
            // the escaped one.
            crate::support::wait_for_scans(probe.id(), 2, Duration::from_secs(15));
        }
        probe.kill().expect("SIGKILL");
        let _ = probe.wait();
        assert_none_left(&m);
    }
}
