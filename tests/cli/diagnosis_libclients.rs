//! A Node database or cache client's, or a validator's, own failure at start, through the real
//! binary and a real child process (fixtures/servers/libclients.mjs and libclients/, no
//! package installed): joi's thrown `ValidationError` and its `details`, the mongodb driver's
//! `TypeError` on an unset connection string raised in its own package, pg's `ENOTFOUND base`
//! for a value without its scheme, ioredis' refused connect in its error-event line, pg left to
//! its default address. Each with a healthy look-alike that gets no cause (or not that one).

use std::net::TcpListener;

use serde_json::Value;

use crate::support::{probe_fixture_mode, text_field as field};

const ENV: &[&str] = &[
    "LIBCLIENTS_API_KEY",
    "LIBCLIENTS_REGION",
    "LIBCLIENTS_MONGODB_URI",
    "LIBCLIENTS_DATABASE_URL",
    "LIBCLIENTS_CACHE_ADDR",
    "LIBCLIENTS_REDIS_URL",
    "LIBCLIENTS_ES_URL",
    "LIBCLIENTS_ES_RETRIES",
    "LIBCLIENTS_SMTP_HOST",
    "LIBCLIENTS_SMTP_PORT",
    "LIBCLIENTS_REPO_PATH",
    "LIBPG_DATABASE_URL",
    "LIBCLIENTS_NEO4J_PASSWORD",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "google_application_credentials",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];

fn run(mode: &str, env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    probe_fixture_mode("node", "servers/libclients.mjs", mode, ENV, env)
}

/// pg left to its default (the script takes no mode: `default` is ignored).
fn run_pg(env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    probe_fixture_mode(
        "node",
        "servers/libclients/pg-default.mjs",
        "default",
        ENV,
        env,
    )
}

/// A port nothing listens on (bound, then let go).
fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

#[test]
fn joi_asserts_details_name_the_required_variable() {
    // Was cause-unknown quoting `Node.js v20`: the details block under the stack is an issue
    // list (`path: [ 'X' ]`, `type: 'any.required'`).
    let (code, d) = run("joi-assert", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBCLIENTS_API_KEY` "), "{next}");
    let (code, d) = run("joi-assert", &[("LIBCLIENTS_API_KEY", "sk-test-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_libraries_typeerror_on_undefined_is_the_unset_variable_its_caller_reads() {
    // mongodb's `new MongoClient(process.env.X)` unset: `TypeError: Cannot read properties of
    // undefined (reading 'startsWith')` raised in node_modules; the server's frame reads X.
    let (code, d) = run("mongo-unset", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `LIBCLIENTS_MONGODB_URI` in "),
        "{next}"
    );
    let (code, d) = run(
        "mongo-unset",
        &[("LIBCLIENTS_MONGODB_URI", "mongodb://127.0.0.1:27017/db")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_dns_failure_for_a_host_nobody_gave_beside_a_schemeless_address_wants_its_scheme() {
    // pg: `127.0.0.1:5432/db` read under `postgres://base`: `getaddrinfo ENOTFOUND base`.
    let (code, d) = run(
        "pg-url",
        &[("LIBCLIENTS_DATABASE_URL", "127.0.0.1:5432/db")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("write `LIBCLIENTS_DATABASE_URL=127.0.0.1:5432/db` with its scheme"),
        "{next}"
    );
    // Look-alike: the host that does not resolve is the entry's own; another value without a
    // scheme is not blamed.
    let (code, d) = run(
        "pg-url",
        &[
            (
                "LIBCLIENTS_DATABASE_URL",
                "postgres://nohost.invalid:5432/db",
            ),
            ("LIBCLIENTS_CACHE_ADDR", "127.0.0.1:6379"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        d.iter()
            .all(|x| !field(x, "next_step").contains("with its scheme")),
        "{d:#?}"
    );
}

#[test]
fn a_refused_connect_in_a_clients_error_event_line_is_tested() {
    // ioredis: `[ioredis] Unhandled error event: Error: connect ECONNREFUSED 127.0.0.1:P`,
    // then `Error: Connection is closed.` uncaught (was crash).
    let port = free_port();
    let url = format!("redis://127.0.0.1:{port}");
    let (code, d) = run("ioredis", &[("LIBCLIENTS_REDIS_URL", &url)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`LIBCLIENTS_REDIS_URL="), "{next}");
    // Healthy: something listens there.
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("redis://127.0.0.1:{}", l.local_addr().expect("addr").port());
    let (code, d) = run("ioredis", &[("LIBCLIENTS_REDIS_URL", &url)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
    // Look-alike: the same line logged by a server that serves.
    let (code, d) = run("ioredis-logged", &[]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_refused_default_address_names_the_unset_variable_the_server_reads() {
    // pg with its connection string's variable unset connects to its default (was: "set its
    // URL variable or argument", unnamed).
    let (code, d) = run_pg(&[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `LIBPG_DATABASE_URL` to where"),
        "{next}"
    );
    // Healthy: the variable points at a port that answers.
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "postgres://127.0.0.1:{}/db",
        l.local_addr().expect("addr").port()
    );
    let (code, d) = run_pg(&[("LIBPG_DATABASE_URL", &url)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn valibots_issue_past_the_tail_is_read_from_the_kept_property_block() {
    // valibot's issue `key` sits under a path item holding the whole environment (`input`),
    // past the 20-line stderr tail: the property block is kept with that value collapsed (was
    // cause-unknown quoting `Node.js v20`).
    let (code, d) = run("valibot-missing", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBCLIENTS_API_KEY` "), "{next}");
    let (code, d) = run("valibot-missing", &[("LIBCLIENTS_API_KEY", "sk-test-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

fn run_call(env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    let mut cmd = crate::support::bin();
    cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s"])
        .args(["--call", "ask", "--", "node"])
        .arg(crate::support::fixture("servers/libclients/sdk-call.mjs"))
        .stdin(std::process::Stdio::null());
    for k in ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::support::run_diagnoses(&mut cmd)
}

#[test]
fn a_call_failing_for_a_key_an_sdk_reads_itself_names_the_sdks_variable() {
    // @anthropic-ai/sdk: `Could not resolve authentication method. Expected either apiKey or
    // authToken to be set.` on the call (was no diagnosis at all): the server's own code reads no
    // key; the package its stack shows raising it reads ANTHROPIC_API_KEY.
    let (code, d) = run_call(&[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `ANTHROPIC_API_KEY` "), "{next}");
    assert!(next.contains("@anthropic-ai/sdk"), "{next}");
    // Look-alike: the key set, the call answers.
    let (code, d) = run_call(&[("ANTHROPIC_API_KEY", "sk-ant-test-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_librarys_refusal_of_nothing_is_the_unset_variable_its_caller_reads() {
    // @elastic/elasticsearch's `ConfigurationError: Missing node(s) option` thrown in its
    // package under `new Client({ node: process.env.X, ... })` (was crash); the same line's
    // read with a default (`?? 0`) is not named.
    let (code, d) = run("es-unset", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBCLIENTS_ES_URL` in "), "{next}");
    assert!(!next.contains("LIBCLIENTS_ES_RETRIES"), "{next}");
    let (code, d) = run(
        "es-unset",
        &[("LIBCLIENTS_ES_URL", "http://127.0.0.1:9200")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_refused_address_held_apart_names_its_host_and_port_variables() {
    // nodemailer's refused verify() on SMTP_HOST and SMTP_PORT given apart (was "the entry
    // gives no such address").
    let port = free_port().to_string();
    let env = [
        ("LIBCLIENTS_SMTP_HOST", "127.0.0.1"),
        ("LIBCLIENTS_SMTP_PORT", port.as_str()),
    ];
    let (code, d) = run("smtp", &env);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains("`LIBCLIENTS_SMTP_HOST=127.0.0.1` and `LIBCLIENTS_SMTP_PORT="),
        "{next}"
    );
    // Healthy: something listens there.
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port().to_string();
    let env = [
        ("LIBCLIENTS_SMTP_HOST", "127.0.0.1"),
        ("LIBCLIENTS_SMTP_PORT", port.as_str()),
    ];
    let (code, d) = run("smtp", &env);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_librarys_error_under_the_servers_line_is_tied_to_the_set_variable_it_reads() {
    // simple-git's `GitConstructError` raised in its package: the printed source line is the
    // package's; the server's own first frame reads LIBCLIENTS_REPO_PATH (was crash).
    let dir = tempfile::tempdir().expect("tempdir");
    let gone = dir.path().join("no-such-repo");
    let gone = gone.to_str().expect("utf-8");
    let (code, d) = run("git-folder", &[("LIBCLIENTS_REPO_PATH", gone)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("change `LIBCLIENTS_REPO_PATH` in "),
        "{next}"
    );
    // Healthy: the folder exists.
    let here = dir.path().to_str().expect("utf-8");
    let (code, d) = run("git-folder", &[("LIBCLIENTS_REPO_PATH", here)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn gits_refusal_of_a_folder_names_the_entrys_folder_without_a_repository() {
    // simple-git's GitError with git's `fatal: not a git repository` (was crash): the entry's
    // folder is looked at, and holds no `.git` in it or above.
    let dir = tempfile::tempdir().expect("tempdir");
    let here = dir.path().to_str().expect("utf-8");
    let (code, d) = run("git-status", &[("LIBCLIENTS_REPO_PATH", here)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("point `LIBCLIENTS_REPO_PATH="), "{next}");
    // Healthy: a repository there.
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    let (code, d) = run("git-status", &[("LIBCLIENTS_REPO_PATH", here)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_credentials_error_raised_in_a_package_names_the_variable_that_package_reads() {
    // google-auth-library's `Could not load the default credentials` names no variable; the
    // server's own code reads an unset LIBCLIENTS_API_KEY (other modes) and a password with a
    // default for another service: neither is named, the package's own variable is (the one
    // read in the file that raised, not the AWS keys of its other file).
    let (code, d) = run("gauth-adc", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `GOOGLE_APPLICATION_CREDENTIALS` in "),
        "{next}"
    );
    assert!(next.contains("google-auth-library"), "{next}");
    assert!(!next.contains("LIBCLIENTS_"), "{next}");
    assert!(!next.contains("AWS_"), "{next}");
    // Healthy: the credentials file exists.
    let dir = tempfile::tempdir().expect("tempdir");
    let creds = dir.path().join("sa.json");
    std::fs::write(&creds, "{}").expect("write");
    let creds = creds.display().to_string();
    let (code, d) = run("gauth-adc", &[("GOOGLE_APPLICATION_CREDENTIALS", &creds)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}
