//! The diagnosis's experiments' one runner: a short command (`node --version`) run with a time
//! and a byte bound, its stdin closed, nothing left running and nothing written.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one connect experiment may take.
pub(crate) const LIMIT: Duration = Duration::from_millis(1500);

/// How long a runtime asked a question (`node --version`) may take: a runtime's start on a
/// loaded machine takes seconds, and a cut answer is no answer.
pub(crate) const COMMAND_LIMIT: Duration = Duration::from_secs(5);

/// How long an interpreter may take to list what it can import (`pkgutil`, its
/// distributions' entry points): a cold start on a loaded machine.
pub(crate) const ASK_LIMIT: Duration = Duration::from_secs(12);

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
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => break None,
        }
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    };
    let mut out = String::new();
    child
        .stdout
        .take()?
        .take(MAX_OUTPUT)
        .read_to_string(&mut out)
        .ok()?;
    status.success().then_some(out)
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
}
