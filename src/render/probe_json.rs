//! `probe`'s machine-readable documents, typed: the `--json` document (one server, or every
//! server of `--all`) and the `--events` lines. `mcpl-doctor schema probe` and `schema events`
//! are generated from these structs (schemars), so a field cannot change without the checked-in
//! schemas under `schema/` changing too (a test compares them).
//!
//! Times are milliseconds rounded to a microsecond ([`Ms`]). Text a server controls is already
//! redacted by the engine; [`write_line`] and [`write_pretty`] escape bidi and zero-width
//! characters (`\uXXXX`) so a document printed on a terminal cannot reorder what it shows.

use std::borrow::Cow;
use std::io::{self, Write};
use std::time::SystemTime;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

use super::text::probe::{Context, EntryRef, SCHEMA_VERSION};
use super::units::rfc3339;
use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::{counts, AllContext, Refusal, ServerReport, ServerResult};
use crate::engine::policy::{Counted, Ended, Next, Outcome, Wait};
use crate::engine::probe::opening::{Opening, OpeningSummary};
use crate::engine::probe::runner::{Finish, Folded, Planned};
use crate::engine::probe::verdict::{self, Pattern, Prediction, Verdict};
use crate::engine::probe::{
    Event, Launch, Misbehaviour, ProbeRun, Protocol, ServerInfo, StderrTail, StdoutNoise, Stopped,
};

// ---------------------------------------------------------------------------------------------
// Numbers.

/// Milliseconds, rounded to a microsecond; `null` when not finite (JSON has no infinity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ms(pub f64);

impl Serialize for Ms {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64((self.0 * 1000.0).round() / 1000.0)
        } else {
            s.serialize_none()
        }
    }
}

impl JsonSchema for Ms {
    fn schema_name() -> Cow<'static, str> {
        "Ms".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "type": ["number", "null"],
            "description": "Milliseconds, rounded to 0.001; null when not finite."
        })
    }
}

fn ms(v: f64) -> Ms {
    Ms(v)
}

fn opt_ms(v: Option<f64>) -> Option<Ms> {
    v.map(Ms)
}

fn unix_ms(t: SystemTime) -> Option<Ms> {
    t.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| Ms(d.as_secs_f64() * 1000.0))
}

// ---------------------------------------------------------------------------------------------
// One launch.

/// A wait before the next attempt.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WaitDoc {
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
pub struct EndedDoc<'a>(pub &'a Ended);

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
pub enum OutcomeDoc<'a> {
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
pub struct PingsDoc {
    pub sent: u32,
    pub answered: u32,
}

/// One launch: what the server did and what the host made of it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LaunchDoc<'a> {
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
}

impl<'a> LaunchDoc<'a> {
    pub fn of(l: &'a Launch) -> Self {
        let r = &l.report;
        let d = l.decision.as_ref();
        let (next_attempt, wait, stops) = match d.map(|d| d.next) {
            Some(Next::Retry { attempt, wait }) => {
                (Some(attempt), Some(WaitDoc::from(&wait)), None)
            }
            Some(Next::Halt) => (None, None, Some("halt")),
            Some(Next::GiveUp { reason }) => (None, None, Some(reason)),
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
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The run.

/// Why the run stopped.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum FinishDoc {
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
pub struct PlannedDoc {
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
pub struct PredictionDoc<'a> {
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
        }
    }
}

/// The verdict and what each host rule would do over a day.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerdictDoc<'a> {
    pub pattern: Pattern,
    /// The verdict, for a person.
    pub text: &'a str,
    /// The `simulate` scenario the predictions replay.
    pub replayed: Option<String>,
    pub predictions: Vec<PredictionDoc<'a>>,
}

/// The reconnect timings the run followed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TimingsDoc {
    pub interval_ms: Ms,
    pub cap_ms: Ms,
}

/// `probe --json` for one server (and, with `event: report`, the last `--events` line).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProbeDoc<'a> {
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
    pub fn of(run: &'a ProbeRun, verdict: &'a Verdict, ctx: &Context<'a>) -> Self {
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
            opening: OpeningSummary::of(&run.launches),
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

// ---------------------------------------------------------------------------------------------
// Every server of a configuration file (`--all`, several `--server`).

/// A probed server of `--all`: where its entry is, then its single-server document.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ServerDoc<'a> {
    /// The entry's id (with its JSON path when the id is not unique in the file).
    pub id: &'a str,
    /// `stdio`, `websocket` or `http`.
    pub transport: &'a str,
    /// `file:line:column` of the entry.
    pub at: &'a str,
    /// The entry's JSON path.
    pub path: &'a str,
    pub stayed_up: bool,
    #[serde(flatten)]
    pub doc: ProbeDoc<'a>,
}

/// One check-config error that kept an entry from being probed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RefusalDoc<'a> {
    /// The finding's code (`binding`, `reconnect-timing`, ...).
    pub code: &'static str,
    /// `file:line:column` of the offending value.
    pub at: &'a str,
    pub path: &'a str,
    /// The checker's message (redacted).
    pub message: &'a str,
}

impl<'a> From<&'a Refusal> for RefusalDoc<'a> {
    fn from(f: &'a Refusal) -> Self {
        RefusalDoc {
            code: f.code,
            at: &f.at,
            path: &f.path,
            message: &f.message,
        }
    }
}

/// An entry that was not probed: it could not be launched (`error`, `diagnoses`), the host
/// refuses it (`label`, `findings`) or does not start it on its own (`reason`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct UnprobedDoc<'a> {
    pub id: &'a str,
    /// `stdio`, `websocket`, `http`, or `-` when the host cannot bind it.
    pub transport: &'a str,
    pub at: &'a str,
    pub path: &'a str,
    /// Why it could not be launched (redacted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// The likely causes of the launch error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnoses: Option<&'a [Diagnosis]>,
    /// `refused by the host`, ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<RefusalDoc<'a>>>,
    /// Why the host does not start it on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
}

impl<'a> UnprobedDoc<'a> {
    /// `None` for a probed server.
    pub fn of(s: &'a ServerReport) -> Option<Self> {
        let mut d = UnprobedDoc {
            id: &s.name,
            transport: &s.transport,
            at: &s.at,
            path: &s.path,
            error: None,
            diagnoses: None,
            label: None,
            findings: None,
            reason: None,
        };
        match &s.result {
            ServerResult::Probed(_) => return None,
            ServerResult::CannotLaunch(error) => {
                d.error = Some(error);
                d.diagnoses = Some(&s.why);
            }
            ServerResult::Refused { label, findings } => {
                d.label = Some(label);
                d.findings = Some(findings.iter().map(RefusalDoc::from).collect());
            }
            ServerResult::Skipped(reason) => d.reason = Some(reason),
        }
        Some(d)
    }
}

/// How many entries came to what.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SummaryDoc {
    pub entries: usize,
    pub probed: usize,
    pub stayed_up: usize,
    /// Of those that stayed up, how many have a finding about their opening
    /// (`opening.findings`): they count against a clean exit too.
    pub stayed_up_with_findings: usize,
    pub did_not_stay_up: usize,
    pub cannot_launch: usize,
    pub refused: usize,
    pub skipped: usize,
    /// The longest single server's run.
    pub slowest_server_ms: Ms,
    /// Every server's run, one after another (what running them in parallel saved).
    pub servers_one_after_another_ms: Ms,
}

/// `probe --config FILE --all --json` (and several `--server`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct AllDoc<'a> {
    pub schema_version: u32,
    /// Always `probe`.
    pub command: &'static str,
    /// The configuration file as named.
    pub config: &'a str,
    /// The rule every server followed.
    pub rule: &'a str,
    pub seed: u64,
    /// RFC 3339.
    pub started_at: String,
    pub elapsed_ms: Ms,
    pub interrupted: bool,
    pub summary: SummaryDoc,
    /// Every probed server.
    pub servers: Vec<ServerDoc<'a>>,
    pub cannot_launch: Vec<UnprobedDoc<'a>>,
    pub refused: Vec<UnprobedDoc<'a>>,
    pub skipped: Vec<UnprobedDoc<'a>>,
}

impl<'a> AllDoc<'a> {
    pub fn of(servers: &'a [ServerReport], ctx: &AllContext<'a>) -> Self {
        let c = counts(servers);
        let mut probed = Vec::new();
        let (mut cannot, mut refused, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        for s in servers {
            match &s.result {
                ServerResult::Probed(p) => probed.push(ServerDoc {
                    id: &s.name,
                    transport: &s.transport,
                    at: &s.at,
                    path: &s.path,
                    stayed_up: verdict::stayed_up(&p.run),
                    doc: ProbeDoc::of(&p.run, &p.verdict, &p.context(&s.why)),
                }),
                ServerResult::CannotLaunch(_) => cannot.extend(UnprobedDoc::of(s)),
                ServerResult::Refused { .. } => refused.extend(UnprobedDoc::of(s)),
                ServerResult::Skipped(_) => skipped.extend(UnprobedDoc::of(s)),
            }
        }
        AllDoc {
            schema_version: SCHEMA_VERSION,
            command: "probe",
            config: ctx.file,
            rule: ctx.rule,
            seed: ctx.seed,
            started_at: rfc3339(ctx.started_wall),
            elapsed_ms: ms(ctx.elapsed_ms),
            interrupted: ctx.interrupted.is_some(),
            summary: SummaryDoc {
                entries: servers.len(),
                probed: c.probed,
                stayed_up: c.stayed_up,
                stayed_up_with_findings: c.with_findings,
                did_not_stay_up: c.did_not,
                cannot_launch: c.cannot_launch,
                refused: c.refused,
                skipped: c.skipped,
                slowest_server_ms: ms(c.slowest_ms),
                servers_one_after_another_ms: ms(c.sum_ms),
            },
            servers: probed,
            cannot_launch: cannot,
            refused,
            skipped,
        }
    }
}

/// What `probe --json` prints: one server's document, or every server's (`--all`). Only the
/// schema tells them apart by name; the documents themselves differ by their members
/// (`target` for one server, `config` and `servers` for `--all`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ProbeJson<'a> {
    One(Box<ProbeDoc<'a>>),
    All(Box<AllDoc<'a>>),
}

// ---------------------------------------------------------------------------------------------
// `--events`.

/// One `--events` line. With `--all` (or several `--server`) every line about a server carries
/// its entry's `id` second, after `event`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum EventLine<'a> {
    /// The run begins.
    Started {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        target: &'a str,
        rule: &'a str,
        protocol: Protocol,
        interval_ms: Ms,
        cap_ms: Ms,
        /// How long the first connection must live to count as lasting (`null`: never by
        /// uptime, or reset by handshake).
        lasting_threshold_ms: Option<Ms>,
        seed: u64,
    },
    /// A launch (or a dial, for a URL) started.
    Launched {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        at_ms: Ms,
        pid: Option<u32>,
    },
    /// Its handshake completed: the connection is made.
    Connected {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        at_ms: Ms,
        handshake_ms: Ms,
        server: &'a ServerInfo,
    },
    /// The attempt is over, with the host's verdict on it (the members of a `launches` item).
    Ended {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        #[serde(flatten)]
        launch: LaunchDoc<'a>,
    },
    /// The host would raise `mcpl-down` with this exact text.
    Alert {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        text: &'a str,
    },
    /// Waiting before the next attempt.
    Waiting {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        next_attempt: u32,
        wait: WaitDoc,
        /// When the next launch is due.
        until_ms: Ms,
    },
    /// This server's run is over.
    Finished {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        finish: FinishDoc,
        planned_next: Option<PlannedDoc>,
    },
    /// A likely cause (after the run, the surest first).
    Diagnosis {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        diagnosis: &'a Diagnosis,
    },
    /// `--all`: an entry whose command could not be launched.
    CannotLaunch {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// `--all`: an entry the host refuses.
    Refused {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// `--all`: an entry the host does not start on its own.
    Skipped {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// The last line: the whole `--json` document of one server.
    Report {
        #[serde(flatten)]
        doc: ProbeDoc<'a>,
    },
    /// The last line with `--all`: the whole `--json` document of every server.
    #[serde(rename = "report")]
    ReportAll {
        #[serde(flatten)]
        doc: AllDoc<'a>,
    },
}

impl<'a> EventLine<'a> {
    /// The line for a run's event; `id`: the entry's id with `--all`.
    pub fn of(event: &'a Event, id: Option<&'a str>) -> Self {
        match event {
            Event::Started {
                target,
                rule,
                protocol,
                interval_ms,
                cap_ms,
                lasting_threshold_ms,
                seed,
            } => EventLine::Started {
                id,
                target,
                rule,
                protocol: *protocol,
                interval_ms: ms(*interval_ms),
                cap_ms: ms(*cap_ms),
                lasting_threshold_ms: opt_ms(*lasting_threshold_ms),
                seed: *seed,
            },
            Event::Launched {
                launch,
                attempt,
                at_ms,
                pid,
            } => EventLine::Launched {
                id,
                launch: *launch,
                attempt: *attempt,
                at_ms: ms(*at_ms),
                pid: *pid,
            },
            Event::Connected {
                launch,
                attempt,
                at_ms,
                handshake_ms,
                server,
            } => EventLine::Connected {
                id,
                launch: *launch,
                attempt: *attempt,
                at_ms: ms(*at_ms),
                handshake_ms: ms(*handshake_ms),
                server,
            },
            Event::Ended(l) => EventLine::Ended {
                id,
                launch: LaunchDoc::of(l),
            },
            Event::Alert {
                launch,
                attempt,
                text,
            } => EventLine::Alert {
                id,
                launch: *launch,
                attempt: *attempt,
                text,
            },
            Event::Waiting {
                next_attempt,
                wait,
                until_ms,
            } => EventLine::Waiting {
                id,
                next_attempt: *next_attempt,
                wait: WaitDoc::from(wait),
                until_ms: ms(*until_ms),
            },
            Event::Finished { finish, planned } => EventLine::Finished {
                id,
                finish: (*finish).into(),
                planned_next: planned.map(PlannedDoc::from),
            },
        }
    }

    /// The line for an entry that was not probed (`None` for a probed one).
    pub fn unprobed(s: &'a ServerReport) -> Option<Self> {
        let doc = UnprobedDoc::of(s)?;
        Some(match &s.result {
            ServerResult::CannotLaunch(_) => EventLine::CannotLaunch { doc },
            ServerResult::Refused { .. } => EventLine::Refused { doc },
            _ => EventLine::Skipped { doc },
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// Write one document as a line (`--events`) and flush.
pub fn write_line(out: &mut impl Write, doc: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string(doc).map_err(io::Error::other)?;
    out.write_all(super::sanitize::json(text).as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Write one document, pretty (`--json`), to stdout.
pub fn write_pretty(doc: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string_pretty(doc).map_err(io::Error::other)?;
    let mut out = io::stdout().lock();
    out.write_all(super::sanitize::json(text).as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_their_server_second() {
        let e = Event::Alert {
            launch: 6,
            attempt: 5,
            text: "MCPL server down (attempt 5): boom".into(),
        };
        let mut out = Vec::new();
        write_line(&mut out, &EventLine::of(&e, Some("files"))).expect("written");
        let v: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["event", "id", "launch", "attempt", "text"]);
        assert_eq!(v["event"], "alert");
        assert_eq!(v["id"], "files");
        assert_eq!(v["attempt"], 5);
        // Without `--all` there is no `id`.
        out.clear();
        write_line(&mut out, &EventLine::of(&e, None)).expect("written");
        assert!(!String::from_utf8_lossy(&out).contains("\"id\""));
    }

    #[test]
    fn lines_escape_what_could_fool_a_terminal() {
        let e = Event::Alert {
            launch: 1,
            attempt: 0,
            text: "a\u{202E}b\u{200B}c\u{85}d\u{1b}".into(),
        };
        let mut out = Vec::new();
        write_line(&mut out, &EventLine::of(&e, None)).expect("written");
        let s = String::from_utf8(out).expect("UTF-8");
        assert!(
            s.contains(r#""text":"a\u202eb\u200bc\u0085d\u001b""#),
            "{s}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).expect("JSON");
        assert_eq!(back["text"], "a\u{202E}b\u{200B}c\u{85}d\u{1b}");
    }

    #[test]
    fn times_are_rounded_and_infinity_is_null() {
        let v = serde_json::to_value([Ms(1.23456), Ms(f64::INFINITY), Ms(f64::NAN)]).expect("JSON");
        assert_eq!(v, serde_json::json!([1.235, null, null]));
    }

    #[test]
    fn an_ended_connection_says_how_in_words() {
        let v = serde_json::to_value(EndedDoc(&Ended::Exit { code: 3 })).expect("JSON");
        assert_eq!(v["kind"], "exit");
        assert_eq!(v["code"], 3);
        assert_eq!(v["text"], Ended::Exit { code: 3 }.to_string());
    }
}
