//! What a run keeps: its launches (the first and last kept whole, those between folded), why it
//! ended and what the host would have done next.

use std::time::SystemTime;

use crate::engine::policy::{Decision, Next, Outcome, Policy, Wait};
use crate::engine::probe::model::AttemptReport;

/// One launch: what it did and what the host made of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Launch {
    /// 1-based launch number.
    pub number: u32,
    /// The host's attempt number (0 for the first connect).
    pub attempt: u32,
    pub report: AttemptReport,
    /// The host's verdict; `None` when the probe cut the attempt before it had an outcome.
    pub decision: Option<Decision>,
    /// The host's error for this attempt, when it counts as a failure (redacted).
    pub error: Option<String>,
    /// The exact `mcpl-down` text, when one is raised.
    pub alert: Option<String>,
}

impl ProbeRun {
    /// How many launches the run made (kept and folded).
    pub(crate) fn total_launches(&self) -> u64 {
        self.launches.len() as u64 + self.folded.launches
    }
}

impl Launch {
    /// The wait chosen after this launch, if the loop was to relaunch.
    pub(crate) fn wait(&self) -> Option<Wait> {
        match self.decision.map(|d| d.next) {
            Some(Next::Retry { wait, .. }) => Some(wait),
            _ => None,
        }
    }
}

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finish {
    /// `--launches N` reached.
    Launches(u32),
    /// `--for` elapsed.
    Deadline,
    /// `--until-down`: the host would raise `mcpl-down`.
    UntilDown,
    /// The connection was still up after `--watch`.
    StillUp,
    /// A permanent failure: the host halts reconnecting.
    Halted,
    /// The rule gives up (peer presets).
    GaveUp(&'static str),
    /// Ctrl-C.
    Interrupted,
}

/// The launch the host would make next when the run stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Planned {
    pub attempt: u32,
    /// When it is (or was) due, ms since the epoch.
    pub at_ms: f64,
    pub wait: Wait,
}

/// Launches kept whole at the start of a long run, and at its end; those between are folded
/// into [`Folded`] (as `simulate` keeps its first rows and aggregates the rest), so a probe left
/// running for a day keeps a bounded report (about 16 KB a launch is kept, stderr tail
/// included).
pub(crate) const KEEP_FIRST: usize = 50;
pub(crate) const KEEP_LAST: usize = 50;

/// The launches of a long run left out of [`ProbeRun::launches`] (between the first
/// [`KEEP_FIRST`] and the last [`KEEP_LAST`]), in aggregate.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct Folded {
    /// How many launches were folded (0: none, every launch is in `launches`).
    pub launches: u64,
    /// The first and last folded launch numbers.
    pub first: u32,
    pub last: u32,
    /// Of them: completed the handshake, then closed.
    pub closed: u64,
    /// Still up when observation ended.
    pub still_up: u64,
    /// Never completed the handshake (or refused it).
    pub failed: u64,
    /// Cut by the probe before an outcome.
    pub cut: u64,
    /// `mcpl-down` raised on them.
    pub alerts: u64,
    /// Time connected over the folded launches that connected: shortest, longest, in all (ms).
    pub connected_ms_min: Option<f64>,
    pub connected_ms_max: Option<f64>,
    pub connected_ms_total: f64,
}

impl Folded {
    pub(crate) fn add(&mut self, l: &Launch) {
        if self.launches == 0 {
            self.first = l.number;
        }
        self.launches += 1;
        self.last = l.number;
        match &l.report.outcome {
            Some(Outcome::Connected { .. }) => self.closed += 1,
            Some(Outcome::StillUp { .. }) => self.still_up += 1,
            Some(Outcome::FailedToConnect(_)) | Some(Outcome::Permanent(_)) => self.failed += 1,
            None => self.cut += 1,
        }
        if l.alert.is_some() {
            self.alerts += 1;
        }
        if let Some(c) = l.report.connected_ms() {
            self.connected_ms_min = Some(self.connected_ms_min.map_or(c, |m| m.min(c)));
            self.connected_ms_max = Some(self.connected_ms_max.map_or(c, |m| m.max(c)));
            self.connected_ms_total += c;
        }
    }
}

/// A whole run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProbeRun {
    pub policy: Policy,
    pub seed: u64,
    /// The launches, in order: all of them, or in a long run the first [`KEEP_FIRST`] and the
    /// last [`KEEP_LAST`] (see `folded`).
    pub launches: Vec<Launch>,
    /// The launches left out between them, in aggregate.
    pub folded: Folded,
    pub finish: Finish,
    pub planned: Option<Planned>,
    /// Wall clock at the epoch.
    pub started_wall: SystemTime,
    /// How long the run took.
    pub elapsed_ms: f64,
    /// `--strict`: the opening's notes (a start warning) count against a clean exit.
    pub strict: bool,
    /// The command's arguments (redacted: the entry's as the Why reads them), for the notes
    /// tied to a flag; empty for a URL.
    pub args: Vec<String>,
}
