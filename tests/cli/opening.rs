//! `probe` plays the host's session opening after the handshake (featureSets/update, tools/list
//! paging, subscriptions/listen, channels) against the real fixture servers, and reports what
//! each connection did: what it died on, tool counts, the policy exchange, channel findings.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::support::{assert_all_gone, bin, fixture, json, launches, probe, stdout, FixtureLog};

fn methods(opening: &Value) -> Vec<String> {
    opening["exchanges"]
        .as_array()
        .expect("exchanges")
        .iter()
        .map(|e| e["method"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_server_that_crashes_on_feature_sets_update_is_no_all_clear() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &["--launches", "2", "--interval", "100ms", "--json"],
        &["--crash-on", "featureSets/update"],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "a crash on the host's second message is a finding"
    );
    let doc = json(&out);
    assert_ne!(doc["verdict"]["pattern"], "stayed-up");
    for l in launches(&doc) {
        let o = &l["opening"];
        assert_eq!(o["pending_at_close"]["method"], "featureSets/update", "{o}");
        assert_eq!(o["exchanges"][0]["result"]["kind"], "connection-ended");
        assert_eq!(o["policy"]["settled"], false);
        // The lifetime is still measured from the handshake.
        assert!(l["connected_ms"].as_f64().is_some(), "{l}");
        assert_eq!(l["outcome"]["kind"], "connected-then-closed");
    }
    let s = &doc["opening"];
    assert_eq!(s["died_on"].as_array().map(Vec::len), Some(2), "{s}");
    assert_eq!(s["died_on"][0]["method"], "featureSets/update");
    assert_eq!(s["unsettled_launches"], serde_json::json!([1, 2]));
    // The predictions replay an exchange that never settles: no reconnect clears the status line.
    assert!(
        s["settle_ms_for_predictions"]
            .as_f64()
            .is_some_and(|ms| ms >= 100.0),
        "{s}"
    );
    let lasting = doc["verdict"]["predictions"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["rule"] == "lasting"))
        .expect("a lasting prediction");
    assert_eq!(lasting["status_pairs_per_day"], 0.0, "{lasting}");
    assert_all_gone(&log.pids());
}

#[test]
fn a_server_that_crashes_on_tools_list_says_so_in_the_report() {
    let log = FixtureLog::new();
    let out = probe(&log, &["--launches", "1"], &["--crash-on", "tools/list"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("after the host sent `tools/list` (no answer)"),
        "{text}"
    );
    assert!(text.contains("✗ tools/list"), "{text}");
    assert!(!text.contains("stayed up"), "{text}");
    // The policy exchange settled before the crash: the launch is not "unsettled".
    assert!(!text.contains("never settled"), "{text}");
    assert_all_gone(&log.pids());
}

#[test]
fn a_paged_tool_list_is_followed_to_its_end() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &["--launches", "1", "--watch", "300ms", "--json"],
        &["--tools", "5", "--page-size", "2"],
    );
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out);
    let o = &launches(&doc)[0]["opening"];
    assert_eq!(o["tool_count"], 5, "{o}");
    assert_eq!(o["tool_pages"], 3);
    assert_eq!(
        methods(o),
        [
            "featureSets/update",
            "tools/list",
            "tools/list",
            "tools/list"
        ]
    );
    for (i, e) in o["exchanges"]
        .as_array()
        .expect("exchanges")
        .iter()
        .enumerate()
    {
        assert_eq!(
            e["id"],
            i as u64 + 1,
            "the host numbers its requests from 1"
        );
        assert_eq!(e["result"]["kind"], "answered");
        assert!(e["round_trip_ms"].as_f64().is_some_and(|ms| ms >= 0.0));
    }
    assert_eq!(o["feature_sets"], serde_json::json!(["chat"]));
    assert_eq!(o["policy"]["settled"], true);
    assert!(o["policy"]["settle_ms"].as_f64().is_some());
    assert_eq!(o["pending_at_close"], Value::Null);
    assert_eq!(
        doc["opening"]["settle_ms_for_predictions"],
        o["policy"]["settle_ms"]
    );
    // The server saw the cursors.
    let cursors: Vec<Value> = log
        .events("request")
        .into_iter()
        .filter(|e| e["method"] == "tools/list")
        .map(|e| e["cursor"].clone())
        .collect();
    assert_eq!(cursors, [Value::Null, "2".into(), "4".into()]);
    assert_all_gone(&log.pids());
}

#[test]
fn content_before_registration_is_a_finding_with_its_evidence() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &["--launches", "1", "--watch", "300ms", "--json"],
        &["--channels", "room-1", "--content-before-register"],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "a finding, though the server stayed up"
    );
    let doc = json(&out);
    let o = &launches(&doc)[0]["opening"];
    assert_eq!(o["channels"]["granted"], true);
    assert_eq!(
        o["channels"]["registrations"][0]["channel_ids"],
        serde_json::json!(["room-1"])
    );
    assert_eq!(
        o["channels"]["content_before_registration"][0]["message_id"],
        "early-1"
    );
    let f = &doc["opening"]["findings"][0];
    assert_eq!(f["id"], "content-before-registration", "{f}");
    assert_eq!(f["evidence"][0]["launch"], 1);
    assert!(f["text"].as_str().unwrap_or_default().contains("room-1"));
    // The host answered the server's requests as a host that granted channels does.
    let answered = log.events("host-answered");
    assert!(
        answered.len() >= 2 && answered.iter().all(|e| e["ok"] == true),
        "{answered:?}"
    );
    assert_all_gone(&log.pids());
}

#[test]
fn handshake_only_stops_talking_after_the_handshake() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &[
            "--launches",
            "1",
            "--watch",
            "300ms",
            "--handshake-only",
            "--json",
        ],
        &["--crash-on", "tools/list"],
    );
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out);
    assert_eq!(launches(&doc)[0]["opening"], Value::Null);
    assert!(log
        .events("request")
        .iter()
        .all(|e| e["method"] == "initialize"));
    assert_all_gone(&log.pids());
}

#[test]
fn a_modern_stdio_server_gets_tools_list_and_its_subscription() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &[
            "--protocol",
            "modern",
            "--launches",
            "1",
            "--watch",
            "300ms",
            "--json",
        ],
        &["--protocol", "modern", "--list-changed", "--tools", "3"],
    );
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out);
    let o = &launches(&doc)[0]["opening"];
    assert_eq!(methods(o), ["tools/list", "subscriptions/listen"], "{o}");
    assert_eq!(o["tool_count"], 3);
    assert_eq!(
        o["exchanges"][1]["result"]["kind"], "answered",
        "acknowledged"
    );
    assert_eq!(
        o["policy"],
        Value::Null,
        "no policy exchange on the modern engine"
    );
    assert_all_gone(&log.pids());
}

#[test]
fn a_tool_list_that_changes_between_launches_is_worth_a_line() {
    let log = FixtureLog::new();
    let out = probe(
        &log,
        &["--launches", "2", "--interval", "100ms", "--json"],
        &["--tools-vary", "--exit-after-handshake", "200"],
    );
    let doc = json(&out);
    let differ = &doc["opening"]["tools_differ"];
    assert_eq!(differ.as_array().map(Vec::len), Some(2), "{differ}");
    assert_eq!(differ[1]["added"].as_array().map(Vec::len), Some(1));
    assert_eq!(differ[1]["missing"].as_array().map(Vec::len), Some(1));
    assert_all_gone(&log.pids());
}

/// The WebSocket fixture, listening on a free port; killed on drop.
struct WsFixture {
    child: Child,
    port: u16,
}

impl WsFixture {
    fn start(args: &[&str]) -> WsFixture {
        let mut child = Command::new("node")
            .arg(fixture("servers/ws-server.mjs"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the WebSocket fixture (Node.js 20 or newer must be on PATH)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the fixture says where it listens");
        let port = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
        WsFixture { child, port }
    }
}

impl Drop for WsFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_websocket_server_that_registers_its_channels_only_once_is_a_finding() {
    let server = WsFixture::start(&[
        "--channels",
        "room-1",
        "--register",
        "first",
        "--close-after",
        "250",
    ]);
    let url = format!("ws://127.0.0.1:{}/mcpl", server.port);
    let out = bin()
        .args([
            "probe",
            "--url",
            &url,
            "--launches",
            "2",
            "--interval",
            "100ms",
            "--events",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(crate::support::event_line)
        .collect();
    let ended: Vec<&Value> = lines.iter().filter(|l| l["event"] == "ended").collect();
    assert_eq!(ended.len(), 2);
    assert_eq!(
        ended[0]["opening"]["channels"]["registrations"][0]["channel_ids"],
        serde_json::json!(["room-1"])
    );
    assert_eq!(
        ended[1]["opening"]["channels"]["registrations"],
        serde_json::json!([])
    );
    let report = lines.last().expect("a report line");
    assert_eq!(report["event"], "report");
    let f = &report["opening"]["findings"][0];
    assert_eq!(f["id"], "channels-registered-once", "{f}");
    assert_eq!(f["evidence"][0]["launch"], 1);
    assert_eq!(
        f["evidence"][0]["registered"],
        serde_json::json!(["room-1"])
    );
    assert_eq!(f["evidence"][1]["launch"], 2);
    assert_eq!(f["evidence"][1]["registered"], serde_json::json!([]));
}
