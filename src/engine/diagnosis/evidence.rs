//! Typed evidence: what each ecosystem prints when it fails, read by its structure (a Python
//! traceback, a pydantic validation block, a Node error with its `code:`, an npm error block, a
//! usage text with its error line) rather than by one server's words. One parser per
//! ecosystem; the rules in `structured.rs` are keyed on what these return.

/// One fact read from a launch's stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fact {
    /// A Python exception: its type (last dotted part), message, and the innermost frames in
    /// the user's code and in a library (`site-packages`), if the traceback showed them.
    Python {
        kind: String,
        message: String,
        user_frame: Option<String>,
        library_frame: Option<String>,
    },
    /// A pydantic validation error: the model and each field's complaint.
    Pydantic {
        model: String,
        fields: Vec<FieldError>,
    },
    /// A Node error: its head (`TypeError`, `Error`), message (with the leaf messages of its
    /// property block, `util.inspect`'s: `inspect.rs`) and the properties Node prints under the
    /// stack (`code`, `syscall`, `address`, `port`, `input`).
    Node {
        kind: String,
        message: String,
        code: Option<String>,
        syscall: Option<String>,
        address: Option<String>,
        port: Option<String>,
        input: Option<String>,
    },
    /// An npm/npx error block: its `code` and the line that says what went wrong (never the
    /// log pointer).
    Npm { code: Option<String>, what: String },
    /// A usage text, and the error line printed under or above it.
    Usage {
        usage: String,
        error: Option<String>,
    },
    /// A choice structure: the argument, the value given and the choices (argparse's `invalid
    /// choice: 'x' (choose from ...)`, yargs' `Argument: x, Given: "y", Choices: ...`, a
    /// message's `x. Must be 'a', 'b' or 'c'`: `listed.rs`).
    Choice {
        argument: Option<String>,
        given: String,
        line: String,
    },
    /// Another `Error:` / `error:` / `FATAL` line.
    ErrorLine { text: String },
}

/// One field of a pydantic validation error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldError {
    /// The field's path (`database_url`, `servers.0.url`).
    pub field: String,
    pub message: String,
    /// pydantic's error type (`missing`, `url_parsing`, `int_parsing`).
    pub kind: Option<String>,
    /// The value it was given (`input_value=`), when shown and not a dict.
    pub input: Option<String>,
    /// The keys of the dict it was given, when it was one (a model's own validator is given
    /// the whole settings: `{'QDRANT_URL': ..., 'QDRANT_LOCAL_PATH': ...}`; keys cut short by
    /// pydantic's `...` are left out). Names only, never a value.
    pub keys: Vec<String>,
}

impl Fact {
    /// The message a person reads: the exception's or error's text.
    pub(crate) fn message(&self) -> Option<&str> {
        match self {
            Fact::Python { message, .. } | Fact::Node { message, .. } => Some(message),
            Fact::Npm { what, .. } => Some(what),
            Fact::Usage { error, .. } => error.as_deref(),
            Fact::Choice { line, .. } => Some(line),
            Fact::ErrorLine { text } => Some(text),
            Fact::Pydantic { .. } => None,
        }
    }

    /// An error a row may read (not a `KeyError`: a missing variable, the table's row).
    pub(crate) fn is_error(&self) -> bool {
        matches!(
            self,
            Fact::Python { .. }
                | Fact::Node { .. }
                | Fact::ErrorLine { .. }
                | Fact::Usage { error: Some(_), .. }
        ) && !matches!(self, Fact::Python { kind, .. } if kind == "KeyError")
    }

    /// The line to quote for it.
    pub(crate) fn quoted(&self) -> String {
        match self {
            Fact::Python { kind, message, .. } => format!("{kind}: {message}"),
            Fact::Node {
                kind,
                message,
                code,
                ..
            } => match code {
                Some(c) if !message.contains(c.as_str()) => format!("{kind}: {message} ({c})"),
                _ => format!("{kind}: {message}"),
            },
            Fact::Pydantic { model, fields } => {
                let f: Vec<String> = fields
                    .iter()
                    .map(|f| match f.field.as_str() {
                        "" => f.message.clone(),
                        field => format!("{field}: {}", f.message),
                    })
                    .collect();
                format!("validation error for {model}: {}", f.join("; "))
            }
            Fact::Npm { what, .. } => format!("npm error {what}"),
            Fact::Usage { usage, error } => error.clone().unwrap_or_else(|| usage.clone()),
            Fact::Choice { line, .. } | Fact::ErrorLine { text: line } => line.clone(),
        }
    }
}

/// Every fact in `lines` (a launch's stderr, oldest first), each parser in turn.
pub(crate) fn parse(lines: &[&str]) -> Vec<Fact> {
    let mut out = Vec::new();
    out.extend(python(lines));
    out.extend(pydantic(lines));
    out.extend(super::schema_issues::parse(lines).map(|(model, issues)| {
        Fact::Pydantic {
            model: model.to_string(),
            fields: issues
                .into_iter()
                .map(|i| FieldError {
                    field: i.field,
                    message: i.message,
                    kind: i.kind,
                    input: None,
                    keys: Vec::new(),
                })
                .collect(),
        }
    }));
    out.extend(node(lines));
    out.extend(npm(lines));
    out.extend(usage(lines));
    out.extend(choices(lines));
    out.extend(error_lines(lines));
    out
}

/// A Python exception type: `ValueError`, `pydantic_core._pydantic_core.ValidationError`,
/// `httpx.ConnectError`, `KeyboardInterrupt`, `SystemExit`. Under a traceback's frames the
/// line there is the exception whatever its class is called: a dotted path to a class
/// (`httpx.UnsupportedProtocol`, `requests.exceptions.InvalidSchema`,
/// `kafka.errors.NoBrokersAvailable`, `neo4j.exceptions.ServiceUnavailable`).
fn python_kind(head: &str, in_trace: bool) -> Option<&str> {
    if let Some(kind) = python_kind_named(head) {
        return Some(kind);
    }
    let last = head.rsplit('.').next()?;
    let class = last.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && last.chars().any(|c| c.is_ascii_lowercase())
        && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let dotted = head
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    (in_trace && head.contains('.') && class && dotted).then_some(last)
}

fn python_kind_named(head: &str) -> Option<&str> {
    if head.is_empty() || head.contains(' ') {
        return None;
    }
    let last = head.rsplit('.').next()?;
    // A private class (`grpc._channel._InactiveRpcError`) is named so too.
    let first = last.trim_start_matches('_').chars().next()?;
    let ok = first.is_ascii_uppercase()
        && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && (last.ends_with("Error")
            || last.ends_with("Exception")
            || last.ends_with("Exit")
            || last.ends_with("Interrupt")
            || last == "Exception");
    ok.then_some(last)
}

/// Whether the exception line `quoted` (`Kind: message`) is followed by a traceback it is no
/// cause of (no `The above exception was the direct cause ...` or `During handling of the
/// above exception ...` line before that traceback): the process ended on that one, and
/// `quoted` was a line it logged as it went on (a retried request's `ConnectionError`).
pub(crate) fn superseded(quoted: &str, lines: &[&str]) -> bool {
    let Some(at) = lines.iter().position(|l| l.trim_end().ends_with(quoted)) else {
        return false;
    };
    let chained = |i: usize| {
        lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| {
                l.starts_with("The above exception was the direct cause")
                    || l.starts_with("During handling of the above exception")
            })
    };
    lines
        .iter()
        .enumerate()
        .skip(at + 1)
        .any(|(i, l)| l.starts_with("Traceback (most recent call last)") && !chained(i))
}

fn is_library(path: &str) -> bool {
    path.contains("-packages/") || path.contains("/lib/python") || path.starts_with("<frozen")
}

/// Python: the last exception of each traceback (`Traceback (most recent call last):`, its
/// `File "...", line N, in f` frames, then `Type: message`), and exception lines printed on
/// their own (`ValueError: ...` at the start of a line).
pub(crate) fn python(lines: &[&str]) -> Vec<Fact> {
    let mut out = Vec::new();
    let mut user: Option<String> = None;
    let mut library: Option<String> = None;
    let mut in_trace = false;
    for (i, line) in lines.iter().enumerate() {
        // The line under a frame's source (indented) ends a traceback whose head may have
        // scrolled out of the tail kept.
        let under_frame = i
            .checked_sub(1)
            .and_then(|p| lines.get(p))
            .is_some_and(|p| p.starts_with("    ") && !p.trim().is_empty());
        if line.starts_with("Traceback (most recent call last)") {
            in_trace = true;
            user = None;
            library = None;
            continue;
        }
        let t = line.trim_start();
        if in_trace {
            if let Some(rest) = t.strip_prefix("File \"") {
                let path = rest.split('"').next().unwrap_or_default();
                let frame = t.to_string();
                if is_library(path) {
                    library = Some(frame);
                } else {
                    user = Some(frame);
                }
                continue;
            }
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            continue;
        }
        let (head, message) = match line.split_once(": ") {
            Some((h, m)) => (h, m),
            None => (line.trim_end(), ""),
        };
        let Some(kind) = python_kind(head, in_trace || under_frame) else {
            continue;
        };
        if !in_trace && message.is_empty() {
            continue;
        }
        out.push(Fact::Python {
            kind: kind.to_string(),
            message: message.trim().to_string(),
            user_frame: user.take(),
            library_frame: library.take(),
        });
        in_trace = false;
    }
    out
}

/// pydantic: `N validation error(s) for Model`, then per field its path on a line of its own
/// and its message indented under it (`  Field required [type=missing, input_value={}, ...]`).
pub(crate) fn pydantic(lines: &[&str]) -> Vec<Fact> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(at) = line
            .find(" validation error for ")
            .or_else(|| line.find(" validation errors for "))
        else {
            i += 1;
            continue;
        };
        let count_ok = line[..at]
            .rsplit(|c: char| !c.is_ascii_digit())
            .next()
            .is_some_and(|n| !n.is_empty());
        let model = line[at..]
            .split(" for ")
            .nth(1)
            .unwrap_or_default()
            .trim()
            .to_string();
        i += 1;
        if !count_ok || model.is_empty() {
            continue;
        }
        let mut fields = Vec::new();
        while i < lines.len() {
            let f = lines[i];
            // A model's own validator has no field line: its message comes at once, indented
            // (`  Value error, If 'local_path' is set, 'location' ... must be None. [type=...`).
            let model_level = fields.is_empty() && f.starts_with("  ") && f.contains(" [type=");
            if !model_level
                && (f.is_empty() || f.starts_with(' ') || f.contains(": ") || f.contains(' '))
            {
                break;
            }
            let msg = if model_level {
                Some(f)
            } else {
                lines.get(i + 1).copied().filter(|m| m.starts_with("  "))
            };
            let Some(msg) = msg else {
                break;
            };
            let msg = msg.trim();
            let (message, meta) = match msg.rfind(" [type=") {
                Some(b) => (&msg[..b], Some(&msg[b + 2..msg.len().saturating_sub(1)])),
                None => (msg, None),
            };
            let key = |k: &str| {
                meta.and_then(|m| {
                    let rest = &m[m.find(k)? + k.len()..];
                    let end = if rest.starts_with('\'') || rest.starts_with('"') {
                        let q = &rest[..1];
                        rest[1..].find(q).map(|e| e + 2)
                    } else {
                        rest.find(", ")
                    }
                    .unwrap_or(rest.len());
                    Some(rest[..end].trim_matches(['\'', '"']).to_string())
                })
            };
            let input = key("input_value=").filter(|v| !v.starts_with('{'));
            fields.push(FieldError {
                field: if model_level {
                    String::new()
                } else {
                    f.trim().to_string()
                },
                message: message.to_string(),
                kind: key("type="),
                input,
                keys: meta.map(dict_keys).unwrap_or_default(),
            });
            i += if model_level { 1 } else { 2 };
            while lines
                .get(i)
                .is_some_and(|x| x.starts_with("    ") && x.contains("errors.pydantic.dev"))
            {
                i += 1;
            }
        }
        if !fields.is_empty() {
            out.push(Fact::Pydantic { model, fields });
        }
    }
    out
}

/// The keys of the dict in a pydantic error's `input_value={'A': ..., 'B': ...}` (each a quoted
/// word followed by `:`; one cut by `...` is left out).
fn dict_keys(meta: &str) -> Vec<String> {
    let Some(at) = meta.find("input_value={") else {
        return Vec::new();
    };
    let dict = &meta[at + "input_value={".len()..];
    let mut out = Vec::new();
    for q in ['\'', '"'] {
        let parts: Vec<&str> = dict.split(q).collect();
        // Inside the quotes: every other part; a key is followed by `:` and opened after `{`
        // or `, `.
        let mut k = 1;
        while k + 1 < parts.len() {
            let inner = parts[k];
            let after = parts[k + 1];
            let opened = k == 1 || parts[k - 1].ends_with(['{', ' ']);
            if opened
                && after.starts_with(':')
                && !inner.is_empty()
                && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                out.push(inner.to_string());
            }
            k += 2;
        }
    }
    out
}

/// A Node error head: `TypeError: Invalid URL`, `Error [ERR_MODULE_NOT_FOUND]: Cannot find
/// ...`, `Error: connect ECONNREFUSED 127.0.0.1:5432` (optionally after `Uncaught `).
fn node_head(line: &str) -> Option<(String, Option<String>, String)> {
    let line = line.strip_prefix("Uncaught ").unwrap_or(line);
    let (head, message) = line.split_once(": ")?;
    let (kind, code) = match head.split_once(" [") {
        Some((k, c)) => (k, c.strip_suffix(']').map(str::to_string)),
        None => (head, None),
    };
    let ok = kind.ends_with("Error")
        && kind.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && kind.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| (kind.to_string(), code, message.trim().to_string()))
}

/// A Node system error printed after a label on the same line (ioredis' `[ioredis] Unhandled
/// error event: Error: connect ECONNREFUSED 127.0.0.1:6379`, a logger's `redis error: Error:
/// connect ...`): the head from its error class on, kept only when its message carries a
/// system error code (`connect ECONNREFUSED`, `getaddrinfo ENOTFOUND`), never a label's words.
fn embedded_system_error(line: &str) -> Option<(String, Option<String>, String)> {
    line.match_indices("Error: ").find_map(|(at, _)| {
        let start = line[..at].rfind(' ').map(|i| i + 1)?;
        let (kind, code, message) = node_head(&line[start..])?;
        let syscall = message.split(' ').next().unwrap_or_default();
        let system = code_in(&message).is_some_and(|c| !c.starts_with("ERR_"));
        (system && ["connect", "getaddrinfo", "read", "write"].contains(&syscall))
            .then_some((kind, code, message))
    })
}

/// An error code in a message: `ECONNREFUSED`, `ENOTFOUND`, `ERR_INVALID_URL`.
pub(crate) fn code_in(message: &str) -> Option<String> {
    message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| {
            w.len() >= 5
                && w.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                && (w.starts_with("ERR_") || (w.starts_with('E') && !w.contains('_')))
                && *w != "ERROR"
        })
        .map(str::to_string)
}

/// Node: an error head followed by its stack (`    at ...`) and, in braces, its properties
/// (`  code: 'ECONNREFUSED',`); the head alone counts only with a stack or a code.
pub(crate) fn node(lines: &[&str]) -> Vec<Fact> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((kind, head_code, message)) =
            node_head(lines[i]).or_else(|| embedded_system_error(lines[i]))
        else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        let mut stacked = false;
        let mut props: Vec<(String, String)> = Vec::new();
        while j < lines.len() {
            let t = lines[j].trim();
            if t.starts_with("at ") {
                stacked = true;
            } else if let Some((k, v)) = t.split_once(": ") {
                let k = k.trim_start_matches('[').trim_end_matches(']');
                if lines[j].starts_with("  ")
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    let v = v.trim_end_matches(',').trim_matches(['\'', '"', '`']);
                    props.push((k.to_string(), v.to_string()));
                } else {
                    break;
                }
            } else if !(t == "}" || t.ends_with('{') || t.is_empty()) {
                break;
            }
            j += 1;
        }
        let prop = |k: &str| props.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let code = prop("code").or(head_code).or_else(|| code_in(&message));
        if stacked || code.is_some() {
            // The leaf messages of its property block say what its own message heads.
            let leaves = super::inspect::leaves(&lines[i + 1..]);
            let message = if leaves.is_empty() {
                message
            } else {
                let said: Vec<String> = leaves
                    .iter()
                    .map(|(k, m)| match k.as_str() {
                        "" => m.clone(),
                        k => format!("{k}: {m}"),
                    })
                    .collect();
                format!("{message} ({})", said.join("; "))
            };
            out.push(Fact::Node {
                kind,
                message,
                code,
                syscall: prop("syscall"),
                address: prop("address"),
                port: prop("port"),
                input: prop("input"),
            });
        }
        i = j.max(i + 1);
    }
    out
}

/// npm/npx: the lines of an `npm error` (`npm ERR!`) block: its `code`, and the first line
/// that says what (not `code`, `errno`, `path`, nor the log pointer).
pub(crate) fn npm(lines: &[&str]) -> Vec<Fact> {
    let block: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("npm error ")
                .or_else(|| l.strip_prefix("npm ERR! "))
        })
        .collect();
    if block.is_empty() {
        return Vec::new();
    }
    let code = block
        .iter()
        .find_map(|l| l.strip_prefix("code "))
        .map(|c| c.trim().to_string());
    let what = block.iter().find(|l| {
        let t = l.trim();
        !t.is_empty()
            && ![
                "code ",
                "errno ",
                "path ",
                "syscall ",
                "A complete log",
                "Log files",
            ]
            .iter()
            .any(|p| t.starts_with(p))
            && !t.contains("/_logs/")
    });
    match what {
        Some(w) => vec![Fact::Npm {
            code,
            what: w.trim().to_string(),
        }],
        None => Vec::new(),
    }
}

/// The text of `line` after a program's own prefix (`[supergateway] `, `prog: `).
fn after_prefix(line: &str) -> &str {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix('[') {
        if let Some((_, after)) = rest.split_once("] ") {
            return after.trim();
        }
    }
    t
}

/// An error line: `Error: ...`, `error: ...`, `prog: error: ...`, `FATAL ...`, `[x] Error: ...`.
fn is_error_line(line: &str) -> bool {
    let t = after_prefix(line);
    let low = t.to_ascii_lowercase();
    low.starts_with("error:")
        || low.starts_with("error ")
        || low.starts_with("fatal")
        || t.split_once(": ").is_some_and(|(p, rest)| {
            !p.contains(' ') && rest.to_ascii_lowercase().starts_with("error:")
        })
}

/// A usage text (`Usage: prog ...`, `usage: prog ...`) and the error line nearest it (within
/// the next 30 lines or the 5 before).
pub(crate) fn usage(lines: &[&str]) -> Vec<Fact> {
    // urfave/cli's `USAGE:`, stricli's `USAGE`, Go flag's `Usage of srv:` too.
    let Some(at) = lines
        .iter()
        .position(|l| crate::engine::probe::read::help::starts_usage(l))
    else {
        return Vec::new();
    };
    let after = lines.iter().skip(at + 1).take(30);
    let before = lines[at.saturating_sub(5)..at].iter().rev();
    let error = after
        .chain(before)
        .find(|l| is_error_line(l) || is_choice(l).is_some())
        .map(|l| l.trim().to_string());
    vec![Fact::Usage {
        usage: lines[at].trim().to_string(),
        error,
    }]
}

/// The program a usage text names (`mcp` of `Usage: mcp <command>`, of stricli's `USAGE` then
/// `  mcp start ...`, of yargs' `mcp <command>`).
fn usage_program(lines: &[&str]) -> Option<String> {
    let Some(at) = lines.iter().position(|l| {
        let t = after_prefix(l);
        t.starts_with("Usage:") || t.starts_with("usage:") || t == "USAGE" || t == "USAGE:"
    }) else {
        // yargs writes its usage without a heading: `srv <command>`.
        return lines.iter().find_map(|l| {
            let mut w = l.split_whitespace();
            let (name, what) = (w.next()?, w.next()?);
            (!l.starts_with(' ')
                && w.next().is_none()
                && ["<command>", "[command]"].contains(&what))
            .then(|| name.to_string())
        });
    };
    let t = after_prefix(lines[at]);
    let rest = t.split_once(':').map(|(_, r)| r.trim()).unwrap_or_default();
    let rest = if rest.is_empty() {
        after_prefix(lines.get(at + 1)?)
    } else {
        rest
    };
    rest.split_whitespace().next().map(str::to_string)
}

/// The commands a help text lists under its commands heading (`Commands:`, stricli's
/// `COMMANDS`, cobra's `Available Commands:`, `Subcommands:`): each entry's first word before
/// its description that is no placeholder (`start` of `  start  Run it`, of commander's `
/// start [options]  Run it`), after the program's name where yargs writes it (`  mcp start
/// Run it` under `Usage: mcp <command>`) or a script's (`  cli.js start`). A line indented
/// deeper than the section's first entry continues a description.
pub(crate) fn commands(lines: &[&str]) -> Vec<String> {
    let program = usage_program(lines);
    let mut out: Vec<String> = Vec::new();
    let mut in_section = false;
    let mut indent: Option<usize> = None;
    for l in lines {
        let t = after_prefix(l);
        let depth = l.len() - l.trim_start().len();
        if depth == 0 || t.is_empty() {
            let head = t.trim_end_matches(':').to_ascii_lowercase();
            let heading = matches!(
                head.as_str(),
                "commands" | "subcommands" | "sub-commands" | "available commands"
            );
            // A blank line before the first entry is part of the heading's block.
            if heading || (t.is_empty() && in_section && indent.is_none()) {
                in_section = heading || in_section;
                indent = if heading { None } else { indent };
                continue;
            }
            in_section = false;
            continue;
        }
        if !in_section || indent.is_some_and(|d| depth > d) {
            continue;
        }
        indent = Some(depth);
        let left = t.split("  ").next().unwrap_or(t);
        let mut words = left
            .split_whitespace()
            .filter(|w| !w.starts_with(['[', '<', '-', '{', '(']))
            .peekable();
        let first = words.next();
        let name = match (first, words.peek()) {
            (Some(p), Some(n))
                if p.contains(['.', '/']) || program.as_deref().is_some_and(|x| x == p) =>
            {
                Some(*n)
            }
            (f, _) => f,
        };
        let valid = |n: &str| {
            n.len() <= 40
                && n.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
        };
        if let Some(n) = name.filter(|n| valid(n)) {
            if !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        }
    }
    out
}

/// `argument --transport: invalid choice: 'htp' (choose from ...)` (argparse) or `Argument:
/// channel, Given: "nightly", Choices: ...` (yargs), or the forms of click, commander and a
/// `must be 'a' or 'b'` message ([`super::cli_parsers::choice`]): the argument and the value
/// given.
fn is_choice(line: &str) -> Option<(Option<String>, String)> {
    let t = after_prefix(line);
    if let Some(g) = t.find("Given: ") {
        if t.contains("Choices: ") {
            let given = t[g + 7..]
                .split(", Choices")
                .next()?
                .trim_matches(['"', '\'', ' ']);
            let argument = t
                .find("Argument: ")
                .map(|a| t[a + 10..g].trim_end_matches([',', ' ']).to_string());
            return Some((argument, given.to_string()));
        }
    }
    if let Some(c) = t.find("choice: ") {
        if t.contains("(choose from") {
            let given = t[c + 8..]
                .split(" (choose")
                .next()?
                .trim_matches(['\'', '"']);
            let argument = t.find("argument ").map(|a| {
                t[a + 9..]
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .split('/')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            });
            return Some((argument, given.to_string()));
        }
    }
    // The parsers' own forms, then a choice in words in any program's message (`one of a, b,
    // c (got x)`, `expected one of a|b|c`: `listed.rs`).
    super::cli_parsers::choice(t)
        .or_else(|| super::listed::choice_in(t).map(|(argument, given, _)| (argument, given)))
}

pub(crate) fn choices(lines: &[&str]) -> Vec<Fact> {
    lines
        .iter()
        .filter_map(|l| {
            let (argument, given) = is_choice(l)?;
            Some(Fact::Choice {
                argument,
                given,
                line: l.trim().to_string(),
            })
        })
        .take(1)
        .collect()
}

/// `Error:` / `error:` / `FATAL` lines that no other parser reads (not a Node error with a
/// stack, not in an npm block).
pub(crate) fn error_lines(lines: &[&str]) -> Vec<Fact> {
    lines
        .iter()
        .filter(|l| !l.starts_with("npm ") && !l.starts_with(' ') && is_error_line(l))
        .map(|l| Fact::ErrorLine {
            text: l.trim().to_string(),
        })
        .take(4)
        .collect()
}

/// Every `host:port` in `text` (`127.0.0.1:5432`, `localhost:6379`, `[::1]:80`, the tail of a
/// URL), with the port as a number; also the pair a Python library writes as keywords or a
/// tuple (urllib3's and requests' `HTTPConnectionPool(host='127.0.0.1', port=15671)`,
/// asyncio's `Connect call failed ('127.0.0.1', 5432)`).
pub(crate) fn host_ports(text: &str) -> Vec<(String, u16)> {
    let mut out: Vec<(String, u16)> = Vec::new();
    for (host, port) in super::host_pairs::python_pairs(text) {
        if !out.iter().any(|(h, p)| *h == host && *p == port) {
            out.push((host, port));
        }
    }
    for word in
        text.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ',' | '(' | ')'))
    {
        let w = match word.find("://") {
            Some(s) => &word[s + 3..],
            None => word,
        };
        let w = w.rsplit('@').next().unwrap_or(w);
        let w = w.split('/').next().unwrap_or(w);
        let Some((host, port)) = w.rsplit_once(':') else {
            continue;
        };
        let bracketed = host.starts_with('[') && host.ends_with(']');
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let Ok(port) = port.trim_end_matches(['.', ';']).parse::<u16>() else {
            continue;
        };
        let named = host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            && (host.chars().any(|c| c.is_ascii_alphabetic()) || host.split('.').count() == 4);
        let hostish = !host.is_empty() && (bracketed || named);
        if hostish && port > 0 && !out.iter().any(|(h, p)| h == host && *p == port) {
            out.push((host.to_string(), port));
        }
    }
    out
}

#[cfg(test)]
#[path = "evidence_tests.rs"]
mod tests;
