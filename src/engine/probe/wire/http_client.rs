//! One HTTP/1.1 request over a new connection, for the HTTP transports: the dial (bounded),
//! the request with the host's headers, and the answer's head, its body left to stream.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper::{Method, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use url::Url;

use super::dial::{self, seconds};
use super::sse::{Fed, SseEvent, SseReader};
use crate::engine::redact::Redactor;

/// The `Mcp-Session-Id` header.
pub(crate) const SESSION_HEADER: &str = "Mcp-Session-Id";
/// The `MCP-Protocol-Version` header.
pub(crate) const VERSION_HEADER: &str = "MCP-Protocol-Version";
/// Both answer types a client must take (C16).
pub(crate) const ACCEPT_BOTH: &str = "application/json, text/event-stream";
/// The largest answer body read.
pub(crate) const MAX_BODY: usize = 1024 * 1024;

/// Why a request, its answer or its event stream failed: in plain words (not yet redacted),
/// never showing the URL.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HttpError {
    /// The server could not be reached.
    #[error("{0}")]
    Dial(dial::DialError),
    /// Not connected within the open timeout.
    #[error("connection timed out after {}", seconds(*.0))]
    ConnectTimedOut(Duration),
    /// The HTTP/1.1 handshake over the new connection failed (hyper's reason).
    #[error("HTTP failure: {0}")]
    Handshake(String),
    /// The URL names no host.
    #[error("bad URL: no host")]
    NoHost,
    /// The token holds a character no header may carry.
    #[error("the token cannot be sent in an HTTP header")]
    Token,
    /// A configured header has a name or value no HTTP request may carry (its value never
    /// shown).
    #[error("the header `{0}` cannot be sent: its name or value holds a character HTTP forbids")]
    Header(String),
    /// The request could not be built.
    #[error("bad URL or header: the request cannot be sent")]
    Request,
    /// The request or its answer's head failed (in words: [`hyper_error`]).
    #[error("{0}")]
    Exchange(String),
    /// The answer's body is over [`MAX_BODY`].
    #[error("the answer is larger than {MAX_BODY} bytes")]
    BodyTooLarge,
    /// The body ended early (hyper's reason).
    #[error("the answer was cut short ({0})")]
    CutShort(String),
    /// Connected, and no answer's head within this long.
    #[error("connected, and no HTTP answer within {}", seconds(*.0))]
    NoAnswer(Duration),
    /// The body took longer than this.
    #[error("the answer took over {}", seconds(*.0))]
    Slow(Duration),
    /// An event of the stream is over the limit.
    #[error(
        "an event of the stream is larger than {} bytes",
        super::sse::MAX_EVENT
    )]
    EventTooLarge,
    /// The event stream broke (hyper's reason).
    #[error("the event stream broke ({0})")]
    StreamBroke(String),
}

/// How many messages an HTTP transport's tasks may have waiting for the session (as stdio's
/// reader): a server that sends faster than the session reads waits on its own socket (the
/// reading task stops reading), so nothing it floods piles up here.
pub(crate) const INBOX: usize = 64;

/// The most requests an HTTP transport has in flight at once (the host's requests and its
/// replies to the server's, each its own POST, and the streams it reads). Past it a message is
/// not sent and counted, as stdio counts what a full pipe refused.
pub(crate) const MAX_IN_FLIGHT: usize = 64;

/// The tasks of one HTTP connection, bounded: finished ones are reaped at each spawn, and
/// past [`MAX_IN_FLIGHT`] nothing more is started (counted in `refused`).
#[derive(Default)]
pub(crate) struct Pool {
    tasks: tokio::task::JoinSet<()>,
    /// Messages not sent because the pool was full.
    pub refused: u64,
}

impl Pool {
    /// Start `task`, unless [`MAX_IN_FLIGHT`] are still running (then `false`, counted).
    pub(crate) fn spawn(
        &mut self,
        task: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> bool {
        while self.tasks.try_join_next().is_some() {}
        if self.tasks.len() >= MAX_IN_FLIGHT {
            self.refused += 1;
            return false;
        }
        self.tasks.spawn(task);
        true
    }

    /// End every task (the connection is over).
    pub(crate) fn abort_all(&mut self) {
        self.tasks.abort_all();
    }
}

/// Aborts the connection task when the answer is dropped.
pub(crate) struct ConnGuard(tokio::task::JoinHandle<()>);

impl Drop for ConnGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// An answer's head and its body, still streaming.
pub(crate) struct Reply {
    pub status: StatusCode,
    pub headers: hyper::HeaderMap,
    pub body: Incoming,
    _conn: ConnGuard,
}

impl Reply {
    /// The content type, lower case (empty when none).
    pub(crate) fn content_type(&self) -> String {
        self.header(CONTENT_TYPE.as_str()).to_ascii_lowercase()
    }

    /// A header's value as text (empty when absent or not text).
    pub(crate) fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    }

    /// The body read as an event stream (the connection kept open while it is read).
    pub(crate) fn events(self) -> EventBody {
        EventBody {
            body: self.body,
            _conn: self._conn,
            reader: SseReader::default(),
            queue: Default::default(),
            ended: false,
        }
    }

    pub(crate) fn is_event_stream(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    /// The whole body (at most [`MAX_BODY`]), within `timeout`.
    pub(crate) async fn bytes(self, timeout: Duration) -> Result<Bytes, HttpError> {
        let limited = Limited::new(self.body, MAX_BODY);
        match tokio::time::timeout(timeout, limited.collect()).await {
            Ok(Ok(c)) => Ok(c.to_bytes()),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
                Err(HttpError::BodyTooLarge)
            }
            Ok(Err(e)) => Err(HttpError::CutShort(e.to_string())),
            Err(_) => Err(HttpError::Slow(timeout)),
        }
    }

    /// `HTTP 404 Not Found`, and the JSON-RPC error in the body when there is one (read
    /// briefly), redacted.
    pub(crate) async fn failure(self, redactor: &Redactor) -> String {
        let line = status_line(self.status);
        match self.bytes(Duration::from_millis(500)).await {
            Ok(b) => match jsonrpc_error_detail(&b, redactor) {
                Some(d) => format!("{line} ({d})"),
                None => line,
            },
            Err(_) => line,
        }
    }
}

/// Reads an event stream body event by event.
pub(crate) struct EventBody {
    body: Incoming,
    _conn: ConnGuard,
    reader: SseReader,
    queue: std::collections::VecDeque<SseEvent>,
    ended: bool,
}

impl EventBody {
    /// The next event; `Ok(None)` when the stream ended; `Err` when it broke or overflowed.
    pub(crate) async fn next(&mut self) -> Result<Option<SseEvent>, HttpError> {
        loop {
            if let Some(e) = self.queue.pop_front() {
                return Ok(Some(e));
            }
            if self.ended {
                return Ok(None);
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        match self.reader.push(&data) {
                            Fed::Events(e) => self.queue.extend(e),
                            Fed::TooLarge => return Err(HttpError::EventTooLarge),
                        }
                    }
                }
                Some(Err(e)) => return Err(HttpError::StreamBroke(e.to_string())),
                None => {
                    self.ended = true;
                    self.queue.extend(self.reader.finish());
                }
            }
        }
    }
}

/// Headers the transport itself sets: a configured header of one of these names is not sent
/// (the protocol's own value is).
const OWN_HEADERS: &[&str] = &[
    "host",
    "content-type",
    "content-length",
    "accept",
    "transfer-encoding",
    "connection",
    SESSION_HEADER_LOWER,
    VERSION_HEADER_LOWER,
    "mcp-method",
    "last-event-id",
];
const SESSION_HEADER_LOWER: &str = "mcp-session-id";
const VERSION_HEADER_LOWER: &str = "mcp-protocol-version";

/// What every request of a target carries to authenticate: the bearer token (`Authorization:
/// Bearer`) and the entry's headers as the host sends them. Never shown.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Auth<'a> {
    pub token: Option<&'a str>,
    pub headers: &'a [(String, String)],
}

impl Auth<'_> {
    /// Whether a configured header has this name (any case).
    pub(crate) fn has(&self, name: impl AsRef<str>) -> bool {
        self.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name.as_ref()))
    }

    /// The names of the configured headers that are sent, and whether a token is.
    pub(crate) fn sent_names(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .headers
            .iter()
            .filter(|(n, _)| !OWN_HEADERS.contains(&n.to_ascii_lowercase().as_str()))
            .map(|(n, _)| n.clone())
            .collect();
        if self.token.is_some() && !self.has("authorization") {
            out.push("Authorization".into());
        }
        out
    }

    /// `builder` with the token and the configured headers (marked sensitive), a header named
    /// `Authorization` replacing the token's.
    pub(crate) fn add_headers(
        &self,
        mut builder: hyper::http::request::Builder,
    ) -> Result<hyper::http::request::Builder, HttpError> {
        for (name, value) in self.headers {
            if OWN_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                continue;
            }
            let header_name = hyper::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| HttpError::Header(name.clone()))?;
            let mut v =
                HeaderValue::from_str(value).map_err(|_| HttpError::Header(name.clone()))?;
            v.set_sensitive(true);
            builder = builder.header(header_name, v);
        }
        Ok(builder)
    }
}

/// One request: `method` to `url` with `headers` (and `auth`'s token and headers), over a
/// new connection dialled within `open_timeout`. The failure in plain words (not yet
/// redacted), starting with `what`.
pub(crate) async fn send(
    url: &Url,
    auth: Auth<'_>,
    open_timeout: Duration,
    method: Method,
    headers: &[(&str, String)],
    body: Option<&Value>,
) -> Result<Reply, HttpError> {
    send_within(url, auth, open_timeout, None, method, headers, body).await
}

/// [`send`], with the answer's head awaited at most `answer` after the connection is made
/// ([`HttpError::NoAnswer`] past it): a dial that never connects and a server that connects
/// and never answers fail apart.
pub(crate) async fn send_within(
    url: &Url,
    auth: Auth<'_>,
    open_timeout: Duration,
    answer: Option<Duration>,
    method: Method,
    headers: &[(&str, String)],
    body: Option<&Value>,
) -> Result<Reply, HttpError> {
    let stream = match tokio::time::timeout(open_timeout, dial::dial(url, &[b"http/1.1"])).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(HttpError::Dial(e)),
        Err(_) => return Err(HttpError::ConnectTimedOut(open_timeout)),
    };
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake::<_, Full<Bytes>>(TokioIo::new(stream))
            .await
            .map_err(|e| HttpError::Handshake(e.to_string()))?;
    let guard = ConnGuard(tokio::spawn(async move {
        let _ = conn.await;
    }));
    let mut path = url.path().to_string();
    if let Some(q) = url.query() {
        path.push('?');
        path.push_str(q);
    }
    let host = match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        (None, _) => return Err(HttpError::NoHost),
    };
    let mut builder = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header(HOST, host);
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    if let Some(token) = auth.token.filter(|_| !auth.has(AUTHORIZATION)) {
        let mut value =
            HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| HttpError::Token)?;
        value.set_sensitive(true);
        builder = builder.header(AUTHORIZATION, value);
    }
    builder = auth.add_headers(builder)?;
    let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
    let request = builder
        .body(Full::new(bytes))
        .map_err(|_| HttpError::Request)?;
    let exchange = sender.send_request(request);
    let response = match answer {
        Some(limit) => tokio::time::timeout(limit, exchange)
            .await
            .map_err(|_| HttpError::NoAnswer(limit))?,
        None => exchange.await,
    }
    .map_err(|e| HttpError::Exchange(hyper_error(&e)))?;
    let (parts, body) = response.into_parts();
    Ok(Reply {
        status: parts.status,
        headers: parts.headers,
        body,
        _conn: guard,
    })
}

/// The headers of a JSON-RPC POST.
pub(crate) fn post_headers() -> Vec<(&'static str, String)> {
    vec![
        (CONTENT_TYPE.as_str(), "application/json".to_string()),
        (ACCEPT.as_str(), ACCEPT_BOTH.to_string()),
    ]
}

/// `message, code N` of a JSON-RPC error body, if the body is one.
pub(crate) fn jsonrpc_error_detail(body: &Bytes, redactor: &Redactor) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let err = v.get("error")?;
    let code = err.get("code").and_then(Value::as_i64);
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .map(|m| redactor.redact(m));
    match (message, code) {
        (Some(m), Some(c)) => Some(format!("{m}, code {c}")),
        (Some(m), None) => Some(m),
        (None, Some(c)) => Some(format!("code {c}")),
        (None, None) => None,
    }
}

pub(crate) fn status_line(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(r) => format!("HTTP {} {r}", status.as_u16()),
        None => format!("HTTP {}", status.as_u16()),
    }
}

fn hyper_error(e: &hyper::Error) -> String {
    if e.is_incomplete_message() {
        "the server closed the connection without answering".into()
    } else if e.is_parse() {
        format!("not an HTTP answer ({e})")
    } else if e.is_timeout() {
        "timed out".into()
    } else {
        format!("HTTP failure ({e})")
    }
}
