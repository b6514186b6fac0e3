//! The wires: each transport frames and moves messages and reports what it owns; none decides
//! what a message means or when an attempt ends (that is [`super::session`]).
//!
//! | transport | era | files |
//! |---|---|---|
//! | stdio (a child's pipes, NDJSON) | legacy MCPL, MCP, modern | [`stdio`] ([`stdio_spawn`] a failed spawn, [`hostenv`] its environment, [`http_mode`] a server that listens instead) |
//! | WebSocket (`ws://`, `wss://`) | legacy MCPL | [`ws`] (close frames kept by `ws_tail`) |
//! | HTTP, stateless `server/discover` | MCP 2026-07-28 | [`http`] |
//! | Streamable HTTP | MCP 2025-03-26 .. 2025-11-25 | [`streamable`] |
//! | HTTP+SSE | MCP 2024-11-05 | [`legacy_sse`] |
//!
//! Shared: [`http_era`] finds which HTTP era a URL speaks; [`http_client`] sends every HTTP
//! request and [`sse`] reads every event stream; [`dial`] reaches a host (DNS, TCP, TLS),
//! [`tls_trust`] says whose roots trust an https server's certificate (this machine's, Node's);
//! [`bridge`] reads a bridge's command line and [`bridge_cache`] mcp-remote's auth cache;
//! [`endpoint`] places the token in a URL; [`urls`] picks the target a URL's scheme names.

pub(crate) mod bridge;
pub(crate) mod bridge_cache;
pub(crate) mod dial;
pub(crate) mod endpoint;
pub(crate) mod hostenv;
pub(crate) mod http;
pub(crate) mod http_client;
pub(crate) mod http_era;
pub(crate) mod http_mode;
pub(crate) mod legacy_sse;
pub(crate) mod remote_facts;
pub(crate) mod rungs;
pub(crate) mod sse;
pub(crate) mod stdio;
mod stdio_spawn;
pub(crate) mod streamable;
pub(crate) mod tls_trust;
pub(crate) mod urls;
pub(crate) mod ws;
mod ws_tail;
