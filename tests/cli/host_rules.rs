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

fn probe(file: &PathBuf, extra: &[&str]) -> Output {
    bin()
        .args(["probe", "--config"])
        .arg(file)
        .args(["--server", "x", "--watch", "2s", "--launches", "3"])
        .args(extra)
        .output()
        .expect("runs")
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
            "Claude Desktop will not relaunch this server: it stays disconnected until the \
             app restarts"
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
    let (_dir, file) = file_of(".mcp.json", &["--exit-after-handshake", "200", "--plain-mcp"]);
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
