//! The row of a `--call` that failed because a command the server launches is not found (its
//! error, else the server's stderr, names it): the reading and the experiment are
//! `child_rows.rs`'s, shared with the row of a launch that died.

use super::child_rows::{command_missing, missing_command};
use super::model::{Diagnosis, Evidence, Setting, MAX_EVIDENCE};
use super::structured::{stderr_lines, Key};
use super::table::Confidence;
use crate::engine::probe::Launch;

/// A `--call` that failed because a command the server launches is not found (its error, else
/// the server's stderr, names it).
pub(crate) fn call_command_missing(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let failed = super::call_rows::failed_call(launches)?;
    let l = failed.launch;
    let stderr = stderr_lines(l);
    let lines: Vec<&str> = failed
        .message
        .lines()
        .chain(stderr.iter().copied())
        .collect();
    let (name, line) = missing_command(&lines)?;
    let f = command_missing(&name, line, s)?;
    let mut evidence = vec![super::call_rows::answered(
        l,
        failed.unmarked,
        &failed.message,
    )];
    evidence.extend(
        f.evidence
            .into_iter()
            .skip(1)
            .map(|(source, text)| Evidence {
                launches: Vec::new(),
                source,
                text,
            }),
    );
    evidence.truncate(MAX_EVIDENCE);
    let d = Diagnosis {
        id: f.id,
        confidence: Confidence::High,
        summary: f.summary,
        launches: vec![l.number],
        evidence,
        next_step: f.next,
    };
    Some((Key::CallErrorLaunchesAMissingCommand, d))
}
