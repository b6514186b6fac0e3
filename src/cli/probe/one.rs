//! Probing one server.

use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::diagnosis;
use crate::engine::probe::runner::verdict::{self, Verdict};
use crate::engine::probe::{self, Event, Finish, ProbeRun, RunOptions, StopLevel, Target};
use crate::engine::redact::Redactor;
use crate::exit;
use crate::render::context::Context;
use crate::render::json::events::EventLine;
use crate::render::json::probe::{self as json_view, ProbeDoc};
use crate::render::json::probe_all as json_all;
use crate::render::json::write as events_view;
use crate::render::picture::report;
use crate::render::text::probe::{self as view, LiveLine};
use crate::render::{ColorChoice, StopCause};

use super::args::{write_pictures, ProbeArgs};
use super::plan::{attempt_options, duration, launch_limit, live_bounds, resolve};
use super::stop::handle_signals;
use crate::cli::error::{fail, Failure};
use crate::engine::fleet::Resolved;

pub(crate) fn run(args: ProbeArgs, color: ColorChoice) -> anyhow::Result<u8> {
    let resolved = match resolve(&args) {
        Ok(r) => r,
        Err(e) => {
            if args.json {
                write_unplanned(&e);
            }
            return Err(e);
        }
    };
    if let Some(host) = resolved
        .entry
        .as_ref()
        .and_then(|e| crate::engine::config::Host::from_name(&e.host))
    {
        super::plan::stdin_host_note(&args, host);
    }
    super::args::check_outputs(&args)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(run_async(args, resolved, color))
}

async fn run_async(args: ProbeArgs, resolved: Resolved, color: ColorChoice) -> anyhow::Result<u8> {
    let Resolved {
        mut target,
        protocol,
        rule,
        timings,
        redactor,
        entry,
    } = resolved;
    let redactor = Arc::new(redactor);
    let policy = rule.policy_with(protocol.engine(), timings);
    let relaunch = policy.relaunch;
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = launch_limit(&args);
    warn_until_down(&args, launches, &policy);
    let target_text = target.describe(&redactor);
    let host_budget = policy.start_budget_ms;
    let setting = setting_of(&args, &target, protocol, &redactor, host_budget, &entry);
    let attempt = attempt_options(&args, protocol, redactor.clone(), stop.clone(), host_budget);
    let opts = RunOptions {
        policy,
        seed,
        launches,
        run_for: args.run_for.map(duration),
        until_down: args.until_down,
        attempt,
        target: target_text.clone(),
    };
    let signals = handle_signals(stop_handle, "the server");

    // The progress line only on a terminal; without one nothing wakes up between events.
    let live_enabled = std::io::stderr().is_terminal() && !args.events && !args.quiet;
    let live = std::sync::Mutex::new(LiveLine::new(live_enabled).with_bounds(live_bounds(&args)));
    let events = args.events;
    let verbose = args.verbose;
    let output_closed = signals.output_closed.clone();
    let mut write_error: Option<std::io::Error> = None;
    let mut sink = |e: &Event| {
        if let Ok(mut l) = live.lock() {
            if verbose {
                if let Some(line) = crate::render::text::probe::verbose::line(e, relaunch) {
                    l.println(&line);
                }
            }
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
            let (failure, why) = launch_failure(&e, &target, &setting, entry.as_ref());
            if args.json {
                write_cannot_launch(&failure, &why, &target_text, entry.as_ref());
            }
            return Err(failure.into());
        }
    };
    if let Some(e) = write_error {
        return fail(format!("cannot write the events: {e}"));
    }
    if signals.cause().is_none() && signals.output_closed() {
        // The reader is gone: there is no one to give the report to.
        return Ok(exit::OK);
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
    write_report(&args, &run, &verdict, &ctx, &why, &redactor, color)
}

/// `--until-down` under a rule that never raises `mcpl-down` and nothing else to stop it.
fn warn_until_down(
    args: &ProbeArgs,
    launches: Option<u32>,
    policy: &crate::engine::policy::Policy,
) {
    if args.until_down && launches.is_none() && args.run_for.is_none() && !policy.has_alert() {
        crate::say!(
            "warning: rule {} has no mcpl-down; --until-down will not stop it (add --for or --launches)",
            policy.name
        );
    }
}

/// What the Why knows of how the server starts and the budgets it got.
fn setting_of(
    args: &ProbeArgs,
    target: &Target,
    protocol: probe::Protocol,
    redactor: &Redactor,
    host_budget_ms: Option<f64>,
    entry: &Option<crate::engine::fleet::EntryRef>,
) -> diagnosis::Setting {
    let mut setting = diagnosis::Setting::of(target, protocol, redactor);
    setting.handshake_timeout_ms = Some(args.handshake_timeout_ms(host_budget_ms));
    setting.start_budget_ms = Some(args.start_budget_ms(host_budget_ms));
    setting.entry = entry.is_some();
    setting
}

/// `--format json` for a command that cannot be launched: one document, with the Why.
fn write_cannot_launch(
    failure: &Failure,
    why: &[diagnosis::Diagnosis],
    target: &str,
    entry: Option<&crate::engine::fleet::EntryRef>,
) {
    let error = failure.to_string();
    let doc = json_all::NotProbedDoc {
        schema_version: crate::render::json::probe::SCHEMA_VERSION,
        command: "probe",
        not_probed: "cannot-launch",
        target: Some(target),
        id: entry.map(|e| e.id.as_str()),
        error: &error,
        hint: failure.hint_text(),
        findings: Vec::new(),
        diagnoses: why,
    };
    if let Err(e) = json_all::write_not_probed(&doc) {
        crate::say!("cannot write the document: {e}");
    }
}

/// `--format json` for an entry the host refuses or skips (`--server ID`), or a timing it
/// refuses at start: one document, as for every run; other errors (usage) have none.
fn write_unplanned(e: &anyhow::Error) {
    use crate::engine::fleet::{PlanError, TimingRefusal};
    let error = e.to_string();
    let (not_probed, id, findings) = match e.downcast_ref::<PlanError>() {
        Some(PlanError::Refused { id, refusals, .. }) => (
            "refused",
            Some(id.as_str()),
            refusals.iter().map(json_all::RefusalDoc::from).collect(),
        ),
        Some(PlanError::Skipped { id, .. }) => ("skipped", Some(id.as_str()), Vec::new()),
        _ if e.downcast_ref::<TimingRefusal>().is_some() => ("refused", None, Vec::new()),
        _ => return,
    };
    let hint = match e.downcast_ref::<PlanError>() {
        Some(p) => p.hint(),
        None => e
            .downcast_ref::<TimingRefusal>()
            .map(|t| t.hint().to_string()),
    };
    let doc = json_all::NotProbedDoc {
        schema_version: crate::render::json::probe::SCHEMA_VERSION,
        command: "probe",
        not_probed,
        target: None,
        id,
        error: &error,
        hint: hint.as_deref(),
        findings,
        diagnoses: &[],
    };
    if let Err(e) = json_all::write_not_probed(&doc) {
        crate::say!("cannot write the document: {e}");
    }
}

/// A run that could not launch at all: the error, a hint on the command (after `--`, or the
/// entry's `command` field in its file), and the Why (in the error's detail, and returned).
fn launch_failure(
    e: &probe::LaunchError,
    target: &Target,
    setting: &diagnosis::Setting,
    entry: Option<&crate::engine::fleet::EntryRef>,
) -> (Failure, [diagnosis::Diagnosis; 1]) {
    let mut failure = Failure::new(e.to_string());
    if let Target::Stdio(stdio) = target {
        failure = match (
            crate::cli::error::windows_path_hint(&stdio.command.to_string_lossy()),
            entry,
        ) {
            (Some(hint), _) => failure.hint(hint),
            (None, Some(entry)) => failure.hint(format!(
                "check the `command` field of server \"{}\" at {} ({}); the host runs it \
                 without a shell",
                crate::render::sanitize::sanitize(&entry.id),
                crate::render::sanitize::sanitize(&entry.at),
                entry.path,
            )),
            (None, None) => failure.hint(
                "check the command after `--` (it runs without a shell, from the current \
                 folder)",
            ),
        };
    }
    let why = [diagnosis::of_launch_error(e, setting)];
    let mut detail = Vec::new();
    let _ = crate::render::text::why::write_why(&mut detail, &why);
    (
        failure.detail(String::from_utf8_lossy(&detail).into_owned()),
        why,
    )
}

/// The files first (a closed stdout, `| head`, does not cost them), then the report on
/// stdout; the exit status.
fn write_report(
    args: &ProbeArgs,
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    why: &[diagnosis::Diagnosis],
    redactor: &Redactor,
    color: ColorChoice,
) -> anyhow::Result<u8> {
    // The files first: a closed stdout (`| head`) does not cost the report. A file that still
    // cannot be written fails the run after the report is printed, never instead of it.
    let pictures = write_pictures(
        args,
        &|| {
            let command = report::command_line(&|t| redactor.redact(t));
            report::html(&report::probe_page(run, verdict, ctx, &command))
        },
        &|| report::probe_svg(run, ctx),
    );
    let written = if args.json {
        json_view::write_json(run, verdict, ctx)
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
                    doc: ProbeDoc::of(run, verdict, ctx),
                };
                events_view::write_line(&mut out, &doc)
            })
    } else if args.quiet {
        view::write_final_to(
            &mut std::io::stdout().lock(),
            run,
            verdict,
            ctx,
            color.for_stdout(),
        )
    } else {
        view::write_text(run, verdict, ctx, color.for_stdout())
    };
    let status = super::stop::exit_status(written, ctx.interrupted, !verdict::all_clear(run))?;
    pictures?.say(args.quiet);
    match args.run_for {
        Some(ms) if status == exit::FINDINGS && verdict::nothing_judged(run) => {
            // Nothing was judged: the probe's own deadline, not a finding against the server.
            crate::cli::error::fail(super::plan::for_too_short(ms, None))
        }
        _ => Ok(status),
    }
}
