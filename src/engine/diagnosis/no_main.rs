//! `python -m PKG` where PKG is a package without `__main__` (CPython's own `/venv/bin/python:
//! No module named PKG.__main__; 'PKG' is a package and cannot be directly executed`): the
//! interpreter has the package, so the fix is in the entry's args, not another environment. An
//! experiment asks that interpreter (bounded, like `import_rows`' ask) for the console scripts
//! whose entry point is in the package (`importlib.metadata`) and for the modules of the
//! package `-m` can run (a `__name__ == "__main__"` block, a subpackage with `__main__.py`) or
//! that define a `main()`, read from its files without importing them.

use super::experiment::{run_bounded, ASK_LIMIT};
use super::model::{Evidence, Hit, Setting, Source};
use super::words::terms;

/// CPython's words after the package's name.
pub(super) const NO_MAIN: &str = "is a package and cannot be directly executed";

/// What the interpreter is asked: `package` when PKG is one; each console script whose entry
/// point is PKG or in it (`script NAME VALUE PATH`, the path beside the interpreter or `-`);
/// each module of PKG's folders that `-m` runs (`runnable`) or that has a `main()` (`main`).
const ASK: &str = r#"import sys, os, re, importlib.util as u
m = sys.argv[1]
try:
    s = u.find_spec(m)
except Exception:
    s = None
locs = list(s.submodule_search_locations or []) if s is not None else []
print('package' if locs else 'none')
try:
    from importlib.metadata import entry_points
    eps = entry_points()
    eps = eps.select(group='console_scripts') if hasattr(eps, 'select') else eps.get('console_scripts', [])
except Exception:
    eps = []
for e in eps:
    mod = e.value.split(':')[0].strip()
    if mod == m or mod.startswith(m + '.'):
        p = os.path.join(os.path.dirname(sys.executable), e.name)
        print('script', e.name, e.value.replace(' ', ''), p if os.path.isfile(p) else '-')
guard = re.compile(r"__name__\s*==\s*['\"]__main__['\"]")
mainf = re.compile(r"^(async\s+)?def\s+main\s*\(", re.M)
for loc in locs[:4]:
    try:
        names = sorted(os.listdir(loc))[:500]
    except Exception:
        continue
    for n in names:
        p = os.path.join(loc, n)
        if os.path.isfile(os.path.join(p, '__main__.py')):
            print('runnable', m + '.' + n)
            continue
        if not n.endswith('.py') or n == '__init__.py':
            continue
        try:
            with open(p, encoding='utf-8', errors='replace') as f:
                t = f.read(262144)
        except Exception:
            continue
        if guard.search(t):
            print('runnable', m + '.' + n[:-3])
        elif mainf.search(t):
            print('main', m + '.' + n[:-3])
"#;

/// What the interpreter said of the package ([`ASK`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Asked {
    /// (name, `module:function`, its command's path when beside the interpreter).
    scripts: Vec<(String, String, Option<String>)>,
    runnable: Vec<String>,
    mains: Vec<String>,
}

fn read_asked(out: &str) -> Option<Asked> {
    let mut lines = out.lines();
    if lines.next() != Some("package") {
        return None;
    }
    let mut a = Asked::default();
    for l in lines {
        let mut w = l.split(' ');
        match (w.next(), w.next()) {
            (Some("script"), Some(name)) => {
                let value = w.next().unwrap_or_default().to_string();
                let path = w.next().filter(|p| *p != "-").map(str::to_string);
                a.scripts.push((name.to_string(), value, path));
            }
            (Some("runnable"), Some(m)) => a.runnable.push(m.to_string()),
            (Some("main"), Some(m)) => a.mains.push(m.to_string()),
            _ => {}
        }
    }
    // A module named for serving first (`pkg.server`, `pkg.mcp_server`), then `main`.
    let rank = |m: &String| {
        let last = m.rsplit('.').next().unwrap_or(m);
        if last.contains("server") || last.contains("mcp") {
            0
        } else if last.contains("main") || last == "cli" || last == "app" {
            1
        } else {
            2
        }
    };
    a.runnable.sort_by_key(rank);
    a.mains.sort_by_key(rank);
    Some(a)
}

fn note(h: &mut Hit, text: String) {
    h.evidence.push(Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text,
    });
}

/// The package named in CPython's line: the quoted name before [`NO_MAIN`].
fn package_in(line: &str) -> Option<String> {
    let before = &line[..line.find(NO_MAIN)?];
    let quoted = before.trim_end().strip_suffix('\'')?;
    let start = quoted.rfind('\'')?;
    let name = &quoted[start + 1..];
    (!name.is_empty() && !name.contains(' ')).then(|| name.to_string())
}

/// Fill in the hit for `python -m PKG` of a package without `__main__`: the console script or
/// the module to run instead; `false` when the line is not CPython's.
pub(super) fn advice(h: &mut Hit, line: &str, s: &Setting) -> bool {
    let Some(at) = line.find(": No module named ") else {
        return false;
    };
    let interp = line[..at].trim();
    let Some(pkg) = package_in(line) else {
        return false;
    };
    if interp.is_empty() || interp.contains(' ') {
        return false;
    }
    h.name = Some(pkg.clone());
    h.says = Some(format!(
        "`{pkg}` is a package without `__main__`: `python -m {pkg}` cannot run it"
    ));
    let args = terms("the entry's args", s);
    let command = terms("the entry's `command`", s);
    let asked = run_bounded(std::path::Path::new(interp), &["-c", ASK, &pkg], ASK_LIMIT)
        .as_deref()
        .and_then(read_asked);
    let Some(a) = asked else {
        h.next = Some(format!(
            "run the package's server command (its console script) or the module of it that runs (`-m {pkg}.server`, with an `if __name__ == \"__main__\"` block) in place of `-m {pkg}` in {args}: a package runs with `-m` only with a `__main__.py`"
        ));
        return true;
    };
    let shown = |xs: &[String]| {
        if xs.is_empty() {
            "none".to_string()
        } else {
            xs.join(", ")
        }
    };
    let scripts: Vec<String> = a
        .scripts
        .iter()
        .map(|(n, v, _)| format!("{n} ({v})"))
        .collect();
    note(
        h,
        format!(
            "{interp}: console scripts into {pkg}: {}; its modules -m runs: {}; with a main(): {}",
            shown(&scripts),
            shown(&a.runnable),
            shown(&a.mains)
        ),
    );
    let module = a
        .runnable
        .first()
        .map(|m| format!(" (or `-m {m}` in {args})"))
        .unwrap_or_default();
    h.next = Some(match (a.scripts.first(), a.runnable.first(), a.mains.first()) {
        (Some((name, _, path)), _, _) => format!(
            "run `{}`, the package's console script, as {command}{module}: `{pkg}` has no `__main__`",
            path.as_deref().unwrap_or(name)
        ),
        (None, Some(m), _) => format!(
            "write `-m {m}` in place of `-m {pkg}` in {args}: `{m}` runs as a module (its `if __name__ == \"__main__\"` block), `{pkg}` has no `__main__`"
        ),
        (None, None, Some(m)) => format!(
            "run `{interp} -c \"from {m} import main; main()\"` in place of `-m {pkg}`: `{m}` has a `main()` but no `__main__` block, and `{pkg}` has no `__main__`"
        ),
        (None, None, None) => format!(
            "check the module in {args}: `{pkg}` has no `__main__`, no console script and no module `-m` runs; the server's documentation names its command"
        ),
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_is_read_from_cpythons_line() {
        let line = "/v/bin/python: No module named awslabs.kb.__main__; 'awslabs.kb' is a package and cannot be directly executed";
        assert_eq!(package_in(line).as_deref(), Some("awslabs.kb"));
        assert_eq!(package_in("/v/bin/python: No module named x"), None);
    }

    #[test]
    fn the_interpreters_answer_is_read_and_a_serving_module_leads() {
        let out = "package\nscript kb-server awslabs.kb.server:main /v/bin/kb-server\nrunnable awslabs.kb.tools\nrunnable awslabs.kb.server\nmain awslabs.kb.cli\n";
        let a = read_asked(out).expect("an answer");
        assert_eq!(
            a.scripts,
            vec![(
                "kb-server".to_string(),
                "awslabs.kb.server:main".to_string(),
                Some("/v/bin/kb-server".to_string())
            )]
        );
        assert_eq!(a.runnable, vec!["awslabs.kb.server", "awslabs.kb.tools"]);
        assert_eq!(a.mains, vec!["awslabs.kb.cli"]);
        // Not a package (the interpreter cannot find it): no answer.
        assert!(read_asked("none\n").is_none());
    }
}
