//! A failure tied to one variable of the entry, through the real binary and real child
//! processes (fixtures/servers/values.py and values.mjs): a value quoted by Python's own
//! conversion error, read on the failing line; a `ValueError` inside Python 3.11's
//! exception-group box; a library's exception type (botocore's `NoRegionError`) in a chain; a
//! plain last line naming the variable with a URL's scheme. Each with a healthy look-alike that
//! gets no cause.

use serde_json::Value;

use crate::support::{evidence_texts, probe_fixture_mode, text_field as field};

const ENV: &[&str] = &[
    "VALUES_QUERY_TIMEOUT",
    "VALUES_PROJECT_PATH",
    "VALUES_ENVIRONMENT",
    "VALUES_SERVICE_URL",
    "VALUES_BASE_DIR",
    "VALUES_API_KEY",
    "VALUES_LOG_LEVEL",
    "VALUES_CONFIG",
    "VALUES_TRANSPORT",
    "VALUES_DATABASE_URL",
    "VALUES_PORT",
    "VALUES_BROKERS",
    "VALUES_MYSQL_HOST",
    "VALUES_MYSQL_PORT",
    "VALUES_ENV_FILE",
    "VALUES_CLI_TOKEN",
    "VALUES_URL",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
];

fn run(program: &str, mode: &str, env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    let script = if program == "node" {
        "servers/values.mjs"
    } else {
        "servers/values.py"
    };
    probe_fixture_mode(program, script, mode, ENV, env)
}

#[test]
fn a_value_a_conversion_quotes_is_its_variable_and_a_number_is_wanted() {
    // notebooklm-mcp 0.4: NOTEBOOKLM_QUERY_TIMEOUT=2m at import.
    let (code, d) = run(
        "python3",
        "float-at-import",
        &[("VALUES_QUERY_TIMEOUT", "2m")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `VALUES_QUERY_TIMEOUT` in the server's environment to a number without a \
             unit (the number alone, in the unit the server counts in, not `m`; its default \
             is `120.0`), not `2m`"
        ),
        "{next}"
    );
    let ev = evidence_texts(&d[0], Some("stderr"));
    assert!(
        ev.iter()
            .any(|e| e == "ValueError: could not convert string to float: '2m'"),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|e| e.starts_with("the failing line: ")),
        "{ev:?}"
    );
    // Look-alike: a plain number is read and it serves.
    let (code, d) = run(
        "python3",
        "float-at-import",
        &[("VALUES_QUERY_TIMEOUT", "120")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn an_exception_groups_leaf_is_read_and_its_path_looked_at() {
    // lean-lsp-mcp 0.x: LEAN_PROJECT_PATH at a folder that does not exist, its ValueError in
    // an exception group's box (the box's rule was the "last words" before).
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("lean-project");
    let missing = missing.to_str().expect("utf-8");
    let (code, d) = run("python3", "task-group", &[("VALUES_PROJECT_PATH", missing)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("point `VALUES_PROJECT_PATH` at "),
        "{next}"
    );
    assert!(
        evidence_texts(&d[0], Some("stderr"))
            .iter()
            .any(|e| e == &format!("ValueError: Project path '{missing}' does not exist.")),
        "{d:#?}"
    );
    // Look-alike: the folder exists.
    let there = dir.path().to_str().expect("utf-8");
    let (code, d) = run("python3", "task-group", &[("VALUES_PROJECT_PATH", there)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_librarys_exception_type_in_the_chain_names_its_variable() {
    // awslabs.eks-mcp-server 0.x: botocore's NoRegionError under `Exception: Failed to create
    // boto3 client for ec2: ...`.
    let (code, d) = run("python3", "no-region", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `AWS_REGION` or `AWS_DEFAULT_REGION` in the server's environment to an AWS \
             region"
        ),
        "{next}"
    );
    assert!(next.ends_with("botocore raised NoRegionError"), "{next}");
    // Look-alike: the region is set.
    let (code, d) = run("python3", "no-region", &[("AWS_REGION", "us-east-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_last_line_naming_a_set_variable_says_what_it_wants() {
    // @dynatrace-oss/dynatrace-mcp-server 2.x: DT_ENVIRONMENT without its scheme.
    let (code, d) = run(
        "node",
        "environment-url",
        &[("VALUES_ENVIRONMENT", "abc12345.apps.example.com")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `VALUES_ENVIRONMENT` in the server's environment to a URL with its scheme \
             (`https://abc12345.apps.example.com`, the scheme its message names)"
        ),
        "{next}"
    );
    // Node's own ERR_INVALID_URL on `new URL(process.env.X)`: the scheme too.
    let (code, d) = run(
        "node",
        "new-url",
        &[("VALUES_SERVICE_URL", "api.example.com/v1")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains("`VALUES_SERVICE_URL=api.example.com/v1`"),
        "{next}"
    );
    assert!(next.contains("`https://api.example.com/v1`"), "{next}");
    // Look-alikes: the same servers with the scheme written.
    for (mode, var, v) in [
        (
            "environment-url",
            "VALUES_ENVIRONMENT",
            "https://abc12345.apps.example.com",
        ),
        (
            "new-url",
            "VALUES_SERVICE_URL",
            "https://api.example.com/v1",
        ),
    ] {
        let (code, d) = run("node", mode, &[(var, v)]);
        assert_eq!((code, d.len()), (Some(0), 0), "{mode}: {d:#?}");
    }
}

#[test]
fn a_settings_model_refusing_two_set_variables_together_is_a_conflict() {
    // mcp-server-qdrant 0.8 with QDRANT_URL and QDRANT_LOCAL_PATH: pydantic-settings' model
    // validator, no field line; one variable named by its field, the other only as a key of
    // the settings it was given.
    let (code, d) = run(
        "python3",
        "settings-conflict",
        &[
            ("VALUES_PROJECT_PATH", "/tmp/values-project"),
            ("VALUES_SERVICE_URL", "http://127.0.0.1:6333"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "conflicting-settings", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "keep one of `VALUES_PROJECT_PATH` and `VALUES_SERVICE_URL` in the entry's env"
        ),
        "{next}"
    );
    // The settings' values are never quoted from the input it was given.
    assert!(
        !next.contains("6333") && !next.contains("/tmp/values-project"),
        "{next}"
    );
}

#[test]
fn the_same_settings_with_one_of_the_two_variables_is_healthy() {
    let (code, d) = run(
        "python3",
        "settings-conflict",
        &[("VALUES_PROJECT_PATH", "/tmp/values-project")],
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_relative_path_where_the_server_wants_an_absolute_one_names_its_variable() {
    // @cyanheads/git-mcp-server 2.x with GIT_BASE_DIR=repos: the host starts it in a folder of
    // its own, so a relative path means something else there.
    let (code, d) = run("node", "base-dir", &[("VALUES_BASE_DIR", "repos")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("`VALUES_BASE_DIR=repos` is relative: give an absolute path"),
        "{next}"
    );
    let tried = evidence_texts(&d[0], Some("tried"));
    assert!(
        tried.iter().any(|t| t.starts_with("stat repos from ")),
        "{tried:?}"
    );
    // Look-alike: the same server with an absolute path serves.
    let (code, d) = run("node", "base-dir", &[("VALUES_BASE_DIR", "/tmp")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

/// A schema validator's issues (zod, thrown uncaught; envalid's report): the issue's path is
/// the variable, not set or refused, never `crash` at the frame shown.
#[test]
fn a_schema_validators_issues_name_the_variable() {
    let (code, d) = run("node", "zod-env", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("set `VALUES_API_KEY` in the entry's env"),
        "{d:#?}"
    );
    let (_, d) = run(
        "node",
        "zod-env",
        &[("VALUES_API_KEY", "k"), ("VALUES_LOG_LEVEL", "verbose")],
    );
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains("`VALUES_LOG_LEVEL`") && next.contains("'debug' | 'info'"),
        "{next}"
    );
    // A log level's name outside the list is not "known in another case" (`TRACE`): the list
    // says what it knows.
    let (_, d) = run(
        "node",
        "zod-env",
        &[("VALUES_API_KEY", "k"), ("VALUES_LOG_LEVEL", "trace")],
    );
    let next = field(&d[0], "next_step");
    assert!(
        !next.contains("TRACE") && next.contains("'debug' | 'info'"),
        "{next}"
    );
    let (code, d) = run(
        "node",
        "envalid-env",
        &[("VALUES_API_KEY", "k"), ("VALUES_SERVICE_URL", "localhost")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("change `VALUES_SERVICE_URL` in the entry's env"),
        "{d:#?}"
    );
    let (_, d) = run("node", "envalid-env", &[("VALUES_SERVICE_URL", "http://x")]);
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("set `VALUES_API_KEY`"),
        "{d:#?}"
    );
}

#[test]
fn the_same_schemas_satisfied_are_healthy() {
    for mode in ["zod-env", "envalid-env"] {
        let (code, d) = run(
            "node",
            mode,
            &[
                ("VALUES_API_KEY", "k"),
                ("VALUES_LOG_LEVEL", "info"),
                ("VALUES_SERVICE_URL", "http://127.0.0.1:9"),
            ],
        );
        assert_eq!(code, Some(0), "{mode}: {d:#?}");
        assert!(d.is_empty(), "{mode}: {d:#?}");
    }
}

#[test]
fn a_missing_settings_field_is_named_with_the_prefix_its_model_reads() {
    // pydantic-settings 2.7: `env_prefix="ZOO_"`, `api_key` unset; the block names the field
    // alone. The model's source gives its prefix.
    let (code, d) = run("python3", "settings-prefix", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `VALUES_API_KEY` in the entry's env: the settings field `api_key` has no value"
        ),
        "{next}"
    );
    let tried = evidence_texts(&d[0], Some("tried"));
    assert!(
        tried
            .iter()
            .any(|e| e.contains("VALUES_API_KEY (values.py:")),
        "{tried:?}"
    );
    // Look-alike: set, it serves.
    let (code, d) = run("python3", "settings-prefix", &[("VALUES_API_KEY", "k")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn no_region_with_only_aws_region_set_names_the_one_botocore_reads() {
    // boto3.client("ec2") with no region_name: botocore reads AWS_DEFAULT_REGION, not
    // AWS_REGION.
    let (code, d) = run("python3", "default-region", &[("AWS_REGION", "us-east-1")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `AWS_DEFAULT_REGION` in the server's environment to an AWS region"),
        "{next}"
    );
    assert!(
        next.ends_with("botocore reads `AWS_DEFAULT_REGION`, not `AWS_REGION`"),
        "{next}"
    );
    // Look-alike: AWS_DEFAULT_REGION set, it serves.
    let (code, d) = run(
        "python3",
        "default-region",
        &[("AWS_DEFAULT_REGION", "us-east-1")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_config_file_its_parser_refuses_is_named_with_its_variable_and_where() {
    // PyYAML 6.0.2 on a tab; Python's own json and tomllib: the file exists, its content is
    // wrong; not `crash`, not credentials for the YAML's "next token".
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p.to_string_lossy().into_owned()
    };
    let tab = write("tab.yaml", "server:\n\tport: 1\n");
    let (code, d) = run("python3", "config-file", &[("VALUES_CONFIG", &tab)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!(
            "fix the YAML in `{tab}`, the file `VALUES_CONFIG={tab}` names (line 2, column 1; YAML indents with spaces, \
             never tabs): its parser says"
        )),
        "{next}"
    );
    for (name, text, format) in [
        ("bad.json", "{\"port\": 1,}\n", "JSON"),
        ("bad.toml", "port =\n", "TOML"),
    ] {
        let p = write(name, text);
        let (code, d) = run("python3", "config-file", &[("VALUES_CONFIG", &p)]);
        assert_eq!(code, Some(1), "{d:#?}");
        assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
        let next = field(&d[0], "next_step");
        assert!(
            next.starts_with(&format!("fix the {format} in `{p}`")),
            "{next}"
        );
    }
    // Look-alikes: the same files, well formed, serve.
    for (name, text) in [
        ("ok.yaml", "server:\n  port: 1\n"),
        ("ok.json", "{\"port\": 1}\n"),
        ("ok.toml", "port = 1\n"),
    ] {
        let p = write(name, text);
        let (code, d) = run("python3", "config-file", &[("VALUES_CONFIG", &p)]);
        assert_eq!((code, d.len()), (Some(0), 0), "{name}: {d:#?}");
    }
}

#[test]
fn a_transport_name_fastmcp_does_not_know_names_its_variable() {
    // mcp 1.x FastMCP: `ValueError: Unknown transport: http`, raised in the library's `run`.
    let (code, d) = run("python3", "fastmcp-run", &[("VALUES_TRANSPORT", "http")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`VALUES_TRANSPORT`"), "{next}");
    // Look-alike: stdio serves.
    let (code, d) = run("python3", "fastmcp-run", &[("VALUES_TRANSPORT", "stdio")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_line_saying_a_set_variable_must_start_with_a_scheme_names_it_with_its_scheme() {
    // mcp-server-odoo 0.x with ODOO_URL=127.0.0.1:8069: `Configuration error: ODOO_URL must
    // start with http:// or https://`, no parser's error, the value not quoted.
    let (code, d) = run(
        "python3",
        "scheme-prefix",
        &[("VALUES_URL", "127.0.0.1:8069")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains("`VALUES_URL=127.0.0.1:8069`")
            && next.contains(
                "`scheme://127.0.0.1:8069`, the schemes its message names: http://, https://"
            ),
        "{next}"
    );
    // Look-alike: the scheme written: it serves.
    let (code, d) = run(
        "python3",
        "scheme-prefix",
        &[("VALUES_URL", "http://127.0.0.1:8069")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn an_http_clients_type_for_a_url_without_its_scheme_names_the_variable() {
    // requests 2.32's `InvalidSchema: No connection adapters were found for '127.0.0.1:8000/health'`:
    // its words say no URL, its class does.
    let (code, d) = run(
        "python3",
        "invalid-schema",
        &[("VALUES_SERVICE_URL", "127.0.0.1:8000")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains("`VALUES_SERVICE_URL=127.0.0.1:8000` with its scheme"),
        "{next}"
    );
    // Look-alike: with its scheme it serves.
    let (code, d) = run(
        "python3",
        "invalid-schema",
        &[("VALUES_SERVICE_URL", "http://127.0.0.1:8000")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn libpq_refusing_a_connection_is_a_service_not_running_at_the_urls_address() {
    // psycopg 3.2 / psycopg2 2.9: libpq's `... port 5999 failed: Connection refused`, no errno.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let url = format!("postgresql://u:p@127.0.0.1:{port}/db");
    let (code, d) = run("python3", "libpq-refused", &[("VALUES_DATABASE_URL", &url)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`VALUES_DATABASE_URL"), "{next}");
    assert!(next.contains(&format!("127.0.0.1:{port}")), "{next}");
    // Look-alike: something listens there, it serves.
    let open = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "postgresql://u:p@127.0.0.1:{}/db",
        open.local_addr().expect("addr").port()
    );
    let (code, d) = run("python3", "libpq-refused", &[("VALUES_DATABASE_URL", &url)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_scheme_the_database_library_does_not_take_names_the_variable_and_the_right_one() {
    // asyncpg 0.30's ClientConfigurationError and SQLAlchemy 2.0's NoSuchModuleError.
    for mode in ["dsn-scheme", "dialect"] {
        let (code, d) = run(
            "python3",
            mode,
            &[("VALUES_DATABASE_URL", "postgress://u:p@127.0.0.1:5432/db")],
        );
        assert_eq!(code, Some(1), "{mode}: {d:#?}");
        assert_eq!(d[0]["id"], "bad-argument", "{mode}: {d:#?}");
        let next = field(&d[0], "next_step");
        assert!(
            next.contains("the scheme of `VALUES_DATABASE_URL="),
            "{mode}: {next}"
        );
        assert!(next.contains("`postgresql://`"), "{mode}: {next}");
        // Look-alike: the right scheme serves.
        let (code, d) = run(
            "python3",
            mode,
            &[("VALUES_DATABASE_URL", "postgresql://u:p@127.0.0.1:5432/db")],
        );
        assert_eq!((code, d.len()), (Some(0), 0), "{mode}: {d:#?}");
    }
}

#[test]
fn a_healthy_server_logging_those_libraries_lines_gets_no_cause() {
    let (code, d) = run(
        "python3",
        "quotes-library-errors",
        &[
            ("VALUES_SERVICE_URL", "127.0.0.1:8000"),
            ("VALUES_DATABASE_URL", "postgress://u:p@127.0.0.1:5999/db"),
        ],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_port_in_use_names_the_variable_that_holds_it() {
    // uvicorn 0.34's `[Errno 98] error while attempting to bind on address ('127.0.0.1', PORT)`.
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = held.local_addr().expect("addr").port().to_string();
    let (code, d) = run("python3", "bind-port", &[("VALUES_PORT", &port)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "port-in-use", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains(&format!("change `VALUES_PORT={port}`")),
        "{next}"
    );
    drop(held);
    // Look-alike: a free port serves.
    let (code, d) = run("python3", "bind-port", &[("VALUES_PORT", &port)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

/// A port nothing listens on (bound, then closed).
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    port
}

#[test]
fn a_client_librarys_class_for_no_server_is_tested_at_the_entrys_address() {
    // kafka-python's NoBrokersAvailable, pika's bare AMQPConnectionError, PyMySQL's 2003 with
    // its host and port in two variables, paramiko's NoValidConnectionsError.
    let p = closed_port().to_string();
    let brokers = format!("127.0.0.1:{p}");
    let amqp = format!("amqp://127.0.0.1:{p}");
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);
    let cases: [Case; 4] = [
        (
            "no-brokers",
            vec![("VALUES_BROKERS", &brokers)],
            "`VALUES_BROKERS",
        ),
        (
            "amqp-refused",
            vec![("VALUES_SERVICE_URL", &amqp)],
            "`VALUES_SERVICE_URL",
        ),
        (
            "mysql-refused",
            vec![
                ("VALUES_MYSQL_HOST", "127.0.0.1"),
                ("VALUES_MYSQL_PORT", &p),
            ],
            "`VALUES_MYSQL_HOST=127.0.0.1` and `VALUES_MYSQL_PORT=",
        ),
        ("ssh-refused", vec![("VALUES_PORT", &p)], "`VALUES_PORT"),
    ];
    for (mode, env, named) in &cases {
        let (code, d) = run("python3", mode, env);
        assert_eq!(code, Some(1), "{mode}: {d:#?}");
        assert_eq!(d[0]["id"], "service-not-running", "{mode}: {d:#?}");
        let next = field(&d[0], "next_step");
        assert!(next.contains(named), "{mode}: {next}");
        assert!(next.contains(&format!("127.0.0.1:{p}")), "{mode}: {next}");
    }
    // Look-alike: something listens there, each serves.
    let open = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let brokers = format!("127.0.0.1:{up}");
    let amqp = format!("amqp://127.0.0.1:{up}");
    for (mode, env) in [
        ("no-brokers", vec![("VALUES_BROKERS", brokers.as_str())]),
        ("amqp-refused", vec![("VALUES_SERVICE_URL", amqp.as_str())]),
        (
            "mysql-refused",
            vec![
                ("VALUES_MYSQL_HOST", "127.0.0.1"),
                ("VALUES_MYSQL_PORT", up.as_str()),
            ],
        ),
        ("ssh-refused", vec![("VALUES_PORT", up.as_str())]),
    ] {
        let (code, d) = run("python3", mode, &env);
        assert_eq!((code, d.len()), (Some(0), 0), "{mode}: {d:#?}");
    }
}

#[test]
fn a_missing_variable_beside_an_env_file_that_does_not_exist_names_the_file_first() {
    // python-dotenv's load_dotenv(VALUES_ENV_FILE) loads nothing from a missing file, silently.
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nosuch.env").display().to_string();
    let (code, d) = run("python3", "dotenv-file", &[("VALUES_ENV_FILE", &missing)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("point `VALUES_ENV_FILE` at the .env file"),
        "{next}"
    );
    assert!(next.contains("VALUES_API_KEY"), "{next}");
    // Look-alikes: the file holds the variable (healthy); the file exists without it (the
    // variable alone is named).
    let good = dir.path().join("good.env");
    std::fs::write(&good, "VALUES_API_KEY=k\n").expect("write");
    let good = good.display().to_string();
    let (code, d) = run("python3", "dotenv-file", &[("VALUES_ENV_FILE", &good)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
    let other = dir.path().join("other.env");
    std::fs::write(&other, "OTHER=1\n").expect("write");
    let other = other.display().to_string();
    let (_, d) = run("python3", "dotenv-file", &[("VALUES_ENV_FILE", &other)]);
    let next = field(&d[0], "next_step");
    assert!(!next.contains("VALUES_ENV_FILE"), "{next}");
}

#[test]
fn a_variable_named_bare_is_named_with_the_prefix_the_source_reads_it_under() {
    // dynaconf 3.2's `API_KEY is required in env main` under envvar_prefix="VALUES".
    let (code, d) = run("python3", "dynaconf-validator", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`VALUES_API_KEY`"), "{next}");
    assert!(next.starts_with("set `VALUES_API_KEY`"), "{next}");
    // Look-alike: set, it serves.
    let (code, d) = run("python3", "dynaconf-validator", &[("VALUES_API_KEY", "k")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_missing_option_that_reads_a_variable_names_the_variable_too() {
    // click 8.1: `Missing option '--cli-token'.` for an option declared with envvar=.
    let (code, d) = run("python3", "click-envvar", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("--cli-token"), "{next}");
    assert!(
        next.contains("or set `VALUES_CLI_TOKEN` in the entry's env"),
        "{next}"
    );
    // Look-alike: the variable set, it serves.
    let (code, d) = run("python3", "click-envvar", &[("VALUES_CLI_TOKEN", "t")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_call_refused_for_credentials_names_the_variable_the_raising_library_reads() {
    // anthropic 0.49's client without ANTHROPIC_API_KEY: `TypeError: "Could not resolve
    // authentication method. ..."` on a --call; the server's own code reads no variable.
    let call = |env: &[(&str, &str)]| {
        let mut cmd = crate::support::bin();
        cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s"])
            .args(["--call", "ask", "--"])
            .arg("python3")
            .arg(crate::support::fixture("servers/sdkcall.py"))
            .stdin(std::process::Stdio::null())
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_AUTH_TOKEN");
        for (k, v) in env {
            cmd.env(k, v);
        }
        crate::support::diagnoses_of(&cmd.output().expect("the binary runs"))
    };
    let (code, d) = call(&[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.contains("`ANTHROPIC_API_KEY`"), "{next}");
    // Look-alike: the key set, the call answers.
    let (code, d) = call(&[("ANTHROPIC_API_KEY", "sk-ant-x")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_query_parameter_a_library_refuses_is_named_in_its_variables_url() {
    // mcp-postgres-server 1.x: DATABASE_URL=...?sslmode=required, `unrecognized sslmode
    // 'required': use disable | allow | ...` thrown at start (was `crash`).
    let (code, d) = run(
        "node",
        "sslmode",
        &[(
            "VALUES_DATABASE_URL",
            "postgresql://app:pgS3cretPw77@127.0.0.1:5434/app?sslmode=required",
        )],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "change the query parameter `sslmode` of the URL in `VALUES_DATABASE_URL` in the \
             server's environment from `required` to one of the values it accepts (disable, \
             allow, prefer, require, verify-ca, verify-full)"
        ),
        "{next}"
    );
    assert!(!format!("{d:?}").contains("pgS3cretPw77"), "{d:#?}");
    // Look-alike: a mode it knows, and it serves.
    let (code, d) = run(
        "node",
        "sslmode",
        &[(
            "VALUES_DATABASE_URL",
            "postgresql://app@127.0.0.1:5434/app?sslmode=require",
        )],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_database_url_given_as_a_path_or_in_a_missing_folder_names_the_form_and_the_folder() {
    // mcp-alchemy: DB_URL=/srv/app.db (SQLAlchemy's `Could not parse SQLAlchemy URL from
    // string`), then DB_URL=sqlite:////srv/missing/app.db (sqlite3's `unable to open database
    // file` under SQLAlchemy's wrapper: opened_rows.rs names the folder).
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("app.db");
    std::fs::write(&file, "").expect("write");
    let file = file.display().to_string();
    let (code, d) = run("python3", "sqlite-url", &[("VALUES_DATABASE_URL", &file)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!(
            "write `VALUES_DATABASE_URL` in the server's environment as a URL with its scheme, \
             not a file's path (for a SQLite database file, `sqlite:///{file}`)"
        )),
        "{next}"
    );
    let missing = dir.path().join("missing");
    let url = format!("sqlite:///{}/app.db", missing.display());
    let (code, d) = run("python3", "sqlite-url", &[("VALUES_DATABASE_URL", &url)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.contains(&missing.display().to_string()) && next.contains("VALUES_DATABASE_URL"),
        "{next}"
    );
    // Look-alike: the folder exists, and it serves.
    let url = format!("sqlite:///{file}");
    let (code, d) = run("python3", "sqlite-url", &[("VALUES_DATABASE_URL", &url)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_coded_error_block_detecting_an_argument_names_it_and_looks_at_its_path() {
    // obsidian-mcp 2.x: `serve --vault notes=/missing` (VAULT_PATH_NOT_FOUND) and `--vault
    // /path` without its id (CLI_INVALID_VAULT_ARGUMENT): was cause-unknown quoting its help link.
    let vault = |value: &str| {
        let mut cmd = crate::support::bin();
        cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s", "--"])
            .arg("node")
            .arg(crate::support::fixture("servers/values.mjs"))
            .args(["vault-block", "--vault", value])
            .stdin(std::process::Stdio::null());
        crate::support::run_diagnoses(&mut cmd)
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let gone = dir.path().join("no-vault").display().to_string();
    let (code, d) = vault(&format!("notes={gone}"));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!(
            "change `--vault notes={gone}` in the command: The configured path for vault \
             'notes' does not exist. (nothing at {gone})"
        )),
        "{next}"
    );
    let here = dir.path().display().to_string();
    let (code, d) = vault(&here);
    assert_eq!(code, Some(1), "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!(
            "change `--vault {here}` in the command: The --vault value is malformed."
        )) && next.contains("Use the form id=/absolute/path."),
        "{next}"
    );
    // Look-alike: a folder that exists, with its id: it serves.
    let (code, d) = vault(&format!("notes={here}"));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}
