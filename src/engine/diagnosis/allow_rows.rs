//! The row about a `--call` refused because an allow-list of the entry lacks what it sent: the
//! call failed, its error (or the server's error line) refuses (`not allowed`, `not
//! permitted`, `denied`, ...) a word the call's own arguments hold, and a variable of the entry
//! holds a list (`ls,cat`: two items or more, split by commas) without it. mcp-shell-server:
//! `Command not allowed: pwd` under `ALLOW_COMMANDS=ls,cat` for `{"command": ["pwd"]}`. The
//! fix is that variable, with the word added.

use serde_json::Value;

use super::call_rows::{answered, failed_call, FailedCall};
use super::given::entry_env;
use super::model::{cut, Diagnosis, Evidence, Setting, Source};
use super::structured::{stderr_lines, Key};
use super::table::{Confidence, Id};
use super::text::has_word;
use super::words::terms;
use crate::engine::probe::Launch;
use crate::engine::redact::{Redactor, MASK};

/// The string values of a call's arguments, a list's items each, redacted (at most 32).
pub(crate) fn call_words(arguments: &Value, redactor: &Redactor) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(arguments, &mut out);
    out.truncate(32);
    out.iter().map(|w| redactor.redact(w)).collect()
}

/// Words that refuse.
const REFUSALS: &[&str] = &[
    "not allowed",
    "not permitted",
    "disallowed",
    "denied",
    "forbidden",
    "blocked",
    "not in the allow",
    "not whitelisted",
    "not allowlisted",
];

/// The items of a list value (`ls,cat`, `ls, cat`): two or more, each a word.
fn items(v: &str) -> Option<Vec<&str>> {
    if v.contains(MASK) || !v.contains(',') {
        return None;
    }
    let items: Vec<&str> = v
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    let word = |i: &&str| {
        i.len() <= 64
            && i.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '*'))
    };
    (items.len() >= 2 && items.iter().all(word)).then_some(items)
}

/// How many parts of a variable's name the refusal speaks of (`ALLOW_COMMANDS`: `allow`,
/// `command` in `Command not allowed`).
fn named_parts(var: &str, text: &str) -> usize {
    let low = text.to_ascii_lowercase();
    var.split('_')
        .map(|p| p.to_ascii_lowercase())
        .filter(|p| p.len() >= 3)
        .filter(|p| {
            let stem = p.trim_end_matches('s');
            stem.len() >= 3 && low.contains(stem)
        })
        .count()
}

/// The row: a failed call whose refusal names a word it sent that an entry list lacks.
pub(crate) fn call_word_not_listed(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    if s.call_words.is_empty() {
        return None;
    }
    let FailedCall {
        launch: l,
        message,
        unmarked,
    } = failed_call(launches)?;
    let lines = stderr_lines(l);
    let refusing = |t: &str| {
        let low = t.to_ascii_lowercase();
        REFUSALS.iter().any(|r| low.contains(r))
    };
    let said = std::iter::once(message.as_str())
        .chain(message.lines())
        .chain(lines.iter().copied())
        .find(|t| {
            t.len() <= 512
                && refusing(t)
                && s.call_words
                    .iter()
                    .any(|w| w.len() >= 2 && has_word(t, w, &['.']))
        })?;
    let word = s
        .call_words
        .iter()
        .find(|w| w.len() >= 2 && !w.contains(MASK) && has_word(said, w, &['.']))?;
    let lists: Vec<(&String, &String)> = entry_env(s)
        .filter_map(|(k, v)| {
            let it = items(v)?;
            (!it.contains(&word.as_str())).then_some((k, v))
        })
        .collect();
    let (var, value) = match lists.as_slice() {
        [one] => *one,
        _ => *lists
            .iter()
            .max_by_key(|(k, _)| named_parts(k, said))
            .filter(|(k, _)| named_parts(k, said) > 0)?,
    };
    let env = terms("the entry's `env`", s);
    let quoted = cut(said.trim());
    let mut evidence = vec![answered(l, unmarked, &message)];
    if quoted != cut(message.trim()) {
        evidence.push(Evidence {
            launches: vec![l.number],
            source: Source::Stderr,
            text: quoted.clone(),
        });
    }
    evidence.push(Evidence {
        launches: Vec::new(),
        source: Source::Environment,
        text: format!("the server's environment gives {var}={value}, without `{word}`"),
    });
    let d = Diagnosis {
        id: Id::BadArgument,
        confidence: Confidence::High,
        summary: format!(
            "the tool call sent `{word}`, which the server refuses: `{var}={value}` does not list it"
        ),
        launches: vec![l.number],
        evidence,
        next_step: format!(
            "add `{word}` to `{var}` in {env} (`{var}={value},{word}`), if the server may run it: the server says \"{quoted}\""
        ),
    };
    Some((Key::CallRefusesAWordAnEntryListLacks, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_value_is_two_words_or_more_split_by_commas() {
        assert_eq!(items("ls,cat"), Some(vec!["ls", "cat"]));
        assert_eq!(items("ls, cat, git"), Some(vec!["ls", "cat", "git"]));
        assert_eq!(items("ls"), None);
        assert_eq!(items("a b,c d"), None);
        assert_eq!(items("postgres://u@h/db?x=1,2"), None);
        assert_eq!(named_parts("ALLOW_COMMANDS", "Command not allowed: pwd"), 2);
        assert_eq!(named_parts("LOG_LEVELS", "Command not allowed: pwd"), 0);
    }

    #[test]
    fn the_words_of_a_call_are_its_string_values() {
        let v: Value = serde_json::json!({"command": ["pwd", "-L"], "directory": "/tmp", "n": 3});
        let r = Redactor::default();
        let mut w = call_words(&v, &r);
        w.sort();
        assert_eq!(w, ["-L", "/tmp", "pwd"]);
    }
}
