//! What a `probe` run is asked (the servers planned, and the shape of their report: one
//! server's or a configuration's) and what its writers give back, shared by the runner
//! ([`run`](super::run)) and the two report shapes ([`one`](super::one), [`all`](super::all)).

use super::args::Written;
use crate::engine::fleet::{EntryRef, Item};
use crate::engine::redact::Redactor;

/// What to probe, planned: the servers, and the shape of the report.
pub(crate) struct Request {
    pub items: Vec<Item>,
    pub shape: Shape,
}

/// The shape of a run's report.
pub(crate) enum Shape {
    /// One server (a command, a URL, `--server ID`): its detailed report, as one server's.
    One(Box<Alone>),
    /// Entries of a configuration (`--all`, several `--server`): the summary. `file`: the
    /// file as named.
    Many { file: String },
}

/// What writing a report produced: stdout's write, and the files written (`--report`,
/// `--svg`), said after the report.
pub(crate) struct Report {
    pub written: std::io::Result<()>,
    pub pictures: anyhow::Result<Written>,
}

/// What one server's report names besides its run: its entry, its target as shown, the
/// secrets its command line is masked of, and its command (for the hint when it cannot be
/// launched).
pub(crate) struct Alone {
    pub entry: Option<EntryRef>,
    pub target: String,
    pub redactor: Redactor,
    /// A stdio server's program, as given.
    pub command: Option<String>,
}
