//! The row about last words saying a thing was not found, while the entry sets a variable whose
//! name holds a word of that line to a path where nothing exists (an experiment: the path
//! looked up, before a secret's value is masked): @modelcontextprotocol/server-gdrive given
//! `GDRIVE_CREDENTIALS_PATH` at a missing file says "Credentials not found. Please run with
//! 'auth' argument first." and exits, 2.7 s after its start (a `timer` by its times alone). The
//! line names no path; the variable's words (`credentials`) and the lookup tie it to the entry.

use super::given::entry_env;
use super::model::{absent_path, cut, Found, Setting, Source};
use super::table::Id;
use crate::engine::redact::{is_secret_name, MASK};

/// How a line says a thing is not there (lower-cased).
const ABSENT: &[&str] = &[
    "not found",
    "does not exist",
    "doesn't exist",
    "no such file",
    "cannot find",
    "can't find",
    "could not find",
    "could not be found",
    "is missing",
];

/// The words of a variable's name that say what it holds, not how (`PATH`, `FILE`, `DIR`):
/// lower-cased, a plural's `s` dropped, four letters or more.
fn name_words(name: &str) -> Vec<String> {
    const HOW: &[&str] = &["path", "file", "dir", "folder", "location", "home"];
    name.split('_')
        .map(|w| singular(&w.to_ascii_lowercase()))
        .filter(|w| w.len() >= 4 && !HOW.contains(&w.as_str()))
        .collect()
}

fn singular(w: &str) -> String {
    match w.strip_suffix('s') {
        Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem.to_string(),
        _ => w.to_string(),
    }
}

/// The last words that say a thing is not there: the last three lines written, not a stack's.
fn absent_line<'a>(lines: &[&'a str]) -> Option<&'a str> {
    lines
        .iter()
        .rev()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with("at ") && !l.starts_with("File \""))
        .take(3)
        .find(|l| {
            let low = l.to_ascii_lowercase();
            ABSENT.iter().any(|m| low.contains(m))
        })
}

/// The row (`Key::LastWordsNotFoundAndEntryPathAbsent`).
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    // A bare command inherits the caller's whole environment (`XDG_CONFIG_HOME` at a folder
    // not made yet, terraform's `TF_CLI_CONFIG_FILE`): of it, only a variable the server's
    // installed source reads (an experiment), never one every shell or host has.
    let bare = s.given_env.is_none();
    let read = |k: &str| super::env_rows::scanned(s).is_some_and(|x| x.read(k).is_some());
    let line = absent_line(lines)?;
    let said: Vec<String> = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| singular(&w.to_ascii_lowercase()))
        .collect();
    let home = entry_env(s)
        .find(|(k, _)| k == "HOME")
        .map(|(_, h)| h.clone())
        .or_else(|| std::env::var("HOME").ok());
    let (k, shown, path) = entry_env(s).find_map(|(k, v)| {
        if !name_words(k).iter().any(|w| said.contains(w))
            || (bare && (super::model::is_standard_env(k) || !read(k)))
        {
            return None;
        }
        if v.contains(MASK) || is_secret_name(k) {
            return s
                .absent_env_paths
                .contains(k)
                .then(|| (k, format!("`{k}` (its value masked)"), None));
        }
        let p = absent_path(v, home.as_deref(), s.cwd.as_deref())?;
        Some((k, format!("`{k}={v}`"), Some(p)))
    })?;
    let quoted = cut(line);
    let (at, tried) = match &path {
        Some(p) => (
            format!("{shown} names {}, where nothing is", p.display()),
            format!("looked up {}: nothing there", p.display()),
        ),
        None => (
            format!("{shown} names a path where nothing is"),
            format!("looked up the path `{k}` gives: nothing there"),
        ),
    };
    let env = super::words::terms("the entry's `env`", s);
    Some(Found {
        id: Id::MissingFile,
        summary: format!(
            "the server says \"{quoted}\", and {env} sets `{k}` to a path where nothing exists"
        ),
        next: format!("point `{k}` at a file that exists: {at}, and the server says \"{quoted}\""),
        evidence: vec![(Source::Stderr, quoted), (Source::Tried, tried)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_and_the_variable_share_a_word_of_what_it_holds() {
        assert_eq!(
            name_words("GDRIVE_CREDENTIALS_PATH"),
            ["gdrive", "credential"]
        );
        assert_eq!(name_words("APP_CONFIG_FILE"), ["config"]);
        let lines = ["Credentials not found. Please run with 'auth' argument first."];
        assert_eq!(absent_line(&lines), Some(lines[0]));
        // A line that finds what it looks for is no absence.
        assert_eq!(absent_line(&["Credentials loaded. Starting server."]), None);
    }
}
