//! Stepping a simulation launch by launch: the scripted server, the host's tracker, the notices
//! and the strip, each launch's row and the summary.

use super::fast_forward::{self, Bounds, Cycle, Parts, Steady};
use super::model::{
    empty_summary, Happened, Request, Row, Simulation, StatusLine, Summary, Then, DAY_MS,
};
use super::notices::Notices;
use super::scenario::{attempt_at, Attempt, Behaviour};
use super::strip::Strip;
use crate::engine::policy::{Counted, Decision, Glide, Next, Outcome, TimingRefusal, Tracker};

/// Run a simulation. Nothing past the span is counted or shown: a launch inside it whose
/// outcome comes later is a row "still connecting", without its failure or alert. The steady
/// state is skipped through (see `fast_forward`), so without jitter any span costs about the
/// same.
pub fn simulate(req: &Request) -> Simulation {
    simulate_driven(req, Drive::default())
}

/// [`simulate`] stepping every launch, never skipping: what the fast-forward must equal (tests)
/// and the cost of a step (benchmarks).
pub fn simulate_stepping(req: &Request) -> Simulation {
    simulate_driven(
        req,
        Drive {
            fast_forward: false,
            watch: None,
        },
    )
}

/// How a simulation is driven.
pub(crate) struct Drive<'w> {
    /// Skip through the steady state (the default).
    pub fast_forward: bool,
    /// Called now and then (every 2^20 stepped launches) with the simulated time reached;
    /// `false` stops the run there, and its summary holds over the time reached (see
    /// [`Simulation::interrupted_at_ms`]).
    pub watch: Option<&'w mut dyn FnMut(f64) -> bool>,
}

impl Default for Drive<'_> {
    fn default() -> Self {
        Drive {
            fast_forward: true,
            watch: None,
        }
    }
}

/// Launches in a row at one instant after which a span-bounded run stops counting: the host
/// would relaunch without end and time would never pass.
const SAME_INSTANT_LIMIT: u32 = 10_000;

/// Launches between two calls of [`Drive::watch`].
const WATCH_EVERY: u64 = 1 << 20;

/// [`simulate`], driven: with or without the fast-forward, watched (progress, interruption).
pub(crate) fn simulate_driven(req: &Request, mut drive: Drive<'_>) -> Simulation {
    let mut run = Run::new(req);
    if let Some(refusal) = req.policy.timing_refusal() {
        run.refuse_at_start(&refusal);
        return run.finish();
    }
    let mut t = 0.0f64;
    let mut next_watch = WATCH_EVERY;
    let mut same_instant = 0u32;
    while t < run.span && req.max_attempts.is_none_or(|m| run.s.launches < m) {
        if run.s.launches >= next_watch {
            next_watch = run.s.launches + WATCH_EVERY;
            if let Some(watch) = drive.watch.as_mut() {
                if !watch(t) {
                    run.interrupt(t);
                    break;
                }
            }
        }
        let step = if run.rows.len() < req.keep_rows {
            run.launch::<true>(t)
        } else {
            run.launch::<false>(t)
        };
        match step {
            Step::Next(at) if at > t => {
                t = at;
                same_instant = 0;
            }
            Step::Next(_) => {
                // No wait and no lifetime: launches without end at one instant.
                same_instant += 1;
                if same_instant >= SAME_INSTANT_LIMIT && req.max_attempts.is_none() {
                    run.endless(t);
                    break;
                }
            }
            Step::Stop => break,
        }
        if drive.fast_forward {
            if let Some(cycle) = run.steady.take() {
                if let Some(next) = run.fast_forward(&cycle) {
                    t = next;
                    run.glide = None;
                }
            }
            if let Some(glide) = run.glide.take() {
                let limit = req.max_attempts.map_or(next_watch, |m| m.min(next_watch));
                t = run.glide(&glide, t, limit);
            }
        }
    }
    run.status_until = run.trailing_until(t);
    run.finish()
}

/// One simulation under way: the host's tracker, and everything the run adds up.
struct Run<'a> {
    req: &'a Request,
    tracker: Tracker,
    strip: Strip,
    notices: Notices,
    rows: Vec<Row>,
    s: Summary,
    /// The behaviour's connection lifetimes (empty: it never connects, or stays up).
    lives: &'a [f64],
    /// Connections made so far (which of `lives` comes next).
    connections: usize,
    /// How long after a reconnect the legacy engine reports it: once the policy exchange has
    /// settled with the server still connected. `None`: the modern engine, at once.
    settle: Option<f64>,
    span: f64,
    /// Where observation ended: the last outcome, or the span.
    end: f64,
    /// Looks for the steady state.
    steady: Steady,
    /// Where the run was stopped early, if it was.
    interrupted_at: Option<f64>,
    /// A steady state whose waits are drawn afresh each time, once seen (see [`Run::glide`]).
    glide: Option<Glide>,
    /// How far the host's status lines are counted: past the run's end under an attempts
    /// bound (see [`Run::trailing_until`]).
    status_until: f64,
}

/// What comes after a launch.
enum Step {
    /// The next launch, at this time.
    Next(f64),
    /// No more launches: reconnecting stopped, the server stays up, or the span ended.
    Stop,
}

impl<'a> Run<'a> {
    fn new(req: &'a Request) -> Run<'a> {
        let span = if req.span_ms.is_nan() {
            0.0
        } else {
            req.span_ms
        };
        let strip_span = if req.max_attempts.is_some() {
            f64::INFINITY
        } else {
            span
        };
        Run {
            req,
            tracker: Tracker::new(req.policy.clone(), req.seed),
            strip: Strip::new(req.strip_width, strip_span),
            notices: Notices::default(),
            rows: Vec::with_capacity(req.keep_rows.min(4096)),
            s: empty_summary(),
            lives: match &req.scenario.behaviour {
                Behaviour::Lives(l) if !l.is_empty() => l.as_slice(),
                _ => &[],
            },
            connections: 0,
            settle: req
                .policy
                .reconnected_waits_for_settle()
                .then(|| req.scenario.settle_ms.max(0.0)),
            span,
            end: 0.0,
            steady: Steady::default(),
            interrupted_at: None,
            glide: None,
            status_until: 0.0,
        }
    }

    /// Under an attempts bound, the host still posts what falls due after the last attempt
    /// and before anything could clear it: until the next launch would come (`next`, where the
    /// loop stopped), or for ever once reconnecting stopped. Under a span, the span.
    fn trailing_until(&self, next: f64) -> f64 {
        if self.req.max_attempts.is_none() {
            return self.span;
        }
        let until = if self.s.stopped.is_some() {
            f64::INFINITY
        } else {
            next.max(self.end)
        };
        until.min(self.span)
    }

    /// Skip whole cycles like `cycle` (just stepped), if the state repeats and the bounds
    /// allow; returns the next launch's time.
    fn fast_forward(&mut self, cycle: &Cycle) -> Option<f64> {
        // Every further connection lives as the last one did.
        let saturated = self.lives.is_empty() || self.connections >= self.lives.len();
        let bounds = Bounds {
            span: self.span,
            strip_limit: self.strip.limit_ms(),
            max_launches: self.req.max_attempts,
        };
        let n = saturated
            .then(|| fast_forward::cycles_to_skip(cycle, &self.tracker, &self.s, &bounds))
            .flatten();
        let Some(n) = n else {
            self.steady.not_yet();
            return None;
        };
        let parts = Parts {
            s: &mut self.s,
            strip: &mut self.strip,
            notices: &mut self.notices,
            tracker: &mut self.tracker,
        };
        let (next, end) = fast_forward::skip(cycle, n, parts);
        self.connections = self
            .connections
            .saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
        self.end = end;
        Some(next)
    }

    /// Step launches like the last one from `t` while they stay inside the span and below
    /// `limit` launches: what [`Run::launch`] does to each (the same sums in the same order,
    /// the same jitter draws), without its general case. Returns the next launch's time. Stops
    /// before a launch that [`Run::launch`] must take: one whose outcome reaches the span's end,
    /// one in which no time passes, or (short-runs rules) a short run.
    fn glide(&mut self, g: &Glide, mut t: f64, limit: u64) -> f64 {
        let scenario = &self.req.scenario;
        // The attempt: connected `startup` after its launch for `life`, or failed after
        // `fail_after`.
        let connects = self
            .lives
            .last()
            .map(|&life| (scenario.startup_ms.max(0.0), life));
        let fail_after = scenario.fail_after_ms.max(0.0);
        let reported = connects.and_then(|(_, life)| match self.settle {
            None => Some(0.0),
            Some(settle) => (life > settle).then_some(settle),
        });
        let span = self.span;
        while t < span && self.s.launches < limit {
            let launched = t;
            let (up, ended) = match connects {
                Some((startup, life)) => {
                    let up = launched + startup;
                    (up, up + life)
                }
                None => (launched, launched + fail_after),
            };
            if !(ended < span && ended > launched)
                || g.short_under_ms
                    .is_some_and(|under| ended - launched < under)
            {
                break;
            }
            self.s.launches += 1;
            if connects.is_some() {
                self.connections += 1;
                if let Some(after) = reported {
                    self.notices.reconnected(up + after, None);
                }
                if ended > up {
                    self.s.connected_ms += ended - up;
                    self.strip.connected(up, ended);
                }
            }
            let wait = self.tracker.repeat(g);
            self.end = ended;
            if g.resets {
                self.s.count_resets += 1;
            }
            if g.alert {
                self.s.downs += 1;
                if self.notices.alert(ended, None, None) {
                    self.s.webhooks += 1;
                }
                self.strip.alert(ended);
            }
            self.s.longest_wait_ms = self.s.longest_wait_ms.max(wait);
            t = ended + wait;
        }
        t
    }

    /// Launches without end at `t`: no wait, no lifetime, so time never passes.
    fn endless(&mut self, t: f64) {
        self.s.stopped = Some(format!(
            "counting stopped: {SAME_INSTANT_LIMIT} launches at one instant (no wait, no \
             lifetime)"
        ));
        self.s.stopped_at_ms = Some(t);
    }

    /// Stopped at `t` (the next launch's time): everything before it is counted, and the run's
    /// summary holds over `0..t`.
    fn interrupt(&mut self, t: f64) {
        self.span = t;
        self.interrupted_at = Some(t);
    }

    /// When the host reports a reconnect whose connection came up at `up` and lives `life`:
    /// at once on the modern engine; on the legacy one once the policy exchange has settled
    /// with the server still connected, so never for a connection that ends at (or before)
    /// the instant it would settle.
    #[inline]
    fn reported_at(&self, up: f64, life: f64) -> Option<f64> {
        match self.settle {
            None => Some(up),
            Some(settle) => (life > settle).then_some(up + settle),
        }
    }

    /// Refused at start: no launch, one mcpl-down at time 0 naming the field.
    fn refuse_at_start(&mut self, refusal: &TimingRefusal) {
        if let Some(alert) = self.req.policy.alert_for(0, true) {
            let text = alert.with_error(refusal);
            self.s.downs = 1;
            self.s.first_down_ms = Some(0.0);
            self.s.first_down_attempt = Some(0);
            if self.notices.alert(0.0, Some(text.clone()), None) {
                self.s.webhooks = 1;
            }
            self.strip.alert(0.0);
            self.s.refused_at_start = Some(text);
        }
        self.s.stopped = Some(format!(
            "refused by the host at start: {} reads as {}",
            refusal.field.name(),
            refusal.reads_as
        ));
        self.s.stopped_at_ms = Some(0.0);
    }

    /// One launch at `launched`: its outcome, what the host makes of it, its row. `KEEP`:
    /// whether rows may still be kept (once they are all kept, the launches that follow are
    /// stepped by a copy of this without any of the rows' work).
    #[inline]
    fn launch<const KEEP: bool>(&mut self, launched: f64) -> Step {
        let span = self.span;
        self.s.launches += 1;
        let keep = KEEP && self.rows.len() < self.req.keep_rows;
        let mut status: Vec<StatusLine> = Vec::new();
        let lines_before = (self.notices.down_lines, self.notices.cleared_lines);

        let Attempt {
            outcome,
            ended_at,
            connected_at,
            life,
        } = attempt_at(
            &self.req.scenario,
            self.lives,
            &mut self.connections,
            launched,
            self.req.policy.start_budget_ms,
        );
        if self.pending_at_end(launched, connected_at, ended_at, keep) {
            return Step::Stop;
        }
        let (outcome, ended_at) = clip_to_span(outcome, ended_at, connected_at, span);
        let reconnect = self.reconnected(connected_at, life, keep, &mut status);
        if ended_at.is_infinite() {
            return self.watch_a_day(launched, connected_at, keep, status);
        }
        self.count_connected(connected_at, ended_at);

        let decision = self.tracker.record(launched, &outcome, ended_at);
        self.end = ended_at;
        if decision.counted == Counted::StillUp {
            return self.still_up(launched, connected_at, &outcome, ended_at, keep, status);
        }
        if matches!(decision.counted, Counted::Lasted | Counted::HandshakeReset) {
            self.s.count_resets += 1;
        }
        let (alert, webhook) = self.alert(&decision, &outcome, ended_at, keep, &mut status);
        if let Next::Retry { wait, .. } = decision.next {
            self.s.longest_wait_ms = self.s.longest_wait_ms.max(wait.ms);
            if !KEEP && self.steady.watching() {
                let next = ended_at + wait.ms;
                let lines = (
                    self.notices.down_lines - lines_before.0,
                    self.notices.cleared_lines - lines_before.1,
                );
                let notices = self.notices.state(next);
                let (up, ended) = (connected_at, ended_at);
                #[rustfmt::skip]
                self.saw(Cycle { launched, next, up, ended, reconnect, decision, lines, notices });
            }
        }
        if keep {
            let (outcome, decision) = (&outcome, &decision);
            #[rustfmt::skip]
            let kept = Kept { launched, connected_at, outcome, decision, alert, webhook, status };
            let row = self.row(kept, ended_at);
            self.rows.push(row);
        }
        self.next(&decision, ended_at)
    }

    /// An outcome past the span is not counted: the launch is still connecting at its end (its
    /// row says so). Whether it was.
    #[inline]
    fn pending_at_end(
        &mut self,
        launched: f64,
        connected_at: Option<f64>,
        ended_at: f64,
        keep: bool,
    ) -> bool {
        let pending = match connected_at {
            Some(up) => up > self.span,
            // The span is half-open: an outcome due exactly at its end is not seen.
            None => ended_at >= self.span,
        };
        if pending {
            self.end = self.span;
            if keep {
                let row = pending_row(self.s.launches, &self.tracker, launched);
                self.rows.push(row);
            }
        }
        pending
    }

    /// A successful reconnect (any launch after the first) closes an open episode, once
    /// reported: at once, or on the legacy engine once the policy exchange has settled with the
    /// server still connected. When, if it did within the span.
    #[inline]
    fn reconnected(
        &mut self,
        connected_at: Option<f64>,
        life: Option<f64>,
        keep: bool,
        status: &mut Vec<StatusLine>,
    ) -> Option<f64> {
        let (Some(up), Some(life)) = (connected_at, life) else {
            return None;
        };
        let at = self.reported_at(up, life)?;
        if self.s.launches > 1 && at <= self.span {
            self.notices.reconnected(at, keep.then_some(status));
            return Some(at);
        }
        None
    }

    /// A healthy server under an attempts bound: watched for a day, then the run stops.
    #[inline]
    fn watch_a_day(
        &mut self,
        launched: f64,
        connected_at: Option<f64>,
        keep: bool,
        status: Vec<StatusLine>,
    ) -> Step {
        let up = connected_at.unwrap_or(launched);
        self.s.connected_ms += DAY_MS;
        self.strip.connected(up, up + DAY_MS);
        self.end = up + DAY_MS;
        if keep {
            let mut row = still_up_row(self.s.launches, &self.tracker, launched, up, DAY_MS);
            row.status = status;
            self.rows.push(row);
        }
        Step::Stop
    }

    /// The time connected, from the handshake to the end (within the span).
    #[inline]
    fn count_connected(&mut self, connected_at: Option<f64>, ended_at: f64) {
        if let Some(up) = connected_at {
            let up_to = ended_at.min(self.span);
            if up_to > up {
                self.s.connected_ms += up_to - up;
                self.strip.connected(up, up_to);
            }
        }
    }

    /// A connection still up when the span ends: the status lines due by then, its row, and the
    /// run stops.
    #[inline]
    fn still_up(
        &mut self,
        launched: f64,
        connected_at: Option<f64>,
        outcome: &Outcome,
        ended_at: f64,
        keep: bool,
        mut status: Vec<StatusLine>,
    ) -> Step {
        self.notices.advance(ended_at, keep.then_some(&mut status));
        if keep {
            let up = connected_at.unwrap_or(launched);
            let lived = match outcome {
                Outcome::StillUp { lived_ms } => *lived_ms,
                _ => ended_at - up,
            };
            let mut row = still_up_row(self.s.launches, &self.tracker, launched, up, lived);
            row.status = status;
            self.rows.push(row);
        }
        Step::Stop
    }

    /// A quiet launch followed by a wait: a cycle for the steady state to compare, and
    /// whether the launches like it may glide (see [`Run::glide`]).
    #[inline]
    fn saw(&mut self, cycle: Cycle) {
        let decision = cycle.decision;
        self.steady.saw(cycle);
        let saturated = self.lives.is_empty() || self.connections >= self.lives.len();
        self.glide = saturated
            .then(|| self.tracker.glide_after(&decision))
            .flatten();
    }

    /// After a decision: the next launch, or why reconnecting stopped.
    #[inline]
    fn next(&mut self, decision: &Decision, ended_at: f64) -> Step {
        match decision.next {
            Next::Retry { wait, .. } => Step::Next(ended_at + wait.ms),
            other => {
                self.s.stopped = stopped(other);
                self.s.stopped_at_ms = Some(ended_at);
                self.s.stopped_as = Some(Then::of(other));
                Step::Stop
            }
        }
    }

    /// A kept launch's row; status lines due before the next launch belong to it.
    fn row(&mut self, kept: Kept<'_>, ended_at: f64) -> Row {
        let Kept {
            launched,
            connected_at,
            outcome,
            decision,
            alert,
            webhook,
            mut status,
        } = kept;
        let (wait, next_attempt) = match decision.next {
            Next::Retry { attempt, wait } => (Some(wait), Some(attempt)),
            _ => (None, None),
        };
        let next_launch = wait.map_or(f64::INFINITY, |w| ended_at + w.ms);
        // The last attempt too (its bound, or a give-up): nothing can clear an open episode
        // before the next launch would come, so the host posts its "down" line then.
        let until = next_launch;
        self.notices
            .advance(until.min(self.span), Some(&mut status));
        Row {
            launch: self.s.launches,
            attempt: decision.attempt,
            launched_at_ms: launched,
            connected_at_ms: connected_at,
            // The behaviour's own lifetime, not a difference of absolute times.
            lived_ms: match outcome {
                Outcome::Connected { lived_ms, .. } => Some(*lived_ms),
                _ => None,
            },
            happened: happened(outcome, decision.counted),
            happened_text: happened_text(outcome, decision.counted),
            counted: decision.counted,
            wait,
            next_attempt,
            alert,
            webhook,
            status,
            then: Then::of(decision.next),
            stopped: stopped(decision.next),
        }
    }

    /// The `mcpl-down` the host raises for this attempt, if any: counted, its status line and
    /// webhook (at most one per 15 minutes), its mark on the strip. Returns its text (for a
    /// kept row) and whether it posted the webhook.
    fn alert(
        &mut self,
        decision: &Decision,
        outcome: &Outcome,
        ended_at: f64,
        keep: bool,
        status: &mut Vec<StatusLine>,
    ) -> (Option<String>, bool) {
        let Some(alert) = &decision.alert else {
            return (None, false);
        };
        self.s.downs += 1;
        if self.s.first_down_ms.is_none() {
            self.s.first_down_ms = Some(ended_at);
            self.s.first_down_attempt = Some(decision.attempt);
        }
        let text = keep.then(|| alert.with_error(&outcome.error()));
        let webhook = self
            .notices
            .alert(ended_at, text.clone(), keep.then_some(status));
        if webhook {
            self.s.webhooks += 1;
        }
        self.strip.alert(ended_at);
        (text, webhook)
    }

    fn finish(mut self) -> Simulation {
        // What falls due past the run's end under an attempts bound belongs to its last row.
        let all_kept = self.rows.len() as u64 == self.s.launches;
        self.notices.advance(
            self.status_until,
            self.rows
                .last_mut()
                .filter(|_| all_kept)
                .map(|r| &mut r.status),
        );
        finish(
            self.req,
            self.s,
            self.rows,
            self.strip,
            self.notices,
            self.span,
            self.end,
        )
        .interrupted(self.interrupted_at)
    }
}

/// What a kept launch's row is made of.
struct Kept<'o> {
    launched: f64,
    connected_at: Option<f64>,
    outcome: &'o Outcome,
    decision: &'o Decision,
    alert: Option<String>,
    webhook: bool,
    status: Vec<StatusLine>,
}

/// Why reconnecting stopped, in a row's and the summary's words.
fn stopped(next: Next) -> Option<String> {
    match next {
        Next::Retry { .. } | Next::Watching => None,
        Next::GiveUp { reason } | Next::OnNextCall { reason } => Some(reason.to_string()),
        Next::Halt => Some("permanent failure: reconnecting stops".to_string()),
    }
}

/// What a row says happened.
fn happened(outcome: &Outcome, counted: Counted) -> Happened {
    match (outcome, counted) {
        (Outcome::Connected { .. }, Counted::Lasted) => Happened::Lasted,
        (Outcome::Connected { .. }, _) => Happened::ConnectedThenClosed,
        _ => Happened::FailedToConnect,
    }
}

/// [`happened`] in words: the connection's end for a short-lived one.
fn happened_text(outcome: &Outcome, counted: Counted) -> String {
    match (outcome, counted) {
        (Outcome::Connected { .. }, Counted::Lasted) => "lasted".to_string(),
        (Outcome::Connected { .. }, _) => outcome.error().to_string(),
        // `failed to connect`, or the host's reason (a start budget run out).
        _ => outcome.error().to_string(),
    }
}

fn finish(
    req: &Request,
    mut s: Summary,
    mut rows: Vec<Row>,
    mut strip: Strip,
    mut notices: Notices,
    span: f64,
    end: f64,
) -> Simulation {
    // The covered span: the requested span (time goes on after a give-up), or the last event
    // when bounded by attempts.
    let covered = if req.max_attempts.is_some() {
        end.min(span)
    } else {
        span
    };
    let all_kept = rows.len() as u64 == s.launches;
    notices.advance(
        covered,
        rows.last_mut().filter(|_| all_kept).map(|r| &mut r.status),
    );
    strip.end_ms = covered;
    strip.fit(covered);
    strip.seal();

    let per_day = |n: f64| {
        if covered > 0.0 {
            n * DAY_MS / covered
        } else {
            0.0
        }
    };
    s.span_ms = covered;
    s.launches_per_day = per_day(s.launches as f64);
    s.downs_per_day = per_day(s.downs as f64);
    s.webhooks_per_day = per_day(s.webhooks as f64);
    s.status_down_lines = notices.down_lines;
    s.status_cleared_lines = notices.cleared_lines;
    s.status_pairs_per_day = per_day(notices.cleared_lines as f64);
    s.connected_share = if covered > 0.0 {
        (s.connected_ms / covered).clamp(0.0, 1.0)
    } else {
        0.0
    };
    s.count_starts_afresh = s.count_resets > 0;

    Simulation {
        rows_total: s.launches,
        rows,
        summary: s,
        strip,
        interrupted_at_ms: None,
    }
}

/// A connection still up when the span ends is reported as still up, ending there.
#[inline]
fn clip_to_span(
    outcome: Outcome,
    ended_at: f64,
    connected_at: Option<f64>,
    span: f64,
) -> (Outcome, f64) {
    match connected_at {
        Some(up) if ended_at >= span || up >= span => (
            Outcome::StillUp {
                lived_ms: (span - up).max(0.0),
            },
            span.max(up),
        ),
        _ => (outcome, ended_at),
    }
}

fn pending_row(launch: u64, tracker: &Tracker, launched: f64) -> Row {
    Row {
        launch,
        attempt: tracker.attempt(),
        launched_at_ms: launched,
        connected_at_ms: None,
        lived_ms: None,
        happened: Happened::Pending,
        happened_text: "still connecting when the span ended".to_string(),
        counted: Counted::Pending,
        wait: None,
        next_attempt: None,
        alert: None,
        webhook: false,
        status: Vec::new(),
        then: Then::Watching,
        stopped: None,
    }
}

fn still_up_row(launch: u64, tracker: &Tracker, launched: f64, up: f64, lived: f64) -> Row {
    Row {
        launch,
        attempt: tracker.attempt(),
        launched_at_ms: launched,
        connected_at_ms: Some(up),
        lived_ms: Some(lived),
        happened: Happened::StillUp,
        happened_text: "still up".to_string(),
        counted: Counted::StillUp,
        wait: None,
        next_attempt: None,
        alert: None,
        webhook: false,
        status: Vec::new(),
        then: Then::Watching,
        stopped: None,
    }
}
