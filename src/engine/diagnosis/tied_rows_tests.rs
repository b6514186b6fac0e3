use super::*;
use crate::engine::diagnosis::evidence;

fn setting(env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some("server".to_string()),
        env_values: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
        entry: true,
        ..Setting::default()
    }
}

fn run(stderr: &str, s: &Setting) -> Option<(Tie, Found)> {
    let lines: Vec<&str> = stderr.lines().collect();
    let facts = evidence::parse(&lines);
    analyse(&facts, &lines, s)
}

/// notebooklm-mcp 0.4's import-time read (Python 3.11), its lines as printed.
const FLOAT_AT_IMPORT: &str = r#"Traceback (most recent call last):
  File "/v/bin/notebooklm-mcp", line 5, in <module>
    from notebooklm_tools.mcp.server import main
  File "/v/lib/python3.11/site-packages/notebooklm_tools/mcp/tools/_utils.py", line 118, in <module>
    _query_timeout: float = float(os.environ.get("NOTEBOOKLM_QUERY_TIMEOUT", "120.0"))
                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ValueError: could not convert string to float: '2m'"#;

#[test]
fn a_value_with_a_unit_where_a_number_is_read_is_tied_to_its_variable() {
    let s = setting(&[("NOTEBOOKLM_QUERY_TIMEOUT", "2m"), ("OTHER", "x")]);
    let (tie, f) = run(FLOAT_AT_IMPORT, &s).expect("tied");
    assert_eq!(tie, Tie::Quoted);
    assert_eq!(f.id, Id::BadArgument);
    assert!(
        f.next.starts_with(
            "set `NOTEBOOKLM_QUERY_TIMEOUT` in the entry's `env` to a number without a unit \
             (the number alone, in the unit the server counts in, not `m`; its default is \
             `120.0`), not `2m`"
        ),
        "{}",
        f.next
    );
    // The failing line is evidence: it reads the variable.
    assert!(f
        .evidence
        .iter()
        .any(|(_, t)| t.contains("os.environ.get(")));
    // Without the quote (a value the message does not show), the failing line ties it.
    let unquoted = FLOAT_AT_IMPORT.replace("'2m'", "the value");
    let (tie, f) = run(&unquoted, &s).expect("tied by its line");
    assert_eq!(tie, Tie::Read);
    assert!(f.next.contains("`NOTEBOOKLM_QUERY_TIMEOUT`"), "{}", f.next);
}

#[test]
fn go_and_settings_fields_and_last_words_are_tied_too() {
    // Go's strconv (a server reading `TIMEOUT_SECONDS` with strconv.Atoi).
    let s = setting(&[("APP_TIMEOUT_SECONDS", "30s")]);
    let go =
        "2024/05/01 10:00:00 invalid APP config: strconv.Atoi: parsing \"30s\": invalid syntax";
    let (tie, f) = run(go, &s).expect("tied");
    assert_eq!(tie, Tie::Quoted);
    assert!(
        f.next.contains("a whole number without a unit"),
        "{}",
        f.next
    );
    // A settings object's field under the entry's prefix, read on the failing line.
    let s = setting(&[("MYAPP_PAGE_SIZE", "ten")]);
    let settings = "Traceback (most recent call last):\n  File \"/app/server.py\", line 9, in <module>\n    limit = int(settings.page_size)\nValueError: invalid literal for int() with base 10: 'ten'";
    let (_, f) = run(settings, &s).expect("tied");
    assert!(f.next.contains("`MYAPP_PAGE_SIZE`"), "{}", f.next);
    assert!(f.next.contains("a whole number"), "{}", f.next);
    // Dynatrace's MCP server 2.x: a plain last line naming the variable, showing the scheme.
    let s = setting(&[
        ("DT_ENVIRONMENT", "abc12345.apps.dynatrace.com"),
        ("DT_PLATFORM_TOKEN", "[redacted]"),
    ]);
    let dt = "Initializing Dynatrace MCP Server v2.1.2...\nPlease set DT_ENVIRONMENT to a valid Dynatrace Environment URL (e.g., https://<environment-id>.apps.dynatrace.com)";
    let (tie, f) = run(dt, &s).expect("tied");
    assert_eq!(tie, Tie::Named);
    assert!(
        f.summary.starts_with(
            "`DT_ENVIRONMENT=abc12345.apps.dynatrace.com`: the server wants a URL with its \
             scheme (`https://abc12345.apps.dynatrace.com`"
        ),
        "{}",
        f.summary
    );
}

#[test]
fn look_alikes_are_not_tied() {
    // The same failure, its value not the entry's: no variable of the entry is in it.
    let s = setting(&[("NOTEBOOKLM_QUERY_TIMEOUT", "120"), ("LOG", "info")]);
    let other = FLOAT_AT_IMPORT.replace("NOTEBOOKLM_QUERY_TIMEOUT", "OTHER_TIMEOUT");
    assert!(run(&other, &s).is_none());
    // A short value is no quote of it (`'1'` in any message), a masked one is never matched,
    // and a word in a value is no part of it.
    let s = setting(&[
        ("RETRIES", "1"),
        ("API_KEY", "[redacted]"),
        ("MODE", "fast-mode"),
    ]);
    for line in [
        "ValueError: could not convert string to float: '1'",
        "ValueError: bad key '[redacted]'",
        "Error: unknown option 'fast'",
    ] {
        assert!(run(line, &s).is_none(), "{line}");
    }
    // A last line naming a set variable as it starts, with a healthy value: no failure word
    // is needed to tie it, but only a launch that died is read (structured.rs), and a plain
    // number or a URL with its scheme wants nothing.
    let s = setting(&[("DT_ENVIRONMENT", "https://abc12345.apps.dynatrace.com")]);
    let (_, f) = run(
        "Please set DT_ENVIRONMENT to a valid URL (e.g., https://x)",
        &s,
    )
    .expect("named");
    assert!(f.next.starts_with("change `DT_ENVIRONMENT`"), "{}", f.next);
}

#[test]
fn the_default_and_the_unit_are_read_from_the_line_and_the_value() {
    assert_eq!(
        default_of("x = float(os.environ.get(\"T\", \"120.0\"))", "T").as_deref(),
        Some("120.0")
    );
    assert_eq!(
        default_of("const t = Number(process.env.T || 30)", "T").as_deref(),
        Some("30")
    );
    assert_eq!(default_of("x = os.environ[\"T\"]", "T"), None);
    assert_eq!(unit_of("2m"), Some("m"));
    assert_eq!(unit_of("500 ms"), Some("ms"));
    assert_eq!(unit_of("abc"), None);
    assert_eq!(unit_of("12"), None);
}

#[test]
fn a_bare_shaped_value_and_an_example_are_read_and_unset_names_are_left_to_their_row() {
    // A value as a word of its own when it has a shape (`30s`), and the message's example a
    // number (a Go server's `invalid PORT value 80a (e.g. 8080)`).
    let s = setting(&[("APP_PORT", "80a")]);
    let (tie, f) = run("Error: invalid port 80a (e.g. 8080)", &s).expect("tied");
    assert_eq!(tie, Tie::Quoted);
    assert!(
        f.next.contains("a number, as its example `8080`"),
        "{}",
        f.next
    );
    // A plain word is no value's quote: `fast` in prose.
    let s = setting(&[("APP_MODE", "fast")]);
    assert!(run("Error: the fast path failed", &s).is_none());
    // Last words naming a set variable and an unset one: the unset one is the matter.
    let s = setting(&[("DATADOG_API_KEY", "[redacted]"), ("DATADOG_SITE", "x")]);
    assert!(run("Both DATADOG_API_KEY and DATADOG_APP_KEY are required", &s).is_none());
    // Last words that do not complain are no failure (`using X=...` as a launch ends).
    let s = setting(&[("APP_TIMEOUT", "30s")]);
    assert!(run("using APP_TIMEOUT=30s, starting", &s).is_none());
}

/// mcp 1.x FastMCP's `run(transport=os.getenv("MCP_TRANSPORT"))` given a name it lacks (its
/// `server.py`: `raise ValueError(f"Unknown transport: {transport}")`).
const UNKNOWN_TRANSPORT: &str = r#"Traceback (most recent call last):
  File "/srv/server.py", line 12, in <module>
    mcp.run(transport=transport)
  File "/v/lib/python3.11/site-packages/mcp/server/fastmcp/server.py", line 308, in run
    raise ValueError(f"Unknown transport: {transport}")
ValueError: Unknown transport: http"#;

#[test]
fn a_short_refusal_ending_on_a_set_value_is_tied_to_its_variable() {
    let s = setting(&[("MCP_TRANSPORT", "http"), ("OTHER", "x")]);
    let (tie, f) = run(UNKNOWN_TRANSPORT, &s).expect("tied");
    assert_eq!(tie, Tie::Quoted);
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.next.contains("`MCP_TRANSPORT`"), "{}", f.next);
    // The same word inside a sentence, or a value no variable holds, is not tied.
    for other in [
        "ValueError: the http client failed: timeout",
        "ValueError: Unknown transport: sse",
    ] {
        let text = UNKNOWN_TRANSPORT.replace("ValueError: Unknown transport: http", other);
        assert!(
            run(&text, &s).is_none_or(|(t, _)| t != Tie::Quoted),
            "{other}"
        );
    }
    assert_eq!(labelled("Unknown transport: http"), Some("http"));
    assert_eq!(labelled("Invalid log level: 'verbose'"), Some("verbose"));
    assert_eq!(labelled("Connection failed: refused"), None);
    assert_eq!(labelled("Unknown transport: two words"), None);
}
