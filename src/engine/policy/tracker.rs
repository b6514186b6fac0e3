//! The reconnect state machine: attempt numbering, the failure count, waits, give-up, alerts.
//!
//! The caller (a simulated server or a real probe) reports what each attempt did; the tracker
//! answers with the host's verdict and the next step. It allocates nothing per attempt.

use std::collections::VecDeque;
use std::fmt;

use super::rule::{AlertText, Envelope, GiveUp, Jitter, Policy, Relaunch, Reset};

/// How a connection or a launch ended, where known.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Ended {
    /// Not known (a simulated server).
    Unknown,
    /// The process exited with this code.
    Exit { code: i32 },
    /// The process was ended by this signal.
    Signal { signal: i32 },
    /// The server closed its stdout (the process may still run).
    StdoutClosed,
    /// The WebSocket peer sent a close frame.
    WsClose { code: u16, reason: String },
    /// The TCP connection ended without a close frame.
    ConnectionReset,
    /// A ping went unanswered.
    StoppedAnswering,
    /// The transport failed in a way none of the above names: a WebSocket protocol violation,
    /// or (HTTP, which has no connection to watch) a repeated `server/discover` that failed.
    /// The reason is redacted.
    TransportError { reason: String },
}

impl Ended {
    /// The parenthesised suffix of a short-lived error, e.g. ` (exit 0)`; empty when unknown.
    pub(crate) fn suffix(&self) -> EndedSuffix<'_> {
        EndedSuffix(self)
    }
}

/// Display helper for [`Ended::suffix`].
pub(crate) struct EndedSuffix<'a>(&'a Ended);

impl fmt::Display for EndedSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Ended::Unknown => Ok(()),
            other => write!(f, " ({other})"),
        }
    }
}

impl fmt::Display for Ended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ended::Unknown => f.write_str("how unknown"),
            Ended::Exit { code } => write!(f, "exit {code}"),
            Ended::Signal { signal } => write!(f, "signal {}", signal_name(*signal)),
            Ended::StdoutClosed => f.write_str("stdout closed"),
            Ended::WsClose { code, reason } if reason.is_empty() => write!(f, "close {code}"),
            Ended::WsClose { code, reason } => write!(f, "close {code}: {reason}"),
            Ended::ConnectionReset => f.write_str("connection dropped without a close frame"),
            Ended::StoppedAnswering => f.write_str("stopped answering pings"),
            Ended::TransportError { reason } => f.write_str(reason),
        }
    }
}

/// `SIGTERM` for 15 and so on; the number for others.
pub(crate) fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return format!("{signal}"),
    };
    name.to_string()
}

/// Why an attempt failed before (or instead of) making a connection.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failure {
    /// A simulated server's failure: reads `failed to connect`.
    Simulated,
    /// What the host's error would say (probe), e.g. `initialize handshake timed out`.
    Message(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Simulated => f.write_str("failed to connect"),
            Failure::Message(m) => f.write_str(m),
        }
    }
}

/// What one attempt did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// It never completed its handshake.
    FailedToConnect(Failure),
    /// A permanent failure: a protocol-version verdict, or a launch that could not be reaped.
    Permanent(Failure),
    /// It completed its handshake and the connection ended after `lived_ms`.
    Connected { lived_ms: f64, ended: Ended },
    /// It completed its handshake and is still connected after `lived_ms` (observation ended).
    StillUp { lived_ms: f64 },
}

impl Outcome {
    /// The host's error for this attempt when it counts as a failure (see [`Decision::counted`]).
    pub(crate) fn error(&self) -> OutcomeError<'_> {
        OutcomeError(self)
    }
}

/// Display helper: the host's error text for an outcome.
pub(crate) struct OutcomeError<'a>(&'a Outcome);

impl fmt::Display for OutcomeError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Outcome::FailedToConnect(failure) | Outcome::Permanent(failure) => failure.fmt(f),
            Outcome::Connected { lived_ms, ended } => write!(
                f,
                "connected, then closed after {} s{}",
                whole_seconds(*lived_ms),
                ended.suffix()
            ),
            Outcome::StillUp { lived_ms } => {
                write!(f, "still up after {} s", whole_seconds(*lived_ms))
            }
        }
    }
}

/// Whole seconds lived, rounded down, as the host writes them.
pub(super) fn whole_seconds(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        (ms / 1000.0).floor() as u64
    } else {
        0
    }
}

/// What the host made of an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Counted {
    /// A failed attempt that never connected.
    Failure,
    /// A connection that ended before the lasting threshold: the failure of its attempt.
    ShortLived,
    /// A connection that lived past the threshold: the count starts afresh.
    Lasted,
    /// Rule `handshake`: the handshake set the count to 0, its end is no failure.
    HandshakeReset,
    /// A permanent failure: reconnecting stops.
    Permanent,
    /// Still connected when observation ended.
    StillUp,
    /// Still connecting when observation ended: the attempt's outcome lies past its end.
    Pending,
}

impl Counted {
    /// Whether this attempt is a failed attempt in the host's eyes.
    pub(crate) fn is_failure(self) -> bool {
        matches!(
            self,
            Counted::Failure | Counted::ShortLived | Counted::Permanent
        )
    }

    /// Words for a table cell.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Counted::Failure => "failed attempt",
            Counted::ShortLived => "failed attempt (short-lived)",
            Counted::Lasted => "lasted: count starts afresh",
            Counted::HandshakeReset => "count reset by handshake",
            Counted::Permanent => "permanent failure",
            Counted::StillUp => "still up",
            Counted::Pending => "not decided by the end",
        }
    }
}

/// A wait before the next attempt.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Wait {
    /// Before jitter, after the cap and the timer rules.
    pub nominal_ms: f64,
    /// The shortest wait the jitter allows.
    pub min_ms: f64,
    /// The longest wait the jitter allows.
    pub max_ms: f64,
    /// The one other wait the jitter allows, apart from `min_ms..=max_ms`: 1 ms, where part of
    /// the jitter's range lies past the JavaScript timer's limit (2^31-1 ms) and runs after
    /// 1 ms. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub or_ms: Option<f64>,
    /// The wait chosen (jittered, as the timer runs it).
    pub ms: f64,
}

impl Wait {
    /// The range the jitter allows.
    #[cfg(test)]
    pub(crate) fn envelope(&self) -> Envelope {
        Envelope {
            min_ms: self.min_ms,
            max_ms: self.max_ms,
            or_ms: self.or_ms,
        }
    }
}

/// The step after an attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Next {
    /// Wait, then make attempt `attempt`.
    Retry { attempt: u32, wait: Wait },
    /// The supervisor gives up (its own words).
    GiveUp { reason: &'static str },
    /// The host relaunches only on the next tool call (its own words): until then the server
    /// stays down.
    OnNextCall { reason: &'static str },
    /// Reconnecting halts on a permanent failure.
    Halt,
    /// Nothing to schedule: the connection is still up.
    Watching,
}

/// The host's verdict on one attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Decision {
    /// The attempt's number (0 for the first connect).
    pub attempt: u32,
    pub counted: Counted,
    /// The count `k` of consecutive failures afterwards.
    pub failures: u32,
    /// How long a connection had to live to count as lasting, under this rule.
    pub lasting_threshold_ms: Option<f64>,
    /// The `mcpl-down` raised for this attempt, if any.
    pub alert: Option<AlertText>,
    pub next: Next,
}

/// A steady state whose waits are each drawn afresh: what every further attempt like the last
/// one is counted as, and the one nominal wait the jitter spreads (see
/// [`Tracker::glide_after`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glide {
    /// Each attempt is a failure (the count grows; the wait does not).
    pub failing: bool,
    /// Each raises `mcpl-down`.
    pub alert: bool,
    /// Each starts the count afresh (a lasting connection, or a handshake).
    pub resets: bool,
    pub nominal_ms: f64,
    /// Under a short-runs give-up: an uptime below this ends the glide (it would count).
    pub short_under_ms: Option<f64>,
}

/// One server's reconnect state under one policy.
#[derive(Debug, Clone)]
pub(crate) struct Tracker {
    policy: Policy,
    rng: Option<fastrand::Rng>,
    attempt: u32,
    failures: u32,
    consecutive_failures: u32,
    short_runs: u32,
    preceding_wait_ms: f64,
    launches: VecDeque<f64>,
    finished: bool,
    /// The last count's nominal wait and envelope.
    cached: Option<(u32, f64, Envelope)>,
}

impl Tracker {
    /// A tracker whose waits are jittered from `seed`, or nominal when `seed` is `None` (or the
    /// policy has no jitter).
    pub(crate) fn new(policy: Policy, seed: Option<u64>) -> Tracker {
        let rng = match (policy.jitter, seed) {
            (Jitter::Multiplicative { .. }, Some(seed)) => Some(fastrand::Rng::with_seed(seed)),
            _ => None,
        };
        Tracker {
            policy,
            rng,
            attempt: 0,
            failures: 0,
            consecutive_failures: 0,
            short_runs: 0,
            preceding_wait_ms: 0.0,
            launches: VecDeque::new(),
            finished: false,
            cached: None,
        }
    }

    pub(crate) fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The number of the attempt to make now.
    pub(crate) fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Whether reconnecting has stopped (gave up or halted).
    #[cfg(test)]
    pub(crate) fn finished(&self) -> bool {
        self.finished
    }

    /// How long the current attempt's connection must live to count as lasting.
    #[inline]
    pub(crate) fn lasting_threshold(&self) -> Option<f64> {
        self.policy.lasting_threshold(self.preceding_wait_ms)
    }

    /// Report what the current attempt did. `launched_at_ms` and `ended_at_ms` are on the
    /// caller's clock (simulated or monotonic), used by the give-up rules.
    #[inline]
    pub(crate) fn record(
        &mut self,
        launched_at_ms: f64,
        outcome: &Outcome,
        ended_at_ms: f64,
    ) -> Decision {
        let attempt = self.attempt;
        let threshold = self.lasting_threshold();
        let counted = self.count(outcome, threshold);
        let mut decision = Decision {
            attempt,
            counted,
            failures: self.failures,
            lasting_threshold_ms: threshold,
            alert: None,
            next: Next::Watching,
        };
        if counted == Counted::StillUp {
            return decision;
        }
        self.note_run(launched_at_ms, ended_at_ms);

        match counted {
            Counted::Permanent => {
                self.failures = attempt + 1;
                decision.failures = self.failures;
                decision.alert = self.policy.alert_for(attempt, true);
                decision.next = Next::Halt;
                self.finished = true;
                return decision;
            }
            Counted::Failure | Counted::ShortLived => {
                self.failures = attempt.saturating_add(1);
                self.consecutive_failures = self.consecutive_failures.saturating_add(1);
                decision.alert = self.policy.alert_for(attempt, false);
            }
            Counted::Lasted | Counted::HandshakeReset => {
                self.failures = 0;
                self.consecutive_failures = 0;
            }
            Counted::StillUp | Counted::Pending => unreachable!("returned above"),
        }
        decision.failures = self.failures;
        decision.next = match self.stops(ended_at_ms) {
            Some(next) => {
                self.finished = true;
                next
            }
            None => self.retry(ended_at_ms),
        };
        decision
    }

    /// How the host counts an attempt's outcome under the rule (a connection against the
    /// lasting `threshold`, where the rule has one).
    #[inline]
    fn count(&self, outcome: &Outcome, threshold: Option<f64>) -> Counted {
        match outcome {
            Outcome::FailedToConnect(_) => Counted::Failure,
            Outcome::Permanent(_) => Counted::Permanent,
            Outcome::StillUp { .. } => Counted::StillUp,
            Outcome::Connected { lived_ms, .. } => match self.policy.reset {
                Reset::OnHandshake => Counted::HandshakeReset,
                Reset::Never => Counted::ShortLived,
                _ => match threshold {
                    // `lived >= T`, false when T is NaN, as in JavaScript.
                    Some(t) if *lived_ms >= t => Counted::Lasted,
                    _ => Counted::ShortLived,
                },
            },
        }
    }

    /// Keep what the give-up rules need of an ended run: its launch time (a start burst) and
    /// whether it was short (PM2's short runs in a row).
    #[inline]
    fn note_run(&mut self, launched_at_ms: f64, ended_at_ms: f64) {
        if let GiveUp::StartBurst { starts, .. } = self.policy.give_up {
            if self.launches.len() > starts as usize {
                self.launches.pop_front();
            }
            self.launches.push_back(launched_at_ms);
        }
        let uptime = ended_at_ms - launched_at_ms;
        match self.policy.give_up {
            GiveUp::ShortRuns { under_ms, .. } if uptime < under_ms => self.short_runs += 1,
            _ => self.short_runs = 0,
        }
    }

    /// Whether the host stops after a counted attempt, and how: a host that never relaunches,
    /// one that waits for the next tool call, a rule that gives up.
    #[inline]
    fn stops(&self, ended_at_ms: f64) -> Option<Next> {
        match self.policy.relaunch {
            Relaunch::Backoff => {}
            Relaunch::Never { words, .. } => return Some(Next::GiveUp { reason: words }),
            Relaunch::OnNextCall { words, .. } => return Some(Next::OnNextCall { reason: words }),
        }
        self.gives_up(ended_at_ms)
            .map(|reason| Next::GiveUp { reason })
    }

    /// The next attempt and its wait after the current failure count; a give-up instead when
    /// that launch would break a start-burst limit.
    #[inline]
    fn retry(&mut self, ended_at_ms: f64) -> Next {
        let k = self.failures;
        let wait = self.choose_wait(k);
        let next_attempt = k.max(1);
        self.attempt = next_attempt;
        self.preceding_wait_ms = wait.ms;

        if let GiveUp::StartBurst { starts, within_ms } = self.policy.give_up {
            let next_launch = ended_at_ms + wait.ms;
            let recent = self
                .launches
                .iter()
                .filter(|&&t| t > next_launch - within_ms)
                .count();
            if recent + 1 > starts as usize {
                self.finished = true;
                return Next::GiveUp {
                    reason: "failed: start limit hit",
                };
            }
        }
        Next::Retry {
            attempt: next_attempt,
            wait,
        }
    }

    /// Whether every further attempt that does what the last one did (`last`, its launch at
    /// `launched`, its uptime) gets the same verdict and the same wait, whatever the jitter
    /// draws, launched every `period`: the steady state a simulation may skip through (see
    /// [`Tracker::skip`]). Attempt numbers may grow meanwhile; nothing else does.
    pub(crate) fn steady_after(&self, last: &Decision, launched: f64, period: f64) -> bool {
        let Next::Retry { wait, .. } = last.next else {
            return false;
        };
        if self.finished || !self.wait_is_fixed(wait) {
            return false;
        }
        let failing = match last.counted {
            Counted::Failure | Counted::ShortLived => true,
            Counted::Lasted | Counted::HandshakeReset => false,
            _ => return false,
        };
        if failing
            && (!self.policy.wait_settled(self.failures)
                || (self.policy.has_alert() && last.alert.is_none()))
        {
            return false;
        }
        match self.policy.give_up {
            GiveUp::Never => true,
            GiveUp::AfterRetries { .. } => !failing,
            GiveUp::ShortRuns { .. } => self.short_runs == 0,
            GiveUp::StartBurst { starts, .. } => {
                // The window holds only launches of the steady state, `period` apart.
                self.launches.len() == starts as usize + 1
                    && self.launches.back() == Some(&launched)
                    && self
                        .launches
                        .iter()
                        .zip(self.launches.iter().skip(1))
                        .all(|(a, b)| b - a == period)
            }
        }
    }

    /// Whether every further attempt that does what the last one did (`last`) gets the same
    /// verdict, whatever the waits the jitter draws (each a draw of its own, unlike
    /// [`Tracker::steady_after`]): then [`Tracker::repeat`] may stand for [`Tracker::record`].
    /// Rules whose verdict depends on the waits or launch times (the preceding-wait threshold,
    /// a start burst) never glide.
    pub(crate) fn glide_after(&self, last: &Decision) -> Option<Glide> {
        let Next::Retry { .. } = last.next else {
            return None;
        };
        if self.finished
            || self.policy.reset == Reset::PrecedingWait
            || self.policy.start_budget_ms.is_some()
        {
            return None;
        }
        let failing = match last.counted {
            Counted::Failure | Counted::ShortLived => true,
            Counted::Lasted | Counted::HandshakeReset => false,
            _ => return None,
        };
        if failing
            && (!self.policy.wait_settled(self.failures)
                || (self.policy.has_alert() && last.alert.is_none()))
        {
            return None;
        }
        let short_under_ms = match self.policy.give_up {
            GiveUp::Never => None,
            GiveUp::AfterRetries { .. } if !failing => None,
            GiveUp::ShortRuns { under_ms, .. } if self.short_runs == 0 => Some(under_ms),
            _ => return None,
        };
        let k = if failing { self.failures } else { 0 };
        Some(Glide {
            failing,
            alert: last.alert.is_some(),
            resets: !failing,
            nominal_ms: self.policy.nominal_wait(k),
            short_under_ms,
        })
    }

    /// What [`Tracker::record`] does to an attempt like the last one after
    /// [`Tracker::glide_after`] said yes (the same state changes, the same jitter draw);
    /// returns the wait before the next attempt.
    #[inline]
    pub(crate) fn repeat(&mut self, glide: &Glide) -> f64 {
        if glide.failing {
            self.failures = self.attempt.saturating_add(1);
            self.consecutive_failures = self.consecutive_failures.saturating_add(1);
        } else {
            self.failures = 0;
            self.consecutive_failures = 0;
        }
        // `glide_after` asked for none, and the caller stops before a short run.
        self.short_runs = 0;
        let nominal = glide.nominal_ms;
        let jittered = match (self.policy.jitter, self.rng.as_mut()) {
            (Jitter::Multiplicative { spread }, Some(rng)) => {
                nominal * (1.0 - spread + 2.0 * spread * rng.f64())
            }
            _ => nominal,
        };
        let ms = self.policy.timer_wait(jittered);
        self.attempt = self.failures.max(1);
        self.preceding_wait_ms = ms;
        ms
    }

    /// Whether the wait chosen is the same whatever the jitter draws.
    fn wait_is_fixed(&self, wait: Wait) -> bool {
        self.rng.is_none() || (wait.min_ms == wait.max_ms && wait.or_ms.is_none())
    }

    /// `n` more attempts, each doing what the last one did, the first launched at `launched`
    /// and each `period` after the one before, after [`Tracker::steady_after`] said yes:
    /// exactly the state `n` calls of [`Tracker::record`] would leave. No jitter is drawn (the
    /// waits do not depend on it).
    pub(crate) fn skip(&mut self, n: u64, last: &Decision, period: f64) {
        if matches!(last.counted, Counted::Failure | Counted::ShortLived) {
            let add = u32::try_from(n).unwrap_or(u32::MAX);
            self.attempt = self.attempt.saturating_add(add);
            self.failures = self.attempt;
            self.consecutive_failures = self.consecutive_failures.saturating_add(add);
        }
        if let GiveUp::StartBurst { .. } = self.policy.give_up {
            let shift = n as f64 * period;
            for t in self.launches.iter_mut() {
                *t += shift;
            }
        }
    }

    #[inline]
    fn gives_up(&self, _now_ms: f64) -> Option<&'static str> {
        match self.policy.give_up {
            GiveUp::Never | GiveUp::StartBurst { .. } => None,
            GiveUp::AfterRetries { retries } => (self.consecutive_failures > retries).then_some(
                self.policy
                    .give_up_words
                    .unwrap_or("gave up: out of retries"),
            ),
            GiveUp::ShortRuns { restarts, .. } => {
                (self.short_runs >= restarts).then_some("errored: unstable restarts")
            }
        }
    }

    /// The wait for count `k`: nominal, envelope, and the one chosen.
    #[inline]
    pub(crate) fn choose_wait(&mut self, k: u32) -> Wait {
        // Waits depend on k alone; a long simulation asks for the same k again and again.
        let (nominal, envelope) = match self.cached {
            Some((ck, n, e)) if ck == k => (n, e),
            _ => {
                let n = self.policy.nominal_wait(k);
                let e = self.policy.envelope_of(n);
                self.cached = Some((k, n, e));
                (n, e)
            }
        };
        let jittered = match (self.policy.jitter, self.rng.as_mut()) {
            (Jitter::Multiplicative { spread }, Some(rng)) => {
                nominal * (1.0 - spread + 2.0 * spread * rng.f64())
            }
            _ => nominal,
        };
        Wait {
            nominal_ms: self.policy.timer_wait(nominal),
            min_ms: envelope.min_ms,
            max_ms: envelope.max_ms,
            or_ms: envelope.or_ms,
            ms: self.policy.timer_wait(jittered),
        }
    }
}
