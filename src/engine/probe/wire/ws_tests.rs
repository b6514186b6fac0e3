//! The WebSocket transport against the scripted server of [`crate::testing`], on real sockets on
//! 127.0.0.1. Lifetimes are measured and checked within tolerances, never slept and assumed.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::engine::policy::{EngineKind, Preset, Timings};
use crate::engine::policy::{Failure, Outcome};
use crate::engine::probe::runner::{self, RunOptions};
use crate::engine::probe::{stop_pair, Family, PingOptions, Protocol, StopSignal};
use crate::testing::{WsAnswer, WsScenario, WsServer};

const TOKEN: &str = "s3cret-t0ken";

fn opts() -> AttemptOptions {
    let mut r = Redactor::new();
    r.add(TOKEN);
    AttemptOptions {
        protocol: Protocol::Legacy,
        handshake_timeout: Duration::from_secs(2),
        watch: Duration::from_secs(2),
        ping: None,
        redactor: Arc::new(r),
        stop: StopSignal::never(),
        deadline: None,
        epoch: Instant::now(),
        start_budget: Duration::from_secs(60),
        handshake_only: false,
        strict: false,
        call: None,
        notable_stderr: crate::engine::probe::no_notable_stderr,
    }
}

fn target(server: &WsServer) -> WsTarget {
    WsTarget::new(&server.url("/mcpl?x=1"), Some(TOKEN.into()))
        .expect("valid target")
        .with_open_timeout(Duration::from_millis(500))
}

async fn run_once(target: &WsTarget, opts: &AttemptOptions) -> (AttemptReport, Vec<Progress>) {
    let mut seen = Vec::new();
    let report = attempt(target, opts, &mut |p| seen.push(p))
        .await
        .expect("a target that parses never fails to attempt");
    // Nothing the transport returns may carry the token.
    let all = format!("{report:?} {seen:?} {}", target.describe(&opts.redactor));
    assert!(!all.contains(TOKEN), "token leaked: {all}");
    (report, seen)
}

fn error_of(report: &AttemptReport) -> String {
    report
        .outcome
        .as_ref()
        .expect("an outcome")
        .error()
        .to_string()
}

fn lived(report: &AttemptReport) -> f64 {
    match report.outcome {
        Some(Outcome::Connected { lived_ms, .. }) | Some(Outcome::StillUp { lived_ms }) => lived_ms,
        ref other => panic!("not connected: {other:?}"),
    }
}

#[tokio::test]
async fn close_frame_with_code_and_reason() {
    let server = WsServer::start(WsScenario::close_after(300, 4000, "idle"));
    let (report, seen) = run_once(&target(&server), &opts()).await;
    assert_eq!(
        report.outcome,
        Some(Outcome::Connected {
            lived_ms: lived(&report),
            ended: Ended::WsClose {
                code: 4000,
                reason: "idle".into()
            }
        })
    );
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (close 4000: idle)"
    );
    let l = lived(&report);
    assert!((290.0..3000.0).contains(&l), "lived {l} ms");
    assert!(report.connected_at_ms.is_some());
    assert!(report.handshake_ms().is_some_and(|h| h >= 0.0));
    assert_eq!(report.stopped, Stopped::Closed);
    assert_eq!(report.pid, None);
    let server_info = report.server.expect("server info");
    assert_eq!(server_info.family, Some(Family::Mcpl));
    assert_eq!(server_info.name.as_deref(), Some("test-ws"));
    assert!(matches!(seen[0], Progress::Launched { pid: None, .. }));
    assert!(matches!(seen[1], Progress::Connected { .. }));

    // The token arrived in the query, next to the URL's own parameter.
    let conns = server.connections();
    assert_eq!(server.tokens(), vec![Some(TOKEN.to_string())]);
    assert_eq!(
        conns[0].path_and_query.as_deref(),
        Some("/mcpl?x=1&token=s3cret-t0ken")
    );
    // initialize, then notifications/initialized, then the host's opening (an MCPL server:
    // featureSets/update first), one per text frame.
    let methods: Vec<String> = conns[0]
        .received
        .iter()
        .filter_map(|t| serde_json::from_str::<serde_json::Value>(t).ok())
        .filter_map(|v| v["method"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        methods[..3],
        [
            "initialize",
            "notifications/initialized",
            "featureSets/update"
        ]
    );
}

#[tokio::test]
async fn close_reason_is_redacted_and_lifetime_counts_whole_seconds() {
    let server = WsServer::start(WsScenario::close_after(
        1100,
        4401,
        &format!("token {TOKEN} revoked"),
    ));
    let (report, _) = run_once(&target(&server), &opts()).await;
    assert_eq!(
        error_of(&report),
        "connected, then closed after 1 s (close 4401: token [redacted] revoked)"
    );
}

#[tokio::test]
async fn refused_upgrade_says_the_http_status() {
    let server = WsServer::start(WsScenario::RefuseUpgrade { status: 401 });
    let (report, _) = run_once(&target(&server), &opts()).await;
    assert_eq!(error_of(&report), "upgrade refused: HTTP 401 Unauthorized");
    assert!(matches!(report.outcome, Some(Outcome::FailedToConnect(_))));
    assert_eq!(report.connected_at_ms, None);
    assert_eq!(server.tokens(), vec![Some(TOKEN.to_string())]);
}

#[tokio::test]
async fn a_server_that_never_answers_the_upgrade_times_out_opening() {
    let server = WsServer::start(WsScenario::Silent);
    let t = target(&server).with_open_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let (report, _) = run_once(&t, &opts()).await;
    let took = started.elapsed().as_millis();
    assert_eq!(error_of(&report), "open timed out after 300 ms");
    assert!((290..5000).contains(&took), "took {took} ms");
    let t = target(&server).with_open_timeout(Duration::from_secs(15));
    assert_eq!(t.open_timeout, DEFAULT_OPEN_TIMEOUT);
    assert_eq!(seconds(DEFAULT_OPEN_TIMEOUT), "15 s");
}

#[tokio::test]
async fn no_initialize_answer_is_a_handshake_timeout_and_the_host_closes_normally() {
    let server = WsServer::start(WsScenario::NoInitializeAnswer);
    let mut o = opts();
    o.handshake_timeout = Duration::from_millis(300);
    let (report, _) = run_once(&target(&server), &o).await;
    assert_eq!(error_of(&report), "initialize handshake timed out");
    let took = report.ended_at_ms - report.launched_at_ms;
    assert!((290.0..5000.0).contains(&took), "took {took} ms");
    wait_for(|| server.connections()[0].client_close.is_some()).await;
    assert_eq!(
        server.connections()[0].client_close,
        Some((1000, String::new()))
    );
}

#[tokio::test]
async fn a_close_instead_of_an_answer_fails_the_handshake() {
    let server = WsServer::start(WsScenario::CloseOnInitialize {
        code: 4401,
        reason: format!("bad token {TOKEN}"),
    });
    let (report, _) = run_once(&target(&server), &opts()).await;
    assert_eq!(
        error_of(&report),
        "closed during the handshake (close 4401: bad token [redacted])"
    );
    assert!(matches!(report.outcome, Some(Outcome::FailedToConnect(_))));
}

#[tokio::test]
async fn drop_without_close_frame_is_a_connection_reset() {
    for scenario in [WsScenario::drop_after(200), WsScenario::reset_after(200)] {
        let server = WsServer::start(scenario.clone());
        let (report, _) = run_once(&target(&server), &opts()).await;
        assert_eq!(
            error_of(&report),
            "connected, then closed after 0 s (connection dropped without a close frame)",
            "{scenario:?}"
        );
        let l = lived(&report);
        assert!((190.0..3000.0).contains(&l), "lived {l} ms ({scenario:?})");
    }
}

#[tokio::test]
async fn still_up_at_the_end_of_the_watch_then_a_normal_close() {
    let server = WsServer::start(WsScenario::stay_up());
    let mut o = opts();
    o.watch = Duration::from_millis(300);
    o.ping = Some(PingOptions {
        every: Duration::from_millis(50),
        timeout: Duration::from_millis(500),
    });
    let (report, _) = run_once(&target(&server), &o).await;
    assert!(matches!(report.outcome, Some(Outcome::StillUp { .. })));
    let l = lived(&report);
    assert!((290.0..3000.0).contains(&l), "lived {l} ms");
    assert!(report.pings_sent >= 2, "{report:?}");
    assert!(report.pings_answered + 1 >= report.pings_sent);
    wait_for(|| server.connections()[0].client_close.is_some()).await;
    assert_eq!(
        server.connections()[0].client_close,
        Some((1000, String::new()))
    );
}

#[tokio::test]
async fn unanswered_ping_means_stopped_answering() {
    let server = WsServer::start(WsScenario::mute_after(250));
    let mut o = opts();
    o.ping = Some(PingOptions {
        every: Duration::from_millis(100),
        timeout: Duration::from_millis(150),
    });
    let (report, _) = run_once(&target(&server), &o).await;
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (stopped answering pings)"
    );
    let l = lived(&report);
    // Muted at 250 ms; the first ping after it goes out by ~350 ms and times out 150 ms later.
    assert!((380.0..3000.0).contains(&l), "lived {l} ms");
    assert!(report.pings_sent >= 2);
    assert_eq!(report.pings_answered + 1, report.pings_sent);
}

#[tokio::test]
async fn refused_and_unresolved_connections() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let t = WsTarget::new(&format!("ws://127.0.0.1:{port}/"), Some(TOKEN.into())).expect("t");
    let (report, _) = run_once(&t, &opts()).await;
    assert_eq!(error_of(&report), "connection refused");

    let t = WsTarget::new("ws://no-such-host.invalid/mcpl", Some(TOKEN.into())).expect("t");
    let (report, _) = run_once(&t, &opts()).await;
    assert!(
        error_of(&report).starts_with("name not resolved: no-such-host.invalid"),
        "{}",
        error_of(&report)
    );
}

#[tokio::test]
async fn wss_to_a_plain_server_is_a_tls_failure() {
    let server = WsServer::start(WsScenario::stay_up());
    let url = format!("wss://{}/mcpl", server.addr());
    let t = WsTarget::new(&url, Some(TOKEN.into())).expect("t");
    let (report, _) = run_once(&t, &opts()).await;
    assert!(
        error_of(&report).starts_with("TLS failure: "),
        "{}",
        error_of(&report)
    );
}

#[tokio::test]
async fn version_verdict_is_permanent() {
    let server = WsServer::start(WsScenario::Answer {
        answer: WsAnswer {
            protocol_version: "2025-03-26".into(),
            ..WsAnswer::default()
        },
        then: crate::testing::AfterHandshake::StayUp,
    });
    let (report, _) = run_once(&target(&server), &opts()).await;
    assert_eq!(
        report.outcome,
        Some(Outcome::Permanent(Failure::Message(
            "server answered protocol version \"2025-03-26\", not 2024-11-05".into()
        )))
    );
    assert_eq!(report.connected_at_ms, None);
}

#[tokio::test]
async fn non_json_frames_are_counted_and_redacted() {
    let server = WsServer::start(WsScenario::Answer {
        answer: WsAnswer {
            noise: vec![
                "listening on :8080".into(),
                format!("debug: token={TOKEN}"),
                "   ".into(),
                "{\"not\":\"jsonrpc\"}".into(),
            ],
            mcpl: false,
            ..WsAnswer::default()
        },
        then: crate::testing::AfterHandshake::Close {
            after_ms: 50,
            code: 1001,
            reason: String::new(),
        },
    });
    let (report, _) = run_once(&target(&server), &opts()).await;
    assert_eq!(report.stdout.non_json_lines, 3);
    assert_eq!(
        report.stdout.samples,
        [
            "listening on :8080",
            "debug: token=[redacted]",
            "{\"not\":\"jsonrpc\"}"
        ]
    );
    assert_eq!(
        report.server.as_ref().and_then(|s| s.family),
        Some(Family::PlainMcp)
    );
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (close 1001)"
    );
}

#[tokio::test]
async fn a_stop_request_ends_the_watch_and_a_deadline_cuts_the_open() {
    let server = WsServer::start(WsScenario::stay_up());
    let (handle, signal) = stop_pair();
    let mut o = opts();
    o.watch = Duration::from_secs(30);
    o.stop = signal;
    let t = target(&server);
    let started = Instant::now();
    let stopper = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        handle.request(StopLevel::Graceful);
        handle
    });
    let (report, _) = run_once(&t, &o).await;
    let _handle = stopper.await.expect("stopper");
    assert!(matches!(report.outcome, Some(Outcome::StillUp { .. })));
    assert!(started.elapsed() < Duration::from_secs(15));

    // A deadline during the open: the attempt is cut, with no outcome.
    let silent = WsServer::start(WsScenario::Silent);
    let mut o = opts();
    o.deadline = Some(Instant::now() + Duration::from_millis(100));
    let t = target(&silent).with_open_timeout(Duration::from_secs(5));
    let (report, _) = run_once(&t, &o).await;
    assert_eq!(report.outcome, None);
}

#[test]
fn targets_refuse_other_urls_without_showing_the_token() {
    let err = WsTarget::new("http://h/x?token=s3cret-t0ken", None).expect_err("not ws");
    assert_eq!(
        err.to_string(),
        "not a WebSocket URL (ws:// or wss://): http://h/x"
    );
    let err = WsTarget::new("ws//h?token=s3cret-t0ken", None).expect_err("no parse");
    assert!(!err.to_string().contains(TOKEN), "{err}");
    let t = WsTarget::new("wss://u:pw-secret@h/x?token=old-secret", Some(TOKEN.into())).expect("t");
    assert_eq!(t.describe(&Redactor::new()), "wss://u@h/x");
    assert_eq!(
        t.request_url().as_str(),
        "wss://u:pw-secret@h/x?token=s3cret-t0ken"
    );
    let secrets = t.secrets();
    for s in [TOKEN, "old-secret", "pw-secret"] {
        assert!(secrets.iter().any(|x| x == s), "{s} in {secrets:?}");
    }
}

#[tokio::test]
async fn the_runner_drives_websocket_attempts() {
    // Refused, then short-lived connections: the loop relaunches with the policy's waits.
    let server = WsServer::script(vec![
        WsScenario::RefuseUpgrade { status: 503 },
        WsScenario::close_after(50, 4000, "idle"),
    ]);
    let policy = Preset::Lasting.policy_with(
        EngineKind::Legacy,
        Timings {
            interval_ms: 50.0,
            cap_ms: 200.0,
        },
    );
    let mut t = target(&server);
    let run_opts = RunOptions {
        policy,
        seed: 7,
        launches: Some(3),
        run_for: None,
        until_down: false,
        attempt: opts(),
        target: t.describe(&Redactor::new()),
    };
    let mut events = Vec::new();
    let run = runner::run(&mut t, run_opts, &mut |e| events.push(format!("{e:?}")))
        .await
        .expect("run");
    assert_eq!(run.launches.len(), 3);
    assert_eq!(
        run.launches[0].error.as_deref(),
        Some("upgrade refused: HTTP 503 Service Unavailable")
    );
    assert_eq!(
        run.launches[1].error.as_deref(),
        Some("connected, then closed after 0 s (close 4000: idle)")
    );
    assert_eq!(
        run.launches.iter().map(|l| l.attempt).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert_eq!(server.connection_count(), 3);
    let all = events.join("\n");
    assert!(!all.contains(TOKEN));
}

/// Poll `cond` for up to 15 s (the server records asynchronously; a loaded machine).
async fn wait_for(cond: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(15);
    while !cond() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The way an integration test under `tests/` uses the server: started from plain synchronous
/// code (it has its own thread and runtime), the binary or the library pointed at its URL.
#[test]
fn the_test_server_serves_synchronous_tests_too() {
    let server = WsServer::start(WsScenario::close_after(20, 4000, "bye"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let t = target(&server);
    let (report, _) = rt.block_on(run_once(&t, &opts()));
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (close 4000: bye)"
    );
    assert_eq!(server.tokens(), vec![Some(TOKEN.to_string())]);
}
