//! Sessions and streams as hosts treat them (issue 28 item 5): a server that forgets its
//! sessions (a restart: 404 to a request with the session id) is `session-lost`, with what each
//! host does about it and the rule it is judged under; a GET stream answered 404 is
//! `get-stream-refused` (a server bug, never "the server restarted"), and the healthy 405 is a
//! note in `server.get_stream`, with no diagnosis. Each has a healthy look-alike. Server:
//! fixtures/servers/http_eras.py (`--forget-after`, `--get-404`, `--get-stream`).

use serde_json::Value;

use crate::probe_http_eras::EraServer;
use crate::support::{bin, json, launches, stderr};

/// The probe's JSON report of `launches` launches watched `watch` long against `url`.
fn probe(url: &str, launches: &str, watch: &str, extra: &[&str]) -> Value {
    let out = bin()
        .args([
            "probe",
            "--url",
            url,
            "--launches",
            launches,
            "--watch",
            watch,
            "--json",
        ])
        .args(extra)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    let doc = json(&out);
    let _ = stderr(&out);
    doc
}

fn ids(doc: &Value) -> Vec<String> {
    doc["diagnoses"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter_map(|x| x["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn diagnosis<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["diagnoses"]
        .as_array()
        .and_then(|d| d.iter().find(|x| x["id"] == id))
        .unwrap_or_else(|| panic!("no {id} in {}", doc["diagnoses"]))
}

#[test]
fn a_server_that_forgets_its_sessions_is_session_lost_with_each_hosts_answer() {
    let server = EraServer::start(&["--mode", "streamable", "--forget-after", "300"]);
    let doc = probe(
        &server.url("/mcp"),
        "1",
        "10s",
        &[
            "--ping-every",
            "200ms",
            "--ping-timeout",
            "5s",
            "--preset",
            "vscode-http",
        ],
    );
    assert_eq!(
        ids(&doc).first().map(String::as_str),
        Some("session-lost"),
        "{doc}"
    );
    let d = diagnosis(&doc, "session-lost");
    let next = d["next_step"].as_str().unwrap_or_default();
    for says in [
        "forgets its sessions",
        "VS Code starts a new session",
        "Claude Code",
        "vscode-http rule",
        "stateless",
    ] {
        assert!(next.contains(says), "{says:?} in {next}");
    }
    let evidence = d["evidence"].to_string();
    assert!(evidence.contains("HTTP 404 to ping"), "{evidence}");
    assert!(evidence.contains("after the handshake"), "{evidence}");
    for word in ["stderr", "log file", "command"] {
        assert!(!d.to_string().contains(word), "speaks of {word}: {d}");
    }
}

#[test]
fn the_same_server_keeping_its_sessions_has_no_cause() {
    let server = EraServer::start(&["--mode", "streamable"]);
    let doc = probe(
        &server.url("/mcp"),
        "1",
        "1500ms",
        &["--ping-every", "200ms", "--ping-timeout", "5s"],
    );
    assert!(ids(&doc).is_empty(), "{}", doc["diagnoses"]);
    // The healthy 405 is a note on the launch, not a diagnosis.
    assert_eq!(
        launches(&doc)[0]["server"]["get_stream"],
        "not offered (HTTP 405 to the GET)",
        "{doc}"
    );
}

#[test]
fn a_get_stream_answered_404_is_a_server_bug_not_a_restart() {
    let server = EraServer::start(&["--mode", "streamable", "--get-404"]);
    let doc = probe(
        &server.url("/mcp"),
        "1",
        "1500ms",
        &["--ping-every", "200ms", "--ping-timeout", "5s"],
    );
    let text = doc.to_string();
    assert!(
        text.contains("still-up") || text.contains("still_up"),
        "{text}"
    );
    assert_eq!(
        ids(&doc),
        vec!["get-stream-refused".to_string()],
        "{}",
        doc["diagnoses"]
    );
    let d = diagnosis(&doc, "get-stream-refused");
    let next = d["next_step"].as_str().unwrap_or_default();
    for says in ["not a restart", "405", "Claude Code 2.1.147", "VS Code"] {
        assert!(next.contains(says), "{says:?} in {next}");
    }
    assert!(!text.contains("no longer knows the session"), "{text}");
    let get = launches(&doc)[0]["server"]["get_stream"]
        .as_str()
        .unwrap_or_default();
    assert!(get.contains("HTTP 404"), "{get}");
}

#[test]
fn a_get_stream_that_was_open_and_then_404s_is_the_session_forgotten() {
    let server = EraServer::start(&[
        "--mode",
        "streamable",
        "--get-stream",
        "--forget-after",
        "600",
    ]);
    // No pings: only the GET stream's reopening meets the forgotten session.
    let doc = probe(&server.url("/mcp"), "1", "10s", &["--ping-every", "30s"]);
    assert_eq!(
        ids(&doc).first().map(String::as_str),
        Some("session-lost"),
        "{doc}"
    );
    let evidence = diagnosis(&doc, "session-lost")["evidence"].to_string();
    assert!(evidence.contains("reopening"), "{evidence}");
    assert!(
        !ids(&doc).contains(&"get-stream-refused".to_string()),
        "{doc}"
    );
}
