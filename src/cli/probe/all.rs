//! `mcpl-doctor probe --config FILE --all` (or several `--server ID`): every selected entry
//! probed at once, each in its own task under its own entry's timings, one report at the end.
//!
//! Each server's loop is the single-server loop ([`probe::run`]) in a task of its own on a
//! multi-threaded runtime, so one server's relaunch never waits for another's. Every stdio
//! server still runs in its own process group behind its drop guard; Ctrl-C reaches every loop
//! through one shared stop signal. `--for` is one deadline for all; `--launches` bounds each
//! server.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::args::ProbeArgs;
use super::plan::{
    attempt_options, duration, entry_at, find_entry, launch_limit, load_config, plan_entry,
    EntryPlan,
};
use super::stop::handle_signals;
use crate::engine::config::ServerEntry;
use crate::engine::diagnosis;
use crate::engine::fleet::{AllContext, Probed, ServerReport, ServerResult};
use crate::engine::policy::EngineKind;
use crate::engine::probe::opening::OpeningSummary;
use crate::engine::probe::{self, verdict, Event, LaunchError, ProbeRun, RunOptions, StopLevel};
use crate::exit;
use crate::render::picture::report;
use crate::render::probe_all as all_view;
use crate::render::probe_json::{self as events_view, AllDoc, EventLine};
use crate::render::text::probe::MultiLive;
use crate::render::{ColorChoice, StopCause};

/// How many runtime threads: the machine's cores, at most 4 (the work is waiting, not
/// computing; two threads keep one busy server from delaying another's relaunch).
fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4)
}

/// One selected entry, before it runs.
struct Item {
    /// Its position among the file's entries (0-based): its jitter seed is the run's seed plus
    /// this, so servers do not relaunch in lockstep and each one's waits can be repeated alone
    /// with `--server ID --seed N`.
    position: u64,
    name: String,
    transport: String,
    at: String,
    path: String,
    plan: EntryPlan,
}

/// The verdict on every run, in order, judged on all cores (each replays a day through the
/// simulator for every host rule: a few milliseconds of CPU per server).
fn judge_all(jobs: &[(&ProbeRun, EngineKind)]) -> Vec<verdict::Verdict> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = jobs.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|(run, engine)| {
                            verdict::judge(
                                run,
                                *engine,
                                OpeningSummary::of(&run.launches).prediction_settle_ms(),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(jobs.chunks(chunk))
            .flat_map(|(h, part)| {
                h.join().unwrap_or_else(|_| {
                    part.iter()
                        .map(|(run, engine)| {
                            verdict::judge(
                                run,
                                *engine,
                                OpeningSummary::of(&run.launches).prediction_settle_ms(),
                            )
                        })
                        .collect()
                })
            })
            .collect()
    })
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

pub fn run(args: ProbeArgs, color: ColorChoice) -> u8 {
    let Some(file) = args.config.clone() else {
        crate::say!("error: --all and repeated --server need --config FILE");
        return exit::USAGE;
    };
    if args.engine.is_some() {
        crate::say!(
            "error: --protocol applies to one server; each entry of --config has its own \
             (a command's `protocol`, a URL's scheme)"
        );
        return exit::USAGE;
    }
    let items = match select(&file, &args) {
        Ok(items) => items,
        Err(e) => {
            crate::say!("error: {e}");
            return exit::USAGE;
        }
    };
    raise_open_file_limit();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads())
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            crate::say!("error: cannot start the runtime: {e}");
            return exit::USAGE;
        }
    };
    let file_text = if file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    runtime.block_on(run_async(args, file_text, items, color))
}

/// The entries `--all` or the `--server` ids select, in the file's order for `--all` and in the
/// order given for `--server` (the last entry of each id, as the host keeps; an id given twice
/// counts once), each with what to do with it.
fn select(file: &Path, args: &ProbeArgs) -> Result<Vec<Item>, String> {
    let (entries, report) = load_config(file, args)?;
    let selected: Vec<&ServerEntry> = if args.all {
        entries.iter().collect()
    } else {
        let mut out: Vec<&ServerEntry> = Vec::new();
        for id in &args.server {
            let entry = find_entry(file, id, &entries)?;
            if !out.iter().any(|e| std::ptr::eq(*e, entry)) {
                out.push(entry);
            }
        }
        out
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
            let plan = plan_entry(entry, &report, args);
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
                plan,
            }
        })
        .collect())
}

/// What every server's task reports to: the progress lines and the `--events` output.
struct Shared {
    live: MultiLive,
    events: bool,
    /// The run's [`Stopper`](super::stop::Stopper) flag: stdout's reader went away.
    broken_pipe: Arc<AtomicBool>,
    /// The first failure to write an event that was not a broken pipe.
    write_error: std::sync::Mutex<Option<std::io::Error>>,
}

impl Shared {
    fn on_event(&self, index: usize, name: &str, e: &Event) {
        self.live.on_event(index, e);
        if self.events {
            self.write_event(&EventLine::of(e, Some(name)));
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

/// A selected entry on its way to the report.
enum Slot {
    Done(ServerReport),
    Running {
        head: ServerReport,
        task: tokio::task::JoinHandle<Result<ProbeRun, LaunchError>>,
        target: String,
        protocol: probe::Protocol,
        /// How it was started, for the diagnosis.
        setting: diagnosis::Setting,
    },
}

async fn run_async(args: ProbeArgs, file: String, items: Vec<Item>, color: ColorChoice) -> u8 {
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = launch_limit(&args);
    let started_wall = SystemTime::now();
    let start = Instant::now();
    let deadline = args.run_for.map(|ms| start + duration(ms));
    let signals = handle_signals(stop_handle, "every server");
    let output_closed = signals.output_closed.clone();

    let names: Vec<String> = items
        .iter()
        .filter(|i| matches!(i.plan, EntryPlan::Probe(_)))
        .map(|i| i.name.clone())
        .collect();
    let live_enabled = std::io::stderr().is_terminal() && !args.events;
    let shared = Arc::new(Shared {
        live: MultiLive::new(live_enabled, &names, super::args::live_bounds(&args)),
        events: args.events,
        broken_pipe: output_closed,
        write_error: std::sync::Mutex::new(None),
    });
    if args.until_down
        && launches.is_none()
        && args.run_for.is_none()
        && !args
            .rule()
            .policy_with(EngineKind::Legacy, Default::default())
            .has_alert()
    {
        crate::say!(
            "warning: rule {} has no mcpl-down; --until-down will not stop it (add --for or --launches)",
            args.rule()
        );
    }

    // What is not probed is known before anything runs: say it first.
    if args.events {
        for item in &items {
            let result = match &item.plan {
                EntryPlan::Probe(_) => continue,
                EntryPlan::Skipped(why) => ServerResult::Skipped(why.clone()),
                EntryPlan::Refused(label, findings) => ServerResult::Refused {
                    label: label.clone(),
                    findings: findings.clone(),
                },
            };
            let s = ServerReport {
                name: item.name.clone(),
                transport: item.transport.clone(),
                at: item.at.clone(),
                path: item.path.clone(),
                result,
                why: Vec::new(),
            };
            if let Some(v) = EventLine::unprobed(&s) {
                shared.write_event(&v);
            }
        }
    }

    let mut slots = Vec::with_capacity(items.len());
    let mut index = 0usize;
    for item in items {
        let head = |result| ServerReport {
            name: item.name.clone(),
            transport: item.transport.clone(),
            at: item.at.clone(),
            path: item.path.clone(),
            result,
            why: Vec::new(),
        };
        let resolved = match item.plan {
            EntryPlan::Probe(r) => r,
            EntryPlan::Skipped(why) => {
                slots.push(Slot::Done(head(ServerResult::Skipped(why))));
                continue;
            }
            EntryPlan::Refused(label, findings) => {
                slots.push(Slot::Done(head(ServerResult::Refused { label, findings })));
                continue;
            }
        };
        let redactor = Arc::new(resolved.redactor);
        let protocol = resolved.protocol;
        let target_text = resolved.target.describe(&redactor);
        let setting = diagnosis::Setting::of(&resolved.target, protocol, &redactor);
        let opts = RunOptions {
            policy: args.rule().policy_with(protocol.engine(), resolved.timings),
            seed: seed.wrapping_add(item.position),
            launches,
            run_for: None,
            until_down: args.until_down,
            attempt: attempt_options(&args, protocol, redactor, stop.clone()),
            target: target_text.clone(),
        };
        let mut target = resolved.target;
        let task_shared = shared.clone();
        let name = item.name.clone();
        let this = index;
        index += 1;
        let task = tokio::spawn(async move {
            let mut opts = opts;
            // One deadline for every server, wherever its own run starts.
            opts.run_for = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let mut sink = |e: &Event| task_shared.on_event(this, &name, e);
            probe::run(&mut target, opts, &mut sink).await
        });
        slots.push(Slot::Running {
            // The result is filled in once the run is over.
            head: head(ServerResult::Skipped(String::new())),
            task,
            target: target_text,
            protocol,
            setting,
        });
    }
    let ticker = shared.live.enabled().then(|| {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(Duration::from_millis(100));
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                ticker.tick().await;
                shared.live.tick();
            }
        })
    });

    // Every run first; the verdicts (a day replayed through the simulator for each server: CPU
    // work) only once nothing is timing relaunches any more.
    let mut finished = Vec::with_capacity(slots.len());
    for slot in slots {
        finished.push(match slot {
            Slot::Done(s) => (s, None),
            Slot::Running {
                head,
                task,
                target,
                protocol,
                setting,
            } => (head, Some((task.await, target, protocol, setting))),
        });
    }
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    if let Some(t) = ticker {
        t.abort();
    }
    signals.finish();
    shared.live.clear();
    if let Some(e) = shared.write_error.lock().ok().and_then(|mut w| w.take()) {
        crate::say!("error: cannot write the events: {e}");
        return exit::USAGE;
    }
    if signals.cause().is_none() && signals.output_closed() {
        // The reader is gone: there is no one to give the report to.
        return exit::OK;
    }
    let interrupted = (stop.level() >= StopLevel::Graceful)
        .then(|| signals.cause().unwrap_or(StopCause::Interrupt));
    let jobs: Vec<(&ProbeRun, EngineKind)> = finished
        .iter()
        .filter_map(|(_, ran)| match ran {
            Some((Ok(Ok(run)), _, protocol, _)) => Some((run, protocol.engine())),
            _ => None,
        })
        .collect();
    let mut verdicts = judge_all(&jobs).into_iter();
    let servers: Vec<ServerReport> = finished
        .into_iter()
        .map(|(mut head, ran)| {
            let Some((result, target, protocol, setting)) = ran else {
                return head;
            };
            head.result = match result {
                Ok(Ok(run)) => {
                    head.why = diagnosis::diagnose(&run, &setting);
                    let verdict = verdicts.next().unwrap_or_else(|| {
                        verdict::judge(
                            &run,
                            protocol.engine(),
                            OpeningSummary::of(&run.launches).prediction_settle_ms(),
                        )
                    });
                    let interrupted = interrupted
                        .or((run.finish == probe::Finish::Interrupted)
                            .then_some(StopCause::Interrupt));
                    ServerResult::Probed(Box::new(Probed {
                        run,
                        verdict,
                        target,
                        protocol,
                        interrupted,
                    }))
                }
                Ok(Err(e)) => {
                    head.why = vec![diagnosis::of_launch_error(&e, &setting)];
                    ServerResult::CannotLaunch(e.to_string())
                }
                Err(e) => ServerResult::CannotLaunch(format!(
                    "the probe of this server stopped unexpectedly: {e}"
                )),
            };
            if args.events {
                if let Some(v) = EventLine::unprobed(&head) {
                    shared.write_event(&v);
                }
                for d in &head.why {
                    shared.write_event(&EventLine::Diagnosis {
                        id: Some(&head.name),
                        diagnosis: d,
                    });
                }
            }
            head
        })
        .collect();

    let rule = args.rule().to_string();
    let ctx = AllContext {
        file: &file,
        rule: &rule,
        seed,
        started_wall,
        elapsed_ms,
        interrupted,
    };
    // The files first: a closed stdout (`| head`) does not cost the report.
    let pictures = super::args::write_pictures(
        &args,
        &|| {
            let mask = super::plan::base_redactor(&args);
            let command = report::command_line(&|t| mask.redact(t));
            report::html(&report::probe_all_page(&servers, &ctx, &command))
        },
        &|| report::probe_all_svg(&servers),
    );
    if let Err(e) = pictures {
        crate::say!("error: {e}");
        return exit::USAGE;
    }
    let written = if args.json {
        all_view::write_json(&servers, &ctx)
    } else if args.events {
        let doc = EventLine::ReportAll {
            doc: AllDoc::of(&servers, &ctx),
        };
        events_view::write_line(&mut std::io::stdout().lock(), &doc)
    } else {
        all_view::write_text(&servers, &ctx, color.for_stdout())
    };
    let findings = servers.iter().any(ServerReport::is_finding);
    super::stop::exit_status(written, interrupted, findings)
}
