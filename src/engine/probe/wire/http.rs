//! One attempt against a modern MCP server over HTTP (`http://`, `https://`): the stateless
//! `server/discover` of MCP 2026-07-28, as POST requests.
//!
//! # What is measured, and what is not
//!
//! An HTTP server keeps no connection the host could watch, so "connected" and "lifetime" are
//! defined here, and only here:
//!
//! - **Reachable and answering** (the attempt's handshake): the first `server/discover` POST
//!   gets, within `AttemptOptions::handshake_timeout` (the host's 30 s; the dial inside it is
//!   also bounded by `open_timeout`), a 2xx answer whose body (`application/json`, or the first
//!   matching event of a `text/event-stream`) is a JSON-RPC result for id 0 listing `2026-07-28`
//!   in `supportedVersions`. The connection is made when that answer has arrived; the time to
//!   answer runs from the start of the dial (DNS, TCP, TLS included) to that moment.
//! - **Lifetime**: while watching, `server/discover` is sent again, each `--ping-every` after
//!   the previous answer (default [`DEFAULT_RECHECK_EVERY`]), each with `--ping-timeout`
//!   (default [`DEFAULT_RECHECK_TIMEOUT`]). The "connection" ends at the first re-check that
//!   fails, as `Ended::TransportError` with the reason (`server/discover: HTTP 503 Service
//!   Unavailable`, `connection refused`, `server/discover timed out after 10 s`, ...), and its
//!   lifetime runs from the first answer to the moment that failure was seen. Re-checks sent
//!   and answered are reported as pings. A server that fails between two re-checks and
//!   recovers before the next is not seen.
//! - **The opening**: after the first answer, the host's `tools/list` (every page, each its own
//!   POST with `Mcp-Method: tools/list`, bounded by the modern host's 30 s listing deadline and
//!   the watch), recorded in the launch's `opening` as over stdio: a failed POST (`tools/list:
//!   HTTP 500 Internal Server Error`) is an error answer without a JSON-RPC code. Not with
//!   `--handshake-only`.
//! - **Not measured**: sessions, `subscriptions/listen` streams (their lifetime is what a host
//!   would actually lose), notifications, a server's requests to the host, and the host's own
//!   HTTP connection pooling: every request here goes over a new connection.
//!
//! Failed attempts say why in plain words: `connection refused`, `name not resolved: ...`,
//! `TLS failure: ...`, `server/discover: HTTP 401 Unauthorized`, `server/discover handshake
//! timed out`, or what was wrong with the answer. A discover answer without `2026-07-28` is an
//! ordinary failed attempt (only the legacy engine has a permanent version verdict).
//!
//! Every request carries `Content-Type: application/json`, `Accept: application/json,
//! text/event-stream`, `MCP-Protocol-Version: 2026-07-28`, `Mcp-Method` (the request's method) and,
//! with a token, `Authorization: Bearer <token>`. The token never appears in anything returned.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use url::Url;

use super::dial::{self, seconds};
use super::endpoint::{self, redactor_with, url_secrets};
use super::http_client::{self, Auth};
use super::sse::{Fed, SseReader};
use crate::engine::policy::Ended;
use crate::engine::probe::model::{
    AttemptOptions, AttemptReport, LaunchError, PingOptions, Progress, Protocol, ServerInfo,
};
use crate::engine::probe::session::handshake::{self, Answer, Incoming};
use crate::engine::probe::session::{self, Closing, Received, Remains, Sent, Transport};
use crate::engine::probe::stop::StopSignal;
use crate::engine::redact::Redactor;

/// The dial's deadline inside a discover request (the WebSocket open deadline's counterpart).
pub(crate) const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(15);
/// Without `--ping-every`, `server/discover` is re-sent this long after the previous answer.
pub(crate) const DEFAULT_RECHECK_EVERY: Duration = Duration::from_secs(5);
/// Without `--ping-timeout`, a re-check unanswered this long has failed.
pub(crate) const DEFAULT_RECHECK_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer body read (a discover result is a few hundred bytes).
pub(crate) const MAX_BODY: usize = 1024 * 1024;
/// The `MCP-Protocol-Version` header's value.
pub(crate) const PROTOCOL_HEADER: &str = "MCP-Protocol-Version";
/// The `Mcp-Method` header's name.
pub(crate) const METHOD_HEADER: &str = "Mcp-Method";

/// The HTTP transport a server speaks (hosts.md 5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// MCP 2026-07-28: `server/discover`, no session.
    Stateless,
    /// MCP 2025-03-26 to 2025-11-25: `initialize` POSTed, `Mcp-Session-Id`.
    StreamableHttp,
    /// MCP 2024-11-05: a GET event stream and its `endpoint` event.
    Sse,
}

impl Era {
    /// The name in reports and in `--transport`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Era::Stateless => "stateless",
            Era::StreamableHttp => "streamable-http",
            Era::Sse => "sse",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Era> {
        [Era::Stateless, Era::StreamableHttp, Era::Sse]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// An MCP server over HTTP: its URL, the bearer token the host sends, the dial deadline, and
/// its era once known (detected at the first attempt and kept, or forced).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HttpTarget {
    url: Url,
    token: Option<String>,
    /// The entry's `headers` (or `--header`), expanded as the host does, sent on every
    /// request. Their values are secrets.
    headers: Vec<(String, String)>,
    /// The dial's deadline (default [`DEFAULT_OPEN_TIMEOUT`]).
    pub open_timeout: Duration,
    /// The era, once detected or forced.
    pub era: Option<Era>,
    /// An https URL's certificate was judged against Node's roots once (`tls_trust`).
    pub tls_checked: bool,
}

impl HttpTarget {
    /// A target for `url` (`http://` or `https://`, with a host) and an optional bearer token
    /// (an empty token counts as none).
    pub(crate) fn new(url: &str, token: Option<String>) -> Result<HttpTarget, LaunchError> {
        let parsed = endpoint::parse_endpoint(url, "HTTP", &["http", "https"])?;
        Ok(HttpTarget {
            url: parsed,
            token: token.filter(|t| !t.is_empty()),
            headers: Vec::new(),
            open_timeout: DEFAULT_OPEN_TIMEOUT,
            era: None,
            tls_checked: false,
        })
    }

    /// The same target with its era forced (no detection).
    pub(crate) fn with_era(mut self, era: Era) -> HttpTarget {
        self.era = Some(era);
        self
    }

    /// The same target with another dial deadline.
    pub(crate) fn with_open_timeout(mut self, open_timeout: Duration) -> HttpTarget {
        self.open_timeout = open_timeout;
        self
    }

    /// The bearer token, if any (never show it).
    pub(crate) fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The same target sending `headers` on every request (after the token's
    /// `Authorization`, which a header of that name replaces).
    pub(crate) fn with_headers(mut self, headers: Vec<(String, String)>) -> HttpTarget {
        self.headers = headers;
        self
    }

    /// The headers sent on every request (never show their values).
    pub(crate) fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// What every request carries to authenticate: the token and the headers.
    pub(crate) fn auth(&self) -> Auth<'_> {
        Auth {
            token: self.token.as_deref(),
            headers: &self.headers,
        }
    }

    /// The URL as configured (never show it: show [`Self::describe`]).
    pub(crate) fn url(&self) -> &Url {
        &self.url
    }

    /// The URL for a person: no `token` parameter, no password, then redacted.
    pub(crate) fn describe(&self, redactor: &Redactor) -> String {
        redactor.redact(&endpoint::display_url(&self.url))
    }

    /// Every secret this target carries, for the run's [`Redactor`].
    pub(crate) fn secrets(&self) -> Vec<String> {
        let mut out = url_secrets(&self.url, self.token.as_deref());
        for (name, value) in &self.headers {
            out.extend(endpoint::header_secrets(name, value));
        }
        out
    }
}

/// One `server/discover` exchange.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Discovery {
    /// The HTTP status of the answer, when one came.
    pub status: Option<u16>,
    /// From the start of the dial to the answer (or the failure), in ms.
    pub elapsed_ms: f64,
    pub result: DiscoverResult,
    /// The JSON-RPC answer itself, when it was a valid discover result (its `capabilities`
    /// decide what the host asks next).
    pub answer: Option<Value>,
}

/// What a `server/discover` exchange showed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DiscoverResult {
    /// A valid discover result that lists `2026-07-28`: the server is reachable and modern.
    Valid(ServerInfo),
    /// No answer within the deadline.
    TimedOut,
    /// Anything else, in plain words (redacted), with what the answer said about the server
    /// when it said something.
    Failed {
        error: String,
        server: Option<ServerInfo>,
    },
}

/// Send one `server/discover` to `target` and read the answer, all within `timeout` (the dial
/// also within `target.open_timeout`). Server-controlled text in the result is redacted with
/// `redactor` (which should know the target's [`HttpTarget::secrets`]).
pub(crate) async fn discover(
    target: &HttpTarget,
    timeout: Duration,
    redactor: &Redactor,
) -> Discovery {
    let started = Instant::now();
    let mut status = None;
    let (result, answer) =
        match tokio::time::timeout(timeout, exchange(target, redactor, &mut status)).await {
            Ok(r) => r,
            Err(_) => (DiscoverResult::TimedOut, None),
        };
    Discovery {
        status,
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        result,
        answer,
    }
}

/// Aborts the connection task when the exchange is over (or dropped at a timeout).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn failed(error: impl Into<String>) -> DiscoverResult {
    DiscoverResult::Failed {
        error: error.into(),
        server: None,
    }
}

/// The discover exchange: its result, and the answer message when it was valid.
async fn exchange(
    target: &HttpTarget,
    redactor: &Redactor,
    status_out: &mut Option<u16>,
) -> (DiscoverResult, Option<Value>) {
    let method = handshake::method(Protocol::Modern);
    let request = handshake::first_request(Protocol::Modern);
    let (msg, content_type) = match post(target, method, &request, redactor, status_out).await {
        Posted::Answer { msg, content_type } => (msg, content_type),
        Posted::Failed(e) => return (failed(e), None),
    };
    match handshake::read_answer(Protocol::Modern, &msg, redactor) {
        Answer::Connected(info) => (DiscoverResult::Valid(info), Some(msg)),
        Answer::NotYet => (failed(not_a_discover_answer(&content_type, redactor)), None),
        Answer::Failed { error, server } => (DiscoverResult::Failed { error, server }, None),
        // The modern engine has no permanent verdict; kept for completeness.
        Answer::Refused { error, server } => (
            DiscoverResult::Failed {
                error,
                server: Some(server),
            },
            None,
        ),
    }
}

/// The failure for a discover answer that is no JSON-RPC answer to it.
fn not_a_discover_answer(content_type: &str, redactor: &Redactor) -> String {
    format!(
        "server/discover: the answer ({}) is not a JSON-RPC answer to server/discover",
        if content_type.is_empty() {
            "no content type".to_string()
        } else {
            redactor.redact(content_type)
        }
    )
}

/// What one POST brought back.
#[derive(Debug)]
enum Posted {
    /// A JSON-RPC message: the answer to the request's id (from an event stream), or the
    /// whole JSON body (whatever it answers), with the answer's content type.
    Answer { msg: Value, content_type: String },
    /// No usable answer, in plain words starting with the method (redacted).
    Failed(String),
}

/// POST one JSON-RPC `request` (`method`, for the `Mcp-Method` header) over a new connection
/// and read its answer: a JSON body, or the event of a `text/event-stream` that answers the
/// request's id (other events, a server's notifications or requests, are skipped). Bounded by
/// `target.open_timeout` for the dial and [`MAX_BODY`] for the answer; the caller bounds the
/// whole exchange.
async fn post(
    target: &HttpTarget,
    method: &str,
    request: &Value,
    redactor: &Redactor,
    status_out: &mut Option<u16>,
) -> Posted {
    let fail = |e: String| Posted::Failed(e);
    let (mut sender, _conn) = match connect(target, redactor).await {
        Ok(pair) => pair,
        Err(e) => return fail(e),
    };
    let http_request = match build_request(target, method, request) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    let response = match sender.send_request(http_request).await {
        Ok(r) => r,
        Err(e) => return fail(redactor.redact(&hyper_error(method, &e))),
    };
    let status = response.status();
    *status_out = Some(status.as_u16());
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let body = Limited::new(response.into_body(), MAX_BODY);
    if !status.is_success() {
        return fail(refusal(method, status, body, redactor).await);
    }
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    read_answer(body, method, &id, content_type, redactor).await
}

/// A new HTTP/1.1 connection to the target (dial bounded by `open_timeout`, then the HTTP
/// handshake): its request sender, and the task driving it (aborted when dropped), or why not
/// (redacted).
async fn connect(
    target: &HttpTarget,
    redactor: &Redactor,
) -> Result<
    (
        hyper::client::conn::http1::SendRequest<Full<Bytes>>,
        AbortOnDrop,
    ),
    String,
> {
    let dialled =
        tokio::time::timeout(target.open_timeout, dial::dial(&target.url, &[b"http/1.1"]));
    let stream = match dialled.await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(redactor.redact(&e.to_string())),
        Err(_) => {
            return Err(format!(
                "connection timed out after {}",
                seconds(target.open_timeout)
            ))
        }
    };
    let (sender, conn) =
        match hyper::client::conn::http1::handshake::<_, Full<Bytes>>(TokioIo::new(stream)).await {
            Ok(pair) => pair,
            Err(e) => return Err(redactor.redact(&format!("HTTP failure: {e}"))),
        };
    let conn = AbortOnDrop(tokio::spawn(async move {
        let _ = conn.await;
    }));
    Ok((sender, conn))
}

/// A POST answered with a status other than 2xx, in words: the method and the status line, with
/// the JSON-RPC error of the body when one comes within half a second (it says more).
async fn refusal(
    method: &str,
    status: hyper::StatusCode,
    body: Limited<hyper::body::Incoming>,
    redactor: &Redactor,
) -> String {
    let detail = match tokio::time::timeout(Duration::from_millis(500), body.collect()).await {
        Ok(Ok(collected)) => {
            super::http_client::jsonrpc_error_detail(&collected.to_bytes(), redactor)
        }
        _ => None,
    };
    let line = status_line(status);
    match detail {
        Some(d) => format!("{method}: {line} ({d})"),
        None => format!("{method}: {line}"),
    }
}

/// Read a 2xx answer's body to the JSON-RPC answer to `id`: the first event of an event stream
/// that answers it (the stream may stay open after it), or the whole JSON body.
async fn read_answer(
    mut body: Limited<hyper::body::Incoming>,
    method: &str,
    id: &Value,
    content_type: String,
    redactor: &Redactor,
) -> Posted {
    let fail = |e: String| Posted::Failed(e);
    let sse = content_type.starts_with("text/event-stream");
    let answers = |event: &str| match handshake::classify(event.as_bytes()) {
        Incoming::Message(m) if m.get("method").is_none() && m.get("id") == Some(id) => Some(m),
        _ => None,
    };
    let mut buf: Vec<u8> = Vec::new();
    let mut events = SseReader::default();
    loop {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    if sse {
                        let found = match events.push(&data) {
                            Fed::Events(done) => done.iter().find_map(|e| answers(&e.data)),
                            Fed::TooLarge => {
                                return fail(format!(
                                    "{method}: an event of the stream is larger than {} bytes",
                                    super::sse::MAX_EVENT
                                ))
                            }
                        };
                        if let Some(msg) = found {
                            return Posted::Answer { msg, content_type };
                        }
                    } else {
                        buf.extend_from_slice(&data);
                    }
                }
            }
            Some(Err(e)) => {
                let why = if e.is::<http_body_util::LengthLimitError>() {
                    format!("{method}: the answer is larger than {MAX_BODY} bytes")
                } else {
                    format!("{method}: the answer was cut short ({e})")
                };
                return fail(redactor.redact(&why));
            }
            None => break,
        }
    }
    if sse {
        return match events.finish().and_then(|e| answers(&e.data)) {
            Some(msg) => Posted::Answer { msg, content_type },
            None => fail(format!(
                "{method}: the event stream ended without an answer"
            )),
        };
    }
    match handshake::classify(&buf) {
        Incoming::Message(msg) => Posted::Answer { msg, content_type },
        Incoming::NotJsonRpc | Incoming::Blank => {
            fail(format!("{method}: the answer is not a JSON-RPC message"))
        }
    }
}

/// Why a POST cannot be built from the target.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    #[error("bad URL: no host")]
    NoHost,
    #[error("the token cannot be sent in an HTTP header")]
    Token,
    #[error("{0}")]
    Header(http_client::HttpError),
    #[error("bad URL: the path cannot be sent")]
    Path,
}

fn build_request(
    target: &HttpTarget,
    method: &str,
    request: &Value,
) -> Result<hyper::Request<Full<Bytes>>, RequestError> {
    let url = &target.url;
    let mut path = url.path().to_string();
    if let Some(q) = url.query() {
        path.push('?');
        path.push_str(q);
    }
    let host = match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        (None, _) => return Err(RequestError::NoHost),
    };
    let body = request.to_string();
    let mut builder = hyper::Request::builder()
        .method(hyper::Method::POST)
        .uri(path)
        .header(HOST, host)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream")
        .header(PROTOCOL_HEADER, handshake::MODERN_VERSION)
        .header(METHOD_HEADER, method);
    if let Some(token) = target
        .token
        .as_deref()
        .filter(|_| !target.auth().has(AUTHORIZATION))
    {
        let value =
            HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| RequestError::Token)?;
        let mut value = value;
        value.set_sensitive(true);
        builder = builder.header(AUTHORIZATION, value);
    }
    builder = target
        .auth()
        .add_headers(builder)
        .map_err(RequestError::Header)?;
    builder
        .body(Full::new(Bytes::from(body)))
        .map_err(|_| RequestError::Path)
}

fn status_line(status: hyper::StatusCode) -> String {
    match status.canonical_reason() {
        Some(r) => format!("HTTP {} {r}", status.as_u16()),
        None => format!("HTTP {}", status.as_u16()),
    }
}

fn hyper_error(method: &str, e: &hyper::Error) -> String {
    if e.is_incomplete_message() {
        format!("{method}: the server closed the connection without answering")
    } else if e.is_parse() {
        format!("{method}: not an HTTP answer ({e})")
    } else if e.is_timeout() {
        format!("{method}: timed out")
    } else {
        format!("{method}: HTTP failure ({e})")
    }
}

/// Make one attempt against `target`: a first `server/discover` (the handshake), then re-checks
/// while watching (see the module's documentation for what that measures).
pub(crate) async fn attempt(
    target: &HttpTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let (tx, rx) = mpsc::channel(super::http_client::INBOX);
    let transport = HttpTransport {
        target: target.clone(),
        redactor: Arc::new(redactor_with(&opts.redactor, target.secrets())),
        tx,
        rx,
        exchanges: Default::default(),
    };
    session::play(transport, opts, progress).await
}

/// HTTP as a [`Transport`]: every request the host sends is its own POST, over a new
/// connection, and its answer comes back as a message (or a failure naming the request).
struct HttpTransport {
    target: HttpTarget,
    redactor: Arc<Redactor>,
    tx: mpsc::Sender<Received>,
    rx: mpsc::Receiver<Received>,
    /// The POSTs in flight (aborted when the attempt is over).
    exchanges: super::http_client::Pool,
}

impl Transport for HttpTransport {
    fn redactor(&self) -> Arc<Redactor> {
        self.redactor.clone()
    }

    fn launch(&mut self) -> Result<Option<u32>, LaunchError> {
        Ok(None)
    }

    type OpenError = std::convert::Infallible;

    async fn open(&mut self) -> Result<(), Self::OpenError> {
        Ok(())
    }

    /// Starts the request's POST and returns at once; replies and notifications are not sent
    /// (a POST's answer carries no server request the host must take up).
    async fn send(&mut self, msg: &Value, _until: Instant) -> Sent {
        let (Some(id), Some(method)) = (
            msg.get("id").and_then(Value::as_i64),
            msg.get("method").and_then(Value::as_str),
        ) else {
            return Sent::Done;
        };
        let (target, redactor, tx) = (self.target.clone(), self.redactor.clone(), self.tx.clone());
        let (method, msg) = (method.to_string(), msg.clone());
        let started = self.exchanges.spawn(async move {
            let received = request(&target, &method, id, &msg, &redactor).await;
            let _ = tx.send(received).await;
        });
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
            reason: format!("server/discover timed out after {}", seconds(timeout)),
        }
    }

    async fn close(mut self, _how: Closing, _stop: &StopSignal) -> Remains {
        self.exchanges.abort_all();
        Remains {
            misbehaviour: crate::engine::probe::model::Misbehaviour {
                unsent_messages: self.exchanges.refused,
                ..Default::default()
            },
            ..Remains::default()
        }
    }
}

/// One request's POST and what the session is told of it. The handshake (id 0) and the
/// liveness checks (`ping`, re-sent as `server/discover`) must bring a discover result; any
/// other request an answer with its id.
async fn request(
    target: &HttpTarget,
    method: &str,
    id: i64,
    msg: &Value,
    redactor: &Redactor,
) -> Received {
    let failed = |why: String| Received::Failed { id, why };
    let recheck = method == "ping";
    let discover = handshake::first_request(Protocol::Modern);
    let (method, msg) = if recheck {
        (handshake::method(Protocol::Modern), &discover)
    } else {
        (method, msg)
    };
    let (mut answer, content_type) = match post(target, method, msg, redactor, &mut None).await {
        Posted::Answer { msg, content_type } => (msg, content_type),
        Posted::Failed(why) => return failed(why),
    };
    if id != handshake::HANDSHAKE_ID && !recheck {
        return if answer.get("id") == msg.get("id") {
            Received::Message(answer)
        } else {
            failed(format!(
                "{method}: the answer is not a JSON-RPC answer to {method}"
            ))
        };
    }
    match handshake::read_answer(Protocol::Modern, &answer, redactor) {
        Answer::NotYet => failed(not_a_discover_answer(&content_type, redactor)),
        Answer::Connected(_) if recheck => {
            // The re-check's answer stands for the ping it replaces.
            answer["id"] = Value::from(id);
            Received::Message(answer)
        }
        Answer::Failed { error, .. } | Answer::Refused { error, .. } if recheck => failed(error),
        // The handshake's answer: the session reads it (and what it says of the server).
        _ => Received::Message(answer),
    }
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
