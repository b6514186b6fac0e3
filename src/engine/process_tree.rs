//! Everything a server starts, even what leaves its process group (Linux).
//!
//! A process group is not a container: a grandchild that calls `setsid` or `setpgid`, or that
//! double-forks, is outside the group, and `killpg` does not reach it. Three pieces close that:
//!
//! - **A launch marker.** Every stdio server is launched with `MCPL_DOCTOR_LAUNCH=<marker>` in its
//!   environment (the one variable the probe adds to what the host would pass), the marker 128
//!   random bits in hex, matched exactly: another probe (in another pid namespace sharing the
//!   /proc view, with the same pid) can neither guess nor share it. Its descendants inherit it
//!   whatever group or session they move to, so the probe finds them by reading
//!   `/proc/<pid>/environ` (its own user's processes, started after the probe).
//! - **A reaper.** The probe is a child subreaper (see [`super::process`]): orphans of a server
//!   are reparented to it. A thread reaps every such inherited child as soon as it exits (never a
//!   server the probe spawned itself: tokio reaps those), so zombies do not pile up, and tells
//!   the keeper about descendants it finds outside their server's group.
//! - **A keeper.** A small process forked from the probe at start ([`start_keeper`]), in its own
//!   process group and ignoring Ctrl-C, that reads a pipe from the probe: the groups of running
//!   servers with their markers and the pid (with start time) of every descendant found outside
//!   its group. When the pipe ends without a goodbye (the probe was SIGKILLed, or crashed), it
//!   SIGKILLs them all, then freezes and kills whatever else carries one of the probe's launch
//!   markers (what left its group after the probe's last scan, every [`SCAN_EVERY`]).
//!
//! Killing by pid races a process that keeps re-forking (a new pid every few milliseconds, the
//! parent exiting): by the time a scan's pid is signalled it has a child the scan did not see.
//! So what is outside a group is frozen before it is killed ([`freeze_and_kill`]): SIGSTOP each
//! marked process found, scan again until every one found is stopped, then SIGKILL them all,
//! and again until a scan finds none.
//!
//! What remains impossible is written in docs/probe.md: a descendant that clears its environment
//! *and* escapes its group *and* whose parent is still alive is not recognised as the server's;
//! a SIGKILL to the keeper itself (together with the probe) leaves the stragglers it would have
//! killed; and the reaper needs no `/proc/<pid>/task/*/children` (a kernel option),
//! so it peeks with `waitid(WNOWAIT)`.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

pub(crate) use super::pidfd::Proc;
use super::pidfd::{signal_proc, stat, Stat};

/// The variable that marks a launch's processes.
pub(crate) const LAUNCH_VAR: &str = "MCPL_DOCTOR_LAUNCH";

/// How often the reaper looks for exited inherited children (one `waitid` call when none has).
pub(crate) const REAP_EVERY: Duration = Duration::from_millis(100);

/// How often it looks for descendants outside their server's group, to tell the keeper (a scan
/// of `/proc`, only while servers run and a keeper listens).
pub(crate) const SCAN_EVERY: Duration = Duration::from_millis(500);

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
    /// Sessions a launch's descendants made (setsid: their group and session ids are the pid
    /// of the marked process that made them), by launch marker. A process that keeps
    /// re-forking is gone by the time a scan reads its pid, but stays in its session's group.
    sessions: HashMap<String, HashSet<u32>>,
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

/// A fresh marker for one launch: 128 random bits from the kernel, as 32 hex digits. Should the
/// kernel refuse (it does not, on any supported system), the time and a counter stand in: still
/// unique to this probe, only guessable.
pub(crate) fn new_marker() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        bytes[..8].copy_from_slice(&nanos.to_le_bytes());
        let n = N.fetch_add(1, Ordering::Relaxed) ^ u64::from(std::process::id()) << 32;
        bytes[8..].copy_from_slice(&n.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Held while a server is spawned and registered, so the reaper never sees it unregistered.
pub(crate) struct SpawnGuard(MutexGuard<'static, Registry>);

/// Take before spawning a server; [`SpawnGuard::spawned`] registers it.
pub(crate) fn before_spawn() -> SpawnGuard {
    start_reaper();
    SpawnGuard(registry())
}

impl SpawnGuard {
    /// Register a server just spawned (its pid leads its group) under `marker`.
    pub(crate) fn spawned(mut self, pid: u32, marker: &str) {
        self.0.spawned.insert(pid);
        self.0.launches.insert(marker.to_string(), pid);
        self.0.tell(&format!("+g {pid} {marker}\n"));
    }
}

/// A short command the doctor runs itself (an experiment), registered while it runs so the
/// reaper leaves its exit to the caller: reaped by the reaper, it would seem to have failed.
pub(crate) struct OwnChild(u32);

/// Spawn `cmd` registered as [`OwnChild`] (the registry held across the spawn, as for servers).
pub(crate) fn spawn_own(
    cmd: &mut std::process::Command,
) -> std::io::Result<(std::process::Child, OwnChild)> {
    let mut r = registry();
    let child = cmd.spawn()?;
    r.spawned.insert(child.id());
    let own = OwnChild(child.id());
    Ok((child, own))
}

impl Drop for OwnChild {
    fn drop(&mut self) {
        registry().spawned.remove(&self.0);
    }
}

/// A launch is over (its group stopped and reaped): forget it.
pub(crate) fn finished(pid: u32, marker: &str) {
    let mut r = registry();
    for g in r.sessions.remove(marker).unwrap_or_default() {
        r.tell(&format!("-s {g}\n"));
    }
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
pub(crate) fn reap_inherited() {
    use nix::sys::wait::{waitid, Id};
    let mut r = registry();
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
        // An orphan of a server's: a session it made is noted before the zombie goes (a
        // process that keeps re-forking leaves a trail of them, where a scan rarely finds it
        // alive). With one launch running it is that launch's; else the keeper's alone.
        if let Some(st) = stat(pid.as_raw() as u32) {
            if st.sid == st.pgid && st.pgid > 1 && !r.launches.values().any(|&g| g == st.pgid) {
                let marker = match r.launches.keys().next() {
                    Some(m) if r.launches.len() == 1 => m.clone(),
                    _ => String::new(),
                };
                note_session(&mut r, &marker, &st);
            }
        }
        let _ = waitpid(pid, Some(WaitPidFlag::WNOHANG));
    }
}

/// Every this many scans, one reads every process's `/proc/<pid>/stat`; the scans between read
/// only those of processes new since the scan before and of the launches' own processes.
pub(crate) const FULL_SCAN_EVERY: u32 = 10;

/// What the scans between full ones remember.
#[derive(Default)]
struct ScanState {
    /// Scans since the last full one.
    since_full: u32,
    /// The pids `/proc` listed at the last scan.
    listed: HashSet<u32>,
    /// Processes seen in a launch's group or carrying its marker: a process in the group may
    /// leave it later (setsid) without a new pid, so each scan looks at these again.
    watched: HashSet<u32>,
    /// The launch marker each process carried when first read (`None`: none), so a full scan
    /// reads the environment of a process started since the probe once, not at every full
    /// scan: a process that is not a launch's cannot become one (it cannot learn a marker), and
    /// one that is stays one. Forgotten when its pid is no longer listed.
    markers: HashMap<Proc, Option<String>>,
}

impl ScanState {
    /// The launch marker of `p` (see [`ScanState::markers`]).
    fn marker(&mut self, p: &Stat) -> Option<String> {
        let key = Proc {
            pid: p.pid,
            start: p.start,
        };
        self.markers
            .entry(key)
            .or_insert_with(|| marker_of(p.pid))
            .clone()
    }
}

/// The processes a scan looks at: every one on a full scan; else those new since the last scan
/// and the watched ones (what a server's descendants can be: a process the probe's launch
/// started is new when it starts, and watched from then on). Reading `/proc`'s listing costs
/// little; reading each process's `stat` is what a machine with thousands of them pays for.
fn scan_list(state: &mut ScanState) -> Vec<Stat> {
    let full = state.since_full == 0;
    state.since_full = (state.since_full + 1) % FULL_SCAN_EVERY;
    if full {
        let procs = list();
        state.listed = pids().into_iter().collect();
        let listed = &state.listed;
        state.markers.retain(|p, _| listed.contains(&p.pid));
        return procs;
    }
    let now: HashSet<u32> = pids().into_iter().collect();
    let mut look: Vec<u32> = now
        .iter()
        .copied()
        .filter(|p| !state.listed.contains(p) || state.watched.contains(p))
        .collect();
    look.sort_unstable();
    state.watched.retain(|p| now.contains(p));
    state.markers.retain(|p, _| now.contains(&p.pid));
    state.listed = now;
    let since = self_start();
    look.into_iter()
        .filter_map(stat)
        .filter(|s| s.start >= since)
        .collect()
}

/// The pids `/proc` lists.
fn pids() -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .collect()
}

fn scan_state() -> MutexGuard<'static, ScanState> {
    static STATE: OnceLock<Mutex<ScanState>> = OnceLock::new();
    let m = STATE.get_or_init(|| Mutex::new(ScanState::default()));
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Tell the keeper about this probe's descendants found outside their server's group.
fn track_escaped() {
    let mut state = scan_state();
    if registry().launches.is_empty() {
        *state = ScanState::default();
        return;
    }
    let procs = scan_list(&mut state);
    let mut r = registry();
    for p in procs.iter().filter(|p| !p.zombie) {
        if r.launches.values().any(|&g| g == p.pgid) {
            state.watched.insert(p.pid);
            continue;
        }
        let Some(marker) = state.marker(p) else {
            continue;
        };
        if !r.launches.contains_key(&marker) {
            continue;
        }
        state.watched.insert(p.pid);
        note_session(&mut r, &marker, p);
        let proc_ = Proc {
            pid: p.pid,
            start: p.start,
        };
        if r.told.insert(proc_) {
            r.tell(&format!("+p {} {}\n", p.pid, p.start));
        }
    }
}

/// Remember the session a marked process of launch `marker` made (its group), and tell the
/// keeper.
fn note_session(r: &mut Registry, marker: &str, p: &Stat) {
    if p.sid == p.pgid && p.pgid > 1 {
        let new = r
            .sessions
            .entry(marker.to_string())
            .or_default()
            .insert(p.pgid);
        if new {
            r.tell(&format!("+s {}\n", p.pgid));
        }
    }
}

/// Every process of this user started after the probe (older ones cannot be a server's).
fn list() -> Vec<Stat> {
    let mut out = Vec::new();
    each_process(&mut |s| out.push(s));
    out
}

/// [`list`], one process at a time as `/proc` is read (in pid order, so a child forked during
/// the scan usually comes later in it).
fn each_process(f: &mut dyn FnMut(Stat)) {
    let since = self_start();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for s in dir
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(stat)
        .filter(|s| s.start >= since)
    {
        f(s);
    }
}

/// When the probe started (`/proc/self/stat` field 22): no older process can be a server's.
fn self_start() -> u64 {
    static SELF_START: OnceLock<u64> = OnceLock::new();
    *SELF_START.get_or_init(|| stat(std::process::id()).map_or(0, |s| s.start))
}

/// The launch marker in a process's environment (the value of its first
/// `MCPL_DOCTOR_LAUNCH=`), when it has one.
fn marker_of(pid: u32) -> Option<String> {
    // Read into room for a usual environment at once (two read calls, where `fs::read` of a
    // file of /proc, which states no size, makes four or more).
    use std::io::Read;
    let mut env = Vec::with_capacity(16 * 1024);
    std::fs::File::open(format!("/proc/{pid}/environ"))
        .and_then(|mut f| f.read_to_end(&mut env))
        .ok()?;
    let prefix = format!("{LAUNCH_VAR}=");
    env.split(|&b| b == 0).find_map(|v| {
        let rest = v.strip_prefix(prefix.as_bytes())?;
        std::str::from_utf8(rest).ok().map(str::to_string)
    })
}

/// Call `f` with each live process (not a zombie) whose launch marker `ours` accepts and that
/// `keep` keeps, with whether it is stopped and its process group, as the scan finds it.
fn each_marked(
    ours: &dyn Fn(&str) -> bool,
    keep: &dyn Fn(&Stat) -> bool,
    f: &mut dyn FnMut(Proc, &Stat),
) {
    let me = std::process::id();
    each_process(&mut |p| {
        if !p.zombie && p.pid != me && keep(&p) && marker_of(p.pid).is_some_and(|m| ours(&m)) {
            let proc_ = Proc {
                pid: p.pid,
                start: p.start,
            };
            f(proc_, &p);
        }
    });
}

/// Whether process group `pgid` (a server's, or a session a marked process made) is still the
/// probe's, so a `killpg` reaches no stranger: its number cannot have been reused while any
/// member lives, unless as the pid of a new process once the group emptied (which then leads
/// a group of its own by that number), so the group is the same one when no live process has
/// that pid or when the one that has it carries a marker `ours` accepts.
pub(crate) fn group_still_ours(pgid: u32, ours: &dyn Fn(&str) -> bool) -> bool {
    if killpg(Pid::from_raw(pgid as i32), None).is_err() {
        return false;
    }
    match stat(pgid) {
        None => true,
        Some(s) if s.zombie => true,
        Some(s) => s.pgid == pgid && marker_of(pgid).is_some_and(|m| ours(&m)),
    }
}

/// Whether every live member of process group `pgid` carries a marker `ours` accepts (so the
/// whole group may be signalled: it holds nothing else, not the probe, not a shell).
fn group_is_ours(pgid: u32, ours: &dyn Fn(&str) -> bool) -> bool {
    let mut members = 0;
    let mut all = true;
    each_process(&mut |p| {
        if p.pgid == pgid && !p.zombie {
            members += 1;
            all &= marker_of(p.pid).is_some_and(|m| ours(&m));
        }
    });
    all && members > 0
}

/// Freeze, then kill, the live processes with a marker `ours` accepts that `keep` keeps, and
/// the sessions in `sessions` (groups made by marked processes): SIGSTOP each such group and
/// each process the moment a scan finds it (and its whole group, when it is a session a marked
/// process made or every member carries such a marker: the kernel stops a group at once, a
/// fork under way included, where a scan always comes late for a process that re-forks every
/// fraction of a millisecond); scan again until every process found is stopped, SIGKILL them
/// all (and those groups), wait a moment for them to go, and again until a scan finds none or
/// `until` passes. Returns the processes it stopped and how many groups.
fn freeze_and_kill(
    ours: &dyn Fn(&str) -> bool,
    keep: &dyn Fn(&Stat) -> bool,
    sessions: &HashSet<u32>,
    until: std::time::Instant,
) -> (HashSet<Proc>, usize) {
    let mut all: HashSet<Proc> = HashSet::new();
    let mut groups_killed: HashSet<u32> = HashSet::new();
    let mut first = true;
    loop {
        let mut frozen: HashSet<Proc> = HashSet::new();
        let mut groups: HashSet<u32> = HashSet::new();
        let mut refused: HashSet<u32> = HashSet::new();
        if first {
            for &g in sessions {
                if group_still_ours(g, ours) {
                    let _ = killpg(Pid::from_raw(g as i32), Signal::SIGSTOP);
                    groups.insert(g);
                }
            }
            first = false;
        }
        loop {
            let mut settled = true;
            let mut seen_groups: Vec<(u32, bool)> = Vec::new();
            each_marked(ours, keep, &mut |p, st| {
                if frozen.insert(p) {
                    signal_proc(p, Signal::SIGSTOP);
                    settled = false;
                } else if !st.stopped {
                    settled = false;
                }
                seen_groups.push((st.pgid, st.sid == st.pgid));
            });
            for (g, session) in seen_groups {
                if g > 1 && !groups.contains(&g) && !refused.contains(&g) {
                    let ok = if session {
                        group_still_ours(g, ours)
                    } else {
                        group_is_ours(g, ours)
                    };
                    if ok {
                        let _ = killpg(Pid::from_raw(g as i32), Signal::SIGSTOP);
                        groups.insert(g);
                        settled = false;
                    } else {
                        refused.insert(g);
                    }
                }
            }
            if settled || std::time::Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        if frozen.is_empty() && groups.is_empty() {
            return (all, groups_killed.len());
        }
        for g in &groups {
            let _ = killpg(Pid::from_raw(*g as i32), Signal::SIGKILL);
        }
        for p in &frozen {
            signal_proc(*p, Signal::SIGKILL);
        }
        let gone_by = std::time::Instant::now() + Duration::from_millis(200);
        while frozen.iter().any(|p| is_running(*p)) && std::time::Instant::now() < gone_by {
            reap_inherited();
            std::thread::sleep(Duration::from_millis(1));
        }
        all.extend(frozen);
        groups_killed.extend(groups);
        if std::time::Instant::now() >= until {
            return (all, groups_killed.len());
        }
    }
}

/// The live processes of launch `marker` outside the group `pgid` (a server's descendants
/// that called setsid or setpgid, or double-forked).
pub(crate) fn escaped(marker: &str, pgid: u32) -> Vec<Proc> {
    let mut out = Vec::new();
    each_marked(&|m| m == marker, &|p| p.pgid != pgid, &mut |p, st| {
        note_session(&mut registry(), marker, st);
        out.push(p);
    });
    out
}

/// The live processes of launch `marker` (in its group or out of it).
pub(crate) fn running_of(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    each_marked(&|m| m == marker, &|_| true, &mut |p, _| out.push(p.pid));
    out
}

/// Whether `p` is still that process and running.
pub(crate) fn is_running(p: Proc) -> bool {
    stat(p.pid).is_some_and(|s| s.start == p.start && !s.zombie)
}

/// The sessions launch `marker`'s descendants made (see [`Registry::sessions`]).
fn sessions_of(marker: &str) -> HashSet<u32> {
    registry().sessions.get(marker).cloned().unwrap_or_default()
}

/// Stop the processes of launch `marker` outside the group `pgid`: SIGTERM each one found (and
/// each session they made), up to `grace` for a scan to find none, then freeze and kill what
/// is left ([`freeze_and_kill`]). Returns how many processes were found on the way (at least
/// one per session), none when there was none.
pub(crate) async fn stop_escaped(marker: &str, pgid: u32, grace: Duration) -> usize {
    let mut seen: HashSet<Proc> = HashSet::new();
    let mut signalled: HashSet<u32> = HashSet::new();
    let mut groups = 0;
    let until = tokio::time::Instant::now() + grace;
    loop {
        reap_inherited();
        let found = escaped(marker, pgid);
        let sessions: Vec<u32> = sessions_of(marker)
            .into_iter()
            .filter(|&g| group_still_ours(g, &|m| m == marker))
            .collect();
        if found.is_empty() && sessions.is_empty() {
            break;
        }
        for p in found {
            if seen.insert(p) {
                signal_proc(p, Signal::SIGTERM);
            }
        }
        for &g in &sessions {
            let _ = killpg(Pid::from_raw(g as i32), Signal::SIGTERM);
            signalled.insert(g);
        }
        if tokio::time::Instant::now() >= until {
            let deadline = std::time::Instant::now() + grace.max(Duration::from_secs(1));
            let (procs, n) = freeze_and_kill(
                &|m| m == marker,
                &|p| p.pgid != pgid,
                &sessions_of(marker),
                deadline,
            );
            seen.extend(procs);
            groups = n;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seen: Vec<Proc> = seen.into_iter().collect();
    forget(&seen);
    seen.len().max(groups).max(signalled.len())
}

/// [`stop_escaped`] at once, without the SIGTERM (a dropped launch, a forced stop).
pub(crate) fn kill_escaped(marker: &str, pgid: u32) -> usize {
    let deadline = std::time::Instant::now() + Duration::from_secs(1);
    let (procs, groups) = freeze_and_kill(
        &|m| m == marker,
        &|p| p.pgid != pgid,
        &sessions_of(marker),
        deadline,
    );
    let seen: Vec<Proc> = procs.into_iter().collect();
    forget(&seen);
    seen.len().max(groups)
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
pub(crate) fn start_keeper() -> bool {
    false
}

/// Fork the keeper. Call once, early, while the probe has a single thread (before any runtime
/// starts). Returns false (and the probe runs without one) where it cannot be made.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn start_keeper() -> bool {
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
    let mut groups: HashSet<u32> = HashSet::new();
    // Every launch's marker, also of launches already over (a straggler may still carry one).
    let mut markers: HashSet<String> = HashSet::new();
    // Sessions the servers' descendants made (their groups), while their launch runs.
    let mut sessions: HashSet<u32> = HashSet::new();
    let mut procs: HashSet<Proc> = HashSet::new();
    for line in std::io::BufReader::new(pipe).lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        match (words.first().copied(), num(1), num(2)) {
            (Some("+g"), Some(g), _) => {
                groups.insert(g as u32);
                if let Some(m) = words.get(2) {
                    markers.insert((*m).to_string());
                }
            }
            (Some("-g"), Some(g), _) => {
                groups.remove(&(g as u32));
            }
            (Some("+s"), Some(g), _) => {
                sessions.insert(g as u32);
            }
            (Some("-s"), Some(g), _) => {
                sessions.remove(&(g as u32));
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
    // The probe is gone (ended, crashed or SIGKILLed): whatever it had not stopped goes now,
    // each group only while it is still a launch's (its number not taken by a stranger), each
    // process only while it is the same one.
    for &g in &groups {
        if group_still_ours(g, &|m| markers.contains(m)) {
            let _ = killpg(Pid::from_raw(g as i32), Signal::SIGKILL);
        }
    }
    for p in &procs {
        signal_proc(*p, Signal::SIGKILL);
    }
    // And what the probe had not seen yet (a descendant that left its group in the last
    // moments before a SIGKILL, between two of the probe's scans, or one that keeps re-forking):
    // anything still carrying one of this probe's launch markers, frozen, then killed, until a
    // scan finds none.
    if !markers.is_empty() {
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        freeze_and_kill(&|m| markers.contains(m), &|_| true, &sessions, deadline);
    }
    // SAFETY: _exit ends the forked child without running the parent's atexit handlers.
    unsafe { nix::libc::_exit(0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 30 item 2: the keeper's and the stop's check before a `killpg`: a group led by a
    /// stranger (no launch marker) is not ours, one led by a marked process is.
    #[test]
    fn a_group_led_by_a_stranger_is_not_ours() {
        use std::os::unix::process::CommandExt;
        let lead = |marker: Option<&str>| {
            let mut c = std::process::Command::new("sleep");
            c.arg("30").process_group(0);
            if let Some(m) = marker {
                c.env(LAUNCH_VAR, m);
            }
            c.spawn().expect("sleep runs")
        };
        let mut stranger = lead(None);
        let mut ours = lead(Some("i30-marker"));
        let is_ours = |m: &str| m == "i30-marker";
        // Until its exec, the new process shows the test's own environment.
        let t = std::time::Instant::now();
        while marker_of(ours.id()).is_none() && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!group_still_ours(stranger.id(), &is_ours));
        assert!(group_still_ours(ours.id(), &is_ours));
        for c in [&mut stranger, &mut ours] {
            let _ = c.kill();
            let _ = c.wait();
        }
        assert!(!group_still_ours(ours.id(), &is_ours), "gone");
    }

    /// Issue 21, item 10: the scans between full ones read only new processes and watched ones
    /// (a full scan of a machine's thousands cost an idle probe 4-8 % of a core).
    #[test]
    fn scans_between_full_ones_read_only_new_and_watched_processes() {
        let sleep = || {
            std::process::Command::new("sleep")
                .arg("30")
                .spawn()
                .expect("sleep runs")
        };
        let has = |scan: &[Stat], pid: u32| scan.iter().any(|s| s.pid == pid);
        let mut state = ScanState::default();
        let old = sleep();
        assert!(has(&scan_list(&mut state), old.id()), "a full scan");
        assert!(!has(&scan_list(&mut state), old.id()), "seen, not watched");
        let new = sleep();
        let scan = scan_list(&mut state);
        assert!(has(&scan, new.id()) && !has(&scan, old.id()));
        state.watched.insert(old.id());
        assert!(has(&scan_list(&mut state), old.id()), "watched");
        state.watched.clear();
        for _ in 4..FULL_SCAN_EVERY {
            assert!(!has(&scan_list(&mut state), old.id()));
        }
        assert!(has(&scan_list(&mut state), old.id()), "the next full scan");
        for mut c in [old, new] {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
