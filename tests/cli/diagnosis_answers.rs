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

/// A run that exits 1 with `service-not-running` on top, its step naming `127.0.0.1:port`
/// and, when given, the variable that holds it.
fn assert_refused(out: &Output, port: u16, var: Option<&str>) {
    assert_eq!(out.status.code(), Some(1), "{}", stdout(out));
    let doc = json(out);
    let (id, next) = top(&doc);
    assert_eq!(id, "service-not-running", "{doc:#}");
    assert!(next.contains(&format!("127.0.0.1:{port}")), "{next}");
    if let Some(var) = var {
        assert!(next.contains(&format!("`{var}`")), "{next}");
    }
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
    assert_refused(&out, port, Some("REMOTE_URL"));
}

#[test]
fn a_database_server_answering_internal_error_names_its_url_and_never_its_password() {
    const PASSWORD: &str = "pgPlanted7Password";
    let port = free_port();
    let db = format!("postgresql://app:{PASSWORD}@127.0.0.1:{port}/app");
    let py = answers();
    let out = probe(&[], &["python3", &py, "db"], &[("DATABASE_URL", &db)]);
    assert!(!stdout(&out).contains(PASSWORD), "{}", stdout(&out));
    assert_refused(&out, port, Some("DATABASE_URL"));
}

#[test]
fn a_proxy_whose_tools_list_fails_names_its_remote_and_a_healthy_one_is_quiet() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let py = answers();
    let out = probe(&[], &["python3", &py, "list", &url], &[]);
    assert_refused(&out, port, None);

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

#[test]
fn a_result_that_is_an_error_record_naming_the_entrys_value_is_a_failed_call() {
    let py = answers();
    let call = ["--call", "get_pricing_service_codes"];
    let out = probe(
        &call,
        &["python3", &py, "pricing"],
        &[("AWS_PROFILE", "prod")],
    );
    // Not a false all-clear: the tool answered an error record, not marked isError.
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let call_doc = &doc["launches"][0]["opening"]["call"];
    assert_eq!(call_doc["is_error"], false, "{doc:#}");
    assert_eq!(
        field(call_doc, "failed"),
        "its text is an error record, naming the value of `AWS_PROFILE`"
    );
    let (id, next) = top(&doc);
    assert_eq!(id, "bad-argument", "{doc:#}");
    assert_eq!(
        next,
        "`AWS_PROFILE=prod`: the server says \"The config profile (prod) could not be found\": set `AWS_PROFILE` in the server's environment to a value it accepts, or remove it"
    );
    // Look-alike: a profile it knows: the same tool answers its data.
    let out = probe(
        &call,
        &["python3", &py, "pricing"],
        &[("AWS_PROFILE", "default")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
}

#[test]
fn a_log_search_tool_returning_error_lines_that_name_the_entrys_value_is_healthy() {
    let py = answers();
    let env = [("LOG_GROUP", "prod-api")];
    let out = probe(
        &["--call", "search_logs"],
        &["python3", &py, "logsearch"],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    let call = &doc["launches"][0]["opening"]["call"];
    assert!(
        field(call, "text").contains("ERROR [prod-api] Error: upstream timed out"),
        "{call:#}"
    );
    assert!(call.get("failed").is_none(), "{call:#}");
    assert_eq!(doc["diagnoses"], serde_json::json!([]));
    // The same lines on every launch are its data, not a failure repeated (it ends after each
    // call, so the probe launches it again: that end is another finding).
    let out = bin()
        .args([
            "probe",
            "--launches",
            "2",
            "--interval",
            "100ms",
            "--watch",
            "2s",
        ])
        .args(["--call", "search_logs", "--format", "json", "--"])
        .args(["python3", &py, "logsearch", "--exit-after-call"])
        .envs(env)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let doc = json(&out);
    let launches = doc["launches"].as_array().expect("launches");
    assert_eq!(launches.len(), 2, "{doc:#}");
    for l in launches {
        let call = &l["opening"]["call"];
        assert!(
            call["text"].is_string() && call.get("failed").is_none(),
            "{doc:#}"
        );
    }
    let findings = doc["opening"]["findings"].to_string();
    assert!(!findings.contains("tool-call-failed"), "{findings}");
}

#[test]
fn an_error_record_the_same_on_every_launch_is_a_failed_call_without_a_tie() {
    let py = answers();
    // A profile name too short to be tied (one letter): no value to name, but two launches
    // fail the same way (the server ends after each call, so the probe launches it again).
    let out = bin()
        .args([
            "probe",
            "--launches",
            "2",
            "--interval",
            "100ms",
            "--watch",
            "2s",
        ])
        .args([
            "--call",
            "get_pricing_service_codes",
            "--format",
            "json",
            "--",
        ])
        .args(["python3", &py, "pricing", "--exit-after-call"])
        .env("AWS_PROFILE", "x")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(
        field(&doc["launches"][1]["opening"]["call"], "failed"),
        "its text is an error record, the same on every launch"
    );
}
