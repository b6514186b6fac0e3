use super::*;

fn m(line: &str) -> Option<(Option<String>, String)> {
    missing_in(line).map(|x| (x.path, x.file))
}

fn some(path: Option<&str>, file: &str) -> Option<(Option<String>, String)> {
    Some((path.map(str::to_string), file.to_string()))
}

#[test]
fn a_missing_file_is_known_by_its_runtimes_shape_or_a_file_beside_not_found_words() {
    // Node (@cocal/google-calendar-mcp's last line), an uncaught one, a `stat`.
    assert_eq!(
        m("Original error: ENOENT: no such file or directory, open '/pkg/gcp-oauth.keys.json'"),
        some(Some("/pkg/gcp-oauth.keys.json"), "gcp-oauth.keys.json")
    );
    assert_eq!(
        m("Error: ENOENT: no such file or directory, stat '/root/.kube/config'"),
        some(Some("/root/.kube/config"), "config")
    );
    // Python.
    assert_eq!(
        m("FileNotFoundError: [Errno 2] No such file or directory: 'credentials.json'"),
        some(Some("credentials.json"), "credentials.json")
    );
    // Go (a config.yaml via --config), Rust's io error with its path before it.
    assert_eq!(
        m("Error: open ./config.yaml: no such file or directory"),
        some(Some("./config.yaml"), "config.yaml")
    );
    assert_eq!(
        m("Error: failed to read /srv/app.toml: No such file or directory (os error 2)"),
        some(Some("/srv/app.toml"), "app.toml")
    );
    // A server's own words: a file name (gmail's), a path, a SQLite database.
    let gmail = "Error: OAuth keys file not found. Please place gcp-oauth.keys.json in current \
                 directory or /root/.gmail-mcp";
    let x = missing_in(gmail).expect("a missing file");
    assert_eq!((x.path, x.file), (None, "gcp-oauth.keys.json".to_string()));
    assert_eq!(x.places, ["/root/.gmail-mcp"]);
    assert_eq!(
        m("Database file /data/app.db does not exist"),
        some(Some("/data/app.db"), "app.db")
    );
    assert_eq!(
        m("kubeconfig missing: ~/.kube/config"),
        some(Some("~/.kube/config"), "config")
    );
}

#[test]
fn a_module_a_command_a_url_or_a_how_to_line_is_no_missing_file() {
    for other in [
        "Error: Cannot find module '/srv/app/index.js'",
        "ModuleNotFoundError: No module named 'yaml'",
        "sh: 1: foo.sh: command not found",
        "Place your gcp-oauth.keys.json file in the package root directory.",
        "5. Download the credentials file as gcp-oauth.keys.json",
        "Failed to fetch https://example.com/spec.json: 404 Not Found",
        "API key not found",
        "Error: user not found",
    ] {
        assert!(missing_in(other).is_none(), "{other}");
    }
}

#[test]
fn the_failures_own_words_count_not_a_warning_before_them() {
    let lines = [
        "settings file settings.yaml not found, using defaults",
        "error: FIXTURE_DRIVE_PAGE_SIZE must be a number",
    ];
    assert!(missing(&[], &lines).is_none());
    let node = [
        "node:fs:573",
        "Error: ENOENT: no such file or directory, open '/x/keys.json'",
        "    at Object.openSync (node:fs:573:3)",
        "  errno: -2,",
        "  path: '/x/keys.json'",
        "}",
        "",
        "Node.js v20.11.0",
    ];
    assert_eq!(
        missing(&[], &node).map(|x| x.file),
        None,
        "the last words are Node's error object: the typed fact says it"
    );
    let facts = super::super::evidence::parse(&node);
    assert_eq!(
        missing(&facts, &node).map(|x| x.path),
        Some(Some("/x/keys.json".to_string()))
    );
}

#[test]
fn a_value_resolves_against_the_folder_the_server_starts_in() {
    let s = Setting {
        cwd: Some(PathBuf::from("/srv/app")),
        env_values: vec![("HOME".to_string(), "/home/u".to_string())],
        given_env: Some(["HOME".to_string()].into_iter().collect()),
        ..Setting::default()
    };
    assert_eq!(
        resolve("./gcp-oauth.keys.json", &s),
        Some(PathBuf::from("/srv/app/gcp-oauth.keys.json"))
    );
    assert_eq!(
        resolve("../conf/../c.yaml", &s),
        Some(PathBuf::from("/srv/c.yaml"))
    );
    assert_eq!(
        resolve("~/.kube/config", &s),
        Some(PathBuf::from("/home/u/.kube/config"))
    );
    assert_eq!(resolve("/abs/x.db", &s), Some(PathBuf::from("/abs/x.db")));
}
