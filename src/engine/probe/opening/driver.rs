//! The host's side of the opening as a transport-independent state machine: what to send after
//! the handshake, when, and what the answers mean.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::call::{self, advertised, ToolCall, GRANTABLE};
use super::record::*;
use crate::engine::folded::{short_text, FoldedList};
use crate::engine::probe::model::Protocol;
use crate::engine::probe::read::bounded_json::{name_digest, FOLDED_TOOLS};
use crate::engine::probe::session::handshake::{self, MODERN_VERSION};
use crate::engine::redact::Redactor;

/// The legacy host's deadline for the initial policy request (`featureSets/update`).
pub(crate) const POLICY_TIMEOUT: Duration = Duration::from_secs(15);
/// The legacy host's default per-request deadline (`requestTimeoutMs`), which bounds
/// `tools/list`.
pub(crate) const LEGACY_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The modern host's bound on inventory listing (`LIST_TIMEOUT_MS`) and on opening the
/// list-change subscription (`CONNECT_TIMEOUT_MS`).
pub(crate) const MODERN_LIST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most `tools/list` pages followed (a server that pages forever is an error).
pub(crate) const MAX_TOOL_PAGES: u32 = 1000;
/// The first id the opening uses; the host numbers its requests from 1 after the handshake's 0.
pub(crate) const FIRST_ID: i64 = 1;

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
    /// Its push number in `Opening::exchanges` (it may be folded away by then).
    index: u64,
}

/// The host's opening as a state machine, independent of transport: the transport calls
/// [`OpeningDriver::start`] once the connection is made, feeds it every message while
/// connected ([`OpeningDriver::on_message`]), fires [`OpeningDriver::on_timer`] at
/// [`OpeningDriver::due`], sends whatever these return, and calls
/// [`OpeningDriver::finish`] when the connection ends or observation stops.
#[derive(Debug)]
pub(crate) struct OpeningDriver {
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
    /// The `nextCursor`s seen, as keyed hashes with their lengths: a server may send cursors
    /// of megabytes on each of a thousand pages, and only their repetition matters.
    cursors: HashSet<(u64, usize)>,
    cursor_keys: RandomState,
    tools_seen: u32,
    /// The channels registered on this connection and not removed, as keyed hashes (see
    /// `cursors`), at most [`MAX_REGISTERED`].
    registered: HashSet<u64>,
    /// More than [`MAX_REGISTERED`] channels were registered: which are is no longer known,
    /// and no content counts as arriving before its registration.
    registered_overflow: bool,
    /// `--call`: the one `tools/call` made once the listing ends.
    call: Option<ToolCall>,
    opening: Opening,
}

/// The most registered channel ids remembered per connection (a few hundred kilobytes).
pub(crate) const MAX_REGISTERED: usize = 16_384;

/// How observation of the connection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Close {
    /// The connection ended (exit, close frame, reset, unanswered ping).
    Ended,
    /// The probe stopped watching; the connection was still there.
    Watching,
}

impl OpeningDriver {
    /// A driver for a connection made at `connected_at` whose handshake answer was `answer`
    /// (the whole JSON-RPC message). `stdio`: the transport is a process's stdio (the modern
    /// host opens its list-change subscription only there).
    pub(crate) fn new(
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
        let feature_sets: FoldedList<String> = mcpl_caps
            .and_then(|m| m.get("featureSets"))
            .and_then(Value::as_object)
            .map(|m| m.keys().map(|k| short_text(&redactor, k)).collect())
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
            cursor_keys: RandomState::new(),
            tools_seen: 0,
            registered: HashSet::new(),
            registered_overflow: false,
            call: None,
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

    /// Make `call` (`--call TOOL[=JSON]`) once the tool listing ends.
    pub(crate) fn with_call(mut self, call: Option<ToolCall>) -> OpeningDriver {
        self.call = call;
        self
    }

    /// The `tools/call` of `--call`, once (the listing has ended).
    fn call_now(&mut self, now: Instant) -> Option<Value> {
        let c = self.call.take()?;
        let params = json!({"name": c.name, "arguments": c.arguments});
        let (msg, o) = self.request("tools/call", params, self.list_timeout(), now);
        self.outstanding.push(o);
        Some(msg)
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
            index: self.opening.exchanges.total() - 1,
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
    pub(crate) fn start(&mut self, now: Instant) -> Vec<Value> {
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
    pub(crate) fn due(&self) -> Option<Instant> {
        self.outstanding
            .iter()
            .chain(self.listen_pending.iter())
            .map(|o| o.deadline)
            .min()
    }

    /// Time out whatever is past its deadline at `now`; returns what to send next.
    pub(crate) fn on_timer(&mut self, now: Instant) -> Vec<Value> {
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
            self.set_result(o.index, ExchangeResult::TimedOut { deadline_ms });
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
                let index = l.index;
                self.set_result(index, ExchangeResult::TimedOut { deadline_ms });
                self.listen_pending = None;
            }
        }
        out
    }

    /// A request the transport got no usable answer to (over HTTP: a POST that failed, with
    /// the reason in plain words): an error without a JSON-RPC code. The host moves on as after
    /// an error answer; returns what to send next.
    pub(crate) fn on_failed(&mut self, id: i64, message: String, now: Instant) -> Vec<Value> {
        let Some(pos) = self.outstanding.iter().position(|o| o.id == id) else {
            return Vec::new();
        };
        let o = self.outstanding.remove(pos);
        let message = short_text(&self.redactor, &message);
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
        if let Some(e) = self.opening.exchanges.get_mut(o.index) {
            e.round_trip_ms = Some(r3((now - o.sent_at).as_secs_f64() * 1000.0));
            e.result = result;
        }
    }

    /// Set the result of exchange `index`, when it is still kept.
    fn set_result(&mut self, index: u64, result: ExchangeResult) {
        if let Some(e) = self.opening.exchanges.get_mut(index) {
            e.result = result;
        }
    }

    fn error_of(&self, err: &Value) -> ExchangeResult {
        ExchangeResult::Error {
            code: err.get("code").and_then(Value::as_i64),
            message: short_text(
                &self.redactor,
                err.get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
        }
    }

    /// A message from the server while connected. Returns what to send (answers to the
    /// server's requests, the host's next request). Messages that are not for the opening
    /// (a ping's answer) are ignored.
    pub(crate) fn on_message(&mut self, msg: &Value, now: Instant) -> Vec<Value> {
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
                let next = self.on_tools_page(&o, msg, now);
                out.extend(next.or_else(|| self.call_now(now)));
            } else if o.method == "tools/call" {
                let r = call::result_of(msg, &self.redactor);
                self.opening.call = call::answer_of(msg, &self.redactor);
                self.answered(&o, now, r);
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
                .map(|m| short_text(&self.redactor, m)),
            unavailable: result
                .get("unavailableFeatures")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|f| f.get("featureSet").and_then(Value::as_str))
                        .map(|s| short_text(&self.redactor, s))
                        .collect()
                })
                .unwrap_or_default(),
            unavailable_folded: 0,
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
        let tools = result.get("tools");
        let folded = tools.and_then(|t| t.get(FOLDED_TOOLS));
        if folded.is_none() && !tools.is_some_and(Value::is_array) {
            self.answered(o, now, malformed("no tools array".into()));
            self.stage = Stage::Done;
            return None;
        }
        let cursor = match result.get("nextCursor") {
            None => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                let shown = short_text(&self.redactor, &other.to_string());
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
        self.opening.tool_pages_ms += (now - o.sent_at).as_secs_f64() * 1000.0;
        self.opening.tool_pages = page;
        match folded {
            Some(f) => self.count_folded_tools(f),
            None => {
                let tools = tools
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice);
                self.tools_seen = self.tools_seen.saturating_add(tools.len() as u32);
                for t in tools {
                    if let Some(name) = t.get("name").and_then(Value::as_str) {
                        self.count_tool_name(name);
                    }
                }
            }
        }
        match cursor {
            None => {
                self.opening.tool_count = Some(self.tools_seen);
                self.stage = Stage::Done;
                None
            }
            Some(c) => {
                let key = (self.cursor_keys.hash_one(&c), c.len());
                if !self.cursors.insert(key) || page >= MAX_TOOL_PAGES {
                    self.set_result(
                        o.index,
                        malformed(if page >= MAX_TOOL_PAGES {
                            format!("more than {MAX_TOOL_PAGES} pages")
                        } else {
                            "a repeated nextCursor (the list would never end)".to_string()
                        }),
                    );
                    self.stage = Stage::Done;
                    return None;
                }
                Some(self.send_tools_page(Some(c), now))
            }
        }
    }

    fn count_tool_name(&mut self, name: &str) {
        self.opening.tool_names_digest = self
            .opening
            .tool_names_digest
            .wrapping_add(name_digest(name));
        self.opening
            .tool_names
            .push(short_text(&self.redactor, name));
    }

    /// A page folded as it was read (see `bounded_json`): its count and digest, and its first
    /// and last names kept (those between counted as folded).
    fn count_folded_tools(&mut self, f: &Value) {
        let n = |k: &str| f.get(k).and_then(Value::as_u64).unwrap_or(0);
        let count = u32::try_from(n("count")).unwrap_or(u32::MAX);
        self.tools_seen = self.tools_seen.saturating_add(count);
        self.opening.tool_names_digest = self.opening.tool_names_digest.wrapping_add(n("digest"));
        let names = |k: &str| -> Vec<String> {
            f.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(|s| short_text(&self.redactor, s))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (first, last) = (names("first"), names("last"));
        let between = n("named").saturating_sub((first.len() + last.len()) as u64);
        for name in first {
            self.opening.tool_names.push(name);
        }
        self.opening.tool_names.skip(between);
        for name in last {
            self.opening.tool_names.push(name);
        }
    }

    fn count_request(&mut self, method: &str) {
        let shown = short_text(&self.redactor, method);
        let requests = &mut self.opening.server_requests;
        match requests.iter().position(|m| m.method == shown) {
            Some(i) => requests[i].count = requests[i].count.saturating_add(1),
            None if requests.len() < MAX_METHODS => requests.push(MethodCount {
                method: shown,
                count: 1,
            }),
            None => self.opening.server_requests_other += 1,
        }
    }

    fn channel_key(&self, id: &str) -> u64 {
        self.cursor_keys.hash_one(id)
    }

    /// Whether channel `id` is registered on this connection (or may be: see
    /// `registered_overflow`).
    fn is_registered(&self, id: &str) -> bool {
        self.registered_overflow || self.registered.contains(&self.channel_key(id))
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
            if self.registered.len() >= MAX_REGISTERED {
                self.registered_overflow = true;
                break;
            }
            self.registered.insert(self.channel_key(id));
        }
        if !ids.is_empty() {
            let channel_ids = ids.iter().map(|i| short_text(&self.redactor, i)).collect();
            let c = &mut self.opening.channels;
            c.channel_ids_total += ids.len() as u64;
            c.registrations.push(ChannelRegistration {
                at_ms: r3(now.saturating_duration_since(self.epoch).as_secs_f64() * 1000.0),
                method: method.to_string(),
                channel_ids,
                channel_ids_folded: 0,
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
                            let key = self.channel_key(rid);
                            self.registered.remove(&key);
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
                    let c = &mut self.opening.channels;
                    c.incoming_messages = c.incoming_messages.saturating_add(1);
                    let channel = m.get("channelId").and_then(Value::as_str).unwrap_or("");
                    let message_id = m.get("messageId").and_then(Value::as_str);
                    if !self.is_registered(channel) {
                        let content = ChannelContent {
                            at_ms: self.ms(now),
                            channel_id: short_text(&self.redactor, channel),
                            message_id: message_id.map(|s| short_text(&self.redactor, s)),
                        };
                        self.opening
                            .channels
                            .content_before_registration
                            .push(content);
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
    pub(crate) fn finish(mut self, close: Close, at: Instant) -> Opening {
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
        let open: Vec<u64> = self
            .outstanding
            .iter()
            .chain(self.listen_pending.iter())
            .map(|o| o.index)
            .collect();
        for index in open {
            self.set_result(index, how.clone());
        }
        let _ = at;
        self.opening.seal();
        self.opening
    }

    /// The deadline of `--call`'s `tools/call` while it waits for its answer: the watch waits
    /// for it (the tool's result is what was asked), up to this.
    pub(crate) fn call_deadline(&self) -> Option<Instant> {
        self.outstanding
            .iter()
            .find(|o| o.method == "tools/call")
            .map(|o| o.deadline)
    }

    /// Whether the host has nothing more to send (tests).
    /// The tools listed, once the whole list is read: their count and the digest of their
    /// names.
    pub(crate) fn listed_tools(&self) -> Option<(u32, u64)> {
        self.opening
            .tool_count
            .map(|c| (c, self.opening.tool_names_digest))
    }

    #[cfg(test)]
    pub(crate) fn done(&self) -> bool {
        self.stage == Stage::Done && self.outstanding.is_empty()
    }
}
