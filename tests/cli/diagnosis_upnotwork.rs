//! A server that is up but cannot do its work, through the real binary
//! (`fixtures/servers/upnotwork.mjs`): a `--call` answered with an error text not marked
//! `isError` that the server raised on stderr (an ERROR line, an exception with its stack), whose
//! words mean credentials while the server's source reads a token the entry does not set
//! (@aashari/mcp-server-atlassian-jira without ATLASSIAN_API_TOKEN). Each beside a healthy
//! look-alike.

use std::process::{Command, Output, Stdio};

use crate::support::{assert_valid, bin, fixture, json, stdout, text_field as field};

fn server() -> String {
    fixture("servers/upnotwork.mjs").display().to_string()
}

fn probe(extra: &[&str], args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s"])
        .args(extra)
        .args(["--format", "json", "--", "node"])
        .arg(server())
        .args(args)
        .env_remove("ATLASSIAN_API_TOKEN")
        .env_remove("MORPH_API_KEY")
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

const JIRA: &[(&str, &str)] = &[
    ("ATLASSIAN_SITE_NAME", "acme"),
    ("ATLASSIAN_USER_EMAIL", "dev@acme.example"),
];
const GET: &str = r#"jira_get={"path": "/rest/api/3/myself"}"#;

#[test]
fn an_unmarked_error_the_server_raised_meaning_credentials_names_the_unset_token_it_reads() {
    let out = probe(&["--call", GET], &["jira"], JIRA);
    // Not a false all-clear: one launch (it stays up), proven by what the server raised.
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let call = &doc["launches"][0]["opening"]["call"];
    assert_eq!(call["is_error"], false, "{doc:#}");
    assert_eq!(
        field(call, "failed"),
        "its text is an error record, which the server raised as an error on stderr"
    );
    let (id, next) = top(&doc);
    assert_eq!(id, "missing-env-var", "{doc:#}");
    // The token sharing the entry's prefix, not the other key the source reads (MORPH_API_KEY).
    assert!(
        next.starts_with("set `ATLASSIAN_API_TOKEN` in the server's environment:"),
        "{next}"
    );
    assert!(!next.contains("MORPH_API_KEY"), "{next}");
    let tried: Vec<String> = doc["diagnoses"][0]["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["source"] == "tried")
        .map(|e| field(e, "text"))
        .collect();
    assert!(
        tried.iter().any(|t| t.contains("read the server's source")),
        "{tried:?}"
    );
}

#[test]
fn the_same_server_with_its_token_or_the_text_as_data_is_no_failure() {
    // The token set: it answers its record.
    let mut env = JIRA.to_vec();
    env.push(("ATLASSIAN_API_TOKEN", "atlPlantedToken77"));
    let out = probe(&["--call", GET], &["jira"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("atlPlantedToken77"));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
    // The same words returned as data, nothing raised on stderr, one launch: the tool's answer.
    let mut env = JIRA.to_vec();
    env.push(("JIRA_FAIL", "data"));
    let out = probe(&["--call", GET], &["jira"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(
        doc["launches"][0]["opening"]["call"]["failed"].is_null(),
        "{doc:#}"
    );
    assert_eq!(doc["diagnoses"], serde_json::json!([]));
}

/// A folder for the server's PATH holding one program, `mcp-server-memory` (it reads its
/// stdin until it ends), and a config file naming `command` as its upstream.
fn upstream(command: &str) -> (tempfile::TempDir, String, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let prog = dir.path().join("mcp-server-memory");
    std::fs::write(&prog, "#!/bin/sh\nexec cat >/dev/null\n").expect("write");
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let config = dir.path().join("modular-mcp.json");
    let body = serde_json::json!({"mcpServers": {"memory": {"command": command, "args": []}}});
    std::fs::write(&config, body.to_string()).expect("write");
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shown = config.display().to_string();
    (dir, shown, path)
}

const GROUP: &str = r#"get-modular-tools={"group": "memory"}"#;

#[test]
fn a_command_the_server_launches_that_is_not_on_its_path_is_named_with_its_file() {
    let (_dir, config, path) = upstream("mcp-server-memroy");
    let out = probe(
        &["--call", GROUP],
        &["modular", &config],
        &[("PATH", &path)],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    let (id, next) = top(&doc);
    assert_eq!(id, "command-not-found", "{doc:#}");
    assert!(
        next.starts_with(&format!(
            "fix the command `mcp-server-memroy` in the file `{config}`"
        )),
        "{next}"
    );
    assert!(
        next.contains("(`mcp-server-memory`, installed, is the closest name)"),
        "{next}"
    );
}

#[test]
fn the_same_server_whose_upstream_spawns_is_healthy() {
    let (_dir, config, path) = upstream("mcp-server-memory");
    let out = probe(
        &["--call", GROUP],
        &["modular", &config],
        &[("PATH", &path)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
}

/// The ids of the opening's findings, with whether each is a note.
fn findings(doc: &serde_json::Value) -> Vec<(String, bool)> {
    doc["opening"]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| (field(f, "id"), f["note"] == true))
        .collect()
}

#[test]
fn no_tools_listed_beside_a_start_warning_naming_an_unset_variable_is_a_failure() {
    let out = probe(&[], &["morph"], &[]);
    // It stays up and answers: a clean exit before, the host gets no tool.
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = json(&out);
    assert_valid("probe", &doc);
    assert_eq!(
        findings(&doc),
        [("no-tools-listed".to_string(), false)],
        "{doc:#}"
    );
    let (id, next) = top(&doc);
    assert_eq!(id, "missing-env-var", "{doc:#}");
    assert!(
        next.starts_with("set `MORPH_API_KEY` in the server's environment:"),
        "{next}"
    );
}

#[test]
fn tools_beside_the_warning_or_no_tools_without_one_stay_healthy() {
    // The key set: its tools listed, no warning.
    let out = probe(&[], &["morph"], &[("MORPH_API_KEY", "morphPlanted55")]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("morphPlanted55"));
    assert_eq!(json(&out)["diagnoses"], serde_json::json!([]));
    // Some tools listed beside a warning naming the variable: no failure.
    let out = probe(&[], &["morph-partial"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert!(findings(&doc).iter().all(|(_, note)| *note), "{doc:#}");
    assert_eq!(doc["diagnoses"], serde_json::json!([]));
    // No tools, but resources and prompts, and no warning: a server without tools.
    let out = probe(&[], &["resources"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(findings(&doc), [], "{doc:#}");
    assert_eq!(doc["diagnoses"], serde_json::json!([]));
}
