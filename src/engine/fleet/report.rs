//! What probing a configuration produces, whatever draws it: each selected entry and what
//! became of it (probed, could not be launched, refused, skipped), and the counts.

use std::time::SystemTime;

use crate::engine::diagnosis::Diagnosis;
use crate::engine::policy::Preset;
use crate::engine::probe::runner::verdict::{self, Verdict};
use crate::engine::probe::{ProbeRun, Protocol};
use crate::engine::stop::StopCause;

/// The code of an entry not launched for an `${input:ID}` no `--input` gives.
pub(crate) const INPUT_NOT_GIVEN: &str = "input-not-given";

/// One check-config error that kept an entry from being probed.
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    /// `file:line:column` of the offending value.
    pub at: String,
    pub path: String,
    /// The finding's code (`binding`, `reconnect-timing`, ...).
    pub code: &'static str,
    /// The checker's message (redacted).
    pub message: String,
}

/// A server that was probed: its run, the verdict, how to name it.
pub(crate) struct Probed {
    pub run: ProbeRun,
    pub verdict: Verdict,
    /// The target as shown to a person (redacted).
    pub target: String,
    pub protocol: Protocol,
    pub interrupted: Option<StopCause>,
}

/// What became of one selected entry.
pub(crate) enum ServerResult {
    /// It was probed.
    Probed(Box<Probed>),
    /// Its command could not be launched at all (redacted).
    CannotLaunch(String),
    /// `check-config` has errors for it: a label (`refused by the host`) and the findings.
    Refused {
        label: String,
        findings: Vec<Refusal>,
    },
    /// The host does not start it on its own: why.
    Skipped(String),
}

/// One selected entry and what became of it.
pub(crate) struct ServerReport {
    /// How the entry is named in the report (its id; with its JSON path when the id is not
    /// unique in the file).
    pub name: String,
    /// `stdio`, `websocket`, `http`, or `-` when the host cannot bind it.
    pub transport: String,
    /// `file:line:column` of the entry.
    pub at: String,
    /// The entry's JSON path.
    pub path: String,
    pub result: ServerResult,
    /// The likely causes of its ends (or of its launch error), the surest first.
    pub why: Vec<Diagnosis>,
}

impl ServerReport {
    /// Whether this server counts against a clean exit: it was probed and did not stay up,
    /// could not be launched, or the host refuses it. Skipped entries do not count, nor does a
    /// server with nothing to judge ([`verdict::nothing_judged`]: `--for` was too short).
    pub(crate) fn is_finding(&self) -> bool {
        match &self.result {
            ServerResult::Probed(p) => {
                !verdict::all_clear(&p.run) && !verdict::nothing_judged(&p.run)
            }
            ServerResult::CannotLaunch(_) | ServerResult::Refused { .. } => true,
            ServerResult::Skipped(_) => false,
        }
    }

    /// Whether the server was probed and its run has nothing to judge.
    pub(crate) fn nothing_judged(&self) -> bool {
        matches!(&self.result, ServerResult::Probed(p) if verdict::nothing_judged(&p.run))
    }

    /// Whether the host refuses the entry only for an `${input:ID}` no `--input` gives.
    pub(crate) fn needs_input(&self) -> bool {
        matches!(&self.result, ServerResult::Refused { findings, .. }
            if !findings.is_empty()
                && findings.iter().all(|f| f.code == INPUT_NOT_GIVEN))
    }
}

/// The whole run.
pub(crate) struct AllContext<'a> {
    /// The configuration file as named.
    pub file: &'a str,
    /// The rules the probed servers followed, each once, in the order of their entries (a VS
    /// Code file's stdio entries follow `vscode`, its URLs `vscode-http`); empty when none was
    /// probed.
    pub rules: &'a [Preset],
    pub seed: u64,
    pub started_wall: SystemTime,
    /// Wall time of the whole run, ms.
    pub elapsed_ms: f64,
    pub interrupted: Option<StopCause>,
}

/// Counts for the summary line and the JSON `summary`.
pub(crate) struct Counts {
    pub probed: usize,
    pub stayed_up: usize,
    /// Of those that stayed up: with an opening finding (they count against a clean exit).
    pub with_findings: usize,
    pub did_not: usize,
    /// Probed with nothing to judge (`--for` ended before any handshake); not in `did_not`.
    pub nothing_judged: usize,
    pub cannot_launch: usize,
    pub refused: usize,
    /// Of those refused: only for an `${input:ID}` no `--input` gives.
    pub needs_input: usize,
    pub skipped: usize,
    /// The longest single run and all runs one after another, ms.
    pub slowest_ms: f64,
    pub sum_ms: f64,
}

pub(crate) fn counts(servers: &[ServerReport]) -> Counts {
    let mut c = Counts {
        probed: 0,
        stayed_up: 0,
        with_findings: 0,
        did_not: 0,
        nothing_judged: 0,
        cannot_launch: 0,
        refused: 0,
        needs_input: 0,
        skipped: 0,
        slowest_ms: 0.0,
        sum_ms: 0.0,
    };
    for s in servers {
        match &s.result {
            ServerResult::Probed(p) => {
                let run = &p.run;
                c.probed += 1;
                if verdict::stayed_up(run) {
                    c.stayed_up += 1;
                    if !verdict::all_clear(run) {
                        c.with_findings += 1;
                    }
                } else if verdict::nothing_judged(run) {
                    c.nothing_judged += 1;
                } else {
                    c.did_not += 1;
                }
                c.slowest_ms = c.slowest_ms.max(run.elapsed_ms);
                c.sum_ms += run.elapsed_ms;
            }
            ServerResult::CannotLaunch(_) => c.cannot_launch += 1,
            ServerResult::Refused { .. } => {
                c.refused += 1;
                if s.needs_input() {
                    c.needs_input += 1;
                }
            }
            ServerResult::Skipped(_) => c.skipped += 1,
        }
    }
    c
}

impl AllContext<'_> {
    /// The one rule every probed server followed, if they all followed one.
    pub(crate) fn rule(&self) -> Option<Preset> {
        match self.rules {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// How a run comes out for its exit status, decided once for one server alone and for many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// No finding: every probed server stayed up with nothing against its opening (skipped
    /// entries do not count), and each had something to judge.
    Clean,
    /// A finding ([`ServerReport::is_finding`]).
    Findings,
    /// No finding, but `unjudged` of the `probed` servers had nothing to judge: the probe's
    /// `--for` ended before their first handshake. Nothing was seen of them, so it is no
    /// finding against them: the probe was given too little time.
    NothingJudged { unjudged: usize, probed: usize },
}

/// How the run of `servers` comes out.
pub(crate) fn ending(servers: &[ServerReport]) -> Ending {
    if servers.iter().any(ServerReport::is_finding) {
        return Ending::Findings;
    }
    let unjudged = servers.iter().filter(|s| s.nothing_judged()).count();
    if unjudged == 0 {
        return Ending::Clean;
    }
    let probed = servers
        .iter()
        .filter(|s| matches!(s.result, ServerResult::Probed(_)))
        .count();
    Ending::NothingJudged { unjudged, probed }
}
