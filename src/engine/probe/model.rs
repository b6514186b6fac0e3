//! What one attempt is given and what it reports: the words every transport, the runner and
//! the renderers share. A leaf: it names no transport.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use tokio::time::Instant;

use super::opening::record::Opening;
use super::stop::StopSignal;
use super::watch::limits;
use super::watch::memory;
use super::watch::sockets;
use super::watch::tree_watch;
use crate::engine::policy::{Ended, EngineKind, Outcome};
use crate::engine::redact::Redactor;

/// Which handshake the host speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Protocol {
    /// MCP 2024-11-05 `initialize` with MCPL as an experimental capability, then
    /// `notifications/initialized` (agent-framework's legacy engine).
    Legacy,
    /// MCP 2026-07-28 `server/discover` (agent-framework's modern engine).
    Modern,
}

impl Protocol {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Protocol::Legacy => "legacy",
            Protocol::Modern => "modern",
        }
    }

    /// The engine whose words the alerts use.
    pub(crate) fn engine(self) -> EngineKind {
        match self {
            Protocol::Legacy => EngineKind::Legacy,
            Protocol::Modern => EngineKind::Modern,
        }
    }
}

/// `--ping-every` / `--ping-timeout`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PingOptions {
    /// Send a JSON-RPC `ping` this long after the previous one was answered (or after the
    /// handshake).
    pub every: Duration,
    /// A ping unanswered this long ends the connection as "stopped answering".
    pub timeout: Duration,
}

/// Everything one attempt needs besides its target.
#[derive(Debug, Clone)]
pub(crate) struct AttemptOptions {
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
    /// `--start-budget`: how long a launch whose process tree shows an install at work
    /// (`npx -y`, `uvx`, `pip`) may take to its handshake, when longer than
    /// `handshake_timeout` (the host's budget for a first start).
    pub start_budget: Duration,
    /// `--handshake-only`: stop talking after the handshake (no `featureSets/update`, no
    /// `tools/list`, no subscription), as the probe did before it played the host's opening.
    pub handshake_only: bool,
    /// `--strict`: a start warning (a note) fails the run as a finding does.
    pub strict: bool,
    /// `--call TOOL[=JSON]`: one `tools/call` per connection once its tools are listed.
    pub call: Option<super::opening::call::ToolCall>,
    /// Which stderr lines to keep past the tail's end (the latest few, among the first
    /// lines): the caller's rule of what is evidence, handed to the wire as data so the wire
    /// knows nothing of why (the CLI gives the diagnosis table's `is_notable`).
    pub notable_stderr: NotableStderr,
}

/// Runtimes' own hints and warnings, which name variables and flags that have nothing to do
/// with how a server ended (`note: run with `RUST_BACKTRACE=1` ...`, `(node:123) Warning:
/// ...`): never evidence, and never a server's own warning.
pub(crate) const RUNTIME_HINTS: &[&str] = &["RUST_BACKTRACE", "--trace-warnings", "(node:"];

/// A rule telling which stderr lines are worth keeping past the tail (see
/// [`AttemptOptions::notable_stderr`]).
pub(crate) type NotableStderr = fn(&str) -> bool;

/// Keeps no stderr line past the tail: for runs that judge nothing from stderr.
#[cfg(test)]
pub(crate) fn no_notable_stderr(_line: &str) -> bool {
    false
}

impl AttemptOptions {
    /// Milliseconds from the epoch to `t`.
    pub(crate) fn ms_since_epoch(&self, t: Instant) -> f64 {
        t.saturating_duration_since(self.epoch).as_secs_f64() * 1000.0
    }
}

/// Whether the server speaks MCPL or plain MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Family {
    /// `result.capabilities.experimental.mcpl` present.
    Mcpl,
    /// No MCPL capability.
    PlainMcp,
}

/// What the server said about itself in its handshake answer (all strings redacted; not yet
/// sanitised for a terminal: renderers do that).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct ServerInfo {
    /// Legacy: `result.protocolVersion`; modern: the version agreed from `supportedVersions`.
    pub protocol_version: Option<String>,
    /// Modern: `result.supportedVersions`; a -32022 refusal: `error.data.supported`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_versions: Vec<String>,
    /// Versions the server listed beyond the first 16 (not kept). Absent when 0.
    #[serde(skip_serializing_if = "crate::engine::folded::is_zero")]
    pub supported_versions_folded: u64,
    /// `serverInfo.name`.
    pub name: Option<String>,
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// MCPL or plain MCP; `None` when the answer was an error.
    pub family: Option<Family>,
    /// `capabilities.experimental.mcpl.version`, when given.
    pub mcpl_version: Option<String>,
    /// HTTP: the transport era the server speaks: `stateless` (2026-07-28),
    /// `streamable-http` (2025-03-26 to 2025-11-25) or `sse` (2024-11-05 HTTP+SSE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<String>,
    /// The protocol version the probe offered in `initialize` (compare with
    /// `protocol_version`, what the server answered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offered_version: Option<String>,
    /// Streamable HTTP: what the GET stream the host opens after `initialize` did (`open`,
    /// `not offered (HTTP 405 to the GET)`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub get_stream: Option<String>,
}

/// How the probe stopped a process (or found it already gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Stopped {
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
pub(crate) struct StderrTail {
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
    /// The head of the last report of an uncaught Node error (its location, `^`, its head and
    /// message up to the first `at` frame: `read/crash_head.rs`), kept whole for the diagnosis.
    #[serde(skip)]
    pub head: Vec<String>,
}

impl StderrTail {
    /// Every line kept, oldest first: the head of Node's report of an uncaught error when its
    /// first line scrolled out of the tail (whole), the notable lines that scrolled out, then
    /// the tail.
    pub(crate) fn all_lines(&self) -> Vec<&String> {
        let head: &[String] = match self.head.first() {
            Some(first) if !self.lines.contains(first) => &self.head,
            _ => &[],
        };
        head.iter()
            .chain(
                self.notable
                    .iter()
                    .filter(|n| !self.lines.contains(n) && !head.contains(n)),
            )
            .chain(self.lines.iter())
            .collect()
    }
}

/// What the server wrote to stdout besides JSON-RPC.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct StdoutNoise {
    /// Lines that were not JSON-RPC messages (log lines, blank lines excluded).
    pub non_json_lines: u64,
    /// The first few of them (redacted, shortened).
    pub samples: Vec<String>,
    /// Lines longer than the line limit, skipped unread.
    pub overlong_lines: u64,
    /// Bytes read in all.
    pub total_bytes: u64,
    /// The first [`STDOUT_HEAD_LINES`] lines that were not JSON-RPC, blank ones as `""`
    /// (redacted, shortened): a help text printed there is read for its structure (its usage,
    /// its commands) by the diagnosis; not reported.
    #[serde(skip)]
    #[schemars(skip)]
    pub head: Vec<String>,
}

/// How many of stdout's non-JSON-RPC lines [`StdoutNoise::head`] keeps (each cut to 200
/// characters): a CLI's help (a usage, 40 commands, its options) fits.
const STDOUT_HEAD_LINES: usize = 120;

impl StdoutNoise {
    /// Keep a line (redacted) in [`StdoutNoise::head`] while it has room.
    pub(crate) fn keep(&mut self, line: &str) {
        if self.head.len() < STDOUT_HEAD_LINES {
            self.head.push(line.chars().take(200).collect());
        }
    }

    /// Keep a blank line in [`StdoutNoise::head`] (a help's sections are apart), after its
    /// first line.
    pub(crate) fn keep_blank(noise: &std::sync::Mutex<StdoutNoise>) {
        if let Ok(mut n) = noise.lock() {
            if !n.head.is_empty() {
                n.keep("");
            }
        }
    }
}

/// What the server did that the probe had to defend itself against, each a finding (all zero
/// for a well-behaved server). Memory stays bounded whatever the server does; these say what
/// was refused or left unsent to keep it so.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct Misbehaviour {
    /// The server stopped reading what the probe sends (its stdin, or its socket): the
    /// outgoing queue filled up, and this many replies and pings were not sent.
    pub unsent_messages: u64,
    /// WebSocket ping frames the server sent (each owes a pong; a server that floods pings and
    /// reads no pongs is reported when there are [`PING_FLOOD`] or more).
    pub ws_pings: u64,
}

/// From this many WebSocket pings in one connection, the report calls it a ping flood.
pub(crate) const PING_FLOOD: u64 = 1000;

/// Everything one attempt did, as measured. Times are milliseconds since the run's epoch on a
/// monotonic clock.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AttemptReport {
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
    /// A remote server that could not be reached: what the probe's look found, rung by rung
    /// (`None`: not a URL, or it connected).
    pub remote: Option<super::wire::rungs::RemoteFacts>,
    /// Streamable HTTP: the server forgot the session, or refused the GET stream.
    pub session: super::wire::rungs::SessionFacts,
}

/// What the probe saw of a launched process, besides its messages: how it ended on its own and
/// its memory over time (for the diagnosis).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ProcessFacts {
    /// How the process ended before the probe stopped it (`None`: it was still running when
    /// the probe stopped it, or its end was not seen).
    pub exited: Option<Ended>,
    /// Its resident memory (with its descendants) while the attempt ran.
    pub memory: memory::MemoryTrace,
    /// The resource limits it ran under that are not the usual ones (a finite address space or
    /// CPU time, few open files or processes), from `/proc/PID/limits`.
    pub limits: Vec<limits::Limit>,
    /// An install seen in its process tree (`npx -y`, `uvx`, `pip`).
    pub install: Option<tree_watch::Install>,
    /// What was still running of the launch when its first process exited on its own (the
    /// commands, redacted; at most 3): a server started in the background.
    pub left_running: Vec<String>,
    /// What its stdin was when it was not the probe's pipe (`/dev/null`, a file: a wrapper
    /// replaced it), from `/proc/PID/fd/0`.
    pub stdin: Option<String>,
    /// The TCP sockets its processes listened on when it was stopped, read only for a launch
    /// that was still running and had sent no JSON-RPC message (a stdio server started in its
    /// HTTP mode, silently).
    pub listening: Vec<sockets::Listening>,
    /// It was still running when the attempt ended and had written nothing at all on stdout
    /// (read before it was stopped: a block-buffered server writes its answer as it exits).
    pub silent: bool,
}

impl AttemptReport {
    /// Time from launch to completed handshake.
    pub(crate) fn handshake_ms(&self) -> Option<f64> {
        self.connected_at_ms.map(|c| c - self.launched_at_ms)
    }

    /// Time connected (handshake to end).
    pub(crate) fn connected_ms(&self) -> Option<f64> {
        self.connected_at_ms.map(|c| self.ended_at_ms - c)
    }
}

/// Told by an attempt while it runs, so the runner can report progress live.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Progress {
    /// The process is spawned (or the socket is being dialled).
    Launched { at_ms: f64, pid: Option<u32> },
    /// The handshake completed.
    Connected { at_ms: f64, server: ServerInfo },
    /// The opening's `tools/list` completed (every page): how many tools, and a digest of
    /// their names (to tell one launch's list from another's).
    ToolsListed { count: u32, digest: u64 },
}

/// An attempt that could not even start: not a failed attempt, a usage or launch error (exit 2,
/// no relaunch loop).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum LaunchError {
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
