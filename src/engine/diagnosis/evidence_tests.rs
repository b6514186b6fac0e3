use super::*;

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

#[test]
fn python_reads_the_last_exception_and_its_frames() {
    let t = "Traceback (most recent call last):\n  File \"/home/u/srv/main.py\", line 3, in <module>\n    main()\n  File \"/home/u/.venv/lib/python3.12/site-packages/qdrant/settings.py\", line 40, in check\n    raise ValueError(msg)\nValueError: If 'local path' is set, 'location' must not be set\n";
    let f = python(&lines(t));
    assert_eq!(f.len(), 1, "{f:?}");
    let Fact::Python {
        kind,
        message,
        user_frame,
        library_frame,
    } = &f[0]
    else {
        panic!("{f:?}")
    };
    assert_eq!(kind, "ValueError");
    assert!(message.starts_with("If 'local path'"));
    assert!(user_frame.as_deref().unwrap_or("").contains("main.py"));
    assert!(library_frame
        .as_deref()
        .unwrap_or("")
        .contains("site-packages"));
    // A dotted type is read by its last part.
    let f = python(&["httpx.ConnectError: [Errno 111] Connection refused"]);
    assert!(matches!(&f[0], Fact::Python { kind, .. } if kind == "ConnectError"));
    // Healthy look-alikes: a log line with a colon, an indented echo, a word ending in Error
    // inside prose.
    assert!(python(&[
        "INFO: server started",
        "    ValueError: in an echo",
        "the Error: is here"
    ])
    .is_empty());
}

#[test]
fn pydantic_reads_each_field_with_its_type_and_input() {
    let t = "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings\ndatabase_url\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.5/v/missing\nport\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]\n";
    let f = pydantic(&lines(t));
    let Some(Fact::Pydantic { model, fields }) = f.first() else {
        panic!("{f:?}")
    };
    assert_eq!(model, "Settings");
    assert_eq!(fields.len(), 2, "{fields:?}");
    assert_eq!(fields[0].field, "database_url");
    assert_eq!(fields[0].kind.as_deref(), Some("missing"));
    assert_eq!(fields[0].input, None);
    assert_eq!(fields[1].field, "port");
    assert_eq!(fields[1].kind.as_deref(), Some("int_parsing"));
    assert_eq!(fields[1].input.as_deref(), Some("abc"));
    // Not a validation block: the words in prose.
    assert!(pydantic(&["there was a validation error for you"]).is_empty());
}

#[test]
fn node_reads_the_code_and_the_address() {
    let t = "Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {\n  errno: -111,\n  code: 'ECONNREFUSED',\n  syscall: 'connect',\n  address: '127.0.0.1',\n  port: 5432\n}\n";
    let f = node(&lines(t));
    let Some(Fact::Node {
        kind,
        code,
        syscall,
        address,
        port,
        ..
    }) = f.first()
    else {
        panic!("{f:?}")
    };
    assert_eq!(kind, "Error");
    assert_eq!(code.as_deref(), Some("ECONNREFUSED"));
    assert_eq!(syscall.as_deref(), Some("connect"));
    assert_eq!(address.as_deref(), Some("127.0.0.1"));
    assert_eq!(port.as_deref(), Some("5432"));
    let t = "TypeError: Invalid URL\n    at new URL (node:internal/url:797:36) {\n  code: 'ERR_INVALID_URL',\n  input: 'localhost:3000/mcp'\n}";
    let f = node(&lines(t));
    assert!(
        matches!(&f[0], Fact::Node { code: Some(c), input: Some(i), .. } if c == "ERR_INVALID_URL" && i == "localhost:3000/mcp"),
        "{f:?}"
    );
    let f = node(&["Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite"]);
    assert!(
        matches!(&f[0], Fact::Node { code: Some(c), .. } if c == "ERR_UNKNOWN_BUILTIN_MODULE"),
        "{f:?}"
    );
    // A bare `Error: x` line without a stack or code is not a Node error.
    assert!(node(&["Error: something"]).is_empty());
}

#[test]
fn a_system_error_after_a_label_is_a_node_error() {
    // ioredis 5's error event with no listener.
    let t = "[ioredis] Unhandled error event: Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)";
    let f = node(&lines(t));
    assert!(
        matches!(&f[0], Fact::Node { code: Some(c), message, .. } if c == "ECONNREFUSED" && message == "connect ECONNREFUSED 127.0.0.1:6379"),
        "{f:?}"
    );
    // A label's words before an error without a system call's code are not read so.
    assert!(node(&["request failed: Error: upstream said no"]).is_empty());
    assert!(node(&["cache: Error: ECONNREFUSED in config"]).is_empty());
}

#[test]
fn npm_takes_the_line_that_says_what_never_the_log_pointer() {
    let t = "npm error could not determine executable to run\nnpm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-01-01T00_00_00_000Z-debug-0.log";
    let f = npm(&lines(t));
    assert_eq!(
        f,
        vec![Fact::Npm {
            code: None,
            what: "could not determine executable to run".into()
        }]
    );
    let t = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/x\nnpm ERR! A complete log of this run can be found in: /x/_logs/y.log";
    let f = npm(&lines(t));
    assert!(
        matches!(&f[0], Fact::Npm { code: Some(c), what } if c == "E404" && what.starts_with("404")),
        "{f:?}"
    );
    // Only the pointer: nothing to say.
    assert!(
        npm(&["npm error A complete log of this run can be found in: /x/_logs/y.log"]).is_empty()
    );
}

#[test]
fn usage_takes_its_error_line_under_or_above() {
    let t = "[sg] Usage: sg [options]\n  --stdio  run a stdio server\n\n[sg] Error: You must specify one of --stdio, --sse";
    let f = usage(&lines(t));
    assert!(
        matches!(&f[0], Fact::Usage { error: Some(e), .. } if e.contains("You must specify")),
        "{f:?}"
    );
    let t = "usage: srv [-h] [--transport {stdio,sse}]\nsrv: error: argument --transport: invalid choice: 'htp' (choose from 'stdio', 'sse')";
    let f = usage(&lines(t));
    assert!(matches!(&f[0], Fact::Usage { error: Some(e), .. } if e.contains("invalid choice")));
    let c = choices(&lines(t));
    assert!(
        matches!(&c[0], Fact::Choice { argument: Some(a), given, .. } if a == "--transport" && given == "htp"),
        "{c:?}"
    );
    let c = choices(&["  Argument: channel, Given: \"nightly\", Choices: \"canary\", \"dev\""]);
    assert!(
        matches!(&c[0], Fact::Choice { argument: Some(a), given, .. } if a == "channel" && given == "nightly"),
        "{c:?}"
    );
    // A usage line alone has no error line; a help line mentioning usage is none.
    let f = usage(&["Usage: srv [options]"]);
    assert!(matches!(&f[0], Fact::Usage { error: None, .. }));
    assert!(usage(&["see the usage notes"]).is_empty());
}

#[test]
fn error_lines_and_host_ports() {
    let f = error_lines(&[
        "FATAL: cannot start",
        "info: fine",
        "srv: error: bad",
        "Error: x",
    ]);
    assert_eq!(f.len(), 3, "{f:?}");
    assert_eq!(
        host_ports("connect ECONNREFUSED 127.0.0.1:5432 and postgres://u:p@db.local:5433/app"),
        vec![
            ("127.0.0.1".to_string(), 5432),
            ("db.local".to_string(), 5433)
        ]
    );
    assert!(host_ports("at 10:30 the time was 12:00:01").is_empty());
    // Python libraries write the pair apart (urllib3, asyncio).
    assert_eq!(
        host_ports("HTTPSConnectionPool(host='127.0.0.1', port=27124): Max retries exceeded"),
        vec![("127.0.0.1".to_string(), 27124)]
    );
    assert_eq!(
        host_ports("[Errno 111] Connect call failed ('127.0.0.1', 5432)"),
        vec![("127.0.0.1".to_string(), 5432)]
    );
    assert!(host_ports("f(host='x y', port=1) and ('name', 3) and vhost='a', port=2").is_empty());
    assert_eq!(
        code_in("connect ECONNREFUSED 127.0.0.1:1"),
        Some("ECONNREFUSED".into())
    );
    assert_eq!(code_in("ERROR everything"), None);
}

#[test]
fn commands_are_read_from_each_help_shape() {
    // stricli (@launchdarkly/mcp-server), its description wrapped under the entry.
    let stricli = "USAGE\n  mcp start [--api-key value]\n\nCOMMANDS\n  start  Run the Model Context Protocol server\n         over stdio or SSE\n  serve  Another";
    assert_eq!(commands(&lines(stricli)), ["start", "serve"]);
    // click and commander: `Commands:` with placeholders after the name.
    let click = "Usage: srv [OPTIONS] COMMAND [ARGS]...\n\nOptions:\n  --help  Show this message and exit.\n\nCommands:\n  run     Run it\n  config [options]  Show config\n  help [command]    display help";
    assert_eq!(commands(&lines(click)), ["run", "config", "help"]);
    // yargs writes the program's name (or a script's) before each command; cobra's heading.
    let yargs = "Usage: mcp <command>\n\nCommands:\n  mcp start   Start\n  mcp stop    Stop";
    assert_eq!(commands(&lines(yargs)), ["start", "stop"]);
    let script = "Commands:\n  cli.js serve [port]  Serve";
    assert_eq!(commands(&lines(script)), ["serve"]);
    let cobra = "Available Commands:\n  completion  Generate\n  serve       Start";
    assert_eq!(commands(&lines(cobra)), ["completion", "serve"]);
    // A group's commands keep the group's name (`auth login` is the command `auth`).
    let group =
        "Usage: @x/srv [--token=<t>]\n\nCommands:\n  auth login   Log in\n  auth logout  Log out";
    assert_eq!(commands(&lines(group)), ["auth"]);
    // Look-alikes: an options section, prose about commands, the section ended by a blank line.
    assert!(commands(&lines("Options:\n  --port  the port")).is_empty());
    assert!(commands(&lines("Run these commands:\nnpm start")).is_empty());
    let ended = "Commands:\n  start  Start\n\n  --port  the port";
    assert_eq!(commands(&lines(ended)), ["start"]);
}

#[test]
fn python_reads_a_librarys_class_without_an_error_suffix_under_a_frame() {
    // requests 2.32 and httpx 0.28 name their classes without `Error`; the traceback's head may
    // have scrolled out of the tail kept: the frame's source line above says where it is.
    for (text, kind) in [
        ("Traceback (most recent call last):\n  File \"/v/site-packages/requests/sessions.py\", line 792, in get_adapter\n    raise InvalidSchema(f\"No connection adapters were found for {url!r}\")\nrequests.exceptions.InvalidSchema: No connection adapters were found for '127.0.0.1:8000/health'", "InvalidSchema"),
        ("           ^^^^^^^^^^^^^^^^^^^^^\n  File \"/v/site-packages/httpx/_transports/default.py\", line 118, in map_httpcore_exceptions\n    raise mapped_exc(message) from exc\nhttpx.UnsupportedProtocol: Request URL is missing an 'http://' or 'https://' protocol.", "UnsupportedProtocol"),
    ] {
        let facts = python(&lines(text));
        assert!(
            matches!(facts.last(), Some(Fact::Python { kind: k, .. }) if k == kind),
            "{facts:#?}"
        );
    }
    // Look-alikes: a dotted word at the start of a log line, a bare word under a frame, a class
    // without `Error` on a line of its own.
    for text in [
        "app.Config: loaded from /etc/app.yaml",
        "    serving\nNote: a tool is slow",
        "requests.exceptions.InvalidSchema: No connection adapters were found for 'x'",
    ] {
        assert!(python(&lines(text)).is_empty(), "{text}");
    }
}

#[test]
fn a_port_on_a_host_is_an_address_and_a_strerror_is_no_path() {
    // paramiko 3.5's NoValidConnectionsError.
    assert_eq!(
        host_ports("[Errno None] Unable to connect to port 2299 on 127.0.0.1"),
        [("127.0.0.1".to_string(), 2299)]
    );
    assert!(host_ports("listening on port 80 on all interfaces").is_empty());
    // docker 7's DockerException wraps a FileNotFoundError with no path.
    let line = "docker.errors.DockerException: Error while fetching server API version: ('Connection aborted.', FileNotFoundError(2, 'No such file or directory'))";
    assert!(crate::engine::diagnosis::file_rows::missing_in(line).is_none());
}

#[test]
fn an_exception_line_followed_by_an_unchained_traceback_is_superseded() {
    let logged = "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9): retrying";
    let crash = format!("{logged}\nTraceback (most recent call last):\n  File \"/srv/app.py\", line 9, in <module>\n    handler()\nZeroDivisionError: division by zero");
    assert!(superseded(
        logged.trim_start_matches("requests.exceptions."),
        &lines(&crash)
    ));
    // Its cause, chained: the same failure.
    let chained = format!("Traceback (most recent call last):\n  File \"/v/x.py\", line 1, in f\n{logged}\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"/srv/app.py\", line 9, in <module>\nRuntimeError: no service");
    assert!(!superseded(
        "ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9): retrying",
        &lines(&chained)
    ));
    // The last words.
    assert!(!superseded(
        "ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9): retrying",
        &lines(logged)
    ));
}
