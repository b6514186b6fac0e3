//! What `probe`'s arguments resolve to before anything runs: the request the engine's planning
//! gets ([`plan_options`]), one target (`--url`, a command, or `--config FILE --server ID`
//! planned by [`engine::fleet::plan_one`](crate::engine::fleet::plan_one)), the per-attempt
//! options. Both runners use it.

use std::sync::Arc;

use crate::engine::fleet::{self, PlanOptions, Resolved};
use crate::engine::probe::Target;
use crate::engine::probe::{self, AttemptOptions, PingOptions, Protocol, StdioTarget, StopSignal};

use super::args::ProbeArgs;
use crate::cli::error::{fail, Failure};
use crate::render::text::probe::Bounds;

pub(crate) use crate::engine::fleet::duration;

/// What the engine's planning needs from the command line.
pub(crate) fn plan_options(args: &ProbeArgs) -> PlanOptions {
    PlanOptions {
        rule: args.rule(),
        rule_given: args.preset.is_some(),
        interval: args.interval,
        cap: args.cap,
        open_timeout_ms: args.open_timeout,
        redact: args.redact.clone(),
        include_disabled: args.include_disabled,
        http_era: args
            .transport
            .as_deref()
            .and_then(probe::wire::http::Era::from_name),
        host: args.dialect.host.map(Into::into),
        workspace: args.dialect.dialect().workspace,
        inputs: args.dialect.inputs.clone(),
    }
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

/// The one target the command line names (`--url`, a command after `--`, or `--config FILE
/// --server ID`), or why there is none (a usage error).
pub(crate) fn resolve(args: &ProbeArgs) -> anyhow::Result<Resolved> {
    let plan = plan_options(args);
    let mut redactor = plan.base_redactor();
    if let Some(url) = &args.url {
        if let Some(t) = &args.token {
            redactor.add(t.clone());
        }
        let headers = header_args(&args.header.headers)?;
        for (name, value) in &headers {
            for s in probe::wire::endpoint::header_secrets(name, value) {
                redactor.add(s);
            }
        }
        let (target, protocol) = probe::wire::urls::target_for_url(url, args.token.clone())
            .map_err(|e| Failure::new(e.to_string()))?;
        let target = match target {
            Target::Http(t) => Target::Http(t.with_headers(headers)),
            _ if !headers.is_empty() => {
                return fail("--header is sent only to an http:// or https:// --url");
            }
            t => t,
        };
        let target = plan.opened(target, &mut redactor);
        return runnable(&plan, target, protocol, redactor);
    }
    if let (Some(file), [id]) = (&args.config, args.server.as_slice()) {
        let engine = args.engine.map(Protocol::from);
        return Ok(fleet::plan_one(file, id, engine, &plan)?);
    }
    let Some((command, rest)) = args.command.split_first() else {
        return fail(
            "nothing to probe: give one of\n  \
             mcpl-doctor probe -- COMMAND [ARGS...]             launch a server\n  \
             mcpl-doctor probe --url URL                        dial a ws://, wss://, http:// or https:// server\n  \
             mcpl-doctor probe --config FILE --server ID|--all  entries of a host configuration",
        );
    };
    let target = Target::Stdio(StdioTarget {
        command: command.clone(),
        args: rest.to_vec(),
        env: None,
        cwd: None,
        client: Default::default(),
    });
    let protocol = args.engine.map_or(Protocol::Legacy, Protocol::from);
    runnable(&plan, target, protocol, redactor).map(|mut r| {
        r.target = plan.opened(r.target, &mut r.redactor);
        r
    })
}

/// The `--header` values as `(name, value)` pairs: `Name: value`, or `@FILE` whose non-blank
/// lines are each one (`#` lines skipped). A malformed one is a usage error that shows the
/// name only.
fn header_args(args: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for a in args {
        let (lines, from): (Vec<String>, Option<&str>) = match a.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => (text.lines().map(str::to_string).collect(), Some(path)),
                Err(e) => return fail(format!("--header @{path}: cannot read it ({e})")),
            },
            None => (vec![a.clone()], None),
        };
        for line in lines {
            let line = line.trim();
            if from.is_some() && (line.is_empty() || line.starts_with('#')) {
                continue;
            }
            match probe::wire::endpoint::parse_header(line) {
                Some(pair) => out.push(pair),
                None => {
                    let name: String = line.chars().take_while(|c| *c != ':').take(40).collect();
                    return fail(format!(
                        "--header{}: `{}` is not `Name: value` (a name of letters, digits and                          `-`, then `:`)",
                        from.map(|p| format!(" @{p}")).unwrap_or_default(),
                        if line.contains(':') { name } else { "...".into() }
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// `target` under the command line's timings, unless the host refuses them at start.
fn runnable(
    plan: &PlanOptions,
    target: Target,
    protocol: Protocol,
    redactor: crate::engine::redact::Redactor,
) -> anyhow::Result<Resolved> {
    let timings = plan.timings_for(None);
    if let Some(why) = plan.timing_refusal(protocol, timings) {
        return Err(why.into());
    }
    Ok(Resolved {
        target,
        protocol,
        rule: plan.rule,
        timings,
        redactor,
        entry: None,
    })
}

/// `--launches`, with its default: 5, or no limit with `--for` or `--until-down`.
/// What the progress line names while it waits.
pub(crate) fn live_bounds(args: &ProbeArgs) -> Bounds {
    Bounds {
        handshake_ms: args.handshake_timeout_ms(None),
        watch_ms: args.watch,
        run_for_ms: args.run_for,
        launches: launch_limit(args),
    }
}

pub(crate) fn launch_limit(args: &ProbeArgs) -> Option<u32> {
    match (args.launches, args.run_for, args.until_down) {
        (Some(n), _, _) => Some(n),
        (None, None, false) => Some(5),
        _ => None,
    }
}

/// The per-attempt options every run shares; `host_budget_ms`: the start budget of the
/// host whose rule the run follows, the default of `--handshake-timeout` and `--start-budget`.
pub(crate) fn attempt_options(
    args: &ProbeArgs,
    protocol: Protocol,
    redactor: Arc<crate::engine::redact::Redactor>,
    stop: StopSignal,
    host_budget_ms: Option<f64>,
) -> AttemptOptions {
    AttemptOptions {
        protocol,
        handshake_timeout: duration(args.handshake_timeout_ms(host_budget_ms)),
        watch: duration(args.watch),
        ping: args.ping_every.map(|every| PingOptions {
            every: duration(every),
            timeout: duration(args.ping_timeout),
        }),
        redactor,
        stop,
        deadline: None,
        epoch: tokio::time::Instant::now(),
        start_budget: duration(args.start_budget_ms(host_budget_ms)),
        handshake_only: args.handshake_only,
        strict: args.strict,
        call: args
            .call
            .as_deref()
            .and_then(|c| crate::engine::probe::opening::ToolCall::parse(c).ok()),
        notable_stderr: crate::engine::diagnosis::table::is_notable,
    }
}

/// What to say when `--for` ended before the first handshake: of the one server, or of
/// `of` = (how many, of how many probed) in a fleet. The same words and the same exit status
/// (2) either way: the probe was given too little time, nothing was seen of the server.
pub(crate) fn for_too_short(ms: f64, of: Option<(usize, usize)>) -> String {
    let shown = crate::engine::policy::timings::format_ms(ms);
    let whose = match of {
        Some((1, 1)) | None => String::new(),
        Some((n, all)) => format!(" of {n} of {all} servers"),
    };
    if ms < 100.0 {
        format!("--for {shown} ended before the first handshake{whose}; did you mean {ms}s?")
    } else {
        format!("--for {shown} ended before the first handshake{whose}; give the server longer")
    }
}

/// The note for a file read from standard input with no `--host`: it has no name to tell its
/// host by, so say which host's file it was read as (from its shape: agent-framework's unless
/// its keys are another host's) and how to say otherwise.
pub(crate) fn stdin_host_note(args: &ProbeArgs, host: crate::engine::config::Host) {
    let stdin = args.config.as_deref() == Some(std::path::Path::new("-"));
    if !stdin || args.dialect.host.is_some() || args.quiet {
        return;
    }
    let note = format!(
        "note: standard input has no file name to tell its host by: read as {}'s file, under \
         its rule; give --host (claude-desktop, vscode, claude-code, ...) to read it as \
         another host's",
        host.title()
    );
    crate::say!("{}", crate::render::text::layout::prose(&note, "  "));
}
