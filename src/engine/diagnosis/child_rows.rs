//! The rows about a command the server launches that is not found: Node's `spawn NAME ENOENT`
//! (child_process), Python's `FileNotFoundError: [Errno 2] No such file or directory: 'NAME'`
//! raised by `subprocess` (or naming a bare command), Go's `exec: "NAME": executable file not
//! found in $PATH`, in a failed `--call`'s error or the server's stderr. An experiment looks for
//! the command on the server's PATH (a path: at that path); only a command that is not there is
//! the cause. Named in the doctor's own words, with where it comes from (a file the entry's args
//! name that holds it, a value of the entry) and the closest program installed on that PATH.

use std::path::{Path, PathBuf};

use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// The most folders of the PATH listed, and entries read in each, for the closest name.
const MAX_DIRS: usize = 32;
const MAX_ENTRIES: usize = 4000;

/// The largest file of the entry's args read for the command's name.
const MAX_FILE: u64 = 1024 * 1024;

/// A quoted word after `at` (`'NAME'`, `"NAME"`).
fn quoted_after(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let q = t.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let rest = &t[1..];
    let end = rest.find(q)?;
    Some(&rest[..end]).filter(|w| !w.is_empty())
}

/// The command a line says could not be launched, and whether the line alone says it was a
/// launch (Node's `spawn`, Go's `exec:`) or it needs a `subprocess` frame beside it (Python's
/// `FileNotFoundError` names a file as well).
fn named_in(line: &str) -> Option<(String, bool)> {
    // Node: `Error: spawn NAME ENOENT` (`spawnSync NAME ENOENT`).
    for head in ["spawn ", "spawnSync "] {
        let mut from = 0;
        while let Some(i) = line[from..].find(head) {
            let at = from + i;
            let before_ok = at == 0 || !line[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
            let rest = &line[at + head.len()..];
            if let Some(name) = rest.strip_suffix(" ENOENT").or_else(|| {
                rest.split_once(" ENOENT")
                    .filter(|(_, after)| !after.starts_with(|c: char| c.is_ascii_alphanumeric()))
                    .map(|(n, _)| n)
            }) {
                let name = name.trim();
                if before_ok && !name.is_empty() && !name.contains(char::is_whitespace) {
                    return Some((name.to_string(), true));
                }
            }
            from = at + head.len();
        }
    }
    // Go: `exec: "NAME": executable file not found in $PATH`.
    if let Some(i) = line.find("exec: ") {
        let rest = &line[i + 6..];
        if let Some(name) = quoted_after(rest) {
            if rest.contains("executable file not found") || rest.contains("no such file") {
                return Some((name.to_string(), true));
            }
        }
    }
    // Python: `[Errno 2] No such file or directory: 'NAME'`.
    let i = line.find("[Errno 2] No such file or directory: ")?;
    let name = quoted_after(&line[i + "[Errno 2] No such file or directory: ".len()..])?;
    Some((name.to_string(), false))
}

/// Whether `name` is shaped as a command, not a file: no folder, no file extension.
fn bare_command(name: &str) -> bool {
    !name.contains('/')
        && !name.contains('\\')
        && name
            .rsplit_once('.')
            .is_none_or(|(_, e)| !super::source_scan::is_file_extension(&e.to_ascii_lowercase()))
}

/// The command a failure says could not be launched (in `lines`, the first that names one),
/// with the line.
pub(super) fn missing_command<'a>(lines: &[&'a str]) -> Option<(String, &'a str)> {
    let launched = lines.iter().any(|l| {
        l.contains("subprocess")
            || l.contains("_execute_child")
            || l.contains("create_subprocess_exec")
            || l.contains("Popen")
    });
    lines.iter().find_map(|l| {
        let (name, sure) = named_in(l)?;
        (sure || launched || bare_command(&name)).then_some((name, *l))
    })
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The folders of the server's PATH.
fn path_dirs(s: &Setting) -> Vec<PathBuf> {
    let path = s.path.clone().or_else(|| std::env::var("PATH").ok());
    path.map(|p| std::env::split_paths(&p).take(MAX_DIRS).collect())
        .unwrap_or_default()
}

/// The experiment: is `name` a program on the server's PATH (a path: is it there)?
fn found_on(name: &str, dirs: &[PathBuf], cwd: Option<&Path>) -> bool {
    if name.contains('/') {
        let p = PathBuf::from(name);
        let p = match (cwd, p.is_relative()) {
            (Some(c), true) => c.join(p),
            _ => p,
        };
        return executable(&p);
    }
    dirs.iter().any(|d| executable(&d.join(name)))
}

/// The program on the PATH whose name is closest to `name` (two edits at most, one for a name
/// of 4 letters or fewer).
fn closest_on(name: &str, dirs: &[PathBuf]) -> Option<String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let most = if base.chars().count() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, String)> = None;
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        for e in entries.flatten().take(MAX_ENTRIES) {
            let n = e.file_name().to_string_lossy().into_owned();
            if n == base {
                continue;
            }
            let dist = strsim::damerau_levenshtein(&n, base);
            if dist <= most && best.as_ref().is_none_or(|(b, _)| dist < *b) && executable(&e.path())
            {
                best = Some((dist, n));
            }
        }
    }
    best.map(|(_, n)| n)
}

/// Whether `text` holds `name` as a whole word (quoted, or between separators).
fn holds(text: &str, name: &str) -> bool {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | ',' | '[' | ']' | '=' | ':' | '{' | '}'
            )
    })
    .any(|w| w == name)
}

/// Where the command comes from: a file the entry's args name that holds it (the argument), or
/// one of the entry's values.
fn origin(name: &str, s: &Setting) -> Option<(String, bool)> {
    for a in &s.args {
        let v = a.split_once('=').map(|(_, v)| v).unwrap_or(a);
        let p = PathBuf::from(v);
        let p = match (&s.cwd, p.is_relative()) {
            (Some(c), true) => c.join(p),
            _ => p,
        };
        let small = std::fs::metadata(&p).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE);
        if small && std::fs::read_to_string(&p).is_ok_and(|t| holds(&t, name)) {
            return Some((format!("`{v}`"), true));
        }
    }
    entry_values(s)
        .into_iter()
        .find(|(_, v)| holds(v, name))
        .map(|(shown, _)| (shown, false))
}

/// What the rows say of a command `name` that the line `line` says could not be launched:
/// `None` when the experiment finds it on the PATH (the failure is elsewhere).
pub(super) fn command_missing(name: &str, line: &str, s: &Setting) -> Option<Found> {
    let dirs = path_dirs(s);
    if found_on(name, &dirs, s.cwd.as_deref()) {
        return None;
    }
    let close = closest_on(name, &dirs);
    let tried = format!(
        "looked for `{name}` {}: not there{}",
        if name.contains('/') {
            "at that path".to_string()
        } else {
            format!("in the {} folders of the server's PATH", dirs.len())
        },
        close
            .as_ref()
            .map(|c| format!("; the closest program there is `{c}`"))
            .unwrap_or_default()
    );
    let instead = close
        .as_ref()
        .map(|c| format!(" (`{c}`, installed, is the closest name)"))
        .unwrap_or_else(|| ", or install it".to_string());
    let next = match origin(name, s) {
        Some((shown, true)) => format!(
            "fix the command `{name}` in the file {shown} named in the entry's args: the server launches it and no such program is on its PATH; write its right name or its full path{instead}"
        ),
        Some((shown, false)) => format!(
            "fix the command `{name}` in {shown}: the server launches it and no such program is on its PATH; write its right name or its full path{instead}"
        ),
        None => format!(
            "install `{name}` or put the folder that holds it on the server's PATH: the server launches that command and it is not there{}",
            close
                .as_ref()
                .map(|c| format!(" (`{c}`, installed, is the closest name)"))
                .unwrap_or_default()
        ),
    };
    Some(Found {
        id: Id::CommandNotFound,
        summary: format!("a command the server launches, `{name}`, is not on the server's PATH"),
        next: super::words::terms(&next, s),
        evidence: vec![(Source::Stderr, cut(line)), (Source::Tried, tried)],
    })
}

/// Rule on a launch that died: its stderr says a command it launches is not found.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (name, line) = missing_command(lines)?;
    command_missing(&name, line, s)
}

#[cfg(test)]
mod tests {
    use super::{missing_command, row};
    use crate::engine::diagnosis::model::Setting;

    /// A launch that died on a command its start launches (supergateway-style `spawn uvx
    /// ENOENT`, its stack under it), with `uv` on the server's PATH: named with the closest;
    /// the same with `uvx` there is no finding (the failure is elsewhere).
    #[test]
    fn a_launch_that_died_on_a_missing_command_is_looked_for_on_its_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let uv = dir.path().join("uv");
        std::fs::write(&uv, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&uv, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let s = Setting {
            command: Some("node".to_string()),
            args: vec![
                "gateway.js".to_string(),
                "--stdio".to_string(),
                "uvx mcp-server-time".to_string(),
            ],
            path: Some(dir.path().display().to_string()),
            entry: true,
            ..Setting::default()
        };
        let err = "node:internal/child_process:413\nError: spawn uvx ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:285:19)";
        let lines: Vec<&str> = err.lines().collect();
        let f = row(&lines, &s).expect("a finding");
        assert!(
            f.next
                .starts_with("fix the command `uvx` in `--stdio uvx mcp-server-time`:"),
            "{}",
            f.next
        );
        assert!(
            f.next.contains("(`uv`, installed, is the closest name)"),
            "{}",
            f.next
        );
        std::fs::copy(&uv, dir.path().join("uvx")).expect("copy");
        assert!(row(&lines, &s).is_none());
    }

    #[test]
    fn a_launch_that_failed_is_read_by_each_runtimes_structure() {
        for (lines, name) in [
            (
                vec!["Group memory failed to connect: Error: spawn mcp-server-memroy ENOENT"],
                "mcp-server-memroy",
            ),
            (vec!["Error: spawn uvx ENOENT"], "uvx"),
            (
                vec![r#"error: exec: "docker": executable file not found in $PATH"#],
                "docker",
            ),
            (
                vec!["FileNotFoundError: [Errno 2] No such file or directory: 'npx'"],
                "npx",
            ),
            (
                vec![
                    r#"  File "/usr/lib/python3.11/subprocess.py", line 1950, in _execute_child"#,
                    "FileNotFoundError: [Errno 2] No such file or directory: '/opt/tool/bin/run'",
                ],
                "/opt/tool/bin/run",
            ),
        ] {
            assert_eq!(
                missing_command(&lines).map(|(n, _)| n).as_deref(),
                Some(name),
                "{lines:?}"
            );
        }
        for lines in [
            vec!["FileNotFoundError: [Errno 2] No such file or directory: 'config.json'"],
            vec!["FileNotFoundError: [Errno 2] No such file or directory: '/data/notes'"],
            vec!["respawn failed ENOENT"],
            vec!["Error: ENOENT: no such file or directory, open 'spawn.json'"],
        ] {
            assert_eq!(missing_command(&lines), None, "{lines:?}");
        }
    }
}
