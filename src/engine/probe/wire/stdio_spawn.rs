//! What a stdio server's failed spawn means: the file the command names, its `#!` line; and
//! how its process ended.

use std::ffi::{OsStr, OsString};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::engine::policy::Ended;
use crate::engine::probe::model::LaunchError;
use crate::engine::redact::Redactor;

/// How a process ended, from its exit status.
pub(super) fn ended_of(status: std::process::ExitStatus) -> Ended {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ended::Exit { code },
        (None, Some(signal)) => Ended::Signal { signal },
        (None, None) => Ended::Unknown,
    }
}

/// What was spawned.
struct Spawn<'a> {
    command: &'a OsStr,
    cwd: Option<&'a Path>,
    env: Option<&'a [(OsString, OsString)]>,
}

/// What a failed spawn means, in words: not found, not executable, its `#!` interpreter
/// missing or its `#!` line ending in `\r`, its working directory missing.
pub(super) fn launch_error(
    command: &OsStr,
    cwd: Option<&Path>,
    env: Option<&[(OsString, OsString)]>,
    e: &std::io::Error,
    redactor: &Redactor,
) -> LaunchError {
    let target = Spawn { command, cwd, env };
    let target = &target;
    let command = redactor.redact(&command.to_string_lossy());
    let cannot = |reason: String| LaunchError::CannotExecute {
        command: command.clone(),
        reason: redactor.redact(&reason),
    };
    if target.cwd.as_ref().is_some_and(|d| !d.is_dir()) {
        return cannot("its working directory does not exist".into());
    }
    let file = resolve_command(target);
    match (e.kind(), file) {
        (_, Some(path)) if path.is_dir() => cannot("it is a directory, not a program".into()),
        (ErrorKind::NotFound, Some(path)) if crlf_shebang(&path) => cannot(format!(
            "its #! line ends in \\r (CRLF, Windows line endings): the system looks for an \
             interpreter named \"{}\\r\"",
            interpreter_of(&path).map_or_else(String::new, |i| i.display().to_string())
        )),
        (ErrorKind::NotFound | ErrorKind::PermissionDenied, Some(path)) => {
            match interpreter_of(&path) {
                Some(interp) if !interp.exists() => cannot(format!(
                    "its #! interpreter {} does not exist",
                    interp.display()
                )),
                Some(interp) if interp.is_dir() || !is_executable(&interp) => cannot(format!(
                    "its #! interpreter {} is not executable",
                    interp.display()
                )),
                _ if !is_executable(&path) => {
                    cannot("the file is not executable (no x permission; chmod +x?)".into())
                }
                _ if e.kind() == ErrorKind::NotFound => cannot(
                    "the file exists but cannot be run here (its ELF interpreter or a library \
                     loader is missing?)"
                        .into(),
                ),
                _ => cannot(format!("permission denied ({e})")),
            }
        }
        (ErrorKind::NotFound, None) => LaunchError::NotFound { command },
        (ErrorKind::PermissionDenied, None) => cannot("permission denied".into()),
        _ => cannot(e.to_string()),
    }
}

/// The file the command names: a path as given (against the working directory), else the
/// first entry of `PATH` (the child's, else the probe's) that exists.
fn resolve_command(target: &Spawn) -> Option<PathBuf> {
    let command = Path::new(target.command);
    if command.as_os_str().is_empty() {
        return None;
    }
    if command.components().count() > 1 || target.command.to_string_lossy().contains('/') {
        let path = match &target.cwd {
            Some(dir) if command.is_relative() => dir.join(command),
            _ => command.to_path_buf(),
        };
        return path.symlink_metadata().is_ok().then_some(path);
    }
    let path_var = match &target.env {
        Some(env) => env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone()),
        None => std::env::var_os("PATH"),
    }?;
    std::env::split_paths(&path_var)
        .map(|dir| dir.join(command))
        .find(|p| p.metadata().is_ok())
}

/// A script's `#!` interpreter (its first word), when the file starts with `#!`.
fn interpreter_of(path: &Path) -> Option<PathBuf> {
    let head = crate::engine::infile::read_head(path, 256)?;
    let line = head.strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let text = String::from_utf8_lossy(line);
    let word = text.split_whitespace().next()?;
    Some(PathBuf::from(word))
}

/// Whether the file's `#!` line ends in `\r` (saved with CRLF line endings).
pub(crate) fn crlf_shebang(path: &Path) -> bool {
    let Some(head) = crate::engine::infile::read_head(path, 256) else {
        return false;
    };
    head.starts_with(b"#!")
        && head
            .split(|&b| b == b'\n')
            .next()
            .is_some_and(|l| l.ends_with(b"\r"))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
