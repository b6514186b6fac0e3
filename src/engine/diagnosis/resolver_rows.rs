//! A resolver's refusal of the Python it was given, in each installer's fixed format, tied to
//! the entry's `--python` (or `UV_PYTHON`): uv and uvx (`No solution found when resolving ...`
//! then `Because the current Python version (3.11.7) does not satisfy Python>=3.12,<3.14 and
//! X depends on ...`; `the requested Python version (3.11) does not satisfy Python>=3.12`),
//! uv run in a project (`The requested interpreter resolved to Python 3.11.7, which is
//! incompatible with the project's Python requirement: `>=3.12``), pip and pipx (`Package 'x'
//! requires a different Python: 3.11.7 not in '>=3.12'`; `Ignored the following versions that
//! require a different python version: 2.0 Requires-Python >=3.12`). The server never ran:
//! the interpreter the entry picks is below what the package requires.

use super::model::{cut, Found, Setting, Source};
use super::runtime_rows::python_floor;
use super::table::Id;
use super::words::terms;

/// What a resolver refused: the Python it had (when it says), the range wanted, the line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub running: Option<String>,
    pub wanted: String,
    pub line: String,
}

/// The text after `marker` up to the first whitespace, without closing punctuation.
fn token_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let at = line.find(marker)? + marker.len();
    let t = line[at..].split_whitespace().next()?;
    let t = t.trim_matches(['`', '\'', '"', ':', ';']);
    let t = t.trim_end_matches([',', '.', ')']);
    (!t.is_empty()).then_some(t)
}

/// The version in parentheses after `marker` (`Python version (3.11.7)`).
fn paren_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let at = line.find(marker)? + marker.len();
    let rest = line[at..].strip_prefix('(')?;
    rest.split(')').next()
}

/// A Python version range: it starts with a comparison and a digit.
fn is_spec(s: &str) -> bool {
    let t = s.trim_start_matches(['>', '<', '=', '~', '!']);
    t.len() < s.len() && t.starts_with(|c: char| c.is_ascii_digit())
}

/// The refusal in `lines`, each installer's format in turn.
pub(super) fn refusal(lines: &[&str]) -> Option<Refusal> {
    let found = |running: Option<&str>, wanted: &str, line: &str| Refusal {
        running: running.map(str::to_string),
        wanted: wanted.to_string(),
        line: line.trim().to_string(),
    };
    for l in lines {
        // uv: `the current Python version (3.11.7) does not satisfy Python>=3.12,<3.14`.
        if let Some(w) = token_after(l, "does not satisfy Python").filter(|w| is_spec(w)) {
            return Some(found(paren_after(l, "Python version "), w, l));
        }
        // uv run: `resolved to Python 3.11.7, which is incompatible with the project's Python
        // requirement: `>=3.12``.
        if let Some(w) = token_after(l, "Python requirement: ").filter(|w| is_spec(w)) {
            return Some(found(token_after(l, "resolved to Python "), w, l));
        }
        // pip: `requires a different Python: 3.11.7 not in '>=3.12'`.
        if let Some(r) = token_after(l, "requires a different Python: ") {
            if let Some(w) = token_after(l, " not in ").filter(|w| is_spec(w)) {
                return Some(found(Some(r), w, l));
            }
        }
    }
    // pip: `Ignored the following versions that require a different python version: 1.0
    // Requires-Python >=3.12; ...`: the last range listed (the newest version's).
    lines.iter().find_map(|l| {
        let last = l.rsplit("Requires-Python ").next()?;
        let w = last.split([';', ' ']).next()?.trim_end_matches(',');
        (l.contains("Requires-Python ") && is_spec(w)).then(|| found(None, w, l))
    })
}

/// The entry's interpreter choice: its `--python V` / `-p V` / `--python=V` argument, as
/// written, and the version.
fn python_arg(s: &Setting) -> Option<(String, String)> {
    s.args.iter().enumerate().find_map(|(i, a)| {
        if let Some(v) = a.strip_prefix("--python=") {
            return Some((a.clone(), v.to_string()));
        }
        if a == "--python" || a == "-p" {
            let v = s.args.get(i + 1)?;
            return Some((format!("{a} {v}"), v.clone()));
        }
        None
    })
}

/// The row: the resolver's refusal, and what of the entry picks the Python it refused.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let r = refusal(lines)?;
    let floor = python_floor(&r.wanted).map(|(a, b)| format!("{a}.{b}"));
    let want = floor.as_deref().unwrap_or(&r.wanted);
    let had = r
        .running
        .as_deref()
        .map(|v| format!("Python {v}"))
        .unwrap_or_else(|| "the Python it was given".to_string());
    let quoted = cut(&r.line);
    let uv_python = super::given::entry_env(s).any(|(k, _)| k == "UV_PYTHON");
    let next = match (python_arg(s), uv_python) {
        (Some((shown, _)), _) => {
            let flag = shown.split([' ', '=']).next().unwrap_or("--python");
            format!(
                "change `{shown}` in the entry's args to `{flag} {want}` (or newer within `{}`): the package requires Python {}, the resolver says \"{quoted}\"",
                r.wanted, r.wanted
            )
        }
        (None, true) => format!(
            "change `UV_PYTHON` in the entry's `env` to {want} (or newer within `{}`): the package requires Python {}, the resolver says \"{quoted}\"",
            r.wanted, r.wanted
        ),
        (None, false) => format!(
            "run it with Python {want} or newer (within `{}`): pass `--python {want}` to uvx/uv in the entry's args, or set the entry's `command` to that interpreter; the resolver says \"{quoted}\"",
            r.wanted
        ),
    };
    Some(Found {
        id: Id::RuntimeTooOld,
        summary: format!(
            "the package requires Python {}, and the installer was given {had}: it refused to install it",
            r.wanted
        ),
        next: terms(&next, s),
        evidence: vec![(Source::Stderr, quoted)],
    })
}

#[cfg(test)]
#[path = "resolver_rows_tests.rs"]
mod tests;
