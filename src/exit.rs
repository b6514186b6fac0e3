//! The exit codes, in one place. Findings are results (1), not errors (2).

/// Everything is fine: the server stayed up, the configuration has no errors, the command ran.
pub const OK: u8 = 0;
/// Findings: a server flapped or never connected, a configuration has errors (or warnings with
/// `--deny-warnings`).
pub const FINDINGS: u8 = 1;
/// Usage or I/O error: bad arguments, a file that cannot be read or parsed, a command that
/// cannot be launched.
pub const USAGE: u8 = 2;
/// Interrupted by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: u8 = 130;
