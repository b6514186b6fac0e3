//! The row about a backing service seen only through an answer: the server's `initialize`
//! answered a JSON-RPC error (a proxy whose remote is down: mcp-proxy-for-aws answers -32603
//! `All connection attempts failed` and writes nothing on stderr), it ended right after its
//! handshake without a word (a bridge that exits when its remote does not answer), or its
//! `tools/list` answered an error. Every address the entry holds (a `host:port` in a value or
//! an argument, a URL at its scheme's default port, a `*_HOST` beside its `*_PORT`) is
//! connected to; one where nothing listens is `service-not-running`, named with what holds it.
//! When every one answers, the tries are evidence and nothing is blamed.

use super::addresses::{entry_addresses, Address};
use super::call_rows::try_connects;
use super::model::{Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::{service_of, stderr_lines, Key};
use super::table::{Confidence, Id};
use crate::engine::policy::Outcome;
use crate::engine::probe::opening::ExchangeResult;
use crate::engine::probe::{Launch, ProbeRun};

/// The prefix of a launch's failure when `initialize` answered an error (the session's own
/// words: `session/initialize.rs`).
const INITIALIZE_FAILED: &str = "initialize failed: ";

/// The answers this row may replace: it explains what they could not.
const REPLACES: &[Id] = &[
    Id::CauseUnknown,
    Id::DiesOnRequest,
    Id::ExitsAfterHandshake,
    Id::Timer,
];

/// What a launch's answers show of a service behind it: `initialize`'s error, or a quiet end
/// right after the handshake.
fn answered(l: &Launch) -> Option<String> {
    let quiet = stderr_lines(l).iter().all(|x| x.trim().is_empty());
    match &l.report.outcome {
        Some(Outcome::FailedToConnect(f)) => {
            let e = f.to_string();
            e.starts_with(INITIALIZE_FAILED).then_some(e)
        }
        Some(Outcome::Connected { lived_ms, ended }) if quiet => Some(format!(
            "connected, then ended ({ended}) {:.0} ms after its handshake without a word on stderr",
            lived_ms
        )),
        _ => None,
    }
}

/// `service-not-running` from the addresses the entry holds, or the tries that all answered.
enum Tested {
    Down(Diagnosis),
    AllAnswer(Vec<String>),
}

fn test(launches: Vec<u32>, said: String, s: &Setting) -> Option<Tested> {
    let targets: Vec<Address> = entry_addresses(s);
    if targets.is_empty() {
        return None;
    }
    let (tried, down) = try_connects(targets);
    let Some(d) = down else {
        return Some(Tested::AllAnswer(tried));
    };
    let at = format!("{}:{}", d.host, d.port);
    let what = service_of(d.port)
        .map(|x| format!(", {x}'s usual port"))
        .unwrap_or_default();
    let held = d.held_by.join(" and ");
    let mut evidence = vec![Evidence {
        launches: launches.clone(),
        source: Source::Handshake,
        text: super::model::cut(&said),
    }];
    evidence.extend(tried.into_iter().map(|t| Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text: t,
    }));
    evidence.truncate(MAX_EVIDENCE);
    Some(Tested::Down(Diagnosis {
        id: Id::ServiceNotRunning,
        confidence: Confidence::High,
        summary: format!(
            "nothing listens on {at} ({held}{what}), which the server needs to answer the host"
        ),
        launches,
        evidence,
        next_step: format!(
            "nothing listens on {at} ({held}{what}): start it there, or change {held} to where it runs"
        ),
    }))
}

/// The diagnoses of launches that died, led by `service-not-running` when their answers (an
/// `initialize` error, a quiet end after the handshake) and a refused connect to an address
/// the entry holds say so; else a generic answer gains the tries that answered.
pub(crate) fn lead(mut out: Vec<Diagnosis>, died: &[&Launch], s: &Setting) -> Vec<Diagnosis> {
    if !out.first().is_some_and(|d| REPLACES.contains(&d.id)) {
        return out;
    }
    let seen: Vec<(u32, String)> = died
        .iter()
        .filter_map(|l| answered(l).map(|a| (l.number, a)))
        .collect();
    // Every launch that died ended this way: a launch that crashed with words is another story.
    let Some((_, said)) = seen.first().filter(|_| seen.len() == died.len()) else {
        return out;
    };
    let launches: Vec<u32> = seen.iter().map(|(n, _)| *n).collect();
    match test(launches, said.clone(), s) {
        Some(Tested::Down(d)) => {
            out.retain(|o| !REPLACES.contains(&o.id));
            out.insert(0, d);
        }
        Some(Tested::AllAnswer(tried)) => {
            if let Some(top) = out.first_mut() {
                top.evidence
                    .truncate(MAX_EVIDENCE.saturating_sub(tried.len().min(2)));
                top.evidence
                    .extend(tried.into_iter().take(2).map(|t| Evidence {
                        launches: Vec::new(),
                        source: Source::Tried,
                        text: format!("{t} (not the cause)"),
                    }));
            }
        }
        None => {}
    }
    out
}

/// A server that stayed up whose `tools/list` answered an error, where a connect to an address
/// the entry holds is refused: `service-not-running` (a proxy lists its remote's tools). A
/// server that advertises no tools may refuse the call (`Method not found`): no evidence.
pub(crate) fn list_service_down(run: &ProbeRun, s: &Setting) -> Option<(Key, Diagnosis)> {
    let (l, message) = run.launches.iter().find_map(|l| {
        let o = l.report.opening.as_ref().filter(|o| o.tools_advertised)?;
        o.exchanges.iter().find_map(|e| match &e.result {
            ExchangeResult::Error { code, message } if e.method == "tools/list" => Some((
                l,
                match code {
                    Some(c) => format!("tools/list failed: {message} (code {c})"),
                    None => format!("tools/list failed: {message}"),
                },
            )),
            _ => None,
        })
    })?;
    match test(vec![l.number], message, s)? {
        Tested::Down(d) => Some((Key::AnswerErrorAndEntryAddressRefused, d)),
        Tested::AllAnswer(_) => None,
    }
}
