//! The probe loop: launch, watch, record with the policy's tracker, wait, relaunch.
//!
//! Every attempt number, verdict, wait and alert comes from [`Tracker`]; the loop only measures
//! and sleeps. Generic over [`Connector`], so tests drive it with a scripted transport on
//! tokio's paused clock.

pub(crate) mod events;
pub(crate) mod run_record;
pub(crate) mod verdict;

use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use self::events::Event;
use super::model::{AttemptOptions, AttemptReport, LaunchError, Progress, Stopped};
use super::stop::{StopLevel, StopSignal};
use super::target::Connector;

pub(crate) use self::run_record::{
    Finish, Folded, Launch, Planned, ProbeRun, KEEP_FIRST, KEEP_LAST,
};
use crate::engine::policy::{Counted, Decision, Ended, Failure, Next, Outcome, Policy, Tracker};

/// What to run.
#[derive(Debug, Clone)]
pub(crate) struct RunOptions {
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

/// Run the probe loop against `connector`, reporting events to `sink`.
///
/// A [`LaunchError`] (the command cannot be launched at all) ends the run at once: it is a usage
/// error, not a relaunch loop.
pub(crate) async fn run<C: Connector>(
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
    sink(&started(&opts, &attempt_opts, &tracker));

    let mut launches: Vec<Launch> = Vec::new();
    let mut folded = Folded::default();
    let mut number: u32 = 0;
    let mut planned: Option<Planned> = None;
    let clock = Clock {
        epoch,
        deadline,
        stop: &stop,
    };
    let finish = loop {
        if stop.level() >= StopLevel::Graceful {
            break Finish::Interrupted;
        }
        if clock.past_deadline() {
            break Finish::Deadline;
        }
        number = number.saturating_add(1);
        let attempt = tracker.attempt();
        let launch = launch_once(
            connector,
            &attempt_opts,
            &mut tracker,
            number,
            attempt,
            sink,
        )
        .await?;
        let decision = launch.decision;
        let ended_at_ms = launch.report.ended_at_ms;
        let alerted = launch.alert.is_some();
        keep(launch, &mut launches, &mut folded, sink);

        // No decision: the launch was cut by the user's stop or the deadline.
        let Some(decision) = decision else {
            break clock.cut_short();
        };
        match decision.next {
            Next::Watching => break clock.still_up(),
            Next::Halt => break Finish::Halted,
            // The host relaunches only on the next tool call: a probe makes none, so it ends.
            Next::GiveUp { reason } | Next::OnNextCall { reason } => break Finish::GaveUp(reason),
            Next::Retry { attempt, wait } => {
                let next = Planned {
                    attempt,
                    at_ms: ended_at_ms + wait.ms,
                    wait,
                };
                planned = Some(next);
                if let Some(finish) = retry_or_end(&opts, &clock, number, alerted, next, sink).await
                {
                    break finish;
                }
                planned = None;
            }
        }
    };
    let run = ProbeRun {
        policy: opts.policy,
        seed: opts.seed,
        launches,
        folded,
        finish,
        planned,
        started_wall,
        elapsed_ms: ms(Instant::now()),
        strict: attempt_opts.strict,
        args: Vec::new(),
    };
    let (finish, planned) = (run.finish, run.planned);
    sink(&Event::Finished { finish, planned });
    Ok(run)
}

/// The run's clock: its start, its `--for` deadline, and the user's stop.
struct Clock<'a> {
    epoch: Instant,
    deadline: Option<Instant>,
    stop: &'a StopSignal,
}

impl Clock<'_> {
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A launch cut before its outcome: by the user's stop, else by the deadline.
    fn cut_short(&self) -> Finish {
        if self.stop.level() >= StopLevel::Graceful {
            Finish::Interrupted
        } else {
            Finish::Deadline
        }
    }

    /// A launch still up when the host would go on watching it: the run ends by the user's
    /// stop, the deadline, else the watch (`--watch`) it outlived.
    fn still_up(&self) -> Finish {
        if self.stop.level() >= StopLevel::Graceful {
            Finish::Interrupted
        } else if self.past_deadline() {
            Finish::Deadline
        } else {
            Finish::StillUp
        }
    }
}

/// The run's first event: what is probed, under which rule and timings, with which seed.
fn started(opts: &RunOptions, attempt_opts: &AttemptOptions, tracker: &Tracker) -> Event {
    Event::Started {
        target: opts.target.clone(),
        rule: opts.policy.name.clone(),
        protocol: attempt_opts.protocol,
        interval_ms: opts.policy.timings.interval_ms,
        cap_ms: opts.policy.timings.cap_ms,
        lasting_threshold_ms: tracker.lasting_threshold(),
        seed: opts.seed,
    }
}

/// The host's planned relaunch `next`: the run ends first if a limit says so (a stop,
/// `--until-down` after an alert, `--launches`), else it waits until the launch is due, which
/// a stop or the deadline may cut. `Some(finish)` ends the run (`next` stays its planned
/// launch); `None` once the launch is due.
async fn retry_or_end(
    opts: &RunOptions,
    clock: &Clock<'_>,
    number: u32,
    alerted: bool,
    next: Planned,
    sink: &mut (dyn FnMut(&Event) + Send),
) -> Option<Finish> {
    if clock.stop.level() >= StopLevel::Graceful {
        return Some(Finish::Interrupted);
    }
    if opts.until_down && alerted {
        return Some(Finish::UntilDown);
    }
    if opts.launches.is_some_and(|n| number >= n) {
        return Some(Finish::Launches(number));
    }
    sink(&Event::Waiting {
        next_attempt: next.attempt,
        wait: next.wait,
        until_ms: next.at_ms,
    });
    let due = clock.epoch + Duration::from_secs_f64(next.at_ms.max(0.0) / 1000.0);
    let far = clock.epoch + Duration::from_secs(86_400 * 365 * 30);
    tokio::select! {
        () = tokio::time::sleep_until(due) => None,
        () = clock.stop.reached(StopLevel::Graceful) => Some(Finish::Interrupted),
        () = tokio::time::sleep_until(clock.deadline.unwrap_or(far)) => Some(Finish::Deadline),
    }
}

/// Report a launch's end (and its alert), and keep it: whole among the first and last, folded
/// between them.
fn keep(
    launch: Launch,
    launches: &mut Vec<Launch>,
    folded: &mut Folded,
    sink: &mut (dyn FnMut(&Event) + Send),
) {
    sink(&Event::Ended(Box::new(launch.clone())));
    if let Some(text) = &launch.alert {
        sink(&Event::Alert {
            launch: launch.number,
            attempt: launch.attempt,
            text: text.clone(),
        });
    }
    launches.push(launch);
    if launches.len() > KEEP_FIRST + KEEP_LAST {
        // The oldest of the last rows joins the fold (a shift of KEEP_LAST rows: cheap).
        let old = launches.remove(KEEP_FIRST);
        folded.add(&old);
    }
}

/// Make launch `number` (the host's attempt `attempt`), reporting its progress to `sink`, and
/// record its outcome with the tracker.
async fn launch_once<C: Connector>(
    connector: &mut C,
    attempt_opts: &AttemptOptions,
    tracker: &mut Tracker,
    number: u32,
    attempt: u32,
    sink: &mut (dyn FnMut(&Event) + Send),
) -> Result<Launch, LaunchError> {
    let mut report = {
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
            Progress::ToolsListed { count, digest } => sink(&Event::ToolsListed {
                launch: number,
                attempt,
                count,
                digest,
            }),
        };
        connector.attempt(attempt_opts, &mut progress).await?
    };
    let decision = if report.stopped == Stopped::CouldNotBeReaped {
        Some(unreaped(tracker, &mut report))
    } else {
        report
            .outcome
            .as_ref()
            .map(|o| tracker.record(report.launched_at_ms, o, report.ended_at_ms))
    };
    Ok(launch_record(number, attempt, report, decision))
}

/// A launch whose process could not be reaped: the host records the connection's end as
/// usual (short-lived: the count goes on, so the next attempt is N+1; lasting: the count
/// resets, so it is 1), then halts reconnecting with that attempt number (agent-framework
/// PR #999, review point R1-7). The report's outcome becomes the permanent failure that says
/// so.
fn unreaped(tracker: &mut Tracker, report: &mut AttemptReport) -> Decision {
    let connection = match report.outcome.take() {
        Some(Outcome::StillUp { lived_ms }) => Outcome::Connected {
            lived_ms,
            ended: Ended::Unknown,
        },
        Some(o @ (Outcome::Connected { .. } | Outcome::FailedToConnect(_))) => o,
        Some(Outcome::Permanent(f)) => Outcome::Permanent(f),
        None => Outcome::FailedToConnect(Failure::Message("cut before its handshake".into())),
    };
    let recorded = tracker.record(report.launched_at_ms, &connection, report.ended_at_ms);
    let next_attempt = match recorded.next {
        Next::Retry { attempt, .. } => attempt,
        _ => recorded.attempt + 1,
    };
    let pid = report
        .pid
        .map_or_else(|| "the process".to_string(), |p| format!("process {p}"));
    let after = match recorded.counted {
        Counted::Lasted | Counted::HandshakeReset => "after a lasting connection",
        Counted::ShortLived => "after a short-lived connection",
        _ => "after a failed attempt",
    };
    report.outcome = Some(Outcome::Permanent(Failure::Message(format!(
        "{pid} could not be reaped (still there after SIGTERM, 2 s, SIGKILL, 2 s); the host halts reconnecting at attempt {next_attempt} ({after})"
    ))));
    Decision {
        counted: Counted::Permanent,
        next: Next::Halt,
        failures: next_attempt,
        alert: recorded
            .alert
            .or_else(|| tracker.policy().alert_for(recorded.attempt, true)),
        ..recorded
    }
}

pub(crate) fn launch_record(
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

#[cfg(test)]
mod tests {
    //! The loop's state machine against a scripted transport on tokio's paused clock: no
    //! processes, no real sleeping, exact times.

    use std::collections::VecDeque;
    use std::sync::Arc;

    use super::*;
    use crate::engine::policy::{Counted, Ended, EngineKind, Failure, Preset, Timings};
    use crate::engine::probe::{stop_pair, Protocol, ServerInfo, StopSignal, Stopped};
    use crate::engine::redact::Redactor;

    /// What a scripted attempt does.
    #[derive(Clone, Copy, Debug)]
    enum Step {
        /// Fails `after` ms into the attempt.
        Fail { after: u64 },
        /// Handshake after `startup` ms, lives `lives` ms, exits with 0.
        Live { startup: u64, lives: u64 },
        /// A permanent verdict after `after` ms.
        Refuse { after: u64 },
        /// Connects after `startup` ms and stays up (until watch, deadline or stop).
        Stay { startup: u64 },
    }

    struct Script {
        steps: VecDeque<Step>,
        last: Step,
        /// When each attempt was made (ms since the epoch), as the transport saw it.
        launched: Vec<f64>,
        /// The launch (1-based) whose process cannot be reaped.
        unreaped: Option<usize>,
    }

    impl Script {
        fn new(steps: &[Step]) -> Script {
            Script {
                steps: steps.iter().copied().collect(),
                last: *steps.last().expect("a step"),
                launched: Vec::new(),
                unreaped: None,
            }
        }
    }

    /// Sleep until `t`; false when the deadline or a stop came first.
    async fn sleep_until(t: Instant, deadline: Option<Instant>, stop: &StopSignal) -> bool {
        let far = t + Duration::from_secs(1);
        tokio::select! {
            () = tokio::time::sleep_until(t) => true,
            () = tokio::time::sleep_until(deadline.unwrap_or(far)), if deadline.is_some_and(|d| d < t) => false,
            () = stop.reached(StopLevel::Graceful) => false,
        }
    }

    impl Connector for Script {
        async fn attempt(
            &mut self,
            opts: &AttemptOptions,
            progress: &mut (dyn FnMut(Progress) + Send),
        ) -> Result<AttemptReport, LaunchError> {
            let step = self.steps.pop_front().unwrap_or(self.last);
            let launched = Instant::now();
            self.launched.push(opts.ms_since_epoch(launched));
            progress(Progress::Launched {
                at_ms: opts.ms_since_epoch(launched),
                pid: None,
            });
            let d = |ms: u64| Duration::from_millis(ms);
            let (stop, deadline) = (&opts.stop, opts.deadline);
            let mut connected_at = None;
            let outcome = match step {
                Step::Fail { after } => sleep_until(launched + d(after), deadline, stop)
                    .await
                    .then(|| Outcome::FailedToConnect(Failure::Message("boom".into()))),
                Step::Refuse { after } => sleep_until(launched + d(after), deadline, stop)
                    .await
                    .then(|| Outcome::Permanent(Failure::Message("refused".into()))),
                Step::Live { startup, .. } | Step::Stay { startup } => {
                    if sleep_until(launched + d(startup), deadline, stop).await {
                        let at = Instant::now();
                        connected_at = Some(at);
                        progress(Progress::Connected {
                            at_ms: opts.ms_since_epoch(at),
                            server: ServerInfo::default(),
                        });
                        let (end, closes) = match step {
                            Step::Live { lives, .. } if d(lives) < opts.watch => {
                                (at + d(lives), true)
                            }
                            _ => (at + opts.watch, false),
                        };
                        let natural = sleep_until(end, deadline, stop).await;
                        let lived_ms = (Instant::now() - at).as_secs_f64() * 1000.0;
                        Some(if natural && closes {
                            Outcome::Connected {
                                lived_ms,
                                ended: Ended::Exit { code: 0 },
                            }
                        } else {
                            Outcome::StillUp { lived_ms }
                        })
                    } else {
                        None
                    }
                }
            };
            Ok(AttemptReport {
                launched_at_ms: opts.ms_since_epoch(launched),
                launched_at_wall: SystemTime::now(),
                pid: None,
                connected_at_ms: connected_at.map(|c| opts.ms_since_epoch(c)),
                server: None,
                ended_at_ms: opts.ms_since_epoch(Instant::now()),
                outcome,
                stopped: if self.unreaped == Some(self.launched.len()) {
                    Stopped::CouldNotBeReaped
                } else {
                    Stopped::Closed
                },
                pings_sent: 0,
                pings_answered: 0,
                stderr: Default::default(),
                stdout: Default::default(),
                process: None,
                misbehaviour: Default::default(),
                remote: None,
                session: Default::default(),
                opening: None,
                escaped: 0,
            })
        }
    }

    fn options(preset: Preset, interval_ms: f64, stop: StopSignal) -> RunOptions {
        RunOptions {
            policy: preset.policy_with(
                EngineKind::Legacy,
                Timings {
                    interval_ms,
                    cap_ms: 300_000.0,
                },
            ),
            seed: 7,
            launches: Some(8),
            run_for: None,
            until_down: false,
            attempt: AttemptOptions {
                protocol: Protocol::Legacy,
                handshake_timeout: Duration::from_secs(30),
                watch: Duration::from_secs(30),
                ping: None,
                redactor: Arc::new(Redactor::new()),
                stop,
                deadline: None,
                epoch: Instant::now(),
                start_budget: Duration::from_secs(60),
                handshake_only: false,
                strict: false,
                call: None,
                notable_stderr: crate::engine::probe::no_notable_stderr,
            },
            target: "script".into(),
        }
    }

    async fn probe(script: &mut Script, opts: RunOptions) -> (ProbeRun, Vec<Event>) {
        let mut events = Vec::new();
        let run = run(script, opts, &mut |e: &Event| events.push(e.clone()))
            .await
            .expect("runs");
        (run, events)
    }

    #[tokio::test(start_paused = true)]
    async fn the_375_loop_under_lasting_follows_the_tracker_exactly() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Live {
            startup: 100,
            lives: 300,
        }]);
        let opts = options(Preset::Lasting, 200.0, stop);
        let policy = opts.policy.clone();
        let (run, events) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::Launches(8));
        assert_eq!(run.launches.len(), 8);

        // The same tracker, fed the same outcomes, gives the same numbers, waits and alerts.
        let mut tracker = Tracker::new(policy, Some(7));
        for (i, l) in run.launches.iter().enumerate() {
            assert_eq!(l.attempt, i as u32, "attempts are 0, 1, 2, ...");
            let o = l.report.outcome.clone().expect("an outcome");
            assert_eq!(
                o,
                Outcome::Connected {
                    lived_ms: 300.0,
                    ended: Ended::Exit { code: 0 }
                }
            );
            let d = tracker.record(l.report.launched_at_ms, &o, l.report.ended_at_ms);
            assert_eq!(l.decision, Some(d));
            assert_eq!(d.counted, Counted::ShortLived);
            // Waits double (with jitter inside its envelope).
            if let Next::Retry { wait, .. } = d.next {
                let nominal = 200.0 * 2f64.powi(i as i32);
                assert_eq!(wait.nominal_ms, nominal.min(300_000.0));
                assert!(wait.ms >= wait.min_ms && wait.ms <= wait.max_ms);
            }
            // The alert from attempt 5, in the host's words.
            if i >= 5 {
                assert_eq!(
                    l.alert.as_deref(),
                    Some(
                        format!("MCPL server down (attempt {i}): connected, then closed after 0 s (exit 0)")
                            .as_str()
                    )
                );
            } else {
                assert_eq!(l.alert, None);
            }
        }
        // Each relaunch comes exactly the chosen wait after the previous end.
        for w in run.launches.windows(2) {
            let wait = w[0].wait().expect("a wait").ms;
            assert_eq!(w[1].report.launched_at_ms, w[0].report.ended_at_ms + wait);
        }
        // Events: started, then per launch launched/connected/ended (+alert), waiting between.
        let alerts = events
            .iter()
            .filter(|e| matches!(e, Event::Alert { .. }))
            .count();
        assert_eq!(alerts, 3);
        assert!(matches!(events.first(), Some(Event::Started { .. })));
        assert!(matches!(events.last(), Some(Event::Finished { .. })));
        let connected: Vec<f64> = events
            .iter()
            .filter_map(|e| match e {
                Event::Connected { handshake_ms, .. } => Some(*handshake_ms),
                _ => None,
            })
            .collect();
        assert_eq!(connected, vec![100.0; 8]);
        // --launches 8 stopped it before the 9th: the planned launch is reported.
        let planned = run.planned.expect("a planned launch");
        assert_eq!(planned.attempt, 8);
    }

    #[tokio::test(start_paused = true)]
    async fn the_375_loop_under_handshake_never_alerts_and_waits_the_base() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Live {
            startup: 100,
            lives: 300,
        }]);
        let mut opts = options(Preset::Handshake, 200.0, stop);
        opts.launches = None;
        opts.run_for = Some(Duration::from_millis(8000));
        let (run, _) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::Deadline);
        assert!(run.launches.iter().all(|l| l.alert.is_none()));
        // Attempt 0, then attempt 1 forever.
        assert!(run.launches.iter().skip(1).all(|l| l.attempt == 1));
        for w in run.launches.windows(2) {
            let gap = w[1].report.launched_at_ms - w[0].report.launched_at_ms;
            // startup + life + wait (200 ms +-25%)
            assert!((400.0 + 150.0..=400.0 + 250.0).contains(&gap), "{gap}");
        }
        // 8 s / ~0.6 s: about 13 launches, as in #375.
        assert!(
            (11..=16).contains(&run.launches.len()),
            "{}",
            run.launches.len()
        );
        // The deadline fell in a connection or a wait; nothing ran past it.
        assert!(run.elapsed_ms <= 8000.0 + 1e-6, "{}", run.elapsed_ms);
    }

    #[tokio::test(start_paused = true)]
    async fn an_unreaped_launch_halts_at_the_attempt_the_host_would_make_next() {
        // Short-lived connections: attempts 0, 1, 2; the third cannot be reaped: the host
        // records its short life (count 3) and halts at attempt 3.
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Live {
            startup: 100,
            lives: 300,
        }]);
        script.unreaped = Some(3);
        let (run, _) = probe(&mut script, options(Preset::Lasting, 200.0, stop)).await;
        assert_eq!(run.finish, Finish::Halted);
        assert_eq!(run.launches.len(), 3);
        let l = &run.launches[2];
        assert_eq!(l.attempt, 2);
        let d = l.decision.expect("a decision");
        assert_eq!(d.next, Next::Halt);
        assert_eq!(d.failures, 3);
        let error = l.error.as_deref().unwrap_or_default();
        assert!(error.contains("could not be reaped"), "{error}");
        assert!(
            error.contains("halts reconnecting at attempt 3 (after a short-lived connection)"),
            "{error}"
        );

        // A lasting connection resets the count: the host halts at attempt 1.
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[
            Step::Live {
                startup: 100,
                lives: 300,
            },
            Step::Live {
                startup: 100,
                lives: 5_000,
            },
        ]);
        script.unreaped = Some(2);
        let mut opts = options(Preset::Lasting, 200.0, stop);
        opts.policy.reset = crate::engine::policy::Reset::AfterUptime { ms: 1_000.0 };
        opts.attempt.watch = Duration::from_secs(60);
        let (run, _) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::Halted);
        let error = run.launches[1].error.clone().unwrap_or_default();
        assert!(
            error.contains("halts reconnecting at attempt 1 (after a lasting connection)"),
            "{error}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn until_down_stops_at_the_first_alert() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Fail { after: 50 }]);
        let mut opts = options(Preset::Lasting, 100.0, stop);
        opts.launches = None;
        opts.until_down = true;
        let (run, _) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::UntilDown);
        assert_eq!(run.launches.len(), 6);
        assert_eq!(
            run.launches[5].alert.as_deref(),
            Some("MCPL server down (attempt 5): boom")
        );
        assert_eq!(run.planned.map(|p| p.attempt), Some(6));
    }

    #[tokio::test(start_paused = true)]
    async fn a_deadline_during_a_wait_reports_the_planned_launch() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Fail { after: 10 }]);
        let mut opts = options(Preset::Lasting, 1000.0, stop);
        opts.launches = None;
        opts.run_for = Some(Duration::from_millis(500));
        let (run, _) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::Deadline);
        assert_eq!(run.launches.len(), 1);
        let p = run.planned.expect("planned");
        assert_eq!(p.attempt, 1);
        assert_eq!(p.at_ms, 10.0 + p.wait.ms);
        assert_eq!(run.elapsed_ms, 500.0);
    }

    #[tokio::test(start_paused = true)]
    async fn still_up_after_watch_ends_the_run_with_the_threshold() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Fail { after: 10 }, Step::Stay { startup: 20 }]);
        let mut opts = options(Preset::Lasting, 100.0, stop);
        opts.attempt.watch = Duration::from_secs(2);
        let (run, _) = probe(&mut script, opts).await;
        assert_eq!(run.finish, Finish::StillUp);
        assert_eq!(run.launches.len(), 2);
        let last = &run.launches[1];
        assert_eq!(
            last.report.outcome,
            Some(Outcome::StillUp { lived_ms: 2000.0 })
        );
        let d = last.decision.expect("decision");
        assert_eq!(d.counted, Counted::StillUp);
        assert_eq!(d.lasting_threshold_ms, Some(300_000.0));
        assert_eq!(run.planned, None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_permanent_verdict_halts_with_an_alert_at_once() {
        let (_h, stop) = stop_pair();
        let mut script = Script::new(&[Step::Refuse { after: 5 }]);
        let (run, _) = probe(&mut script, options(Preset::Handshake, 100.0, stop)).await;
        assert_eq!(run.finish, Finish::Halted);
        assert_eq!(run.launches.len(), 1);
        assert_eq!(
            run.launches[0].alert.as_deref(),
            Some("MCPL server unreachable (attempt 0): refused")
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_stop_request_during_a_wait_ends_the_run_as_interrupted() {
        let (handle, stop) = stop_pair();
        let mut script = Script::new(&[Step::Fail { after: 10 }]);
        let opts = options(Preset::Lasting, 10_000.0, stop);
        let stopper = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(3000)).await;
            handle.escalate();
            handle
        });
        let (run, _) = probe(&mut script, opts).await;
        let _handle = stopper.await.expect("joined");
        assert_eq!(run.finish, Finish::Interrupted);
        assert_eq!(run.launches.len(), 1);
        assert_eq!(run.elapsed_ms, 3000.0);
        assert!(run.planned.is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn a_stop_request_during_a_handshake_cuts_the_attempt_without_a_verdict() {
        let (handle, stop) = stop_pair();
        let mut script = Script::new(&[Step::Stay { startup: 5000 }]);
        let opts = options(Preset::Lasting, 100.0, stop);
        let stopper = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1000)).await;
            handle.escalate();
            handle
        });
        let (run, _) = probe(&mut script, opts).await;
        let _handle = stopper.await.expect("joined");
        assert_eq!(run.finish, Finish::Interrupted);
        assert_eq!(run.launches[0].decision, None);
        assert_eq!(run.launches[0].report.outcome, None);
        assert_eq!(script.launched, vec![0.0]);
    }
}
