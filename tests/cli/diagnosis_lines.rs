//! The line that says what, read wherever a tool prints it (issue 27), through the real binary:
//! a traceback drawn in rich's box (its head scrolled out of the stderr tail), read as the
//! plain one and tied to the unset variable the server's source reads for what its message
//! means. Each fixture prints a real server's recorded lines (fixtures/servers/README.md names
//! each); each has a healthy look-alike that must not match.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, evidence_texts, fixture, run_diagnoses};

fn probe(script: &str, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--format",
        "json",
        "--",
        "python3",
    ])
    .arg(fixture(script))
    .args(args)
    .env_remove("PAGERDUTY_USER_API_KEY")
    .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn next(d: &Value) -> String {
    d["next_step"].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_rich_traceback_is_read_through_its_box_and_tied_to_the_unset_key() {
    // pagerduty-mcp without PAGERDUTY_USER_API_KEY: `RuntimeError: An API key is required to
    // call the PagerDuty API.` under a rich box whose head scrolled out of the tail.
    let (code, d) = run_diagnoses(&mut probe("servers/richtrace.py", &["key"], &[]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        next(&d[0]).starts_with("set `PAGERDUTY_USER_API_KEY`"),
        "{}",
        next(&d[0])
    );
    assert!(
        !next(&d[0]).contains("PAGERDUTY_API_HOST"),
        "{}",
        next(&d[0])
    );
    let tried = evidence_texts(&d[0], Some("tried"));
    assert!(
        tried.iter().any(|t| t.contains("PAGERDUTY_USER_API_KEY (")),
        "{tried:?}"
    );
    // The look-alikes: the key set (it serves), a rich panel at start (it serves).
    let (code, d) = run_diagnoses(&mut probe(
        "servers/richtrace.py",
        &["key"],
        &[("PAGERDUTY_USER_API_KEY", "pd-key-1")],
    ));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
    let (code, d) = run_diagnoses(&mut probe("servers/richtrace.py", &["panel"], &[]));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_resolver_refusing_the_python_names_the_entrys_python_argument() {
    // uvx --python 3.11 dbt-mcp==2.8.0 (Requires-Python >=3.12,<3.14): uv's refusal, exact.
    let r = run_diagnoses(&mut probe(
        "servers/resolver.py",
        &["--python", "3.11", "dbt-mcp==2.8.0"],
        &[],
    ));
    assert_eq!(r.0, Some(1), "{:#?}", r.1);
    assert_eq!(r.1[0]["id"], "runtime-too-old", "{:#?}", r.1);
    assert!(
        next(&r.1[0]).contains("change `--python 3.11` in the command to `--python 3.12`"),
        "{}",
        next(&r.1[0])
    );
    // The look-alike: the Python it requires, given; it serves.
    let (code, d) = run_diagnoses(&mut probe(
        "servers/resolver.py",
        &["--python", "3.12", "dbt-mcp==2.8.0"],
        &[],
    ));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

fn node_probe(args: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--format",
        "json",
        "--",
        "node",
    ])
    .arg(fixture("servers/inspect.mjs"))
    .args(args)
    .env_remove("MCP_LOG_LEVEL")
    .env_remove("GIT_BASE_DIR")
    .stdin(Stdio::null());
    cmd
}

#[test]
fn a_thrown_errors_property_block_is_read_and_its_field_tied_to_the_variable() {
    // @cyanheads/git-mcp-server's McpError: `Invalid application configuration.` says nothing;
    // its `data.validationErrors.logLevel` says what, and `logLevel` is MCP_LOG_LEVEL.
    let mut cmd = node_probe(&[]);
    cmd.env("MCP_LOG_LEVEL", "verbose");
    let (code, d) = run_diagnoses(&mut cmd);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_ne!(d[0]["id"], "crash", "{d:#?}");
    assert!(next(&d[0]).contains("MCP_LOG_LEVEL"), "{}", next(&d[0]));
    // A message naming its variable: GIT_BASE_DIR, and what it wants.
    let mut cmd = node_probe(&[]);
    cmd.env("GIT_BASE_DIR", "repos");
    let (code, d) = run_diagnoses(&mut cmd);
    assert_eq!(code, Some(1), "{d:#?}");
    let said = next(&d[0]);
    assert!(
        said.contains("GIT_BASE_DIR") && said.contains("absolute"),
        "{said}"
    );
    // The look-alike: a warning object with a nested message printed at start; it serves.
    let (code, d) = run_diagnoses(&mut node_probe(&["warn-object"]));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}
