//! The row about a local path of the entry that a library could not open, tied to the entry by
//! a stat experiment (`Key::EntryPathUnopenableOnDisk`, see [`super::structured`]):
//! - SQLite's own message for `SQLITE_CANTOPEN`, `unable to open database file` (its
//!   `sqlite3ErrStr`, printed by Python's `sqlite3.OperationalError`, SQLAlchemy's
//!   `(sqlite3.OperationalError)`, go-sqlite3, rusqlite), and the entry's one database path
//!   (a path, or a URL `sqlite:///PATH`, `sqlite+aiosqlite:///PATH`, `file:PATH`) whose folder
//!   does not exist, or which is a folder: SQLite creates the file, never its folder;
//! - a connect to a unix socket that is not there (`FileNotFoundError`, `[Errno 2]`, `ENOENT`,
//!   `No such file or directory` with no path of its own: docker's SDK's `('Connection
//!   aborted.', FileNotFoundError(2, 'No such file or directory'))`), and the entry's one value
//!   `unix://PATH` (`DOCKER_HOST`), `unix:PATH` or a `.sock` path, where nothing is.

use std::path::{Path, PathBuf};

use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// SQLite's message for `SQLITE_CANTOPEN`.
const CANTOPEN: &str = "unable to open database file";

/// The path of a database value: a SQLite URL's, `file:`'s, or a path's own.
fn database_path(v: &str) -> Option<&str> {
    let v = v.split('?').next().unwrap_or(v);
    if v.starts_with("sqlite") {
        return v
            .split_once(":///")
            .map(|(_, p)| p)
            .filter(|p| !p.is_empty());
    }
    if let Some(p) = v.strip_prefix("file:") {
        return Some(p.trim_start_matches("//")).filter(|p| !p.is_empty());
    }
    // A list of paths (`PYENV_HOOK_PATH=/a/pyenv.d:/b/pyenv.d`) is none.
    (!v.contains(':') && !v.starts_with('-') && (v.contains('/') || v.contains('.'))).then_some(v)
}

/// Whether a value is a database's: a SQLite URL, a database file's extension, or a name that
/// says so (`DB_PATH`, `--database`, `SQLITE_FILE`).
fn database_like(shown: &str, v: &str) -> bool {
    let name = shown
        .split('=')
        .next()
        .unwrap_or(shown)
        .to_ascii_uppercase();
    let low = v.to_ascii_lowercase();
    low.starts_with("sqlite")
        || low.starts_with("file:")
        || [".db", ".sqlite", ".sqlite3", ".duckdb"]
            .iter()
            .any(|e| low.split('?').next().unwrap_or(&low).ends_with(e))
        || ["DB", "DATABASE", "SQLITE"].iter().any(|w| {
            name.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|p| p == *w)
        })
}

/// The path of a unix socket value.
fn socket_path(v: &str) -> Option<&str> {
    if let Some(p) = v.strip_prefix("unix://") {
        return Some(p).filter(|p| p.starts_with('/'));
    }
    if let Some(p) = v.strip_prefix("unix:") {
        return Some(p).filter(|p| p.starts_with('/'));
    }
    (v.starts_with('/') && v.ends_with(".sock")).then_some(v)
}

fn resolved(p: &str, s: &Setting) -> PathBuf {
    let path = Path::new(p);
    match &s.cwd {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// What is wrong with a database path on disk: it is a folder, or the first of its folders
/// that does not exist.
fn unopenable(p: &Path) -> Option<String> {
    if p.is_dir() {
        return Some(format!("{} is a folder, not a file", p.display()));
    }
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty())?;
    if parent.is_dir() {
        return None;
    }
    let first = parent
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty() && !a.exists())
        .last()?;
    Some(format!("the folder {} does not exist", first.display()))
}

/// The row.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    if let Some(line) = lines.iter().find(|l| l.contains(CANTOPEN)) {
        let found: Vec<(String, String, String, bool)> = entry_values(s)
            .into_iter()
            .filter_map(|(shown, v)| {
                let p = resolved(database_path(&v)?, s);
                // A database's own value where nothing is, in a folder that exists: opened
                // without creating it (better-sqlite3's `fileMustExist`, a read-only open).
                let why = unopenable(&p).or_else(|| {
                    (database_like(&shown, &v) && !p.exists()).then(|| {
                        format!(
                            "no file is at {}, and the server opens it without creating it",
                            p.display()
                        )
                    })
                })?;
                Some((
                    shown.clone(),
                    p.display().to_string(),
                    why,
                    database_like(&shown, &v),
                ))
            })
            .collect();
        // A database's value first (`sqlite:///...`, `*.db`, `DB_PATH`); else the one path whose
        // folder does not exist (`HOME` is a folder too, and no database).
        let named: Vec<_> = found.iter().filter(|f| f.3).collect();
        let absent: Vec<_> = found
            .iter()
            .filter(|f| !f.2.ends_with("not a file"))
            .collect();
        let (shown, path, why, _) = match (named.as_slice(), absent.as_slice()) {
            ([one], _) => *one,
            ([], [one]) => *one,
            _ => return None,
        };
        let quoted = cut(line.trim());
        let next = if why.starts_with("no file is at") {
            format!("point {shown} at the database file, one that exists: {why} (SQLite says \"{CANTOPEN}\")")
        } else if why.ends_with("is a folder, not a file") {
            format!("point {shown} at a database file, not a folder (`{path}/NAME.db`): SQLite says \"{CANTOPEN}\" and {why}")
        } else {
            format!("create the folder of {shown}, or point it at a path whose folder exists: {why}, and SQLite creates the database file, never its folder")
        };
        return Some(Found {
            id: Id::MissingFile,
            summary: format!("SQLite cannot open {path}: {why}"),
            next,
            evidence: vec![
                (Source::Stderr, quoted),
                (Source::Tried, cut(&format!("stat {path}: {why}"))),
            ],
        });
    }
    let line = lines.iter().find(|l| {
        let low = l.to_ascii_lowercase();
        low.contains("no such file or directory")
            || low.contains("filenotfounderror")
            || low.contains("enoent")
    })?;
    let found: Vec<(String, String)> = entry_values(s)
        .into_iter()
        .filter_map(|(shown, v)| {
            let p = resolved(socket_path(&v)?, s);
            (std::fs::symlink_metadata(&p).is_err()).then(|| (shown, p.display().to_string()))
        })
        .collect();
    let [(shown, path)] = found.as_slice() else {
        return None;
    };
    // A path the line names itself is the file rows' (`file_rows.rs`), unless it is this one.
    if super::file_rows::missing_in(line)
        .and_then(|m| m.path)
        .is_some_and(|p| !path.ends_with(&p))
    {
        return None;
    }
    let quoted = cut(line.trim());
    Some(Found {
        id: Id::ServiceNotRunning,
        summary: format!("no socket at {path}, which the server connects to"),
        next: format!(
            "point {shown} at the socket the service listens on, or start the service there: nothing is at {path}"
        ),
        evidence: vec![
            (Source::Stderr, quoted),
            (Source::Tried, format!("stat {path}: no such file")),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_and_socket_values_are_read() {
        assert_eq!(
            database_path("sqlite:////data/app.db"),
            Some("/data/app.db")
        );
        assert_eq!(
            database_path("sqlite+aiosqlite:///app.db?mode=rwc"),
            Some("app.db")
        );
        assert_eq!(database_path("file:/data/app.db"), Some("/data/app.db"));
        assert_eq!(database_path("/data/app.db"), Some("/data/app.db"));
        assert_eq!(database_path("postgresql://h/db"), None);
        assert_eq!(database_path("sqlite://"), None);
        // A list of paths is none.
        assert_eq!(database_path("/root/.pyenv/pyenv.d:/etc/pyenv.d"), None);
        assert_eq!(
            socket_path("unix:///var/run/docker.sock"),
            Some("/var/run/docker.sock")
        );
        assert_eq!(socket_path("/run/x.sock"), Some("/run/x.sock"));
        assert_eq!(socket_path("tcp://127.0.0.1:2375"), None);
    }

    #[test]
    fn a_missing_folder_or_a_folder_is_unopenable_and_a_file_in_a_folder_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        assert_eq!(unopenable(&d.join("app.db")), None);
        assert!(unopenable(d).is_some_and(|w| w.ends_with("is a folder, not a file")));
        let why = unopenable(&d.join("a/b/app.db")).expect("a missing folder");
        assert_eq!(
            why,
            format!("the folder {} does not exist", d.join("a").display())
        );
    }

    #[test]
    fn a_socket_is_named_only_when_the_line_names_no_other_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sock = dir.path().join("nosuch.sock");
        let s = Setting {
            env_values: vec![("DOCKER_HOST".into(), format!("unix://{}", sock.display()))],
            ..Setting::default()
        };
        let docker = "docker.errors.DockerException: Error while fetching server API version: \
                      ('Connection aborted.', FileNotFoundError(2, 'No such file or directory'))";
        let f = row(&[docker], &s).expect("the socket");
        assert!(f.next.starts_with("point `DOCKER_HOST="), "{}", f.next);
        let other =
            "FileNotFoundError: [Errno 2] No such file or directory: '/etc/app/config.json'";
        assert!(row(&[other], &s).is_none());
        // A socket that is there: nothing to name.
        let _l = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
        assert!(row(&[docker], &s).is_none());
    }
}
