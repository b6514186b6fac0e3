use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant;

use super::*;
use crate::engine::probe::session::handshake::MODERN_VERSION;
use crate::engine::probe::{Launch, Protocol};
use crate::engine::redact::Redactor;

fn answer(caps: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05", "capabilities": caps}})
}

fn mcpl_caps() -> Value {
    json!({"tools": {}, "experimental": {"mcpl": {"version": "0.5", "pushEvents": true,
        "channels": {"register": true, "incoming": true, "publish": false},
        "contextHooks": {"beforeInference": true},
        "featureSets": {"chat": {"description": "chat", "uses": ["pushEvents"]}}}}})
}

fn driver(protocol: Protocol, stdio: bool, caps: Value, t0: Instant) -> OpeningDriver {
    let mut r = Redactor::new();
    r.add("s3cret");
    OpeningDriver::new(protocol, stdio, &answer(caps), t0, t0, Arc::new(r))
}

fn reply(id: i64, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A launch that stayed up with `opening`, as the summary reads it.
fn launch_with(number: u32, opening: Opening) -> Launch {
    let report = crate::engine::probe::AttemptReport {
        launched_at_ms: 0.0,
        launched_at_wall: std::time::SystemTime::UNIX_EPOCH,
        pid: None,
        connected_at_ms: Some(10.0),
        server: None,
        ended_at_ms: 500.0,
        outcome: Some(crate::engine::policy::Outcome::StillUp { lived_ms: 490.0 }),
        stopped: crate::engine::probe::Stopped::Closed,
        pings_sent: 0,
        pings_answered: 0,
        stderr: Default::default(),
        stdout: Default::default(),
        process: None,
        opening: Some(opening),
        escaped: 0,
        misbehaviour: Default::default(),
        remote: None,
        session: Default::default(),
    };
    crate::engine::probe::runner::launch_record(number, 0, report, None)
}

#[tokio::test(start_paused = true)]
async fn a_failed_listing_of_advertised_tools_is_a_finding() {
    let t0 = Instant::now();
    let error = json!({"jsonrpc": "2.0", "id": 1,
        "error": {"code": -32603, "message": "db down s3cret"}});
    let listing = |caps: Value, close: Close| {
        let mut d = driver(Protocol::Modern, false, caps, t0);
        let sent = d.start(t0);
        assert_eq!(sent[0]["method"], "tools/list");
        if close == Close::Watching {
            d.on_message(&error, t0);
        }
        d.finish(close, t0)
    };
    // Advertised, answered with an error: a finding that names the error (redacted).
    let failed = listing(json!({"tools": {}}), Close::Watching);
    let s = OpeningSummary::of(&[launch_with(1, failed.clone())]);
    assert_eq!(s.findings.len(), 1, "{s:?}");
    assert_eq!(s.findings[0].id, TOOLS_LIST_FAILED);
    assert!(
        s.findings[0]
            .text
            .starts_with("tools/list failed on launch 1 (error -32603: db down [redacted])"),
        "{}",
        s.findings[0].text
    );
    let s = OpeningSummary::of(&[launch_with(1, failed.clone()), launch_with(2, failed)]);
    assert!(
        s.findings[0].text.contains("on 2 launches, first launch 1")
            && s.findings[0].text.contains("on those connections"),
        "{}",
        s.findings[0].text
    );
    // Not advertised: the same error is no finding (a server without tools may refuse to
    // list them); cut short by the connection's end: what it died on, not this finding.
    for o in [
        listing(json!({}), Close::Watching),
        listing(json!({"tools": {}}), Close::Ended),
    ] {
        let s = OpeningSummary::of(&[launch_with(1, o)]);
        assert!(s.findings.is_empty(), "{s:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn legacy_mcpl_policy_then_every_page() {
    let t0 = Instant::now();
    let mut d = driver(Protocol::Legacy, true, mcpl_caps(), t0);
    let sent = d.start(t0);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["method"], "featureSets/update");
    assert_eq!(sent[0]["id"], 1);
    // The grant: what was advertised and the host grants; never context hooks.
    assert_eq!(
        sent[0]["params"]["effectiveCapabilities"],
        json!([
            "tools",
            "pushEvents",
            "channels.register",
            "channels.incoming"
        ])
    );
    assert_eq!(d.due(), Some(t0 + POLICY_TIMEOUT));
    let t1 = t0 + Duration::from_millis(5);
    let next = d.on_message(
        &reply(
            1,
            json!({"accepted": true, "mode": "degraded",
        "unavailableFeatures": [{"featureSet": "chat"}]}),
        ),
        t1,
    );
    assert_eq!(next[0]["method"], "tools/list");
    assert_eq!(next[0]["params"], json!({}));
    let t2 = t1 + Duration::from_millis(2);
    let next = d.on_message(
        &reply(
            2,
            json!({"tools": [{"name": "a"}, {"name": "b s3cret"}], "nextCursor": ""}),
        ),
        t2,
    );
    assert_eq!(
        next[0]["params"],
        json!({"cursor": ""}),
        "an empty cursor is a cursor"
    );
    let next = d.on_message(&reply(3, json!({"tools": [{"name": "c"}]})), t2);
    assert!(next.is_empty());
    assert!(d.done());
    let o = d.finish(Close::Ended, t2);
    assert_eq!(o.tool_count, Some(3));
    assert_eq!(o.tool_names.to_vec(), ["a", "b [redacted]", "c"]);
    assert_eq!(o.tool_pages, 2);
    assert_eq!(o.feature_sets.to_vec(), ["chat"]);
    assert_eq!(
        o.receipt.as_ref().map(|r| r.unavailable.to_vec()),
        Some(vec!["chat".to_string()])
    );
    assert_eq!(
        o.policy,
        Some(PolicySettle {
            settled: true,
            settle_ms: Some(5.0)
        })
    );
    assert_eq!(o.exchanges[0].round_trip_ms, Some(5.0));
    assert_eq!(o.pending_at_close, None, "nothing outstanding");
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_policy_times_out_at_15_s_then_tools_are_listed() {
    let t0 = Instant::now();
    let mut d = driver(Protocol::Legacy, true, mcpl_caps(), t0);
    d.start(t0);
    assert!(d.on_timer(t0 + Duration::from_secs(14)).is_empty());
    let next = d.on_timer(t0 + POLICY_TIMEOUT);
    assert_eq!(next[0]["method"], "tools/list");
    assert_eq!(d.due(), Some(t0 + POLICY_TIMEOUT + LEGACY_REQUEST_TIMEOUT));
    // The connection ends with tools/list outstanding.
    let end = t0 + POLICY_TIMEOUT + Duration::from_millis(12);
    let o = d.finish(Close::Ended, end);
    assert_eq!(
        o.exchanges[0].result,
        ExchangeResult::TimedOut {
            deadline_ms: 15_000.0
        }
    );
    assert_eq!(
        o.policy.map(|p| p.settled),
        Some(true),
        "a timeout settles it"
    );
    assert_eq!(
        o.pending_at_close,
        Some(PendingRequest {
            method: "tools/list".into(),
            sent_at_ms: 15_000.0
        })
    );
    assert_eq!(o.exchanges[1].result, ExchangeResult::ConnectionEnded);
}

#[tokio::test(start_paused = true)]
async fn bad_pages_are_errors_never_partial_inventories() {
    let t0 = Instant::now();
    for (page, why) in [
        (json!({"nextCursor": "x"}), "no tools array"),
        (
            json!({"tools": [], "nextCursor": 5}),
            "nextCursor must be a string, got 5",
        ),
        (
            json!({"tools": [], "nextCursor": null}),
            "nextCursor must be a string, got null",
        ),
    ] {
        let mut d = driver(Protocol::Legacy, true, json!({"tools": {}}), t0);
        assert_eq!(
            d.start(t0)[0]["method"],
            "tools/list",
            "plain MCP: no policy"
        );
        assert!(d.on_message(&reply(1, page), t0).is_empty());
        let o = d.finish(Close::Watching, t0);
        assert_eq!(o.tool_count, None);
        match &o.exchanges[0].result {
            ExchangeResult::Error {
                code: None,
                message,
            } => {
                assert_eq!(message, &format!("malformed tools/list page 1: {why}"))
            }
            other => panic!("{other:?}"),
        }
    }
    // A repeated cursor would never end.
    let mut d = driver(Protocol::Legacy, true, json!({}), t0);
    d.start(t0);
    d.on_message(&reply(1, json!({"tools": [], "nextCursor": "a"})), t0);
    assert!(d
        .on_message(&reply(2, json!({"tools": [], "nextCursor": "a"})), t0)
        .is_empty());
    let o = d.finish(Close::Watching, t0);
    assert!(
        matches!(&o.exchanges[1].result, ExchangeResult::Error { message, .. } if message.contains("repeated nextCursor"))
    );
}

#[tokio::test(start_paused = true)]
async fn modern_lists_tools_and_opens_the_subscription_over_stdio_only() {
    let t0 = Instant::now();
    let caps = json!({"tools": {"listChanged": true}});
    let mut d = OpeningDriver::new(
        Protocol::Modern,
        true,
        &json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": caps.clone()}}),
        t0,
        t0,
        Arc::new(Redactor::new()),
    );
    let sent = d.start(t0);
    assert_eq!(sent[0]["method"], "tools/list");
    assert_eq!(
        sent[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        MODERN_VERSION
    );
    assert_eq!(sent[1]["method"], "subscriptions/listen");
    assert_eq!(
        sent[1]["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    d.on_message(
        &json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged"}),
        t0 + Duration::from_millis(3),
    );
    // The stream stays open: not outstanding at the end.
    let o = d.finish(Close::Ended, t0 + Duration::from_millis(9));
    assert_eq!(o.exchanges[1].result, ExchangeResult::Answered);
    assert_eq!(
        o.pending_at_close.map(|p| p.method),
        Some("tools/list".into())
    );
    assert_eq!(o.policy, None);
    // Over HTTP or WebSocket: no subscription.
    let mut d = OpeningDriver::new(
        Protocol::Modern,
        false,
        &json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": caps}}),
        t0,
        t0,
        Arc::new(Redactor::new()),
    );
    assert_eq!(d.start(t0).len(), 1);
}

#[tokio::test(start_paused = true)]
async fn channels_are_recorded_and_answered_as_granted() {
    let t0 = Instant::now();
    let mut d = driver(Protocol::Legacy, false, mcpl_caps(), t0);
    d.start(t0);
    let early = json!({"jsonrpc": "2.0", "id": 100, "method": "channels/incoming",
        "params": {"messages": [{"channelId": "c1", "messageId": "m1"}]}});
    let r = d.on_message(&early, t0 + Duration::from_millis(1));
    assert_eq!(
        r[0]["result"],
        json!({"results": [{"messageId": "m1", "accepted": true}]})
    );
    let reg = json!({"jsonrpc": "2.0", "id": 101, "method": "channels/register",
        "params": {"channels": [{"id": "c1"}, {"id": "c2"}]}});
    let r = d.on_message(&reg, t0 + Duration::from_millis(2));
    assert_eq!(r[0]["id"], 101);
    assert_eq!(
        r[0]["result"],
        json!({"results": [{"id": "c1", "accepted": true}, {"id": "c2", "accepted": true}]})
    );
    let late = json!({"jsonrpc": "2.0", "id": 102, "method": "channels/incoming",
        "params": {"messages": [{"channelId": "c2", "messageId": "m2"}]}});
    d.on_message(&late, t0 + Duration::from_millis(3));
    let push = json!({"jsonrpc": "2.0", "id": 103, "method": "push/event", "params": {}});
    assert_eq!(
        d.on_message(&push, t0)[0]["result"],
        json!({"accepted": true})
    );
    let other = json!({"jsonrpc": "2.0", "id": 104, "method": "model/info"});
    assert_eq!(d.on_message(&other, t0)[0]["error"]["code"], -32601);
    let o = d.finish(Close::Watching, t0 + Duration::from_millis(4));
    assert!(o.channels.granted);
    assert_eq!(
        o.channels.registrations[0].channel_ids.to_vec(),
        ["c1", "c2"]
    );
    assert_eq!(o.channels.content_before_registration.len(), 1);
    assert_eq!(o.channels.content_before_registration[0].channel_id, "c1");
    assert_eq!(o.channels.incoming_messages, 2);
    assert_eq!(o.server_requests.len(), 4);
    assert_eq!(o.pending_at_close, None, "still connected: nothing died");
    assert_eq!(o.exchanges[0].result, ExchangeResult::Unanswered);
}

/// A server that sends content before registering at a chat's rate, registers many channels,
/// asks with many methods and lists many long tool names: the record keeps counts and the first
/// and last few of each, none of its texts longer than `TEXT_MAX` (issue 21, item 1).
#[tokio::test(start_paused = true)]
async fn every_record_of_a_flooding_server_is_folded() {
    use crate::engine::folded::{KEEP, TEXT_MAX};
    let t0 = Instant::now();
    let mut d = driver(Protocol::Legacy, false, mcpl_caps(), t0);
    d.start(t0);
    let n = 20_000u64;
    for i in 0..n {
        let early = json!({"jsonrpc": "2.0", "id": i, "method": "channels/incoming",
            "params": {"messages": [{"channelId": format!("early-{i}"), "messageId": format!("m{i}")}]}});
        d.on_message(&early, t0);
    }
    for i in 0..n {
        let reg = json!({"jsonrpc": "2.0", "id": i, "method": "channels/register",
            "params": {"channels": [{"id": format!("c{i}")}, {"id": format!("d{i}")}]}});
        d.on_message(&reg, t0);
        let ask = json!({"jsonrpc": "2.0", "id": i, "method": format!("x/m{i}")});
        d.on_message(&ask, t0);
    }
    // The policy answer, then pages of long tool names.
    d.on_message(&reply(1, json!({"mode": "full"})), t0);
    let long = "n".repeat(1 << 16);
    for page in 0..50 {
        let tools: Vec<Value> = (0..40)
            .map(|k| json!({"name": format!("{page}-{k}-{long}")}))
            .collect();
        let mut result = json!({"tools": tools});
        if page < 49 {
            result["nextCursor"] = json!(format!("p{page}"));
        }
        d.on_message(&reply(2 + page, result), t0);
    }
    let o = d.finish(Close::Watching, t0);
    let c = &o.channels;
    assert_eq!(c.content_before_registration.total(), n);
    assert_eq!(c.content_before_registration.len(), 2 * KEEP);
    assert_eq!(c.content_before_registration_folded, n - 2 * KEEP as u64);
    assert_eq!(c.content_before_registration[0].channel_id, "early-0");
    assert_eq!(
        c.content_before_registration
            .last()
            .map(|x| x.channel_id.as_str()),
        Some(format!("early-{}", n - 1).as_str())
    );
    assert_eq!(c.registrations.total(), n);
    assert_eq!(c.registrations_folded, n - 2 * KEEP as u64);
    assert_eq!(c.channel_ids_total, 2 * n);
    assert_eq!(c.incoming_messages, n as u32);
    assert_eq!(o.server_requests.len(), MAX_METHODS);
    // Every channels/incoming and channels/register is a request too.
    let named: u64 = o.server_requests.iter().map(|m| u64::from(m.count)).sum();
    assert_eq!(named + o.server_requests_other, 3 * n);
    assert_eq!(o.tool_count, Some(50 * 40));
    assert_eq!(o.tool_pages, 50);
    assert_eq!(o.tool_names.total(), 2000);
    assert_eq!(o.tool_names_folded, 2000 - 2 * KEEP as u64);
    assert!(o
        .tool_names
        .iter()
        .all(|t| t.chars().count() <= TEXT_MAX + 1));
    assert!(o.tool_names[0].starts_with("0-0-nnn") && o.tool_names[0].ends_with('…'));
    assert_eq!(o.exchanges.total(), 51);
    assert_eq!(o.exchanges_folded, 51 - 2 * KEEP as u64);
    let json = serde_json::to_string(&o).unwrap_or_default();
    assert!(json.len() < 32 * 1024, "{} bytes", json.len());
    assert!(json.contains("\"content_before_registration_folded\":19984"));
}

/// Content for a channel registered long before, among more registered channels than the probe
/// remembers, is not taken for content before registration.
#[tokio::test(start_paused = true)]
async fn past_the_remembered_channels_no_content_is_called_early() {
    let t0 = Instant::now();
    let mut d = driver(Protocol::Legacy, false, mcpl_caps(), t0);
    d.start(t0);
    for i in 0..(MAX_REGISTERED + 10) {
        let reg = json!({"jsonrpc": "2.0", "method": "channels/register",
            "params": {"channels": [{"id": format!("c{i}")}]}});
        d.on_message(&reg, t0);
    }
    let late = json!({"jsonrpc": "2.0", "method": "channels/incoming",
        "params": {"messages": [{"channelId": format!("c{}", MAX_REGISTERED + 5)}]}});
    d.on_message(&late, t0);
    let o = d.finish(Close::Watching, t0);
    assert!(o.channels.content_before_registration.is_empty());
}

#[tokio::test(start_paused = true)]
async fn launches_listing_the_same_many_tools_do_not_differ_and_others_do() {
    let t0 = Instant::now();
    let listed = |names: &[String]| {
        let mut d = driver(Protocol::Legacy, false, json!({"tools": {}}), t0);
        d.start(t0);
        let tools: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
        d.on_message(&reply(1, json!({"tools": tools})), t0);
        d.finish(Close::Watching, t0)
    };
    let names: Vec<String> = (0..100).map(|i| format!("t{i}")).collect();
    let mut changed = names.clone();
    changed[50] = "other".into();
    let same = OpeningSummary::of(&[
        launch_with(1, listed(&names)),
        launch_with(2, listed(&names)),
    ]);
    assert_eq!(same.tools_differ, None);
    let differ = OpeningSummary::of(&[
        launch_with(1, listed(&names)),
        launch_with(2, listed(&changed)),
    ]);
    assert!(
        differ.tools_differ.is_some(),
        "a folded name that changed is seen"
    );
}

#[test]
fn a_call_result_keeps_its_text_redacted_then_cut_to_2_kib() {
    let mut r = Redactor::new();
    r.add("s3cretValue42");
    let msg = |content: Value, is_error: bool| json!({"jsonrpc": "2.0", "id": 2, "result": {"content": content, "isError": is_error}});
    // Every text part, one a line; an image part has none.
    let a = call::answer_of(
        &msg(
            json!([{"type": "text", "text": "one s3cretValue42"}, {"type": "image", "data": "x"},
                   {"type": "text", "text": "two"}]),
            false,
        ),
        &r,
    )
    .expect("a result");
    assert_eq!(a.text, format!("one {}\ntwo", crate::engine::redact::MASK));
    assert!(!a.is_error && a.failed.is_none());
    // A secret that straddles the 2 KiB cut shows no part of itself; the text ends in "…".
    let long = format!("{}s3cretValue42{}", "é".repeat(1020), "x".repeat(10_000));
    let a =
        call::answer_of(&msg(json!([{"type": "text", "text": long}]), true), &r).expect("a result");
    assert!(a.is_error);
    assert!(
        a.text.len() <= CALL_TEXT_MAX + '…'.len_utf8(),
        "{}",
        a.text.len()
    );
    assert!(a.text.ends_with('…'));
    assert!(!a.text.contains("s3cret"), "{}", a.text);
    // A huge text costs only what is read: 2 KiB and a margin.
    let huge = "y".repeat(8 << 20);
    let a = call::answer_of(&msg(json!([{"type": "text", "text": huge}]), false), &r)
        .expect("a result");
    assert_eq!(a.text.chars().filter(|c| *c == 'y').count(), CALL_TEXT_MAX);
    // A JSON-RPC error is its exchange's message, not a result.
    let e = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "x"}});
    assert!(call::answer_of(&e, &r).is_none());
}
