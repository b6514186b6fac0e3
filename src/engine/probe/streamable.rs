//! Streamable HTTP (MCP 2025-03-26, 2025-06-18, 2025-11-25) as a [`Transport`]: every message
//! the host sends is its own POST (C16) with `Accept: application/json, text/event-stream`;
//! a request's answer comes as a JSON body or as an event stream (every message on it is
//! passed on, until the answer); notifications get 202. The `Mcp-Session-Id` the initialize
//! answer carries is echoed on every later request, with `MCP-Protocol-Version` set to the
//! negotiated version (C19, C20). DELETE ends the session at the close (405 allowed).
//!
//! Liveness: the session's pings (every 5 s by default, as the stateless form's re-checks); a
//! `404` to a request that carried the session id means the server no longer knows the
//! session (it restarted, or expired it): the connection ended.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::dial::seconds;
use super::handshake::{self, Answer, Incoming};
use super::http::{HttpTarget, DEFAULT_RECHECK_EVERY, DEFAULT_RECHECK_TIMEOUT};
use super::http_client::{self, Reply, SESSION_HEADER, VERSION_HEADER};
use super::initialize::{self, STREAMABLE_VERSIONS};
use super::model::{PingOptions, Protocol};
use super::session::{Closing, Gone, Received, Remains, Sent, Transport};
use super::stop::StopSignal;
use crate::engine::policy::Ended;
use crate::engine::redact::Redactor;

/// The era's name in reports.
pub const ERA: &str = "streamable-http";
/// How long the DELETE at the end may take.
const DELETE_TIMEOUT: Duration = Duration::from_secs(2);

/// What the initialize answer set, shared with the POSTs in flight.
#[derive(Debug, Default)]
struct SessionState {
    id: Option<String>,
    version: Option<String>,
    /// The server forgot the session (a 404): nothing more is sent.
    lost: bool,
}

pub struct StreamableTransport {
    target: HttpTarget,
    redactor: Arc<Redactor>,
    tx: mpsc::UnboundedSender<Received>,
    rx: mpsc::UnboundedReceiver<Received>,
    exchanges: JoinSet<()>,
    state: Arc<Mutex<SessionState>>,
}

impl StreamableTransport {
    pub fn new(target: HttpTarget, redactor: Arc<Redactor>) -> StreamableTransport {
        let (tx, rx) = mpsc::unbounded_channel();
        StreamableTransport {
            target,
            redactor,
            tx,
            rx,
            exchanges: JoinSet::new(),
            state: Arc::default(),
        }
    }
}

fn lock(state: &Mutex<SessionState>) -> std::sync::MutexGuard<'_, SessionState> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Transport for StreamableTransport {
    fn redactor(&self) -> Arc<Redactor> {
        self.redactor.clone()
    }

    fn launch(&mut self) -> Result<Option<u32>, super::model::LaunchError> {
        Ok(None)
    }

    async fn open(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn first_request(&self, _protocol: Protocol) -> Value {
        initialize::request(STREAMABLE_VERSIONS[0])
    }

    fn read_answer(&self, _protocol: Protocol, msg: &Value, redactor: &Redactor) -> Answer {
        initialize::read_answer(
            msg,
            STREAMABLE_VERSIONS[0],
            &STREAMABLE_VERSIONS,
            ERA,
            redactor,
        )
    }

    /// Starts the message's POST and returns at once.
    async fn send(&mut self, msg: &Value, _until: Instant) -> Sent {
        if lock(&self.state).lost {
            return Sent::Failed("the server no longer knows the session".into());
        }
        let (target, redactor, tx, state) = (
            self.target.clone(),
            self.redactor.clone(),
            self.tx.clone(),
            self.state.clone(),
        );
        let msg = msg.clone();
        self.exchanges.spawn(async move {
            post(&target, &msg, &redactor, &state, &tx).await;
        });
        Sent::Done
    }

    async fn recv(&mut self) -> Received {
        match self.rx.recv().await {
            Some(r) => r,
            None => std::future::pending().await,
        }
    }

    fn default_ping(&self) -> Option<PingOptions> {
        Some(PingOptions {
            every: DEFAULT_RECHECK_EVERY,
            timeout: DEFAULT_RECHECK_TIMEOUT,
        })
    }

    fn unanswered(&self, timeout: Duration) -> Ended {
        Ended::TransportError {
            reason: format!("ping timed out after {}", seconds(timeout)),
        }
    }

    async fn close(mut self, _how: Closing, _stop: &StopSignal) -> Remains {
        self.exchanges.abort_all();
        let (id, lost) = {
            let s = lock(&self.state);
            (s.id.clone(), s.lost)
        };
        if let (Some(id), false) = (id, lost) {
            let mut headers = vec![(SESSION_HEADER, id)];
            if let Some(v) = lock(&self.state).version.clone() {
                headers.push((VERSION_HEADER, v));
            }
            let t = &self.target;
            let _ = tokio::time::timeout(
                DELETE_TIMEOUT,
                http_client::send(
                    t.url(),
                    t.token(),
                    t.open_timeout.min(DELETE_TIMEOUT),
                    Method::DELETE,
                    &headers,
                    None,
                ),
            )
            .await;
        }
        Remains::default()
    }
}

/// POST one message and pass on what comes back.
async fn post(
    target: &HttpTarget,
    msg: &Value,
    redactor: &Redactor,
    state: &Mutex<SessionState>,
    tx: &mpsc::UnboundedSender<Received>,
) {
    let method = msg
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("a reply")
        .to_string();
    let request_id = msg.get("method").and(msg.get("id")).and_then(Value::as_i64);
    let is_initialize = request_id == Some(handshake::HANDSHAKE_ID) && method == "initialize";
    let mut headers = http_client::post_headers();
    let sent_session = {
        let s = lock(state);
        if let Some(id) = &s.id {
            headers.push((SESSION_HEADER, id.clone()));
        }
        if let Some(v) = &s.version {
            headers.push((VERSION_HEADER, v.clone()));
        }
        s.id.is_some()
    };
    let fail = |why: String| {
        if let Some(id) = request_id {
            let _ = tx.send(Received::Failed {
                id,
                why: redactor.redact(&format!("{method}: {why}")),
            });
        }
    };
    let reply = match http_client::send(
        target.url(),
        target.token(),
        target.open_timeout,
        Method::POST,
        &headers,
        Some(msg),
    )
    .await
    {
        Ok(r) => r,
        Err(why) => return fail(why),
    };
    if reply.status == StatusCode::NOT_FOUND && sent_session {
        lock(state).lost = true;
        let reason = format!(
            "the server no longer knows the session (HTTP 404 to {method}): it restarted or \
             ended the session"
        );
        let _ = tx.send(Received::Gone(Gone {
            at: Instant::now(),
            ended: Ended::TransportError {
                reason: redactor.redact(&reason),
            },
            before_handshake: redactor.redact(&reason),
        }));
        return;
    }
    if !reply.status.is_success() {
        return fail(reply.failure(redactor).await);
    }
    if is_initialize {
        let id = reply.header(SESSION_HEADER);
        if !id.is_empty() && id.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
            lock(state).id = Some(id);
        }
    }
    let Some(request_id) = request_id else {
        // A notification or a reply: 202 with no body is the rule; nothing to pass on.
        return;
    };
    if reply.status == StatusCode::ACCEPTED {
        return fail("HTTP 202 Accepted without an answer".into());
    }
    let deliver = |m: Value| {
        if is_initialize && handshake::is_response_to(&m, request_id) {
            if let Some(v) = m
                .get("result")
                .and_then(|r| r.get("protocolVersion"))
                .and_then(Value::as_str)
            {
                lock(state).version = Some(v.to_string());
            }
        }
        let _ = tx.send(Received::Message(m));
    };
    if reply.is_event_stream() {
        return read_stream(reply, request_id, &deliver, &fail).await;
    }
    let content_type = reply.content_type();
    match reply.bytes(DEFAULT_RECHECK_TIMEOUT).await {
        Ok(body) => match handshake::classify(&body) {
            Incoming::Message(m) => deliver(m),
            _ => fail(format!(
                "the answer ({}) is not a JSON-RPC message",
                if content_type.is_empty() {
                    "no content type"
                } else {
                    content_type.as_str()
                }
            )),
        },
        Err(why) => fail(why),
    }
}

/// Pass on every message of an answer's event stream until the answer to `request_id`.
async fn read_stream(
    reply: Reply,
    request_id: i64,
    deliver: &(dyn Fn(Value) + Sync),
    fail: &(dyn Fn(String) + Sync),
) {
    let mut events = reply.events();
    loop {
        match events.next().await {
            Ok(Some(e)) => {
                if let Incoming::Message(m) = handshake::classify(e.data.as_bytes()) {
                    let answered = handshake::is_response_to(&m, request_id);
                    deliver(m);
                    if answered {
                        return;
                    }
                }
            }
            Ok(None) => return fail("the event stream ended without an answer".into()),
            Err(why) => return fail(why),
        }
    }
}
