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
    ("probe", "probe.schema.json"),
    ("events", "events.schema.json"),
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
            "--for",
            "10s",
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

/// `probe --json` and every `--events` line of real runs (a server that dies after its
/// handshake under `--until-down`, a WebSocket that closes, a server missing a dependency)
/// validate against `schema probe` / `schema events` as printed by the binary; the schemas
/// are closed, so a member the typed structs do not have fails.
#[test]
fn probe_json_and_events_validate_against_their_schemas() {
    use mcpl_doctor::testing::{WsScenario, WsServer};
    let probe = validator("probe");
    let events = validator("events");
    let ws = WsServer::start(WsScenario::close_after(40, 4000, "idle"));
    let url = ws.url("/mcpl");
    let server = crate::support::server_mjs();
    let ailing = fixture("servers/ailing.mjs").display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec![
            "probe",
            "--until-down",
            "--interval",
            "20ms",
            "--launches",
            "8",
            "--",
            "node",
            &server,
            "--exit-after-handshake",
            "20",
        ],
        vec![
            "probe",
            "--launches",
            "2",
            "--interval",
            "20ms",
            "--url",
            &url,
        ],
        vec![
            "probe",
            "--launches",
            "1",
            "--",
            "node",
            &ailing,
            "--mode",
            "missing-module",
        ],
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for args in runs {
        let mut with_json = args.clone();
        with_json.insert(1, "--json");
        let out = run(&with_json);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{with_json:?}: {e}: {}", stderr(&out)));
        assert_eq!(
            errors_of(&probe, &doc),
            Vec::<String>::new(),
            "{with_json:?}"
        );
        let mut extra = doc.clone();
        extra["launches"][0]["surprise"] = Value::Bool(true);
        assert!(
            !errors_of(&probe, &extra).is_empty(),
            "the probe schema is closed"
        );

        let mut with_events = args.clone();
        with_events.insert(1, "--events");
        let out = run(&with_events);
        let text = stdout(&out);
        assert!(text.lines().count() >= 3, "{with_events:?}: {text}");
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(errors_of(&events, &v), Vec::<String>::new(), "{line}");
            kinds.insert(v["event"].as_str().unwrap_or("?").to_string());
        }
    }
    for kind in [
        "started",
        "launched",
        "connected",
        "ended",
        "alert",
        "waiting",
        "finished",
        "diagnosis",
        "report",
    ] {
        assert!(kinds.contains(kind), "no `{kind}` line in {kinds:?}");
    }
    // A line of a kind the schema does not know fails.
    let bogus = serde_json::json!({"event": "exploded", "launch": 1});
    assert!(!errors_of(&events, &bogus).is_empty());
}
