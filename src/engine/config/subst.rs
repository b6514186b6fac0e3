//! `${VAR}` and `${VAR:-default}` in recipe string values, substituted from the environment at
//! load, as the shell does it: `${VAR}` is the variable's value (empty when unset);
//! `${VAR:-default}` is the default when the variable is unset or empty. A `${` that does not
//! form a reference (no name, no closing brace) is kept as written.

use std::borrow::Cow;

/// One reference found in a string: byte span, the name, and the default if any.
struct Reference<'s> {
    start: usize,
    end: usize,
    name: &'s str,
    default: Option<&'s str>,
}

fn next_reference(s: &str, from: usize) -> Option<Reference<'_>> {
    let bytes = s.as_bytes();
    let mut i = from;
    while let Some(off) = s.get(i..)?.find("${") {
        let start = i + off;
        let name_start = start + 2;
        let mut j = name_start;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
            j += 1;
        }
        let name = &s[name_start..j];
        let valid_name = !name.is_empty() && !name.as_bytes()[0].is_ascii_digit();
        if valid_name {
            if bytes.get(j) == Some(&b'}') {
                return Some(Reference {
                    start,
                    end: j + 1,
                    name,
                    default: None,
                });
            }
            if s[j..].starts_with(":-") {
                if let Some(close) = s[j + 2..].find('}') {
                    let end = j + 2 + close;
                    return Some(Reference {
                        start,
                        end: end + 1,
                        name,
                        default: Some(&s[j + 2..end]),
                    });
                }
            }
        }
        i = start + 2;
    }
    None
}

/// Whether `s` holds at least one `${VAR}` / `${VAR:-default}` reference.
pub(crate) fn has_env_ref(s: &str) -> bool {
    next_reference(s, 0).is_some()
}

/// The values `env` gives the references in `s` (non-empty ones), and the defaults written
/// after `:-` (`${API_KEY:-sk-dev-123}`, unless a path or what cannot be a secret: a number,
/// a duration): each is a secret wherever the substituted string, or the written one, is shown.
pub(crate) fn substituted_values(s: &str, env: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(r) = next_reference(s, from) {
        if let Some(v) = env(r.name).filter(|v| !v.is_empty()) {
            out.push(v);
        }
        if let Some(d) = r.default.filter(|d| {
            crate::engine::redact::could_be_secret(d) && !d.starts_with(['/', '.', '~', '$'])
        }) {
            out.push(d.to_string());
        }
        from = r.end;
    }
    out
}

/// `s` with every reference substituted through `env`.
pub(crate) fn substitute<'s>(s: &'s str, env: &dyn Fn(&str) -> Option<String>) -> Cow<'s, str> {
    let mut out: Option<String> = None;
    let mut last = 0;
    let mut from = 0;
    while let Some(r) = next_reference(s, from) {
        let buf = out.get_or_insert_with(String::new);
        buf.push_str(&s[last..r.start]);
        let value = env(r.name);
        match (value, r.default) {
            (Some(v), Some(d)) if v.is_empty() => buf.push_str(d),
            (Some(v), _) => buf.push_str(&v),
            (None, Some(d)) => buf.push_str(d),
            (None, None) => {}
        }
        last = r.end;
        from = r.end;
    }
    match out {
        None => Cow::Borrowed(s),
        Some(mut buf) => {
            buf.push_str(&s[last..]);
            Cow::Owned(buf)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "PORT" => Some("8080".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn substitutes_like_the_shell() {
        let cases = [
            ("plain", "plain"),
            ("${PORT}", "8080"),
            ("ws://h:${PORT}/x", "ws://h:8080/x"),
            ("${UNSET}", ""),
            ("${UNSET:-5000}", "5000"),
            ("${EMPTY:-7}", "7"),
            ("${EMPTY}", ""),
            ("${PORT:-1}", "8080"),
            ("${PORT}${PORT}", "80808080"),
            ("${", "${"),
            ("${}", "${}"),
            ("${1X}", "${1X}"),
            ("${PORT", "${PORT"),
            ("$PORT", "$PORT"),
            ("${A B}", "${A B}"),
            ("${UNSET:-}", ""),
            ("é${PORT}é", "é8080é"),
        ];
        for (input, want) in cases {
            assert_eq!(substitute(input, &env), want, "{input:?}");
        }
        assert!(has_env_ref("x${A}"));
        assert!(has_env_ref("${A:-1}"));
        assert!(!has_env_ref("${1}"));
        assert!(!has_env_ref("5000"));
        assert_eq!(
            substituted_values("--t=${PORT}:${UNSET:-d}${EMPTY}$${PORT}", &env),
            vec!["8080", "8080"]
        );
    }
}
