//! The live runner: launch (or dial) a server, speak the host's handshake, watch the connection
//! live and end, and relaunch it under the host's reconnect rule.
//!
//! Shape (each file a leaf or above its leaves; this file only names and re-exports them):
//! - [`model`]: what an attempt is given ([`AttemptOptions`]) and reports ([`AttemptReport`]).
//! - [`handshake`]: the host's handshakes and pings as JSON values, independent of transport.
//! - [`opening`]: what the host says after the handshake, and what the server did then.
//! - [`session`]: the host's session (launch, open, handshake, opening, watch, pings, close),
//!   written once over a [`session::Transport`].
//! - [`stdio`], [`ws`], [`http`]: the transports. Each only frames and moves messages (NDJSON
//!   on a child's pipes, WebSocket frames, one POST per request) and reports what it owns.
//!   [`http_era`] finds which HTTP era a URL speaks: [`http`] (stateless), [`streamable`]
//!   (Streamable HTTP) or [`legacy_sse`].
//! - [`target`]: one [`Target`] variant per transport, and the [`Connector`] the runner drives.
//!
//! To add a transport: a file implementing [`session::Transport`] whose `attempt` calls
//! [`session::play`], a [`Target`] variant and its arms in `target.rs`, and the scheme in
//! [`urls::target_for_url`]. The session itself does not change.
//! - [`runner`]: the loop. It asks the policy's `Tracker` for every attempt number, verdict,
//!   wait and alert, and reports [`Event`]s to a sink. It never prints.
//! - [`run_record`]: what a run keeps ([`ProbeRun`], [`Launch`]); [`verdict`] judges it.

pub mod bounded_json;
pub mod dial;
pub mod endpoint;
pub mod events;
pub mod handshake;
pub mod hostenv;
pub mod http;
pub mod http_client;
pub mod http_era;
pub mod http_mode;
pub mod initialize;
pub mod legacy_sse;
pub mod limits;
#[allow(dead_code)]
mod lines;
mod long_message;
pub mod memory;
pub mod model;
pub mod opening;
pub mod run_record;
pub mod runner;
pub mod session;
pub mod sse;
pub mod stdio;
mod stdio_spawn;
pub mod stop;
pub mod streamable;
pub mod target;
pub mod tree_watch;
pub mod urls;
pub mod verdict;
pub mod ws;
mod ws_tail;

pub use events::Event;
pub use http::HttpTarget;
pub use model::{
    AttemptOptions, AttemptReport, Family, LaunchError, Misbehaviour, PingOptions, ProcessFacts,
    Progress, Protocol, ServerInfo, StderrTail, StdoutNoise, Stopped, PING_FLOOD,
};
pub use opening::{Opening, PendingRequest};
pub use run_record::{Finish, Launch, ProbeRun};
pub use runner::{run, RunOptions};
pub use stdio::StdioTarget;
pub use stop::{stop_pair, StopHandle, StopLevel, StopSignal};
pub use target::{Connector, Target};
pub use ws::WsTarget;
