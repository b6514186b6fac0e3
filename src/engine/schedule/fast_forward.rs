//! Fast-forwarding the steady state: once every launch does what the one before did, shifted
//! in time (the backoff at its cap or reset every cycle, the same lifetime, the same verdict,
//! the same notices), whole cycles are added at once instead of stepped.
//!
//! Exact, not estimated: only cycles whose times are whole milliseconds are skipped (so every
//! sum and comparison is exact in `f64`), the strip adds integers (see [`Strip`]), and what
//! `n` cycles add is what stepping them adds. `tests.rs` checks this against stepping.

use super::model::Summary;
use super::notices::{NoticeState, Notices};
use super::strip::Strip;
use crate::engine::policy::{Counted, Decision, Next, Tracker};

/// Times at or past this are not skipped through: sums of whole milliseconds stay exact well
/// below 2^53.
const EXACT_LIMIT_MS: f64 = 4_503_599_627_370_496.0; // 2^52

/// Launches between two looks for a steady state while none is found.
const LOOK_EVERY: u32 = 256;

/// One launch that ended in a retry, as the fast-forward compares them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cycle {
    pub launched: f64,
    /// The next launch.
    pub next: f64,
    /// The handshake, if it connected.
    pub up: Option<f64>,
    /// The attempt's end (its failure or its connection's end).
    pub ended: f64,
    /// When the host reported a reconnect (closing an episode), if it did.
    pub reconnect: Option<f64>,
    pub decision: Decision,
    /// "down" and "cleared" status lines this launch added.
    pub lines: (u64, u64),
    /// The notices' state at the next launch.
    pub notices: NoticeState,
}

impl Cycle {
    fn period(&self) -> f64 {
        self.next - self.launched
    }

    fn rel(&self, t: f64) -> f64 {
        t - self.launched
    }

    fn wait_ms(&self) -> Option<f64> {
        match self.decision.next {
            Next::Retry { wait, .. } => Some(wait.ms),
            _ => None,
        }
    }

    /// Whether `self` is `before` shifted in time: same timings, same verdict, same notices.
    fn repeats(&self, before: &Cycle) -> bool {
        let (a, b) = (&self.decision, &before.decision);
        self.period() == before.period()
            && self.up.map(|t| self.rel(t)) == before.up.map(|t| before.rel(t))
            && self.rel(self.ended) == before.rel(before.ended)
            && self.reconnect.map(|t| self.rel(t)) == before.reconnect.map(|t| before.rel(t))
            && a.counted == b.counted
            && a.alert.is_some() == b.alert.is_some()
            && a.lasting_threshold_ms == b.lasting_threshold_ms
            && self.wait_ms() == before.wait_ms()
            && self.lines == before.lines
            && self.notices == before.notices
    }

    /// Whether every time in it is a whole number of milliseconds, well inside exact range.
    fn whole(&self) -> bool {
        let whole = |t: f64| t.fract() == 0.0 && t.abs() < EXACT_LIMIT_MS;
        [self.launched, self.next, self.ended]
            .into_iter()
            .all(whole)
            && self.up.is_none_or(whole)
            && self.reconnect.is_none_or(whole)
            && self.period() > 0.0
    }
}

/// Looks for two launches in a row that repeat, now and then.
#[derive(Debug, Default)]
pub(super) struct Steady {
    countdown: u32,
    last: Option<Cycle>,
    ready: Option<Cycle>,
}

impl Steady {
    /// Whether this launch should be shown to [`Steady::saw`].
    #[inline]
    pub(super) fn watching(&mut self) -> bool {
        if self.countdown > 0 {
            self.countdown -= 1;
            false
        } else {
            true
        }
    }

    pub(super) fn saw(&mut self, cycle: Cycle) {
        match self.last.take() {
            Some(before) if cycle.repeats(&before) => self.ready = Some(cycle),
            Some(_) => self.countdown = LOOK_EVERY,
            None => self.last = Some(cycle),
        }
    }

    /// Two launches that repeat, once seen.
    #[inline]
    pub(super) fn take(&mut self) -> Option<Cycle> {
        self.ready.take()
    }

    /// Not steady after all (the tracker or the run said no): look again later.
    pub(super) fn not_yet(&mut self) {
        self.countdown = LOOK_EVERY;
    }
}

/// What bounds a skip.
pub(super) struct Bounds {
    /// Every skipped cycle ends before it (the span is half-open).
    pub span: f64,
    /// And at or before it (the strip's last cell).
    pub strip_limit: f64,
    /// At most this many launches in all.
    pub max_launches: Option<u64>,
}

/// How many whole cycles after `c` (the first launched at `c.next`) can be skipped, if the
/// state repeats: `None` when it does not, or too few do to bother.
pub(super) fn cycles_to_skip(
    c: &Cycle,
    tracker: &Tracker,
    s: &Summary,
    bounds: &Bounds,
) -> Option<u64> {
    if !c.whole()
        || s.connected_ms.fract() != 0.0
        || !tracker.steady_after(&c.decision, c.launched, c.period())
    {
        return None;
    }
    let (first, period, end) = (c.next, c.period(), c.rel(c.ended));
    let ok = |i: u64| {
        let ended = first + i as f64 * period + end;
        ended < bounds.span && ended <= bounds.strip_limit && ended < EXACT_LIMIT_MS
    };
    let room = bounds.span.min(bounds.strip_limit).min(EXACT_LIMIT_MS) - (first + end);
    if room.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    // A guess from the division, then exact on both sides.
    let mut n = (room / period).ceil().min(EXACT_LIMIT_MS) as u64;
    while n > 0 && !ok(n - 1) {
        n -= 1;
    }
    while ok(n) {
        n += 1;
    }
    if let Some(max) = bounds.max_launches {
        n = n.min(max.saturating_sub(s.launches));
    }
    let connected = c.up.map_or(0.0, |up| c.ended - up) * n as f64;
    (n >= 2 && s.connected_ms + connected < EXACT_LIMIT_MS).then_some(n)
}

/// What a skip changes.
pub(super) struct Parts<'a> {
    pub s: &'a mut Summary,
    pub strip: &'a mut Strip,
    pub notices: &'a mut Notices,
    pub tracker: &'a mut Tracker,
}

/// Add `n` cycles like `c`, the first launched at `c.next`; returns when the next launch is
/// and when the last skipped cycle ended.
pub(super) fn skip(c: &Cycle, n: u64, p: Parts<'_>) -> (f64, f64) {
    let (first, period) = (c.next, c.period());
    let ended = c.rel(c.ended);
    p.s.launches += n;
    if c.decision.alert.is_some() {
        p.s.downs += n;
        p.strip.alerts_periodic(first + ended, period, n);
        p.s.webhooks += p.notices.webhooks_periodic(first + ended, period, n);
    }
    if matches!(
        c.decision.counted,
        Counted::Lasted | Counted::HandshakeReset
    ) {
        p.s.count_resets += n;
    }
    if let Some(up) = c.up.map(|t| c.rel(t)) {
        let len = ended - up;
        if len > 0.0 {
            p.s.connected_ms += len * n as f64;
            p.strip.connected_periodic(first + up, len, period, n);
        }
    }
    p.notices.skip(n, period, c.lines.0, c.lines.1);
    p.tracker.skip(n, &c.decision, period);
    (
        first + n as f64 * period,
        first + (n - 1) as f64 * period + ended,
    )
}
