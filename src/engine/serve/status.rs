//! What `serve` knows of one supervised server at any moment, folded from its run's
//! [`Event`]s as they come: counters, two histograms, the host's alert state, the tool list's
//! size and drift, the current Why, and a ring of its latest launches for the status page.
//! Its size does not grow with the run's length, whatever the server does.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use crate::engine::diagnosis::{self, Id, Setting};
use crate::engine::policy::{Counted, Outcome, Policy};
use crate::engine::probe::runner::run_record::{Folded, Planned};
use crate::engine::probe::{Event, Finish, Launch, ProbeRun};

use super::histogram::{Histogram, HANDSHAKE_BOUNDS, SESSION_BOUNDS};

/// Launches kept whole for the status page's strip and the Why (the latest); those before
/// are folded into counts.
pub(crate) const RING: usize = 24;

/// Under a rule that never counts a connection as lasting (`reset-on-handshake`), a connection
/// is called short-lived when it ends before this: the threshold `lasting` uses with default
/// timings (agent-framework #999).
pub(crate) const SHORT_LIVED_MS: f64 = 300_000.0;

/// How a launch ended, as the `outcome` label says it.
pub(crate) const OUTCOMES: [&str; 8] = [
    "failed",
    "short_lived",
    "lasted",
    "reset_on_handshake",
    "permanent",
    "still_up",
    "pending",
    "cut",
];

/// One supervised server.
#[derive(Debug, Clone)]
pub(crate) struct ServerStatus {
    /// The entry's id (its JSON path where the id is not unique); for one server from the
    /// command line, `--name` or the program's file name.
    pub name: String,
    /// The host whose configuration it comes from (`agent-framework`, `vscode`...).
    pub host: String,
    /// The rule it is relaunched under (`lasting`...).
    pub rule: String,
    /// How the target is shown (redacted).
    pub target: String,
    pub policy: Policy,
    pub seed: u64,
    pub lasting_threshold_ms: Option<f64>,
    /// Connected now (handshake completed, not ended).
    pub up: bool,
    /// Since when (wall clock): the connection now up, else the last end.
    pub state_since: SystemTime,
    /// Launches ended, by [`OUTCOMES`] index.
    pub outcomes: [u64; 8],
    /// Launches started.
    pub launches: u64,
    pub handshake: Histogram,
    pub session: Histogram,
    /// The last ended connection's lifetime, ms.
    pub last_session_ms: Option<f64>,
    /// Consecutive connections that ended short-lived (0 after one that lasted).
    pub short_lived_streak: u64,
    /// The host's attempt number of the latest launch, and its count of consecutive failures.
    pub attempt: u32,
    pub failures: u32,
    /// Would the host be raising `mcpl-down` now: raised for a failed attempt, cleared by the
    /// next completed handshake (the host's `mcpl:server-reconnected`).
    pub host_down: bool,
    /// When the current `mcpl-down` episode began (wall clock).
    pub host_down_since: Option<SystemTime>,
    pub alerts: u64,
    /// The latest `mcpl-down` text (redacted; never a label).
    pub last_alert: Option<String>,
    /// Tools the latest completed listing named, and their digest.
    pub tools: Option<u32>,
    tools_digest: Option<u64>,
    /// Listings whose tools differed from the previous launch's.
    pub tool_list_changes: u64,
    /// The most likely cause of the ends so far (the Why's first), if any.
    pub top_diagnosis: Option<Id>,
    /// The latest [`RING`] launches, and those before them in aggregate.
    pub recent: VecDeque<Launch>,
    pub folded: Folded,
    pub planned: Option<Planned>,
    /// The run's start (wall clock).
    pub started_wall: SystemTime,
    /// The run is over: the host stops relaunching (a permanent failure, a rule that gives up),
    /// or it could not launch at all (the error).
    pub finished: Option<Finish>,
    pub cannot_launch: Option<String>,
    setting: Setting,
}

impl ServerStatus {
    pub(crate) fn new(
        name: &str,
        host: &str,
        policy: &Policy,
        seed: u64,
        setting: Setting,
    ) -> Self {
        let now = SystemTime::now();
        ServerStatus {
            name: name.to_string(),
            host: host.to_string(),
            rule: policy.name.clone(),
            target: String::new(),
            policy: policy.clone(),
            seed,
            lasting_threshold_ms: None,
            up: false,
            state_since: now,
            outcomes: [0; 8],
            launches: 0,
            handshake: Histogram::new(HANDSHAKE_BOUNDS),
            session: Histogram::new(SESSION_BOUNDS),
            last_session_ms: None,
            short_lived_streak: 0,
            attempt: 0,
            failures: 0,
            host_down: false,
            host_down_since: None,
            alerts: 0,
            last_alert: None,
            tools: None,
            tools_digest: None,
            tool_list_changes: 0,
            top_diagnosis: None,
            recent: VecDeque::with_capacity(RING),
            folded: Folded::default(),
            planned: None,
            started_wall: now,
            finished: None,
            cannot_launch: None,
            setting,
        }
    }

    /// Fold one event of the server's run in.
    pub(crate) fn on_event(&mut self, e: &Event) {
        let now = SystemTime::now();
        match e {
            Event::Started {
                target,
                lasting_threshold_ms,
                ..
            } => {
                self.target = target.clone();
                self.lasting_threshold_ms = *lasting_threshold_ms;
                self.started_wall = now;
            }
            Event::Launched { attempt, .. } => {
                self.launches += 1;
                self.attempt = *attempt;
                self.planned = None;
            }
            Event::Connected { handshake_ms, .. } => {
                self.up = true;
                self.state_since = now;
                self.handshake.observe(handshake_ms / 1000.0);
                // The host's `mcpl:server-reconnected` closes the episode.
                self.host_down = false;
                self.host_down_since = None;
            }
            Event::ToolsListed { count, digest, .. } => self.record_tools(*count, *digest),
            Event::Ended(launch) => self.on_ended(launch, now),
            Event::Alert { text, .. } => {
                self.alerts += 1;
                self.last_alert = Some(text.clone());
                self.host_down = true;
                self.host_down_since.get_or_insert(now);
            }
            Event::Waiting { .. } => {}
            Event::Finished { finish, planned } => {
                self.finished = Some(*finish);
                self.planned = *planned;
                self.up = false;
            }
        }
    }

    fn on_ended(&mut self, launch: &Launch, now: SystemTime) {
        let r = &launch.report;
        if self.up || r.connected_at_ms.is_some() {
            self.state_since = now;
        }
        self.up = false;
        let counted = launch.decision.map(|d| d.counted);
        if let Some(d) = launch.decision {
            self.failures = d.failures;
        }
        let outcome = match counted {
            Some(Counted::Failure) => 0,
            Some(Counted::ShortLived) => 1,
            Some(Counted::Lasted) => 2,
            Some(Counted::HandshakeReset) => 3,
            Some(Counted::Permanent) => 4,
            Some(Counted::StillUp) => 5,
            Some(Counted::Pending) => 6,
            None => 7,
        };
        self.outcomes[outcome] += 1;
        if let Some(lived) = r.connected_ms() {
            if matches!(r.outcome, Some(Outcome::Connected { .. })) {
                self.session.observe(lived / 1000.0);
                self.last_session_ms = Some(lived);
                let short = match counted {
                    Some(Counted::ShortLived) => true,
                    Some(Counted::HandshakeReset) => lived < SHORT_LIVED_MS,
                    _ => false,
                };
                self.short_lived_streak = if short {
                    self.short_lived_streak + 1
                } else {
                    0
                };
            }
        }
        if let Some(opening) = &r.opening {
            if let Some(count) = opening.tool_count {
                // Told already when the listing completed; a second telling changes nothing.
                self.record_tools(count, opening.tool_names_digest);
            }
        }
        self.recent.push_back(launch.clone());
        if self.recent.len() > RING {
            if let Some(old) = self.recent.pop_front() {
                self.folded.add(&old);
            }
        }
        self.top_diagnosis = diagnosis::diagnose(&self.snapshot(), &self.setting)
            .first()
            .map(|d| d.id);
    }

    /// A completed tool list: a change when it differs from the one listed before.
    fn record_tools(&mut self, count: u32, digest: u64) {
        if self.tools_digest.is_some_and(|d| d != digest) || self.tools.is_some_and(|t| t != count)
        {
            self.tool_list_changes += 1;
        }
        self.tools = Some(count);
        self.tools_digest = Some(digest);
    }

    /// The run so far as a [`ProbeRun`] of its latest launches (the ones before folded), for
    /// the Why and the status page's strip.
    pub(crate) fn snapshot(&self) -> ProbeRun {
        let elapsed = self
            .started_wall
            .elapsed()
            .unwrap_or(Duration::ZERO)
            .as_secs_f64()
            * 1000.0;
        ProbeRun {
            policy: self.policy.clone(),
            seed: self.seed,
            launches: self.recent.iter().cloned().collect(),
            folded: self.folded,
            finish: self.finished.unwrap_or(Finish::StillUp),
            planned: self.planned,
            started_wall: self.started_wall,
            elapsed_ms: elapsed,
            strict: false,
            args: vec![],
        }
    }
}
