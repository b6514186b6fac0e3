//! Every selected entry probed at once, each in its own task under its own entry's timings
//! (one server alone is a fleet of one); what each runs with and how it is judged is
//! [`server`](super::server)'s.
//!
//! Each server's loop is the single-server loop ([`probe::run`]) in a task of its own (on a
//! multi-threaded runtime, one server's relaunch never waits for another's). Every stdio
//! server still runs in its own process group behind its drop guard; one shared stop signal
//! reaches every loop. `run_for` is one deadline for all; `launches` bounds each server. What
//! happens is reported as [`FleetEvent`]s; nothing here prints.

use std::sync::Arc;
use std::time::SystemTime;

use tokio::time::Instant;

use crate::engine::diagnosis::{self, Setting};
use crate::engine::policy::{EngineKind, Relaunch};
use crate::engine::probe::{self, Event, Finish, LaunchError, ProbeRun, Protocol};
use crate::engine::probe::{RunOptions, Target};
use crate::engine::stop::StopCause;

use super::plan::{EntryPlan, Item};
use super::report::{ServerReport, ServerResult};
use super::server::{judge_all, judged, prepare, FleetOptions, Prepared, Ran};

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
        task: tokio::task::JoinHandle<
            Result<(ProbeRun, diagnosis::relaunch::Relaunched), LaunchError>,
        >,
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
        let task = spawn(target, run, deadline, index, (&item, &setting), &sink);
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
                mut setting,
            } => {
                let outcome = task.await.map(|r| {
                    r.map(|(run, relaunched)| {
                        setting.relaunched = relaunched;
                        run
                    })
                });
                let ran = Ran {
                    outcome,
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

/// One server's loop in a task of its own, its events tagged with its index and name.
fn spawn(
    mut target: Target,
    mut opts: RunOptions,
    deadline: Option<Instant>,
    index: usize,
    (item, setting): (&Item, &Setting),
    sink: &Arc<Sink>,
) -> tokio::task::JoinHandle<Result<(ProbeRun, diagnosis::relaunch::Relaunched), LaunchError>> {
    let sink = sink.clone();
    let setting = setting.clone();
    let name = item.name.clone();
    let relaunch = opts.policy.relaunch;
    let protocol = opts.attempt.protocol;
    let handshake_ms = opts.attempt.handshake_timeout.as_secs_f64() * 1000.0;
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
        let mut run = probe::run(&mut target, opts, &mut each).await?;
        run.args = setting.args.clone();
        // A `--call` result not marked `isError` that names an address: connect there, so a
        // refused one is judged a failed call (bounded; before the verdict reads the run).
        diagnosis::prove_answers(&mut run, &setting).await;
        // A failed command: the experiments that launch it again (bounded), for its Why.
        let interrupted = run.finish == Finish::Interrupted;
        let relaunched =
            diagnosis::relaunch::after_run(&run, &target, protocol, handshake_ms, interrupted)
                .await;
        Ok((run, relaunched))
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
