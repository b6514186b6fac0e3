//! The ladder a host climbs to a remote server, in its own words (issue 28 items 3 and 4): each
//! rung a dial falls from (refused, name resolution, a blocked port, a wrong path, an HTML page,
//! not JSON-RPC, 5xx) and each auth case (a refused key, OAuth with and without registration,
//! invalid_token, insufficient_scope, a 403 with no challenge) gets its own diagnosis id and a
//! next step in the URL's terms, never stdio words. Servers: fixtures/servers/http_rungs.py and
//! http_eras.py (a healthy look-alike for each).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::probe_http_eras::EraServer;
use crate::support::{bin, fixture, json, stderr};

pub(crate) struct RungServer {
    child: Child,
    port: u16,
}

impl RungServer {
    pub(crate) fn start(mode: &[&str]) -> RungServer {
        let mut child = Command::new("python3")
            .arg(fixture("servers/http_rungs.py"))
            .arg("--mode")
            .args(mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("a line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .expect("PORT n");
        RungServer { child, port }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for RungServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// The probe's diagnoses of one launch against `url`.
fn why(url: &str, extra: &[&str]) -> (Vec<Value>, String) {
    let out = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--open-timeout",
            "3s",
            "--url",
            url,
            "--json",
        ])
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let doc = json(&out);
    let _ = stderr(&out);
    let d = doc["diagnoses"].as_array().cloned().unwrap_or_default();
    (d, doc["diagnoses"].to_string())
}

/// The first diagnosis is `id`, its next step says each of `says`, and nothing speaks of stdio.
fn assert_rung(url: &str, extra: &[&str], id: &str, says: &[&str]) {
    let (d, text) = why(url, extra);
    assert_eq!(
        d.first().map(|x| x["id"].clone()),
        Some(Value::from(id)),
        "{text}"
    );
    let next = d[0]["next_step"].as_str().unwrap_or_default();
    for s in says {
        assert!(next.contains(s), "{id}: {s:?} in {next}");
    }
    for word in ["stderr", "log file", "command", "stdout"] {
        assert!(!text.contains(word), "{id} speaks of {word}: {text}");
    }
}

#[test]
fn a_refused_port_says_nothing_listens_there() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let url = format!("http://127.0.0.1:{port}/mcp");
    assert_rung(
        &url,
        &[],
        "connection-refused",
        &[&format!("nothing listens on 127.0.0.1:{port}")],
    );
}

#[test]
fn a_name_that_does_not_resolve_is_named() {
    assert_rung(
        "http://mcpl-doctor-no-such-host.invalid/mcp",
        &[],
        "name-not-resolved",
        &["mcpl-doctor-no-such-host.invalid"],
    );
}

#[test]
fn a_port_node_refuses_is_named_even_when_nothing_else_is_wrong() {
    let (d, text) = why("http://127.0.0.1:6666/mcp", &[]);
    assert!(
        d.iter().any(|x| x["id"] == "blocked-port"),
        "6666 is on Fetch's list: {text}"
    );
    assert!(text.contains("bad port"), "{text}");
}

#[test]
fn a_wrong_path_names_the_path_that_answers_and_its_era() {
    let server = EraServer::start(&["--mode", "streamable"]);
    let wrong = server.url("/api");
    let right = server.url("/mcp");
    assert_rung(&wrong, &[], "wrong-path", &[&right, "streamable-http"]);
    // The healthy look-alike: the same server at its path has no cause.
    let (d, text) = why(&right, &["--watch", "1s"]);
    assert!(d.is_empty(), "{text}");
}

#[test]
fn html_json_and_5xx_each_have_their_own_id() {
    let html = RungServer::start(&["html"]);
    assert_rung(&html.url(), &[], "html-page", &["HTML page"]);
    let other = RungServer::start(&["badjson"]);
    assert_rung(
        &other.url(),
        &[],
        "not-json-rpc",
        &["not a JSON-RPC message"],
    );
    let failing = RungServer::start(&["status", "503"]);
    assert_rung(&failing.url(), &[], "server-error", &["HTTP 503"]);
}

#[test]
fn the_auth_ladder_names_each_case() {
    let bare = RungServer::start(&["bare401"]);
    assert_rung(&bare.url(), &[], "key-refused", &["no OAuth", "header"]);
    assert_rung(
        &bare.url(),
        &["--header", "X-API-Key: h28-wrong-key-value"],
        "key-refused",
        &["X-API-Key"],
    );
    let oauth = RungServer::start(&["oauth401"]);
    assert_rung(
        &oauth.url(),
        &[],
        "auth-unsupported",
        &["no registration endpoint", "client id"],
    );
    // The look-alike whose authorization server registers clients: a host can sign in.
    let dcr = RungServer::start(&["oauthdcr"]);
    assert_rung(
        &dcr.url(),
        &[],
        "auth-required",
        &["signs in in the browser", "--header"],
    );
    let invalid = RungServer::start(&["invalid401"]);
    assert_rung(&invalid.url(), &[], "token-rejected", &["renew"]);
    let scope = RungServer::start(&["scope403"]);
    assert_rung(&scope.url(), &[], "insufficient-scope", &["`admin`"]);
    let waf = RungServer::start(&["waf403"]);
    assert_rung(&waf.url(), &[], "blocked-by-proxy", &["WAF"]);
}

#[test]
fn a_header_value_never_shows_in_the_auth_evidence() {
    let bare = RungServer::start(&["bare401"]);
    let (_, text) = why(
        &bare.url(),
        &["--header", "Authorization: Bearer h28-sent-token-9931"],
    );
    assert!(text.contains("Authorization"), "{text}");
    assert!(
        !text.contains("h28-sent-token-9931") && !text.contains("9931"),
        "{text}"
    );
}

#[test]
fn a_dial_nobody_answers_is_a_connect_timeout() {
    // A listener whose accept queue is full drops the SYN, as a firewall does.
    let hole = RungServer::start(&["blackhole"]);
    let started = std::time::Instant::now();
    assert_rung(
        &hole.url(),
        &[],
        "connect-timeout",
        &[
            &format!("no connection to 127.0.0.1:{}", hole.port),
            "HTTPS_PROXY",
        ],
    );
    // Bounded by the dials' timeouts (detection, attempt, look), not by TCP's own minutes.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

#[test]
fn a_server_that_accepts_and_never_answers_is_no_response_not_a_connect_timeout() {
    // The fixture reads each request and never answers: the dial itself succeeds.
    let silent = RungServer::start(&["silent"]);
    let started = std::time::Instant::now();
    assert_rung(
        &silent.url(),
        &["--handshake-timeout", "3s"],
        "no-response",
        &[
            &format!("127.0.0.1:{} accepted the connection", silent.port),
            &silent.url(),
            "curl -v",
        ],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}
