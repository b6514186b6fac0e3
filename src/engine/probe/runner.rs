//! The probe loop: launch, watch, record with the policy's tracker, wait, relaunch.
//!
//! Every attempt number, verdict, wait and alert comes from [`Tracker`]; the loop only measures
//! and sleeps. Generic over [`Connector`], so tests drive it with a scripted transport on
//! tokio's paused clock.

use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::{AttemptOptions, AttemptReport, Connector, Event, LaunchError, Progress, StopLevel};
use crate::engine::policy::{Decision, Next, Outcome, Policy, Tracker, Wait};

/// What to run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The host rule (preset with timings) the loop follows.
    pub policy: Policy,
    /// The jitter seed.
    pub seed: u64,
    /// Stop after this many launches (`None`: no limit).
    pub launches: Option<u32>,
    /// `--for`: stop at this much time after the start.
    pub run_for: Option<Duration>,
    /// `--until-down`: stop once the host would raise `mcpl-down`.
    pub until_down: bool,
    /// Per-attempt options; `epoch` and `deadline` are set by [`run`].
    pub attempt: AttemptOptions,
    /// How the target is shown to a person (redacted), for the `Started` event.
    pub target: String,
}

/// One launch: what it did and what the host made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    /// 1-based launch number.
    pub number: u32,
    /// The host's attempt number (0 for the first connect).
    pub attempt: u32,
    pub report: AttemptReport,
    /// The host's verdict; `None` when the probe cut the attempt before it had an outcome.
    pub decision: Option<Decision>,
    /// The host's error for this attempt, when it counts as a failure (redacted).
    pub error: Option<String>,
    /// The exact `mcpl-down` text, when one is raised.
    pub alert: Option<String>,
}

impl Launch {
    /// The wait chosen after this launch, if the loop was to relaunch.
    pub fn wait(&self) -> Option<Wait> {
        match self.decision.map(|d| d.next) {
            Some(Next::Retry { wait, .. }) => Some(wait),
            _ => None,
        }
    }
}

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// `--launches N` reached.
    Launches(u32),
    /// `--for` elapsed.
    Deadline,
    /// `--until-down`: the host would raise `mcpl-down`.
    UntilDown,
    /// The connection was still up after `--watch`.
    StillUp,
    /// A permanent failure: the host halts reconnecting.
    Halted,
    /// The rule gives up (peer presets).
    GaveUp(&'static str),
    /// Ctrl-C.
    Interrupted,
}

/// The launch the host would make next when the run stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planned {
    pub attempt: u32,
    /// When it is (or was) due, ms since the epoch.
    pub at_ms: f64,
    pub wait: Wait,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeRun {
    pub policy: Policy,
    pub seed: u64,
    pub launches: Vec<Launch>,
    pub finish: Finish,
    pub planned: Option<Planned>,
    /// Wall clock at the epoch.
    pub started_wall: SystemTime,
    /// How long the run took.
    pub elapsed_ms: f64,
}

/// Run the probe loop against `connector`, reporting events to `sink`.
///
/// A [`LaunchError`] (the command cannot be launched at all) ends the run at once: it is a usage
/// error, not a relaunch loop.
pub async fn run<C: Connector>(
    connector: &mut C,
    opts: RunOptions,
    sink: &mut (dyn FnMut(&Event) + Send),
) -> Result<ProbeRun, LaunchError> {
    let epoch = Instant::now();
    let started_wall = SystemTime::now();
    let deadline = opts.run_for.map(|d| epoch + d);
    let mut attempt_opts = opts.attempt.clone();
    attempt_opts.epoch = epoch;
    attempt_opts.deadline = deadline;
    let stop = attempt_opts.stop.clone();
    let ms = |t: Instant| t.saturating_duration_since(epoch).as_secs_f64() * 1000.0;

    let mut tracker = Tracker::new(opts.policy.clone(), Some(opts.seed));
    sink(&Event::Started {
        target: opts.target.clone(),
        rule: opts.policy.name.clone(),
        protocol: attempt_opts.protocol,
        interval_ms: opts.policy.timings.interval_ms,
        cap_ms: opts.policy.timings.cap_ms,
        lasting_threshold_ms: tracker.lasting_threshold(),
        seed: opts.seed,
    });

    let mut launches: Vec<Launch> = Vec::new();
    let mut planned: Option<Planned> = None;
    let finish = loop {
        if stop.level() >= StopLevel::Graceful {
            break Finish::Interrupted;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break Finish::Deadline;
        }
        let number = launches.len() as u32 + 1;
        let attempt = tracker.attempt();
        let report = {
            let mut launched_at_ms = 0.0;
            let mut progress = |p: Progress| match p {
                Progress::Launched { at_ms, pid } => {
                    launched_at_ms = at_ms;
                    sink(&Event::Launched {
                        launch: number,
                        attempt,
                        at_ms,
                        pid,
                    });
                }
                Progress::Connected { at_ms, server } => sink(&Event::Connected {
                    launch: number,
                    attempt,
                    at_ms,
                    handshake_ms: at_ms - launched_at_ms,
                    server,
                }),
            };
            connector.attempt(&attempt_opts, &mut progress).await?
        };
        let decision = report
            .outcome
            .as_ref()
            .map(|o| tracker.record(report.launched_at_ms, o, report.ended_at_ms));
        let launch = launch_record(number, attempt, report, decision);
        sink(&Event::Ended(Box::new(launch.clone())));
        if let Some(text) = &launch.alert {
            sink(&Event::Alert {
                launch: number,
                attempt,
                text: text.clone(),
            });
        }
        let ended_at_ms = launch.report.ended_at_ms;
        let alerted = launch.alert.is_some();
        launches.push(launch);

        let Some(decision) = decision else {
            break if stop.level() >= StopLevel::Graceful {
                Finish::Interrupted
            } else {
                Finish::Deadline
            };
        };
        match decision.next {
            Next::Watching => {
                break if stop.level() >= StopLevel::Graceful {
                    Finish::Interrupted
                } else if deadline.is_some_and(|d| Instant::now() >= d) {
                    Finish::Deadline
                } else {
                    Finish::StillUp
                };
            }
            Next::Halt => break Finish::Halted,
            Next::GiveUp { reason } => break Finish::GaveUp(reason),
            Next::Retry { attempt, wait } => {
                let at_ms = ended_at_ms + wait.ms;
                planned = Some(Planned {
                    attempt,
                    at_ms,
                    wait,
                });
                if stop.level() >= StopLevel::Graceful {
                    break Finish::Interrupted;
                }
                if opts.until_down && alerted {
                    break Finish::UntilDown;
                }
                if opts.launches.is_some_and(|n| number >= n) {
                    break Finish::Launches(number);
                }
                sink(&Event::Waiting {
                    next_attempt: attempt,
                    wait,
                    until_ms: at_ms,
                });
                let due = epoch + Duration::from_secs_f64(at_ms.max(0.0) / 1000.0);
                let far = epoch + Duration::from_secs(86_400 * 365 * 30);
                tokio::select! {
                    () = tokio::time::sleep_until(due) => {}
                    () = stop.reached(StopLevel::Graceful) => break Finish::Interrupted,
                    () = tokio::time::sleep_until(deadline.unwrap_or(far)) => break Finish::Deadline,
                }
                planned = None;
            }
        }
    };
    let run = ProbeRun {
        policy: opts.policy,
        seed: opts.seed,
        launches,
        finish,
        planned,
        started_wall,
        elapsed_ms: ms(Instant::now()),
    };
    sink(&Event::Finished {
        finish: run.finish,
        planned: run.planned,
    });
    Ok(run)
}

fn launch_record(
    number: u32,
    attempt: u32,
    report: AttemptReport,
    decision: Option<Decision>,
) -> Launch {
    let (error, alert) = match (&report.outcome, &decision) {
        (Some(outcome), Some(d)) => {
            let error = (d.counted.is_failure()
                || matches!(outcome, Outcome::FailedToConnect(_) | Outcome::Permanent(_)))
            .then(|| outcome.error().to_string());
            let alert = d.alert.map(|a| a.with_error(&outcome.error()));
            (error, alert)
        }
        _ => (None, None),
    };
    Launch {
        number,
        attempt,
        report,
        decision,
        error,
        alert,
    }
}
