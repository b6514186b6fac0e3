//! What `probe`'s arguments, or a configuration entry, resolve to before anything runs: the
//! target, its timings and redaction, or why the host refuses it. Both runners use it.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::config::{self, CheckOptions, Code, Finding, Report, ServerEntry, Transport};
use crate::engine::fleet::Refusal;
use crate::engine::policy::{
    EngineKind, Preset, TimingField, Timings, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS,
};
use crate::engine::probe::{
    self, AttemptOptions, PingOptions, Protocol, StdioTarget, StopSignal, Target,
};
use crate::engine::redact::Redactor;
use crate::render::text::probe::EntryRef;

use super::args::ProbeArgs;

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
    let era = args
        .transport
        .as_deref()
        .and_then(probe::http::Era::from_name);
    let target = match (target, era) {
        (Target::Http(t), Some(era)) => Target::Http(t.with_era(era)),
        (t, _) => t,
    };
    for s in target.secrets() {
        redactor.add(s);
    }
    target.with_open_timeout(duration(args.open_timeout))
}

pub(crate) fn resolve(args: &ProbeArgs) -> Result<Resolved, String> {
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
