//! Streamable HTTP (MCP 2025-03-26, 2025-06-18, 2025-11-25) as a [`Transport`]: every message
//! the host sends is its own POST (C16) with `Accept: application/json, text/event-stream`;
//! a request's answer comes as a JSON body or as an event stream (every message on it is
//! passed on, until the answer); notifications get 202. The `Mcp-Session-Id` the initialize
//! answer carries is echoed on every later request, with `MCP-Protocol-Version` set to the
//! negotiated version (C19, C20). DELETE ends the session at the close (405 allowed).
//!
//! The GET stream (C17, C21): once `notifications/initialized` is taken, a GET with `Accept:
//! text/event-stream` and the session's headers listens for the server's own messages (passed
//! on like any other); `405` means the server offers none. A stream that ends is opened again
//! as VS Code does (after `min(n s, 30 s)`, with `Last-Event-ID`); another 4xx or 5xx stops
//! listening (VS Code then turns the server's notifications off). What it did is reported
//! (`server.get_stream`).
//!
//! Liveness: the session's pings (every 5 s by default, as the stateless form's re-checks); a
//! `404` to a POST that carried the session id means the server no longer knows the session
//! (it restarted, or expired it): the connection ended, and the report says on which request
//! (`SessionFacts::lost_on`). A `404` to the GET is not that: the spec wants 405 from a server
//! that offers no GET stream, so a 404 (or 400, or a 200 that is not an event stream) is a
//! server bug whose cost depends on the host; the connection goes on without the stream and
//! the report keeps the status (`SessionFacts::get_refused`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::header::ACCEPT;
use hyper::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::dial::seconds;
use super::http::{HttpTarget, DEFAULT_RECHECK_EVERY, DEFAULT_RECHECK_TIMEOUT};
use super::http_client::{self, Pool, Reply, INBOX, SESSION_HEADER, VERSION_HEADER};
use super::rungs::SessionFacts;
use crate::engine::policy::Ended;
use crate::engine::probe::model::{PingOptions, Protocol};
use crate::engine::probe::session::handshake::{self, Answer, Incoming};
use crate::engine::probe::session::initialize::{self, STREAMABLE_VERSIONS};
use crate::engine::probe::session::{Closing, Gone, Received, Remains, Sent, Transport};
use crate::engine::probe::stop::StopSignal;
use crate::engine::redact::Redactor;

/// The era's name in reports.
pub(crate) const ERA: &str = "streamable-http";
/// How long the DELETE at the end may take.
const DELETE_TIMEOUT: Duration = Duration::from_secs(2);

/// What the initialize answer set, shared with the POSTs in flight.
#[derive(Debug, Default)]
struct SessionState {
    id: Option<String>,
    version: Option<String>,
    /// The server forgot the session (a 404): nothing more is sent.
    lost: bool,
    /// What the GET stream did, once it was tried.
    get: Option<GetStream>,
    /// What hosts treat apart (a forgotten session, a refused GET stream).
    facts: SessionFacts,
    /// When the handshake's answer came (for how long the session lived).
    answered_at: Option<Instant>,
}

/// What the GET stream did in one connection.
#[derive(Debug, Clone, Default)]
struct GetStream {
    /// How its last GET went, in words: `open`, `not offered (HTTP 405 ...)`...
    status: String,
    /// Messages the server sent on it.
    messages: u64,
    /// Times it was opened again after it ended.
    reopened: u32,
}

impl GetStream {
    fn words(&self) -> String {
        let mut w = self.status.clone();
        if self.messages > 0 {
            w.push_str(&format!(
                ", {} message{} from the server",
                self.messages,
                if self.messages == 1 { "" } else { "s" }
            ));
        }
        match self.reopened {
            0 => {}
            1 => w.push_str(", reopened once"),
            n => w.push_str(&format!(", reopened {n} times")),
        }
        w
    }
}

/// The longest wait before the GET stream is opened again (VS Code's cap).
const GET_REOPEN_CAP: Duration = Duration::from_secs(30);

pub(crate) struct StreamableTransport {
    target: HttpTarget,
    redactor: Arc<Redactor>,
    tx: mpsc::Sender<Received>,
    rx: mpsc::Receiver<Received>,
    exchanges: Pool,
    state: Arc<Mutex<SessionState>>,
}

impl StreamableTransport {
    pub(crate) fn new(target: HttpTarget, redactor: Arc<Redactor>) -> StreamableTransport {
        let (tx, rx) = mpsc::channel(INBOX);
        StreamableTransport {
            target,
            redactor,
            tx,
            rx,
            exchanges: Pool::default(),
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

    fn launch(&mut self) -> Result<Option<u32>, crate::engine::probe::model::LaunchError> {
        Ok(None)
    }

    type OpenError = std::convert::Infallible;

    async fn open(&mut self) -> Result<(), Self::OpenError> {
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
        let started = self.exchanges.spawn(async move {
            post(&target, &msg, &redactor, &state, &tx).await;
            let initialized =
                msg.get("method").and_then(Value::as_str) == Some("notifications/initialized");
            if initialized && !lock(&state).lost {
                listen(&target, &redactor, &state, &tx).await;
            }
        });
        // Past MAX_IN_FLIGHT the message is not sent: counted, the connection goes on.
        if started {
            Sent::Done
        } else {
            Sent::Stalled
        }
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
        let refused = self.exchanges.refused;
        let (id, lost, get, facts) = {
            let s = lock(&self.state);
            (
                s.id.clone(),
                s.lost,
                s.get.as_ref().map(GetStream::words),
                s.facts.clone(),
            )
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
                    t.auth(),
                    t.open_timeout.min(DELETE_TIMEOUT),
                    Method::DELETE,
                    &headers,
                    None,
                ),
            )
            .await;
        }
        Remains {
            get_stream: get.map(|g| self.redactor.redact(&g)),
            session: facts,
            misbehaviour: crate::engine::probe::model::Misbehaviour {
                unsent_messages: refused,
                ..Default::default()
            },
            ..Remains::default()
        }
    }
}

/// The session's headers for a request after `initialize`.
fn session_headers(state: &Mutex<SessionState>) -> Vec<(&'static str, String)> {
    let s = lock(state);
    let mut headers = Vec::new();
    if let Some(id) = &s.id {
        headers.push((SESSION_HEADER, id.clone()));
    }
    if let Some(v) = &s.version {
        headers.push((VERSION_HEADER, v.clone()));
    }
    headers
}

/// Record how the GET stream went.
fn get_status(state: &Mutex<SessionState>, f: impl FnOnce(&mut GetStream)) {
    f(lock(state).get.get_or_insert_with(GetStream::default));
}

/// Listen on the session's GET stream until it is refused, or for as long as the connection
/// lasts (the task is aborted at the close), passing on every message the server sends.
async fn listen(
    target: &HttpTarget,
    redactor: &Redactor,
    state: &Mutex<SessionState>,
    tx: &mpsc::Sender<Received>,
) {
    let mut last_id: Option<String> = None;
    let mut tries: u32 = 0;
    let mut gets: u32 = 0;
    let mut was_open = false;
    loop {
        let mut headers = session_headers(state);
        let sent_session = headers.iter().any(|(k, _)| *k == SESSION_HEADER);
        headers.push((ACCEPT.as_str(), "text/event-stream".to_string()));
        if let Some(id) = &last_id {
            headers.push(("Last-Event-ID", id.clone()));
        }
        let reply = http_client::send(
            target.url(),
            target.auth(),
            target.open_timeout,
            Method::GET,
            &headers,
            None,
        )
        .await;
        tries += 1;
        gets += 1;
        match reply {
            Err(why) => get_status(state, |g| g.status = format!("GET failed: {why}")),
            Ok(r) if r.status == StatusCode::METHOD_NOT_ALLOWED => {
                return get_status(state, |g| {
                    g.status = "not offered (HTTP 405 to the GET)".into();
                });
            }
            // Once the stream was open, a 404 to its reopening is the session forgotten.
            Ok(r) if r.status == StatusCode::NOT_FOUND && sent_session && was_open => {
                get_status(state, |g| {
                    g.status = "HTTP 404 on reopening: the session is gone".into()
                });
                let reason = "the server no longer knows the session (HTTP 404 to the GET \
                              stream's reopening): it restarted or ended the session";
                return session_lost(state, "the GET stream's reopening", reason, redactor, tx)
                    .await;
            }
            // A first GET's 404 is not a forgotten session (the POSTs would say so): the
            // spec's answer for "no GET stream" is 405, so it is the server's bug, costly in
            // some hosts.
            Ok(r) if !r.status.is_success() => {
                let line = http_client::status_line(r.status);
                lock(state).facts.get_refused = Some((r.status.as_u16(), r.content_type()));
                return get_status(state, |g| {
                    g.status =
                        format!("refused ({line}, not 405): the host's notifications are off");
                });
            }
            Ok(r) if !r.is_event_stream() => {
                let ct = r.content_type();
                lock(state).facts.get_refused = Some((r.status.as_u16(), ct.clone()));
                return get_status(state, |g| {
                    g.status = format!("answered {ct:?}, not an event stream");
                });
            }
            Ok(r) => {
                // Every GET after the first is a reopening, whatever came of it.
                get_status(state, |g| {
                    g.status = "open".into();
                    g.reopened = gets - 1;
                });
                was_open = true;
                pass_on_get_stream(r, &mut last_id, state, tx).await;
                // The counter starts afresh once an event stream arrived (VS Code).
                tries = 1;
            }
        }
        tokio::time::sleep((Duration::from_secs(1) * tries).min(GET_REOPEN_CAP)).await;
    }
}

/// Pass on every message of an open GET stream until it ends, keeping the last event id (for
/// `Last-Event-ID` on the reopening).
async fn pass_on_get_stream(
    r: Reply,
    last_id: &mut Option<String>,
    state: &Mutex<SessionState>,
    tx: &mpsc::Sender<Received>,
) {
    let mut events = r.events();
    while let Ok(Some(e)) = events.next().await {
        if e.id.is_some() {
            last_id.clone_from(&e.id);
        }
        if let Incoming::Message(m) = handshake::classify(e.data.as_bytes()) {
            get_status(state, |g| g.messages += 1);
            // Waits while the session's inbox is full: the stream is read no faster than the
            // session takes its messages.
            let _ = tx.send(Received::Message(m)).await;
        }
    }
}

/// The session forgotten by the server (a 404 to a request carrying its id, on `on`): recorded
/// in its facts, and the session told the connection is gone, for `reason`.
async fn session_lost(
    state: &Mutex<SessionState>,
    on: &str,
    reason: &str,
    redactor: &Redactor,
    tx: &mpsc::Sender<Received>,
) {
    {
        let mut s = lock(state);
        s.lost = true;
        s.facts.lost_on = Some(on.to_string());
        s.facts.lost_after_ms = s.answered_at.map(|at| at.elapsed().as_secs_f64() * 1000.0);
    }
    let _ = tx
        .send(Received::Gone(Gone {
            at: Instant::now(),
            ended: Ended::TransportError {
                reason: redactor.redact(reason),
            },
            before_handshake: redactor.redact(reason),
        }))
        .await;
}

/// POST one message and pass on what comes back (waiting while the session's inbox is full).
async fn post(
    target: &HttpTarget,
    msg: &Value,
    redactor: &Redactor,
    state: &Mutex<SessionState>,
    tx: &mpsc::Sender<Received>,
) {
    let method = msg
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("a reply")
        .to_string();
    let request_id = msg.get("method").and(msg.get("id")).and_then(Value::as_i64);
    let outcome = exchange(target, msg, &method, request_id, redactor, state, tx).await;
    if let (Err(why), Some(id)) = (outcome, request_id) {
        let why = redactor.redact(&format!("{method}: {why}"));
        let _ = tx.send(Received::Failed { id, why }).await;
    }
}

/// The POST of `msg` and its answer passed on; `Err` says why the request failed (not yet
/// redacted, without the method).
async fn exchange(
    target: &HttpTarget,
    msg: &Value,
    method: &str,
    request_id: Option<i64>,
    redactor: &Redactor,
    state: &Mutex<SessionState>,
    tx: &mpsc::Sender<Received>,
) -> Result<(), String> {
    let is_initialize = request_id == Some(handshake::HANDSHAKE_ID) && method == "initialize";
    let (headers, sent_session) = post_session_headers(state);
    let reply = http_client::send(
        target.url(),
        target.auth(),
        target.open_timeout,
        Method::POST,
        &headers,
        Some(msg),
    )
    .await
    .map_err(|why| why.to_string())?;
    if reply.status == StatusCode::NOT_FOUND && sent_session {
        let reason = format!(
            "the server no longer knows the session (HTTP 404 to {method}): it restarted or \
             ended the session"
        );
        session_lost(state, method, &reason, redactor, tx).await;
        return Ok(());
    }
    if !reply.status.is_success() {
        return Err(reply.failure(redactor).await);
    }
    if is_initialize {
        remember_session(&reply, state);
    }
    let Some(request_id) = request_id else {
        // A notification or a reply: 202 with no body is the rule; nothing to pass on.
        return Ok(());
    };
    if reply.status == StatusCode::ACCEPTED {
        return Err("HTTP 202 Accepted without an answer".into());
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
        Received::Message(m)
    };
    if reply.is_event_stream() {
        return read_stream(reply, request_id, &deliver, tx).await;
    }
    let content_type = reply.content_type();
    let body = reply
        .bytes(DEFAULT_RECHECK_TIMEOUT)
        .await
        .map_err(|why| why.to_string())?;
    match handshake::classify(&body) {
        Incoming::Message(m) => {
            let _ = tx.send(deliver(m)).await;
            Ok(())
        }
        _ => Err(format!(
            "the answer ({}) is not a JSON-RPC message",
            if content_type.is_empty() {
                "no content type"
            } else {
                content_type.as_str()
            }
        )),
    }
}

/// A POST's headers with the session's id and protocol version once known, and whether the
/// id was sent.
fn post_session_headers(state: &Mutex<SessionState>) -> (Vec<(&'static str, String)>, bool) {
    let mut headers = http_client::post_headers();
    let s = lock(state);
    if let Some(id) = &s.id {
        headers.push((SESSION_HEADER, id.clone()));
    }
    if let Some(v) = &s.version {
        headers.push((VERSION_HEADER, v.clone()));
    }
    (headers, s.id.is_some())
}

/// The `initialize` answered: when, and the session id it gave (a visible-ASCII header value
/// only).
fn remember_session(reply: &Reply, state: &Mutex<SessionState>) {
    let id = reply.header(SESSION_HEADER);
    let mut s = lock(state);
    s.answered_at = Some(Instant::now());
    if !id.is_empty() && id.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        s.id = Some(id);
    }
}

/// Pass on every message of an answer's event stream until the answer to `request_id`, no
/// faster than the session takes them.
async fn read_stream(
    reply: Reply,
    request_id: i64,
    deliver: &(dyn Fn(Value) -> Received + Sync),
    tx: &mpsc::Sender<Received>,
) -> Result<(), String> {
    let mut events = reply.events();
    loop {
        match events.next().await {
            Ok(Some(e)) => {
                if let Incoming::Message(m) = handshake::classify(e.data.as_bytes()) {
                    let answered = handshake::is_response_to(&m, request_id);
                    let _ = tx.send(deliver(m)).await;
                    if answered {
                        return Ok(());
                    }
                }
            }
            Ok(None) => return Err("the event stream ended without an answer".into()),
            Err(why) => return Err(why.to_string()),
        }
    }
}
