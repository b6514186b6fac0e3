//! The rows keyed on what the server's own source reads (the experiment of
//! [`super::source_scan`], run once per diagnosis and only on a launch that died): a variable
//! the entry sets that the server never reads beside an unset one close to it (a rename), and
//! last words that name no variable but whose words are those of exactly one unset variable
//! the server reads ("A Shortcut api token is required." and `SHORTCUT_API_TOKEN`).
//!
//! Finding the code: the command's resolved path, links followed (`node_modules/.bin/x` is a
//! link into its package: the nearest `package.json` up the tree), npx's cache, uvx's cache, a
//! Python console script (its `#!` interpreter's site-packages and the module its
//! `from X import main` names), `python -m X`, `node path/file.js`, a plain script. A native
//! binary (Go, Rust) is not read.

use std::path::{Path, PathBuf};

use super::given::{entry_env, is_set};
use super::manifest;
use super::model::{cut, Found, Setting, Source};
use super::node_rows;
use super::source_scan::{self, Code, Read, Scanned};
use super::table::Id;

/// How deep a package's folders are read.
const PACKAGE_DEPTH: usize = 8;

/// The most cache folders looked at for a uvx tool.
const MAX_CACHE_DIRS: usize = 256;

/// What the server's source reads: scanned once per diagnosis (the rows of every launch share
/// it), `None` when its code was not found or is not read (a native binary).
pub(super) fn scanned(s: &Setting) -> Option<&Scanned> {
    s.source
        .get_or_init(|| locate(s).map(|c| source_scan::scan(&c, source_scan::BOUNDS)))
        .as_ref()
        .filter(|x| x.files > 0)
}

fn base(cmd: &str) -> &str {
    cmd.rsplit('/').next().unwrap_or(cmd)
}

fn is_python(b: &str) -> bool {
    b == "python"
        || b.strip_prefix("python")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The first argument that is no flag (a script, a package).
fn operand(args: &[String]) -> Option<&str> {
    args.iter()
        .map(String::as_str)
        .find(|a| !a.starts_with('-'))
}

/// Where the server's code is, from how it is started.
pub(super) fn locate(s: &Setting) -> Option<Code> {
    let cmd = s.command.as_deref()?;
    let b = base(cmd);
    let cwd = s.cwd.clone().or_else(|| std::env::current_dir().ok());
    let path = s.path.clone().or_else(|| std::env::var("PATH").ok());
    let rel = |p: &str| {
        let p = PathBuf::from(p);
        match (&cwd, p.is_relative()) {
            (Some(c), true) => c.join(p),
            _ => p,
        }
    };
    match b {
        "npx" => node_rows::npx_cached_dir(s).map(|root| Code::Folder {
            root,
            depth: PACKAGE_DEPTH,
        }),
        "uvx" => uvx_tool(s).and_then(|bin| program_code(&bin, path.as_deref())),
        "node" | "nodejs" | "bun" => node_code(&rel(operand(&s.args)?)),
        _ if is_python(b) => {
            let interp = manifest::resolve(cmd, path.as_deref())?;
            if let Some(i) = s.args.iter().position(|a| a == "-m") {
                let module = s.args.get(i + 1)?;
                return module_code(&interp, module, cwd.as_deref());
            }
            script_code(&rel(operand(&s.args)?))
        }
        _ => program_code(&manifest::resolve(cmd, path.as_deref())?, path.as_deref()),
    }
}

/// The package a Node script belongs to (its folder), or the script alone.
fn node_code(script: &Path) -> Option<Code> {
    let real = std::fs::canonicalize(script).ok()?;
    Some(match manifest::package_of(&real) {
        Some(root) => Code::Folder {
            root,
            depth: PACKAGE_DEPTH,
        },
        None => Code::File(real),
    })
}

/// A Python script: its folder when it is part of a package or a project (an `__init__.py`
/// or a `pyproject.toml` beside it), else the file alone.
fn script_code(script: &Path) -> Option<Code> {
    let real = std::fs::canonicalize(script).ok()?;
    let dir = real.parent()?;
    if dir.join("__init__.py").is_file() || dir.join("pyproject.toml").is_file() {
        return Some(Code::Folder {
            root: dir.to_path_buf(),
            depth: 3,
        });
    }
    Some(Code::File(real))
}

/// The code of a program found on the PATH: a Node bin (a link into its package), a Python
/// console script, a script; `None` for a native binary.
fn program_code(file: &Path, path: Option<&str>) -> Option<Code> {
    let real = std::fs::canonicalize(file).ok()?;
    let head = crate::engine::infile::read_head_text(&real, 4096)?;
    if head.starts_with("\u{7f}ELF") {
        return None;
    }
    let js = ["js", "mjs", "cjs"]
        .iter()
        .any(|e| real.extension().is_some_and(|x| x == *e));
    let first = head.lines().next().unwrap_or_default();
    if js || first.contains("node") || real.components().any(|c| c.as_os_str() == "node_modules") {
        return node_code(&real);
    }
    if first.starts_with("#!") && first.contains("python") {
        if let Some(module) = imported_main(&head) {
            let interp = shebang_program(first, path)?;
            if let Some(c) = module_code(&interp, &module, None) {
                return Some(c);
            }
        }
    }
    Some(Code::File(real))
}

/// The program a `#!` line runs (`#!/usr/bin/env python3` -> `python3` on the PATH).
fn shebang_program(first: &str, path: Option<&str>) -> Option<PathBuf> {
    let mut words = first.trim_start_matches("#!").split_whitespace();
    let prog = words.next()?;
    if base(prog) == "env" {
        let name = words.find(|w| !w.starts_with('-'))?;
        return manifest::resolve(name, path);
    }
    Some(PathBuf::from(prog))
}

/// The module a console script imports its entry from (`from mysql_mcp_server import main`).
fn imported_main(head: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("from ")?;
        let (module, what) = rest.split_once(" import ")?;
        (!what.trim().is_empty() && !module.starts_with('.')).then(|| module.trim().to_string())
    })
}

/// The folders an interpreter imports installed packages from: its environment's
/// `lib/python3.*/site-packages` (a venv's `bin/python` is a link out of it: the unresolved
/// path says which environment), and the system's `dist-packages`.
pub(super) fn site_dirs(interp: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut prefixes: Vec<PathBuf> = Vec::new();
    for p in [
        Some(interp.to_path_buf()),
        std::fs::canonicalize(interp).ok(),
    ]
    .into_iter()
    .flatten()
    {
        if let Some(prefix) = p.parent().and_then(Path::parent) {
            if !prefixes.iter().any(|x| x == prefix) {
                prefixes.push(prefix.to_path_buf());
            }
        }
    }
    for prefix in prefixes {
        let Ok(libs) = std::fs::read_dir(prefix.join("lib")) else {
            continue;
        };
        let mut libs: Vec<PathBuf> = libs
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("python3"))
            })
            .take(8)
            .collect();
        libs.sort();
        for lib in libs {
            for site in ["site-packages", "dist-packages"] {
                if lib.join(site).is_dir() {
                    out.push(lib.join(site));
                }
            }
        }
    }
    out
}

/// The code of the Python module `module` (its top package) for `interp`: in its site
/// folders, then in the working folder (and its `src/`).
fn module_code(interp: &Path, module: &str, cwd: Option<&Path>) -> Option<Code> {
    let top = module.split('.').next()?;
    if top.is_empty() || !top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut dirs = site_dirs(interp);
    if let Some(c) = cwd {
        dirs.push(c.to_path_buf());
        dirs.push(c.join("src"));
    }
    dirs.iter().find_map(|d| {
        let pkg = d.join(top);
        if pkg.join("__init__.py").is_file() || pkg.is_dir() && d.ends_with("site-packages") {
            return Some(Code::Folder {
                root: pkg,
                depth: PACKAGE_DEPTH,
            });
        }
        let file = d.join(format!("{top}.py"));
        file.is_file().then_some(Code::File(file))
    })
}

/// The tool `uvx` runs, in uv's cache (`$UV_CACHE_DIR` or `~/.cache/uv`:
/// `archive-v0/*/bin/NAME`, at most [`MAX_CACHE_DIRS`] folders looked at).
fn uvx_tool(s: &Setting) -> Option<PathBuf> {
    let mut it = s.args.iter();
    let mut name: Option<&str> = None;
    while let Some(a) = it.next() {
        if a == "--from" || a == "--with" || a == "--python" || a == "-p" {
            it.next();
            continue;
        }
        if !a.starts_with('-') {
            name = Some(a);
            break;
        }
    }
    let name = name?;
    let name = name.split(['@', '=', '<', '>', '[']).next()?;
    // The server's own `UV_CACHE_DIR` first (`HOME` and `XDG_*` are the host's: this one's).
    let own = entry_env(s)
        .find(|(k, _)| k == "UV_CACHE_DIR")
        .map(|(_, v)| PathBuf::from(v));
    let cache = own
        .or_else(|| std::env::var_os("UV_CACHE_DIR").map(PathBuf::from))
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(|c| PathBuf::from(c).join("uv"))
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/uv")))
        })?;
    std::fs::read_dir(cache.join("archive-v0"))
        .ok()?
        .flatten()
        .take(MAX_CACHE_DIRS)
        .map(|e| e.path().join("bin").join(name))
        .find(|p| p.is_file())
}

/// The words of a name (`SHORTCUT_API_TOKEN` -> shortcut, api, token).
fn name_words(n: &str) -> Vec<String> {
    n.split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// `short` abbreviates `long`: the same first letter, and its letters in order in it
/// (`dd` for `datadog`, `tkn` for `token`, `db` for `database`).
fn abbreviates(short: &str, long: &str) -> bool {
    if short.len() < 2 || short.len() >= long.len() || short.as_bytes()[0] != long.as_bytes()[0] {
        return false;
    }
    let mut l = long.chars();
    short.chars().all(|c| l.any(|x| x == c))
}

fn alike(a: &str, b: &str) -> bool {
    a == b || abbreviates(a, b) || abbreviates(b, a)
}

/// How close the set name `set` is to the read name `read`: (words in common, minus the edit
/// distance), `None` when they are not close. Close: the same words but one misspelt (one
/// letter off in a word of 4 letters or more, two in one of 8: `TOKN`), or the same first and
/// last words (equal or abbreviated: `DD` for `DATADOG`) with every word of the shorter name
/// in the longer one, in order (`SHORTCUT_TOKEN` in `SHORTCUT_API_TOKEN`), or the same name
/// with a word of the value's form after it (`OPENAPI_SPEC` and `OPENAPI_SPEC_PATH`).
pub(super) fn close(set: &str, read: &str) -> Option<(usize, i64)> {
    let (a, b) = (set.to_ascii_uppercase(), read.to_ascii_uppercase());
    if a == b {
        return None;
    }
    let d = strsim::levenshtein(&a, &b) as i64;
    let (wa, wb) = (name_words(&a), name_words(&b));
    let equal = wa.iter().filter(|w| wb.contains(w)).count();
    if wa.len() == wb.len() && wa.len() >= 2 && d <= 2 {
        let differ: Vec<(&String, &String)> = wa.iter().zip(&wb).filter(|(x, y)| x != y).collect();
        // One letter off in a word (two in a long one): `TOKN`, `PERSONNAL`; not `HOST` for
        // `PORT`.
        if let [(x, y)] = differ.as_slice() {
            let long = x.len().min(y.len()) >= 8;
            if x.len().min(y.len()) >= 4 && strsim::levenshtein(x, y) <= 1 + usize::from(long) {
                return Some((equal, -d));
            }
        }
    }
    // The same name with a word saying the value's form added at its end (`OPENAPI_SPEC` for
    // `OPENAPI_SPEC_PATH`): one holds where the other is.
    const FORMS: &[&str] = &[
        "path",
        "file",
        "filename",
        "dir",
        "directory",
        "folder",
        "url",
        "uri",
        "location",
    ];
    let (short, long) = if wa.len() <= wb.len() {
        (&wa, &wb)
    } else {
        (&wb, &wa)
    };
    if short.len() >= 2
        && long.len() == short.len() + 1
        && long.starts_with(short)
        && long.last().is_some_and(|w| FORMS.contains(&w.as_str()))
    {
        return Some((equal, -d));
    }
    if wa.len() < 2 || wb.len() < 2 || equal == 0 {
        return None;
    }
    if !alike(&wa[0], &wb[0]) || !alike(&wa[wa.len() - 1], &wb[wb.len() - 1]) {
        return None;
    }
    let (short, long) = if wa.len() <= wb.len() {
        (&wa, &wb)
    } else {
        (&wb, &wa)
    };
    let mut rest = long.iter();
    short
        .iter()
        .all(|w| rest.any(|l| alike(w, l)))
        .then_some((equal, -d))
}

/// The server's last words: its last line that is no stack frame (`at ...`) or runtime
/// banner, not indented (a help text's option, a stack).
pub(super) fn last_words<'a>(lines: &[&'a str]) -> Option<&'a str> {
    let last = lines.iter().rev().find(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with("at ") && !t.starts_with("Node.js v") && t != "^"
    })?;
    (!last.starts_with([' ', '\t'])).then(|| last.trim())
}

/// The `UPPER_SNAKE` names in `text`.
fn variable_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 4 && super::model::upper_snake(w))
        .collect()
}

/// The `tried:` line: the names read, `first` ones first with where, the others after.
pub(super) fn tried(code: &Scanned, first: &[&Read]) -> String {
    let mut names: Vec<String> = first
        .iter()
        .map(|r| format!("{} ({})", r.name, r.at))
        .collect();
    names.extend(
        code.reads
            .iter()
            .filter(|r| !first.iter().any(|f| f.name == r.name))
            .map(|r| r.name.clone()),
    );
    let cut_by = code
        .cut
        .as_ref()
        .map(|c| format!(", cut at {c}"))
        .unwrap_or_default();
    let list = if names.is_empty() {
        "no variable".to_string()
    } else {
        names.join(", ")
    };
    cut(&format!(
        "read the server's source ({} file{} in {}{cut_by}, {} ms): it reads {list}",
        code.files,
        if code.files == 1 { "" } else { "s" },
        code.root.display(),
        code.took.as_millis()
    ))
}

/// Rule (a): the entry sets names the server never reads, and the server reads unset names
/// close to them: rename each.
pub(super) fn renamed(lines: &[&str], s: &Setting) -> Option<Found> {
    let set: Vec<&str> = entry_env(s).map(|(k, _)| k.as_str()).collect();
    if set.is_empty() {
        return None;
    }
    let code = scanned(s)?;
    let unset: Vec<&Read> = code.reads.iter().filter(|r| !is_set(s, &r.name)).collect();
    let mut pairs: Vec<(&str, &Read, (usize, i64))> = Vec::new();
    for k in set.iter().filter(|k| code.read(k).is_none()) {
        for r in &unset {
            if let Some(score) = close(k, &r.name) {
                pairs.push((k, r, score));
            }
        }
    }
    // The closest pairs first, each name in one pair only.
    pairs.sort_by(|x, y| y.2.cmp(&x.2).then(x.0.cmp(y.0)));
    let mut chosen: Vec<(&str, &Read)> = Vec::new();
    for (k, r, _) in pairs {
        if !chosen.iter().any(|(a, b)| *a == k || b.name == r.name) {
            chosen.push((k, r));
        }
    }
    if chosen.is_empty() {
        return None;
    }
    chosen.sort_by_key(|(_, r)| code.reads.iter().position(|x| x.name == r.name));
    let last = last_words(lines);
    // Last words that name other variables the entry lacks are about them: alone, the rename
    // is not the answer; beside a name renamed to, they are set too ("rename `SLACK_TOKEN` to
    // `SLACK_BOT_TOKEN` and set `SLACK_TEAM_ID`").
    let named = last.map(variable_words).unwrap_or_default();
    let renamed_to = |w: &str| chosen.iter().any(|(_, r)| r.name == w);
    let mut others: Vec<&str> = Vec::new();
    for w in &named {
        if !is_set(s, w) && !renamed_to(w) && !others.contains(w) {
            others.push(w);
        }
    }
    if !others.is_empty() && !named.iter().any(|w| renamed_to(w)) {
        return None;
    }
    let also = if others.is_empty() {
        String::new()
    } else {
        let quoted: Vec<String> = others.iter().map(|o| format!("`{o}`")).collect();
        format!(" and set {}", quoted.join(" and "))
    };
    let env = super::words::terms("the entry's `env`", s);
    let renames: Vec<String> = chosen
        .iter()
        .map(|(k, r)| format!("`{k}` to `{}`", r.name))
        .collect();
    let mut wheres: Vec<&str> = Vec::new();
    for (_, r) in &chosen {
        if !wheres.contains(&r.at.as_str()) {
            wheres.push(&r.at);
        }
    }
    let (setn, readn): (Vec<String>, Vec<String>) = chosen
        .iter()
        .map(|(k, r)| (format!("`{k}`"), format!("`{}`", r.name)))
        .unzip();
    let one = chosen.len() == 1;
    let next = format!(
        "rename {}{also} in {env}: the server reads {} ({}), never {}",
        renames.join(" and "),
        if one { "that name" } else { "those names" },
        wheres.join(", "),
        setn.join(" or ")
    );
    let summary = format!(
        "{} {} set but the server never reads {}: it reads {} ({}), which {} not set",
        setn.join(" and "),
        if one { "is" } else { "are" },
        if one { "it" } else { "them" },
        readn.join(" and "),
        wheres.join(", "),
        if one { "is" } else { "are" },
    );
    let mut evidence: Vec<(Source, String)> =
        last.map(|l| (Source::Stderr, cut(l))).into_iter().collect();
    let first: Vec<&Read> = chosen.iter().map(|(_, r)| *r).collect();
    evidence.push((Source::Tried, tried(code, &first)));
    Some(Found {
        id: Id::MissingEnvVar,
        summary,
        next,
        evidence,
    })
}

/// The lower-case words of a line (`api`, `token`; `apiKey` as `apikey`).
fn line_words(l: &str) -> Vec<String> {
    l.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether the words of `name` (all of them: `full`, or all but its first, a vendor's
/// prefix) are in `words`, apart or run together (`apiKey`).
fn worded_in(name: &str, words: &[String], full: bool) -> bool {
    let w = name_words(name);
    let w: &[String] = if full { &w } else { w.get(1..).unwrap_or(&[]) };
    if w.len() < 2 {
        return false;
    }
    w.iter().all(|x| words.contains(x)) || words.contains(&w.concat())
}

/// Rule (b): last words that name no variable, whose words are those of exactly one variable
/// the server reads and the entry does not set.
pub(super) fn worded(lines: &[&str], s: &Setting) -> Option<Found> {
    let last = last_words(lines)?;
    if !variable_words(last).is_empty() {
        return None;
    }
    let words = line_words(last);
    let code = scanned(s)?;
    for full in [true, false] {
        let hits: Vec<&Read> = code
            .reads
            .iter()
            .filter(|r| worded_in(&r.name, &words, full))
            .collect();
        if hits.is_empty() {
            continue;
        }
        // Words of a variable the entry sets: its value, not its absence, is the matter.
        if hits.len() != 1 || is_set(s, &hits[0].name) {
            return None;
        }
        let r = hits[0];
        let env = super::words::terms("the entry's `env`", s);
        let quoted = cut(last);
        return Some(Found {
            id: Id::MissingEnvVar,
            summary: format!(
                "the server asks for `{}` in words (it reads it: {}), and {env} does not set it",
                r.name, r.at
            ),
            next: format!(
                "set `{}` in {env}: the server reads that variable ({}) and says \"{quoted}\"",
                r.name, r.at
            ),
            evidence: vec![(Source::Stderr, quoted), (Source::Tried, tried(code, &[r]))],
        });
    }
    None
}

#[cfg(test)]
#[path = "env_rows_tests.rs"]
mod tests;
