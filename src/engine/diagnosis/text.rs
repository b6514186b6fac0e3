//! Reading what a server wrote: naming the thing a line is about (a module, a variable, a port,
//! a command) and finding a crash's error line and first frame in a stderr tail.

use super::table::Name;

/// The longest quoted line, in characters.
pub(crate) const QUOTE_CHARS: usize = 240;

/// Whether `word` stands in `text` as a word of its own: no letter, digit, `_` or `-` (nor any
/// of `more`) touches it on either side.
pub(crate) fn has_word(text: &str, word: &str, more: &[char]) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || more.contains(&c);
    text.match_indices(word).any(|(at, _)| {
        text[..at].chars().next_back().is_none_or(|c| !ident(c))
            && text[at + word.len()..]
                .chars()
                .next()
                .is_none_or(|c| !ident(c))
    })
}

/// `line`, cut to [`QUOTE_CHARS`] characters (with `...`) and trimmed.
pub(crate) fn quote(line: &str) -> String {
    let line = line.trim_end();
    if line.chars().count() <= QUOTE_CHARS {
        return line.to_string();
    }
    let mut s: String = line.chars().take(QUOTE_CHARS).collect();
    s.push_str("...");
    s
}

/// The thing `line` names, read the way `name` says, starting after `needle`.
pub(crate) fn name_in(line: &str, needle: &str, name: Name) -> Option<String> {
    let at = line.find(needle)?;
    let after = &line[at + needle.len()..];
    let found = match name {
        Name::Nothing => return None,
        Name::Quoted => quoted(after),
        Name::WordAfter => word(after),
        Name::QuotedOrWord => quoted(after).or_else(|| word(after)),
        Name::EnvVar => env_var(line),
        Name::Port => port(line),
        Name::CommandBefore => command_before(&line[..at]),
        Name::Line => Some(line.trim().to_string()),
    }?;
    let found = found.trim().to_string();
    (!found.is_empty()).then(|| quote(&found))
}

/// The first `'...'`, `"..."`, `‘...’` or `` `...` `` in `text`.
fn quoted(text: &str) -> Option<String> {
    let (start, open) = text
        .char_indices()
        .find(|(_, c)| matches!(c, '\'' | '"' | '‘' | '`' | '“'))?;
    let close = match open {
        '‘' => '’',
        '“' => '”',
        c => c,
    };
    let rest = &text[start + open.len_utf8()..];
    let end = rest.find(close)?;
    Some(rest[..end].to_string())
}

/// The first word of `text` (punctuation around it dropped).
fn word(text: &str) -> Option<String> {
    let w = text.split_whitespace().next()?;
    let w =
        w.trim_matches(|c: char| matches!(c, ':' | ',' | ';' | '.' | '\'' | '"' | '`' | '(' | ')'));
    (!w.is_empty()).then(|| w.to_string())
}

/// Whether `w` looks like an environment variable's name: `API_KEY`, `GITHUB_TOKEN`, `PORT`.
pub(crate) fn is_env_name(w: &str) -> bool {
    w.len() >= 2
        && w.starts_with(|c: char| c.is_ascii_uppercase())
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Upper-case words that are not variables: log levels and acronyms.
const NOT_NAMES: &[&str] = &[
    "ERROR", "FATAL", "WARN", "WARNING", "INFO", "DEBUG", "ERR", "ENV", "PATH_", "NOTE", "KEY",
    "TOKEN", "API", "MCP", "MCPL", "JSON", "HTTP", "URL",
];

/// Every environment variable `line` names, in order, once each: `Please set A and B
/// environment variables` names `A` and `B`. A word without an underscore (`PORT`, `AWS`) is
/// one only where the line marks it as a variable ([`marked`]): `AWS region` is prose.
pub(crate) fn env_vars(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (at, w) in words_at(line) {
        if is_env_name(w)
            && !NOT_NAMES.contains(&w)
            && (w.contains('_') || marked(line, at, w.len()))
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_string());
        }
    }
    out
}

/// The words of `line` (letters, digits, `_`) with where each starts.
fn words_at(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
}

/// Whether the upper-case word at `at` (`len` bytes) is written as a variable: quoted (`` `PORT`
/// ``, `'PORT'`), `$PORT`, `PORT=`, or beside the words that say so (`environment variable
/// PORT`, `PORT env var`, `PORT is not set`). An acronym in a sentence (`AWS region`, `HTTP
/// server`) is not.
fn marked(line: &str, at: usize, len: usize) -> bool {
    let before = &line[..at];
    let after = &line[at + len..];
    let prev = before.chars().next_back();
    let next = after.chars().next();
    let quote = |c: Option<char>| matches!(c, Some('`' | '\'' | '"' | '‘' | '’' | '“' | '”'));
    if prev == Some('$') || next == Some('=') || (quote(prev) && quote(next)) {
        return true;
    }
    let b = before.trim_end().to_ascii_lowercase();
    let a = after.trim_start().to_ascii_lowercase();
    const BEFORE: &[&str] = &[
        "environment variable",
        "env var",
        "env variable",
        "variable",
    ];
    const AFTER: &[&str] = &[
        "environment variable",
        "env var",
        "env variable",
        "variable",
        "is not set",
        "not set",
        "must be set",
        "is unset",
    ];
    BEFORE.iter().any(|w| b.ends_with(w)) || AFTER.iter().any(|w| a.starts_with(w))
}

/// The environment variable `line` is about: a quoted upper-case name first, else the first
/// bare one (`ERROR`, `FATAL` and the like excluded; a word without an underscore only where
/// the line marks it as a variable).
fn env_var(line: &str) -> Option<String> {
    let mut rest = line;
    while let Some(q) = quoted(rest) {
        if is_env_name(&q) {
            return Some(q);
        }
        let Some(i) = rest.find(q.as_str()) else {
            break;
        };
        rest = &rest[(i + q.len() + 1).min(rest.len())..];
    }
    env_vars(line).into_iter().next()
}

/// The port of `address already in use :::3000`, `127.0.0.1:8080`, `port 3000`.
fn port(line: &str) -> Option<String> {
    let digits_after = |s: &str| -> Option<String> {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        (!d.is_empty() && d.len() <= 5).then_some(d)
    };
    if let Some(i) = line.to_ascii_lowercase().find("port ") {
        if let Some(d) = digits_after(&line[i + 5..]) {
            return Some(d);
        }
    }
    // Python's address tuple (uvicorn's `error while attempting to bind on address
    // ('127.0.0.1', 8000): address already in use`).
    let tuple = line.match_indices("', ").find_map(|(i, m)| {
        let d = digits_after(&line[i + m.len()..])?;
        line[i + m.len() + d.len()..].starts_with(')').then_some(d)
    });
    tuple.or_else(|| {
        line.rmatch_indices(':')
            .find_map(|(i, _)| digits_after(&line[i + 1..]))
    })
}

/// The command a shell could not find: `sh: 1: nodee: not found`, `bash: nodee: command not
/// found`, `env: 'nodee': No such file or directory` (the text before the needle).
fn command_before(before: &str) -> Option<String> {
    let before = before.trim_end().trim_end_matches(':').trim_end();
    let last = before.rsplit(": ").next()?;
    let last = last.trim_matches(|c: char| matches!(c, '\'' | '"' | '‘' | '’' | '`'));
    (!last.is_empty() && !last.contains(' ')).then(|| last.to_string())
}

/// A crash found in a stderr tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Crash {
    /// Node, Python, Rust, Go.
    pub runtime: &'static str,
    /// The error line (Rust: with its message).
    pub error: String,
    /// The frame it was raised in (Node: the first `at`; Python: the innermost `File`; Go: the
    /// first function and its file), when shown.
    pub frame: Option<String>,
}

/// The crash in `lines` (a stderr tail, oldest first), if any: the last one when there are
/// several.
pub(crate) fn crash(lines: &[String]) -> Option<Crash> {
    rust_panic(lines)
        .or_else(|| go_panic(lines))
        .or_else(|| python_traceback(lines))
        .or_else(|| node_error(lines))
}

fn rust_panic(lines: &[String]) -> Option<Crash> {
    let i = lines.iter().rposition(|l| l.contains("panicked at"))?;
    let mut error = lines[i].trim().to_string();
    // Since Rust 1.73 the message follows on its own line.
    if error.ends_with(':') {
        if let Some(msg) = lines.get(i + 1).filter(|l| !l.starts_with("note:")) {
            error.push(' ');
            error.push_str(msg.trim());
        }
    }
    // `panicked at src/main.rs:5:5:` (1.73 and later) or `panicked at 'boom', src/main.rs:5:5`.
    let after = error.split("panicked at ").nth(1).unwrap_or_default();
    let loc = if after.starts_with('\'') {
        after.rsplit(", ").next().unwrap_or_default()
    } else {
        after.split(' ').next().unwrap_or_default()
    };
    let loc = loc.trim_end_matches(':');
    let frame = (!loc.is_empty() && loc.contains(':')).then(|| quote(loc));
    Some(Crash {
        runtime: "Rust",
        error: quote(&error),
        frame,
    })
}

fn go_panic(lines: &[String]) -> Option<Crash> {
    let i = lines
        .iter()
        .rposition(|l| l.starts_with("panic: ") || l.starts_with("fatal error: "))?;
    let mut frame = None;
    if let Some(g) = lines[i..]
        .iter()
        .position(|l| l.starts_with("goroutine ") && l.trim_end().ends_with(':'))
    {
        let g = i + g;
        if let (Some(func), Some(file)) = (lines.get(g + 1), lines.get(g + 2)) {
            frame = Some(quote(&format!("{} at {}", func.trim(), file.trim())));
        }
    }
    Some(Crash {
        runtime: "Go",
        error: quote(lines[i].trim()),
        frame,
    })
}

/// `ValueError: boom`, `KeyError: 'X'`, `json.decoder.JSONDecodeError: ...`, `KeyboardInterrupt`.
fn is_python_error_line(l: &str) -> bool {
    let head = l.split(':').next().unwrap_or_default();
    !l.starts_with(' ')
        && !head.is_empty()
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && ["Error", "Exception", "Interrupt", "Exit", "Warning"]
            .iter()
            .any(|s| head.ends_with(s))
}

fn python_traceback(lines: &[String]) -> Option<Crash> {
    // The innermost frame is the last `  File "...", line N, in f` line.
    let f = lines.iter().rposition(|l| l.starts_with("  File \""))?;
    let e = lines[f..].iter().position(|l| is_python_error_line(l))? + f;
    Some(Crash {
        runtime: "Python",
        error: quote(lines[e].trim()),
        frame: Some(quote(lines[f].trim())),
    })
}

fn node_error(lines: &[String]) -> Option<Crash> {
    let is_frame = |l: &String| l.starts_with("    at ");
    if let Some(first_frame) = lines.iter().position(is_frame) {
        // The error line: the last non-frame line before the frames that reads `Name: ...`.
        let error = lines[..first_frame].iter().rev().find(|l| {
            let t = l.trim();
            t.starts_with("Uncaught") || t.starts_with('[') || {
                let head = t.split(':').next().unwrap_or_default();
                let name = head.split(' ').next().unwrap_or_default();
                name.ends_with("Error") || name.ends_with("Exception") || name == "Error"
            }
        })?;
        return Some(Crash {
            runtime: "Node",
            error: quote(error.trim()),
            frame: Some(quote(lines[first_frame].trim())),
        });
    }
    // A rejection with a non-Error reason has no stack.
    let i = lines.iter().rposition(|l| {
        l.contains("[UnhandledPromiseRejection") || l.contains("ERR_UNHANDLED_REJECTION")
    })?;
    Some(Crash {
        runtime: "Node",
        error: quote(lines[i].trim()),
        frame: None,
    })
}
