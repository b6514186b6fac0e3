//! The host's side of the conversation as JSON values: the handshake request, reading its
//! answer into a verdict, pings, and answers to the server's own requests. No I/O here: stdio
//! frames these as lines, WebSocket as text frames.

use std::time::Duration;

use serde_json::{json, Map, Value};
use tokio::time::Instant;

use crate::engine::folded::short_text;
use crate::engine::probe::model::{Family, Protocol, ServerInfo};
use crate::engine::probe::read::bounded_json;
use crate::engine::redact::Redactor;

/// The only version the legacy engine accepts.
pub(crate) const LEGACY_VERSION: &str = "2024-11-05";
/// The modern engine's version.
pub(crate) const MODERN_VERSION: &str = "2026-07-28";
/// The MCPL version the probe offers as the host's experimental capability.
pub(crate) const MCPL_VERSION: &str = "0.5";
/// The handshake request's id (only a message with this id answers it).
pub(crate) const HANDSHAKE_ID: i64 = 0;
/// The first id of the probe's own pings (far above the host's request ids, which count up
/// from 1 after the handshake).
pub(crate) const FIRST_PING_ID: i64 = 1_000_000;
/// JSON-RPC error code of a protocol-version refusal.
pub(crate) const VERSION_REFUSED: i64 = -32022;

const CLIENT_NAME: &str = "mcpl-doctor";
const CLIENT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The host's MCPL capabilities in `initialize` (connectome-host's `HOST_MCPL_CAPS`, less what
/// the probe cannot play: inference, context hooks, model info).
pub(crate) fn host_capabilities() -> Value {
    json!({
        "version": MCPL_VERSION,
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

/// The first message the host sends: `initialize` (legacy) or `server/discover` (modern).
pub(crate) fn first_request(protocol: Protocol) -> Value {
    match protocol {
        Protocol::Legacy => json!({
            "jsonrpc": "2.0",
            "id": HANDSHAKE_ID,
            "method": "initialize",
            "params": {
                "protocolVersion": LEGACY_VERSION,
                "capabilities": { "experimental": { "mcpl": host_capabilities() } },
                "clientInfo": { "name": CLIENT_NAME, "version": CLIENT_VERSION },
            },
        }),
        Protocol::Modern => json!({
            "jsonrpc": "2.0",
            "id": HANDSHAKE_ID,
            "method": "server/discover",
            "params": {
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
                    "io.modelcontextprotocol/clientCapabilities": {},
                    "io.modelcontextprotocol/clientInfo": {
                        "name": CLIENT_NAME,
                        "version": CLIENT_VERSION,
                    },
                },
            },
        }),
    }
}

/// What the host sends once the answer is accepted (legacy: `notifications/initialized`; the
/// connection is made when it is sent). Modern: nothing, the answer itself makes it.
pub(crate) fn after_answer(protocol: Protocol) -> Option<Value> {
    match protocol {
        Protocol::Legacy => Some(json!({
            "jsonrpc": "2.0",
            "method": "notifications/initialized",
        })),
        Protocol::Modern => None,
    }
}

/// The host's error when no answer came in time.
pub(crate) fn timeout_message(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Legacy => "initialize handshake timed out",
        Protocol::Modern => "server/discover handshake timed out",
    }
}

/// The handshake method's name, for messages.
pub(crate) fn method(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Legacy => "initialize",
        Protocol::Modern => "server/discover",
    }
}

/// One line or frame from the server, classified.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Incoming {
    /// A JSON-RPC message (a JSON object with `"jsonrpc": "2.0"`).
    Message(Value),
    /// Anything else: not JSON, or JSON that is not a JSON-RPC message. The host ignores it.
    NotJsonRpc,
    /// An empty (or all white space) line: ignored, not counted.
    Blank,
}

/// Classify one line (without its newline) or text frame.
pub(crate) fn classify(bytes: &[u8]) -> Incoming {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Incoming::Blank;
    }
    // Invalid UTF-8 is decoded as the host's Node does (each bad sequence a U+FFFD), not
    // refused: a server whose name has a stray byte still connects.
    // Parsed without a second copy of its bulk: long strings are cut (see `bounded_json`).
    let parsed = match std::str::from_utf8(bytes) {
        Ok(text) => bounded_json::parse(text),
        Err(_) => bounded_json::parse(&String::from_utf8_lossy(bytes)),
    };
    match parsed {
        Ok(v) if v.get("jsonrpc").and_then(Value::as_str) == Some("2.0") => Incoming::Message(v),
        _ => Incoming::NotJsonRpc,
    }
}

/// What an incoming message means for a pending handshake.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// Not the answer (another id, a notification, a server request): keep waiting.
    NotYet,
    /// Accepted: the connection is made (after sending [`after_answer`], if any).
    Connected(ServerInfo),
    /// An ordinary failed attempt (an error answer), with the host's error text.
    Failed {
        error: String,
        server: Option<ServerInfo>,
    },
    /// A permanent version verdict: reconnecting stops.
    Refused { error: String, server: ServerInfo },
}

/// Read a message against the pending handshake. Server-controlled strings in the result are
/// redacted.
pub(crate) fn read_answer(protocol: Protocol, msg: &Value, redactor: &Redactor) -> Answer {
    if !is_response_to(msg, HANDSHAKE_ID) {
        return Answer::NotYet;
    }
    if let Some(err) = msg.get("error") {
        return read_error(protocol, err, redactor);
    }
    let Some(result) = msg.get("result") else {
        return Answer::NotYet;
    };
    let mut info = server_info(result, redactor);
    match protocol {
        Protocol::Legacy => match result.get("protocolVersion") {
            Some(Value::String(v)) if v == LEGACY_VERSION => Answer::Connected(info),
            Some(other) => {
                let said = match other {
                    Value::String(s) => short_text(redactor, s),
                    v => short_text(redactor, &v.to_string()),
                };
                let shown = match other {
                    Value::String(_) => format!("{said:?}"),
                    _ => said.clone(),
                };
                info.protocol_version = Some(said);
                let modern = shown.contains(MODERN_VERSION);
                Answer::Refused {
                    error: format!(
                        "server answered protocol version {shown}, not {LEGACY_VERSION}{}",
                        if modern {
                            " (a modern server: the entry needs protocol: \"modern\")"
                        } else {
                            ""
                        }
                    ),
                    server: info,
                }
            }
            None => Answer::Refused {
                error: format!("server answered initialize without a protocolVersion (this host needs {LEGACY_VERSION})"),
                server: info,
            },
        },
        Protocol::Modern => {
            let listed = result.get("supportedVersions");
            let (supported, folded) = versions(listed, redactor);
            info.supported_versions = supported.clone();
            info.supported_versions_folded = folded;
            if supports(listed, MODERN_VERSION) {
                info.protocol_version = Some(MODERN_VERSION.to_string());
                Answer::Connected(info)
            } else {
                Answer::Failed {
                    error: format!(
                        "server/discover: the server supports {}, not {MODERN_VERSION}",
                        if supported.is_empty() {
                            "no listed version".to_string()
                        } else {
                            versions_text(&supported, folded)
                        }
                    ),
                    server: Some(info),
                }
            }
        }
    }
}

/// A JSON-RPC error's code, its message and the versions its `data.supported` names, server
/// text redacted.
pub(crate) fn error_parts(err: &Value, redactor: &Redactor) -> (Option<i64>, String, Vec<String>) {
    let code = err.get("code").and_then(Value::as_i64);
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .map(|m| short_text(redactor, m))
        .unwrap_or_default();
    let listed = err.get("data").and_then(|d| d.get("supported"));
    let (mut supported, folded) = versions(listed, redactor);
    if folded > 0 {
        supported.push(format!("… {folded} more"));
    }
    (code, message, supported)
}

/// The most versions kept of a list a server sends.
pub(crate) const MAX_VERSIONS: usize = 2 * crate::engine::folded::KEEP;

/// The first [`MAX_VERSIONS`] versions of a server's list (redacted, cut short), and how many
/// more it listed.
fn versions(list: Option<&Value>, redactor: &Redactor) -> (Vec<String>, u64) {
    let all: Vec<&str> = list
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let kept = all
        .iter()
        .take(MAX_VERSIONS)
        .map(|s| short_text(redactor, s))
        .collect();
    (kept, all.len().saturating_sub(MAX_VERSIONS) as u64)
}

/// Whether a server's list of versions names `version` (all of it, kept or not).
fn supports(list: Option<&Value>, version: &str) -> bool {
    list.and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|v| v.as_str() == Some(version)))
}

/// `a, b, … 3 more`.
fn versions_text(kept: &[String], folded: u64) -> String {
    let mut t = kept.join(", ");
    if folded > 0 {
        t.push_str(&format!(", … {folded} more"));
    }
    t
}

fn read_error(protocol: Protocol, err: &Value, redactor: &Redactor) -> Answer {
    let (code, message, supported) = error_parts(err, redactor);
    let code_text = code.map_or_else(|| "no code".to_string(), |c| format!("code {c}"));
    let said = if message.is_empty() {
        code_text.clone()
    } else {
        format!("{message} ({code_text})")
    };
    if protocol == Protocol::Legacy && code == Some(VERSION_REFUSED) {
        let hint = if supported.iter().any(|v| v == MODERN_VERSION) {
            format!(
                "; it supports {}: the entry needs protocol: \"modern\"",
                supported.join(", ")
            )
        } else if supported.is_empty() {
            String::new()
        } else {
            format!("; it supports {}", supported.join(", "))
        };
        return Answer::Refused {
            error: format!("server refused protocol version {LEGACY_VERSION}: {said}{hint}"),
            server: ServerInfo {
                supported_versions: supported,
                ..ServerInfo::default()
            },
        };
    }
    Answer::Failed {
        error: format!("{} failed: {said}", method(protocol)),
        server: (!supported.is_empty()).then(|| ServerInfo {
            supported_versions: supported,
            ..ServerInfo::default()
        }),
    }
}

pub(crate) fn server_info(result: &Value, redactor: &Redactor) -> ServerInfo {
    let info = result.get("serverInfo").or_else(|| {
        result
            .get("_meta")
            .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
    });
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(|s| short_text(redactor, s));
    let mcpl = result
        .get("capabilities")
        .and_then(|c| c.get("experimental"))
        .and_then(|e| e.get("mcpl"));
    ServerInfo {
        protocol_version: text(result.get("protocolVersion")),
        supported_versions: Vec::new(),
        supported_versions_folded: 0,
        name: text(info.and_then(|i| i.get("name"))),
        version: text(info.and_then(|i| i.get("version"))),
        family: Some(if mcpl.is_some() {
            Family::Mcpl
        } else {
            Family::PlainMcp
        }),
        mcpl_version: text(mcpl.and_then(|m| m.get("version"))),
        era: None,
        offered_version: None,
        get_stream: None,
    }
}

/// Whether `msg` is a response (result or error, no method) to the request with `id`.
pub(crate) fn is_response_to(msg: &Value, id: i64) -> bool {
    msg.get("method").is_none()
        && (msg.get("result").is_some() || msg.get("error").is_some())
        && msg.get("id").and_then(Value::as_i64) == Some(id)
        && msg.get("id").is_some_and(Value::is_number)
}

/// A JSON-RPC `ping` with this id.
pub(crate) fn ping_request(protocol: Protocol, id: i64) -> Value {
    match protocol {
        Protocol::Legacy => json!({"jsonrpc": "2.0", "id": id, "method": "ping"}),
        Protocol::Modern => json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "ping",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN_VERSION}},
        }),
    }
}

/// The host's answer to a request the server sends it: `ping` gets an empty result, anything
/// else "method not found". Notifications and responses get nothing.
pub(crate) fn reply_to_server_request(msg: &Value) -> Option<Value> {
    let method = msg.get("method")?.as_str()?;
    let id = msg.get("id")?;
    if id.is_null() {
        return None;
    }
    Some(if method == "ping" {
        json!({"jsonrpc": "2.0", "id": id, "result": {}})
    } else {
        let mut err = Map::new();
        err.insert("code".into(), json!(-32601));
        err.insert("message".into(), json!("Method not found"));
        json!({"jsonrpc": "2.0", "id": id, "error": err})
    })
}

/// The ping schedule while connected: send a ping `every` after the previous one was answered
/// (or after the handshake); one unanswered for `timeout` means the server stopped answering.
/// Transport-independent: the transport calls [`Pinger::due`] for its timer,
/// [`Pinger::on_timer`] when it fires and [`Pinger::on_message`] for every message.
#[derive(Debug, Clone)]
pub(crate) struct Pinger {
    protocol: Protocol,
    every: Duration,
    timeout: Duration,
    next_id: i64,
    /// (id, sent at) of the ping awaiting its answer.
    outstanding: Option<(i64, Instant)>,
    next_send: Instant,
    pub sent: u32,
    pub answered: u32,
}

/// What the transport should do when the ping timer fires.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PingAction {
    /// Send this message.
    Send(Value),
    /// The outstanding ping went unanswered: the connection has stopped answering.
    TimedOut,
    /// Nothing yet.
    Nothing,
}

impl Pinger {
    /// A schedule starting at `connected_at`. Ping ids start at [`FIRST_PING_ID`] (0 is the
    /// handshake, 1 on the host's requests after it).
    pub(crate) fn new(
        protocol: Protocol,
        every: Duration,
        timeout: Duration,
        connected_at: Instant,
    ) -> Pinger {
        Pinger {
            protocol,
            every,
            timeout,
            next_id: FIRST_PING_ID,
            outstanding: None,
            next_send: connected_at + every,
            sent: 0,
            answered: 0,
        }
    }

    /// When the timer should fire next.
    pub(crate) fn due(&self) -> Instant {
        match self.outstanding {
            Some((_, sent_at)) => sent_at + self.timeout,
            None => self.next_send,
        }
    }

    /// The timer fired at `now`.
    pub(crate) fn on_timer(&mut self, now: Instant) -> PingAction {
        match self.outstanding {
            Some((_, sent_at)) if now >= sent_at + self.timeout => PingAction::TimedOut,
            Some(_) => PingAction::Nothing,
            None if now >= self.next_send => {
                let id = self.next_id;
                self.next_id += 1;
                self.outstanding = Some((id, now));
                self.sent += 1;
                PingAction::Send(ping_request(self.protocol, id))
            }
            None => PingAction::Nothing,
        }
    }

    /// Whether `id` is the ping awaiting its answer.
    pub(crate) fn awaits(&self, id: i64) -> bool {
        self.outstanding.is_some_and(|(o, _)| o == id)
    }

    /// A message arrived at `now`; an answer (result or error) to the outstanding ping counts.
    pub(crate) fn on_message(&mut self, msg: &Value, now: Instant) {
        if let Some((id, _)) = self.outstanding {
            if is_response_to(msg, id) {
                self.outstanding = None;
                self.answered += 1;
                self.next_send = now + self.every;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r() -> Redactor {
        let mut r = Redactor::new();
        r.add("s3cret-token");
        r
    }

    #[test]
    fn legacy_request_offers_mcpl_and_nothing_else() {
        let v = first_request(Protocol::Legacy);
        assert_eq!(v["id"], 0);
        assert_eq!(v["method"], "initialize");
        assert_eq!(v["params"]["protocolVersion"], LEGACY_VERSION);
        let mcpl = &v["params"]["capabilities"]["experimental"]["mcpl"];
        assert_eq!(mcpl["version"], MCPL_VERSION);
        assert_eq!(mcpl["channels"]["register"], true);
        assert_eq!(mcpl["channels"]["incoming"], true);
        assert_eq!(mcpl["pushEvents"], true);
        assert_eq!(
            v["params"]["capabilities"].as_object().map(|m| m.len()),
            Some(1),
            "no standard client capabilities"
        );
        assert_eq!(
            after_answer(Protocol::Legacy).unwrap()["method"],
            "notifications/initialized"
        );
        let m = first_request(Protocol::Modern);
        assert_eq!(m["method"], "server/discover");
        assert_eq!(
            m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            MODERN_VERSION
        );
        assert!(after_answer(Protocol::Modern).is_none());
    }

    #[test]
    fn legacy_answers() {
        let ok = json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05",
            "capabilities":{"experimental":{"mcpl":{"version":"0.5"}}},
            "serverInfo":{"name":"demo s3cret-token","version":"1.2"}}});
        match read_answer(Protocol::Legacy, &ok, &r()) {
            Answer::Connected(info) => {
                assert_eq!(info.family, Some(Family::Mcpl));
                assert_eq!(info.name.as_deref(), Some("demo [redacted]"));
                assert_eq!(info.version.as_deref(), Some("1.2"));
                assert_eq!(info.mcpl_version.as_deref(), Some("0.5"));
            }
            other => panic!("{other:?}"),
        }
        let plain = json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{}}});
        assert!(matches!(
            read_answer(Protocol::Legacy, &plain, &r()),
            Answer::Connected(ServerInfo {
                family: Some(Family::PlainMcp),
                ..
            })
        ));
        // Other ids, notifications and requests are not the answer.
        for m in [
            json!({"jsonrpc":"2.0","id":1,"result":{}}),
            json!({"jsonrpc":"2.0","id":"0","result":{}}),
            json!({"jsonrpc":"2.0","method":"notifications/message"}),
            json!({"jsonrpc":"2.0","id":0,"method":"roots/list"}),
        ] {
            assert_eq!(
                read_answer(Protocol::Legacy, &m, &r()),
                Answer::NotYet,
                "{m}"
            );
        }
        let other = json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26"}});
        match read_answer(Protocol::Legacy, &other, &r()) {
            Answer::Refused { error, server } => {
                assert_eq!(
                    error,
                    "server answered protocol version \"2025-03-26\", not 2024-11-05"
                );
                assert_eq!(server.protocol_version.as_deref(), Some("2025-03-26"));
            }
            o => panic!("{o:?}"),
        }
        let none = json!({"jsonrpc":"2.0","id":0,"result":{}});
        assert!(matches!(
            read_answer(Protocol::Legacy, &none, &r()),
            Answer::Refused { .. }
        ));
        let refused = json!({"jsonrpc":"2.0","id":0,"error":{"code":-32022,
            "message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}});
        match read_answer(Protocol::Legacy, &refused, &r()) {
            Answer::Refused { error, server } => {
                assert_eq!(error, "server refused protocol version 2024-11-05: Unsupported protocol version (code -32022); it supports 2026-07-28: the entry needs protocol: \"modern\"");
                assert_eq!(server.supported_versions, vec!["2026-07-28"]);
            }
            o => panic!("{o:?}"),
        }
        let failed =
            json!({"jsonrpc":"2.0","id":0,"error":{"code":-32603,"message":"boom s3cret-token"}});
        assert_eq!(
            read_answer(Protocol::Legacy, &failed, &r()),
            Answer::Failed {
                error: "initialize failed: boom [redacted] (code -32603)".into(),
                server: None
            }
        );
    }

    #[test]
    fn modern_answers() {
        let ok = json!({"jsonrpc":"2.0","id":0,"result":{"resultType":"complete",
            "supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"m","version":"2"}}});
        match read_answer(Protocol::Modern, &ok, &r()) {
            Answer::Connected(info) => {
                assert_eq!(info.protocol_version.as_deref(), Some(MODERN_VERSION));
                assert_eq!(info.name.as_deref(), Some("m"));
            }
            o => panic!("{o:?}"),
        }
        let old = json!({"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2025-06-18"]}});
        assert!(matches!(
            read_answer(Protocol::Modern, &old, &r()),
            Answer::Failed { .. }
        ));
    }

    #[test]
    fn invalid_utf8_is_decoded_with_replacement_characters() {
        let line =
            b"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"serverInfo\":{\"name\":\"a\xff\xfeb\"}}}";
        let Incoming::Message(v) = classify(line) else {
            panic!("not read as a message");
        };
        assert_eq!(v["result"]["serverInfo"]["name"], "a\u{fffd}\u{fffd}b");
    }

    #[test]
    fn classify_lines() {
        assert_eq!(classify(b"  "), Incoming::Blank);
        assert_eq!(classify(b"listening on 3000"), Incoming::NotJsonRpc);
        assert_eq!(classify(b"{\"a\":1}"), Incoming::NotJsonRpc);
        assert_eq!(classify(b"42"), Incoming::NotJsonRpc);
        assert!(matches!(
            classify(b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"),
            Incoming::Message(_)
        ));
    }

    #[test]
    fn server_requests_get_answers() {
        let ping = json!({"jsonrpc":"2.0","id":7,"method":"ping"});
        assert_eq!(
            reply_to_server_request(&ping),
            Some(json!({"jsonrpc":"2.0","id":7,"result":{}}))
        );
        let other = json!({"jsonrpc":"2.0","id":"a","method":"roots/list"});
        assert_eq!(
            reply_to_server_request(&other).unwrap()["error"]["code"],
            -32601
        );
        assert_eq!(
            reply_to_server_request(&json!({"jsonrpc":"2.0","method":"n"})),
            None
        );
    }

    #[tokio::test(start_paused = true)]
    async fn pinger_schedule() {
        let t0 = Instant::now();
        let every = Duration::from_millis(100);
        let timeout = Duration::from_millis(50);
        let mut p = Pinger::new(Protocol::Legacy, every, timeout, t0);
        assert_eq!(p.due(), t0 + every);
        assert_eq!(
            p.on_timer(t0 + Duration::from_millis(10)),
            PingAction::Nothing
        );
        let PingAction::Send(m) = p.on_timer(t0 + every) else {
            panic!()
        };
        assert_eq!(m["id"], FIRST_PING_ID);
        assert_eq!(p.due(), t0 + every + timeout);
        p.on_message(
            &json!({"jsonrpc":"2.0","id":FIRST_PING_ID,"result":{}}),
            t0 + Duration::from_millis(120),
        );
        assert_eq!(p.answered, 1);
        assert_eq!(p.due(), t0 + Duration::from_millis(220));
        let PingAction::Send(m) = p.on_timer(t0 + Duration::from_millis(220)) else {
            panic!()
        };
        assert_eq!(m["id"], FIRST_PING_ID + 1);
        assert_eq!(
            p.on_timer(t0 + Duration::from_millis(270)),
            PingAction::TimedOut
        );
    }
}
