//! The row about git's refusal of a folder (`fatal: not a git repository (or any of the parent
//! directories): .git`, printed by git itself and passed on by simple-git's `GitError`,
//! GitPython's `InvalidGitRepositoryError`), tied to the entry by an experiment: the one entry
//! value that is a folder on disk with no `.git` in it or above it (looked at, at most 64
//! folders up; the one named for a repository when several are) is the one to change (`Key::NotAGitRepositoryAndEntryFolderHasNone`).

use std::path::{Path, PathBuf};

use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// Whether a line is git's refusal of a folder.
fn refuses(line: &str) -> bool {
    line.contains("not a git repository") || line.contains("InvalidGitRepositoryError")
}

/// Whether `dir` or a folder above it holds `.git`.
fn in_repository(dir: &Path) -> bool {
    dir.ancestors().take(64).any(|d| d.join(".git").exists())
}

/// The row.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let line = lines.iter().find(|l| refuses(l))?;
    let cwd = s.cwd.clone().or_else(|| std::env::current_dir().ok());
    let folders: Vec<(String, String, PathBuf)> = entry_values(s)
        .into_iter()
        .filter_map(|(shown, v)| {
            let p = Path::new(&v);
            let p = match (&cwd, p.is_absolute()) {
                (_, true) => p.to_path_buf(),
                (Some(c), false) if !v.starts_with('-') && !v.is_empty() => c.join(p),
                _ => return None,
            };
            (p.is_dir() && !in_repository(&p)).then_some((shown, v, p))
        })
        .collect();
    // The one named for a repository (`GIT_REPO_PATH`, `--repository`), else the only one (the
    // caller's `HOME` or `PWD` is a folder too).
    let named: Vec<&(String, String, PathBuf)> = folders
        .iter()
        .filter(|(shown, _, _)| {
            let low = shown
                .split('=')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            low.contains("repo") || low.contains("git")
        })
        .collect();
    let (shown, v, _) = match (named.as_slice(), folders.as_slice()) {
        ([one], _) => *one,
        ([], [one]) => one,
        _ => return None,
    };
    let quoted = cut(line.trim());
    Some(Found {
        id: Id::BadArgument,
        summary: format!("{shown}: the server wants a git repository there, and {v} is none"),
        next: format!(
            "point {shown} at the folder of a git repository (one holding `.git`): {v} has none in it or above it (git says \"{quoted}\")"
        ),
        evidence: vec![
            (Source::Stderr, quoted),
            (
                Source::Tried,
                cut(&format!("look for .git in {v} and the folders above it: none")),
            ),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gits_refusal_and_a_repository_above_are_known() {
        assert!(refuses(
            "GitError: fatal: not a git repository (or any of the parent directories): .git"
        ));
        assert!(!refuses(
            "fatal: could not read Username for 'https://github.com'"
        ));
        let dir = tempfile::tempdir().expect("tempdir");
        let inner = dir.path().join("a/b");
        std::fs::create_dir_all(&inner).expect("mkdir");
        assert!(!in_repository(&inner));
        std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
        assert!(in_repository(&inner));
    }
}
