//! Host dialects (issue 18, item 2): a VS Code, a Cursor and a Claude Code file, each with the
//! variables its host expands, launch exactly the command, arguments, folder and environment
//! the editor would. fixtures/servers/launch_recorder.py writes down how it was launched; the
//! facts per host are in tests/reference/hosts-dialects.md. VS Code entries of `type: http`
//! and `type: sse` reach the HTTP fixture (fixtures/servers/http_eras.py) as connected.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::support::{bin, fixture, json, launches, stderr, stdout};

fn recorder() -> String {
    fixture("servers/launch_recorder.py").display().to_string()
}

/// A project folder with a home folder beside it.
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().expect("a temp dir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        let root = base.join("proj");
        let home = base.join("home");
        std::fs::create_dir_all(root.join("sub")).expect("mkdir");
        std::fs::create_dir_all(&home).expect("mkdir");
        Project {
            _dir: dir,
            root,
            home,
        }
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.root.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&p, text).expect("write");
        p
    }

    fn record(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.root.join("rec.json")).expect("the server ran");
        serde_json::from_str(&text).expect("JSON")
    }
}

/// `probe --config FILE --server ID` once, from `cwd`, with `extra` flags and variables.
fn probe(file: &Path, id: &str, p: &Project, extra: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = bin();
    cmd.args(["probe", "--config"])
        .arg(file)
        .args(["--server", id, "--launches", "1"])
        .args(extra)
        .current_dir(&p.home)
        .env("HOME", &p.home)
        .env("CALLER_ONLY", "from-the-caller")
        .env_remove("NOT_SET_ANYWHERE");
    if !extra.contains(&"--watch") {
        cmd.args(["--watch", "300ms"]);
    }
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).output().expect("runs")
}

fn s(v: &serde_json::Value) -> Option<&str> {
    v.as_str()
}

#[test]
fn vscode_launches_with_inputs_env_file_env_vars_and_its_folder() {
    let p = Project::new();
    p.write(
        ".env",
        "FROM_FILE=file-secret-value-1\nKEY=overridden-by-env\n",
    );
    let file = p.write(
        ".vscode/mcp.json",
        &format!(
            r#"{{
  // VS Code reads JSONC.
  "inputs": [{{"type": "promptString", "id": "api-key", "password": true}}],
  "servers": {{
    "local": {{
      "type": "stdio",
      "command": "python3",
      "args": ["{rec}", "--record", "${{workspaceFolder}}/rec.json", "${{userHome}}",
               "${{env:USER_NAME}}", "${{workspaceFolderBasename}}", "${{HOME}}", "${{env:NOT_SET_ANYWHERE}}"],
      "cwd": "${{workspaceFolder}}/sub",
      "envFile": "${{workspaceFolder}}/.env",
      "env": {{"KEY": "${{input:api-key}}", "DROPPED": null, "NUM": 7,
               "LAUNCH_RECORD_ENV": "KEY,FROM_FILE,DROPPED,NUM,CALLER_ONLY,USER_NAME"}}
    }},
  }}
}}"#,
            rec = recorder()
        ),
    );
    let out = probe(
        &file,
        "local",
        &p,
        &["--input", "api-key=input-secret-value-1"],
        &[("USER_NAME", "alice-name"), ("DROPPED", "inherited")],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let r = p.record();
    let home = p.home.display().to_string();
    let root = p.root.display().to_string();
    let rec_path = format!("{root}/rec.json");
    let argv: Vec<&str> = r["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .filter_map(s)
        .collect();
    // `${HOME}` is not a VS Code form: it reaches the server as written. An unset
    // `${env:X}` is the empty string.
    assert_eq!(
        argv,
        [
            "--record",
            &rec_path,
            &home,
            "alice-name",
            "proj",
            "${HOME}",
            ""
        ]
    );
    assert_eq!(s(&r["cwd"]), Some(format!("{root}/sub").as_str()));
    assert_eq!(s(&r["env"]["KEY"]), Some("input-secret-value-1"));
    assert_eq!(s(&r["env"]["FROM_FILE"]), Some("file-secret-value-1"));
    assert_eq!(r["env"]["DROPPED"], serde_json::Value::Null);
    assert_eq!(s(&r["env"]["NUM"]), Some("7"));
    // VS Code merges the entry's env with its own environment.
    assert_eq!(s(&r["env"]["CALLER_ONLY"]), Some("from-the-caller"));
    // The report names the host, and never an input's or an env file's value.
    let text = stdout(&out);
    assert!(text.contains("as VS Code reads it"), "{text}");
    for secret in ["input-secret-value-1", "file-secret-value-1"] {
        assert!(!text.contains(secret) && !stderr(&out).contains(secret));
    }
    let out = probe(
        &file,
        "local",
        &p,
        &["--input", "api-key=input-secret-value-1", "--json"],
        &[],
    );
    let doc = json(&out);
    let text = doc.to_string();
    assert_eq!(doc["entry"]["host"], "vscode", "{text}");
    assert!(!text.contains("input-secret-value-1") && !text.contains("file-secret-value-1"));
}

#[test]
fn an_input_not_given_refuses_the_entry_and_is_never_passed_on() {
    let p = Project::new();
    let file = p.write(
        ".vscode/mcp.json",
        &format!(
            r#"{{"inputs": [{{"type": "promptString", "id": "api-key"}}],
  "servers": {{"local": {{"command": "python3", "args": ["{rec}", "--record", "${{workspaceFolder}}/rec.json"],
    "env": {{"KEY": "${{input:api-key}}"}}}}}}}}"#,
            rec = recorder()
        ),
    );
    let out = probe(&file, "local", &p, &[], &[]);
    assert_ne!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(err.contains("the input `api-key`"), "{err}");
    assert!(err.contains("--input api-key=VALUE"), "{err}");
    assert!(!p.root.join("rec.json").exists(), "nothing was launched");
}

#[test]
fn cursor_launches_in_its_workspace_with_env_vars_and_user_home() {
    let p = Project::new();
    p.write("cfg.env", "FROM_FILE=cursor-file-secret-1\n");
    let file = p.write(
        ".cursor/mcp.json",
        &format!(
            r#"{{"mcpServers": {{"local": {{
  "command": "python3",
  "args": ["{rec}", "--record", "${{workspaceFolder}}/rec.json", "${{userHome}}/x",
           "${{env:USER_NAME}}", "${{USER_NAME}}", "${{input:nope}}"],
  "envFile": "${{workspaceFolder}}/cfg.env",
  "env": {{"LAUNCH_RECORD_ENV": "FROM_FILE,CALLER_ONLY,TOKEN", "TOKEN": "${{env:USER_NAME}}"}}
}}}}}}"#,
            rec = recorder()
        ),
    );
    let out = probe(&file, "local", &p, &[], &[("USER_NAME", "bob-name")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let r = p.record();
    let home = p.home.display().to_string();
    let root = p.root.display().to_string();
    let argv: Vec<&str> = r["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .filter_map(s)
        .collect();
    // Cursor expands `${env:X}`, `${userHome}` and `${workspaceFolder}`; `${X}` and
    // `${input:...}` are not Cursor forms and stay as written.
    assert_eq!(
        argv,
        [
            "--record",
            &format!("{root}/rec.json"),
            &format!("{home}/x"),
            "bob-name",
            "${USER_NAME}",
            "${input:nope}"
        ]
    );
    assert_eq!(s(&r["cwd"]), Some(root.as_str()));
    assert_eq!(s(&r["env"]["FROM_FILE"]), Some("cursor-file-secret-1"));
    assert_eq!(s(&r["env"]["TOKEN"]), Some("bob-name"));
    assert_eq!(s(&r["env"]["CALLER_ONLY"]), Some("from-the-caller"));
    assert!(stdout(&out).contains("as Cursor reads it"));
    assert!(!stdout(&out).contains("cursor-file-secret-1"));
}

#[test]
fn claude_code_expands_var_and_default_and_keeps_unset_ones_literal() {
    let p = Project::new();
    let file = p.write(
        ".mcp.json",
        &format!(
            r#"{{"mcpServers": {{"local": {{
  "type": "stdio",
  "command": "python3",
  "args": ["{rec}", "--record", "{root}/rec.json", "${{USER_NAME}}", "${{NOT_SET_ANYWHERE}}",
           "${{NOT_SET_ANYWHERE:-fallback}}", "${{env:USER_NAME}}", "${{workspaceFolder}}", "./rel"],
  "env": {{"LAUNCH_RECORD_ENV": "TOKEN,CALLER_ONLY", "TOKEN": "${{CC_TOKEN}}"}}
}}}}}}"#,
            rec = recorder(),
            root = p.root.display()
        ),
    );
    let out = probe(
        &file,
        "local",
        &p,
        &[],
        &[
            ("USER_NAME", "carol-name"),
            ("CC_TOKEN", "cc-secret-token-1"),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let r = p.record();
    let root = p.root.display().to_string();
    let argv: Vec<&str> = r["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .filter_map(s)
        .collect();
    assert_eq!(
        argv,
        [
            "--record",
            &format!("{root}/rec.json"),
            "carol-name",
            "${NOT_SET_ANYWHERE}",
            "fallback",
            "${env:USER_NAME}",
            "${workspaceFolder}",
            "./rel"
        ]
    );
    // Claude Code starts project servers in the project folder, the one holding .mcp.json.
    assert_eq!(s(&r["cwd"]), Some(root.as_str()));
    assert_eq!(s(&r["env"]["TOKEN"]), Some("cc-secret-token-1"));
    assert_eq!(s(&r["env"]["CALLER_ONLY"]), Some("from-the-caller"));
    let text = stdout(&out);
    assert!(text.contains("as Claude Code reads it"), "{text}");
    assert!(!text.contains("cc-secret-token-1"));
}

#[test]
fn cline_passes_env_plus_path_only_and_host_flag_overrides_detection() {
    let p = Project::new();
    let file = p.write(
        "servers.json",
        &format!(
            r#"{{"mcpServers": {{"local": {{"command": "python3",
  "args": ["{rec}", "--record", "{root}/rec.json", "${{USER_NAME}}"],
  "cwd": "{root}/sub",
  "env": {{"LAUNCH_RECORD_ENV": "CALLER_ONLY,PATH,OWN", "OWN": "x"}}}}}}}}"#,
            rec = recorder(),
            root = p.root.display()
        ),
    );
    let out = probe(
        &file,
        "local",
        &p,
        &["--host", "cline"],
        &[("USER_NAME", "dave")],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let r = p.record();
    let argv: Vec<&str> = r["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .filter_map(s)
        .collect();
    assert_eq!(argv[2], "${USER_NAME}", "Cline expands no variable");
    assert_eq!(r["env"]["CALLER_ONLY"], serde_json::Value::Null);
    assert!(r["env"]["PATH"].is_string());
    assert_eq!(s(&r["env"]["OWN"]), Some("x"));
    assert_eq!(
        s(&r["cwd"]),
        Some(format!("{}/sub", p.root.display()).as_str())
    );
}

/// The HTTP fixture; it exits when its stdin closes (dropped with the guard) or after 60 s.
struct EraServer {
    child: Child,
    port: u16,
}

impl EraServer {
    fn start(mode: &str) -> EraServer {
        let mut child = Command::new("python3")
            .arg(fixture("servers/http_eras.py"))
            .args(["--mode", mode])
            .env("HTTP_ERAS_LIFETIME_S", "60")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let out = child.stdout.take().expect("stdout piped");
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).expect("a line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .expect("PORT n");
        EraServer { child, port }
    }
}

impl Drop for EraServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn vscode_http_and_sse_entries_connect_with_their_tools() {
    let streamable = EraServer::start("streamable");
    let sse = EraServer::start("sse");
    let p = Project::new();
    let file = p.write(
        ".vscode/mcp.json",
        &format!(
            r#"{{"servers": {{
  "web": {{"type": "http", "url": "http://127.0.0.1:{}/mcp"}},
  "old": {{"type": "sse", "url": "http://127.0.0.1:{}/sse"}}
}}}}"#,
            streamable.port, sse.port
        ),
    );
    for (id, era) in [("web", "streamable-http"), ("old", "sse")] {
        let out = probe(&file, id, &p, &["--json", "--watch", "1s"], &[]);
        let doc = json(&out);
        let launch = &launches(&doc)[0];
        let text = launch.to_string();
        assert!(text.contains(&format!("\"era\":\"{era}\"")), "{id}: {text}");
        assert!(
            text.contains("still-up") || text.contains("still_up"),
            "{id}: {text}"
        );
        for tool in ["echo", "add", "sleep"] {
            assert!(text.contains(&format!("\"{tool}\"")), "{id}: {text}");
        }
        assert_eq!(doc["entry"]["host"], "vscode");
    }
}
