//! Which files `check-config` reads for its arguments: a file as given, a folder searched for
//! the file names hosts read, a glob (quoted, or from a shell that does not expand it) expanded
//! here, `-` for standard input.

use std::path::{Path, PathBuf};

/// File names hosts read their servers from (matched anywhere below a folder argument).
pub(crate) const HOST_FILE_NAMES: &[(&str, &str)] = &[
    (
        "mcp.json",
        "VS Code `.vscode/mcp.json`, Cursor `.cursor/mcp.json`",
    ),
    (".mcp.json", "Claude Code"),
    ("claude_desktop_config.json", "Claude Desktop"),
    ("mcpl-servers.json", "connectome-host registry"),
    (
        "*.agent.json",
        "connectome-host agent overlay (`mcpl-servers.agent.json`)",
    ),
    ("recipes/*.json", "connectome-host recipes"),
];

/// Folders a search never enters.
const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules", "target"];

/// Folders deeper than this below the argument are not searched.
const MAX_DEPTH: usize = 24;

/// What one argument stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Input {
    /// Standard input.
    Stdin,
    /// A file to read (it may still fail to read: a missing one is reported as such).
    File(PathBuf),
}

/// Why an argument gave no file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DiscoverError {
    #[error("{0}: no host configuration file in this folder (looked for {names})", names = host_file_list())]
    EmptyFolder(String),
    #[error("{0}: no file matches this pattern")]
    NoMatch(String),
    #[error("{pattern}: not a valid pattern: {reason}")]
    BadPattern { pattern: String, reason: String },
}

/// The searched names, for messages and docs.
pub(crate) fn host_file_list() -> String {
    HOST_FILE_NAMES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `path` (below a searched folder) is a file hosts read.
pub(crate) fn is_host_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if matches!(
        name,
        "mcp.json" | ".mcp.json" | "claude_desktop_config.json" | "mcpl-servers.json"
    ) || name.ends_with(".agent.json")
    {
        return true;
    }
    name.ends_with(".json")
        && path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "recipes")
}

fn has_glob_chars(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Something a folder search or a glob passed over without reading it, and why: the user is
/// told, since a file that is not read is otherwise silently unchecked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Skipped {
    pub path: PathBuf,
    pub why: SkipReason,
}

/// Why a path was passed over.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SkipReason {
    /// A folder that cannot be listed (the error's words).
    UnreadableFolder(String),
    /// A symbolic link to nothing.
    DanglingLink,
    /// A symbolic link to a folder, which `**` and folder searches do not follow.
    FolderLink,
    /// A FIFO, a device or a socket: opening or reading it could block.
    NotAFile(&'static str),
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match &self.why {
            SkipReason::UnreadableFolder(e) => {
                write!(f, "{path}: cannot read this folder ({e}); skipped")
            }
            SkipReason::DanglingLink => write!(
                f,
                "{path}: a symbolic link to a file that does not exist; skipped"
            ),
            SkipReason::FolderLink => {
                write!(f, "{path}: a symbolic link to a folder; not followed")
            }
            SkipReason::NotAFile(what) => write!(
                f,
                "{path}: {what}, not a file; skipped (reading it could block)"
            ),
        }
    }
}

/// The inputs of the command's arguments, in order, each file once.
#[cfg(test)]
pub(crate) fn inputs(args: &[PathBuf]) -> Result<Vec<Input>, DiscoverError> {
    inputs_noting(args, &mut Vec::new())
}

/// [`inputs`], adding to `skipped` what a folder search or a glob passed over (also when an
/// argument then gives no file, so that the error can be explained). A file reached by several
/// paths (links, a glob through a symlinked folder) is read once (by device and inode);
/// symlinked folders are not followed below a folder argument or by a glob's `**` (a link loop
/// would otherwise repeat every file, or never end), and are noted; FIFOs, devices and sockets found by a
/// search or a glob are never opened (a FIFO blocks until a writer comes). A path given as it is
/// is read as given.
pub(crate) fn inputs_noting(
    args: &[PathBuf],
    skipped: &mut Vec<Skipped>,
) -> Result<Vec<Input>, DiscoverError> {
    let mut found = Vec::new();
    let mut seen_paths = std::collections::HashSet::new();
    let mut seen_files = std::collections::HashSet::new();
    let mut push = |found: &mut Vec<Input>, i: Input| {
        if let Input::File(p) = &i {
            use std::os::unix::fs::MetadataExt;
            if let Ok(m) = std::fs::metadata(p) {
                if !seen_files.insert((m.dev(), m.ino())) {
                    return;
                }
            }
        }
        if seen_paths.insert(i.clone()) {
            found.push(i);
        }
    };
    for arg in args {
        if arg == Path::new("-") {
            push(&mut found, Input::Stdin);
            continue;
        }
        if arg.is_dir() {
            let files = search_noting(arg, skipped);
            if files.is_empty() {
                return Err(DiscoverError::EmptyFolder(arg.display().to_string()));
            }
            for f in files {
                push(&mut found, Input::File(f));
            }
            continue;
        }
        let text = arg.to_string_lossy();
        if !arg.exists() && has_glob_chars(&text) {
            let mut matched = expand_glob(&text, skipped)?;
            matched.sort();
            let mut any = false;
            for p in matched {
                if p.is_dir() {
                    for f in search_noting(&p, skipped) {
                        any = true;
                        push(&mut found, Input::File(f));
                    }
                } else {
                    any = true;
                    push(&mut found, Input::File(p));
                }
            }
            if !any {
                return Err(DiscoverError::NoMatch(text.to_string()));
            }
            continue;
        }
        push(&mut found, Input::File(arg.clone()));
    }
    Ok(found)
}

/// What a path found by a search or a glob is, following a link at its end.
enum Kind {
    File,
    Dir,
    Skipped(SkipReason),
}

fn kind_of(path: &Path) -> Kind {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(_) => {
            let dangling =
                std::fs::symlink_metadata(path).is_ok_and(|l| l.file_type().is_symlink());
            // Anything else is left to reading it, which says what is wrong.
            return if dangling {
                Kind::Skipped(SkipReason::DanglingLink)
            } else {
                Kind::File
            };
        }
    };
    let t = meta.file_type();
    if t.is_file() {
        Kind::File
    } else if t.is_dir() {
        Kind::Dir
    } else if t.is_fifo() {
        Kind::Skipped(SkipReason::NotAFile("a FIFO (named pipe)"))
    } else if t.is_char_device() || t.is_block_device() {
        Kind::Skipped(SkipReason::NotAFile("a device"))
    } else if t.is_socket() {
        Kind::Skipped(SkipReason::NotAFile("a socket"))
    } else {
        Kind::Skipped(SkipReason::NotAFile("not a regular file"))
    }
}

/// One component of a glob pattern: `**`, a literal name, or a pattern for one name.
enum Part {
    AnyFolders,
    Literal(String),
    Pattern(glob::Pattern),
}

/// The files and folders a glob pattern matches, walked one component at a time: `**` enters
/// real folders only (a symbolic link to one is noted in `skipped`), down to [`MAX_DEPTH`]; a
/// wildcard component matches names in one folder and enters folders and links to them, as
/// shells do (each consumes a component, so a link loop cannot go on); a literal component is
/// followed as given. As shells do, `*` (and `**`) do not match a leading dot. What matches and
/// is no file nor folder is added to `skipped`, never opened.
fn expand_glob(pattern: &str, skipped: &mut Vec<Skipped>) -> Result<Vec<PathBuf>, DiscoverError> {
    let bad = |e: glob::PatternError| DiscoverError::BadPattern {
        pattern: pattern.to_string(),
        reason: e.msg.to_string(),
    };
    // Checked whole first, for the same messages as before.
    glob::Pattern::new(pattern).map_err(bad)?;
    let mut base = PathBuf::new();
    let mut parts = Vec::new();
    for c in Path::new(pattern).components() {
        let text = c.as_os_str().to_string_lossy().into_owned();
        if parts.is_empty() && !has_glob_chars(&text) {
            base.push(c.as_os_str());
        } else if text == "**" {
            parts.push(Part::AnyFolders);
        } else if has_glob_chars(&text) {
            parts.push(Part::Pattern(glob::Pattern::new(&text).map_err(bad)?));
        } else {
            parts.push(Part::Literal(text));
        }
    }
    let mut matched = Vec::new();
    walk(&base, &parts, 0, &mut matched, skipped);
    let mut out = Vec::new();
    for p in matched {
        match kind_of(&p) {
            Kind::File | Kind::Dir => out.push(p),
            Kind::Skipped(why) => skipped.push(Skipped { path: p, why }),
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// How an entry of a listed folder stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A real folder.
    Dir,
    /// A symbolic link to a folder.
    DirLink,
    /// Anything else.
    Other,
}

/// `dir`'s entries: name, path, and whether it is a folder or a link to one; a folder that
/// cannot be listed is added to `skipped` (one that does not exist is not).
fn listing(dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<(String, PathBuf, Entry)> {
    let shown = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match std::fs::read_dir(shown) {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                let path = dir.join(e.file_name());
                let entry = match e.file_type() {
                    Ok(t) if t.is_dir() => Entry::Dir,
                    Ok(t) if t.is_symlink() && path.is_dir() => Entry::DirLink,
                    _ => Entry::Other,
                };
                Some((name, path, entry))
            })
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => Vec::new(),
        Err(e) => {
            skipped.push(Skipped {
                path: shown.to_path_buf(),
                why: SkipReason::UnreadableFolder(e.to_string()),
            });
            Vec::new()
        }
    }
}

fn walk(
    dir: &Path,
    parts: &[Part],
    depth: usize,
    out: &mut Vec<PathBuf>,
    skipped: &mut Vec<Skipped>,
) {
    let Some((first, rest)) = parts.split_first() else {
        out.push(dir.to_path_buf());
        return;
    };
    let options = glob::MatchOptions {
        require_literal_leading_dot: true,
        ..glob::MatchOptions::new()
    };
    match first {
        Part::AnyFolders => {
            // No folder, or any number of real ones.
            walk(dir, rest, depth, out, skipped);
            if depth >= MAX_DEPTH {
                return;
            }
            for (name, path, entry) in listing(dir, skipped) {
                if name.starts_with('.') {
                    continue;
                }
                match entry {
                    Entry::Dir => walk(&path, parts, depth + 1, out, skipped),
                    // Never followed: a link loop would repeat every file, or never end.
                    Entry::DirLink => skipped.push(Skipped {
                        path,
                        why: SkipReason::FolderLink,
                    }),
                    Entry::Other => {}
                }
            }
        }
        Part::Literal(name) => {
            let path = dir.join(name);
            if rest.is_empty() {
                if std::fs::symlink_metadata(&path).is_ok() {
                    out.push(path);
                }
            } else if path.is_dir() {
                walk(&path, rest, depth + 1, out, skipped);
            }
        }
        Part::Pattern(p) => {
            for (name, path, entry) in listing(dir, skipped) {
                if !p.matches_with(&name, options) {
                    continue;
                }
                if rest.is_empty() {
                    out.push(path);
                } else if entry != Entry::Other {
                    // A link to a folder too, as shells follow it: one component of the
                    // pattern each, so a loop ends with the pattern.
                    walk(&path, rest, depth + 1, out, skipped);
                }
            }
        }
    }
}

/// Every host file below `dir`, sorted; symlinked folders are not followed.
pub(crate) fn search(dir: &Path) -> Vec<PathBuf> {
    search_noting(dir, &mut Vec::new())
}

/// [`search`], adding to `skipped` what it passed over: folders it cannot list, symbolic links
/// to folders, and entries with a host file's name that are FIFOs, devices, sockets or dangling
/// links.
pub(crate) fn search_noting(dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(entries) => entries,
            Err(e) => {
                skipped.push(Skipped {
                    path: d,
                    why: SkipReason::UnreadableFolder(e.to_string()),
                });
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let skipped_dir = entry
                .file_name()
                .to_str()
                .is_some_and(|n| SKIPPED_DIRS.contains(&n));
            if kind.is_dir() {
                if !skipped_dir && depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
            } else if kind.is_symlink() && !skipped_dir && path.is_dir() {
                skipped.push(Skipped {
                    path,
                    why: SkipReason::FolderLink,
                });
            } else if is_host_file(&path) {
                match kind_of(&path) {
                    Kind::File => found.push(path),
                    Kind::Dir => {}
                    Kind::Skipped(why) => skipped.push(Skipped { path, why }),
                }
            }
        }
    }
    found.sort();
    found
}

/// The `.json` files below `dir` that a search passes over because hosts do not read them by
/// that name (`hosts.json`), sorted; folders are walked as [`search_noting`] walks them.
pub(crate) fn passed_over(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_ref()) && depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
            } else if kind.is_file() && name.ends_with(".json") && !is_host_file(&path) {
                out.push(path);
            }
        }
        if out.len() > 10_000 {
            break;
        }
    }
    out.sort();
    out
}

/// Whether the file at `path` looks like a host configuration under another name: it has an
/// `mcpServers`, `mcplServers` or `servers` table (read up to 1 MiB, not parsed).
pub(crate) fn holds_server_table(path: &Path) -> bool {
    let Some(text) = crate::engine::infile::read_head_text(path, 1 << 20) else {
        return false;
    };
    ["\"mcpServers\"", "\"mcplServers\"", "\"servers\""]
        .iter()
        .any(|key| text.contains(key))
}

/// A file name in the same folder close to `path`'s (a slip of the keyboard), if there is one.
pub(crate) fn near_file_name(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let names: Vec<String> = std::fs::read_dir(parent)
        .ok()?
        .flatten()
        .take(10_000)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    let best = names
        .iter()
        .filter(|n| n.as_str() != name)
        .map(|n| (super::fields::distance(name, n), n))
        .filter(|(d, n)| *d <= 2.max(n.chars().count() / 5))
        .min_by_key(|(d, _)| *d)?;
    Some(match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(best.1),
        _ => PathBuf::from(best.1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_file_names() {
        for yes in [
            ".vscode/mcp.json",
            "a/.mcp.json",
            "mcpl-servers.json",
            "x/mcpl-servers.agent.json",
            "repo/recipes/research.json",
            "claude_desktop_config.json",
        ] {
            assert!(is_host_file(Path::new(yes)), "{yes}");
        }
        for no in ["package.json", "tsconfig.json", "mcp.jsonc", "recipes.json"] {
            assert!(!is_host_file(Path::new(no)), "{no}");
        }
    }

    #[test]
    fn folders_globs_and_stdin() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let root = dir.path();
        for f in [
            ".vscode/mcp.json",
            "node_modules/x/.mcp.json",
            "recipes/a.json",
            "package.json",
            "deep/mcpl-servers.agent.json",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&p, "{}").expect("write");
        }
        let got = inputs(&[root.to_path_buf()]).expect("found");
        let want: Vec<Input> = [
            ".vscode/mcp.json",
            "deep/mcpl-servers.agent.json",
            "recipes/a.json",
        ]
        .iter()
        .map(|f| Input::File(root.join(f)))
        .collect();
        assert_eq!(got, want);
        let pattern = root.join("*.json");
        assert_eq!(
            inputs(&[pattern]).expect("matches"),
            vec![Input::File(root.join("package.json"))]
        );
        let none = root.join("*.yaml");
        assert!(matches!(inputs(&[none]), Err(DiscoverError::NoMatch(_))));
        let empty = root.join("empty");
        std::fs::create_dir(&empty).expect("mkdir");
        assert!(matches!(
            inputs(&[empty]),
            Err(DiscoverError::EmptyFolder(_))
        ));
        assert_eq!(
            inputs(&[PathBuf::from("-"), PathBuf::from("-")]).expect("stdin"),
            vec![Input::Stdin]
        );
        assert_eq!(
            near_file_name(&root.join("pakage.json")),
            Some(root.join("package.json"))
        );
    }
}
