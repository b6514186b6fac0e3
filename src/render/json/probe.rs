//! `probe --format json` for one server, typed: the launches, the finish, the verdict and its
//! predictions. `mcpl-doctor schema probe` is generated from these structs (schemars), so a
//! field cannot change without the checked-in schemas under `schema/` changing too (a test
//! compares them). Every server of `--all` is [`super::probe_all`]; `--format events` lines are
//! [`super::events`].
//!
//! Times are milliseconds rounded to a microsecond ([`Ms`]). Text a server controls is already
//! redacted by the engine; [`super::write`] escapes bidi and zero-width characters.

use std::borrow::Cow;
use std::io;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

use super::ms::{ms, opt_ms, unix_ms, Ms};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::EntryRef;
use crate::engine::policy::{Counted, Ended, Next, Outcome, Wait};
use crate::engine::probe::opening::{Opening, OpeningSummary};
use crate::engine::probe::runner::verdict::{Pattern, Prediction, Verdict};
use crate::engine::probe::runner::{Finish, Folded, Planned};
use crate::engine::probe::watch::limits::Limit;
use crate::engine::probe::watch::tree_watch::Install;
use crate::engine::probe::{
    Launch, Misbehaviour, ProbeRun, Protocol, ServerInfo, StderrTail, StdoutNoise, Stopped,
};
use crate::render::context::Context;
use crate::render::units::rfc3339;

/// The `--format json` document's version (one server, or every server of `--all`); bumped when a field changes meaning or goes away.
pub(crate) const SCHEMA_VERSION: u32 = 1;

// ---------------------------------------------------------------------------------------------
// One launch.

/// A wait before the next attempt.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct WaitDoc {
    /// The wait chosen (jittered, as the timer runs it).
    pub ms: Ms,
    /// Before jitter, after the cap and the timer rules.
    pub nominal_ms: Ms,
    /// The shortest wait the jitter allows.
    pub min_ms: Ms,
    /// The longest wait the jitter allows.
    pub max_ms: Ms,
    /// The one other wait the jitter allows besides `min_ms..=max_ms` (1 ms, past the
    /// JavaScript timer's limit). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub or_ms: Option<Ms>,
}

impl From<&Wait> for WaitDoc {
    fn from(w: &Wait) -> Self {
        WaitDoc {
            ms: ms(w.ms),
            nominal_ms: ms(w.nominal_ms),
            min_ms: ms(w.min_ms),
            max_ms: ms(w.max_ms),
            or_ms: opt_ms(w.or_ms),
        }
    }
}

/// How a connection ended, with the words the table uses (`text`).
#[derive(Debug)]
pub(crate) struct EndedDoc<'a>(pub &'a Ended);

impl Serialize for EndedDoc<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct WithText<'a> {
            #[serde(flatten)]
            ended: &'a Ended,
            text: String,
        }
        WithText {
            ended: self.0,
            text: self.0.to_string(),
        }
        .serialize(s)
    }
}

impl JsonSchema for EndedDoc<'_> {
    fn schema_name() -> Cow<'static, str> {
        "EndedWithText".into()
    }

    /// [`Ended`]'s own schema (one object per kind), each kind with `text` added.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = serde_json::Value::from(Ended::json_schema(generator));
        let text = serde_json::json!({
            "type": "string",
            "description": "How it ended, in the launch table's words."
        });
        add_property(&mut schema, "text", &text);
        Schema::try_from(schema).unwrap_or_default()
    }
}

/// Adds a required property to an object schema, or to each branch of a `oneOf`/`anyOf`.
fn add_property(v: &mut serde_json::Value, name: &str, schema: &serde_json::Value) {
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    for key in ["oneOf", "anyOf"] {
        if let Some(serde_json::Value::Array(branches)) = obj.get_mut(key) {
            branches
                .iter_mut()
                .for_each(|b| add_property(b, name, schema));
        }
    }
    if let Some(serde_json::Value::Object(props)) = obj.get_mut("properties") {
        props.insert(name.to_string(), schema.clone());
        let required = obj
            .entry("required")
            .or_insert_with(|| serde_json::Value::Array(Vec::new()));
        if let serde_json::Value::Array(r) = required {
            r.push(serde_json::Value::String(name.to_string()));
        }
    }
}

/// What became of one attempt.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum OutcomeDoc<'a> {
    /// The probe cut the attempt before it had an outcome.
    Cut,
    /// The connection was never made.
    FailedToConnect { error: String },
    /// A failure the host does not retry (a refused protocol version, ...).
    Permanent { error: String },
    /// The handshake completed, then the connection ended.
    ConnectedThenClosed { lived_ms: Ms, ended: EndedDoc<'a> },
    /// Still connected when observation ended.
    StillUp { lived_ms: Ms },
}

impl<'a> OutcomeDoc<'a> {
    fn of(o: Option<&'a Outcome>) -> Self {
        match o {
            None => OutcomeDoc::Cut,
            Some(Outcome::FailedToConnect(f)) => OutcomeDoc::FailedToConnect {
                error: f.to_string(),
            },
            Some(Outcome::Permanent(f)) => OutcomeDoc::Permanent {
                error: f.to_string(),
            },
            Some(Outcome::Connected { lived_ms, ended }) => OutcomeDoc::ConnectedThenClosed {
                lived_ms: ms(*lived_ms),
                ended: EndedDoc(ended),
            },
            Some(Outcome::StillUp { lived_ms }) => OutcomeDoc::StillUp {
                lived_ms: ms(*lived_ms),
            },
        }
    }
}

/// Pings sent while connected, and answered.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct PingsDoc {
    pub sent: u32,
    pub answered: u32,
}

/// One launch: what the server did and what the host made of it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LaunchDoc<'a> {
    /// 1-based launch number.
    pub launch: u32,
    /// The host's attempt number (0 for the first connect).
    pub attempt: u32,
    /// The process id (`null` for a URL).
    pub pid: Option<u32>,
    /// Since the run's start (monotonic clock).
    pub launched_at_ms: Ms,
    /// RFC 3339, wall clock.
    pub launched_at: String,
    pub launched_at_unix_ms: Option<Ms>,
    /// Launch to completed handshake (`null`: no handshake).
    pub handshake_ms: Option<Ms>,
    pub connected_at_ms: Option<Ms>,
    /// Handshake to end.
    pub connected_ms: Option<Ms>,
    pub ended_at_ms: Ms,
    pub outcome: OutcomeDoc<'a>,
    /// What the server said about itself in its handshake answer.
    pub server: Option<&'a ServerInfo>,
    /// What the host made of it (`null`: the probe cut it before an outcome).
    pub counted: Option<Counted>,
    /// The host's error for this attempt, when it counts as a failure (redacted).
    pub error: Option<&'a str>,
    /// Consecutive failures afterwards.
    pub failures: Option<u32>,
    /// How long a connection had to live to count as lasting, under this rule.
    pub lasting_threshold_ms: Option<Ms>,
    /// The exact `mcpl-down` text, when one is raised.
    pub alert: Option<&'a str>,
    /// The attempt the host makes next (`null`: none).
    pub next_attempt: Option<u32>,
    pub wait: Option<WaitDoc>,
    /// Why reconnecting stops after this launch: `halt`, or the rule's reason for giving up.
    pub stops_reconnecting: Option<&'a str>,
    /// How the probe stopped the process (or found it gone).
    pub stopped: Stopped,
    pub pings: PingsDoc,
    pub stderr: &'a StderrTail,
    pub stdout: &'a StdoutNoise,
    pub misbehaviour: &'a Misbehaviour,
    /// The host's requests after the handshake (`null`: no handshake, or `--handshake-only`).
    pub opening: Option<&'a Opening>,
    /// Descendants found outside the server's process group, and stopped.
    pub escaped_processes: usize,
    /// The resource limits the process ran under that are not the usual ones (a finite
    /// address space or CPU time, few open files or processes; `soft` is enforced, `null` is
    /// unlimited); empty for a URL or when all are usual.
    pub limits: &'a [Limit],
    /// An install seen in its process tree (`npx -y`, `uvx`, `pip`): how long it took, and
    /// whether the launch ended during it (then the cache folders it may leave half-written).
    pub install: Option<&'a Install>,
    /// What was still running of the launch when its first process exited on its own (the
    /// commands, redacted): a server started in the background.
    pub left_running: &'a [String],
    /// What the process's stdin was when it was not the probe's pipe (`/dev/null`, a file: a
    /// wrapper replaced it); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdin: Option<&'a str>,
}

impl<'a> LaunchDoc<'a> {
    pub(crate) fn of(l: &'a Launch) -> Self {
        let r = &l.report;
        let d = l.decision.as_ref();
        let (next_attempt, wait, stops) = match d.map(|d| d.next) {
            Some(Next::Retry { attempt, wait }) => {
                (Some(attempt), Some(WaitDoc::from(&wait)), None)
            }
            Some(Next::Halt) => (None, None, Some("halt")),
            Some(Next::GiveUp { reason } | Next::OnNextCall { reason }) => {
                (None, None, Some(reason))
            }
            _ => (None, None, None),
        };
        LaunchDoc {
            launch: l.number,
            attempt: l.attempt,
            pid: r.pid,
            launched_at_ms: ms(r.launched_at_ms),
            launched_at: rfc3339(r.launched_at_wall),
            launched_at_unix_ms: unix_ms(r.launched_at_wall),
            handshake_ms: opt_ms(r.handshake_ms()),
            connected_at_ms: opt_ms(r.connected_at_ms),
            connected_ms: opt_ms(r.connected_ms()),
            ended_at_ms: ms(r.ended_at_ms),
            outcome: OutcomeDoc::of(r.outcome.as_ref()),
            server: r.server.as_ref(),
            counted: d.map(|d| d.counted),
            error: l.error.as_deref(),
            failures: d.map(|d| d.failures),
            lasting_threshold_ms: opt_ms(d.and_then(|d| d.lasting_threshold_ms)),
            alert: l.alert.as_deref(),
            next_attempt,
            wait,
            stops_reconnecting: stops,
            stopped: r.stopped,
            pings: PingsDoc {
                sent: r.pings_sent,
                answered: r.pings_answered,
            },
            stderr: &r.stderr,
            stdout: &r.stdout,
            misbehaviour: &r.misbehaviour,
            opening: r.opening.as_ref(),
            escaped_processes: r.escaped,
            limits: r.process.as_ref().map_or(&[][..], |p| &p.limits[..]),
            install: r.process.as_ref().and_then(|p| p.install.as_ref()),
            left_running: r.process.as_ref().map_or(&[][..], |p| &p.left_running[..]),
            stdin: r.process.as_ref().and_then(|p| p.stdin.as_deref()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The run.

/// Why the run stopped.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub(crate) enum FinishDoc {
    /// `--launches N` reached.
    Launches { launches: u32 },
    /// `--for` elapsed.
    For,
    /// `--until-down`: the host would raise `mcpl-down`.
    UntilDown,
    /// The connection was still up after `--watch`.
    StillUp,
    /// A permanent failure: the host halts reconnecting.
    Halted,
    /// The rule gives up (peer presets).
    GaveUp { text: &'static str },
    /// Ctrl-C or a signal.
    Interrupted,
}

impl From<Finish> for FinishDoc {
    fn from(f: Finish) -> Self {
        match f {
            Finish::Launches(n) => FinishDoc::Launches { launches: n },
            Finish::Deadline => FinishDoc::For,
            Finish::UntilDown => FinishDoc::UntilDown,
            Finish::StillUp => FinishDoc::StillUp,
            Finish::Halted => FinishDoc::Halted,
            Finish::GaveUp(why) => FinishDoc::GaveUp { text: why },
            Finish::Interrupted => FinishDoc::Interrupted,
        }
    }
}

/// The launch the host would have made next when the run stopped.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct PlannedDoc {
    pub attempt: u32,
    pub at_ms: Ms,
    pub wait: WaitDoc,
}

impl From<Planned> for PlannedDoc {
    fn from(p: Planned) -> Self {
        PlannedDoc {
            attempt: p.attempt,
            at_ms: ms(p.at_ms),
            wait: WaitDoc::from(&p.wait),
        }
    }
}

/// What one host rule would do with the observed behaviour, over a day.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct PredictionDoc<'a> {
    pub rule: &'a str,
    pub launches_per_day: Ms,
    /// When `mcpl-down` first fires (`null`: never within the day).
    pub first_down_ms: Option<Ms>,
    pub first_down_attempt: Option<u32>,
    pub downs_per_day: Ms,
    /// Webhook posts a day (at most one per 15 minutes).
    pub webhooks_per_day: Ms,
    /// "down" + "cleared" status line pairs a day.
    pub status_pairs_per_day: Ms,
    /// Share of the day connected, 0 to 1.
    pub connected_share: Ms,
    pub longest_wait_ms: Ms,
    /// Whether the failure count ever starts afresh.
    pub count_starts_afresh: bool,
    /// Why reconnecting stops, if it does.
    pub stopped: Option<&'a str>,
    /// Whether the rule's host raises `mcpl-down` at all (agent-framework's rules). Where it
    /// does not (VS Code, Claude Desktop, the supervisors), `first_down_ms` is `null` and the
    /// alert counts are 0 because there is no such alert, not because none fell due.
    pub raises_alert: bool,
}

impl<'a> From<&'a Prediction> for PredictionDoc<'a> {
    fn from(p: &'a Prediction) -> Self {
        PredictionDoc {
            rule: &p.rule,
            launches_per_day: ms(p.launches_per_day),
            first_down_ms: opt_ms(p.first_down_ms),
            first_down_attempt: p.first_down_attempt,
            downs_per_day: ms(p.downs_per_day),
            webhooks_per_day: ms(p.webhooks_per_day),
            status_pairs_per_day: ms(p.status_pairs_per_day),
            connected_share: ms(p.connected_share),
            longest_wait_ms: ms(p.longest_wait_ms),
            count_starts_afresh: p.count_starts_afresh,
            stopped: p.stopped.as_deref(),
            raises_alert: p.raises_alert,
        }
    }
}

/// The verdict and what each host rule would do over a day.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct VerdictDoc<'a> {
    pub pattern: Pattern,
    /// The verdict, for a person.
    pub text: &'a str,
    /// The `simulate` scenario the predictions replay.
    pub replayed: Option<String>,
    pub predictions: Vec<PredictionDoc<'a>>,
}

/// The reconnect timings the run followed.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct TimingsDoc {
    pub interval_ms: Ms,
    pub cap_ms: Ms,
}

/// `probe --format json` for one server (and, with `event: report`, the last `--format events` line).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ProbeDoc<'a> {
    pub schema_version: u32,
    /// Always `probe`.
    pub command: &'static str,
    /// The command or URL probed (redacted).
    pub target: &'a str,
    /// The configuration entry probed (`--config FILE --server ID`); absent otherwise, and in
    /// `--all`, whose servers carry `id`, `at` and `path` themselves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<&'a EntryRef>,
    pub protocol: Protocol,
    /// The reconnect rule followed.
    pub rule: &'a str,
    pub timings: TimingsDoc,
    /// The jitter seed (`--seed` repeats a run).
    pub seed: u64,
    /// RFC 3339.
    pub started_at: String,
    pub elapsed_ms: Ms,
    /// Whether Ctrl-C or a signal stopped the run.
    pub interrupted: bool,
    pub finish: FinishDoc,
    pub planned_next: Option<PlannedDoc>,
    /// The launches kept: all of them, or the first and last 50 of a long run (`folded`).
    pub launches: Vec<LaunchDoc<'a>>,
    pub opening: OpeningSummary,
    /// The launches left out of `launches`, in aggregate.
    pub folded: Folded,
    pub verdict: VerdictDoc<'a>,
    /// The likely causes of the ends, the surest first.
    pub diagnoses: &'a [Diagnosis],
}

impl<'a> ProbeDoc<'a> {
    pub(crate) fn of(run: &'a ProbeRun, verdict: &'a Verdict, ctx: &Context<'a>) -> Self {
        ProbeDoc {
            schema_version: SCHEMA_VERSION,
            command: "probe",
            target: ctx.target,
            entry: ctx.entry,
            protocol: ctx.protocol,
            rule: &run.policy.name,
            timings: TimingsDoc {
                interval_ms: ms(run.policy.timings.interval_ms),
                cap_ms: ms(run.policy.timings.cap_ms),
            },
            seed: run.seed,
            started_at: rfc3339(run.started_wall),
            elapsed_ms: ms(run.elapsed_ms),
            interrupted: ctx.interrupted.is_some(),
            finish: run.finish.into(),
            planned_next: run.planned.map(PlannedDoc::from),
            launches: run.launches.iter().map(LaunchDoc::of).collect(),
            opening: OpeningSummary::of_run(run),
            folded: run.folded,
            verdict: VerdictDoc {
                pattern: verdict.pattern,
                text: &verdict.sentence,
                replayed: verdict.scenario.as_ref().map(|s| s.to_string()),
                predictions: verdict
                    .predictions
                    .iter()
                    .map(PredictionDoc::from)
                    .collect(),
            },
            diagnoses: ctx.why,
        }
    }
}

/// Write the `--format json` document.
pub(crate) fn write_json(run: &ProbeRun, verdict: &Verdict, ctx: &Context<'_>) -> io::Result<()> {
    super::write::write_pretty(&ProbeDoc::of(run, verdict, ctx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ended_connection_says_how_in_words() {
        let v = serde_json::to_value(EndedDoc(&Ended::Exit { code: 3 })).expect("JSON");
        assert_eq!(v["kind"], "exit");
        assert_eq!(v["code"], 3);
        assert_eq!(v["text"], Ended::Exit { code: 3 }.to_string());
    }
}
