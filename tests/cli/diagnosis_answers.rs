//! Faults seen only through an answer, through the real binary (`fixtures/servers/answers.py`):
//! a proxy whose `initialize` answers -32603 because its remote is down (mcp-proxy-for-aws), a
//! bridge that ends right after its handshake without a word, a database server that answers
//! `Internal error`, a proxy whose `tools/list` fails: the doctor connects to the addresses the
//! entry holds and names the one where nothing listens. Look-alikes: the same servers with
//! the address answering (healthy, or failing for another reason: not blamed).

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};

use crate::support::{assert_valid, bin, fixture, free_port, json, stdout, text_field as field};

fn answers() -> String {
    fixture("servers/answers.py").display().to_string()
}

fn probe(extra: &[&str], command: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s"])
        .args(extra)
        .args(["--format", "json"])
        .arg("--")
        .args(command)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

fn top(doc: &serde_json::Value) -> (String, String) {
    let d = &doc["diagnoses"][0];
    (field(d, "id"), field(d, "next_step"))
}

fn tried(doc: &serde_json::Value) -> Vec<String> {
    doc["diagnoses"][0]["evidence"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|x| x["source"] == "tried")
                .map(|x| field(x, "text"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_proxy_whose_initialize_fails_names_the_remote_nothing_listens_on() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let py = answers();
    let out = probe(&[], &["python3", &py, "proxy", &url], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let (id, next) = top(&doc);
    assert_eq!(id, "service-not-running", "{doc:#}");
    assert!(
        next.starts_with(&format!(
            "nothing listens on 127.0.0.1:{port} (the argument `{url}`)"
        )),
        "{next}"
    );
    assert_eq!(tried(&doc), [format!("connect 127.0.0.1:{port}: refused")]);
    let evidence = doc["diagnoses"][0]["evidence"].to_string();
    assert!(
        evidence.contains("All connection attempts failed (code -32603)"),
        "{evidence}"
    );

    // Look-alike: the remote's port answers: a healthy proxy, no cause.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = format!(
        "http://127.0.0.1:{}/mcp",
        open.local_addr().expect("addr").port()
    );
    let out = probe(&[], &["python3", &py, "proxy", &up], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));

    // Look-alike: `initialize` fails while the remote answers (a 401): not the service; the
    // tries are shown, and blame nothing.
    let out = probe(&[], &["python3", &py, "proxy-auth", &up], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let (id, _) = top(&doc);
    assert_ne!(id, "service-not-running", "{doc:#}");
    let port_up = open.local_addr().expect("addr").port();
    assert_eq!(
        tried(&doc),
        [format!(
            "connect 127.0.0.1:{port_up}: it answers (not the cause)"
        )]
    );
    drop(open);
}

#[test]
fn a_bridge_that_ends_quietly_after_its_handshake_names_the_variable_of_its_remote() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/sse");
    let py = answers();
    let out = probe(&[], &["python3", &py, "bridge"], &[("REMOTE_URL", &url)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let (id, next) = top(&doc);
    assert_eq!(id, "service-not-running", "{doc:#}");
    assert!(
        next.contains(&format!("127.0.0.1:{port}")) && next.contains("`REMOTE_URL`"),
        "{next}"
    );
}

#[test]
fn a_database_server_answering_internal_error_names_its_url_and_never_its_password() {
    const PASSWORD: &str = "pgPlanted7Password";
    let port = free_port();
    let db = format!("postgresql://app:{PASSWORD}@127.0.0.1:{port}/app");
    let py = answers();
    let out = probe(&[], &["python3", &py, "db"], &[("DATABASE_URL", &db)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(!stdout(&out).contains(PASSWORD), "{}", stdout(&out));
    let doc = json(&out);
    let (id, next) = top(&doc);
    assert_eq!(id, "service-not-running", "{doc:#}");
    assert!(
        next.contains(&format!("127.0.0.1:{port}")) && next.contains("`DATABASE_URL`"),
        "{next}"
    );
}

#[test]
fn a_proxy_whose_tools_list_fails_names_its_remote_and_a_healthy_one_is_quiet() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let py = answers();
    let out = probe(&[], &["python3", &py, "list", &url], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let (id, next) = top(&doc);
    assert_eq!(id, "service-not-running", "{doc:#}");
    assert!(next.contains(&format!("127.0.0.1:{port}")), "{next}");

    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = format!(
        "http://127.0.0.1:{}/mcp",
        open.local_addr().expect("addr").port()
    );
    let out = probe(&[], &["python3", &py, "list", &up], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
    drop(open);
}
