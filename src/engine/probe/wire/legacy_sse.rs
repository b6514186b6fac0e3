//! The legacy HTTP+SSE transport (MCP 2024-11-05) as a [`Transport`]: GET the URL as an event
//! stream, wait for its `endpoint` event (a URL on the same origin), POST every message there,
//! and read every answer from the stream. The connection lives as long as the stream: its end
//! is the connection's end.

use std::sync::Arc;
use std::time::Duration;

use hyper::header::ACCEPT;
use hyper::Method;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use url::Url;

use super::dial::seconds;
use super::http::HttpTarget;
use super::http_client::{self, EventBody, HttpError, Pool, INBOX};
use crate::engine::policy::Ended;
use crate::engine::probe::model::Protocol;
use crate::engine::probe::session::handshake::{self, Answer, Incoming};
use crate::engine::probe::session::initialize::{self, SSE_VERSION};
use crate::engine::probe::session::{Closing, Gone, Received, Remains, Sent, Transport};
use crate::engine::probe::stop::StopSignal;
use crate::engine::redact::Redactor;

/// The era's name in reports.
pub(crate) const ERA: &str = "sse";

pub(crate) struct SseTransport {
    target: HttpTarget,
    redactor: Arc<Redactor>,
    endpoint: Option<Url>,
    tx: mpsc::Sender<Received>,
    rx: mpsc::Receiver<Received>,
    /// The stream's reader and the POSTs in flight.
    tasks: Pool,
}

impl SseTransport {
    pub(crate) fn new(target: HttpTarget, redactor: Arc<Redactor>) -> SseTransport {
        let (tx, rx) = mpsc::channel(INBOX);
        SseTransport {
            target,
            redactor,
            endpoint: None,
            tx,
            rx,
            tasks: Pool::default(),
        }
    }
}

/// Why the event stream does not open or names no endpoint: in plain words (not yet redacted).
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// The GET failed.
    #[error("GET: {0}")]
    Get(HttpError),
    /// The GET was answered with another status.
    #[error("GET: {}", http_client::status_line(*.0))]
    Status(hyper::StatusCode),
    /// The GET's answer is not an event stream (its content type, empty when none).
    #[error("GET: the answer is {}, not an event stream", if .0.is_empty() { "without a content type" } else { .0.as_str() })]
    NotEventStream(String),
    /// The stream broke before its endpoint event.
    #[error("{0}")]
    Stream(HttpError),
    /// The endpoint event's data does not join the URL (url's reason).
    #[error("the endpoint event is not a URL ({0})")]
    EndpointNotUrl(url::ParseError),
    #[error("the endpoint event names another origin (not followed)")]
    OtherOrigin,
    #[error("the event stream ended before its endpoint event")]
    NoEndpoint,
    /// No endpoint event within the open timeout.
    #[error("no endpoint event within {}", seconds(*.0))]
    TimedOut(Duration),
}

/// GET `target`'s URL as an event stream: the stream, or why not.
pub(crate) async fn open_stream(target: &HttpTarget) -> Result<EventBody, OpenError> {
    let headers = [(ACCEPT.as_str(), "text/event-stream".to_string())];
    let reply = http_client::send(
        target.url(),
        target.auth(),
        target.open_timeout,
        Method::GET,
        &headers,
        None,
    )
    .await
    .map_err(OpenError::Get)?;
    if !reply.status.is_success() {
        return Err(OpenError::Status(reply.status));
    }
    if !reply.is_event_stream() {
        return Err(OpenError::NotEventStream(reply.content_type()));
    }
    Ok(reply.events())
}

/// Read `events` up to the `endpoint` event: the URL to POST to (same origin as `base`).
pub(crate) async fn endpoint(events: &mut EventBody, base: &Url) -> Result<Url, OpenError> {
    loop {
        match events.next().await.map_err(OpenError::Stream)? {
            Some(e) if e.event == "endpoint" => {
                let url = base
                    .join(e.data.trim())
                    .map_err(OpenError::EndpointNotUrl)?;
                if url.origin() != base.origin() {
                    return Err(OpenError::OtherOrigin);
                }
                return Ok(url);
            }
            Some(_) => {}
            None => return Err(OpenError::NoEndpoint),
        }
    }
}

impl Transport for SseTransport {
    fn redactor(&self) -> Arc<Redactor> {
        self.redactor.clone()
    }

    fn launch(&mut self) -> Result<Option<u32>, crate::engine::probe::model::LaunchError> {
        Ok(None)
    }

    fn dials(&self) -> bool {
        true
    }

    type OpenError = OpenError;

    async fn open(&mut self) -> Result<(), OpenError> {
        let limit = self.target.open_timeout;
        let opened = tokio::time::timeout(limit, async {
            let mut events = open_stream(&self.target).await?;
            let url = endpoint(&mut events, self.target.url()).await?;
            Ok::<_, OpenError>((events, url))
        })
        .await;
        let (events, url) = match opened {
            Ok(r) => r?,
            Err(_) => return Err(OpenError::TimedOut(limit)),
        };
        self.endpoint = Some(url);
        let (tx, redactor) = (self.tx.clone(), self.redactor.clone());
        // The first task of the connection: the pool has room.
        let _ = self.tasks.spawn(read_stream(events, tx, redactor));
        Ok(())
    }

    fn first_request(&self, _protocol: Protocol) -> Value {
        initialize::request(SSE_VERSION)
    }

    fn read_answer(&self, _protocol: Protocol, msg: &Value, redactor: &Redactor) -> Answer {
        initialize::read_answer(msg, SSE_VERSION, &[SSE_VERSION], ERA, redactor)
    }

    async fn send(&mut self, msg: &Value, _until: Instant) -> Sent {
        let Some(endpoint) = self.endpoint.clone() else {
            return Sent::Failed("no endpoint".into());
        };
        let (target, redactor, tx) = (self.target.clone(), self.redactor.clone(), self.tx.clone());
        let msg = msg.clone();
        let started = self.tasks.spawn(async move {
            let id = msg.get("method").and(msg.get("id")).and_then(Value::as_i64);
            let method = msg
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or("a reply");
            let why = match http_client::send(
                &endpoint,
                target.auth(),
                target.open_timeout,
                Method::POST,
                &http_client::post_headers(),
                Some(&msg),
            )
            .await
            {
                Ok(r) if r.status.is_success() => return,
                Ok(r) => r.failure(&redactor).await,
                Err(e) => e.to_string(),
            };
            if let Some(id) = id {
                let why = redactor.redact(&format!("{method}: {why}"));
                let _ = tx.send(Received::Failed { id, why }).await;
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

    fn unanswered(&self, timeout: Duration) -> Ended {
        Ended::TransportError {
            reason: format!("ping timed out after {}", seconds(timeout)),
        }
    }

    async fn close(mut self, _how: Closing, _stop: &StopSignal) -> Remains {
        self.tasks.abort_all();
        Remains {
            misbehaviour: crate::engine::probe::model::Misbehaviour {
                unsent_messages: self.tasks.refused,
                ..Default::default()
            },
            ..Remains::default()
        }
    }
}

/// Pass on every message of the stream; its end ends the connection.
async fn read_stream(mut events: EventBody, tx: mpsc::Sender<Received>, redactor: Arc<Redactor>) {
    let reason = loop {
        match events.next().await {
            Ok(Some(e)) => {
                if e.event.is_empty() || e.event == "message" {
                    if let Incoming::Message(m) = handshake::classify(e.data.as_bytes()) {
                        // Waits while the session's inbox is full: the stream is read no
                        // faster than the session takes its messages.
                        let _ = tx.send(Received::Message(m)).await;
                    }
                }
            }
            Ok(None) => break "the server ended its event stream".to_string(),
            Err(why) => break why.to_string(),
        }
    };
    let reason = redactor.redact(&reason);
    let _ = tx
        .send(Received::Gone(Gone {
            at: Instant::now(),
            ended: Ended::TransportError {
                reason: reason.clone(),
            },
            before_handshake: reason,
        }))
        .await;
}
