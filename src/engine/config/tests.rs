//! Table-driven tests of loading and checking.

use std::path::PathBuf;

use super::*;

fn env(name: &str) -> Option<String> {
    match name {
        "INTERVAL" => Some("2000".to_string()),
        "SECRET_TOKEN" => Some("tok-from-env-123".to_string()),
        _ => None,
    }
}

fn source(name: &str, text: &str) -> Source {
    Source {
        name: name.to_string(),
        dir: PathBuf::from("/cfg/dir"),
        text: text.to_string(),
    }
}

fn report_as(name: &str, text: &str, preset: Preset) -> Report {
    let options = CheckOptions { preset, env: &env };
    match check_source(&source(name, text), &options) {
        Ok(r) => r,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn report(text: &str) -> Report {
    report_as("hosts.json", text, Preset::Lasting)
}

fn codes(r: &Report) -> Vec<&'static str> {
    r.findings.iter().map(|f| f.code.as_str()).collect()
}

/// `{"mcplServers": {"s": ENTRY}}`
fn entry(body: &str) -> String {
    format!("{{\"mcplServers\": {{\"s\": {{{body}}}}}}}")
}

#[test]
fn each_entry_gets_its_findings() {
    let cases: &[(&str, &[&str])] = &[
        // Clean entries.
        (r#""command": "srv""#, &[]),
        (r#""command": "srv", "reconnect": true"#, &[]),
        (r#""url": "wss://example.com/x", "token": "t0k3n""#, &[]),
        (r#""url": "ws://localhost:9/x", "token": "t0k3n""#, &[]),
        (r#""url": "ws://127.0.0.2/x", "token": "t0k3n""#, &[]),
        (r#""url": "ws://[::1]:9/x", "token": "t0k3n""#, &[]),
        (r#""url": "http://a.localhost/x", "token": "t0k3n""#, &[]),
        (
            r#""url": "https://example.com/mcp", "requestTimeoutMs": 1000"#,
            &[],
        ),
        (
            r#""command": "srv", "protocol": "modern", "scopes": [], "autofetch": false"#,
            &[],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": null"#,
            &[],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 3600000"#,
            &[],
        ),
        (r#""disabled": true"#, &[]),
        (
            r#""disabled": true, "reconnectIntervalMs": 0, "reconnect": true"#,
            &[],
        ),
        // Binding.
        (r#""transport": "stdio""#, &["binding"]),
        (r#""url": "ftp://example.com""#, &["binding"]),
        (r#""url": "not a url""#, &["binding"]),
        (r#""url": 5"#, &["binding"]),
        (r#""command": 5"#, &["binding"]),
        (
            r#""transport": "websocket", "url": "https://x.example""#,
            &["binding"],
        ),
        (r#""transport": "http""#, &["binding"]),
        (r#""transport": "tcp", "command": "x""#, &["binding"]),
        (r#""reconnect": true"#, &["binding"]),
        (r#""command": "", "url": "wss://x.example""#, &[]),
        // Protocol.
        (r#""command": "srv", "protocol": "mcp""#, &["protocol"]),
        (
            r#""url": "wss://x.example", "protocol": "legacy""#,
            &["protocol"],
        ),
        // Modern rules.
        (
            r#""url": "https://x.example", "requestTimeoutMs": 0"#,
            &["modern-timeout"],
        ),
        (
            r#""url": "https://x.example", "requestTimeoutMs": 1.5"#,
            &["modern-timeout"],
        ),
        (
            r#""url": "https://x.example", "requestTimeoutMs": "60000""#,
            &["modern-timeout"],
        ),
        (
            r#""url": "https://x.example", "requestTimeoutMs": 2147483648"#,
            &["modern-timeout"],
        ),
        (r#""url": "wss://x.example", "requestTimeoutMs": 0"#, &[]),
        (
            r#""command": "srv", "protocol": "modern", "scopes": ["a"]"#,
            &["mcpl-policy-on-modern"],
        ),
        (
            r#""url": "https://x.example", "allowHostCommands": true"#,
            &["mcpl-policy-on-modern"],
        ),
        (
            r#""url": "wss://x.example", "allowHostCommands": true"#,
            &[],
        ),
        // Cleartext credentials.
        (
            r#""url": "ws://example.com/x", "token": "t0k3n""#,
            &["cleartext-credential"],
        ),
        (
            r#""url": "http://10.0.0.5/mcp", "token": "t0k3n""#,
            &["cleartext-credential"],
        ),
        (
            r#""url": "http://10.0.0.5/mcp", "access": "t0k3n""#,
            &["cleartext-credential"],
        ),
        (r#""url": "http://10.0.0.5/mcp", "token": """#, &[]),
        // Reconnect timings where used.
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 0"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": -5"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": -0"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": "5s""#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": """#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": {}"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": [1, 2]"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": false"#,
            &["reconnect-timing"],
        ),
        (
            r#""url": "https://x.example", "reconnectIntervalMs": 0"#,
            &["reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": true"#,
            &["timing-boolean"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": " 200 ""#,
            &["timing-string"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": "0x10""#,
            &["timing-string"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": [200]"#,
            &["timing-array"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": [[[200]]]"#,
            &["timing-array"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 9000, "reconnectMaxIntervalMs": 3000"#,
            &["cap-below-interval"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 400000"#,
            &["cap-below-interval"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 1e400"#,
            &["timing-over-timer-limit", "lasting-threshold-long"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": "Infinity""#,
            &[
                "timing-string",
                "timing-over-timer-limit",
                "lasting-threshold-long",
            ],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 86400000"#,
            &["lasting-threshold-long"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 3600001"#,
            &["lasting-threshold-long"],
        ),
        // `reconnect` that is not a boolean.
        (
            r#""command": "srv", "reconnect": "yes""#,
            &["reconnect-not-boolean"],
        ),
        (
            r#""command": "srv", "reconnect": 1, "reconnectIntervalMs": 0"#,
            &["reconnect-not-boolean", "reconnect-timing"],
        ),
        (
            r#""command": "srv", "reconnect": 0, "reconnectIntervalMs": 0"#,
            &["reconnect-not-boolean", "timing-unused"],
        ),
        // Timings never used.
        (
            r#""command": "srv", "reconnectIntervalMs": 1000"#,
            &["timing-unused"],
        ),
        (
            r#""command": "srv", "reconnect": false, "reconnectMaxIntervalMs": 0"#,
            &["timing-unused"],
        ),
        (
            r#""url": "wss://x.example", "reconnectIntervalMs": 1000"#,
            &["timing-unused"],
        ),
        // Field types.
        (r#""command": "srv", "args": "--x""#, &["field-type"]),
        (r#""command": "srv", "args": ["a", 5]"#, &["field-type"]),
        (r#""command": "srv", "env": {"A": 1}"#, &["field-type"]),
        (r#""command": "srv", "env": "A=1""#, &["field-type"]),
        (r#""command": "srv", "inheritEnv": "yes""#, &["field-type"]),
        (
            r#""url": "wss://x.example", "token": 12345"#,
            &["field-type"],
        ),
        (r#""command": "srv", "id": 7"#, &["field-type"]),
        // Duplicate keys: the last one wins, as JSON.parse has it.
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 0, "reconnectIntervalMs": 100"#,
            &["duplicate-key"],
        ),
        (
            r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 100, "reconnectIntervalMs": 0"#,
            &["duplicate-key", "reconnect-timing"],
        ),
    ];
    for (body, want) in cases {
        let text = entry(body);
        let r = report(&text);
        assert_eq!(codes(&r), *want, "{text}\n{:#?}", r.findings);
        for f in &r.findings {
            assert_eq!(f.server.as_deref(), Some("s"), "{text}");
        }
    }
}

#[test]
fn handshake_preset_words_for_main_and_drops_the_lasting_check() {
    let text = entry(r#""command": "srv", "reconnect": true, "reconnectIntervalMs": 0"#);
    let r = report_as("hosts.json", &text, Preset::Handshake);
    assert_eq!(codes(&r), ["reconnect-timing"]);
    assert!(
        r.findings[0].message.contains("on main"),
        "{}",
        r.findings[0].message
    );
    assert!(r.findings[0].message.contains("no backoff"));

    let r = report_as("hosts.json", &text, Preset::Lasting);
    assert!(r.findings[0]
        .message
        .contains("under #999 the host refuses this server at start"));
    assert!(r.findings[0]
        .message
        .contains("before #999 it relaunches it with no wait at all"));

    let text = entry(r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 86400000"#);
    assert!(codes(&report_as("hosts.json", &text, Preset::Handshake)).is_empty());
    assert!(codes(&report_as("hosts.json", &text, Preset::Bounded)).is_empty());
    assert_eq!(
        codes(&report_as("hosts.json", &text, Preset::PrecedingWait)),
        ["lasting-threshold-long"]
    );
    let lasting = report(&text);
    assert!(
        lasting.findings[0].message.contains("1 d"),
        "{}",
        lasting.findings[0].message
    );

    let text = entry(r#""command": "srv", "reconnect": true, "reconnectMaxIntervalMs": 1e400"#);
    let r = report_as("hosts.json", &text, Preset::Handshake);
    assert_eq!(codes(&r), ["timing-over-timer-limit"]);
    assert!(
        r.findings[0]
            .message
            .contains("after 20 consecutive failures"),
        "{}",
        r.findings[0].message
    );
}

#[test]
fn tables_anywhere_in_the_document() {
    let text = r#"{
  "hosts": {
    "prod": {"mcplServers": {"a": {"command": "x", "reconnect": true, "reconnectIntervalMs": 0}}},
    "list": [{"mcplServers": [{"id": "b", "url": "wss://h.example"}, {"url": "wss://h.example"}, 7]}]
  },
  "mcpServers": {"c": {"command": "y"}},
  "servers": {"d": {"type": "stdio", "command": "z"}, "e": "nope"},
  "other": {"servers": ["not", "a", "table"]}
}"#;
    let r = report(text);
    let got: Vec<(&str, usize, usize, &str)> = r
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.line, f.column, f.path.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "reconnect-timing",
                3,
                94,
                "$.hosts.prod.mcplServers.a.reconnectIntervalMs"
            ),
            ("missing-id", 4, 70, "$.hosts.list[0].mcplServers[1]"),
            ("entry-not-object", 4, 98, "$.hosts.list[0].mcplServers[2]"),
            ("entry-not-object", 7, 60, "$.servers.e"),
        ]
    );
    assert_eq!(r.servers, 4);
}

#[test]
fn structural_findings() {
    type At = (&'static str, usize, usize);
    let cases: &[(&str, &[At])] = &[
        (r#"{"mcplServers": "x"}"#, &[("server-table", 1, 17)]),
        (r#"{"mcpServers": []}"#, &[("server-table", 1, 16)]),
        (r#"{"mcplServers": null}"#, &[("no-servers", 1, 1)]),
        (r#"{"name": "not a host file"}"#, &[("no-servers", 1, 1)]),
        ("[1, 2]", &[("no-servers", 1, 1)]),
        ("{\"servers\": {}} // fine for VS Code", &[]),
        ("{\"mcplServers\": {}, // no\n}", &[("jsonc-syntax", 1, 19)]),
        (
            r#"{"mcplServers": {"a": {"command": "x"}, "a": {"command": "y"}}}"#,
            &[("duplicate-key", 1, 18)],
        ),
        (
            r#"{"mcplServers": {}, "mcplServers": {"a": 1}}"#,
            &[("duplicate-key", 1, 2), ("entry-not-object", 1, 42)],
        ),
    ];
    for (text, want) in cases {
        let r = report(text);
        let got: Vec<(&str, usize, usize)> = r
            .findings
            .iter()
            .map(|f| (f.code.as_str(), f.line, f.column))
            .collect();
        assert_eq!(got, *want, "{text}\n{:#?}", r.findings);
    }
}

#[test]
fn recipes_substitute_env_and_allow_policy_only_overrides() {
    let text = r#"{"mcpServers": {
  "a": {"command": "x", "reconnect": true, "reconnectIntervalMs": "${INTERVAL}"},
  "b": {"command": "x", "reconnect": true, "reconnectIntervalMs": "${UNSET}"},
  "c": {"reconnectMaxIntervalMs": 1000},
  "d": {"command": "x", "reconnect": true, "reconnectIntervalMs": "${UNSET:-300}"}
}}"#;
    let r = report_as("recipes/r.json", text, Preset::Lasting);
    assert_eq!(
        codes(&r),
        [
            "timing-env-var",
            "reconnect-timing",
            "timing-env-var",
            "cap-below-interval",
            "timing-env-var"
        ]
    );
    // In a registry the same text is literal.
    let text = r#"{"mcplServers": {"a": {"command": "x", "reconnect": true, "reconnectIntervalMs": "${INTERVAL}"}, "c": {"reconnectMaxIntervalMs": 1000}}}"#;
    let r = report(text);
    assert_eq!(codes(&r), ["reconnect-timing", "timing-env-var", "binding"]);
    // An agent overlay may hold policy-only overrides and removals.
    let text =
        r#"{"mcplServers": {"c": {"reconnectMaxIntervalMs": 1000}, "d": {"disabled": true}}}"#;
    let r = report_as("mcpl-servers.agent.json", text, Preset::Lasting);
    assert_eq!(codes(&r), ["cap-below-interval"]);
}

#[test]
fn no_value_that_is_not_a_number_is_echoed() {
    let text = entry(
        r#""url": "ws://example.com/x?k=sk-url-secret", "token": "sk-token-secret", "reconnect": "sk-reconnect-secret",
        "reconnectIntervalMs": "sk-timing-secret", "reconnectMaxIntervalMs": 424242,
        "env": {"API": "sk-env-secret", "PIN": 987654}, "transport": "sk-transport-secret""#,
    );
    for preset in [Preset::Lasting, Preset::Handshake] {
        let r = report_as("hosts.json", &text, preset);
        assert!(!r.findings.is_empty());
        for f in &r.findings {
            let snippet = f
                .snippet
                .as_ref()
                .map(|s| s.text.clone())
                .unwrap_or_default();
            for shown in [&f.message, &snippet, &f.path] {
                assert!(!shown.contains("sk-"), "{shown}");
                assert!(!shown.contains("987654"), "{shown}");
            }
        }
    }
}

#[test]
fn load_servers_resolves_bindings() {
    let text = r#"{"mcpServers": {
      "files": {"command": "node", "args": ["./srv.js", "../lib/x.js", "--flag", "${INTERVAL}"],
                "env": {"TOKEN": "${SECRET_TOKEN}"}, "inheritEnv": true, "reconnect": "yes",
                "reconnectIntervalMs": "${INTERVAL}", "reconnectMaxIntervalMs": 1e400},
      "web": {"url": "https://example.com/mcp", "token": "abc", "reconnect": "yes"},
      "ws": {"url": "wss://example.com/ws", "transport": "websocket"},
      "bad": {"transport": "stdio"},
      "ovr": {"reconnectIntervalMs": 10}
    }}"#;
    let entries = match load_servers_from(&source("cfg/r.json", text), &env) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["files", "web", "ws", "bad", "ovr"]);
    let files = &entries[0];
    let b = files.binding.as_ref().map_err(String::clone);
    assert_eq!(
        b,
        Ok(&Binding {
            transport: Transport::Stdio,
            family: EngineKind::Legacy,
            command: Some("node".into()),
            args: vec![
                "/cfg/dir/srv.js".into(),
                "/cfg/lib/x.js".into(),
                "--flag".into(),
                "2000".into()
            ],
            url: None,
        })
    );
    assert_eq!(
        files.env,
        vec![("TOKEN".to_string(), "tok-from-env-123".to_string())]
    );
    assert!(files.inherit_env && files.reconnect);
    assert_eq!(files.timings.interval_ms, 2000.0);
    assert_eq!(files.timings.cap_ms, f64::INFINITY);
    assert_eq!((files.line, files.column), (2, 7));
    assert!(!format!("{files:?}").contains("tok-from-env-123"));

    let web = &entries[1];
    assert_eq!(
        web.binding.as_ref().map(|b| b.family),
        Ok(EngineKind::Modern)
    );
    assert!(!web.reconnect, "the modern engine needs exactly true");
    assert_eq!(web.token.as_deref(), Some("abc"));
    assert_eq!(
        entries[2].binding.as_ref().map(|b| b.transport),
        Ok(Transport::Websocket)
    );
    assert!(entries[3].binding.is_err());
    assert!(entries[4].is_override);
}

#[test]
fn load_errors_name_the_position() {
    let cases: &[(&str, (usize, usize))] = &[
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", (3, 7)),
        ("{\"a\": 'x'}", (1, 7)),
        ("// nothing\n", (2, 1)),
    ];
    let options = CheckOptions {
        preset: Preset::Lasting,
        env: &env,
    };
    for (text, pos) in cases {
        match check_source(&source("x.json", text), &options) {
            Err(e @ LoadError::Syntax { .. }) => {
                assert_eq!(e.position(), Some(*pos), "{text}: {e}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}
