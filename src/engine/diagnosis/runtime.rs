//! Runtime and install, from the server's own words: the interpreter a `python -m` launch
//! used, a runtime too old for the server, a package the registry does not have, npx's cache
//! left broken, a dependency that changed under the server. Each names the thing to change:
//! the interpreter, the version, the package name, the folder to delete, the package to pin.

use std::path::{Path, PathBuf};

use super::model::{Evidence, Hit, Setting, Source};
use super::table::{Id, Text};
use super::words::terms;
use crate::engine::probe::Launch;

/// What Python added in which version: (module, name, version); an empty name is the module.
const PYTHON_NEW: &[(&str, &str, &str)] = &[
    ("typing", "TypeAlias", "3.10"),
    ("typing", "ParamSpec", "3.10"),
    ("typing", "Concatenate", "3.10"),
    ("typing", "TypeGuard", "3.10"),
    ("typing", "is_typeddict", "3.10"),
    ("typing", "Self", "3.11"),
    ("typing", "LiteralString", "3.11"),
    ("typing", "Never", "3.11"),
    ("typing", "assert_never", "3.11"),
    ("typing", "assert_type", "3.11"),
    ("typing", "reveal_type", "3.11"),
    ("typing", "Required", "3.11"),
    ("typing", "NotRequired", "3.11"),
    ("typing", "TypeVarTuple", "3.11"),
    ("typing", "Unpack", "3.11"),
    ("typing", "dataclass_transform", "3.11"),
    ("typing", "override", "3.12"),
    ("typing", "TypeAliasType", "3.12"),
    ("typing", "TypeIs", "3.13"),
    ("typing", "ReadOnly", "3.13"),
    ("typing", "NoDefault", "3.13"),
    ("typing", "evaluate_forward_ref", "3.14"),
    ("annotationlib", "", "3.14"),
    ("enum", "StrEnum", "3.11"),
    ("datetime", "UTC", "3.11"),
    ("itertools", "pairwise", "3.10"),
    ("itertools", "batched", "3.12"),
    ("tomllib", "", "3.11"),
    ("zoneinfo", "", "3.9"),
    ("graphlib", "", "3.9"),
];

/// What an older Node says about syntax or globals it lacks: (text, the first Node with it).
const NODE_NEW: &[(&str, &str)] = &[
    ("Unexpected token '??='", "15"),
    ("Unexpected token '||='", "15"),
    ("Unexpected token '&&='", "15"),
    ("Unexpected token '?.'", "14"),
    ("Unexpected token '??'", "14"),
    ("Unexpected token 'with'", "18.20"),
    ("AbortController is not defined", "15"),
    ("performance is not defined", "16"),
    ("structuredClone is not defined", "17"),
    ("fetch is not defined", "18"),
    ("ReadableStream is not defined", "18"),
    ("File is not defined", "20"),
    ("replaceAll is not a function", "15"),
    ("Object.hasOwn is not a function", "16.9"),
    ("findLast is not a function", "18"),
    ("toSorted is not a function", "20"),
];

/// The stderr lines of the launch, oldest first (the notable ones that scrolled out first).
fn lines(l: &Launch) -> Vec<&String> {
    l.report.stderr.all_lines()
}

fn note(h: &mut Hit, source: Source, text: String) {
    h.evidence.push(Evidence {
        launches: Vec::new(),
        source,
        text,
    });
}

/// The first quoted text of `s`.
fn first_quoted(s: &str) -> Option<String> {
    let (a, q) = s
        .char_indices()
        .find(|(_, c)| matches!(c, '\'' | '"' | '`'))?;
    let rest = &s[a + q.len_utf8()..];
    Some(rest[..rest.find(q)?].to_string())
}

/// Fill in the rows of this file from the line they matched; `false` when the line is no
/// evidence for the row after all (a `No module named` inside a traceback, a typing name that
/// is no version's).
pub(super) fn advice(h: &mut Hit, id: Id, t: &Text, line: &str, l: &Launch, s: &Setting) -> bool {
    match id {
        Id::WrongInterpreter => wrong_interpreter(h, line, s),
        Id::BadArgument if t.contains == super::no_main::NO_MAIN => {
            super::no_main::advice(h, line, s)
        }
        Id::RuntimeTooOld => too_old(h, t, line, l, s),
        Id::PackageNotFound => package_not_found(h, t, line, s),
        Id::BrokenNpxCache => npx_cache(h, line),
        Id::DependencyDrift => drift(h, t, line, l),
        _ => true,
    }
}

/// `/usr/bin/python3: No module named mcp_server_time`: `python -m X` run by an interpreter
/// that does not have X.
fn wrong_interpreter(h: &mut Hit, line: &str, s: &Setting) -> bool {
    let Some(at) = line.find(": No module named ") else {
        return false;
    };
    // The interpreter has the package; it has no `__main__` (`no_main.rs`).
    if line.contains(super::no_main::NO_MAIN) {
        return false;
    }
    let interp = line[..at].trim();
    if interp.is_empty() || interp.contains(' ') || interp.ends_with("Error") {
        return false;
    }
    let Some(module) = h.name.clone() else {
        return false;
    };
    let top = module.split('.').next().unwrap_or(&module).to_string();
    let found = venv_with(&top, s);
    let place = terms("the entry's `command`", s);
    match &found {
        Some(venv) => {
            note(h, Source::Spawn, format!("{} has `{top}`", venv.display()));
            h.says = Some(format!(
                "`{interp}` has no module `{module}`: the server is installed in another environment"
            ));
            h.next = Some(format!(
                "run it with that environment's interpreter: `{}/bin/python -m {module}` as {place}, not `{interp}`",
                venv.display()
            ));
        }
        None if close_module(h, interp, &module, s) => {}
        None => {
            note(
                h,
                Source::Spawn,
                format!("no .venv or venv folder with `{top}` found from the server's folder up"),
            );
            h.says = Some(format!("`{interp}` has no module `{module}`"));
            h.next = Some(format!(
                "run it with the interpreter of the environment where `{module}` is installed (its `.venv/bin/python`) as {place}, install it for `{interp}` (`{interp} -m pip install ...`), or start it with `uvx`"
            ));
        }
    }
    true
}

/// What `interp` itself asks of `module` (an experiment, within [`super::experiment::ASK_LIMIT`]): whether it can import
/// it (`importlib.util.find_spec`), the close names among its top-level modules, each marked
/// runnable when `-m` would run it (a package with `__main__`, or a module with a
/// `__name__ == "__main__"` block), and the close console scripts of its installed
/// distributions (their `entry_points.txt`, through `importlib.metadata`), each with the path
/// of its command beside the interpreter.
const ASK: &str = r#"import sys, os, re, difflib, pkgutil, importlib.util as u
m = sys.argv[1]
def spec(x):
    try:
        return u.find_spec(x)
    except Exception:
        return None
print('found' if spec(m) is not None else 'missing')
key = m.replace('-', '_').lower()
n = set()
for p in sys.path:
    try:
        n.update(x.name for x in pkgutil.iter_modules([p]))
    except Exception:
        pass
close = difflib.get_close_matches(key, sorted(n), 6, 0.6)
def runnable(x):
    s = spec(x)
    if s is None:
        return False
    if s.submodule_search_locations is not None:
        return spec(x + '.__main__') is not None
    try:
        with open(s.origin, encoding='utf-8', errors='replace') as f:
            return re.search(r"__name__\s*==\s*['\"]__main__['\"]", f.read(262144)) is not None
    except Exception:
        return False
print(' '.join(x for x in close if runnable(x)))
print(' '.join(x for x in close if not runnable(x)))
try:
    from importlib.metadata import entry_points
    eps = entry_points()
    eps = eps.select(group='console_scripts') if hasattr(eps, 'select') else eps.get('console_scripts', [])
except Exception:
    eps = []
names = {e.name.replace('-', '_').replace('.', '_').lower(): e for e in eps}
for k in difflib.get_close_matches(key, list(names), 3, 0.8):
    e = names[k]
    p = os.path.join(os.path.dirname(sys.executable), e.name)
    print('script', e.name, e.value.split(' ')[0], p if os.path.isfile(p) else '-')
"#;

/// What the interpreter said of a module it lacks ([`ASK`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Asked {
    runnable: Vec<String>,
    libraries: Vec<String>,
    /// (name, `module:function`, its command's path, when beside the interpreter).
    scripts: Vec<(String, String, Option<String>)>,
}

fn read_asked(out: &str, module: &str) -> Option<Asked> {
    let mut lines = out.lines();
    if lines.next() != Some("missing") {
        return None;
    }
    let names = |l: Option<&str>| -> Vec<String> {
        l.unwrap_or_default()
            .split_whitespace()
            .filter(|c| *c != module)
            .map(str::to_string)
            .collect()
    };
    let runnable = names(lines.next());
    let libraries = names(lines.next());
    let scripts = lines
        .filter_map(|l| {
            let mut w = l.strip_prefix("script ")?.split(' ');
            let name = w.next()?.to_string();
            let value = w.next()?.to_string();
            let path = w.next().filter(|p| *p != "-").map(str::to_string);
            Some((name, value, path))
        })
        .collect();
    Some(Asked {
        runnable,
        libraries,
        scripts,
    })
}

/// What `interp` itself says of `module` ([`ASK`]): when it lacks the module, the installed
/// server's console script, else a close module `-m` can run, else (close names that are
/// libraries only) that the name is wrong and which names are no server.
fn close_module(h: &mut Hit, interp: &str, module: &str, s: &Setting) -> bool {
    let Some(out) = super::experiment::run_bounded(
        std::path::Path::new(interp),
        &["-c", ASK, module],
        super::experiment::ASK_LIMIT,
    ) else {
        return false;
    };
    let Some(a) = read_asked(&out, module) else {
        return false;
    };
    let shown = |xs: &[String]| {
        if xs.is_empty() {
            "none".to_string()
        } else {
            xs.join(", ")
        }
    };
    let mut tried = format!(
        "{interp}: find_spec(\"{module}\"): none; close names it can run with -m: {}; close libraries (no __main__): {}",
        shown(&a.runnable),
        shown(&a.libraries)
    );
    if !a.scripts.is_empty() {
        let sc: Vec<String> = a
            .scripts
            .iter()
            .map(|(n, v, _)| format!("{n} ({v})"))
            .collect();
        tried.push_str(&format!(
            "; console scripts of its installed distributions (entry_points.txt): {}",
            sc.join(", ")
        ));
    }
    if a.runnable.is_empty() && a.libraries.is_empty() && a.scripts.is_empty() {
        return false;
    }
    note(h, Source::Tried, tried);
    if let Some((name, value, path)) = a.scripts.first() {
        let command = path.clone().unwrap_or_else(|| name.clone());
        h.says = Some(format!(
            "`{interp}` has no module `{module}`; the installed server's command is `{name}` (a console script: {value})"
        ));
        // The script's own package, when `-m` can run it (it has a `__main__`): the other way
        // to fix it (a close module of another distribution is not).
        let top = value.split([':', '.']).next().unwrap_or_default();
        let or_module = a
            .runnable
            .iter()
            .find(|m| m.as_str() == top)
            .map(|m| format!("; or keep the interpreter and run `-m {m}` (its module)"))
            .unwrap_or_default();
        h.next = Some(format!(
            "the installed server's command is `{command}`: set {} to it and drop `-m {module}` from {}{or_module}",
            terms("the entry's `command`", s),
            terms("the entry's args", s)
        ));
        return true;
    }
    if let Some(best) = a.runnable.first() {
        h.says = Some(format!(
            "`{interp}` has no module `{module}`, but has `{best}`: the module name is wrong"
        ));
        h.next = Some(format!(
            "run `-m {best}`, not `-m {module}`, in {}",
            terms("the entry's `args`", s)
        ));
        return true;
    }
    h.says = Some(format!(
        "`{interp}` has no module `{module}`; its close names ({}) are libraries, not servers (no `__main__`)",
        a.libraries.join(", ")
    ));
    h.next = Some(format!(
        "check the module name `{module}` in {} against the server's documentation (its `python -m` module or its command), or install the server for `{interp}` (`{interp} -m pip install ...`)",
        terms("the entry's `args`", s)
    ));
    true
}

/// A `.venv`, `venv` or `env` folder in the server's folder or one above it whose
/// `site-packages` holds `module`.
fn venv_with(module: &str, s: &Setting) -> Option<PathBuf> {
    let start = s.cwd.clone().or_else(|| std::env::current_dir().ok())?;
    for dir in start.ancestors().take(4) {
        for name in [".venv", "venv", "env"] {
            let venv = dir.join(name);
            let Ok(libs) = std::fs::read_dir(venv.join("lib")) else {
                continue;
            };
            for lib in libs.flatten() {
                let site = lib.path().join("site-packages");
                if site.join(module).is_dir() || site.join(format!("{module}.py")).is_file() {
                    return Some(venv);
                }
            }
        }
    }
    None
}

/// The Python or Node version the launch ran, from its stderr (`/lib/python3.11/`,
/// `Node.js v14.21.3`, npm's `current: { node: 'v16.20.2'`).
fn version_seen(l: &Launch, python: bool) -> Option<String> {
    for line in lines(l).iter().rev() {
        if python {
            if let Some(at) = line.find("/python3.") {
                let v: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let v = v.trim_end_matches('.');
                if v.len() >= 3 {
                    return Some(format!("Python {v}"));
                }
            }
        } else if let Some(v) = line.trim().strip_prefix("Node.js v") {
            return Some(format!("Node.js v{v}"));
        } else if let Some(at) = line.find("current: { node: '") {
            let v: String = line[at + 18..].chars().take_while(|c| *c != '\'').collect();
            return Some(format!("Node.js {v}"));
        }
    }
    None
}

/// What the runtime lacks and the version that has it.
fn lacks(t: &Text, line: &str, l: &Launch, name: Option<&str>) -> Option<(bool, String, String)> {
    let python = |what: String, v: &str| Some((true, what, v.to_string()));
    match t.contains {
        "cannot import name " => {
            let name = name?;
            let module = first_quoted(&line[line.find(" from ")?..])?;
            let (_, _, v) = PYTHON_NEW
                .iter()
                .find(|(m, n, _)| *m == module && *n == name)?;
            python(format!("`{module}.{name}` is new in Python {v}"), v)
        }
        c if c.ends_with("No module named ") => {
            let module = name?;
            let (_, _, v) = PYTHON_NEW
                .iter()
                .find(|(m, n, _)| *m == module && n.is_empty())?;
            python(format!("the module `{module}` is new in Python {v}"), v)
        }
        "unsupported operand type(s) for |" => {
            python("a `X | Y` type union needs Python 3.10".to_string(), "3.10")
        }
        // Python 3.9 and older on a `match` statement (3.10's): the source line it printed
        // above its caret starts with `match `/`case ` and ends in `:`; never on a Python seen
        // to be 3.10 or newer.
        "SyntaxError: invalid syntax" => {
            let all = lines(l);
            let at = all
                .iter()
                .position(|x| x.trim_end() == "SyntaxError: invalid syntax")?;
            let src = all.get(at.checked_sub(2)?)?.trim();
            let soft =
                (src.starts_with("match ") || src.starts_with("case ")) && src.ends_with(':');
            let newer = version_seen(l, true)
                .and_then(|v| {
                    v.strip_prefix("Python 3.")?
                        .split('.')
                        .next()?
                        .parse::<u32>()
                        .ok()
                })
                .is_some_and(|minor| minor >= 10);
            // An installed package's file: its dist's Requires-Python names it better (the
            // structured row reads it), so this row leaves it.
            let installed = all
                .get(at.checked_sub(3)?)
                .and_then(|f| f.trim().strip_prefix("File \""))
                .and_then(|r| r.split('"').next())
                .is_some_and(|p| p.contains("-packages/") && std::path::Path::new(p).exists());
            (soft && !newer && !installed).then(|| {
                (
                    true,
                    "a `match` statement needs Python 3.10".to_string(),
                    "3.10".to_string(),
                )
            })
        }
        "Unsupported engine" => {
            let required = lines(l).iter().find_map(|x| {
                let at = x.find("required: { node: '")?;
                Some(
                    x[at + 19..]
                        .chars()
                        .take_while(|c| *c != '\'')
                        .collect::<String>(),
                )
            })?;
            let v = required
                .trim_start_matches(['>', '=', '^', '~', ' '])
                .to_string();
            Some((false, format!("the package requires Node.js {required}"), v))
        }
        _ => {
            let (text, v) = NODE_NEW.iter().find(|(x, _)| line.contains(x))?;
            Some((
                false,
                format!("Node.js before {v} says `{text}`"),
                v.to_string(),
            ))
        }
    }
}

fn too_old(h: &mut Hit, t: &Text, line: &str, l: &Launch, s: &Setting) -> bool {
    let Some((python, what, v)) = lacks(t, line, l, h.name.as_deref()) else {
        return false;
    };
    let runtime = if python { "Python" } else { "Node.js" };
    let seen = version_seen(l, python);
    if let Some(seen) = &seen {
        note(h, Source::Stderr, format!("this launch ran {seen}"));
    }
    let used = seen.unwrap_or_else(|| format!("`{}`", s.command.clone().unwrap_or_default()));
    h.name = Some(format!("{runtime} >= {v}"));
    h.says = Some(format!("the server needs {runtime} >= {v}: {what}"));
    let how = if python {
        format!("a newer `python3.x`, or `uvx --python {v} ...`")
    } else {
        "a newer `node`, e.g. its full path under nvm".to_string()
    };
    h.next = Some(format!(
        "run it with {runtime} {v} or newer (this launch used {used}): set {} to {how}",
        terms("the entry's `command`", s)
    ));
    true
}

/// `'@scope/name@*'` -> `@scope/name`; `name==1.0` -> `name`.
fn bare_package(p: &str) -> String {
    let p = p.trim_matches(['\'', '"', '`', ',', '.']);
    let p = match p.rfind('@') {
        Some(i) if i > 0 => &p[..i],
        _ => p,
    };
    p.split(['=', '<', '>', '~', '!', '['])
        .next()
        .unwrap_or(p)
        .to_string()
}

fn package_not_found(h: &mut Hit, t: &Text, line: &str, s: &Setting) -> bool {
    let (name, registry) = match t.contains {
        "is not in this registry" => (
            first_quoted(line).map(|q| bare_package(&q)),
            "npm's registry",
        ),
        "404 Not Found - GET " => {
            let url = line.split("GET ").nth(1).unwrap_or_default();
            let url = url.split_whitespace().next().unwrap_or_default();
            let last = url.rsplit("registry.npmjs.org/").next().unwrap_or(url);
            let decoded = last
                .replace("%2f", "/")
                .replace("%2F", "/")
                .replace("%40", "@");
            (Some(bare_package(&decoded)), "npm's registry")
        }
        "No matching distribution found for " => (h.name.as_deref().map(bare_package), "PyPI"),
        "was not found in the package registry" => {
            let before = &line[..line.find(" was not found").unwrap_or(0)];
            (
                before.split_whitespace().last().map(bare_package),
                "the package registry",
            )
        }
        _ => (None, ""),
    };
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return false;
    };
    h.name = Some(name.clone());
    h.says = Some(format!("{registry} has no package `{name}`"));
    h.next = Some(terms(
        &format!(
            "check the package name `{name}` in the entry's args (a typo?): {registry} has no package of that name; a private package needs its registry configured"
        ),
        s,
    ));
    true
}

/// `/home/u/.npm/_npx/6b1a.../node_modules/x/index.js` -> `/home/u/.npm/_npx/6b1a...`.
fn npx_folder(line: &str) -> Option<String> {
    let at = line.find("/_npx/")?;
    let start = line[..at]
        .rfind(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | '`'))
        .map_or(0, |i| i + 1);
    let mut path = &line[start..at];
    if let Some(p) = path.strip_prefix("file://") {
        path = p;
    }
    let hash: String = line[at + 6..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (!hash.is_empty() && path.starts_with(['/', '~'])).then(|| format!("{path}/_npx/{hash}"))
}

fn npx_cache(h: &mut Hit, line: &str) -> bool {
    let Some(folder) = npx_folder(line) else {
        return false;
    };
    let there = Path::new(&folder).is_dir();
    note(
        h,
        Source::Spawn,
        if there {
            format!("{folder} is npx's cached copy of the package, and is there")
        } else {
            format!("{folder} is gone now")
        },
    );
    h.name = Some(folder.clone());
    h.says = Some(format!(
        "npx's cached copy of the package is incomplete: {folder}"
    ));
    h.next = Some(format!(
        "delete {folder} (`rm -rf {folder}`): npx's copy of the package, left incomplete (a first launch stopped mid-install, or two installs at once); the next launch installs it again"
    ));
    true
}

/// The installed version of Python package `pkg` beside `site` (its `*.dist-info`).
pub(super) fn dist_version(site: &Path, pkg: &str) -> Option<String> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let want = norm(pkg);
    std::fs::read_dir(site).ok()?.flatten().find_map(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        let stem = name.strip_suffix(".dist-info")?;
        let (n, v) = stem.split_once('-')?;
        (norm(n) == want).then(|| v.to_string())
    })
}

/// The version in `node_modules/pkg/package.json` from `from` up.
fn node_version(from: &Path, pkg: &str) -> Option<String> {
    from.ancestors().find_map(|d| {
        let manifest = d.join("node_modules").join(pkg).join("package.json");
        let text = crate::engine::infile::read_head_text(&manifest, 1 << 20)?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        v["version"].as_str().map(str::to_string)
    })
}

/// The Python module `file` imports `name` from (`from mcp.server.lowlevel import Server,
/// NotificationOptions`; a parenthesised list too).
fn imported_from(file: &Path, name: &str) -> Option<String> {
    let text = crate::engine::infile::read_head_text(file, 4 << 20)?;
    let mut rest = text.as_str();
    while let Some(at) = rest.find("from ") {
        let stmt = &rest[at + 5..];
        rest = stmt;
        let (module, after) = stmt.split_once(" import ")?;
        let module = module.trim();
        if module.is_empty() || module.contains(char::is_whitespace) {
            continue;
        }
        let names = if after.trim_start().starts_with('(') {
            after.split(')').next().unwrap_or_default()
        } else {
            after.lines().next().unwrap_or_default()
        };
        let names = names.trim_start().trim_start_matches('(');
        if names
            .split(',')
            .map(|n| n.split_whitespace().next().unwrap_or_default())
            .any(|n| n == name)
        {
            return Some(module.to_string());
        }
    }
    None
}

/// Python `AttributeError: 'Server' object has no attribute 'list_resources'` (or `module
/// 'pkg' has no attribute ...`) raised in an installed package's code, on a name another
/// package provides: that package changed under the server.
fn attribute_drift(line: &str, l: &Launch) -> Option<(String, String, Option<String>)> {
    let rest = line.split("AttributeError: ").nth(1)?;
    let attr = first_quoted(rest.split(" has no attribute ").nth(1)?)?;
    let owner = first_quoted(rest)?;
    let all = lines(l);
    let at = all.iter().position(|x| x.as_str() == line)?;
    let frame = all[..at]
        .iter()
        .rev()
        .find_map(|x| x.trim_start().strip_prefix("File \""))?;
    let file = &frame[..frame.find('"')?];
    let site_at = file.find("-packages/")?;
    let site = &file[..site_at + 9];
    let own = file[site_at + 10..].split('/').next()?;
    let module = if rest.starts_with("module ") {
        owner.clone()
    } else {
        imported_from(Path::new(file), &owner)?
    };
    let pkg = module.split('.').next()?.to_string();
    if pkg == own || pkg.is_empty() {
        // The server's own code.
        return None;
    }
    let version = dist_version(Path::new(site), &pkg);
    Some((pkg, format!("{owner}.{attr}"), version))
}

fn drift(h: &mut Hit, t: &Text, line: &str, l: &Launch) -> bool {
    if t.contains == "AttributeError: " {
        let Some((pkg, name, version)) = attribute_drift(line, l) else {
            return false;
        };
        drift_advice(h, pkg, &name, version, true);
        return true;
    }
    let Some(name) = h.name.clone() else {
        return false;
    };
    let (pkg, version, python) = if t.contains == "cannot import name " {
        let Some(from) = line.find(" from ") else {
            return false;
        };
        let Some(module) = first_quoted(&line[from..]) else {
            return false;
        };
        if PYTHON_NEW
            .iter()
            .any(|(m, n, _)| *m == module && *n == name)
        {
            return false;
        }
        let path = line
            .rsplit('(')
            .next()
            .unwrap_or_default()
            .trim_end_matches(')');
        let Some(site_at) = path.find("-packages/") else {
            // The server's own module, not a dependency.
            return false;
        };
        let pkg = module.split('.').next().unwrap_or(&module).to_string();
        let version = dist_version(Path::new(&path[..site_at + 9]), &pkg);
        (pkg, version, true)
    } else {
        let Some(pkg) = first_quoted(line) else {
            return false;
        };
        if pkg.starts_with(['.', '/']) || pkg.starts_with("file:") || pkg.starts_with("node:") {
            return false;
        }
        let importer = lines(l).iter().find_map(|x| {
            let p = x.trim().strip_prefix("file://")?;
            let p = p.rsplit_once(':').map_or(p, |(a, _)| a);
            Some(PathBuf::from(p))
        });
        let version = importer
            .as_deref()
            .and_then(Path::parent)
            .and_then(|d| node_version(d, &pkg));
        (pkg, version, false)
    };
    drift_advice(h, pkg, &name, version, python);
    true
}

/// The says and next step of `dependency-drift`: the package and the version to pin.
fn drift_advice(h: &mut Hit, pkg: String, name: &str, version: Option<String>, python: bool) {
    if let Some(v) = &version {
        note(h, Source::Spawn, format!("installed: {pkg} {v}"));
    }
    let shown = match &version {
        Some(v) => format!("`{pkg}` {v}"),
        None => format!("`{pkg}`"),
    };
    h.name = Some(pkg.clone());
    h.says = Some(format!(
        "{shown} has no `{name}`, which the server imports: the dependency changed under the server"
    ));
    let pin = match (&version, python) {
        (Some(v), true) => {
            format!("pin `{pkg}` below {v} where the server runs (`pip install '{pkg}<{v}'`)")
        }
        (Some(v), false) => format!(
            "pin `{pkg}` below {v} for the server (`npm install '{pkg}@<{v}'` in its folder)"
        ),
        (None, _) => format!("pin `{pkg}` to the version the server was built with"),
    };
    h.next = Some(format!(
        "{pin}, or install the server from its lock file; or update the server to a release that works with the new `{pkg}`"
    ));
}

#[cfg(test)]
mod close_tests {
    use super::*;
    use crate::engine::diagnosis::table::Confidence;

    fn hit() -> Hit {
        Hit {
            rule: 0,
            confidence: Confidence::High,
            name: None,
            says: None,
            next: None,
            launches: vec![1],
            evidence: Vec::new(),
        }
    }

    #[test]
    fn the_interpreter_is_asked_for_the_module_and_its_close_names() {
        let s = Setting::default();
        // A real interpreter: `timeitt` is missing, `timeit` is close and runs with -m.
        let mut h = hit();
        assert!(close_module(&mut h, "python3", "timeitt", &s), "{h:?}");
        assert!(
            h.next.as_deref().unwrap_or("").contains("-m timeit"),
            "{h:?}"
        );
        assert!(h.evidence.iter().any(|e| e.source == Source::Tried));
        // A close name that is a library (`string`: no `__main__`) is never offered to -m.
        let mut h = hit();
        assert!(close_module(&mut h, "python3", "stringg", &s), "{h:?}");
        let next = h.next.as_deref().unwrap_or("");
        assert!(!next.contains("-m string"), "{next}");
        assert!(
            h.says.as_deref().unwrap_or("").contains("libraries"),
            "{h:?}"
        );
        // Look-alikes: a module it has, and a name close to nothing.
        assert!(!close_module(&mut hit(), "python3", "json", &s));
        assert!(!close_module(
            &mut hit(),
            "python3",
            "zqxwvy_nothing_like_it",
            &s
        ));
    }

    #[test]
    fn a_console_script_close_to_the_module_is_the_command_to_run() {
        // What the interpreter says for `-m elasticsearch_mcp_server` in elasticsearch-mcp-server
        // 2.1.6's venv (its module is `src.server`, its command a console script).
        let out = "missing\n\nelasticsearch\nscript elasticsearch-mcp-server src.server:elasticsearch_mcp_server /v/bin/elasticsearch-mcp-server\n";
        let a = read_asked(out, "elasticsearch_mcp_server").expect("missing");
        assert_eq!(a.libraries, ["elasticsearch"]);
        assert_eq!(
            a.scripts,
            [(
                "elasticsearch-mcp-server".to_string(),
                "src.server:elasticsearch_mcp_server".to_string(),
                Some("/v/bin/elasticsearch-mcp-server".to_string())
            )]
        );
        assert_eq!(read_asked("found\n\n\n", "x"), None);
    }
}
