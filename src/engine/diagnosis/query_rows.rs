//! The structured row about a URL's query parameter the server's library refuses (see
//! [`super::structured`]): an entry value `scheme://...?key=value&...` and an error line that
//! names `key` as a word of its own and holds `value` (quoted, or as a word), with a refusal's
//! word (`unrecognized`, `invalid`, `unknown`, `unsupported`, `bad`, `not supported`).
//! pg-connection-string under mcp-postgres-server: `Error: unrecognized sslmode 'required': use
//! disable | allow | prefer | require | verify-ca | verify-full` for
//! `DATABASE_URL=postgresql://...?sslmode=required`. The fix is that parameter of that value:
//! the values the message lists, when it lists them (`a | b | c`, `one of a, b`).

use super::given::entry_env;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::text::has_word;
use super::words::terms;
use crate::engine::redact::MASK;

/// Words that refuse a value.
const REFUSED: &[&str] = &[
    "unrecognized",
    "unrecognised",
    "invalid",
    "unknown",
    "unsupported",
    "bad",
    "illegal",
];

/// The query parameters of a URL value (`key=value` pairs after its `?`), masked ones left out.
fn query_of(v: &str) -> Vec<(&str, &str)> {
    if !v.contains("://") {
        return Vec::new();
    }
    let Some((_, q)) = v.split_once('?') else {
        return Vec::new();
    };
    let q = q.split('#').next().unwrap_or_default();
    q.split('&')
        .filter_map(|p| p.split_once('='))
        .filter(|(k, x)| {
            k.len() >= 2
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
                && !x.is_empty()
                && !x.contains(MASK)
        })
        .collect()
}

/// Whether a line refuses: a refusal word, or `not supported` / `not a valid`.
fn refuses(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    REFUSED.iter().any(|w| has_word(&low, w, &[]))
        || low.contains("not supported")
        || low.contains("not a valid")
}

/// The values a message lists after the value it refuses: `a | b | c` (two bars at least), or
/// after `one of` / `expected` / `use` a list split by commas.
fn choices(line: &str, value: &str) -> Vec<String> {
    let after = line
        .find(value)
        .map(|at| &line[at + value.len()..])
        .unwrap_or(line);
    let clean = |w: &str| {
        w.trim()
            .trim_matches(|c: char| matches!(c, '\'' | '"' | '`' | '(' | ')' | '[' | ']' | '.'))
            .to_string()
    };
    let ok = |w: &String| {
        !w.is_empty()
            && w.len() <= 32
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    if after.matches('|').count() >= 2 {
        let start = after
            .split('|')
            .next()
            .and_then(|f| f.rsplit([' ', ':']).find(|w| !w.is_empty()))
            .unwrap_or_default();
        let mut out: Vec<String> = vec![clean(start)];
        out.extend(after.split('|').skip(1).map(|w| {
            clean(
                w.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches(','),
            )
        }));
        return out.into_iter().filter(ok).collect();
    }
    let low = after.to_ascii_lowercase();
    let Some(at) = ["one of", "expected", "use", "must be"]
        .iter()
        .find_map(|w| low.find(w).map(|i| i + w.len()))
    else {
        return Vec::new();
    };
    let list: Vec<String> = after[at..]
        .trim_start_matches(':')
        .split([',', '/'])
        .map(|w| clean(w.trim().trim_start_matches("or ")))
        .collect();
    if list.len() >= 2 && list.iter().all(ok) {
        list
    } else {
        Vec::new()
    }
}

/// The row: the first error line that names a query parameter of an entry URL and refuses
/// its value.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let holders: Vec<(String, &str, &str)> = entry_env(s)
        .flat_map(|(k, v)| {
            query_of(v)
                .into_iter()
                .map(move |(q, x)| (format!("`{k}`"), q, x))
        })
        .chain(s.args.iter().flat_map(|a| {
            query_of(a)
                .into_iter()
                .map(|(q, x)| ("the URL in the entry's args".to_string(), q, x))
        }))
        .collect();
    for line in lines {
        let t = line.trim_start();
        if t.starts_with("at ") || t.starts_with("File \"") || !refuses(t) {
            continue;
        }
        let Some((holder, key, value)) = holders.iter().find(|(_, k, x)| {
            has_word(t, k, &[])
                && (t.contains(&format!("'{x}'"))
                    || t.contains(&format!("\"{x}\""))
                    || has_word(t, x, &[]))
        }) else {
            continue;
        };
        let listed = choices(t, value);
        let to = if listed.is_empty() {
            "a value the server's library accepts".to_string()
        } else {
            format!("one of the values it accepts ({})", listed.join(", "))
        };
        let place = if holder.starts_with('`') {
            terms(&format!("{holder} in the entry's `env`"), s)
        } else {
            terms(holder, s)
        };
        let quoted = cut(t);
        return Some(Found {
            id: Id::BadArgument,
            summary: format!(
                "the URL in {holder} has `{key}={value}` in its query, a value the server refuses"
            ),
            next: format!(
                "change the query parameter `{key}` of the URL in {place} from `{value}` to {to} (the server says: \"{quoted}\")"
            ),
            evidence: vec![
                (Source::Stderr, quoted),
                (
                    Source::Environment,
                    format!("{holder}'s URL has `{key}={value}` in its query"),
                ),
            ],
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(env: &[(&str, &str)]) -> Setting {
        Setting {
            env_values: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
            entry: true,
            ..Setting::default()
        }
    }

    #[test]
    fn a_refused_query_value_names_the_parameter_its_variable_and_the_values_listed() {
        // pg-connection-string's sslmode check, through mcp-postgres-server.
        let s = setting(&[(
            "DATABASE_URL",
            "postgresql://app:secret@127.0.0.1:5434/app?sslmode=required",
        )]);
        let line = "[postgres-server] fatal: Error: unrecognized sslmode 'required': use disable | allow | prefer | require | verify-ca | verify-full";
        let f = row(&[line, "    at sslForMode (file:///x/index.js:111:15)"], &s).expect("found");
        assert!(f.next.contains("`sslmode`"), "{}", f.next);
        assert!(f.next.contains("`DATABASE_URL`"), "{}", f.next);
        assert!(
            f.next
                .contains("(disable, allow, prefer, require, verify-ca, verify-full)"),
            "{}",
            f.next
        );
        assert!(!f.next.contains("secret@"), "{}", f.next);
        // A list after `one of`.
        let l2 = "ValueError: invalid charset \"latin9\", expected one of utf8, utf8mb4, latin1";
        let s2 = setting(&[("DB_URL", "mysql://h:3306/db?charset=latin9")]);
        let f = row(&[l2], &s2).expect("found");
        assert!(f.next.contains("(utf8, utf8mb4, latin1)"), "{}", f.next);
    }

    #[test]
    fn a_query_parameter_named_without_a_refusal_or_its_value_is_no_finding() {
        let s = setting(&[(
            "DATABASE_URL",
            "postgresql://app@127.0.0.1:5434/app?sslmode=require",
        )]);
        for line in [
            "connecting with sslmode 'require'",
            "Error: unrecognized sslmode 'prefer2'",
            "Error: invalid port 'require'",
            "    at unrecognized sslmode require (file:///x.js:1:1)",
        ] {
            assert!(row(&[line], &s).is_none(), "{line}");
        }
        // Not a URL: a plain value with `?`.
        let s = setting(&[("QUERY", "a?sslmode=required")]);
        assert!(row(&["unrecognized sslmode 'required'"], &s).is_none());
    }
}
