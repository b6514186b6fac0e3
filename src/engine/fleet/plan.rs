//! What a configuration entry resolves to before anything runs: the target the host would
//! launch or dial, its protocol, timings and secrets; or why the host does not start it
//! (skipped) or refuses it. `probe --config FILE --server ID` plans one entry, `--all` every
//! one.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::engine::config::{self, CheckOptions, Code, Finding, Report, ServerEntry, Transport};
use crate::engine::policy::{
    EngineKind, Preset, TimingField, Timings, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS,
};
use crate::engine::probe::{self, Protocol, StdioTarget, Target};
use crate::engine::redact::Redactor;

use super::report::Refusal;

/// A duration in ms as a `Duration`; infinite (or absurd) is 30 years.
pub(crate) fn duration(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms / 1000.0)
        .unwrap_or(Duration::from_secs(30 * 365 * 86_400))
        .min(Duration::from_secs(30 * 365 * 86_400))
}

/// What planning needs from the request: the rule, the timings given on the command line,
/// the opening timeout, the secrets to mask, whether disabled entries run.
#[derive(Debug, Clone)]
pub(crate) struct PlanOptions {
    /// The rule the probe follows (`--preset`, else `lasting`).
    pub rule: Preset,
    /// Whether `--preset` named it: else an entry of another host follows that host's rule
    /// ([`PlanOptions::rule_for`]).
    pub rule_given: bool,
    /// `--interval` and `--cap`, when given (ms).
    pub interval: Option<f64>,
    pub cap: Option<f64>,
    /// `--open-timeout` (ms).
    pub open_timeout_ms: f64,
    /// `--redact` values.
    pub redact: Vec<String>,
    /// `--include-disabled`.
    pub include_disabled: bool,
    /// `--transport`: the HTTP era to speak instead of detecting it.
    pub http_era: Option<probe::wire::http::Era>,
    /// `--host` (`None`: detected from the file).
    pub host: Option<config::Host>,
    /// `--workspace`: what `${workspaceFolder}` stands for.
    pub workspace: Option<std::path::PathBuf>,
    /// `--input ID=VALUE` values for `${input:ID}` (secrets).
    pub inputs: Vec<(String, String)>,
}

/// A configuration entry, as `--server` names it and where it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct EntryRef {
    /// The id, qualified by the object holding its table where that names a host
    /// (`prod/files`).
    pub id: String,
    /// `file:line:column` of the entry.
    pub at: String,
    /// Its JSON path (`$.hosts.prod.mcplServers.files`).
    pub path: String,
    /// The host whose dialect the file was read in (`--host`, or detected): `vscode`,
    /// `claude-code`, `agent-framework`...
    pub host: String,
}

/// One target, with everything its run needs.
pub(crate) struct Resolved {
    pub target: Target,
    pub protocol: Protocol,
    /// The rule it runs under (`--preset`, else its host's: [`PlanOptions::rule_for`]).
    pub rule: Preset,
    /// The timings the rule runs with (the command line's, else the entry's, else defaults).
    pub timings: Timings,
    /// `--redact` values plus the target's and the entry's own secrets.
    pub redactor: Redactor,
    /// The configuration entry it comes from, if any.
    pub entry: Option<EntryRef>,
}

/// Why a configuration cannot be planned at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlanError {
    #[error(transparent)]
    Load(#[from] config::LoadError),
    #[error("{file}: no server entries")]
    NoEntries { file: String },
    /// `--server` names no entry, or several: the message lists them.
    #[error("{0}")]
    NotFound(String),
    /// The named entry is one the host does not start on its own.
    #[error("{at}: server {id:?} is not probed: {why}")]
    Skipped { at: String, id: String, why: String },
    /// The host refuses the named entry: the checker's findings, one line each.
    #[error("{}", refused_lines(id, label, refusals))]
    Refused {
        file: String,
        id: String,
        label: String,
        refusals: Vec<Refusal>,
    },
    /// `--engine` asks a handshake the entry's transport never speaks.
    #[error(
        "{at}: server {id:?} is a {transport} server, which always speaks the {protocol} \
         handshake; leave out --engine"
    )]
    EngineFixed {
        at: String,
        id: String,
        transport: &'static str,
        protocol: &'static str,
    },
}

/// `file:line:column: server "id" refused by the host: message`, one line per refusal.
fn refused_lines(id: &str, label: &str, refusals: &[Refusal]) -> String {
    refusals
        .iter()
        .map(|r| format!("{}: server {id:?} {label}: {}", r.at, r.message))
        .collect::<Vec<_>>()
        .join("\n")
}

impl PlanError {
    /// What to do about it, when there is something to say.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            PlanError::Load(e) => e.hint(),
            PlanError::Refused { file, .. } => Some(format!(
                "`mcpl-doctor check-config {file}` lists every finding"
            )),
            _ => None,
        }
    }
}

impl PlanOptions {
    /// The `--redact` values.
    pub(crate) fn base_redactor(&self) -> Redactor {
        let mut redactor = Redactor::new();
        for r in &self.redact {
            redactor.add(r.clone());
        }
        for (_, v) in &self.inputs {
            redactor.add(v.clone());
        }
        redactor
    }

    /// How configuration files are read: `--host`, `--workspace`, `--input`.
    pub(crate) fn dialect(&self) -> config::Dialect<'_> {
        config::Dialect {
            host: self.host,
            workspace: self.workspace.clone(),
            inputs: &self.inputs,
        }
    }

    /// The rule an entry of `host` follows over stdio or a remote transport (`remote`):
    /// `--preset` when given, else that host's own (hosts.md 4.2: `claude-desktop`,
    /// `claude-code-stdio`, `cline-http`...), else agent-framework's.
    pub(crate) fn rule_for(&self, host: config::Host, remote: bool) -> Preset {
        if self.rule_given {
            return self.rule;
        }
        Preset::for_host(host.name(), remote).unwrap_or(self.rule)
    }

    /// The timings a run follows: `--interval`/`--cap` when given, else the entry's (host
    /// rules only), else the rule's defaults.
    pub(crate) fn timings_for(&self, entry: Option<Timings>) -> Timings {
        let defaults = match entry {
            Some(t) if self.rule.is_host_rule() => t,
            _ if self.rule.is_host_rule() => Timings {
                interval_ms: DEFAULT_INTERVAL_MS,
                cap_ms: DEFAULT_CAP_MS,
            },
            _ => self.rule.default_timings(),
        };
        Timings {
            interval_ms: self.interval.unwrap_or(defaults.interval_ms),
            cap_ms: self.cap.unwrap_or(defaults.cap_ms),
        }
    }

    /// `target` with `--open-timeout`, its secrets added to `redactor`.
    pub(crate) fn opened(&self, target: Target, redactor: &mut Redactor) -> Target {
        let target = match (target, self.http_era) {
            (Target::Http(t), Some(era)) => Target::Http(t.with_era(era)),
            (t, _) => t,
        };
        for s in target.secrets() {
            redactor.add(s);
        }
        target.with_open_timeout(duration(self.open_timeout_ms))
    }

    /// What the host does with timings it refuses at start (a value that reads as 0, below 0
    /// or not a number, under a rule of hosts with the lasting-connection fix): the probe says
    /// so and launches nothing. Under `handshake` such timings run, every wait after 1 ms.
    pub(crate) fn timing_refusal(
        &self,
        protocol: Protocol,
        timings: Timings,
    ) -> Option<TimingRefusal> {
        let policy = self.rule.policy_with(protocol.engine(), timings);
        let refusal = policy.timing_refusal()?;
        let flag = match refusal.field {
            TimingField::Interval if self.interval.is_some() => " (--interval)",
            TimingField::Cap if self.cap.is_some() => " (--cap)",
            _ => "",
        };
        Some(TimingRefusal {
            message: format!(
                "under rule {} the host refuses this server at start and raises mcpl-down at \
                 once: {}{flag} reads as {}, and a timing must be a number above 0; nothing was \
                 launched",
                policy.name,
                refusal.field.name(),
                refusal.reads_as,
            ),
        })
    }

    /// The rule `check-config` describes when `probe` decides which entries the host refuses:
    /// the probe's own rule when it is one of the host's, else #999's (`lasting`).
    pub(crate) fn check_preset(&self) -> Preset {
        if self.rule.is_host_rule() {
            self.rule
        } else {
            Preset::Lasting
        }
    }
}

/// Timings the host refuses at start (see [`PlanOptions::timing_refusal`]).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub(crate) struct TimingRefusal {
    pub message: String,
}

impl TimingRefusal {
    /// What to try instead.
    pub(crate) fn hint(&self) -> &'static str {
        "give a timing above 0, or --preset handshake to see what older hosts do (every wait \
         after 1 ms)"
    }
}

/// What `probe` does with one configuration entry.
pub(crate) enum EntryPlan {
    /// Probe it.
    Probe(Box<Resolved>),
    /// The host does not start it on its own (`disabled`, or a policy-only override): why.
    Skipped(String),
    /// `check-config` has errors for it (the host refuses it, or on main loops on it): the
    /// label, and the findings.
    Refused(String, Vec<Refusal>),
}

/// Where an entry is, for messages: `file:line:column`.
pub(crate) fn entry_at(entry: &ServerEntry) -> String {
    format!("{}:{}:{}", entry.file, entry.line, entry.column)
}

pub(crate) use super::report::INPUT_NOT_GIVEN;

/// The label of an entry the host refuses.
const REFUSED: &str = "refused by the host";

/// Decide what to do with `entry`, launched (or dialled) exactly as the host would: its
/// command and resolved args, the host's environment (allowlist or inheritEnv, plus the
/// entry's env), or its URL with the entry's token; its protocol and timings. Entries with
/// check-config errors in `report` are refused, with the checker's own findings.
pub(crate) fn plan_entry(entry: &ServerEntry, report: &Report, opts: &PlanOptions) -> EntryPlan {
    // Secrets first, so that every message below is masked.
    let mut redactor = opts.base_redactor();
    // Every env value may be a secret, unless it cannot be one (`"TIMEOUT": "5"` must not
    // mask every 5); what its shapes hold too (a JSON value's `Authorization`).
    for (_, v) in &entry.env {
        redactor.add_found(v.clone());
        for s in crate::engine::redact::secrets_in_text(v) {
            redactor.add(s);
        }
    }
    if let Some(t) = &entry.token {
        redactor.add(t.clone());
    }
    for (name, value) in &entry.headers {
        for s in probe::wire::endpoint::header_secrets(name, value) {
            redactor.add(s);
        }
    }
    for v in &entry.substituted {
        redactor.add_found(v.clone());
    }
    if entry.disabled && !opts.include_disabled {
        return EntryPlan::Skipped(
            "disabled, the host does not start it (--include-disabled probes it anyway)".into(),
        );
    }
    if entry.is_override {
        return EntryPlan::Skipped(
            "it only overrides policy fields of an entry defined elsewhere; probe the file that \
             defines it"
                .into(),
        );
    }
    let refusal = |code: Code, message: &str| Refusal {
        at: entry_at(entry),
        path: entry.path.clone(),
        code: code.as_str(),
        message: redactor.redact(message),
    };
    if !entry.missing_inputs.is_empty() {
        let names: Vec<String> = entry
            .missing_inputs
            .iter()
            .map(|i| format!("`{i}`"))
            .collect();
        let message = format!(
            "{} prompts for the input {} (`${{input:...}}`) when it starts this server; give \
             {} (the value is never shown); nothing was launched",
            entry.host.title(),
            names.join(", "),
            entry
                .missing_inputs
                .iter()
                .map(|i| format!("--input {i}=VALUE"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        return EntryPlan::Refused(
            "not launched".into(),
            vec![Refusal {
                at: entry_at(entry),
                path: entry.path.clone(),
                code: INPUT_NOT_GIVEN,
                message: redactor.redact(&message),
            }],
        );
    }
    if let Some(refusals) = checker_refusals(entry, report, opts, &redactor) {
        return EntryPlan::Refused(REFUSED.into(), refusals);
    }
    let (target, protocol) = match bound_target(entry) {
        Ok(t) => t,
        Err(why) => {
            return EntryPlan::Refused(
                REFUSED.into(),
                vec![refusal(Code::Binding, &why.to_string())],
            )
        }
    };
    let rule = opts.rule_for(entry.host, !matches!(target, Target::Stdio(_)));
    let opts = &PlanOptions {
        rule,
        ..opts.clone()
    };
    let timings = opts.timings_for(Some(entry.timings));
    if let Some(why) = opts.timing_refusal(protocol, timings) {
        return EntryPlan::Refused(
            REFUSED.into(),
            vec![refusal(Code::ReconnectTiming, &why.message)],
        );
    }
    let target = opts.opened(target, &mut redactor);
    EntryPlan::Probe(Box::new(Resolved {
        target,
        protocol,
        rule,
        timings,
        redactor,
        entry: Some(EntryRef {
            id: qualified_id(entry),
            at: entry_at(entry),
            path: entry.path.clone(),
            host: entry.host.name().to_string(),
        }),
    }))
}

/// The checker's errors about `entry` (a timing refused at start is not one under
/// `handshake`: older hosts run it, and so does the probe), or its binding error when the
/// checker has none; `None` when the entry binds and has no error.
fn checker_refusals(
    entry: &ServerEntry,
    report: &Report,
    opts: &PlanOptions,
    redactor: &Redactor,
) -> Option<Vec<Refusal>> {
    let runs_bad_timings = opts.check_preset() == Preset::Handshake;
    let errors: Vec<&Finding> = report
        .errors_for(entry)
        .filter(|f| !(runs_bad_timings && f.code == Code::ReconnectTiming))
        .collect();
    let mut refusals: Vec<Refusal> = errors
        .iter()
        .map(|f| Refusal {
            at: format!("{}:{}:{}", f.file, f.line, f.column),
            path: f.path.clone(),
            code: f.code.as_str(),
            message: redactor.redact(&f.message),
        })
        .collect();
    if let (Err(why), true) = (&entry.binding, refusals.is_empty()) {
        refusals.push(Refusal {
            at: entry_at(entry),
            path: entry.path.clone(),
            code: Code::Binding.as_str(),
            message: redactor.redact(&why.0),
        });
    }
    (!refusals.is_empty()).then_some(refusals)
}

/// Why the host cannot launch or dial a bound entry (unredacted).
#[derive(Debug, thiserror::Error)]
enum Unbound {
    /// The checker's refusal.
    #[error(transparent)]
    Refused(#[from] config::BindingRefusal),
    #[error("the stdio transport requires command")]
    NoCommand,
    /// The transport named (`websocket`, `http`).
    #[error("the {0} transport requires url")]
    NoUrl(&'static str),
    /// A URL the probe cannot dial.
    #[error(transparent)]
    Url(#[from] probe::LaunchError),
}

/// The target the host launches or dials for a bound entry, and its protocol; or why it
/// cannot.
fn bound_target(entry: &ServerEntry) -> Result<(Target, Protocol), Unbound> {
    let binding = entry.binding.as_ref().map_err(Clone::clone)?;
    match binding.transport {
        Transport::Stdio => {
            let Some(command) = &binding.command else {
                return Err(Unbound::NoCommand);
            };
            let env = probe::wire::hostenv::build_for(
                entry.env_rule,
                std::env::vars_os(),
                entry.inherit_env,
                &entry.env,
                &entry.env_unset,
            );
            let target = Target::Stdio(StdioTarget {
                command: command.into(),
                args: binding.args.iter().map(OsString::from).collect(),
                env: Some(env),
                cwd: entry.cwd.clone(),
                client: match entry.host {
                    config::Host::AgentFramework => {
                        probe::session::initialize::Client::AgentFramework
                    }
                    _ => probe::session::initialize::Client::Mcp,
                },
            });
            let protocol = match binding.family {
                EngineKind::Legacy => Protocol::Legacy,
                EngineKind::Modern => Protocol::Modern,
            };
            Ok((target, protocol))
        }
        Transport::Websocket | Transport::Http => {
            let Some(url) = &binding.url else {
                return Err(Unbound::NoUrl(binding.transport.as_str()));
            };
            let (target, protocol) = probe::wire::urls::target_for_url(url, entry.token.clone())?;
            let target = match target {
                Target::Http(t) => {
                    let t = t.with_headers(entry.headers.clone());
                    Target::Http(if binding.sse {
                        t.with_era(probe::wire::http::Era::Sse)
                    } else {
                        t
                    })
                }
                t => t,
            };
            Ok((target, protocol))
        }
    }
}

/// Load `file` and check it the way `check-config` would under the probe's rule.
pub(crate) fn load_config(
    file: &Path,
    opts: &PlanOptions,
) -> Result<(Vec<ServerEntry>, Report), PlanError> {
    let options = CheckOptions {
        preset: opts.check_preset(),
        env: &config::process_env,
        dialect: opts.dialect(),
        platforms: crate::engine::config::Platforms::current(),
    };
    let (entries, report) = config::load_and_check(file, &options)?;
    if entries.is_empty() {
        return Err(PlanError::NoEntries {
            file: file.display().to_string(),
        });
    }
    Ok((entries, report))
}

/// How `--server` names an entry: `prod/files` for the entry `files` under a `prod` object
/// (the object that holds its server table), else its id.
pub(crate) fn qualified_id(entry: &ServerEntry) -> String {
    // `$.hosts.prod.mcplServers.files`: the step before the table key, if it is a plain name.
    let steps: Vec<&str> = entry.path.trim_start_matches('$').split('.').collect();
    match steps.len().checked_sub(3).and_then(|i| steps.get(i)) {
        Some(host) if !host.is_empty() && !host.contains('[') => format!("{host}/{}", entry.id),
        _ => entry.id.clone(),
    }
}

/// The entry `--server` names: its id, its qualified id (`prod/files`) or its JSON path. The
/// host keeps the last of the same id in one table; two entries of the same id in different
/// tables or hosts are ambiguous, and the message lists them.
pub(crate) fn find_entry<'a>(
    file: &Path,
    id: &str,
    entries: &'a [ServerEntry],
) -> Result<&'a ServerEntry, PlanError> {
    let mut found: Vec<&ServerEntry> = Vec::new();
    for e in entries.iter().rev() {
        let named = e.id == id || e.path == id || qualified_id(e) == id;
        if named && !found.iter().any(|f| f.path == e.path) {
            found.push(e);
        }
    }
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(PlanError::NotFound(unknown_server(file, id, entries))),
        many => {
            let mut list: Vec<String> = many
                .iter()
                .rev()
                .map(|e| format!("  {}  ({})", qualified_id(e), e.path))
                .collect();
            list.dedup();
            Err(PlanError::NotFound(format!(
                "{}: {} entries are named {id:?}; give one of these to --server:\n{}",
                file.display(),
                many.len(),
                list.join("\n")
            )))
        }
    }
}

/// `no server "x" (servers: a, prod/files, staging/files)`: ids, qualified where two entries
/// share one.
fn unknown_server(file: &Path, id: &str, entries: &[ServerEntry]) -> String {
    let shared = |e: &ServerEntry| entries.iter().any(|o| o.id == e.id && o.path != e.path);
    let mut ids: Vec<String> = entries
        .iter()
        .map(|e| {
            if shared(e) {
                qualified_id(e)
            } else {
                e.id.clone()
            }
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let display = if file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    let near = ids
        .iter()
        .map(|n| (crate::engine::config::fields::distance(id, n), n))
        .filter(|(d, n)| *d <= 2.max(n.chars().count() / 5))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| format!("; did you mean {n}?"))
        .unwrap_or_default();
    format!(
        "{display}: no server {id:?} (servers: {}){near}",
        ids.join(", ")
    )
}

/// One selected entry, planned, before it runs.
pub(crate) struct Item {
    /// Its position among the file's entries (0-based): its jitter seed is the run's seed plus
    /// this, so servers do not relaunch in lockstep and each one's waits can be repeated alone
    /// with `--server ID --seed N`.
    pub position: u64,
    /// How the report names it: its id, with its JSON path when the id is not unique among
    /// the selected entries.
    pub name: String,
    /// `stdio`, `websocket`, `http`, or `-` when the host cannot bind it.
    pub transport: String,
    /// `file:line:column` of the entry.
    pub at: String,
    /// The entry's JSON path.
    pub path: String,
    /// The host whose dialect the file was read in (`--host`, or detected).
    pub host: config::Host,
    pub plan: EntryPlan,
}

/// Which entries of a configuration to probe.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Selection<'a> {
    /// Every entry, in the file's order (`--all`).
    All,
    /// The entries these ids name, in the order given (several `--server`; the last entry of
    /// each id, as the host keeps; an id given twice counts once).
    Ids(&'a [String]),
}

/// The entries `selection` picks from `file`, each planned.
pub(crate) fn select(
    file: &Path,
    selection: Selection<'_>,
    opts: &PlanOptions,
) -> Result<Vec<Item>, PlanError> {
    let (entries, report) = load_config(file, opts)?;
    let selected: Vec<&ServerEntry> = match selection {
        Selection::All => entries.iter().collect(),
        Selection::Ids(ids) => {
            let mut out: Vec<&ServerEntry> = Vec::new();
            for id in ids {
                let entry = find_entry(file, id, &entries)?;
                if !out.iter().any(|e| std::ptr::eq(*e, entry)) {
                    out.push(entry);
                }
            }
            out
        }
    };
    let position = |entry: &ServerEntry| {
        entries
            .iter()
            .position(|e| std::ptr::eq(e, entry))
            .unwrap_or(0) as u64
    };
    Ok(selected
        .iter()
        .map(|entry| {
            let unique = selected.iter().filter(|e| e.id == entry.id).count() == 1;
            let name = if unique {
                entry.id.clone()
            } else {
                format!("{} ({})", entry.id, entry.path)
            };
            let plan = plan_entry(entry, &report, opts);
            let transport = match &plan {
                EntryPlan::Probe(r) => r.target.transport().to_string(),
                _ => entry
                    .binding
                    .as_ref()
                    .map_or("-".to_string(), |b| b.transport.as_str().to_string()),
            };
            Item {
                position: position(entry),
                name,
                transport,
                at: entry_at(entry),
                path: entry.path.clone(),
                host: entry.host,
                plan,
            }
        })
        .collect())
}
