//! Counts over every file `check-config` looked at, for the summary line and the JSON `summary`.

use serde::Serialize;

use super::finding::Report;

/// Counts over every file checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct Totals {
    /// Files checked (read and parsed).
    pub files: usize,
    /// Files that could not be read or parsed.
    pub unreadable: usize,
    pub servers: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Totals {
    pub(crate) fn of(reports: &[Report], unreadable: usize) -> Totals {
        Totals {
            files: reports.len(),
            unreadable,
            servers: reports.iter().map(|r| r.servers).sum(),
            errors: reports.iter().map(Report::errors).sum(),
            warnings: reports.iter().map(Report::warnings).sum(),
        }
    }
}
