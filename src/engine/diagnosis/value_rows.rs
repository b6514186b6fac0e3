//! The structured row about a value the server rejects that it knows in another case (see
//! [`super::structured`]): an error line quoting one of the entry's values (`ValueError: Level
//! 'debug' does not exist`, loguru under `FASTMCP_LOG_LEVEL=debug`; Python logging's `Unknown
//! level: 'debug'`; pino's `unknown level DEBUG`), where the message, or the lines under it,
//! list that value in another case (`must be one of DEBUG, INFO`), or the value is a log level
//! name (`TRACE` ... `CRITICAL`), which such libraries know in one case only.

use super::cli_parsers;
use super::evidence::Fact;
use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// Log level names, as loggers spell them (Python's logging and loguru upper case; pino,
/// winston, zap and slog's text lower case).
const LOG_LEVELS: &[&str] = &[
    "TRACE", "DEBUG", "INFO", "NOTICE", "SUCCESS", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL",
    "NOTSET",
];

/// Words of a line that refuses a value.
const COMPLAINTS: &[&str] = &[
    "rror",
    "nvalid",
    "nknown",
    "does not exist",
    "doesn't exist",
    "not a valid",
    "not one of",
    "not supported",
    "nsupported",
    "must be",
    "xpected",
    "not allowed",
    "nrecognized",
    "not recognized",
];

/// How many lines under the error line may list the choices.
const CHOICE_LINES: usize = 3;

/// Whether `line` refuses `value`: quoted (`'debug'`, `"debug"`, `` `debug` ``), or the line's
/// last word (`unknown level DEBUG`), or before a colon (`debug: unknown level`).
fn refuses(line: &str, value: &str) -> bool {
    if ['\'', '"', '`']
        .iter()
        .any(|q| line.contains(&format!("{q}{value}{q}")))
    {
        return true;
    }
    let last = line
        .trim_end()
        .trim_end_matches(['.', '!'])
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default();
    if last == value {
        return true;
    }
    line.split_whitespace()
        .any(|w| w.strip_suffix(':') == Some(value))
}

/// The case variant of `value` the server knows: among the choices the lines list (a list
/// without one: none), else a log level name's other case. With where it was found.
fn variant(value: &str, listing: &[&str]) -> Option<(String, &'static str)> {
    // A parser's list, else a list in words (`Expected 'debug' | 'info', received 'trace'`).
    let choices: Vec<String> = listing
        .iter()
        .flat_map(|l| {
            let parsed = super::cli_parsers::choice_list(l);
            if parsed.is_empty() {
                super::listed::choice_in(l).map(|c| c.2).unwrap_or_default()
            } else {
                parsed
            }
        })
        .collect();
    if !choices.is_empty() {
        return choices
            .into_iter()
            .find(|c| c != value && c.eq_ignore_ascii_case(value))
            .map(|c| (c, "its message lists"));
    }
    let upper = value.to_ascii_uppercase();
    if !LOG_LEVELS.contains(&upper.as_str()) {
        return None;
    }
    // Rejected in upper case: the logger spells it in lower case; otherwise in upper.
    let to = if value == upper {
        value.to_ascii_lowercase()
    } else {
        upper
    };
    Some((to, "a log level's name, which loggers know in one case"))
}

/// `bad-argument` for a choice structure (argument, given, choices): the entry's value that
/// holds the given word, and its choices (`stdio` first; the given word in another case).
pub(super) fn choice(facts: &[Fact], s: &Setting) -> Option<Found> {
    let Some(Fact::Choice {
        argument,
        given,
        line,
    }) = facts.iter().find(|f| matches!(f, Fact::Choice { .. }))
    else {
        return None;
    };
    // The value itself first (`-t http`), then one holding it (a URL with `http` in it): a
    // short word (`ts`) only as a whole token of it, never inside another word.
    let values = entry_values(s);
    let token = |v: &str| {
        v.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .any(|w| w == given)
    };
    let held = values
        .iter()
        .find(|(_, v)| v == given)
        .or_else(|| {
            values
                .iter()
                .find(|(_, v)| (given.len() >= 4 && v.contains(given.as_str())) || token(v))
        })
        .map(|(shown, _)| shown.clone());
    // A message that names no argument (`must be 'a' or 'b'`) is about the entry only when it
    // quotes one of its values.
    if held.is_none() && argument.is_none() {
        return None;
    }
    let what = match (&held, argument) {
        (Some(h), _) => h.clone(),
        (None, Some(a)) => format!("`{a}`"),
        (None, None) => format!("`{given}`"),
    };
    let mut choices = cli_parsers::choice_list(line);
    if choices.is_empty() {
        // A named list (`Available presets: a, b, c`): `listed.rs`.
        choices = super::listed::choice_in(line)
            .map(|(_, _, items)| items)
            .unwrap_or_default();
    }
    // The closest choices first (a stable sort: the others keep the server's order).
    choices.sort_by_key(|c| closeness(given, c));
    // Where the value is: a variable of the entry's `env` (`X=v`) or its args.
    let place = match &held {
        Some(h) if h.contains('=') && !h.starts_with("`-") && !h.starts_with("the argument") => {
            terms("the entry's `env`", s)
        }
        _ => terms("the entry's args", s),
    };
    // A stdio host starts the server to talk over its stdin and stdout: its `stdio` choice.
    let to = choices.iter().find(|c| c.as_str() == "stdio");
    let listed = choices
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let next = match (to, &held) {
        (Some(to), Some(h)) => {
            let changed = h.replacen(given.as_str(), to, 1);
            format!(
                "change {h} to {changed} in the entry's args: a host that starts the server talks to it over stdio (its choices: {listed})"
            )
        }
        (Some(to), None) => format!(
            "set {what} to `{to}` in the entry's args: a host that starts the server talks to it over stdio (its choices: {listed})"
        ),
        (None, _) if !choices.is_empty() => {
            // The same word in another case: that one.
            match choices.iter().find(|c| c.eq_ignore_ascii_case(given)) {
                Some(c) => format!(
                    "use `{c}`: change {what} in {place} to `{c}` (its choices: {listed})"
                ),
                // A choice misspelt or cut short (`kube` for `kubeconfig`): the closest.
                None => match cli_parsers::close_word(given, &choices) {
                    Some(c) => format!(
                        "change {what} in {place} to `{c}`, the closest of its choices ({listed})"
                    ),
                    None => format!(
                    "change {what} in {place} to one of its choices: {listed}"
                ),
                },
            }
        }
        (None, _) => format!(
            "change {what} in the entry to one of the choices it lists: \"{}\"",
            cut(line)
        ),
    };
    Some(Found {
        id: Id::BadArgument,
        summary: format!("`{given}` is not one of the server's choices for {what}"),
        next: super::words::terms(&next, s),
        evidence: vec![(Source::Stderr, cut(line))],
    })
}

/// How close a choice is to the value given (smaller is closer): the same word in another
/// case, one that begins with it or that it begins, one it abbreviates (its first letter, then
/// its letters in order: `ts` for `typescript`), then the others in the server's order.
fn closeness(given: &str, choice: &str) -> u8 {
    let (g, c) = (given.to_ascii_lowercase(), choice.to_ascii_lowercase());
    let mut rest = c.chars();
    let abbreviates =
        g.chars().next() == c.chars().next() && g.chars().all(|x| rest.any(|y| y == x));
    if g == c {
        0
    } else if c.starts_with(&g) || g.starts_with(&c) {
        1
    } else if abbreviates {
        2
    } else {
        3
    }
}

/// `bad-argument` for a value the server knows in another case.
pub(super) fn case_variant(lines: &[&str], s: &Setting) -> Option<Found> {
    let values: Vec<(String, String)> = entry_values(s)
        .into_iter()
        .filter(|(_, v)| {
            v.len() >= 2
                && v.chars().any(|c| c.is_ascii_alphabetic())
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
        .collect();
    if values.is_empty() {
        return None;
    }
    // The last line that refuses one of them (the error the server died of).
    for (i, line) in lines.iter().enumerate().rev() {
        let line = line.trim();
        if !COMPLAINTS.iter().any(|c| line.contains(c)) {
            continue;
        }
        let Some((shown, value)) = values.iter().find(|(_, v)| refuses(line, v)) else {
            continue;
        };
        let listing = &lines[i..(i + 1 + CHOICE_LINES).min(lines.len())];
        let (to, seen) = variant(value, listing)?;
        let at = shown.rfind(value.as_str())?;
        let changed = format!("{}{to}{}", &shown[..at], &shown[at + value.len()..]);
        let place = if shown.contains('=') && !shown.starts_with("`-") {
            terms("the entry's `env`", s)
        } else {
            terms("the entry's args", s)
        };
        return Some(Found {
            id: Id::BadArgument,
            summary: format!(
                "the server rejects `{value}` ({shown}): it knows `{to}`, the same word in another case"
            ),
            next: format!("use `{to}`: change {shown} to {changed} in {place}"),
            evidence: vec![
                (Source::Stderr, cut(line)),
                (
                    Source::Spawn,
                    format!("`{to}`: {seen}; {shown} gives `{value}`"),
                ),
            ],
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_value_and_its_case_variant_are_read() {
        // loguru 0.7's `Level 'debug' does not exist`; Python logging's `Unknown level:
        // 'debug'`; pino 9's `unknown level DEBUG`.
        assert!(refuses("ValueError: Level 'debug' does not exist", "debug"));
        assert!(refuses("ValueError: Unknown level: 'debug'", "debug"));
        assert!(refuses("Error: unknown level DEBUG", "DEBUG"));
        // Prose that only holds the word is no refusal.
        assert!(!refuses(
            "Error: could not connect, debug output follows",
            "debug"
        ));
        assert_eq!(
            variant("debug", &["ValueError: Level 'debug' does not exist"]),
            Some((
                "DEBUG".to_string(),
                "a log level's name, which loggers know in one case"
            ))
        );
        assert_eq!(
            variant("DEBUG", &["unknown level DEBUG"]).map(|x| x.0),
            Some("debug".into())
        );
        // A list in the message wins: its own spelling.
        assert_eq!(
            variant("Stdio", &["'Stdio' is invalid; must be one of: stdio, sse"]).map(|x| x.0),
            Some("stdio".into())
        );
        // No variant: a word no list and no logger knows; a list without one.
        assert_eq!(
            variant("verbose", &["Level 'verbose' does not exist"]),
            None
        );
        assert_eq!(
            variant(
                "DEBUG",
                &["'DEBUG' is not allowed; must be one of: INFO, WARNING"]
            ),
            None
        );
    }
}
