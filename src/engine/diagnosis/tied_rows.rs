//! The structured rows that tie a failure to one variable of the entry (see
//! [`super::structured`]), and say what the server wants there instead.
//!
//! The failure is any error the launch printed (a Python exception, each of a chain's and of
//! an exception group's leaves, a Node error, an error line) or its last words. It is about a
//! variable the entry sets when:
//! - it names it (`DT_ENVIRONMENT`, or a settings field `query_timeout` of
//!   `APP_QUERY_TIMEOUT`): [`Tie::Named`];
//! - it quotes its value, whole or a part of it with a path's or an address's shape (`could not
//!   convert string to float: '2m'`, Go's `parsing "30s": invalid syntax`): [`Tie::Quoted`];
//! - the failing frame's source line (Python's line under the innermost `File`, Node's line
//!   above its `^`) reads it (`os.environ.get("X")`, `os.getenv`, `process.env.X`,
//!   `settings.x` mapped by the entry's prefix): [`Tie::Read`].
//!
//! What it wants instead comes from the failure's structure and the value's shape, never one
//! server's words: a number (a conversion's error; a value with a unit), a duration with its
//! unit (Go's `time: missing unit`), `true`/`false`, valid JSON, a URL with its scheme (a
//! value without one, where the failure speaks of a URL or shows a scheme). Values are the
//! entry's as the engine redacted them: a secret's is masked and never matched.

use super::env_rows::last_words;
use super::evidence::Fact;
use super::given::{entry_env, value_of, vars_in};
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::url_rows;
use super::words::terms;
use crate::engine::redact::MASK;

/// How a failure is tied to the variable (each a key of `structured.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tie {
    /// It names the variable: `ErrorNamesOneSetVariable`.
    Named,
    /// It quotes the variable's value: `ErrorQuotesASetValue`.
    Quoted,
    /// The failing frame's source line reads the variable: `FailingLineReadsASetVariable`.
    Read,
}

/// One failure the launch printed.
struct Failure {
    /// The line to quote.
    quoted: String,
    /// Its message (what a person reads).
    message: String,
    /// The source line of the frame it was raised in, when shown.
    at: Option<String>,
}

/// The row of `key`: what [`analyse`] found, when it is tied that way.
pub(super) fn row(key: Tie, facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    analyse(facts, lines, s)
        .filter(|(tie, _)| *tie == key)
        .map(|(_, f)| f)
}

/// The first failure tied to one variable of the entry, and how.
pub(super) fn analyse(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<(Tie, Found)> {
    let failures = failures(facts, lines, s);
    for f in failures.iter().filter(|f| !names_unset(s, &f.message)) {
        if let Some(var) = one(named(s, &f.message)) {
            return Some((Tie::Named, found(Tie::Named, var, f, s)));
        }
    }
    for f in &failures {
        if let Some(var) = one(quoting(s, &f.message)) {
            return Some((Tie::Quoted, found(Tie::Quoted, var, f, s)));
        }
    }
    for f in &failures {
        if let Some(var) = one(f.at.as_deref().map(|l| reads(s, l)).unwrap_or_default()) {
            return Some((Tie::Read, found(Tie::Read, var, f, s)));
        }
    }
    None
}

/// Whether `text` names a variable (`UPPER_SNAKE`) the entry does not set: a failure naming
/// one it sets beside one it lacks is about the one it lacks (`DATADOG_API_KEY and
/// DATADOG_APP_KEY must be set`), the row of unset names.
fn names_unset(s: &Setting, text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 5 && super::model::upper_snake(w))
        .any(|w| !entry_env(s).any(|(k, _)| k == w))
}

fn one(vars: Vec<&str>) -> Option<&str> {
    match vars.as_slice() {
        [v] => Some(v),
        _ => None,
    }
}

/// The entry's variables a message names: as written, else in words (`AWS documentation
/// partition`).
fn named<'a>(s: &'a Setting, message: &str) -> Vec<&'a str> {
    let vars = vars_in(s, message);
    if vars.is_empty() {
        return super::entry_rows::vars_in_words(s, message);
    }
    vars
}

/// The failures of a launch, in the order printed: each error fact, then its last words.
fn failures(facts: &[Fact], lines: &[&str], s: &Setting) -> Vec<Failure> {
    let mut out: Vec<Failure> = facts
        .iter()
        .filter(|f| f.is_error())
        .filter_map(|f| {
            let message = f.message()?.to_string();
            let at = match f {
                Fact::Python { kind, message, .. } => python_line(lines, kind, message),
                Fact::Node { kind, message, .. } => node_line(lines, kind, message),
                _ => None,
            };
            Some(Failure {
                quoted: cut(&f.quoted()),
                message,
                at,
            })
        })
        .collect();
    // Last words are a failure when they complain; not a fact no row reads (a `KeyError`:
    // a variable missing, the table's row), not one already read.
    let read = |last: &str| {
        facts
            .iter()
            .filter_map(Fact::message)
            .any(|m| !m.is_empty() && last.contains(m))
    };
    if let Some(last) = last_words(lines).filter(|l| complains(l) && !read(l) && !names_unset(s, l))
    {
        {
            out.push(Failure {
                quoted: cut(last),
                message: last.to_string(),
                at: None,
            });
        }
    }
    out
}

/// Words of a line that complains (lower case).
const COMPLAINTS: &[&str] = &[
    "invalid",
    "not valid",
    "must",
    "error",
    "please",
    "fail",
    "cannot",
    "can't",
    "unable",
    "required",
    "expected",
    "missing",
    "unsupported",
    "unknown",
    "wrong",
    "not set",
];

fn complains(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    COMPLAINTS.iter().any(|w| low.contains(w))
}

/// Python: the source line under the innermost `File "..."` frame above the exception line
/// `... Kind: message` (the caret line `^^^` is no source).
fn python_line(lines: &[&str], kind: &str, message: &str) -> Option<String> {
    let head = if message.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {message}")
    };
    let e = lines.iter().rposition(|l| l.trim_end().ends_with(&head))?;
    let f = lines[..e]
        .iter()
        .rposition(|l| l.trim_start().starts_with("File \""))?;
    let src = lines.get(f + 1)?.trim();
    let caret = src.chars().all(|c| matches!(c, '^' | '~' | ' '));
    (f + 1 < e && !src.is_empty() && !caret && !src.starts_with("File \"")).then(|| src.to_string())
}

/// Node: the source line it prints above the error (`/x/index.js:12`, the line, its `^`).
fn node_line(lines: &[&str], kind: &str, message: &str) -> Option<String> {
    let e = lines.iter().position(|l| {
        let t = l.trim();
        t.starts_with(kind) && t.contains(message)
    })?;
    let mut j = e.checked_sub(1)?;
    while lines[j].trim().is_empty() {
        j = j.checked_sub(1)?;
    }
    let caret = lines[j].trim();
    if caret.is_empty() || !caret.chars().all(|c| c == '^') {
        return None;
    }
    let src = lines.get(j.checked_sub(1)?)?.trim();
    let place = lines.get(j.checked_sub(2)?)?.trim_end();
    let numbered = place
        .rsplit_once(':')
        .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    // Raised in a package: the server's own line that called it reads what it was handed
    // (simple-git's `GitError: fatal: not a git repository` under `simpleGit(process.env.X)`).
    if numbered && place.contains("/node_modules/") {
        return super::frame_rows::own_frame_line(&lines[e..]);
    }
    (numbered && !src.is_empty()).then(|| src.to_string())
}

/// A value that may be matched: not masked, not empty, and not too short to be anything but a
/// word of the message.
fn matchable(v: &str) -> bool {
    !v.contains(MASK) && v.trim().len() >= 2
}

/// The quoted tokens of `text` (`'x'`, `"x"`, `` `x` ``).
fn quoted_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for q in ['\'', '"', '`'] {
        out.extend(text.split(q).skip(1).step_by(2).filter(|t| !t.is_empty()));
    }
    out
}

/// Whether a quoted token is a part of `value` with a shape of its own (a path's, an
/// address's: a `/`, `:` or `.` in it), not a word that happens to be in it.
fn part_of(token: &str, value: &str) -> bool {
    token.len() >= 4 && token.contains(['/', ':', '.', '@']) && value.contains(token)
}

/// Whether `v` has a shape of its own, not a word's: a digit, or a path's or an address's
/// punctuation (`30s`, `1.5x`, `host:port`).
fn shaped(v: &str) -> bool {
    v.len() >= 2 && v.contains(|c: char| c.is_ascii_digit() || matches!(c, '.' | '/' | ':' | '@'))
}

/// The entry's variables whose value `message` quotes (whole, or a shaped part of it), or
/// holds as a word of its own when the value has a shape (`invalid timeout 30s`).
fn quoting<'a>(s: &'a Setting, message: &str) -> Vec<&'a str> {
    let tokens = quoted_tokens(message);
    let words: Vec<&str> = message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']'))
        .map(|w| w.trim_end_matches(['.', ':', '!', '?']))
        .collect();
    let mut out: Vec<&str> = Vec::new();
    for (k, v) in entry_env(s) {
        if !matchable(v) {
            continue;
        }
        let whole = tokens.iter().any(|t| t == v)
            || (shaped(v) && words.contains(&v.as_str()))
            || labelled(message) == Some(v.as_str());
        if (whole || tokens.iter().any(|t| part_of(t, v))) && !out.contains(&k.as_str()) {
            out.push(k);
        }
    }
    out
}

/// The value a short refusal ends on after its label (`Unknown transport: http`, `Invalid
/// mode: fast`): the label is a refusal's word and at most three more, the value one word.
fn labelled(message: &str) -> Option<&str> {
    const REFUSED: &[&str] = &["unknown", "invalid", "unsupported", "unrecognized", "bad"];
    let (label, value) = message.trim().rsplit_once(": ")?;
    let value = value.trim().trim_matches(['\'', '"', '`']);
    let mut words = label.split_whitespace();
    let first = words.next()?.to_ascii_lowercase();
    (REFUSED.contains(&first.as_str())
        && words.count() <= 3
        && !value.is_empty()
        && !value.contains(char::is_whitespace))
    .then_some(value)
}

/// Words before a field that name a settings object (`settings.timeout`, `self.config.url`).
const SETTINGS: &[&str] = &[
    "settings", "config", "cfg", "conf", "options", "opts", "env",
];

/// The entry's variables a source line reads: a quoted name on a line that reads the
/// environment (`os.environ.get("X")`, `os.getenv("X")`, `os.Getenv("X")`, `env::var("X")`),
/// `process.env.X`, or a settings object's field mapped to one (`settings.query_timeout`).
fn reads<'a>(s: &'a Setting, line: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    let mut push = |v: &'a str| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    let environ = line.to_ascii_lowercase().contains("env");
    for (k, _) in entry_env(s) {
        let quoted = ['"', '\'']
            .iter()
            .any(|q| line.contains(&format!("{q}{k}{q}")));
        let dotted = line.contains(&format!("env.{k}"));
        if (environ && quoted) || dotted {
            push(k);
        }
    }
    let words: Vec<&str> = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .collect();
    for w in words {
        let parts: Vec<&str> = w.split('.').collect();
        for pair in parts.windows(2) {
            if SETTINGS.contains(&pair[0].to_ascii_lowercase().as_str()) && pair[1].contains('_') {
                if let Some(v) = super::given::entry_var(s, pair[1], true) {
                    push(v);
                }
            }
        }
    }
    out
}

/// The default a source line gives the variable (`os.environ.get("X", "120.0")`,
/// `process.env.X || "30"`, `?? 30`), when it is a short literal.
fn default_of(line: &str, var: &str) -> Option<String> {
    let at = line.find(var)? + var.len();
    let rest = line[at..].trim_start_matches(['"', '\'', ']', ' ']);
    let rest = rest
        .strip_prefix(',')
        .or_else(|| rest.strip_prefix("||"))
        .or_else(|| rest.strip_prefix("??"))?
        .trim_start();
    let lit = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split(q).next()?,
        _ => rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .next()?,
    };
    (!lit.is_empty() && lit.len() <= 40 && !lit.contains(MASK)).then(|| lit.to_string())
}

/// Units of time and size a value may carry (lower case).
const UNITS: &[&str] = &[
    "ns", "us", "ms", "s", "sec", "m", "min", "h", "hr", "d", "w", "b", "k", "kb", "kib", "mb",
    "mib", "g", "gb", "gib",
];

/// A number followed by a unit of time or size (`2m`, `30s`, `500ms`, `10 MB`): the unit.
fn unit_of(v: &str) -> Option<&str> {
    let v = v.trim();
    let digits = v.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let unit = v[digits..].trim_start();
    (digits > 0 && UNITS.contains(&unit.to_ascii_lowercase().as_str())).then_some(unit)
}

/// Whether `v` is a plain number (`30`, `1.5`).
fn plain_number(v: &str) -> bool {
    let v = v.trim();
    !v.is_empty() && v.parse::<f64>().is_ok()
}

/// The example a message gives: the word after `e.g.`, `for example` or `such as`.
fn example(m: &str) -> Option<&str> {
    let low = m.to_ascii_lowercase();
    let at = ["e.g.,", "e.g.", "for example,", "for example", "such as"]
        .iter()
        .find_map(|w| low.find(w).map(|i| i + w.len()))?;
    let w = m.get(at..)?.split_whitespace().next()?;
    let w = w.trim_matches(['`', '\'', '"', '(', ')', ',', ';', '.']);
    (!w.is_empty()).then_some(w)
}

/// What the failure says the server wants, from its structure and the value's shape.
fn wants(f: &Failure, v: &str, default: Option<&str>, s: &Setting) -> Option<String> {
    let m = f.quoted.as_str();
    let low = m.to_ascii_lowercase();
    let its_default = default
        .map(|d| format!("; its default is `{d}`"))
        .unwrap_or_default();
    // A conversion to a number: Python's, Go's strconv, Rust's, a schema's.
    let whole = low.contains("invalid literal for int()")
        || low.contains("strconv.atoi")
        || low.contains("strconv.parseint")
        || low.contains("strconv.parseuint")
        || low.contains("invalid digit found in string")
        || low.contains("expected integer")
        || low.contains("must be an integer")
        || low.contains("not a valid integer");
    let number = whole
        || low.contains("could not convert string to float")
        || low.contains("strconv.parsefloat")
        || low.contains("invalid float literal")
        || low.contains("expected number")
        || low.contains("must be a number")
        || low.contains("is not a number")
        || low.contains("not a valid number");
    if number && !plain_number(v) {
        let kind = if whole { "a whole number" } else { "a number" };
        return Some(match (unit_of(v), default) {
            (Some(u), _) => format!(
                "{kind} without a unit (the number alone, in the unit the server counts in, not `{u}`{its_default})"
            ),
            (None, Some(d)) => format!("{kind} (its default is `{d}`)"),
            (None, None) => kind.to_string(),
        });
    }
    // An example the message gives (`e.g. 8080`, `for example 30`): a number where the value
    // is none.
    if let Some(ex) = example(m) {
        if plain_number(ex) && !plain_number(v) {
            return Some(match unit_of(v) {
                Some(u) => format!("a number without a unit, as its example `{ex}` (not `{u}`)"),
                None => format!("a number, as its example `{ex}`"),
            });
        }
    }
    // Go's durations want their unit.
    if (low.contains("missing unit in duration") || low.contains("time: invalid duration"))
        && plain_number(v)
    {
        let n = v.trim();
        return Some(format!(
            "a duration with its unit (`{n}s` for seconds, `{n}ms`, `{n}m`)"
        ));
    }
    if low.contains("invalid truth value")
        || low.contains("not a valid boolean")
        || low.contains("expected boolean")
    {
        return Some("`true` or `false`".to_string());
    }
    if low.contains("jsondecodeerror")
        || low.contains("is not valid json")
        || (low.contains("json") && low.contains("unexpected token"))
        || low.contains("expecting value: line 1 column 1")
        || low.contains("expecting property name enclosed in double quotes")
    {
        return Some("valid JSON (the value as written does not parse)".to_string());
    }
    // A URL: the value has no scheme, and the failure speaks of URLs or shows a scheme.
    let schemes = url_rows::schemes_named(&[m]);
    if url_rows::speaks_of_url(m) || !schemes.is_empty() {
        if let Some(host_name) = url_rows::schemeless_shape(v, true, s.cwd.as_deref()) {
            return Some(format!(
                "a URL with its scheme ({})",
                url_rows::with_scheme(v, host_name, &schemes)
            ));
        }
    }
    None
}

/// The diagnosis for a failure tied to `var`.
fn found(tie: Tie, var: &str, f: &Failure, s: &Setting) -> Found {
    let v = value_of(s, var);
    let env = terms("the entry's `env`", s);
    let default = f.at.as_deref().and_then(|l| default_of(l, var));
    let mut evidence = vec![(Source::Stderr, f.quoted.clone())];
    if let Some(at) = &f.at {
        if tie == Tie::Read || default.is_some() {
            evidence.push((Source::Stderr, cut(&format!("the failing line: {at}"))));
        }
    }
    let why = match tie {
        Tie::Named => "its error names it",
        Tie::Quoted => "its error quotes that value",
        Tie::Read => "the line it failed on reads it",
    };
    let (summary, next) = match wants(f, v, default.as_deref(), s) {
        Some(w) => (
            format!("`{var}={v}`: the server wants {w} ({why})"),
            format!(
                "set `{var}` in {env} to {w}, not `{v}` (the server says: \"{}\")",
                f.quoted
            ),
        ),
        None if tie == Tie::Named => (
            format!("the server rejects `{var}={v}`"),
            format!(
                "change `{var}` in {env} to a value the server accepts (it says: \"{}\")",
                f.quoted
            ),
        ),
        None => (
            format!("the server rejects `{var}={v}` ({why})"),
            format!(
                "change `{var}` in {env} to a value the server accepts (it says: \"{}\")",
                f.quoted
            ),
        ),
    };
    Found {
        id: Id::BadArgument,
        summary,
        next,
        evidence,
    }
}

#[cfg(test)]
#[path = "tied_rows_tests.rs"]
mod tests;
