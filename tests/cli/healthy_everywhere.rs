//! A healthy server shows no alert under any rule, in any host's file, in every format (issue
//! 29): the comparison rows replay each rule with its own host's timings, so a host without
//! reconnect timings (VS Code, Claude Desktop) does not make agent-framework's rules refuse at
//! start and raise `mcpl-down` at attempt 0.

use std::path::Path;

use crate::support::{bin, json, server_mjs, stdout};

/// Each host's file, by the name that selects its host, and the key holding its entries.
const FILES: &[(&str, &str)] = &[
    ("claude_desktop_config.json", "mcpServers"),
    (".vscode/mcp.json", "servers"),
    (".mcp.json", "mcpServers"),
    ("cline_mcp_settings.json", "mcpServers"),
    ("mcpl-servers.json", "mcpServers"),
];

/// Every prediction in a document (any depth): none may see an alert.
fn alerts(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            if m.contains_key("first_down_ms") {
                let down = !m["first_down_ms"].is_null()
                    || m.get("downs_per_day").and_then(|d| d.as_f64()) > Some(0.0);
                if down {
                    out.push(format!("{at}: {v}"));
                }
            }
            for (k, x) in m {
                alerts(x, &format!("{at}.{k}"), out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                alerts(x, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// An alert as the text and the report write it (`mcpl-down lasting: 0 ms (attempt 0)`): an
/// attempt number outside a launch's own label.
fn alert_in(text: &str) -> Option<&str> {
    text.split(['\n', '<', '>'])
        .find(|l| l.contains("(attempt ") && !l.contains("launch "))
}

fn probe(file: &Path, how: &[&str], extra: &[&str]) -> std::process::Output {
    bin()
        .args(["probe", "--config"])
        .arg(file)
        .args(how)
        .args(["--watch", "1s"])
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn a_healthy_server_shows_no_alert_under_any_rule_in_any_hosts_file_in_any_format() {
    for (name, key) in FILES {
        let dir = tempfile::tempdir().expect("a temp dir");
        let file = dir.path().join(name);
        std::fs::create_dir_all(file.parent().expect("a folder")).expect("mkdir");
        let doc = serde_json::json!({*key: {"ok": {"command": "node", "args": [server_mjs()]}}});
        std::fs::write(&file, doc.to_string()).expect("write");
        let html = dir.path().join("report.html");
        for how in [&["--all"][..], &["--server", "ok"][..]] {
            let text = stdout(&probe(&file, how, &[]));
            assert!(
                text.contains("stayed up") || text.contains("still up"),
                "{name} {how:?}: {text}"
            );
            assert_eq!(alert_in(&text), None, "{name} {how:?}: {text}");
            let out = probe(&file, how, &["--json", "--report", &html.to_string_lossy()]);
            let mut found = Vec::new();
            alerts(&json(&out), "", &mut found);
            assert!(found.is_empty(), "{name} {how:?}: {}", found.join("\n"));
            let page = std::fs::read_to_string(&html).expect("the report");
            assert_eq!(alert_in(&page), None, "{name} {how:?}: the report");
        }
    }
}
