//! connectome-host's notices module and the ops webhook limiter.

use super::model::{StatusLine, STATUS_AFTER_MS, WEBHOOK_PERIOD_MS};

/// The notices module and the webhook limiter, fed with alerts and reconnects in time order.
/// `simulate` drives it from its scripted server; renderers replay a probe's launches through it.
#[derive(Debug, Default)]
pub(crate) struct Notices {
    open_at: Option<f64>,
    open_text_alert: Option<String>,
    down_posted: bool,
    last_webhook: Option<f64>,
    pub(super) down_lines: u64,
    pub(super) cleared_lines: u64,
}

impl Notices {
    /// Post the "down" line if the open episode has passed 60 s by `t`.
    #[inline]
    pub(crate) fn advance(&mut self, t: f64, out: Option<&mut Vec<StatusLine>>) {
        if let Some(open) = self.open_at {
            if !self.down_posted && t >= open + STATUS_AFTER_MS {
                self.down_posted = true;
                self.down_lines += 1;
                if let Some(out) = out {
                    let msg = self.open_text_alert.take().unwrap_or_default();
                    out.push(StatusLine {
                        at_ms: open + STATUS_AFTER_MS,
                        text: format!("mcpl-down: {msg}"),
                    });
                }
            }
        }
    }

    /// An `mcpl-down` raise at `t`; returns whether the webhook is posted.
    #[inline]
    pub(crate) fn alert(
        &mut self,
        t: f64,
        text: Option<String>,
        out: Option<&mut Vec<StatusLine>>,
    ) -> bool {
        self.advance(t, out);
        if self.open_at.is_none() {
            self.open_at = Some(t);
            self.down_posted = false;
            self.open_text_alert = text;
        }
        let post = self
            .last_webhook
            .is_none_or(|last| t - last >= WEBHOOK_PERIOD_MS);
        if post {
            self.last_webhook = Some(t);
        }
        post
    }

    /// `mcpl:server-reconnected` at `t` closes an open episode.
    #[inline]
    pub(crate) fn reconnected(&mut self, t: f64, mut out: Option<&mut Vec<StatusLine>>) {
        self.advance(t, out.as_deref_mut());
        if self.open_at.take().is_some() && self.down_posted {
            self.cleared_lines += 1;
            if let Some(out) = out {
                out.push(StatusLine {
                    at_ms: t,
                    text: "mcpl-down cleared (reconnected)".to_string(),
                });
            }
        }
        self.down_posted = false;
        self.open_text_alert = None;
    }

    /// The state that decides what the next events do, relative to `now`.
    pub(super) fn state(&self, now: f64) -> NoticeState {
        match (self.open_at, self.down_posted) {
            (None, _) => NoticeState::Closed,
            (Some(_), true) => NoticeState::Posted,
            (Some(open), false) => NoticeState::Open { since: now - open },
        }
    }

    /// `n` more cycles of `period` that each added `down` and `cleared` lines and left the
    /// notices in the same state: an episode opened in each is as much later, one that stays
    /// posted stays as it is. (The webhook: [`Notices::webhooks_periodic`].)
    pub(super) fn skip(&mut self, n: u64, period: f64, down: u64, cleared: u64) {
        self.down_lines += n * down;
        self.cleared_lines += n * cleared;
        if let (Some(open), false) = (self.open_at, self.down_posted) {
            self.open_at = Some(open + n as f64 * period);
        }
    }

    /// Alerts at `first_at + j * period`, `j` in `0..n`: how many post the webhook (at most one
    /// per [`WEBHOOK_PERIOD_MS`]), exactly as `n` calls of [`Notices::alert`] would decide.
    /// Times are whole milliseconds.
    pub(super) fn webhooks_periodic(&mut self, first_at: f64, period: f64, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Every `every` alerts once the first is posted: the smallest m with m * period >= 15 min.
        let mut every = (WEBHOOK_PERIOD_MS / period).ceil().max(1.0) as u64;
        while every > 1 && (every - 1) as f64 * period >= WEBHOOK_PERIOD_MS {
            every -= 1;
        }
        while (every as f64) * period < WEBHOOK_PERIOD_MS {
            every += 1;
        }
        let due = |j: u64| {
            self.last_webhook
                .is_none_or(|last| first_at + j as f64 * period - last >= WEBHOOK_PERIOD_MS)
        };
        // The first one posted: within `every` alerts of the start (false, then true).
        let (mut lo, mut hi) = (0, every.min(n));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if due(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let j1 = lo;
        if j1 >= n || !due(j1) {
            return 0;
        }
        let count = 1 + (n - 1 - j1) / every;
        self.last_webhook = Some(first_at + (j1 + (count - 1) * every) as f64 * period);
        count
    }
}

/// What an open `mcpl-down` episode will do next, relative to a moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum NoticeState {
    Closed,
    /// Open, its "down" line posted: nothing changes until a reconnect closes it.
    Posted,
    /// Open for `since`, its line not yet posted.
    Open {
        since: f64,
    },
}
