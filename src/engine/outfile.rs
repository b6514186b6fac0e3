//! Every file mcpl-doctor writes (`--report`, `--svg`, `--output FORMAT=FILE`, and so the
//! composite action's SARIF) goes through [`write`]:
//!
//! - into a new temporary file in the same folder, then renamed into place, so a reader never
//!   sees half a file and a symbolic link at the path is replaced itself, never followed (a
//!   checkout holding `mcpl-doctor.sarif -> ../victim` cannot make it write outside);
//! - never onto one of the run's inputs (a configuration file read: `--output json=.mcp.json
//!   .mcp.json`), refused with a clear message;
//! - never into a FIFO, a device, a socket or a folder (opening a FIFO blocks until a reader
//!   comes, and ignores Ctrl-C meanwhile): a path that is, or links to, anything but a regular
//!   file is refused.
//!
//! Inputs are remembered as they are read ([`remember_input`]), so the CLI's write points need
//! no list of their own.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

fn inputs() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static INPUTS: OnceLock<Mutex<Vec<PathBuf>>> = OnceLock::new();
    INPUTS
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Remember `path` as an input of this run (a configuration file read), never to be written.
pub(crate) fn remember_input(path: &Path) {
    let mut list = inputs();
    if !list.iter().any(|p| p == path) {
        list.push(path.to_path_buf());
    }
}

/// Why `path` must not be written, if it must not ("it is ...").
pub(crate) fn refusal(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let here = std::fs::symlink_metadata(path).ok();
    for input in inputs().iter() {
        let same =
            |m: &std::fs::Metadata, n: &std::fs::Metadata| m.dev() == n.dev() && m.ino() == n.ino();
        let Some(here) = &here else { break };
        let through = std::fs::metadata(input).ok();
        let itself = std::fs::symlink_metadata(input).ok();
        if through.iter().chain(itself.iter()).any(|m| same(here, m)) {
            return Some(format!(
                "it is one of the inputs ({}); refusing to overwrite it",
                input.display()
            ));
        }
    }
    let target = match &here {
        Some(m) if m.file_type().is_symlink() => std::fs::metadata(path).ok(),
        other => other.clone(),
    };
    let kind = target.and_then(|m| super::infile::not_regular(m.file_type()))?;
    Some(format!("it is {kind}; outputs go to regular files only"))
}

/// Why a file cannot be written; the text names the path, shown as given (the CLI sanitises
/// what it prints).
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    /// Refused before trying (see [`refusal`]): "it is ...".
    #[error("cannot write {}: {why}", path.display())]
    Refused { path: PathBuf, why: String },
    /// The path names no file (`/`, `..`).
    #[error("cannot write {}: not a file name", path.display())]
    NotAFileName { path: PathBuf },
    /// The system said no.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Write `bytes` to `path` the safe way (see the module's text). The error names the path.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let (dir, name) = destination(path)?;
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (tmp, mut file) = create_temp(&dir, &name).map_err(io)?;
    // An existing regular file keeps its permissions.
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.file_type().is_file() {
            let _ = file.set_permissions(m.permissions());
        }
    }
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

/// Check, before any work, that `path` can be written: not refused (see [`refusal`]), and its
/// folder takes a new file (one is created there and removed). A typo in `--report` must not
/// cost an hour-long probe. The error names the path.
pub(crate) fn check(path: &Path) -> Result<(), WriteError> {
    let (dir, name) = destination(path)?;
    let (tmp, file) = create_temp(&dir, &name).map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    drop(file);
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// The folder and file name `path` is written as, unless it is refused or names no file.
fn destination(path: &Path) -> Result<(PathBuf, String), WriteError> {
    if let Some(why) = refusal(path) {
        return Err(WriteError::Refused {
            path: path.to_path_buf(),
            why,
        });
    }
    let Some(name) = path.file_name() else {
        return Err(WriteError::NotAFileName {
            path: path.to_path_buf(),
        });
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_string_lossy().into_owned()))
}

/// A new file `.<name>.<random>.tmp` in `dir`, created exclusively (never an existing one,
/// never through a link).
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let mut last = None;
    for _ in 0..16 {
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", fastrand::u64(..)));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary name was free")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_replaced_not_followed() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").expect("write");
        let link = dir.path().join("out.sarif");
        std::os::unix::fs::symlink(&victim, &link).expect("symlink");
        write(&link, b"report").expect("written");
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
        assert_eq!(std::fs::read_to_string(&link).expect("read"), "report");
        assert!(!std::fs::symlink_metadata(&link)
            .expect("stat")
            .file_type()
            .is_symlink());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn check_finds_a_missing_folder_and_leaves_nothing() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let err = check(&dir.path().join("no-such-folder/r.html")).expect_err("refused");
        assert!(
            err.to_string().contains("No such file or directory"),
            "{err}"
        );
        check(&dir.path().join("r.html")).expect("writable");
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 0);
    }

    #[test]
    fn inputs_fifos_devices_and_folders_are_refused() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let input = dir.path().join("mcp.json");
        std::fs::write(&input, "{}").expect("write");
        remember_input(&input);
        let err = write(&input, b"x").expect_err("refused");
        assert!(err.to_string().contains("is one of the inputs"), "{err}");
        assert_eq!(std::fs::read_to_string(&input).expect("read"), "{}");
        let err = write(Path::new("/dev/null"), b"x").expect_err("refused");
        assert!(err.to_string().contains("is a device"), "{err}");
        let err = write(dir.path(), b"x").expect_err("refused");
        assert!(err.to_string().contains("is a folder"), "{err}");
        let link = dir.path().join("to-null");
        std::os::unix::fs::symlink("/dev/null", &link).expect("symlink");
        let err = write(&link, b"x").expect_err("refused");
        assert!(err.to_string().contains("is a device"), "{err}");
    }
}
