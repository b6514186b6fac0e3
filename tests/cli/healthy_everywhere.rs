//! A healthy server shows no alert under any rule, in any host's file, in every format (issue
//! 29): the comparison rows and the report's day strips replay each rule with its own host's
//! timings, so a host without reconnect timings (VS Code, Claude Desktop) does not make
//! agent-framework's rules refuse at start and raise `mcpl-down` at attempt 0.
//!
//! The matrix: every host's file (one healthy entry each), `--all` and `--server`, no
//! `--preset` and every preset, text (with the HTML report and the SVG), JSON and events.
//! Without a preset every combination runs; with one, each host takes one of the six
//! combinations in turn, so every preset meets every format and both ways of choosing the
//! entry. A flapping server (the look-alike) must set off every detector used here.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::support::{bin, server_mjs, stderr, stdout};

/// Each host's file: the host's name (as the JSON's `entry.host` says it), the file's path
/// (the name, or the folder, that selects the host) and the key of its table.
const HOSTS: &[(&str, &str, &str)] = &[
    ("agent-framework", "mcpl-servers.json", "mcplServers"),
    ("claude-desktop", "claude_desktop_config.json", "mcpServers"),
    ("claude-code", ".mcp.json", "mcpServers"),
    ("vscode", ".vscode/mcp.json", "servers"),
    ("cursor", ".cursor/mcp.json", "mcpServers"),
    ("windsurf", "mcp_config.json", "mcpServers"),
    ("cline", "cline_mcp_settings.json", "mcpServers"),
    ("zed", "settings.json", "context_servers"),
    ("copilot", "mcp-config.json", "mcpServers"),
];

/// How long a connection must stay up for the run to end: short, the matrix is large.
const WATCH: &str = "200ms";

/// Runs at once (each mostly waits for node to start).
const WORKERS: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    /// The text report, with `--report` and `--svg`.
    Text,
    Json,
    Events,
}

const WAYS: [(bool, Format); 6] = [
    (true, Format::Text),
    (false, Format::Json),
    (true, Format::Events),
    (false, Format::Text),
    (true, Format::Json),
    (false, Format::Events),
];

/// One probe of the matrix.
#[derive(Debug, Clone)]
struct Case {
    host: &'static str,
    file: PathBuf,
    preset: Option<String>,
    /// `--all`, else `--server ok`.
    all: bool,
    format: Format,
}

/// What a run showed: its stdout, and the report and the picture it wrote (text runs).
struct Shown {
    out: Output,
    pages: Vec<(&'static str, String)>,
}

/// Every alert in one run's output, by where it was seen; none for a healthy server.
fn alerts(format: Format, shown: &Shown) -> Vec<String> {
    let text = stdout(&shown.out);
    let mut found = Vec::new();
    match format {
        Format::Text => {
            found.extend(
                alerts_in_text(&text)
                    .into_iter()
                    .map(|l| format!("text: {l}")),
            );
            for (name, page) in &shown.pages {
                found.extend(
                    alerts_in_text(page)
                        .into_iter()
                        .map(|l| format!("{name}: {l}")),
                );
            }
        }
        Format::Json => match serde_json::from_str(&text) {
            Ok(doc) => alerts_in_json(&doc, "", &mut found),
            Err(e) => found.push(format!("not a JSON document ({e}): {text}")),
        },
        Format::Events => {
            for (i, line) in text.lines().enumerate() {
                match serde_json::from_str(line) {
                    Ok(doc) => alerts_in_json(&doc, &format!("line {}", i + 1), &mut found),
                    Err(e) => found.push(format!("line {}: not JSON ({e}): {line}", i + 1)),
                }
            }
        }
    }
    found
}

/// An alert as the text, the report and the picture write it: a first `mcpl-down` with its
/// attempt (`mcpl-down lasting: 0 ms (attempt 0)`, a cell `9 s (attempt 5)`: an attempt number
/// outside a launch's own label), an alert raised on a launch (`mcpl-down on launch 6`,
/// `mcpl-down raised` in the report's marks), or a day strip with mcpl-down in it
/// (`1.00 mcpl-down/day`).
fn alerts_in_text(text: &str) -> Vec<String> {
    text.split(['\n', '<', '>'])
        .filter(|l| {
            let first_down = l.contains("(attempt ") && !l.contains("launch ");
            let raised = l.contains("mcpl-down on launch") || l.contains("mcpl-down raised");
            let per_day = l
                .split(", ")
                .filter_map(|part| part.strip_suffix(" mcpl-down/day"))
                .any(|n| n.rsplit(' ').next() != Some("0"));
            first_down || raised || per_day
        })
        .map(str::to_string)
        .collect()
}

/// Every alert in a document (any depth): a prediction with a first `mcpl-down` or downs a
/// day, a launch that raised one (`alert`), folded launches that did (`alerts`), an `alert`
/// event.
fn alerts_in_json(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            let predicted = m.contains_key("first_down_ms")
                && (!m["first_down_ms"].is_null()
                    || m.get("downs_per_day").and_then(|d| d.as_f64()) > Some(0.0));
            let seen = [
                (predicted, "predicted: first_down_ms"),
                (
                    m.get("alert").is_some_and(|a| !a.is_null()),
                    "raised: alert",
                ),
                (
                    m.get("alerts").and_then(|a| a.as_u64()) > Some(0),
                    "raised: alerts",
                ),
                (
                    m.get("event").and_then(|e| e.as_str()) == Some("alert"),
                    "raised: an alert event",
                ),
            ];
            for (_, what) in seen.iter().filter(|(yes, _)| *yes) {
                out.push(format!("{at}: {what}: {}", short(&v.to_string())));
            }
            for (k, x) in m {
                alerts_in_json(x, &format!("{at}.{k}"), out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                alerts_in_json(x, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn short(s: &str) -> String {
    s.chars().take(300).collect()
}

/// A folder holding one host's file with one entry, `ok`, running `fixture_args`.
fn host_file(dir: &Path, name: &str, key: &str, fixture_args: &[&str], extra: &str) -> PathBuf {
    let file = dir.join(name);
    std::fs::create_dir_all(file.parent().expect("a folder")).expect("mkdir");
    let mut args = vec![server_mjs()];
    args.extend(fixture_args.iter().map(|a| a.to_string()));
    let mut entry = serde_json::json!({"command": "node", "args": args});
    if !extra.is_empty() {
        let more: serde_json::Value = serde_json::from_str(extra).expect("extra fields");
        for (k, v) in more.as_object().expect("an object") {
            entry[k] = v.clone();
        }
    }
    let doc = serde_json::json!({ key: {"ok": entry} });
    std::fs::write(&file, doc.to_string()).expect("write");
    file
}

/// Probe `case`, with `extra` arguments, writing its report and picture into `out_dir` (text).
fn probe(case: &Case, out_dir: &Path, n: usize, extra: &[&str]) -> Shown {
    let mut cmd = bin();
    cmd.args(["probe", "--config"]).arg(&case.file);
    if case.all {
        cmd.arg("--all");
    } else {
        cmd.args(["--server", "ok"]);
    }
    if let Some(p) = &case.preset {
        cmd.args(["--preset", p]);
    }
    cmd.args(extra);
    let html = out_dir.join(format!("report-{n}.html"));
    let svg = out_dir.join(format!("timeline-{n}.svg"));
    match case.format {
        Format::Text => {
            cmd.arg("--report").arg(&html).arg("--svg").arg(&svg);
        }
        Format::Json => {
            cmd.args(["--format", "json"]);
        }
        Format::Events => {
            cmd.args(["--format", "events"]);
        }
    }
    let out = cmd.output().expect("runs");
    let pages = match case.format {
        Format::Text => [("report", &html), ("svg", &svg)]
            .into_iter()
            .map(|(name, p)| (name, std::fs::read_to_string(p).unwrap_or_default()))
            .collect(),
        _ => Vec::new(),
    };
    Shown { out, pages }
}

/// Every preset `probe --preset` takes, from its own refusal of one it does not (so a new
/// preset joins the matrix by itself).
fn presets() -> Vec<String> {
    let out = bin()
        .args(["probe", "--preset", "no-such-rule", "--", "true"])
        .output()
        .expect("runs");
    let err = stderr(&out);
    let list = err
        .split("[possible values: ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or_else(|| panic!("no list of presets in: {err}"));
    let presets: Vec<String> = list.split(", ").map(str::to_string).collect();
    assert!(
        presets.len() >= 20 && presets.iter().any(|p| p == "claude-desktop"),
        "{presets:?}"
    );
    presets
}

/// Run `cases` on `WORKERS` threads, with `extra` arguments; each result with its case.
fn run_all(cases: &[Case], out_dir: &Path, extra: &[&str]) -> Vec<(Case, Shown)> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(n) else { break };
                let shown = probe(case, out_dir, n, extra);
                results
                    .lock()
                    .expect("not poisoned")
                    .push((case.clone(), shown));
            });
        }
    });
    results.into_inner().expect("not poisoned")
}

#[test]
fn a_healthy_server_shows_no_alert_under_any_rule_in_any_hosts_file_in_any_format() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let presets = presets();
    let mut cases = Vec::new();
    for (i, (host, name, key)) in HOSTS.iter().enumerate() {
        let folder = dir.path().join(host);
        let file = host_file(&folder, name, key, &[], "");
        for (all, format) in WAYS {
            cases.push(Case {
                host,
                file: file.clone(),
                preset: None,
                all,
                format,
            });
        }
        for (j, preset) in presets.iter().enumerate() {
            let (all, format) = WAYS[(i + j) % WAYS.len()];
            cases.push(Case {
                host,
                file: file.clone(),
                preset: Some(preset.clone()),
                all,
                format,
            });
        }
    }
    let results = run_all(&cases, dir.path(), &["--watch", WATCH]);
    assert_eq!(results.len(), cases.len());
    let mut bad = Vec::new();
    let mut hosts_read = std::collections::BTreeSet::new();
    for (case, shown) in &results {
        let label = format!(
            "{} {} {:?} {:?}",
            case.host,
            if case.all { "--all" } else { "--server ok" },
            case.preset,
            case.format
        );
        if shown.out.status.code() != Some(0) {
            bad.push(format!(
                "{label}: exit {:?} (a healthy server exits 0)\n{}{}",
                shown.out.status.code(),
                stdout(&shown.out),
                stderr(&shown.out)
            ));
            continue;
        }
        // The file was read as its host's (one server's JSON names the host).
        if case.format == Format::Json && !case.all {
            let doc: serde_json::Value =
                serde_json::from_str(&stdout(&shown.out)).unwrap_or_default();
            if doc["entry"]["host"] == case.host {
                hosts_read.insert(case.host);
            } else {
                bad.push(format!("{label}: read as {}", doc["entry"]["host"]));
            }
        }
        if case.format == Format::Text && shown.pages.iter().any(|(_, p)| p.is_empty()) {
            bad.push(format!("{label}: the report or the picture is missing"));
        }
        for alert in alerts(case.format, shown) {
            bad.push(format!("{label}: {alert}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} runs:\n{}",
        bad.len(),
        results.len(),
        bad.join("\n")
    );
    assert_eq!(hosts_read.len(), HOSTS.len(), "{hosts_read:?}");
}

/// The look-alike: a server that exits right after each handshake, in agent-framework's file
/// (its alert raised during the run) and in VS Code's (whose host raises none, but
/// agent-framework's rules, replayed, do). Every format's detector must see the alert.
#[test]
fn a_flapping_server_sets_off_every_alert_detector() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let flapping = ["--exit-after-handshake", "50"];
    let af = host_file(
        &dir.path().join("af"),
        "mcpl-servers.json",
        "mcplServers",
        &flapping,
        r#"{"reconnectIntervalMs": 50}"#,
    );
    let vscode = host_file(
        &dir.path().join("vs"),
        ".vscode/mcp.json",
        "servers",
        &flapping,
        "",
    );
    // agent-framework's rule raises the alert on launch 6 (attempt 5); VS Code's relaunches
    // on the next use, so its one launch is all the comparison rows replay.
    let mut cases = Vec::new();
    for (host, file) in [("agent-framework", &af), ("vscode", &vscode)] {
        for (all, format) in &WAYS[..3] {
            cases.push(Case {
                host,
                file: file.clone(),
                preset: None,
                all: *all,
                format: *format,
            });
        }
    }
    // A long watch: the server's own exit ends each connection, however slow the machine.
    let results = run_all(&cases, dir.path(), &["--watch", "30s", "--launches", "6"]);
    assert_eq!(results.len(), cases.len());
    for (case, shown) in &results {
        let found = alerts(case.format, shown);
        let label = format!("{} all={} {:?}", case.host, case.all, case.format);
        let text = stdout(&shown.out);
        assert!(!found.is_empty(), "{label}: no alert seen in\n{text}");
        // Each kind of detector fires where the format has the thing it detects.
        let has = |needle: &str| found.iter().any(|f| f.contains(needle));
        match case.format {
            Format::Text => {
                assert!(has("text: ") && has("(attempt "), "{label}: {found:?}");
                assert!(has("report: "), "{label}: the report: {found:?}");
                assert!(has("mcpl-down/day"), "{label}: the day strips: {found:?}");
                if case.host == "agent-framework" {
                    assert!(has("mcpl-down on launch"), "{label}: {found:?}");
                }
            }
            Format::Json | Format::Events => {
                assert!(has("predicted: first_down_ms"), "{label}: {found:?}");
                if case.host == "agent-framework" {
                    assert!(
                        has("raised: alert:"),
                        "{label}: the launch's alert: {found:?}"
                    );
                }
                if case.host == "agent-framework" && case.format == Format::Events {
                    assert!(has("raised: an alert event"), "{label}: {found:?}");
                }
            }
        }
    }
}
