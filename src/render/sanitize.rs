//! The one sanitiser every output format uses for text a server, a config file or the
//! environment controls (fd's sanitize.rs, extended to what a terminal or a log viewer renders).
//!
//! A character is *unsafe* when a terminal, a CI log or an editor could act on it or hide it:
//! C0 and C1 controls, DEL, the bidi embeddings, overrides, isolates and marks, zero-width
//! characters, the word joiner and invisible operators, the BOM, U+2028/U+2029 (line and
//! paragraph separators, which end a line in JavaScript and in some viewers), the interlinear
//! annotation controls, the invisible Unicode tag characters, and the noncharacters (U+FDD0 to
//! U+FDEF and the last two of every plane: U+FFFE and U+FFFF are not XML characters at all, and
//! one raw in the SVG makes the browser show a parser error). Each output format escapes
//! them its own way, but from this one list:
//!
//! - human text (tables, diagnostics, stderr tails): [`sanitize`], `\u{1b}`, `\n`, `\t`;
//! - serialised JSON (`--json`, `--events`, `--format json`, SARIF): [`json`], `\u001b`;
//! - GitHub workflow commands: [`github_data`] / [`github_property`].

/// Whether `c` must never reach output as it is.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control() // C0, DEL, C1
        || matches!(
            c,
            '\u{061C}' // Arabic letter mark
                | '\u{180E}' // Mongolian vowel separator
                | '\u{200B}'..='\u{200F}' // zero-width space/joiners, LRM, RLM
                | '\u{2028}'..='\u{2029}' // line and paragraph separators
                | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
                | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
                | '\u{2066}'..='\u{2069}' // bidi isolates
                | '\u{FEFF}' // BOM / zero-width no-break space
                | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
                | '\u{E0000}'..='\u{E007F}' // tag characters
                | '\u{FDD0}'..='\u{FDEF}' // noncharacters
        )
        || (c as u32) & 0xFFFE == 0xFFFE // U+FFFE, U+FFFF, U+1FFFE ... U+10FFFF
}

/// Whether `text` holds no unsafe character.
pub(crate) fn is_clean(text: &str) -> bool {
    !text.chars().any(is_unsafe)
}

/// Text made safe for a terminal: unsafe characters escaped as `\u{..}` (tab, newline and
/// carriage return as `\t`, `\n`, `\r`).
pub(crate) fn sanitize(text: &str) -> String {
    if is_clean(text) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// Serialised JSON with every unsafe character escaped as `\uXXXX` (a surrogate pair above
/// U+FFFF); serde_json escapes C0 controls but leaves DEL, C1, bidi, zero-width and U+2028 raw.
/// Only valid on serialised JSON, where such characters can only occur inside strings (tab, CR
/// and LF outside strings are the layout of pretty-printed JSON, and serde escapes them inside).
pub(crate) fn json(text: String) -> String {
    let escape = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\r' | '\t');
    if !text.chars().any(escape) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", u));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A GitHub workflow command's message: `%`, CR and LF percent-encoded as the runner expects,
/// every other unsafe character escaped as `\u{..}`.
pub(crate) fn github_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => push_escaped(&mut out, c),
        }
    }
    out
}

/// A GitHub workflow command's property value (as [`github_data`], and `:` and `,`).
pub(crate) fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each kind the issue names.
    const HOSTILE: &[char] = &[
        '\u{0}',
        '\u{7}',
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
        '\u{061c}',
        '\u{fffe}',
        '\u{ffff}',
        '\u{fdd0}',
        '\u{10ffff}',
    ];

    #[test]
    fn human_text_escapes_what_could_fool_a_terminal() {
        assert_eq!(sanitize("ok"), "ok");
        assert_eq!(sanitize("a\u{1b}[31mred"), "a\\u{1b}[31mred");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("z\u{200B}w"), "z\\u{200b}w");
        assert_eq!(sanitize("l1\nl2\t"), "l1\\nl2\\t");
        assert_eq!(sanitize("a\u{2028}b"), "a\\u{2028}b");
        assert_eq!(sanitize("é 日本"), "é 日本");
        for &c in HOSTILE {
            assert!(is_clean(&sanitize(&format!("a{c}b"))), "{:x}", c as u32);
        }
    }

    #[test]
    fn json_escapes_stay_valid_json() {
        for &c in HOSTILE {
            let text = json(serde_json::to_string(&format!("a{c}b")).unwrap());
            assert!(is_clean(&text), "{text}");
            let back: String = serde_json::from_str(&text).unwrap();
            assert_eq!(back, format!("a{c}b"));
        }
        assert_eq!(json("\"\u{2028}\"".into()), "\"\\u2028\"");
        let pretty = serde_json::to_string_pretty(&serde_json::json!({"k": "a\u{1b}\nb"})).unwrap();
        assert_eq!(json(pretty.clone()), pretty);
        assert_eq!(json("\"\u{e0041}\"".into()), "\"\\udb40\\udc41\"");
    }

    #[test]
    fn workflow_commands_escape() {
        assert_eq!(github_data("50%\r\nx"), "50%25%0D%0Ax");
        assert_eq!(github_property("a:b,c"), "a%3Ab%2Cc");
        assert_eq!(github_data("k\u{1b}]8;;\u{7}"), "k\\u{1b}]8;;\\u{7}");
        for &c in HOSTILE {
            assert!(is_clean(&github_property(&format!("a{c}b"))));
        }
    }
}
