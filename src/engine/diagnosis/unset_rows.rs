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

/// The head of the last report of an uncaught Node error: the first line after its `^` (under
/// the source line, under its `file:line`), with the lines of its message that follow a head
/// ending in `:` (dotenv-safe's `... are not present in the environment:` and its list): the
/// indented ones under it.
fn report_head(lines: &[&str]) -> Option<String> {
    let caret = (2..lines.len()).rev().find(|&i| {
        lines[i].trim() == "^"
            && lines[i - 2]
                .rsplit_once(':')
                .is_some_and(|(f, n)| !f.contains(' ') && n.bytes().all(|b| b.is_ascii_digit()))
    })?;
    let mut rest = lines[caret + 1..]
        .iter()
        .skip_while(|l| l.trim().is_empty());
    let head = rest.next()?.trim_end();
    let mut out = head.to_string();
    if head.ends_with(':') {
        // Its list: the indented lines under it (not the prose after them, nor a frame).
        let listed = |l: &&&str| {
            l.starts_with([' ', '\t']) && !l.trim().is_empty() && !l.trim_start().starts_with("at ")
        };
        for l in rest.take_while(listed) {
            out.push(' ');
            out.push_str(l.trim());
        }
    }
    Some(out)
}

/// The last words of a launch that died (its last line that is no frame) and the error codes
/// its report's property block gives (`code: 'SQLITE_CANTOPEN'`: no variable, however shaped).
/// An indented last line is part of a block (a help text's option, a stack), not the server's
/// last words; nor is the closing brace of the property block Node prints under an uncaught
/// error's stack: that error's head is (with the lines a head ending in `:` lists).
fn last_words<'a>(lines: &[&'a str]) -> Option<(String, Vec<&'a str>)> {
    let last = lines.iter().rev().find(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with("at ") && !t.starts_with("Node.js v")
    })?;
    let last = if last.starts_with([' ', '\t']) || matches!(last.trim(), "}" | "]") {
        report_head(lines)?
    } else {
        last.to_string()
    };
    let codes = lines
        .iter()
        .filter_map(|l| l.trim().strip_prefix("code: '")?.split('\'').next())
        .collect();
    Some((last.trim().to_string(), codes))
}

/// The last line of a launch that died naming variables or flags the entry does not set.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (last, codes) = last_words(lines)?;
    let last = last.as_str();
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
        if variable_shaped(w) && !codes.contains(w) {
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
