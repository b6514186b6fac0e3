//! A configuration file's bytes as the host would read them, and byte offsets as line:column.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::discover;

/// A configuration file read into memory.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name findings use: the path as given, or `<stdin>`.
    pub name: String,
    /// The folder `./` and `../` args are resolved against (the file's own folder; the current
    /// directory for standard input).
    pub dir: PathBuf,
    pub text: String,
}

/// The name standard input goes by in findings.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// The most a configuration file (or standard input) may hold: 256 MiB. Reading stops there, so
/// an endless stream (`/dev/zero`, a pipe that never closes its end after writing) is refused
/// with a clear message instead of filling memory. Host configuration files are a few KB; the
/// host's Node could read one up to its string limit (about 512 MiB), which no real file nears.
pub(crate) const MAX_INPUT: usize = 256 * 1024 * 1024;

/// `path` opened to read, and whether it is a FIFO. Opening a FIFO blocks until a program opens
/// it to write, maybe never: it is opened non-blocking (at once), then read blocking, which
/// ends at once with nothing when no program has it open to write (a pipe from `<(command)`
/// has one, and is read whole).
fn open_never_blocking(path: &Path) -> std::io::Result<(std::fs::File, bool)> {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(OFlag::O_NONBLOCK.bits())
        .open(path)?;
    let fifo = file.metadata()?.file_type().is_fifo();
    let flags = OFlag::from_bits_truncate(fcntl(&file, FcntlArg::F_GETFL)?);
    fcntl(&file, FcntlArg::F_SETFL(flags - OFlag::O_NONBLOCK))?;
    Ok((file, fifo))
}

/// Read all of `r`, refusing more than [`MAX_INPUT`] bytes (memory never grows past it).
fn read_capped(mut r: impl Read, name: &str) -> Result<Vec<u8>, LoadError> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(LoadError::Io {
                    file: name.to_string(),
                    source,
                })
            }
        };
        if bytes.len() + n > MAX_INPUT {
            return Err(LoadError::TooLarge {
                file: name.to_string(),
                bytes: bytes.len() + n,
            });
        }
        if bytes.capacity() < bytes.len() + n {
            // Double, but never past the cap (no 512 MiB allocation for a 256 MiB limit).
            let want = (bytes.capacity() * 2).max(bytes.len() + n).min(MAX_INPUT);
            bytes.reserve_exact(want - bytes.len());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

impl Source {
    /// Read a file, or standard input when `path` is `-`.
    pub(crate) fn read(path: &Path) -> Result<Source, LoadError> {
        if path == Path::new("-") {
            let bytes = read_capped(std::io::stdin().lock(), STDIN_NAME)?;
            let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            return Source::from_bytes(STDIN_NAME, dir, bytes);
        }
        let name = path.display().to_string();
        crate::engine::outfile::remember_input(path);
        let (file, fifo) = open_never_blocking(path).map_err(|source| LoadError::Io {
            file: name.clone(),
            source,
        })?;
        let bytes = read_capped(file, &name)?;
        if fifo && bytes.is_empty() {
            return Err(LoadError::FifoWithoutWriter { file: name });
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let dir = std::path::absolute(&parent).unwrap_or(parent);
        Source::from_bytes(name, dir, bytes)
    }

    /// Standard input under the name `name` (`--stdin-filename`): read with the same cap as any
    /// input, `./` and `../` args resolved against `name`'s folder.
    pub(crate) fn read_stdin_named(name: &str) -> Result<Source, LoadError> {
        let bytes = read_capped(std::io::stdin().lock(), name)?;
        let parent = match Path::new(name).parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let dir = std::path::absolute(&parent).unwrap_or(parent);
        Source::from_bytes(name, dir, bytes)
    }

    /// A source from bytes already in memory. Refuses what the host's
    /// `JSON.parse(fs.readFileSync(file, 'utf8'))` cannot read: invalid UTF-8 (Node would
    /// replace it with U+FFFD and then fail or read something else), and a byte order mark
    /// (Node keeps it as U+FEFF and `JSON.parse` fails on it at position 0).
    pub(crate) fn from_bytes(
        name: impl Into<String>,
        dir: PathBuf,
        bytes: Vec<u8>,
    ) -> Result<Source, LoadError> {
        let name = name.into();
        if bytes.len() > MAX_INPUT.min(super::json::MAX_LEN) {
            return Err(LoadError::TooLarge {
                file: name,
                bytes: bytes.len(),
            });
        }
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let offset = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                // Everything before `offset` is valid UTF-8.
                let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or("");
                let (line, column) = LineIndex::new(valid).position(valid, offset);
                return Err(LoadError::InvalidUtf8 {
                    file: name,
                    offset,
                    line,
                    column,
                });
            }
        };
        if text.starts_with('\u{FEFF}') {
            return Err(LoadError::Bom { file: name });
        }
        if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
            return Err(LoadError::Empty { file: name });
        }
        Ok(Source { name, dir, text })
    }
}

/// Where each line starts, for turning byte offsets into 1-based line:column. Columns count
/// characters (Unicode scalar values), as editors and GitHub annotations do.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The 0-based line holding `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The byte span of a 0-based line, without its line break.
    pub(crate) fn line_span(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts.get(line).copied().unwrap_or(text.len());
        let mut end = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |next| next - 1);
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end.max(start))
    }

    /// 1-based line and column of one offset.
    pub(crate) fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.starts[line];
        (line + 1, 1 + chars_between(text, start, offset))
    }

    /// 1-based line and column of many offsets, counting each line's characters once (a
    /// minified file is one long line; thousands of findings on it stay linear).
    pub(crate) fn positions(&self, text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_by_key(|&i| offsets[i]);
        let mut out = vec![(1, 1); offsets.len()];
        let mut prev: Option<(usize, usize, usize)> = None; // (offset, line, column)
        for i in order {
            let off = offsets[i].min(text.len());
            let line = self.line_of(off);
            let column = match prev {
                Some((p_off, p_line, p_col)) if p_line == line + 1 => {
                    p_col + chars_between(text, p_off, off)
                }
                _ => 1 + chars_between(text, self.starts[line], off),
            };
            out[i] = (line + 1, column);
            prev = Some((off, line + 1, column));
        }
        out
    }
}

/// Characters in `text[a..b]` (counted on bytes: every byte that does not continue a
/// character starts one).
fn chars_between(text: &str, a: usize, b: usize) -> usize {
    let bytes = text.as_bytes();
    let b = b.min(bytes.len());
    if a >= b {
        return 0;
    }
    bytes[a..b].iter().filter(|&&x| (x & 0xC0) != 0x80).count()
}

/// Why a file could not be checked at all (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{file}: cannot read: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{file}:{line}:{column}: not valid UTF-8 (at byte offset {offset}); the host reads the file as UTF-8"
    )]
    InvalidUtf8 {
        file: String,
        offset: usize,
        line: usize,
        column: usize,
    },
    #[error("{file}:1:1: starts with a UTF-8 byte order mark; the host's JSON.parse(fs.readFileSync(file, 'utf8')) keeps it and fails at position 0, so it loads no server from this file")]
    Bom { file: String },
    #[error("{file}: the file is empty; JSON.parse refuses it (Unexpected end of JSON input), so the host loads no server from it")]
    Empty { file: String },
    #[error("{file}: larger than {} MiB, where mcpl-doctor stops reading (a host configuration is a few KB: an endless stream such as /dev/zero?)", MAX_INPUT >> 20)]
    TooLarge { file: String, bytes: usize },
    #[error(
        "{file}: a FIFO (named pipe) that no program writes to; not read (reading it would block)"
    )]
    FifoWithoutWriter { file: String },
    #[error("{file}:{line}:{column}: {message}; the host's JSON.parse refuses this file")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        offset: usize,
        message: String,
    },
}

impl LoadError {
    /// The file the error is about.
    pub(crate) fn file(&self) -> &str {
        match self {
            LoadError::Io { file, .. }
            | LoadError::InvalidUtf8 { file, .. }
            | LoadError::Bom { file }
            | LoadError::Empty { file }
            | LoadError::FifoWithoutWriter { file }
            | LoadError::TooLarge { file, .. }
            | LoadError::Syntax { file, .. } => file,
        }
    }

    /// 1-based line and column, when the error has a position.
    pub(crate) fn position(&self) -> Option<(usize, usize)> {
        match self {
            LoadError::InvalidUtf8 { line, column, .. }
            | LoadError::Syntax { line, column, .. } => Some((*line, *column)),
            LoadError::Bom { .. } => Some((1, 1)),
            _ => None,
        }
    }

    /// A one-line hint on what to do, when there is one: for a missing file, a file of a near
    /// name in the same folder; for a folder, what to give instead.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            LoadError::Bom { .. } => {
                Some("save the file as UTF-8 without a byte order mark".to_string())
            }
            LoadError::InvalidUtf8 { .. } => Some("save the file as UTF-8".to_string()),
            LoadError::Io { file, source } => {
                let path = Path::new(file);
                if source.kind() == std::io::ErrorKind::NotFound {
                    discover::near_file_name(path)
                        .map(|near| format!("did you mean {}?", near.display()))
                } else if path.is_dir() {
                    let found = discover::search(path);
                    Some(match found.first() {
                        Some(f) => format!(
                            "this is a folder: give a file, e.g. {} ({} host file{} below it)",
                            f.display(),
                            found.len(),
                            if found.len() == 1 { "" } else { "s" }
                        ),
                        None => format!(
                            "this is a folder, and it holds no host configuration file (looked \
                             for {})",
                            discover::host_file_list()
                        ),
                    })
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let text = "{\n  \"é\": 1,\r\n  \"b\": 2\n}";
        let idx = LineIndex::new(text);
        let one = text.find('1').unwrap_or(0);
        let two = text.find('2').unwrap_or(0);
        assert_eq!(idx.position(text, one), (2, 8));
        assert_eq!(idx.position(text, two), (3, 8));
        assert_eq!(
            idx.positions(text, &[two, 0, one, one]),
            vec![(3, 8), (1, 1), (2, 8), (2, 8)]
        );
        assert_eq!(idx.line_span(text, 1), (2, 12));
        assert_eq!(&text[2..12], "  \"é\": 1,");
    }

    #[test]
    fn refuses_bom_bad_utf8_and_empty() {
        let dir = PathBuf::from(".");
        let bom = Source::from_bytes("a.json", dir.clone(), b"\xEF\xBB\xBF{}".to_vec());
        assert!(matches!(bom, Err(LoadError::Bom { .. })));
        let bad = Source::from_bytes("a.json", dir.clone(), b"{\n \"a\": \"\xFF\"}".to_vec());
        match bad {
            Err(LoadError::InvalidUtf8 {
                offset,
                line,
                column,
                ..
            }) => assert_eq!((offset, line, column), (9, 2, 8)),
            other => panic!("{other:?}"),
        }
        let empty = Source::from_bytes("a.json", dir.clone(), b" \n\t".to_vec());
        assert!(matches!(empty, Err(LoadError::Empty { .. })));
        assert!(Source::from_bytes("a.json", dir, b"{}".to_vec()).is_ok());
    }
}
