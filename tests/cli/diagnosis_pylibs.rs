//! Python settings and client libraries' own failures, tied to the entry's variable or checked
//! on disk, through the real binary and a real child process (fixtures/servers/pylibs.py, each
//! library's lines written out with no package installed). Each with a healthy look-alike that
//! gets no cause, or a different fault that must not be named so.

use serde_json::Value;

use crate::support::{probe_fixture_mode, text_field as field};

const ENV: &[&str] = &[
    "PYLIBS_TAGS",
    "PYLIBS_MODE",
    "PYLIBS_DB_PATH",
    "PYLIBS_DATABASE_URL",
    "DOCKER_HOST",
    "PYLIBS_BASE_URL",
    "PYLIBS_MYSQL_HOST",
    "PYLIBS_MYSQL_PORT",
    "PYLIBS_API_KEY",
    "API_KEY",
    "PYLIBS_SERVICE_ADDR",
];

fn run(mode: &str, env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    probe_fixture_mode("python3", "servers/pylibs.py", mode, ENV, env)
}

#[test]
fn pydantic_settings_unparsed_field_names_its_variable_as_json() {
    let (code, d) = run("settings-json", &[("PYLIBS_TAGS", "a,b")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("write `PYLIBS_TAGS` in the server's environment as JSON"),
        "{next}"
    );
    assert!(next.contains("`a,b` does not parse"), "{next}");
    // Look-alike: JSON is read and it serves.
    let (code, d) = run("settings-json", &[("PYLIBS_TAGS", "[\"a\", \"b\"]")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn pydantic_settings_field_from_a_dotenv_file_is_no_variable_of_the_entry() {
    // The same class and field, read from a .env file: the entry's right PYLIBS_TAGS is not
    // the fault.
    let (code, d) = probe_fixture_dotenv(&[("PYLIBS_TAGS", "[\"a\"]")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        d.iter()
            .all(|x| !field(x, "next_step").contains("PYLIBS_TAGS")),
        "{d:#?}"
    );
}

fn probe_fixture_dotenv(env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    let mut cmd = crate::support::bin();
    cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s", "--"])
        .arg("python3")
        .arg(crate::support::fixture("servers/pylibs.py"))
        .args(["settings-json", "dotenv"])
        .stdin(std::process::Stdio::null());
    for k in ENV {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::support::run_diagnoses(&mut cmd)
}

#[test]
fn dynaconf_validator_outside_its_choices_names_the_prefixed_variable() {
    let (code, d) = run("dynaconf-choice", &[("PYLIBS_MODE", "medium")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `PYLIBS_MODE` in the server's environment to one of ['fast', 'slow'], not `medium`"
        ),
        "{next}"
    );
    // Look-alike: a value among the choices serves.
    let (code, d) = run("dynaconf-choice", &[("PYLIBS_MODE", "slow")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn sqlite_unable_to_open_names_the_folder_that_does_not_exist() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nosuchdir");
    let db = missing.join("app.db");
    let db = db.to_str().expect("utf-8");
    let (code, d) = run("sqlite-folder", &[("PYLIBS_DB_PATH", db)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!("create the folder of `PYLIBS_DB_PATH={db}`")),
        "{next}"
    );
    assert!(
        next.contains(&format!("the folder {} does not exist", missing.display())),
        "{next}"
    );
    // SQLAlchemy's URL: the same folder, named by the URL's variable.
    let url = format!("sqlite:///{db}");
    let (code, d) = run("sqlalchemy-sqlite", &[("PYLIBS_DATABASE_URL", &url)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    assert!(
        field(&d[0], "next_step").contains("`PYLIBS_DATABASE_URL=sqlite:///"),
        "{d:#?}"
    );
    // Look-alike: a file in a folder that exists is created and it serves.
    let ok = dir.path().join("ok.db");
    let (code, d) = run(
        "sqlite-folder",
        &[("PYLIBS_DB_PATH", ok.to_str().expect("utf-8"))],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn docker_without_its_socket_names_docker_host() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sock = dir.path().join("docker.sock");
    let host = format!("unix://{}", sock.display());
    let (code, d) = run("docker-socket", &[("DOCKER_HOST", &host)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!("point `DOCKER_HOST={host}` at the socket")),
        "{next}"
    );
    // Look-alike: a socket that listens there, and it serves.
    let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
    let (code, d) = run("docker-socket", &[("DOCKER_HOST", &host)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn fire_and_docopt_missing_arguments_name_the_flag() {
    for mode in ["fire-missing", "docopt-missing"] {
        let (code, d) = run(mode, &[]);
        assert!(matches!(code, Some(1)), "{mode}: {d:#?}");
        assert_eq!(d[0]["id"], "missing-argument", "{mode}: {d:#?}");
        let next = field(&d[0], "next_step");
        assert!(
            next.starts_with("add `--api-key` with its value to the command"),
            "{mode}: {next}"
        );
    }
}

#[test]
fn a_refusal_printed_before_an_unrelated_crash_is_no_service_to_start() {
    // The server printed a handled refusal's traceback and went on; it ended on its own bug.
    let (code, d) = run("logged-refusal", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "service-not-running"), "{d:#?}");
}

#[test]
fn aiohttp_url_without_scheme_and_mysql_connector_refused_name_the_entry() {
    let (code, d) = run("aiohttp-url", &[("PYLIBS_BASE_URL", "127.0.0.1:9")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        field(&d[0], "next_step")
            .starts_with("write `PYLIBS_BASE_URL=127.0.0.1:9` with its scheme"),
        "{d:#?}"
    );
    let (code, d) = run("aiohttp-url", &[("PYLIBS_BASE_URL", "http://127.0.0.1:9")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
    // mysql-connector at a port where nothing listens.
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = free.local_addr().expect("addr").port().to_string();
    drop(free);
    let (code, d) = run(
        "mysql-connector",
        &[
            ("PYLIBS_MYSQL_HOST", "127.0.0.1"),
            ("PYLIBS_MYSQL_PORT", &port),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "service-not-running", "{d:#?}");
    assert!(
        field(&d[0], "next_step").contains("`PYLIBS_MYSQL_PORT="),
        "{d:#?}"
    );
    // Something listens there: it serves.
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = held.local_addr().expect("addr").port().to_string();
    let (code, d) = run(
        "mysql-connector",
        &[
            ("PYLIBS_MYSQL_HOST", "127.0.0.1"),
            ("PYLIBS_MYSQL_PORT", &port),
        ],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_match_statement_refused_by_python_39_is_a_runtime_too_old() {
    let (code, d) = run("match-on-39", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("run it with Python 3.10 or newer"),
        "{d:#?}"
    );
    // Look-alike: invalid syntax on another line is the server's own bug.
    let (_, d) = run_with_arg("match-on-39", "plain");
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
}

fn run_with_arg(mode: &str, arg: &str) -> (Option<i32>, Vec<Value>) {
    let mut cmd = crate::support::bin();
    cmd.args(["probe", "--json", "--launches", "1", "--watch", "1s", "--"])
        .arg("python3")
        .arg(crate::support::fixture("servers/pylibs.py"))
        .args([mode, arg])
        .stdin(std::process::Stdio::null());
    for k in ENV {
        cmd.env_remove(k);
    }
    crate::support::run_diagnoses(&mut cmd)
}

#[test]
fn dynaconf_required_while_the_bare_name_is_set_names_the_prefixed_variable() {
    // The entry sets API_KEY (for another tool, or by a guess): dynaconf reads PYLIBS_API_KEY.
    let (code, d) = run("dynaconf-required", &[("API_KEY", "k")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `PYLIBS_API_KEY` in the server's environment"),
        "{next}"
    );
    assert!(!next.contains("change `API_KEY`"), "{next}");
    // Look-alike: the prefixed one set, it serves.
    let (code, d) = run(
        "dynaconf-required",
        &[("API_KEY", "k"), ("PYLIBS_API_KEY", "k")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn aiohttp_and_grpc_refused_are_tested_at_the_entrys_address() {
    for mode in ["aiohttp-refused", "grpc-refused"] {
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = free.local_addr().expect("addr").to_string();
        drop(free);
        let (code, d) = run(mode, &[("PYLIBS_SERVICE_ADDR", &addr)]);
        assert_eq!(code, Some(1), "{mode}: {d:#?}");
        assert_eq!(d[0]["id"], "service-not-running", "{mode}: {d:#?}");
        assert!(
            field(&d[0], "next_step").contains(&format!("`PYLIBS_SERVICE_ADDR={addr}`")),
            "{mode}: {d:#?}"
        );
        // Something listens there: it serves.
        let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = held.local_addr().expect("addr").to_string();
        let (code, d) = run(mode, &[("PYLIBS_SERVICE_ADDR", &addr)]);
        assert_eq!((code, d.len()), (Some(0), 0), "{mode}: {d:#?}");
    }
}

#[test]
fn an_argument_that_heads_the_exceptions_dotted_path_is_not_the_fault() {
    // `pylibs.py redis`: `redis.exceptions.AuthenticationError` names no argument.
    let (code, d) = run("redis", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        d.iter()
            .all(|x| !field(x, "next_step").contains("the argument `redis`")),
        "{d:#?}"
    );
}
