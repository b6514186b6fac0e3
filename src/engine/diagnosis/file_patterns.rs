//! A file the server looked for by a name relative to its working folder: a brace or glob
//! pattern (`panda.config.{ts,js,mjs,mts}`, `*.config.js`) or a bare file name (`config.yaml`,
//! `gcp-oauth.keys.json`), beside not-found words, that no entry value or variable read beside
//! it names. The experiment: each name the pattern stands for, looked for in the folder the
//! server starts in (a stat, or one read of the folder for a glob) and in the folders the
//! message names: where none is there, the fix is to start it in the folder that holds the
//! file, or to point its option at the file.

use std::path::Path;

use super::model::{Found, Setting, Source};
use super::source_scan::is_file_extension;
use super::table::Id;

/// The most names a brace pattern is expanded to, and folder entries read for a glob.
const MAX_NAMES: usize = 16;
const MAX_ENTRIES: usize = 4096;

/// A pattern's names: `a.{ts,js}` -> `a.ts`, `a.js` (one brace group, or an alternation
/// `a.(ts|js)`); no group, itself.
pub(super) fn expand(pattern: &str) -> Vec<String> {
    let (o, c, sep) = if pattern.contains('{') {
        ('{', '}', ',')
    } else {
        ('(', ')', '|')
    };
    let (Some(open), Some(close)) = (pattern.find(o), pattern.find(c)) else {
        return vec![pattern.to_string()];
    };
    if close < open {
        return vec![pattern.to_string()];
    }
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close]
        .split(sep)
        .take(MAX_NAMES)
        .map(|alt| format!("{head}{}{tail}", alt.trim()))
        .collect()
}

/// Source files' extensions a config file may have (`panda.config.ts`, `eslint.config.mjs`).
const CODE_EXT: &[&str] = &[
    "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "py", "rb", "lua",
];

/// Whether `name` is a file's name: its part after the last dot is a configuration or data
/// file's extension or a source file's (`panda.config.ts`, `config.yaml`), or it is a glob
/// whose extension is one (`*.json`).
fn file_shaped(name: &str) -> bool {
    let last = name.rsplit('/').next().unwrap_or(name);
    last.rsplit_once('.').is_some_and(|(stem, e)| {
        !stem.is_empty() && (is_file_extension(e) || CODE_EXT.contains(&e))
    })
}

/// A brace or glob pattern of file names in `line` (quoted, backticked or a bare token):
/// `panda.config.{ts,js,mjs,mts}`, `tailwind.config.*` is not one (its extension is the glob),
/// `*.config.js` is.
pub(super) fn pattern_in(line: &str) -> Option<String> {
    let quoted = line
        .split(['`', '\'', '"'])
        .skip(1)
        .step_by(2)
        .map(str::trim);
    let bare = line.split_whitespace().map(|t| {
        t.trim_matches(['`', '\'', '"', ',', ';', ':'])
            .trim_end_matches('.')
    });
    let grouped = |t: &str| {
        (t.contains('{') && t.contains(',') && t.contains('}'))
            || (t.contains('(') && t.contains('|') && t.ends_with(')'))
    };
    quoted
        .chain(bare)
        .filter(|t| !t.is_empty() && !t.contains(' ') && !t.contains("://"))
        .filter(|t| grouped(t) || t.contains('*'))
        .find(|t| {
            let names = expand(t);
            names.len() <= MAX_NAMES && names.iter().all(|n| file_shaped(n))
        })
        .map(str::to_string)
}

/// Whether a file `name` (a glob allowed) is in `dir`.
fn present(dir: &Path, name: &str) -> bool {
    if !name.contains(['*', '?', '[']) {
        return std::fs::symlink_metadata(dir.join(name)).is_ok();
    }
    let (sub, leaf) = match name.rsplit_once('/') {
        Some((s, l)) => (dir.join(s), l),
        None => (dir.to_path_buf(), name),
    };
    let Ok(p) = glob::Pattern::new(leaf) else {
        return false;
    };
    let Ok(entries) = std::fs::read_dir(sub) else {
        return false;
    };
    entries
        .flatten()
        .take(MAX_ENTRIES)
        .any(|e| p.matches(&e.file_name().to_string_lossy()))
}

/// The row: `file` (a pattern or a bare name) is in neither the folder the server starts in
/// (`start`) nor the folders the message names (`places`): `missing-file` naming the folder
/// and the fix (start it where the file is, or point its option at it).
pub(super) fn working_folder(
    file: &str,
    line: &str,
    places: &[String],
    start: &Path,
    s: &Setting,
) -> Option<Found> {
    if file.contains('/') {
        return None;
    }
    let names = expand(file);
    let mut folders = vec![start.to_path_buf()];
    folders.extend(
        places
            .iter()
            .filter(|p| p.starts_with('/'))
            .map(std::path::PathBuf::from),
    );
    if folders.iter().any(|d| names.iter().any(|n| present(d, n))) {
        return None;
    }
    let shown: Vec<String> = folders.iter().map(|d| d.display().to_string()).collect();
    let what = if names.len() > 1 {
        format!("{} ({})", file, names.join(", "))
    } else {
        file.to_string()
    };
    let evidence = vec![
        (Source::Stderr, super::model::cut(line)),
        (
            Source::Tried,
            super::model::cut(&format!(
                "looked for {what} in {}: none there",
                shown.join(" and ")
            )),
        ),
    ];
    let cwd = super::words::terms("the entry's `cwd`", s);
    Some(Found {
        id: Id::MissingFile,
        summary: format!(
            "the server looks for `{file}` relative to the folder it starts in ({}), and there is none there",
            start.display()
        ),
        next: format!(
            "start it in the folder that holds `{file}` (the project's): set {cwd} to that folder (or pass it with the server's own folder option, such as `--cwd`), or point its config option at the file"
        ),
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brace_or_glob_pattern_of_file_names_is_read_from_the_line() {
        // pandacss's last words; prisma's, eslint's, a glob.
        assert_eq!(
            pattern_in("Cannot find config file `panda.config.{ts,js,mjs,mts}`. Did you forget to run `panda init`?").as_deref(),
            Some("panda.config.{ts,js,mjs,mts}")
        );
        assert_eq!(
            expand("panda.config.{ts,js,mjs,mts}"),
            [
                "panda.config.ts",
                "panda.config.js",
                "panda.config.mjs",
                "panda.config.mts"
            ]
        );
        assert_eq!(
            pattern_in("Error: no config found matching '*.config.json' in this folder").as_deref(),
            Some("*.config.json")
        );
        assert_eq!(
            pattern_in("Could not find {vite,vitest}.config.ts").as_deref(),
            Some("{vite,vitest}.config.ts")
        );
        // ESLint 9's own words: an alternation.
        assert_eq!(
            pattern_in("ESLint couldn't find an eslint.config.(js|mjs|cjs) file.").as_deref(),
            Some("eslint.config.(js|mjs|cjs)")
        );
        assert_eq!(
            expand("eslint.config.(js|mjs|cjs)"),
            ["eslint.config.js", "eslint.config.mjs", "eslint.config.cjs"]
        );
        // Not a file pattern: an object, a glob of hosts, plain words.
        for other in [
            "Error: missing field {a, b}",
            "no match for *.example.com not found",
            "Error: value {x,y} not found",
            "Cannot find config file",
        ] {
            assert_eq!(pattern_in(other), None, "{other}");
        }
    }

    #[test]
    fn a_file_in_the_folder_or_a_named_place_is_no_missing_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Setting::default();
        let line = "Cannot find config file `panda.config.{ts,js,mjs,mts}`.";
        let f = working_folder("panda.config.{ts,js,mjs,mts}", line, &[], dir.path(), &s)
            .expect("a finding");
        assert_eq!(f.id, Id::MissingFile);
        assert!(f.next.contains("`cwd`"), "{}", f.next);
        assert!(
            f.evidence
                .iter()
                .any(|(src, t)| *src == Source::Tried && t.contains("panda.config.mjs")),
            "{:?}",
            f.evidence
        );
        // Look-alikes: one of its names is there; a glob matches a file; a named place has it.
        std::fs::write(dir.path().join("panda.config.mjs"), "").expect("write");
        assert!(
            working_folder("panda.config.{ts,js,mjs,mts}", line, &[], dir.path(), &s).is_none()
        );
        std::fs::write(dir.path().join("app.config.json"), "").expect("write");
        assert!(working_folder("*.config.json", line, &[], dir.path(), &s).is_none());
        let other = tempfile::tempdir().expect("tempdir");
        std::fs::write(other.path().join("keys.json"), "").expect("write");
        let places = [other.path().display().to_string()];
        let empty = tempfile::tempdir().expect("tempdir");
        assert!(working_folder("keys.json", line, &places, empty.path(), &s).is_none());
        assert!(working_folder("keys.json", line, &[], empty.path(), &s).is_some());
    }
}
