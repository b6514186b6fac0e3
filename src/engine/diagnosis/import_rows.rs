//! The structured row about a Python import that fails inside a library (see
//! [`super::structured`]): a traceback whose raising frame is in `site-packages` or
//! `dist-packages` and whose exception is an `ImportError` or `ModuleNotFoundError` (lxml 6's
//! `lxml.html.clean` raising "... Install lxml[html-clean] or lxml_html_clean directly."). The
//! doctor asks the server's own interpreter (`importlib.util.find_spec`, and for `pkg[extra]` the
//! extra's requirements through `importlib.metadata`) which of the modules the message names it
//! can import, and names the install of those it cannot into that environment, by its path.

use std::path::{Path, PathBuf};

use super::experiment::{run_bounded, ASK_LIMIT};
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// The most names asked about.
const MAX_CANDIDATES: usize = 6;

/// What the interpreter says of each name: `found X`, `missing X`, and for `pkg[extra]` `extra
/// X REQ...` (the extra's requirements it lacks; `-` for none); for a dotted `a.b` whose `a` it
/// finds, `top a.b KIND DIST=VERSION,... WHERE` (KIND `regular` or `namespace`; the
/// distributions that install `a`, `-` for none; where `a` is). With `--top` first, only the
/// `top` lines (finding a top package imports nothing; finding `a.b` imports `a`).
const ASK: &str = r#"import sys, re, importlib.util as u
from importlib import metadata as md
def norm(s):
    return re.sub(r'[-_.]+', '-', s).lower()
def top(c):
    t = c.split('.')[0]
    try:
        s = u.find_spec(t)
    except Exception:
        return
    if s is None:
        return
    kind = 'namespace' if s.origin in (None, 'namespace') else 'regular'
    where = (list(s.submodule_search_locations or []) or [s.origin])[0]
    try:
        ds = md.packages_distributions().get(t) or []
    except Exception:
        ds = [t]
    vs = []
    for d in dict.fromkeys(ds):
        try:
            vs.append(d + '=' + md.version(d))
        except Exception:
            pass
    print('top', c, kind, ','.join(vs) or '-', where)
if sys.argv[1:2] == ['--top']:
    for c in sys.argv[2:]:
        top(c)
    sys.exit(0)
def has(name):
    try:
        if u.find_spec(name.replace('-', '_')) is not None:
            return True
    except Exception:
        pass
    try:
        md.distribution(name)
        return True
    except Exception:
        return False
for c in sys.argv[1:]:
    m = re.fullmatch(r'([A-Za-z0-9_.-]+)\[([A-Za-z0-9_.,-]+)\]', c)
    if not m:
        print('found' if has(c) else 'missing', c)
        if '.' in c:
            top(c)
        continue
    extras = {norm(e) for e in m.group(2).split(',')}
    try:
        reqs = md.requires(m.group(1)) or []
    except Exception:
        reqs = []
    need = []
    for r in reqs:
        name, _, marker = r.partition(';')
        named = re.findall(r'extra\s*==\s*[\'"]([^\'"]+)[\'"]', marker)
        n = re.match(r'\s*([A-Za-z0-9_.-]+)', name)
        if n and any(norm(e) in extras for e in named) and not has(n.group(1)):
            need.append(n.group(1))
    print('extra', c, ' '.join(need) or '-')
"#;

/// The exception of the last traceback when it is an import's, raised in a library: (its
/// line, its message with the lines that continue it, the raising frame's line and path).
fn library_import_error(lines: &[&str]) -> Option<(String, String, String, String)> {
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("ImportError: ") || l.starts_with("ModuleNotFoundError: "))?;
    // A long traceback's head may have scrolled out of the tail: its frames are still there.
    let start = lines[..at]
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last)"))
        .unwrap_or(0);
    let frame = lines[start..at].iter().rev().find_map(|l| {
        l.trim_start()
            .strip_prefix("File \"")
            .map(|r| (l.trim(), r))
    })?;
    let path = frame.1.split('"').next()?.to_string();
    if !(path.contains("/site-packages/") || path.contains("/dist-packages/")) {
        return None;
    }
    let head = lines[at].trim();
    let mut message = head
        .split_once(": ")
        .map(|x| x.1)
        .unwrap_or_default()
        .to_string();
    // A message of several lines (`raise ImportError("...\n...")`) goes on unindented.
    for more in lines[at + 1..].iter().take(3) {
        let t = more.trim_end();
        if t.is_empty()
            || t.starts_with(char::is_whitespace)
            || t.starts_with("Traceback")
            || t.starts_with("During handling")
        {
            break;
        }
        message.push(' ');
        message.push_str(t);
    }
    Some((head.to_string(), message, frame.0.to_string(), path))
}

/// A word shaped like a module or a distribution: `snake_case`, `kebab-case`, `pkg[extra]`,
/// `dotted.module` (not a variable's `UPPER_SNAKE`, a flag, a path or a URL).
fn module_shaped(w: &str) -> bool {
    let ident = |p: &str| {
        p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if let Some((pkg, extra)) = w.strip_suffix(']').and_then(|x| x.split_once('[')) {
        return !extra.is_empty() && (ident(pkg) || module_shaped(pkg));
    }
    if w.len() < 3 || w.chars().all(|c| !c.is_ascii_lowercase()) {
        return false;
    }
    if w.contains('.') {
        let parts: Vec<&str> = w.split('.').collect();
        return parts.len() >= 2
            && parts.iter().all(|p| ident(p))
            && !matches!(parts[parts.len() - 1], "py" | "so" | "pyd");
    }
    if w.contains('_') {
        return ident(w);
    }
    if w.contains('-') {
        return w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && !w.ends_with('-')
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    }
    false
}

/// The names to ask about: the `No module named 'x'` name, then the module-shaped words of
/// the message.
fn candidates(message: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(rest) = message.split("No module named ").nth(1) {
        let name = rest
            .trim_start_matches(['\'', '"'])
            .split(['\'', '"', ' '])
            .next()
            .unwrap_or_default();
        if !name.is_empty() {
            out.push(name.to_string());
        }
    }
    for w in message.split_whitespace() {
        let w = w
            .trim_matches(['\'', '"', '`', '(', ')', ',', ';', ':'])
            .trim_end_matches('.');
        if module_shaped(w) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
}

/// The environment a library's path is in (`/v/lib/python3.11/site-packages/x.py` -> `/v`)
/// and its interpreter there.
pub(super) fn environment(path: &str) -> Option<(PathBuf, PathBuf)> {
    let root = PathBuf::from(&path[..path.find("/lib/python")?]);
    ["python3", "python"]
        .iter()
        .map(|p| root.join("bin").join(p))
        .find(|p| p.is_file())
        .map(|p| (root, p))
}

/// The server's own interpreter: the one of the environment the library is in, else the `#!`
/// line of the command (a console script), else the command when it is a `python`.
pub(super) fn interpreter(path: &str, s: &Setting) -> Option<(Option<PathBuf>, PathBuf)> {
    if let Some((root, p)) = environment(path) {
        return Some((Some(root), p));
    }
    let command = s.command.as_deref()?;
    let head = crate::engine::infile::read_head_text(Path::new(command), 512)
        .and_then(|t| t.lines().next().map(str::to_string))
        .and_then(|l| l.strip_prefix("#!").map(|x| x.trim().to_string()))
        .filter(|l| l.contains("python") && !l.contains(' '));
    if let Some(h) = head {
        return Some((None, PathBuf::from(h)));
    }
    let base = command.rsplit('/').next().unwrap_or(command);
    base.starts_with("python")
        .then(|| (None, PathBuf::from(command)))
}

/// What the interpreter said: the names it lacks, and for each `pkg[extra]` it lacks
/// requirements of, that extra; for a dotted name, its top package.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Asked {
    pub(super) found: Vec<String>,
    pub(super) missing: Vec<String>,
    extras: Vec<(String, Vec<String>)>,
    pub(super) tops: Vec<Top>,
}

/// A dotted name's top package, as the interpreter found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Top {
    /// The dotted name asked about.
    pub(super) name: String,
    /// A regular package (not a namespace package many distributions share).
    pub(super) regular: bool,
    /// The distributions that install it, with their versions.
    pub(super) dists: Vec<(String, String)>,
    /// Where it is (its folder, or its file).
    pub(super) at: String,
}

/// Ask `interp` about `names` (bounded: [`ASK_LIMIT`]); `tops_only`: only about their top
/// packages.
pub(super) fn ask(interp: &Path, names: &[String], tops_only: bool) -> Option<Asked> {
    // `-B`: importing a parent package to find a submodule writes no bytecode.
    let mut argv: Vec<&str> = vec!["-B", "-c", ASK];
    if tops_only {
        argv.push("--top");
    }
    argv.extend(names.iter().map(String::as_str));
    Some(read_asked(&run_bounded(interp, &argv, ASK_LIMIT)?))
}

fn read_asked(out: &str) -> Asked {
    let mut a = Asked::default();
    for l in out.lines() {
        let mut w = l.split_whitespace();
        match (w.next(), w.next()) {
            (Some("found"), Some(n)) => a.found.push(n.to_string()),
            (Some("missing"), Some(n)) => a.missing.push(n.to_string()),
            (Some("top"), Some(n)) => {
                let (Some(kind), Some(dists)) = (w.next(), w.next()) else {
                    continue;
                };
                let at = l.splitn(5, ' ').nth(4).unwrap_or_default().to_string();
                a.tops.push(Top {
                    name: n.to_string(),
                    regular: kind == "regular",
                    dists: dists
                        .split(',')
                        .filter_map(|d| d.split_once('='))
                        .map(|(d, v)| (d.to_string(), v.to_string()))
                        .collect(),
                    at,
                });
            }
            (Some("extra"), Some(n)) => {
                let need: Vec<String> = w.filter(|x| *x != "-").map(str::to_string).collect();
                if !need.is_empty() {
                    a.extras.push((n.to_string(), need));
                }
            }
            _ => {}
        }
    }
    a
}

/// How to install `what` where the server runs: uvx's `--with`, `uv run --with`, pipx's
/// `inject`, else the environment's own pip (or uv's, for a venv without pip).
pub(super) fn install(what: &str, root: Option<&Path>, interp: &Path, s: &Setting) -> String {
    let base = s
        .command
        .as_deref()
        .map(|c| c.rsplit('/').next().unwrap_or(c))
        .unwrap_or_default();
    let arg = |n: usize| s.args.get(n).map(String::as_str);
    let args = terms("the entry's args", s);
    // In a shell line a pin (`mcp<2`) is quoted; in the entry's args it is one argument as is.
    let sh = if what.contains(['<', '>', '=', '~']) {
        format!("'{what}'")
    } else {
        what.to_string()
    };
    if base == "uvx" || (base == "uv" && arg(0) == Some("tool") && arg(1) == Some("run")) {
        return format!(
            "under uvx: add `--with {what}` to {args}, before the package (`uvx --with {sh} ...`)"
        );
    }
    if base == "uv" && s.args.iter().any(|a| a == "run") {
        return format!("under `uv run`: add `--with {what}` after `run` in {args}, or `uv add {sh}` in the project");
    }
    let shown = root.unwrap_or(interp).display().to_string();
    if let Some(at) = shown.find("/pipx/venvs/") {
        let name = shown[at + 12..].split('/').next().unwrap_or_default();
        return format!("`pipx inject {name} {sh}`");
    }
    match root {
        Some(r) if r.join("bin/pip").is_file() => {
            format!("`{}/bin/pip install '{what}'`", r.display())
        }
        Some(_) => format!(
            "`uv pip install --python {} '{what}'` (the environment {shown} has no pip)",
            interp.display()
        ),
        None => format!("`{} -m pip install '{what}'`", interp.display()),
    }
}

/// A requirement with a version the message names (`lxml<6`, `pydantic>=2.0`).
pub(super) fn pinned(message: &str) -> Option<String> {
    message
        .split_whitespace()
        .map(|w| {
            w.trim_matches(['\'', '"', '`', '(', ')', ','])
                .trim_end_matches('.')
        })
        .find(|w| {
            ["<=", ">=", "==", "~=", "<", ">"].iter().any(|op| {
                w.split_once(op).is_some_and(|(n, v)| {
                    !n.is_empty()
                        && n.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                        && v.starts_with(|c: char| c.is_ascii_digit())
                })
            })
        })
        .map(str::to_string)
}

/// `missing-dependency` for an import that fails in a library, when the server's interpreter
/// cannot import a module the message names.
pub(super) fn library_import(lines: &[&str], s: &Setting) -> Option<Found> {
    let (head, message, frame, path) = library_import_error(lines)?;
    let names = candidates(&message);
    if names.is_empty() {
        return None;
    }
    let (root, interp) = interpreter(&path, s)?;
    let asked = ask(&interp, &names, false)?;
    // What to install: a missing name that is no dotted module path (an installed package's
    // missing submodule is a changed library, not an install).
    let first = names
        .iter()
        .find(|n| !n.contains('.') && !n.contains('[') && asked.missing.contains(n))
        .or_else(|| {
            names
                .iter()
                .filter(|n| n.contains('.') && asked.missing.contains(n))
                .find(|n| {
                    // Its top package found: a changed library (`drift_rows.rs`), no install.
                    let top = n.split('.').next().unwrap_or_default();
                    !asked.found.iter().any(|f| f == top)
                        && !asked.tops.iter().any(|t| &t.name == *n)
                })
        })?;
    let what = first.split('.').next().unwrap_or(first).to_string();
    let site_at = path.find("-packages/")? + "-packages/".len();
    let library = path[site_at..].split('/').next().unwrap_or_default();
    let library = library.strip_suffix(".py").unwrap_or(library).to_string();
    let mut tried: Vec<String> = Vec::new();
    for n in &names {
        if let Some((_, need)) = asked.extras.iter().find(|(e, _)| e == n) {
            tried.push(format!("{n} needs {} (missing)", need.join(", ")));
        } else if asked.found.contains(n) {
            tried.push(format!("{n} found"));
        } else if asked.missing.contains(n) {
            tried.push(format!("{n} missing"));
        }
    }
    let place = match &root {
        Some(r) => format!("the server's environment ({})", r.display()),
        None => format!("the environment of {}", interp.display()),
    };
    let extra = asked
        .extras
        .iter()
        .find(|(_, need)| {
            need.iter()
                .any(|x| x.replace('-', "_") == what.replace('-', "_"))
        })
        .map(|(e, _)| format!(" (or the extra that brings it, `{e}`)"))
        .unwrap_or_default();
    let pin = pinned(&message)
        .map(|p| format!("; or install `{p}`, the version the message names"))
        .unwrap_or_default();
    let version = super::runtime::dist_version(Path::new(&path[..site_at - 1]), &library);
    let kind = head.split_once(": ").map_or(head.as_str(), |x| x.0);
    let mut evidence = vec![
        (Source::Stderr, cut(&format!("{kind}: {message}"))),
        (Source::Stderr, cut(&frame)),
    ];
    if let Some(v) = version {
        evidence.push((Source::Spawn, format!("installed: {library} {v}")));
    }
    evidence.push((
        Source::Tried,
        format!("{}: find_spec: {}", interp.display(), tried.join("; ")),
    ));
    Some(Found {
        id: Id::MissingDependency,
        summary: format!(
            "`{library}` imports `{what}`, which {place} cannot import: a library's dependency left out of the install"
        ),
        next: format!(
            "install `{what}`{extra} into {place}: {}{pin}",
            install(&what, root.as_deref(), &interp, s)
        ),
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_a_message_gives_are_module_shaped_words() {
        // lxml 6.0's lxml/html/clean.py.
        let m = "lxml.html.clean module is now a separate project lxml_html_clean. Install lxml[html-clean] or lxml_html_clean directly.";
        assert_eq!(
            candidates(m),
            ["lxml.html.clean", "lxml_html_clean", "lxml[html-clean]"]
        );
        assert_eq!(
            candidates("No module named 'fixture_dep.sub'"),
            ["fixture_dep.sub"]
        );
        // Not names: variables, flags, paths, URLs, versions, plain words.
        assert!(candidates(
            "set API_KEY or pass --api-key; see https://x.io/a_b and /usr/lib/x_y.py (3.11)"
        )
        .is_empty());
        assert_eq!(
            pinned("requires pydantic>=2.0, found 1.10"),
            Some("pydantic>=2.0".into())
        );
        assert_eq!(pinned(m), None);
    }

    #[test]
    fn the_raising_frame_must_be_a_librarys() {
        let trace = |file: &str| {
            vec![
                "Traceback (most recent call last):".to_string(),
                "  File \"/v/bin/srv\", line 5, in <module>".to_string(),
                format!("  File \"{file}\", line 18, in <module>"),
                "    raise ImportError(".to_string(),
                "ImportError: x.clean is now a separate project x_clean.".to_string(),
                "Install x[clean] or x_clean directly.".to_string(),
            ]
        };
        let lib = trace("/v/lib/python3.11/site-packages/x/clean.py");
        let lines: Vec<&str> = lib.iter().map(String::as_str).collect();
        let (_, message, frame, path) = library_import_error(&lines).expect("a library's");
        assert!(
            message.ends_with("Install x[clean] or x_clean directly."),
            "{message}"
        );
        assert!(frame.starts_with("File \"/v/lib/python3.11/site-packages/x/clean.py\""));
        assert!(path.ends_with("x/clean.py"));
        // The user's own file raising it: not this row's.
        let own = trace("/home/u/srv/server.py");
        let lines: Vec<&str> = own.iter().map(String::as_str).collect();
        assert_eq!(library_import_error(&lines), None);
    }

    #[test]
    fn the_interpreters_answer_is_read() {
        let a = read_asked("found lxml.html.clean\nmissing lxml_html_clean\nextra lxml[html-clean] lxml_html_clean\nextra y[z] -\n");
        assert_eq!(a.found, ["lxml.html.clean"]);
        assert_eq!(a.missing, ["lxml_html_clean"]);
        assert_eq!(
            a.extras,
            [(
                "lxml[html-clean]".to_string(),
                vec!["lxml_html_clean".to_string()]
            )]
        );
    }
}
