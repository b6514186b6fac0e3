use super::*;

#[test]
fn close_names_share_their_words_or_abbreviate_them() {
    let yes = [
        ("SHORTCUT_TOKEN", "SHORTCUT_API_TOKEN"),
        ("GITHUB_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN"),
        ("DD_API_KEY", "DATADOG_API_KEY"),
        ("DB_URL", "DATABASE_URL"),
        ("SHORTCUT_API_TOKN", "SHORTCUT_API_TOKEN"),
        ("SHORTCUT_API_TOKEN", "SHORTCUT_API_TKN"),
        (
            "GITHUB_PERSONNAL_ACCESS_TOKEN",
            "GITHUB_PERSONAL_ACCESS_TOKEN",
        ),
        ("OPENAPI_SPEC", "OPENAPI_SPEC_PATH"),
        ("KUBE_CONFIG_FILE", "KUBE_CONFIG"),
    ];
    for (a, b) in yes {
        assert!(close(a, b).is_some(), "{a} ~ {b}");
    }
    let no = [
        ("SHORTCUT_API_TOKEN", "SHORTCUT_API_TOKEN"),
        ("DD_API_KEY", "DATADOG_APP_KEY"),
        ("API_KEY", "APP_KEY"),
        ("MYSQL_HOST", "MYSQL_PORT"),
        ("SLACK_BOT_TOKEN", "SLACK_USER_TOKEN"),
        ("SLACK_TEAM_ID", "SLACK_BOT_TOKEN"),
        ("API_KEY", "OPENAI_API_KEY"),
        ("TOKEN", "SHORTCUT_TOKEN"),
        ("NODE_ENV", "NODE_OPTIONS"),
        // A word added that is no form of the value: another setting.
        ("GITHUB_TOKEN", "GITHUB_TOKEN_SCOPES"),
        ("DB_HOST", "DB_HOST_PORT"),
        // One word alone with a form word: too little to call it the same name.
        ("SPEC", "SPEC_PATH"),
    ];
    for (a, b) in no {
        assert!(close(a, b).is_none(), "{a} !~ {b}");
    }
    // The closer of two: more words in common.
    assert!(
        close("SHORTCUT_TOKEN", "SHORTCUT_API_TOKEN") > close("SHORTCUT_TOKEN", "SHORTCUT_API_TKN")
    );
}

/// A Node package `srv` with a bin linked from `node_modules/.bin/srv`, reading `reads`.
fn package(reads: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("node_modules/srv");
    std::fs::create_dir_all(pkg.join("dist")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("node_modules/.bin")).expect("mkdir");
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name":"srv","bin":"dist/index.js"}"#,
    )
    .expect("write");
    let body: String = reads
        .iter()
        .map(|r| format!("const x_{r} = process.env.{r};\n"))
        .collect();
    std::fs::write(
        pkg.join("dist/index.js"),
        format!("#!/usr/bin/env node\n{body}"),
    )
    .expect("write");
    let bin = dir.path().join("node_modules/.bin/srv");
    std::os::unix::fs::symlink("../srv/dist/index.js", &bin).expect("link");
    let shown = bin.display().to_string();
    (dir, shown)
}

fn setting(command: &str, env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some(command.to_string()),
        env_values: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
        entry: true,
        ..Setting::default()
    }
}

#[test]
fn a_bin_link_leads_to_its_package() {
    let (dir, bin) = package(&["SRV_API_TOKEN"]);
    let s = setting(&bin, &[]);
    let root = std::fs::canonicalize(dir.path().join("node_modules/srv")).expect("real");
    assert_eq!(
        locate(&s),
        Some(Code::Folder {
            root,
            depth: PACKAGE_DEPTH
        })
    );
    // `node path/to/file.js`: the same package.
    let mut s = setting("node", &[]);
    s.args = vec![dir
        .path()
        .join("node_modules/srv/dist/index.js")
        .display()
        .to_string()];
    assert!(matches!(locate(&s), Some(Code::Folder { .. })));
}

#[test]
fn a_set_name_never_read_beside_a_close_read_one_is_renamed() {
    let (_dir, bin) = package(&["SRV_API_TOKEN", "SRV_API_TKN", "LOG_LEVEL"]);
    let s = setting(&bin, &[("SRV_TOKEN", "x")]);
    let f = renamed(&["A srv api token is required."], &s).expect("a finding");
    assert_eq!(f.id, Id::MissingEnvVar);
    assert_eq!(
        f.next,
        "rename `SRV_TOKEN` to `SRV_API_TOKEN` in the entry's `env`: the server reads that \
         name (dist/index.js:2), never `SRV_TOKEN`"
    );
    let tried = &f.evidence[1];
    assert_eq!(tried.0, Source::Tried);
    assert!(
        tried.1.starts_with("read the server's source (1 file in ")
            && tried
                .1
                .contains("it reads SRV_API_TOKEN (dist/index.js:2), SRV_API_TKN, LOG_LEVEL"),
        "{}",
        tried.1
    );
    // Two names under the agent's names: each renamed to its own.
    let (_dir, bin) = package(&["DATADOG_API_KEY", "DATADOG_APP_KEY"]);
    let s = setting(&bin, &[("DD_API_KEY", "x"), ("DD_APP_KEY", "y")]);
    let err = ["Error: DATADOG_API_KEY and DATADOG_APP_KEY must be set"];
    let f = renamed(&err, &s).expect("a finding");
    assert_eq!(
        f.next,
        "rename `DD_API_KEY` to `DATADOG_API_KEY` and `DD_APP_KEY` to `DATADOG_APP_KEY` in the \
         entry's `env`: the server reads those names (dist/index.js:2, dist/index.js:3), never \
         `DD_API_KEY` or `DD_APP_KEY`"
    );
    // Beside the name renamed to, another unset one: both in one step.
    let (_dir, bin) = package(&["SRV_BOT_TOKEN", "SRV_TEAM_ID"]);
    let s = setting(&bin, &[("SRV_TOKEN", "x")]);
    let f = renamed(&["Please set SRV_BOT_TOKEN and SRV_TEAM_ID"], &s).expect("a finding");
    assert!(
        f.next
            .starts_with("rename `SRV_TOKEN` to `SRV_BOT_TOKEN` and set `SRV_TEAM_ID` in the"),
        "{}",
        f.next
    );
}

#[test]
fn no_rename_when_the_close_name_is_read_or_set_or_the_words_name_another() {
    // The close name is the one the server reads: nothing to rename.
    let (_dir, bin) = package(&["SRV_TOKEN", "SRV_API_TOKEN"]);
    let s = setting(&bin, &[("SRV_TOKEN", "x")]);
    assert!(renamed(&["A srv api token is required."], &s).is_none());
    // The close name is set too.
    let (_dir, bin) = package(&["SRV_API_TOKEN"]);
    let s = setting(&bin, &[("SRV_TOKEN", "x"), ("SRV_API_TOKEN", "y")]);
    assert!(renamed(&["boom"], &s).is_none());
    // The last words ask for another variable the entry lacks: that one is the matter.
    let (_dir, bin) = package(&["SRV_API_TOKEN", "DATABASE_URL"]);
    let s = setting(&bin, &[("SRV_TOKEN", "x")]);
    assert!(renamed(&["Error: DATABASE_URL must be set"], &s).is_none());
    // A native program: nothing is read.
    let s = setting("/bin/true", &[("SRV_TOKEN", "x")]);
    assert!(renamed(&["boom"], &s).is_none());
}

#[test]
fn last_words_that_are_one_unset_read_name_in_words_name_it() {
    let (_dir, bin) = package(&["SRV_API_TOKEN", "SRV_BASE_URL", "BRAVE_API_KEY"]);
    let s = setting(&bin, &[]);
    let f = worded(&["A srv api token is required."], &s).expect("a finding");
    assert_eq!(f.id, Id::MissingEnvVar);
    assert!(
        f.next.starts_with(
            "set `SRV_API_TOKEN` in the entry's `env`: the server reads that variable \
             (dist/index.js:2)"
        ),
        "{}",
        f.next
    );
    // The words without the vendor's prefix, run together.
    let f = worded(&["Missing srvBaseUrl"], &s).expect("a finding");
    assert!(f.next.contains("`SRV_BASE_URL`"), "{}", f.next);
    let f = worded(&["Error: baseUrl is required"], &s).expect("a finding");
    assert!(f.next.contains("`SRV_BASE_URL`"), "{}", f.next);
    // Two names fit (`api key` and `api token` share nothing; `api` alone is one word): none.
    let (_dir, bin) = package(&["ONE_API_KEY", "TWO_API_KEY"]);
    let s = setting(&bin, &[]);
    assert!(worded(&["Missing API key"], &s).is_none());
    // The name is set: its value is the matter, not its absence.
    let (_dir, bin) = package(&["SRV_API_TOKEN"]);
    let s = setting(&bin, &[("SRV_API_TOKEN", "x")]);
    assert!(worded(&["A srv api token is invalid."], &s).is_none());
    // Last words naming a variable are another row's.
    assert!(worded(&["SRV_API_TOKEN is required"], &setting(&bin, &[])).is_none());
    // Words that fit no name.
    assert!(worded(&["Something went wrong"], &setting(&bin, &[])).is_none());
}

#[test]
fn a_console_script_leads_to_its_module_in_the_venv() {
    let dir = tempfile::tempdir().expect("tempdir");
    let venv = dir.path().join("venv");
    let site = venv.join("lib/python3.11/site-packages/srv_mcp");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::create_dir_all(venv.join("bin")).expect("mkdir");
    std::fs::write(
        site.join("__init__.py"),
        "import os\nos.getenv('SRV_TOKEN')\n",
    )
    .expect("write");
    let python = venv.join("bin/python3");
    std::os::unix::fs::symlink("/bin/true", &python).expect("link");
    let script = venv.join("bin/srv-mcp");
    std::fs::write(
        &script,
        format!(
            "#!{}\nimport sys\nfrom srv_mcp import main\nsys.exit(main())\n",
            python.display()
        ),
    )
    .expect("write");
    let s = setting(&script.display().to_string(), &[]);
    assert_eq!(
        locate(&s),
        Some(Code::Folder {
            root: site.clone(),
            depth: PACKAGE_DEPTH
        })
    );
    // `python -m srv_mcp` with the venv's interpreter.
    let mut s = setting(&python.display().to_string(), &[]);
    s.args = vec!["-m".into(), "srv_mcp".into()];
    assert_eq!(
        locate(&s),
        Some(Code::Folder {
            root: site,
            depth: PACKAGE_DEPTH
        })
    );
}
