//! What one connection's opening was: the records an attempt reports.

use serde::Serialize;

use crate::engine::folded::{is_zero, FoldedList};

/// What the host did after the handshake on one connection, and what came back. Times are ms
/// since the run's epoch, as every other time in an [`super::AttemptReport`]. Strings the server
/// controls are redacted (not yet sanitised for a terminal: renderers do that).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct Opening {
    /// The requests the host sent after the handshake, in the order sent: the first and last
    /// 8 (a thousand `tools/list` pages are folded between them).
    pub exchanges: FoldedList<Exchange>,
    /// Requests left out of `exchanges` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub exchanges_folded: u64,
    /// The host's request still unanswered when the connection ended (the strongest evidence
    /// of what a server dies on). `None` when nothing was outstanding, or when the connection
    /// did not end (the probe stopped watching).
    pub pending_at_close: Option<PendingRequest>,
    /// Tools listed over every page, once `tools/list` reached its last page.
    pub tool_count: Option<u32>,
    /// Their names (redacted, each cut to 256 characters), in the server's order: the first
    /// and last 8.
    #[serde(skip_serializing_if = "FoldedList::is_empty")]
    pub tool_names: FoldedList<String>,
    /// Names left out of `tool_names` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub tool_names_folded: u64,
    /// An order-independent digest of every name listed (kept or folded), to tell whether two
    /// launches listed the same tools.
    #[serde(skip)]
    pub tool_names_digest: u64,
    /// The sum of the answered `tools/list` pages' round trips, in ms (for the notes: the
    /// pages themselves may be folded).
    #[serde(skip)]
    pub tool_pages_ms: f64,
    /// Whether the server's handshake answer advertised `capabilities.tools` (a failed
    /// `tools/list` is then a finding).
    pub tools_advertised: bool,
    /// `tools/list` pages read.
    pub tool_pages: u32,
    /// The feature sets the server declared in its handshake (`experimental.mcpl.featureSets`
    /// keys), in its order: the first and last 8. Empty for a plain MCP or modern server.
    pub feature_sets: FoldedList<String>,
    /// Feature sets left out of `feature_sets` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub feature_sets_folded: u64,
    /// What the server's answer to `featureSets/update` reported (its degradation receipt).
    pub receipt: Option<Receipt>,
    /// Legacy MCPL only: whether the policy exchange settled with the server still connected.
    pub policy: Option<PolicySettle>,
    /// Channels the server registered on this connection and content it delivered.
    pub channels: ChannelEvidence,
    /// Server-to-host requests the probe answered (push/event, channels/*, ping, ...), by
    /// method, in first-seen order: the first 16 methods.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub server_requests: Vec<MethodCount>,
    /// Server-to-host requests of methods beyond the first 16 (counted, their
    /// methods not kept). Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub server_requests_other: u64,
    /// The result `--call`'s `tools/call` got (not a JSON-RPC error: that is its exchange's
    /// `message`). Absent without `--call` or without a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<CallAnswer>,
}

/// The most bytes of a `--call` result's text kept.
pub(crate) const CALL_TEXT_MAX: usize = 2048;

/// What a `tools/call` result said.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct CallAnswer {
    /// The text parts of its `content`, one a line, redacted before they are cut to their
    /// first 2 KiB ("…" ends a cut one).
    pub text: String,
    /// Its `isError`.
    pub is_error: bool,
    /// A result not marked `isError` that an experiment proved a failure: what was tried and
    /// what came back (`connect 127.0.0.1:3399: refused`), its text holding that address or
    /// an error code (`Errno 111`, `ECONNREFUSED`). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

/// The most distinct server-request methods counted by name per connection.
pub(crate) const MAX_METHODS: usize = 2 * crate::engine::folded::KEEP;

/// A host request outstanding when the connection ended.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct PendingRequest {
    /// `featureSets/update`, `tools/list`, ...
    pub method: String,
    /// When the host sent it (ms since the run's epoch).
    pub sent_at_ms: f64,
}

/// One request the host sent after the handshake.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Exchange {
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
pub(crate) enum ExchangeResult {
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
pub(crate) struct Receipt {
    /// `mode`: `full` or `degraded`, when given (redacted).
    pub mode: Option<String>,
    /// Feature sets the server reports unavailable (redacted): the first and last 8.
    pub unavailable: FoldedList<String>,
    /// Feature sets left out of `unavailable` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub unavailable_folded: u64,
}

/// Legacy MCPL: whether the policy exchange (`featureSets/update`) settled — answered, refused
/// or timed out — with the server still connected. The host emits `mcpl:server-reconnected`
/// (the status line's "cleared") only for a reconnect whose exchange settled (agent-framework
/// PR #999).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct PolicySettle {
    /// Settled before the connection ended (or before observation stopped).
    pub settled: bool,
    /// From the handshake to the settling, in ms, when it settled.
    pub settle_ms: Option<f64>,
}

/// Channels on one connection.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct ChannelEvidence {
    /// Whether the probe granted channel registration (the server advertised `channels` and
    /// the policy exchange carried `channels.register`), or would have on a plain grant.
    pub granted: bool,
    /// The `channels/register`s (and `channels/changed` adding channels) on this connection:
    /// the first and last 8.
    pub registrations: FoldedList<ChannelRegistration>,
    /// Registrations left out of `registrations` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub registrations_folded: u64,
    /// Channel ids registered in all (kept or folded), counting repeats.
    #[serde(skip)]
    pub channel_ids_total: u64,
    /// Channel content (`channels/incoming`) for a channel not registered on this connection
    /// when it arrived: the first and last 8.
    pub content_before_registration: FoldedList<ChannelContent>,
    /// Content left out of `content_before_registration` between its first and last 8.
    /// Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub content_before_registration_folded: u64,
    /// `channels/incoming` messages seen in all.
    pub incoming_messages: u32,
}

/// One registration.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ChannelRegistration {
    /// When it arrived (ms since the run's epoch).
    pub at_ms: f64,
    /// `channels/register` or `channels/changed`.
    pub method: String,
    /// The channel ids (redacted): the first and last 8.
    pub channel_ids: FoldedList<String>,
    /// Ids left out of `channel_ids` between its first and last 8. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub channel_ids_folded: u64,
}

/// Content for an unregistered channel.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ChannelContent {
    /// When it arrived (ms since the run's epoch).
    pub at_ms: f64,
    /// The channel it was for (redacted).
    pub channel_id: String,
    /// The server's message id, when given (redacted).
    pub message_id: Option<String>,
}

/// A method and how often it was seen.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct MethodCount {
    pub method: String,
    pub count: u32,
}

impl Opening {
    /// Fill in the fold counts from the lists (once the record is complete).
    pub(crate) fn seal(&mut self) {
        self.exchanges_folded = self.exchanges.folded();
        self.tool_names_folded = self.tool_names.folded();
        self.feature_sets_folded = self.feature_sets.folded();
        if let Some(r) = &mut self.receipt {
            r.unavailable_folded = r.unavailable.folded();
        }
        let c = &mut self.channels;
        c.registrations_folded = c.registrations.folded();
        c.content_before_registration_folded = c.content_before_registration.folded();
        for g in c.registrations.iter_mut() {
            g.channel_ids_folded = g.channel_ids.folded();
        }
    }
}

/// Milliseconds to the microsecond, as every other time in the JSON documents.
pub(super) fn r3(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}
