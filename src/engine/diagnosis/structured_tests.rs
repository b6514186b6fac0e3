use std::os::unix::fs::PermissionsExt;

use super::*;

fn setting(command: &str, args: &[&str], env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some(command.to_string()),
        args: args.iter().map(|a| a.to_string()).collect(),
        env_values: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
        entry: true,
        ..Setting::default()
    }
}

fn run(key: Key, stderr: &str, s: &Setting) -> Option<Found> {
    let lines: Vec<&str> = stderr.lines().collect();
    let facts = evidence::parse(&lines);
    row(key, &facts, &lines, s)
}

/// A port nothing listens on (bound, then closed: a real socket).
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    port
}

/// A fake `node` printing `version` (a real child process).
fn fake_node(version: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("node");
    std::fs::write(&p, format!("#!/bin/sh\necho {version}\n")).expect("write");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let shown = p.display().to_string();
    (dir, shown)
}

#[test]
fn every_key_is_a_structure_or_an_experiment() {
    // The list of every row's key; each has a fixture and a look-alike below.
    let names: Vec<String> = KEYS
        .iter()
        .chain(LAUNCH_KEYS)
        .map(|k| format!("{k:?}"))
        .collect();
    assert_eq!(
        names,
        [
            "UvFolderLacksProject",
            "ResolverRefusesThePython",
            "RefusedAndTested",
            "UrlParseWithSchemelessValue",
            "SchemeRefusedIsAnEntryValue",
            "QueryValueRefused",
            "ErrorBlockDetectsAnEntryValue",
            "ValidationBlock",
            "SettingsLibraryRefusesAField",
            "SchemaPathBoundToAVariable",
            "SetModuleNotFound",
            "CommandOfAnAppNotInstalled",
            "RelativePathWantedAbsolute",
            "ExceptionTypeMeansAVariable",
            "LibraryImportNotImportable",
            "InstalledPackageLacksSubmodule",
            "SubpathNotExported",
            "EsmRequiredOnOldNode",
            "LaunchedCommandNotFound",
            "EntryPathUnopenableOnDisk",
            "MissingFileIsAnEntryValue",
            "MissingFileReadFromAnUnsetVariable",
            "MissingFileAtItsDefaultPath",
            "ConfigFileDoesNotParse",
            "FolderGivenForAFile",
            "UndefinedArgumentReadFromAnUnsetVariable",
            "LastWordsNotFoundAndEntryPathAbsent",
            "NotAGitRepositoryAndEntryFolderHasNone",
            "ErrorNamesTwoSetVariables",
            "NodeOlderThanNamed",
            "ChoiceStructure",
            "GivenValueInAnotherCase",
            "CommandsTheArgsLack",
            "UnknownFlagGiven",
            "NpmBlock",
            "SetNameNeverReadBesideACloseOne",
            "ErrorNamesOneSetVariable",
            "ErrorQuotesASetValue",
            "FailingLineReadsASetVariable",
            "ErrorNamesAFlagTheArgsLack",
            "ErrorNamesAGivenFlag",
            "RequiredArgumentNamed",
            "UsageErrorNamesAFlagOrVariable",
            "UsageWithErrorLine",
            "NamesUnsetVariables",
            "LastWordsAreAnUnsetReadName",
            "ErrorMeansAnUnsetReadVariable",
            "LastWordsShowAFlagTheArgsLack",
            "MissingFileRelativeToWorkingFolder",
            "RequiresPythonAboveRunning",
            "EnginesAboveRunningNode",
            "DependencyFrameOnOldNode",
            "ListensOnTcpSilently",
            "AnswersOnlyOnceStdinCloses",
            "AnswersInTheOtherEnvironment",
            "AnswerErrorAndEntryAddressRefused",
            "HelpPrintedAndExited",
        ]
    );
    // The rows of the whole run (a `--call` on a server that stayed up), each tested in
    // tests/cli (diagnosis_modes.rs) with a look-alike where the address answers.
    let run: Vec<String> = RUN_KEYS.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(
        run,
        [
            "UrlParseWithSchemelessValue",
            "CallFailedAndAddressRefused",
            "CallAnswerHoldsRefusedAddress",
            "CallErrorNamesAnEntryValue",
            "CallRefusesAWordAnEntryListLacks",
            "CallErrorMeansAnUnsetReadVariable",
            "CallErrorNamesAVariable",
            "CallErrorLaunchesAMissingCommand",
            "NoToolsAndAWarningNamesAnUnsetVariable",
            "AnswerErrorAndEntryAddressRefused",
        ]
    );
}

#[test]
fn refused_is_tested_by_connecting() {
    let port = closed_port();
    let s = setting(
        "node",
        &["srv.js"],
        &[(
            "DATABASE_URL",
            &format!("postgres://u@127.0.0.1:{port}/app"),
        )],
    );
    let err = format!("Error: connect ECONNREFUSED 127.0.0.1:{port}\n    at TCPConnectWrap.afterConnect (node:net:1555:16) {{\n  code: 'ECONNREFUSED',\n  syscall: 'connect',\n  address: '127.0.0.1',\n  port: {port}\n}}");
    let f = run(Key::RefusedAndTested, &err, &s).expect("a finding");
    assert_eq!(f.id, Id::ServiceNotRunning);
    assert!(f.next.contains("`DATABASE_URL="), "{}", f.next);
    assert!(
        f.evidence
            .iter()
            .any(|(src, t)| *src == Source::Tried && t.contains("refused")),
        "{:?}",
        f.evidence
    );
    // Python, no address in the message: the entry's URL is the one tried.
    let py = "Traceback (most recent call last):\n  File \"/app/main.py\", line 1, in <module>\nConnectionRefusedError: [Errno 111] Connection refused";
    let s2 = setting(
        "python3",
        &["main.py"],
        &[("REDIS_URL", &format!("redis://localhost:{port}"))],
    );
    let f = run(Key::RefusedAndTested, py, &s2).expect("a finding");
    assert!(
        f.summary.contains(&format!("localhost:{port}")),
        "{}",
        f.summary
    );
    // Look-alike: the same error, but the address answers when the doctor connects.
    let open = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port();
    let err = format!("Error: connect ECONNREFUSED 127.0.0.1:{up}\n    at x (node:net:1:1) {{\n  code: 'ECONNREFUSED'\n}}");
    let s = setting("node", &["srv.js"], &[]);
    assert!(run(Key::RefusedAndTested, &err, &s).is_none());
    drop(open);
}

#[test]
fn a_url_parse_failure_is_tied_to_the_schemeless_value() {
    let s = setting("node", &["srv.js"], &[("DB_URI", "localhost:5000")]);
    let err = "TypeError: Invalid URL\n    at new URL (node:internal/url:797:36) {\n  code: 'ERR_INVALID_URL',\n  input: 'localhost:5000'\n}";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(
        f.summary.starts_with("`DB_URI=localhost:5000`"),
        "{}",
        f.summary
    );
    assert!(
        f.summary.contains("scheme://localhost:5000"),
        "{}",
        f.summary
    );
    // The message does not quote the value: the entry's host:port is still the fix.
    let err = "Error: DSN must start with a scheme such as postgres:// or mysql://";
    let s2 = setting("npx", &["-y", "dbhub", "--dsn", "localhost:5432/app"], &[]);
    let f = run(Key::UrlParseWithSchemelessValue, err, &s2).expect("a finding");
    assert!(
        f.summary.contains("`--dsn localhost:5432/app`"),
        "{}",
        f.summary
    );
    assert!(f.summary.contains("postgres://"), "{}", f.summary);
    // The value taken for a command: the same fix.
    let s3 = setting("mcp-proxy", &["localhost:8931/sse"], &[]);
    let err = "Traceback (most recent call last):\n  File \"/x/subprocess.py\", line 1, in run\nFileNotFoundError: [Errno 2] No such file or directory: 'localhost:8931/sse'";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s3).expect("a finding");
    assert!(f.next.contains("scheme://localhost:8931/sse"), "{}", f.next);
    // An ES module's stack frame (`at file:///…`) is where the code is, not a scheme it takes.
    let s4 = setting("node", &["srv.js", "localhost:6379"], &[]);
    let err = "TypeError: Invalid protocol\n    at RedisClient.parseURL (/x/index.js:60:19)\n    at file:///x/dist/index.js:13:21";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s4).expect("a finding");
    assert!(f.next.contains("scheme://localhost:6379"), "{}", f.next);
    assert!(!f.next.contains("file://"), "{}", f.next);
    // Look-alike: the same failure with a value that has its scheme.
    let ok = setting("node", &["srv.js"], &[("DB_URI", "http://localhost:5000")]);
    assert!(run(
        Key::UrlParseWithSchemelessValue,
        "TypeError: Invalid URL\n    at new URL (x:1:1)",
        &ok
    )
    .is_none());
}

#[test]
fn a_validation_block_names_the_variable() {
    let block = "pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\nport\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]";
    let s = setting("uvx", &["srv"], &[("APP_PORT", "abc")]);
    let f = run(Key::ValidationBlock, block, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.next.contains("`APP_PORT`"), "{}", f.next);
    let missing = "1 validation error for Settings\napi_key\n  Field required [type=missing, input_value={}, input_type=dict]";
    let s = setting("uvx", &["srv"], &[("SRV_MODE", "x")]);
    let f = run(Key::ValidationBlock, missing, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingEnvVar);
    assert!(
        f.next.contains("`API_KEY`") && f.next.contains("`SRV_API_KEY`"),
        "{}",
        f.next
    );
    // Look-alike: the words without the block.
    assert!(run(
        Key::ValidationBlock,
        "INFO: 1 validation error for x was fixed",
        &s
    )
    .is_none());
}

#[test]
fn an_error_naming_two_set_variables_is_a_conflict() {
    let s = setting(
        "uvx",
        &["mcp-server-qdrant"],
        &[
            ("QDRANT_URL", "http://x:6333"),
            ("QDRANT_LOCAL_PATH", "/tmp/q"),
        ],
    );
    let err = "Traceback (most recent call last):\n  File \"/x/site-packages/q/settings.py\", line 9, in check\nValueError: If 'local_path' is set, 'url' must not be set";
    let f = run(Key::ErrorNamesTwoSetVariables, err, &s).expect("a finding");
    assert_eq!(f.id, Id::ConflictingSettings);
    assert!(f.summary.contains("QDRANT_LOCAL_PATH") && f.summary.contains("QDRANT_URL"));
    // Look-alike: an error naming two variables the entry does not set.
    let s = setting("uvx", &["x"], &[("OTHER", "1")]);
    assert!(run(Key::ErrorNamesTwoSetVariables, err, &s).is_none());
}

#[test]
fn a_settings_model_s_own_validator_is_tied_by_its_fields_and_the_keys_it_was_given() {
    // mcp-server-qdrant 0.8 (pydantic-settings 2): no field line; 'local_path' is a field,
    // QDRANT_URL only a key of the input (its field is `location`).
    let err = "pydantic_core._pydantic_core.ValidationError: 1 validation error for QdrantSettings\n  Value error, If 'local_path' is set, 'location' and 'api_key' must be None. [type=value_error, input_value={'QDRANT_URL': 'http://12..._LOCAL_PATH': '/tmp/qd'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.11/v/value_error";
    let both = setting(
        "uvx",
        &["mcp-server-qdrant"],
        &[
            ("QDRANT_URL", "http://127.0.0.1:6333"),
            ("QDRANT_LOCAL_PATH", "/tmp/qd"),
            ("COLLECTION_NAME", "notes"),
        ],
    );
    let f = run(Key::ErrorNamesTwoSetVariables, err, &both).expect("a finding");
    assert_eq!(f.id, Id::ConflictingSettings);
    assert!(
        f.next.contains("`QDRANT_LOCAL_PATH`") && f.next.contains("`QDRANT_URL`"),
        "{}",
        f.next
    );
    assert!(run(Key::ValidationBlock, err, &both).is_none());
    // One of them set: that one is the value to change.
    let one = setting(
        "uvx",
        &["mcp-server-qdrant"],
        &[("QDRANT_LOCAL_PATH", "/tmp/qd")],
    );
    let f = run(Key::ValidationBlock, err, &one).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(
        f.next.starts_with("change `QDRANT_LOCAL_PATH`"),
        "{}",
        f.next
    );
    // Look-alike: the same error where the entry sets none of them.
    let none = setting(
        "uvx",
        &["mcp-server-qdrant"],
        &[("COLLECTION_NAME", "notes")],
    );
    assert!(run(Key::ErrorNamesTwoSetVariables, err, &none).is_none());
    assert!(run(Key::ValidationBlock, err, &none).is_none());
}

#[test]
fn an_exception_naming_one_set_variable_is_its_value() {
    let s = setting(
        "uvx",
        &["aws-docs"],
        &[("AWS_DOCUMENTATION_PARTITION", "mars")],
    );
    let err = "Traceback (most recent call last):\n  File \"/x/site-packages/a/server.py\", line 9, in main\nValueError: Unsupported AWS_DOCUMENTATION_PARTITION: mars";
    let f = run(Key::ErrorNamesOneSetVariable, err, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(
        f.summary.contains("`AWS_DOCUMENTATION_PARTITION=mars`"),
        "{}",
        f.summary
    );
    // awslabs.aws-documentation-mcp-server 1.x names it in words, not as written.
    let words = "Traceback (most recent call last):\n  File \"/x/site-packages/a/server.py\", line 35, in main\nValueError: Unsupported AWS documentation partition: eu.";
    let f = run(Key::ErrorNamesOneSetVariable, words, &s).expect("a finding");
    assert!(
        f.next.contains("`AWS_DOCUMENTATION_PARTITION`"),
        "{}",
        f.next
    );
    // Look-alikes: a message with only some of its words (`documentation`), a KeyError (a
    // missing variable, the table's row) and an info line.
    let some = "Traceback (most recent call last):\nValueError: the documentation server is down";
    assert!(run(Key::ErrorNamesOneSetVariable, some, &s).is_none());
    let k = "Traceback (most recent call last):\nKeyError: 'AWS_DOCUMENTATION_PARTITION'";
    assert!(run(Key::ErrorNamesOneSetVariable, k, &s).is_none());
    assert!(run(
        Key::ErrorNamesOneSetVariable,
        "using AWS_DOCUMENTATION_PARTITION=mars",
        &s
    )
    .is_none());
}

#[test]
fn a_choice_structure_names_the_argument() {
    let s = setting("uvx", &["ddg", "--transport", "htp"], &[]);
    let err = "usage: ddg [-h] [--transport {stdio,sse}]\nddg: error: argument --transport: invalid choice: 'htp' (choose from 'stdio', 'sse')";
    let f = run(Key::ChoiceStructure, err, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.summary.contains("`--transport htp`"), "{}", f.summary);
    // Look-alike: a help text listing choices without a given value.
    assert!(run(
        Key::ChoiceStructure,
        "  --transport  one of: stdio, sse (choose from these)",
        &s
    )
    .is_none());
}

#[test]
fn a_usage_with_its_error_line_quotes_the_error() {
    let s = setting("npx", &["-y", "supergateway"], &[]);
    let err = "[sg] Usage: sg [options]\n  --stdio    a stdio server\n[sg] Error: You must specify one of --stdio, --sse";
    let f = run(Key::UsageWithErrorLine, err, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(f.next.contains("You must specify"), "{}", f.next);
    assert!(!f.next.contains("Usage:"), "{}", f.next);
    // Look-alike: a usage text alone (a help screen).
    assert!(run(
        Key::UsageWithErrorLine,
        "Usage: sg [options]\n  --stdio",
        &s
    )
    .is_none());
}

#[test]
fn an_npm_block_quotes_what_not_the_log_pointer() {
    let s = setting("npx", &["-y", "@scope/no-such-bin-pkg-for-tests"], &[]);
    let err = "npm error could not determine executable to run\nnpm error A complete log of this run can be found in: /h/.npm/_logs/x-debug-0.log";
    let f = run(Key::NpmBlock, err, &s).expect("a finding");
    assert_eq!(f.id, Id::NoExecutable);
    assert!(
        f.evidence.iter().all(|(_, t)| !t.contains("complete log")),
        "{:?}",
        f.evidence
    );
    assert!(
        f.next.contains("@scope/no-such-bin-pkg-for-tests"),
        "{}",
        f.next
    );
    // Look-alike: an E404 (the table's package-not-found), and npm's own notices.
    let e404 = "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/x";
    assert!(run(Key::NpmBlock, e404, &s).is_none());
    assert!(run(
        Key::NpmBlock,
        "npm notice New major version of npm available!",
        &s
    )
    .is_none());
}

#[test]
fn a_node_version_above_the_running_one_is_too_old() {
    let (_dir, node) = fake_node("v18.20.8");
    let s = setting(&node, &["srv.js"], &[]);
    let err = "ERROR: `srv` does not support Node v18.20.8. Please upgrade to Node 20.19.0 LTS or a newer LTS.";
    let f = run(Key::NodeOlderThanNamed, err, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    assert!(
        f.summary.contains("20.19.0") && f.summary.contains("v18.20.8"),
        "{}",
        f.summary
    );
    assert!(
        f.evidence
            .iter()
            .any(|(src, t)| *src == Source::Tried && t.contains("--version: v18.20.8")),
        "{:?}",
        f.evidence
    );
    let b = "Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite\n    at x (node:internal/modules:1:1)";
    let f = run(Key::NodeOlderThanNamed, b, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    // Look-alike: the version named is older than the one that runs.
    let (_dir2, newer) = fake_node("v22.11.0");
    let s = setting(&newer, &["srv.js"], &[]);
    assert!(run(Key::NodeOlderThanNamed, err, &s).is_none());
}

/// A package folder `srv` (engines.node `own`) with a dependency `core` (engines.node `dep`).
fn package(own: &str, dep: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("node_modules").join("srv");
    let core = dir.path().join("node_modules").join("core");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::create_dir_all(&core).expect("mkdir");
    std::fs::write(
        pkg.join("package.json"),
        format!(r#"{{"name":"srv","engines":{{"node":"{own}"}},"dependencies":{{"core":"1"}}}}"#),
    )
    .expect("write");
    std::fs::write(
        core.join("package.json"),
        format!(r#"{{"name":"core","engines":{{"node":"{dep}"}}}}"#),
    )
    .expect("write");
    std::fs::write(pkg.join("cli.js"), "").expect("write");
    let cli = pkg.join("cli.js").display().to_string();
    (dir, cli)
}

#[test]
fn a_dependency_whose_engines_exclude_the_running_node_is_too_old() {
    // @playwright/mcp 0.0.83 under Node 18: its own engines.node is >=18, playwright-core's
    // >=20; the lines it prints name no error type.
    let (_pkg, cli) = package(">=18", ">=20");
    let (_n, node) = fake_node("v18.20.8");
    let s = setting(&node, &[&cli], &[]);
    let err = "You are running Node.js 18.20.8.\nPlaywright requires Node.js 20 or higher. \nPlease update your version of Node.js.";
    let f = run(Key::EnginesAboveRunningNode, err, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    assert!(
        f.summary.contains("`core`") && f.summary.contains(">=20"),
        "{}",
        f.summary
    );
    assert!(f.next.contains("Node.js 20.0.0 or newer"), "{}", f.next);
    let tried: Vec<&str> = f
        .evidence
        .iter()
        .filter(|(src, _)| *src == Source::Tried)
        .map(|(_, t)| t.as_str())
        .collect();
    assert!(
        tried.iter().any(|t| t.contains("engines.node >=20")),
        "{tried:?}"
    );
    assert!(
        tried.iter().any(|t| t.contains("--version: v18.20.8")),
        "{tried:?}"
    );
    // Look-alikes: the same failure where the running node meets every range, and a script
    // in no package.
    let (_n2, newer) = fake_node("v22.11.0");
    assert!(run(
        Key::EnginesAboveRunningNode,
        err,
        &setting(&newer, &[&cli], &[])
    )
    .is_none());
    let loose = tempfile::tempdir().expect("tempdir");
    let script = loose.path().join("srv.js");
    std::fs::write(&script, "").expect("write");
    let s = setting(&node, &[&script.display().to_string()], &[]);
    assert!(run(Key::EnginesAboveRunningNode, err, &s).is_none());
}

#[test]
fn a_server_that_says_what_is_wrong_is_believed_before_its_engines() {
    // A package whose engines.node (>=22.13) excludes the Node that runs it (20), but that
    // runs there and says what is wrong: its own words come first, the engines never.
    let (_pkg, cli) = package(">=22.13", ">=18");
    let (_n, node) = fake_node("v20.19.0");
    let s = setting(&node, &[&cli], &[]);
    let first = |err: &str| {
        let lines: Vec<&str> = err.lines().collect();
        let facts = evidence::parse(&lines);
        KEYS.iter()
            .find_map(|k| row(*k, &facts, &lines, &s).map(|f| (*k, f)))
    };
    let err = "Error: No access token was provided. Pass one with `--access-token`.\nUsage: srv --access-token=<token> [--host=<host>]";
    let (key, f) = first(err).expect("a finding");
    assert_ne!(key, Key::EnginesAboveRunningNode, "{}", f.summary);
    assert_ne!(f.id, Id::RuntimeTooOld, "{}", f.summary);
    // With nothing else to go on, the engines are the finding.
    let (key, _) = first("Please update your version of Node.js.").expect("a finding");
    assert_eq!(key, Key::EnginesAboveRunningNode);
}

#[test]
fn a_last_line_naming_variables_the_entry_lacks_names_them() {
    // figma-developer-mcp 0.13.2 without its key: one line, exit 1.
    let s = setting("figma-developer-mcp", &["--stdio"], &[("OTHER_VAR", "1")]);
    let err =
        "Either FIGMA_API_KEY or FIGMA_OAUTH_TOKEN is required (via CLI argument or .env file)";
    let f = run(Key::NamesUnsetVariables, err, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingEnvVar);
    assert!(
        f.next
            .contains("one of `FIGMA_API_KEY` or `FIGMA_OAUTH_TOKEN`"),
        "{}",
        f.next
    );
    // A flag the entry does not pass, alone: an argument to add.
    let f = run(
        Key::NamesUnsetVariables,
        "a token is required: pass --access-token",
        &s,
    )
    .expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(f.next.contains("`--access-token`"), "{}", f.next);
    // Look-alikes: the entry sets one of the names; the names written as `NAME=value` (how to
    // switch a behaviour off, figma's telemetry notice); an error code; a line with none.
    let set = setting(
        "figma-developer-mcp",
        &["--stdio"],
        &[("FIGMA_API_KEY", "x")],
    );
    assert!(run(Key::NamesUnsetVariables, err, &set).is_none());
    // "A and B": the entry sets one, the other is still wanted (@winor30/mcp-server-datadog
    // 1.8 with DATADOG_API_KEY alone).
    let dd = setting("node", &["index.js"], &[("DATADOG_API_KEY", "[redacted]")]);
    let f = run(
        Key::NamesUnsetVariables,
        "Error: DATADOG_API_KEY and DATADOG_APP_KEY must be set",
        &dd,
    )
    .expect("a finding");
    assert!(
        f.next.starts_with("set `DATADOG_APP_KEY` in "),
        "{}",
        f.next
    );
    let notice = "Usage telemetry enabled. Disable: FRAMELINK_TELEMETRY=off or DO_NOT_TRACK=1";
    assert!(run(Key::NamesUnsetVariables, notice, &s).is_none());
    assert!(run(
        Key::NamesUnsetVariables,
        "Error [ERR_INVALID_ARG_TYPE]: bad",
        &s
    )
    .is_none());
    assert!(run(Key::NamesUnsetVariables, "Server stopped.", &s).is_none());
    let passed = setting("srv", &["--access-token", "x"], &[]);
    assert!(run(
        Key::NamesUnsetVariables,
        "a token is required: pass --access-token",
        &passed
    )
    .is_none());
}

#[test]
fn a_schemeless_value_in_an_address_variable_is_the_one_named() {
    // elasticsearch-mcp-server 2.1.6: ELASTICSEARCH_HOSTS=localhost:9201 beside another
    // host:port value; elastic_transport's ValueError names no variable.
    let s = setting(
        "elasticsearch-mcp-server",
        &[],
        &[
            ("OTEL_AGENT", "collector:4317"),
            ("ELASTICSEARCH_HOSTS", "localhost:9201"),
        ],
    );
    let err = "Traceback (most recent call last):\n  File \"/v/site-packages/elastic_transport/client_utils.py\", line 215, in url_to_node_config\n    raise ValueError(\nValueError: URL must include a 'scheme', 'host', and 'port' component (ie 'https://localhost:9200')";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s).expect("a finding");
    assert!(
        f.summary
            .starts_with("`ELASTICSEARCH_HOSTS=localhost:9201`"),
        "{}",
        f.summary
    );
    assert!(f.next.contains("https://"), "{}", f.next);
    // Look-alike: the host given with its scheme.
    let ok = setting(
        "elasticsearch-mcp-server",
        &[],
        &[("ELASTICSEARCH_HOSTS", "https://localhost:9201")],
    );
    assert!(run(Key::UrlParseWithSchemelessValue, err, &ok).is_none());
}

#[test]
fn a_host_name_without_its_scheme_is_written_with_https() {
    // @zereight/mcp-gitlab: a host name with its path, no port, in a variable named for a URL.
    let s = setting(
        "mcp-gitlab",
        &[],
        &[("GITLAB_API_URL", "gitlab.example.com/api/v4")],
    );
    let err = "ERROR [15:41:39.000] (26714):   - GITLAB_API_URL contains an invalid URL: gitlab.example.com/api/v4";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s).expect("a finding");
    assert!(
        f.next
            .contains("`GITLAB_API_URL=gitlab.example.com/api/v4`")
            && f.next.contains("`https://gitlab.example.com/api/v4`"),
        "{}",
        f.next
    );
    // A line that quotes the value and speaks of a URL, with no error head (stricli).
    let s = setting(
        "node",
        &["cli.js", "start", "--server-url", "app.example.com"],
        &[],
    );
    let err = "Failed to parse \"app.example.com\" for server-url: Invalid URL";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s).expect("a finding");
    assert!(
        f.next.contains("`--server-url app.example.com`"),
        "{}",
        f.next
    );
    assert!(f.next.contains("https://app.example.com"), "{}", f.next);
    // One scheme named by the message: that one.
    let s = setting("node", &["cli.js", "--url=sentry.example.com"], &[]);
    let err = "SENTRY_URL must be a full HTTPS URL (e.g., https://sentry.example.com).";
    let f = run(Key::UrlParseWithSchemelessValue, err, &s).expect("a finding");
    assert!(
        f.next.contains("`https://sentry.example.com`"),
        "{}",
        f.next
    );
    // Look-alikes: a file name of two labels (`server.py`) and a dotted name that is a file on
    // disk are no host names; a host name given with its scheme.
    let s = setting("python3", &["server.py", "--config", "app.yaml"], &[]);
    assert!(run(
        Key::UrlParseWithSchemelessValue,
        "ValueError: Invalid URL",
        &s
    )
    .is_none());
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("conf.example.com"), "").expect("write");
    let mut s = setting("srv", &["--from", "conf.example.com"], &[]);
    s.cwd = Some(dir.path().to_path_buf());
    assert!(run(Key::UrlParseWithSchemelessValue, "Error: bad URL", &s).is_none());
    let s = setting(
        "node",
        &["cli.js", "--server-url", "https://app.example.com"],
        &[],
    );
    assert!(run(
        Key::UrlParseWithSchemelessValue,
        "Failed to parse \"https://app.example.com\" for server-url: Invalid URL",
        &s
    )
    .is_none());
}

#[test]
fn an_unknown_flag_is_the_entrys_written_with_one_dash_or_two() {
    // Go's flag package (mcp-grafana 0.x) refuses `-url`; the entry passes `--url`.
    let go = "flag provided but not defined: -url\nUsage of /x/mcp-grafana:\n  -address string\n    \tThe host and port (default \"localhost:8000\")\n  -debug\n    \tFalls back to the GRAFANA_DEBUG environment variable";
    let s = setting("mcp-grafana", &["--url", "http://127.0.0.1:3999"], &[]);
    let f = run(Key::UnknownFlagGiven, go, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.next.starts_with("remove `--url`"), "{}", f.next);
    assert!(!f.next.contains("GRAFANA_DEBUG"), "{}", f.next);
    // A close flag the usage offers is named.
    let s = setting("mcp-grafana", &["--adress", ":8000"], &[]);
    let go2 = go.replace("-url", "-adress");
    let f = run(Key::UnknownFlagGiven, &go2, &s).expect("a finding");
    assert!(
        f.next.contains("change `--adress` to `-address`"),
        "{}",
        f.next
    );
    // Look-alikes: a flag the entry does not pass; a help text describing an unknown option.
    let s = setting("mcp-grafana", &["--debug"], &[]);
    assert!(run(Key::UnknownFlagGiven, go, &s).is_none());
    let help = "Usage: srv [options]\nOptions:\n  --strict  fail on an unknown option '--url'";
    let s = setting("srv", &["--url", "x"], &[]);
    assert!(run(Key::UnknownFlagGiven, help, &s).is_none());
}

#[test]
fn a_choice_names_the_flag_and_stdio_among_its_choices() {
    // mcp-grafana 0.x's slog line for `-t http`.
    let line = "time=2026-12-03T10:02:40.151Z level=ERROR msg=\"Fatal error\" error=\"invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'\"";
    let s = setting("mcp-grafana", &["-t", "http"], &[]);
    let f = run(Key::ChoiceStructure, line, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(
        f.next.contains("change `-t http` to `-t stdio`"),
        "{}",
        f.next
    );
    // Look-alike: the same words about a value the entry does not give.
    let s = setting("mcp-grafana", &["-t", "stdio"], &[]);
    assert!(run(Key::ChoiceStructure, line, &s).is_none());
}

#[test]
fn a_choice_cut_short_names_the_closest_one() {
    // awslabs.eks-mcp-server 0.1 (argparse), stop 38: `--auth-mode kube`.
    let s = setting("awslabs.eks-mcp-server", &["--auth-mode", "kube"], &[]);
    let err = "usage: awslabs.eks-mcp-server [-h] [--auth-mode {iam,kubeconfig}]\nawslabs.eks-mcp-server: error: argument --auth-mode: invalid choice: 'kube' (choose from 'iam', 'kubeconfig')";
    let f = run(Key::ChoiceStructure, err, &s).expect("a choice");
    assert!(
        f.next.starts_with(
            "change `--auth-mode kube` in the entry's args to `kubeconfig`, the closest of its choices (`kubeconfig`, `iam`)"
        ),
        "{}",
        f.next
    );
    // Look-alike: a word near none of them gets the list, no guess.
    let s = setting("awslabs.eks-mcp-server", &["--auth-mode", "oidc"], &[]);
    let err = "awslabs.eks-mcp-server: error: argument --auth-mode: invalid choice: 'oidc' (choose from 'iam', 'kubeconfig')";
    let f = run(Key::ChoiceStructure, err, &s).expect("a choice");
    assert!(
        f.next
            .ends_with("to one of its choices: `iam`, `kubeconfig`"),
        "{}",
        f.next
    );
}

#[test]
fn a_choice_in_another_case_is_named_and_a_log_level_too() {
    // argparse's choices are case-sensitive: the listed spelling of the given word.
    let s = setting("srv", &["--log-level", "debug"], &[]);
    let err = "usage: srv [-h] [--log-level {DEBUG,INFO}]\nsrv: error: argument --log-level: invalid choice: 'debug' (choose from 'DEBUG', 'INFO')";
    let f = run(Key::ChoiceStructure, err, &s).expect("a choice");
    assert!(
        f.next
            .starts_with("use `DEBUG`: change `--log-level debug`"),
        "{}",
        f.next
    );
    // A word in no case among them: the list.
    let s = setting("srv", &["--log-level", "loud"], &[]);
    let err =
        "srv: error: argument --log-level: invalid choice: 'loud' (choose from 'DEBUG', 'INFO')";
    let f = run(Key::ChoiceStructure, err, &s).expect("a choice");
    assert!(f.next.contains("one of its choices"), "{}", f.next);
    // loguru: no list, a log level's name in the other case.
    let s = setting("srv", &[], &[("FASTMCP_LOG_LEVEL", "debug")]);
    let f = run(
        Key::GivenValueInAnotherCase,
        "ValueError: Level 'debug' does not exist",
        &s,
    )
    .expect("a case variant");
    assert_eq!(f.id, Id::BadArgument);
    assert_eq!(
        f.next,
        "use `DEBUG`: change `FASTMCP_LOG_LEVEL=debug` to `FASTMCP_LOG_LEVEL=DEBUG` in the entry's `env`"
    );
    // Look-alike: the value named in prose, not refused.
    assert!(run(
        Key::GivenValueInAnotherCase,
        "Error: could not connect, debug output follows",
        &s
    )
    .is_none());
}

#[test]
fn an_es_module_required_on_an_old_node_is_the_node() {
    // @pandacss/mcp's lines on Node 18, with an ES module whose package states no engines:
    // the next step offers the dependency's CommonJS release too.
    let dir = tempfile::tempdir().expect("tempdir");
    let dep = dir.path().join("node_modules").join("esm-only");
    std::fs::create_dir_all(dep.join("dist")).expect("mkdir");
    std::fs::write(
        dep.join("package.json"),
        r#"{"name":"esm-only","type":"module"}"#,
    )
    .expect("write");
    let esm = dep.join("dist").join("index.mjs").display().to_string();
    let err = format!("Error [ERR_REQUIRE_ESM]: require() of ES Module {esm} not supported.\n    at Object.<anonymous> (/x/node_modules/srv/cli.js:43:17) {{\n  code: 'ERR_REQUIRE_ESM'\n}}");
    let (_n, node) = fake_node("v18.20.8");
    let s = setting(&node, &["/x/node_modules/srv/cli.js"], &[]);
    let f = run(Key::EsmRequiredOnOldNode, &err, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    assert!(f.summary.contains("`esm-only`"), "{}", f.summary);
    assert!(
        f.next.contains("Node.js 20.19.0 or newer") && f.next.contains("CommonJS"),
        "{}",
        f.next
    );
    // Look-alike: a Node that can require() an ES module (the error is another fault there).
    let (_n2, newer) = fake_node("v22.12.0");
    let s = setting(&newer, &["/x/node_modules/srv/cli.js"], &[]);
    assert!(run(Key::EsmRequiredOnOldNode, &err, &s).is_none());
}

#[test]
fn a_load_time_error_in_a_dependencys_file_on_an_old_node_is_likely_the_node() {
    // figma-developer-mcp's undici on Node 18 (`File is not defined`), an installed file.
    let err = "ReferenceError: File is not defined\n    at Object.<anonymous> (/c/node_modules/srv/node_modules/undici/lib/web/webidl/index.js:531:48)\n    at Module._compile (node:internal/modules/cjs/loader:1364:14)\n    at Object.<anonymous> (/c/node_modules/srv/dist/cli.js:3:1)";
    let (_n, node) = fake_node("v18.20.8");
    let s = setting(&node, &["/c/node_modules/srv/dist/cli.js"], &[]);
    let f = run(Key::DependencyFrameOnOldNode, err, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    assert!(f.summary.contains("`undici`"), "{}", f.summary);
    assert!(f.next.contains("v20 or later"), "{}", f.next);
    // Look-alikes: the server's own file, and an error after loading (no loader frame).
    let own = "TypeError: x.run is not a function\n    at main (/c/node_modules/srv/dist/cli.js:9:9)\n    at Module._compile (node:internal/modules/cjs/loader:1364:14)";
    assert!(run(Key::DependencyFrameOnOldNode, own, &s).is_none());
    let later = "TypeError: x.run is not a function\n    at Timeout._onTimeout (/c/node_modules/srv/node_modules/dep/index.js:9:9)\n    at listOnTimeout (node:internal/timers:573:17)";
    assert!(run(Key::DependencyFrameOnOldNode, later, &s).is_none());
}
