//! One server, whether it is probed alone (`probe -- CMD`, `--url`, `--server ID`: a fleet of
//! one) or as an entry of a configuration: what it runs with ([`prepare`]: its rule under its
//! timings, the host's start budget, its seed, the budgets its Why is told of), and how its run
//! is judged ([`judged`]: the verdict, the Why, what stopped it). Both ways go through here, so
//! one server alone and the same server in `--all` get the same verdict.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::diagnosis::{self, Setting};
use crate::engine::policy::EngineKind;
use crate::engine::probe::opening::OpeningSummary;
use crate::engine::probe::runner::verdict::{self, Verdict};
use crate::engine::probe::{AttemptOptions, Finish, LaunchError, ProbeRun, Protocol};
use crate::engine::probe::{RunOptions, Target};
use crate::engine::stop::StopCause;

use super::plan::{EntryPlan, Item, Resolved};
use super::report::{Probed, ServerResult};

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

/// One planned server, ready to run: what `probe` (alone or `--all`) and `serve` launch it
/// with.
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

/// What `resolved` (at `position` in its file; 0 alone) runs with under `opts`.
pub(crate) fn prepare(resolved: &Resolved, opts: &FleetOptions, position: u64) -> Prepared {
    let redactor = Arc::new(resolved.redactor.clone());
    let protocol = resolved.protocol;
    let target_text = resolved.target.describe(&redactor);
    let mut setting = Setting::of(&resolved.target, protocol, &redactor);
    setting.entry = resolved.entry.is_some();
    if let Some(c) = &opts.attempt.call {
        setting.call_words = crate::engine::diagnosis::call_words(&c.arguments, &redactor);
        setting.call_tool = Some(c.name.clone());
    }
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

impl Item {
    /// The one server the command line names (a command, a URL, or `--server ID`), as the
    /// only item of a fleet: named by its entry's id, else by its target; its seed is the
    /// run's own (position 0), so `--server ID --seed N` repeats that entry's waits in `--all`.
    pub(crate) fn alone(resolved: Resolved) -> Item {
        let entry = resolved.entry.clone();
        let name = match &entry {
            Some(e) => e.id.clone(),
            None => resolved.target.describe(&resolved.redactor),
        };
        let host = entry
            .as_ref()
            .and_then(|e| crate::engine::config::Host::from_name(&e.host))
            .unwrap_or(crate::engine::config::Host::AgentFramework);
        Item {
            position: 0,
            name,
            transport: resolved.target.transport().to_string(),
            at: entry.as_ref().map(|e| e.at.clone()).unwrap_or_default(),
            path: entry.map(|e| e.path).unwrap_or_default(),
            host,
            plan: EntryPlan::Probe(Box::new(resolved)),
        }
    }
}

pub(crate) type Outcome = Result<Result<ProbeRun, LaunchError>, tokio::task::JoinError>;

/// A server that ran, before it is judged.
pub(crate) struct Ran {
    pub outcome: Outcome,
    /// How the target is shown (redacted).
    pub target: String,
    pub protocol: Protocol,
    /// How it was started, for the diagnosis.
    pub setting: Box<Setting>,
}

/// One server's result and diagnoses, its verdict taken from `verdicts` (judged here should
/// that thread have failed). `interrupted`: what stopped the whole run, if anything did.
pub(crate) fn judged(
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
pub(crate) fn judge_all(jobs: &[(&ProbeRun, EngineKind)]) -> Vec<Verdict> {
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
