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
//! machine (like [`super::handshake::Pinger`]) that stdio and WebSocket drive.

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

// ---------------------------------------------------------------------------------------------
// The driver
// ---------------------------------------------------------------------------------------------

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::handshake::{self, MODERN_VERSION};
use super::Protocol;
use crate::engine::redact::Redactor;

/// The legacy host's deadline for the initial policy request (`featureSets/update`).
pub const POLICY_TIMEOUT: Duration = Duration::from_secs(15);
/// The legacy host's default per-request deadline (`requestTimeoutMs`), which bounds
/// `tools/list`.
pub const LEGACY_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The modern host's bound on inventory listing (`LIST_TIMEOUT_MS`) and on opening the
/// list-change subscription (`CONNECT_TIMEOUT_MS`).
pub const MODERN_LIST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most `tools/list` pages followed (a server that pages forever is an error).
pub const MAX_TOOL_PAGES: u32 = 1000;
/// The first id the opening uses; the host numbers its requests from 1 after the handshake's 0.
pub const FIRST_ID: i64 = 1;

/// The capability paths the probe grants when the server advertises them (what connectome-host
/// grants a server it trusts with channels; SPEC §6.2's vocabulary).
const GRANTABLE: &[&str] = &[
    "tools",
    "pushEvents",
    "channels.register",
    "channels.lifecycle",
    "channels.publish",
    "channels.incoming",
    "channels.acknowledge",
    "channels.streaming",
    "channels.typing",
];

/// Every leaf of SPEC §6.2's vocabulary, for expanding a `true` shorthand.
const VOCABULARY: &[&str] = &[
    "pushEvents",
    "tools",
    "modelInfo",
    "inferenceRequest.streaming",
    "inferenceLifecycle",
    "contextHooks.beforeInference.observe",
    "contextHooks.beforeInference.inject.system",
    "contextHooks.beforeInference.inject.beforeUser",
    "contextHooks.beforeInference.inject.afterUser",
    "channels.register",
    "channels.lifecycle",
    "channels.publish",
    "channels.incoming",
    "channels.streaming",
    "channels.acknowledge",
    "channels.typing",
];

/// The host's MCPL capabilities in `initialize` (connectome-host's `HOST_MCPL_CAPS`, less what
/// the probe cannot play: inference, context hooks, model info).
pub fn host_capabilities() -> Value {
    json!({
        "version": handshake::MCPL_VERSION,
        "pushEvents": true,
        "channels": {
            "register": true,
            "lifecycle": true,
            "publish": true,
            "incoming": true,
            "acknowledge": true,
        },
        "featureSets": true,
    })
}

/// The leaves a server advertised (`experimental.mcpl` walked recursively; `true` at a node
/// means every vocabulary leaf beneath it), plus `tools` when `capabilities.tools` is present.
fn advertised(capabilities: &Value) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Bool(true) => {
                for leaf in VOCABULARY {
                    if *leaf == prefix || leaf.starts_with(&format!("{prefix}.")) {
                        out.push((*leaf).to_string());
                    }
                }
            }
            Value::Object(m) => {
                for (k, child) in m {
                    if prefix.is_empty() && (k == "version" || k == "featureSets") {
                        continue;
                    }
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, child, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if capabilities.get("tools").is_some() {
        out.push("tools".to_string());
    }
    if let Some(mcpl) = capabilities.get("experimental").and_then(|e| e.get("mcpl")) {
        walk("", mcpl, &mut out);
    }
    out.dedup();
    out
}

/// Milliseconds to the microsecond, as every other time in the JSON documents.
fn r3(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// What the host does after the handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Waiting for the policy exchange to settle.
    Policy,
    /// Paging through `tools/list`.
    Tools,
    /// Nothing more to send.
    Done,
}

#[derive(Debug, Clone)]
struct Outstanding {
    id: i64,
    method: &'static str,
    sent_at: Instant,
    deadline: Instant,
    /// Index into `Opening::exchanges`.
    index: usize,
}

/// The host's opening as a state machine, independent of transport: the transport calls
/// [`OpeningDriver::start`] once the connection is made, feeds it every message while
/// connected ([`OpeningDriver::on_message`]), fires [`OpeningDriver::on_timer`] at
/// [`OpeningDriver::due`], sends whatever these return, and calls
/// [`OpeningDriver::finish`] when the connection ends or observation stops.
#[derive(Debug)]
pub struct OpeningDriver {
    protocol: Protocol,
    epoch: Instant,
    connected_at: Instant,
    redactor: Arc<Redactor>,
    mcpl: bool,
    grant: Vec<String>,
    listen: bool,
    next_id: i64,
    stage: Stage,
    outstanding: Vec<Outstanding>,
    /// The subscription request (modern stdio), answered by an acknowledgement.
    listen_pending: Option<Outstanding>,
    policy_id: Option<i64>,
    cursors: HashSet<String>,
    tools_seen: u32,
    registered: HashSet<String>,
    opening: Opening,
}

/// How observation of the connection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Close {
    /// The connection ended (exit, close frame, reset, unanswered ping).
    Ended,
    /// The probe stopped watching; the connection was still there.
    Watching,
}

impl OpeningDriver {
    /// A driver for a connection made at `connected_at` whose handshake answer was `answer`
    /// (the whole JSON-RPC message). `stdio`: the transport is a process's stdio (the modern
    /// host opens its list-change subscription only there).
    pub fn new(
        protocol: Protocol,
        stdio: bool,
        answer: &Value,
        connected_at: Instant,
        epoch: Instant,
        redactor: Arc<Redactor>,
    ) -> OpeningDriver {
        let result = answer.get("result").cloned().unwrap_or(Value::Null);
        let capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
        let mcpl_caps = capabilities.get("experimental").and_then(|e| e.get("mcpl"));
        let mcpl = protocol == Protocol::Legacy && mcpl_caps.is_some();
        let feature_sets: Vec<String> = mcpl_caps
            .and_then(|m| m.get("featureSets"))
            .and_then(Value::as_object)
            .map(|m| m.keys().map(|k| redactor.redact(k)).collect())
            .unwrap_or_default();
        let grant: Vec<String> = advertised(&capabilities)
            .into_iter()
            .filter(|p| GRANTABLE.contains(&p.as_str()))
            .collect();
        let list_changed = capabilities
            .get("tools")
            .and_then(|t| t.get("listChanged"))
            .and_then(Value::as_bool)
            == Some(true);
        let listen = protocol == Protocol::Modern && stdio && list_changed;
        let tools_advertised = capabilities.get("tools").is_some();
        let granted = mcpl && grant.iter().any(|p| p == "channels.register");
        OpeningDriver {
            protocol,
            epoch,
            connected_at,
            redactor,
            mcpl,
            grant,
            listen,
            next_id: FIRST_ID,
            stage: Stage::Done,
            outstanding: Vec::new(),
            listen_pending: None,
            policy_id: None,
            cursors: HashSet::new(),
            tools_seen: 0,
            registered: HashSet::new(),
            opening: Opening {
                feature_sets,
                tools_advertised,
                channels: ChannelEvidence {
                    granted,
                    ..ChannelEvidence::default()
                },
                ..Opening::default()
            },
        }
    }

    fn ms(&self, t: Instant) -> f64 {
        r3(t.saturating_duration_since(self.epoch).as_secs_f64() * 1000.0)
    }

    fn meta(&self, params: Value) -> Value {
        match self.protocol {
            Protocol::Legacy => params,
            Protocol::Modern => {
                let mut m = match params {
                    Value::Object(m) => m,
                    _ => Map::new(),
                };
                m.insert(
                    "_meta".into(),
                    json!({
                        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
                        "io.modelcontextprotocol/clientCapabilities": {},
                    }),
                );
                Value::Object(m)
            }
        }
    }

    fn request(
        &mut self,
        method: &'static str,
        params: Value,
        timeout: Duration,
        now: Instant,
    ) -> (Value, Outstanding) {
        let id = self.next_id;
        self.next_id += 1;
        let params = self.meta(params);
        self.opening.exchanges.push(Exchange {
            method: method.to_string(),
            id,
            sent_at_ms: self.ms(now),
            round_trip_ms: None,
            result: ExchangeResult::Unanswered,
        });
        let o = Outstanding {
            id,
            method,
            sent_at: now,
            deadline: now + timeout,
            index: self.opening.exchanges.len() - 1,
        };
        (
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            o,
        )
    }

    fn list_timeout(&self) -> Duration {
        match self.protocol {
            Protocol::Legacy => LEGACY_REQUEST_TIMEOUT,
            Protocol::Modern => MODERN_LIST_TIMEOUT,
        }
    }

    fn send_tools_page(&mut self, cursor: Option<String>, now: Instant) -> Value {
        let params = match cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let timeout = self.list_timeout();
        let (msg, o) = self.request("tools/list", params, timeout, now);
        self.outstanding.push(o);
        self.stage = Stage::Tools;
        msg
    }

    /// The messages to send right after the handshake.
    pub fn start(&mut self, now: Instant) -> Vec<Value> {
        let mut out = Vec::new();
        if self.mcpl {
            let (msg, o) = self.request(
                "featureSets/update",
                json!({ "effectiveCapabilities": self.grant.clone() }),
                POLICY_TIMEOUT,
                now,
            );
            self.policy_id = Some(o.id);
            self.opening.policy = Some(PolicySettle {
                settled: false,
                settle_ms: None,
            });
            self.outstanding.push(o);
            self.stage = Stage::Policy;
            out.push(msg);
        } else {
            out.push(self.send_tools_page(None, now));
        }
        if self.listen {
            let (msg, o) = self.request(
                "subscriptions/listen",
                json!({ "notifications": { "toolsListChanged": true } }),
                MODERN_LIST_TIMEOUT,
                now,
            );
            self.listen_pending = Some(o);
            out.push(msg);
        }
        out
    }

    /// When [`OpeningDriver::on_timer`] should run next, if anything is waiting.
    pub fn due(&self) -> Option<Instant> {
        self.outstanding
            .iter()
            .chain(self.listen_pending.iter())
            .map(|o| o.deadline)
            .min()
    }

    /// Time out whatever is past its deadline at `now`; returns what to send next.
    pub fn on_timer(&mut self, now: Instant) -> Vec<Value> {
        let mut out = Vec::new();
        let expired: Vec<Outstanding> = self
            .outstanding
            .iter()
            .filter(|o| o.deadline <= now)
            .cloned()
            .collect();
        self.outstanding.retain(|o| o.deadline > now);
        for o in expired {
            let deadline_ms = (o.deadline - o.sent_at).as_secs_f64() * 1000.0;
            self.opening.exchanges[o.index].result = ExchangeResult::TimedOut { deadline_ms };
            if Some(o.id) == self.policy_id {
                // An unanswered policy request settles as "tools-only" (§6.7).
                self.settle(now);
                out.push(self.send_tools_page(None, now));
            } else {
                self.stage = Stage::Done;
            }
        }
        if let Some(l) = &self.listen_pending {
            if l.deadline <= now {
                let deadline_ms = (l.deadline - l.sent_at).as_secs_f64() * 1000.0;
                self.opening.exchanges[l.index].result = ExchangeResult::TimedOut { deadline_ms };
                self.listen_pending = None;
            }
        }
        out
    }

    /// A request the transport got no usable answer to (over HTTP: a POST that failed, with
    /// the reason in plain words): an error without a JSON-RPC code. The host moves on as after
    /// an error answer; returns what to send next.
    pub fn on_failed(&mut self, id: i64, message: String, now: Instant) -> Vec<Value> {
        let Some(pos) = self.outstanding.iter().position(|o| o.id == id) else {
            return Vec::new();
        };
        let o = self.outstanding.remove(pos);
        let message = self.redactor.redact(&message);
        self.answered(
            &o,
            now,
            ExchangeResult::Error {
                code: None,
                message,
            },
        );
        if Some(o.id) == self.policy_id {
            self.settle(now);
            return vec![self.send_tools_page(None, now)];
        }
        self.stage = Stage::Done;
        Vec::new()
    }

    fn settle(&mut self, now: Instant) {
        let settle_ms = r3((now - self.connected_at).as_secs_f64() * 1000.0);
        self.opening.policy = Some(PolicySettle {
            settled: true,
            settle_ms: Some(settle_ms),
        });
    }

    fn answered(&mut self, o: &Outstanding, now: Instant, result: ExchangeResult) {
        let e = &mut self.opening.exchanges[o.index];
        e.round_trip_ms = Some(r3((now - o.sent_at).as_secs_f64() * 1000.0));
        e.result = result;
    }

    fn error_of(&self, err: &Value) -> ExchangeResult {
        ExchangeResult::Error {
            code: err.get("code").and_then(Value::as_i64),
            message: self.redactor.redact(
                err.get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
        }
    }

    /// A message from the server while connected. Returns what to send (answers to the
    /// server's requests, the host's next request). Messages that are not for the opening
    /// (a ping's answer) are ignored.
    pub fn on_message(&mut self, msg: &Value, now: Instant) -> Vec<Value> {
        let mut out = Vec::new();
        if msg.get("method").is_none() {
            let Some(id) = msg.get("id").and_then(Value::as_i64) else {
                return out;
            };
            if let Some(l) = self.listen_pending.clone() {
                if l.id == id {
                    self.listen_pending = None;
                    let r = match msg.get("error") {
                        Some(e) => self.error_of(e),
                        None => ExchangeResult::Answered,
                    };
                    self.answered(&l, now, r);
                    return out;
                }
            }
            let Some(pos) = self.outstanding.iter().position(|o| o.id == id) else {
                return out;
            };
            let o = self.outstanding.remove(pos);
            if Some(o.id) == self.policy_id {
                let r = match msg.get("error") {
                    Some(e) => self.error_of(e),
                    None => {
                        self.opening.receipt = msg.get("result").map(|r| self.receipt(r));
                        ExchangeResult::Answered
                    }
                };
                self.answered(&o, now, r);
                self.settle(now);
                out.push(self.send_tools_page(None, now));
            } else if o.method == "tools/list" {
                if let Some(next) = self.on_tools_page(&o, msg, now) {
                    out.push(next);
                }
            }
            return out;
        }
        let method = msg
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if method == "notifications/subscriptions/acknowledged" {
            if let Some(l) = self.listen_pending.take() {
                self.answered(&l, now, ExchangeResult::Answered);
            }
            return out;
        }
        if let Some(reply) = self.on_server_message(method, msg, now) {
            out.push(reply);
        }
        out
    }

    fn receipt(&self, result: &Value) -> Receipt {
        Receipt {
            mode: result
                .get("mode")
                .and_then(Value::as_str)
                .map(|m| self.redactor.redact(m)),
            unavailable: result
                .get("unavailableFeatures")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|f| f.get("featureSet").and_then(Value::as_str))
                        .map(|s| self.redactor.redact(s))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// One `tools/list` answer: count it, and return the next page's request when there is a
    /// `nextCursor` (an empty string is a cursor; only an absent one ends the inventory).
    fn on_tools_page(&mut self, o: &Outstanding, msg: &Value, now: Instant) -> Option<Value> {
        if let Some(e) = msg.get("error") {
            let r = self.error_of(e);
            self.answered(o, now, r);
            self.stage = Stage::Done;
            return None;
        }
        let result = msg.get("result").cloned().unwrap_or(Value::Null);
        let page = self.opening.tool_pages + 1;
        let malformed = |why: String| ExchangeResult::Error {
            code: None,
            message: format!("malformed tools/list page {page}: {why}"),
        };
        let Some(tools) = result.get("tools").and_then(Value::as_array) else {
            self.answered(o, now, malformed("no tools array".into()));
            self.stage = Stage::Done;
            return None;
        };
        let cursor = match result.get("nextCursor") {
            None => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                let shown = self.redactor.redact(&other.to_string());
                self.answered(
                    o,
                    now,
                    malformed(format!("nextCursor must be a string, got {shown}")),
                );
                self.stage = Stage::Done;
                return None;
            }
        };
        self.answered(o, now, ExchangeResult::Answered);
        self.opening.tool_pages = page;
        self.tools_seen += tools.len() as u32;
        for t in tools {
            if self.opening.tool_names.len() >= MAX_TOOL_NAMES {
                break;
            }
            if let Some(name) = t.get("name").and_then(Value::as_str) {
                self.opening.tool_names.push(self.redactor.redact(name));
            }
        }
        match cursor {
            None => {
                self.opening.tool_count = Some(self.tools_seen);
                self.stage = Stage::Done;
                None
            }
            Some(c) => {
                if !self.cursors.insert(c.clone()) || page >= MAX_TOOL_PAGES {
                    let e = &mut self.opening.exchanges[o.index];
                    e.result = malformed(if page >= MAX_TOOL_PAGES {
                        format!("more than {MAX_TOOL_PAGES} pages")
                    } else {
                        "a repeated nextCursor (the list would never end)".to_string()
                    });
                    self.stage = Stage::Done;
                    return None;
                }
                Some(self.send_tools_page(Some(c), now))
            }
        }
    }

    fn count_request(&mut self, method: &str) {
        let shown = self.redactor.redact(method);
        match self
            .opening
            .server_requests
            .iter_mut()
            .find(|m| m.method == shown)
        {
            Some(m) => m.count += 1,
            None => self.opening.server_requests.push(MethodCount {
                method: shown,
                count: 1,
            }),
        }
    }

    fn register(&mut self, method: &str, descriptors: Option<&Value>, now: Instant) -> Vec<Value> {
        let ids: Vec<String> = descriptors
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|d| d.get("id").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        for id in &ids {
            self.registered.insert(id.clone());
        }
        if !ids.is_empty() {
            self.opening
                .channels
                .registrations
                .push(ChannelRegistration {
                    at_ms: self.ms(now),
                    method: method.to_string(),
                    channel_ids: ids.iter().map(|i| self.redactor.redact(i)).collect(),
                });
        }
        ids.into_iter()
            .map(|id| json!({"id": id, "accepted": true}))
            .collect()
    }

    /// A request or notification from the server: record what matters and answer as a host
    /// that granted the capability does.
    fn on_server_message(&mut self, method: &str, msg: &Value, now: Instant) -> Option<Value> {
        let id = msg.get("id").filter(|i| !i.is_null()).cloned();
        if id.is_some() {
            self.count_request(method);
        }
        let params = msg.get("params");
        let result = match method {
            "channels/register" => {
                let results = self.register(method, params.and_then(|p| p.get("channels")), now);
                json!({ "results": results })
            }
            "channels/changed" => {
                let results = self.register(method, params.and_then(|p| p.get("added")), now);
                if let Some(removed) = params
                    .and_then(|p| p.get("removed"))
                    .and_then(Value::as_array)
                {
                    for r in removed {
                        let rid = r.as_str().or_else(|| r.get("id").and_then(Value::as_str));
                        if let Some(rid) = rid {
                            self.registered.remove(rid);
                        }
                    }
                }
                json!({ "results": results })
            }
            "channels/incoming" => {
                let messages = params
                    .and_then(|p| p.get("messages"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let mut results = Vec::new();
                for m in &messages {
                    self.opening.channels.incoming_messages += 1;
                    let channel = m.get("channelId").and_then(Value::as_str).unwrap_or("");
                    let message_id = m.get("messageId").and_then(Value::as_str);
                    if !self.registered.contains(channel) {
                        self.opening
                            .channels
                            .content_before_registration
                            .push(ChannelContent {
                                at_ms: self.ms(now),
                                channel_id: self.redactor.redact(channel),
                                message_id: message_id.map(|s| self.redactor.redact(s)),
                            });
                    }
                    results.push(json!({
                        "messageId": message_id.unwrap_or_default(),
                        "accepted": true,
                    }));
                }
                json!({ "results": results })
            }
            "push/event" => json!({ "accepted": true }),
            _ => return id.and_then(|_| handshake::reply_to_server_request(msg)),
        };
        id.map(|id| json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }

    /// The record, once the connection ended (`Close::Ended`) or observation stopped.
    pub fn finish(mut self, close: Close, at: Instant) -> Opening {
        let ended = close == Close::Ended;
        let mut pending: Vec<&Outstanding> = self.outstanding.iter().collect();
        pending.sort_by_key(|o| o.sent_at);
        if ended {
            self.opening.pending_at_close = pending.first().map(|o| PendingRequest {
                method: o.method.to_string(),
                sent_at_ms: self.ms(o.sent_at),
            });
        }
        let how = if ended {
            ExchangeResult::ConnectionEnded
        } else {
            ExchangeResult::Unanswered
        };
        for o in self.outstanding.iter().chain(self.listen_pending.iter()) {
            self.opening.exchanges[o.index].result = how.clone();
        }
        let _ = at;
        self.opening
    }

    /// Whether the host has nothing more to send (tests).
    pub fn done(&self) -> bool {
        self.stage == Stage::Done && self.outstanding.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// Across launches
// ---------------------------------------------------------------------------------------------

use super::runner::Launch;

/// What the openings of a whole run add up to (the `opening` member of `--json` and of the
/// `--events` report line).
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct OpeningSummary {
    /// Connections whose opening the probe played.
    pub connections: u32,
    /// Launches whose connection ended while a host request was outstanding.
    pub died_on: Vec<DiedOn>,
    /// Legacy MCPL: the policy exchange's settle time, ms after the handshake, on every
    /// connection where it settled (the value fed to the predictions).
    pub settle_ms: Vec<f64>,
    /// Legacy MCPL: connections whose policy exchange never settled before they ended.
    pub unsettled_launches: Vec<u32>,
    /// The settle time the per-rule predictions replay (ms after the handshake): the longest
    /// one observed; when none settled, longer than every connection that ended unsettled
    /// (so a replayed reconnect never clears the status line, as observed). `None`: nothing
    /// measured (no legacy MCPL connection, or `--handshake-only`): the default is used.
    pub settle_ms_for_predictions: Option<f64>,
    /// The tool counts differ across launches (launch, count), or the names do.
    pub tools_differ: Option<Vec<ToolsOnLaunch>>,
    /// Findings about channels across reconnects (agent-framework #644; MCPL SPEC §4.2.4).
    pub findings: Vec<ChannelFinding>,
}

/// A connection that ended with a host request unanswered.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DiedOn {
    pub launch: u32,
    /// The request.
    pub method: String,
    /// From sending it to the end of the connection, in ms.
    pub after_ms: f64,
}

/// One launch's tool list, for comparison.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ToolsOnLaunch {
    pub launch: u32,
    pub tool_count: u32,
    /// Names this launch listed that the first listing launch did not (redacted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Names the first listing launch listed that this one did not (redacted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// A finding about the opening (channels across reconnects, a failed `tools/list`), with its
/// evidence (per connection, for channels).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChannelFinding {
    /// `channels-registered-once`, `content-before-registration` or `tools-list-failed`.
    pub id: &'static str,
    /// One sentence, for a person.
    pub text: String,
    /// Per connection: what it registered and what arrived before.
    pub evidence: Vec<ChannelConnection>,
}

/// One connection's channel evidence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChannelConnection {
    pub launch: u32,
    /// How long the connection was watched after its handshake, in ms.
    pub connected_ms: f64,
    /// Channel ids registered on it (redacted), in order.
    pub registered: Vec<String>,
    /// When its first registration came, ms after its handshake.
    pub first_registration_ms: Option<f64>,
    /// Content that arrived for a channel not registered on it.
    pub content_before_registration: Vec<ChannelContent>,
}

/// One finding id per kind, stable for machines.
pub const CHANNELS_REGISTERED_ONCE: &str = "channels-registered-once";
pub const CONTENT_BEFORE_REGISTRATION: &str = "content-before-registration";
pub const TOOLS_LIST_FAILED: &str = "tools-list-failed";

impl OpeningSummary {
    /// Add up the openings of `launches`.
    pub fn of(launches: &[Launch]) -> OpeningSummary {
        let mut s = OpeningSummary::default();
        let mut channel_conns: Vec<ChannelConnection> = Vec::new();
        let mut listings: Vec<(u32, u32, &Vec<String>)> = Vec::new();
        for l in launches {
            let r = &l.report;
            let (Some(o), Some(connected_at)) = (&r.opening, r.connected_at_ms) else {
                continue;
            };
            s.connections += 1;
            if let Some(p) = &o.pending_at_close {
                s.died_on.push(DiedOn {
                    launch: l.number,
                    method: p.method.clone(),
                    after_ms: r3((r.ended_at_ms - p.sent_at_ms).max(0.0)),
                });
            }
            if let Some(p) = o.policy {
                match (p.settled, p.settle_ms) {
                    (true, Some(ms)) => s.settle_ms.push(ms),
                    (false, _) if o.pending_at_close.is_some() => {
                        s.unsettled_launches.push(l.number)
                    }
                    _ => {}
                }
            }
            if let Some(n) = o.tool_count {
                listings.push((l.number, n, &o.tool_names));
            }
            let registered: Vec<String> = o
                .channels
                .registrations
                .iter()
                .flat_map(|g| g.channel_ids.iter().cloned())
                .collect();
            channel_conns.push(ChannelConnection {
                launch: l.number,
                connected_ms: r3((r.ended_at_ms - connected_at).max(0.0)),
                registered,
                first_registration_ms: o
                    .channels
                    .registrations
                    .first()
                    .map(|g| r3((g.at_ms - connected_at).max(0.0))),
                content_before_registration: o.channels.content_before_registration.clone(),
            });
        }
        if let Some((_, first_n, first_names)) = listings.first().copied() {
            let differ = listings
                .iter()
                .any(|(_, n, names)| *n != first_n || *names != first_names);
            if differ {
                s.tools_differ = Some(
                    listings
                        .iter()
                        .map(|(launch, n, names)| ToolsOnLaunch {
                            launch: *launch,
                            tool_count: *n,
                            added: names
                                .iter()
                                .filter(|x| !first_names.contains(x))
                                .cloned()
                                .collect(),
                            missing: first_names
                                .iter()
                                .filter(|x| !names.contains(x))
                                .cloned()
                                .collect(),
                        })
                        .collect(),
                );
            }
        }
        s.findings = channel_findings(&channel_conns);
        s.findings.extend(tools_list_finding(launches));
        s.settle_ms_for_predictions =
            if let Some(max) = s.settle_ms.iter().copied().reduce(f64::max) {
                Some(max)
            } else if s.unsettled_launches.is_empty() {
                None
            } else {
                let longest = channel_conns
                    .iter()
                    .filter(|c| s.unsettled_launches.contains(&c.launch))
                    .map(|c| c.connected_ms)
                    .fold(0.0, f64::max);
                Some(r3(longest.max(crate::engine::schedule::DEFAULT_SETTLE_MS) + 1.0).round())
            };
        s
    }

    /// The settle time to replay in the predictions: measured, else the default.
    pub fn prediction_settle_ms(&self) -> f64 {
        self.settle_ms_for_predictions
            .unwrap_or(crate::engine::schedule::DEFAULT_SETTLE_MS)
    }

    /// Whether anything here is a finding (exit 1 even when every connection stayed up).
    pub fn has_findings(&self) -> bool {
        !self.findings.is_empty()
    }
}

/// A server that advertises tools but whose `tools/list` failed (an error answer, a malformed
/// page, no answer within the host's deadline, a failed HTTP request): the host starts that
/// connection without its tools, and nothing reconnects or alerts. A listing cut short by the
/// connection's end is not this (that is what it died on), nor one still waited for when
/// observation stopped.
fn tools_list_finding(launches: &[Launch]) -> Option<ChannelFinding> {
    let mut failed: Vec<(u32, String)> = Vec::new();
    for l in launches {
        let Some(o) = &l.report.opening else {
            continue;
        };
        if !o.tools_advertised {
            continue;
        }
        let how = o
            .exchanges
            .iter()
            .filter(|e| e.method == "tools/list")
            .find_map(|e| match &e.result {
                ExchangeResult::Error { code, message } => Some(match (code, message.is_empty()) {
                    (Some(c), true) => format!("error {c}"),
                    (Some(c), false) => format!("error {c}: {message}"),
                    (None, _) => message.clone(),
                }),
                ExchangeResult::TimedOut { deadline_ms } => Some(format!(
                    "no answer within {}",
                    crate::engine::policy::timings::format_ms(*deadline_ms)
                )),
                _ => None,
            });
        if let Some(how) = how {
            failed.push((l.number, how));
        }
    }
    let (first, how) = failed.first()?;
    let (on, connections) = if failed.len() == 1 {
        (format!("launch {first}"), "that connection")
    } else {
        (
            format!("{} launches, first launch {first}", failed.len()),
            "those connections",
        )
    };
    Some(ChannelFinding {
        id: TOOLS_LIST_FAILED,
        text: format!(
            "tools/list failed on {on} ({how}): the server advertises tools, but the host \
             gets none from it on {connections}, and nothing reconnects or alerts"
        ),
        evidence: Vec::new(),
    })
}

fn channel_findings(conns: &[ChannelConnection]) -> Vec<ChannelFinding> {
    let mut out = Vec::new();
    // Registered on an earlier connection, not on a later one that lived at least as long as
    // the registering connection took to register (so a slow registration is not mistaken for
    // a missing one).
    if let Some(first) = conns.iter().find(|c| !c.registered.is_empty()) {
        let took = first.first_registration_ms.unwrap_or(0.0);
        let silent: Vec<&ChannelConnection> = conns
            .iter()
            .filter(|c| {
                c.launch > first.launch && c.registered.is_empty() && c.connected_ms >= took
            })
            .collect();
        if !silent.is_empty() {
            let launches: Vec<String> = silent.iter().map(|c| c.launch.to_string()).collect();
            let text = format!(
                "registered its channels ({}) on launch {} only; launch{} {} connected without registering any (for at least as long as the first took, {} ms): after each reconnect the host keeps them unconfirmed and the agent cannot speak first into a quiet channel",
                first.registered.join(", "),
                first.launch,
                if silent.len() == 1 { "" } else { "es" },
                launches.join(", "),
                took.round(),
            );
            let mut evidence = vec![first.clone()];
            evidence.extend(silent.into_iter().cloned());
            out.push(ChannelFinding {
                id: CHANNELS_REGISTERED_ONCE,
                text,
                evidence,
            });
        }
    }
    let early: Vec<&ChannelConnection> = conns
        .iter()
        .filter(|c| !c.content_before_registration.is_empty())
        .collect();
    if !early.is_empty() {
        let first = &early[0].content_before_registration[0];
        let text = format!(
            "delivered channel content before registering the channel on this connection (launch {}: channel {}, message {}); MCPL requires registration under the new grant first",
            early[0].launch,
            first.channel_id,
            first.message_id.as_deref().unwrap_or("(no id)"),
        );
        out.push(ChannelFinding {
            id: CONTENT_BEFORE_REGISTRATION,
            text,
            evidence: early.into_iter().cloned().collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(caps: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05", "capabilities": caps}})
    }

    fn mcpl_caps() -> Value {
        json!({"tools": {}, "experimental": {"mcpl": {"version": "0.5", "pushEvents": true,
            "channels": {"register": true, "incoming": true, "publish": false},
            "contextHooks": {"beforeInference": true},
            "featureSets": {"chat": {"description": "chat", "uses": ["pushEvents"]}}}}})
    }

    fn driver(protocol: Protocol, stdio: bool, caps: Value, t0: Instant) -> OpeningDriver {
        let mut r = Redactor::new();
        r.add("s3cret");
        OpeningDriver::new(protocol, stdio, &answer(caps), t0, t0, Arc::new(r))
    }

    fn reply(id: i64, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }

    /// A launch that stayed up with `opening`, as the summary reads it.
    fn launch_with(number: u32, opening: Opening) -> Launch {
        let report = super::super::AttemptReport {
            launched_at_ms: 0.0,
            launched_at_wall: std::time::SystemTime::UNIX_EPOCH,
            pid: None,
            connected_at_ms: Some(10.0),
            server: None,
            ended_at_ms: 500.0,
            outcome: Some(crate::engine::policy::Outcome::StillUp { lived_ms: 490.0 }),
            stopped: super::super::Stopped::Closed,
            pings_sent: 0,
            pings_answered: 0,
            stderr: Default::default(),
            stdout: Default::default(),
            process: None,
            opening: Some(opening),
            escaped: 0,
            misbehaviour: Default::default(),
        };
        super::super::runner::launch_record(number, 0, report, None)
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_listing_of_advertised_tools_is_a_finding() {
        let t0 = Instant::now();
        let error = json!({"jsonrpc": "2.0", "id": 1,
            "error": {"code": -32603, "message": "db down s3cret"}});
        let listing = |caps: Value, close: Close| {
            let mut d = driver(Protocol::Modern, false, caps, t0);
            let sent = d.start(t0);
            assert_eq!(sent[0]["method"], "tools/list");
            if close == Close::Watching {
                d.on_message(&error, t0);
            }
            d.finish(close, t0)
        };
        // Advertised, answered with an error: a finding that names the error (redacted).
        let failed = listing(json!({"tools": {}}), Close::Watching);
        let s = OpeningSummary::of(&[launch_with(1, failed.clone())]);
        assert_eq!(s.findings.len(), 1, "{s:?}");
        assert_eq!(s.findings[0].id, TOOLS_LIST_FAILED);
        assert!(
            s.findings[0]
                .text
                .starts_with("tools/list failed on launch 1 (error -32603: db down [redacted])"),
            "{}",
            s.findings[0].text
        );
        let s = OpeningSummary::of(&[launch_with(1, failed.clone()), launch_with(2, failed)]);
        assert!(
            s.findings[0].text.contains("on 2 launches, first launch 1")
                && s.findings[0].text.contains("on those connections"),
            "{}",
            s.findings[0].text
        );
        // Not advertised: the same error is no finding (a server without tools may refuse to
        // list them); cut short by the connection's end: what it died on, not this finding.
        for o in [
            listing(json!({}), Close::Watching),
            listing(json!({"tools": {}}), Close::Ended),
        ] {
            let s = OpeningSummary::of(&[launch_with(1, o)]);
            assert!(s.findings.is_empty(), "{s:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn legacy_mcpl_policy_then_every_page() {
        let t0 = Instant::now();
        let mut d = driver(Protocol::Legacy, true, mcpl_caps(), t0);
        let sent = d.start(t0);
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["method"], "featureSets/update");
        assert_eq!(sent[0]["id"], 1);
        // The grant: what was advertised and the host grants; never context hooks.
        assert_eq!(
            sent[0]["params"]["effectiveCapabilities"],
            json!([
                "tools",
                "pushEvents",
                "channels.register",
                "channels.incoming"
            ])
        );
        assert_eq!(d.due(), Some(t0 + POLICY_TIMEOUT));
        let t1 = t0 + Duration::from_millis(5);
        let next = d.on_message(
            &reply(
                1,
                json!({"accepted": true, "mode": "degraded",
            "unavailableFeatures": [{"featureSet": "chat"}]}),
            ),
            t1,
        );
        assert_eq!(next[0]["method"], "tools/list");
        assert_eq!(next[0]["params"], json!({}));
        let t2 = t1 + Duration::from_millis(2);
        let next = d.on_message(
            &reply(
                2,
                json!({"tools": [{"name": "a"}, {"name": "b s3cret"}], "nextCursor": ""}),
            ),
            t2,
        );
        assert_eq!(
            next[0]["params"],
            json!({"cursor": ""}),
            "an empty cursor is a cursor"
        );
        let next = d.on_message(&reply(3, json!({"tools": [{"name": "c"}]})), t2);
        assert!(next.is_empty());
        assert!(d.done());
        let o = d.finish(Close::Ended, t2);
        assert_eq!(o.tool_count, Some(3));
        assert_eq!(o.tool_names, ["a", "b [redacted]", "c"]);
        assert_eq!(o.tool_pages, 2);
        assert_eq!(o.feature_sets, ["chat"]);
        assert_eq!(
            o.receipt.as_ref().map(|r| r.unavailable.clone()),
            Some(vec!["chat".to_string()])
        );
        assert_eq!(
            o.policy,
            Some(PolicySettle {
                settled: true,
                settle_ms: Some(5.0)
            })
        );
        assert_eq!(o.exchanges[0].round_trip_ms, Some(5.0));
        assert_eq!(o.pending_at_close, None, "nothing outstanding");
    }

    #[tokio::test(start_paused = true)]
    async fn an_unanswered_policy_times_out_at_15_s_then_tools_are_listed() {
        let t0 = Instant::now();
        let mut d = driver(Protocol::Legacy, true, mcpl_caps(), t0);
        d.start(t0);
        assert!(d.on_timer(t0 + Duration::from_secs(14)).is_empty());
        let next = d.on_timer(t0 + POLICY_TIMEOUT);
        assert_eq!(next[0]["method"], "tools/list");
        assert_eq!(d.due(), Some(t0 + POLICY_TIMEOUT + LEGACY_REQUEST_TIMEOUT));
        // The connection ends with tools/list outstanding.
        let end = t0 + POLICY_TIMEOUT + Duration::from_millis(12);
        let o = d.finish(Close::Ended, end);
        assert_eq!(
            o.exchanges[0].result,
            ExchangeResult::TimedOut {
                deadline_ms: 15_000.0
            }
        );
        assert_eq!(
            o.policy.map(|p| p.settled),
            Some(true),
            "a timeout settles it"
        );
        assert_eq!(
            o.pending_at_close,
            Some(PendingRequest {
                method: "tools/list".into(),
                sent_at_ms: 15_000.0
            })
        );
        assert_eq!(o.exchanges[1].result, ExchangeResult::ConnectionEnded);
    }

    #[tokio::test(start_paused = true)]
    async fn bad_pages_are_errors_never_partial_inventories() {
        let t0 = Instant::now();
        for (page, why) in [
            (json!({"nextCursor": "x"}), "no tools array"),
            (
                json!({"tools": [], "nextCursor": 5}),
                "nextCursor must be a string, got 5",
            ),
            (
                json!({"tools": [], "nextCursor": null}),
                "nextCursor must be a string, got null",
            ),
        ] {
            let mut d = driver(Protocol::Legacy, true, json!({"tools": {}}), t0);
            assert_eq!(
                d.start(t0)[0]["method"],
                "tools/list",
                "plain MCP: no policy"
            );
            assert!(d.on_message(&reply(1, page), t0).is_empty());
            let o = d.finish(Close::Watching, t0);
            assert_eq!(o.tool_count, None);
            match &o.exchanges[0].result {
                ExchangeResult::Error {
                    code: None,
                    message,
                } => {
                    assert_eq!(message, &format!("malformed tools/list page 1: {why}"))
                }
                other => panic!("{other:?}"),
            }
        }
        // A repeated cursor would never end.
        let mut d = driver(Protocol::Legacy, true, json!({}), t0);
        d.start(t0);
        d.on_message(&reply(1, json!({"tools": [], "nextCursor": "a"})), t0);
        assert!(d
            .on_message(&reply(2, json!({"tools": [], "nextCursor": "a"})), t0)
            .is_empty());
        let o = d.finish(Close::Watching, t0);
        assert!(
            matches!(&o.exchanges[1].result, ExchangeResult::Error { message, .. } if message.contains("repeated nextCursor"))
        );
    }

    #[tokio::test(start_paused = true)]
    async fn modern_lists_tools_and_opens_the_subscription_over_stdio_only() {
        let t0 = Instant::now();
        let caps = json!({"tools": {"listChanged": true}});
        let mut d = OpeningDriver::new(
            Protocol::Modern,
            true,
            &json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": caps.clone()}}),
            t0,
            t0,
            Arc::new(Redactor::new()),
        );
        let sent = d.start(t0);
        assert_eq!(sent[0]["method"], "tools/list");
        assert_eq!(
            sent[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            MODERN_VERSION
        );
        assert_eq!(sent[1]["method"], "subscriptions/listen");
        assert_eq!(
            sent[1]["params"]["notifications"],
            json!({"toolsListChanged": true})
        );
        d.on_message(
            &json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged"}),
            t0 + Duration::from_millis(3),
        );
        // The stream stays open: not outstanding at the end.
        let o = d.finish(Close::Ended, t0 + Duration::from_millis(9));
        assert_eq!(o.exchanges[1].result, ExchangeResult::Answered);
        assert_eq!(
            o.pending_at_close.map(|p| p.method),
            Some("tools/list".into())
        );
        assert_eq!(o.policy, None);
        // Over HTTP or WebSocket: no subscription.
        let mut d = OpeningDriver::new(
            Protocol::Modern,
            false,
            &json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": caps}}),
            t0,
            t0,
            Arc::new(Redactor::new()),
        );
        assert_eq!(d.start(t0).len(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn channels_are_recorded_and_answered_as_granted() {
        let t0 = Instant::now();
        let mut d = driver(Protocol::Legacy, false, mcpl_caps(), t0);
        d.start(t0);
        let early = json!({"jsonrpc": "2.0", "id": 100, "method": "channels/incoming",
            "params": {"messages": [{"channelId": "c1", "messageId": "m1"}]}});
        let r = d.on_message(&early, t0 + Duration::from_millis(1));
        assert_eq!(
            r[0]["result"],
            json!({"results": [{"messageId": "m1", "accepted": true}]})
        );
        let reg = json!({"jsonrpc": "2.0", "id": 101, "method": "channels/register",
            "params": {"channels": [{"id": "c1"}, {"id": "c2"}]}});
        let r = d.on_message(&reg, t0 + Duration::from_millis(2));
        assert_eq!(r[0]["id"], 101);
        assert_eq!(
            r[0]["result"],
            json!({"results": [{"id": "c1", "accepted": true}, {"id": "c2", "accepted": true}]})
        );
        let late = json!({"jsonrpc": "2.0", "id": 102, "method": "channels/incoming",
            "params": {"messages": [{"channelId": "c2", "messageId": "m2"}]}});
        d.on_message(&late, t0 + Duration::from_millis(3));
        let push = json!({"jsonrpc": "2.0", "id": 103, "method": "push/event", "params": {}});
        assert_eq!(
            d.on_message(&push, t0)[0]["result"],
            json!({"accepted": true})
        );
        let other = json!({"jsonrpc": "2.0", "id": 104, "method": "model/info"});
        assert_eq!(d.on_message(&other, t0)[0]["error"]["code"], -32601);
        let o = d.finish(Close::Watching, t0 + Duration::from_millis(4));
        assert!(o.channels.granted);
        assert_eq!(o.channels.registrations[0].channel_ids, ["c1", "c2"]);
        assert_eq!(o.channels.content_before_registration.len(), 1);
        assert_eq!(o.channels.content_before_registration[0].channel_id, "c1");
        assert_eq!(o.channels.incoming_messages, 2);
        assert_eq!(o.server_requests.len(), 4);
        assert_eq!(o.pending_at_close, None, "still connected: nothing died");
        assert_eq!(o.exchanges[0].result, ExchangeResult::Unanswered);
    }
}
