//! The structured row about a relative path where the server wants an absolute one (see
//! [`super::structured`]): one of the entry's values is a relative path (no leading `/` or
//! `~`: `repos`, `./data`, `workspace/notes`), held by a variable or a flag whose name says
//! path (`*_DIR`, `*_PATH`, `--root`, ...) or written as one, and a line the server printed as
//! it died names that variable or flag (or quotes the value) with the word `absolute`
//! (zod's `GIT_BASE_DIR must be an absolute path`, pydantic's `Path must be absolute`, Go's
//! `--root: path "data" is not absolute`, Node's `path must be absolute`). An experiment: the
//! value, looked at from the folder the server starts in (`stat`), shown as `tried:`. (A line
//! printing the value resolved against that folder is the missing-file and bad-argument rows':
//! a path that is not there may be wrong, not only relative.) A host starts a server in a
//! folder of its own choosing, so a relative path means something else there: the fix is an
//! absolute path.

use std::path::PathBuf;

use super::given::{entry_env, entry_values};
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use crate::engine::redact::MASK;

/// The words of a variable's or flag's name that say it holds a path.
const PATH_WORDS: &[&str] = &[
    "DIR",
    "DIRS",
    "DIRECTORY",
    "PATH",
    "PATHS",
    "FOLDER",
    "ROOT",
    "ROOTS",
    "FILE",
    "HOME",
    "WORKSPACE",
    "BASE",
    "CWD",
];

/// Whether `v` is a relative path: not absolute (`/`, `~`, a Windows drive), no URL, no
/// option, no masked secret; written as a path (`./x`, `a/b`) or held in a place whose name
/// says path (`named`).
fn relative_path(v: &str, named: bool) -> bool {
    let v = v.trim();
    if v.is_empty()
        || v.starts_with(['/', '~', '-', '\\', '$', '%'])
        || v.contains("://")
        || v.contains(MASK)
        || v.contains(char::is_whitespace)
        || v.get(1..3).is_some_and(|d| d == ":\\" || d == ":/")
        || v.parse::<f64>().is_ok()
    {
        return false;
    }
    let shaped = v.starts_with("./") || v.starts_with("../") || v.contains('/');
    // A plain word in a place named for a path (`GIT_BASE_DIR=repos`), not a value such as
    // `true` or a host:port.
    let word = named
        && !v.contains(':')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && !matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "none" | "null"
        );
    shaped || word
}

/// The name a shown value is held in: `GIT_BASE_DIR` of `` `GIT_BASE_DIR=repos` ``, `--root`
/// of `` `--root data` `` or `` the argument `--root=data` ``; none for a positional value.
fn holder_name(shown: &str) -> Option<String> {
    let t = shown.trim_start_matches("the argument ").trim_matches('`');
    if let Some(flag) = t.strip_prefix("--") {
        let name = flag.split(['=', ' ']).next().unwrap_or_default();
        return (name.len() >= 2 && (t.contains('=') || t.contains(' ')))
            .then(|| format!("--{name}"));
    }
    if t.starts_with('-') {
        return None;
    }
    let (k, _) = t.split_once('=')?;
    (!k.is_empty() && !shown.starts_with("the argument ")).then(|| k.to_string())
}

/// Whether a name says it holds a path (one of its words is in [`PATH_WORDS`]).
fn path_named(name: &str) -> bool {
    name.trim_start_matches('-')
        .split(['_', '-'])
        .any(|p| PATH_WORDS.contains(&p.to_ascii_uppercase().as_str()))
}

/// Whether `word` stands in `line` as a whole name (not part of a longer identifier).
fn names_whole(line: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        before.is_none_or(|c| !ident(c)) && after.is_none_or(|c| !ident(c) && c != '=')
    })
}

/// Whether `line` judges a path not absolute: the word `absolute` or `relative` (any case) as
/// a word (`must be an absolute path`, `must not be relative`).
fn says_absolute(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.eq_ignore_ascii_case("absolute") || w.eq_ignore_ascii_case("relative"))
}

/// The folder the server started in: the entry's `cwd`, else the folder the probe ran from (a
/// host's own, for a host: not the user's project).
fn start_folder(s: &Setting) -> Option<PathBuf> {
    s.cwd.clone().or_else(|| std::env::current_dir().ok())
}

pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let folder = start_folder(s);
    for (shown, v) in entry_values(s) {
        let name = holder_name(&shown);
        let named = name.as_deref().is_some_and(path_named);
        if !relative_path(&v, named) {
            continue;
        }
        // A value only an env variable or a flag holds is tied by its name; a positional one
        // only by its value quoted.
        let by_name = name.as_deref().and_then(|n| {
            lines
                .iter()
                .find(|l| names_whole(l, n) && says_absolute(l))
                .copied()
        });
        let by_value = || {
            lines
                .iter()
                .find(|l| says_absolute(l) && quotes(l, &v))
                .copied()
        };
        let Some(line) = by_name.or_else(by_value) else {
            continue;
        };
        // A leaf of a printed error object (`'... must be an absolute path',`) without its quotes.
        let said = line
            .trim()
            .trim_end_matches(',')
            .trim_matches(|c| matches!(c, '\'' | '"' | '`'));
        let mut evidence = vec![(Source::Stderr, cut(said))];
        if let Some(f) = &folder {
            let there = f.join(&v);
            evidence.push((
                Source::Tried,
                format!(
                    "stat {v} from the folder the server starts in ({}): {}",
                    f.display(),
                    if there.exists() {
                        "it is there, but only from this folder"
                    } else {
                        "no such file or folder"
                    }
                ),
            ));
        }
        let what = match &name {
            Some(n) if entry_env(s).any(|(k, _)| k == n) => format!("`{n}={v}`"),
            _ => shown.clone(),
        };
        return Some(Found {
            id: Id::BadArgument,
            summary: format!("{what} is a relative path, and the server wants an absolute one"),
            next: super::words::terms(
                &format!(
                    "{what} is relative: give an absolute path (`/full/path/to/{}`): the host starts the server in a folder of its own, not yours (the server says: \"{}\")",
                    v.trim_start_matches("./"),
                    cut(said)
                ),
                s,
            ),
            evidence,
        });
    }
    None
}

/// Whether `line` quotes `v` (`'repos'`, `"repos"`, `` `repos` ``) or holds it as a whole
/// path (`repos` between spaces or after `: `).
fn quotes(line: &str, v: &str) -> bool {
    if v.len() < 2 {
        return false;
    }
    ['\'', '"', '`']
        .iter()
        .any(|q| line.contains(&format!("{q}{v}{q}")))
        || line
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
            .any(|w| w.trim_end_matches(['.', ':']) == v)
}

#[cfg(test)]
mod tests {
    use super::{holder_name, relative_path, says_absolute};

    #[test]
    fn a_relative_path_is_known_by_its_shape_or_its_place() {
        for (v, named) in [
            ("repos", true),
            ("./data", false),
            ("../notes", false),
            ("workspace/notes", false),
            ("data.db", true),
        ] {
            assert!(relative_path(v, named), "{v}");
        }
        for (v, named) in [
            ("/srv/repos", true),
            ("~/repos", true),
            ("repos", false),
            ("http://x/y", true),
            ("127.0.0.1:8888", true),
            ("true", true),
            ("8080", true),
            ("C:\\repos", true),
            ("--flag", true),
        ] {
            assert!(!relative_path(v, named), "{v}");
        }
    }

    #[test]
    fn the_holder_of_a_value_is_its_variable_or_its_flag() {
        assert_eq!(
            holder_name("`GIT_BASE_DIR=repos`").as_deref(),
            Some("GIT_BASE_DIR")
        );
        assert_eq!(holder_name("`--root data`").as_deref(), Some("--root"));
        assert_eq!(
            holder_name("the argument `--root=data`").as_deref(),
            Some("--root")
        );
        assert_eq!(holder_name("the argument `data`"), None);
    }

    #[test]
    fn absolute_is_a_judgement_not_an_adverb() {
        assert!(says_absolute("GIT_BASE_DIR must be an absolute path"));
        assert!(says_absolute("Path must be Absolute"));
        assert!(says_absolute("--root: relative paths are not allowed"));
        assert!(!says_absolute("it is absolutely fine"));
        assert!(!says_absolute("GIT_BASE_DIR does not exist"));
    }
}
