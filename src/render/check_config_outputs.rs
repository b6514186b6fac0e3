//! No output of `check-config` (text, JSON, GitHub, SARIF, the `error:` of an unreadable file)
//! holds a raw control, bidi or zero-width character, whatever a hostile file plants.

use std::path::PathBuf;

use proptest::prelude::*;

use crate::engine::config::Totals;
use crate::engine::config::{check_source, CheckOptions, LoadError, Source};
use crate::engine::policy::Preset;
use crate::render::ci::{github::github, sarif::sarif};
use crate::render::json::check_config::json;
use crate::render::sanitize::is_unsafe;
use crate::render::text::check_config::human;

/// Characters a hostile config plants in keys, values and names.
const HOSTILE: &[char] = &[
    '\u{0}',
    '\u{7}',
    '\u{8}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{9b}',
    '\u{200b}',
    '\u{200d}',
    '\u{200e}',
    '\u{202e}',
    '\u{2066}',
    '\u{2069}',
    '\u{2028}',
    '\u{2029}',
    '\u{feff}',
    '\u{e0041}',
    '\r',
    '\t',
    '%',
    ':',
    ',',
    '"',
    '\\',
];

const KEYS: &[&str] = &[
    "mcplServers",
    "mcpServers",
    "servers",
    "command",
    "args",
    "env",
    "url",
    "transport",
    "token",
    "reconnect",
    "reconnectIntervalMs",
    "reconnectMaxIntervalMs",
    "disabled",
    "comand",
];

fn hostile_string() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(HOSTILE),
            1 => any::<char>(),
            2 => prop::sample::select(&['a', 'b', '1', ' ', '$', '{', '}'][..]),
        ],
        0..6,
    )
    .prop_map(|c| c.into_iter().collect())
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(KEYS).prop_map(str::to_string),
        hostile_string(),
        (prop::sample::select(KEYS), hostile_string()).prop_map(|(k, h)| format!("{k}{h}")),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(&["0", "1", "-1", "true", "null", "5000", "[]"][..])
            .prop_map(str::to_string),
        hostile_string().prop_map(|s| serde_json::to_string(&s).unwrap_or_default()),
        prop::collection::vec(hostile_string(), 0..3)
            .prop_map(|v| serde_json::to_string(&v).unwrap_or_default()),
    ]
}

/// `{"<table>": {"<id>": {"<key>": <value>, ...}, ...}}`, raw characters unescaped in
/// keys half the time (JSON allows all but C0 raw; the loader rejects C0 with a
/// position, itself an output to check).
fn config() -> impl Strategy<Value = String> {
    let entry = prop::collection::vec((key(), value()), 0..5);
    (
        prop::sample::select(&["mcplServers", "mcpServers", "servers"][..]),
        prop::collection::vec((hostile_string(), entry), 1..4),
        any::<bool>(),
    )
        .prop_map(|(table, servers, raw)| {
            let quote = |s: &str| {
                if raw {
                    format!("\"{}\"", s.replace(['"', '\\'], "_"))
                } else {
                    serde_json::to_string(s).unwrap_or_default()
                }
            };
            let mut t = format!("{{\"{table}\": {{");
            for (i, (id, fields)) in servers.iter().enumerate() {
                if i > 0 {
                    t.push(',');
                }
                t.push_str(&format!("{}: {{", quote(id)));
                for (j, (k, v)) in fields.iter().enumerate() {
                    if j > 0 {
                        t.push(',');
                    }
                    t.push_str(&format!("{}: {v}", quote(k)));
                }
                t.push('}');
            }
            t.push_str("}}");
            t
        })
}

fn env(_: &str) -> Option<String> {
    Some("x\u{1b}\u{202e}y".into())
}

fn assert_clean(format: &str, out: &str) {
    if let Some(c) = out.chars().find(|&c| c != '\n' && is_unsafe(c)) {
        panic!("{format} output holds U+{:04X}:\n{out}", c as u32);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn no_output_format_holds_a_raw_unsafe_character(
        text in config(),
        name in hostile_string(),
        preset in prop::sample::select(&[Preset::Lasting, Preset::Handshake][..]),
    ) {
        let src = Source {
            name: format!("{name}.json"),
            dir: PathBuf::from("/"),
            text,
        };
        let options = CheckOptions {
            preset,
            env: &env,
            dialect: Default::default(),
            platforms: crate::engine::config::Platforms::current(),
        };
        let (reports, errors): (Vec<_>, Vec<LoadError>) = match check_source(&src, &options) {
            Ok(r) => (vec![r], vec![]),
            Err(e) => (vec![], vec![e]),
        };
        let totals = Totals::of(&reports, errors.len());
        assert_clean("human", &human(&reports, &totals, false, false));
        for e in &errors {
            // Printed by the CLI's one error printer.
            assert_clean("load error", &crate::cli::error::render_error(e, None, false));
        }
        assert_clean("json", &json(&reports, &errors, &totals, "lasting"));
        assert_clean("github", &github(&reports, &errors, &totals, false));
        assert_clean("sarif", &sarif(&reports, &errors));
    }
}
