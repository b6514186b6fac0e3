//! The host's session opening after the handshake, and what the server did during it.
//!
//! Right after the handshake the host keeps talking (agent-framework's `server-connection.ts`
//! and `modern-connection.ts`; MCPL SPEC §5.3, §6.7, §14):
//! - legacy engine, MCPL server: the initial policy, `featureSets/update` sent as a *request*
//!   carrying `effectiveCapabilities` (15 s deadline; unanswered leaves the server tools-only),
//!   then `tools/list`, following `nextCursor` until a page has none (60 s per request);
//! - legacy engine, plain MCP server: `tools/list` only;
//! - modern engine: `tools/list` likewise (30 s), and over stdio, when the server advertises
//!   `tools.listChanged`, the `subscriptions/listen` stream the SDK opens at connect.
//!
//! Meanwhile an MCPL server registers its channels (`channels/register`) and may deliver
//! channel content (`channels/incoming`). The probe answers these as a host that granted the
//! capability does, and records, per connection, when the server registered which channels and
//! what content arrived for a channel not (yet) registered on *this* connection.
//!
//! [`Opening`] is what one attempt reports; [`OpeningDriver`] is the transport-independent state
//! machine (like [`super::super::session::handshake::Pinger`]) that stdio and WebSocket drive.

mod arg_notes;
pub(crate) mod call;
pub(crate) mod driver;
pub(crate) mod record;
pub(crate) mod summary;
#[cfg(test)]
mod tests;

pub(crate) use call::ToolCall;
#[cfg(test)]
pub(crate) use driver::*;
pub(crate) use record::*;
pub(crate) use summary::*;
