//! Every selected entry probed at once, each in its own task under its own entry's timings.
//!
//! Each server's loop is the single-server loop ([`probe::run`]) in a task of its own (on a
//! multi-threaded runtime, one server's relaunch never waits for another's). Every stdio
//! server still runs in its own process group behind its drop guard; one shared stop signal
//! reaches every loop. `run_for` is one deadline for all; `launches` bounds each server. What
//! happens is reported as [`FleetEvent`]s; nothing here prints.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use crate::engine::diagnosis::{self, Setting};
use crate::engine::policy::{EngineKind, Relaunch};
use crate::engine::probe::opening::OpeningSummary;
use crate::engine::probe::runner::verdict::{self, Verdict};
use crate::engine::probe::{self, AttemptOptions, Event, Finish, LaunchError, ProbeRun, Protocol};
use crate::engine::probe::{RunOptions, Target};
use crate::engine::stop::StopCause;

use super::plan::{EntryPlan, Item, Resolved};
use super::report::{Probed, ServerReport, ServerResult};

/// How every server runs.
#[derive(Debug, Clone)]
pub(crate) struct FleetOptions {
    /// The run's jitter seed; each server's is this plus its position in the file.
    pub seed: u64,
    /// Stop each server after this many launches (`None`: no limit).
    pub launches: Option<u32>,
    /// One deadline for every server, from the start of the run.
    pub run_for: Option<Duration>,
    /// Stop each server once the host would raise `mcpl-down`.
    pub until_down: bool,
    /// Whether a server whose rule has a start budget (Cline's 60 s...) waits that long for
    /// its handshake (`--handshake-timeout` not given), and for an install under way
    /// (`--start-budget` not given).
    pub host_budgets: HostBudgets,
    /// The per-attempt options every server shares; each server's own protocol and redactor
    /// replace the ones here.
    pub attempt: AttemptOptions,
}

/// Which of the attempt's budgets give way to the host's start budget, where its rule has one.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HostBudgets {
    pub handshake: bool,
    pub install: bool,
}

/// What happens during a fleet run, for the renderers.
pub(crate) enum FleetEvent<'a> {
    /// An entry that is not probed (skipped, or refused by the host): known before anything
    /// runs, so every one of these comes first.
    NotProbed(&'a ServerReport),
    /// Something happened in a server's run. `index` counts the probed servers only, in
    /// order.
    Server {
        index: usize,
        name: &'a str,
        event: &'a Event,
        /// Whether that server's host relaunches by itself (for the words of what an attempt
        /// counted as).
        relaunch: Relaunch,
    },
    /// A server's run is over and judged: its result and the likely causes of its ends.
    Judged(&'a ServerReport),
}

/// Where a fleet run's events go; called from every server's task.
pub(crate) type Sink = dyn Fn(FleetEvent<'_>) + Send + Sync;

type Outcome = Result<Result<ProbeRun, LaunchError>, tokio::task::JoinError>;

/// A server that ran, before it is judged.
struct Ran {
    outcome: Outcome,
    /// How the target is shown (redacted).
    target: String,
    protocol: Protocol,
    /// How it was started, for the diagnosis.
    setting: Box<Setting>,
}

/// Every server's run, over and not yet judged.
pub(crate) struct Runs {
    /// Each selected entry's report head (its result filled in by [`Runs::judge`]) and its run.
    servers: Vec<(ServerReport, Option<Ran>)>,
    /// Wall clock at the start.
    pub started_wall: SystemTime,
    /// Wall time of the whole run, ms.
    pub elapsed_ms: f64,
}

/// A selected entry on its way to the report.
enum Slot {
    Done(ServerReport),
    Running {
        head: ServerReport,
        task: tokio::task::JoinHandle<Result<ProbeRun, LaunchError>>,
        target: String,
        protocol: Protocol,
        setting: Box<Setting>,
    },
}

fn head(item: &Item, result: ServerResult) -> ServerReport {
    ServerReport {
        name: item.name.clone(),
        transport: item.transport.clone(),
        at: item.at.clone(),
        path: item.path.clone(),
        result,
        why: Vec::new(),
    }
}

/// Run every planned item at once; the entries not probed are reported first.
pub(crate) async fn run(items: Vec<Item>, opts: FleetOptions, sink: Arc<Sink>) -> Runs {
    let started_wall = SystemTime::now();
    let start = Instant::now();
    let deadline = opts.run_for.map(|d| start + d);

    // What is not probed is known before anything runs: say it first.
    for item in &items {
        let result = match &item.plan {
            EntryPlan::Probe(_) => continue,
            EntryPlan::Skipped(why) => ServerResult::Skipped(why.clone()),
            EntryPlan::Refused(label, findings) => ServerResult::Refused {
                label: label.clone(),
                findings: findings.clone(),
            },
        };
        sink(FleetEvent::NotProbed(&head(item, result)));
    }

    let mut slots = Vec::with_capacity(items.len());
    let mut index = 0usize;
    for item in items {
        let resolved = match item.plan {
            EntryPlan::Probe(ref r) => r,
            EntryPlan::Skipped(ref why) => {
                slots.push(Slot::Done(head(&item, ServerResult::Skipped(why.clone()))));
                continue;
            }
            EntryPlan::Refused(ref label, ref findings) => {
                let result = ServerResult::Refused {
                    label: label.clone(),
                    findings: findings.clone(),
                };
                slots.push(Slot::Done(head(&item, result)));
                continue;
            }
        };
        let Prepared {
            target,
            run,
            setting,
            target_text,
            protocol,
        } = prepare(resolved, &opts, item.position);
        let task = spawn(target, run, deadline, index, &item, &sink);
        index += 1;
        slots.push(Slot::Running {
            // The result is filled in once the run is over.
            head: head(&item, ServerResult::Skipped(String::new())),
            task,
            target: target_text,
            protocol,
            setting,
        });
    }

    // Every run first; the verdicts (a day replayed through the simulator for each server: CPU
    // work) only once nothing is timing relaunches any more.
    let mut servers = Vec::with_capacity(slots.len());
    for slot in slots {
        servers.push(match slot {
            Slot::Done(s) => (s, None),
            Slot::Running {
                head,
                task,
                target,
                protocol,
                setting,
            } => {
                let ran = Ran {
                    outcome: task.await,
                    target,
                    protocol,
                    setting,
                };
                (head, Some(ran))
            }
        });
    }
    Runs {
        servers,
        started_wall,
        elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
    }
}

/// One planned entry, ready to run: what `probe --all` and `serve` both launch it with.
pub(crate) struct Prepared {
    pub target: Target,
    /// Its loop's options (its own rule with its timings, its seed, the attempt's options
    /// with its protocol, redactor and the host's start budget).
    pub run: RunOptions,
    /// How it was started, for the diagnosis.
    pub setting: Box<Setting>,
    /// How the target is shown (redacted).
    pub target_text: String,
    pub protocol: Protocol,
}

/// What entry `resolved` (at `position` in its file) runs with under `opts`.
pub(crate) fn prepare(resolved: &Resolved, opts: &FleetOptions, position: u64) -> Prepared {
    let redactor = Arc::new(resolved.redactor.clone());
    let protocol = resolved.protocol;
    let target_text = resolved.target.describe(&redactor);
    let mut setting = Setting::of(&resolved.target, protocol, &redactor);
    setting.entry = true;
    let mut attempt = opts.attempt.clone();
    attempt.protocol = protocol;
    attempt.redactor = redactor;
    let policy = resolved
        .rule
        .policy_with(protocol.engine(), resolved.timings);
    if let Some(budget) = policy.start_budget_ms {
        if opts.host_budgets.handshake {
            attempt.handshake_timeout = super::plan::duration(budget);
        }
        if opts.host_budgets.install {
            attempt.start_budget = super::plan::duration(budget);
        }
    }
    // The Why knows the budgets the server got, the command line's as the host's: a
    // `--handshake-timeout` of milliseconds is the probe's doing, alone or in a fleet.
    setting.handshake_timeout_ms = Some(ms_of(attempt.handshake_timeout));
    setting.start_budget_ms = Some(ms_of(attempt.start_budget));
    let run = RunOptions {
        policy,
        seed: opts.seed.wrapping_add(position),
        launches: opts.launches,
        run_for: None,
        until_down: opts.until_down,
        attempt,
        target: target_text.clone(),
    };
    Prepared {
        target: resolved.target.clone(),
        run,
        setting: Box::new(setting),
        target_text,
        protocol,
    }
}

/// `d` in ms, exact for whole nanoseconds (`--handshake-timeout 60` reads back as 60).
fn ms_of(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

/// One server's loop in a task of its own, its events tagged with its index and name.
fn spawn(
    mut target: Target,
    mut opts: RunOptions,
    deadline: Option<Instant>,
    index: usize,
    item: &Item,
    sink: &Arc<Sink>,
) -> tokio::task::JoinHandle<Result<ProbeRun, LaunchError>> {
    let sink = sink.clone();
    let name = item.name.clone();
    let relaunch = opts.policy.relaunch;
    tokio::spawn(async move {
        // One deadline for every server, wherever its own run starts.
        opts.run_for = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut each = |e: &Event| {
            sink(FleetEvent::Server {
                index,
                name: &name,
                event: e,
                relaunch,
            })
        };
        probe::run(&mut target, opts, &mut each).await
    })
}

impl Runs {
    /// Judge every run (verdicts on all cores, diagnoses), reporting each server as it is
    /// judged. `interrupted`: what stopped the whole run, if anything did.
    pub(crate) fn judge(self, interrupted: Option<StopCause>, sink: &Sink) -> Vec<ServerReport> {
        let jobs: Vec<(&ProbeRun, EngineKind)> = self
            .servers
            .iter()
            .filter_map(|(_, ran)| match ran {
                Some(Ran {
                    outcome: Ok(Ok(run)),
                    protocol,
                    ..
                }) => Some((run, protocol.engine())),
                _ => None,
            })
            .collect();
        let mut verdicts = judge_all(&jobs).into_iter();
        self.servers
            .into_iter()
            .map(|(mut head, ran)| {
                let Some(ran) = ran else {
                    return head;
                };
                let (result, why) = judged(ran, interrupted, &mut verdicts);
                head.result = result;
                head.why = why;
                sink(FleetEvent::Judged(&head));
                head
            })
            .collect()
    }
}

/// One server's result and diagnoses, its verdict taken from `verdicts` (judged here should
/// that thread have failed).
fn judged(
    ran: Ran,
    interrupted: Option<StopCause>,
    verdicts: &mut impl Iterator<Item = Verdict>,
) -> (ServerResult, Vec<diagnosis::Diagnosis>) {
    let Ran {
        outcome,
        target,
        protocol,
        setting,
    } = ran;
    match outcome {
        Ok(Ok(run)) => {
            let why = diagnosis::diagnose(&run, &setting);
            let verdict = verdicts
                .next()
                .unwrap_or_else(|| judge_one(&run, protocol.engine()));
            let interrupted =
                interrupted.or((run.finish == Finish::Interrupted).then_some(StopCause::Interrupt));
            let probed = Probed {
                run,
                verdict,
                target,
                protocol,
                interrupted,
            };
            (ServerResult::Probed(Box::new(probed)), why)
        }
        Ok(Err(e)) => {
            let why = vec![diagnosis::of_launch_error(&e, &setting)];
            (ServerResult::CannotLaunch(e.to_string()), why)
        }
        Err(e) => (
            ServerResult::CannotLaunch(format!(
                "the probe of this server stopped unexpectedly: {e}"
            )),
            Vec::new(),
        ),
    }
}

/// The verdict on one run (the predictions replay the policy exchange's settle time as
/// observed).
fn judge_one(run: &ProbeRun, engine: EngineKind) -> Verdict {
    verdict::judge(
        run,
        engine,
        OpeningSummary::of(&run.launches).prediction_settle_ms(),
    )
}

/// The verdict on every run, in order, judged on all cores (each replays a day through the
/// simulator for every host rule: a few milliseconds of CPU per server).
fn judge_all(jobs: &[(&ProbeRun, EngineKind)]) -> Vec<Verdict> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = jobs.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|(run, engine)| judge_one(run, *engine))
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
                        .map(|(run, engine)| judge_one(run, *engine))
                        .collect()
                })
            })
            .collect()
    })
}
