//! The simulator: a policy plus what each connection did gives a timeline of rows and a summary.
//!
//! It drives the same [`Tracker`] the live probe uses. The summary is accumulated as the
//! simulation runs, so a year of a server dying every second costs time in proportion to its
//! attempts and no memory beyond the few rows asked for.

use std::fmt;

use super::policy::{
    timings::parse_duration_ms, Counted, Decision, Ended, Failure, Next, Outcome, Policy,
    TimingRefusal, Tracker, Wait,
};

/// A day in milliseconds.
pub const DAY_MS: f64 = 86_400_000.0;
/// connectome-host posts a status line once an `mcpl-down` episode has stayed open this long.
pub const STATUS_AFTER_MS: f64 = 60_000.0;
/// The ops webhook is posted at most once per this period per server and kind.
pub const WEBHOOK_PERIOD_MS: f64 = 900_000.0;
/// How long the legacy engine's post-handshake policy exchange (`featureSets/update`, then
/// `tools/list`) takes to settle when nothing says otherwise: a few round trips to a local
/// server. `--settle` (or `settle=DUR` in `--server`) sets it; `probe` measures it live.
pub const DEFAULT_SETTLE_MS: f64 = 100.0;

/// What the simulated server does on each attempt.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Every attempt fails before its handshake.
    Never,
    /// Each connection lives this long (one per connection; the last repeats).
    Lives(Vec<f64>),
    /// Connects and stays up.
    Healthy,
}

/// A server behaviour with its timings.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub behaviour: Behaviour,
    /// From launch to completed handshake.
    pub startup_ms: f64,
    /// For `never`: from launch to the failure.
    pub fail_after_ms: f64,
    /// From completed handshake to a settled policy exchange. On the legacy engine a reconnect
    /// is reported (`mcpl:server-reconnected`, which clears a "down" status line) only once the
    /// exchange has settled with the server still connected; the modern engine ignores it.
    pub settle_ms: f64,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            behaviour: Behaviour::Lives(vec![0.0]),
            startup_ms: 0.0,
            fail_after_ms: 0.0,
            settle_ms: DEFAULT_SETTLE_MS,
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::policy::timings::format_ms;
        match &self.behaviour {
            Behaviour::Never if self.fail_after_ms > 0.0 => write!(
                f,
                "never connects (fails {} into each attempt)",
                format_ms(self.fail_after_ms)
            )?,
            Behaviour::Never => f.write_str("never connects")?,
            Behaviour::Healthy => f.write_str("healthy (stays up)")?,
            Behaviour::Lives(lives) if lives.len() == 1 => {
                write!(f, "each connection lives {}", format_ms(lives[0]))?
            }
            Behaviour::Lives(lives) => {
                let list: Vec<String> = lives.iter().map(|l| format_ms(*l)).collect();
                write!(f, "connections live {} (the last repeats)", list.join(", "))?
            }
        }
        if self.startup_ms > 0.0 {
            write!(
                f,
                ", {} from launch to handshake",
                format_ms(self.startup_ms)
            )?;
        }
        if self.settle_ms != DEFAULT_SETTLE_MS {
            write!(
                f,
                ", policy exchange settles {} after the handshake",
                format_ms(self.settle_ms)
            )?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Scenario {
    type Err = String;

    /// `never`, `dies-after=DUR`, `drops-every=DUR`, `lives=D1,D2,...`, `healthy`, plus
    /// `startup=DUR`, `fail-after=DUR` and `settle=DUR`, combined with commas, spaces or `;`
    /// (`dies-after=300ms,startup=200ms`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut scenario = Scenario {
            behaviour: Behaviour::Healthy,
            ..Scenario::default()
        };
        let mut behaviour: Option<Behaviour> = None;
        let mut in_lives = false;
        let dur = |key: &str, v: &str| -> Result<f64, String> {
            let ms = parse_duration_ms(v).map_err(|e| format!("{key}: {e}"))?;
            if ms < 0.0 {
                return Err(format!("{key}: a duration cannot be negative"));
            }
            Ok(ms)
        };
        let set = |b: Behaviour, current: &mut Option<Behaviour>| -> Result<(), String> {
            if current.is_some() {
                return Err(
                    "give one behaviour (never, dies-after, drops-every, lives, healthy)".into(),
                );
            }
            *current = Some(b);
            Ok(())
        };
        for token in s
            .split([',', ';', ' ', '+'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            let (key, value) = match token.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (token, None),
            };
            if value.is_none() && in_lives {
                if let Some(Behaviour::Lives(list)) = behaviour.as_mut() {
                    list.push(dur("lives", key)?);
                    continue;
                }
            }
            in_lives = false;
            match (key, value) {
                ("never", None) => set(Behaviour::Never, &mut behaviour)?,
                ("healthy", None) => set(Behaviour::Healthy, &mut behaviour)?,
                ("dies-after" | "drops-every", Some(v)) => {
                    set(Behaviour::Lives(vec![dur(key, v)?]), &mut behaviour)?
                }
                ("lives", Some(v)) => {
                    set(Behaviour::Lives(vec![dur(key, v)?]), &mut behaviour)?;
                    in_lives = true;
                }
                ("startup", Some(v)) => scenario.startup_ms = dur(key, v)?,
                ("fail-after", Some(v)) => scenario.fail_after_ms = dur(key, v)?,
                ("settle", Some(v)) => scenario.settle_ms = dur(key, v)?,
                _ => {
                    return Err(format!(
                        "{token:?} is not a server behaviour (try never, dies-after=300ms, \
                         drops-every=1h, lives=1s,5m, healthy, with startup=DUR or settle=DUR)"
                    ))
                }
            }
        }
        scenario.behaviour = behaviour.unwrap_or(Behaviour::Healthy);
        if s.trim().is_empty() {
            return Err("empty server behaviour".into());
        }
        Ok(scenario)
    }
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Request {
    pub policy: Policy,
    pub scenario: Scenario,
    /// Stop after this many launches (`None`: only the span bounds it).
    pub max_attempts: Option<u64>,
    /// Stop once this much time has passed.
    pub span_ms: f64,
    /// Jitter seed (`None`: nominal waits).
    pub seed: Option<u64>,
    /// How many rows to keep for display (the summary covers them all).
    pub keep_rows: usize,
    /// Width of the timeline strip, in cells.
    pub strip_width: usize,
}

/// One line connectome-host's notices module posts.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct StatusLine {
    pub at_ms: f64,
    pub text: String,
}

/// What happened on one attempt, in the table's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Happened {
    FailedToConnect,
    ConnectedThenClosed,
    Lasted,
    StillUp,
    /// Launched inside the span, its outcome past it: still connecting when the span ended.
    Pending,
}

/// One launch.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Row {
    /// 1-based launch count.
    pub launch: u64,
    pub attempt: u32,
    pub launched_at_ms: f64,
    /// When the handshake completed, if it did.
    pub connected_at_ms: Option<f64>,
    /// How long the connection lived, if it connected.
    pub lived_ms: Option<f64>,
    pub happened: Happened,
    /// `failed to connect`, `connected, then closed after 0 s`, `lasted`, `still up`.
    pub happened_text: String,
    pub counted: Counted,
    /// The wait before the next attempt.
    pub wait: Option<Wait>,
    pub next_attempt: Option<u32>,
    /// The `mcpl-down` text, if one is raised.
    pub alert: Option<String>,
    /// Whether the ops webhook is posted for this alert.
    pub webhook: bool,
    /// Status lines posted while this row was current.
    pub status: Vec<StatusLine>,
    /// Why reconnecting stopped here, if it did.
    pub stopped: Option<String>,
}

/// The whole run in numbers; accumulated without keeping rows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Summary {
    /// The time covered (the span, or the last event when bounded by attempts).
    pub span_ms: f64,
    pub launches: u64,
    pub launches_per_day: f64,
    /// When the first `mcpl-down` is raised (`None`: never).
    pub first_down_ms: Option<f64>,
    pub first_down_attempt: Option<u32>,
    pub downs: u64,
    pub downs_per_day: f64,
    pub webhooks: u64,
    pub webhooks_per_day: f64,
    /// "down" status lines; each is paired with a "cleared" line when the server reconnects.
    pub status_down_lines: u64,
    pub status_cleared_lines: u64,
    pub status_pairs_per_day: f64,
    pub connected_ms: f64,
    /// Share of the span spent connected, 0 to 1.
    pub connected_share: f64,
    pub longest_wait_ms: f64,
    /// How many times the count started afresh (a lasting connection, or a handshake under
    /// the `handshake` rule).
    pub count_resets: u64,
    pub count_starts_afresh: bool,
    /// Why reconnecting stopped, if it did.
    pub stopped: Option<String>,
    pub stopped_at_ms: Option<f64>,
    /// The host refuses the server at start (a timing that reads as 0, below 0 or not a
    /// number, on a host with the lasting-connection fix): the `mcpl-down` it raises at time 0,
    /// naming the field. Nothing is launched.
    pub refused_at_start: Option<String>,
}

/// The result of a simulation.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Simulation {
    pub rows: Vec<Row>,
    /// All launches, kept or not.
    pub rows_total: u64,
    pub summary: Summary,
    pub strip: Strip,
}

/// A fixed-width timeline: how much of each slice of time was spent connected, and where
/// alerts were raised. Grows by merging neighbouring cells, so memory stays flat.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Strip {
    /// Length of one cell.
    pub cell_ms: f64,
    /// Connected time in each cell.
    pub connected_ms: Vec<f64>,
    /// Alerts raised in each cell.
    pub alerts: Vec<u32>,
    /// The time covered (cells beyond it are unused).
    pub end_ms: f64,
    /// `1 / cell_ms`, so that finding a cell is a multiplication.
    #[serde(skip)]
    per_cell: f64,
    /// The end of the last cell.
    #[serde(skip)]
    limit_ms: f64,
}

impl Strip {
    fn new(width: usize, span_ms: f64) -> Strip {
        let width = width.max(1);
        let cell = if span_ms.is_finite() && span_ms > 0.0 {
            span_ms / width as f64
        } else {
            60_000.0 / width as f64
        };
        Strip {
            cell_ms: cell,
            connected_ms: vec![0.0; width],
            alerts: vec![0; width],
            end_ms: 0.0,
            per_cell: 1.0 / cell,
            limit_ms: cell * width as f64,
        }
    }

    fn width(&self) -> usize {
        self.connected_ms.len()
    }

    #[inline]
    fn fit(&mut self, t: f64) {
        if t > self.limit_ms && t.is_finite() {
            self.grow(t);
        }
    }

    #[cold]
    fn grow(&mut self, t: f64) {
        let w = self.width();
        while t > self.limit_ms {
            for i in 0..w {
                let (a, b) = (2 * i, 2 * i + 1);
                let (c, al) = if b < w {
                    (
                        self.connected_ms[a] + self.connected_ms[b],
                        self.alerts[a] + self.alerts[b],
                    )
                } else if a < w {
                    (self.connected_ms[a], self.alerts[a])
                } else {
                    (0.0, 0)
                };
                self.connected_ms[i] = c;
                self.alerts[i] = al;
            }
            self.cell_ms *= 2.0;
            self.per_cell = 1.0 / self.cell_ms;
            self.limit_ms = self.cell_ms * w as f64;
        }
    }

    #[inline]
    fn cell(&self, t: f64) -> usize {
        ((t * self.per_cell) as usize).min(self.width() - 1)
    }

    #[inline]
    fn connected(&mut self, from: f64, to: f64) {
        if to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        self.fit(to);
        let i = self.cell(from);
        if to <= (i + 1) as f64 * self.cell_ms {
            self.connected_ms[i] += to - from;
            return;
        }
        let mut a = from;
        while a < to {
            let i = self.cell(a);
            let cell_end = (i + 1) as f64 * self.cell_ms;
            let b = if cell_end > a { to.min(cell_end) } else { to };
            self.connected_ms[i] += b - a;
            a = b;
        }
    }

    #[inline]
    fn alert(&mut self, t: f64) {
        self.fit(t);
        let i = self.cell(t);
        self.alerts[i] += 1;
    }

    /// The cells that cover `end_ms` (fewer than the width when the run ended early).
    pub fn used_cells(&self) -> usize {
        if self.cell_ms <= 0.0 {
            return 0;
        }
        ((self.end_ms / self.cell_ms).ceil() as usize).clamp(1, self.width())
    }

    /// Share of cell `i` spent connected, 0 to 1.
    pub fn share(&self, i: usize) -> f64 {
        let len = if (i + 1) as f64 * self.cell_ms > self.end_ms {
            (self.end_ms - i as f64 * self.cell_ms).max(f64::MIN_POSITIVE)
        } else {
            self.cell_ms
        };
        (self.connected_ms[i] / len).clamp(0.0, 1.0)
    }
}

/// The notices module and the webhook limiter, fed with alerts and reconnects in time order.
/// `simulate` drives it from its scripted server; renderers replay a probe's launches through it.
#[derive(Debug, Default)]
pub struct Notices {
    open_at: Option<f64>,
    open_text_alert: Option<String>,
    down_posted: bool,
    last_webhook: Option<f64>,
    down_lines: u64,
    cleared_lines: u64,
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

/// What one attempt of the scripted server does, on the simulation's clock.
struct Attempt {
    outcome: Outcome,
    /// When the attempt ended (its failure, or its connection's end); infinite for a healthy
    /// server.
    ended_at: f64,
    /// When its handshake completed, if it did.
    connected_at: Option<f64>,
    /// How long its connection lives, whatever the span: the behaviour's own figure.
    life: Option<f64>,
}

/// The scripted server's `connections`-th connection, launched at `launched`.
fn attempt_at(
    scenario: &Scenario,
    lives: &[f64],
    connections: &mut usize,
    launched: f64,
) -> Attempt {
    match (&scenario.behaviour, lives.is_empty()) {
        (Behaviour::Never, _) => Attempt {
            outcome: Outcome::FailedToConnect(Failure::Simulated),
            ended_at: launched + scenario.fail_after_ms.max(0.0),
            connected_at: None,
            life: None,
        },
        (Behaviour::Lives(_), false) => {
            let life = lives[(*connections).min(lives.len() - 1)];
            *connections += 1;
            let up = launched + scenario.startup_ms.max(0.0);
            Attempt {
                outcome: Outcome::Connected {
                    lived_ms: life,
                    ended: Ended::Unknown,
                },
                ended_at: up + life,
                connected_at: Some(up),
                life: Some(life),
            }
        }
        _ => Attempt {
            outcome: Outcome::StillUp { lived_ms: 0.0 },
            ended_at: f64::INFINITY,
            connected_at: Some(launched + scenario.startup_ms.max(0.0)),
            life: Some(f64::INFINITY),
        },
    }
}

fn empty_summary() -> Summary {
    Summary {
        span_ms: 0.0,
        launches: 0,
        launches_per_day: 0.0,
        first_down_ms: None,
        first_down_attempt: None,
        downs: 0,
        downs_per_day: 0.0,
        webhooks: 0,
        webhooks_per_day: 0.0,
        status_down_lines: 0,
        status_cleared_lines: 0,
        status_pairs_per_day: 0.0,
        connected_ms: 0.0,
        connected_share: 0.0,
        longest_wait_ms: 0.0,
        count_resets: 0,
        count_starts_afresh: false,
        stopped: None,
        stopped_at_ms: None,
        refused_at_start: None,
    }
}

/// Run a simulation. Nothing past the span is counted or shown: a launch inside it whose
/// outcome comes later is a row "still connecting", without its failure or alert.
pub fn simulate(req: &Request) -> Simulation {
    let mut run = Run::new(req);
    if let Some(refusal) = req.policy.timing_refusal() {
        run.refuse_at_start(&refusal);
        return run.finish();
    }
    let mut t = 0.0f64;
    while t < run.span && req.max_attempts.is_none_or(|m| run.s.launches < m) {
        match run.launch(t) {
            Step::Next(at) => t = at,
            Step::Stop => break,
        }
    }
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
    /// How long after a reconnect the host reports it: the legacy engine once the policy
    /// exchange has settled, the modern one at once.
    settle: f64,
    span: f64,
    /// Where observation ended: the last outcome, or the span.
    end: f64,
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
                Behaviour::Lives(l) if !l.is_empty() => l,
                _ => &[],
            },
            connections: 0,
            settle: if req.policy.reconnected_waits_for_settle() {
                req.scenario.settle_ms.max(0.0)
            } else {
                0.0
            },
            span,
            end: 0.0,
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

    /// One launch at `launched`: its outcome, what the host makes of it, its row.
    fn launch(&mut self, launched: f64) -> Step {
        let span = self.span;
        self.s.launches += 1;
        let keep = self.rows.len() < self.req.keep_rows;
        let mut status: Vec<StatusLine> = Vec::new();

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
        );
        // An outcome past the span is not counted: the launch is still connecting at its end.
        let pending = match connected_at {
            Some(up) => up > span,
            None => ended_at > span,
        };
        if pending {
            self.end = span;
            if keep {
                let row = pending_row(self.s.launches, &self.tracker, launched);
                self.rows.push(row);
            }
            return Step::Stop;
        }
        // A connection still up when the span ends is reported as still up.
        let (outcome, ended_at) = match connected_at {
            Some(up) if ended_at > span || up >= span => (
                Outcome::StillUp {
                    lived_ms: (span - up).max(0.0),
                },
                span.max(up),
            ),
            _ => (outcome, ended_at),
        };
        if let (Some(up), Some(life)) = (connected_at, life) {
            // A successful reconnect (any launch after the first) closes an open episode, once
            // reported: at once, or on the legacy engine once the policy exchange has settled
            // with the server still connected.
            if self.s.launches > 1 && life >= self.settle && up + self.settle <= span {
                self.notices
                    .reconnected(up + self.settle, keep.then_some(&mut status));
            }
        }
        if ended_at.is_infinite() {
            // Healthy under an attempts bound: watch it for a day.
            let up = connected_at.unwrap_or(launched);
            self.s.connected_ms += DAY_MS;
            self.strip.connected(up, up + DAY_MS);
            self.end = up + DAY_MS;
            if keep {
                let mut row = still_up_row(self.s.launches, &self.tracker, launched, up, DAY_MS);
                row.status = status;
                self.rows.push(row);
            }
            return Step::Stop;
        }
        if let Some(up) = connected_at {
            let up_to = ended_at.min(span);
            if up_to > up {
                self.s.connected_ms += up_to - up;
                self.strip.connected(up, up_to);
            }
        }

        let decision = self.tracker.record(launched, &outcome, ended_at);
        self.end = ended_at;
        if decision.counted == Counted::StillUp {
            self.notices.advance(ended_at, keep.then_some(&mut status));
            if keep {
                let up = connected_at.unwrap_or(launched);
                let lived = match outcome {
                    Outcome::StillUp { lived_ms } => lived_ms,
                    _ => ended_at - up,
                };
                let mut row = still_up_row(self.s.launches, &self.tracker, launched, up, lived);
                row.status = status;
                self.rows.push(row);
            }
            return Step::Stop;
        }
        if matches!(decision.counted, Counted::Lasted | Counted::HandshakeReset) {
            self.s.count_resets += 1;
        }
        let (alert, webhook) = self.alert(&decision, &outcome, ended_at, keep, &mut status);

        let (wait, next_attempt, stopped) = match decision.next {
            Next::Retry { attempt, wait } => (Some(wait), Some(attempt), None),
            Next::GiveUp { reason } => (None, None, Some(reason.to_string())),
            Next::Halt => (
                None,
                None,
                Some("permanent failure: reconnecting stops".to_string()),
            ),
            Next::Watching => (None, None, None),
        };
        if let Some(w) = wait {
            self.s.longest_wait_ms = self.s.longest_wait_ms.max(w.ms);
        }
        if keep {
            // Status lines due before the next launch belong to this row.
            let next_launch = wait.map_or(span, |w| ended_at + w.ms);
            self.notices
                .advance(next_launch.min(span), Some(&mut status));
            self.rows.push(Row {
                launch: self.s.launches,
                attempt: decision.attempt,
                launched_at_ms: launched,
                connected_at_ms: connected_at,
                // The behaviour's own lifetime, not a difference of absolute times.
                lived_ms: match outcome {
                    Outcome::Connected { lived_ms, .. } => Some(lived_ms),
                    _ => None,
                },
                happened: happened(&outcome, decision.counted),
                happened_text: happened_text(&outcome, decision.counted),
                counted: decision.counted,
                wait,
                next_attempt,
                alert,
                webhook,
                status,
                stopped: stopped.clone(),
            });
        }
        match wait {
            Some(w) => Step::Next(ended_at + w.ms),
            None => {
                self.s.stopped = stopped;
                self.s.stopped_at_ms = Some(ended_at);
                Step::Stop
            }
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

    fn finish(self) -> Simulation {
        finish(
            self.req,
            self.s,
            self.rows,
            self.strip,
            self.notices,
            self.span,
            self.end,
        )
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
        _ => "failed to connect".to_string(),
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
        stopped: None,
    }
}

#[cfg(test)]
mod tests;
