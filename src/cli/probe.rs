//! `mcpl-doctor probe`: launch a real server, play the host, give a verdict.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::vocab::{parse_positive, parse_timing, EngineArg, FormatArg, PresetArg};
use crate::engine::config::{self, CheckOptions, Code, Finding, Report, ServerEntry, Transport};
use crate::engine::diagnosis;
use crate::engine::policy::{
    EngineKind, Preset, TimingField, Timings, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS,
};
use crate::engine::probe::{
    self, verdict, AttemptOptions, Event, Finish, PingOptions, Protocol, RunOptions, StdioTarget,
    StopHandle, StopLevel, StopSignal, Target,
};
use crate::engine::redact::Redactor;
use crate::exit;
use crate::render::probe::{self as view, Bounds, Context, EntryRef, LiveLine};
use crate::render::probe_all::Refusal;
use crate::render::probe_json::{self as events_view, EventLine, ProbeDoc};
use crate::render::report;
use crate::render::{ColorChoice, StopCause};

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("selection").args(["server", "all"])))]
#[command(override_usage = "\
mcpl-doctor probe [OPTIONS] -- <COMMAND>...
       mcpl-doctor probe [OPTIONS] --url <URL> [--token <TOKEN>]
       mcpl-doctor probe [OPTIONS] --config <FILE> <--server <ID>...|--all>")]
#[command(after_help = "\
Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d) and
inf are accepted.

Exit status: 0 the server stayed up (with --all: every server), 1 it flapped or never connected
(with --all: any server did, or the host refuses an entry), 2 usage or launch error, 130
interrupted (Ctrl-C once stops the servers gracefully and prints the report so far; twice kills
them at once), 143 terminated (SIGTERM, likewise), 129 hung up (SIGHUP). A closed stdout (`|
head`) stops the servers and exits 0.

Examples:
  mcpl-doctor probe -- node server.mjs
  mcpl-doctor probe --preset reset-on-handshake --interval 200ms --for 8s -- node server.mjs
  mcpl-doctor probe --until-down --interval 200ms -- ./my-server --stdio
  mcpl-doctor probe --url ws://127.0.0.1:8080/mcpl --token \"$MCPL_TOKEN\"
  mcpl-doctor probe --config mcpl-servers.json --server files
  mcpl-doctor probe --config mcpl-servers.json --all --launches 3")]
pub struct ProbeArgs {
    /// The server's command and arguments, after `--`. With a bare command the server gets the
    /// caller's environment.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,

    /// A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket),
    /// http:// or https:// (modern MCP over HTTP).
    #[arg(short = 'u', long, value_name = "URL", conflicts_with_all = ["command", "config"])]
    pub url: Option<String>,

    /// The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization:
    /// Bearer`. Never shown in any output.
    #[arg(long, value_name = "TOKEN", requires = "url", conflicts_with_all = ["command", "config"])]
    pub token: Option<String>,

    /// How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket),
    /// the dial of each request (HTTP).
    #[arg(long, value_name = "DUR", default_value = "15s", value_parser = parse_positive)]
    pub open_timeout: f64,

    /// A host configuration file to take server entries from (with --server or --all); `-`
    /// reads standard input.
    #[arg(
        short = 'c',
        long,
        value_name = "FILE",
        requires = "selection",
        conflicts_with = "command"
    )]
    pub config: Option<PathBuf>,

    /// An entry of --config: its id, or where it is when two share an id (`prod/files` for the
    /// entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it
    /// to probe several entries at once.
    #[arg(short = 's', long, value_name = "ID", requires = "config")]
    pub server: Vec<String>,

    /// Probe every entry of --config at once (disabled entries and policy-only overrides are
    /// skipped, entries the host would refuse are reported and not probed).
    #[arg(short = 'a', long, requires = "config")]
    pub all: bool,

    /// Probe entries the host does not start (`disabled`) too, to debug them.
    #[arg(long, requires = "config")]
    pub include_disabled: bool,

    /// Which of the host's engines a command speaks to: legacy (MCP 2024-11-05 initialize with
    /// MCPL) or modern (server/discover, 2026-07-28). Default: the entry's `protocol`, else
    /// legacy. A URL's scheme decides for itself.
    #[arg(short = 'e', long, value_enum, conflicts_with_all = ["url", "all"], alias = "protocol")]
    pub engine: Option<EngineArg>,

    /// The host's reconnect rule.
    #[arg(short = 'p', long, value_enum, value_name = "RULE", default_value_t = PresetArg::Lasting)]
    pub preset: PresetArg,

    /// The backoff's base. Default: the entry's reconnectIntervalMs, else 5 s. With several
    /// entries it applies to all of them.
    #[arg(short = 'i', long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true)]
    pub interval: Option<f64>,

    /// The backoff's ceiling. Default: the entry's reconnectMaxIntervalMs, else 5 min. With
    /// several entries it applies to all of them.
    #[arg(long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true)]
    pub cap: Option<f64>,

    /// Seed for the wait's jitter, to repeat a run's waits. Default: random, printed. With
    /// several servers each uses N plus its entry's position in the file (shown in its report).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Stop after N launches (of each server) [default: 5, or no limit with --for or
    /// --until-down].
    #[arg(short = 'n', long, value_name = "N", alias = "attempts", value_parser = clap::value_parser!(u32).range(1..))]
    pub launches: Option<u32>,

    /// Stop after this long (a pending wait is cut; the planned next launch is reported). With
    /// several servers, one deadline for all.
    #[arg(short = 't', long = "for", value_name = "DUR", value_parser = parse_positive, alias = "span")]
    pub run_for: Option<f64>,

    /// Stop once the host would raise mcpl-down.
    #[arg(long)]
    pub until_down: bool,

    /// Stop when a connection is still up this long after its handshake.
    #[arg(short = 'w', long, value_name = "DUR", default_value = "30s", value_parser = parse_positive)]
    pub watch: f64,

    /// A handshake not completed this long after launch is a failed attempt.
    #[arg(long, value_name = "DUR", default_value = "30s", value_parser = parse_positive)]
    pub handshake_timeout: f64,

    /// Send a JSON-RPC ping this often while connected.
    #[arg(long, value_name = "DUR", value_parser = parse_positive)]
    pub ping_every: Option<f64>,

    /// A ping unanswered this long ends the connection as "stopped answering".
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_positive)]
    pub ping_timeout: f64,

    /// Stop talking after the handshake: no featureSets/update, tools/list or subscription (for
    /// a server known to misbehave on them).
    #[arg(long)]
    pub handshake_only: bool,

    /// A secret to mask in all output (repeatable). The entry's env values and token are masked
    /// anyway.
    #[arg(long, value_name = "VALUE")]
    pub redact: Vec<String>,

    /// Output: human (the report), json (one document with schema_version at the end), events
    /// (JSON lines as things happen, the last one the whole report).
    #[arg(short = 'f', long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human)]
    pub format: FormatArg,

    /// The same as --format json (kept for scripts).
    #[arg(long, hide = true, conflicts_with = "events")]
    pub json: bool,

    /// The same as --format events (kept for scripts).
    #[arg(long, hide = true)]
    pub events: bool,

    /// Also write a self-contained HTML report (timeline, launches, verdict, predictions) to
    /// FILE, to open in a browser or attach to an incident (with --all: every server on one
    /// page).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,

    /// Also write the timeline alone as an SVG picture to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,
}

/// Write `--report` and `--svg` for a run; an error names the file.
pub(crate) fn write_pictures(
    args: &ProbeArgs,
    html: &dyn Fn() -> String,
    svg: &dyn Fn() -> String,
) -> Result<(), String> {
    use crate::render::report::write_file;
    if let Some(path) = &args.report {
        write_file(path, &html())?;
    }
    if let Some(path) = &args.svg {
        write_file(path, &svg())?;
    }
    Ok(())
}

impl ProbeArgs {
    /// Fold the old spellings (`--json`, `--events`) into `--format`, and `--format` into the
    /// two switches the runners read.
    pub(crate) fn normalise(&mut self) {
        match self.format {
            FormatArg::Json => self.json = true,
            FormatArg::Events => self.events = true,
            FormatArg::Human => {}
        }
        if self.json && self.events {
            self.events = false;
        }
    }

    /// The rule, as the engine names it.
    pub(crate) fn rule(&self) -> Preset {
        self.preset.into()
    }
}

impl From<EngineArg> for Protocol {
    fn from(p: EngineArg) -> Protocol {
        match p {
            EngineArg::Legacy => Protocol::Legacy,
            EngineArg::Modern => Protocol::Modern,
        }
    }
}

/// A duration in ms as a `Duration`; infinite (or absurd) is 30 years.
pub(crate) fn duration(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms / 1000.0)
        .unwrap_or(Duration::from_secs(30 * 365 * 86_400))
        .min(Duration::from_secs(30 * 365 * 86_400))
}

/// What the command line resolves to before anything runs: one target, with everything its run
/// needs.
pub(crate) struct Resolved {
    pub target: Target,
    pub protocol: Protocol,
    /// The timings the rule runs with (the command line's, else the entry's, else defaults).
    pub timings: Timings,
    /// `--redact` values plus the target's and the entry's own secrets.
    pub redactor: Redactor,
    /// The configuration entry it comes from (`--config FILE --server ID`).
    pub entry: Option<EntryRef>,
}

/// The warning for `--redact` values too short to mask everywhere, if any.
pub(crate) fn short_redact_warning(args: &ProbeArgs) -> Option<String> {
    let short = args
        .redact
        .iter()
        .filter(|r| r.chars().count() < crate::engine::redact::MIN_SECRET_LEN)
        .count();
    let empty = args.redact.iter().filter(|r| r.is_empty()).count();
    match (short - empty, empty) {
        (0, 0) => None,
        (0, _) => Some("warning: an empty --redact value masks nothing".into()),
        (n, _) => Some(format!(
            "warning: {} shorter than {} characters: masked only where {} alone, not inside \
             longer words or numbers",
            if n == 1 {
                "a --redact value is".to_string()
            } else {
                format!("{n} --redact values are")
            },
            crate::engine::redact::MIN_SECRET_LEN,
            if n == 1 { "it stands" } else { "they stand" },
        )),
    }
}

/// The `--redact` values.
pub(crate) fn base_redactor(args: &ProbeArgs) -> Redactor {
    let mut redactor = Redactor::new();
    for r in &args.redact {
        redactor.add(r.clone());
    }
    redactor
}

/// The timings a run follows: `--interval`/`--cap` when given, else the entry's (host rules
/// only), else the rule's defaults.
pub(crate) fn timings_for(args: &ProbeArgs, entry: Option<Timings>) -> Timings {
    let defaults = match entry {
        Some(t) if args.rule().is_host_rule() => t,
        _ if args.rule().is_host_rule() => Timings {
            interval_ms: DEFAULT_INTERVAL_MS,
            cap_ms: DEFAULT_CAP_MS,
        },
        _ => args.rule().default_timings(),
    };
    Timings {
        interval_ms: args.interval.unwrap_or(defaults.interval_ms),
        cap_ms: args.cap.unwrap_or(defaults.cap_ms),
    }
}

/// `target` with `--open-timeout`, its secrets added to `redactor`.
fn opened(target: Target, args: &ProbeArgs, redactor: &mut Redactor) -> Target {
    for s in target.secrets() {
        redactor.add(s);
    }
    target.with_open_timeout(duration(args.open_timeout))
}

fn resolve(args: &ProbeArgs) -> Result<Resolved, String> {
    let mut redactor = base_redactor(args);
    if let Some(url) = &args.url {
        if let Some(t) = &args.token {
            redactor.add(t.clone());
        }
        let (target, protocol) =
            probe::urls::target_for_url(url, args.token.clone()).map_err(|e| e.to_string())?;
        let target = opened(target, args, &mut redactor);
        let timings = timings_for(args, None);
        if let Some(why) = timing_refusal(args, protocol, timings) {
            return Err(why);
        }
        return Ok(Resolved {
            target,
            protocol,
            timings,
            redactor,
            entry: None,
        });
    }
    if let (Some(file), [id]) = (&args.config, args.server.as_slice()) {
        return from_config(file, id, args);
    }
    let Some((command, rest)) = args.command.split_first() else {
        return Err(
            "nothing to probe: give one of\n  \
             mcpl-doctor probe -- COMMAND [ARGS...]             launch a server\n  \
             mcpl-doctor probe --url URL                        dial a ws://, wss://, http:// or https:// server\n  \
             mcpl-doctor probe --config FILE --server ID|--all  entries of a host configuration"
                .into(),
        );
    };
    let target = Target::Stdio(StdioTarget {
        command: command.clone(),
        args: rest.to_vec(),
        env: None,
        cwd: None,
    });
    let protocol = args.engine.map_or(Protocol::Legacy, Protocol::from);
    let timings = timings_for(args, None);
    if let Some(why) = timing_refusal(args, protocol, timings) {
        return Err(why);
    }
    let target = opened(target, args, &mut redactor);
    Ok(Resolved {
        target,
        protocol,
        timings,
        redactor,
        entry: None,
    })
}

/// What the host does with timings it refuses at start (a value that reads as 0, below 0 or
/// not a number, under a rule of hosts with the lasting-connection fix): the probe says so and
/// launches nothing. Under `handshake` such timings run, every wait after 1 ms.
pub(crate) fn timing_refusal(
    args: &ProbeArgs,
    protocol: Protocol,
    timings: Timings,
) -> Option<String> {
    let policy = args.rule().policy_with(protocol.engine(), timings);
    let refusal = policy.timing_refusal()?;
    let flag = match refusal.field {
        TimingField::Interval if args.interval.is_some() => " (--interval)",
        TimingField::Cap if args.cap.is_some() => " (--cap)",
        _ => "",
    };
    Some(format!(
        "under rule {} the host refuses this server at start and raises mcpl-down at once: \
         {}{flag} reads as {}, and a timing must be a number above 0; nothing was launched\n\
         hint: give a timing above 0, or --preset handshake to see what older hosts do (every \
         wait after 1 ms)",
        policy.name,
        refusal.field.name(),
        refusal.reads_as,
    ))
}

/// The rule `check-config` describes when `probe` decides which entries the host refuses: the
/// probe's own rule when it is one of the host's, else #999's (`lasting`).
pub(crate) fn check_preset(preset: Preset) -> Preset {
    if preset.is_host_rule() {
        preset
    } else {
        Preset::Lasting
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

/// Decide what to do with `entry`, launched (or dialled) exactly as the host would: its command
/// and resolved args, the host's environment (allowlist or inheritEnv, plus the entry's env), or
/// its URL with the entry's token; its protocol and timings. Entries with check-config errors in
/// `report` are refused, with the checker's own findings.
pub(crate) fn plan_entry(entry: &ServerEntry, report: &Report, args: &ProbeArgs) -> EntryPlan {
    // Secrets first, so that every message below is masked.
    let mut redactor = base_redactor(args);
    for (_, v) in &entry.env {
        redactor.add(v.clone());
    }
    if let Some(t) = &entry.token {
        redactor.add(t.clone());
    }
    for v in &entry.substituted {
        redactor.add(v.clone());
    }
    if entry.disabled && !args.include_disabled {
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
    // A timing the host refuses at start is refused here too, except under `handshake`
    // (older hosts): there the host runs every wait after 1 ms, and so does the probe.
    let runs_bad_timings = check_preset(args.rule()) == Preset::Handshake;
    let errors: Vec<&Finding> = report
        .errors_for(entry)
        .filter(|f| !(runs_bad_timings && f.code == Code::ReconnectTiming))
        .collect();
    let label = "refused by the host";
    let mut refusals: Vec<Refusal> = errors
        .iter()
        .map(|f| Refusal {
            at: format!("{}:{}:{}", f.file, f.line, f.column),
            path: f.path.clone(),
            code: f.code.as_str(),
            message: redactor.redact(&f.message),
        })
        .collect();
    let binding = match &entry.binding {
        Ok(b) => b,
        Err(why) => {
            if refusals.is_empty() {
                refusals.push(Refusal {
                    at: entry_at(entry),
                    path: entry.path.clone(),
                    code: Code::Binding.as_str(),
                    message: redactor.redact(why),
                });
            }
            return EntryPlan::Refused(label.into(), refusals);
        }
    };
    if !refusals.is_empty() {
        return EntryPlan::Refused(label.into(), refusals);
    }
    let refused = |message: String| {
        EntryPlan::Refused(
            "refused by the host".into(),
            vec![Refusal {
                at: entry_at(entry),
                path: entry.path.clone(),
                code: Code::Binding.as_str(),
                message: redactor.redact(&message),
            }],
        )
    };
    let (target, protocol) = match binding.transport {
        Transport::Stdio => {
            let Some(command) = &binding.command else {
                return refused("the stdio transport requires command".into());
            };
            let env = probe::hostenv::build(std::env::vars_os(), entry.inherit_env, &entry.env);
            let target = Target::Stdio(StdioTarget {
                command: command.into(),
                args: binding.args.iter().map(OsString::from).collect(),
                env: Some(env),
                cwd: None,
            });
            let protocol = match binding.family {
                EngineKind::Legacy => Protocol::Legacy,
                EngineKind::Modern => Protocol::Modern,
            };
            (target, protocol)
        }
        Transport::Websocket | Transport::Http => {
            let Some(url) = &binding.url else {
                return refused(format!(
                    "the {} transport requires url",
                    binding.transport.as_str()
                ));
            };
            match probe::urls::target_for_url(url, entry.token.clone()) {
                Ok(t) => t,
                Err(e) => return refused(e.to_string()),
            }
        }
    };
    let timings = timings_for(args, Some(entry.timings));
    if let Some(why) = timing_refusal(args, protocol, timings) {
        let first_line = why.lines().next().unwrap_or_default().to_string();
        return EntryPlan::Refused(
            label.into(),
            vec![Refusal {
                at: entry_at(entry),
                path: entry.path.clone(),
                code: Code::ReconnectTiming.as_str(),
                message: redactor.redact(&first_line),
            }],
        );
    }
    let target = opened(target, args, &mut redactor);
    EntryPlan::Probe(Box::new(Resolved {
        target,
        protocol,
        timings,
        redactor,
        entry: Some(EntryRef {
            id: qualified_id(entry),
            at: entry_at(entry),
            path: entry.path.clone(),
        }),
    }))
}

/// Load `file` and check it the way `check-config` would under the probe's rule.
pub(crate) fn load_config(
    file: &std::path::Path,
    args: &ProbeArgs,
) -> Result<(Vec<ServerEntry>, Report), String> {
    let options = CheckOptions {
        preset: check_preset(args.rule()),
        env: &config::process_env,
    };
    let (entries, report) = config::load_and_check(file, &options).map_err(|e| match e.hint() {
        Some(hint) => format!("{e}\nhint: {hint}"),
        None => e.to_string(),
    })?;
    if entries.is_empty() {
        return Err(format!("{}: no server entries", file.display()));
    }
    Ok((entries, report))
}

/// How `--server` names an entry: `prod/files` for the entry `files` under a `prod` object (the
/// object that holds its server table), else its id.
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
    file: &std::path::Path,
    id: &str,
    entries: &'a [ServerEntry],
) -> Result<&'a ServerEntry, String> {
    let mut found: Vec<&ServerEntry> = Vec::new();
    for e in entries.iter().rev() {
        let named = e.id == id || e.path == id || qualified_id(e) == id;
        if named && !found.iter().any(|f| f.path == e.path) {
            found.push(e);
        }
    }
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(unknown_server(file, id, entries)),
        many => {
            let mut list: Vec<String> = many
                .iter()
                .rev()
                .map(|e| format!("  {}  ({})", qualified_id(e), e.path))
                .collect();
            list.dedup();
            Err(format!(
                "{}: {} entries are named {id:?}; give one of these to --server:\n{}",
                file.display(),
                many.len(),
                list.join("\n")
            ))
        }
    }
}

/// `no server "x" (servers: a, prod/files, staging/files)`: ids, qualified where two entries
/// share one.
pub(crate) fn unknown_server(file: &std::path::Path, id: &str, entries: &[ServerEntry]) -> String {
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
    format!("{display}: no server {id:?} (servers: {})", ids.join(", "))
}

/// The entry `id` of `file` (the last of that id, as the host keeps), ready to probe, or why
/// not (exit 2: the probe cannot do what was asked).
fn from_config(file: &std::path::Path, id: &str, args: &ProbeArgs) -> Result<Resolved, String> {
    let (entries, report) = load_config(file, args)?;
    let entry = find_entry(file, id, &entries)?;
    let at = entry_at(entry);
    match plan_entry(entry, &report, args) {
        EntryPlan::Probe(mut resolved) => {
            if let Some(p) = args.engine {
                if matches!(resolved.target, Target::Stdio(_)) {
                    resolved.protocol = p.into();
                } else if Protocol::from(p) != resolved.protocol {
                    return Err(format!(
                        "{at}: server {id:?} is a {} server, which always speaks the {} \
                         handshake; leave out --engine",
                        resolved.target.transport(),
                        resolved.protocol.name()
                    ));
                }
            }
            Ok(*resolved)
        }
        EntryPlan::Skipped(why) => Err(format!("{at}: server {id:?} is not probed: {why}")),
        EntryPlan::Refused(label, refusals) => {
            let mut text = String::new();
            for (i, r) in refusals.iter().enumerate() {
                if i > 0 {
                    text.push('\n');
                }
                text.push_str(&format!("{}: server {id:?} {label}: {}", r.at, r.message));
            }
            text.push_str(&format!(
                "\nhint: `mcpl-doctor check-config {}` lists every finding",
                file.display()
            ));
            Err(text)
        }
    }
}

/// `--launches`, with its default: 5, or no limit with `--for` or `--until-down`.
pub(crate) fn launch_limit(args: &ProbeArgs) -> Option<u32> {
    match (args.launches, args.run_for, args.until_down) {
        (Some(n), _, _) => Some(n),
        (None, None, false) => Some(5),
        _ => None,
    }
}

/// The per-attempt options every run shares.
pub(crate) fn attempt_options(
    args: &ProbeArgs,
    protocol: Protocol,
    redactor: Arc<Redactor>,
    stop: StopSignal,
) -> AttemptOptions {
    AttemptOptions {
        protocol,
        handshake_timeout: duration(args.handshake_timeout),
        watch: duration(args.watch),
        ping: args.ping_every.map(|every| PingOptions {
            every: duration(every),
            timeout: duration(args.ping_timeout),
        }),
        redactor,
        stop,
        deadline: None,
        epoch: tokio::time::Instant::now(),
        handshake_only: args.handshake_only,
    }
}

/// What stops a run from outside: Ctrl-C, SIGTERM and SIGHUP (the first stops gracefully, the
/// second forces), and a closed stdout (stops gracefully and quietly; the run then exits 0, as
/// ripgrep does on a broken pipe).
pub(crate) struct Stopper {
    task: tokio::task::JoinHandle<()>,
    cause: Arc<std::sync::Mutex<Option<StopCause>>>,
    /// Set by whoever writes to stdout and finds its reader gone.
    pub output_closed: Arc<AtomicBool>,
}

impl Stopper {
    /// The first signal that stopped the run, if any.
    pub fn cause(&self) -> Option<StopCause> {
        self.cause.lock().ok().and_then(|c| *c)
    }

    /// Whether stdout's reader went away.
    pub fn output_closed(&self) -> bool {
        self.output_closed.load(Ordering::Relaxed)
    }

    /// Stop listening (the run is over).
    pub fn finish(&self) {
        self.task.abort();
    }
}

/// How often a run checks whether stdout's reader went away (`| head` that has what it wants).
const OUTPUT_CHECK: Duration = Duration::from_millis(200);

/// Listen for the signals and for a closed stdout. `what` names what is stopped (`the server`,
/// `every server`).
pub(crate) fn handle_signals(stop_handle: StopHandle, what: &'static str) -> Stopper {
    let cause = Arc::new(std::sync::Mutex::new(None));
    let output_closed = Arc::new(AtomicBool::new(false));
    let (cause_in, closed_in) = (cause.clone(), output_closed.clone());
    let task = tokio::spawn(async move {
        use tokio::signal::unix::{signal, SignalKind};
        let mut int = signal(SignalKind::interrupt()).ok();
        let mut term = signal(SignalKind::terminate()).ok();
        let mut hup = signal(SignalKind::hangup()).ok();
        let mut check = tokio::time::interval(OUTPUT_CHECK);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut closed_seen = false;
        loop {
            let got = tokio::select! {
                Some(()) = async { int.as_mut()?.recv().await } => StopCause::Interrupt,
                Some(()) = async { term.as_mut()?.recv().await } => StopCause::Terminate,
                Some(()) = async { hup.as_mut()?.recv().await } => StopCause::HangUp,
                _ = check.tick(), if !closed_seen => {
                    if closed_in.load(Ordering::Relaxed) || crate::render::stdout_closed() {
                        closed_in.store(true, Ordering::Relaxed);
                        closed_seen = true;
                        stop_handle.request(StopLevel::Graceful);
                    }
                    continue;
                }
                else => break,
            };
            let first = match cause_in.lock() {
                Ok(mut c) => *c.get_or_insert(got),
                Err(_) => got,
            };
            let level = stop_handle.escalate();
            if level == StopLevel::Graceful {
                crate::say!(
                    "\n{}: stopping {what} ({} again to kill at once)...",
                    first.words(),
                    first.short()
                );
            } else {
                crate::say!("\nkilling {what}...");
            }
        }
    });
    Stopper {
        task,
        cause,
        output_closed,
    }
}

pub fn run(mut args: ProbeArgs, color: ColorChoice) -> u8 {
    args.normalise();
    if let Some(w) = short_redact_warning(&args) {
        crate::say!("{w}");
    }
    // Before any thread starts: a keeper that kills every server's group, and what left it,
    // should the probe be SIGKILLed (see engine::process_tree).
    if !crate::engine::process_tree::start_keeper() {
        eprintln!(
            "warning: cannot start the keeper process: should the probe be killed with SIGKILL, \
             a server's grandchildren may be left running"
        );
    }
    if args.all || args.server.len() > 1 {
        return super::probe_all::run(args, color);
    }
    let resolved = match resolve(&args) {
        Ok(r) => r,
        Err(e) => {
            crate::say!("error: {e}");
            return exit::USAGE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            crate::say!("error: cannot start the runtime: {e}");
            return exit::USAGE;
        }
    };
    runtime.block_on(run_async(args, resolved, color))
}

async fn run_async(args: ProbeArgs, resolved: Resolved, color: ColorChoice) -> u8 {
    let Resolved {
        mut target,
        protocol,
        timings,
        redactor,
        entry,
    } = resolved;
    let redactor = Arc::new(redactor);
    let policy = args.rule().policy_with(protocol.engine(), timings);
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = launch_limit(&args);
    if args.until_down && launches.is_none() && args.run_for.is_none() && !policy.has_alert() {
        crate::say!(
            "warning: rule {} has no mcpl-down; --until-down will not stop it (add --for or --launches)",
            policy.name
        );
    }
    let target_text = target.describe(&redactor);
    let setting = diagnosis::Setting::of(&target, protocol, &redactor);
    let opts = RunOptions {
        policy,
        seed,
        launches,
        run_for: args.run_for.map(duration),
        until_down: args.until_down,
        attempt: attempt_options(&args, protocol, redactor.clone(), stop.clone()),
        target: target_text.clone(),
    };
    let signals = handle_signals(stop_handle, "the server");

    // The progress line only on a terminal; without one nothing wakes up between events.
    let live_enabled = std::io::stderr().is_terminal() && !args.events;
    let live = std::sync::Mutex::new(LiveLine::new(live_enabled).with_bounds(live_bounds(&args)));
    let events = args.events;
    let output_closed = signals.output_closed.clone();
    let mut write_error: Option<std::io::Error> = None;
    let mut sink = |e: &Event| {
        if let Ok(mut l) = live.lock() {
            l.on_event(e);
        }
        if events && !output_closed.load(Ordering::Relaxed) && write_error.is_none() {
            let mut out = std::io::stdout().lock();
            if let Err(err) = events_view::write_line(&mut out, &EventLine::of(e, None)) {
                // Nobody reads any more (`| head -1`): stop the server and end quietly. Any other
                // failure (a full disk) also stops it, and is an error.
                output_closed.store(true, Ordering::Relaxed);
                if !crate::render::is_broken_pipe(&err) {
                    write_error = Some(err);
                }
            }
        }
    };
    let result = {
        let run_fut = probe::run(&mut target, opts, &mut sink);
        tokio::pin!(run_fut);
        let mut ticker = tokio::time::interval(Duration::from_millis(100));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                r = &mut run_fut => break r,
                _ = ticker.tick(), if live_enabled => {
                    if let Ok(l) = live.lock() {
                        l.tick();
                    }
                }
            }
        }
    };
    signals.finish();
    if let Ok(mut l) = live.lock() {
        l.clear();
    }

    let run = match result {
        Ok(run) => run,
        Err(e) => {
            crate::say!("error: {e}");
            if matches!(target, Target::Stdio(_)) {
                crate::say!("hint: check the command after `--` (it runs without a shell, from the current folder)");
            }
            let why = [diagnosis::of_launch_error(&e, &setting)];
            let mut err = std::io::stderr().lock();
            let _ = crate::render::why::write_why(&mut err, &why);
            return exit::USAGE;
        }
    };
    if let Some(e) = write_error {
        crate::say!("error: cannot write the events: {e}");
        return exit::USAGE;
    }
    if signals.cause().is_none() && signals.output_closed() {
        // The reader is gone: there is no one to give the report to.
        return exit::OK;
    }
    let interrupted = (run.finish == Finish::Interrupted || stop.level() >= StopLevel::Graceful)
        .then(|| signals.cause().unwrap_or(StopCause::Interrupt));
    // The predictions replay the policy exchange's settle time as observed.
    let settle_ms =
        crate::engine::probe::opening::OpeningSummary::of(&run.launches).prediction_settle_ms();
    let verdict = verdict::judge(&run, protocol.engine(), settle_ms);
    let why = diagnosis::diagnose(&run, &setting);
    let ctx = Context {
        target: &target_text,
        entry: entry.as_ref(),
        protocol,
        interrupted,
        why: &why,
    };
    // The files first: a closed stdout (`| head`) does not cost the report.
    let pictures = write_pictures(
        &args,
        &|| {
            let command = report::command_line(&|t| redactor.redact(t));
            report::html(&report::probe_page(&run, &verdict, &ctx, &command))
        },
        &|| report::probe_svg(&run, &ctx),
    );
    if let Err(e) = pictures {
        crate::say!("error: {e}");
        return exit::USAGE;
    }
    let written = if args.json {
        view::write_json(&run, &verdict, &ctx)
    } else if args.events {
        let mut out = std::io::stdout().lock();
        why.iter()
            .try_for_each(|d| {
                events_view::write_line(
                    &mut out,
                    &EventLine::Diagnosis {
                        id: None,
                        diagnosis: d,
                    },
                )
            })
            .and_then(|()| {
                let doc = EventLine::Report {
                    doc: ProbeDoc::of(&run, &verdict, &ctx),
                };
                events_view::write_line(&mut out, &doc)
            })
    } else {
        view::write_text(&run, &verdict, &ctx, color.for_stdout())
    };
    if let Err(e) = written {
        if !crate::render::is_broken_pipe(&e) {
            crate::say!("error: cannot write the report: {e}");
            return exit::USAGE;
        }
        if interrupted.is_none() {
            return exit::OK;
        }
    }
    if let Some(by) = interrupted {
        exit::stopped_by(by)
    } else if verdict::stayed_up(&run)
        && !crate::engine::probe::opening::OpeningSummary::of(&run.launches).has_findings()
    {
        exit::OK
    } else {
        exit::FINDINGS
    }
}

/// What the progress line names while it waits.
pub(crate) fn live_bounds(args: &ProbeArgs) -> Bounds {
    Bounds {
        handshake_ms: args.handshake_timeout,
        watch_ms: args.watch,
        run_for_ms: args.run_for,
    }
}
