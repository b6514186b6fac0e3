//! What the openings of a whole run showed: the findings across launches.

use serde::Serialize;

use super::record::*;
use crate::engine::folded::{clip, is_zero, FoldedList, TEXT_MAX};
use crate::engine::probe::runner::run_record::Launch;

/// What the openings of a whole run add up to (the `opening` member of `--format json` and of the
/// `--format events` report line).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct OpeningSummary {
    /// Connections whose opening the probe played.
    pub connections: u32,
    /// Launches whose connection ended while a host request was outstanding.
    pub died_on: Vec<DiedOn>,
    /// Legacy MCPL: the policy exchange's settle time, ms after the handshake, on every
    /// connection where it settled (the value fed to the predictions).
    pub settle_ms: Vec<f64>,
    /// Legacy MCPL: connections whose policy exchange never settled before they ended.
    pub unsettled_launches: Vec<u32>,
    /// The settle time the per-rule predictions replay (ms after the handshake): the longest
    /// one observed; when none settled, longer than every connection that ended unsettled
    /// (so a replayed reconnect never clears the status line, as observed). `None`: nothing
    /// measured (no legacy MCPL connection, or `--handshake-only`): the default is used.
    pub settle_ms_for_predictions: Option<f64>,
    /// The tool counts differ across launches (launch, count), or the names do.
    pub tools_differ: Option<Vec<ToolsOnLaunch>>,
    /// Findings about channels across reconnects (agent-framework #644; MCPL SPEC §4.2.4).
    pub findings: Vec<ChannelFinding>,
}

/// A connection that ended with a host request unanswered.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct DiedOn {
    pub launch: u32,
    /// The request.
    pub method: String,
    /// From sending it to the end of the connection, in ms.
    pub after_ms: f64,
}

/// One launch's tool list, for comparison.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ToolsOnLaunch {
    pub launch: u32,
    pub tool_count: u32,
    /// Names this launch listed that the first listing launch did not (redacted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Names the first listing launch listed that this one did not (redacted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// A finding about the opening (channels across reconnects, a failed `tools/list`), with its
/// evidence (per connection, for channels).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ChannelFinding {
    /// `channels-registered-once`, `content-before-registration`, `tools-list-failed`,
    /// `tool-call-failed`, `no-tools-listed` or `warning-at-start`.
    pub id: &'static str,
    /// One sentence, for a person.
    pub text: String,
    /// Per connection: what it registered and what arrived before (the first and last 8
    /// connections).
    pub evidence: FoldedList<ChannelConnection>,
    /// Connections left out of `evidence` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub evidence_folded: u64,
    /// A note: shown, but not counted against a clean exit (a start warning on a server that
    /// stayed up; `--strict` counts it). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub note: bool,
}

/// One connection's channel evidence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ChannelConnection {
    pub launch: u32,
    /// How long the connection was watched after its handshake, in ms.
    pub connected_ms: f64,
    /// Channel ids registered on it (redacted), in order: the first and last 8.
    pub registered: FoldedList<String>,
    /// Ids left out of `registered` (registered on it but not listed). Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub registered_folded: u64,
    /// When its first registration came, ms after its handshake.
    pub first_registration_ms: Option<f64>,
    /// Content that arrived for a channel not registered on it: the first and last 8.
    pub content_before_registration: FoldedList<ChannelContent>,
    /// Content left out of `content_before_registration` between its first and last 8.
    /// Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub content_before_registration_folded: u64,
}

/// One finding id per kind, stable for machines.
pub(crate) const CHANNELS_REGISTERED_ONCE: &str = "channels-registered-once";
pub(crate) const CONTENT_BEFORE_REGISTRATION: &str = "content-before-registration";
pub(crate) const TOOLS_LIST_FAILED: &str = "tools-list-failed";
pub(crate) const TOOL_CALL_FAILED: &str = "tool-call-failed";
pub(crate) const WARNING_AT_START: &str = "warning-at-start";
pub(crate) const NO_TOOLS_LISTED: &str = "no-tools-listed";

/// What a line a server writes while it starts says when it is up without what it needs
/// (lower case): a variable, a key, a database it cannot reach.
const WARNINGS: &[&str] = &[
    "not set",
    "connection refused",
    "econnrefused",
    "could not connect",
    "couldn't connect",
    "failed to connect",
    "unable to connect",
    "no api key",
    "missing api key",
    "invalid api key",
    "invalid token",
    "unauthorized",
];

impl OpeningSummary {
    /// Add up the openings of `launches`.
    pub(crate) fn of(launches: &[Launch]) -> OpeningSummary {
        let mut s = OpeningSummary::default();
        let mut channel_conns: Vec<ChannelConnection> = Vec::new();
        let mut listings: Vec<Listing<'_>> = Vec::new();
        for l in launches {
            let r = &l.report;
            let (Some(o), Some(connected_at)) = (&r.opening, r.connected_at_ms) else {
                continue;
            };
            s.connections += 1;
            if let Some(p) = &o.pending_at_close {
                s.died_on.push(DiedOn {
                    launch: l.number,
                    method: p.method.clone(),
                    after_ms: r3((r.ended_at_ms - p.sent_at_ms).max(0.0)),
                });
            }
            if let Some(p) = o.policy {
                match (p.settled, p.settle_ms) {
                    (true, Some(ms)) => s.settle_ms.push(ms),
                    (false, _) if o.pending_at_close.is_some() => {
                        s.unsettled_launches.push(l.number)
                    }
                    _ => {}
                }
            }
            if let Some(n) = o.tool_count {
                listings.push((
                    l.number,
                    n,
                    o.tool_names_digest,
                    o.tool_names.iter().collect(),
                ));
            }
            channel_conns.push(channel_connection(l, o, connected_at));
        }
        s.tools_differ = tools_differ(&listings);
        s.findings = channel_findings(&channel_conns);
        s.findings.extend(tools_list_finding(launches));
        s.findings.extend(tool_call_finding(launches));
        let withheld = no_tools_finding(launches);
        if withheld.is_none() {
            s.findings.extend(warning_finding(launches));
        }
        s.findings.extend(withheld);
        s.settle_ms_for_predictions = settle_for_predictions(&s, &channel_conns);
        s
    }

    /// The settle time to replay in the predictions: measured, else the default.
    pub(crate) fn prediction_settle_ms(&self) -> f64 {
        self.settle_ms_for_predictions
            .unwrap_or(crate::engine::schedule::DEFAULT_SETTLE_MS)
    }

    /// [`OpeningSummary::of`] the run's launches; under `--strict` its notes are findings.
    pub(crate) fn of_run(run: &crate::engine::probe::runner::ProbeRun) -> OpeningSummary {
        let mut s = OpeningSummary::of(&run.launches);
        // Notes tied to the arguments it was given (a flag's value an error line quotes).
        for (about, text) in super::arg_notes::notes(&run.launches, &run.args) {
            let id = match about {
                super::arg_notes::About::StartLine => WARNING_AT_START,
                super::arg_notes::About::NoTools => NO_TOOLS_LISTED,
            };
            let mut f = finding(id, text);
            f.note = true;
            s.findings.push(f);
        }
        if run.strict {
            for f in &mut s.findings {
                f.note = false;
            }
        }
        s
    }

    /// Whether anything here is a finding (exit 1 even when every connection stayed up); a
    /// note is not.
    pub(crate) fn has_findings(&self) -> bool {
        self.findings.iter().any(|f| !f.note)
    }

    /// The findings that count against a clean exit (not the notes).
    pub(crate) fn failing(&self) -> Vec<&ChannelFinding> {
        self.findings.iter().filter(|f| !f.note).collect()
    }
}

/// A server that advertises tools but whose `tools/list` failed (an error answer, a malformed
/// page, no answer within the host's deadline, a failed HTTP request): the host starts that
/// connection without its tools, and nothing reconnects or alerts. A listing cut short by the
/// connection's end is not this (that is what it died on), nor one still waited for when
/// observation stopped.
fn tools_list_finding(launches: &[Launch]) -> Option<ChannelFinding> {
    let mut failed: Vec<(u32, String)> = Vec::new();
    for l in launches {
        let Some(o) = &l.report.opening else {
            continue;
        };
        if !o.tools_advertised {
            continue;
        }
        let how = o
            .exchanges
            .iter()
            .filter(|e| e.method == "tools/list")
            .find_map(|e| match &e.result {
                ExchangeResult::Error { code, message } => Some(match (code, message.is_empty()) {
                    (Some(c), true) => format!("error {c}"),
                    (Some(c), false) => format!("error {c}: {message}"),
                    (None, _) => message.clone(),
                }),
                ExchangeResult::TimedOut { deadline_ms } => Some(format!(
                    "no answer within {}",
                    crate::engine::policy::timings::format_ms(*deadline_ms)
                )),
                _ => None,
            });
        if let Some(how) = how {
            failed.push((l.number, how));
        }
    }
    let (first, how) = failed.first()?;
    let (on, connections) = if failed.len() == 1 {
        (format!("launch {first}"), "that connection")
    } else {
        (
            format!("{} launches, first launch {first}", failed.len()),
            "those connections",
        )
    };
    Some(ChannelFinding {
        id: TOOLS_LIST_FAILED,
        text: format!(
            "tools/list failed on {on} ({how}): the server advertises tools, but the host \
             gets none from it on {connections}, and nothing reconnects or alerts"
        ),
        evidence: FoldedList::new(),
        evidence_folded: 0,
        note: false,
    })
}

fn finding(id: &'static str, text: String) -> ChannelFinding {
    ChannelFinding {
        id,
        text,
        evidence: FoldedList::new(),
        evidence_folded: 0,
        note: false,
    }
}

/// `--call`: the tool call failed (an error answer, `isError`, no answer in time) on a
/// connection that was up: the server starts, but cannot do its work.
fn tool_call_finding(launches: &[Launch]) -> Option<ChannelFinding> {
    let mut failed = launches.iter().filter_map(|l| {
        let o = l.report.opening.as_ref()?;
        let e = o.exchanges.iter().find(|e| e.method == "tools/call")?;
        let how = match &e.result {
            // The error is kept whole (2 KiB, for the diagnosis); the finding quotes its start.
            ExchangeResult::Error {
                code: Some(c),
                message,
            } => format!("error {c}: {}", clip(message.clone(), TEXT_MAX)),
            ExchangeResult::Error { message, .. } => clip(message.clone(), TEXT_MAX),
            ExchangeResult::TimedOut { deadline_ms } => format!(
                "no answer within {}",
                crate::engine::policy::timings::format_ms(*deadline_ms)
            ),
            // A result not marked `isError` that the diagnosis's experiment proved a failure.
            ExchangeResult::Answered => {
                let a = o.call.as_ref()?;
                let tried = a.failed.as_ref()?;
                let first = a.text.lines().find(|x| !x.trim().is_empty()).unwrap_or("");
                let first: String = first.trim().chars().take(200).collect();
                // A connect's result is what was tried; else what its structure says.
                let why = if tried.starts_with("connect ") {
                    format!("tried: {tried}")
                } else {
                    tried.clone()
                };
                format!("{first} (a result not marked isError; {why})")
            }
            _ => return None,
        };
        Some((l.number, how))
    });
    let (first, how) = failed.next()?;
    let more = failed.count();
    let on = if more == 0 {
        format!("launch {first}")
    } else {
        format!("{} launches, first launch {first}", more + 1)
    };
    Some(finding(
        TOOL_CALL_FAILED,
        format!(
            "the tool call (--call) failed on {on}: {how}: the server is up but cannot do its \
             work; fix what the error names (an address, a credential, a path or a value the \
             entry gives it)"
        ),
    ))
}

/// A start line, not indented, that is a warning (a level word among its first words:
/// `Warning:`, `[WARN]`, `ERROR`; or one of [`WARNINGS`]) naming a variable (`UPPER_SNAKE`, with an `_`), with that
/// variable.
pub(crate) fn warned_variable(line: &str) -> Option<String> {
    // An indented line belongs to a block: a help text's option (`  --api-key  Falls back to
    // the SRV_API_KEY environment variable; not set: anonymous`), a stack.
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let low = line.to_ascii_lowercase();
    let levelled = low
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '=')
        .filter(|w| !w.is_empty())
        .take(6)
        .any(|w| matches!(w, "warning" | "warn" | "error" | "err"));
    if !(levelled || WARNINGS.iter().any(|w| low.contains(w))) || line.len() > 1024 {
        return None;
    }
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| {
            w.len() >= 4
                && w.contains('_')
                && w.starts_with(|c: char| c.is_ascii_uppercase())
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_string)
}

/// A server that advertises tools, listed none, and warned at start naming a variable: the host
/// starts it without any tool. A server listing some tools beside such a warning is the note of
/// [`warning_finding`]; one with no tools and no such warning (resources, prompts) is no finding.
fn no_tools_finding(launches: &[Launch]) -> Option<ChannelFinding> {
    use crate::engine::probe::model::RUNTIME_HINTS as NOT_EVIDENCE;
    launches.iter().find_map(|l| {
        let o = l.report.opening.as_ref()?;
        if !o.tools_advertised || o.tool_count != Some(0) {
            return None;
        }
        let tail = &l.report.stderr;
        let (line, var) = tail.notable.iter().chain(tail.lines.iter()).find_map(|x| {
            if NOT_EVIDENCE.iter().any(|n| x.contains(n)) {
                return None;
            }
            warned_variable(x).map(|v| (x, v))
        })?;
        let shown: String = line.trim().chars().take(200).collect();
        Some(finding(
            NO_TOOLS_LISTED,
            format!(
                "launch {} advertises tools but listed none, and said at start: \"{shown}\" (it \
                 names `{var}`): the host gets no tool from it; give it what the line names",
                l.number
            ),
        ))
    })
}

/// A line a server that stayed up wrote while it started, saying it lacks what it needs (`...
/// not set`, `connection refused`): it answers the host, then fails its first tool call.
fn warning_finding(launches: &[Launch]) -> Option<ChannelFinding> {
    use crate::engine::probe::model::RUNTIME_HINTS as NOT_EVIDENCE;
    launches.iter().find_map(|l| {
        l.report.connected_at_ms?;
        let tail = &l.report.stderr;
        let line = tail.notable.iter().chain(tail.lines.iter()).find(|x| {
            let low = x.to_ascii_lowercase();
            x.len() <= 1024
                && WARNINGS.iter().any(|w| low.contains(w))
                && !NOT_EVIDENCE.iter().any(|n| x.contains(n))
        })?;
        let shown: String = line.trim().chars().take(200).collect();
        let names = match upper_name(&shown) {
            Some(v) => format!(" (it names `{v}`)"),
            None => String::new(),
        };
        let mut f = finding(
            WARNING_AT_START,
            format!(
                "launch {} answered the host but said at start: \"{shown}\"{names}: a note, \
                 not a failure (the server stayed up); if its tools need what the line names, \
                 fix that (`--call TOOL` makes one call to check; `--strict` fails the run on it)",
                l.number
            ),
        );
        f.note = true;
        Some(f)
    })
}

/// The first upper-case name in `line` shaped like an environment variable (`DATABASE_URL`,
/// `API_KEY`: letters, digits and `_`, with an `_` or 4 letters or more), a quoted one first.
pub(crate) fn upper_name(line: &str) -> Option<String> {
    let is_name = |w: &str| {
        w.len() >= 3
            && w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && w.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && (w.contains('_') || w.len() >= 4)
    };
    let words: Vec<&str> = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let quoted = ['`', '\'', '"'].iter().find_map(|q| {
        line.split(*q)
            .skip(1)
            .step_by(2)
            .find(|w| is_name(w))
            .map(str::to_string)
    });
    quoted.or_else(|| words.into_iter().find(|w| is_name(w)).map(str::to_string))
}

/// A launch's tool list: its number, the count, the names' digest and the names.
type Listing<'a> = (u32, u32, u64, Vec<&'a String>);

/// One connection's channels: what it registered (and when first), and the content sent
/// before any registration.
fn channel_connection(l: &Launch, o: &Opening, connected_at: f64) -> ChannelConnection {
    let r = &l.report;
    let registered: FoldedList<String> = o
        .channels
        .registrations
        .iter()
        .flat_map(|g| g.channel_ids.iter().cloned())
        .collect();
    let registered_folded = o
        .channels
        .channel_ids_total
        .saturating_sub(registered.len() as u64);
    let early = &o.channels.content_before_registration;
    ChannelConnection {
        launch: l.number,
        connected_ms: r3((r.ended_at_ms - connected_at).max(0.0)),
        registered,
        registered_folded,
        first_registration_ms: o
            .channels
            .registrations
            .first()
            .map(|g| r3((g.at_ms - connected_at).max(0.0))),
        content_before_registration: early.clone(),
        content_before_registration_folded: early.folded(),
    }
}

/// Each launch's tools against the first launch's, when any launch listed other tools.
fn tools_differ(listings: &[Listing<'_>]) -> Option<Vec<ToolsOnLaunch>> {
    let (_, first_n, first_digest, first_names) = listings.first()?;
    let differ = listings
        .iter()
        .any(|(_, n, digest, _)| n != first_n || digest != first_digest);
    if !differ {
        return None;
    }
    Some(
        listings
            .iter()
            .map(|(launch, n, _, names)| ToolsOnLaunch {
                launch: *launch,
                tool_count: *n,
                added: names
                    .iter()
                    .filter(|x| !first_names.contains(x))
                    .map(|x| (*x).clone())
                    .collect(),
                missing: first_names
                    .iter()
                    .filter(|x| !names.contains(x))
                    .map(|x| (*x).clone())
                    .collect(),
            })
            .collect(),
    )
}

/// The settle time the predictions replay: the longest measured; else, when the exchange never
/// settled, longer than the longest unsettled connection (at least the default); else none.
fn settle_for_predictions(s: &OpeningSummary, channel_conns: &[ChannelConnection]) -> Option<f64> {
    if let Some(max) = s.settle_ms.iter().copied().reduce(f64::max) {
        return Some(max);
    }
    if s.unsettled_launches.is_empty() {
        return None;
    }
    let longest = channel_conns
        .iter()
        .filter(|c| s.unsettled_launches.contains(&c.launch))
        .map(|c| c.connected_ms)
        .fold(0.0, f64::max);
    Some(r3(longest.max(crate::engine::schedule::DEFAULT_SETTLE_MS) + 1.0).round())
}

fn channel_findings(conns: &[ChannelConnection]) -> Vec<ChannelFinding> {
    let mut out = Vec::new();
    // Registered on an earlier connection, not on a later one that lived at least as long as
    // the registering connection took to register (so a slow registration is not mistaken for
    // a missing one).
    if let Some(first) = conns.iter().find(|c| !c.registered.is_empty()) {
        let took = first.first_registration_ms.unwrap_or(0.0);
        let silent: Vec<&ChannelConnection> = conns
            .iter()
            .filter(|c| {
                c.launch > first.launch && c.registered.is_empty() && c.connected_ms >= took
            })
            .collect();
        if !silent.is_empty() {
            let launches: Vec<String> = silent.iter().map(|c| c.launch.to_string()).collect();
            let mut ids: Vec<String> = first.registered.iter().cloned().collect();
            if first.registered_folded > 0 {
                ids.push(format!("and {} more", first.registered_folded));
            }
            let text = format!(
                "registered its channels ({}) on launch {} only; launch{} {} connected without registering any (for at least as long as the first took, {} ms): after each reconnect the host keeps them unconfirmed and the agent cannot speak first into a quiet channel",
                ids.join(", "),
                first.launch,
                if silent.len() == 1 { "" } else { "es" },
                launches.join(", "),
                took.round(),
            );
            let mut evidence: FoldedList<ChannelConnection> = FoldedList::new();
            evidence.push(first.clone());
            evidence.extend(silent.into_iter().cloned());
            out.push(ChannelFinding {
                id: CHANNELS_REGISTERED_ONCE,
                text,
                evidence_folded: evidence.folded(),
                evidence,
                note: false,
            });
        }
    }
    let early: Vec<&ChannelConnection> = conns
        .iter()
        .filter(|c| !c.content_before_registration.is_empty())
        .collect();
    if !early.is_empty() {
        let Some(first) = early[0].content_before_registration.first() else {
            return out;
        };
        let text = format!(
            "delivered channel content before registering the channel on this connection (launch {}: channel {}, message {}); MCPL requires registration under the new grant first",
            early[0].launch,
            first.channel_id,
            first.message_id.as_deref().unwrap_or("(no id)"),
        );
        let evidence: FoldedList<ChannelConnection> = early.into_iter().cloned().collect();
        out.push(ChannelFinding {
            id: CONTENT_BEFORE_REGISTRATION,
            text,
            evidence_folded: evidence.folded(),
            evidence,
            note: false,
        });
    }
    out
}
