//! Which files `check-config` reads for its arguments: a file as given, a folder searched for
//! the file names hosts read, a glob (quoted, or from a shell that does not expand it) expanded
//! here, `-` for standard input.

use std::path::{Path, PathBuf};

/// File names hosts read their servers from (matched anywhere below a folder argument).
pub const HOST_FILE_NAMES: &[(&str, &str)] = &[
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
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file to read (it may still fail to read: a missing one is reported as such).
    File(PathBuf),
}

/// Why an argument gave no file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoverError {
    #[error("{0}: no host configuration file in this folder (looked for {names})", names = host_file_list())]
    EmptyFolder(String),
    #[error("{0}: no file matches this pattern")]
    NoMatch(String),
    #[error("{pattern}: not a valid pattern: {reason}")]
    BadPattern { pattern: String, reason: String },
}

/// The searched names, for messages and docs.
pub fn host_file_list() -> String {
    HOST_FILE_NAMES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `path` (below a searched folder) is a file hosts read.
pub fn is_host_file(path: &Path) -> bool {
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

/// The inputs of the command's arguments, in order, each file once.
pub fn inputs(args: &[PathBuf]) -> Result<Vec<Input>, DiscoverError> {
    let mut out: Vec<Input> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |out: &mut Vec<Input>, i: Input| {
        if seen.insert(i.clone()) {
            out.push(i);
        }
    };
    for arg in args {
        if arg == Path::new("-") {
            push(&mut out, Input::Stdin);
            continue;
        }
        if arg.is_dir() {
            let found = search(arg);
            if found.is_empty() {
                return Err(DiscoverError::EmptyFolder(arg.display().to_string()));
            }
            for f in found {
                push(&mut out, Input::File(f));
            }
            continue;
        }
        let text = arg.to_string_lossy();
        if !arg.exists() && has_glob_chars(&text) {
            // As shells do: `*` does not match a leading dot.
            let options = glob::MatchOptions {
                require_literal_leading_dot: true,
                ..glob::MatchOptions::new()
            };
            let paths = glob::glob_with(&text, options).map_err(|e| DiscoverError::BadPattern {
                pattern: text.to_string(),
                reason: e.msg.to_string(),
            })?;
            let mut found: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
            found.sort();
            let mut any = false;
            for p in found {
                if p.is_dir() {
                    for f in search(&p) {
                        any = true;
                        push(&mut out, Input::File(f));
                    }
                } else {
                    any = true;
                    push(&mut out, Input::File(p));
                }
            }
            if !any {
                return Err(DiscoverError::NoMatch(text.to_string()));
            }
            continue;
        }
        push(&mut out, Input::File(arg.clone()));
    }
    Ok(out)
}

/// Every host file below `dir`, sorted; symlinked folders are not followed.
pub fn search(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
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
            if kind.is_dir() {
                let skipped = entry
                    .file_name()
                    .to_str()
                    .is_some_and(|n| SKIPPED_DIRS.contains(&n));
                if !skipped && depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
            } else if (kind.is_file() || (kind.is_symlink() && path.is_file()))
                && is_host_file(&path)
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A file name in the same folder close to `path`'s (a slip of the keyboard), if there is one.
pub fn near_file_name(path: &Path) -> Option<PathBuf> {
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
