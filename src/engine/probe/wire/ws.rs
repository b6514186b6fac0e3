//! One attempt against a WebSocket MCPL server, as the host makes it: dial (DNS, TCP, TLS for
//! `wss://`), upgrade with the token in the query, the legacy handshake in text frames, then
//! watch the connection until it ends.
//!
//! - Opening (dial and upgrade) has its own deadline, `open_timeout` (the host's 15 s):
//!   `open timed out after 15 s`. Failures say why in plain words: `connection refused`,
//!   `name not resolved: HOST (...)`, `TLS failure: ...`, `upgrade refused: HTTP 401
//!   Unauthorized`.
//! - The handshake is the legacy one (a WebSocket entry is always legacy): `initialize` as a
//!   text frame, the answer read by [`handshake::read_answer`], then
//!   `notifications/initialized`, the moment the connection is made. Its deadline
//!   (`AttemptOptions::handshake_timeout`) starts when `initialize` is sent. Server requests and
//!   notifications arriving before the answer are ignored, as the host ignores them.
//! - While connected: server requests are answered ([`handshake::reply_to_server_request`]),
//!   JSON-RPC `ping` requests go out on the [`handshake::Pinger`]'s schedule when
//!   `AttemptOptions::ping` is set. The probe does not send WebSocket ping frames (it answers
//!   the server's with pongs, as any client library does): a ping that measures the MCP layer is
//!   the one the host's engine can observe, and it is the same check as over stdio.
//! - How it ended: a close frame from the server (`Ended::WsClose` with its code and redacted
//!   reason), TCP EOF or reset without a close frame (`Ended::ConnectionReset`), a ping
//!   unanswered for `ping.timeout` (`Ended::StoppedAnswering`), a WebSocket protocol violation
//!   (`Ended::TransportError`). Lifetimes run from sending `notifications/initialized` to the
//!   moment the end was seen.
//! - When the probe itself ends the connection (watch over, stop request, deadline, ping
//!   timeout, failed handshake), it sends a normal close (1000) and waits up to
//!   [`CLOSE_GRACE`] for the server's reply; a forced stop just drops the socket.
//!
//! Frames that are not JSON-RPC (text or binary) are counted in [`StdoutNoise`], as non-JSON
//! stdout lines are for a stdio server. No URL with its token ever leaves this module: messages
//! name the server by [`endpoint::display_url`].

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::WebSocketStream;
use url::Url;

use super::dial::{self, seconds, Stream};
use super::endpoint::{self, redactor_with, url_secrets};
use super::ws_tail::FrameWatch;
use crate::engine::policy::Ended;
use crate::engine::probe::model::{
    AttemptOptions, AttemptReport, LaunchError, Misbehaviour, Progress, StdoutNoise, Stopped,
};
use crate::engine::probe::session::handshake::{self, Incoming};
use crate::engine::probe::session::{self, Closing, Gone, Received, Remains, Sent, Transport};
use crate::engine::probe::stop::{StopLevel, StopSignal};
use crate::engine::redact::Redactor;

/// The host's deadline for opening a WebSocket (dial, TLS and upgrade).
pub(crate) const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the probe waits for the server's reply to its own close frame.
pub(crate) const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// The largest message (and frame) read: what the host accepts. agent-framework dials with the
/// `ws` library's defaults (`new WebSocket(url)` in its `src/mcpl/transport.ts`), whose
/// `maxPayload` is 100 MiB for a message; a larger one ends the connection there (close 1009),
/// and here as a transport error saying so. A frame announcing more is refused from its header,
/// before anything is buffered.
pub(crate) const MAX_MESSAGE: usize = 100 << 20;
/// At most this much waits unsent for a server that does not read its socket (replies, pings,
/// pongs, the close frame); past it nothing more is queued (tungstenite's write buffer limit).
pub(crate) const MAX_UNSENT: usize = 1 << 20;
/// How long one send may wait for the server to take it. Past that the server is not reading:
/// the probe stops answering it (a finding) rather than queue or wait any longer.
pub(crate) const SEND_STALL: Duration = Duration::from_secs(2);
/// How many non-JSON-RPC frames are kept as samples, and how many characters of each.
const NOISE_SAMPLES: usize = 3;
const SAMPLE_CHARS: usize = 200;

/// A WebSocket server to probe: its URL as configured, the token the host adds to it, and the
/// open deadline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WsTarget {
    url: Url,
    token: Option<String>,
    /// `--open-timeout` (default [`DEFAULT_OPEN_TIMEOUT`]).
    pub open_timeout: Duration,
}

impl WsTarget {
    /// A target for `url` (`ws://` or `wss://`, with a host) and an optional token (an empty
    /// token counts as none). A URL the host would refuse is a [`LaunchError`] whose text shows
    /// the URL without its token.
    pub(crate) fn new(url: &str, token: Option<String>) -> Result<WsTarget, LaunchError> {
        let parsed = endpoint::parse_endpoint(url, "WebSocket", &["ws", "wss"])?;
        Ok(WsTarget {
            url: parsed,
            token: token.filter(|t| !t.is_empty()),
            open_timeout: DEFAULT_OPEN_TIMEOUT,
        })
    }

    /// The same target with another open deadline.
    pub(crate) fn with_open_timeout(mut self, open_timeout: Duration) -> WsTarget {
        self.open_timeout = open_timeout;
        self
    }

    /// The URL the host dials: the configured one with `token=...` in its query.
    pub(crate) fn request_url(&self) -> Url {
        endpoint::with_token(&self.url, self.token.as_deref())
    }

    /// The URL for a person: no token, no password, then redacted.
    pub(crate) fn describe(&self, redactor: &Redactor) -> String {
        redactor.redact(&endpoint::display_url(&self.url))
    }

    /// Every secret this target carries, for the run's [`Redactor`]: the token (as given and as
    /// encoded in the query), a `token` already in the URL, the URL's password.
    pub(crate) fn secrets(&self) -> Vec<String> {
        url_secrets(&self.url, self.token.as_deref())
    }
}

type Ws = WebSocketStream<FrameWatch<Stream>>;

/// Make one attempt against `target`: open, handshake, watch, close. Never `Err` once the target
/// exists (every failure is an outcome); `Result` for the `Connector` shape.
pub(crate) async fn attempt(
    target: &WsTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let transport = WsTransport {
        target,
        redactor: Arc::new(redactor_with(&opts.redactor, target.secrets())),
        ws: None,
        noise: StdoutNoise::default(),
        misbehaviour: Misbehaviour::default(),
        not_reading: false,
        closed_by_server: false,
        read_since_yield: false,
    };
    session::play(transport, opts, progress).await
}

/// A WebSocket as a [`Transport`]: one JSON-RPC message a text frame.
struct WsTransport<'a> {
    target: &'a WsTarget,
    redactor: Arc<Redactor>,
    ws: Option<Ws>,
    /// Frames that are not JSON-RPC, as stdout noise is counted for a process.
    noise: StdoutNoise,
    misbehaviour: Misbehaviour,
    /// A send stalled: the server stopped reading; nothing more is sent.
    not_reading: bool,
    /// The server sent a close frame (its reply is owed and the rest is drained).
    closed_by_server: bool,
    /// A frame was read since the last yield.
    read_since_yield: bool,
}

impl WsTransport<'_> {
    /// Count a frame's bytes; classify it (binary frames are not JSON-RPC).
    fn frame(&mut self, msg: &Message) -> Option<Value> {
        let bytes: &[u8] = match msg {
            Message::Text(t) => t.as_bytes(),
            Message::Binary(b) => b,
            Message::Ping(_) => {
                self.misbehaviour.ws_pings += 1;
                return None;
            }
            _ => return None,
        };
        self.noise.total_bytes += bytes.len() as u64;
        let incoming = match msg {
            Message::Text(_) => handshake::classify(bytes),
            _ => Incoming::NotJsonRpc,
        };
        match incoming {
            Incoming::Message(v) => Some(v),
            Incoming::Blank => None,
            Incoming::NotJsonRpc => {
                self.noise.non_json_lines += 1;
                if self.noise.samples.len() < NOISE_SAMPLES {
                    // A sample is a few hundred characters: never a copy of the whole frame.
                    let sampled = match msg {
                        Message::Text(t) => sample(t.as_str(), &self.redactor),
                        _ => format!("(binary frame, {} bytes)", bytes.len()),
                    };
                    self.noise.samples.push(sampled);
                }
                None
            }
        }
    }
}

impl Transport for WsTransport<'_> {
    fn redactor(&self) -> Arc<Redactor> {
        self.redactor.clone()
    }

    fn launch(&mut self) -> Result<Option<u32>, LaunchError> {
        Ok(None)
    }

    fn dials(&self) -> bool {
        true
    }

    type OpenError = OpenError;

    async fn open(&mut self) -> Result<(), OpenError> {
        let request_url = self.target.request_url();
        match tokio::time::timeout(self.target.open_timeout, open(&request_url)).await {
            Ok(Ok(ws)) => {
                self.ws = Some(ws);
                Ok(())
            }
            Ok(Err(why)) => Err(why),
            Err(_) => Err(OpenError::TimedOut(self.target.open_timeout)),
        }
    }

    /// Never waits past [`SEND_STALL`] or `until`: a server that does not read its socket must
    /// not hold the probe.
    async fn send(&mut self, msg: &Value, until: Instant) -> Sent {
        if self.not_reading {
            self.misbehaviour.unsent_messages += 1;
            return Sent::Stalled;
        }
        let Some(ws) = self.ws.as_mut() else {
            return Sent::Failed("connection closed".into());
        };
        let stall = (Instant::now() + SEND_STALL).min(until);
        let sent = tokio::select! {
            r = ws.send(Message::text(msg.to_string())) => match r {
                Ok(()) => Sent::Done,
                Err(tungstenite::Error::WriteBufferFull(_)) => Sent::Stalled,
                Err(e) => Sent::Failed(ws_error(&e)),
            },
            () = tokio::time::sleep_until(stall) => Sent::Stalled,
        };
        if sent == Sent::Stalled {
            self.not_reading = true;
            self.misbehaviour.unsent_messages += 1;
        }
        sent
    }

    async fn recv(&mut self) -> Received {
        loop {
            if self.read_since_yield {
                // A flood is read as fast as it comes (tokio's budget only yields after many
                // reads of up to 128 KiB): let the signal handler and the timers run in
                // between, so Ctrl-C is seen at once whatever the server sends.
                tokio::task::yield_now().await;
                self.read_since_yield = false;
            }
            let Some(ws) = self.ws.as_mut() else {
                return std::future::pending().await;
            };
            let next = ws.next().await;
            let at = Instant::now();
            match next {
                Some(Ok(Message::Close(frame))) => {
                    self.closed_by_server = true;
                    let sent = ws.get_ref().close_sent();
                    let ended = close_ended(frame.as_ref(), sent, &self.redactor);
                    return Received::Gone(Gone {
                        at,
                        before_handshake: format!("closed during the handshake ({ended})"),
                        ended,
                    });
                }
                Some(Ok(msg)) => {
                    self.read_since_yield = true;
                    if let Some(v) = self.frame(&msg) {
                        return Received::Message(v);
                    }
                }
                Some(Err(e)) => {
                    let why = format!("connection lost during the handshake ({})", ws_error(&e));
                    return Received::Gone(Gone {
                        at,
                        ended: read_ended(&e, &self.redactor),
                        before_handshake: self.redactor.redact(&why),
                    });
                }
                None => {
                    return Received::Gone(Gone {
                        at,
                        ended: Ended::ConnectionReset,
                        before_handshake: "connection lost during the handshake (no close frame)"
                            .into(),
                    });
                }
            }
        }
    }

    async fn close(mut self, how: Closing, stop: &StopSignal) -> Remains {
        if let Some(ws) = self.ws.as_mut() {
            match how {
                Closing::Polite => close(ws, stop).await,
                Closing::Gone if self.closed_by_server => drain(ws, stop).await,
                Closing::Gone | Closing::Abrupt => {}
            }
        }
        Remains {
            stopped: Some(Stopped::Closed),
            stdout: self.noise,
            misbehaviour: self.misbehaviour,
            ..Remains::default()
        }
    }
}

/// A redacted, shortened sample of server text (only its start is read).
fn sample(text: &str, redactor: &Redactor) -> String {
    let text = text.trim_end();
    let margin = SAMPLE_CHARS + redactor.longest().max(4096);
    let (redacted, cut) = match text.char_indices().nth(margin) {
        None => (redactor.redact(text), false),
        Some((end, _)) => (redactor.redact_cut(&text[..end]), true),
    };
    if cut || redacted.chars().count() > SAMPLE_CHARS {
        let mut s: String = redacted.chars().take(SAMPLE_CHARS).collect();
        s.push('…');
        s
    } else {
        redacted
    }
}

/// Why a WebSocket does not open: the host's reason in plain words (not yet redacted; it never
/// contains the URL).
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// The server could not be reached.
    #[error("{0}")]
    Dial(dial::DialError),
    /// The URL makes no upgrade request (tungstenite's reason).
    #[error("bad URL: {0}")]
    BadUrl(String),
    /// The server answered the upgrade with another status (and its canonical reason).
    #[error("upgrade refused: HTTP {status}{}", reason.map(|r| format!(" {r}")).unwrap_or_default())]
    Refused {
        status: u16,
        reason: Option<&'static str>,
    },
    /// The upgrade broke (tungstenite's reason).
    #[error("upgrade failed: {0}")]
    Upgrade(String),
    /// Not open within the open timeout.
    #[error("open timed out after {}", seconds(*.0))]
    TimedOut(std::time::Duration),
}

/// Dial and upgrade.
async fn open(url: &Url) -> Result<Ws, OpenError> {
    let stream = dial::dial(url, &[b"http/1.1"])
        .await
        .map_err(OpenError::Dial)?;
    let request = url
        .as_str()
        .into_client_request()
        .map_err(|e| OpenError::BadUrl(ws_error(&e)))?;
    match tokio_tungstenite::client_async_with_config(
        request,
        FrameWatch::new(stream),
        Some(ws_config()),
    )
    .await
    {
        Ok((ws, _response)) => Ok(ws),
        Err(tungstenite::Error::Http(response)) => Err(OpenError::Refused {
            status: response.status().as_u16(),
            reason: response.status().canonical_reason(),
        }),
        Err(e) => Err(OpenError::Upgrade(ws_error(&e))),
    }
}

/// The limits the host's `ws` client has (message and frame size), and a bounded write buffer.
fn ws_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .max_write_buffer_size(MAX_UNSENT)
}

/// A tungstenite error in plain words, never showing a URL.
fn ws_error(e: &tungstenite::Error) -> String {
    use tungstenite::Error as E;
    match e {
        E::ConnectionClosed | E::AlreadyClosed => "connection closed".into(),
        E::Io(io) => match io.kind() {
            std::io::ErrorKind::UnexpectedEof => "the server closed the connection".into(),
            std::io::ErrorKind::ConnectionReset => "connection reset".into(),
            _ => io.to_string(),
        },
        E::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
            "connection dropped without a close frame".into()
        }
        E::Protocol(p) => format!("WebSocket protocol error: {p}"),
        E::Url(_) => "the URL cannot be used for a WebSocket".into(),
        E::Http(r) => format!("HTTP {}", r.status().as_u16()),
        E::Capacity(tungstenite::error::CapacityError::MessageTooLong { size, max_size }) => {
            format!(
                "message too large: {size} bytes (the host accepts at most {} MiB)",
                max_size >> 20
            )
        }
        E::Capacity(c) => format!("message too large: {c}"),
        E::WriteBufferFull(_) => "the server does not read its socket".into(),
        E::Utf8(_) => "a text frame that is not UTF-8".into(),
        other => other.to_string(),
    }
}

/// What tungstenite puts in place of a close frame whose code no close frame may carry (999,
/// 1005, 1006, 1015, 5000...): the code it reports instead, and its reason. The code the server
/// sent is read off the wire ([`FrameWatch`]).
const INVALID_CODE_STAND_IN: (u16, &str) = (1002, "Protocol violation");

/// How a close frame ended the connection (reason redacted); `sent` is the first close frame's
/// code and reason as the server sent them.
fn close_ended(
    frame: Option<&CloseFrame>,
    sent: Option<(u16, String)>,
    redactor: &Redactor,
) -> Ended {
    if let Some(f) = frame {
        if (u16::from(f.code), f.reason.as_str()) == INVALID_CODE_STAND_IN {
            // The library's stand-in for an invalid code, unless the server sent 1002 itself.
            let reason = match sent {
                Some(s) if s == (INVALID_CODE_STAND_IN.0, INVALID_CODE_STAND_IN.1.into()) => None,
                Some((code, why)) => {
                    // As the host's `ws` reads it: "invalid status code 999".
                    let why = redactor.redact(&why);
                    Some(if why.is_empty() {
                        format!("invalid close code {code}")
                    } else {
                        format!("invalid close code {code}: {why}")
                    })
                }
                None => Some(
                    "the server sent an invalid close code (one no close frame may carry, such \
                     as 999 or 1005; read as 1002 \"Protocol violation\")"
                        .into(),
                ),
            };
            if let Some(reason) = reason {
                return Ended::TransportError { reason };
            }
        }
    }
    match frame {
        Some(f) => Ended::WsClose {
            code: u16::from(f.code),
            reason: redactor.redact(f.reason.as_str()),
        },
        // A close frame without a status code: 1005 as the WebSocket API reports it.
        None => Ended::WsClose {
            code: 1005,
            reason: String::new(),
        },
    }
}

/// How a read error ended the connection.
fn read_ended(e: &tungstenite::Error, redactor: &Redactor) -> Ended {
    use tungstenite::Error as E;
    match e {
        E::Io(_)
        | E::ConnectionClosed
        | E::AlreadyClosed
        | E::Protocol(ProtocolError::ResetWithoutClosingHandshake) => Ended::ConnectionReset,
        other => Ended::TransportError {
            reason: redactor.redact(&ws_error(other)),
        },
    }
}

/// Close the way the host does when it stops: a normal close, then wait (at most
/// [`CLOSE_GRACE`], cut short by a forced stop) for the server's reply; a forced stop just
/// drops it.
async fn close(ws: &mut Ws, stop: &StopSignal) {
    if stop.level() >= StopLevel::Force {
        return;
    }
    let frame = CloseFrame {
        code: CloseCode::Normal,
        reason: "".into(),
    };
    tokio::select! {
        _ = tokio::time::timeout(CLOSE_GRACE, async {
            if ws.close(Some(frame)).await.is_ok() {
                while let Some(Ok(_)) = ws.next().await {}
            }
        }) => {}
        () = stop.reached(StopLevel::Force) => {}
    }
}

/// After the server's close frame: let the library send its reply, read until the end (at most
/// [`CLOSE_GRACE`], cut short by a forced stop).
async fn drain(ws: &mut Ws, stop: &StopSignal) {
    tokio::select! {
        _ = tokio::time::timeout(CLOSE_GRACE, async {
            let _ = ws.flush().await;
            while let Some(Ok(_)) = ws.next().await {}
        }) => {}
        () = stop.reached(StopLevel::Force) => {}
    }
}

#[cfg(test)]
#[path = "ws_tests.rs"]
mod tests;
