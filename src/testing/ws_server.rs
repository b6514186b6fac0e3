//! A scripted WebSocket MCPL server on 127.0.0.1 for tests.
//!
//! Each accepted TCP connection plays the next [`WsScenario`] of the script (the last one
//! repeats), so a test can script a whole reconnect loop: refuse, then answer and close after
//! 300 ms, and so on. The server records what each connection sent: the request path and query,
//! the `token` it found there, every text frame, and the close frame the client sent.
//!
//! It runs on its own thread with its own runtime, so it serves a `#[tokio::test]` (even one on a
//! current-thread runtime) and a plain `#[test]` that drives the real binary alike. Dropping the
//! [`WsServer`] stops it.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::Background;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How the server answers `initialize`.
#[derive(Debug, Clone)]
pub struct WsAnswer {
    /// `result.protocolVersion` of the answer (`2024-11-05` is the one the host accepts).
    pub protocol_version: String,
    /// Whether `result.capabilities.experimental.mcpl` is present (an MCPL server).
    pub mcpl: bool,
    /// Text frames sent before the answer (non-JSON "log lines" a doctor should count).
    pub noise: Vec<String>,
}

impl Default for WsAnswer {
    fn default() -> Self {
        WsAnswer {
            protocol_version: "2024-11-05".to_string(),
            mcpl: true,
            noise: Vec::new(),
        }
    }
}

/// What the server does once the client sent `notifications/initialized` (the moment the
/// connection is made); every delay is counted from then.
#[derive(Debug, Clone)]
pub enum AfterHandshake {
    /// Answer requests (`ping` and the rest) until the client closes.
    StayUp,
    /// Send a close frame with this code and reason after `after_ms`.
    Close {
        after_ms: u64,
        code: u16,
        reason: String,
    },
    /// Drop the TCP connection without a close frame after `after_ms`: a FIN (EOF), or with
    /// `reset` a TCP RST.
    Drop { after_ms: u64, reset: bool },
    /// Answer requests for `after_ms`, then stop reading: pings go unanswered (pong frames too),
    /// and the TCP connection stays open.
    Mute { after_ms: u64 },
}

/// What one accepted connection does.
#[derive(Debug, Clone)]
pub enum WsScenario {
    /// Upgrade, answer `initialize` as `answer` says, then behave as `then` says.
    Answer {
        answer: WsAnswer,
        then: AfterHandshake,
    },
    /// Refuse the upgrade with this HTTP status (e.g. 401).
    RefuseUpgrade { status: u16 },
    /// Accept the TCP connection and never answer anything (no upgrade response).
    Silent,
    /// Upgrade, then never answer `initialize`.
    NoInitializeAnswer,
    /// Upgrade, then answer `initialize` with a close frame (e.g. 4401 for a bad token).
    CloseOnInitialize { code: u16, reason: String },
}

impl WsScenario {
    /// Answer the handshake, then close with `code` and `reason` after `after_ms`.
    pub fn close_after(after_ms: u64, code: u16, reason: &str) -> WsScenario {
        WsScenario::Answer {
            answer: WsAnswer::default(),
            then: AfterHandshake::Close {
                after_ms,
                code,
                reason: reason.to_string(),
            },
        }
    }

    /// Answer the handshake, then drop the TCP connection (FIN) without a close frame.
    pub fn drop_after(after_ms: u64) -> WsScenario {
        WsScenario::Answer {
            answer: WsAnswer::default(),
            then: AfterHandshake::Drop {
                after_ms,
                reset: false,
            },
        }
    }

    /// Answer the handshake, then reset the TCP connection (RST) without a close frame.
    pub fn reset_after(after_ms: u64) -> WsScenario {
        WsScenario::Answer {
            answer: WsAnswer::default(),
            then: AfterHandshake::Drop {
                after_ms,
                reset: true,
            },
        }
    }

    /// Answer the handshake and everything after it until the client closes.
    pub fn stay_up() -> WsScenario {
        WsScenario::Answer {
            answer: WsAnswer::default(),
            then: AfterHandshake::StayUp,
        }
    }

    /// Answer the handshake, then stop answering after `after_ms`.
    pub fn mute_after(after_ms: u64) -> WsScenario {
        WsScenario::Answer {
            answer: WsAnswer::default(),
            then: AfterHandshake::Mute { after_ms },
        }
    }
}

/// What one connection did, as the server saw it.
#[derive(Debug, Clone, Default)]
pub struct WsConnectionRecord {
    /// The request target of the upgrade (`/path?query`); `None` when there was no upgrade.
    pub path_and_query: Option<String>,
    /// The `token` query parameter of the upgrade request, decoded.
    pub token: Option<String>,
    /// Every text frame the client sent.
    pub received: Vec<String>,
    /// The close frame the client sent (code, reason), if any.
    pub client_close: Option<(u16, String)>,
}

#[derive(Debug, Default)]
struct Shared {
    connections: Vec<WsConnectionRecord>,
}

/// A running scripted server; stops when dropped.
pub struct WsServer {
    background: Background,
    shared: Arc<Mutex<Shared>>,
}

impl WsServer {
    /// Start a server whose every connection plays `scenario`.
    pub fn start(scenario: WsScenario) -> WsServer {
        WsServer::script(vec![scenario])
    }

    /// Start a server whose connection `i` plays `script[i]` (the last one repeats).
    ///
    /// # Panics
    /// When the script is empty or 127.0.0.1 cannot be bound (a test setup failure).
    pub fn script(script: Vec<WsScenario>) -> WsServer {
        assert!(!script.is_empty(), "a script needs at least one scenario");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let thread_shared = shared.clone();
        let background =
            Background::start(move |listener| accept_loop(listener, script, thread_shared));
        WsServer { background, shared }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.background.addr
    }

    /// `ws://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("ws://{}{}", self.background.addr, path)
    }

    /// What each connection so far did, in the order they were accepted.
    pub fn connections(&self) -> Vec<WsConnectionRecord> {
        lock(&self.shared).connections.clone()
    }

    /// How many TCP connections were accepted.
    pub fn connection_count(&self) -> usize {
        lock(&self.shared).connections.len()
    }

    /// The token each upgraded connection carried in its query.
    pub fn tokens(&self) -> Vec<Option<String>> {
        lock(&self.shared)
            .connections
            .iter()
            .filter(|c| c.path_and_query.is_some())
            .map(|c| c.token.clone())
            .collect()
    }
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn accept_loop(listener: TcpListener, script: Vec<WsScenario>, shared: Arc<Mutex<Shared>>) {
    let mut index = 0usize;
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let scenario = script[index.min(script.len() - 1)].clone();
        let slot = {
            let mut s = lock(&shared);
            s.connections.push(WsConnectionRecord::default());
            s.connections.len() - 1
        };
        index += 1;
        let shared = shared.clone();
        tokio::spawn(async move {
            serve(tcp, scenario, Record { shared, slot }).await;
        });
    }
}

/// Writes into one connection's record.
struct Record {
    shared: Arc<Mutex<Shared>>,
    slot: usize,
}

impl Record {
    fn with(&self, f: impl FnOnce(&mut WsConnectionRecord)) {
        let mut s = lock(&self.shared);
        if let Some(c) = s.connections.get_mut(self.slot) {
            f(c);
        }
    }
}

async fn serve(mut tcp: TcpStream, scenario: WsScenario, record: Record) {
    let refuse = match &scenario {
        WsScenario::Silent => {
            // Hold the connection open, reading and discarding, until the client goes away.
            let mut buf = [0u8; 1024];
            while matches!(tcp.read(&mut buf).await, Ok(n) if n > 0) {}
            return;
        }
        WsScenario::RefuseUpgrade { status } => Some(*status),
        _ => None,
    };
    // The signature is tungstenite's `Callback`; its error type is not ours to shrink.
    #[allow(clippy::result_large_err)]
    let callback = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        let target = req
            .uri()
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or_else(|| "/".to_string());
        let token = req.uri().query().and_then(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .find(|(k, _)| k == "token")
                .map(|(_, v)| v.into_owned())
        });
        record.with(|c| {
            c.path_and_query = Some(target);
            c.token = token;
        });
        match refuse {
            Some(status) => {
                let mut refusal = http::Response::new(Some("refused by the test server".into()));
                *refusal.status_mut() =
                    http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::UNAUTHORIZED);
                Err(refusal)
            }
            None => Ok(resp),
        }
    };
    let Ok(mut ws) = tokio_tungstenite::accept_hdr_async(tcp, callback).await else {
        return;
    };
    match scenario {
        WsScenario::NoInitializeAnswer => {
            while let Some(Ok(msg)) = ws.next().await {
                note(&record, &msg);
            }
        }
        WsScenario::Answer { answer, then } => answer_then(ws, answer, then, &record).await,
        WsScenario::CloseOnInitialize { code, reason } => {
            if let Some(Ok(msg)) = ws.next().await {
                note(&record, &msg);
            }
            let _ = ws
                .close(Some(CloseFrame {
                    code: CloseCode::from(code),
                    reason: reason.into(),
                }))
                .await;
            while let Some(Ok(msg)) = ws.next().await {
                note(&record, &msg);
            }
        }
        WsScenario::Silent | WsScenario::RefuseUpgrade { .. } => {}
    }
}

fn note(record: &Record, msg: &Message) {
    match msg {
        Message::Text(t) => {
            let t = t.to_string();
            record.with(|c| c.received.push(t));
        }
        Message::Close(frame) => {
            let close = frame
                .as_ref()
                .map(|f| (u16::from(f.code), f.reason.to_string()))
                .unwrap_or((1005, String::new()));
            record.with(|c| c.client_close = Some(close));
        }
        _ => {}
    }
}

/// The answer to a request, or `None` for notifications and answers.
fn answer_to(msg: &Value, answer: &WsAnswer) -> Option<Value> {
    let id = msg.get("id")?.clone();
    let method = msg.get("method")?.as_str()?;
    let result = match method {
        "initialize" => {
            let mut caps = json!({});
            if answer.mcpl {
                caps = json!({"experimental": {"mcpl": {"version": "0.5"}}});
            }
            json!({
                "protocolVersion": answer.protocol_version,
                "capabilities": caps,
                "serverInfo": {"name": "test-ws", "version": "1.0.0"},
            })
        }
        "tools/list" => json!({"tools": []}),
        _ => json!({}),
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

async fn answer_then(
    mut ws: WebSocketStream<TcpStream>,
    answer: WsAnswer,
    then: AfterHandshake,
    record: &Record,
) {
    // Until `notifications/initialized`: answer requests (initialize among them).
    let mut initialized = false;
    while !initialized {
        let Some(Ok(msg)) = ws.next().await else {
            return;
        };
        note(record, &msg);
        let Message::Text(text) = msg else {
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if value.get("method").and_then(Value::as_str) == Some("initialize") {
            for line in &answer.noise {
                let _ = ws.send(Message::text(line.clone())).await;
            }
        }
        if value.get("method").and_then(Value::as_str) == Some("notifications/initialized") {
            initialized = true;
        }
        if let Some(reply) = answer_to(&value, &answer) {
            if ws.send(Message::text(reply.to_string())).await.is_err() {
                return;
            }
        }
    }
    let (after_ms, action) = match &then {
        AfterHandshake::StayUp => (None, None),
        AfterHandshake::Close { after_ms, .. }
        | AfterHandshake::Drop { after_ms, .. }
        | AfterHandshake::Mute { after_ms } => (Some(*after_ms), Some(then.clone())),
    };
    let deadline = after_ms.map(|ms| tokio::time::Instant::now() + Duration::from_millis(ms));
    // Answer until the deadline (or forever).
    loop {
        let next = async {
            match deadline {
                Some(d) => tokio::time::timeout_at(d, ws.next()).await.ok(),
                None => Some(ws.next().await),
            }
        };
        match next.await {
            None => break, // deadline
            Some(None) | Some(Some(Err(_))) => return,
            Some(Some(Ok(msg))) => {
                note(record, &msg);
                if let Message::Text(text) = &msg {
                    if let Ok(value) = serde_json::from_str::<Value>(text) {
                        if let Some(reply) = answer_to(&value, &answer) {
                            let _ = ws.send(Message::text(reply.to_string())).await;
                        }
                    }
                }
                if matches!(msg, Message::Close(_)) {
                    // tungstenite answers the close; drain until the stream ends.
                    while let Some(Ok(m)) = ws.next().await {
                        note(record, &m);
                    }
                    return;
                }
            }
        }
    }
    match action {
        Some(AfterHandshake::Close { code, reason, .. }) => {
            let _ = ws
                .close(Some(CloseFrame {
                    code: CloseCode::from(code),
                    reason: reason.into(),
                }))
                .await;
            // Wait for the client's close reply (or its going away), recording it.
            let _ = tokio::time::timeout(Duration::from_secs(5), async {
                while let Some(Ok(m)) = ws.next().await {
                    note(record, &m);
                }
            })
            .await;
        }
        Some(AfterHandshake::Drop { reset, .. }) => {
            if reset {
                let _ = ws.get_ref().set_zero_linger();
            }
            drop(ws);
        }
        Some(AfterHandshake::Mute { .. }) => {
            // Keep the connection, read nothing; the client's pings pile up unanswered.
            std::future::pending::<()>().await;
        }
        Some(AfterHandshake::StayUp) | None => {}
    }
}
