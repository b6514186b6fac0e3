//! What stops a probe run from outside: signals and a closed stdout.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::engine::probe::{StopHandle, StopLevel};
use crate::engine::stop::StopCause;
use crate::exit;

/// What stops a run from outside: Ctrl-C, SIGTERM and SIGHUP (the first stops gracefully, the
/// second forces), and a closed stdout (stops gracefully and quietly; the run then exits 0, as
/// ripgrep does on a broken pipe).
pub(crate) struct Stopper {
    task: tokio::task::JoinHandle<()>,
    cause: Arc<std::sync::Mutex<Option<StopCause>>>,
    /// Set by whoever writes to stdout and finds its reader gone.
    pub output_closed: Arc<AtomicBool>,
}

impl Stopper {
    /// The first signal that stopped the run, if any.
    pub(crate) fn cause(&self) -> Option<StopCause> {
        self.cause.lock().ok().and_then(|c| *c)
    }

    /// Whether stdout's reader went away.
    pub(crate) fn output_closed(&self) -> bool {
        self.output_closed.load(Ordering::Relaxed)
    }

    /// Stop listening (the run is over).
    pub(crate) fn finish(&self) {
        self.task.abort();
    }
}

/// How often a run checks whether stdout's reader went away (`| head` that has what it wants).
const OUTPUT_CHECK: Duration = Duration::from_millis(200);

/// Listen for the signals and for a closed stdout. `what` names what is stopped (`the server`,
/// `every server`).
pub(crate) fn handle_signals(stop_handle: StopHandle, what: &'static str) -> Stopper {
    let cause = Arc::new(std::sync::Mutex::new(None));
    let output_closed = Arc::new(AtomicBool::new(false));
    let (cause_in, closed_in) = (cause.clone(), output_closed.clone());
    // Installed here, before anything is launched or drawn, not in the task: a task is first
    // polled when a worker thread gets to it, and on a loaded machine a Ctrl-C came before
    // that, with the default action (the probe killed outright, no message, no report).
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = signal(SignalKind::interrupt()).ok();
    let mut term = signal(SignalKind::terminate()).ok();
    let mut hup = signal(SignalKind::hangup()).ok();
    let task = tokio::spawn(async move {
        let mut check = tokio::time::interval(OUTPUT_CHECK);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut closed_seen = false;
        loop {
            let got = tokio::select! {
                Some(()) = async { int.as_mut()?.recv().await } => StopCause::Interrupt,
                Some(()) = async { term.as_mut()?.recv().await } => StopCause::Terminate,
                Some(()) = async { hup.as_mut()?.recv().await } => StopCause::HangUp,
                _ = check.tick(), if !closed_seen => {
                    if closed_in.load(Ordering::Relaxed) || crate::render::stdout_closed() {
                        closed_in.store(true, Ordering::Relaxed);
                        closed_seen = true;
                        stop_handle.request(StopLevel::Graceful);
                    }
                    continue;
                }
                else => break,
            };
            let first = match cause_in.lock() {
                Ok(mut c) => *c.get_or_insert(got),
                Err(_) => got,
            };
            let level = stop_handle.escalate();
            let message = if level == StopLevel::Graceful {
                format!(
                    "{}: stopping {what} ({} again to kill at once)...",
                    first.words(),
                    first.short()
                )
            } else {
                format!("killing {what}...")
            };
            // The progress line, when one is drawn, is cleared first (the `^C` the terminal
            // echoed goes with it); else a fresh line after that `^C`.
            if !crate::render::text::probe::live::say_above_progress(&message) {
                crate::say!("\n{message}");
            }
        }
    });
    Stopper {
        task,
        cause,
        output_closed,
    }
}

/// The exit status once the report is written: a failed write is a usage error (2), unless
/// the reader went away (`| head`), which ends quietly (0) when nothing else stopped the run;
/// a signal's own status; 1 for `findings` (a server that did not stay up, or an opening
/// finding); else 0.
pub(crate) fn exit_status(
    written: std::io::Result<()>,
    interrupted: Option<StopCause>,
    findings: bool,
) -> anyhow::Result<u8> {
    if let Err(e) = written {
        if !crate::render::is_broken_pipe(&e) {
            return crate::cli::error::fail(format!("cannot write the report: {e}"));
        }
        if interrupted.is_none() {
            return Ok(exit::OK);
        }
    }
    Ok(match interrupted {
        Some(by) => exit::stopped_by(by),
        None if findings => exit::FINDINGS,
        None => exit::OK,
    })
}
