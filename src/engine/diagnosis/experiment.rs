//! The diagnosis's experiments' one runner: a short command (`node --version`) run with a time
//! and a byte bound, its stdin closed, nothing left running and nothing written.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::sys::wait::{waitid, Id as WaitId, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

/// How long one connect experiment may take.
pub(crate) const LIMIT: Duration = Duration::from_millis(1500);

/// How long a runtime asked a question (`node --version`) may take: a runtime's start on a
/// loaded machine takes seconds, and a cut answer is no answer.
pub(crate) const COMMAND_LIMIT: Duration = Duration::from_secs(5);

/// How long an interpreter may take to list what it can import (`pkgutil`, its
/// distributions' entry points): a cold start on a loaded machine.
pub(crate) const ASK_LIMIT: Duration = Duration::from_secs(12);

/// How long the answer may take to arrive once the command has exited (its output is read
/// while it runs; a process outside its group still holding the pipe gets no longer).
const READ_GRACE: Duration = Duration::from_secs(1);

/// The most bytes of an experiment's output read.
const MAX_OUTPUT: u64 = 4096;

/// A failure sooner than this is no slowness (a spawn refused while the machine is out of
/// processes or memory for a moment, a crash at start): it is tried once more.
const QUICK_FAILURE: Duration = Duration::from_secs(2);

/// What `program args` prints on stdout, when it exits 0 within `limit`; killed and reaped
/// otherwise. A quick failure is tried once more (an answer cut by a moment's load is no
/// answer, and the Why falls back to a guess); a timeout is not.
pub(crate) fn run_bounded(program: &Path, args: &[&str], limit: Duration) -> Option<String> {
    run_bounded_in(program, args, None, limit)
}

/// [`run_bounded`] in the folder `cwd` (the entry's working folder), when given.
pub(crate) fn run_bounded_in(
    program: &Path,
    args: &[&str],
    cwd: Option<&Path>,
    limit: Duration,
) -> Option<String> {
    let started = Instant::now();
    if let Some(out) = run_once(program, args, cwd, limit) {
        return Some(out);
    }
    if started.elapsed() >= QUICK_FAILURE.min(limit) {
        return None;
    }
    std::thread::sleep(Duration::from_millis(100));
    run_once(program, args, cwd, limit)
}

fn run_once(program: &Path, args: &[&str], cwd: Option<&Path>, limit: Duration) -> Option<String> {
    let mut command = Command::new(program);
    if let Some(d) = cwd {
        command.current_dir(d);
    }
    // Its own process group: what it leaves in the background is stopped with it.
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    // Registered while it runs: the probe's reaper of inherited children would otherwise reap
    // it as it exits, and the answer would be lost (a diagnosis that varied from run to run).
    let (mut child, _own) = crate::engine::process_tree::spawn_own(&mut command).ok()?;
    let pid = Pid::from_raw(i32::try_from(child.id()).ok()?);
    // Read while it runs: an answer longer than a pipe's buffer would otherwise block it until
    // the deadline, and a process it left holding the pipe must not hold the doctor.
    let (tx, rx) = mpsc::channel();
    if let Some(mut out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = (&mut out).take(MAX_OUTPUT).read_to_end(&mut buf);
            let _ = tx.send(buf);
            let _ = std::io::copy(&mut out, &mut std::io::sink());
        });
    }
    let deadline = Instant::now() + limit;
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    let exited = loop {
        match waitid(WaitId::Pid(pid), flags) {
            Ok(WaitStatus::StillAlive) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10))
            }
            Ok(WaitStatus::StillAlive) | Err(_) => break false,
            Ok(_) => break true,
        }
    };
    // Not reaped yet, so the group is still its own: nothing it started is left running.
    let _ = killpg(pid, Signal::SIGKILL);
    let status = child.wait().ok()?;
    if !exited || !status.success() {
        return None;
    }
    let out = rx.recv_timeout(READ_GRACE).ok()?;
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_failure_is_tried_once_more_and_a_timeout_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mark = dir.path().join("tried");
        let script = format!(
            "if [ -e '{0}' ]; then echo second; else : > '{0}'; exit 1; fi",
            mark.display()
        );
        let sh = Path::new("/bin/sh");
        assert_eq!(
            run_bounded(sh, &["-c", &script], Duration::from_secs(10)).as_deref(),
            Some("second\n")
        );
        // A command that times out is not run again: one mark, then a slow first run.
        let slow = format!("echo x >> '{0}.slow'; exec sleep 30", mark.display());
        assert_eq!(
            run_bounded(sh, &["-c", &slow], Duration::from_millis(2500)),
            None
        );
        let runs = std::fs::read_to_string(format!("{}.slow", mark.display())).expect("read");
        assert_eq!(runs.lines().count(), 1, "{runs}");
    }

    #[test]
    fn a_quick_command_answers_and_a_slow_one_is_cut_and_reaped() {
        let sh = Path::new("/bin/sh");
        let out = run_bounded(sh, &["-c", "echo v20.1.0"], Duration::from_secs(10));
        assert_eq!(out.as_deref(), Some("v20.1.0\n"));
        let started = Instant::now();
        assert_eq!(
            run_bounded(sh, &["-c", "exec sleep 30"], Duration::from_millis(300)),
            None
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(
            run_bounded(sh, &["-c", "exit 3"], Duration::from_secs(10)),
            None
        );
        assert_eq!(
            run_bounded(Path::new("/nonexistent/x"), &[], Duration::from_secs(1)),
            None
        );
    }

    #[test]
    fn an_answer_longer_than_a_pipe_is_cut_not_timed_out() {
        // 200 KiB: more than a pipe holds, so a reader that waits for the exit first would
        // block the command until its deadline.
        let sh = Path::new("/bin/sh");
        let started = Instant::now();
        let out = run_bounded(
            sh,
            &["-c", "head -c 204800 /dev/zero | tr '\\0' x"],
            Duration::from_secs(20),
        );
        let out = out.expect("an answer");
        assert_eq!(out.len(), MAX_OUTPUT as usize);
        assert!(out.bytes().all(|b| b == b'x'));
        assert!(started.elapsed() < Duration::from_secs(15));
    }

    #[test]
    fn what_it_leaves_in_the_background_holding_its_output_is_stopped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pidfile = dir.path().join("bg.pid");
        // The background sleeper keeps stdout open: read to its end, the answer would wait
        // for it for 60 s.
        let script = format!(
            "sleep 60 & echo $! > '{}'; echo answered",
            pidfile.display()
        );
        let started = Instant::now();
        let out = run_bounded(
            Path::new("/bin/sh"),
            &["-c", &script],
            Duration::from_secs(20),
        );
        assert_eq!(out.as_deref(), Some("answered\n"));
        assert!(started.elapsed() < Duration::from_secs(15));
        let bg: i32 = std::fs::read_to_string(&pidfile)
            .expect("pid file")
            .trim()
            .parse()
            .expect("a pid");
        // Killed with the group; reaped by init (this test's process is not its parent), so
        // allow it a moment to go.
        let gone = (0..200).any(|_| {
            let alive = nix::sys::signal::kill(Pid::from_raw(bg), None).is_ok()
                && !std::fs::read_to_string(format!("/proc/{bg}/stat"))
                    .is_ok_and(|st| st.split(") ").nth(1).is_some_and(|r| r.starts_with('Z')));
            if alive {
                std::thread::sleep(Duration::from_millis(50));
            }
            !alive
        });
        assert!(gone, "the background sleeper {bg} is still running");
    }
}
