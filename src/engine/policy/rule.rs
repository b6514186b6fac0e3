//! A reconnect rule as data (backoff, jitter, the timer, when the count starts afresh, give-up,
//! the alert) and the arithmetic on it: nominal waits, their jitter envelopes, thresholds.

use super::timings::{Timings, TIMER_LIMIT_MS};

/// Five minutes: the floor of every "lasting" threshold of agent-framework #999.
pub(crate) const LASTING_FLOOR_MS: f64 = 300_000.0;
/// One hour: the ceiling of the `bounded` proposal's threshold.
pub(crate) const BOUNDED_CEILING_MS: f64 = 3_600_000.0;
/// The first attempt number whose failure raises `mcpl-down`.
pub(crate) const DOWN_FROM_ATTEMPT: u32 = 5;

/// How the wait grows with the count `k` of consecutive failures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Growth {
    /// `base * factor^min(k-1, 30)` (agent-framework, Kubernetes, Docker: factor 2).
    Exponential { factor: f64 },
    /// `prev = floor(prev * factor)` from the base, step by step (PM2: 1.5).
    ExponentialFloored { factor: f64 },
    /// `base + step * (k-1)` (supervisord: +1 s each time).
    Linear { step_ms: f64 },
    /// Always the base (systemd `RestartSec=`).
    Constant,
}

/// The random spread applied to each wait.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Jitter {
    None,
    /// `wait * J`, `J` uniform in `[1-spread, 1+spread)`, applied after the cap (agent-framework:
    /// spread 0.25).
    Multiplicative {
        spread: f64,
    },
}

/// What happens to a wait on its way into the timer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimerRule {
    /// Clamp every wait to 2^31-1 ms before arming the timer (#999, and main's modern engine).
    pub clamp_to_limit: bool,
    /// The wait goes through a JavaScript timer: NaN, below 1 or above 2^31-1 runs after 1 ms,
    /// a fraction is truncated.
    pub javascript: bool,
}

/// When the count of consecutive failures starts afresh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reset {
    /// Every completed handshake sets the count to 0 (agent-framework main, before #999): a
    /// connection's end is never a failure.
    OnHandshake,
    /// A connection that lived `ms` starts the count afresh; a shorter one is the failure of the
    /// attempt that made it (Kubernetes 10 min, Docker 10 s, PM2 30 s, supervisord 1 s).
    AfterUptime { ms: f64 },
    /// #999 `lasting`: `T = max(min(cap, 2^31-1), 300 s)`.
    CapThreshold,
    /// Review proposal `bounded`: `T = max(300 s, min(cap, 1 h))`.
    Bounded,
    /// Review proposal `preceding-wait`: `T = max(300 s, the wait that preceded the attempt)`.
    PrecedingWait,
    /// Never by uptime: every end is a failure (systemd).
    Never,
}

/// When a supervisor stops relaunching.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GiveUp {
    Never,
    /// After `retries` consecutive failed relaunches (supervisord `startretries`, the MCP SDK's
    /// `maxRetries`): the failure that would need retry `retries + 1` ends it.
    AfterRetries {
        retries: u32,
    },
    /// More than `starts` launches within `within_ms` (systemd `StartLimitBurst` /
    /// `StartLimitIntervalSec`).
    StartBurst {
        starts: u32,
        within_ms: f64,
    },
    /// `restarts` consecutive restarts each with under `under_ms` of uptime (PM2
    /// `max_restarts` / `min_uptime`).
    ShortRuns {
        restarts: u32,
        under_ms: f64,
    },
}

/// When the host relaunches at all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Relaunch {
    /// After a wait, by the rule's backoff (and its give-up).
    Backoff,
    /// Not by itself: on the next tool call (Claude Code's stdio servers, VS Code). The server
    /// stays down until then; the host's words say so, and `state` is the host's word for the
    /// server meanwhile (VS Code's `Stopped`).
    OnNextCall {
        words: &'static str,
        state: &'static str,
    },
    /// Never: the server stays down until the user restarts it or the host (Claude Desktop,
    /// Cline's stdio servers, Copilot CLI). The host's words say so, and `state` is the host's
    /// word for the server from then on (Claude Desktop's failed, Cline's `disconnected`).
    Never {
        words: &'static str,
        state: &'static str,
    },
}

impl Relaunch {
    /// The host's word for a server whose connection ended, when the host does not relaunch
    /// it by itself (it keeps no failure count to speak of); `None` for a backoff.
    pub fn ended_state(self) -> Option<&'static str> {
        match self {
            Relaunch::Backoff => None,
            Relaunch::OnNextCall { state, .. } | Relaunch::Never { state, .. } => Some(state),
        }
    }
}

/// Which agent-framework engine's words the alert uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    Legacy,
    Modern,
}

/// Which release's alert text: main says "unreachable", #999 says "down".
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Release {
    Main,
    Pr999,
}

/// When `mcpl-down` is raised and how it reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AlertRule {
    /// This supervisor has no `mcpl-down` (the peer presets).
    None,
    /// Raised for each failed attempt numbered `from_attempt` or more, and at once for a
    /// permanent failure.
    Down {
        from_attempt: u32,
        engine: EngineKind,
        release: Release,
    },
}

/// A complete reconnect rule. Every preset is one value of this struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// The preset's name (or `custom`).
    pub name: String,
    pub timings: Timings,
    pub growth: Growth,
    pub jitter: Jitter,
    pub timer: TimerRule,
    pub reset: Reset,
    pub give_up: GiveUp,
    pub alert: AlertRule,
    /// The host refuses a server whose timing reads as 0, below 0 or not a number, at start,
    /// instead of running every wait after 1 ms (hosts with the lasting-connection fix).
    pub refuses_bad_timings: bool,
    /// Whether the host relaunches by itself, on the next tool call, or never.
    pub relaunch: Relaunch,
    /// How long the host waits for a launch's handshake before it counts it failed (Cline's
    /// and Copilot CLI's fixed 60 s); `None`: as long as the server takes.
    pub start_budget_ms: Option<f64>,
    /// The host's words when it gives up (`None`: the supervisor's, e.g. `gave up: out of
    /// retries`).
    pub give_up_words: Option<&'static str>,
}

/// Which timing field a refusal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) enum TimingField {
    #[serde(rename = "reconnectIntervalMs")]
    Interval,
    #[serde(rename = "reconnectMaxIntervalMs")]
    Cap,
}

impl TimingField {
    /// The host config's field name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            TimingField::Interval => "reconnectIntervalMs",
            TimingField::Cap => "reconnectMaxIntervalMs",
        }
    }
}

/// Why the host refuses a server's timings at start (before its first launch).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TimingRefusal {
    pub field: TimingField,
    /// What the value reads as: `0`, `below 0`, `not a number`. The value itself is not kept:
    /// a secret pasted into the field must never be echoed.
    pub reads_as: &'static str,
}

impl std::fmt::Display for TimingRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refused at start: {} reads as {}, and a timing must be a number above 0",
            self.field.name(),
            self.reads_as
        )
    }
}

/// A wait's range as the timer can really run it: `min_ms..=max_ms`, or exactly `or_ms` when
/// part of the jitter's range lies past what the timer honours (a JavaScript timer runs a delay
/// above 2^31-1 ms after 1 ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Envelope {
    pub min_ms: f64,
    pub max_ms: f64,
    pub or_ms: Option<f64>,
}

impl Envelope {
    fn single(w: f64) -> Envelope {
        Envelope {
            min_ms: w,
            max_ms: w,
            or_ms: None,
        }
    }

    /// Whether `w` is a wait this envelope allows.
    #[cfg(test)]
    pub(crate) fn holds(&self, w: f64) -> bool {
        (w >= self.min_ms && w <= self.max_ms) || self.or_ms == Some(w)
    }
}

/// `Math.min` as JavaScript has it: NaN wins.
#[inline]
pub(crate) fn js_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// `Math.max` as JavaScript has it: NaN wins.
#[inline]
pub(crate) fn js_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl Policy {
    /// The wait before the next attempt when the count is `k`, before jitter and timer rules:
    /// the growth applied to the base, then the cap.
    #[inline]
    pub(crate) fn nominal_wait(&self, k: u32) -> f64 {
        let base = self.timings.interval_ms;
        let n = k.saturating_sub(1);
        let grown = match self.growth {
            Growth::Exponential { factor } => base * factor.powi(n.min(30) as i32),
            Growth::ExponentialFloored { factor } => {
                let mut w = base;
                for _ in 0..n.min(200) {
                    if w >= self.timings.cap_ms || w.is_nan() {
                        break;
                    }
                    w = (w * factor).floor();
                }
                w
            }
            Growth::Linear { step_ms } => base + step_ms * f64::from(n),
            Growth::Constant => base,
        };
        js_min(grown, self.timings.cap_ms)
    }

    /// Whether every count from `k` on gives the same nominal wait (the backoff has reached
    /// its cap, or stopped growing): what a steady state needs.
    pub(crate) fn wait_settled(&self, k: u32) -> bool {
        let base = self.timings.interval_ms;
        let cap = self.timings.cap_ms;
        let n = k.saturating_sub(1);
        if base.is_nan() || cap.is_nan() {
            return true;
        }
        match self.growth {
            Growth::Constant => true,
            Growth::Exponential { factor } => {
                n >= 30 || (factor >= 1.0 && base >= 0.0 && self.nominal_wait(k) == cap)
            }
            Growth::ExponentialFloored { factor } => {
                // The loop in `nominal_wait` stops at the cap, and from then on at the same step.
                let mut w = base;
                for _ in 0..n.min(200) {
                    if w >= cap || w.is_nan() {
                        return true;
                    }
                    w = (w * factor).floor();
                }
                n >= 200 || w >= cap || w.is_nan()
            }
            Growth::Linear { step_ms } => {
                step_ms == 0.0 || (step_ms > 0.0 && self.nominal_wait(k) == cap)
            }
        }
    }

    /// A wait (already jittered) as the timer will really run it, in ms.
    #[inline]
    pub(crate) fn timer_wait(&self, wait: f64) -> f64 {
        let mut w = wait;
        if self.timer.clamp_to_limit {
            w = js_min(w, TIMER_LIMIT_MS);
        }
        if self.timer.javascript {
            if w.is_nan() || !(1.0..=TIMER_LIMIT_MS).contains(&w) {
                w = 1.0;
            } else {
                // In range 1..=2^31-1, so the cast truncates exactly (and is cheaper than trunc).
                w = (w as i64) as f64;
            }
        } else if w.is_nan() || w < 0.0 {
            w = 0.0;
        }
        w
    }

    /// The waits the jitter allows for count `k`, as the timer runs them.
    #[cfg(test)]
    pub(crate) fn wait_envelope(&self, k: u32) -> Envelope {
        self.envelope_of(self.nominal_wait(k))
    }

    /// Every wait the timer can run for a nominal wait, whatever the jitter draws: the jittered
    /// range `[nominal*(1-spread), nominal*(1+spread))`, clamped and truncated as the timer
    /// does. Where the range straddles the JavaScript timer's limit, the part past it runs after
    /// 1 ms: two parts, `[low, 2^31-1]` or 1 ms.
    #[inline]
    pub(crate) fn envelope_of(&self, nominal: f64) -> Envelope {
        let spread = match self.jitter {
            Jitter::None => return Envelope::single(self.timer_wait(nominal)),
            Jitter::Multiplicative { spread } => spread,
        };
        let (a, b) = (nominal * (1.0 - spread), nominal * (1.0 + spread));
        if a.is_nan() || b.is_nan() {
            return Envelope::single(self.timer_wait(nominal));
        }
        let (mut lo, mut hi) = (a.min(b), a.max(b));
        if self.timer.clamp_to_limit {
            lo = lo.min(TIMER_LIMIT_MS);
            hi = hi.min(TIMER_LIMIT_MS);
        }
        if !self.timer.javascript {
            return Envelope {
                min_ms: self.timer_wait(lo),
                max_ms: self.timer_wait(hi),
                or_ms: None,
            };
        }
        // The part of [lo, hi] the timer honours as it is (1..=2^31-1, truncated).
        let (in_lo, in_hi) = (lo.max(1.0), hi.min(TIMER_LIMIT_MS));
        let below = lo < 1.0;
        let above = hi > TIMER_LIMIT_MS;
        if in_lo > in_hi {
            // Nothing in range: every draw runs after 1 ms.
            return Envelope::single(1.0);
        }
        let (min_ms, max_ms) = (self.timer_wait(in_lo), self.timer_wait(in_hi));
        let or_ms = (above && !below && min_ms > 1.0).then_some(1.0);
        Envelope {
            min_ms: if below || (above && min_ms <= 1.0) {
                1.0
            } else {
                min_ms
            },
            max_ms,
            or_ms,
        }
    }

    /// Why the host refuses these timings at start, if it does: a timing that reads as 0,
    /// below 0 or not a number, under a rule of a host with the lasting-connection fix. Other
    /// rules run such a wait after 1 ms (a relaunch loop with no backoff).
    pub(crate) fn timing_refusal(&self) -> Option<TimingRefusal> {
        if !self.refuses_bad_timings {
            return None;
        }
        let reads_as = |ms: f64| -> Option<&'static str> {
            if ms.is_nan() {
                Some("not a number")
            } else if ms == 0.0 {
                Some("0")
            } else if ms < 0.0 {
                Some("below 0")
            } else {
                None
            }
        };
        let t = self.timings;
        reads_as(t.interval_ms)
            .map(|r| (TimingField::Interval, r))
            .or_else(|| reads_as(t.cap_ms).map(|r| (TimingField::Cap, r)))
            .map(|(field, reads_as)| TimingRefusal { field, reads_as })
    }

    /// How long a connection must live to start the count afresh, given the wait that preceded
    /// the attempt that made it. `None`: never by uptime (or, under `OnHandshake`, the end of a
    /// connection is never a failure at all).
    #[inline]
    pub(crate) fn lasting_threshold(&self, preceding_wait_ms: f64) -> Option<f64> {
        let cap = self.timings.cap_ms;
        match self.reset {
            Reset::OnHandshake | Reset::Never => None,
            Reset::AfterUptime { ms } => Some(ms),
            Reset::CapThreshold => Some(js_max(js_min(cap, TIMER_LIMIT_MS), LASTING_FLOOR_MS)),
            Reset::Bounded => Some(js_max(LASTING_FLOOR_MS, js_min(cap, BOUNDED_CEILING_MS))),
            Reset::PrecedingWait => Some(js_max(LASTING_FLOOR_MS, preceding_wait_ms)),
        }
    }

    /// The `mcpl-down` text for a failed attempt, or `None` when this failure raises none.
    #[inline]
    pub(crate) fn alert_for(&self, attempt: u32, permanent: bool) -> Option<AlertText> {
        match self.alert {
            AlertRule::None => None,
            AlertRule::Down {
                from_attempt,
                engine,
                release,
            } => {
                if permanent || attempt >= from_attempt {
                    Some(AlertText {
                        engine,
                        release,
                        attempt,
                    })
                } else {
                    None
                }
            }
        }
    }

    /// Whether `mcpl:server-reconnected` (which clears connectome-host's "down" status line)
    /// waits until the post-handshake policy exchange has settled with the server still
    /// connected: the legacy engine's way. The modern engine emits it at once.
    pub(crate) fn reconnected_waits_for_settle(&self) -> bool {
        matches!(
            self.alert,
            AlertRule::Down {
                engine: EngineKind::Legacy,
                ..
            }
        )
    }

    /// Whether this rule has a `mcpl-down` alert at all.
    pub(crate) fn has_alert(&self) -> bool {
        !matches!(self.alert, AlertRule::None)
    }
}

/// The head of an alert's text; the error follows it (`MCPL server down (attempt 5): ...`).
/// Kept apart from the error so that a simulation of millions of attempts allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AlertText {
    pub engine: EngineKind,
    pub release: Release,
    pub attempt: u32,
}

impl AlertText {
    /// The full text with the given error.
    pub(crate) fn with_error(&self, error: &dyn std::fmt::Display) -> String {
        let family = match self.engine {
            EngineKind::Legacy => "MCPL",
            EngineKind::Modern => "MCP",
        };
        let word = match self.release {
            Release::Main => "unreachable",
            Release::Pr999 => "down",
        };
        format!("{family} server {word} (attempt {}): {error}", self.attempt)
    }
}
