//! `probe --config FILE --all --json` (and several `--server`): every probed server's
//! single-server document with where its entry is, the entries that were not probed and why,
//! and the counts.

use std::io::{self};

use schemars::JsonSchema;
use serde::Serialize;

use super::ms::{ms, Ms};
use super::probe::{ProbeDoc, SCHEMA_VERSION};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::{counts, AllContext, Refusal, ServerReport, ServerResult};
use crate::engine::probe::runner::verdict::{self};
use crate::render::units::rfc3339;

// ---------------------------------------------------------------------------------------------
// Every server of a configuration file (`--all`, several `--server`).

/// A probed server of `--all`: where its entry is, then its single-server document.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ServerDoc<'a> {
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
pub(crate) struct RefusalDoc<'a> {
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
pub(crate) struct UnprobedDoc<'a> {
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
    pub(crate) fn of(s: &'a ServerReport) -> Option<Self> {
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
pub(crate) struct SummaryDoc {
    pub entries: usize,
    pub probed: usize,
    pub stayed_up: usize,
    /// Of those that stayed up, how many have a finding about their opening
    /// (`opening.findings`): they count against a clean exit too.
    pub stayed_up_with_findings: usize,
    pub did_not_stay_up: usize,
    /// Probed with nothing to judge (`--for` ended before any handshake): not counted in
    /// `did_not_stay_up`, and no finding (the run exits 2, as one server does).
    pub nothing_judged: usize,
    pub cannot_launch: usize,
    pub refused: usize,
    /// Of `refused`: not launched only for an `${input:ID}` no `--input` gives.
    pub needs_input: usize,
    pub skipped: usize,
    /// The longest single server's run.
    pub slowest_server_ms: Ms,
    /// Every server's run, one after another (what running them in parallel saved).
    pub servers_one_after_another_ms: Ms,
}

/// `probe --config FILE --all --format json` (and several `--server`).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct AllDoc<'a> {
    pub schema_version: u32,
    /// Always `probe`.
    pub command: &'static str,
    /// The configuration file as named.
    pub config: &'a str,
    /// The rule every probed server followed, when they all followed one; `null` when the
    /// entries ran different rules (a VS Code file's stdio entries `vscode`, its URLs
    /// `vscode-http`) or none was probed: `rules` names them.
    pub rule: Option<&'static str>,
    /// The rules the probed servers followed, each once, in the order of their entries (each
    /// server's own is its document's `rule`).
    pub rules: Vec<&'static str>,
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
    pub(crate) fn of(servers: &'a [ServerReport], ctx: &AllContext<'a>) -> Self {
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
            rule: ctx.rule().map(|r| r.name()),
            rules: ctx.rules.iter().map(|r| r.name()).collect(),
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
                nothing_judged: c.nothing_judged,
                cannot_launch: c.cannot_launch,
                refused: c.refused,
                needs_input: c.needs_input,
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

/// What `probe --format json` prints: one server's document, or every server's (`--all`). Only the
/// schema tells them apart by name; the documents themselves differ by their members
/// (`target` for one server, `config` and `servers` for `--all`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
#[expect(
    dead_code,
    reason = "only its schema is written: each variant's document is built on its own"
)]
pub(crate) enum ProbeJson<'a> {
    One(Box<ProbeDoc<'a>>),
    All(Box<AllDoc<'a>>),
    NotProbed(Box<NotProbedDoc<'a>>),
}

/// Write the `--format json` document of every server.
pub(crate) fn write_json(servers: &[ServerReport], ctx: &AllContext<'_>) -> io::Result<()> {
    super::write::write_pretty(&AllDoc::of(servers, ctx))
}

/// `probe --format json` for one server that was not probed: its command cannot be launched
/// (`not_probed: "cannot-launch"`, with `diagnoses`), or the host refuses (`"refused"`, with
/// `findings`) or does not start (`"skipped"`) the entry `--server ID` names. The run still
/// exits 2, as documented; the same words are on stderr.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NotProbedDoc<'a> {
    pub schema_version: u32,
    /// Always `probe`.
    pub command: &'static str,
    /// `cannot-launch`, `refused` or `skipped`.
    pub not_probed: &'static str,
    /// The command or URL that could not be launched (redacted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<&'a str>,
    /// The configuration entry (`--config FILE --server ID`), by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The error, as on stderr (redacted).
    pub error: &'a str,
    /// What to do about it, as on stderr.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<&'a str>,
    /// The checker's findings that keep a refused entry from being probed.
    pub findings: Vec<RefusalDoc<'a>>,
    /// The likely causes of a launch error, the surest first.
    pub diagnoses: &'a [Diagnosis],
}

/// Write a [`NotProbedDoc`].
pub(crate) fn write_not_probed(doc: &NotProbedDoc<'_>) -> io::Result<()> {
    super::write::write_pretty(doc)
}
