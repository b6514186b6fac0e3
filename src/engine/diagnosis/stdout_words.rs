//! A server's last words on stdout (issue 27). A launch that printed text that is not JSON-RPC
//! on stdout and then ended on its own before its handshake (any exit code: lsmcp exits 0
//! after "No configuration found. Please initialize your project first:") was talking to its
//! user, not logging: nothing of the host's reached it, so its lines did not break a message.
//! Its stdout lines are read as its last words, with the same rows as stderr's (a usage, an
//! argument or a variable asked for, a file looked for, a choice), put before its stderr lines
//! (which end the run's story: a traceback on stderr stays the last words). `stdout-logging`
//! is for a server that keeps running or got through to its handshake (`launch.rs`).
//!
//! A help text on stdout (a usage with its sections) stays `help_rows.rs`' to read.

use super::cli_parsers;
use super::help_rows;
use super::launch::talked_and_left;
use crate::engine::probe::Launch;

/// The launch as the rows read it, with its stdout's lines (not a help text) before its
/// stderr's; `None` when it kept running, got through its handshake, printed nothing there or
/// printed a help.
fn fold(l: &Launch) -> Option<Launch> {
    if !talked_and_left(l) {
        return None;
    }
    let head = &l.report.stdout.head;
    if head.iter().all(|x| x.trim().is_empty()) {
        return None;
    }
    let unboxed = cli_parsers::unboxed(head);
    let refs: Vec<&str> = unboxed.iter().map(String::as_str).collect();
    if help_rows::is_help(&refs) {
        return None;
    }
    let mut read = l.clone();
    // Leading and trailing blank lines say nothing; the ones between keep blocks apart.
    let start = head.iter().position(|x| !x.trim().is_empty())?;
    let end = head.iter().rposition(|x| !x.trim().is_empty())?;
    let mut lines: Vec<String> = head[start..=end].to_vec();
    lines.extend(read.report.stderr.lines.iter().cloned());
    read.report.stderr.lines = lines;
    Some(read)
}

/// [`fold`] of each launch.
pub(crate) fn fold_launches(launches: &[&Launch]) -> Vec<Option<Launch>> {
    launches.iter().map(|l| fold(l)).collect()
}
