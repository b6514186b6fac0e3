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
