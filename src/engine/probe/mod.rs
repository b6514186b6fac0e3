//! The live runner: launch (or dial) a server, speak the host's handshake, watch the connection
//! live and end, and relaunch it under the host's reconnect rule.
//!
//! Shape (each room a folder, each file a leaf or above its leaves; this file only names and
//! re-exports them):
//! - [`model`]: what an attempt is given ([`AttemptOptions`]) and reports ([`AttemptReport`]);
//!   [`stop`]: Ctrl-C as the probe hears it.
//! - [`session`]: the host's session (launch, open, handshake, opening, watch, pings, close),
//!   written once over a [`session::Transport`]; [`session::handshake`] the host's handshakes
//!   and pings as JSON values, [`session::initialize`] the `initialize` of the older HTTP eras.
//! - [`opening`]: what the host says after the handshake, and what the server did then.
//! - [`wire`]: the transports ([`wire::stdio`], [`wire::ws`], [`wire::http`],
//!   [`wire::streamable`], [`wire::legacy_sse`]). Each only frames and moves messages and
//!   reports what it owns; the table of transports, eras and files is in [`wire`].
//! - [`read`]: the bounded readers every wire reads through; [`watch`]: what the process
//!   shows while it runs (limits, memory, its tree).
//! - [`target`]: one [`Target`] variant per transport, and the [`Connector`] the runner drives.
//! - [`runner`]: the loop. It asks the policy's `Tracker` for every attempt number, verdict,
//!   wait and alert, and reports [`Event`]s ([`runner::events`]) to a sink. It never prints.
//!   [`runner::run_record`]: what a run keeps ([`ProbeRun`], [`Launch`]); [`runner::verdict`]
//!   judges it.
//!
//! To add a transport: a file in [`wire`] implementing [`session::Transport`] whose `attempt`
//! calls [`session::play`], a [`Target`] variant and its arms in `target.rs`, and the scheme in
//! [`wire::urls::target_for_url`]. The session itself does not change.

pub(crate) mod model;
pub(crate) mod opening;
pub(crate) mod read;
pub(crate) mod runner;
pub(crate) mod session;
pub(crate) mod stop;
pub(crate) mod target;
pub(crate) mod watch;
pub(crate) mod wire;

#[cfg(test)]
pub(crate) use model::no_notable_stderr;
pub(crate) use model::{
    AttemptOptions, AttemptReport, Family, LaunchError, Misbehaviour, PingOptions, ProcessFacts,
    Protocol, ServerInfo, StderrTail, StdoutNoise, Stopped, PING_FLOOD,
};
pub(crate) use runner::events::Event;
pub(crate) use runner::run_record::{Finish, Launch, ProbeRun};
pub(crate) use runner::{run, RunOptions};
pub(crate) use stop::{stop_pair, StopHandle, StopLevel, StopSignal};
pub(crate) use target::Target;
pub(crate) use wire::stdio::StdioTarget;
