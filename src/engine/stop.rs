//! What stopped a run from outside (a signal), as the runners and the exit code see it; the
//! renderers have its words.

/// What stopped a run from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopCause {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM.
    Terminate,
    /// SIGHUP (the terminal went away).
    HangUp,
}
