//! The Why keyed on structure for faults seen on servers the rules were not written against
//! (issue 27's fresh test half of stop 34), through the real binary: each fixture prints the
//! real server's lines (named in the fixture), and each has a healthy look-alike that must not
//! match.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::{bin, fixture, run_diagnoses};

fn probe(command: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.args(["probe", "--launches", "1", "--watch", "2s", "--json", "--"])
        .args(command)
        .env_remove("FIGMA_API_KEY")
        .env_remove("FIGMA_OAUTH_TOKEN")
        .env_remove("ELASTICSEARCH_HOSTS")
        .env_remove("PYTHONPATH")
        .stdin(Stdio::null());
    cmd
}

fn texts(d: &Value, source: &str) -> Vec<String> {
    d["evidence"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|e| e["source"] == source)
                .map(|e| e["text"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn next(d: &Value) -> String {
    d["next_step"].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_last_line_naming_variables_nobody_set_names_them() {
    let faults = fixture("servers/faults.mjs").display().to_string();
    let (code, d) = run_diagnoses(&mut probe(&["node", &faults, "--mode", "figma"]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        next(&d[0]).contains("one of `FIGMA_API_KEY` or `FIGMA_OAUTH_TOKEN`"),
        "{}",
        next(&d[0])
    );
    // Healthy look-alike: the key set (its value never printed), the server stays up.
    let (code, d) = run_diagnoses(
        probe(&["node", &faults, "--mode", "figma"]).env("FIGMA_API_KEY", "figd_s3cretValue"),
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_dependency_needing_a_newer_node_is_read_from_its_package_json() {
    let cli = fixture("servers/engines/node_modules/fixture-pw-mcp/cli.js")
        .display()
        .to_string();
    let (code, d) = run_diagnoses(&mut probe(&["node", &cli]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    assert!(
        next(&d[0]).contains("Node.js 99.0.0 or newer"),
        "{}",
        next(&d[0])
    );
    let tried = texts(&d[0], "tried");
    assert!(
        tried
            .iter()
            .any(|t| t.contains("fixture-pw-core/package.json: engines.node >=99")),
        "{tried:?}"
    );
    assert!(
        tried.iter().any(|t| t.contains("--version: v")),
        "{tried:?}"
    );
    // Look-alike: the same package whose dependency the running node satisfies, failing for
    // another reason: no runtime-too-old.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("node_modules");
    for pkg in ["fixture-pw-mcp", "fixture-pw-core"] {
        let from = fixture(&format!("servers/engines/node_modules/{pkg}"));
        std::fs::create_dir_all(root.join(pkg)).expect("mkdir");
        for f in std::fs::read_dir(&from).expect("read_dir").flatten() {
            std::fs::copy(f.path(), root.join(pkg).join(f.file_name())).expect("copy");
        }
    }
    std::fs::write(
        root.join("fixture-pw-core/package.json"),
        r#"{"name":"fixture-pw-core","version":"1.0.0","engines":{"node":">=18"}}"#,
    )
    .expect("write");
    let cli = root.join("fixture-pw-mcp/cli.js").display().to_string();
    let (code, d) = run_diagnoses(&mut probe(&["node", &cli, "--fail"]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
}

#[test]
fn a_server_that_prints_its_usage_is_not_too_old_whatever_its_engines_say() {
    // engines.node >=99 excludes every Node, yet the server ran far enough to read its
    // arguments and print its usage: the Why is its usage, not the Node version.
    let cli = fixture("servers/engines/node_modules/fixture-usage-mcp/cli.js")
        .display()
        .to_string();
    let (code, d) = run_diagnoses(&mut probe(&["node", &cli]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-argument", "{d:#?}");
    assert!(next(&d[0]).contains("--access-token"), "{}", next(&d[0]));
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
}

#[test]
fn a_host_without_its_scheme_outranks_variables_a_warning_names() {
    let faults = fixture("servers/faults.py").display().to_string();
    let (code, d) = run_diagnoses(
        probe(&["python3", &faults, "--mode", "elasticsearch"])
            .env("ELASTICSEARCH_HOSTS", "localhost:9201"),
    );
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        next(&d[0]).contains("ELASTICSEARCH_HOSTS=localhost:9201"),
        "{}",
        next(&d[0])
    );
    assert!(next(&d[0]).contains("https://"), "{}", next(&d[0]));
    assert!(d.iter().all(|x| x["id"] != "missing-env-var"), "{d:#?}");
    // Healthy look-alike: the host with its scheme; the warning stays a note, not a cause.
    let (code, d) = run_diagnoses(
        probe(&["python3", &faults, "--mode", "elasticsearch"])
            .env("ELASTICSEARCH_HOSTS", "https://localhost:9201"),
    );
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(
        d.iter()
            .all(|x| x["id"] != "bad-argument" && x["id"] != "missing-env-var"),
        "{d:#?}"
    );
}

#[test]
fn python_dash_m_with_the_distribution_s_dashed_name_names_the_command_and_the_module() {
    // mcp-server-fetch: `python -m mcp-server-fetch`; its module `mcp_server_fetch` runs with
    // -m, its console script `mcp-server-fetch` too.
    let site = fixture("servers/consolescript");
    let (code, d) =
        run_diagnoses(probe(&["python3", "-m", "fixture-fetch-server"]).env("PYTHONPATH", &site));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "wrong-interpreter", "{d:#?}");
    let n = next(&d[0]);
    assert!(
        n.contains("the installed server's command is `fixture-fetch-server`")
            && n.ends_with(
                "or keep the interpreter and run `-m fixture_fetch_server` (its module)"
            ),
        "{n}"
    );
}

#[test]
fn python_dash_m_of_a_server_with_a_console_script_names_the_command() {
    let site = fixture("servers/consolescript");
    let (code, d) =
        run_diagnoses(probe(&["python3", "-m", "fixture_es_mcp_server"]).env("PYTHONPATH", &site));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "wrong-interpreter", "{d:#?}");
    assert!(
        next(&d[0]).contains("the installed server's command is `fixture-es-mcp-server`"),
        "{}",
        next(&d[0])
    );
    let tried = texts(&d[0], "tried");
    assert!(
        tried
            .iter()
            .any(|t| t.contains("entry_points.txt") && t.contains("src_fixture.server:main")),
        "{tried:?}"
    );
    // No module with a `__main__` close to it: no other way is offered.
    assert!(
        !next(&d[0]).contains("or keep the interpreter"),
        "{}",
        next(&d[0])
    );
    // Look-alike: no console script close to the name (`timeitt`): no command is named (which
    // close module `-m` can run is runtime.rs's close_tests, on the same interpreter).
    let (_, d) = run_diagnoses(&mut probe(&["python3", "-m", "timeitt"]));
    assert_eq!(d[0]["id"], "wrong-interpreter", "{d:#?}");
    assert!(
        !next(&d[0]).contains("installed server's command"),
        "{}",
        next(&d[0])
    );
}

#[test]
fn a_uv_directory_without_the_script_names_the_folder_that_has_it() {
    // The MCP quickstart's `uv --directory FOLDER run weather.py` (fixtures/servers/uv/uv prints
    // uv 0.13.8's lines), FOLDER misspelt, then FOLDER the project's parent.
    let uv = fixture("servers/uv/uv").display().to_string();
    let root = tempfile::tempdir().expect("tempdir");
    let weather = root.path().join("weather");
    std::fs::create_dir_all(&weather).expect("mkdir");
    std::fs::copy(fixture("servers/faults.py"), weather.join("weather.py")).expect("copy");
    std::fs::write(
        weather.join("pyproject.toml"),
        "[project]\nname = \"weather\"\n",
    )
    .expect("write");
    let typo = root.path().join("wether").display().to_string();
    let shown = weather.display().to_string();
    for dir in [typo.as_str(), &root.path().display().to_string()] {
        let (code, d) = run_diagnoses(&mut probe(&[&uv, "--directory", dir, "run", "weather.py"]));
        assert_eq!(code, Some(1), "{d:#?}");
        assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
        assert!(
            next(&d[0]).contains(&format!("point --directory at {shown}")),
            "{}",
            next(&d[0])
        );
        assert!(
            texts(&d[0], "tried")
                .iter()
                .any(|t| t.starts_with("look at ")),
            "{d:#?}"
        );
    }
    // Healthy look-alike: the folder that holds it; the server stays up, no cause.
    let (code, d) = run_diagnoses(&mut probe(&[
        &uv,
        "--directory",
        &shown,
        "run",
        "weather.py",
    ]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_coloured_error_line_is_quoted_and_matched_without_its_colour_codes() {
    // @zereight/mcp-gitlab logs through pino, coloured even into a pipe: the Why quoted
    // `\x1b[31mERROR\x1b[39m` and matched around it. The words, without the codes.
    let line = r#"printf '\033[31mERROR\033[39m (4711): \033[36mGITLAB_PERSONAL_ACCESS_TOKEN environment variable is required\033[39m\n' >&2; exit 1"#;
    let (code, d) = run_diagnoses(&mut probe(&["sh", "-c", line]));
    assert_eq!(code, Some(1), "{d:#?}");
    let all = serde_json::to_string(&d).expect("json");
    assert!(!all.contains("[31m") && !all.contains("[39m"), "{all}");
    assert_eq!(d[0]["id"], "missing-env-var", "{d:#?}");
    assert!(
        next(&d[0]).contains("GITLAB_PERSONAL_ACCESS_TOKEN"),
        "{}",
        next(&d[0])
    );
    // Other escapes are no colour: they stay, shown escaped (never raw).
    let (_, d) = run_diagnoses(&mut probe(&[
        "sh",
        "-c",
        r"printf 'a\033[2Kb\n' >&2; exit 1",
    ]));
    let all = serde_json::to_string(&d).expect("json");
    assert!(all.contains(r"\u001b[2K"), "{all}");
}

#[test]
fn the_error_above_a_long_usage_is_kept_and_a_schemeless_host_gets_its_scheme() {
    // @sentry/mcp-server 0.x with `--url=sentry.example.com`: one line saying what is wrong,
    // then a usage of some 60 lines, exit 1; the line scrolled out of the 20-line tail.
    let script = r#"echo 'SENTRY_URL must be a full HTTPS URL (e.g., https://sentry.example.com).' >&2
echo 'Usage: srv [--access-token=<token>] [--url=<url>]' >&2
i=0; while [ $i -lt 40 ]; do echo "  --option-$i  what it does" >&2; i=$((i+1)); done
exit 1"#;
    let (code, d) = run_diagnoses(&mut probe(&[
        "sh",
        "-c",
        script,
        "srv",
        "--url=sentry.example.com",
    ]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    assert!(
        next(&d[0]).contains("`--url=sentry.example.com`")
            && next(&d[0]).contains("`https://sentry.example.com`"),
        "{}",
        next(&d[0])
    );
    // Look-alike: the same usage, and the line above it says nothing of a URL; the value is
    // given with its scheme.
    let (_, d) = run_diagnoses(&mut probe(&[
        "sh",
        "-c",
        script,
        "srv",
        "--url=https://sentry.example.com",
    ]));
    assert!(!next(&d[0]).contains("with its scheme"), "{d:#?}");
}

#[test]
fn a_flag_taken_for_a_command_names_the_command_its_help_lists() {
    // @launchdarkly/mcp-server 0.4 (stricli) without its `start` command: one line, exit 251;
    // its `--help` lists the commands.
    let script = r#"if [ "$1" = --help ]; then printf 'USAGE\n  mcp start [--api-key value]\n\nCOMMANDS\n  start  Run the server\n'; exit 0; fi
case "$1" in start) echo 'Error: the server rejected the token' >&2; exit 1 ;; esac
echo "No command registered for \`$1\`" >&2; exit 251"#;
    let (code, d) = run_diagnoses(&mut probe(&[
        "sh",
        "-c",
        script,
        "mcp",
        "--api-key",
        "api-s3cret-key",
    ]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-argument", "{d:#?}");
    assert!(
        next(&d[0]).contains("`start`") && next(&d[0]).contains("before `--api-key`"),
        "{}",
        next(&d[0])
    );
    assert!(
        texts(&d[0], "tried").iter().any(|t| t.contains("--help")),
        "{d:#?}"
    );
    assert!(!serde_json::to_string(&d)
        .expect("json")
        .contains("api-s3cret-key"));
    // Look-alike: with its command, another error: no command is asked for.
    let (code, d) = run_diagnoses(&mut probe(&[
        "sh",
        "-c",
        script,
        "mcp",
        "start",
        "--api-key",
        "api-s3cret-key",
    ]));
    assert_ne!(code, Some(2), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "missing-argument"), "{d:#?}");
}

/// The fake `node` of `fixtures/servers/engines/node` (it reports `version`, and runs the real
/// one) with a fixture package's script.
fn old_node(version: &str, script: &str, args: &[&str]) -> Command {
    let node = fixture("servers/engines/node").display().to_string();
    let script = fixture(&format!("servers/engines/node_modules/{script}"))
        .display()
        .to_string();
    let mut command: Vec<&str> = vec![&node, &script];
    command.extend_from_slice(args);
    let mut cmd = probe(&command);
    cmd.env("FIXTURE_NODE_VERSION", version);
    cmd
}

#[test]
fn an_es_module_required_on_a_node_that_cannot_is_the_node_not_a_missing_module() {
    // @pandacss/mcp on Node 18: ERR_REQUIRE_ESM on @clack/prompts (engines.node >= 20.12.0).
    let (code, d) = run_diagnoses(&mut old_node("v18.20.8", "fixture-esm-mcp/cli.js", &[]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    assert!(
        next(&d[0]).contains("Node.js 20.19.0 or newer"),
        "{}",
        next(&d[0])
    );
    let summary = d[0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains("v18.20.8")
            && summary.contains("`fixture-esm-dep` needs Node.js >= 20.12.0"),
        "{summary}"
    );
    let tried = texts(&d[0], "tried");
    assert!(
        tried
            .iter()
            .any(|t| t.contains("fixture-esm-dep/package.json: engines.node >= 20.12.0")),
        "{tried:?}"
    );
    assert!(
        tried.iter().any(|t| t.contains("--version: v18.20.8")),
        "{tried:?}"
    );
    assert!(d.iter().all(|x| x["id"] != "missing-dependency"), "{d:#?}");
    // Healthy look-alike: a Node that can require() an ES module runs it.
    let (code, d) = run_diagnoses(&mut old_node("v22.12.0", "fixture-esm-mcp/cli.js", &[]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_bundled_dependency_failing_as_it_loads_on_an_old_node_is_likely_the_node() {
    // dynatrace-mcp-server 2.1.2 on Node 20: its bundled undici's TypeError, no engines field.
    let (code, d) = run_diagnoses(&mut old_node(
        "v20.20.2",
        "fixture-bundle-mcp/index.js",
        &[],
    ));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    assert_eq!(d[0]["confidence"], "medium", "{d:#?}");
    let summary = d[0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with("likely")
            && summary.contains("`undici`")
            && summary.contains("v20.20.2"),
        "{summary}"
    );
    assert!(
        next(&d[0]).contains("newer Node.js (v22 or later"),
        "{}",
        next(&d[0])
    );
    let tried = texts(&d[0], "tried");
    assert!(
        tried.iter().any(|t| t.contains("--version: v20.20.2")),
        "{tried:?}"
    );
    // Look-alikes: the same kind of error in the server's own section, and the dependency's on
    // a Node at or above the current LTS (here it serves: healthy).
    let (code, d) = run_diagnoses(&mut old_node(
        "v20.20.2",
        "fixture-bundle-mcp/index.js",
        &["--own"],
    ));
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
    let (code, d) = run_diagnoses(&mut old_node("v99.0.0", "fixture-bundle-mcp/index.js", &[]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn a_dependency_whose_requires_python_excludes_the_python_its_frames_ran_is_the_python() {
    // A `match` statement's SyntaxError on Python 3.9 in fixture-matchlib (Requires-Python:
    // >=3.10 in its METADATA), imported by the server at start.
    let server = fixture("servers/pyold/server.py").display().to_string();
    let (code, d) = run_diagnoses(&mut probe(&["python3", &server]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    let summary = d[0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains("fixture_matchlib 2.0.0") && summary.contains("Python 3.9"),
        "{summary}"
    );
    assert!(
        next(&d[0]).contains("Python 3.10 or newer"),
        "{}",
        next(&d[0])
    );
    let tried = texts(&d[0], "tried");
    assert!(
        tried
            .iter()
            .any(|t| t.contains("METADATA: Requires-Python: >=3.10")),
        "{tried:?}"
    );
    // Look-alikes: the same traceback where every Requires-Python admits 3.9 (a copy whose
    // dependency states >=3.8): no runtime-too-old; and a Python that has `match`: healthy.
    let dir = tempfile::tempdir().expect("tempdir");
    let from = fixture("servers/pyold");
    copy_tree(&from, dir.path());
    std::fs::write(
        dir.path()
            .join("lib/python3.9/site-packages/fixture_matchlib-2.0.0.dist-info/METADATA"),
        "Metadata-Version: 2.1\nName: fixture-matchlib\nVersion: 2.0.0\nRequires-Python: >=3.8\n\n",
    )
    .expect("write");
    let copy = dir.path().join("server.py").display().to_string();
    let (code, d) = run_diagnoses(&mut probe(&["python3", &copy]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
    let (code, d) =
        run_diagnoses(probe(&["python3", &server]).env("FIXTURE_PYTHON_VERSION", "3.11"));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

#[test]
fn an_error_naming_the_running_node_and_what_it_lacks_asks_for_a_newer_node() {
    // @supabase/realtime-js on Node 20: `Node.js 20 detected without native WebSocket
    // support.`, its suggestion naming Node.js 22: a newer Node, not a frame to fix.
    let faults = fixture("servers/faults.mjs").display().to_string();
    let major: u32 = Command::new("node")
        .arg("-p")
        .arg("process.versions.node.split('.')[0]")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0);
    let (code, d) = run_diagnoses(&mut probe(&["node", &faults, "--mode", "websocket"]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "runtime-too-old", "{d:#?}");
    assert!(
        next(&d[0]).starts_with(&format!("run it with Node.js {} or newer", major + 2)),
        "{}",
        next(&d[0])
    );
    // Look-alike: an uncaught Error naming the running Node that lacks nothing: a crash.
    let (code, d) = run_diagnoses(&mut probe(&["node", &faults, "--mode", "websocket-other"]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(d.iter().all(|x| x["id"] != "runtime-too-old"), "{d:#?}");
}

/// `python3 manage.py stdio_server` in the Django-like project of fixtures/servers/managepy.
fn manage(settings: Option<&str>) -> (Option<i32>, Vec<Value>) {
    let dir = fixture("servers/managepy");
    let mut cmd = probe(&["python3", "manage.py", "stdio_server"]);
    cmd.current_dir(&dir).env_remove("DJANGO_SETTINGS_MODULE");
    if let Some(m) = settings {
        cmd.env("DJANGO_SETTINGS_MODULE", m);
    }
    run_diagnoses(&mut cmd)
}

#[test]
fn a_settings_module_the_entry_names_that_does_not_exist_is_that_variable() {
    // django-mcp-server with DJANGO_SETTINGS_MODULE=t41site.settings_prod: Django's KeyError
    // for the command, then, during its handling, the ModuleNotFoundError that ended it.
    let (code, d) = manage(Some("site1.settings_prod"));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let n = next(&d[0]);
    assert!(
        n.starts_with("point `DJANGO_SETTINGS_MODULE` at a module that exists")
            && n.contains("`site1.settings`?")
            && !n.contains("stdio_server"),
        "{n}"
    );
    assert!(
        texts(&d[0], "tried")
            .iter()
            .any(|t| t.contains("it holds settings, settings_noapp")),
        "{d:#?}"
    );
    // Look-alike: the settings module that exists: it serves.
    let (code, d) = manage(Some("site1.settings"));
    assert_eq!((code, d.len()), (Some(0), 0), "{d:#?}");
}

#[test]
fn an_unknown_command_that_an_app_provides_asks_for_the_app_in_installed_apps() {
    // django-mcp-server left out of INSTALLED_APPS: `Unknown command: 'stdio_server'. Did you
    // mean testserver?`; the app holding management/commands/stdio_server.py is named.
    let (code, d) = manage(Some("site1.settings_noapp"));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "bad-argument", "{d:#?}");
    let n = next(&d[0]);
    assert!(
        n.starts_with(
            "add `'mcpapp'` to INSTALLED_APPS in the settings module `site1.settings_noapp`"
        ),
        "{n}"
    );
    // Look-alike: a command no app provides: not an app to install.
    let dir = fixture("servers/managepy");
    let mut cmd = probe(&["python3", "manage.py", "stdio_servr"]);
    cmd.current_dir(&dir).env_remove("DJANGO_SETTINGS_MODULE");
    let (code, d) = run_diagnoses(&mut cmd);
    assert_eq!(code, Some(1), "{d:#?}");
    assert!(
        d.iter().all(|x| !next(x).contains("INSTALLED_APPS")),
        "{d:#?}"
    );
}
