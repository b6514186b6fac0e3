//! The structured row about a folder given where the server reads a file (see
//! [`super::structured`]: `Key::FolderGivenForAFile`): Node's `EISDIR` (`EISDIR: illegal
//! operation on a directory, read`, which names no path when `readFileSync` is handed a folder)
//! or Python's `IsADirectoryError` (errno 21), tied by an experiment to the entry's value that
//! is a folder on disk (looked at from the folder the server starts in): the one the error
//! quotes, else the one value that is a folder whose name does not say folder (`*_DIR`,
//! `*_ROOT`, `--workspace`...: a folder is what those want).

use std::path::{Path, PathBuf};

use super::evidence::Fact;
use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// Words of a name that say it holds a folder.
const FOLDER_WORDS: &[&str] = &[
    "DIR",
    "DIRS",
    "DIRECTORY",
    "FOLDER",
    "ROOT",
    "HOME",
    "PWD",
    "WORKSPACE",
    "CACHE",
    "TMPDIR",
];

/// Whether the error is a folder read as a file, and the path it quotes, if any.
fn folder_read(facts: &[Fact]) -> Option<(&Fact, Option<String>)> {
    facts.iter().rev().find_map(|f| match f {
        Fact::Node { code, message, .. }
            if code.as_deref() == Some("EISDIR") || message.starts_with("EISDIR:") =>
        {
            Some((f, quoted_path(message)))
        }
        Fact::Python { kind, message, .. } if kind == "IsADirectoryError" => {
            Some((f, quoted_path(message)))
        }
        _ => None,
    })
}

/// The last `'...'` of a message, when it is a path.
fn quoted_path(message: &str) -> Option<String> {
    let end = message.rfind('\'')?;
    let start = message[..end].rfind('\'')?;
    let p = &message[start + 1..end];
    (p.starts_with('/') || p.starts_with('.') || p.starts_with('~')).then(|| p.to_string())
}

/// Whether `shown` (`` `NAME=value` `` or `` `--flag value` ``) names a folder in its words.
fn says_folder(shown: &str) -> bool {
    let name = shown
        .trim_matches('`')
        .split(['=', ' '])
        .next()
        .unwrap_or_default()
        .trim_start_matches('-')
        .to_ascii_uppercase();
    name.split(['_', '-']).any(|w| FOLDER_WORDS.contains(&w))
}

fn resolved(v: &str, cwd: Option<&Path>) -> PathBuf {
    let p = Path::new(v);
    match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    }
}

/// The name of an entry value as shown (`` `NAME=value` `` -> `NAME`, `` `--flag v` `` ->
/// `--flag`; an argument: its value).
fn name_of(shown: &str) -> String {
    let inner = shown.split('`').nth(1).unwrap_or(shown);
    inner.split(['=', ' ']).next().unwrap_or(inner).to_string()
}

pub(super) fn row(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let (f, path) = folder_read(facts)?;
    let cwd = s.cwd.as_deref();
    let folders: Vec<(String, String)> = entry_values(s)
        .into_iter()
        .filter(|(_, v)| {
            (v.starts_with('/') || v.starts_with("./") || v.starts_with("../"))
                && resolved(v, cwd).is_dir()
        })
        .collect();
    let quoted: Vec<&(String, String)> = match &path {
        Some(p) => folders.iter().filter(|(_, v)| v == p).collect(),
        None => Vec::new(),
    };
    // The raising frame's source line names the one it read (`readFileSync(process.env.X)`).
    let source = super::frame_rows::frame_source(lines).map(|(_, _, src)| src);
    let read: Vec<&(String, String)> = folders
        .iter()
        .filter(|(k, _)| source.as_deref().is_some_and(|l| l.contains(&*name_of(k))))
        .collect();
    let pick: Vec<&(String, String)> = if !quoted.is_empty() {
        quoted
    } else if !read.is_empty() {
        read
    } else {
        folders.iter().filter(|(k, _)| !says_folder(k)).collect()
    };
    let [(shown, v)] = pick.as_slice() else {
        return None;
    };
    // `NAME=value` and `--flag value` are named by their name; an argument as it is shown.
    let name = match shown.starts_with('`') {
        true => format!("`{}`", name_of(shown)),
        false => shown.clone(),
    };
    let error = cut(&f.quoted());
    Some(Found {
        id: Id::BadArgument,
        summary: format!("{shown} is a folder, and the server reads a file there"),
        next: format!(
            "point {name} at the file the server reads, not a folder: the server says \"{error}\""
        ),
        evidence: vec![
            (Source::Stderr, error),
            (Source::Tried, format!("stat {v}: a folder")),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_says_folder_wants_one() {
        assert!(says_folder("`DATA_DIR=/srv`"));
        assert!(says_folder("`--workspace /srv`"));
        assert!(!says_folder("`CONFIG_PATH=/srv`"));
        assert!(!says_folder("`--config /srv`"));
    }

    #[test]
    fn the_path_a_message_quotes() {
        assert_eq!(
            quoted_path("[Errno 21] Is a directory: '/srv/conf'").as_deref(),
            Some("/srv/conf")
        );
        assert_eq!(
            quoted_path("EISDIR: illegal operation on a directory, read"),
            None
        );
    }
}
