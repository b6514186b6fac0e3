//! Host rules in `probe --config` (issue 18, item 4): an entry follows the rule of the host
//! whose file it is in (hosts.md 4.2, tests/reference/hosts-dialects.md) unless `--preset`
//! says otherwise; the verdict speaks in that host's words and weighs its start budget.

use std::path::PathBuf;
use std::process::Output;

use crate::support::{bin, json, launches, server_mjs, stdout};

/// A folder holding `name`, whose one entry `x` runs the fixture server with `args`.
fn file_of(name: &str, args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut argv = vec![server_mjs()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let doc = serde_json::json!({"mcpServers": {"x": {"command": "node", "args": argv}}});
    let path = dir.path().join(name);
    std::fs::write(&path, doc.to_string()).expect("write");
    (dir, path)
}

/// `probe --config FILE --server x`, 3 launches watched 2 s unless `extra` says otherwise.
fn probe(file: &PathBuf, extra: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(file)
        .args(["--server", "x", "--launches", "3"])
        .args(extra);
    if !extra.contains(&"--watch") {
        cmd.args(["--watch", "2s"]);
    }
    cmd.output().expect("runs")
}

#[test]
fn a_claude_desktop_file_follows_claude_desktops_rule_in_its_words() {
    let (_dir, file) = file_of(
        "claude_desktop_config.json",
        &["--exit-after-handshake", "200", "--plain-mcp"],
    );
    let out = probe(&file, &[]);
    let text = stdout(&out);
    assert!(text.contains("under rule claude-desktop"), "{text}");
    let verdict = &text[text.find("Verdict:").expect("a verdict")..];
    let flat = verdict.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Claude Desktop does not relaunch this server; it stays failed until the app \
             restarts"
        ),
        "{text}"
    );
    assert!(!flat.contains("#375"), "{text}");

    // One launch only: Claude Desktop never relaunches.
    let doc = json(&probe(&file, &["--json"]));
    assert_eq!(launches(&doc).len(), 1, "{doc}");

    // --preset still decides when given.
    let doc = json(&probe(&file, &["--json", "--preset", "reset-on-handshake"]));
    assert_eq!(launches(&doc).len(), 3, "{doc}");
}

#[test]
fn a_claude_code_file_weighs_the_handshake_against_claude_codes_start_budget() {
    let (_dir, file) = file_of(
        ".mcp.json",
        &["--exit-after-handshake", "200", "--plain-mcp"],
    );
    let out = probe(&file, &[]);
    let text = stdout(&out);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("under rule claude-code-stdio"), "{text}");
    assert!(
        flat.contains("within Claude Code's 30 s start budget"),
        "{text}"
    );
    assert!(
        flat.contains("Claude Code waits for the next tool call to relaunch this server"),
        "{text}"
    );
}

#[test]
fn a_cline_file_weighs_the_handshake_against_clines_60_s_start_budget() {
    let (_dir, file) = file_of("cline_mcp_settings.json", &["--plain-mcp"]);
    let out = probe(&file, &["--json"]);
    let doc = json(&out);
    assert_eq!(doc["entry"]["host"], "cline", "{doc}");
    let text = stdout(&probe(&file, &[]));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("under rule cline-stdio"), "{text}");
    assert!(flat.contains("within Cline's 1 min start budget"), "{text}");
}

/// The server's `serverInfo`-side facts of launch 1 in a `--json` probe.
fn server_of(doc: &serde_json::Value) -> &serde_json::Value {
    &launches(doc)[0]["server"]
}

#[test]
fn over_stdio_the_version_answered_is_reported_against_the_one_offered() {
    // An editor's client offers the SDK's newest version and accepts an older one.
    let (_dir, file) = file_of(
        ".mcp.json",
        &["--answer", "version:2025-06-18", "--plain-mcp"],
    );
    let doc = json(&probe(&file, &["--json"]));
    let server = server_of(&doc);
    assert_eq!(server["protocol_version"], "2025-06-18", "{doc}");
    assert_eq!(server["offered_version"], "2025-11-25", "{doc}");
    assert_eq!(server["era"], "stdio", "{doc}");
    let text = stdout(&probe(&file, &[]));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("protocol 2025-06-18 (offered 2025-11-25) over stdio"),
        "{text}"
    );

    // agent-framework offers 2024-11-05 and says so too.
    let (_dir, file) = file_of("mcpl-servers.json", &["--plain-mcp"]);
    let doc = json(&probe(&file, &["--json", "--watch", "300ms"]));
    assert_eq!(server_of(&doc)["offered_version"], "2024-11-05", "{doc}");
}

#[test]
fn a_version_the_editors_client_cannot_use_is_a_negotiation_failure_diagnosed() {
    let (_dir, file) = file_of(
        ".mcp.json",
        &["--answer", "version:1999-01-01", "--plain-mcp"],
    );
    let out = probe(&file, &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "server answered protocol version \"1999-01-01\" to initialize offering 2025-11-25"
        ),
        "{text}"
    );
    assert!(flat.contains("Claude Code disconnects"), "{text}");
    assert!(flat.contains("wrong-protocol"), "{text}");
    assert!(
        flat.contains("update the server to a release that speaks 2025-11-25"),
        "{text}"
    );
}
