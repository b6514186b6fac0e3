//! What a `--call` result says, through the real binary: a result not marked `isError` whose
//! text holds an address the entry gives where nothing listens (mysql_mcp_server's `Error
//! executing query: Can't connect to MySQL server on 'HOST:PORT' (Errno 111: ...)`) is a failed
//! call, tested by the doctor's own connect; the same text with `isError`; and a failed call
//! whose error is Node's `Invalid URL` while the entry holds a URL without its scheme
//! (@perplexity-ai/mcp-server's PERPLEXITY_BASE_URL). Each beside a healthy look-alike
//! (`fixtures/servers/calls.py`, `calls.mjs`).

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};

use crate::support::{assert_valid, bin, fixture, free_port, json, stdout, text_field as field};

fn calls(ext: &str) -> String {
    fixture(&format!("servers/calls.{ext}"))
        .display()
        .to_string()
}

fn probe(call: &str, command: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s", "--call", call])
        .args(["--format", "json"])
        .arg("--")
        .args(command)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

const SQL: &str = r#"execute_sql={"query": "SELECT 1"}"#;
const SECRET: &str = "mysqlPlanted9Secret";

/// The first launch's `--call` result.
fn call_of(doc: &serde_json::Value) -> &serde_json::Value {
    &doc["launches"][0]["opening"]["call"]
}

fn findings(doc: &serde_json::Value) -> Vec<String> {
    doc["opening"]["findings"]
        .as_array()
        .map(|f| f.iter().map(|x| field(x, "id")).collect())
        .unwrap_or_default()
}

#[test]
fn a_result_not_marked_is_error_naming_a_refused_address_is_a_failed_call() {
    let port = free_port().to_string();
    let py = calls("py");
    let env = [
        ("MYSQL_HOST", "127.0.0.1"),
        ("MYSQL_PORT", port.as_str()),
        ("MYSQL_PASSWORD", SECRET),
    ];
    let out = probe(SQL, &["python3", &py, "mysql"], &env);
    // A finding, as for `isError`: the tool answered that it cannot reach its database.
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    assert!(!stdout(&out).contains(SECRET), "{}", stdout(&out));
    let call = call_of(&doc);
    assert_eq!(call["is_error"], false, "{doc:#}");
    assert!(
        field(call, "text").contains(&format!(
            "Can't connect to MySQL server on '127.0.0.1:{port}' (Errno 111"
        )),
        "{call:#}"
    );
    assert_eq!(
        field(call, "failed"),
        format!("connect 127.0.0.1:{port}: refused")
    );
    // (The server's own log line of the failure is a start warning's note beside it.)
    assert_eq!(findings(&doc)[0], "tool-call-failed", "{doc:#}");
    let f = field(&doc["opening"]["findings"][0], "text");
    assert!(f.contains("a result not marked isError"), "{f}");
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.contains(&format!("127.0.0.1:{port}"))
            && next.contains("`MYSQL_HOST` and `MYSQL_PORT`"),
        "{next}"
    );
    // The text report says so too, and exits 1.
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--call",
        SQL,
        "--",
    ])
    .args(["python3", &py, "mysql"])
    .envs(env)
    .stdin(Stdio::null());
    let text = cmd.output().expect("the binary runs");
    assert_eq!(text.status.code(), Some(1));
    let shown = stdout(&text);
    assert!(
        shown.contains("service-not-running") && !shown.contains(SECRET),
        "{shown}"
    );

    // Look-alike: the same server where the database's port answers: the call succeeds.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let env = [("MYSQL_HOST", "127.0.0.1"), ("MYSQL_PORT", up.as_str())];
    let out = probe(SQL, &["python3", &py, "mysql"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(field(call_of(&doc), "text").starts_with("Query executed successfully"));
    assert!(call_of(&doc).get("failed").is_none(), "{doc:#}");
    assert!(findings(&doc).is_empty(), "{doc:#}");
    drop(open);
}

#[test]
fn a_result_that_speaks_of_errors_is_no_failure_where_its_address_answers_or_is_not_the_entrys() {
    let py = calls("py");
    // Its words are "errors" and "refused", its address the entry's and listening.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let env = [("STATS_HOST", "127.0.0.1"), ("STATS_PORT", up.as_str())];
    let out = probe("stats", &["python3", &py, "stats"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(
        field(call_of(&doc), "text").contains(&format!("refused: 0, primary 127.0.0.1:{up} up")),
        "{doc:#}"
    );
    assert!(findings(&doc).is_empty() && doc["diagnoses"] == serde_json::json!([]));
    drop(open);
    // An address nothing listens on, which the entry does not give, and no error code: a tool
    // that reports on it, not a failed call.
    let out = probe("stats", &["python3", &py, "stats"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(
        field(call_of(&doc), "text").contains("primary 127.0.0.1:1 down"),
        "{doc:#}"
    );
    assert!(call_of(&doc).get("failed").is_none(), "{doc:#}");
    assert!(findings(&doc).is_empty(), "{doc:#}");
}

#[test]
fn the_same_text_marked_is_error_names_the_variables_of_the_refused_address() {
    let port = free_port().to_string();
    let py = calls("py");
    let env = [("MYSQL_HOST", "127.0.0.1"), ("MYSQL_PORT", port.as_str())];
    let out = probe(SQL, &["python3", &py, "mysql", "--is-error"], &env);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(call_of(&doc)["is_error"], true, "{doc:#}");
    assert!(call_of(&doc).get("failed").is_none(), "{doc:#}");
    // (The server's own log line of the failure is a start warning's note beside it.)
    assert_eq!(findings(&doc)[0], "tool-call-failed", "{doc:#}");
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.contains(&format!("127.0.0.1:{port}"))
            && next.contains("`MYSQL_HOST` and `MYSQL_PORT`"),
        "{next}"
    );
}

const ASK: &str = r#"perplexity_ask={"messages": [{"role": "user", "content": "hi"}]}"#;
const KEY: &str = "pplx-planted0123456789abcdef";

#[test]
fn a_call_failing_on_invalid_url_names_the_value_written_without_its_scheme() {
    let mjs = calls("mjs");
    let env = [
        ("PERPLEXITY_API_KEY", KEY),
        ("PERPLEXITY_BASE_URL", "api.perplexity.ai"),
    ];
    let out = probe(ASK, &["node", &mjs, "perplexity"], &env);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(!stdout(&out).contains(KEY), "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(field(call_of(&doc), "text"), "Invalid URL", "{doc:#}");
    assert_eq!(findings(&doc), ["tool-call-failed"], "{doc:#}");
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "bad-argument", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with("write `PERPLEXITY_BASE_URL=api.perplexity.ai` with its scheme")
            && next.contains("`https://api.perplexity.ai`"),
        "{next}"
    );
    // Two values without their scheme, the error quoting neither: both are named.
    let env = [
        ("PERPLEXITY_API_KEY", KEY),
        ("PERPLEXITY_BASE_URL", "api.perplexity.ai"),
        ("SEARCH_ENDPOINT", "search.example.com:8443"),
    ];
    let out = probe(ASK, &["node", &mjs, "perplexity"], &env);
    let doc = json(&out);
    let next = field(&doc["diagnoses"][0], "next_step");
    assert!(
        next.contains(
            "`PERPLEXITY_BASE_URL=api.perplexity.ai` and `SEARCH_ENDPOINT=search.example.com:8443`"
        ) && next.contains("`https://api.perplexity.ai`"),
        "{next}"
    );
    // With its scheme the call succeeds: healthy.
    let env = [
        ("PERPLEXITY_API_KEY", KEY),
        ("PERPLEXITY_BASE_URL", "https://api.perplexity.ai"),
    ];
    let out = probe(ASK, &["node", &mjs, "perplexity"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn a_call_failing_on_something_else_names_no_url_beside_a_plain_host_value() {
    // DB_HOST=db.local is a host the server reads as one; the call fails on its key.
    let mjs = calls("mjs");
    let env = [
        ("PERPLEXITY_FAIL", "other"),
        ("DB_HOST", "db.local"),
        ("PERPLEXITY_BASE_URL", "api.perplexity.ai"),
    ];
    let out = probe(ASK, &["node", &mjs, "perplexity"], &env);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(findings(&doc), ["tool-call-failed"], "{doc:#}");
    // Its error names the variable it wants (unset): that, not a URL.
    let ds = doc["diagnoses"].as_array().expect("diagnoses");
    assert_eq!(ds.len(), 1, "{doc:#}");
    assert_eq!(ds[0]["id"], "missing-env-var", "{doc:#}");
    let next = field(&ds[0], "next_step");
    assert!(
        next.starts_with("set `PERPLEXITY_API_KEY` in") && !next.contains("https://"),
        "{next}"
    );
}

const PUSH: &str = r#"push_text_message={"message": {"type": "text", "text": "hi"}}"#;

#[test]
fn a_call_error_naming_a_variable_the_entry_does_not_set_names_it() {
    // @line/line-bot-mcp-server: "Error: Specify the userId or set the DESTINATION_USER_ID in
    // the environment variables of this MCP Server." (isError), DESTINATION_USER_ID unset.
    let mjs = calls("mjs");
    let out = probe(
        PUSH,
        &["node", &mjs, "linebot"],
        &[("CHANNEL_ACCESS_TOKEN", KEY)],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    assert!(!stdout(&out).contains(KEY), "{}", stdout(&out));
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "missing-env-var", "{doc:#}");
    let next = field(d, "next_step");
    assert!(next.starts_with("set `DESTINATION_USER_ID` in"), "{next}");
    // Look-alike: the variable set, the tool answers: no finding.
    let env = [
        ("CHANNEL_ACCESS_TOKEN", KEY),
        ("DESTINATION_USER_ID", "U1234"),
    ];
    let out = probe(PUSH, &["node", &mjs, "linebot"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
}

#[test]
fn a_call_error_naming_a_variable_set_to_a_missing_file_points_it_at_one() {
    // @piotr-agier/google-drive-mcp: GOOGLE_DRIVE_OAUTH_CREDENTIALS at a file that does not
    // exist; the call's -32603 error names it and GOOGLE_DRIVE_MCP_TOKEN_PATH (unset). A
    // secret's name (`CREDENTIALS`): its path is looked up before it is masked, never shown.
    let mjs = calls("mjs");
    let dir = tempfile::tempdir().expect("tempdir");
    let keys = dir.path().join("gcp-oauth.keys.json");
    let keys = keys.display().to_string();
    let env = [
        ("GOOGLE_DRIVE_OAUTH_CREDENTIALS", keys.as_str()),
        ("GDRIVE_CONFIG_DIR", dir.path().to_str().expect("utf-8")),
    ];
    let call = r#"search={"query": "report"}"#;
    let out = probe(call, &["node", &mjs, "gdrive"], &env);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(!stdout(&out).contains(&keys), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "missing-file", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with("point `GOOGLE_DRIVE_OAUTH_CREDENTIALS` at a file that exists")
            && next.contains("(its value masked) names a path where nothing is")
            && !next.contains("GOOGLE_DRIVE_MCP_TOKEN_PATH"),
        "{next}"
    );
    // Look-alike: the file there, the call answers: no finding.
    std::fs::write(dir.path().join("gcp-oauth.keys.json"), "{}").expect("write");
    let out = probe(call, &["node", &mjs, "gdrive"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
}

#[test]
fn a_call_answered_after_the_watch_is_waited_for_and_judged() {
    // The answer comes 2.5 s after the call, past a 1 s watch (redis-mcp-server's `dbsize`
    // answers after redis-py's connect retries): the watch waits for it, up to its deadline.
    let port = free_port().to_string();
    let py = calls("py");
    let env = [("MYSQL_HOST", "127.0.0.1"), ("MYSQL_PORT", port.as_str())];
    let mut cmd = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "1s", "--call", SQL])
        .args([
            "--format",
            "json",
            "--",
            "python3",
            &py,
            "mysql",
            "--delay-ms",
            "2500",
        ])
        .envs(env)
        .stdin(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let exchange = &doc["launches"][0]["opening"]["exchanges"][1];
    assert_eq!(exchange["method"], "tools/call", "{doc:#}");
    assert_eq!(exchange["result"]["kind"], "answered", "{doc:#}");
    assert!(exchange["round_trip_ms"]
        .as_f64()
        .is_some_and(|ms| ms >= 2500.0));
    assert_eq!(doc["diagnoses"][0]["id"], "service-not-running", "{doc:#}");
}

#[test]
fn an_answer_saying_it_cannot_connect_beside_a_refused_log_tests_the_entrys_port() {
    // blender-mcp with Blender's addon not running: its answer names no address, not marked
    // isError; its log says `[Errno 111] Connection refused`. The entry's `--port` (or a
    // `*_PORT` with no `*_HOST`) is where the doctor connects.
    let py = calls("py");
    let port = free_port().to_string();
    for (args, env, holder) in [
        (
            vec!["python3", py.as_str(), "addon", "--port", port.as_str()],
            vec![],
            format!("`--port {port}`"),
        ),
        (
            vec!["python3", py.as_str(), "addon"],
            vec![("ADDON_PORT", port.as_str())],
            "`ADDON_PORT`".to_string(),
        ),
    ] {
        let out = probe("get_scene_info", &args, &env);
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        let doc = json(&out);
        assert_valid("probe", &doc);
        let call = call_of(&doc);
        assert_eq!(call["is_error"], false, "{doc:#}");
        assert_eq!(
            field(call, "failed"),
            format!("connect localhost:{port}: refused")
        );
        let d = &doc["diagnoses"][0];
        assert_eq!(d["id"], "service-not-running", "{doc:#}");
        let next = field(d, "next_step");
        assert!(
            next.contains(&format!("localhost:{port}")) && next.contains(&holder),
            "{next}"
        );
    }
    // Look-alike: the addon's port answers, the tool answers its data: no finding.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let out = probe(
        "get_scene_info",
        &["python3", &py, "addon", "--port", &up],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(call_of(&doc).get("failed").is_none(), "{doc:#}");
    assert!(findings(&doc).is_empty() && doc["diagnoses"] == serde_json::json!([]));
    drop(open);
}

#[test]
fn a_call_judging_a_value_without_its_scheme_names_it_before_a_refused_connect() {
    // mcp-searxng 0.x with SEARXNG_URL=127.0.0.1:PORT: its own words judge the variable's
    // format (no parser's structure), and nothing listens at PORT either: the server never
    // dialled, so the fix is the scheme, not a service to start.
    let mjs = calls("mjs");
    let port = free_port().to_string();
    let value = format!("127.0.0.1:{port}");
    let out = probe(ASK, &["node", &mjs, "searxng"], &[("SEARXNG_URL", &value)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "bad-argument", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with(&format!("write `SEARXNG_URL={value}` with its scheme"))
            && next.contains("http://"),
        "{next}"
    );
    // Look-alike: a server that takes `host:port` (it writes `http://` itself) and dials it,
    // nothing listening: its error carries the connect's code, so the service is down.
    let out = probe(
        ASK,
        &["node", &mjs, "searxng"],
        &[("SEARXNG_URL", &value), ("SEARXNG_LENIENT", "1")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    assert!(field(d, "next_step").contains("`SEARXNG_URL`"), "{doc:#}");
}

/// Whether nothing listens on 127.0.0.1:`port` (a fixture's default port).
fn refused_here(port: u16) -> bool {
    std::net::TcpStream::connect(("127.0.0.1", port)).is_err()
}

#[test]
fn a_refusal_at_a_port_the_entry_does_not_give_names_that_port_and_the_flag_that_sets_it() {
    // mcp-server-rabbitmq: `--port` is the broker's, its tools ask the management API at
    // `--api-port`'s default (15671 there, 47911 in the fixture), a text result not isError.
    assert!(
        refused_here(47911),
        "something listens on 127.0.0.1:47911: this test needs it free (the fixture's default port)"
    );
    let broker = free_port().to_string();
    let py = calls("py");
    let out = probe(
        "list_queues",
        &["python3", &py, "pool", "--port", &broker],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    // The port the refusal names, not the entry's `--port` at another one.
    assert!(
        next.contains("127.0.0.1:47911") && !next.contains(&broker),
        "{next}"
    );
    assert!(next.contains("`--api-port"), "{next}");
    let shown = serde_json::to_string(&d["evidence"]).unwrap_or_default();
    assert!(
        shown.contains("connect 127.0.0.1:47911: refused")
            && shown.contains("`--api-port` defaults to 47911 (calls.py:"),
        "{shown}"
    );

    // Look-alike: the management API answers at `--api-port`: the call succeeds.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let out = probe(
        "list_queues",
        &["python3", &py, "pool", "--port", &broker, "--api-port", &up],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
    drop(open);
}

#[test]
fn an_is_error_naming_a_pool_address_the_entry_lacks_is_the_servers_default_and_its_variable() {
    // mcp-obsidian: requests' `HTTPSConnectionPool(host='127.0.0.1', port=27124)` in an
    // isError result; the entry gives no address; OBSIDIAN_PORT (VAULT_PORT here) sets it.
    assert!(
        refused_here(47912),
        "something listens on 127.0.0.1:47912: this test needs it free (the fixture's default port)"
    );
    let py = calls("py");
    let call = "obsidian_list_files_in_vault";
    let out = probe(call, &["python3", &py, "vault"], &[("VAULT_KEY", SECRET)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert!(!stdout(&out).contains(SECRET));
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.contains("127.0.0.1:47912") && next.contains("`VAULT_PORT`"),
        "{next}"
    );

    // Look-alike: the API answers at VAULT_PORT: no finding.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let out = probe(call, &["python3", &py, "vault"], &[("VAULT_PORT", &up)]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
    drop(open);
}

/// A probe of `calls.py` that stays up, without `--call`: its exit code and JSON document.
fn probe_up(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let py = calls("py");
    let mut cmd: Command = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--format",
        "json",
        "--",
    ])
    .args(["python3", &py])
    .args(args)
    .stdin(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    (out.status.code(), json(&out))
}

/// The notes of a run: (id, text).
fn notes(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["opening"]["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter(|x| x["note"] == true)
                .map(|x| (field(x, "id"), field(x, "text")))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_error_at_start_quoting_a_flags_value_on_a_server_that_stays_up_is_a_note_naming_the_flag() {
    // serena with `--project` at a folder that does not exist: it logs the error and serves.
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("proj").display().to_string();
    let (code, doc) = probe_up(&["project", "--project", &missing]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["diagnoses"], serde_json::json!([]));
    let n = notes(&doc);
    assert!(
        n.iter()
            .any(|(id, t)| id == "warning-at-start" && t.contains("check `--project`")),
        "{n:?}"
    );
    // Look-alike: the folder exists: no note.
    let (code, doc) = probe_up(&["project", "--project", &dir.path().display().to_string()]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert!(notes(&doc).is_empty(), "{doc:#}");
}

#[test]
fn no_tools_listed_under_a_flag_that_selects_tools_is_a_note_naming_the_flag() {
    // code-review-graph `serve --tools query_graph_tol`: it serves and lists none.
    let (code, doc) = probe_up(&["select", "--tools", "query_graph_tol"]);
    assert_eq!(code, Some(0), "{doc:#}");
    let n = notes(&doc);
    assert!(
        n.iter()
            .any(|(id, t)| id == "no-tools-listed" && t.contains("check `--tools`")),
        "{n:?}"
    );
    // Look-alike: the tool's own name: it is listed, no note.
    let (code, doc) = probe_up(&["select", "--tools", "query_graph"]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert!(notes(&doc).is_empty(), "{doc:#}");
}

#[test]
fn a_call_refusing_a_word_it_sent_names_the_entry_list_that_lacks_it() {
    // mcp-shell-server: ALLOW_COMMANDS=ls,cat, `shell_execute` of `pwd`: `Command not allowed:
    // pwd` (was tool-call-failed with no variable).
    let py = calls("py");
    let call = r#"shell_execute={"command": ["pwd"], "directory": "/tmp"}"#;
    let out = probe(
        call,
        &["python3", &py, "shell"],
        &[("ALLOW_COMMANDS", "ls,cat")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "bad-argument", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with(
            "add `pwd` to `ALLOW_COMMANDS` in the server's environment (`ALLOW_COMMANDS=ls,cat,pwd`)"
        ),
        "{next}"
    );
    // Look-alike: the list holds it, and the call answers.
    let out = probe(
        call,
        &["python3", &py, "shell"],
        &[("ALLOW_COMMANDS", "ls,cat,pwd")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
}

#[test]
fn a_call_failing_where_its_stderr_refuses_a_value_without_scheme_names_the_sources_scheme() {
    // meilisearch-mcp: MEILI_HTTP_ADDR=127.0.0.1:7701, the call answers only `Error executing
    // tool list-indexes`; the client's `Invalid URL ..., no scheme/protocol supplied.` is on
    // stderr (was service-not-running at 127.0.0.1:7701).
    let py = calls("py");
    let port = free_port().to_string();
    let addr = format!("127.0.0.1:{port}");
    let out = probe(
        "list-indexes",
        &["python3", &py, "meili"],
        &[("MEILI_FIXTURE_ADDR", &addr)],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "bad-argument", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with(&format!(
            "write `MEILI_FIXTURE_ADDR={addr}` with its scheme (`http://{addr}`, the scheme of \
             the server's own default)"
        )),
        "{next}"
    );
    // Look-alike: with its scheme, the call answers.
    let url = format!("http://{addr}");
    let out = probe(
        "list-indexes",
        &["python3", &py, "meili"],
        &[("MEILI_FIXTURE_ADDR", &url)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn a_fetch_failed_with_no_address_tries_the_default_url_the_source_writes() {
    // prometheus-mcp: PROMETHEUS_URL unset, `fetch failed` on the call (undici: the code only
    // in its cause); the source's `process.env.PROMETHEUS_URL || "http://localhost:9090"`.
    assert!(
        refused_here(47913),
        "something listens on 127.0.0.1:47913: this test needs it free (the fixture's default port)"
    );
    let mjs = calls("mjs");
    let out = probe("prom_build_info", &["node", &mjs, "promfetch"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.starts_with("start the service at localhost:47913")
            && next.contains(
                "set `PROM_FIXTURE_URL` in the server's environment to the service's URL (its \
                 default is http://localhost:47913)"
            ),
        "{next}"
    );
    // Look-alike: an HTTP server at the URL the entry gives: the call answers.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", open.local_addr().expect("addr"));
    let server = std::thread::spawn(move || {
        use std::io::{Read, Write};
        if let Ok((mut s, _)) = open.accept() {
            let mut buf = [0u8; 2048];
            let _ = s.read(&mut buf);
            let _ =
                s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        }
    });
    let out = probe(
        "prometheus_build_info",
        &["node", &mjs, "promfetch"],
        &[("PROM_FIXTURE_URL", &url)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let _ = server.join();
}
