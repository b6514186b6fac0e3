//! One attempt against a command over stdio: the child in its own process group, NDJSON on its
//! stdin and stdout, stderr drained into a bounded tail, the host's way of stopping it.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{AttemptOptions, AttemptReport, LaunchError, Progress};
use crate::engine::redact::Redactor;

/// A command to launch, with the environment the host would give it.
#[derive(Debug, Clone, PartialEq)]
pub struct StdioTarget {
    pub command: OsString,
    pub args: Vec<OsString>,
    /// The child's whole environment (`None`: inherit the probe's own, as for a bare command).
    pub env: Option<Vec<(OsString, OsString)>>,
    /// Working directory (`None`: the probe's).
    pub cwd: Option<PathBuf>,
}

impl StdioTarget {
    /// `command args...`, redacted, for a person.
    pub fn describe(&self, redactor: &Redactor) -> String {
        let mut parts = vec![self.command.to_string_lossy().into_owned()];
        parts.extend(self.args.iter().map(|a| a.to_string_lossy().into_owned()));
        redactor.redact(&parts.join(" "))
    }
}

/// Launch `target` once, do the handshake, watch the connection until it ends (or the watch,
/// the deadline or a stop request ends the observation), stop the process group the host's way,
/// and report. `Err` only when the command cannot be launched at all.
pub async fn attempt(
    target: &StdioTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let _ = (target, opts, progress);
    Err(LaunchError::Other("stdio transport: not built yet".into()))
}
