//! The HTTP transport against the scripted server of [`crate::testing`], on 127.0.0.1.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::engine::policy::Outcome;
use crate::engine::probe::opening::ExchangeResult;
use crate::engine::probe::{PingOptions, StopSignal};
use crate::testing::{HttpScenario, HttpServer, HttpTools};

const TOKEN: &str = "http-s3cret-t0ken";

fn opts() -> AttemptOptions {
    AttemptOptions {
        protocol: Protocol::Modern,
        handshake_timeout: Duration::from_secs(2),
        watch: Duration::from_secs(2),
        ping: None,
        redactor: Arc::new(Redactor::new()),
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

fn target(server: &HttpServer) -> HttpTarget {
    HttpTarget::new(&server.url("/mcp"), Some(TOKEN.into())).expect("valid target")
}

fn redactor() -> Redactor {
    let mut r = Redactor::new();
    r.add(TOKEN);
    r
}

async fn discover_once(server: &HttpServer, timeout: Duration) -> Discovery {
    let d = discover(&target(server), timeout, &redactor()).await;
    assert!(!format!("{d:?}").contains(TOKEN));
    d
}

async fn attempt_once(target: &HttpTarget, opts: &AttemptOptions) -> AttemptReport {
    let mut seen = Vec::new();
    let report = attempt(target, opts, &mut |p| seen.push(p))
        .await
        .expect("attempt");
    let all = format!("{report:?} {seen:?} {}", target.describe(&Redactor::new()));
    assert!(!all.contains(TOKEN), "token leaked: {all}");
    report
}

fn error_of(report: &AttemptReport) -> String {
    report
        .outcome
        .as_ref()
        .expect("an outcome")
        .error()
        .to_string()
}

fn failure(d: &Discovery) -> &str {
    match &d.result {
        DiscoverResult::Failed { error, .. } => error,
        other => panic!("not a failure: {other:?}"),
    }
}

#[tokio::test]
async fn discover_sends_the_modern_request_and_reads_a_json_answer() {
    let server = HttpServer::start(HttpScenario::Discover);
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(d.status, Some(200));
    assert!(d.elapsed_ms >= 0.0 && d.elapsed_ms < 2000.0);
    match &d.result {
        DiscoverResult::Valid(info) => {
            assert_eq!(info.protocol_version.as_deref(), Some("2026-07-28"));
            assert_eq!(info.name.as_deref(), Some("test-http"));
        }
        other => panic!("{other:?}"),
    }
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.target, "/mcp");
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.header("accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(r.header("mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(r.header("mcp-method"), Some("server/discover"));
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    let body: serde_json::Value = serde_json::from_str(&r.body).expect("JSON body");
    assert_eq!(body["method"], "server/discover");
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
}

#[tokio::test]
async fn discover_reads_an_event_stream_answer() {
    let server = HttpServer::start(HttpScenario::DiscoverSse);
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert!(matches!(d.result, DiscoverResult::Valid(_)), "{d:?}");
}

#[tokio::test]
async fn discover_failures_in_plain_words() {
    let server = HttpServer::start(HttpScenario::Status(401));
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(d.status, Some(401));
    assert_eq!(failure(&d), "server/discover: HTTP 401 Unauthorized");

    let server = HttpServer::start(HttpScenario::Raw {
        status: 400,
        content_type: "application/json".into(),
        body: format!(
            r#"{{"jsonrpc":"2.0","id":0,"error":{{"code":-32022,"message":"bad version {TOKEN}"}}}}"#
        ),
    });
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(
        failure(&d),
        "server/discover: HTTP 400 Bad Request (bad version [redacted], code -32022)"
    );

    let server = HttpServer::start(HttpScenario::DiscoverVersions(vec!["2025-06-18".into()]));
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(d.status, Some(200));
    assert_eq!(
        failure(&d),
        "server/discover: the server supports 2025-06-18, not 2026-07-28"
    );

    let server = HttpServer::start(HttpScenario::Raw {
        status: 200,
        content_type: "text/html".into(),
        body: "<html>hello</html>".into(),
    });
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(
        failure(&d),
        "server/discover: the answer is not a JSON-RPC message"
    );

    let server = HttpServer::start(HttpScenario::Close);
    let d = discover_once(&server, Duration::from_secs(2)).await;
    assert_eq!(d.status, None);
    assert_eq!(
        failure(&d),
        "server/discover: the server closed the connection without answering"
    );

    let server = HttpServer::start(HttpScenario::Silent);
    let started = Instant::now();
    let d = discover_once(&server, Duration::from_millis(300)).await;
    assert_eq!(d.result, DiscoverResult::TimedOut);
    let took = started.elapsed().as_millis();
    assert!((290..5000).contains(&took), "took {took} ms");

    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let t = HttpTarget::new(&format!("http://127.0.0.1:{port}/mcp"), None).expect("t");
    let d = discover(&t, Duration::from_secs(2), &Redactor::new()).await;
    assert_eq!(failure(&d), "connection refused");
}

#[tokio::test]
async fn an_attempt_is_connected_at_the_first_answer_and_ends_at_the_first_failed_recheck() {
    let server = HttpServer::script(vec![
        HttpScenario::Discover,
        HttpScenario::Discover,
        HttpScenario::Status(503),
    ]);
    let mut o = opts();
    o.ping = Some(PingOptions {
        every: Duration::from_millis(100),
        timeout: Duration::from_millis(500),
    });
    let report = attempt_once(&target(&server), &o).await;
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (server/discover: HTTP 503 Service Unavailable)"
    );
    let Some(Outcome::Connected { lived_ms, .. }) = report.outcome else {
        panic!("{report:?}")
    };
    assert!((190.0..3000.0).contains(&lived_ms), "lived {lived_ms} ms");
    assert_eq!((report.pings_sent, report.pings_answered), (2, 1));
    assert!(report.connected_at_ms.is_some());
    let methods: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.header("mcp-method").unwrap_or("?").to_string())
        .collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "tools/list",
            "server/discover",
            "server/discover"
        ]
    );
    // The host's opening: one tools/list POST, answered with the server's 2 tools.
    let opening = report.opening.expect("an opening");
    assert_eq!(opening.tool_count, Some(2));
    assert_eq!(opening.exchanges.len(), 1);
    assert_eq!(opening.exchanges[0].method, "tools/list");
    assert_eq!(opening.exchanges[0].result, ExchangeResult::Answered);
}

/// The opening over HTTP: a `tools/list` that fails is an error in the launch's opening (no
/// JSON-RPC code, the HTTP status in words), one that is never answered is left unanswered at
/// the end of the watch; neither ends the "connection" (re-checks still answer).
#[tokio::test]
async fn a_failing_tools_list_is_recorded_in_the_opening() {
    for (tools, expected) in [
        (
            HttpTools::Status(500),
            ExchangeResult::Error {
                code: None,
                message: "tools/list: HTTP 500 Internal Server Error".into(),
            },
        ),
        (HttpTools::Silent, ExchangeResult::Unanswered),
    ] {
        let server = HttpServer::script_with_tools(vec![HttpScenario::Discover], tools.clone());
        let mut o = opts();
        o.watch = Duration::from_millis(400);
        o.ping = Some(PingOptions {
            every: Duration::from_millis(100),
            timeout: Duration::from_millis(500),
        });
        let report = attempt_once(&target(&server), &o).await;
        assert!(
            matches!(report.outcome, Some(Outcome::StillUp { .. })),
            "{tools:?}: {report:?}"
        );
        let opening = report.opening.expect("an opening");
        assert_eq!(opening.tool_count, None, "{tools:?}");
        assert_eq!(opening.exchanges[0].result, expected, "{tools:?}");
        let list = server
            .requests()
            .into_iter()
            .find(|r| r.header("mcp-method") == Some("tools/list"))
            .expect("tools/list was sent");
        assert_eq!(list.header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(
            list.header("authorization")
                .map(|a| a.starts_with("Bearer ")),
            Some(true)
        );
    }
    // `--handshake-only`: no tools/list.
    let server = HttpServer::start(HttpScenario::Discover);
    let mut o = opts();
    o.watch = Duration::from_millis(100);
    o.handshake_only = true;
    let report = attempt_once(&target(&server), &o).await;
    assert_eq!(report.opening, None);
    assert!(server
        .requests()
        .iter()
        .all(|r| r.header("mcp-method") == Some("server/discover")));
}

#[tokio::test]
async fn an_attempt_still_answering_at_the_end_of_the_watch_is_still_up() {
    let server = HttpServer::start(HttpScenario::Discover);
    let mut o = opts();
    o.watch = Duration::from_millis(300);
    o.ping = Some(PingOptions {
        every: Duration::from_millis(80),
        timeout: Duration::from_millis(500),
    });
    let report = attempt_once(&target(&server), &o).await;
    let Some(Outcome::StillUp { lived_ms }) = report.outcome else {
        panic!("{report:?}")
    };
    assert!((290.0..3000.0).contains(&lived_ms), "lived {lived_ms} ms");
    assert!(report.pings_sent >= 2);
    assert!(report.pings_answered + 1 >= report.pings_sent);
}

#[tokio::test]
async fn failed_first_discover_is_a_failed_attempt() {
    let server = HttpServer::start(HttpScenario::Status(401));
    let report = attempt_once(&target(&server), &opts()).await;
    assert_eq!(error_of(&report), "server/discover: HTTP 401 Unauthorized");
    assert_eq!(report.connected_at_ms, None);

    let server = HttpServer::start(HttpScenario::Silent);
    let mut o = opts();
    o.handshake_timeout = Duration::from_millis(200);
    let report = attempt_once(&target(&server), &o).await;
    assert_eq!(error_of(&report), "server/discover handshake timed out");
}

#[tokio::test]
async fn a_recheck_timeout_says_how_long_it_waited() {
    let server = HttpServer::script(vec![HttpScenario::Discover, HttpScenario::Silent]);
    let mut o = opts();
    o.ping = Some(PingOptions {
        every: Duration::from_millis(50),
        timeout: Duration::from_millis(200),
    });
    let report = attempt_once(&target(&server), &o).await;
    assert_eq!(
        error_of(&report),
        "connected, then closed after 0 s (server/discover timed out after 200 ms)"
    );
}

#[test]
fn targets_take_http_urls_only_and_never_show_secrets() {
    let err = HttpTarget::new("ws://h/x?token=abc-secret", None).expect_err("not http");
    assert_eq!(
        err.to_string(),
        "not an HTTP URL (http:// or https://): ws://h/x"
    );
    let t = HttpTarget::new(
        "https://u:pw-secret@h/mcp?token=q-secret",
        Some(TOKEN.into()),
    )
    .expect("t");
    assert_eq!(t.describe(&Redactor::new()), "https://u@h/mcp");
    let secrets = t.secrets();
    for s in [TOKEN, "q-secret", "pw-secret"] {
        assert!(secrets.iter().any(|x| x == s), "{s}");
    }
}

/// Re-checks go on while the host waits for `tools/list`: a server that stops answering then is
/// seen at the next re-check, and the listing is what it died on.
#[tokio::test]
async fn a_server_that_fails_while_listing_is_seen_and_the_listing_is_what_it_died_on() {
    let server = HttpServer::script_with_tools(
        vec![HttpScenario::Discover, HttpScenario::Status(503)],
        HttpTools::Silent,
    );
    let mut o = opts();
    o.watch = Duration::from_secs(30);
    o.ping = Some(PingOptions {
        every: Duration::from_millis(100),
        timeout: Duration::from_millis(500),
    });
    let started = Instant::now();
    let report = attempt_once(&target(&server), &o).await;
    assert!(started.elapsed() < Duration::from_secs(15), "{report:?}");
    assert!(
        matches!(report.outcome, Some(Outcome::Connected { .. })),
        "{report:?}"
    );
    let opening = report.opening.expect("an opening");
    let pending = opening.pending_at_close.expect("tools/list pending");
    assert_eq!(pending.method, "tools/list");
    assert_eq!(opening.exchanges[0].result, ExchangeResult::ConnectionEnded);
}
