//! Everything a server starts, even what leaves its process group (Linux).
//!
//! A process group is not a container: a grandchild that calls `setsid` or `setpgid`, or that
//! double-forks, is outside the group, and `killpg` does not reach it. Three pieces close that:
//!
//! - **A launch marker.** Every stdio server is launched with `MCPL_DOCTOR_LAUNCH=<probe pid>.<n>`
//!   in its environment (the one variable the probe adds to what the host would pass). Its
//!   descendants inherit it whatever group or session they move to, so the probe finds them by
//!   reading `/proc/<pid>/environ` (its own user's processes, started after the probe).
//! - **A reaper.** The probe is a child subreaper (see [`super::process`]): orphans of a server
//!   are reparented to it. A thread reaps every such inherited child as soon as it exits (never a
//!   server the probe spawned itself: tokio reaps those), so zombies do not pile up, and tells
//!   the keeper about descendants it finds outside their server's group.
//! - **A keeper.** A small process forked from the probe at start ([`start_keeper`]), in its own
//!   process group and ignoring Ctrl-C, that reads a pipe from the probe: the groups of running
//!   servers and the pid (with start time) of every descendant found outside its group. When the
//!   pipe ends without a goodbye (the probe was SIGKILLed, or crashed), it SIGKILLs them all,
//!   then whatever else carries one of the probe's launch markers (what left its group after
//!   the probe's last scan, every [`SCAN_EVERY`]).
//!
//! What remains impossible is written in docs/probe.md: a descendant that clears its environment
//! *and* escapes its group *and* whose parent is still alive is not recognised as the server's;
//! a SIGKILL to the keeper itself (together with the probe) leaves the stragglers it would have
//! killed; and the reaper needs no `/proc/<pid>/task/*/children` (a kernel option),
//! so it peeks with `waitid(WNOWAIT)`.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

/// The variable that marks a launch's processes.
pub const LAUNCH_VAR: &str = "MCPL_DOCTOR_LAUNCH";

/// How often the reaper looks for exited inherited children (one `waitid` call when none has).
pub const REAP_EVERY: Duration = Duration::from_millis(100);

/// How often it looks for descendants outside their server's group, to tell the keeper (a scan
/// of `/proc`, only while servers run and a keeper listens).
pub const SCAN_EVERY: Duration = Duration::from_millis(500);

/// A process, told apart from a later one with the same pid by its start time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Proc {
    pub pid: u32,
    /// `/proc/<pid>/stat` field 22, in clock ticks since boot.
    pub start: u64,
}

#[derive(Default)]
struct Registry {
    /// Children the probe spawned itself (servers, the keeper): tokio or the keeper's owner
    /// reaps them, the reaper never does.
    spawned: HashSet<u32>,
    /// The keeper's pipe, when a keeper runs.
    keeper: Option<std::fs::File>,
    /// Escaped descendants already told to the keeper.
    told: HashSet<Proc>,
    /// Running launches: marker -> the server's process group.
    launches: HashMap<String, u32>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    let m = REGISTRY.get_or_init(|| Mutex::new(Registry::default()));
    // A panic while holding the lock leaves plain data behind: keep using it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    fn tell(&mut self, line: &str) {
        if let Some(k) = self.keeper.as_mut() {
            // The keeper gone (killed) is nothing the probe can mend: carry on without it.
            if k.write_all(line.as_bytes()).is_err() {
                self.keeper = None;
            }
        }
    }
}

/// A fresh marker for one launch: `<probe pid>.<n>`.
pub fn new_marker() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed) + 1
    )
}

/// Held while a server is spawned and registered, so the reaper never sees it unregistered.
pub struct SpawnGuard(MutexGuard<'static, Registry>);

/// Take before spawning a server; [`SpawnGuard::spawned`] registers it.
pub fn before_spawn() -> SpawnGuard {
    start_reaper();
    SpawnGuard(registry())
}

impl SpawnGuard {
    /// Register a server just spawned (its pid leads its group) under `marker`.
    pub fn spawned(mut self, pid: u32, marker: &str) {
        self.0.spawned.insert(pid);
        self.0.launches.insert(marker.to_string(), pid);
        self.0.tell(&format!("+g {pid}\n"));
    }
}

/// A launch is over (its group stopped and reaped): forget it.
pub fn finished(pid: u32, marker: &str) {
    let mut r = registry();
    r.spawned.remove(&pid);
    r.launches.remove(marker);
    r.tell(&format!("-g {pid}\n"));
}

fn start_reaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = std::thread::Builder::new().name("reaper".into()).spawn(|| {
            let per_scan = (SCAN_EVERY.as_millis() / REAP_EVERY.as_millis()).max(1);
            for tick in 1u128.. {
                std::thread::sleep(REAP_EVERY);
                reap_inherited();
                if tick % per_scan == 0 {
                    track_escaped();
                }
            }
        });
    });
}

/// Reap every exited child the probe inherited (never one it spawned: tokio reaps those).
pub fn reap_inherited() {
    use nix::sys::wait::{waitid, Id};
    let r = registry();
    let peek = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    // Peek at one exited child at a time, without reaping it.
    while let Ok(status) = waitid(Id::All, peek) {
        let Some(pid) = status.pid() else {
            return; // none has exited
        };
        if r.spawned.contains(&(pid.as_raw() as u32)) {
            // A server of ours, which tokio reaps; others may wait behind it: look them up.
            let me = std::process::id();
            for p in list().iter().filter(|p| p.ppid == me && p.zombie) {
                if !r.spawned.contains(&p.pid) {
                    let _ = waitpid(Pid::from_raw(p.pid as i32), Some(WaitPidFlag::WNOHANG));
                }
            }
            return;
        }
        let _ = waitpid(pid, Some(WaitPidFlag::WNOHANG));
    }
}

/// Tell the keeper about this probe's descendants found outside their server's group.
fn track_escaped() {
    if registry().launches.is_empty() {
        return;
    }
    let procs = list();
    let mut r = registry();
    if r.keeper.is_none() {
        return;
    }
    let me = std::process::id();
    let prefix = format!("{LAUNCH_VAR}={me}.");
    for p in procs.iter().filter(|p| !p.zombie) {
        if r.launches.values().any(|&g| g == p.pgid) {
            continue;
        }
        let Some(marker) = marker_of(p.pid, &prefix) else {
            continue;
        };
        let proc_ = Proc {
            pid: p.pid,
            start: p.start,
        };
        if r.launches.contains_key(&marker) && r.told.insert(proc_) {
            r.tell(&format!("+p {} {}\n", p.pid, p.start));
        }
    }
}

/// What `/proc/<pid>/stat` says of one process.
struct Stat {
    pid: u32,
    ppid: u32,
    pgid: u32,
    zombie: bool,
    start: u64,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ppid pgrp session ... starttime(22)": fields after the last ')'.
    let (_, rest) = text.rsplit_once(')')?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        pid,
        zombie: matches!(f.first(), Some(&"Z") | Some(&"X")),
        ppid: f.get(1)?.parse().ok()?,
        pgid: f.get(2)?.parse().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

/// Every process of this user started after the probe (older ones cannot be a server's).
fn list() -> Vec<Stat> {
    static SELF_START: OnceLock<u64> = OnceLock::new();
    let since = *SELF_START.get_or_init(|| stat(std::process::id()).map_or(0, |s| s.start));
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(stat)
        .filter(|s| s.start >= since)
        .collect()
}

/// The launch marker in a process's environment, when it carries one of this probe's.
fn marker_of(pid: u32, prefix: &str) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    env.split(|&b| b == 0).find_map(|v| {
        let v = std::str::from_utf8(v).ok()?;
        let rest = v.strip_prefix(prefix)?;
        Some(format!("{}.{rest}", std::process::id()))
    })
}

/// SIGKILL every live process whose environment carries a launch marker of probe `probe`
/// (`MCPL_DOCTOR_LAUNCH=<probe>.<n>`); returns how many were signalled. The keeper's last
/// resort once the probe is gone.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn kill_marked(probe: u32) -> usize {
    let prefix = format!("{LAUNCH_VAR}={probe}.");
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut killed = 0;
    for pid in dir
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
    {
        let marked = std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
            env.split(|&b| b == 0)
                .any(|v| v.starts_with(prefix.as_bytes()))
        });
        if marked && stat(pid).is_some_and(|s| !s.zombie) {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
            killed += 1;
        }
    }
    killed
}

/// The live processes of launch `marker` outside the group `pgid` (a server's descendants
/// that called setsid or setpgid, or double-forked).
pub fn escaped(marker: &str, pgid: u32) -> Vec<Proc> {
    let want = format!("{LAUNCH_VAR}={marker}");
    let prefix = format!("{LAUNCH_VAR}={}.", std::process::id());
    list()
        .into_iter()
        .filter(|p| !p.zombie && p.pgid != pgid)
        .filter(|p| marker_of(p.pid, &prefix).is_some_and(|m| format!("{LAUNCH_VAR}={m}") == want))
        .map(|p| Proc {
            pid: p.pid,
            start: p.start,
        })
        .collect()
}

/// Whether `p` is still that process and running.
pub fn is_running(p: Proc) -> bool {
    stat(p.pid).is_some_and(|s| s.start == p.start && !s.zombie)
}

/// Stop escaped descendants: SIGTERM, up to `grace`, SIGKILL, up to `grace` again. Returns how
/// many were still there after SIGKILL's grace.
pub async fn stop_escaped(procs: &[Proc], grace: Duration) -> usize {
    let signal = |sig: Signal| {
        for p in procs.iter().filter(|p| is_running(**p)) {
            let _ = kill(Pid::from_raw(p.pid as i32), sig);
        }
    };
    let gone = || {
        reap_inherited();
        !procs.iter().any(|p| is_running(*p))
    };
    for sig in [Signal::SIGTERM, Signal::SIGKILL] {
        signal(sig);
        let until = tokio::time::Instant::now() + grace;
        while !gone() && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        if gone() {
            forget(procs);
            return 0;
        }
    }
    procs.iter().filter(|p| is_running(**p)).count()
}

fn forget(procs: &[Proc]) {
    let mut r = registry();
    for p in procs {
        if r.told.remove(p) {
            r.tell(&format!("-p {} {}\n", p.pid, p.start));
        }
    }
}

/// Fork the keeper. Call once, early, while the probe has a single thread (before any runtime
/// starts). Returns false (and the probe runs without one) where it cannot be made.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn start_keeper() -> bool {
    false
}

/// Fork the keeper. Call once, early, while the probe has a single thread (before any runtime
/// starts). Returns false (and the probe runs without one) where it cannot be made.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn start_keeper() -> bool {
    use nix::fcntl::OFlag;
    use nix::unistd::{fork, pipe2, ForkResult};
    let Ok((read, write)) = pipe2(OFlag::O_CLOEXEC) else {
        return false;
    };
    // SAFETY: the probe is single-threaded here (the caller's contract); the child only makes
    // system calls and plain allocations, then exits.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => {
            drop(write);
            keeper_main(std::fs::File::from(read));
        }
        Ok(ForkResult::Parent { child }) => {
            drop(read);
            let mut r = registry();
            r.spawned.insert(child.as_raw() as u32);
            r.keeper = Some(std::fs::File::from(write));
            true
        }
        Err(_) => false,
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn keeper_main(pipe: std::fs::File) -> ! {
    use nix::sys::signal::{signal, SigHandler};
    use std::io::BufRead;
    // Its own group, so a Ctrl-C or a `kill -- -PGID` aimed at the probe's group spares it.
    let _ = nix::unistd::setpgid(Pid::from_raw(0), Pid::from_raw(0));
    for sig in [
        Signal::SIGINT,
        Signal::SIGTERM,
        Signal::SIGHUP,
        Signal::SIGPIPE,
    ] {
        // SAFETY: SIG_IGN installs no handler code.
        let _ = unsafe { signal(sig, SigHandler::SigIgn) };
    }
    // Let go of the probe's terminal and pipes: whoever waits for the probe's output must not
    // wait for the keeper.
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        use std::os::fd::AsRawFd;
        for fd in 0..3 {
            // SAFETY: dup2 on two valid descriptors.
            let _ = unsafe { nix::libc::dup2(null.as_raw_fd(), fd) };
        }
    }
    // The probe (the keeper's parent), whose pid every launch marker starts with.
    let probe = nix::unistd::getppid().as_raw() as u32;
    let mut groups: HashSet<u32> = HashSet::new();
    let mut procs: HashSet<Proc> = HashSet::new();
    for line in std::io::BufReader::new(pipe).lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        match (words.first().copied(), num(1), num(2)) {
            (Some("+g"), Some(g), _) => {
                groups.insert(g as u32);
            }
            (Some("-g"), Some(g), _) => {
                groups.remove(&(g as u32));
            }
            (Some("+p"), Some(pid), Some(start)) => {
                procs.insert(Proc {
                    pid: pid as u32,
                    start,
                });
            }
            (Some("-p"), Some(pid), Some(start)) => {
                procs.remove(&Proc {
                    pid: pid as u32,
                    start,
                });
            }
            _ => {}
        }
    }
    // The probe is gone (ended, crashed or SIGKILLed): whatever it had not stopped goes now.
    for g in &groups {
        let _ = killpg(Pid::from_raw(*g as i32), Signal::SIGKILL);
    }
    for p in procs.iter().filter(|p| is_running(**p)) {
        let _ = kill(Pid::from_raw(p.pid as i32), Signal::SIGKILL);
    }
    // And what the probe had not seen yet (a descendant that left its group in the last
    // moments before a SIGKILL, between two of the probe's scans): anything still carrying
    // one of this probe's launch markers. Again until none is left, as one may fork while the
    // first scan runs.
    for _ in 0..5 {
        if kill_marked(probe) == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: _exit ends the forked child without running the parent's atexit handlers.
    unsafe { nix::libc::_exit(0) }
}
