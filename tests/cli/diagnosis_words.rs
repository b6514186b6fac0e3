//! The "Why" from the server's own words, through the real binary: a server that names the
//! argument or variable it was given (`fixtures/servers/faults.mjs` and `faults.py`, which print
//! the lines the real servers print), tied to the entry's args or env in the entry's terms and
//! to the command in the command's terms; and no cause when the same servers are healthy.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::support::{bin, fixture, stderr, stdout};

fn faults(ext: &str) -> String {
    fixture(&format!("servers/faults.{ext}"))
        .display()
        .to_string()
}

const ONE: &[&str] = &["--launches", "1", "--watch", "3s"];

fn probe_cmd(command: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.arg("probe")
        .args(ONE)
        .arg("--json")
        .arg("--")
        .args(command)
        .env_remove("SLACK_BOT_TOKEN")
        .env_remove("SLACK_TEAM_ID")
        .stdin(Stdio::null());
    cmd
}

fn doc_of(out: &Output, status: i32) -> Value {
    assert_eq!(
        out.status.code(),
        Some(status),
        "{}\n{}",
        stdout(out),
        stderr(out)
    );
    crate::support::json(out)
}

/// The diagnoses of `probe -- COMMAND` (which must not stay up).
fn diagnoses(command: &[&str]) -> Vec<Value> {
    let out = probe_cmd(command).output().expect("the binary runs");
    doc_of(&out, 1)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

/// The diagnoses of `probe --config FILE --server ID` for a config of one entry.
fn entry_diagnoses(dir: &Path, entry: Value, env: &[(&str, &str)]) -> Vec<Value> {
    let file = dir.join("servers.json");
    std::fs::write(&file, json!({"mcplServers": {"it": entry}}).to_string()).expect("write");
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(&file)
        .args(["--server", "it", "--json"])
        .args(ONE)
        .env_remove("SLACK_BOT_TOKEN")
        .env_remove("SLACK_TEAM_ID")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the binary runs");
    doc_of(&out, 1)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// The first diagnosis is `id`; its summary, next step and evidence texts.
fn first(d: &[Value], id: &str) -> (String, String, Vec<String>) {
    let f = d.first().unwrap_or_else(|| panic!("no diagnosis"));
    assert_eq!(f["id"], id, "{d:#?}");
    let evidence = f["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| text(&e["text"]))
        .collect();
    (text(&f["summary"]), text(&f["next_step"]), evidence)
}

#[test]
fn a_repository_that_is_not_one_names_the_argument_command_and_entry_terms() {
    // mcp-server-git: `ERROR:mcp_server_git.server:/x is not a valid Git repository`, exit 0.
    let dir = tempfile::tempdir().expect("a temp dir");
    let repo = dir.path().display().to_string();
    let d = diagnoses(&[
        "python3",
        &faults("py"),
        "--mode",
        "git",
        "--repository",
        &repo,
    ]);
    let (summary, next, evidence) = first(&d, "bad-argument");
    assert_eq!(
        summary,
        format!("the server rejects `--repository {repo}`: it is not a valid Git repository")
    );
    assert_eq!(
        next,
        format!(
            "change `--repository {repo}` in the command: the server says it is not a valid \
             Git repository"
        )
    );
    assert!(evidence
        .iter()
        // The log record read as its level and message, not its logger's name.
        .any(|e| e == &format!("ERROR: {repo} is not a valid Git repository")));
    assert_eq!(d[0]["confidence"], "high");
    // The same from a configuration entry: in the entry's terms.
    let d = entry_diagnoses(
        dir.path(),
        json!({"command": "python3", "args": [faults("py"), "--mode", "git", "--repository", repo]}),
        &[],
    );
    let (_, next, _) = first(&d, "bad-argument");
    assert!(
        next.starts_with(&format!(
            "change `--repository {repo}` in the entry's args: "
        )),
        "{next}"
    );
}

#[test]
fn a_path_that_does_not_exist_is_tied_to_its_argument_even_made_absolute() {
    // server-filesystem: `Warning: Cannot access directory /abs/path, skipping`, then `Error:
    // None of the specified directories are accessible`; the argument was relative.
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut cmd = probe_cmd(&[
        "node",
        &faults("mjs"),
        "--mode",
        "filesystem",
        "./no-such-dir",
    ]);
    cmd.current_dir(dir.path());
    let out = cmd.output().expect("runs");
    let d = doc_of(&out, 1)["diagnoses"].as_array().expect("d").clone();
    let (summary, next, evidence) = first(&d, "bad-argument");
    assert_eq!(
        summary,
        "the server rejects the argument `./no-such-dir`: it cannot access it"
    );
    assert!(next.starts_with("change the argument `./no-such-dir` in the command"));
    assert!(
        evidence
            .iter()
            .any(|e| e.starts_with("nothing at ./no-such-dir (from ")),
        "{evidence:#?}"
    );
    // A path that does not exist for GitPython: its NoSuchPathError traceback, not a crash.
    let missing = dir.path().join("gone").display().to_string();
    let d = diagnoses(&[
        "python3",
        &faults("py"),
        "--mode",
        "git",
        "--repository",
        &missing,
    ]);
    let (summary, _, _) = first(&d, "bad-argument");
    assert_eq!(
        summary,
        format!("the server rejects `--repository {missing}`: it does not exist")
    );
    assert!(d.iter().all(|x| x["id"] != "crash"), "{d:#?}");
}

#[test]
fn a_bad_value_names_the_option_not_a_missing_module() {
    // mcp-server-time `--local-timezone PST`: zoneinfo's chained traceback also says `No module
    // named 'tzdata'`, which is not the cause.
    let d = diagnoses(&[
        "python3",
        &faults("py"),
        "--mode",
        "time",
        "--local-timezone",
        "PST",
    ]);
    let (summary, next, evidence) = first(&d, "bad-argument");
    assert!(
        summary.starts_with("the server rejects `--local-timezone PST`"),
        "{summary}"
    );
    assert!(next.starts_with("change `--local-timezone PST` in the command"));
    assert!(evidence
        .iter()
        .any(|e| e.contains("ZoneInfoNotFoundError: 'No time zone found with key PST'")));
    assert!(d.iter().all(|x| x["id"] != "missing-dependency"), "{d:#?}");
    // An unknown mode word: server-everything's `Unknown transport: foo` after its usage.
    let d = diagnoses(&["node", &faults("mjs"), "--mode", "everything", "foo"]);
    let (summary, _, _) = first(&d, "bad-argument");
    assert_eq!(summary, "the server rejects the argument `foo`");
    assert_eq!(d.len(), 1, "the usage lines give no second cause: {d:#?}");
}

#[test]
fn a_missing_argument_quotes_what_the_server_asks_for() {
    // server-postgres without its URL.
    let d = diagnoses(&["node", &faults("mjs"), "--mode", "postgres"]);
    let (summary, next, evidence) = first(&d, "missing-argument");
    assert_eq!(summary, "it was started without an argument it needs");
    assert_eq!(
        next,
        "add the argument it asks for to the command (it says: \"Please provide a database \
         URL as a command-line argument\")"
    );
    assert_eq!(
        evidence,
        vec!["Please provide a database URL as a command-line argument"]
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = entry_diagnoses(
        dir.path(),
        json!({"command": "node", "args": [faults("mjs"), "--mode", "postgres"]}),
        &[],
    );
    let (_, next, _) = first(&d, "missing-argument");
    assert!(next.starts_with("add the argument it asks for to the entry's args"));
}

#[test]
fn several_variables_in_one_message_say_which_the_server_got() {
    // server-slack: `Please set SLACK_BOT_TOKEN and SLACK_TEAM_ID environment variables`, with
    // the token given by the entry and the team id nowhere.
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = entry_diagnoses(
        dir.path(),
        json!({"command": "node", "args": [faults("mjs"), "--mode", "slack"],
               "env": {"SLACK_BOT_TOKEN": "xoxb-secret-0001"}}),
        &[],
    );
    let (summary, next, evidence) = first(&d, "missing-env-var");
    assert_eq!(
        summary,
        "the server asks for `SLACK_BOT_TOKEN` and `SLACK_TEAM_ID`: it gets \
         `SLACK_BOT_TOKEN`, not `SLACK_TEAM_ID`"
    );
    assert_eq!(
        next,
        "set `SLACK_TEAM_ID` in the entry's `env`; it already gets `SLACK_BOT_TOKEN`"
    );
    assert!(
        evidence.contains(&"SLACK_BOT_TOKEN is passed to the server: check its value".to_string())
    );
    assert!(
        evidence.contains(&"SLACK_TEAM_ID is set neither in the entry's env nor here".to_string())
    );
    // Never called missing, never its value.
    let all = serde_json::to_string(&d).expect("json");
    assert!(!all.contains("SLACK_BOT_TOKEN is not set"), "{all}");
    assert!(!all.contains("xoxb-secret-0001"), "{all}");

    // Both given: the values are suspect, medium confidence.
    let d = entry_diagnoses(
        dir.path(),
        json!({"command": "node", "args": [faults("mjs"), "--mode", "slack"],
               "env": {"SLACK_BOT_TOKEN": "", "SLACK_TEAM_ID": "T1"}}),
        &[],
    );
    let (summary, _, _) = first(&d, "missing-env-var");
    assert_eq!(
        summary,
        "the server asks for `SLACK_BOT_TOKEN` and `SLACK_TEAM_ID`, which it gets: their \
         values are suspect"
    );
    assert_eq!(d[0]["confidence"], "medium");
}

#[test]
fn the_same_servers_healthy_get_no_cause() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    let repo = dir.path().display().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec![
            "python3".into(),
            faults("py"),
            "--mode".into(),
            "git".into(),
            "--repository".into(),
            repo.clone(),
        ],
        vec![
            "python3".into(),
            faults("py"),
            "--mode".into(),
            "time".into(),
            "--local-timezone".into(),
            "Europe/Paris".into(),
        ],
        vec![
            "node".into(),
            faults("mjs"),
            "--mode".into(),
            "filesystem".into(),
            repo.clone(),
        ],
        vec![
            "node".into(),
            faults("mjs"),
            "--mode".into(),
            "postgres".into(),
            "postgresql://u@localhost/db".into(),
        ],
        vec![
            "node".into(),
            faults("mjs"),
            "--mode".into(),
            "everything".into(),
            "stdio".into(),
        ],
    ];
    for c in cases {
        let args: Vec<&str> = c.iter().map(String::as_str).collect();
        let mut cmd = bin();
        cmd.args(["probe", "--launches", "1", "--watch", "1s", "--json", "--"])
            .args(&args)
            .stdin(Stdio::null());
        let out = cmd.output().expect("runs");
        let doc = doc_of(&out, 0);
        assert_eq!(doc["diagnoses"], json!([]), "{c:?}");
    }
}

/// The diagnoses of `probe -- COMMAND` run from `dir`.
fn diagnoses_in(dir: &Path, command: &[&str]) -> Vec<Value> {
    let mut cmd = probe_cmd(command);
    cmd.current_dir(dir);
    let out = cmd.output().expect("the binary runs");
    doc_of(&out, 1)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

#[test]
fn python_dash_m_outside_the_venv_names_the_interpreter_and_the_venv() {
    // Python's own `/path/python3: No module named X` for `python3 -m X`, X only in ./.venv.
    let dir = tempfile::tempdir().expect("a temp dir");
    let site = dir
        .path()
        .join(".venv/lib/python3.11/site-packages/mcp_fixture_srv");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::write(site.join("__init__.py"), "").expect("write");
    let d = diagnoses_in(dir.path(), &["python3", "-m", "mcp_fixture_srv"]);
    let (summary, next, evidence) = first(&d, "wrong-interpreter");
    assert!(
        summary.ends_with(
            "has no module `mcp_fixture_srv`: the server is installed in another environment"
        ),
        "{summary}"
    );
    let venv = dir.path().join(".venv").display().to_string();
    assert!(
        next.starts_with(&format!(
            "run it with that environment's interpreter: `{venv}/bin/python -m mcp_fixture_srv`"
        )),
        "{next}"
    );
    assert!(evidence
        .iter()
        .any(|e| e.contains(": No module named mcp_fixture_srv")));
    assert!(d.iter().all(|x| x["id"] != "missing-dependency"), "{d:#?}");
}

#[test]
fn a_runtime_too_old_names_the_version_it_needs_python_and_node() {
    // A typing name the running Python lacks: "needs Python >= 3.13", not "not installed".
    let d = diagnoses(&["python3", &faults("py"), "--mode", "typing"]);
    let (summary, next, evidence) = first(&d, "runtime-too-old");
    assert!(
        summary.starts_with("the server needs Python >= 3.1"),
        "{summary}"
    );
    assert!(summary.contains("is new in Python 3.1"), "{summary}");
    assert!(next.starts_with("run it with Python 3.1"), "{next}");
    assert!(
        evidence
            .iter()
            .any(|e| e.starts_with("this launch ran Python 3.")),
        "{evidence:#?}"
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    // Node 14 on `??=`.
    let d = diagnoses(&["node", &faults("mjs"), "--mode", "old-node"]);
    let (summary, next, _) = first(&d, "runtime-too-old");
    assert_eq!(
        summary,
        "the server needs Node.js >= 15: Node.js before 15 says `Unexpected token '??='`"
    );
    assert!(
        next.starts_with("run it with Node.js 15 or newer"),
        "{next}"
    );
    assert!(d.iter().all(|x| x["id"] != "crash"), "{d:#?}");
}

#[test]
fn npm_e404_names_the_package_not_the_log_line() {
    let d = diagnoses(&[
        "node",
        &faults("mjs"),
        "--mode",
        "npm-e404",
        "@modelcontextprotocol/server-filesystm",
    ]);
    let (summary, next, _) = first(&d, "package-not-found");
    assert_eq!(
        summary,
        "npm's registry has no package `@modelcontextprotocol/server-filesystm`"
    );
    assert!(
        next.starts_with(
            "check the package name `@modelcontextprotocol/server-filesystm` in the command (a typo?)"
        ),
        "{next}"
    );
    assert!(!serde_json::to_string(&d)
        .expect("json")
        .contains("complete log"));
}

#[test]
fn a_broken_npx_cache_names_the_folder_to_delete() {
    // Node's own ERR_MODULE_NOT_FOUND from a package in ~/.npm/_npx/<hash> whose dependency
    // was never installed (an install killed half-way).
    let dir = tempfile::tempdir().expect("a temp dir");
    let folder = dir.path().join(".npm/_npx/0a1b2c3d4e5f6789");
    let pkg = folder.join("node_modules/fixture-srv");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(pkg.join("index.mjs"), "import 'zod-not-installed';\n").expect("write");
    let script = pkg.join("index.mjs").display().to_string();
    let d = diagnoses(&["node", &script]);
    let (summary, next, _) = first(&d, "broken-npx-cache");
    let folder = folder.display().to_string();
    assert_eq!(
        summary,
        format!("npx's cached copy of the package is incomplete: {folder}")
    );
    assert!(
        next.starts_with(&format!("delete {folder} (`rm -rf {folder}`)")),
        "{next}"
    );
    assert!(d.iter().all(|x| x["id"] != "missing-dependency"), "{d:#?}");
}

#[test]
fn a_dependency_that_changed_is_named_with_its_version_to_pin() {
    // Python: `ImportError: cannot import name 'OldName' from 'mcpfixture_dep' (.../site-packages/...)`.
    let d = diagnoses(&["python3", &faults("py"), "--mode", "drift"]);
    let (summary, next, _) = first(&d, "dependency-drift");
    assert_eq!(
        summary,
        "`mcpfixture_dep` 2.0.0 has no `OldName`, which the server imports: the dependency \
         changed under the server"
    );
    assert!(
        next.starts_with("pin `mcpfixture_dep` below 2.0.0 where the server runs"),
        "{next}"
    );
    // Node: `The requested module 'fixture-dep' does not provide an export named 'z'`.
    let server = fixture("servers/drift/server.mjs").display().to_string();
    let d = diagnoses(&["node", &server]);
    let (summary, next, _) = first(&d, "dependency-drift");
    assert!(
        summary.starts_with("`fixture-dep` 2.0.0 has no `z`"),
        "{summary}"
    );
    assert!(next.starts_with("pin `fixture-dep` below 2.0.0"), "{next}");
    assert!(d.iter().all(|x| x["id"] != "crash"), "{d:#?}");
}

#[test]
fn a_subpath_a_package_no_longer_exports_names_the_pin_below_its_major() {
    // Node's ERR_PACKAGE_PATH_NOT_EXPORTED for `import "fixture-ids/v4"` under fixture-ids
    // 7.0.0 (uuid 7 dropped its deep subpaths): the package.json it names says the version.
    let server = fixture("servers/drift/subpath.mjs").display().to_string();
    let mut cmd = probe_cmd(&["node", &server]);
    cmd.env_remove("FIXTURE_OPTIONAL");
    let d = doc_of(&cmd.output().expect("the binary runs"), 1)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone();
    let (summary, next, evidence) = first(&d, "dependency-drift");
    assert!(
        summary.starts_with("`fixture-ids` 7.0.0 does not export what the server imports"),
        "{summary}"
    );
    let folder = fixture("servers/drift").display().to_string();
    assert!(
        next.starts_with(&format!(
            "pin `fixture-ids@<7` for the server: `npm install 'fixture-ids@<7'` in {folder}"
        )),
        "{next}"
    );
    assert!(
        evidence.iter().any(|e| e.ends_with("subpath.mjs")),
        "{evidence:?}"
    );
    // The same import tried, its failure logged, and the server serves: no cause.
    let mut cmd = probe_cmd(&["node", &server]);
    cmd.env("FIXTURE_OPTIONAL", "1");
    let doc = doc_of(&cmd.output().expect("the binary runs"), 0);
    let d = doc["diagnoses"].as_array().expect("diagnoses");
    assert!(d.is_empty(), "{d:#?}");
}

/// The diagnoses of `probe -- python3 faults.py --mode MODE` with `env` set, and its exit.
fn with_env(mode: &str, env: &[(&str, &str)], status: i32) -> Vec<Value> {
    let script = faults("py");
    let mut cmd = probe_cmd(&["python3", &script, "--mode", mode]);
    cmd.env_remove("FASTMCP_LOG_LEVEL").env_remove("LOG_LEVEL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    doc_of(&cmd.output().expect("the binary runs"), status)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

#[test]
fn a_value_the_server_knows_in_another_case_is_named_in_that_case() {
    // loguru (awslabs servers' FASTMCP_LOG_LEVEL): `ValueError: Level 'debug' does not exist`.
    let d = with_env("loguru-level", &[("FASTMCP_LOG_LEVEL", "debug")], 1);
    let (summary, next, _) = first(&d, "bad-argument");
    assert!(
        summary.starts_with("the server rejects `debug`"),
        "{summary}"
    );
    assert_eq!(
        next,
        "use `DEBUG`: change `FASTMCP_LOG_LEVEL=debug` to `FASTMCP_LOG_LEVEL=DEBUG` in the \
         server's environment"
    );
    // Python's own logging, run for real: `ValueError: Unknown level: 'debug'`.
    let d = with_env("logging-level", &[("LOG_LEVEL", "debug")], 1);
    let (_, next, _) = first(&d, "bad-argument");
    assert!(
        next.starts_with("use `DEBUG`: change `LOG_LEVEL=debug`"),
        "{next}"
    );
    // Look-alikes: the right case serves; a word no logger knows in any case is no case
    // variant (the server's words stand).
    let d = with_env("loguru-level", &[("FASTMCP_LOG_LEVEL", "DEBUG")], 0);
    assert!(d.is_empty(), "{d:#?}");
    let d = with_env("loguru-level", &[("FASTMCP_LOG_LEVEL", "verbose")], 1);
    let (_, next, _) = first(&d, "bad-argument");
    assert!(!next.contains("use `"), "{next}");
    assert!(next.contains("FASTMCP_LOG_LEVEL"), "{next}");
}
