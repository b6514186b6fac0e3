use super::*;

fn read(line: &str) -> LogLine {
    parse(line).unwrap_or_else(|| panic!("not read as a log line: {line}"))
}

#[test]
fn slog_logfmt_takes_the_error_field_under_a_generic_message() {
    // mcp-grafana 0.7 (Go, log/slog's text handler) given `-t http`.
    let l = read(
        r#"time=2026-12-03T10:02:40.151Z level=ERROR msg="Fatal error" error="invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'""#,
    );
    assert_eq!(l.level, Level::Error);
    assert_eq!(l.message, "Fatal error");
    assert_eq!(
        l.lines(),
        ["ERROR: Fatal error: invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'"]
    );
    // Its INFO line at start, with `KEY=value` inside the quoted message and a URL field.
    let info = read(
        r#"time=2026-12-03T10:02:40.098Z level=INFO msg="Opt out with --usage-stats=disabled, GRAFANA_USAGE_STATS=disabled or DO_NOT_TRACK=1." mode=enabled docs=https://grafana.com/docs/"#,
    );
    assert_eq!(info.level, Level::Info);
    assert!(info.message.starts_with("Opt out with"), "{info:?}");
    // log15's `lvl=eror`, an escaped quote.
    let l = read(
        r#"t=2026-12-03T10:02:40+0000 lvl=eror msg="say \"hi\"" err="dial tcp 127.0.0.1:5432: connect: connection refused""#,
    );
    assert_eq!(l.level, Level::Error);
    assert_eq!(l.message, "say \"hi\"");
    assert_eq!(
        l.error.as_deref(),
        Some("dial tcp 127.0.0.1:5432: connect: connection refused")
    );
}

#[test]
fn json_loggers_give_their_level_message_and_error_object() {
    // pino (level 50 = error, 60 = fatal; `err` serialised with type, message, code, stack).
    let l = read(
        r#"{"level":60,"time":1764756452054,"pid":7,"hostname":"h","err":{"type":"TypeError","message":"Invalid URL","stack":"TypeError: Invalid URL\n    at new URL (node:internal/url:775:36)\n    at start (/app/dist/index.js:12:9)","code":"ERR_INVALID_URL","input":"api.example.com"},"msg":"failed to start"}"#,
    );
    assert_eq!(l.level, Level::Fatal);
    assert_eq!(
        l.lines(),
        [
            "FATAL: failed to start",
            "TypeError [ERR_INVALID_URL]: Invalid URL",
            "    at new URL (node:internal/url:775:36)",
            "    at start (/app/dist/index.js:12:9)",
        ]
    );
    // pino with the error's message as its msg: one head, Node's form.
    let l = read(
        r#"{"level":50,"err":{"type":"Error","message":"connect ECONNREFUSED 127.0.0.1:6379","code":"ECONNREFUSED"},"msg":"connect ECONNREFUSED 127.0.0.1:6379"}"#,
    );
    assert_eq!(
        l.lines(),
        [
            "ERROR: connect ECONNREFUSED 127.0.0.1:6379",
            "Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:6379"
        ]
    );
    // bunyan (`name` for the type), winston (`level` a word, `message`, its own `stack`).
    let l = read(
        r#"{"name":"srv","hostname":"h","pid":1,"level":50,"err":{"message":"getaddrinfo ENOTFOUND db.internal","name":"Error","code":"ENOTFOUND"},"msg":"db","time":"2026-12-03T10:07:32.054Z","v":0}"#,
    );
    assert_eq!(
        l.lines()[1],
        "Error [ENOTFOUND]: getaddrinfo ENOTFOUND db.internal"
    );
    let l = read(
        r#"{"level":"error","message":"Unhandled error","stack":"Error: SLACK_TEAM_ID is required\n    at main (/app/index.js:3:11)","timestamp":"2026-12-03T10:07:32.054Z"}"#,
    );
    assert_eq!(
        l.lines(),
        [
            "ERROR: Unhandled error: Error: SLACK_TEAM_ID is required",
            "    at main (/app/index.js:3:11)"
        ]
    );
    // zap (`msg`, a string `error`), zerolog (`message`, `error`).
    let l = read(
        r#"{"level":"fatal","ts":1764756452.05,"caller":"cmd/main.go:41","msg":"cannot open store","error":"open /data/db: permission denied"}"#,
    );
    assert_eq!(
        l.lines(),
        ["FATAL: cannot open store: open /data/db: permission denied"]
    );
    let l = read(
        r#"{"level":"fatal","error":"missing API key","time":"2026-12-03T10:07:32Z","message":"startup"}"#,
    );
    assert_eq!(l.lines(), ["FATAL: startup: missing API key"]);
    // structlog's JSON renderer: `event`, and the traceback under `exception`.
    let l = read(
        r#"{"event":"startup failed","level":"error","timestamp":"2026-12-03T10:07:32Z","exception":"Traceback (most recent call last):\n  File \"/app/server.py\", line 9, in main\n    connect()\nConnectionRefusedError: [Errno 111] Connection refused"}"#,
    );
    let lines = l.lines();
    assert_eq!(lines[0], "ERROR: startup failed");
    assert_eq!(lines[1], "Traceback (most recent call last):");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("ConnectionRefusedError: [Errno 111] Connection refused")
    );
}

#[test]
fn python_logging_loguru_and_tracing_lines_are_read() {
    // mysql_mcp_server's `%(asctime)s - %(name)s - %(levelname)s - %(message)s`.
    let l = read("2026-12-03 10:07:32,054 - mysql_mcp_server - ERROR - Error executing SQL: Can't connect to MySQL server on '127.0.0.1:3399' (Errno 111: Connection refused)");
    assert_eq!(l.level, Level::Error);
    assert!(l.message.starts_with("Error executing SQL: Can't connect"));
    // basicConfig's default (mcp-server-git), uvicorn's.
    let l = read("ERROR:mcp_server_git.server:/tmp/x is not a valid Git repository");
    assert_eq!(l.lines(), ["ERROR: /tmp/x is not a valid Git repository"]);
    let l = read("ERROR:    Exception in ASGI application");
    assert_eq!(l.message, "Exception in ASGI application");
    assert_eq!(read("WARNING:root:TOKEN not set").level, Level::Warn);
    // loguru's default format.
    let l = read(
        "2026-12-03 10:07:32.054 | ERROR    | server.main:run:42 - cannot reach 127.0.0.1:6333",
    );
    assert_eq!(l.level, Level::Error);
    assert_eq!(l.message, "cannot reach 127.0.0.1:6333");
    // Rust tracing (fmt), its level padded; env_logger.
    let l = read("2026-12-03T10:07:32.054123Z ERROR my_server::db: failed to connect err=Connection refused (os error 111) attempt=3");
    assert_eq!(l.level, Level::Error);
    assert_eq!(l.message, "failed to connect attempt=3");
    assert_eq!(
        l.error.as_deref(),
        Some("Connection refused (os error 111)")
    );
    assert_eq!(
        read("2026-12-03T10:07:32.054123Z  INFO my_server: listening").level,
        Level::Info
    );
    let l = read("[2026-12-03T10:07:32Z ERROR my_server::config] DATABASE_URL must be set");
    assert_eq!(l.message, "DATABASE_URL must be set");
    let l = read("2026/12/03 10:07:32 [ERROR] bind: address already in use");
    assert_eq!(l.message, "bind: address already in use");
    let l = read("[2026-12-03 10:07:32] WARN cache disabled");
    assert_eq!(
        (l.level, l.message.as_str()),
        (Level::Warn, "cache disabled")
    );
}

#[test]
fn lines_that_are_no_log_records_are_not_read_as_one() {
    for line in [
        "Error: FIXTURE_API_KEY is not set",
        "error: the following arguments are required: command",
        "TypeError: Invalid URL",
        "ValueError: bad",
        "Traceback (most recent call last):",
        "    ERROR something indented (a traceback's source line)",
        "npm error code E404",
        "Usage: mcp [options]",
        "ERROR",
        "panic: runtime error: index out of range",
        "goroutine 1 [running]:",
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"level":"chatty","msg":"no level of a logger"}"#,
        "Starting server - version 1.2 - on stdio",
        "Use level=debug for more",
    ] {
        assert_eq!(parse(line), None, "{line}");
    }
}

#[test]
fn an_error_record_hides_the_lower_levels_around_it() {
    let lines: Vec<String> = [
        r#"time=2026-12-03T10:02:40.098Z level=INFO msg="usage statistics: set GRAFANA_USAGE_STATS=disabled""#,
        r#"time=2026-12-03T10:02:40.120Z level=WARN msg="retrying" error="connect: connection refused""#,
        r#"time=2026-12-03T10:02:40.151Z level=ERROR msg="Fatal error" error="invalid transport type: http""#,
        "plain text the server printed",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(
        read_lines(&lines, true),
        [
            "ERROR: Fatal error: invalid transport type: http",
            "plain text the server printed"
        ]
    );
    // Without an error record, the lower ones are read as their message.
    assert_eq!(
        read_lines(&lines[..2], false),
        [
            "INFO: usage statistics: set GRAFANA_USAGE_STATS=disabled",
            "WARN: retrying: connect: connection refused"
        ]
    );
}
