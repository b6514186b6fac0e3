//! The HTTP eras servers speak today (issue 18, item 1): a Python fixture server
//! (fixtures/servers/http_eras.py) speaking Streamable HTTP with JSON or SSE answers, one that
//! forgets its sessions (404 on a stale session), and the legacy HTTP+SSE transport; each probed
//! over `--url` as connected, with its tools listed and its era and version reported.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::support::{assert_valid, bin, fixture, json, launches, stderr};

/// A fixture server; it exits when its stdin closes (dropped with the guard) or after 60 s.
pub(crate) struct EraServer {
    child: Child,
    port: u16,
}

impl EraServer {
    pub(crate) fn start(args: &[&str]) -> EraServer {
        EraServer::start_logging(args, Stdio::inherit())
    }

    /// The same, its stderr (what it logs) to `stderr`.
    fn start_logging(args: &[&str], stderr: Stdio) -> EraServer {
        let mut child = Command::new("python3")
            .arg(fixture("servers/http_eras.py"))
            .args(args)
            .env("HTTP_ERAS_LIFETIME_S", "60")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("python3 runs");
        let out = child.stdout.take().expect("stdout piped");
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).expect("a line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .expect("PORT n");
        EraServer { child, port }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for EraServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

fn probe_json(args: &[&str]) -> serde_json::Value {
    let out = bin()
        .args(["probe"])
        .args(args)
        .arg("--json")
        .output()
        .expect("runs");
    let doc = json(&out);
    assert_valid("probe", &doc);
    let _ = stderr(&out);
    doc
}

/// One launch watched `watch` long: connected, its server facts and its tools.
fn connected(url: &str, watch: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--url", url, "--launches", "1", "--watch", watch];
    args.extend_from_slice(extra);
    let doc = probe_json(&args);
    launches(&doc)[0].clone()
}

fn tool_count(launch: &serde_json::Value) -> usize {
    let text = launch.to_string();
    ["echo", "add", "sleep"]
        .iter()
        .filter(|t| text.contains(&format!("\"{t}\"")))
        .count()
}

#[test]
fn streamable_http_with_json_answers_connects_and_lists_its_tools() {
    let server = EraServer::start(&["--mode", "streamable"]);
    let launch = connected(&server.url("/mcp"), "1s", &[]);
    let text = launch.to_string();
    assert!(text.contains("\"era\":\"streamable-http\""), "{text}");
    assert!(
        text.contains("\"protocol_version\":\"2025-11-25\""),
        "{text}"
    );
    assert!(
        text.contains("still-up") || text.contains("still_up"),
        "{text}"
    );
    assert_eq!(tool_count(&launch), 3, "{text}");
}

#[test]
fn streamable_http_with_sse_answers_connects_and_lists_its_tools() {
    let server = EraServer::start(&["--mode", "streamable", "--answers", "sse"]);
    let launch = connected(&server.url("/mcp"), "1s", &[]);
    let text = launch.to_string();
    assert!(text.contains("\"era\":\"streamable-http\""), "{text}");
    assert_eq!(tool_count(&launch), 3, "{text}");
}

#[test]
fn a_404_on_a_stale_session_ends_the_connection() {
    let server = EraServer::start(&["--mode", "streamable", "--forget-after", "300"]);
    let launch = connected(
        &server.url("/mcp"),
        "10s",
        &["--ping-every", "200ms", "--ping-timeout", "2s"],
    );
    let text = launch.to_string();
    assert!(text.contains("no longer knows the session"), "{text}");
    assert!(!text.contains("still-up"), "{text}");
}

#[test]
fn the_legacy_http_sse_transport_connects_and_lists_its_tools() {
    let server = EraServer::start(&["--mode", "sse"]);
    let launch = connected(&server.url("/sse"), "1s", &[]);
    let text = launch.to_string();
    assert!(text.contains("\"era\":\"sse\""), "{text}");
    assert!(
        text.contains("\"protocol_version\":\"2024-11-05\""),
        "{text}"
    );
    assert_eq!(tool_count(&launch), 3, "{text}");
}

#[test]
fn transport_forces_an_era() {
    let server = EraServer::start(&["--mode", "sse"]);
    let launch = connected(&server.url("/sse"), "1s", &["--transport", "sse"]);
    assert!(launch.to_string().contains("\"era\":\"sse\""));
}

#[test]
fn the_get_stream_is_opened_after_initialize_and_reopened_with_last_event_id() {
    let log = tempfile::NamedTempFile::new().expect("a temp file");
    let server = EraServer::start_logging(
        &["--mode", "streamable", "--get-stream"],
        Stdio::from(log.reopen().expect("reopen")),
    );
    let launch = connected(&server.url("/mcp"), "2500ms", &[]);
    let get = launch["server"]["get_stream"].as_str().unwrap_or_default();
    assert!(get.starts_with("open"), "{launch}");
    assert!(get.contains("from the server"), "{launch}");
    assert!(get.contains("reopened"), "{launch}");
    assert!(
        launch.to_string().contains("still-up") || launch.to_string().contains("still_up"),
        "{launch}"
    );
    drop(server);
    let said = std::fs::read_to_string(log.path()).expect("the log");
    let gets: Vec<&str> = said.lines().filter(|l| l.starts_with("GET ")).collect();
    // (era detection's GET, without a session, comes first)
    let first = gets.iter().rposition(|l| *l == "GET last-event-id=-");
    let again = gets.iter().position(|l| *l == "GET last-event-id=g1");
    assert!(first.is_some() && again > first, "{said}");
}

#[test]
fn a_server_without_a_get_stream_answers_405_and_stays_connected() {
    let server = EraServer::start(&["--mode", "streamable"]);
    let launch = connected(&server.url("/mcp"), "1s", &[]);
    assert_eq!(
        launch["server"]["get_stream"], "not offered (HTTP 405 to the GET)",
        "{launch}"
    );
}
