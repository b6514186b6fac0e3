//! A Node library's own error at start, through the real binary and a real child process
//! (fixtures/servers/libframes.mjs, no package installed): yup's `ValidationError` whose
//! property block ends the report, dotenv-safe's `MissingEnvVarsError` and its list, the AWS
//! SDK's plain `Error` raised in @smithy/config-resolver, Node's `EISDIR` on a variable that
//! holds a folder. Each with a healthy look-alike that gets no cause.

use serde_json::Value;

use crate::support::{probe_fixture_mode, text_field as field};

const ENV: &[&str] = &[
    "LIBFRAMES_API_KEY",
    "LIBFRAMES_REGION",
    "LIBFRAMES_CONFIG_PATH",
    "LIBFRAMES_PORT",
    "LIBFRAMES_DATABASE_URL",
    "LIBFRAMES_DB_PATH",
    "LIBFRAMES_HOOK_PATH",
    "LIBFRAMES_DEBUG",
    "LIBFRAMES_LOG_LEVEL",
    "LIBFRAMES_DB_HOST",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_CONFIG_FILE",
];

fn run(mode: &str, env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    probe_fixture_mode("node", "servers/libframes.mjs", mode, ENV, env)
}

#[test]
fn a_yup_required_field_under_its_property_block_is_the_unset_variable() {
    let (code, d) = run("yup-required", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBFRAMES_API_KEY` "), "{next}");
    let (code, d) = run("yup-required", &[("LIBFRAMES_API_KEY", "sk-test-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn dotenv_safes_list_names_each_variable_not_set() {
    let (code, d) = run("dotenv-safe", &[("LIBFRAMES_REGION", "eu")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBFRAMES_API_KEY` in "), "{next}");
    assert!(!next.contains("`LIBFRAMES_REGION`"), "{next}");
    let (code, d) = run(
        "dotenv-safe",
        &[
            ("LIBFRAMES_REGION", "eu"),
            ("LIBFRAMES_API_KEY", "sk-test-1"),
        ],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn the_aws_sdks_region_check_is_known_by_the_package_that_raised_it() {
    let (code, d) = run("aws-region", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    // The JavaScript SDK reads AWS_REGION only: AWS_DEFAULT_REGION would not do.
    assert!(next.starts_with("set `AWS_REGION` in "), "{next}");
    assert!(next.contains("@smithy/config-resolver"), "{next}");
    let (code, d) = run("aws-region", &[("AWS_REGION", "us-east-1")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_folder_where_the_server_reads_a_file_names_its_variable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().to_str().expect("utf-8");
    let (code, d) = run("read-config", &[("LIBFRAMES_CONFIG_PATH", folder)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("point `LIBFRAMES_CONFIG_PATH` at the file"),
        "{next}"
    );
    // Look-alike: a file there, and it serves.
    let file = dir.path().join("config.json");
    std::fs::write(&file, "{}").expect("write");
    let file = file.to_str().expect("utf-8");
    let (code, d) = run("read-config", &[("LIBFRAMES_CONFIG_PATH", file)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn an_unset_variable_handed_to_a_call_is_read_on_the_failing_line() {
    // `readFileSync(process.env.LIBFRAMES_CONFIG_PATH)` with the variable not set: Node's
    // `TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string or an
    // instance of Buffer or URL. Received undefined`, raised in node:fs; the server's frame
    // reads the variable.
    let (code, d) = run("read-config", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `LIBFRAMES_CONFIG_PATH` in "),
        "{next}"
    );
    assert!(next.contains("libframes.mjs:"), "{next}");
}

#[test]
fn an_error_code_in_the_reports_head_is_no_variable() {
    // sqlite3 5.x: `Error: SQLITE_CANTOPEN: unable to open database file` with `{ errno: 14,
    // code: 'SQLITE_CANTOPEN' }` under the stack.
    let (code, d) = run("sqlite-open", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "missing-env-var"), "{d:#?}");
}

#[test]
fn a_convict_settings_path_is_the_variable_its_schema_binds() {
    // convict 6.2's `port: ports must be within range 0 - 65535` names the schema's path, not
    // the variable; the server's schema object binds it (`env: "LIBFRAMES_PORT"`).
    let (code, d) = run(
        "convict",
        &[("LIBFRAMES_PORT", "abc"), ("LIBFRAMES_DB_HOST", "db")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("change `LIBFRAMES_PORT` in the server's environment: "),
        "{next}"
    );
    assert!(
        next.contains("reads `port` from it (format \"port\")"),
        "{next}"
    );
    // A setting with no default the entry does not set: the variable to set.
    let (code, d) = run("convict", &[("LIBFRAMES_PORT", "8080")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(next.starts_with("set `LIBFRAMES_DB_HOST` in "), "{next}");
    // Healthy: every setting accepted.
    let (code, d) = run(
        "convict",
        &[("LIBFRAMES_PORT", "8080"), ("LIBFRAMES_DB_HOST", "db")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
    // Look-alike: the same refusal of a schema object with no `env:` names no variable.
    let (code, d) = run("plain-path-error", &[("LIBFRAMES_PORT", "8080")]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "crash", "{d:#?}");
}

#[test]
fn nodes_own_check_under_a_packages_line_is_the_unset_variable_the_server_hands_it() {
    // sequelize 6's `new Sequelize(process.env.X)` unset: `url.parse` throws Node's
    // ERR_INVALID_ARG_TYPE under sequelize's line, which reads no variable; the server's does.
    let (code, d) = run("sequelize-unset", &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("set `LIBFRAMES_DATABASE_URL` in "),
        "{next}"
    );
    let (code, d) = run(
        "sequelize-unset",
        &[("LIBFRAMES_DATABASE_URL", "postgres://u@127.0.0.1:5432/db")],
    );
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn js_yamls_exception_in_the_file_a_variable_names_is_that_files_yaml() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("config.yaml");
    std::fs::write(&bad, "a: 1\nb:\n\t- x\n").expect("write");
    let bad = bad.display().to_string();
    let (code, d) = run("yaml-config", &[("LIBFRAMES_CONFIG_PATH", &bad)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!("fix the YAML in `{bad}`")),
        "{next}"
    );
    assert!(
        next.contains("(line 3, column 1; YAML indents with spaces, never tabs)"),
        "{next}"
    );
    // Healthy: spaces.
    let good = dir.path().join("good.yaml");
    std::fs::write(&good, "a: 1\nb:\n  - x\n").expect("write");
    let good = good.display().to_string();
    let (code, d) = run("yaml-config", &[("LIBFRAMES_CONFIG_PATH", &good)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn sqlite_unable_to_open_a_file_that_must_exist_names_the_database_path() {
    // better-sqlite3's `fileMustExist`: the folder is there, the file is not. A list of paths
    // the environment holds beside it (`PYENV_HOOK_PATH=/a:/b`) is no database path.
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("app.db").display().to_string();
    let list = format!("{}/nope.d:/nowhere/hooks", dir.path().display());
    let (code, d) = run(
        "sqlite-mustexist",
        &[("LIBFRAMES_DB_PATH", &db), ("LIBFRAMES_HOOK_PATH", &list)],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(&format!(
            "point `LIBFRAMES_DB_PATH={db}` at the database file"
        )),
        "{next}"
    );
    std::fs::write(&db, "").expect("write");
    let (code, d) = run("sqlite-mustexist", &[("LIBFRAMES_DB_PATH", &db)]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn a_librarys_refusal_naming_a_set_variables_word_is_not_the_unset_one_beside_it() {
    // The calling line reads LIBFRAMES_DEBUG (unset, optional) and LIBFRAMES_REGION=xx; the
    // library says `region must be one of us, eu`: never "set LIBFRAMES_DEBUG".
    let (code, d) = run("option-refused", &[("LIBFRAMES_REGION", "xx")]);
    assert_eq!(code, Some(1), "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(!next.contains("LIBFRAMES_DEBUG"), "{next}");
    assert!(next.contains("`LIBFRAMES_REGION`"), "{next}");
    let (code, d) = run("option-refused", &[("LIBFRAMES_REGION", "eu")]);
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}
