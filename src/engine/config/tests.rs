//! Table-driven tests of loading and checking.

use std::path::PathBuf;

use super::*;
use crate::engine::policy::{EngineKind, Preset};

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
    let options = CheckOptions {
        preset,
        env: &env,
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
    };
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
        r.findings[0].message.contains("older hosts"),
        "{}",
        r.findings[0].message
    );
    assert!(r.findings[0].message.contains("no backoff"));

    let r = report_as("hosts.json", &text, Preset::Lasting);
    assert!(r.findings[0]
        .message
        .contains("hosts with the lasting-connection fix refuse it at start"));
    assert!(r.findings[0]
        .message
        .contains("older hosts relaunch it with no wait at all"));
    assert!(!r.findings[0].message.contains('#'));

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
    let b = files.binding.as_ref().map_err(|e| e.0.clone());
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
            sse: false,
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
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
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

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A JSON value as text, built from pieces that exercise the checks.
    #[derive(Debug, Clone)]
    enum J {
        Lit(&'static str),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    const MARK: &str = "zzSECRETzz";

    const KEYS: &[&str] = &[
        "mcplServers",
        "mcpServers",
        "servers",
        "id",
        "command",
        "args",
        "env",
        "inheritEnv",
        "url",
        "transport",
        "protocol",
        "token",
        "access",
        "reconnect",
        "reconnectIntervalMs",
        "reconnectMaxIntervalMs",
        "requestTimeoutMs",
        "scopes",
        "disabled",
        "hosts",
        "a",
        "b",
    ];

    const LITS: &[&str] = &[
        "0",
        "-0",
        "1",
        "-1",
        "0.5",
        "1e400",
        "-1e400",
        "5000",
        "300000",
        "86400000",
        "2147483648",
        "1e-400",
        "true",
        "false",
        "null",
    ];

    const STRS: &[&str] = &[
        "",
        "5s",
        " 200 ",
        "0x10",
        "Infinity",
        "${X}",
        "${X:-5}",
        "${",
        "stdio",
        "websocket",
        "http",
        "legacy",
        "modern",
        "ws://example.com/",
        "http://10.0.0.1/",
        "wss://[::1]/",
        "https://localhost/",
        "ftp://x/",
        "node",
        "./a.js",
        "../b.js",
        "zzSECRETzz",
    ];

    fn text(j: &J, trailing: bool, out: &mut String) {
        match j {
            J::Lit(l) => out.push_str(l),
            J::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
            J::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    text(v, trailing, out);
                }
                if trailing && !items.is_empty() {
                    out.push(',');
                }
                out.push(']');
            }
            J::Obj(members) => {
                out.push_str("{ // c\n");
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(",\n");
                    }
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push_str(": ");
                    text(v, trailing, out);
                }
                if trailing && !members.is_empty() {
                    out.push(',');
                }
                out.push('}');
            }
        }
    }

    fn value() -> impl Strategy<Value = J> {
        let leaf = prop_oneof![
            prop::sample::select(LITS).prop_map(J::Lit),
            prop::sample::select(STRS).prop_map(|s| J::Str(s.to_string())),
            prop::collection::vec(any::<char>(), 0..8)
                .prop_map(|c| J::Str(c.into_iter().collect())),
        ];
        leaf.prop_recursive(5, 96, 8, |inner| {
            let key = prop_oneof![
                4 => prop::sample::select(KEYS).prop_map(str::to_string),
                1 => prop::collection::vec(any::<char>(), 0..6).prop_map(|c| c.into_iter().collect()),
            ];
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(J::Arr),
                prop::collection::vec((key, inner), 0..8).prop_map(J::Obj),
            ]
        })
    }

    fn check_all(text: &str) {
        for preset in [Preset::Lasting, Preset::Handshake, Preset::PrecedingWait] {
            let options = CheckOptions {
                preset,
                env: &env,
                dialect: Default::default(),
                platforms: crate::engine::config::Platforms::current(),
            };
            let src = source("p.json", text);
            if let Ok(r) = check_source(&src, &options) {
                for f in &r.findings {
                    assert!(f.line >= 1 && f.column >= 1);
                    assert!(!f.message.contains(MARK), "{}", f.message);
                    if let Some(s) = &f.snippet {
                        // Names and paths are shown as written (docs/check-config.md, "How
                        // it reads a file"): a plain word under `command`, `args`, `cwd` or
                        // `envFile` of an entry is not a secret; one with a secret's shape is
                        // (`a_token_shaped_arg_is_masked_in_its_snippet`).
                        let shown =
                            f.field.as_deref().is_some_and(|x| {
                                ["command", "args", "cwd", "envFile"].contains(&x)
                            }) && !["env", "headers", "inputs", "token", "access", "auth"]
                                .iter()
                                .any(|h| f.path.to_ascii_lowercase().contains(h));
                        assert!(shown || !s.text.contains(MARK), "{}", s.text);
                        assert!(s.caret_len >= 1);
                    }
                }
            }
            let _ = load_servers_from(&src, &env);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
            if let Ok(src) = Source::from_bytes("p.json", PathBuf::from("/"), bytes) {
                check_all(&src.text);
            }
        }

        #[test]
        fn arbitrary_json_never_panics_or_leaks(j in value(), trailing in any::<bool>(), cut in any::<u16>()) {
            let mut t = String::new();
            text(&j, trailing, &mut t);
            check_all(&t);
            // And every prefix-truncation of it (broken files).
            let at = usize::from(cut) % (t.len() + 1);
            if t.is_char_boundary(at) {
                check_all(&t[..at]);
            }
        }

        #[test]
        fn servers_in_a_table_never_panic_or_leak(
            entries in prop::collection::vec(prop::collection::vec((prop::sample::select(KEYS), value()), 0..8), 0..6),
            table in prop::sample::select(&["mcplServers", "mcpServers", "servers"][..]),
        ) {
            let members: Vec<(String, J)> = entries
                .into_iter()
                .enumerate()
                .map(|(i, fields)| {
                    let fields = fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                    (format!("s{i}"), J::Obj(fields))
                })
                .collect();
            let doc = J::Obj(vec![(table.to_string(), J::Obj(members))]);
            let mut t = String::new();
            text(&doc, false, &mut t);
            check_all(&t);
        }
    }
}

#[test]
fn a_token_shaped_arg_is_masked_in_its_snippet() {
    let secret = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    for text in [
        format!(r#"{{"mcplServers": {{"s0": {{"args": "{secret}"}}}}}}"#),
        format!(r#"{{"mcplServers": {{"s0": {{"command": "srv", "args": "--token={secret}"}}}}}}"#),
    ] {
        let options = CheckOptions {
            preset: Preset::Lasting,
            env: &env,
            dialect: Default::default(),
            platforms: crate::engine::config::Platforms::current(),
        };
        let r = check_source(&source("p.json", &text), &options).expect("checks");
        let typed = r
            .findings
            .iter()
            .find(|f| f.field.as_deref() == Some("args"))
            .expect("a finding on args");
        let snippet = typed.snippet.as_ref().expect("a snippet");
        assert!(!snippet.text.contains(secret), "{}", snippet.text);
        assert!(!typed.message.contains(secret), "{}", typed.message);
    }
    // A plain word there is shown as written, so the caret points at text one can read.
    let text = r#"{"mcplServers": {"s0": {"command": "srv", "args": "--verbose"}}}"#;
    let options = CheckOptions {
        preset: Preset::Lasting,
        env: &env,
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
    };
    let r = check_source(&source("p.json", text), &options).expect("checks");
    let typed = r
        .findings
        .iter()
        .find(|f| f.field.as_deref() == Some("args"));
    let snippet = typed.and_then(|f| f.snippet.as_ref()).expect("a snippet");
    assert!(snippet.text.contains("--verbose"), "{}", snippet.text);
}

#[test]
fn errors_for_picks_each_entrys_own_errors() {
    let text = r#"{"hosts": {
        "prod": {"mcplServers": {
            "a": {"command": "srv", "reconnect": true, "reconnectIntervalMs": 0},
            "ab": {"command": "srv", "reconnect": true},
            "c": {"url": "ftp://h/x"},
            "w": {"url": "ws://example.com/x", "token": "t0k3n-secret"}
        }},
        "staging": {"mcplServers": {
            "a": {"command": "srv"}
        }}
    }}"#;
    let src = source("hosts.json", text);
    let entries = load_servers_from(&src, &env).expect("loads");
    let options = CheckOptions {
        preset: Preset::Lasting,
        env: &env,
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
    };
    let report = check_source(&src, &options).expect("checks");
    let errors = |path: &str| -> Vec<&'static str> {
        let e = entries
            .iter()
            .find(|e| e.path == path)
            .unwrap_or_else(|| panic!("no entry at {path}"));
        report.errors_for(e).map(|f| f.code.as_str()).collect()
    };
    assert_eq!(
        errors("$.hosts.prod.mcplServers.a"),
        vec!["reconnect-timing"]
    );
    // `ab` starts like `a` but is another entry; the same id under staging is another one too.
    assert!(errors("$.hosts.prod.mcplServers.ab").is_empty());
    assert!(errors("$.hosts.staging.mcplServers.a").is_empty());
    assert_eq!(errors("$.hosts.prod.mcplServers.c"), vec!["binding"]);
    // A warning (a token in clear text to a host that is not loopback) is not a refusal.
    assert!(errors("$.hosts.prod.mcplServers.w").is_empty());
    // Under main's rule a 0 interval is still an error (the host loops on it instead).
    let main = CheckOptions {
        preset: Preset::Handshake,
        env: &env,
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
    };
    let report = check_source(&src, &main).expect("checks");
    let a = entries
        .iter()
        .find(|e| e.path == "$.hosts.prod.mcplServers.a")
        .expect("a");
    let codes: Vec<Code> = report.errors_for(a).map(|f| f.code).collect();
    assert_eq!(codes, vec![Code::ReconnectTiming]);
}
