//! Reading a value the way JavaScript's `Number(value)` does.
//!
//! The host reads `reconnectIntervalMs` and `reconnectMaxIntervalMs` with `Number(...)` after
//! `JSON.parse`, so a doctor must give the same number for every JSON value: numbers (with
//! `1e400` as Infinity and `-0` as zero), booleans, strings (trimmed, hex/octal/binary,
//! `Infinity`), arrays (through their string form) and objects (NaN).

/// A JSON value as far as `Number()` cares. Numbers keep their source text, so a literal too
/// large for a double reads as Infinity exactly as `JSON.parse` gives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsValue<'a> {
    Null,
    Bool(bool),
    /// The number's literal text as written in the JSON document.
    Number(&'a str),
    String(&'a str),
    Array(Vec<JsValue<'a>>),
    Object,
}

/// `Number(value)` for a JSON value.
pub(crate) fn number(value: &JsValue<'_>) -> f64 {
    match value {
        JsValue::Null => 0.0,
        JsValue::Bool(b) => {
            if *b {
                1.0
            } else {
                0.0
            }
        }
        JsValue::Number(text) => json_number_literal(text),
        JsValue::String(s) => string_to_number(s),
        JsValue::Array(items) => match items.as_slice() {
            // `String([])` is "", `String([x])` is `String(x)`, anything longer has a comma.
            [] => 0.0,
            [only] => match only {
                // String(null) inside an array is "" (Array.prototype.join skips null).
                JsValue::Null => 0.0,
                JsValue::Bool(b) => string_to_number(if *b { "true" } else { "false" }),
                JsValue::Number(text) => json_number_literal(text),
                JsValue::String(s) => string_to_number(s),
                JsValue::Array(_) => {
                    // Nested arrays flatten through join: [[5]] is "5".
                    number(only)
                }
                JsValue::Object => f64::NAN,
            },
            _ => f64::NAN,
        },
        JsValue::Object => f64::NAN,
    }
}

/// A JSON number literal as `JSON.parse` reads it: overflow gives Infinity, `-0` is zero.
pub(crate) fn json_number_literal(text: &str) -> f64 {
    // `+ 0.0` turns -0 into 0.
    text.trim().parse::<f64>().map_or(f64::NAN, |v| v + 0.0)
}

/// White space as ECMAScript's `StringToNumber` trims it: WhiteSpace and LineTerminator.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{FEFF}'
            | '\u{000A}'
            | '\u{000D}'
            | '\u{2028}'
            | '\u{2029}'
    ) || (c != '\u{200B}' && c.is_whitespace() && is_unicode_space_separator(c))
}

/// Unicode category Zs (space separators).
fn is_unicode_space_separator(c: char) -> bool {
    matches!(
        c,
        '\u{0020}' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// `Number(string)`.
pub(crate) fn string_to_number(s: &str) -> f64 {
    let t = s.trim_matches(is_js_space);
    if t.is_empty() {
        return 0.0;
    }
    match t {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    let bytes = t.as_bytes();
    if bytes.len() > 2 && bytes[0] == b'0' {
        let radix = match bytes[1] {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            return radix_integer(&t[2..], radix);
        }
    }
    if is_decimal_literal(t) {
        t.parse::<f64>().map_or(f64::NAN, |v| v + 0.0)
    } else {
        f64::NAN
    }
}

fn radix_integer(digits: &str, radix: u32) -> f64 {
    let mut value = 0.0f64;
    for c in digits.chars() {
        match c.to_digit(radix) {
            Some(d) => value = value * f64::from(radix) + f64::from(d),
            None => return f64::NAN,
        }
    }
    value
}

/// StrDecimalLiteral: optional sign, digits with optional fraction (at least one digit on one
/// side of the point), optional exponent. No underscores, no inner spaces, no `inf`/`nan`.
fn is_decimal_literal(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - f;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> f64 {
        number(&JsValue::String(x))
    }

    #[test]
    fn numbers_read_as_json_parse_gives_them() {
        let cases: &[(&str, f64)] = &[
            ("5000", 5000.0),
            ("1e400", f64::INFINITY),
            ("-1e400", f64::NEG_INFINITY),
            ("-0", 0.0),
            ("0.5", 0.5),
            ("2.5e3", 2500.0),
        ];
        for (text, want) in cases {
            assert_eq!(number(&JsValue::Number(text)), *want, "{text}");
        }
        let neg_zero = number(&JsValue::Number("-0"));
        assert!(neg_zero.is_sign_positive());
    }

    #[test]
    fn strings_read_as_number_reads_them() {
        let cases: &[(&str, f64)] = &[
            ("", 0.0),
            ("   ", 0.0),
            ("\n\t 5000 \r\n", 5000.0),
            ("\u{00A0}7\u{3000}", 7.0),
            ("\u{2028}8\u{FEFF}", 8.0),
            ("5000", 5000.0),
            ("+5", 5.0),
            ("-5", -5.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e3", 1000.0),
            ("1E+3", 1000.0),
            ("Infinity", f64::INFINITY),
            ("+Infinity", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
            ("0x10", 16.0),
            ("0X1f", 31.0),
            ("0o17", 15.0),
            ("0b101", 5.0),
            ("-0", 0.0),
            ("007", 7.0),
        ];
        for (text, want) in cases {
            assert_eq!(s(text), *want, "{text:?}");
        }
        for nan in [
            "5s",
            "5 000",
            "1_000",
            "inf",
            "infinity",
            "NaN",
            "-0x10",
            "0x",
            "0xg",
            "1e",
            "e5",
            ".",
            "+",
            "abc",
            "0b2",
            "\u{200B}5",
        ] {
            assert!(s(nan).is_nan(), "{nan:?} should be NaN");
        }
    }

    #[test]
    fn other_kinds() {
        assert_eq!(number(&JsValue::Null), 0.0);
        assert_eq!(number(&JsValue::Bool(true)), 1.0);
        assert_eq!(number(&JsValue::Bool(false)), 0.0);
        assert_eq!(number(&JsValue::Array(vec![])), 0.0);
        assert_eq!(number(&JsValue::Array(vec![JsValue::Number("5")])), 5.0);
        assert_eq!(number(&JsValue::Array(vec![JsValue::String("7")])), 7.0);
        assert_eq!(number(&JsValue::Array(vec![JsValue::Null])), 0.0);
        assert!(number(&JsValue::Array(vec![JsValue::Bool(true)])).is_nan());
        assert_eq!(
            number(&JsValue::Array(vec![JsValue::Array(vec![
                JsValue::Number("9")
            ])])),
            9.0
        );
        assert!(number(&JsValue::Array(vec![
            JsValue::Number("1"),
            JsValue::Number("2")
        ]))
        .is_nan());
        assert!(number(&JsValue::Object).is_nan());
        assert!(number(&JsValue::Array(vec![JsValue::Object])).is_nan());
    }
}
