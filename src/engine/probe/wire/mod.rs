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

pub mod bridge;
pub mod bridge_cache;
pub mod dial;
pub mod endpoint;
pub mod hostenv;
pub mod http;
pub mod http_client;
pub mod http_era;
pub mod http_mode;
pub mod legacy_sse;
pub mod remote_facts;
pub mod rungs;
pub mod sse;
pub mod stdio;
mod stdio_spawn;
pub mod streamable;
pub mod tls_trust;
pub mod urls;
pub mod ws;
mod ws_tail;
