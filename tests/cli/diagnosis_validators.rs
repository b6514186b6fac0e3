//! A JavaScript validation library's error at start, through the real binary and a real child
//! process (fixtures/servers/validators.mjs, no package installed): zod 3's and zod 4's
//! `ZodError` (its issues' JSON), @t3-oss/env-core's field-error map, yup's `ValidationError`
//! whose environment dump pushes its head out of the stderr tail. Each field is tied to the
//! entry's variable; a healthy look-alike gets no cause.

use serde_json::Value;

use crate::support::{probe_fixture_mode, text_field as field};

const ENV: &[&str] = &[
    "VALIDATORS_API_KEY",
    "VALIDATORS_LOG_LEVEL",
    "VALIDATORS_API_URL",
    "VALIDATORS_USERNAME",
    "VALIDATORS_PASSWORD",
    "VALIDATORS_PASS",
];

fn run(mode: &str, env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    probe_fixture_mode("node", "servers/validators.mjs", mode, ENV, env)
}

const KEY: (&str, &str) = ("VALIDATORS_API_KEY", "sk-test-1234");

#[test]
fn a_zod3_issue_list_names_the_variable_it_lacks() {
    let (code, d) = run("zod3", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `VALIDATORS_API_KEY` "), "{next}");
}

#[test]
fn a_zod3_enum_issue_names_the_set_variable() {
    let (code, d) = run("zod3", &[KEY, ("VALIDATORS_LOG_LEVEL", "verbose")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("change `VALIDATORS_LOG_LEVEL` "), "{next}");
    assert!(next.contains("'debug' | 'info'"), "{next}");
    // Look-alike: the same check passes and it serves.
    let (code, d) = run("zod3", &[KEY, ("VALIDATORS_LOG_LEVEL", "debug")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_zod4_url_issue_asks_for_the_scheme_not_the_reports_file_url() {
    let (code, d) = run("zod4", &[KEY, ("VALIDATORS_API_URL", "api.example.com/v1")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("VALIDATORS_API_URL"), "{next}");
    assert!(next.contains("`https://api.example.com/v1`"), "{next}");
    assert!(!next.contains("file://"), "{next}");
}

#[test]
fn a_t3_env_field_map_names_the_set_variable() {
    let (code, d) = run("t3", &[KEY, ("VALIDATORS_LOG_LEVEL", "verbose")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("change `VALIDATORS_LOG_LEVEL` "), "{next}");
}

#[test]
fn a_yup_error_whose_head_scrolled_out_is_read_whole() {
    let (code, d) = run("yup", &[("VALIDATORS_LOG_LEVEL", "verbose")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`VALIDATORS_LOG_LEVEL`"), "{next}");
}

#[test]
fn a_zod_error_logged_by_a_server_that_serves_is_no_cause() {
    let (code, d) = run("zod3-caught", &[("VALIDATORS_LOG_LEVEL", "verbose")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn an_issue_whose_message_names_variables_asks_for_that_whole_name_not_the_fields_word() {
    // @elastic/mcp-server-elasticsearch with ES_PASS beside ES_USERNAME: a refine issue at
    // path username.password whose message names ES_PASSWORD: rename, never `PASSWORD`.
    let secret = "esPlanted9Secret";
    let user = ("VALIDATORS_USERNAME", "elastic");
    let (code, d) = run("refine", &[user, ("VALIDATORS_PASS", secret)]);
    assert_eq!(code, Some(1), "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("rename `VALIDATORS_PASS` to `VALIDATORS_PASSWORD`"),
        "{next}"
    );
    assert!(!format!("{d:?}").contains(secret), "{d:#?}");
    // Nothing close set: the whole name the message gives.
    let (code, d) = run("refine", &[user]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `VALIDATORS_PASSWORD`"), "{next}");
    // Look-alike: the password under its name: it serves.
    let (code, d) = run("refine", &[user, ("VALIDATORS_PASSWORD", secret)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}
