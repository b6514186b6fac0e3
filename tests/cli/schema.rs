//! `mcpl-doctor schema`: the checked-in schemas under `schema/` are what the binary generates,
//! the configuration schema agrees with the checker on the fixtures, and real output of each
//! subcommand validates against its document's schema.

use std::process::Stdio;

use serde_json::Value;

use crate::support::{bin, fixture, root, run, stderr, stdout};

/// Every schema the binary prints, with its file under `schema/`.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("config", "config.schema.json"),
    ("check-config", "check-config.schema.json"),
    ("simulate", "simulate.schema.json"),
];

pub fn validator(which: &str) -> jsonschema::Validator {
    let out = run(&["schema", which]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let schema: Value = serde_json::from_slice(&out.stdout).expect("a schema is JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("schema {which}: {e}"))
}

pub fn errors_of(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn checked_in_schemas_match_the_binary() {
    for (which, file) in SCHEMAS {
        let out = run(&["schema", which]);
        assert_eq!(out.status.code(), Some(0));
        let path = root().join("schema").join(file);
        let checked_in =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            checked_in == stdout(&out),
            "schema/{file} differs from `mcpl-doctor schema {which}`; regenerate with \
             scripts/completions.sh"
        );
    }
}

#[test]
fn the_config_schema_agrees_with_the_checker() {
    let v = validator("config");
    for ok in [
        "registry.json",
        "framework.json",
        "claude.mcp.json",
        "overlay.agent.json",
        "credentials.json",
    ] {
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture("configs").join(ok)).expect("read"),
        )
        .expect("JSON");
        assert_eq!(errors_of(&v, &doc), Vec::<String>::new(), "{ok}");
    }
    // What an editor flags: a misspelt field, a timing of 0, a boolean timing.
    for (bad, word) in [
        ("typos.json", "reconectMaxIntervalMs"),
        ("hosts.json", "reconnectIntervalMs"),
    ] {
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture("configs").join(bad)).expect("read"),
        )
        .expect("JSON");
        let errors = errors_of(&v, &doc);
        assert!(
            errors.iter().any(|e| e.contains(word)),
            "{bad}: {errors:#?}"
        );
    }
}

#[test]
fn check_config_json_validates_against_its_schema() {
    let v = validator("check-config");
    let files = [
        "hosts.json",
        "binding.json",
        "structure.json",
        "typos.json",
        "timings.json",
        "empty.json",
        "syntax-error.json",
        "registry.json",
    ];
    let out = bin()
        .current_dir(fixture("configs"))
        .arg("check-config")
        .args(files)
        .args(["--format", "json"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(doc["findings"].as_array().is_some_and(|f| f.len() > 20));
    assert_eq!(errors_of(&v, &doc), Vec::<String>::new());
    // A field the struct does not have fails: the schema is closed.
    let mut extra = doc.clone();
    extra["findings"][0]["surprise"] = Value::Bool(true);
    assert!(!errors_of(&v, &extra).is_empty());
}

#[test]
fn unknown_schema_is_a_usage_error() {
    let out = run(&["schema", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn simulate_json_validates_against_its_schema() {
    let v = validator("simulate");
    for args in [
        vec!["simulate", "--json", "--seed", "1", "--rows", "5"],
        vec![
            "simulate",
            "--json",
            "--preset",
            "handshake",
            "--interval",
            "0",
            "--rows",
            "3",
        ],
        vec![
            "simulate",
            "--json",
            "--compare",
            "handshake,lasting",
            "--server",
            "dies-after=300ms",
            "--rows",
            "4",
        ],
        vec!["simulate", "--json", "--cap", "inf", "--rows", "2"],
    ] {
        let out = run(&args);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&out)));
        assert_eq!(errors_of(&v, &doc), Vec::<String>::new(), "{args:?}");
    }
}
