//! The host's session, played once over any [`Transport`]: launch, open, the handshake, the
//! opening, the watch (pings and their stall guard), the end, the close; with the handshake's
//! deadline, the run's deadline and stop requests honoured at every step, progress told as it
//! happens, and everything measured into an [`AttemptReport`].
//!
//! A transport only frames and moves messages: a process's NDJSON ([`super::wire::stdio`]), WebSocket
//! frames ([`super::wire::ws`]), HTTP requests and their answers ([`super::wire::http`]). It never decides
//! what a message means, when the attempt ends or what its outcome is; the session never
//! touches a byte.
//!
//! Adding a transport: implement [`Transport`] in its own file (see each method's contract),
//! give it a [`super::target::Target`] variant whose `attempt` calls [`play`], and name it in
//! `Target::describe`, `secrets`, `with_open_timeout` and `transport`. Nothing here changes.

pub(crate) mod handshake;
pub(crate) mod initialize;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use tokio::time::Instant;

use self::handshake::{Answer, PingAction, Pinger};
use super::model::{
    AttemptOptions, AttemptReport, LaunchError, Misbehaviour, PingOptions, ProcessFacts, Progress,
    Protocol, ServerInfo, StderrTail, StdoutNoise, Stopped,
};
use super::opening::driver::{Close, OpeningDriver};
use super::stop::{StopLevel, StopSignal};
use crate::engine::policy::{Ended, Failure, Outcome};
use crate::engine::redact::Redactor;

/// How often a stdio handshake checks whether the server said it serves HTTP instead.
const HTTP_CHECK: Duration = Duration::from_millis(250);
/// How long after saying so a server that answers nothing on stdio is taken to serve HTTP
/// (one with a side HTTP listener answers its handshake well within it).
pub(crate) const HTTP_GRACE: Duration = Duration::from_secs(2);

/// What a transport hands the session.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Received {
    /// A JSON-RPC message from the server (noise is the transport's to count and skip).
    Message(Value),
    /// A message too large to read (skipped; before the handshake's answer it is taken for
    /// the answer, and the attempt fails with `why`).
    Overlong { why: String },
    /// A request the host sent got no usable answer from the transport itself (an HTTP POST
    /// that failed), in plain words, redacted.
    Failed { id: i64, why: String },
    /// The end is seen (a process exited, or its stdout closed) at `at`, but the server may
    /// still have something to say: the session reads on (no timer, no stop request) until
    /// [`Received::Gone`], and a verdict found meanwhile ends the attempt at `at`.
    Ending { at: Instant },
    /// The connection ended on its own.
    Gone(Gone),
}

/// How a connection ended on its own.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gone {
    /// When the end was seen.
    pub at: Instant,
    /// How it ended, for a connection that was made.
    pub ended: Ended,
    /// The failure's words, for one whose handshake had not completed (redacted).
    pub before_handshake: String,
}

/// How a send went.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sent {
    Done,
    /// The server did not take it: it is counted as unsent (a finding) and the connection goes
    /// on.
    Stalled,
    /// The connection broke while sending (plain words, not yet redacted).
    Failed(String),
}

/// How the session leaves the connection when it closes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closing {
    /// The host stops it: close politely (a close frame and its grace; a process's stdin,
    /// SIGTERM, grace, SIGKILL), at once on a forced stop.
    Polite,
    /// The server cannot be talked to any more (it stopped reading, or a stop came mid-send):
    /// drop the connection (a process is still stopped the host's way).
    Abrupt,
    /// The connection is gone already (the transport knows whether anything is left to read).
    Gone,
}

/// What a transport reports once closed.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Remains {
    pub stopped: Option<Stopped>,
    pub stderr: StderrTail,
    pub stdout: StdoutNoise,
    pub process: Option<ProcessFacts>,
    pub escaped: usize,
    pub misbehaviour: Misbehaviour,
    /// Streamable HTTP: what the GET stream did, in words (redacted).
    pub get_stream: Option<String>,
    /// Streamable HTTP: a forgotten session, a GET stream refused.
    pub session: crate::engine::probe::wire::rungs::SessionFacts,
}

/// The wire under a session. Every method but [`Transport::close`] may be dropped unfinished
/// (the session races them against timers and stop requests); they must lose nothing when that
/// happens.
pub(crate) trait Transport {
    /// Masks secrets in every server text of this session (the run's and the target's).
    fn redactor(&self) -> Arc<Redactor>;

    /// Start what the target names (spawn a process; nothing for a URL) and return its pid.
    /// `Err` only when the target cannot be used at all.
    fn launch(&mut self) -> Result<Option<u32>, LaunchError>;

    /// Whether [`Transport::open`] dials (the handshake's deadline then starts when it is
    /// done; otherwise at the launch).
    fn dials(&self) -> bool {
        false
    }

    /// Why [`Transport::open`] fails: its text is the launch's error, in plain words (not yet
    /// redacted). `Infallible` for a transport with nothing to open.
    type OpenError: std::fmt::Display + Send;

    /// Open the connection (dial, TLS, upgrade) under the transport's own deadline.
    fn open(&mut self) -> impl Future<Output = Result<(), Self::OpenError>> + Send;

    /// Hand `msg` to the server, never waiting past `until`.
    fn send(&mut self, msg: &Value, until: Instant) -> impl Future<Output = Sent> + Send;

    /// The next thing from the server.
    fn recv(&mut self) -> impl Future<Output = Received> + Send;

    /// The handshake's first request (a transport that speaks another revision's `initialize`
    /// offers its own).
    fn first_request(&self, protocol: Protocol) -> Value {
        handshake::first_request(protocol)
    }

    /// Read a message against the pending handshake (see [`handshake::read_answer`]).
    fn read_answer(&self, protocol: Protocol, msg: &Value, redactor: &Redactor) -> Answer {
        handshake::read_answer(protocol, msg, redactor)
    }

    /// Whether an installer is at work in what was launched (`npx -y` installing its
    /// package): the handshake then waits up to the start budget.
    fn installing(&self) -> bool {
        false
    }

    /// When the launched process said it listens for HTTP (a stdio server started in its
    /// HTTP mode); its handshake then ends [`HTTP_GRACE`] after, not at the timeout.
    fn serves_http(&self) -> Option<Instant> {
        None
    }

    /// Whether the transport is a process's stdio (the modern host opens its list-change
    /// subscription only there).
    fn is_stdio(&self) -> bool {
        false
    }

    /// The liveness check when `--ping-every` is not given (HTTP re-checks by default).
    fn default_ping(&self) -> Option<PingOptions> {
        None
    }

    /// How a connection ends whose liveness check went unanswered for `timeout`.
    fn unanswered(&self, timeout: Duration) -> Ended {
        let _ = timeout;
        Ended::StoppedAnswering
    }

    /// Close the connection as `how` says, stop and reap what was launched, and report.
    fn close(self, how: Closing, stop: &StopSignal) -> impl Future<Output = Remains> + Send;
}

/// How the session ended, before the transport is closed.
struct End {
    at: Instant,
    /// `None`: cut before an outcome (a stop request or the run's deadline before the
    /// handshake completed).
    outcome: Option<Outcome>,
    closing: Closing,
}

impl End {
    fn new(at: Instant, outcome: Option<Outcome>, closing: Closing) -> End {
        End {
            at,
            outcome,
            closing,
        }
    }

    fn failed(at: Instant, why: String, closing: Closing) -> End {
        End::new(
            at,
            Some(Outcome::FailedToConnect(Failure::Message(why))),
            closing,
        )
    }
}

/// The connection after its handshake.
struct Connected {
    at: Instant,
    pinger: Option<Pinger>,
    opening: Option<OpeningDriver>,
    /// Messages waiting to be sent (the opening's requests, replies to the server).
    outbox: Vec<Value>,
    /// Whether the completed tool list has been told ([`Progress::ToolsListed`]).
    tools_told: bool,
}

impl Connected {
    fn lived_ms(&self, at: Instant) -> f64 {
        ms(at.saturating_duration_since(self.at))
    }

    fn still_up(&self, at: Instant, closing: Closing) -> End {
        let lived_ms = self.lived_ms(at);
        End::new(at, Some(Outcome::StillUp { lived_ms }), closing)
    }

    fn closed(&self, at: Instant, ended: Ended, closing: Closing) -> End {
        let lived_ms = self.lived_ms(at);
        End::new(at, Some(Outcome::Connected { lived_ms, ended }), closing)
    }
}

/// One session in progress.
struct Session<'a> {
    opts: &'a AttemptOptions,
    protocol: Protocol,
    redactor: Arc<Redactor>,
    server: Option<ServerInfo>,
    connected: Option<Connected>,
    handshake_deadline: Instant,
    /// How long the handshake may wait while an install is under way (the start budget).
    install_deadline: Instant,
    deadline: Instant,
}

/// A time no attempt reaches.
fn far(from: Instant) -> Instant {
    from + Duration::from_secs(86_400 * 365 * 30)
}

/// Play one attempt over `transport`: launch, open, handshake, watch until the connection ends
/// (or the watch, the deadline or a stop request ends the observation), close, and report.
/// `Err` only when the target cannot be launched at all.
pub(crate) async fn play<T: Transport>(
    mut transport: T,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let launched_wall = SystemTime::now();
    let launched = Instant::now();
    let pid = transport.launch()?;
    progress(Progress::Launched {
        at_ms: opts.ms_since_epoch(launched),
        pid,
    });
    let mut s = Session {
        opts,
        protocol: opts.protocol,
        redactor: transport.redactor(),
        server: None,
        connected: None,
        handshake_deadline: launched + opts.handshake_timeout,
        install_deadline: launched + opts.start_budget.max(opts.handshake_timeout),
        deadline: opts.deadline.unwrap_or(far(launched)),
    };
    let end = s.run(&mut transport, progress).await;
    let (pings_sent, pings_answered) = match s.connected.as_ref().and_then(|c| c.pinger.as_ref()) {
        Some(p) => (p.sent, p.answered),
        None => (0, 0),
    };
    let close = match end.outcome {
        Some(Outcome::StillUp { .. }) | None => Close::Watching,
        Some(_) => Close::Ended,
    };
    let connected_at_ms = s.connected.as_ref().map(|c| opts.ms_since_epoch(c.at));
    let opening = s
        .connected
        .take()
        .and_then(|c| c.opening)
        .map(|d| d.finish(close, end.at));
    let remains = transport.close(end.closing, &opts.stop).await;
    let mut server = s.server;
    if let (Some(info), Some(get)) = (server.as_mut(), remains.get_stream) {
        info.get_stream = Some(get);
    }
    Ok(AttemptReport {
        launched_at_ms: opts.ms_since_epoch(launched),
        launched_at_wall: launched_wall,
        pid,
        connected_at_ms,
        server,
        ended_at_ms: opts.ms_since_epoch(end.at),
        outcome: end.outcome,
        stopped: remains.stopped.unwrap_or(Stopped::Closed),
        pings_sent,
        pings_answered,
        stderr: remains.stderr,
        stdout: remains.stdout,
        process: remains.process,
        misbehaviour: remains.misbehaviour,
        session: remains.session,
        remote: None,
        opening,
        escaped: remains.escaped,
    })
}

/// What woke the watch.
enum Wake {
    /// A stop request, the run's deadline or the end of the watch: the connection is still up.
    Over,
    Received(Received),
    Opening,
    Ping,
}

/// What a send raced against a stop request and the run's deadline came to.
enum Guarded {
    Sent(Sent),
    Interrupted,
}

impl Session<'_> {
    async fn run<T: Transport>(
        &mut self,
        t: &mut T,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> End {
        if t.dials() {
            let opened = tokio::select! {
                biased;
                () = self.interrupted() => return End::new(Instant::now(), None, Closing::Gone),
                r = t.open() => r,
            };
            if let Err(why) = opened {
                let why = self.redactor.redact(&why.to_string());
                return End::failed(Instant::now(), why, Closing::Gone);
            }
            self.handshake_deadline = Instant::now() + self.opts.handshake_timeout;
        } else if let Err(why) = t.open().await {
            let why = self.redactor.redact(&why.to_string());
            return End::failed(Instant::now(), why, Closing::Gone);
        }
        let first = t.first_request(self.protocol);
        let until = self.handshake_deadline;
        if let Some(end) = self.send_before_connected(t, &first, until).await {
            return end;
        }
        match self.handshake(t, progress).await {
            Some(end) => end,
            None => self.watch(t, progress).await,
        }
    }

    /// Resolves when a stop request or the run's deadline interrupts the attempt.
    async fn interrupted(&self) {
        tokio::select! {
            () = self.opts.stop.reached(StopLevel::Graceful) => {}
            () = tokio::time::sleep_until(self.deadline) => {}
        }
    }

    /// Send `msg`, unless a stop request or the run's deadline comes first.
    async fn guarded_send<T: Transport>(&self, t: &mut T, msg: &Value, until: Instant) -> Guarded {
        tokio::select! {
            biased;
            s = t.send(msg, until) => Guarded::Sent(s),
            () = self.interrupted() => Guarded::Interrupted,
        }
    }

    /// A handshake message sent (the first request, or the notification after the answer);
    /// `Some` when it could not be, which ends the attempt.
    async fn send_before_connected<T: Transport>(
        &self,
        t: &mut T,
        msg: &Value,
        until: Instant,
    ) -> Option<End> {
        let method = msg.get("method").and_then(Value::as_str).unwrap_or("it");
        match self.guarded_send(t, msg, until).await {
            Guarded::Sent(Sent::Done) => None,
            Guarded::Sent(Sent::Failed(detail)) => {
                let why = format!("connection lost before {method} could be sent ({detail})");
                let why = self.redactor.redact(&why);
                Some(End::failed(Instant::now(), why, Closing::Gone))
            }
            Guarded::Sent(Sent::Stalled) => {
                let why =
                    format!("the server does not read its socket: {method} could not be sent");
                Some(End::failed(Instant::now(), why, Closing::Abrupt))
            }
            Guarded::Interrupted => Some(End::new(Instant::now(), None, Closing::Abrupt)),
        }
    }

    /// Wait for the handshake's answer. `None`: connected (the watch follows); `Some`: the
    /// attempt ended before.
    async fn handshake<T: Transport>(
        &mut self,
        t: &mut T,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Option<End> {
        let mut ending: Option<Instant> = None;
        loop {
            let next = match ending {
                Some(_) => Some(t.recv().await),
                None => tokio::select! {
                    biased;
                    () = self.opts.stop.reached(StopLevel::Graceful) => {
                        return Some(End::new(Instant::now(), None, Closing::Polite));
                    }
                    // The deadline first: a flood before the answer cannot hold it off.
                    () = tokio::time::sleep_until(self.handshake_deadline) => None,
                    r = t.recv() => Some(r),
                    () = tokio::time::sleep(HTTP_CHECK), if t.is_stdio() => {
                        if t.serves_http().is_some_and(|at| at.elapsed() >= HTTP_GRACE) {
                            let why = "it serves HTTP, not stdio: it said it listens, and \
                                       answered nothing on stdio"
                                .to_string();
                            return Some(End::failed(Instant::now(), why, Closing::Polite));
                        }
                        continue;
                    }
                    () = tokio::time::sleep_until(self.deadline) => {
                        return Some(End::new(Instant::now(), None, Closing::Polite));
                    }
                },
            };
            let Some(next) = next else {
                // An install under way gets the start budget (the host's, for a first start).
                if self.handshake_deadline < self.install_deadline && t.installing() {
                    self.handshake_deadline = self.install_deadline;
                    continue;
                }
                let why = handshake::timeout_message(self.protocol).to_string();
                return Some(End::failed(Instant::now(), why, Closing::Polite));
            };
            let now = Instant::now();
            let at = ending.unwrap_or(now);
            let closing = if ending.is_some() {
                Closing::Gone
            } else {
                Closing::Polite
            };
            match next {
                Received::Message(v) => match t.read_answer(self.protocol, &v, &self.redactor) {
                    Answer::NotYet => {}
                    Answer::Connected(info) => {
                        return self.connect(t, &v, info, ending, progress).await;
                    }
                    Answer::Failed { error, server } => {
                        self.server = server;
                        return Some(End::failed(at, error, closing));
                    }
                    Answer::Refused { error, server } => {
                        self.server = Some(server);
                        let outcome = Outcome::Permanent(Failure::Message(error));
                        return Some(End::new(at, Some(outcome), closing));
                    }
                },
                Received::Overlong { why } => return Some(End::failed(at, why, closing)),
                Received::Failed { why, .. } => {
                    return Some(End::failed(at, why, Closing::Gone));
                }
                Received::Ending { at } => ending = Some(at),
                Received::Gone(g) => {
                    return Some(End::failed(g.at, g.before_handshake, Closing::Gone));
                }
            }
        }
    }

    /// The handshake's answer arrived: send what follows it, and the connection is made.
    async fn connect<T: Transport>(
        &mut self,
        t: &mut T,
        answer: &Value,
        info: ServerInfo,
        ending: Option<Instant>,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Option<End> {
        self.server = Some(info.clone());
        if let Some(after) = handshake::after_answer(self.protocol) {
            let until = self.handshake_deadline;
            if let Some(end) = self.send_before_connected(t, &after, until).await {
                return Some(end);
            }
        }
        let now = Instant::now();
        progress(Progress::Connected {
            at_ms: self.opts.ms_since_epoch(now),
            server: info,
        });
        let ping = self.opts.ping.or_else(|| t.default_ping());
        let mut opening = (!self.opts.handshake_only).then(|| {
            OpeningDriver::new(
                self.protocol,
                t.is_stdio(),
                answer,
                now,
                self.opts.epoch,
                self.redactor.clone(),
            )
            .with_call(self.opts.call.clone())
        });
        let outbox = opening.as_mut().map(|d| d.start(now)).unwrap_or_default();
        self.connected = Some(Connected {
            at: now,
            pinger: ping.map(|p| Pinger::new(self.protocol, p.every, p.timeout, now)),
            opening,
            outbox,
            tools_told: false,
        });
        match ending {
            // The process ended while its answer was still being read: read the rest.
            Some(at) => Some(self.read_to_end(t, at).await),
            None => None,
        }
    }

    /// Watch the connection until it ends or observation stops.
    async fn watch<T: Transport>(
        &mut self,
        t: &mut T,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> End {
        let Some(watch_end) = self.connected.as_ref().map(|c| c.at + self.opts.watch) else {
            return End::new(Instant::now(), None, Closing::Polite);
        };
        loop {
            // A `--call` still waiting for its answer is waited for past the watch's end, up to
            // its own deadline (the opening's timer then records it timed out): its result is
            // what the user asked for, and one that comes late is still a failure or not.
            let call_deadline = self
                .connected
                .as_ref()
                .and_then(|c| c.opening.as_ref())
                .and_then(OpeningDriver::call_deadline);
            let bound = call_deadline.map_or(watch_end, |d| d.max(watch_end));
            if let Some(end) = self.flush(t, bound).await {
                return end;
            }
            let Some(c) = self.connected.as_ref() else {
                return End::new(Instant::now(), None, Closing::Polite);
            };
            let far = far(c.at);
            let watch_over = if call_deadline.is_some() {
                far
            } else {
                watch_end
            };
            let ping_due = c.pinger.as_ref().map_or(far, Pinger::due);
            let opening_due = c
                .opening
                .as_ref()
                .and_then(OpeningDriver::due)
                .unwrap_or(far);
            // The run's deadline and the watch's end come before the messages: a server that
            // floods the connection cannot keep the watch from ending on time.
            let wake = tokio::select! {
                biased;
                () = self.opts.stop.reached(StopLevel::Graceful) => Wake::Over,
                () = tokio::time::sleep_until(self.deadline) => Wake::Over,
                () = tokio::time::sleep_until(watch_over) => Wake::Over,
                r = t.recv() => Wake::Received(r),
                () = tokio::time::sleep_until(opening_due) => Wake::Opening,
                () = tokio::time::sleep_until(ping_due) => Wake::Ping,
            };
            let end = match wake {
                Wake::Over => self
                    .connected
                    .as_ref()
                    .map(|c| c.still_up(Instant::now(), Closing::Polite)),
                Wake::Opening => {
                    if let Some(c) = self.connected.as_mut() {
                        if let Some(d) = c.opening.as_mut() {
                            c.outbox.extend(d.on_timer(Instant::now()));
                        }
                    }
                    None
                }
                Wake::Ping => self.on_ping_timer(t, bound).await,
                Wake::Received(r) => self.on_received(t, r).await,
            };
            if let Some(end) = end {
                return end;
            }
            self.tell_tools(progress);
        }
    }

    /// Tell the tool list once it is complete (once per connection).
    fn tell_tools(&mut self, progress: &mut (dyn FnMut(Progress) + Send)) {
        let Some(c) = self.connected.as_mut() else {
            return;
        };
        if c.tools_told {
            return;
        }
        if let Some((count, digest)) = c.opening.as_ref().and_then(OpeningDriver::listed_tools) {
            c.tools_told = true;
            progress(Progress::ToolsListed { count, digest });
        }
    }

    /// Send what waits in the outbox, each under the stall guard; `Some` when sending ended
    /// the connection.
    async fn flush<T: Transport>(&mut self, t: &mut T, until: Instant) -> Option<End> {
        let outbox = std::mem::take(&mut self.connected.as_mut()?.outbox);
        for m in outbox {
            if let Some(end) = self.send_connected(t, &m, until).await {
                return Some(end);
            }
        }
        None
    }

    /// Send one message while connected; `Some` when that ended the connection.
    async fn send_connected<T: Transport>(
        &self,
        t: &mut T,
        msg: &Value,
        until: Instant,
    ) -> Option<End> {
        let sent = self.guarded_send(t, msg, until).await;
        let c = self.connected.as_ref()?;
        match sent {
            Guarded::Sent(Sent::Done | Sent::Stalled) => None,
            Guarded::Sent(Sent::Failed(_)) => {
                Some(c.closed(Instant::now(), Ended::ConnectionReset, Closing::Gone))
            }
            Guarded::Interrupted => Some(c.still_up(Instant::now(), Closing::Abrupt)),
        }
    }

    /// The ping timer fired: send a ping, or end a connection that stopped answering.
    async fn on_ping_timer<T: Transport>(&mut self, t: &mut T, until: Instant) -> Option<End> {
        let now = Instant::now();
        let action = self.connected.as_mut()?.pinger.as_mut()?.on_timer(now);
        match action {
            PingAction::Send(ping) => self.send_connected(t, &ping, until).await,
            PingAction::TimedOut => {
                let timeout = self.opts.ping.or_else(|| t.default_ping())?.timeout;
                let c = self.connected.as_ref()?;
                Some(c.closed(now, t.unanswered(timeout), Closing::Polite))
            }
            PingAction::Nothing => None,
        }
    }

    /// Something came from the server while connected; `Some` when it ended the connection.
    async fn on_received<T: Transport>(&mut self, t: &mut T, r: Received) -> Option<End> {
        let now = Instant::now();
        let c = self.connected.as_mut()?;
        match r {
            Received::Message(v) => {
                on_message(c, &v, now);
                None
            }
            Received::Overlong { .. } => None,
            Received::Failed { id, why } => {
                if c.pinger.as_ref().is_some_and(|p| p.awaits(id)) {
                    let ended = Ended::TransportError { reason: why };
                    return Some(c.closed(now, ended, Closing::Gone));
                }
                if let Some(d) = c.opening.as_mut() {
                    let next = d.on_failed(id, why, now);
                    c.outbox.extend(next);
                }
                None
            }
            Received::Ending { at } => Some(self.read_to_end(t, at).await),
            Received::Gone(g) => Some(c.closed(g.at, g.ended, Closing::Gone)),
        }
    }

    /// After [`Received::Ending`] on a connection that was made: read what is left (no timer,
    /// no stop request) until the transport says how it ended.
    async fn read_to_end<T: Transport>(&mut self, t: &mut T, at: Instant) -> End {
        loop {
            let r = t.recv().await;
            let now = Instant::now();
            let Some(c) = self.connected.as_mut() else {
                return End::new(at, None, Closing::Gone);
            };
            match r {
                Received::Message(v) => on_message(c, &v, now),
                Received::Gone(g) => return c.closed(at, g.ended, Closing::Gone),
                Received::Overlong { .. } | Received::Failed { .. } | Received::Ending { .. } => {}
            }
        }
    }
}

/// A message while connected: the pinger's answer, the opening's exchange, or a server request
/// to answer.
fn on_message(c: &mut Connected, v: &Value, now: Instant) {
    if let Some(p) = c.pinger.as_mut() {
        p.on_message(v, now);
    }
    match c.opening.as_mut() {
        Some(d) => c.outbox.extend(d.on_message(v, now)),
        None => c.outbox.extend(handshake::reply_to_server_request(v)),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
