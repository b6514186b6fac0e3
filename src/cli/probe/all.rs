//! `mcpl-doctor probe --config FILE --all` (or several `--server ID`): the request for the
//! engine's fleet runner ([`engine::fleet`](crate::engine::fleet)), and the writers its events
//! and report go to: the progress lines, `--format events` lines, the report, the pictures.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::args::ProbeArgs;
use super::plan::{attempt_options, duration, launch_limit, plan_options};
use super::stop::handle_signals;
use crate::cli::error::{fail, Failure};
use crate::engine::fleet::{
    self, AllContext, EntryPlan, FleetEvent, FleetOptions, Item, Selection, ServerReport,
};
use crate::engine::policy::EngineKind;
use crate::engine::probe::{self, Protocol, StopLevel};
use crate::exit;
use crate::render::json::events::EventLine;
use crate::render::json::probe_all::{self as json_all, AllDoc};
use crate::render::json::write as events_view;
use crate::render::picture::report;
use crate::render::text::probe::MultiLive;
use crate::render::text::probe_all as all_view;
use crate::render::{ColorChoice, StopCause};

/// How many runtime threads: the machine's cores, at most 4 (the work is waiting, not
/// computing; two threads keep one busy server from delaying another's relaunch).
fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4)
}

/// Raise the soft limit on open files to the hard limit: every stdio server holds three pipes
/// and every socket one descriptor, so a few hundred servers at once pass the usual soft limit
/// of 1024. (Node, the host's runtime, raises its own limit the same way at start, so the
/// servers inherit what they would under the host.)
fn raise_open_file_limit() {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) {
        if soft < hard {
            let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
        }
    }
}

pub(crate) fn run(args: ProbeArgs, color: ColorChoice) -> anyhow::Result<u8> {
    let Some(file) = args.config.clone() else {
        return fail("--all and repeated --server need --config FILE");
    };
    if args.engine.is_some() {
        return fail(
            "--protocol applies to one server; each entry of --config has its own (a command's \
             `protocol`, a URL's scheme)",
        );
    }
    let selection = if args.all {
        Selection::All
    } else {
        Selection::Ids(&args.server)
    };
    let items = fleet::select(&file, selection, &plan_options(&args))?;
    if let Some(first) = items.first() {
        super::plan::stdin_host_note(&args, first.host);
    }
    super::args::check_outputs(&args)?;
    raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads())
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the runtime: {e}")))?;
    let file_text = if file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    runtime.block_on(run_async(args, file_text, items, color))
}

/// Where the fleet's events go: the progress lines and the `--format events` output.
struct Writer {
    live: MultiLive,
    events: bool,
    /// `--verbose`: a line on stderr for each event.
    verbose: bool,
    /// The run's [`Stopper`](super::stop::Stopper) flag: stdout's reader went away.
    broken_pipe: Arc<AtomicBool>,
    /// The first failure to write an event that was not a broken pipe.
    write_error: std::sync::Mutex<Option<std::io::Error>>,
}

impl Writer {
    fn on_event(&self, e: FleetEvent<'_>) {
        match e {
            FleetEvent::NotProbed(s) => {
                if let Some(v) = EventLine::unprobed(s).filter(|_| self.events) {
                    self.write_event(&v);
                }
            }
            FleetEvent::Server {
                index,
                name,
                event,
                relaunch,
            } => {
                if self.verbose {
                    if let Some(line) = crate::render::text::probe::verbose::line(event, relaunch) {
                        self.live.println(&format!(
                            "{}: {line}",
                            crate::render::sanitize::sanitize(name)
                        ));
                    }
                }
                self.live.on_event(index, event);
                if self.events {
                    self.write_event(&EventLine::of(event, Some(name)));
                }
            }
            FleetEvent::Judged(s) if self.events => {
                if let Some(v) = EventLine::unprobed(s) {
                    self.write_event(&v);
                }
                for d in &s.why {
                    self.write_event(&EventLine::Diagnosis {
                        id: Some(&s.name),
                        diagnosis: d,
                    });
                }
            }
            FleetEvent::Judged(_) => {}
        }
    }

    fn write_event(&self, v: &EventLine<'_>) {
        if self.broken_pipe.load(Ordering::Relaxed) {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = events_view::write_line(&mut out, v) {
            // Nobody reads any more (`| head -1`): stop every server and end quietly. Any other
            // failure (a full disk) also stops them, and is an error.
            self.broken_pipe.store(true, Ordering::Relaxed);
            if !crate::render::is_broken_pipe(&e) {
                if let Ok(mut w) = self.write_error.lock() {
                    w.get_or_insert(e);
                }
            }
        }
    }
}

async fn run_async(
    args: ProbeArgs,
    file: String,
    items: Vec<Item>,
    color: ColorChoice,
) -> anyhow::Result<u8> {
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = launch_limit(&args);
    let rules = rules_run(&items);
    let signals = handle_signals(stop_handle, "every server");

    let names: Vec<String> = items
        .iter()
        .filter(|i| matches!(i.plan, EntryPlan::Probe(_)))
        .map(|i| i.name.clone())
        .collect();
    let live_enabled = std::io::stderr().is_terminal() && !args.events && !args.quiet;
    let writer = Arc::new(Writer {
        live: MultiLive::new(live_enabled, &names, super::plan::live_bounds(&args)),
        events: args.events,
        verbose: args.verbose,
        broken_pipe: signals.output_closed.clone(),
        write_error: std::sync::Mutex::new(None),
    });
    let silent: Vec<&str> = rules
        .iter()
        .filter(|r| {
            !r.policy_with(EngineKind::Legacy, Default::default())
                .has_alert()
        })
        .map(|r| r.name())
        .collect();
    if args.until_down && launches.is_none() && args.run_for.is_none() && !silent.is_empty() {
        let (which, has) = match silent.as_slice() {
            [one] => (format!("rule {one}"), "has"),
            many => (format!("rules {}", many.join(", ")), "have"),
        };
        crate::say!(
            "warning: {which} {has} no mcpl-down; --until-down will not stop it (add --for or --launches)"
        );
    }
    let base = Arc::new(plan_options(&args).base_redactor());
    let opts = FleetOptions {
        host_budgets: fleet::HostBudgets {
            handshake: args.handshake_timeout.is_none(),
            install: args.start_budget.is_none(),
        },
        seed,
        launches,
        run_for: args.run_for.map(duration),
        until_down: args.until_down,
        attempt: attempt_options(&args, Protocol::Legacy, base, stop.clone(), None),
    };
    let ticker = writer.live.enabled().then(|| {
        let writer = writer.clone();
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(Duration::from_millis(100));
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                ticker.tick().await;
                writer.live.tick();
            }
        })
    });
    let sink_writer = writer.clone();
    let sink: Arc<fleet::Sink> = Arc::new(move |e: FleetEvent<'_>| sink_writer.on_event(e));
    let runs = fleet::run(items, opts, sink.clone()).await;
    if let Some(t) = ticker {
        t.abort();
    }
    signals.finish();
    writer.live.clear();
    if let Some(e) = writer.write_error.lock().ok().and_then(|mut w| w.take()) {
        return fail(format!("cannot write the events: {e}"));
    }
    if signals.cause().is_none() && signals.output_closed() {
        // The reader is gone: there is no one to give the report to.
        return Ok(exit::OK);
    }
    let interrupted = (stop.level() >= StopLevel::Graceful)
        .then(|| signals.cause().unwrap_or(StopCause::Interrupt));
    let (started_wall, elapsed_ms) = (runs.started_wall, runs.elapsed_ms);
    let servers = runs.judge(interrupted, &*sink);
    let ctx = AllContext {
        file: &file,
        rules: &rules,
        seed,
        started_wall,
        elapsed_ms,
        interrupted,
    };
    write_report(&args, &servers, &ctx, color)
}

/// The files first (a closed stdout, `| head`, does not cost them), then the report on
/// stdout; the exit status.
fn write_report(
    args: &ProbeArgs,
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    color: ColorChoice,
) -> anyhow::Result<u8> {
    let pictures = super::args::write_pictures(
        args,
        &|| {
            let mask = plan_options(args).base_redactor();
            let command = report::command_line(&|t| mask.redact(t));
            report::html(&report::probe_all_page(servers, ctx, &command))
        },
        &|| report::probe_all_svg(servers),
    );
    let written = if args.json {
        json_all::write_json(servers, ctx)
    } else if args.events {
        let doc = EventLine::ReportAll {
            doc: AllDoc::of(servers, ctx),
        };
        events_view::write_line(&mut std::io::stdout().lock(), &doc)
    } else {
        all_view::write_text(servers, ctx, color.for_stdout(), args.quiet)
    };
    let findings = servers.iter().any(ServerReport::is_finding);
    let unjudged = servers.iter().filter(|s| s.nothing_judged()).count();
    let status = super::stop::exit_status(written, ctx.interrupted, findings)?;
    // A file that still cannot be written fails the run after the report, never instead of it.
    pictures?.say(args.quiet);
    match args.run_for {
        // Nothing judged and nothing else found: the probe's own deadline, as for one server.
        Some(ms) if status == exit::OK && unjudged > 0 && ctx.interrupted.is_none() => {
            let probed = servers
                .iter()
                .filter(|s| matches!(s.result, fleet::ServerResult::Probed(_)))
                .count();
            fail(super::plan::for_too_short(ms, Some((unjudged, probed))))
        }
        _ => Ok(status),
    }
}

/// The rules the probed entries follow, each once, in the order of the entries: `--preset`
/// alone when given, else each entry's host's (a VS Code file's stdio entries `vscode`, its
/// URLs `vscode-http`), else agent-framework's.
fn rules_run(items: &[Item]) -> Vec<crate::engine::policy::Preset> {
    let mut rules = Vec::new();
    for i in items {
        if let EntryPlan::Probe(r) = &i.plan {
            if !rules.contains(&r.rule) {
                rules.push(r.rule);
            }
        }
    }
    rules
}
