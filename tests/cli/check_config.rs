//! `check-config` against the files in `fixtures/configs/`: every code at its line and column,
//! exit statuses, the three formats, bad input, and no secret in any output.

use std::io::Write;
use std::process::{Output, Stdio};

use mcpl_doctor::engine::config::Code;
use serde_json::Value;

use crate::support::{bin, fixture, run, stderr, stdout};

/// Run in the fixtures folder so file names in the output are short and stable.
fn check(args: &[&str]) -> Output {
    bin()
        .current_dir(fixture("configs"))
        .arg("check-config")
        .args(args)
        .env_remove("FILES_INTERVAL")
        .env_remove("FILES_CAP")
        .env_remove("REMOTE_TOKEN")
        .env_remove("MCPL_DOCTOR_UNSET_FOR_TESTS")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn json_of(out: &Output) -> Value {
    match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON ({e}):\n{}\n{}", stdout(out), stderr(out)),
    }
}

/// (code, line, column) of every finding, in order.
fn findings(out: &Output) -> Vec<(String, u64, u64)> {
    let doc = json_of(out);
    doc["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["code"].as_str().unwrap_or("?").to_string(),
                        f["line"].as_u64().unwrap_or(0),
                        f["column"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

type Expected = &'static [(&'static str, u64, u64)];

/// Each invalid fixture: its findings under the default preset, and the exit status.
const INVALID: &[(&str, Expected, i32)] = &[
    (
        "hosts.json",
        &[
            ("reconnect-timing", 9, 34),
            ("cleartext-credential", 14, 20),
            ("lasting-threshold-long", 16, 37),
            ("timing-boolean", 22, 80),
        ],
        1,
    ),
    (
        "binding.json",
        &[
            ("binding", 3, 33),
            ("binding", 4, 5),
            ("binding", 5, 27),
            ("binding", 6, 24),
            ("binding", 7, 31),
            ("binding", 8, 39),
            ("binding", 9, 40),
            ("protocol", 10, 52),
            ("protocol", 11, 68),
        ],
        1,
    ),
    (
        "modern.json",
        &[
            ("modern-timeout", 5, 27),
            ("mcpl-policy-on-modern", 6, 17),
            ("mcpl-policy-on-modern", 7, 30),
            ("modern-timeout", 12, 27),
            ("mcpl-policy-on-modern", 13, 28),
        ],
        1,
    ),
    (
        "timings.json",
        &[
            ("reconnect-timing", 3, 74),
            ("reconnect-timing", 4, 81),
            ("reconnect-timing", 5, 80),
            ("reconnect-timing", 6, 74),
            ("reconnect-timing", 7, 76),
            ("reconnect-timing", 8, 79),
            ("reconnect-timing", 9, 75),
            ("timing-boolean", 10, 74),
            ("timing-string", 11, 76),
            ("timing-array", 12, 75),
            ("cap-below-interval", 13, 110),
            ("timing-over-timer-limit", 14, 81),
            ("lasting-threshold-long", 14, 81),
            ("lasting-threshold-long", 15, 76),
            ("timing-unused", 16, 57),
            ("reconnect-not-boolean", 17, 47),
            ("reconnect-timing", 18, 75),
        ],
        1,
    ),
    (
        "recipe.json",
        &[
            ("reconnect-timing", 7, 30),
            ("timing-env-var", 7, 30),
            ("timing-env-var", 8, 33),
        ],
        1,
    ),
    (
        "credentials.json",
        &[
            ("cleartext-credential", 3, 62),
            ("cleartext-credential", 4, 53),
            ("cleartext-credential", 5, 63),
        ],
        0,
    ),
    (
        "structure.json",
        &[
            ("entry-not-object", 3, 13),
            ("duplicate-key", 4, 5),
            ("duplicate-key", 5, 37),
            ("field-type", 6, 41),
            ("field-type", 6, 66),
            ("field-type", 6, 90),
            ("field-type", 6, 103),
            ("server-table", 8, 17),
            ("missing-id", 9, 29),
            ("entry-not-object", 9, 51),
        ],
        1,
    ),
    (
        "typos.json",
        &[
            ("binding", 3, 5),
            ("unknown-field", 3, 11),
            ("unknown-field", 3, 47),
            ("unknown-field", 4, 77),
            ("unknown-field", 5, 29),
            ("unknown-field", 8, 5),
        ],
        1,
    ),
    ("jsonc-registry.json", &[("jsonc-syntax", 3, 5)], 0),
    ("not-hosts.json", &[("no-servers", 1, 1)], 0),
    // Host dialects (issue 18): each read as its host reads it, detected from its name.
    (
        "dialects/vscode/.vscode/mcp.json",
        &[
            ("literal-secret", 7, 38),
            ("variable-unsupported", 7, 85),
            ("env-file-missing", 9, 18),
            ("input-undeclared", 12, 18),
            ("variable-unset", 13, 19),
            ("literal-secret", 14, 25),
        ],
        1,
    ),
    (
        "dialects/claude/claude_desktop_config.json",
        &[
            ("launcher-without-shell-path", 3, 23),
            ("variable-not-expanded", 3, 88),
            ("windows-only-command", 4, 24),
            ("windows-only-command", 5, 25),
        ],
        0,
    ),
    (
        "dialects/project/.mcp.json",
        &[("variable-unsupported", 6, 40), ("variable-unset", 7, 24)],
        0,
    ),
    (
        "minified.json",
        &[
            ("reconnect-timing", 1, 104),
            ("cleartext-credential", 1, 199),
        ],
        1,
    ),
];

/// Files the host loads without a finding.
const VALID: &[&str] = &[
    "registry.json",
    "framework.json",
    "vscode-mcp.json",
    "claude.mcp.json",
    "overlay.agent.json",
];

/// Files the host cannot read at all, and a word of the message each must give.
const UNREADABLE: &[(&str, &str)] = &[
    ("empty.json", "empty"),
    ("bom.json", "byte order mark"),
    ("invalid-utf8.json", "not valid UTF-8"),
    ("not-json.json", "1:1: expected a value"),
    ("syntax-error.json", "3:28: expected ',' or '}'"),
    ("truncated.json", "unexpected end of file"),
    ("no-such-file.json", "cannot read"),
];

#[test]
fn every_invalid_fixture_gives_its_codes_lines_and_columns() {
    for (file, want, status) in INVALID {
        let out = check(&[file, "--format", "json"]);
        let got = findings(&out);
        let want: Vec<(String, u64, u64)> = want
            .iter()
            .map(|(c, l, col)| (c.to_string(), *l, *col))
            .collect();
        assert_eq!(got, want, "{file}");
        assert_eq!(out.status.code(), Some(*status), "{file}: {}", stderr(&out));
    }
}

#[test]
fn fixtures_cover_every_code() {
    let mut seen = std::collections::HashSet::new();
    for (_, want, _) in INVALID {
        for (code, _, _) in *want {
            seen.insert(*code);
        }
    }
    // The `--platform windows`/`macos` fixtures (check_config_platforms.rs).
    seen.extend(crate::check_config_platforms::COVERED);
    for code in Code::ALL {
        assert!(seen.contains(code.as_str()), "no fixture gives {code}");
    }
}

#[test]
fn valid_fixtures_are_clean() {
    for file in VALID {
        let out = check(&[file]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stdout(&out));
        assert_eq!(stdout(&out), "0 errors, 0 warnings in 1 file\n", "{file}");
        assert_eq!(stderr(&out), "", "{file}");
        let out = check(&[file, "--deny-warnings", "--format", "json"]);
        assert_eq!(findings(&out), vec![], "{file}");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn unreadable_files_exit_2_with_a_clear_message() {
    for (file, words) in UNREADABLE {
        let out = check(&[file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = stderr(&out);
        assert!(err.contains(words), "{file}: {err}");
        assert!(err.starts_with(&format!("error: {file}")), "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(stdout(&out).contains("1 file could not be read"), "{file}");
    }
}

#[test]
fn an_unreadable_file_does_not_hide_the_others() {
    let out = check(&["empty.json", "hosts.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc = json_of(&out);
    assert_eq!(doc["findings"].as_array().map(Vec::len), Some(4));
    assert_eq!(doc["unreadable"][0]["file"], "empty.json");
    assert_eq!(doc["summary"]["unreadable"], 1);
}

#[test]
fn exit_status_follows_errors_and_deny_warnings() {
    // Warnings only.
    let out = check(&["credentials.json"]);
    assert_eq!(out.status.code(), Some(0));
    let out = check(&["credentials.json", "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1));
    // Errors.
    let out = check(&["binding.json", "registry.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).ends_with("9 errors, 0 warnings in 2 files\n"));
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["--preset", "kubernetes", "hosts.json"],
        vec!["--format", "xml", "hosts.json"],
        vec![],
        vec!["-", "-"],
    ] {
        let out = check(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&out).is_empty());
    }
}

#[test]
fn human_output_is_compiler_style_with_a_caret() {
    let out = check(&["hosts.json"]);
    let text = stdout(&out);
    let expected = "\
error[reconnect-timing]: `reconnectIntervalMs` is 0
  --> hosts.json:9:34
  server `files`, field `reconnectIntervalMs`, at $.hosts.prod.mcplServers.files.reconnectIntervalMs
  this server uses its timings (reconnect is on), and hosts with the lasting-connection fix refuse it
  at start; older hosts relaunch it with no wait at all (every wait runs after 1 ms)
   |
 9 |           \"reconnectIntervalMs\": 0,
   |                                  ^
";
    assert!(text.starts_with(expected), "{text}");
    // A cut line: a boolean is shown as written (it cannot be a secret), the caret under it.
    let caret = format!("    | {}{}", " ".repeat(24), "^".repeat(4));
    let shown = format!(" 22 | …\"reconnectIntervalMs\": true}}\n{caret}\n");
    assert!(text.contains(&shown), "{text}");
    assert!(
        text.ends_with("\n1 error, 3 warnings in 1 file\n"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "no colour when not a terminal");
    let coloured = check(&["--color", "always", "hosts.json"]);
    assert!(stdout(&coloured).contains("\u{1b}[1;31merror\u{1b}[0m"));
}

#[test]
fn handshake_preset_words_for_main() {
    let out = check(&["hosts.json", "--preset", "handshake", "--format", "json"]);
    let doc = json_of(&out);
    // `handshake` stays accepted; the rule is now named `reset-on-handshake`.
    assert_eq!(doc["preset"], "reset-on-handshake");
    let codes: Vec<&str> = doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["code"].as_str())
        .collect();
    // The lasting threshold is #999's; main has none.
    assert_eq!(
        codes,
        ["reconnect-timing", "cleartext-credential", "timing-boolean"]
    );
    let message = doc["findings"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("older hosts (without the lasting-connection fix) load it"),
        "{message}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_document_has_schema_and_every_field() {
    let out = check(&["hosts.json", "--format", "json"]);
    let doc = json_of(&out);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["files"][0]["file"], "hosts.json");
    assert_eq!(doc["files"][0]["servers"], 3);
    let f = &doc["findings"][0];
    assert_eq!(f["severity"], "error");
    assert_eq!(f["code"], "reconnect-timing");
    assert_eq!(f["file"], "hosts.json");
    assert_eq!(f["line"], 9);
    assert_eq!(f["column"], 34);
    assert_eq!(
        f["path"],
        "$.hosts.prod.mcplServers.files.reconnectIntervalMs"
    );
    assert_eq!(f["server"], "files");
    assert_eq!(f["field"], "reconnectIntervalMs");
    assert!(f["message"]
        .as_str()
        .is_some_and(|m| m.contains("hosts with the lasting-connection fix")));
    assert_eq!(doc["summary"]["errors"], 1);
    assert_eq!(doc["summary"]["warnings"], 3);
}

#[test]
fn github_format_annotates_the_diff() {
    let out = check(&["hosts.json", "empty.json", "--format", "github"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("::error file=empty.json,title=mcpl-doctor%3A cannot read::"));
    assert!(lines[1].starts_with(
        "::error file=hosts.json,line=9,endLine=9,col=34,endColumn=34,title=mcpl-doctor reconnect-timing::server `files`, `reconnectIntervalMs`: "
    ), "{}", lines[1]);
    assert!(lines[2].starts_with(
        "::warning file=hosts.json,line=14,endLine=14,col=20,endColumn=38,title=mcpl-doctor cleartext-credential::"
    ));
    assert_eq!(lines.len(), 6);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn standard_input_is_read_with_dash() {
    let text = std::fs::read(fixture("configs/hosts.json")).unwrap_or_default();
    let mut child = bin()
        .args(["check-config", "-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(&text).expect("stdin takes the file");
    }
    let out = child.wait_with_output().expect("the binary ends");
    let doc = json_of(&out);
    assert_eq!(doc["findings"][0]["file"], "<stdin>");
    assert_eq!(doc["findings"].as_array().map(Vec::len), Some(4));
}

#[test]
fn recipe_values_are_substituted_from_the_environment() {
    let out = bin()
        .current_dir(fixture("configs"))
        .args(["check-config", "recipe.json", "--format", "json"])
        .env("FILES_INTERVAL", "2500")
        .output()
        .expect("the binary runs");
    let got = findings(&out);
    assert_eq!(
        got,
        vec![
            ("timing-env-var".to_string(), 7, 30),
            ("timing-env-var".to_string(), 8, 33)
        ]
    );
    assert_eq!(out.status.code(), Some(0));
}

/// Every secret in the fixtures contains `s3cr3t`; the env PIN is 9876543.
#[test]
fn no_secret_reaches_any_output() {
    let files: Vec<&str> = INVALID
        .iter()
        .map(|(f, _, _)| *f)
        .chain(VALID.iter().copied())
        .chain(UNREADABLE.iter().map(|(f, _)| *f))
        .collect();
    for format in ["human", "json", "github"] {
        for preset in ["lasting", "handshake"] {
            for file in &files {
                let out = check(&[file, "--format", format, "--preset", preset]);
                for (stream, text) in [("stdout", stdout(&out)), ("stderr", stderr(&out))] {
                    for secret in ["s3cr3t", "9876543", "sk-"] {
                        assert!(
                            !text.contains(secret),
                            "{file} --format {format} --preset {preset}: {stream} shows {secret}:\n{text}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_document_100000_levels_deep_is_read() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let depth = 100_000;
    // A server table at the bottom of 100,000 nested objects.
    let mut text = "{\"a\":".repeat(depth);
    text.push_str(
        "{\"mcplServers\": {\"deep\": {\"command\": \"srv\", \"reconnect\": true, \
         \"reconnectIntervalMs\": 0, \"reconnectMaxIntervalMs\": ",
    );
    // And a timing nested 100,000 arrays deep.
    text.push_str(&"[".repeat(depth));
    text.push_str("600000");
    text.push_str(&"]".repeat(depth));
    text.push_str("}}}");
    text.push_str(&"}".repeat(depth));
    let path = dir.path().join("deep.json");
    std::fs::write(&path, &text).expect("written");
    let out = run(&[
        "check-config",
        &path.display().to_string(),
        "--format",
        "json",
    ]);
    let got = findings(&out);
    let codes: Vec<&str> = got.iter().map(|(c, _, _)| c.as_str()).collect();
    assert_eq!(
        codes,
        ["reconnect-timing", "timing-array"],
        "{}",
        stderr(&out)
    );
    assert_eq!(out.status.code(), Some(1));
    let doc = json_of(&out);
    let p = doc["findings"][0]["path"].as_str().unwrap_or("");
    assert!(p.starts_with("$.a.a.a") && p.contains("steps)"), "{p}");

    // Unclosed nesting is a syntax error, not a crash.
    let path = dir.path().join("open.json");
    std::fs::write(&path, "[".repeat(depth)).expect("written");
    let out = run(&["check-config", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&format!("1:{}: unexpected end of file", depth + 1)));
}

#[test]
fn a_large_file_is_read() {
    // 20 MB in a test (the 100 MB figure is in the benchmark); minified on one line, so every
    // finding's column and snippet come from one huge line.
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut text = String::from("{\"mcplServers\":{");
    let mut n: usize = 0;
    while text.len() < 20_000_000 {
        if n > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            "\"s{n}\":{{\"command\":\"node\",\"args\":[\"./s.js\",\"--n\",\"{n}\"],\"token\":\"s3cr3t-{n}\",\
             \"reconnect\":true,\"reconnectIntervalMs\":{},\"reconnectMaxIntervalMs\":600000}}",
            if n % 1000 == 0 { 0 } else { 2000 }
        ));
        n += 1;
    }
    text.push_str("}}");
    let path = dir.path().join("big.json");
    std::fs::write(&path, &text).expect("written");
    let out = run(&["check-config", &path.display().to_string()]);
    let s = stdout(&out);
    let errors = n.div_ceil(1000);
    assert!(
        s.ends_with(&format!("{errors} errors, 0 warnings in 1 file\n")),
        "{}",
        &s[s.len().saturating_sub(200)..]
    );
    assert!(!s.contains("s3cr3t"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn load_servers_resolves_relative_args_against_the_file() {
    // load_servers is for probe; check it here through the library on a fixture.
    let entries = match mcpl_doctor::engine::config::load_servers(&fixture("configs/registry.json"))
    {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let files = &entries[0];
    let args = files
        .binding
        .as_ref()
        .map(|b| b.args.clone())
        .unwrap_or_default();
    let want = fixture("configs/servers/files.js").display().to_string();
    assert_eq!(args, vec![want, "--root".to_string(), "/srv".to_string()]);
}

#[test]
fn typos_are_named_with_the_field_meant_and_its_default() {
    let out = check(&["typos.json", "--format", "json"]);
    let doc = json_of(&out);
    let messages: Vec<(String, String)> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap_or("").to_string(),
                f["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let about = |field: &str| {
        messages
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| panic!("no finding about {field}: {messages:?}"))
    };
    assert!(about("reconectMaxIntervalMs").contains(
        "did you mean `reconnectMaxIntervalMs`? The host ignores it, so `reconnectMaxIntervalMs` \
         keeps its default: 300000 ms (5 min)"
    ));
    assert!(about("reconnectIntervalMS")
        .contains("did you mean `reconnectIntervalMs`? The host ignores it, so `reconnectIntervalMs` keeps its default: 5000 ms"));
    assert!(about("comand").contains("did you mean `command`?"));
    assert!(about("description").contains("is not a field the host reads"));
    // The binding error names the typo that hides `command`.
    let binding = &doc["findings"][0];
    assert_eq!(binding["code"], "binding");
    assert!(binding["message"]
        .as_str()
        .unwrap_or("")
        .contains("`comand` in this entry looks like a misspelt `command`"));
    // A misspelt table key.
    let table = doc["findings"]
        .as_array()
        .and_then(|a| a.last())
        .expect("a finding");
    assert!(table["message"]
        .as_str()
        .unwrap_or("")
        .contains("did you mean `mcplServers`?"));
    // Human output: the headline says what is wrong (grep-able), the place follows.
    let text = stdout(&check(&["typos.json"]));
    assert!(
        text.contains(
            "warning[unknown-field]: `reconectMaxIntervalMs` is not a field the host reads\n  \
             --> typos.json:4:77\n"
        ),
        "{text}"
    );
}

#[test]
fn fields_of_claude_and_vs_code_formats_are_not_flagged_there() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vscode = dir.path().join("mcp.json");
    std::fs::write(dir.path().join(".env"), "A=1\n").expect("write");
    std::fs::write(
        &vscode,
        r#"{"servers": {"a": {"type": "stdio", "command": "x", "cwd": ".", "envFile": ".env"}},
 "inputs": []}"#,
    )
    .expect("write");
    let out = check(&[vscode.to_str().unwrap_or_default(), "--format", "json"]);
    assert_eq!(findings(&out), vec![]);
    let registry = dir.path().join("mcpl-servers.json");
    std::fs::write(
        &registry,
        r#"{"mcplServers": {"a": {"type": "stdio", "command": "x"}}}"#,
    )
    .expect("write");
    let out = check(&[registry.to_str().unwrap_or_default(), "--format", "json"]);
    let got = findings(&out);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "unknown-field");
}
