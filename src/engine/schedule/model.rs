//! What a simulation is asked and what it answers: the request, its rows, its summary.

use super::scenario::Scenario;
use super::strip::Strip;
use crate::engine::policy::{Counted, Next, Policy, Wait};

/// A day in milliseconds.
pub const DAY_MS: f64 = 86_400_000.0;
/// connectome-host posts a status line once an `mcpl-down` episode has stayed open this long.
pub(crate) const STATUS_AFTER_MS: f64 = 60_000.0;
/// The ops webhook is posted at most once per this period per server and kind.
pub(crate) const WEBHOOK_PERIOD_MS: f64 = 900_000.0;

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

/// What the host does after a launch: states of their own, apart from the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Then {
    /// It waits (`wait`), then relaunches.
    Relaunches,
    /// It gives up: the server stays down (`stopped` says so in the host's words).
    GivesUp,
    /// It relaunches only on the next tool call: until then the server stays down.
    WaitsForNextToolCall,
    /// It stops on a permanent failure.
    Halts,
    /// Nothing yet: still up, or still connecting, when observation ended.
    Watching,
}

impl Then {
    /// After a verdict.
    pub(crate) fn of(next: Next) -> Then {
        match next {
            Next::Retry { .. } => Then::Relaunches,
            Next::GiveUp { .. } => Then::GivesUp,
            Next::OnNextCall { .. } => Then::WaitsForNextToolCall,
            Next::Halt => Then::Halts,
            Next::Watching => Then::Watching,
        }
    }
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
    /// What the host does next.
    pub then: Then,
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
    /// How it stopped, if it did: the host gives up, waits for the next tool call, or halts.
    pub stopped_as: Option<Then>,
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
    /// Where the run was stopped before its end (Ctrl-C), if it was: the summary, the rows
    /// and the strip hold over the time before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_at_ms: Option<f64>,
}

pub(crate) fn empty_summary() -> Summary {
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
        stopped_as: None,
        refused_at_start: None,
    }
}

impl Simulation {
    pub(crate) fn interrupted(mut self, at: Option<f64>) -> Simulation {
        self.interrupted_at_ms = at;
        self
    }
}
