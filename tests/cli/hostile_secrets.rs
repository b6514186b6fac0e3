//! Hostile text, round 3 (issue 21 items 2 and 8): secrets in the shapes commands carry them
//! (env prefixes, docker `-e`, headers, URLs in arguments, known token shapes, the environment a
//! server inherits) never reach any format; XML's non-characters never reach the SVG or HTML.

use std::path::PathBuf;
use std::process::Stdio;

use crate::support::{bin, fixture, stderr};

fn hostile_py() -> String {
    fixture("servers/hostile.py").display().to_string()
}

/// Not XML characters (U+FFFE, U+FFFF), or noncharacters.
fn is_nonchar(c: char) -> bool {
    (c as u32) & 0xFFFE == 0xFFFE || ('\u{FDD0}'..='\u{FDEF}').contains(&c)
}

// ---------------------------------------------------------------------------------------------
// Item 8: non-characters in the SVG and the HTML report.

#[test]
fn noncharacters_from_a_server_or_a_config_never_reach_the_svg_or_html() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config: PathBuf = dir.path().join("hosts.json");
    let doc = serde_json::json!({"mcpServers": {"a\u{FFFE}b\u{FFFF}c": {
        "command": "python3",
        "args": [hostile_py(), "--nonchars", "--exit-after-handshake", "100"]
    }}});
    std::fs::write(&config, doc.to_string()).expect("write");
    let svg = dir.path().join("t.svg");
    let html = dir.path().join("r.html");
    let runs: [Vec<String>; 2] = [
        vec![
            "--config".into(),
            config.display().to_string(),
            "--all".into(),
        ],
        vec![
            "--".into(),
            "python3".into(),
            hostile_py(),
            "--nonchars".into(),
            "--exit-after-handshake".into(),
            "100".into(),
        ],
    ];
    for run in runs {
        let o = bin()
            .args(["probe", "--launches", "2", "--interval", "50ms", "--svg"])
            .arg(&svg)
            .arg("--report")
            .arg(&html)
            .args(&run)
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        for file in [&svg, &html] {
            let text = std::fs::read_to_string(file).expect("written");
            let bad: Vec<String> = text
                .chars()
                .filter(|&c| is_nonchar(c))
                .map(|c| format!("U+{:04X}", c as u32))
                .collect();
            assert!(bad.is_empty(), "{}: {bad:?}", file.display());
        }
        let text = std::fs::read_to_string(&html).expect("written");
        assert!(text.contains("\\u{ffff}"), "the report says what was there");
    }
}
