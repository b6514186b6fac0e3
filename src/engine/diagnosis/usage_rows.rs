//! An error line beside a usage text, tied to the entry by what its paragraph names: Go
//! cobra prints `Error: ...` (often with a hint under it) and then `Usage:` and its flags;
//! urfave/cli prints its usage and then `Incorrect Usage: ...` or `Error: ...`; clap prints
//! `error: ...` and then `Usage: ...`; a hand-written check prints `Error: ...` and its own
//! usage. The error's paragraph (the error line and the unindented lines under it, up to the
//! usage or a blank line) names a flag the usage lists (literally, `--kubeconfig`, or in its
//! words: `No access token` for `--access-token`), or a variable (`SENTRY_ACCESS_TOKEN`):
//! the entry's args lack the flag, or its env sets a variable of the same name, or lacks it.

use super::cli_parsers;
use super::entry_rows::names_flag;
use super::evidence::Fact;
use super::given::{entry_env, is_set};
use super::model::{cut, upper_snake, Found, Setting, Source};
use super::table::Id;
use super::words::terms;
use crate::engine::probe::read::help;

/// The most lines of an error's paragraph read (the error line and its hints).
const PARAGRAPH: usize = 4;

/// The error line's paragraph in `lines`: it and the unindented lines after it, up to a blank
/// line or a usage text's start.
fn paragraph<'a>(lines: &[&'a str], error: &str) -> Vec<&'a str> {
    let Some(at) = lines.iter().position(|l| l.trim() == error) else {
        return Vec::new();
    };
    let mut out = vec![lines[at]];
    out.extend(
        lines[at + 1..]
            .iter()
            .take_while(|l| {
                !l.trim().is_empty() && !l.starts_with([' ', '\t']) && !help::starts_usage(l)
            })
            .take(PARAGRAPH - 1)
            .copied(),
    );
    out
}

/// Whether `text` names the flag `flag` (`--kubeconfig`): literally, in its words (two or more:
/// `access token`), or, a name of one word of at least six letters, that word whole.
fn names(text: &str, flag: &str) -> bool {
    let name = flag.trim_start_matches('-');
    if names_flag(text, name) {
        return true;
    }
    name.len() >= 8
        && !name.contains(['-', '_'])
        && text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case(name))
}

/// The variable shaped words of `text` (`SENTRY_ACCESS_TOKEN`), in order, once each.
fn variables(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if w.len() >= 5 && upper_snake(w) && !w.starts_with("ERR_") && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The flags a paragraph names: those its usage lists (`offered`), and those it writes out
/// (`--streamableHttp`, past the tail's cut of the usage), each once.
fn named_flags(text: &str, offered: &[String]) -> Vec<String> {
    let mut out: Vec<String> = offered
        .iter()
        .filter(|f| f.starts_with("--") && f.len() > 4 && names(text, f))
        .cloned()
        .collect();
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        let w = w.trim_end_matches('-');
        let ok = w.len() > 4
            && w.starts_with("--")
            && !["--help", "--version"].contains(&w)
            && w[2..].starts_with(|c: char| c.is_ascii_alphabetic());
        if ok && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// The row: a usage text with an error line whose paragraph names a flag its usage lists or a
/// variable, tied to the entry's args and env.
pub(super) fn row(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let Some(Fact::Usage {
        error: Some(error), ..
    }) = facts
        .iter()
        .find(|f| matches!(f, Fact::Usage { error: Some(_), .. }))
    else {
        return None;
    };
    let para = paragraph(lines, error);
    let first = para.first()?;
    let text = para.join(" ");
    let parts = help::parts(lines);
    let flags = named_flags(&text, &cli_parsers::offered_flags(lines, &parts));
    // A flag the entry passes is another row's (the error names a flag given).
    let given = |f: &str| {
        s.args
            .iter()
            .any(|a| a == f || a.starts_with(&format!("{f}=")))
    };
    if flags.iter().any(|f| given(f)) {
        return None;
    }
    let words = variables(&text);
    // A variable the entry sets that the error names, by its name or as the flag's name
    // (`KUBECONFIG` beside `--kubeconfig`).
    let set_var = entry_env(s).map(|(k, _)| k.as_str()).find(|k| {
        words.contains(k)
            || flags
                .iter()
                .any(|f| cli_parsers::flag_key(f) == k.to_ascii_lowercase().replace('_', ""))
    });
    let unset: Vec<&str> = words.into_iter().filter(|w| !is_set(s, w)).collect();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let (id, summary, next) = said(set_var, &flags, &unset, &cut(first.trim()))?;
    let mut evidence = vec![(Source::Stderr, cut(first.trim()))];
    if !flags.is_empty() {
        evidence.push((Source::Stderr, format!("its usage lists {}", shown(&flags))));
    }
    Some(Found {
        id,
        summary,
        next: terms(&next, s),
        evidence,
    })
}

/// Names in backquotes, joined by `or`.
fn shown(xs: &[&str]) -> String {
    xs.iter()
        .map(|x| format!("`{x}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The answer: a variable the entry sets that the error names (`bad-argument`), else the flags
/// the args lack (`missing-argument`, with the variables it names to set instead), else the
/// variables alone (`missing-env-var`).
fn said(
    set_var: Option<&str>,
    flags: &[&str],
    unset: &[&str],
    quoted: &str,
) -> Option<(Id, String, String)> {
    if let Some(var) = set_var {
        let or_flag = if flags.is_empty() {
            String::new()
        } else {
            format!(" (or pass {} in the entry's args)", shown(flags))
        };
        return Some((
            Id::BadArgument,
            format!(
                "the server's error names `{var}`, which the entry sets, and it printed its usage"
            ),
            format!("fix `{var}` in the entry's `env`{or_flag}: the server says \"{quoted}\""),
        ));
    }
    if !flags.is_empty() {
        let or_var = if unset.is_empty() {
            String::new()
        } else {
            format!(", or set {} in the entry's `env`", shown(unset))
        };
        return Some((
            Id::MissingArgument,
            format!(
                "the server's error names {}, which the entry's args lack, and it printed its usage",
                shown(flags)
            ),
            format!(
                "pass {} in the entry's args{or_var}: the server says \"{quoted}\"",
                shown(flags)
            ),
        ));
    }
    (!unset.is_empty()).then(|| {
        (
            Id::MissingEnvVar,
            format!(
                "the server's error names {}, which the entry does not set, and it printed its usage",
                shown(unset)
            ),
            format!(
                "set {} in the entry's `env`: the server says \"{quoted}\"",
                shown(unset)
            ),
        )
    })
}

/// A usage text with the error line under or above it: the args to change as it says.
pub(super) fn usage(facts: &[Fact]) -> Option<Found> {
    let Some(Fact::Usage {
        usage,
        error: Some(error),
    }) = facts
        .iter()
        .find(|f| matches!(f, Fact::Usage { error: Some(_), .. }))
    else {
        return None;
    };
    Some(Found {
        id: Id::MissingArgument,
        summary: "it printed its usage and an error about its arguments".to_string(),
        next: format!(
            "change the entry's args as the error says: \"{}\"",
            cut(error)
        ),
        evidence: vec![(Source::Stderr, cut(error)), (Source::Stderr, cut(usage))],
    })
}

#[cfg(test)]
#[path = "usage_rows_tests.rs"]
mod tests;
