//! What the runner reports as things happen. Renderers draw these (a progress line, JSON
//! lines); the engine never prints.

use super::run_record::{Finish, Launch, Planned};
use crate::engine::policy::Wait;
use crate::engine::probe::model::{Protocol, ServerInfo};

/// One thing that happened during a probe run. Times are ms since the run's epoch.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// The run begins.
    Started {
        /// The target as shown to a person (secrets redacted).
        target: String,
        /// The rule's name (`lasting`, `handshake`, ...).
        rule: String,
        protocol: Protocol,
        interval_ms: f64,
        cap_ms: f64,
        /// How long the first connection must live to count as lasting (`None`: never by
        /// uptime / reset by handshake).
        lasting_threshold_ms: Option<f64>,
        /// The jitter seed (given with `--seed`, or chosen at random and reported so a run can
        /// be repeated).
        seed: u64,
    },
    /// A launch (1-based) of attempt `attempt` (0-based, the host's numbering) started.
    Launched {
        launch: u32,
        attempt: u32,
        at_ms: f64,
        pid: Option<u32>,
    },
    /// Its handshake completed: the connection is made.
    Connected {
        launch: u32,
        attempt: u32,
        at_ms: f64,
        handshake_ms: f64,
        server: ServerInfo,
    },
    /// The opening's `tools/list` completed: `count` tools, `digest` of their names.
    ToolsListed {
        launch: u32,
        attempt: u32,
        count: u32,
        digest: u64,
    },
    /// The attempt is over (ended, failed, still up at the end of observation, or cut), with
    /// the host's verdict on it.
    Ended(Box<Launch>),
    /// The host would raise `mcpl-down` with this exact text.
    Alert {
        launch: u32,
        attempt: u32,
        text: String,
    },
    /// Waiting before the next attempt.
    Waiting {
        next_attempt: u32,
        wait: Wait,
        /// When the next launch is due.
        until_ms: f64,
    },
    /// The run is over.
    Finished {
        finish: Finish,
        /// The launch the host would have made next, when the run stopped during a wait or
        /// before one.
        planned: Option<Planned>,
    },
}
