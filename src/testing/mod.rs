//! Scripted servers for tests: a WebSocket MCPL server and a modern-MCP HTTP server, both on
//! 127.0.0.1 with a port of their own.
//!
//! Compiled into the library (it is small, and the binary never references it) so that the
//! library's unit tests and the integration tests under `tests/` share one implementation: an
//! integration test starts a server in-process and points the real binary at `server.url(..)`.
//! Not part of the public API.

mod http_server;
mod ws_server;

pub use http_server::{HttpRequestRecord, HttpScenario, HttpServer};
pub use ws_server::{AfterHandshake, WsAnswer, WsConnectionRecord, WsScenario, WsServer};
