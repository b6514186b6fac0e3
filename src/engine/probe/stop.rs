//! Ctrl-C as the probe hears it: a level that only rises (run, graceful, force), sent by the
//! CLI's handler and watched by every attempt.

use tokio::sync::watch;

/// How far a stop request goes (Ctrl-C once: graceful; twice: force).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum StopLevel {
    /// Keep going.
    Run,
    /// Stop the current attempt the host's way (close stdin, SIGTERM, grace, SIGKILL) and end.
    Graceful,
    /// Kill at once (SIGKILL to the group) and end.
    Force,
}

/// The sending half of a stop request (the CLI's Ctrl-C handler holds it).
#[derive(Debug)]
pub(crate) struct StopHandle {
    tx: watch::Sender<StopLevel>,
}

/// The receiving half, cloned into every attempt. Without a live [`StopHandle`] it never fires.
#[derive(Debug, Clone)]
pub(crate) struct StopSignal {
    rx: watch::Receiver<StopLevel>,
}

/// A connected pair of stop handle and signal.
pub(crate) fn stop_pair() -> (StopHandle, StopSignal) {
    let (tx, rx) = watch::channel(StopLevel::Run);
    (StopHandle { tx }, StopSignal { rx })
}

impl StopHandle {
    /// Raise the stop level (it never goes down).
    pub(crate) fn request(&self, level: StopLevel) {
        self.tx.send_if_modified(|current| {
            if level > *current {
                *current = level;
                true
            } else {
                false
            }
        });
    }

    /// Raise the level one step: `Run` -> `Graceful` -> `Force`. Returns the new level.
    pub(crate) fn escalate(&self) -> StopLevel {
        let next = match *self.tx.borrow() {
            StopLevel::Run => StopLevel::Graceful,
            StopLevel::Graceful | StopLevel::Force => StopLevel::Force,
        };
        self.request(next);
        next
    }
}

impl StopSignal {
    /// A signal that never fires.
    #[cfg(test)]
    pub(crate) fn never() -> StopSignal {
        let (tx, rx) = watch::channel(StopLevel::Run);
        // Keep the channel open forever by leaking nothing: a dropped sender makes
        // `reached` pend forever, which is what "never" means.
        drop(tx);
        StopSignal { rx }
    }

    /// The level now.
    pub(crate) fn level(&self) -> StopLevel {
        *self.rx.borrow()
    }

    /// Resolves once the level is at least `level`; pends forever if that never happens.
    pub(crate) async fn reached(&self, level: StopLevel) {
        let mut rx = self.rx.clone();
        if rx.wait_for(|l| *l >= level).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
