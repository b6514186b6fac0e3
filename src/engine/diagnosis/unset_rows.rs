//! The structured row about the last words of a launch that died naming variables
//! (`UPPER_SNAKE` identifiers) or flags the entry does not set (see [`super::structured`]:
//! `Key::NamesUnsetVariables`).

use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// An identifier shaped like a variable: `UPPER_SNAKE`, at least two parts, not an error code
/// (`ERR_*`).
fn variable_shaped(w: &str) -> bool {
    w.len() >= 5 && super::model::upper_snake(w)
}

/// The last line of a launch that died naming variables or flags the entry does not set.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let last = lines.iter().rev().find(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with("at ") && !t.starts_with("Node.js v")
    })?;
    // An indented last line is part of a block (a help text's option, a stack), not the
    // server's last words.
    if last.starts_with([' ', '\t']) {
        return None;
    }
    let last = last.trim();
    let words: Vec<&str> = last
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '\'' | '"' | '`' | ';'))
        .map(|w| w.trim_end_matches(['.', ':', '!', '?']))
        .collect();
    let mut vars: Vec<&str> = Vec::new();
    let mut flags: Vec<&str> = Vec::new();
    // The conjunction between the names: "A or B" asks for one of them.
    let one_of = words.contains(&"or") || words.contains(&"either") || words.contains(&"Either");
    for w in &words {
        // `NAME=value` shows a value to set to change a behaviour, not one that is missing.
        if w.contains('=') {
            continue;
        }
        if variable_shaped(w) {
            // One of "A or B" set is enough; of "A and B", the others are still wanted.
            if s.env_values.iter().any(|(k, _)| k == w) {
                if one_of {
                    return None;
                }
                continue;
            }
            if !vars.contains(w) {
                vars.push(w);
            }
        } else if w.len() > 3
            && w.starts_with("--")
            && w[2..]
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            if s.args
                .iter()
                .any(|a| a == w || a.starts_with(&format!("{w}=")))
            {
                return None;
            }
            if !flags.contains(w) {
                flags.push(w);
            }
        }
    }
    if vars.is_empty() && flags.is_empty() {
        return None;
    }
    let join = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!("`{x}`"))
            .collect::<Vec<_>>()
            .join(if one_of { " or " } else { " and " })
    };
    let quoted = cut(last);
    let env = super::words::terms("the entry's `env`", s);
    let (id, summary, next) = if vars.is_empty() {
        (
            Id::MissingArgument,
            format!(
                "the server asks for {} and the entry does not pass it",
                join(&flags)
            ),
            format!(
                "pass {}{} in {} (the server says: \"{quoted}\")",
                if one_of && flags.len() > 1 {
                    "one of "
                } else {
                    ""
                },
                join(&flags),
                super::words::terms("the entry's args", s)
            ),
        )
    } else {
        let also = if flags.is_empty() {
            String::new()
        } else {
            format!(", or pass {}", join(&flags))
        };
        (
            Id::MissingEnvVar,
            format!(
                "the server asks for {} and {env} has {}",
                join(&vars),
                if vars.len() > 1 {
                    "none of them"
                } else {
                    "no such variable"
                }
            ),
            format!(
                "set {}{} in {env}{also} (the server says: \"{quoted}\")",
                if one_of && vars.len() > 1 {
                    "one of "
                } else {
                    ""
                },
                join(&vars)
            ),
        )
    };
    Some(Found {
        id,
        summary,
        next,
        evidence: vec![(Source::Stderr, quoted)],
    })
}
