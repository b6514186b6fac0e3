//! What one connection's opening was: the records an attempt reports.

use serde::Serialize;

/// What the host did after the handshake on one connection, and what came back. Times are ms
/// since the run's epoch, as every other time in an [`super::AttemptReport`]. Strings the server
/// controls are redacted (not yet sanitised for a terminal: renderers do that).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct Opening {
    /// Every request the host sent after the handshake, in the order sent.
    pub exchanges: Vec<Exchange>,
    /// The host's request still unanswered when the connection ended (the strongest evidence
    /// of what a server dies on). `None` when nothing was outstanding, or when the connection
    /// did not end (the probe stopped watching).
    pub pending_at_close: Option<PendingRequest>,
    /// Tools listed over every page, once `tools/list` reached its last page.
    pub tool_count: Option<u32>,
    /// Their names (redacted, at most [`MAX_TOOL_NAMES`]), in the server's order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_names: Vec<String>,
    /// Whether the server's handshake answer advertised `capabilities.tools` (a failed
    /// `tools/list` is then a finding).
    pub tools_advertised: bool,
    /// `tools/list` pages read.
    pub tool_pages: u32,
    /// The feature sets the server declared in its handshake (`experimental.mcpl.featureSets`
    /// keys), in its order. Empty for a plain MCP or modern server.
    pub feature_sets: Vec<String>,
    /// What the server's answer to `featureSets/update` reported (its degradation receipt).
    pub receipt: Option<Receipt>,
    /// Legacy MCPL only: whether the policy exchange settled with the server still connected.
    pub policy: Option<PolicySettle>,
    /// Channels the server registered on this connection and content it delivered.
    pub channels: ChannelEvidence,
    /// Server-to-host requests the probe answered (push/event, channels/*, ping, ...), by
    /// method, in first-seen order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub server_requests: Vec<MethodCount>,
}

/// The most tool names kept per connection.
pub const MAX_TOOL_NAMES: usize = 200;

/// A host request outstanding when the connection ended.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PendingRequest {
    /// `featureSets/update`, `tools/list`, ...
    pub method: String,
    /// When the host sent it (ms since the run's epoch).
    pub sent_at_ms: f64,
}

/// One request the host sent after the handshake.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Exchange {
    /// `featureSets/update`, `tools/list` (one exchange per page), `subscriptions/listen`.
    pub method: String,
    /// The JSON-RPC id used.
    pub id: i64,
    /// When it was sent (ms since the run's epoch).
    pub sent_at_ms: f64,
    /// Sent to answered (or acknowledged, for a subscription), in ms.
    pub round_trip_ms: Option<f64>,
    /// How it went.
    pub result: ExchangeResult,
}

/// How a host request went.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ExchangeResult {
    /// A result came back (for `subscriptions/listen`: the stream was acknowledged).
    Answered,
    /// An error answer (code and redacted message), or a result the host cannot use
    /// (a malformed `tools/list` page: `code` is `None`).
    Error { code: Option<i64>, message: String },
    /// No answer within the host's deadline for it.
    TimedOut { deadline_ms: f64 },
    /// The connection ended before an answer.
    ConnectionEnded,
    /// The probe stopped watching (watch over, `--for`, Ctrl-C) before an answer.
    Unanswered,
}

/// What a `featureSets/update` answer reported (SPEC §6.7).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Receipt {
    /// `mode`: `full` or `degraded`, when given (redacted).
    pub mode: Option<String>,
    /// Feature sets the server reports unavailable (redacted).
    pub unavailable: Vec<String>,
}

/// Legacy MCPL: whether the policy exchange (`featureSets/update`) settled — answered, refused
/// or timed out — with the server still connected. The host emits `mcpl:server-reconnected`
/// (the status line's "cleared") only for a reconnect whose exchange settled (agent-framework
/// PR #999).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PolicySettle {
    /// Settled before the connection ended (or before observation stopped).
    pub settled: bool,
    /// From the handshake to the settling, in ms, when it settled.
    pub settle_ms: Option<f64>,
}

/// Channels on one connection.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct ChannelEvidence {
    /// Whether the probe granted channel registration (the server advertised `channels` and
    /// the policy exchange carried `channels.register`), or would have on a plain grant.
    pub granted: bool,
    /// Every `channels/register` (and `channels/changed` adding channels) on this connection.
    pub registrations: Vec<ChannelRegistration>,
    /// Channel content (`channels/incoming`) for a channel not registered on this connection
    /// when it arrived.
    pub content_before_registration: Vec<ChannelContent>,
    /// `channels/incoming` messages seen in all.
    pub incoming_messages: u32,
}

/// One registration.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChannelRegistration {
    /// When it arrived (ms since the run's epoch).
    pub at_ms: f64,
    /// `channels/register` or `channels/changed`.
    pub method: String,
    /// The channel ids (redacted).
    pub channel_ids: Vec<String>,
}

/// Content for an unregistered channel.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChannelContent {
    /// When it arrived (ms since the run's epoch).
    pub at_ms: f64,
    /// The channel it was for (redacted).
    pub channel_id: String,
    /// The server's message id, when given (redacted).
    pub message_id: Option<String>,
}

/// A method and how often it was seen.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MethodCount {
    pub method: String,
    pub count: u32,
}

/// Milliseconds to the microsecond, as every other time in the JSON documents.
pub(super) fn r3(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}
