//! The rows about a file the server wants at start: typed evidence that a file is missing, a
//! stat experiment on the entry's own path-like values and on the path in the evidence, and
//! the server's installed source read for the variable it takes the file's path from.
//!
//! What a missing file is keyed on (never one server's wording):
//! - Node's `ENOENT` with the quoted path after it (`ENOENT: no such file or directory, open
//!   '/x/keys.json'`);
//! - Python's `FileNotFoundError` / `[Errno 2]` with the quoted path after it;
//! - Go's and Rust's `<op> <path>: no such file or directory` (`open config.yaml: ...`);
//! - a message naming a file (a token with a path separator, or a configuration or data file's
//!   extension: `gcp-oauth.keys.json`, `~/.kube/config`) beside not-found wording (`not
//!   found`, `does not exist`, `missing`, `cannot find`, `no such file`), whatever else it
//!   says; not a module (`Cannot find module`, `No module named`), not a command.
//!
//! Only the failure's own words count: the error of a Node or Python crash, or the launch's last
//! words (a `config.yaml not found, using defaults` line earlier in a run is a warning).

use std::path::{Component, Path, PathBuf};

use super::evidence::Fact;
use super::model::{cut, Found, Setting, Source};
use super::source_scan::{file_part, is_file_extension, Scanned, Tie};
use super::table::Id;
use crate::engine::redact::{is_secret_name, MASK};

/// A file the failure says is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Missing {
    /// The file's path as printed, when the evidence gives one.
    pub path: Option<String>,
    /// Its last part (`gcp-oauth.keys.json`).
    pub file: String,
    /// Folders the message names beside it (`... in current directory or /root/.gmail-mcp`).
    pub places: Vec<String>,
    /// The line quoted.
    pub line: String,
}

/// Words of not finding (lower case).
const NOT_FOUND: &[&str] = &[
    "not found",
    "no such file",
    "does not exist",
    "doesn't exist",
    "not exist",
    "cannot find",
    "can't find",
    "could not find",
    "couldn't find",
    "unable to find",
    "missing",
    "enoent",
];

/// A module or a command not found: other faults, with their own rows.
const NOT_A_FILE: &[&str] = &[
    "cannot find module",
    "cannot find package",
    "err_module_not_found",
    "no module named",
    "command not found",
    "modulenotfounderror",
];

/// The quoted text after `from` in `line` (`'...'` or `"..."`).
fn quoted_after(line: &str, from: usize) -> Option<String> {
    let rest = line.get(from..)?;
    let (i, q) = rest.char_indices().find(|(_, c)| matches!(c, '\'' | '"'))?;
    let body = &rest[i + 1..];
    let end = body.find(q)?;
    let p = &body[..end];
    // The error's own words quoted (`FileNotFoundError(2, 'No such file or directory')`, as
    // docker's SDK wraps it) are no path.
    (!p.is_empty() && !p.eq_ignore_ascii_case("no such file or directory")).then(|| p.to_string())
}

/// The token before `: no such file or directory` (Go's `open /x/c.yaml: no such file ...`).
fn go_path(line: &str, lower: &str) -> Option<String> {
    let at = lower.find(": no such file or directory")?;
    let token = line[..at].split_whitespace().last()?;
    let token = token.trim_matches(['\'', '"', '`']);
    (token.contains('/') || token.contains('.')).then(|| token.to_string())
}

/// The missing file `line` speaks of, if it is shaped as one of the keys above.
pub(super) fn missing_in(line: &str) -> Option<Missing> {
    let lower = line.to_ascii_lowercase();
    if NOT_A_FILE.iter().any(|w| lower.contains(w)) {
        return None;
    }
    let os = [
        "enoent",
        "[errno 2]",
        "filenotfounderror",
        "no such file or directory",
    ]
    .iter()
    .filter_map(|m| lower.find(m).map(|i| i + m.len()))
    .min();
    if let Some(from) = os {
        let path = quoted_after(line, from)
            .or_else(|| go_path(line, &lower))
            .or_else(|| {
                // Any quoted text before the code: a path has a `/` or no space (docker's SDK
                // quotes `'Connection aborted.'` beside `FileNotFoundError(2, ...)`).
                quoted_after(line, 0).filter(|p| p.contains('/') || !p.contains(' '))
            })?;
        let file = path
            .rsplit(['/', '\\'])
            .next()
            .filter(|f| !f.is_empty())?
            .to_string();
        return Some(Missing {
            path: Some(path),
            file,
            places: Vec::new(),
            line: line.trim().to_string(),
        });
    }
    if !NOT_FOUND.iter().any(|w| lower.contains(w)) {
        return None;
    }
    if let Some(pattern) = super::file_patterns::pattern_in(line) {
        return Some(Missing {
            path: None,
            file: pattern,
            places: Vec::new(),
            line: line.trim().to_string(),
        });
    }
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']'))
        .map(|t| t.trim_matches(['\'', '"', '`', '’', '‘']))
        .map(|t| t.trim_end_matches(['.', ':', '!', '?']))
        .filter(|t| !t.is_empty() && !t.contains("://"))
        .collect();
    let has_ext = |t: &str| {
        let last = t.rsplit('/').next().unwrap_or(t);
        last.rsplit_once('.')
            .is_some_and(|(stem, e)| !stem.is_empty() && is_file_extension(e))
    };
    let named = tokens.iter().find(|t| has_ext(t)).copied();
    let places: Vec<String> = tokens
        .iter()
        .filter(|t| Some(**t) != named && (t.starts_with('/') || t.starts_with("~/")))
        .map(|t| t.to_string())
        .collect();
    let named = named
        .map(str::to_string)
        .or_else(|| places.first().cloned())?;
    let file = file_part(&named)?;
    let path = named.contains('/').then(|| named.clone());
    Some(Missing {
        path,
        file,
        places: places.into_iter().filter(|p| *p != named).collect(),
        line: line.trim().to_string(),
    })
}

/// The launch's last words: its last line that is no stack frame, runtime banner or part of
/// Node's error object.
fn last_words<'a>(lines: &[&'a str]) -> Option<&'a str> {
    lines.iter().rev().map(|l| l.trim()).find(|t| {
        !t.is_empty()
            && !t.starts_with("at ")
            && !t.starts_with("Node.js v")
            && !matches!(*t, "^" | "}" | "{" | "]")
            && !t.ends_with(',')
    })
}

/// The missing file of a launch's failure: its crash's error (Node, Python), else its last
/// words.
pub(super) fn missing(facts: &[Fact], lines: &[&str]) -> Option<Missing> {
    facts
        .iter()
        .rev()
        .filter(|f| matches!(f, Fact::Node { .. } | Fact::Python { .. }))
        .find_map(|f| missing_in(&f.quoted()))
        .or_else(|| last_words(lines).and_then(missing_in))
}

/// One of the entry's values that may name a file.
#[derive(Debug, Clone)]
struct Held {
    /// As the next step names it (`` `--config ./c.yaml` ``, `` `APP_CONFIG=/x` ``, or the
    /// variable alone when its value is a secret's).
    shown: String,
    var: Option<String>,
    /// The place named for a change: `` `APP_CONFIG` `` or `` `--config` ``.
    place: String,
    value: String,
    secret: bool,
}

fn path_like(v: &str) -> bool {
    !v.contains("://")
        && !v.starts_with('-')
        && !v.contains(MASK)
        && (v.contains('/') || v.starts_with('~') || file_part(v).is_some())
}

fn held(s: &Setting) -> Vec<Held> {
    let mut out = Vec::new();
    for (i, a) in s.args.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|p| s.args.get(p));
        let (shown, place, v) = match (a.split_once('='), prev) {
            (Some((flag, v)), _) if flag.starts_with('-') => {
                (format!("`{a}`"), format!("`{flag}`"), v)
            }
            (_, Some(flag)) if flag.starts_with('-') && !a.starts_with('-') => {
                (format!("`{flag} {a}`"), format!("`{flag}`"), a.as_str())
            }
            _ => (
                format!("the argument `{a}`"),
                format!("the argument `{a}`"),
                a.as_str(),
            ),
        };
        if path_like(v) {
            out.push(Held {
                shown,
                var: None,
                place,
                value: v.to_string(),
                secret: false,
            });
        }
    }
    for (k, v) in super::given::entry_env(s) {
        let secret = is_secret_name(k) || v.contains(MASK);
        if v.contains(MASK) || !path_like(v) {
            // A masked value cannot be looked at; the variable may still be the file's.
            if secret {
                out.push(Held {
                    shown: format!("`{k}`"),
                    var: Some(k.clone()),
                    place: format!("`{k}`"),
                    value: String::new(),
                    secret,
                });
            }
            continue;
        }
        out.push(Held {
            shown: if secret {
                format!("`{k}`")
            } else {
                format!("`{k}={v}`")
            },
            var: Some(k.clone()),
            place: format!("`{k}`"),
            value: v.clone(),
            secret,
        });
    }
    out
}

fn home(s: &Setting) -> Option<PathBuf> {
    super::given::entry_env(s)
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| PathBuf::from(v))
        .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
}

/// The folder the server starts in: the entry's `cwd`, else this one's.
fn start_dir(s: &Setting) -> Option<PathBuf> {
    s.cwd.clone().or_else(|| std::env::current_dir().ok())
}

/// `v` as the server opens it: `~` is the home folder, a relative path is under the folder it
/// starts in; `.` and `..` taken out (no link followed).
fn resolve(v: &str, s: &Setting) -> Option<PathBuf> {
    let p = if let Some(rest) = v.strip_prefix("~/") {
        home(s)?.join(rest)
    } else if Path::new(v).is_relative() {
        start_dir(s)?.join(v)
    } else {
        PathBuf::from(v)
    };
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// A stat of `p` in words: `None` when it exists.
fn stat(p: &Path) -> Result<(), String> {
    match std::fs::metadata(p) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no such file".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// The variable the source ties to `file` (its nearest read to where the name is written).
fn tied<'a>(ties: &'a [Tie], file: &str) -> Option<&'a Tie> {
    ties.iter()
        .filter(|t| t.file == file)
        .min_by_key(|t| t.lines)
}

/// What the missing file is tied to (each a key of `structured.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tied {
    /// One of the entry's values, looked at: `MissingFileIsAnEntryValue`.
    EntryValue,
    /// The unset variable the source reads beside its name: `MissingFileReadFromAnUnsetVariable`.
    UnsetVariable,
    /// Nothing but its own path, looked at: `MissingFileAtItsDefaultPath`.
    DefaultPath,
    /// A bare name or a pattern, in neither the folder it starts in nor a folder the message
    /// names, looked at: `MissingFileRelativeToWorkingFolder` (`file_patterns.rs`).
    WorkingFolder,
}

/// The entry's value that is the missing file: the same path, the same file name, or the
/// variable the source ties to it (each looked at, and missing).
fn entry_holder(
    m: &Missing,
    at: Option<&PathBuf>,
    code: Option<&Scanned>,
    tie: Option<&Tie>,
    tried: &mut Vec<String>,
    s: &Setting,
) -> Option<(Tied, Found)> {
    for h in &held(s) {
        let by_source = tie.is_some_and(|t| h.var.as_deref() == Some(t.name.as_str()));
        if h.value.is_empty() {
            // A masked value: only the source ties it, and only a path in the evidence says
            // where it led.
            if by_source {
                if let (Some(p), Some(t), Some(c)) = (at, tie, code) {
                    tried.push(source_tried(c, t));
                    return Some(masked_value(h, m, p, t, std::mem::take(tried), s));
                }
            }
            continue;
        }
        let Some(r) = resolve(&h.value, s) else {
            continue;
        };
        let same = at == Some(&r);
        let same_name = r.file_name().is_some_and(|n| n.to_string_lossy() == m.file);
        if !(same || same_name || by_source) {
            continue;
        }
        let result = stat(&r);
        let shown_path = if h.secret {
            "its value".to_string()
        } else {
            r.display().to_string()
        };
        if !same {
            tried.push(format!(
                "stat {shown_path}: {}",
                result
                    .as_ref()
                    .err()
                    .map(String::as_str)
                    .unwrap_or("it exists")
            ));
        }
        if result.is_err() {
            if let (true, Some(c), Some(t)) = (by_source, code, tie) {
                tried.push(source_tried(c, t));
            }
            return Some(entry_value(h, m, &r, tie, std::mem::take(tried), s));
        }
    }
    None
}

/// The row of `key`: what [`analyse`] found when the file is tied that way.
pub(super) fn row(key: Tied, facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    analyse(facts, lines, s)
        .filter(|(tied, _)| *tied == key)
        .map(|(_, f)| f)
}

/// What the analysis found, and what the file is tied to.
pub(super) fn analyse(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<(Tied, Found)> {
    let m = missing(facts, lines)?;
    let at = m.path.as_deref().and_then(|p| resolve(p, s));
    // The evidence's own path, looked at: it must be missing now too.
    let mut tried: Vec<String> = Vec::new();
    if let Some(p) = &at {
        match stat(p) {
            Ok(()) => return None,
            Err(e) => tried.push(format!("stat {}: {e}", p.display())),
        }
    }
    let code = super::env_rows::scanned(s);
    let tie = code.and_then(|c| tied(&c.ties, &m.file));
    if let Some(found) = entry_holder(&m, at.as_ref(), code, tie, &mut tried, s) {
        return Some(found);
    }
    let Some(t) = tie else {
        let Some(p) = at else {
            let found = super::file_patterns::working_folder(
                &m.file,
                &m.line,
                &m.places,
                &start_dir(s)?,
                s,
            );
            return found.map(|f| (Tied::WorkingFolder, f));
        };
        return Some((
            Tied::DefaultPath,
            Found {
                id: Id::MissingFile,
                summary: format!("the server reads {} at start, and there is no such file", p.display()),
                next: format!(
                    "create {} (the file the server reads at start), or give the server its path the way its docs say",
                    p.display()
                ),
                evidence: evidence(&m, tried),
            },
        ));
    };
    if super::given::entry_env(s).any(|(k, _)| *k == t.name) {
        return None;
    }
    tried.push(source_tried(code?, t));
    let env = super::words::terms("the entry's `env`", s);
    let default = match (&at, m.places.first()) {
        (Some(p), _) => format!(
            " (without it, the server looks at {}: no such file)",
            p.display()
        ),
        (None, Some(place)) => format!(" (without it, the server looks in {place})"),
        (None, None) => String::new(),
    };
    Some((
        Tied::UnsetVariable,
        Found {
            id: Id::MissingFile,
            summary: format!(
                "the server wants {} and {env} does not set `{}`, the variable it reads the file's path from ({})",
                m.file, t.name, t.at
            ),
            next: format!(
                "set `{}` in {env} to the path of {}{default}",
                t.name, m.file
            ),
            evidence: evidence(&m, tried),
        },
    ))
}

/// The `tried:` line of the source read: the variable, where it is read, the file beside it.
fn source_tried(code: &Scanned, t: &Tie) -> String {
    cut(&format!(
        "read the server's source ({} file{} in {}): `{}` is read at {}, {} lines from `{}` ({})",
        code.files,
        if code.files == 1 { "" } else { "s" },
        code.root.display(),
        t.name,
        code.read(&t.name).map(|r| r.at.as_str()).unwrap_or("?"),
        t.lines,
        t.file,
        t.at
    ))
}

fn evidence(m: &Missing, tried: Vec<String>) -> Vec<(Source, String)> {
    let mut out = vec![(Source::Stderr, cut(&m.line))];
    out.extend(tried.into_iter().map(|t| (Source::Tried, cut(&t))));
    out
}

/// The entry's value names a file that does not exist.
fn entry_value(
    h: &Held,
    m: &Missing,
    r: &Path,
    tie: Option<&Tie>,
    tried: Vec<String>,
    s: &Setting,
) -> (Tied, Found) {
    let relative = !h.value.starts_with('/') && !h.value.starts_with('~');
    let (summary, next) = if relative {
        let dir = start_dir(s)
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "the folder it starts in".to_string());
        let shown_r = if h.secret {
            "a file that does not exist".to_string()
        } else {
            format!("{}, which does not exist", r.display())
        };
        (
            format!(
                "{} is a relative path: the server resolves it against the folder the host starts it in ({dir}), to {shown_r}",
                h.shown
            ),
            format!(
                "write {} as an absolute path to {}: a relative one is read from the folder the host starts the server in ({dir}), where there is no such file",
                h.place, m.file
            ),
        )
    } else {
        let why = tie
            .filter(|t| h.var.as_deref() == Some(t.name.as_str()))
            .map(|t| format!(" (the server reads that file's path from it: {})", t.at))
            .unwrap_or_default();
        (
            format!("{}: no such file or folder{why}", h.shown),
            if why.is_empty() {
                format!(
                    "point {} at a file or folder that exists: {}: no such file or folder",
                    h.place, h.shown
                )
            } else {
                format!(
                    "point {} at {}{why}: {} names no file",
                    h.place, m.file, h.shown
                )
            },
        )
    };
    (
        Tied::EntryValue,
        Found {
            id: Id::MissingFile,
            summary,
            next: super::words::terms(&next, s),
            evidence: evidence(m, tried),
        },
    )
}

/// A secret-shaped variable the source ties to the missing file: its value is not shown, the
/// path the server opened is.
fn masked_value(
    h: &Held,
    m: &Missing,
    p: &Path,
    t: &Tie,
    tried: Vec<String>,
    s: &Setting,
) -> (Tied, Found) {
    let under_start = start_dir(s).is_some_and(|d| p.starts_with(&d));
    let relative = if under_start {
        format!(
            "; a relative path is read from the folder the host starts the server in ({}): give an absolute one",
            start_dir(s).map(|d| d.display().to_string()).unwrap_or_default()
        )
    } else {
        String::new()
    };
    (
        Tied::EntryValue,
        Found {
            id: Id::MissingFile,
            summary: format!(
                "{} leads the server to {}, which does not exist (it reads the path of {} from it, beside {})",
                h.shown,
                p.display(),
                m.file,
                t.at
            ),
            next: format!(
                "point {} at the file {}: the server opened {} (no such file){relative}",
                h.place,
                m.file,
                p.display()
            ),
            evidence: evidence(m, tried),
        },
    )
}

#[cfg(test)]
#[path = "file_rows_tests.rs"]
mod tests;
