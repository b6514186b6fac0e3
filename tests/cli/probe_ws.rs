//! `probe --url` and config entries with a url, through the real binary, against the
//! in-library test servers (`mcpl_doctor::testing`) on 127.0.0.1: WebSocket outcomes in the
//! host's words, lifetimes and backoff within tolerances, the token where the host puts it and
//! in no output at all; HTTP entries' reachability, time to answer and status.

use std::process::{Output, Stdio};

use mcpl_doctor::testing::{HttpScenario, HttpServer, HttpTools, WsScenario, WsServer};
use serde_json::Value;

use crate::support::{bin, f, json, launches, stderr, stdout};

/// Tolerance between what the test server did and what the probe measured (debug build, shared
/// 2-core machine).
// Generous: these tests must not flake on a busy 2-core machine; the accuracy goals (a few ms)
// are measured by scripts/bench/probe.sh, not here.
const TOLERANCE_MS: f64 = 400.0;

/// How much shorter than the server's own timer a lifetime may be measured: the probe notes
/// its connection once its `notifications/initialized` is sent, the server starts its timer on
/// reading it, and on a loaded machine the probe may run a scheduler's slice later (seen: 73 ms
/// of an 80 ms timer under two busy loops on 2 cores).
const EARLY_MS: f64 = 50.0;

/// A token no output may ever show.
const TOKEN: &str = "ws-tok-5f3a9c1e77";

fn probe(args: &[&str]) -> Output {
    bin()
        .arg("probe")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn assert_no_token(out: &Output, token: &str) {
    let (o, e) = (stdout(out), stderr(out));
    assert!(!o.contains(token), "the token is on stdout:\n{o}");
    assert!(!e.contains(token), "the token is on stderr:\n{e}");
    let encoded: String = url::form_urlencoded::byte_serialize(token.as_bytes()).collect();
    assert!(!o.contains(&encoded) && !e.contains(&encoded));
}

#[test]
fn a_close_after_the_handshake_is_short_lived_with_its_code_and_backs_off_to_the_alert() {
    let server = WsServer::start(WsScenario::close_after(80, 4000, "idle"));
    let url = server.url("/mcpl");
    let out = probe(&[
        "--url",
        &url,
        "--token",
        TOKEN,
        "--interval",
        "20ms",
        "--until-down",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_token(&out, TOKEN);
    let doc = json(&out);
    assert_eq!(doc["target"], url.as_str());
    assert_eq!(doc["protocol"], "legacy");
    assert_eq!(doc["finish"]["reason"], "until-down");
    let ls = launches(&doc);
    assert_eq!(ls.len(), 6);
    let error = "connected, then closed after 0 s (close 4000: idle)";
    let nominal: Vec<f64> = ls.iter().map(|l| f(&l["wait"]["nominal_ms"])).collect();
    assert_eq!(nominal, vec![20.0, 40.0, 80.0, 160.0, 320.0, 640.0]);
    for (i, l) in ls.iter().enumerate() {
        assert_eq!(l["attempt"], i as u64);
        assert_eq!(l["pid"], Value::Null);
        assert_eq!(l["counted"], "short-lived");
        assert_eq!(l["error"], error);
        assert_eq!(l["outcome"]["ended"]["kind"], "ws-close");
        assert_eq!(l["outcome"]["ended"]["code"], 4000);
        assert_eq!(l["outcome"]["ended"]["reason"], "idle");
        assert_eq!(l["server"]["name"], "test-ws");
        assert_eq!(l["server"]["family"], "mcpl");
        let lived = f(&l["outcome"]["lived_ms"]);
        assert!(
            (80.0 - EARLY_MS..80.0 + TOLERANCE_MS).contains(&lived),
            "launch {i}: lived {lived} ms, the server closed after 80 ms"
        );
        let wait = &l["wait"];
        assert!(f(&wait["ms"]) >= f(&wait["min_ms"]) && f(&wait["ms"]) <= f(&wait["max_ms"]));
        if i < 5 {
            assert_eq!(l["alert"], Value::Null);
        } else {
            assert_eq!(
                l["alert"],
                format!("MCPL server down (attempt 5): {error}").as_str()
            );
        }
    }
    // Each relaunch came the chosen wait after the previous end.
    for pair in ls.windows(2) {
        let wait = f(&pair[0]["wait"]["ms"]);
        let gap = f(&pair[1]["launched_at_ms"]) - f(&pair[0]["ended_at_ms"]);
        assert!(
            gap >= wait - 1.0 && gap - wait < TOLERANCE_MS,
            "relaunch {gap} ms after the end, wait {wait} ms"
        );
    }
    // The same seed gives the same waits.
    let again = json(&probe(&[
        "--url",
        &url,
        "--token",
        TOKEN,
        "--interval",
        "20ms",
        "--launches",
        "3",
        "--seed",
        "5",
        "--json",
    ]));
    for (a, b) in launches(&again).iter().zip(ls) {
        assert_eq!(a["wait"]["ms"], b["wait"]["ms"]);
    }
    // The token arrived in the query on every connection, exactly as given.
    let tokens = server.tokens();
    assert_eq!(tokens.len(), 9);
    assert!(
        tokens.iter().all(|t| t.as_deref() == Some(TOKEN)),
        "{tokens:?}"
    );
    // The probe sent the legacy handshake, one message per text frame.
    let first = &server.connections()[0];
    let init: Value = serde_json::from_str(&first.received[0]).expect("JSON");
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["params"]["protocolVersion"], "2024-11-05");
    assert!(first
        .received
        .iter()
        .any(|t| t.contains("notifications/initialized")));
}

#[test]
fn the_table_tells_the_close_code_and_reason() {
    let server = WsServer::start(WsScenario::close_after(30, 4000, "idle"));
    let url = server.url("/mcpl");
    let out = probe(&["--url", &url, "--launches", "2", "--interval", "20ms"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "Probed {url} (legacy handshake) under rule lasting"
        )),
        "{text}"
    );
    assert!(text.contains("close 4000: idle"), "{text}");
    assert!(text.contains("Server: test-ws 1.0.0: MCPL 0.5"), "{text}");
    assert!(
        text.contains("connected, then closed ")
            && text.contains("after its handshake (close 4000: idle)")
            && text.contains("short-lived every time"),
        "{text}"
    );
}

#[test]
fn an_upgrade_refused_with_401_fails_each_attempt_and_exits_1() {
    let server = WsServer::start(WsScenario::RefuseUpgrade { status: 401 });
    let url = server.url("/mcpl");
    let out = probe(&[
        "--url",
        &url,
        "--token",
        TOKEN,
        "--launches",
        "2",
        "--interval",
        "20ms",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_token(&out, TOKEN);
    let doc = json(&out);
    for l in launches(&doc) {
        assert_eq!(l["error"], "upgrade refused: HTTP 401 Unauthorized");
        assert_eq!(l["counted"], "failure");
        assert_eq!(l["handshake_ms"], Value::Null);
    }
    assert_eq!(doc["verdict"]["pattern"], "never-connected");
    let out = probe(&["--url", &url, "--launches", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("upgrade refused: HTTP 401 Unauthorized"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_server_that_accepts_tcp_and_never_answers_hits_the_open_timeout() {
    let server = WsServer::start(WsScenario::Silent);
    let url = server.url("/mcpl");
    let t = std::time::Instant::now();
    let out = probe(&[
        "--url",
        &url,
        "--open-timeout",
        "300ms",
        "--launches",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let l = &launches(&doc)[0];
    assert_eq!(l["error"], "open timed out after 300 ms");
    let took = f(&l["ended_at_ms"]) - f(&l["launched_at_ms"]);
    assert!(
        (300.0..300.0 + TOLERANCE_MS).contains(&took),
        "the attempt took {took} ms"
    );
    // A hang guard only: the probe's own clock above is the measure.
    assert!(t.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn a_connection_dropped_without_a_close_frame_says_so() {
    for scenario in [WsScenario::drop_after(50), WsScenario::reset_after(50)] {
        let server = WsServer::start(scenario);
        let out = probe(&["--url", &server.url("/"), "--launches", "1", "--json"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let doc = json(&out);
        let l = &launches(&doc)[0];
        assert_eq!(l["outcome"]["ended"]["kind"], "connection-reset");
        assert_eq!(
            l["error"],
            "connected, then closed after 0 s (connection dropped without a close frame)"
        );
        let lived = f(&l["outcome"]["lived_ms"]);
        assert!(
            (50.0 - EARLY_MS..50.0 + TOLERANCE_MS).contains(&lived),
            "{lived}"
        );
    }
}

#[test]
fn the_token_replaces_one_in_the_url_and_is_in_no_output_format() {
    let server = WsServer::start(WsScenario::close_after(20, 4001, "bye"));
    let url = server.url("/mcpl?token=old-token-value&x=1");
    for format in [&[][..], &["--json"][..], &["--events"][..]] {
        let mut args = vec![
            "--url",
            url.as_str(),
            "--token",
            TOKEN,
            "--launches",
            "2",
            "--interval",
            "20ms",
        ];
        args.extend_from_slice(format);
        let out = probe(&args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_no_token(&out, TOKEN);
        assert_no_token(&out, "old-token-value");
        // The URL is shown, without its token.
        let o = stdout(&out);
        assert!(
            o.contains(&server.url("/mcpl?x=1")),
            "the URL without its token is not shown:\n{o}"
        );
    }
    let seen = server.connections();
    assert_eq!(seen.len(), 6);
    for c in seen {
        assert_eq!(c.token.as_deref(), Some(TOKEN));
        assert_eq!(
            c.path_and_query.as_deref(),
            Some(format!("/mcpl?token={TOKEN}&x=1").as_str())
        );
    }
}

#[test]
fn a_bad_url_is_one_line_and_exit_2() {
    for (url, want) in [
        (
            "ftp://h/x?token=abc-secret-1",
            "error: not a ws://, wss://, http:// or https:// URL: ftp://h/x\n",
        ),
        (
            "not a url",
            "error: not a ws://, wss://, http:// or https:// URL: \"not a url\" (relative URL without a base)\n",
        ),
        // What was typed is shown, its secrets masked, with the parser's reason.
        (
            "notaurl?token=abc-secret-2",
            "error: not a ws://, wss://, http:// or https:// URL: \"notaurl?token=…\" (relative URL without a base)\n",
        ),
    ] {
        let out = probe(&["--url", url]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert_eq!(stderr(&out), want);
    }
    // --url with a command, or with --config, is a usage error.
    let out = probe(&["--url", "ws://127.0.0.1:9/", "--", "node", "x.mjs"]);
    assert_eq!(out.status.code(), Some(2));
    let out = probe(&["--url", "ws://127.0.0.1:9/", "--config", "x.json", "--all"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A config file with one entry `api` whose url is `url` and whose token is `token`.
fn url_config(url: &str, token: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("mcpl-servers.json");
    let config = serde_json::json!({
        "mcplServers": {
            "api": {"url": url, "token": token, "reconnect": true, "reconnectIntervalMs": 25}
        }
    });
    std::fs::write(&file, config.to_string()).expect("write config");
    (dir, file)
}

#[test]
fn a_websocket_entry_takes_its_token_and_timings_from_the_config() {
    let server = WsServer::start(WsScenario::close_after(20, 4000, "idle"));
    let (_dir, file) = url_config(&server.url("/ws"), TOKEN);
    let out = bin()
        .args(["probe", "--launches", "2", "--json", "--config"])
        .arg(&file)
        .args(["--server", "api"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_token(&out, TOKEN);
    let doc = json(&out);
    assert_eq!(doc["timings"]["interval_ms"], 25.0);
    assert_eq!(launches(&doc)[0]["wait"]["nominal_ms"], 25.0);
    assert_eq!(
        launches(&doc)[0]["error"],
        "connected, then closed after 0 s (close 4000: idle)"
    );
    assert!(server.tokens().iter().all(|t| t.as_deref() == Some(TOKEN)));
}

const HTTP_TOKEN: &str = "http-tok-9b2e44d0";

#[test]
fn an_http_entry_reports_reachability_and_time_to_answer() {
    let server = HttpServer::start(HttpScenario::Discover);
    let (_dir, file) = url_config(&server.url("/mcp"), HTTP_TOKEN);
    let out = bin()
        .args([
            "probe",
            "--watch",
            "300ms",
            "--ping-every",
            "100ms",
            "--json",
            "--config",
        ])
        .arg(&file)
        .args(["--server", "api"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_no_token(&out, HTTP_TOKEN);
    let doc = json(&out);
    assert_eq!(doc["protocol"], "modern");
    assert_eq!(doc["target"], server.url("/mcp").as_str());
    let l = &launches(&doc)[0];
    assert_eq!(l["outcome"]["kind"], "still-up");
    assert_eq!(l["server"]["protocol_version"], "2026-07-28");
    let answer = f(&l["handshake_ms"]);
    assert!(answer > 0.0 && answer < 1000.0, "{answer}");
    // Re-checked while watching: about every 100 ms for 300 ms.
    assert!(l["pings"]["answered"].as_u64().unwrap_or(0) >= 1, "{l}");
    let requests = server.requests();
    assert!(requests.len() >= 2);
    for r in &requests {
        assert_eq!(r.method, "POST");
        let bearer = format!("Bearer {HTTP_TOKEN}");
        assert_eq!(r.header("authorization"), Some(bearer.as_str()));
    }
    // The discover handshake and its re-checks, and the host's one tools/list (2 tools).
    let listings = requests
        .iter()
        .filter(|r| r.header("mcp-method") == Some("tools/list"))
        .count();
    assert_eq!(listings, 1, "{requests:?}");
    assert_eq!(requests[0].header("mcp-method"), Some("server/discover"));
    assert_eq!(l["opening"]["tool_count"], 2, "{l}");
    assert_eq!(doc["opening"]["findings"], serde_json::json!([]));
    let out = bin()
        .args(["probe", "--watch", "200ms", "--config"])
        .arg(&file)
        .args(["--server", "api"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("(modern handshake)"), "{text}");
    assert!(text.contains("still up at --watch"), "{text}");
}

#[test]
fn an_http_503_is_a_failed_attempt_with_its_status() {
    let server = HttpServer::start(HttpScenario::Status(503));
    let url = server.url("/mcp");
    let out = probe(&[
        "--url",
        &url,
        "--token",
        HTTP_TOKEN,
        "--launches",
        "2",
        "--interval",
        "20ms",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_token(&out, HTTP_TOKEN);
    let doc = json(&out);
    for l in launches(&doc) {
        let error = l["error"].as_str().expect("an error");
        assert!(
            error.starts_with("server/discover: HTTP 503 Service Unavailable"),
            "{error}"
        );
        assert_eq!(l["counted"], "failure");
    }
    assert_eq!(doc["verdict"]["pattern"], "never-connected");
    // The alert wording is the modern engine's.
    let out = probe(&[
        "--url",
        &url,
        "--launches",
        "6",
        "--interval",
        "5ms",
        "--json",
    ]);
    let doc = json(&out);
    let alert = launches(&doc)[5]["alert"].as_str().expect("an alert");
    assert!(
        alert.starts_with("MCP server down (attempt 5): server/discover: HTTP 503"),
        "{alert}"
    );
}

/// An HTTP server that answers `server/discover` but fails `tools/list` is not "all clear":
/// the listing's failure is a finding (exit 1), named in the notes and in the verdict.
#[test]
fn an_http_server_whose_tools_list_fails_is_a_finding() {
    let server =
        HttpServer::script_with_tools(vec![HttpScenario::Discover], HttpTools::Status(500));
    let url = server.url("/mcp");
    let args = [
        "probe",
        "--watch",
        "300ms",
        "--ping-every",
        "100ms",
        "--url",
        &url,
    ];
    let out = bin()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "tools (tools-list-failed): tools/list failed on launch 1 (tools/list: HTTP 500"
        ),
        "{text}"
    );
    let verdict = &text[text.rfind("Verdict:").expect("a verdict")..];
    assert!(verdict.contains("tools-list-failed"), "{verdict}");
    let out = bin()
        .args(args)
        .arg("--json")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["opening"]["findings"][0]["id"], "tools-list-failed");
    assert_eq!(launches(&doc)[0]["outcome"]["kind"], "still-up");
}

/// With `--all`, a server that stayed up but has an opening finding says so in the summary and
/// gets its own section, so the exit status 1 has its reason on screen.
#[test]
fn all_names_an_opening_finding_of_a_server_that_stayed_up() {
    let server =
        HttpServer::script_with_tools(vec![HttpScenario::Discover], HttpTools::Status(500));
    let (_dir, file) = url_config(&server.url("/mcp"), HTTP_TOKEN);
    let out = bin()
        .args([
            "probe",
            "--all",
            "--watch",
            "300ms",
            "--ping-every",
            "100ms",
            "--config",
        ])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_no_token(&out, HTTP_TOKEN);
    let text = stdout(&out);
    assert!(text.contains("stayed up, but tools-list-failed"), "{text}");
    assert!(text.contains("== api (http,"), "{text}");
    assert!(
        text.contains("1 server stayed up (1 with a finding about its opening, below)"),
        "{text}"
    );
    assert!(
        text.contains("tools (tools-list-failed): tools/list failed on launch 1"),
        "{text}"
    );
    let out = bin()
        .args([
            "probe",
            "--all",
            "--json",
            "--watch",
            "300ms",
            "--ping-every",
            "100ms",
        ])
        .arg("--config")
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["summary"]["stayed_up"], 1);
    assert_eq!(doc["summary"]["stayed_up_with_findings"], 1);
}
