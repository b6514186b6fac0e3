//! The source line under a diagnostic, made safe to print in a CI log.
//!
//! The line is read from a known token boundary (the member's key, or the line's start when
//! only white space precedes it), so the small lexer here never has to guess whether it starts
//! inside a string or a comment. On the shown text:
//! - every string that is not a key becomes `"…"` (a secret on the same line of a minified file
//!   stays hidden), every comment becomes `//…` or `/*…*/`;
//! - the offending value, when it is not a number, becomes `<a string>`, `<a boolean>`, ...;
//! - a number equal to a known secret (a token or env value written as a number) becomes `…`;
//! - a line longer than the window is cut around the value.

use super::draft::Draft;
use super::finding::Snippet;
use super::source::LineIndex;

/// At most this many characters of a line are shown.
const WINDOW: usize = 160;
/// At most this many characters are shown before the caret.
const BEFORE: usize = 80;
/// Keys longer than this are shortened.
const KEY_MAX: usize = 60;

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// End of the string literal starting at `p` (a `"`), within `limit`.
fn string_end(bytes: &[u8], p: usize, limit: usize) -> usize {
    let mut i = p + 1;
    while i < limit {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    limit
}

/// Whether the next thing after `p` on the line (skipping white space and comments) is `:`.
fn followed_by_colon(bytes: &[u8], mut p: usize, limit: usize) -> bool {
    while p < limit {
        match bytes[p] {
            b' ' | b'\t' => p += 1,
            b'/' if bytes.get(p + 1) == Some(&b'*') => {
                match bytes[p + 2..limit].windows(2).position(|w| w == b"*/") {
                    Some(i) => p += 2 + i + 2,
                    None => return false,
                }
            }
            b':' => return true,
            _ => return false,
        }
    }
    false
}

/// The snippet for one finding. With `reveal`, an offending string value is shown as written
/// (it cannot be a secret: the caller decides), else as `<a string>`.
pub(crate) fn build(
    text: &str,
    lines: &LineIndex,
    d: &Draft,
    is_secret: &dyn Fn(&str) -> bool,
    reveal: bool,
) -> Snippet {
    let bytes = text.as_bytes();
    let line0 = lines.line_of(d.span.0.min(text.len()));
    let (ls, le) = lines.line_span(text, line0);
    let s = d.span.0.clamp(ls, le);
    let value_end = d.span.1.clamp(s, le);

    // Where to start: the line's start if only white space precedes the anchor (or the value),
    // else the anchor (a token boundary), else the value itself.
    let mut from = if (ls..=s).contains(&d.anchor) {
        d.anchor
    } else {
        s
    };
    let mut cut_left = false;
    if bytes[ls..from].iter().all(|&b| is_ws(b)) {
        from = ls;
    } else {
        cut_left = true;
    }
    if chars(&text[from..s]) > BEFORE {
        from = s;
        cut_left = true;
    }

    let mut out = String::new();
    let mut out_chars = 0usize;
    let mut caret_start = None;
    let mut caret_len = None;
    let mut p = from;
    let mut cut_right = false;
    let emit = |out: &mut String, n: &mut usize, t: &str| {
        out.push_str(t);
        *n += chars(t);
    };
    while p < le {
        if caret_start.is_some() && caret_len.is_none() && p >= value_end {
            caret_len = caret_start.map(|c| out_chars - c);
        }
        if caret_len.is_some() && out_chars >= WINDOW {
            cut_right = true;
            break;
        }
        if p == s && caret_start.is_none() {
            caret_start = Some(out_chars);
            if reveal && bytes[s] == b'"' {
                let q = string_end(bytes, s, le);
                let lit = &text[s..q];
                let shown = if chars(lit) > KEY_MAX {
                    format!("{}…\"", lit.chars().take(KEY_MAX).collect::<String>())
                } else {
                    lit.to_string()
                };
                emit(&mut out, &mut out_chars, &shown);
                caret_len = Some(chars(&shown));
                p = q;
                continue;
            }
            if let Some(kind) = d.mask.filter(|_| bytes[s] == b'"') {
                let shown = format!("<{kind}>");
                emit(&mut out, &mut out_chars, &shown);
                caret_len = Some(chars(&shown));
                let one_char = text[s..].chars().next().map_or(1, char::len_utf8);
                p = value_end.max(s + one_char).min(le);
                continue;
            }
        }
        p = masked_token(text, p, le, is_secret, &mut out, &mut out_chars);
    }
    if p >= le && caret_start.is_none() {
        caret_start = Some(out_chars);
    }
    let start = caret_start.unwrap_or(out_chars);
    let len = caret_len.unwrap_or(out_chars.saturating_sub(start)).max(1);
    Snippet {
        line: line0 + 1,
        text: out,
        caret_start: start,
        caret_len: len,
        cut_left,
        cut_right,
    }
}

/// The token at `p` as the snippet shows it (strings masked unless keys, comments elided,
/// numbers shown unless secret), appended to `out`; returns where the next token starts.
fn masked_token(
    text: &str,
    p: usize,
    le: usize,
    is_secret: &dyn Fn(&str) -> bool,
    out: &mut String,
    out_chars: &mut usize,
) -> usize {
    let bytes = text.as_bytes();
    let mut emit = |t: &str| {
        out.push_str(t);
        *out_chars += chars(t);
    };
    match bytes[p] {
        b'"' => {
            let q = string_end(bytes, p, le);
            if followed_by_colon(bytes, q, le) {
                let lit = &text[p..q];
                if chars(lit) > KEY_MAX {
                    let head: String = lit.chars().take(KEY_MAX).collect();
                    emit(&head);
                    emit("…\"");
                } else {
                    emit(lit);
                }
            } else {
                emit("\"…\"");
            }
            q
        }
        b'/' if bytes.get(p + 1) == Some(&b'/') => {
            emit("//…");
            le
        }
        b'/' if bytes.get(p + 1) == Some(&b'*') => {
            match bytes[p + 2..le].windows(2).position(|w| w == b"*/") {
                Some(i) => {
                    emit("/*…*/");
                    p + 2 + i + 2
                }
                None => {
                    emit("/*…");
                    le
                }
            }
        }
        b'-' | b'0'..=b'9' => {
            let mut q = p + 1;
            while q < le && matches!(bytes[q], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                q += 1;
            }
            let number = &text[p..q];
            if is_secret(number) {
                emit("…");
            } else {
                emit(number);
            }
            q
        }
        _ => {
            let c = text[p..].chars().next().unwrap_or(' ');
            let mut one = [0u8; 4];
            emit(c.encode_utf8(&mut one));
            p + c.len_utf8()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Code;

    fn draft(span: (usize, usize), anchor: usize, mask: Option<&'static str>) -> Draft {
        Draft {
            code: Code::ReconnectTiming,
            span,
            anchor,
            mask,
            path: String::new(),
            server: None,
            field: None,
            message: String::new(),
        }
    }

    fn snip(text: &str, needle: &str, key: &str, mask: Option<&'static str>) -> Snippet {
        let s = text.find(needle).unwrap_or(0);
        let anchor = text.find(key).unwrap_or(s);
        let secrets = |t: &str| t == "424242";
        build(
            text,
            &LineIndex::new(text),
            &draft((s, s + needle.len()), anchor, mask),
            &secrets,
            false,
        )
    }

    #[test]
    fn masks_strings_but_keys_and_numbers() {
        let text =
            "{\n    \"reconnectIntervalMs\": 0, \"token\": \"hunter2\", \"n\": 424242 // x\n}";
        let s = snip(text, "0", "\"reconnectIntervalMs\"", None);
        assert_eq!(
            s.text,
            "    \"reconnectIntervalMs\": 0, \"token\": \"…\", \"n\": … //…"
        );
        assert_eq!((s.line, s.caret_start, s.caret_len), (2, 27, 1));
        assert!(!s.cut_left && !s.cut_right);
    }

    #[test]
    fn masks_the_offending_value_by_kind() {
        let text = "{\"a\": \"x\", \"reconnectIntervalMs\": \"sk-secret\" /* c */}";
        let s = snip(
            text,
            "\"sk-secret\"",
            "\"reconnectIntervalMs\"",
            Some("a string"),
        );
        assert_eq!(s.text, "\"reconnectIntervalMs\": <a string> /*…*/}");
        assert!(s.cut_left);
        assert_eq!((s.caret_start, s.caret_len), (23, 10));
    }

    #[test]
    fn shows_what_the_caret_points_at_unless_it_may_be_a_secret() {
        let text = "{\"command\": \"node\", \"x\": \"hidden\", \"reconnect\": true}";
        let at = text.find("\"node\"").unwrap_or(0);
        let d = draft(
            (at, at + 6),
            text.find("\"command\"").unwrap_or(0),
            Some("a string"),
        );
        let lines = LineIndex::new(text);
        let shown = build(text, &lines, &d, &|_| false, true);
        assert_eq!(
            shown.text,
            "\"command\": \"node\", \"x\": \"…\", \"reconnect\": true}"
        );
        assert!(shown.cut_left);
        assert_eq!((shown.caret_start, shown.caret_len), (11, 6));
        let masked = build(text, &lines, &d, &|_| false, false);
        assert_eq!(
            masked.text,
            "\"command\": <a string>, \"x\": \"…\", \"reconnect\": true}"
        );
        // A boolean is never a secret: shown whatever the mask.
        let at = text.find("true").unwrap_or(0);
        let d = draft(
            (at, at + 4),
            text.find("\"reconnect\"").unwrap_or(0),
            Some("a boolean"),
        );
        assert!(build(text, &lines, &d, &|_| false, false)
            .text
            .ends_with("\"reconnect\": true}"));
    }

    #[test]
    fn cuts_long_lines_around_the_value() {
        let pad = "\"k\": 1, ".repeat(100);
        let text = format!("{{{pad}\"cap\": 99, {pad}}}");
        let s = snip(&text, "99", "\"cap\"", None);
        assert!(s.cut_left && s.cut_right);
        assert!(s.text.starts_with("\"cap\": 99, "), "{}", s.text);
        assert_eq!((s.caret_start, s.caret_len), (7, 2));
        assert!(s.text.chars().count() <= WINDOW + 10);
    }

    #[test]
    fn multi_line_values_and_strings_in_comments() {
        let text = "{\"reconnectIntervalMs\": [\n 1 ]}";
        let s = snip(text, "[\n 1 ]", "\"reconnectIntervalMs\"", Some("an array"));
        assert_eq!(s.text, "\"reconnectIntervalMs\": [");
        let text = "/* \"quoted */ {\"a\": \"s\"}";
        let s = snip(text, "{", "{", None);
        assert_eq!(s.text, "{\"a\": \"…\"}");
        assert!(s.cut_left);
    }
}
