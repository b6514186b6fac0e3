//! The experiment that reads a server's installed source for the environment variables it
//! reads (`process.env.NAME`, `os.environ.get("NAME")`, a pydantic-settings field), bounded in
//! files, bytes and time, read-only, never following a link inside the package and never
//! opening anything but a regular file (a FIFO, a device or a link loop cannot hold it up).
//! Names only: no value is read from anywhere.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) use super::port_defaults::PortDefault;

/// How far one scan may go.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub files: usize,
    pub bytes: u64,
    pub time: Duration,
    /// A larger file is skipped (minified or not).
    pub file: u64,
}

/// The bounds of the experiment: 4000 files, 32 MiB, 2 s, files up to 4 MiB.
pub(crate) const BOUNDS: Bounds = Bounds {
    files: 4000,
    bytes: 32 * 1024 * 1024,
    time: Duration::from_secs(2),
    file: 4 * 1024 * 1024,
};

/// Where a server's own code is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Code {
    /// A package's folder, read to `depth` folders down (a Node package, a Python package in
    /// its site-packages).
    Folder { root: PathBuf, depth: usize },
    /// One file (a script, a one-module package).
    File(PathBuf),
}

/// One variable the code reads, and where first (`dist/index.js:12`, relative to the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Read {
    pub name: String,
    pub at: String,
}

/// What a scan found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scanned {
    /// The folder (or file) read, as shown.
    pub root: PathBuf,
    /// The source files read.
    pub files: usize,
    /// The variables read, each once, in the order first met.
    pub reads: Vec<Read>,
    /// The bound that cut the scan short (`"4000 files"`, `"2 s"`), if one did.
    pub cut: Option<String>,
    pub took: Duration,
    /// Each quoted file name written within [`TIE_LINES`] lines of a variable's read (a
    /// default: `process.env.X || path.join(dir, 'keys.json')`, `os.getenv("X", "a.db")`),
    /// at most [`MAX_TIES`].
    pub ties: Vec<Tie>,
    /// The ports written as a default beside the variable or flag that sets them.
    pub ports: Vec<PortDefault>,
}

/// A file name the code writes near where it reads a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tie {
    /// The variable read.
    pub name: String,
    /// The file name's last part (`gcp-oauth.keys.json`, `config` of `~/.kube/config`).
    pub file: String,
    /// Where the file name is written (`build/index.js:101`).
    pub at: String,
    /// How many lines apart the read and the file name are.
    pub lines: usize,
}

/// How many lines apart a read and a file name may be to be tied.
pub(crate) const TIE_LINES: usize = 6;

/// The most ties a scan keeps.
const MAX_TIES: usize = 4000;

impl Scanned {
    /// Where the code reads `name` (compared without case: pydantic-settings ignores it).
    pub(crate) fn read(&self, name: &str) -> Option<&Read> {
        self.reads
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }
}

/// The folders never read: another package's code, a cache, a test or an example that does
/// not run with the server.
const SKIPPED_DIRS: &[&str] = &[
    "node_modules",
    "__pycache__",
    "test",
    "tests",
    "__tests__",
    "example",
    "examples",
    "site-packages",
];

fn language(p: &Path) -> Option<Lang> {
    let name = p.file_name()?.to_str()?;
    if name.ends_with(".d.ts") || name.ends_with(".map") {
        return None;
    }
    let ext = name.rsplit_once('.')?.1;
    match ext {
        "js" | "mjs" | "cjs" => Some(Lang::Node),
        "py" => Some(Lang::Python),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Node,
    Python,
}

/// Read the code at `code` within `bounds`: the variables it reads.
pub(crate) fn scan(code: &Code, bounds: Bounds) -> Scanned {
    let started = Instant::now();
    let mut out = Scanned {
        root: match code {
            Code::Folder { root, .. } => root.clone(),
            Code::File(f) => f.clone(),
        },
        files: 0,
        reads: Vec::new(),
        cut: None,
        took: Duration::ZERO,
        ties: Vec::new(),
        ports: Vec::new(),
    };
    let mut bytes = 0u64;
    match code {
        Code::File(f) => {
            // A script named by the entry is read whatever its extension (a `#!` file).
            let lang = language(f).unwrap_or_else(|| guess(f));
            let shown = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            read_file(f, &shown, lang, bounds, &mut bytes, &mut out);
        }
        Code::Folder { root, depth } => {
            // Breadth first, names sorted: the package's top files before its deep ones.
            let mut queue: std::collections::VecDeque<(PathBuf, usize)> =
                std::collections::VecDeque::from([(root.clone(), 0)]);
            'walk: while let Some((dir, level)) = queue.pop_front() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut entries: Vec<_> = entries.flatten().take(bounds.files * 4).collect();
                entries.sort_by_key(|e| e.file_name());
                for e in entries {
                    if let Some(c) = over(&out, bytes, started, bounds) {
                        out.cut = Some(c);
                        break 'walk;
                    }
                    let path = e.path();
                    // The entry's own type: a link is never followed (no loop, no escape).
                    let Ok(t) = e.file_type() else { continue };
                    let name = e.file_name().to_string_lossy().into_owned();
                    if t.is_dir() {
                        if level < *depth
                            && !name.starts_with('.')
                            && !SKIPPED_DIRS.contains(&name.as_str())
                        {
                            queue.push_back((path, level + 1));
                        }
                        continue;
                    }
                    if !t.is_file() {
                        continue;
                    }
                    let Some(lang) = language(&path) else {
                        continue;
                    };
                    let shown = path
                        .strip_prefix(root)
                        .unwrap_or(&path)
                        .display()
                        .to_string();
                    read_file(&path, &shown, lang, bounds, &mut bytes, &mut out);
                }
            }
        }
    }
    out.took = started.elapsed();
    out
}

/// The bound reached, if one is.
fn over(out: &Scanned, bytes: u64, started: Instant, b: Bounds) -> Option<String> {
    if let Some(c) = &out.cut {
        Some(c.clone())
    } else if out.files >= b.files {
        Some(format!("{} files", b.files))
    } else if bytes >= b.bytes {
        Some(size(b.bytes))
    } else if started.elapsed() >= b.time {
        Some(format!("{} s", b.time.as_secs_f64()))
    } else {
        None
    }
}

/// `n` bytes in words: `32 MiB`, `50 bytes`.
fn size(n: u64) -> String {
    if n >= 1024 * 1024 {
        format!("{} MiB", n / (1024 * 1024))
    } else {
        format!("{n} bytes")
    }
}

/// A file without a known extension: Python when its `#!` line says so.
fn guess(f: &Path) -> Lang {
    let head = crate::engine::infile::read_head_text(f, 256).unwrap_or_default();
    let first = head.lines().next().unwrap_or_default();
    if first.starts_with("#!") && first.contains("python") {
        Lang::Python
    } else {
        Lang::Node
    }
}

fn read_file(
    path: &Path,
    shown: &str,
    lang: Lang,
    bounds: Bounds,
    bytes: &mut u64,
    out: &mut Scanned,
) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.len() > bounds.file {
        return;
    }
    if meta.len() > bounds.bytes.saturating_sub(*bytes) {
        out.cut = Some(size(bounds.bytes));
        return;
    }
    let Ok(raw) = crate::engine::infile::read_whole(path, bounds.file) else {
        return;
    };
    out.files += 1;
    *bytes += raw.len() as u64;
    let text = String::from_utf8_lossy(&raw);
    let found = match lang {
        Lang::Node => node_reads(&text),
        Lang::Python => python_reads(&text),
    };
    if !found.is_empty() {
        tie_files(&text, shown, &found, out);
    }
    super::port_defaults::collect(&text, shown, &found, &mut out.ports);
    // The offsets come sorted: the line numbers are counted in one pass.
    let (mut line, mut counted) = (1, 0);
    for (name, offset) in found {
        let offset = offset.min(text.len());
        if offset > counted {
            line += text.as_bytes()[counted..offset]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            counted = offset;
        }
        if out.read(&name).is_none() {
            out.reads.push(Read {
                name,
                at: format!("{shown}:{line}"),
            });
        }
    }
}

/// The file names quoted within [`TIE_LINES`] lines of each read in `found`, as [`Tie`]s.
fn tie_files(text: &str, shown: &str, found: &[(String, usize)], out: &mut Scanned) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| starts.partition_point(|s| *s <= offset).saturating_sub(1);
    for (name, offset) in found {
        let at = line_of(*offset);
        let lo = at.saturating_sub(TIE_LINES);
        let hi = (at + TIE_LINES).min(starts.len() - 1);
        for l in lo..=hi {
            let end = starts.get(l + 1).map(|e| e - 1).unwrap_or(text.len());
            let Some(line) = text.get(starts[l]..end) else {
                continue;
            };
            // A minified line is no place to measure nearness in.
            if line.len() > 400 {
                continue;
            }
            for file in quoted_files(line) {
                if out.ties.len() >= MAX_TIES {
                    return;
                }
                let tie = Tie {
                    name: name.clone(),
                    file,
                    at: format!("{shown}:{}", l + 1),
                    lines: l.abs_diff(at),
                };
                if !out.ties.contains(&tie) {
                    out.ties.push(tie);
                }
            }
        }
    }
}

/// The last parts of the file names quoted on `line`: a quoted text with no space that has a
/// path separator or ends in a file extension (`'gcp-oauth.keys.json'`, `"~/.kube/config"`),
/// not a URL.
pub(crate) fn quoted_files(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['"', '\'', '`'] {
        for (i, part) in line.split(q).enumerate() {
            if i % 2 == 0
                || part.is_empty()
                || part.len() > 200
                || part.contains(char::is_whitespace)
            {
                continue;
            }
            if let Some(f) = file_part(part) {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
    }
    out
}

/// The last part of `token` when it is shaped like a file's path or name: a path separator
/// (not a URL, not a module's `@scope/name`) or a file extension of letters after a name
/// (`keys.json`; `${dir}/config.yaml` gives `config.yaml`).
pub(crate) fn file_part(token: &str) -> Option<String> {
    if token.contains("://") || token.starts_with('@') || token.starts_with('-') {
        return None;
    }
    let last = token.rsplit(['/', '\\']).next().unwrap_or(token);
    let last = last.trim_end_matches(['.', ',', ';', ':', ')']);
    if last.is_empty() || last.contains(['$', '{', '}', '*', '%', '<', '>']) {
        return None;
    }
    let sep = token.contains('/') || token.contains('\\');
    let ext = last
        .rsplit_once('.')
        .is_some_and(|(stem, e)| !stem.is_empty() && is_file_extension(e));
    (sep || ext).then(|| last.to_string())
}

/// The extensions of the files a server reads at start (configuration, keys, data): not
/// code's (`.js`, `.py`: a missing module is another fault) nor a domain's (`.com`).
pub(crate) fn is_file_extension(e: &str) -> bool {
    const EXT: &[&str] = &[
        "json",
        "jsonc",
        "json5",
        "yaml",
        "yml",
        "toml",
        "ini",
        "conf",
        "cfg",
        "config",
        "env",
        "db",
        "sqlite",
        "sqlite3",
        "duckdb",
        "pem",
        "key",
        "crt",
        "cer",
        "p12",
        "pfx",
        "txt",
        "csv",
        "xml",
        "properties",
        "kubeconfig",
        "jks",
        "keystore",
        "pickle",
        "pkl",
        "token",
    ];
    EXT.contains(&e.to_ascii_lowercase().as_str())
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// An identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// A quoted string at the start of `s` (after spaces): `"NAME"`, `'NAME'` or `` `NAME` ``,
/// when it is an identifier.
fn quoted(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let rest = &s[1..];
    let end = rest.find(q)?;
    let name = &rest[..end];
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// Any quoted text at the start of `s` (a module's name).
fn quoted_any(s: &str) -> Option<&str> {
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let end = s[1..].find(q)?;
    Some(&s[1..1 + end])
}

/// Whether `name` is shaped like a variable (not `$x`, not a number).
fn env_shaped(name: &str) -> bool {
    name.len() >= 2
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A member read after an object (`.NAME`, `?.NAME`, `["NAME"]`).
fn member(after: &str) -> Option<&str> {
    let a = after.trim_start();
    if let Some(rest) = a.strip_prefix("?.").or_else(|| a.strip_prefix('.')) {
        let n = ident(rest);
        return env_shaped(n).then_some(n);
    }
    if let Some(rest) = a.strip_prefix('[') {
        return quoted(rest);
    }
    None
}

/// The names a destructuring `{ A, B: b, C = 1 }` ending at `before` (its text up to the
/// `=` before `process.env`) takes.
fn destructured(before: &str) -> Vec<String> {
    let b = before.trim_end();
    let Some(b) = b.strip_suffix('=') else {
        return Vec::new();
    };
    let b = b.trim_end();
    let Some(b) = b.strip_suffix('}') else {
        return Vec::new();
    };
    let Some(open) = b.rfind('{').filter(|o| b.len() - o < 2000) else {
        return Vec::new();
    };
    b[open + 1..]
        .split(',')
        .filter_map(|part| {
            let p = part.trim();
            if p.starts_with("...") {
                return None;
            }
            let key = p.split([':', '=']).next()?.trim();
            let key = quoted(key).unwrap_or(key);
            env_shaped(key).then(|| key.to_string())
        })
        .collect()
}

/// The names Node code reads from `process.env`, each with its offset: `process.env.NAME`,
/// `process.env["NAME"]`, `const { A, B: b } = process.env`, and `env.NAME` where `env` is
/// bound to `process.env` in the file (`const env = process.env`, `const { env } = process`,
/// `import { env } from "node:process"`).
pub(crate) fn node_reads(text: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    let mut aliases: Vec<String> = Vec::new();
    for (at, m) in text.match_indices("process.env") {
        let before = &text[..at];
        if before.ends_with(|c: char| is_ident(c) || c == '.') {
            continue;
        }
        let after = &text[at + m.len()..];
        if after.starts_with(is_ident) {
            continue;
        }
        if let Some(n) = member(after) {
            out.push((n.to_string(), at));
            continue;
        }
        let start = before.len().saturating_sub(2100);
        let start = (start..=before.len())
            .find(|i| before.is_char_boundary(*i))
            .unwrap_or(before.len());
        let names = destructured(&before[start..]);
        if !names.is_empty() {
            out.extend(names.into_iter().map(|n| (n, at)));
            continue;
        }
        // `const env = process.env`: an alias.
        let b = before.trim_end();
        if let Some(b) = b.strip_suffix('=') {
            let b = b.trim_end();
            let name_start = b.rfind(|c: char| !is_ident(c)).map(|i| i + 1).unwrap_or(0);
            let alias = &b[name_start..];
            if !alias.is_empty() && !alias.starts_with(|c: char| c.is_ascii_digit()) {
                let alias = alias.to_string();
                if !aliases.contains(&alias) {
                    aliases.push(alias);
                }
            }
        }
    }
    let imports_env = ["{ env } = process", "{env} = process"]
        .iter()
        .any(|p| text.contains(p))
        || text.match_indices("{ env } from").any(|(at, m)| {
            let from = text[at + m.len()..].trim_start();
            quoted_any(from).is_some_and(|q| q == "process" || q == "node:process")
        });
    if imports_env && !aliases.iter().any(|a| a == "env") {
        aliases.push("env".to_string());
    }
    for alias in &aliases {
        for (at, m) in text.match_indices(alias.as_str()) {
            if text[..at].ends_with(|c: char| is_ident(c) || c == '.') {
                continue;
            }
            let after = &text[at + m.len()..];
            if after.starts_with(is_ident) {
                continue;
            }
            // Only upper-case names through an alias: `env.foo` may be anything.
            if let Some(n) = member(after).filter(|n| {
                n.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            }) {
                out.push((n.to_string(), at));
            }
        }
    }
    out.sort_by_key(|x| x.1);
    out
}

/// The names Python code reads: `os.environ["NAME"]`, `os.environ.get("NAME")`,
/// `os.getenv("NAME")`, `environ.get(...)`, a settings library's reader ([`library_reads`]),
/// a pydantic `Field(alias=/validation_alias="NAME")`, and the fields of a `BaseSettings`
/// class with its `env_prefix`.
pub(crate) fn python_reads(text: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for pat in [
        "environ[",
        "environ.get(",
        "getenv(",
        "environ.setdefault(",
        "environ.pop(",
    ] {
        for (at, m) in text.match_indices(pat) {
            if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(n) = quoted(&text[at + m.len()..]).filter(|n| env_shaped(n)) {
                out.push((n.to_string(), at));
            }
        }
    }
    out.extend(library_reads(text));
    if text.contains("BaseSettings") {
        for pat in ["validation_alias=", "alias="] {
            for (at, m) in text.match_indices(pat) {
                if pat == "alias=" && text[..at].ends_with('_') {
                    continue;
                }
                if let Some(n) = quoted(&text[at + m.len()..]).filter(|n| env_shaped(n)) {
                    out.push((n.to_ascii_uppercase(), at));
                }
            }
        }
        out.extend(settings_fields(text));
    }
    out.sort_by_key(|x| x.1);
    out
}

/// environs' typed readers (`env.int("PORT")`), python-decouple's `config("NAME")` (each only
/// in a file that imports its library) and click's or typer's `envvar="NAME"` (or a list).
fn library_reads(text: &str) -> Vec<(String, usize)> {
    let mut pats: Vec<String> = Vec::new();
    if text.contains("environs") {
        pats.push("env(".into());
        for m in [
            "str",
            "int",
            "bool",
            "float",
            "decimal",
            "list",
            "dict",
            "json",
            "url",
            "path",
            "datetime",
            "date",
            "time",
            "timedelta",
            "uuid",
            "log_level",
            "enum",
        ] {
            pats.push(format!("env.{m}("));
        }
    }
    if text.contains("decouple") {
        pats.push("config(".into());
    }
    let mut out = Vec::new();
    for pat in &pats {
        for (at, m) in text.match_indices(pat.as_str()) {
            if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            if let Some(n) = quoted(&text[at + m.len()..]).filter(|n| env_shaped(n)) {
                out.push((n.to_string(), at));
            }
        }
    }
    out.extend(dynaconf_reads(text));
    for (at, m) in text.match_indices("envvar=") {
        if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let after = text[at + m.len()..].trim_start();
        let list = after
            .strip_prefix('[')
            .map(|l| l.split(']').next().unwrap_or(""));
        let names: Vec<&str> = match list {
            Some(l) => l.split(',').filter_map(quoted).collect(),
            None => quoted(after).into_iter().collect(),
        };
        out.extend(
            names
                .into_iter()
                .filter(|n| env_shaped(n))
                .map(|n| (n.to_string(), at)),
        );
    }
    out
}

/// dynaconf's `Validator("NAME", ...)` in a file that makes a `Dynaconf(...)`: the variable
/// read is NAME under its `envvar_prefix="P"` (`P_NAME`), `DYNACONF_NAME` without one.
fn dynaconf_reads(text: &str) -> Vec<(String, usize)> {
    if !text.contains("Dynaconf(") {
        return Vec::new();
    }
    let prefix = match text.find("envvar_prefix=") {
        Some(at) => match quoted(&text[at + "envvar_prefix=".len()..]) {
            Some(p) => p.to_string(),
            // `envvar_prefix=False`: no prefix.
            None => String::new(),
        },
        None => "DYNACONF".to_string(),
    };
    let mut out = Vec::new();
    for (at, m) in text.match_indices("Validator(") {
        if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some(n) = quoted(&text[at + m.len()..]).filter(|n| env_shaped(n)) else {
            continue;
        };
        let name = if prefix.is_empty() {
            n.to_ascii_uppercase()
        } else {
            format!("{prefix}_{n}").to_ascii_uppercase()
        };
        out.push((name, at));
    }
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The fields of each `class X(...BaseSettings...)` with its `env_prefix`, upper-cased
/// (`env_prefix="QDRANT_"` and `url: str` read `QDRANT_URL`).
fn settings_fields(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    let mut at = 0;
    for l in text.split('\n') {
        offsets.push(at);
        at += l.len() + 1;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let t = l.trim_start();
        if !(t.starts_with("class ") && t.contains("BaseSettings") && t.ends_with(':')) {
            i += 1;
            continue;
        }
        let base = indent_of(l);
        let mut body: Vec<usize> = Vec::new();
        let mut j = i + 1;
        while j < lines.len() {
            let b = lines[j];
            if !b.trim().is_empty() && indent_of(b) <= base {
                break;
            }
            body.push(j);
            j += 1;
        }
        let field_indent = body
            .iter()
            .map(|k| lines[*k])
            .find(|b| !b.trim().is_empty())
            .map(indent_of);
        let prefix = body
            .iter()
            .find_map(|k| {
                let b = lines[*k];
                let at = b.find("env_prefix")?;
                let rest = &b[at + "env_prefix".len()..];
                let q = rest.find(['"', '\''])?;
                quoted_any(&rest[q..]).map(str::to_string)
            })
            .unwrap_or_default();
        for k in &body {
            let b = lines[*k];
            if Some(indent_of(b)) != field_indent {
                continue;
            }
            let t = b.trim_start();
            let name = ident(t);
            let typed = t[name.len()..].trim_start().starts_with(':');
            if typed && env_shaped(name) && !name.starts_with('_') && name != "model_config" {
                out.push((
                    format!("{prefix}{name}").to_ascii_uppercase(),
                    offsets[*k] + indent_of(b),
                ));
            }
        }
        i = j;
    }
    out
}

#[cfg(test)]
#[path = "source_scan_tests.rs"]
mod tests;
