//! The live runner: launch (or dial) a server, speak the host's handshake, watch the connection
//! live and end, and relaunch it under the host's reconnect rule.
//!
//! Shape:
//! - [`handshake`]: the host's handshakes and pings as JSON values, independent of transport
//!   (stdio and WebSocket both use it).
//! - [`stdio`]: one attempt against a command: a child in its own process group, NDJSON over
//!   its stdin/stdout, stderr drained into a bounded tail.
//! - [`runner`]: the loop. It asks the policy's [`Tracker`](crate::engine::policy::Tracker) for
//!   every attempt number, verdict, wait and alert, and reports [`Event`]s to a sink. It never
//!   prints.
//!
//! A transport is one variant of [`Target`]; each provides an `attempt` function with the same
//! shape as [`stdio::attempt`]: it owns everything it opened and has closed it (process
//! stopped and reaped, socket closed) by the time it returns its [`AttemptReport`].
//!
//! Adding a transport (e.g. WebSocket): add `Target::WebSocket(WsTarget)`, a module with
//! `pub async fn attempt(&WsTarget, &AttemptOptions, &mut (dyn FnMut(Progress) + Send))
//! -> Result<AttemptReport, LaunchError>`, and one match arm in [`Target::describe`] and in
//! `Connector for Target`. Inside: call `progress(Progress::Launched { .. })` when dialling,
//! send [`handshake::first_request`] as a text frame, feed each frame to
//! [`handshake::classify`] then [`handshake::read_answer`] (count `NotJsonRpc` in
//! [`StdoutNoise`]), send [`handshake::after_answer`] and call `progress(Progress::Connected)`
//! on `Answer::Connected` (that instant is `connected_at_ms`), answer server requests with
//! [`handshake::reply_to_server_request`], drive a [`handshake::Pinger`] when `opts.ping` is
//! set, and honour `opts.watch`, `opts.deadline`, `opts.stop` and `opts.handshake_timeout`
//! exactly as [`stdio::attempt`] does. Map a close frame to `Ended::WsClose`, a dropped TCP
//! connection to `Ended::ConnectionReset`; a refused or failed dial is an ordinary
//! `Outcome::FailedToConnect`, and only an unusable target (bad URL) is a [`LaunchError`].
//! Report `pid: None`, `stopped: Stopped::Closed`, an empty [`StderrTail`], and pass every
//! server-controlled string through `opts.redactor`.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::engine::policy::{EngineKind, Outcome};
use crate::engine::redact::Redactor;

pub mod dial;
pub mod events;
pub mod handshake;
pub mod hostenv;
pub mod http;
#[allow(dead_code)]
mod lines;
pub mod memory;
pub mod opening;
pub mod runner;
pub mod stdio;
pub mod urls;
pub mod verdict;
pub mod ws;

pub use events::Event;
pub use http::HttpTarget;
pub use opening::{Opening, PendingRequest};
pub use runner::{run, Finish, Launch, ProbeRun, RunOptions};
pub use stdio::StdioTarget;
pub use ws::WsTarget;

/// Which handshake the host speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// MCP 2024-11-05 `initialize` with MCPL as an experimental capability, then
    /// `notifications/initialized` (agent-framework's legacy engine).
    Legacy,
    /// MCP 2026-07-28 `server/discover` (agent-framework's modern engine).
    Modern,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Legacy => "legacy",
            Protocol::Modern => "modern",
        }
    }

    /// The engine whose words the alerts use.
    pub fn engine(self) -> EngineKind {
        match self {
            Protocol::Legacy => EngineKind::Legacy,
            Protocol::Modern => EngineKind::Modern,
        }
    }
}

/// `--ping-every` / `--ping-timeout`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PingOptions {
    /// Send a JSON-RPC `ping` this long after the previous one was answered (or after the
    /// handshake).
    pub every: Duration,
    /// A ping unanswered this long ends the connection as "stopped answering".
    pub timeout: Duration,
}

/// How far a stop request goes (Ctrl-C once: graceful; twice: force).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StopLevel {
    /// Keep going.
    Run,
    /// Stop the current attempt the host's way (close stdin, SIGTERM, grace, SIGKILL) and end.
    Graceful,
    /// Kill at once (SIGKILL to the group) and end.
    Force,
}

/// The sending half of a stop request (the CLI's Ctrl-C handler holds it).
#[derive(Debug)]
pub struct StopHandle {
    tx: watch::Sender<StopLevel>,
}

/// The receiving half, cloned into every attempt. Without a live [`StopHandle`] it never fires.
#[derive(Debug, Clone)]
pub struct StopSignal {
    rx: watch::Receiver<StopLevel>,
}

/// A connected pair of stop handle and signal.
pub fn stop_pair() -> (StopHandle, StopSignal) {
    let (tx, rx) = watch::channel(StopLevel::Run);
    (StopHandle { tx }, StopSignal { rx })
}

impl StopHandle {
    /// Raise the stop level (it never goes down).
    pub fn request(&self, level: StopLevel) {
        self.tx.send_if_modified(|current| {
            if level > *current {
                *current = level;
                true
            } else {
                false
            }
        });
    }

    /// Raise the level one step: `Run` -> `Graceful` -> `Force`. Returns the new level.
    pub fn escalate(&self) -> StopLevel {
        let next = match *self.tx.borrow() {
            StopLevel::Run => StopLevel::Graceful,
            StopLevel::Graceful | StopLevel::Force => StopLevel::Force,
        };
        self.request(next);
        next
    }
}

impl StopSignal {
    /// A signal that never fires.
    pub fn never() -> StopSignal {
        let (tx, rx) = watch::channel(StopLevel::Run);
        // Keep the channel open forever by leaking nothing: a dropped sender makes
        // `reached` pend forever, which is what "never" means.
        drop(tx);
        StopSignal { rx }
    }

    /// The level now.
    pub fn level(&self) -> StopLevel {
        *self.rx.borrow()
    }

    /// Resolves once the level is at least `level`; pends forever if that never happens.
    pub async fn reached(&self, level: StopLevel) {
        let mut rx = self.rx.clone();
        if rx.wait_for(|l| *l >= level).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Everything one attempt needs besides its target.
#[derive(Debug, Clone)]
pub struct AttemptOptions {
    pub protocol: Protocol,
    /// `--handshake-timeout` (default 30 s): no completed handshake by then is a failed
    /// attempt (`initialize handshake timed out`).
    pub handshake_timeout: Duration,
    /// `--watch` (default 30 s): a connection still up this long after its handshake ends the
    /// observation; the attempt is reported as still up.
    pub watch: Duration,
    /// `--ping-every` / `--ping-timeout`; `None`: no pings.
    pub ping: Option<PingOptions>,
    /// Masks secrets in every string the attempt reports.
    pub redactor: Arc<Redactor>,
    /// Ctrl-C.
    pub stop: StopSignal,
    /// `--for`: at this instant the attempt ends wherever it is (connected: still up; before
    /// its handshake: cut, no outcome).
    pub deadline: Option<Instant>,
    /// The run's start; every `*_ms` time in a report is measured from it (monotonic clock).
    pub epoch: Instant,
    /// `--handshake-only`: stop talking after the handshake (no `featureSets/update`, no
    /// `tools/list`, no subscription), as the probe did before it played the host's opening.
    pub handshake_only: bool,
}

impl AttemptOptions {
    /// Milliseconds from the epoch to `t`.
    pub fn ms_since_epoch(&self, t: Instant) -> f64 {
        t.saturating_duration_since(self.epoch).as_secs_f64() * 1000.0
    }
}

/// Whether the server speaks MCPL or plain MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// `result.capabilities.experimental.mcpl` present.
    Mcpl,
    /// No MCPL capability.
    PlainMcp,
}

/// What the server said about itself in its handshake answer (all strings redacted; not yet
/// sanitised for a terminal: renderers do that).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct ServerInfo {
    /// Legacy: `result.protocolVersion`; modern: the version agreed from `supportedVersions`.
    pub protocol_version: Option<String>,
    /// Modern: `result.supportedVersions`; a -32022 refusal: `error.data.supported`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_versions: Vec<String>,
    /// `serverInfo.name`.
    pub name: Option<String>,
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// MCPL or plain MCP; `None` when the answer was an error.
    pub family: Option<Family>,
    /// `capabilities.experimental.mcpl.version`, when given.
    pub mcpl_version: Option<String>,
}

/// How the probe stopped a process (or found it already gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stopped {
    /// It had exited on its own and nothing else of its group was left.
    AlreadyGone,
    /// It (and its group) went after stdin was closed and SIGTERM sent.
    AfterSigterm,
    /// SIGTERM was not enough within 2 s; SIGKILL ended it.
    AfterSigkill,
    /// Killed at once (second Ctrl-C).
    Forced,
    /// Still there 2 s after SIGKILL: the host halts reconnecting.
    CouldNotBeReaped,
    /// Not a process (a socket): closed.
    Closed,
}

/// A bounded tail of what the server wrote to stderr (redacted).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct StderrTail {
    /// The last lines (at most 20, at most 8 KiB in all), oldest first.
    pub lines: Vec<String>,
    /// Lines written in all.
    pub total_lines: u64,
    /// Bytes written in all.
    pub total_bytes: u64,
    /// Lines that name a likely cause (a missing module, a heap limit, a port in use: see
    /// [`crate::engine::diagnosis::table::is_notable`]) but may have scrolled out of the tail
    /// (Node's heap-limit message is followed by 20 lines of native stack); at most 8, the
    /// latest, from the first 10,000 lines only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notable: Vec<String>,
}

/// What the server wrote to stdout besides JSON-RPC.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct StdoutNoise {
    /// Lines that were not JSON-RPC messages (log lines, blank lines excluded).
    pub non_json_lines: u64,
    /// The first few of them (redacted, shortened).
    pub samples: Vec<String>,
    /// Lines longer than the line limit, skipped unread.
    pub overlong_lines: u64,
    /// Bytes read in all.
    pub total_bytes: u64,
}

/// What the server did that the probe had to defend itself against, each a finding (all zero
/// for a well-behaved server). Memory stays bounded whatever the server does; these say what
/// was refused or left unsent to keep it so.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct Misbehaviour {
    /// The server stopped reading what the probe sends (its stdin, or its socket): the
    /// outgoing queue filled up, and this many replies and pings were not sent.
    pub unsent_messages: u64,
    /// WebSocket ping frames the server sent (each owes a pong; a server that floods pings and
    /// reads no pongs is reported when there are [`PING_FLOOD`] or more).
    pub ws_pings: u64,
}

/// From this many WebSocket pings in one connection, the report calls it a ping flood.
pub const PING_FLOOD: u64 = 1000;

impl Misbehaviour {
    /// Whether there is anything to report.
    pub fn any(&self) -> bool {
        self.unsent_messages > 0 || self.ws_pings >= PING_FLOOD
    }
}

/// Everything one attempt did, as measured. Times are milliseconds since the run's epoch on a
/// monotonic clock.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptReport {
    /// When the process was spawned (or the socket dialled).
    pub launched_at_ms: f64,
    /// The same moment on the wall clock (for display only).
    pub launched_at_wall: SystemTime,
    /// The process id, for a process.
    pub pid: Option<u32>,
    /// When the handshake completed (the connection was made), if it did.
    pub connected_at_ms: Option<f64>,
    /// What the server answered to the handshake (also set for a refused version).
    pub server: Option<ServerInfo>,
    /// When the attempt ended (the connection ended, the handshake failed, or observation
    /// stopped).
    pub ended_at_ms: f64,
    /// What the attempt did, in the policy's terms. `None`: the probe cut the attempt before it
    /// had a verdict (Ctrl-C or `--for` during the handshake); it is not reported to the policy.
    pub outcome: Option<Outcome>,
    /// How the process was stopped afterwards.
    pub stopped: Stopped,
    /// Pings sent and answered while connected.
    pub pings_sent: u32,
    pub pings_answered: u32,
    pub stderr: StderrTail,
    pub stdout: StdoutNoise,
    /// What the probe saw of the process itself (a command only; `None` for a socket).
    pub process: Option<ProcessFacts>,
    /// What the host did after the handshake (featureSets/update, tools/list, channels) and
    /// how the server answered. `None`: no handshake, or `--handshake-only`.
    pub opening: Option<Opening>,
    /// Processes the server left outside its process group (a descendant that called setsid or
    /// setpgid, or double-forked), found and stopped with it. 0 for a URL.
    pub escaped: usize,
    /// Floods and a server that does not read (findings).
    pub misbehaviour: Misbehaviour,
}

/// What the probe saw of a launched process, besides its messages: how it ended on its own and
/// its memory over time (for the diagnosis).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProcessFacts {
    /// How the process ended before the probe stopped it (`None`: it was still running when
    /// the probe stopped it, or its end was not seen).
    pub exited: Option<crate::engine::policy::Ended>,
    /// Its resident memory (with its descendants) while the attempt ran.
    pub memory: memory::MemoryTrace,
}

impl AttemptReport {
    /// Time from launch to completed handshake.
    pub fn handshake_ms(&self) -> Option<f64> {
        self.connected_at_ms.map(|c| c - self.launched_at_ms)
    }

    /// Time connected (handshake to end).
    pub fn connected_ms(&self) -> Option<f64> {
        self.connected_at_ms.map(|c| self.ended_at_ms - c)
    }
}

/// Told by an attempt while it runs, so the runner can report progress live.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// The process is spawned (or the socket is being dialled).
    Launched { at_ms: f64, pid: Option<u32> },
    /// The handshake completed.
    Connected { at_ms: f64, server: ServerInfo },
}

/// An attempt that could not even start: not a failed attempt, a usage or launch error (exit 2,
/// no relaunch loop).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LaunchError {
    /// The command does not exist.
    #[error("cannot launch {command:?}: command not found")]
    NotFound { command: String },
    /// The command exists but cannot be executed.
    #[error("cannot launch {command:?}: {reason}")]
    CannotExecute { command: String, reason: String },
    /// Anything else that stops the probe before a launch (bad URL, no pipes, ...).
    #[error("{0}")]
    Other(String),
}

/// What to probe. One variant per transport; each variant's `attempt` has the shape of
/// [`stdio::attempt`].
#[derive(Debug, Clone)]
pub enum Target {
    Stdio(StdioTarget),
    /// A legacy MCPL server over `ws://` / `wss://`.
    WebSocket(WsTarget),
    /// A modern MCP server over `http://` / `https://`.
    Http(HttpTarget),
}

impl Target {
    /// How to name the target to a person (secrets redacted, e.g. a URL without its token).
    pub fn describe(&self, redactor: &Redactor) -> String {
        match self {
            Target::Stdio(t) => t.describe(redactor),
            Target::WebSocket(t) => t.describe(redactor),
            Target::Http(t) => t.describe(redactor),
        }
    }

    /// Every secret the target itself carries (a URL's token, as given and as encoded, its
    /// secret-named query parameters, a password; a command's `--token VALUE` and the like),
    /// for the run's [`Redactor`]. An entry's env values, token and substituted values are the
    /// caller's to add.
    pub fn secrets(&self) -> Vec<String> {
        match self {
            Target::Stdio(t) => t.secrets(),
            Target::WebSocket(t) => t.secrets(),
            Target::Http(t) => t.secrets(),
        }
    }

    /// The same target with another deadline for opening a connection (WebSocket: dial, TLS
    /// and upgrade; HTTP: the dial inside each request). A command has none.
    pub fn with_open_timeout(self, open_timeout: Duration) -> Target {
        match self {
            Target::Stdio(t) => Target::Stdio(t),
            Target::WebSocket(t) => Target::WebSocket(t.with_open_timeout(open_timeout)),
            Target::Http(t) => Target::Http(t.with_open_timeout(open_timeout)),
        }
    }

    /// The transport's name, as a host configuration names it: `stdio`, `websocket`, `http`.
    pub fn transport(&self) -> &'static str {
        match self {
            Target::Stdio(_) => "stdio",
            Target::WebSocket(_) => "websocket",
            Target::Http(_) => "http",
        }
    }
}

/// Something that makes attempts: a real [`Target`], or a scripted one in tests.
pub trait Connector {
    /// Make one attempt. It must have stopped and reaped (or closed) everything it started by
    /// the time it returns.
    fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> impl Future<Output = Result<AttemptReport, LaunchError>>;
}

impl Connector for Target {
    async fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<AttemptReport, LaunchError> {
        match self {
            Target::Stdio(t) => stdio::attempt(t, opts, progress).await,
            Target::WebSocket(t) => ws::attempt(t, opts, progress).await,
            Target::Http(t) => http::attempt(t, opts, progress).await,
        }
    }
}
