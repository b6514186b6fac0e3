//! Issue 30 item 4: secrets known by their shape as well as their name reach no output, in
//! every format a probe or check-config writes (text, json, events, html, svg, sarif, github):
//! a URL's userinfo with or without a scheme, `Bearer`/`Basic` credentials anywhere, a header
//! argument without a space, a JSON env value's `Authorization`, the default of
//! `${VAR:-default}`. And what cannot be a secret stays as it is: the `5` after
//! `--auth-timeout` (and an env `TIMEOUT` of `5`) no longer masks every 5 in the report.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::{bin, fixture, stderr, stdout};

/// Each form: its name, and the secret it carries (placed by [`config`]).
const FORMS: &[(&str, &str)] = &[
    ("userinfo without a scheme (arg)", "i30-pg-pass-noscheme"),
    ("userinfo with a scheme (env value)", "i30-pg-pass-scheme"),
    (
        "userinfo without a scheme (env value)",
        "i30-redis-pass-env",
    ),
    ("Bearer anywhere (arg)", "i30Bearer0anywhere"),
    ("Basic anywhere (arg)", "aTMwOmJhc2ljMzA9PQ=="),
    ("header without a space (arg)", "i30-header-nospace"),
    ("JSON env value", "i30-json-env-bearer"),
    ("${VAR:-default}", "i30-default-secret"),
];

/// An agent-framework file whose entry carries every form, and an `--auth-timeout 5` and a
/// `TIMEOUT` of 5 beside a line of numbers the server echoes.
fn config(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("hosts.json");
    let doc = serde_json::json!({"mcplServers": {"shapes": {
        "command": "python3",
        "args": [
            fixture("servers/hostile.py").display().to_string(),
            "--echo",
            format!("app:{}@db.example:5432", FORMS[0].1),
            "--note", format!("Bearer {}", FORMS[3].1),
            "--note", format!("Basic {}", FORMS[4].1),
            "--header", format!("Authorization:Bearer {}", FORMS[5].1),
            "--opt", format!("${{I30_SURELY_UNSET:-{}}}", FORMS[7].1),
            "--auth-timeout", "5",
            "port 1515 and 5 seconds",
            "--exit-after-handshake", "100",
        ],
        "env": {
            "DATABASE_URL": format!("postgres://app:{}@db/x", FORMS[1].1),
            "CACHE": format!("cache:{}@redis.example:6379", FORMS[2].1),
            "OPENAPI_MCP_HEADERS": format!(r#"{{"Authorization":"Bearer {}"}}"#, FORMS[6].1),
            "TIMEOUT": "5",
            "HOSTILE_ECHO_ENV": "DATABASE_URL,CACHE,OPENAPI_MCP_HEADERS,TIMEOUT",
        },
    }}});
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

fn output(o: &std::process::Output) -> String {
    format!("{}\n--- stderr ---\n{}", stdout(o), stderr(o))
}

/// The probe of the entry in `config`, with `extra` options.
fn probe_entry(config: &Path, extra: &[&str]) -> Command {
    let mut c = bin();
    c.args(["probe", "--launches", "2", "--interval", "50ms", "--config"])
        .arg(config)
        .args(["--server", "shapes"])
        .args(extra)
        .env_remove("I30_SURELY_UNSET")
        .stdin(Stdio::null());
    c
}

/// The same server as a bare command, `probe -- python3 hostile.py ...`, the env forms in the
/// environment it inherits from the probe.
fn probe_command(extra: &[&str]) -> Command {
    let mut c = bin();
    c.args(["probe", "--launches", "2", "--interval", "50ms"])
        .args(extra)
        .arg("--")
        .args([
            "python3",
            &fixture("servers/hostile.py").display().to_string(),
        ])
        .args(["--echo", "--auth-timeout", "5", "port 1515 and 5 seconds"])
        .args(["--exit-after-handshake", "100"])
        .env(
            "DATABASE_URL",
            format!("postgres://app:{}@db/x", FORMS[1].1),
        )
        .env("CACHE", format!("cache:{}@redis.example:6379", FORMS[2].1))
        .env(
            "OPENAPI_MCP_HEADERS",
            format!(r#"{{"Authorization":"Bearer {}"}}"#, FORMS[6].1),
        )
        .env("TIMEOUT", "5")
        .env(
            "HOSTILE_ECHO_ENV",
            "DATABASE_URL,CACHE,OPENAPI_MCP_HEADERS,TIMEOUT",
        )
        .stdin(Stdio::null());
    c
}

/// Every format: the probe's text, json, events, HTML report and SVG (each run made by
/// `probe`); check-config's text, json, sarif and github.
fn every_format(
    probe: &dyn Fn(&[&str]) -> Command,
    config: &Path,
    dir: &Path,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, format) in [("text", "human"), ("json", "json"), ("events", "events")] {
        let o = probe(&["--format", format]).output().expect("runs");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", output(&o));
        out.push((name.to_string(), output(&o)));
    }
    let (html, svg) = (dir.join("r.html"), dir.join("t.svg"));
    let o = probe(&[
        "--report",
        html.to_str().expect("UTF-8"),
        "--svg",
        svg.to_str().expect("UTF-8"),
    ])
    .output()
    .expect("runs");
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", output(&o));
    for (name, file) in [("html", &html), ("svg", &svg)] {
        let text = std::fs::read_to_string(file).expect("written");
        out.push((name.to_string(), text));
    }
    for format in ["human", "json", "sarif", "github"] {
        let o = Command::new(env!("CARGO_BIN_EXE_mcpl-doctor"))
            .args(["check-config", "--format", format])
            .arg(config)
            .output()
            .expect("runs");
        out.push((format!("check-config {format}"), output(&o)));
    }
    out
}

#[test]
fn secrets_by_shape_reach_no_format_and_a_number_is_never_masked() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = config(dir.path());
    let mut outputs = every_format(&|extra| probe_entry(&config, extra), &config, dir.path());
    let bare = every_format(&probe_command, &config, dir.path());
    outputs.extend(
        bare.into_iter()
            .map(|(f, t)| (format!("bare command, {f}"), t)),
    );
    let mut shown = Vec::new();
    for (format, text) in &outputs {
        for (form, secret) in FORMS {
            if text.contains(secret) {
                shown.push(format!("{format}: {form} ({secret})"));
            }
        }
    }
    assert!(shown.is_empty(), "shown:\n{}", shown.join("\n"));
    // The server did say them: masked, not absent.
    let json = &outputs[1].1;
    assert!(json.contains("[redacted]"), "{json}");
    // Numbers stay numbers: `--auth-timeout 5` and `TIMEOUT=5` are no secrets.
    for (format, text) in &outputs {
        assert!(!text.contains("1[redacted]"), "{format}: {text}");
        assert!(!text.contains("[redacted] seconds"), "{format}: {text}");
    }
    assert!(json.contains("port 1515 and 5 seconds"), "{json}");
    assert!(json.contains("TIMEOUT=5"), "{json}");
}
