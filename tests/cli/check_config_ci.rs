//! `check-config` where CI lives: SARIF validated against the SARIF 2.1.0 JSON schema vendored
//! under `tests/schemas/` and GitHub's upload rules, GitHub annotations with end positions,
//! folders, globs, `--stdin-filename`, `--output FORMAT=FILE` and `--quiet`.

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::support::{bin, fixture, root, stderr, stdout};

fn check_in(dir: &std::path::Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .arg("check-config")
        .args(args)
        .env_remove("REMOTE_TOKEN")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn check(args: &[&str]) -> Output {
    check_in(&fixture("configs"), args)
}

fn sarif_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("tests/schemas/sarif-schema-2.1.0.json"))
        .expect("the vendored SARIF schema");
    let mut schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    // The schema's two `language` patterns (`run.language`, `toolComponent.language`) are not
    // ECMA-262 regular expressions, so a validator that checks the schema itself refuses it;
    // they are dropped here (this tool writes no `language`), nothing else is changed.
    let mut dropped = 0;
    for def in ["run", "toolComponent"] {
        if let Some(lang) = schema["definitions"][def]["properties"]["language"].as_object_mut() {
            dropped += usize::from(lang.remove("pattern").is_some());
        }
    }
    assert_eq!(dropped, 2, "the schema's language patterns moved");
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// Every fixture with findings, plus one that cannot be read.
const FILES: &[&str] = &[
    "hosts.json",
    "binding.json",
    "modern.json",
    "timings.json",
    "recipe.json",
    "credentials.json",
    "structure.json",
    "typos.json",
    "jsonc-registry.json",
    "not-hosts.json",
    "minified.json",
    "claude.mcp.json",
    "empty.json",
];

fn fingerprints(doc: &Value) -> Vec<(String, String)> {
    doc["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or("").to_string(),
                r["partialFingerprints"]["mcplDoctorFinding/v1"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn sarif_is_valid_sarif_2_1_0_and_keeps_githubs_upload_rules() {
    let validator = sarif_validator();
    let mut args = FILES.to_vec();
    args.extend(["--format", "sarif"]);
    let out = check(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_valid(&validator, &doc, "check-config --format sarif");
    assert_eq!(doc["version"], "2.1.0");
    // GitHub: one run per tool, with the tool's name and version.
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "mcpl-doctor");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    // Every code is a rule, with help and a default level; every result names one.
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), mcpl_doctor::engine::config::Code::ALL.len());
    for r in rules {
        assert!(r["help"]["text"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(["error", "warning"]
            .contains(&r["defaultConfiguration"]["level"].as_str().unwrap_or("")));
    }
    let results = runs[0]["results"].as_array().expect("results");
    assert!(results.len() > 40, "{}", results.len());
    for r in results {
        let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[i]["id"], r["ruleId"]);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        for k in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[k].as_u64().is_some_and(|v| v >= 1), "{k}: {r}");
        }
        assert!(
            region["endLine"].as_u64() > region["startLine"].as_u64()
                || region["endColumn"].as_u64() > region["startColumn"].as_u64(),
            "{r}"
        );
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
            "%SRCROOT%"
        );
    }
    // The unreadable file is a tool notification, and the run says it did not succeed.
    let inv = &runs[0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(
        inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]
            ["artifactLocation"]["uri"],
        "empty.json"
    );
    // Secrets never appear.
    let text = stdout(&out);
    for secret in ["s3cr3t", "hunter2"] {
        assert!(!text.contains(secret), "{secret} in SARIF");
    }
    // Fingerprints: the same on a second run, and when lines move.
    let again: Value = serde_json::from_slice(&check(&args).stdout).expect("JSON");
    assert_eq!(fingerprints(&doc), fingerprints(&again));
    let dir = tempfile::tempdir().expect("a temp dir");
    let original = std::fs::read_to_string(fixture("configs/hosts.json")).expect("read");
    std::fs::write(dir.path().join("hosts.json"), &original).expect("write");
    let before: Value =
        serde_json::from_slice(&check_in(dir.path(), &["hosts.json", "--format", "sarif"]).stdout)
            .expect("JSON");
    std::fs::write(dir.path().join("hosts.json"), format!("\n\n{original}")).expect("write");
    let after: Value =
        serde_json::from_slice(&check_in(dir.path(), &["hosts.json", "--format", "sarif"]).stdout)
            .expect("JSON");
    assert_eq!(fingerprints(&before), fingerprints(&after));
    assert_ne!(
        before["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        after["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    );
    let distinct: std::collections::HashSet<_> = fingerprints(&doc).into_iter().collect();
    assert_eq!(distinct.len(), results.len(), "fingerprints are distinct");
}

#[test]
fn a_clean_run_is_valid_sarif_too() {
    let out = check(&["registry.json", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_valid(&sarif_validator(), &doc, "clean");
    assert_eq!(doc["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn github_annotations_carry_end_positions() {
    let out = check(&["typos.json", "--format", "github"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "::warning file=typos.json,line=4,endLine=4,col=77,endColumn=99,title=mcpl-doctor \
             unknown-field::"
        ),
        "{text}"
    );
    for line in text.lines().filter(|l| l.starts_with("::")) {
        assert!(
            line.contains(",endLine=") && line.contains(",endColumn="),
            "{line}"
        );
    }
}

#[test]
fn folders_are_searched_for_host_files_and_globs_expanded() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    let files = [
        (
            ".vscode/mcp.json",
            r#"{"servers": {"a": {"type": "stdio", "command": "x"}}}"#,
        ),
        (".mcp.json", r#"{"mcpServers": {"b": {"comand": "x"}}}"#),
        (
            "recipes/r.json",
            r#"{"mcpServers": {"c": {"command": "x"}}}"#,
        ),
        (
            "node_modules/p/.mcp.json",
            r#"{"mcpServers": {"d": {"nothing": 1}}}"#,
        ),
        ("package.json", r#"{"name": "x"}"#),
    ];
    for (f, text) in files {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    let out = check_in(root, &[".", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let checked: Vec<&str> = doc["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    assert_eq!(
        checked,
        ["./.mcp.json", "./.vscode/mcp.json", "./recipes/r.json"]
    );
    // A quoted glob.
    let out = check_in(root, &["recipes/*.json", "*.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["summary"]["files"], 2);
    // A folder with no host file, a glob with no match: exit 2 with what was looked for.
    std::fs::create_dir(root.join("empty")).expect("mkdir");
    let out = check_in(root, &["empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no host configuration file in this folder (looked for mcp.json"));
    let out = check_in(root, &["*.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("*.yaml: no file matches this pattern"));
    // A missing file: a near name, and no beside-the-point stdin hint.
    let out = check(&["hots.json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("hint: did you mean hosts.json?"), "{err}");
    assert!(!err.contains("standard input"), "{err}");
}

#[test]
fn stdin_findings_are_placed_on_the_named_file() {
    let mut child = bin()
        .current_dir(fixture("configs"))
        .args([
            "check-config",
            "--stdin-filename",
            ".vscode/mcp.json",
            "--format",
            "github",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(br#"{"servers": {"a": {"comand": "x"}}}"#)
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let text = stdout(&out);
    assert!(
        text.contains("::error file=.vscode/mcp.json,line=1,"),
        "{text}"
    );
    assert!(!text.contains("<stdin>"), "{text}");
    // Without `-` the name has nothing to name.
    let out = check(&["--stdin-filename", "x.json", "hosts.json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn one_run_writes_a_human_log_and_a_sarif_file() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let sarif = dir.path().join("out.sarif");
    let json = dir.path().join("out.json");
    let out = check(&[
        "hosts.json",
        "--output",
        &format!("sarif={}", sarif.display()),
        "--output",
        &format!("json={}", json.display()),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[reconnect-timing]:"));
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).expect("the SARIF file"))
            .expect("JSON");
    assert_valid(&sarif_validator(), &doc, "--output sarif=");
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON file"))
        .expect("JSON");
    assert_eq!(j["summary"]["errors"], 1);
    // Bad FORMAT=FILE values are usage errors.
    for bad in ["sarif", "xml=a", "sarif="] {
        let out = check(&["hosts.json", "--output", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn quiet_prints_findings_only() {
    let out = check(&["registry.json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    let out = check(&["hosts.json", "-q"]);
    let text = stdout(&out);
    assert!(text.starts_with("error[reconnect-timing]:"), "{text}");
    assert!(!text.contains("1 error, 3 warnings"), "{text}");
    let out = check(&["hosts.json", "-q", "--format", "github"]);
    assert!(stdout(&out).lines().all(|l| l.starts_with("::")));
}
