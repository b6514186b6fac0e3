//! The session against a scripted transport on tokio's paused clock: no process, no socket, no
//! real sleeping, exact times.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::json;

use super::*;
use crate::engine::probe::stop::stop_pair;

/// What the scripted server does, and what the session did to it.
#[derive(Default)]
struct Log {
    /// Every message the session sent, with its time (ms since the start).
    sent: Vec<(f64, Value)>,
    /// How the session closed the transport.
    closed: Option<Closing>,
}

/// A transport that delivers `script` (each item at its time, ms since the start) and records
/// what is sent to it.
struct Script {
    start: Instant,
    script: VecDeque<(u64, Received)>,
    log: Arc<Mutex<Log>>,
}

impl Script {
    fn new(script: Vec<(u64, Received)>) -> (Script, Arc<Mutex<Log>>) {
        let log = Arc::new(Mutex::new(Log::default()));
        let s = Script {
            start: Instant::now(),
            script: script.into(),
            log: log.clone(),
        };
        (s, log)
    }
}

impl Transport for Script {
    fn redactor(&self) -> Arc<Redactor> {
        Arc::new(Redactor::new())
    }

    fn launch(&mut self) -> Result<Option<u32>, LaunchError> {
        Ok(Some(4242))
    }

    type OpenError = std::convert::Infallible;

    async fn open(&mut self) -> Result<(), Self::OpenError> {
        Ok(())
    }

    async fn send(&mut self, msg: &Value, _until: Instant) -> Sent {
        let at = ms(Instant::now() - self.start);
        if let Ok(mut log) = self.log.lock() {
            log.sent.push((at, msg.clone()));
        }
        Sent::Done
    }

    async fn recv(&mut self) -> Received {
        // Cancel-safe: the item leaves the script only once its time has come.
        let Some((after, _)) = self.script.front() else {
            return std::future::pending().await;
        };
        tokio::time::sleep_until(self.start + Duration::from_millis(*after)).await;
        match self.script.pop_front() {
            Some((_, r)) => r,
            None => std::future::pending().await,
        }
    }

    async fn close(self, how: Closing, _stop: &StopSignal) -> Remains {
        if let Ok(mut log) = self.log.lock() {
            log.closed = Some(how);
        }
        Remains::default()
    }
}

fn opts(stop: StopSignal) -> AttemptOptions {
    AttemptOptions {
        protocol: Protocol::Legacy,
        handshake_timeout: Duration::from_secs(2),
        watch: Duration::from_secs(30),
        ping: None,
        redactor: Arc::new(Redactor::new()),
        stop,
        deadline: None,
        epoch: Instant::now(),
        start_budget: Duration::from_secs(60),
        handshake_only: true,
        strict: false,
        call: None,
        notable_stderr: crate::engine::probe::no_notable_stderr,
    }
}

fn answer() -> Received {
    Received::Message(json!({
        "jsonrpc": "2.0",
        "id": 0,
        "result": {
            "protocolVersion": "2024-11-05",
            "capabilities": {},
            "serverInfo": {"name": "scripted", "version": "1.0"}
        }
    }))
}

fn exit(at_ms: u64, code: i32, start: Instant) -> Received {
    Received::Gone(Gone {
        at: start + Duration::from_millis(at_ms),
        ended: Ended::Exit { code },
        before_handshake: format!("exited with code {code} before its handshake"),
    })
}

async fn play_script(script: Script, opts: &AttemptOptions) -> (AttemptReport, Vec<Progress>) {
    let mut seen = Vec::new();
    let report = play(script, opts, &mut |p| seen.push(p))
        .await
        .expect("a scripted transport always launches");
    (report, seen)
}

fn methods(log: &Arc<Mutex<Log>>) -> Vec<String> {
    let log = log.lock().expect("log");
    log.sent
        .iter()
        .map(|(_, m)| match m.get("method").and_then(Value::as_str) {
            Some(method) => method.to_string(),
            None => format!("answer to {}", m["id"]),
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn connected_then_closed() {
    let (_h, stop) = stop_pair();
    let opts = opts(stop);
    let start = Instant::now();
    let (script, log) = Script::new(vec![(100, answer()), (400, exit(400, 0, start))]);
    let (report, seen) = play_script(script, &opts).await;
    assert_eq!(report.pid, Some(4242));
    assert_eq!(report.connected_at_ms, Some(100.0));
    assert_eq!(report.ended_at_ms, 400.0);
    assert_eq!(
        report.outcome,
        Some(Outcome::Connected {
            lived_ms: 300.0,
            ended: Ended::Exit { code: 0 }
        })
    );
    assert_eq!(
        report.server.as_ref().and_then(|s| s.name.as_deref()),
        Some("scripted")
    );
    assert_eq!(
        methods(&log),
        vec!["initialize", "notifications/initialized"]
    );
    assert_eq!(log.lock().expect("log").closed, Some(Closing::Gone));
    assert!(matches!(
        seen.as_slice(),
        [Progress::Launched { at_ms, pid: Some(4242) }, Progress::Connected { at_ms: c, .. }]
            if *at_ms == 0.0 && *c == 100.0
    ));
}

#[tokio::test(start_paused = true)]
async fn an_exit_before_the_answer_fails_with_the_transports_words() {
    let (_h, stop) = stop_pair();
    let opts = opts(stop);
    let start = Instant::now();
    let (script, _log) = Script::new(vec![(50, exit(50, 3, start))]);
    let (report, _) = play_script(script, &opts).await;
    assert_eq!(report.connected_at_ms, None);
    assert_eq!(
        report.outcome,
        Some(Outcome::FailedToConnect(Failure::Message(
            "exited with code 3 before its handshake".into()
        )))
    );
}

#[tokio::test(start_paused = true)]
async fn handshake_timeout() {
    let (_h, stop) = stop_pair();
    let opts = opts(stop);
    let (script, log) = Script::new(Vec::new());
    let (report, seen) = play_script(script, &opts).await;
    assert_eq!(report.ended_at_ms, 2000.0);
    assert_eq!(
        report.outcome,
        Some(Outcome::FailedToConnect(Failure::Message(
            handshake::timeout_message(Protocol::Legacy).into()
        )))
    );
    assert_eq!(report.connected_at_ms, None);
    assert_eq!(seen.len(), 1, "launched, never connected");
    // The host stops a server that never answered the polite way.
    assert_eq!(log.lock().expect("log").closed, Some(Closing::Polite));
}

#[tokio::test(start_paused = true)]
async fn server_request_answered() {
    let (_h, stop) = stop_pair();
    let mut opts = opts(stop);
    opts.watch = Duration::from_secs(5);
    let request = json!({"jsonrpc": "2.0", "id": "s-1", "method": "roots/list"});
    let (script, log) = Script::new(vec![(10, answer()), (50, Received::Message(request))]);
    let (report, _) = play_script(script, &opts).await;
    // Nothing ended it: still up when the watch is over.
    assert_eq!(report.ended_at_ms, 5010.0);
    assert_eq!(report.outcome, Some(Outcome::StillUp { lived_ms: 5000.0 }));
    let log = log.lock().expect("log");
    let (at, reply) = log.sent.last().expect("a reply");
    assert_eq!(*at, 50.0, "answered at once");
    assert_eq!(reply["id"], "s-1");
    assert!(reply.get("result").is_some() || reply.get("error").is_some());
    assert_eq!(log.closed, Some(Closing::Polite));
}

#[tokio::test(start_paused = true)]
async fn ping_stall() {
    let (_h, stop) = stop_pair();
    let mut opts = opts(stop);
    opts.ping = Some(PingOptions {
        every: Duration::from_secs(1),
        timeout: Duration::from_secs(2),
    });
    let (script, log) = Script::new(vec![(10, answer())]);
    let (report, _) = play_script(script, &opts).await;
    // A ping at 1010 ms, unanswered until 3010 ms: the server stopped answering.
    assert_eq!(
        report.outcome,
        Some(Outcome::Connected {
            lived_ms: 3000.0,
            ended: Ended::StoppedAnswering
        })
    );
    assert_eq!((report.pings_sent, report.pings_answered), (1, 0));
    let log = log.lock().expect("log");
    let pings: Vec<f64> = log
        .sent
        .iter()
        .filter(|(_, m)| m["method"] == "ping")
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(pings, vec![1010.0]);
}

#[tokio::test(start_paused = true)]
async fn answered_pings_keep_the_connection_until_it_closes() {
    let (_h, stop) = stop_pair();
    let mut opts = opts(stop);
    opts.ping = Some(PingOptions {
        every: Duration::from_secs(1),
        timeout: Duration::from_secs(2),
    });
    let start = Instant::now();
    let pong = |id: i64| Received::Message(json!({"jsonrpc": "2.0", "id": id, "result": {}}));
    let first = handshake::FIRST_PING_ID;
    let (script, _log) = Script::new(vec![
        (10, answer()),
        (1020, pong(first)),
        (2030, pong(first + 1)),
        (2500, exit(2500, 1, start)),
    ]);
    let (report, _) = play_script(script, &opts).await;
    assert_eq!((report.pings_sent, report.pings_answered), (2, 2));
    assert_eq!(
        report.outcome,
        Some(Outcome::Connected {
            lived_ms: 2490.0,
            ended: Ended::Exit { code: 1 }
        })
    );
}

#[tokio::test(start_paused = true)]
async fn stop() {
    // While connected: still up, closed politely.
    let (handle, signal) = stop_pair();
    let opts = opts(signal);
    let (script, log) = Script::new(vec![(100, answer())]);
    let stopper = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        handle.escalate();
        handle
    });
    let (report, _) = play_script(script, &opts).await;
    let _handle = stopper.await.expect("joined");
    assert_eq!(report.outcome, Some(Outcome::StillUp { lived_ms: 400.0 }));
    assert_eq!(log.lock().expect("log").closed, Some(Closing::Polite));

    // Before the handshake: cut, no outcome.
    let (handle, signal) = stop_pair();
    let opts = super::super::model::AttemptOptions {
        epoch: Instant::now(),
        ..self::opts(signal)
    };
    let (script, _log) = Script::new(vec![(1500, answer())]);
    let stopper = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        handle.escalate();
        handle
    });
    let (report, _) = play_script(script, &opts).await;
    let _handle = stopper.await.expect("joined");
    assert_eq!(report.outcome, None);
    assert_eq!(report.connected_at_ms, None);
    assert_eq!(report.ended_at_ms, 300.0);
}

#[tokio::test(start_paused = true)]
async fn a_verdict_read_after_the_end_was_seen_ends_the_attempt_then() {
    // A process that answered with an error and exited at once: the answer is read after the
    // exit was seen, and the attempt fails with the answer's words at the exit's time.
    let (_h, stop) = stop_pair();
    let opts = opts(stop);
    let start = Instant::now();
    let refused = Received::Message(json!({
        "jsonrpc": "2.0", "id": 0,
        "error": {"code": -32603, "message": "no"}
    }));
    let (script, log) = Script::new(vec![
        (
            70,
            Received::Ending {
                at: start + Duration::from_millis(70),
            },
        ),
        (90, refused),
        (95, exit(70, 1, start)),
    ]);
    let (report, _) = play_script(script, &opts).await;
    assert_eq!(report.ended_at_ms, 70.0);
    assert!(
        matches!(&report.outcome, Some(Outcome::FailedToConnect(f)) if f.to_string().contains("no")),
        "{:?}",
        report.outcome
    );
    assert_eq!(log.lock().expect("log").closed, Some(Closing::Gone));
}
