//! Every rule speaks for its host (issue 29 item 2; review 4 rows 2, 7 and 16): what an attempt
//! counted as is said in the host's terms, `mcpl-down` appears only where the host raises it,
//! the header and the JSON name the rules that ran, and a file on standard input says which
//! host it was read as.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::support::{bin, json, server_mjs, stderr, stdout};

/// A folder holding `name` (which may be `.vscode/mcp.json`) with `doc` in it.
fn file_with(name: &str, doc: &serde_json::Value) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join(name);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(&path, doc.to_string()).expect("write");
    (dir, path)
}

/// The fixture server with `args`, as an entry's `command` and `args`.
fn server(args: &[&str]) -> serde_json::Value {
    let mut argv = vec![server_mjs()];
    argv.extend(args.iter().map(|a| a.to_string()));
    serde_json::json!({"command": "node", "args": argv})
}

fn probe(file: &Path, extra: &[&str]) -> Output {
    bin()
        .args(["probe", "--config"])
        .arg(file)
        .args(["--launches", "1", "--watch", "1s"])
        .args(extra)
        .output()
        .expect("runs")
}

/// The text with its table rules and runs of white space folded to one space.
fn flat(text: &str) -> String {
    text.replace(['│', '┆', '┌', '┐', '└', '┘', '─', '╞', '╪', '═', '╡'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lines of `text` from the first that starts with `from` to the next that starts with
/// `to` (not included).
fn section<'a>(text: &'a str, from: &str, to: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(from))
        .take_while(|l| !l.starts_with(to) || l.starts_with(from))
        .collect()
}

/// A server that ends right after its handshake, in a Claude Desktop file: the launch table
/// says `failed` (the state Claude Desktop leaves it in), not `reset by handshake`; neither it
/// nor the summary has a `mcpl-down` column for Claude Desktop; the per-rule row reads `n/a`
/// for the alert and the JSON says `raises_alert: false`. The look-alike, the same server in
/// agent-framework's file under `reset-on-handshake`, keeps its count words and its column.
#[test]
fn a_host_that_never_relaunches_speaks_its_own_terms_and_has_no_mcpl_down_column() {
    let doc = serde_json::json!({"mcpServers": {"x": server(&["--exit-after-handshake", "100"])}});
    let (_dir, file) = file_with("claude_desktop_config.json", &doc);
    let out = probe(&file, &["--all"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let summary = section(&text, "┌", "mcpl-down:").join("\n");
    assert!(summary.contains("lasting"), "{text}");
    assert!(
        !summary.contains("desktop"),
        "a Claude Desktop column: {text}"
    );
    assert!(
        text.contains("(Claude Desktop raises none)"),
        "the note under the summary: {text}"
    );
    let launch_table = section(&text, "== x ", "Stopped:").join("\n");
    assert!(launch_table.contains("counted as"), "{text}");
    assert!(launch_table.contains("failed"), "{text}");
    assert!(!launch_table.contains("mcpl-down"), "{text}");
    assert!(!text.contains("reset by handshake"), "{text}");
    let all = flat(&text);
    assert!(
        all.contains(
            "Claude Desktop does not relaunch this server; it stays failed until the app restarts"
        ),
        "{text}"
    );
    assert!(!all.contains("reset the count at its handshake"), "{text}");
    // The per-rule row (its name may break after the hyphen in a narrow column).
    let row = text
        .lines()
        .find(|l| l.starts_with("│ claude-"))
        .expect("a claude-desktop row");
    assert_eq!(row.matches("n/a").count(), 4, "{text}");

    let doc = json(&probe(&file, &["--server", "x", "--format", "json"]));
    let predictions = doc["verdict"]["predictions"]
        .as_array()
        .expect("predictions");
    for p in predictions {
        let host = p["rule"] == "claude-desktop";
        assert_eq!(p["raises_alert"], !host, "{p}");
    }
    assert!(predictions.iter().any(|p| p["rule"] == "claude-desktop"));

    // The look-alike: agent-framework counts, and raises mcpl-down.
    let doc = serde_json::json!({"mcpServers": {"x": server(&["--exit-after-handshake", "100"])}});
    let (_dir, file) = file_with("mcpl-servers.json", &doc);
    let out = probe(&file, &["--all", "--preset", "reset-on-handshake"]);
    let text = stdout(&out);
    let launch_table = section(&text, "== x ", "Stopped:").join("\n");
    assert!(launch_table.contains("reset by handshake"), "{text}");
    assert!(launch_table.contains("mcpl-down"), "{text}");
    assert!(!text.contains("raises none"), "{text}");
}

/// A VS Code file whose stdio entry runs `vscode` and whose URL runs `vscode-http`: the header
/// names both ("under each entry's VS Code rule"), the JSON's `rule` is null and `rules` lists
/// them. The look-alike, two stdio entries, is "under rule vscode" with `rule: "vscode"`.
#[test]
fn a_mixed_file_names_each_entrys_rule_in_the_header_and_the_json() {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let doc = serde_json::json!({"servers": {
        "local": server(&[]),
        "web": {"type": "http", "url": format!("http://127.0.0.1:{port}/mcp")},
    }});
    let (_dir, file) = file_with(".vscode/mcp.json", &doc);
    let text = stdout(&probe(&file, &["--all"]));
    assert!(
        flat(&text).contains("at once under each entry's VS Code rule: vscode, vscode-http,"),
        "{text}"
    );
    let doc = json(&probe(&file, &["--all", "--format", "json"]));
    assert_eq!(doc["rule"], serde_json::Value::Null, "{doc}");
    assert_eq!(doc["rules"], serde_json::json!(["vscode", "vscode-http"]));
    let own: Vec<&serde_json::Value> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| &s["rule"])
        .collect();
    assert_eq!(
        own,
        [
            &serde_json::json!("vscode"),
            &serde_json::json!("vscode-http")
        ]
    );

    let doc = serde_json::json!({"servers": {"a": server(&[]), "b": server(&[])}});
    let (_dir, file) = file_with(".vscode/mcp.json", &doc);
    let text = stdout(&probe(&file, &["--all"]));
    let head = flat(&text);
    assert!(head.contains("at once under rule vscode, seed"), "{text}");
    assert!(!head.contains("each entry's VS Code rule"), "{text}");
    let doc = json(&probe(&file, &["--all", "--format", "json"]));
    assert_eq!(doc["rule"], "vscode");
    assert_eq!(doc["rules"], serde_json::json!(["vscode"]));
}

/// `probe --config -`: standard input has no name to tell its host by, so a note says it is
/// read as agent-framework's; `--host claude-desktop` reads it as Claude Desktop's, under its
/// rule, and needs no note.
#[test]
fn a_file_on_standard_input_says_which_host_it_was_read_as_and_takes_host() {
    let doc = serde_json::json!({"mcpServers": {"filesystem": server(&[])}});
    let piped = |extra: &[&str]| {
        let mut child = bin()
            .args(["probe", "--config", "-", "--server", "filesystem"])
            .args(["--launches", "1", "--watch", "300ms"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(doc.to_string().as_bytes())
            .expect("write");
        child.wait_with_output().expect("runs")
    };
    let out = piped(&[]);
    let (text, err) = (flat(&stdout(&out)), flat(&stderr(&out)));
    assert!(
        err.contains(
            "standard input has no file name to tell its host by: read as agent-framework's file"
        ),
        "{err}"
    );
    assert!(err.contains("give --host"), "{err}");
    assert!(text.contains("as agent-framework reads it"), "{text}");

    let out = piped(&["--host", "claude-desktop"]);
    let (text, err) = (flat(&stdout(&out)), flat(&stderr(&out)));
    assert!(!err.contains("standard input"), "{err}");
    assert!(text.contains("as Claude Desktop reads it"), "{text}");
    assert!(text.contains("under rule claude-desktop"), "{text}");
}
