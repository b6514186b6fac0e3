//! The Why reads structured log lines (slog's logfmt, pino's JSON; `logline.rs`) as their
//! level and message, through the real binary: an error record is the line that says what (its
//! `error=` field, its error object's code), never the INFO/WARN lines around it nor the log's
//! timestamp and keys; a server that logs at any level and stays up has no cause. Each fixture
//! prints the real server's lines (`fixtures/servers/logs.py`, sources named there).

use std::process::{Command, Stdio};

use crate::support::{bin, evidence_texts, fixture, free_port, run_diagnoses, text_field};

fn probe(mode: &str, more: &[&str]) -> Command {
    let logs = fixture("servers/logs.py").display().to_string();
    let mut cmd = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s", "--json", "--"])
        .args(["python3", &logs, "--mode", mode])
        .args(more)
        .env_remove("REDIS_URL")
        .env_remove("API_BASE_URL")
        .stdin(Stdio::null());
    cmd
}

#[test]
fn a_logfmt_error_record_with_a_choice_names_the_flag_and_its_values() {
    // mcp-grafana's `-t http`: cause-unknown quoting the whole slog line before.
    let (code, d) = run_diagnoses(&mut probe("grafana", &["-t", "http"]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(next.contains("`-t http`"), "{next}");
    assert!(next.contains("`stdio`"), "{next}");
    for e in evidence_texts(&d[0], None) {
        assert!(!e.contains("time=") && !e.contains("level="), "{e}");
        assert!(!e.contains("usage statistics"), "an INFO line quoted: {e}");
    }
    // Healthy look-alike: INFO and a WARN with an `error=` field, then it serves.
    let (code, d) = run_diagnoses(&mut probe("grafana", &["-t", "stdio"]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_pino_error_objects_code_reaches_the_node_code_rows() {
    // ECONNREFUSED in `err.code`, at level 60: the doctor's own connect is refused too.
    let port = free_port();
    let url = format!("redis://127.0.0.1:{port}");
    let (code, d) = run_diagnoses(probe("pino-refused", &[]).env("REDIS_URL", &url));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(next.contains(&format!("127.0.0.1:{port}")), "{next}");
    assert!(next.contains("REDIS_URL"), "{next}");
    let tried = evidence_texts(&d[0], None);
    assert!(tried.iter().any(|e| e.contains("refused")), "{tried:?}");
    // ERR_INVALID_URL in `err.code` beside a value without its scheme.
    let (code, d) = run_diagnoses(probe("pino-url", &[]).env("API_BASE_URL", "api.example.com"));
    assert_eq!(code, Some(1), "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(next.contains("API_BASE_URL"), "{d:#?}");
    assert!(next.contains("https://"), "{next}");
    // Healthy look-alike: the scheme given, an INFO record, it serves.
    let (code, d) =
        run_diagnoses(probe("pino-url", &[]).env("API_BASE_URL", "https://api.example.com"));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn an_error_record_on_a_server_that_stays_up_is_no_cause() {
    let (code, d) = run_diagnoses(&mut probe("error-stays-up", &[]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}
