//! The one runner of `probe`, for one server and for many: the engine's fleet run
//! ([`engine::fleet`](crate::engine::fleet); one server alone is a fleet of one), its events
//! to the progress line and `--format events`, the end-of-run checks, then the report in the
//! shape asked ([`one`](super::one): the detailed per-launch report of one server;
//! [`all`](super::all): the summary of a configuration's entries), and the exit status,
//! decided here for both.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::args::ProbeArgs;
use super::plan::{attempt_options, duration, launch_limit, live_bounds, plan_options};
use super::request::{Report, Request, Shape};
use super::stop::handle_signals;
use crate::cli::error::{fail, Failure};
use crate::engine::fleet::{self, AllContext, EntryPlan, FleetEvent, FleetOptions, Item};
use crate::engine::fleet::{Ending, ServerReport, ServerResult};
use crate::engine::policy::{EngineKind, Preset};
use crate::engine::probe::{self, Event, Protocol, StopLevel};
use crate::exit;
use crate::render::json::events::EventLine;
use crate::render::json::write as events_view;
use crate::render::text::probe::{LiveLine, MultiLive};
use crate::render::{ColorChoice, StopCause};

/// How many runtime threads for many servers: the machine's cores, at most 4 (the work is
/// waiting, not computing; two threads keep one busy server from delaying another's
/// relaunch). One server runs on the calling thread.
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

/// Run `request`: every server at once, then its report and the exit status.
pub(crate) fn run(args: ProbeArgs, request: Request, color: ColorChoice) -> anyhow::Result<u8> {
    super::args::check_outputs(&args)?;
    if matches!(request.shape, Shape::Many { .. }) {
        // One server alone keeps the limits it was given (`ulimit -Sn 64` to see what it does
        // with few files); many need the descriptors.
        raise_open_file_limit();
    }
    let runtime = match request.shape {
        Shape::One(_) => tokio::runtime::Builder::new_current_thread(),
        Shape::Many { .. } => {
            let mut b = tokio::runtime::Builder::new_multi_thread();
            b.worker_threads(worker_threads());
            b
        }
    }
    .enable_all()
    .build()
    .map_err(|e| Failure::new(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(run_async(args, request, color))
}

/// The progress line: one server's, or one line per server.
enum Live {
    One(Mutex<LiveLine>),
    Many(MultiLive),
}

impl Live {
    fn println(&self, line: &str) {
        match self {
            Live::One(l) => {
                if let Ok(l) = l.lock() {
                    l.println(line);
                }
            }
            Live::Many(m) => m.println(line),
        }
    }

    fn on_event(&self, index: usize, event: &Event) {
        match self {
            Live::One(l) => {
                if let Ok(mut l) = l.lock() {
                    l.on_event(event);
                }
            }
            Live::Many(m) => m.on_event(index, event),
        }
    }

    fn tick(&self) {
        match self {
            Live::One(l) => {
                if let Ok(l) = l.lock() {
                    l.tick();
                }
            }
            Live::Many(m) => m.tick(),
        }
    }

    fn clear(&self) {
        match self {
            Live::One(l) => {
                if let Ok(mut l) = l.lock() {
                    l.clear();
                }
            }
            Live::Many(m) => m.clear(),
        }
    }
}

/// Where a run's events go: the progress line, `--verbose` lines and `--format events`.
struct Writer {
    live: Live,
    events: bool,
    /// `--verbose`: a line on stderr for each event.
    verbose: bool,
    /// One server: its lines are not tagged with its name.
    single: bool,
    /// The run's [`Stopper`](super::stop::Stopper) flag: stdout's reader went away.
    broken_pipe: Arc<AtomicBool>,
    /// The first failure to write an event that was not a broken pipe.
    write_error: Mutex<Option<std::io::Error>>,
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
                        if self.single {
                            self.live.println(&line);
                        } else {
                            let name = crate::render::sanitize::sanitize(name);
                            self.live.println(&format!("{name}: {line}"));
                        }
                    }
                }
                self.live.on_event(index, event);
                if self.events {
                    self.write_event(&EventLine::of(event, (!self.single).then_some(name)));
                }
            }
            FleetEvent::Judged(s) if self.events => self.judged(s),
            FleetEvent::Judged(_) => {}
        }
    }

    /// A server judged, in `--format events`: the causes of its ends (one server's untagged;
    /// one that could not be launched alone is the run's error, not an event).
    fn judged(&self, s: &ServerReport) {
        if self.single {
            if matches!(s.result, ServerResult::Probed(_)) {
                for d in &s.why {
                    self.write_event(&EventLine::Diagnosis {
                        id: None,
                        diagnosis: d,
                    });
                }
            }
            return;
        }
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

async fn run_async(args: ProbeArgs, request: Request, color: ColorChoice) -> anyhow::Result<u8> {
    let Request { items, shape } = request;
    let single = matches!(shape, Shape::One(_));
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = launch_limit(&args);
    let rules = rules_run(&items);
    warn_until_down(&args, launches, &rules);
    let what = if single { "the server" } else { "every server" };
    let signals = handle_signals(stop_handle, what);

    // The progress line only on a terminal; without one nothing wakes up between events.
    let live_enabled = std::io::stderr().is_terminal() && !args.events && !args.quiet;
    let live = if single {
        Live::One(Mutex::new(
            LiveLine::new(live_enabled).with_bounds(live_bounds(&args)),
        ))
    } else {
        let names: Vec<String> = items
            .iter()
            .filter(|i| matches!(i.plan, EntryPlan::Probe(_)))
            .map(|i| i.name.clone())
            .collect();
        Live::Many(MultiLive::new(live_enabled, &names, live_bounds(&args)))
    };
    let writer = Arc::new(Writer {
        live,
        events: args.events,
        verbose: args.verbose,
        single,
        broken_pipe: signals.output_closed.clone(),
        write_error: Mutex::new(None),
    });
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
    let ticker = live_enabled.then(|| {
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
    let file = match &shape {
        Shape::Many { file } => file.as_str(),
        Shape::One(_) => "",
    };
    let ctx = AllContext {
        file,
        rules: &rules,
        seed,
        started_wall,
        elapsed_ms,
        interrupted,
    };
    finish(&args, &shape, &servers, &ctx, color)
}

/// The report in the run's shape, then the exit status, for one server and many alike: a
/// signal's own status; 1 for a finding (a server that did not stay up, an opening finding,
/// among many an entry that could not be launched or that the host refuses); a usage error
/// (2) for one server that could not be launched, and for `--for` too short to judge anything
/// with nothing else found (no finding against a server: the probe was given too little
/// time); else 0.
fn finish(
    args: &ProbeArgs,
    shape: &Shape,
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    color: ColorChoice,
) -> anyhow::Result<u8> {
    let report = match shape {
        Shape::One(alone) => {
            let Some(server) = servers.first() else {
                return fail("nothing was probed");
            };
            if let ServerResult::CannotLaunch(error) = &server.result {
                return Err(alone.cannot_launch(args, error, &server.why).into());
            }
            super::one::write_report(args, server, alone, color)
        }
        Shape::Many { .. } => super::all::write_report(args, servers, ctx, color),
    };
    let Report { written, pictures } = report;
    let reader_gone = matches!(&written, Err(e) if crate::render::is_broken_pipe(e));
    let ending = fleet::ending(servers);
    let findings = matches!(ending, Ending::Findings);
    let status = super::stop::exit_status(written, ctx.interrupted, findings)?;
    // A file that still cannot be written fails the run after the report, never instead of it.
    pictures?.say(args.quiet);
    match (args.run_for, ending) {
        (Some(ms), Ending::NothingJudged { unjudged, probed })
            if status == exit::OK && !reader_gone =>
        {
            fail(super::plan::for_too_short(ms, Some((unjudged, probed))))
        }
        _ => Ok(status),
    }
}

/// `--until-down` under rules that never raise `mcpl-down`, and nothing else to stop them.
fn warn_until_down(args: &ProbeArgs, launches: Option<u32>, rules: &[Preset]) {
    if !args.until_down || launches.is_some() || args.run_for.is_some() {
        return;
    }
    let silent: Vec<&str> = rules
        .iter()
        .filter(|r| {
            !r.policy_with(EngineKind::Legacy, Default::default())
                .has_alert()
        })
        .map(|r| r.name())
        .collect();
    let (which, has) = match silent.as_slice() {
        [] => return,
        [one] => (format!("rule {one}"), "has"),
        many => (format!("rules {}", many.join(", ")), "have"),
    };
    crate::say!(
        "warning: {which} {has} no mcpl-down; --until-down will not stop it (add --for or --launches)"
    );
}

/// The rules the probed servers follow, each once, in the order of the entries: `--preset`
/// alone when given, else each entry's host's (a VS Code file's stdio entries `vscode`, its
/// URLs `vscode-http`), else agent-framework's.
fn rules_run(items: &[Item]) -> Vec<Preset> {
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
