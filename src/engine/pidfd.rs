//! A process signalled by identity, not by number (Linux). A pid is only a number: once its
//! process is gone and reaped, the kernel gives it to the next process, a stranger, and a
//! signal sent to it then hits that stranger. So:
//!
//! - a server the probe launched is held by a pidfd from its spawn ([`Pidfd::open`]): a signal
//!   through it ([`Pidfd::signal`]) reaches that process or nothing;
//! - a process found by a scan (its pid and start time, [`Proc`]) is opened as a pidfd, its
//!   start time read again, and signalled through the pidfd only when it is the same process
//!   ([`signal_proc`]): the pidfd pins the process between the check and the signal;
//! - on kernels without pidfds (before 5.3), or elsewhere, the start time is compared just
//!   before a plain `kill`, which leaves a window of microseconds instead of one of seconds.
//!
//! Groups have no pidfd: before each `killpg` the caller checks that the group is still its
//! own (`process_tree::group_still_ours`).
//!
//! What identifies a process lives here too: its `/proc/<pid>/stat` ([`stat`]) and its pid
//! with its start time ([`Proc`]).

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use nix::sys::signal::Signal;
use nix::unistd::Pid;

/// A process, told apart from a later one with the same pid by its start time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Proc {
    pub pid: u32,
    /// `/proc/<pid>/stat` field 22, in clock ticks since boot.
    pub start: u64,
}

/// What `/proc/<pid>/stat` says of one process.
pub(crate) struct Stat {
    pub(crate) pid: u32,
    pub(crate) ppid: u32,
    pub(crate) pgid: u32,
    pub(crate) sid: u32,
    pub(crate) zombie: bool,
    /// Stopped by a signal (state `T`) or a tracer (`t`).
    pub(crate) stopped: bool,
    pub(crate) start: u64,
}

pub(crate) fn stat(pid: u32) -> Option<Stat> {
    // One read call into a buffer that holds it whole (a few hundred bytes; the name in it is
    // at most 64): `read_to_string` grows its buffer from 32 bytes, six read calls a process,
    // which a scan of thousands pays six times over.
    use std::io::Read;
    let mut buf = [0u8; 1024];
    let mut file = std::fs::File::open(format!("/proc/{pid}/stat")).ok()?;
    let n = file.read(&mut buf).ok()?;
    let bytes = buf.get(..n)?;
    // "pid (comm) S ppid pgrp session ... starttime(22)": fields after the last ')'. The name
    // is any bytes the process chose (not always UTF-8: a process must not hide by its name).
    let after = bytes.iter().rposition(|&b| b == b')')? + 1;
    let rest = std::str::from_utf8(&bytes[after..]).ok()?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        pid,
        zombie: matches!(f.first(), Some(&"Z") | Some(&"X")),
        stopped: matches!(f.first(), Some(&"T") | Some(&"t")),
        ppid: f.get(1)?.parse().ok()?,
        pgid: f.get(2)?.parse().ok()?,
        sid: f.get(3)?.parse().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

/// The start time of the process `pid` (zombie or not), when there is one.
pub(crate) fn start_of(pid: u32) -> Option<u64> {
    stat(pid).map(|s| s.start)
}

/// A pidfd: a handle on one process, which no later process with the same pid can take over.
#[derive(Debug)]
pub(crate) struct Pidfd(OwnedFd);

impl Pidfd {
    /// A pidfd for the process `pid` (`None` where it is gone, or where the kernel has none).
    pub(crate) fn open(pid: u32) -> Option<Pidfd> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            // SAFETY: pidfd_open(2) takes a pid and flags and returns a new descriptor or -1.
            let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid as i32, 0) };
            if fd < 0 {
                return None;
            }
            // SAFETY: the descriptor was just returned by the kernel and is owned by no one else.
            Some(Pidfd(unsafe { OwnedFd::from_raw_fd(fd as i32) }))
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            let _ = pid;
            None
        }
    }

    /// Send `sig` (`None`: only check) to the process; false when it is gone (a zombie still
    /// takes one).
    pub(crate) fn signal(&self, sig: Option<Signal>) -> bool {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let sig = sig.map_or(0, |s| s as i32);
            // SAFETY: pidfd_send_signal(2) with a valid pidfd, no siginfo, no flags.
            let r = unsafe {
                nix::libc::syscall(
                    nix::libc::SYS_pidfd_send_signal,
                    self.0.as_raw_fd(),
                    sig,
                    std::ptr::null::<nix::libc::siginfo_t>(),
                    0,
                )
            };
            r == 0
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            let _ = sig;
            false
        }
    }
}

/// Send `sig` to `p` if it is still that process (same pid and start time); false when it
/// is gone or the pid now names another process.
pub(crate) fn signal_proc(p: Proc, sig: Signal) -> bool {
    let same = || start_of(p.pid) == Some(p.start);
    match Pidfd::open(p.pid) {
        // Opened first, checked after: the check is then about the process the pidfd holds.
        Some(fd) => same() && fd.signal(Some(sig)),
        None => same() && nix::sys::signal::kill(Pid::from_raw(p.pid as i32), sig).is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_signalled_only_while_it_is_the_same_one() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep runs");
        let pid = child.id();
        let start = super::start_of(pid).expect("a start time");
        // Another start time: a later process that took the pid. Not signalled.
        let stranger = Proc {
            pid,
            start: start + 1,
        };
        assert!(!signal_proc(stranger, Signal::SIGKILL));
        assert!(child.try_wait().expect("try_wait").is_none(), "hit");
        let fd = Pidfd::open(pid);
        assert!(signal_proc(Proc { pid, start }, Signal::SIGKILL));
        let _ = child.wait();
        // Reaped: the pidfd reaches nothing, whoever gets the number next.
        if let Some(fd) = fd {
            assert!(!fd.signal(None));
        }
    }
}
