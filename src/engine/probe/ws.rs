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
//! name the server by [`urls::display_url`].

use std::time::{Duration, SystemTime};

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

use super::dial::{self, Stream};
use super::handshake::{self, Answer, Incoming, PingAction, Pinger};
use super::opening::{Close, Opening, OpeningDriver};
use super::{
    urls, AttemptOptions, AttemptReport, Connector, LaunchError, Misbehaviour, Progress, Protocol,
    ServerInfo, StderrTail, StdoutNoise, StopLevel, Stopped,
};
use crate::engine::policy::{Ended, Failure, Outcome};
use crate::engine::redact::Redactor;

/// The host's deadline for opening a WebSocket (dial, TLS and upgrade).
pub const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the probe waits for the server's reply to its own close frame.
pub const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// The largest message (and frame) read: what the host accepts. agent-framework dials with the
/// `ws` library's defaults (`new WebSocket(url)` in its `src/mcpl/transport.ts`), whose
/// `maxPayload` is 100 MiB for a message; a larger one ends the connection there (close 1009),
/// and here as a transport error saying so. A frame announcing more is refused from its header,
/// before anything is buffered.
pub const MAX_MESSAGE: usize = 100 << 20;
/// At most this much waits unsent for a server that does not read its socket (replies, pings,
/// pongs, the close frame); past it nothing more is queued (tungstenite's write buffer limit).
pub const MAX_UNSENT: usize = 1 << 20;
/// How long one send may wait for the server to take it. Past that the server is not reading:
/// the probe stops answering it (a finding) rather than queue or wait any longer.
pub const SEND_STALL: Duration = Duration::from_secs(2);
/// How many non-JSON-RPC frames are kept as samples, and how many characters of each.
const NOISE_SAMPLES: usize = 3;
const SAMPLE_CHARS: usize = 200;

/// A WebSocket server to probe: its URL as configured, the token the host adds to it, and the
/// open deadline.
#[derive(Debug, Clone, PartialEq)]
pub struct WsTarget {
    url: Url,
    token: Option<String>,
    /// `--open-timeout` (default [`DEFAULT_OPEN_TIMEOUT`]).
    pub open_timeout: Duration,
}

impl WsTarget {
    /// A target for `url` (`ws://` or `wss://`, with a host) and an optional token (an empty
    /// token counts as none). A URL the host would refuse is a [`LaunchError`] whose text shows
    /// the URL without its token.
    pub fn new(url: &str, token: Option<String>) -> Result<WsTarget, LaunchError> {
        let parsed = urls::parse_endpoint(url, "WebSocket", &["ws", "wss"])?;
        Ok(WsTarget {
            url: parsed,
            token: token.filter(|t| !t.is_empty()),
            open_timeout: DEFAULT_OPEN_TIMEOUT,
        })
    }

    /// The same target with another open deadline.
    pub fn with_open_timeout(mut self, open_timeout: Duration) -> WsTarget {
        self.open_timeout = open_timeout;
        self
    }

    /// The URL as configured (it may hold a token: never show it, show [`Self::describe`]).
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The URL the host dials: the configured one with `token=...` in its query.
    pub fn request_url(&self) -> Url {
        urls::with_token(&self.url, self.token.as_deref())
    }

    /// The URL for a person: no token, no password, then redacted.
    pub fn describe(&self, redactor: &Redactor) -> String {
        redactor.redact(&urls::display_url(&self.url))
    }

    /// Every secret this target carries, for the run's [`Redactor`]: the token (as given and as
    /// encoded in the query), a `token` already in the URL, the URL's password.
    pub fn secrets(&self) -> Vec<String> {
        url_secrets(&self.url, self.token.as_deref())
    }
}

/// The secrets a URL and its token carry (shared with the HTTP transport).
pub(crate) fn url_secrets(url: &Url, token: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = token.filter(|t| !t.is_empty()) {
        out.push(t.to_string());
        let encoded: String = url::form_urlencoded::byte_serialize(t.as_bytes()).collect();
        out.push(encoded);
    }
    if let Some(query) = url.query() {
        for (k, v) in url.query_pairs() {
            if (k == urls::TOKEN_PARAM || crate::engine::redact::is_secret_name(&k))
                && !v.is_empty()
            {
                out.push(v.into_owned());
            }
        }
        // And as written (percent-encoded) in the query.
        for pair in query.split('&') {
            if let Some((k, v)) = pair.split_once('=') {
                let name = url::form_urlencoded::parse(pair.as_bytes())
                    .next()
                    .map(|(k, _)| k.into_owned())
                    .unwrap_or_else(|| k.to_string());
                if crate::engine::redact::is_secret_name(&name) && !v.is_empty() {
                    out.push(v.to_string());
                }
            }
        }
    }
    if let Some(p) = url.password() {
        out.push(p.to_string());
    }
    // And `;token=`, `code=`, `jwt=`... anywhere in it (matrix parameters, `;` separators).
    out.extend(crate::engine::redact::secrets_in_text(url.as_str()));
    out.dedup();
    out
}

/// The run's redactor plus this target's own secrets.
pub(crate) fn redactor_with(base: &Redactor, secrets: Vec<String>) -> Redactor {
    let mut r = base.clone();
    for s in secrets {
        r.add(s);
    }
    r
}

impl Connector for WsTarget {
    async fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<AttemptReport, LaunchError> {
        attempt(self, opts, progress).await
    }
}

type Ws = WebSocketStream<Stream>;

/// What woke the attempt up while it waited on something else.
enum Interrupt {
    Stop(StopLevel),
    Deadline,
}

/// Resolves when the stop signal or the run's deadline interrupts the attempt.
async fn interrupted(opts: &AttemptOptions) -> Interrupt {
    let far = Instant::now() + Duration::from_secs(86_400 * 365 * 30);
    tokio::select! {
        () = opts.stop.reached(StopLevel::Graceful) => Interrupt::Stop(opts.stop.level()),
        () = tokio::time::sleep_until(opts.deadline.unwrap_or(far)) => Interrupt::Deadline,
    }
}

/// The report under construction.
struct Draft<'a> {
    opts: &'a AttemptOptions,
    launched_at_ms: f64,
    launched_at_wall: SystemTime,
    connected_at_ms: Option<f64>,
    server: Option<ServerInfo>,
    pings_sent: u32,
    pings_answered: u32,
    noise: StdoutNoise,
    opening: Option<Opening>,
    misbehaviour: Misbehaviour,
    /// A send stalled: the server stopped reading; nothing more is sent.
    not_reading: bool,
}

impl Draft<'_> {
    fn finish(self, ended_at: Instant, outcome: Option<Outcome>) -> AttemptReport {
        AttemptReport {
            launched_at_ms: self.launched_at_ms,
            launched_at_wall: self.launched_at_wall,
            pid: None,
            connected_at_ms: self.connected_at_ms,
            server: self.server,
            ended_at_ms: self.opts.ms_since_epoch(ended_at),
            outcome,
            stopped: Stopped::Closed,
            pings_sent: self.pings_sent,
            pings_answered: self.pings_answered,
            stderr: StderrTail::default(),
            stdout: self.noise,
            process: None,
            misbehaviour: self.misbehaviour,
            opening: self.opening,
            escaped: 0,
        }
    }

    /// Count a frame's bytes; classify it (binary frames are not JSON-RPC).
    fn frame(&mut self, msg: &Message, redactor: &Redactor) -> Option<Value> {
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
                    let text = match msg {
                        Message::Text(t) => t.as_str().to_string(),
                        _ => format!("(binary frame, {} bytes)", bytes.len()),
                    };
                    self.noise.samples.push(sample(&text, redactor));
                }
                None
            }
        }
    }
}

/// A redacted, shortened sample of server text.
fn sample(text: &str, redactor: &Redactor) -> String {
    let redacted = redactor.redact(text.trim_end());
    if redacted.chars().count() > SAMPLE_CHARS {
        let mut s: String = redacted.chars().take(SAMPLE_CHARS).collect();
        s.push('…');
        s
    } else {
        redacted
    }
}

/// Make one attempt against `target`: open, handshake, watch, close. Never `Err` once the target
/// exists (every failure is an outcome); `Result` for the [`Connector`] shape.
pub async fn attempt(
    target: &WsTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let redactor = redactor_with(&opts.redactor, target.secrets());
    let protocol = Protocol::Legacy;
    let launched = Instant::now();
    let mut draft = Draft {
        opts,
        launched_at_ms: opts.ms_since_epoch(launched),
        launched_at_wall: SystemTime::now(),
        connected_at_ms: None,
        server: None,
        pings_sent: 0,
        pings_answered: 0,
        noise: StdoutNoise::default(),
        opening: None,
        misbehaviour: Misbehaviour::default(),
        not_reading: false,
    };
    progress(Progress::Launched {
        at_ms: draft.launched_at_ms,
        pid: None,
    });

    // Open: dial and upgrade, under the open deadline.
    let request_url = target.request_url();
    let opened = tokio::select! {
        r = tokio::time::timeout(target.open_timeout, open(&request_url)) => r,
        _ = interrupted(opts) => return Ok(draft.finish(Instant::now(), None)),
    };
    let mut ws = match opened {
        Ok(Ok(ws)) => ws,
        Ok(Err(why)) => {
            let failure = Failure::Message(redactor.redact(&why));
            return Ok(draft.finish(Instant::now(), Some(Outcome::FailedToConnect(failure))));
        }
        Err(_) => {
            let why = format!("open timed out after {}", seconds(target.open_timeout));
            return Ok(draft.finish(
                Instant::now(),
                Some(Outcome::FailedToConnect(Failure::Message(why))),
            ));
        }
    };

    // Handshake.
    let first = handshake::first_request(protocol).to_string();
    let handshake_deadline = Instant::now() + opts.handshake_timeout;
    match send(
        &mut ws,
        Message::text(first),
        &mut draft,
        handshake_deadline,
    )
    .await
    {
        Sent::Done => {}
        Sent::Failed(e) => {
            let why = format!(
                "connection lost before initialize could be sent ({})",
                ws_error(&e)
            );
            return Ok(draft.finish(
                Instant::now(),
                Some(Outcome::FailedToConnect(Failure::Message(
                    redactor.redact(&why),
                ))),
            ));
        }
        Sent::Stalled => {
            let at = Instant::now();
            close(&mut ws, true, opts).await;
            let why = "the server does not read its socket: initialize could not be sent";
            return Ok(draft.finish(
                at,
                Some(Outcome::FailedToConnect(Failure::Message(why.into()))),
            ));
        }
        Sent::Interrupted => {
            let at = Instant::now();
            close(&mut ws, true, opts).await;
            return Ok(draft.finish(at, None));
        }
    }
    let answer = loop {
        let next = tokio::select! {
            m = ws.next() => m,
            () = tokio::time::sleep_until(handshake_deadline) => {
                let failure = Failure::Message(handshake::timeout_message(protocol).to_string());
                close(&mut ws, false, opts).await;
                return Ok(draft.finish(Instant::now(), Some(Outcome::FailedToConnect(failure))));
            }
            i = interrupted(opts) => {
                let at = Instant::now();
                close(&mut ws, matches!(i, Interrupt::Stop(StopLevel::Force)), opts).await;
                return Ok(draft.finish(at, None));
            }
        };
        match next {
            Some(Ok(Message::Close(frame))) => {
                let at = Instant::now();
                let why = format!(
                    "closed during the handshake ({})",
                    close_ended(frame.as_ref(), &redactor)
                );
                drain(&mut ws, opts).await;
                return Ok(draft.finish(at, Some(Outcome::FailedToConnect(Failure::Message(why)))));
            }
            Some(Ok(msg)) => {
                if let Some(value) = draft.frame(&msg, &redactor) {
                    match handshake::read_answer(protocol, &value, &redactor) {
                        Answer::NotYet => {}
                        answer => break (answer, value),
                    }
                }
                // A flood is read as fast as it comes; let the signal handler run in between.
                tokio::task::yield_now().await;
            }
            Some(Err(e)) => {
                let why = format!("connection lost during the handshake ({})", ws_error(&e));
                return Ok(draft.finish(
                    Instant::now(),
                    Some(Outcome::FailedToConnect(Failure::Message(
                        redactor.redact(&why),
                    ))),
                ));
            }
            None => {
                let why = "connection lost during the handshake (no close frame)".to_string();
                return Ok(draft.finish(
                    Instant::now(),
                    Some(Outcome::FailedToConnect(Failure::Message(why))),
                ));
            }
        }
    };
    let (answer, answer_msg) = answer;
    let server = match answer {
        Answer::Connected(server) => server,
        Answer::Failed { error, server } => {
            draft.server = server;
            let at = Instant::now();
            close(&mut ws, false, opts).await;
            return Ok(draft.finish(at, Some(Outcome::FailedToConnect(Failure::Message(error)))));
        }
        Answer::Refused { error, server } => {
            draft.server = Some(server);
            let at = Instant::now();
            close(&mut ws, false, opts).await;
            return Ok(draft.finish(at, Some(Outcome::Permanent(Failure::Message(error)))));
        }
        Answer::NotYet => unreachable!("the loop only breaks on an answer"),
    };
    if let Some(after) = handshake::after_answer(protocol) {
        match send(
            &mut ws,
            Message::text(after.to_string()),
            &mut draft,
            handshake_deadline,
        )
        .await
        {
            Sent::Done => {}
            Sent::Failed(e) => {
                let why = format!(
                    "connection lost before notifications/initialized could be sent ({})",
                    ws_error(&e)
                );
                draft.server = Some(server);
                return Ok(draft.finish(
                    Instant::now(),
                    Some(Outcome::FailedToConnect(Failure::Message(
                        redactor.redact(&why),
                    ))),
                ));
            }
            Sent::Stalled => {
                let at = Instant::now();
                close(&mut ws, true, opts).await;
                draft.server = Some(server);
                let why = "the server does not read its socket: notifications/initialized could \
                           not be sent";
                return Ok(draft.finish(
                    at,
                    Some(Outcome::FailedToConnect(Failure::Message(why.into()))),
                ));
            }
            Sent::Interrupted => {
                let at = Instant::now();
                close(&mut ws, true, opts).await;
                draft.server = Some(server);
                return Ok(draft.finish(at, None));
            }
        }
    }
    let connected = Instant::now();
    draft.connected_at_ms = Some(opts.ms_since_epoch(connected));
    draft.server = Some(server.clone());
    progress(Progress::Connected {
        at_ms: opts.ms_since_epoch(connected),
        server,
    });

    // Watch.
    let lived = |at: Instant| at.saturating_duration_since(connected).as_secs_f64() * 1000.0;
    let watch_end = connected + opts.watch;
    let mut pinger = opts
        .ping
        .map(|p| Pinger::new(protocol, p.every, p.timeout, connected));
    let mut opening = (!opts.handshake_only).then(|| {
        OpeningDriver::new(
            protocol,
            false,
            &answer_msg,
            connected,
            opts.epoch,
            std::sync::Arc::new(redactor.clone()),
        )
    });
    let mut outbox: Vec<Value> = opening
        .as_mut()
        .map(|d| d.start(connected))
        .unwrap_or_default();
    let far = connected + Duration::from_secs(86_400 * 365 * 30);
    let (at, outcome) = loop {
        // The opening's requests and answers, each under the same stall guard as any send.
        let mut stopped: Option<Sent> = None;
        for m in std::mem::take(&mut outbox) {
            match send(&mut ws, Message::text(m.to_string()), &mut draft, watch_end).await {
                Sent::Done | Sent::Stalled => {}
                other => {
                    stopped = Some(other);
                    break;
                }
            }
        }
        match stopped {
            Some(Sent::Failed(e)) => {
                let at = Instant::now();
                break (
                    at,
                    Outcome::Connected {
                        lived_ms: lived(at),
                        ended: send_ended(&e),
                    },
                );
            }
            Some(Sent::Interrupted) => {
                let at = Instant::now();
                close(&mut ws, true, opts).await;
                break (
                    at,
                    Outcome::StillUp {
                        lived_ms: lived(at),
                    },
                );
            }
            _ => {}
        }
        let ping_due = pinger.as_ref().map_or(far, Pinger::due);
        let opening_due = opening.as_ref().and_then(OpeningDriver::due).unwrap_or(far);
        let next = tokio::select! {
            m = ws.next() => m,
            () = tokio::time::sleep_until(opening_due) => {
                if let Some(d) = opening.as_mut() {
                    outbox.extend(d.on_timer(Instant::now()));
                }
                continue;
            }
            () = tokio::time::sleep_until(ping_due) => {
                let Some(p) = pinger.as_mut() else { continue };
                match p.on_timer(Instant::now()) {
                    PingAction::Send(ping) => {
                        match send(&mut ws, Message::text(ping.to_string()), &mut draft, watch_end).await {
                            Sent::Done | Sent::Stalled => {}
                            Sent::Failed(e) => {
                                let at = Instant::now();
                                break (at, Outcome::Connected { lived_ms: lived(at), ended: send_ended(&e) });
                            }
                            Sent::Interrupted => {
                                let at = Instant::now();
                                close(&mut ws, true, opts).await;
                                break (at, Outcome::StillUp { lived_ms: lived(at) });
                            }
                        }
                    }
                    PingAction::TimedOut => {
                        let at = Instant::now();
                        close(&mut ws, false, opts).await;
                        break (at, Outcome::Connected { lived_ms: lived(at), ended: Ended::StoppedAnswering });
                    }
                    PingAction::Nothing => {}
                }
                continue;
            }
            () = tokio::time::sleep_until(watch_end) => {
                let at = Instant::now();
                close(&mut ws, false, opts).await;
                break (at, Outcome::StillUp { lived_ms: lived(at) });
            }
            i = interrupted(opts) => {
                let at = Instant::now();
                close(&mut ws, matches!(i, Interrupt::Stop(StopLevel::Force)), opts).await;
                break (at, Outcome::StillUp { lived_ms: lived(at) });
            }
        };
        match next {
            Some(Ok(Message::Close(frame))) => {
                let at = Instant::now();
                let ended = close_ended(frame.as_ref(), &redactor);
                drain(&mut ws, opts).await;
                break (
                    at,
                    Outcome::Connected {
                        lived_ms: lived(at),
                        ended,
                    },
                );
            }
            Some(Ok(msg)) => {
                // A flood is read as fast as it comes (tokio's budget only yields after many
                // reads of up to 128 KiB): let the signal handler and the timers run in between,
                // so Ctrl-C is seen at once whatever the server sends.
                tokio::task::yield_now().await;
                let Some(value) = draft.frame(&msg, &redactor) else {
                    continue;
                };
                if let Some(p) = pinger.as_mut() {
                    p.on_message(&value, Instant::now());
                }
                if let Some(d) = opening.as_mut() {
                    outbox.extend(d.on_message(&value, Instant::now()));
                    continue;
                }
                if draft.not_reading && handshake::reply_to_server_request(&value).is_some() {
                    // It stopped reading: no reply is built, only counted.
                    draft.misbehaviour.unsent_messages += 1;
                } else if let Some(reply) = handshake::reply_to_server_request(&value) {
                    match send(
                        &mut ws,
                        Message::text(reply.to_string()),
                        &mut draft,
                        watch_end,
                    )
                    .await
                    {
                        Sent::Done | Sent::Stalled => {}
                        Sent::Failed(e) => {
                            let at = Instant::now();
                            break (
                                at,
                                Outcome::Connected {
                                    lived_ms: lived(at),
                                    ended: send_ended(&e),
                                },
                            );
                        }
                        Sent::Interrupted => {
                            let at = Instant::now();
                            close(&mut ws, true, opts).await;
                            break (
                                at,
                                Outcome::StillUp {
                                    lived_ms: lived(at),
                                },
                            );
                        }
                    }
                }
            }
            Some(Err(e)) => {
                let at = Instant::now();
                break (
                    at,
                    Outcome::Connected {
                        lived_ms: lived(at),
                        ended: read_ended(&e, &redactor),
                    },
                );
            }
            None => {
                let at = Instant::now();
                break (
                    at,
                    Outcome::Connected {
                        lived_ms: lived(at),
                        ended: Ended::ConnectionReset,
                    },
                );
            }
        }
    };
    if let Some(p) = &pinger {
        draft.pings_sent = p.sent;
        draft.pings_answered = p.answered;
    }
    let close = match outcome {
        Outcome::StillUp { .. } => Close::Watching,
        _ => Close::Ended,
    };
    draft.opening = opening.map(|d| d.finish(close, at));
    Ok(draft.finish(at, Some(outcome)))
}

/// Dial and upgrade. The error is the host's reason in plain words (not yet redacted; it never
/// contains the URL).
async fn open(url: &Url) -> Result<Ws, String> {
    let stream = dial::dial(url, &[b"http/1.1"])
        .await
        .map_err(|e| e.to_string())?;
    let request = url
        .as_str()
        .into_client_request()
        .map_err(|e| format!("bad URL: {}", ws_error(&e)))?;
    match tokio_tungstenite::client_async_with_config(request, stream, Some(ws_config())).await {
        Ok((ws, _response)) => Ok(ws),
        Err(tungstenite::Error::Http(response)) => {
            let status = response.status();
            Err(match status.canonical_reason() {
                Some(reason) => format!("upgrade refused: HTTP {} {reason}", status.as_u16()),
                None => format!("upgrade refused: HTTP {}", status.as_u16()),
            })
        }
        Err(e) => Err(format!("upgrade failed: {}", ws_error(&e))),
    }
}

/// The limits the host's `ws` client has (message and frame size), and a bounded write buffer.
fn ws_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .max_write_buffer_size(MAX_UNSENT)
}

/// How a send went.
enum Sent {
    Done,
    Failed(tungstenite::Error),
    /// The server did not take it within [`SEND_STALL`] (or had already stopped reading): it is
    /// counted as unsent and nothing more will be sent.
    Stalled,
    /// A stop request or the run's deadline came first.
    Interrupted,
}

/// Send `msg`, but never wait past [`SEND_STALL`], `until`, a stop request or the run's
/// deadline: a server that does not read its socket must not hold the probe.
async fn send(ws: &mut Ws, msg: Message, draft: &mut Draft<'_>, until: Instant) -> Sent {
    if draft.not_reading {
        draft.misbehaviour.unsent_messages += 1;
        return Sent::Stalled;
    }
    let opts = draft.opts;
    let stall = (Instant::now() + SEND_STALL).min(until);
    let sent = tokio::select! {
        r = ws.send(msg) => match r {
            Ok(()) => Sent::Done,
            Err(tungstenite::Error::WriteBufferFull(_)) => Sent::Stalled,
            Err(e) => Sent::Failed(e),
        },
        () = tokio::time::sleep_until(stall) => Sent::Stalled,
        _ = interrupted(opts) => Sent::Interrupted,
    };
    if matches!(sent, Sent::Stalled) {
        draft.not_reading = true;
        draft.misbehaviour.unsent_messages += 1;
    }
    sent
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

/// How a close frame ended the connection (reason redacted).
fn close_ended(frame: Option<&CloseFrame>, redactor: &Redactor) -> Ended {
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

/// How a failed send ended the connection.
fn send_ended(e: &tungstenite::Error) -> Ended {
    let _ = e;
    Ended::ConnectionReset
}

/// Close the way the host does when it stops: a normal close, then wait (at most
/// [`CLOSE_GRACE`], cut short by a forced stop) for the server's reply. `force`: just drop.
async fn close(ws: &mut Ws, force: bool, opts: &AttemptOptions) {
    if force || opts.stop.level() >= StopLevel::Force {
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
        () = opts.stop.reached(StopLevel::Force) => {}
    }
}

/// After the server's close frame: let the library send its reply, read until the end (at most
/// [`CLOSE_GRACE`], cut short by a forced stop).
async fn drain(ws: &mut Ws, opts: &AttemptOptions) {
    tokio::select! {
        _ = tokio::time::timeout(CLOSE_GRACE, async {
            let _ = ws.flush().await;
            while let Some(Ok(_)) = ws.next().await {}
        }) => {}
        () = opts.stop.reached(StopLevel::Force) => {}
    }
}

/// `15 s`, or `300 ms` for a duration that is not whole seconds.
pub(crate) fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
#[path = "ws_tests.rs"]
mod tests;
