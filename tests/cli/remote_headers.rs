//! Remote servers that authenticate by header (issue 28 item 1): an entry's `headers`, expanded
//! as its host does, are sent on every request, so a header-key server is healthy through a
//! Claude Code, a VS Code and a Cursor entry and through `probe --url --header`; no header value
//! shows in any output; check-config flags a literal credential in `headers` and an unset one.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::probe_http_eras::EraServer;
use crate::support::{bin, json, launches, stderr, stdout};

const KEY: &str = "h28-api-key-value-kq7x";
const TOKEN: &str = "h28-bearer-token-value-zv3w";

/// A streamable server that wants both headers on every request.
fn keyed_server(extra: &[&str]) -> EraServer {
    let key = format!("X-API-Key: {KEY}");
    let auth = format!("Authorization: Bearer {TOKEN}");
    let mut args = vec!["--require-header", &key, "--require-header", &auth];
    args.extend_from_slice(extra);
    EraServer::start(&args)
}

/// Every output of one probe run: human, --json, --events, the HTML report and the SVG.
fn every_output(make: &dyn Fn() -> Command, dir: &Path) -> Vec<(String, String, Option<i32>)> {
    let mut out = Vec::new();
    let report = dir.join("r.html");
    let svg = dir.join("t.svg");
    let runs: [Vec<String>; 4] = [
        vec![],
        vec!["--json".into()],
        vec!["--events".into()],
        vec![
            "--report".into(),
            report.display().to_string(),
            "--svg".into(),
            svg.display().to_string(),
        ],
    ];
    for extra in runs {
        let o: Output = make()
            .args(&extra)
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        out.push((
            format!("{extra:?}"),
            format!("{}\n--- stderr ---\n{}", stdout(&o), stderr(&o)),
            o.status.code(),
        ));
    }
    for f in [report, svg] {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.is_empty(), "{} written", f.display());
        out.push((f.display().to_string(), text, Some(0)));
    }
    out
}

fn assert_healthy_and_masked(outputs: &[(String, String, Option<i32>)]) {
    for (what, text, code) in outputs {
        assert_eq!(*code, Some(0), "{what}: healthy, exit 0:\n{text}");
        for s in [KEY, TOKEN, "kq7x", "zv3w"] {
            assert!(!text.contains(s), "{what} shows {s:?}:\n{text}");
        }
    }
}

fn probe_entry(file: &Path, env: &[(&str, &str)]) -> Command {
    let mut c = bin();
    c.args(["probe", "--launches", "1", "--watch", "1s", "--config"])
        .arg(file)
        .args(["--server", "api"]);
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

#[test]
fn a_header_key_server_without_its_headers_is_refused_with_401() {
    let server = keyed_server(&[]);
    let o = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--url",
            &server.url("/mcp"),
            "--json",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("401"), "{}", stdout(&o));
}

#[test]
fn header_flags_reach_the_server_and_never_show() {
    let server = keyed_server(&[]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("headers.txt");
    std::fs::write(&file, format!("# the key\nX-API-Key: {KEY}\n")).expect("write");
    let url = server.url("/mcp");
    let auth = format!("Authorization: Bearer {TOKEN}");
    let at_file = format!("@{}", file.display());
    let make = || {
        let mut c = bin();
        c.args(["probe", "--launches", "1", "--watch", "1s", "--url", &url])
            .args(["--header", &auth, "--header", &at_file]);
        c
    };
    let outputs = every_output(&make, dir.path());
    assert_healthy_and_masked(&outputs);
    let doc: serde_json::Value =
        serde_json::from_str(outputs[1].1.split("\n--- stderr ---").next().unwrap_or(""))
            .expect("json");
    let text = launches(&doc)[0].to_string();
    assert!(
        text.contains("still-up") || text.contains("still_up"),
        "{text}"
    );
}

#[test]
fn a_malformed_header_flag_is_a_usage_error_that_hides_the_value() {
    let o = bin()
        .args(["probe", "--url", "http://127.0.0.1:9/mcp", "--header"])
        .arg(format!("X-API-Key {KEY}"))
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--header"), "{}", stderr(&o));
    assert!(!stderr(&o).contains(KEY), "{}", stderr(&o));
}

#[test]
fn claude_code_vscode_and_cursor_entries_send_their_headers() {
    let server = keyed_server(&[]);
    let url = server.url("/mcp");
    let dir = tempfile::tempdir().expect("a temp dir");
    let env = [("H28_KEY", KEY), ("H28_TOKEN", TOKEN)];
    // Claude Code `.mcp.json`: `${VAR}`.
    let claude = dir.path().join(".mcp.json");
    let doc = serde_json::json!({"mcpServers": {"api": {"type": "http", "url": url,
        "headers": {"X-API-Key": "${H28_KEY}", "Authorization": "Bearer ${H28_TOKEN}"}}}});
    std::fs::write(&claude, doc.to_string()).expect("write");
    // VS Code `.vscode/mcp.json`: `${env:VAR}` and an input.
    std::fs::create_dir_all(dir.path().join(".vscode")).expect("mkdir");
    let vscode = dir.path().join(".vscode/mcp.json");
    let doc = serde_json::json!({"servers": {"api": {"type": "http", "url": url,
        "headers": {"X-API-Key": "${env:H28_KEY}", "Authorization": "Bearer ${env:H28_TOKEN}"}}}});
    std::fs::write(&vscode, doc.to_string()).expect("write");
    // Cursor `.cursor/mcp.json`: `${env:VAR}`.
    std::fs::create_dir_all(dir.path().join(".cursor")).expect("mkdir");
    let cursor = dir.path().join(".cursor/mcp.json");
    let doc = serde_json::json!({"mcpServers": {"api": {"url": url,
        "headers": {"X-API-Key": "${env:H28_KEY}", "Authorization": "Bearer ${env:H28_TOKEN}"}}}});
    std::fs::write(&cursor, doc.to_string()).expect("write");
    for file in [&claude, &vscode, &cursor] {
        let out_dir = tempfile::tempdir().expect("a temp dir");
        let outputs = every_output(&|| probe_entry(file, &env), out_dir.path());
        assert_healthy_and_masked(&outputs);
    }
    // Without the variables the host sends `${H28_KEY}` as written (Claude Code) or an empty
    // value (VS Code, Cursor): the server refuses it.
    for file in [&claude, &vscode, &cursor] {
        let o = probe_entry(file, &[])
            .env_remove("H28_KEY")
            .env_remove("H28_TOKEN")
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}: {}",
            file.display(),
            stdout(&o)
        );
    }
}

#[test]
fn check_config_flags_literal_and_unset_header_credentials() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join(".mcp.json");
    let doc = serde_json::json!({"mcpServers": {
        "literal": {"type": "http", "url": "https://example.com/mcp",
            "headers": {"Authorization": format!("Bearer {TOKEN}")}},
        "unset": {"type": "http", "url": "https://example.com/mcp",
            "headers": {"X-API-Key": "${H28_SURELY_UNSET_KEY}"}},
        "fine": {"type": "http", "url": "https://example.com/mcp",
            "headers": {"X-API-Key": "${H28_KEY}", "Accept-Language": "en"}}
    }});
    std::fs::write(&file, doc.to_string()).expect("write");
    for format in ["human", "json", "github", "sarif"] {
        let o = bin()
            .args(["check-config", "--format", format])
            .arg(&file)
            .env("H28_KEY", KEY)
            .env_remove("H28_SURELY_UNSET_KEY")
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        let said = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            !said.contains(TOKEN) && !said.contains(KEY),
            "{format}: {said}"
        );
        if format == "json" {
            let doc = json(&o);
            let codes: Vec<(String, String)> = doc["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .map(|f| {
                    (
                        f["server"].as_str().unwrap_or("").to_string(),
                        f["code"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect();
            assert!(
                codes.contains(&("literal".into(), "literal-secret".into())),
                "{codes:?}"
            );
            assert!(
                codes.contains(&("unset".into(), "variable-unset".into())),
                "{codes:?}"
            );
            assert!(
                !codes.iter().any(|(s, _)| s == "fine"),
                "a set variable and a plain header are fine: {codes:?}"
            );
        }
    }
}

#[test]
fn serve_sends_its_header_flags_and_reports_the_keyed_server_up() {
    use crate::serve::Serve;
    use std::time::Duration;
    let server = keyed_server(&[]);
    let url = server.url("/mcp");
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("headers.txt");
    std::fs::write(&file, format!("X-API-Key: {KEY}\n")).expect("write");
    let auth = format!("Authorization: Bearer {TOKEN}");
    let at_file = format!("@{}", file.display());
    let serve = Serve::start(&[
        "--url", &url, "--name", "keyed", "--header", &auth, "--header", &at_file,
    ]);
    let m = serve.metrics_when(Duration::from_secs(60), |m| {
        m.value(r#"mcpl_doctor_up{server="keyed""#) == Some(1.0)
    });
    let (_, _, page) = serve.get("/", None);
    let (_, _, probed) = serve.get("/probe?server=keyed", None);
    assert!(
        probed.contains(r#"mcpl_doctor_probe_outcome_info{server="keyed""#),
        "{probed}"
    );
    let log = serve.log.clone();
    let status = serve.terminate();
    assert!(status.success(), "{status:?}");
    let said = log.lock().map(|l| l.clone()).unwrap_or_default();
    for (what, text) in [
        ("/metrics", &m.0),
        ("/", &page),
        ("/probe", &probed),
        ("stderr", &said),
    ] {
        for s in [KEY, TOKEN, "kq7x", "zv3w"] {
            assert!(!text.contains(s), "{what} shows {s:?}:\n{text}");
        }
    }
}

#[test]
fn serve_without_the_headers_sees_the_keyed_server_refuse_it() {
    use crate::serve::Serve;
    use std::time::Duration;
    let server = keyed_server(&[]);
    let url = server.url("/mcp");
    let serve = Serve::start(&["--url", &url, "--name", "keyed", "--interval", "200ms"]);
    let m = serve.metrics_when(Duration::from_secs(60), |m| {
        m.at_least(
            r#"mcpl_doctor_launches_total{server="keyed",outcome="failed"}"#,
            1.0,
        )
    });
    assert_ne!(
        m.value(r#"mcpl_doctor_up{server="keyed""#),
        Some(1.0),
        "{}",
        m.0
    );
}

#[test]
fn serve_header_without_a_url_is_a_usage_error() {
    let o = bin()
        .args(["serve", "--header", "X-API-Key: v", "--", "true"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--header"), "{}", stderr(&o));
}
