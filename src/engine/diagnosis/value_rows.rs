//! The structured row about a value the server rejects that it knows in another case (see
//! [`super::structured`]): an error line quoting one of the entry's values (`ValueError: Level
//! 'debug' does not exist`, loguru under `FASTMCP_LOG_LEVEL=debug`; Python logging's `Unknown
//! level: 'debug'`; pino's `unknown level DEBUG`), where the message, or the lines under it,
//! list that value in another case (`must be one of DEBUG, INFO`), or the value is a log level
//! name (`TRACE` ... `CRITICAL`), which such libraries know in one case only.

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
    let choices: Vec<String> = listing
        .iter()
        .flat_map(|l| super::cli_parsers::choice_list(l))
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
