//! Hostile text, round 3 (issue 21 items 2 and 8): secrets in the shapes commands carry them
//! (env prefixes, docker `-e`, headers, URLs in arguments, known token shapes, the environment a
//! server inherits) never reach any format; XML's non-characters never reach the SVG or HTML.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{bin, fixture, stderr, stdout};

fn hostile_py() -> String {
    fixture("servers/hostile.py").display().to_string()
}

/// Not XML characters (U+FFFE, U+FFFF), or noncharacters.
fn is_nonchar(c: char) -> bool {
    (c as u32) & 0xFFFE == 0xFFFE || ('\u{FDD0}'..='\u{FDEF}').contains(&c)
}

// ---------------------------------------------------------------------------------------------
// Item 8: non-characters in the SVG and the HTML report.

#[test]
fn noncharacters_from_a_server_or_a_config_never_reach_the_svg_or_html() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config: PathBuf = dir.path().join("hosts.json");
    let doc = serde_json::json!({"mcpServers": {"a\u{FFFE}b\u{FFFF}c": {
        "command": "python3",
        "args": [hostile_py(), "--nonchars", "--exit-after-handshake", "100"]
    }}});
    std::fs::write(&config, doc.to_string()).expect("write");
    let svg = dir.path().join("t.svg");
    let html = dir.path().join("r.html");
    let runs: [Vec<String>; 2] = [
        vec![
            "--config".into(),
            config.display().to_string(),
            "--all".into(),
        ],
        vec![
            "--".into(),
            "python3".into(),
            hostile_py(),
            "--nonchars".into(),
            "--exit-after-handshake".into(),
            "100".into(),
        ],
    ];
    for run in runs {
        let o = bin()
            .args(["probe", "--launches", "2", "--interval", "50ms", "--svg"])
            .arg(&svg)
            .arg("--report")
            .arg(&html)
            .args(&run)
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        for file in [&svg, &html] {
            let text = std::fs::read_to_string(file).expect("written");
            let bad: Vec<String> = text
                .chars()
                .filter(|&c| is_nonchar(c))
                .map(|c| format!("U+{:04X}", c as u32))
                .collect();
            assert!(bad.is_empty(), "{}: {bad:?}", file.display());
        }
        let text = std::fs::read_to_string(&html).expect("written");
        assert!(text.contains("\\u{ffff}"), "the report says what was there");
    }
}

// ---------------------------------------------------------------------------------------------
// Item 2: secrets in the shapes commands and environments carry them.

/// Values only the shapes around them say are secrets; and tokens only their shape says is one.
const ARG_SECRETS: &[&str] = &[
    "h21-env-prefix-value",
    "h21-docker-e-value",
    "h21-bearer-value",
    "h21-pg-password",
    "h21-query-api-key",
    "h21-dash-t-value",
    "h21-pat-value",
];
const SHAPED: &[&str] = &[
    "ghp_h21h21h21h21h21h21h21h21h21h21h21h",
    "sk-proj-h21h21h21h21h21h21h21h21",
    "xoxb-2121212121-h21h21h21h21",
    "AKIAH21H21H21H21H21H",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJoMjEifQ.aDIxaDIxaDIxaDIx",
];
/// The environment the probe (and so a bare command) has.
const ENV_SECRETS: &[(&str, &str)] = &[
    ("GITHUB_TOKEN", "h21-inherited-github-token"),
    ("AWS_SECRET_ACCESS_KEY", "h21-inherited-aws-secret"),
    ("MY_API_KEY", "h21-inherited-my-api-key"),
];

/// Every output of one probe: human, `--json`, `--events`, the HTML report and the SVG.
/// `make` builds the command with the given options before any `--`.
fn every_format(make: &dyn Fn(&[String]) -> Command, dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in ["human", "--json", "--events", "files"] {
        let report = dir.join("r.html");
        let svg = dir.join("t.svg");
        let extra: Vec<String> = match format {
            "human" => vec![],
            "files" => vec![
                "--report".into(),
                report.display().to_string(),
                "--svg".into(),
                svg.display().to_string(),
            ],
            f => vec![f.to_string()],
        };
        let mut cmd = make(&extra);
        let o = cmd.stdin(Stdio::null()).output().expect("runs");
        let said = format!("{}{}", stdout(&o), stderr(&o));
        out.push((
            format.to_string(),
            format!("{}\n--- stderr ---\n{}", stdout(&o), stderr(&o)),
        ));
        if format == "files" {
            for f in [report, svg] {
                let text = std::fs::read_to_string(&f).unwrap_or_default();
                assert!(!text.is_empty(), "{} written: {said}", f.display());
                out.push((f.display().to_string(), text));
            }
        }
    }
    out
}

fn assert_none_shown(outputs: &[(String, String)], secrets: &[&str]) {
    for (format, text) in outputs {
        for s in secrets {
            assert!(!text.contains(s), "{format} shows {s:?}:\n{text}");
        }
    }
}

/// The probe's own arguments after `--` (with an inline "probe" header, not a secret):
/// `env NAME=VALUE` prefix, docker-style `-e`, a header, a URL's password, a query key, `-t`,
/// `--pat`, and tokens of known shapes given as plain arguments.
fn hostile_command() -> Vec<String> {
    let mut args: Vec<String> = vec![
        "env".into(),
        format!("GITHUB_TOKEN={}", ARG_SECRETS[0]),
        "python3".into(),
        hostile_py(),
        "--echo".into(),
        "-e".into(),
        format!("MY_SERVICE_TOKEN={}", ARG_SECRETS[1]),
        "--header".into(),
        format!("Authorization: Bearer {}", ARG_SECRETS[2]),
        format!("postgresql://app:{}@db.example/app", ARG_SECRETS[3]),
        format!("https://api.example/v1?api_key={}&n=1", ARG_SECRETS[4]),
        "-t".into(),
        ARG_SECRETS[5].into(),
        "--pat".into(),
        ARG_SECRETS[6].into(),
        "--exit-after-handshake".into(),
        "100".into(),
    ];
    for s in SHAPED {
        args.push("--x".into());
        args.push((*s).into());
    }
    args
}

#[test]
fn secrets_in_argument_shapes_token_shapes_and_the_inherited_environment_reach_no_output() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let echo: Vec<&str> = ENV_SECRETS.iter().map(|(k, _)| *k).collect();
    let make = |extra: &[String]| {
        let mut cmd = bin();
        cmd.env("HOSTILE_ECHO_ENV", echo.join(","));
        for (k, v) in ENV_SECRETS {
            cmd.env(k, v);
        }
        cmd.args(["probe", "--launches", "2", "--interval", "50ms"]);
        cmd.args(extra).arg("--").args(hostile_command());
        cmd
    };
    let outputs = every_format(&make, dir.path());
    let mut all: Vec<&str> = ARG_SECRETS.to_vec();
    all.extend(SHAPED);
    all.extend(ENV_SECRETS.iter().map(|(_, v)| *v));
    assert_none_shown(&outputs, &all);
    // The server did say them: masked, not absent.
    assert!(outputs[0].1.contains("[redacted]"), "{}", outputs[0].1);

    // The same from a configuration entry with `inheritEnv: true`.
    let config = dir.path().join("hosts.json");
    let doc = serde_json::json!({"mcplServers": {"srv": {
        "command": "python3",
        "args": hostile_command()[3..].to_vec(),
        "inheritEnv": true,
        "env": {"HOSTILE_ECHO_ENV": echo.join(",")}
    }}});
    std::fs::write(&config, doc.to_string()).expect("write");
    let make = |extra: &[String]| {
        let mut cmd = bin();
        for (k, v) in ENV_SECRETS {
            cmd.env(k, v);
        }
        cmd.args(["probe", "--launches", "2", "--interval", "50ms", "--config"])
            .arg(&config)
            .args(["--server", "srv"])
            .args(extra);
        cmd
    };
    let outputs = every_format(&make, dir.path());
    assert_none_shown(&outputs, &all);
}

#[test]
fn secret_url_parameters_reach_no_output() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let url = "ws://127.0.0.1:9/mcp;token=h21-matrix-token?code=h21-oauth-code&jwt=h21-jwt-value&session=h21-session-id&n=1";
    let make = |extra: &[String]| {
        let mut cmd = bin();
        cmd.args([
            "probe",
            "--launches",
            "1",
            "--open-timeout",
            "500ms",
            "--url",
            url,
        ])
        .args(extra);
        cmd
    };
    let outputs = every_format(&make, dir.path());
    assert_none_shown(
        &outputs,
        &[
            "h21-matrix-token",
            "h21-oauth-code",
            "h21-jwt-value",
            "h21-session-id",
        ],
    );
}
