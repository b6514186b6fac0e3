//! A child in its own process group, stopped the host's way: close stdin (the caller drops it),
//! SIGTERM the group, 2 s grace, SIGKILL the group, 2 s more, else "could not be reaped".
//!
//! The whole group is signalled even after the leader exited, since a forked grandchild stays in
//! it. On Linux the probe makes itself a child subreaper, so orphaned grandchildren are
//! reparented to it and reaped here rather than left as zombies under a PID 1 that may not
//! reap. A [`GroupChild`] dropped before it was stopped (an early return, a panic) SIGKILLs its
//! group.
//!
//! Signals go by identity, never to a number a stranger may hold now: the leader is held by a
//! pidfd from its spawn; its group is signalled freely while the leader is not reaped (its
//! zombie holds the number, so the group is ours), and once it is reaped only while the group
//! is still the launch's (`process_tree::group_still_ours`: a process that took the freed pid
//! and leads its own group by it is a stranger and is never signalled).

use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use super::process_tree;

/// The host's grace after SIGTERM, and again after SIGKILL.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// How the group ended up after [`GroupChild::stop`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopResult {
    /// Nothing of the group was left when the stop began.
    AlreadyGone,
    /// Gone within the grace after SIGTERM.
    AfterSigterm,
    /// Needed SIGKILL.
    AfterSigkill,
    /// Killed at once on request.
    Forced,
    /// Still there after SIGKILL and its grace.
    CouldNotBeReaped,
}

/// A spawned child with its pipes.
pub(crate) struct Spawned {
    pub child: GroupChild,
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

/// A child leading its own process group.
pub(crate) struct GroupChild {
    child: Child,
    pgid: Pid,
    status: Option<ExitStatus>,
    settled: bool,
    /// The launch's marker (see [`super::process_tree`]).
    marker: String,
    /// Descendants found outside the group when it was stopped (they were stopped too).
    escaped: usize,
    /// The leader, held by identity (see the module's text); `None` without pidfds.
    pidfd: Option<super::pidfd::Pidfd>,
}

/// Make this process a child subreaper (Linux), once. Failing that, orphans go to PID 1.
fn become_subreaper() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        });
    }
}

/// Spawn `cmd` in a new process group with piped stdin, stdout and stderr.
pub(crate) fn spawn(cmd: &mut Command) -> io::Result<Spawned> {
    become_subreaper();
    let marker = process_tree::new_marker();
    cmd.env(process_tree::LAUNCH_VAR, &marker);
    cmd.process_group(0)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(false);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: between fork and exec only an async-signal-safe prctl(2) call runs.
    unsafe {
        // Should the probe itself be killed outright (SIGKILL: no drop guard runs), the kernel
        // kills the leader; its group's stragglers are then orphans of no one we can reach.
        cmd.pre_exec(|| {
            nix::sys::prctl::set_pdeathsig(Some(Signal::SIGKILL)).map_err(io::Error::from)
        });
    }
    let registering = process_tree::before_spawn();
    let mut child = cmd.spawn()?;
    let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let pid = child.id();
    if let Some(pid) = pid {
        registering.spawned(pid, &marker);
    }
    // Opened at once: the leader is our child and not reaped yet, so the pid is still its.
    let pidfd = pid.and_then(super::pidfd::Pidfd::open);
    let guard = GroupChild {
        pgid: Pid::from_raw(pid.map_or(0, |p| p as i32)),
        status: None,
        settled: pid.is_none(),
        child,
        marker,
        escaped: 0,
        pidfd,
    };
    let (Some(stdin), Some(stdout), Some(stderr), Some(_)) = (pipes.0, pipes.1, pipes.2, pid)
    else {
        return Err(io::Error::other("the child has no pid or no pipes"));
    };
    Ok(Spawned {
        child: guard,
        stdin,
        stdout,
        stderr,
    })
}

impl GroupChild {
    /// The leader's pid (also the group's id).
    pub(crate) fn pid(&self) -> u32 {
        self.pgid.as_raw() as u32
    }

    /// The launch's marker (see [`super::process_tree`]).
    pub(crate) fn marker(&self) -> &str {
        &self.marker
    }

    /// How many of its descendants had left the group (setsid, setpgid, a double fork) and
    /// were found and stopped when the group was.
    pub(crate) fn escaped(&self) -> usize {
        self.escaped
    }

    /// Stop what left the group (SIGTERM, `grace`, then frozen and killed), then forget the
    /// launch.
    async fn stop_escaped(&mut self, grace: Duration) {
        self.escaped = process_tree::stop_escaped(&self.marker, self.pid(), grace).await;
        process_tree::finished(self.pid(), &self.marker);
    }

    /// The leader's exit status, once known.
    pub(crate) fn status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// Wait for the leader to exit. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        if let Some(s) = self.status {
            return Ok(s);
        }
        let s = self.child.wait().await?;
        self.status = Some(s);
        Ok(s)
    }

    fn poll_leader(&mut self) {
        if self.status.is_none() {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.status = Some(s);
            }
        }
    }

    /// Reap group members reparented to us (never the leader, which tokio reaps).
    fn reap_orphans(&self) {
        if self.status.is_none() {
            return;
        }
        loop {
            match waitpid(
                Pid::from_raw(-self.pgid.as_raw()),
                Some(WaitPidFlag::WNOHANG),
            ) {
                Ok(WaitStatus::StillAlive) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }

    /// Whether the leader has exited and no other member of its group is left (a group by
    /// its number that is no longer the launch's counts as gone: a stranger's).
    pub(crate) fn group_gone(&mut self) -> bool {
        self.poll_leader();
        if self.status.is_none() {
            return false;
        }
        self.reap_orphans();
        matches!(killpg(self.pgid, None), Err(Errno::ESRCH)) || !self.group_is_ours()
    }

    /// Whether the group by the leader's number is still this launch's: always while the
    /// leader is not reaped; after, see `process_tree::group_still_ours`.
    fn group_is_ours(&self) -> bool {
        self.status.is_none()
            || process_tree::group_still_ours(self.pgid.as_raw() as u32, &|m| m == self.marker)
    }

    fn signal_group(&self, sig: Signal) {
        if self.status.is_none() {
            if let Some(fd) = &self.pidfd {
                // The leader by identity first (a zombie takes it too and holds the number).
                fd.signal(Some(sig));
            }
        }
        if !self.group_is_ours() {
            return;
        }
        // ESRCH (nothing left) is fine; EPERM cannot happen for our own group.
        let _ = killpg(self.pgid, sig);
    }

    /// Wait until the group is gone, or `until`. Polls the group every few ms once the leader
    /// has exited (stragglers send no event).
    async fn wait_gone(&mut self, until: Instant) -> bool {
        loop {
            if self.group_gone() {
                return true;
            }
            let now = Instant::now();
            if now >= until {
                return false;
            }
            if self.status.is_none() {
                let step = (until - now).min(Duration::from_millis(50));
                tokio::select! {
                    r = self.child.wait() => {
                        if let Ok(s) = r {
                            self.status = Some(s);
                        }
                    }
                    () = tokio::time::sleep(step) => {}
                }
            } else {
                tokio::time::sleep((until - now).min(Duration::from_millis(5))).await;
            }
        }
    }

    /// Stop the group the host's way, then whatever left the group. The caller closes stdin
    /// first (drops it). `force` resolves when a forced stop is requested (second Ctrl-C):
    /// SIGKILL at once.
    pub(crate) async fn stop(
        &mut self,
        grace: Duration,
        force: impl std::future::Future<Output = ()>,
    ) -> StopResult {
        let r = self.stop_group(grace, force).await;
        self.stop_escaped(grace).await;
        r
    }

    async fn stop_group(
        &mut self,
        grace: Duration,
        force: impl std::future::Future<Output = ()>,
    ) -> StopResult {
        tokio::pin!(force);
        if self.group_gone() {
            self.settled = true;
            return StopResult::AlreadyGone;
        }
        self.signal_group(Signal::SIGTERM);
        let forced = tokio::select! {
            gone = self.wait_gone(Instant::now() + grace) => {
                if gone {
                    self.settled = true;
                    return StopResult::AfterSigterm;
                }
                false
            }
            () = &mut force => true,
        };
        self.signal_group(Signal::SIGKILL);
        if self.wait_gone(Instant::now() + grace).await {
            self.settled = true;
            if forced {
                StopResult::Forced
            } else {
                StopResult::AfterSigkill
            }
        } else {
            // Leave it to the drop guard's SIGKILL; the caller reports it.
            self.settled = true;
            StopResult::CouldNotBeReaped
        }
    }

    /// SIGKILL the group at once and wait (up to `grace`) for it to go.
    pub(crate) async fn kill(&mut self, grace: Duration) -> StopResult {
        self.signal_group(Signal::SIGKILL);
        let gone = self.wait_gone(Instant::now() + grace).await;
        self.stop_escaped(Duration::ZERO).await;
        self.settled = true;
        if gone {
            StopResult::Forced
        } else {
            StopResult::CouldNotBeReaped
        }
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        if !self.settled {
            self.signal_group(Signal::SIGKILL);
            // Reap the leader if it is already gone; tokio reaps it later otherwise.
            self.poll_leader();
            self.reap_orphans();
            process_tree::kill_escaped(&self.marker, self.pid());
            process_tree::finished(self.pid(), &self.marker);
        }
    }
}

/// The fewest file descriptors a probe runs with: the runtime (its poller, waker and signal
/// pipe), the keeper's pipe, a server's three pipes and their ends while it is spawned, a file
/// of /proc being read, with room to spare. Below it the runtime's signal setup panics (7) or a
/// launch fails with "Too many open files" (8 to about 20).
pub(crate) const MIN_FILE_DESCRIPTORS: u64 = 32;

/// Make sure the probe may open [`MIN_FILE_DESCRIPTORS`]: the soft limit is raised towards the
/// hard one when it is lower. Returns the limit when even the hard one is too low.
pub(crate) fn too_few_file_descriptors() -> Option<u64> {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    if soft >= MIN_FILE_DESCRIPTORS {
        return None;
    }
    let want = MIN_FILE_DESCRIPTORS.min(hard);
    if want > soft
        && setrlimit(Resource::RLIMIT_NOFILE, want, hard).is_ok()
        && want == MIN_FILE_DESCRIPTORS
    {
        return None;
    }
    Some(want.max(soft))
}

/// Whether a process exists and is not a zombie (Linux reads `/proc/<pid>/stat`; elsewhere
/// `kill(pid, 0)`).
#[cfg(test)]
pub(crate) fn is_alive(pid: u32) -> bool {
    #[cfg(target_os = "linux")]
    {
        match std::fs::read(format!("/proc/{pid}/stat")) {
            Ok(stat) => {
                // "pid (comm) S ...": the state follows the last ')' (the name may be any
                // bytes, not always UTF-8).
                let state = stat
                    .iter()
                    .rposition(|&b| b == b')')
                    .and_then(|at| stat[at + 1..].iter().find(|b| !b.is_ascii_whitespace()));
                !matches!(state, Some(b'Z') | Some(b'X') | None)
            }
            Err(_) => false,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        nix::sys::signal::kill(Pid::from_raw(pid as i32), None).is_ok()
    }
}

/// This process's own resident memory in bytes (Linux: `VmRSS` in `/proc/self/status`), for
/// `serve`'s health metrics and benchmarks; `None` elsewhere.
pub(crate) fn own_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    #[tokio::test]
    async fn sigterm_stops_a_plain_child() {
        let mut s = spawn(&mut sh("sleep 30")).expect("spawn");
        let pid = s.child.pid();
        drop(s.stdin);
        let r = s.child.stop(GRACE, std::future::pending()).await;
        assert_eq!(r, StopResult::AfterSigterm);
        assert!(!is_alive(pid));
    }

    #[tokio::test]
    async fn sigkill_after_grace_when_sigterm_is_ignored() {
        let mut s = spawn(&mut sh(
            "trap '' TERM; echo ready; while :; do sleep 0.05; done",
        ))
        .expect("spawn");
        // Once the trap is set (a fixed wait let SIGTERM in first on a loaded machine).
        use tokio::io::AsyncReadExt;
        let mut ready = [0u8; 6];
        s.stdout.read_exact(&mut ready).await.expect("ready");
        assert_eq!(&ready, b"ready\n");
        let t = Instant::now();
        let r = s
            .child
            .stop(Duration::from_millis(300), std::future::pending())
            .await;
        assert_eq!(r, StopResult::AfterSigkill);
        // The grace was waited out; the upper bound only catches a hang.
        assert!(t.elapsed() >= Duration::from_millis(300));
        assert!(t.elapsed() < Duration::from_secs(30));
    }

    #[tokio::test]
    async fn a_grandchild_left_behind_is_stopped_too() {
        let mut s = spawn(&mut sh("sleep 30 & echo $!; exit 3")).expect("spawn");
        let status = s.child.wait().await.expect("exit");
        assert_eq!(status.code(), Some(3));
        let mut out = String::new();
        use tokio::io::AsyncReadExt;
        let mut stdout = s.stdout;
        // The grandchild holds stdout open; read just its pid line.
        let mut buf = [0u8; 64];
        let n = stdout.read(&mut buf).await.expect("read");
        out.push_str(&String::from_utf8_lossy(&buf[..n]));
        let grandchild: u32 = out.trim().parse().expect("pid");
        assert!(is_alive(grandchild));
        let r = s.child.stop(GRACE, std::future::pending()).await;
        assert_eq!(r, StopResult::AfterSigterm);
        assert!(!is_alive(grandchild));
    }

    /// Issue 30 item 2: a server that exits on its own leaves its pid free; a stranger that
    /// takes it and leads its own group by that number is never signalled by the stop (nor by
    /// the drop guard). Pid reuse is simulated: the stopped child's number is set to the
    /// stranger's, as the kernel would hand it out.
    #[tokio::test]
    async fn a_stranger_that_took_the_leaders_pid_is_never_signalled() {
        let mut s = spawn(&mut sh("exit 0")).expect("spawn");
        s.child.wait().await.expect("exit");
        let mut stranger = std::process::Command::new("sleep");
        use std::os::unix::process::CommandExt;
        let mut stranger = stranger.arg("30").process_group(0).spawn().expect("sleep");
        s.child.pgid = Pid::from_raw(stranger.id() as i32);
        let r = s.child.stop(GRACE, std::future::pending()).await;
        assert_eq!(r, StopResult::AlreadyGone);
        s.child.signal_group(Signal::SIGKILL);
        drop(s);
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            stranger.try_wait().expect("try_wait").is_none(),
            "the stranger was hit"
        );
        let _ = stranger.kill();
        let _ = stranger.wait();
    }

    #[tokio::test]
    async fn dropping_an_unstopped_child_kills_its_group() {
        let s = spawn(&mut sh("sleep 30")).expect("spawn");
        let pid = s.child.pid();
        drop(s);
        let t = Instant::now();
        while is_alive(pid) && t.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(!is_alive(pid));
    }
}
