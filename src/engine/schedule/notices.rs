//! connectome-host's notices module and the ops webhook limiter.

use super::model::{StatusLine, STATUS_AFTER_MS, WEBHOOK_PERIOD_MS};

/// The notices module and the webhook limiter, fed with alerts and reconnects in time order.
/// `simulate` drives it from its scripted server; renderers replay a probe's launches through it.
#[derive(Debug, Default)]
pub struct Notices {
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
    pub fn advance(&mut self, t: f64, out: Option<&mut Vec<StatusLine>>) {
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
    pub fn alert(
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
    pub fn reconnected(&mut self, t: f64, mut out: Option<&mut Vec<StatusLine>>) {
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
}
