//! A file the server wants at start, through the real binary and real child processes
//! (fixtures/servers/files/): the missing file's typed evidence (Node's `ENOENT`, Python's
//! `FileNotFoundError`), the doctor's `stat` of the entry's path-like values and of the path in
//! the evidence, and the server's source read for the variable it takes the path from; each
//! with a healthy look-alike.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, diagnoses_of, evidence_texts, fixture, stdout, text_field as field};

const ENV: &[&str] = &[
    "GOOGLE_OAUTH_CREDENTIALS",
    "GOOGLE_CALENDAR_MCP_TOKEN_PATH",
    "FIXTURE_DRIVE_CLIENT_FILE",
    "FIXTURE_DRIVE_SETTINGS",
    "FIXTURE_DRIVE_PAGE_SIZE",
    "FIXTURE_DRIVE_LOG_DIR",
];

fn calendar() -> PathBuf {
    std::fs::canonicalize(fixture(
        "servers/files/node_modules/fixture-calendar-mcp/dist/index.js",
    ))
    .expect("the fixture package")
}

fn drive() -> PathBuf {
    std::fs::canonicalize(fixture("servers/files/drive.py")).expect("the fixture")
}

fn probe(cwd: &Path, command: &[&str], env: &[(&str, &str)], json: bool) -> std::process::Output {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s"]);
    if json {
        cmd.arg("--json");
    }
    cmd.arg("--")
        .args(command)
        .current_dir(cwd)
        .stdin(Stdio::null());
    for k in ENV {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

fn run(cwd: &Path, command: &[&str], env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    diagnoses_of(&probe(cwd, command, env, true))
}

fn keys_file(dir: &Path) -> PathBuf {
    let p = dir.join("client.json");
    std::fs::write(&p, r#"{"installed": {"client_id": "x"}}"#).expect("write");
    p
}

#[test]
fn an_unset_variable_is_named_from_the_source_not_from_a_how_to_line() {
    // @cocal/google-calendar-mcp's lines: a how-to block naming GOOGLE_OAUTH_CREDENTIALS and
    // GOOGLE_CALENDAR_MCP_TOKEN_PATH ("To use a custom token location, set ..."), then
    // "Original error: ENOENT: ... open '<package>/gcp-oauth.keys.json'".
    let dir = tempfile::tempdir().expect("tempdir");
    let script = calendar();
    let script = script.to_str().expect("utf-8");
    let (code, d) = run(dir.path(), &["node", script], &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with(
            "set `GOOGLE_OAUTH_CREDENTIALS` in the server's environment to the path of \
             gcp-oauth.keys.json (without it, the server looks at "
        ),
        "{next}"
    );
    let pkg = calendar()
        .parent()
        .and_then(Path::parent)
        .expect("package")
        .to_path_buf();
    let missing = pkg.join("gcp-oauth.keys.json");
    let t = evidence_texts(&d[0], Some("tried"));
    assert!(
        t.contains(&format!("stat {}: no such file", missing.display())),
        "{t:?}"
    );
    assert!(
        t.iter().any(
            |t| t.contains("`GOOGLE_OAUTH_CREDENTIALS` is read at dist/index.js:")
                && t.ends_with("from `gcp-oauth.keys.json` (dist/index.js:31)")
        ),
        "{t:?}"
    );
    // The how-to line's variable is gone from every answer.
    let all = serde_json::to_string(&d).expect("json");
    assert!(
        !all.contains("set `GOOGLE_CALENDAR_MCP_TOKEN_PATH`"),
        "{all}"
    );
    let text = stdout(&probe(dir.path(), &["node", script], &[], false));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("tried: stat "), "{text}");
}

#[test]
fn a_relative_value_is_read_from_the_folder_the_server_starts_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = calendar();
    let script = script.to_str().expect("utf-8");
    let rel = "./gcp-oauth.keys.json";
    let env = [("GOOGLE_OAUTH_CREDENTIALS", rel)];
    let (code, d) = run(dir.path(), &["node", script], &env);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let here = std::fs::canonicalize(dir.path()).expect("dir");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("point `GOOGLE_OAUTH_CREDENTIALS` at the file gcp-oauth.keys.json")
            && next.ends_with(&format!(
                "a relative path is read from the folder the host starts the server in ({}): \
                 give an absolute one",
                here.display()
            )),
        "{next}"
    );
    // A secret-shaped variable: its value is never printed.
    let text = stdout(&probe(dir.path(), &["node", script], &env, false));
    assert!(!text.contains(rel), "{text}");
    assert!(!serde_json::to_string(&d).expect("json").contains(rel));

    // Healthy: the same variable at a file that exists (absolute), it serves.
    let keys = keys_file(dir.path());
    let keys = keys.to_str().expect("utf-8");
    let (code, d) = run(
        dir.path(),
        &["node", script],
        &[("GOOGLE_OAUTH_CREDENTIALS", keys)],
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_python_servers_file_not_found_names_its_variable_and_the_value_that_is_no_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = drive();
    let script = script.to_str().expect("utf-8");
    // Unset: the variable read beside `credentials.json` (os.getenv's default), not the
    // settings file's, two names away.
    let (code, d) = run(dir.path(), &["python3", script], &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with(
            "set `FIXTURE_DRIVE_CLIENT_FILE` in the server's environment to the path of \
             credentials.json"
        ),
        "{d:#?}"
    );
    // Set to a file that does not exist: that value, looked at.
    let gone = dir.path().join("google/client.json");
    let gone = gone.to_str().expect("utf-8");
    let (code, d) = run(
        dir.path(),
        &["python3", script],
        &[("FIXTURE_DRIVE_CLIENT_FILE", gone)],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("point `FIXTURE_DRIVE_CLIENT_FILE` at "),
        "{d:#?}"
    );
    let t = evidence_texts(&d[0], Some("tried"));
    assert!(t.contains(&format!("stat {gone}: no such file")), "{t:?}");
}

#[test]
fn no_missing_file_blamed_on_a_warning_or_on_an_unrelated_variable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = drive();
    let script = script.to_str().expect("utf-8");
    let keys = keys_file(dir.path());
    let keys = keys.to_str().expect("utf-8");
    // Healthy: its settings file is missing ("not found, using defaults") and it serves.
    let (code, d) = run(
        dir.path(),
        &["python3", script],
        &[("FIXTURE_DRIVE_CLIENT_FILE", keys)],
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
    // The same warning, then a failure about something else: no missing file.
    let (code, d) = run(
        dir.path(),
        &["python3", script],
        &[
            ("FIXTURE_DRIVE_CLIENT_FILE", keys),
            ("FIXTURE_DRIVE_PAGE_SIZE", "ten"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "missing-file"), "{d:#?}");
    let all = serde_json::to_string(&d).expect("json");
    assert!(!all.contains("FIXTURE_DRIVE_SETTINGS"), "{all}");
    // A path-like value the entry sets that does not exist, beside a missing file it does not
    // name: the file's own variable is named, never the unrelated one.
    let (code, d) = run(
        dir.path(),
        &["python3", script],
        &[("FIXTURE_DRIVE_LOG_DIR", "/nonexistent/fixture-logs")],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
    let all = serde_json::to_string(&d).expect("json");
    assert!(!all.contains("FIXTURE_DRIVE_LOG_DIR"), "{all}");
    assert!(
        field(&d[0], "next_step").starts_with("set `FIXTURE_DRIVE_CLIENT_FILE`"),
        "{d:#?}"
    );
}

#[test]
fn a_config_file_pattern_none_of_whose_names_is_in_the_working_folder_names_the_folder() {
    // @pandacss/mcp started outside its project ("Cannot find config file
    // `panda.config.{ts,js,mjs,mts}`"), and ESLint 9's `eslint.config.(js|mjs|cjs)`.
    let script = std::fs::canonicalize(fixture("servers/files/config_search.mjs"))
        .expect("the fixture")
        .display()
        .to_string();
    let outside = tempfile::tempdir().expect("tempdir");
    for (style, name) in [
        ("panda", "panda.config.mjs"),
        ("eslint", "eslint.config.js"),
    ] {
        let (code, d) = run(outside.path(), &["node", &script, "--style", style], &[]);
        assert_eq!(code, Some(1), "{d:#?}");
        assert_eq!(d[0]["id"], "missing-file", "{d:#?}");
        let next = field(&d[0], "next_step");
        assert!(next.contains("`cwd`") && next.contains("--cwd"), "{next}");
        let tried = evidence_texts(&d[0], Some("tried"));
        assert!(
            tried
                .iter()
                .any(|t| t.contains(name) && t.contains("none there")),
            "{tried:?}"
        );
        // Look-alikes: started in the project's folder, or pointed at it with --cwd.
        let project = tempfile::tempdir().expect("tempdir");
        std::fs::write(project.path().join(name), "export default {}\n").expect("write");
        let (code, d) = run(project.path(), &["node", &script, "--style", style], &[]);
        assert_eq!(code, Some(0), "{d:#?}");
        assert!(d.is_empty(), "{d:#?}");
        let dir = project.path().display().to_string();
        let (code, d) = run(
            outside.path(),
            &["node", &script, "--style", style, "--cwd", &dir],
            &[],
        );
        assert_eq!(code, Some(0), "{d:#?}");
        assert!(d.is_empty(), "{d:#?}");
    }
}
