//! The exit codes, in one place. Findings are results (1), not errors (2).

/// Everything is fine: the server stayed up, the configuration has no errors, the command ran.
pub(crate) const OK: u8 = 0;
/// Findings: a server flapped or never connected, a configuration has errors (or warnings with
/// `--deny-warnings`).
pub(crate) const FINDINGS: u8 = 1;
/// Usage or I/O error: bad arguments, a file that cannot be read or parsed, a command that
/// cannot be launched.
pub(crate) const USAGE: u8 = 2;
/// Interrupted by Ctrl-C (128 + SIGINT).
pub(crate) const INTERRUPTED: u8 = 130;
/// Hung up: SIGHUP (128 + 1).
pub(crate) const HUNG_UP: u8 = 129;
/// Terminated: SIGTERM (128 + 15).
pub(crate) const TERMINATED: u8 = 143;

/// The exit code for a run stopped by `cause`.
pub(crate) fn stopped_by(cause: crate::engine::stop::StopCause) -> u8 {
    use crate::engine::stop::StopCause;
    match cause {
        StopCause::Interrupt => INTERRUPTED,
        StopCause::Terminate => TERMINATED,
        StopCause::HangUp => HUNG_UP,
    }
}
