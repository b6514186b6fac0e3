//! The experiment that reads a failed server's installed source for the variables it reads,
//! through the real binary and real child processes (fixtures/servers/envnames/): a token set
//! under a name the server never reads beside the one it does (a rename), and last words that
//! name no variable but hold the words of the one it reads; each with a healthy look-alike.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::support::{bin, diagnoses_of, evidence_texts, fixture, stdout, text_field as field};

const ENV: &[&str] = &[
    "FIXTURE_SVC_API_TOKEN",
    "FIXTURE_SVC_TOKEN",
    "FIXTURE_SVC_BASE_URL",
    "FIXTURE_SVC_URL",
    "FIXTURE_DATABASE_PASSWORD",
    "FIXTURE_DB_PASS",
    "FIXTURE_SVC_SPEC",
    "FIXTURE_SVC_SPEC_PATH",
];

/// A folder with `node_modules/.bin/fixture-envnames-mcp` linked to the fixture package's bin,
/// as npm installs it.
fn installed() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin_dir = dir.path().join("node_modules/.bin");
    std::fs::create_dir_all(&bin_dir).expect("mkdir");
    let target = fixture("servers/envnames/node_modules/fixture-envnames-mcp/dist/index.js");
    let link = bin_dir.join("fixture-envnames-mcp");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    let shown = link.display().to_string();
    (dir, shown)
}

fn probe(command: &[&str], env: &[(&str, &str)], json: bool) -> std::process::Output {
    let mut cmd: Command = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s"]);
    if json {
        cmd.arg("--json");
    }
    cmd.arg("--").args(command).stdin(Stdio::null());
    for k in ENV {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

/// The run's exit code and diagnoses.
fn run(command: &[&str], env: &[(&str, &str)]) -> (Option<i32>, Vec<Value>) {
    diagnoses_of(&probe(command, env, true))
}

fn package_dir() -> PathBuf {
    std::fs::canonicalize(fixture(
        "servers/envnames/node_modules/fixture-envnames-mcp",
    ))
    .expect("the fixture package")
}

#[test]
fn a_token_under_a_name_the_server_never_reads_is_renamed_to_the_one_it_reads() {
    let (_dir, bin) = installed();
    let secret = "s3cret-fixture-token-value";
    let (code, d) = run(&[&bin], &[("FIXTURE_SVC_TOKEN", secret)]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert_eq!(
        field(&d[0], "next_step"),
        "rename `FIXTURE_SVC_TOKEN` to `FIXTURE_SVC_API_TOKEN` in the server's environment: \
         the server reads that name (dist/index.js:13), never `FIXTURE_SVC_TOKEN`"
    );
    let t = evidence_texts(&d[0], Some("tried"));
    let pkg = package_dir();
    assert!(
        t.iter().any(|t| t.starts_with(&format!(
            "read the server's source (1 file in {}, ",
            pkg.display()
        )) && t
            .ends_with("it reads FIXTURE_SVC_API_TOKEN (dist/index.js:13), FIXTURE_SVC_BASE_URL, FIXTURE_SVC_SPEC_PATH")),
        "{t:?}"
    );
    let text = stdout(&probe(&[&bin], &[("FIXTURE_SVC_TOKEN", secret)], false));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("tried: read the server's source"), "{text}");
    assert!(!text.contains(secret), "{text}");

    // In an entry of a configuration: the entry's env is named.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("servers.json");
    let entry = json!({"command": bin, "env": {"FIXTURE_SVC_TOKEN": secret}});
    std::fs::write(&file, json!({"mcpServers": {"it": entry}}).to_string()).expect("write");
    let out = bin_probe_config(&file);
    let d = crate::support::failed_diagnoses(&out);
    assert!(
        field(&d[0], "next_step").starts_with(
            "rename `FIXTURE_SVC_TOKEN` to `FIXTURE_SVC_API_TOKEN` in the entry's `env`"
        ),
        "{d:#?}"
    );
}

fn bin_probe_config(file: &Path) -> std::process::Output {
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(file)
        .args([
            "--server",
            "it",
            "--json",
            "--launches",
            "1",
            "--watch",
            "2s",
        ])
        .stdin(Stdio::null());
    for k in ENV {
        cmd.env_remove(k);
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn no_rename_when_the_server_serves_or_a_bad_flag_is_the_cause() {
    let (_dir, bin) = installed();
    // Healthy: it reads a variable the entry does not set (FIXTURE_SVC_BASE_URL) beside one
    // it sets under a close name (FIXTURE_SVC_URL), and serves: no diagnosis, nothing read.
    let (code, d) = run(
        &[&bin],
        &[
            ("FIXTURE_SVC_API_TOKEN", "t0ken"),
            ("FIXTURE_SVC_URL", "https://x.example"),
        ],
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
    // A flag it does not know is the cause: its error, not the unread FIXTURE_SVC_URL.
    let (code, d) = run(
        &[&bin, "--bogus"],
        &[
            ("FIXTURE_SVC_API_TOKEN", "t0ken"),
            ("FIXTURE_SVC_URL", "https://x.example"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        d.iter().all(|x| !field(x, "next_step").contains("rename")),
        "{d:#?}"
    );
    assert!(field(&d[0], "next_step").contains("--bogus"), "{d:#?}");
    // The close name is the one it reads and the token is set, but the flag is wrong.
    let (_, d) = run(&[&bin, "--bogus"], &[("FIXTURE_SVC_API_TOKEN", "t0ken")]);
    assert!(
        d.iter()
            .all(|x| evidence_texts(x, Some("tried")).is_empty()),
        "nothing to read for: {d:#?}"
    );
}

#[test]
fn last_words_in_the_words_of_the_unset_variable_it_reads_name_it() {
    // Node: "A Fixture-svc api token is required." and FIXTURE_SVC_API_TOKEN.
    let (_dir, bin) = installed();
    let (code, d) = run(&[&bin], &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with(
            "set `FIXTURE_SVC_API_TOKEN` in the server's environment: the server reads that \
             variable (dist/index.js:13)"
        ),
        "{d:#?}"
    );
    // Python, `python3 server.py`: "a database password is required" and
    // FIXTURE_DATABASE_PASSWORD (its words, but the vendor's prefix).
    let py = fixture("servers/envnames/server.py").display().to_string();
    let (code, d) = run(&["python3", &py], &[]);
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        field(&d[0], "next_step").starts_with("set `FIXTURE_DATABASE_PASSWORD`"),
        "{d:#?}"
    );
    assert!(
        evidence_texts(&d[0], Some("tried"))
            .iter()
            .any(|t| t.contains("FIXTURE_DATABASE_PASSWORD (server.py:11)")),
        "{d:#?}"
    );
    // A close name set instead (DB for DATABASE, PASS for PASSWORD): renamed.
    let (_, d) = run(&["python3", &py], &[("FIXTURE_DB_PASS", "pw")]);
    assert!(
        field(&d[0], "next_step")
            .starts_with("rename `FIXTURE_DB_PASS` to `FIXTURE_DATABASE_PASSWORD`"),
        "{d:#?}"
    );
    // Healthy look-alike: the password set, it serves; nothing is read, no cause.
    let (code, d) = run(&["python3", &py], &[("FIXTURE_DATABASE_PASSWORD", "pw")]);
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_uvx_tool_is_read_in_uvs_cache_through_its_console_script() {
    // uv's cache as uvx leaves it: `archive-v0/HASH/bin/TOOL`, a console script whose `#!`
    // interpreter's site-packages holds the module its `from X import main` names; `uvx` here
    // is a stand-in that runs it (uv is not needed).
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("uv-cache");
    let env_dir = cache.join("archive-v0/Xa1b2c3");
    let site = env_dir.join("lib/python3.11/site-packages/fixture_uvx_mcp");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::create_dir_all(env_dir.join("bin")).expect("mkdir");
    std::fs::copy(
        fixture("servers/envnames/server.py"),
        site.join("__init__.py"),
    )
    .expect("copy");
    let python = env_dir.join("bin/python3");
    let real = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3");
    std::os::unix::fs::symlink(String::from_utf8_lossy(&real.stdout).trim(), &python)
        .expect("link");
    let tool = env_dir.join("bin/fixture-uvx-mcp");
    std::fs::write(
        &tool,
        format!(
            "#!{}\nimport sys\nsys.path.insert(0, {:?})\nfrom fixture_uvx_mcp import main\n",
            python.display(),
            site.parent().expect("site").display().to_string()
        ),
    )
    .expect("write");
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).expect("mkdir");
    let uvx = bin_dir.join("uvx");
    std::fs::write(
        &uvx,
        "#!/bin/sh\nexec \"$UV_CACHE_DIR\"/archive-v0/*/bin/\"$1\"\n",
    )
    .expect("write");
    for f in [&tool, &uvx] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cache_s = cache.display().to_string();
    let (code, d) = run(
        &["uvx", "fixture-uvx-mcp"],
        &[
            ("PATH", &path),
            ("UV_CACHE_DIR", &cache_s),
            ("FIXTURE_DB_PASS", "pw"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        field(&d[0], "next_step")
            .starts_with("rename `FIXTURE_DB_PASS` to `FIXTURE_DATABASE_PASSWORD`"),
        "{d:#?}"
    );
    assert!(
        evidence_texts(&d[0], Some("tried"))
            .iter()
            .any(|t| t.contains(&format!("(1 file in {}, ", site.display()))
                && t.contains("FIXTURE_DATABASE_PASSWORD (__init__.py:11)")),
        "{d:#?}"
    );
}

#[test]
fn a_name_without_the_word_of_its_form_is_renamed_before_the_error_s_words_tie_it() {
    // @ivotoby/openapi-mcp-server with OPENAPI_SPEC (it reads OPENAPI_SPEC_PATH): "OpenAPI spec
    // is required" holds the words of the set name, which the code never reads.
    let (_dir, bin) = installed();
    let (code, d) = run(
        &[&bin, "spec"],
        &[
            ("FIXTURE_SVC_API_TOKEN", "s3cret-fixture-token-value"),
            ("FIXTURE_SVC_SPEC", "/tmp/fixture-spec.json"),
        ],
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        field(&d[0], "next_step")
            .starts_with("rename `FIXTURE_SVC_SPEC` to `FIXTURE_SVC_SPEC_PATH`"),
        "{d:#?}"
    );
    // Look-alike: the name it reads is set (beside the other): it serves, no cause.
    let (code, d) = run(
        &[&bin, "spec"],
        &[
            ("FIXTURE_SVC_API_TOKEN", "s3cret-fixture-token-value"),
            ("FIXTURE_SVC_SPEC", "/tmp/fixture-spec.json"),
            ("FIXTURE_SVC_SPEC_PATH", "/tmp/fixture-spec.json"),
        ],
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}
