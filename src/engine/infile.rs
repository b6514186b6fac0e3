//! Every file a configuration names (an `envFile`, a server's script, a `package.json` near it)
//! is read through here, never with a bare `fs::read`:
//!
//! - only a regular file, checked before it is opened and again on the open file: a FIFO, a
//!   device (`/dev/zero` is endless, a tty waits for a key), a socket, a folder or a link loop
//!   is refused, and the refusal says which;
//! - opened with `O_NONBLOCK`, so a FIFO swapped in between the two checks cannot block the
//!   open (a FIFO opened to read blocks until a writer comes, maybe never);
//! - read up to a cap: a file larger than it is refused ([`read_whole`]) or read only up to it
//!   ([`read_head`]), so memory stays bounded whatever the file holds.
//!
//! The configuration file itself has its own reader (`config/source.rs`), which also takes
//! standard input and pipes from `<(command)`.

use std::io::Read;
use std::path::Path;

/// The most an env file may hold: 256 KiB, more than any real one (a few hundred bytes).
pub(crate) const MAX_ENV_FILE: u64 = 256 * 1024;

/// Why a named file was not read; the text reads after "it ..." or "which ...".
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    /// Not a regular file: "a FIFO (named pipe)", "a device", "a folder", ...
    #[error("is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than the cap.
    #[error("holds more than {} KiB, more than any such file", cap / 1024)]
    TooLarge { cap: u64 },
    /// The system said no (missing, no permission, a link loop).
    #[error("cannot be read: {0}")]
    Io(#[from] std::io::Error),
}

impl Refusal {
    /// Whether the path names nothing at all (no such file or folder).
    pub(crate) fn is_missing(&self) -> bool {
        matches!(self, Refusal::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What a file type is, when it is not a regular file ("a FIFO (named pipe)", ...).
pub(crate) fn not_regular(t: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a folder")
    } else if t.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("not a regular file")
    }
}

/// Whether `path` is a regular file that may be read (links followed), and else why not;
/// nothing is opened.
pub(crate) fn check(path: &Path) -> Result<(), Refusal> {
    let meta = std::fs::metadata(path)?;
    match not_regular(meta.file_type()) {
        Some(kind) => Err(Refusal::NotRegular(kind)),
        None => Ok(()),
    }
}

/// `path` opened to read, when it is a regular file (see the module's text).
fn open(path: &Path) -> Result<std::fs::File, Refusal> {
    use std::os::unix::fs::OpenOptionsExt;
    check(path)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
        .open(path)?;
    match not_regular(file.metadata()?.file_type()) {
        Some(kind) => Err(Refusal::NotRegular(kind)),
        None => Ok(file),
    }
}

/// The whole of the regular file `path`, refused when it holds more than `cap` bytes (memory
/// never grows past the cap).
pub(crate) fn read_whole(path: &Path, cap: u64) -> Result<Vec<u8>, Refusal> {
    let file = open(path)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::TooLarge { cap });
    }
    Ok(bytes)
}

/// At most the first `max` bytes of the regular file `path` (its start, for a `#!` line or
/// an import), `None` when it is not one or cannot be read.
pub(crate) fn read_head(path: &Path, max: u64) -> Option<Vec<u8>> {
    let file = open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// [`read_head`] as text (invalid UTF-8 replaced).
pub(crate) fn read_head_text(path: &Path, max: u64) -> Option<String> {
    read_head(path, max).map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_fifo_a_device_a_folder_and_a_link_loop_are_refused_at_once() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
        let a = dir.path().join("a");
        std::os::unix::fs::symlink(dir.path().join("b"), &a).expect("link");
        std::os::unix::fs::symlink(&a, dir.path().join("b")).expect("link");
        let t = Instant::now();
        let said = |p: &Path| {
            read_whole(p, MAX_ENV_FILE)
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(said(&fifo), "is a FIFO (named pipe), not a regular file");
        assert_eq!(
            said(Path::new("/dev/zero")),
            "is a device, not a regular file"
        );
        assert_eq!(said(dir.path()), "is a folder, not a regular file");
        assert!(said(&a).contains("symbolic links"), "{}", said(&a));
        assert!(read_head(&fifo, 256).is_none());
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        let missing = read_whole(&dir.path().join("none"), 1).expect_err("missing");
        assert!(missing.is_missing());
    }

    #[test]
    fn a_file_over_the_cap_is_refused_and_its_head_is_read() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let big = dir.path().join(".env");
        std::fs::write(&big, vec![b'x'; 300 * 1024]).expect("write");
        let err = read_whole(&big, MAX_ENV_FILE).expect_err("too large");
        assert_eq!(
            err.to_string(),
            "holds more than 256 KiB, more than any such file"
        );
        assert_eq!(read_head(&big, 10).expect("head").len(), 10);
        std::fs::write(&big, "A=1\n").expect("write");
        assert_eq!(read_whole(&big, MAX_ENV_FILE).expect("read"), b"A=1\n");
    }
}
