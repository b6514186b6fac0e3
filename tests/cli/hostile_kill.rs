//! Hostile processes, round 3 (issue 21 items 5, 7 and 10): a descendant that leaves the group
//! and keeps re-forking (a new pid every few milliseconds), stopped by freezing the whole
//! marked set before killing it, on the normal stop and on a SIGKILL of the probe; launch
//! markers that are random and matched exactly; too few file descriptors.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, fixture, is_running, stderr, FixtureLog};

// ---------------------------------------------------------------------------------------------
// Item 10: `ulimit -n 7`.

#[test]
fn too_few_file_descriptors_is_said_not_panicked() {
    let exe = env!("CARGO_BIN_EXE_mcpl-doctor");
    for n in [7, 12] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -n {n} && exec \"$0\" probe --launches 1 --watch 100ms -- true"
            ))
            .arg(exe)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "ulimit -n {n}: {err}");
        assert!(!err.contains("panicked"), "ulimit -n {n}: {err}");
        assert!(
            err.contains("too few file descriptors: the limit is"),
            "ulimit -n {n}: {err}"
        );
    }
    // A low soft limit under a higher hard one is raised, and the probe runs.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -S -n 12 && exec \"$0\" probe --launches 1 --watch 100ms -- true")
        .arg(exe)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    assert!(
        !stderr(&o).contains("too few file descriptors"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------------------------------------
// Item 5: a descendant that leaves the group and keeps re-forking.

/// Every live process (zombies excluded) whose environment holds `H4_MARKER=<marker>`, except
/// the subreaper wrapper.
fn marked(marker: &str) -> Vec<u32> {
    let needle = format!("H4_MARKER={marker}");
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes())
            && !String::from_utf8_lossy(&cmd).contains("subreaper.py")
            && is_running(pid)
        {
            out.push(pid);
        }
    }
    out
}

/// Stop and kill whatever carries `marker` (so a failing test leaves nothing running).
fn freeze_and_kill(marker: &str) {
    for _ in 0..500 {
        let left = marked(marker);
        if left.is_empty() {
            return;
        }
        for sig in ["-STOP", "-STOP", "-KILL"] {
            let pids: Vec<String> = marked(marker).iter().map(u32::to_string).collect();
            if !pids.is_empty() {
                let _ = Command::new("kill").arg(sig).args(&pids).status();
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A probe of `hostile.py --hopper` under a subreaper (so what it leaves lives on, as under a
/// desktop's `systemd --user`, instead of going to a PID 1 that may kill or never reap it).
/// With `sigkill`, the probe is SIGKILLed once the hopper runs. Returns the probe's stdout.
fn hopper_run(marker: &str, sigkill: bool) -> String {
    let log = FixtureLog::new();
    let mut wrapper = Command::new("python3")
        .arg(fixture("servers/subreaper.py"))
        .arg(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .args(["probe", "--launches", "1", "--watch", "1s", "--"])
        .arg("python3")
        .arg(fixture("servers/hostile.py"))
        .arg("--hopper")
        .env("H4_MARKER", marker)
        .env("FIXTURE_LOG", &log.path)
        .env("COLUMNS", "160")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs the wrapper");
    let mut out = BufReader::new(wrapper.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the probe's pid");
    let probe: u32 = first.trim().parse().expect("a pid");
    if sigkill {
        let t = Instant::now();
        while log.events("grandchild").is_empty() {
            assert!(t.elapsed() < Duration::from_secs(15), "no hopper started");
            std::thread::sleep(Duration::from_millis(5));
        }
        // Hopping: the pid it was born with has re-forked and gone.
        let born: Vec<u32> = log
            .events("grandchild")
            .iter()
            .filter_map(|e| e["child"].as_u64())
            .map(|p| p as u32)
            .collect();
        let t = Instant::now();
        while born.iter().any(|&p| is_running(p)) {
            assert!(
                t.elapsed() < Duration::from_secs(15),
                "the hopper did not hop"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = Command::new("kill")
            .args(["-KILL", &probe.to_string()])
            .status();
    }
    let mut rest = String::new();
    let t = Instant::now();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap_or(0) == 0 || line.starts_with("exit ") {
            break;
        }
        rest.push_str(&line);
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the probe did not end"
        );
    }
    // The keeper may still be at work (it gives itself 5 s): nothing may be left once it ends
    // (15 s: a loaded machine).
    let t = Instant::now();
    let left = loop {
        let left = marked(marker);
        if left.is_empty() || t.elapsed() > Duration::from_secs(15) {
            break left;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    freeze_and_kill(marker);
    drop(wrapper.stdin.take());
    let _ = wrapper.wait();
    assert!(
        left.is_empty(),
        "left running (sigkill: {sigkill}): {left:?}\n{rest}"
    );
    rest
}

#[test]
fn a_re_forking_descendant_outside_the_group_is_frozen_and_killed() {
    for i in 0..3 {
        let m = format!("hop-stop-{}-{i}", std::process::id());
        let out = hopper_run(&m, false);
        assert!(
            out.contains("outside its process group"),
            "the stop is reported:\n{out}"
        );
    }
}

#[test]
fn a_re_forking_descendant_dies_with_a_sigkilled_probe() {
    for i in 0..3 {
        let m = format!("hop-kill-{}-{i}", std::process::id());
        hopper_run(&m, true);
    }
}

// ---------------------------------------------------------------------------------------------
// Item 7: launch markers are random, 128 bits, matched exactly.

#[test]
fn launch_markers_are_random_and_matched_exactly() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let seen = dir.path().join("marker");
    let script = format!(
        "echo \"$MCPL_DOCTOR_LAUNCH\" >> '{}'; exec python3 '{}'",
        seen.display(),
        fixture("servers/hostile.py").display()
    );
    let m = format!("impostor-{}", std::process::id());
    let mut probe = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--watch",
            "30s",
            "--",
            "sh",
            "-c",
        ])
        .arg(&script)
        .env("H4_MARKER", &m)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let t = Instant::now();
    let marker = loop {
        let text = std::fs::read_to_string(&seen).unwrap_or_default();
        if let Some(line) = text.lines().next().filter(|l| !l.is_empty()) {
            break line.to_string();
        }
        assert!(t.elapsed() < Duration::from_secs(15), "no launch");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(marker.len(), 32, "{marker}");
    assert!(marker.chars().all(|c| c.is_ascii_hexdigit()), "{marker}");
    // Impostors, not the probe's: another probe's marker that starts like this one, or that
    // this one starts like, each in its own session.
    let impostors: Vec<std::process::Child> = [format!("{marker}0"), marker[..31].to_string()]
        .iter()
        .map(|v| {
            Command::new("setsid")
                .args(["sleep", "60"])
                .env("MCPL_DOCTOR_LAUNCH", v)
                .env("H4_MARKER", &m)
                .spawn()
                .expect("setsid runs")
        })
        .collect();
    // The probe's scans (every 500 ms) look at the impostors; then a SIGKILL hands over to
    // the keeper, which kills what carries the probe's markers and ends.
    crate::support::wait_for_scans(probe.id(), 2, Duration::from_secs(15));
    let _ = probe.kill();
    let _ = probe.wait();
    let imps: Vec<u32> = impostors.iter().map(std::process::Child::id).collect();
    let t = Instant::now();
    while marked(&m).iter().any(|p| !imps.contains(p)) {
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the keeper and the server did not end: {:?}",
            marked(&m)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    for mut imp in impostors {
        let alive = imp.try_wait().expect("try_wait").is_none();
        let _ = imp.kill();
        let _ = imp.wait();
        assert!(
            alive,
            "a process with a marker that is not the probe's was killed"
        );
    }
    // A second probe's marker differs.
    let o = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--watch",
            "100ms",
            "--",
            "sh",
            "-c",
        ])
        .arg(&script)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(o.status.code().is_some());
    let text = std::fs::read_to_string(&seen).expect("written");
    let markers: Vec<&str> = text.lines().collect();
    assert_eq!(markers.len(), 2, "{text}");
    assert_ne!(markers[0], markers[1]);
    freeze_and_kill(&m);
}

// ---------------------------------------------------------------------------------------------
// Item 10: the `/proc` scans of an idle probe on a machine with many processes.

/// Processes (and threads) the kernel has started since boot: `/proc/stat`'s `processes` line.
/// The churn of a busy machine (other tests, a build) in a window is the difference.
fn forks_since_boot() -> u64 {
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("processes "))
                .and_then(|n| n.trim().parse().ok())
        })
        .expect("/proc/stat has a processes line")
}

fn process_count() -> u64 {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|n| n.parse::<u32>().is_ok())
                })
                .count() as u64
        })
        .unwrap_or(0)
}

/// Children killed when the test ends, whatever happens.
struct Children(Vec<std::process::Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
        }
        for c in &mut self.0 {
            let _ = c.wait();
        }
    }
}

#[test]
fn an_idle_probe_reads_every_process_only_on_its_full_scans() {
    // Before, each scan (every 500 ms) read the `stat` of every process on the machine: with
    // 2,000 of them, 4-8 % of a core for a probe watching a quiet server. Now only a full scan
    // every tenth does; between, only new processes and the launch's own are read, each
    // `stat` in one read call (it took six). Counted in the scanning thread's read calls over
    // a dozen scans (one or two of them full): a full scan costs one read per process on the
    // machine (and its environment's, for the few started since the probe), a scan between
    // only the processes new since the last scan. So the bound is four per process on the
    // machine plus sixteen per process the machine started meanwhile (the suite's other tests
    // beside it, a build: on a busy machine thousands, which a bound on the process table
    // alone took for the probe's own work), against six per process and scan (72) before.
    let mut sleepers = Children(Vec::new());
    for _ in 0..1000 {
        let c = Command::new("sleep")
            .arg("120")
            .stdin(Stdio::null())
            .spawn()
            .expect("sleep runs");
        sleepers.0.push(c);
    }
    let log = FixtureLog::new();
    let probe = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--watch",
            "120s",
            "--",
            "python3",
        ])
        .arg(fixture("servers/hostile.py"))
        .env("FIXTURE_LOG", &log.path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let pid = probe.id();
    let probe = Children(vec![probe]);
    let t = Instant::now();
    while log.events("handshake").is_empty() {
        assert!(t.elapsed() < Duration::from_secs(30), "no handshake");
        std::thread::sleep(Duration::from_millis(20));
    }
    let reads = || crate::support::reaper_io(pid, "syscr:").unwrap_or(0);
    let (before, processes, forks) = (reads(), process_count(), forks_since_boot());
    crate::support::wait_for_scans(pid, 12, Duration::from_secs(90));
    let read = reads() - before;
    let started = forks_since_boot() - forks;
    let processes = processes.max(process_count());
    drop(probe);
    drop(sleepers);
    assert!(
        read < 4 * processes + 16 * started + 200,
        "{read} read calls in 12 scans with {processes} processes on the machine, \
         {started} started meanwhile"
    );
}
