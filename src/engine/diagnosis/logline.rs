//! Structured log lines read as evidence: a line a logger wrote (slog/logfmt `level=ERROR
//! msg=...`, a JSON logger's object — pino, bunyan, winston, zap, zerolog, structlog —, Python
//! logging's formats, loguru, Rust tracing and env_logger) turned into its level and its message
//! text: the message plus the error it carries (`error=`/`err`, an error object's type, message
//! and code, a traceback or stack). The diagnosis's rows read that text as a line, never the
//! log's timestamp and keys; a launch that logged at error level is read from those lines, not
//! from the INFO/WARN/DEBUG lines around them.

use serde_json::{Map, Value};

use crate::engine::probe::Launch;

/// A log record's level, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) enum Level {
    Trace,
    Debug,
    #[default]
    Info,
    Warn,
    Error,
    Fatal,
}

impl Level {
    /// A level as loggers write it (any case): `ERROR`, `err`, `eror` (log15), `CRITICAL`,
    /// `warning`, `dbug`, `panic` (zap, zerolog), `emerg` (syslog's).
    fn of_word(w: &str) -> Option<Level> {
        Some(match w.to_ascii_lowercase().as_str() {
            "trace" | "trce" | "verbose" => Level::Trace,
            "debug" | "dbug" => Level::Debug,
            "info" | "information" | "notice" => Level::Info,
            "warn" | "warning" => Level::Warn,
            "error" | "err" | "eror" => Level::Error,
            "fatal" | "crit" | "critical" | "panic" | "dpanic" | "alert" | "emerg"
            | "emergency" => Level::Fatal,
            _ => return None,
        })
    }

    /// pino's and bunyan's numbers: 10 trace ... 50 error, 60 fatal.
    fn of_number(n: f64) -> Level {
        match n {
            n if n >= 60.0 => Level::Fatal,
            n if n >= 50.0 => Level::Error,
            n if n >= 40.0 => Level::Warn,
            n if n >= 30.0 => Level::Info,
            n if n >= 20.0 => Level::Debug,
            _ => Level::Trace,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Level::Trace => "TRACE",
            Level::Debug => "DEBUG",
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
            Level::Fatal => "FATAL",
        }
    }
}

/// One structured log line, read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct LogLine {
    pub level: Level,
    /// Its message (`msg`, `message`, structlog's `event`).
    pub message: String,
    /// The error it carries: a string field (`error=`, `err=`), or an error object's message.
    pub error: Option<String>,
    /// The error object's type (`TypeError`: pino's `type`, bunyan's `name`).
    pub kind: Option<String>,
    /// The error object's `code` (`ECONNREFUSED`, `ERR_INVALID_URL`).
    pub code: Option<String>,
    /// A traceback or a stack the record carries (structlog's `exception`, an error's
    /// `stack`), line by line.
    pub trace: Vec<String>,
}

/// The most lines of a record's traceback or stack read.
const MAX_TRACE: usize = 60;

impl LogLine {
    /// Error or fatal.
    pub(crate) fn is_error(&self) -> bool {
        self.level >= Level::Error
    }

    /// The lines the rows read for it: `LEVEL: message: error` (the error alone when the
    /// message is empty or already holds it); an error object with a code in Node's own form
    /// (`TypeError [ERR_INVALID_URL]: Invalid URL`) on a line of its own, as Node prints it; a
    /// traceback or stack after it, as its runtime printed it.
    pub(crate) fn lines(&self) -> Vec<String> {
        let label = self.level.label();
        let message = self.message.trim();
        let mut out = Vec::new();
        let node_form = self.code.as_ref().map(|code| {
            let kind = self
                .kind
                .clone()
                .filter(|k| is_error_kind(k))
                .unwrap_or_else(|| "Error".to_string());
            format!(
                "{kind} [{code}]: {}",
                self.error.as_deref().unwrap_or(message)
            )
        });
        let error = self
            .error
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty() && !message.contains(e));
        match (node_form.is_some(), error) {
            (false, Some(e)) if message.is_empty() => out.push(format!("{label}: {e}")),
            (false, Some(e)) => out.push(format!("{label}: {message}: {e}")),
            (true, Some(_)) if message.is_empty() => {}
            _ => out.push(format!("{label}: {message}")),
        }
        out.extend(node_form);
        out.extend(self.trace.iter().take(MAX_TRACE).cloned());
        out
    }
}

/// `TypeError`, `Error`, `SystemError`: a type Node prints in an error's head.
fn is_error_kind(k: &str) -> bool {
    k.ends_with("Error")
        && k.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && k.chars().all(|c| c.is_ascii_alphanumeric())
}

/// `line` read as a structured log line, if it is one.
pub(crate) fn parse(line: &str) -> Option<LogLine> {
    // An indented line belongs to a block (a traceback's source line, a help text).
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let t = line.trim();
    if t.starts_with('{') {
        return json(t);
    }
    // Read on every line of a flood (`table::is_notable`): the formats that start with a
    // timestamp, a bracket or an upper-case level are tried only on such a line.
    let levelled =
        t.starts_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase() || c == '[');
    logfmt(t)
        .or_else(|| levelled.then(|| python_default(t)).flatten())
        .or_else(|| separated(t))
        .or_else(|| levelled.then(|| prefixed(t)).flatten())
}

/// The first of `keys` that `o` has.
fn field<'a>(o: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| o.get(*k)).filter(|v| !v.is_null())
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A traceback or stack, as lines (`\n` in the record).
fn trace_lines(s: &str) -> Vec<String> {
    s.lines().map(str::to_string).take(MAX_TRACE).collect()
}

/// A JSON logger's record: its level (a word, or pino's number) under `level`, `lvl`,
/// `severity`, `levelname` or `log.level`; its message under `msg`, `message`, `event` or
/// `@m`; its error under `err`, `error`, `exception`, `exc_info` or `@x`, a string or an
/// object (`type`/`name`, `message`, `code`, `stack`); a `stack` of its own (winston's).
fn json(t: &str) -> Option<LogLine> {
    let v: Value = serde_json::from_str(t).ok()?;
    let o = v.as_object()?;
    let level = match field(
        o,
        &["level", "lvl", "severity", "levelname", "log.level", "@l"],
    )? {
        Value::Number(n) => Level::of_number(n.as_f64()?),
        Value::String(s) => Level::of_word(s)?,
        _ => return None,
    };
    let mut l = LogLine {
        level,
        message: field(o, &["msg", "message", "event", "@m"])
            .and_then(text_of)
            .unwrap_or_default(),
        ..LogLine::default()
    };
    match field(o, &["err", "error", "exception", "exc_info", "@x"]) {
        // structlog's `exception`: the traceback as Python printed it, its exception last.
        Some(Value::String(s)) if s.trim_start().starts_with("Traceback") => {
            l.trace = trace_lines(s);
        }
        Some(Value::String(s)) => {
            let mut lines = s.lines();
            l.error = lines.next().map(str::to_string);
            l.trace = lines.take(MAX_TRACE).map(str::to_string).collect();
        }
        Some(Value::Object(e)) => {
            l.error = field(e, &["message", "msg"]).and_then(text_of);
            l.kind = field(e, &["type", "name"]).and_then(text_of);
            l.code = field(e, &["code"])
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some(stack) = field(e, &["stack"]).and_then(Value::as_str) {
                l.trace = stack_frames(stack);
            }
        }
        _ => {
            // winston's `stack` beside its message: Node's head, then its frames.
            if let Some(stack) = field(o, &["stack"]).and_then(Value::as_str) {
                let mut lines = stack.lines();
                l.error = lines.next().map(str::to_string);
                l.trace = lines.take(MAX_TRACE).map(str::to_string).collect();
            }
        }
    }
    Some(l)
}

/// The frames of a Node stack (`    at f (file:1:2)`), without its head.
fn stack_frames(stack: &str) -> Vec<String> {
    stack
        .lines()
        .filter(|x| x.trim_start().starts_with("at "))
        .take(MAX_TRACE)
        .map(str::to_string)
        .collect()
}

/// logfmt's `key=value` pairs (a value quoted with `"` may hold spaces and `\"`).
fn pairs(t: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = t.trim_start();
    while !rest.is_empty() {
        let eq = rest.find('=')?;
        let key = &rest[..eq];
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '@'))
        {
            return None;
        }
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            let mut v = String::new();
            let mut end = None;
            let mut chars = q.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some((_, 'n')) => v.push('\n'),
                        Some((_, e)) => v.push(e),
                        None => {}
                    },
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => v.push(c),
                }
            }
            (v, &q[end?..])
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key.to_string(), value));
        rest = next.trim_start();
    }
    Some(out)
}

/// slog/logfmt: `time=... level=ERROR msg="Fatal error" error="..."` (`lvl=`, `message=`,
/// `err=`).
fn logfmt(t: &str) -> Option<LogLine> {
    if !(t.contains("level=") || t.contains("lvl=")) {
        return None;
    }
    let p = pairs(t)?;
    let get = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| p.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    };
    let level = Level::of_word(&get(&["level", "lvl"])?)?;
    let message = get(&["msg", "message"])?;
    let error = get(&["error", "err"]);
    let (error, trace) = match error {
        Some(e) if e.contains('\n') => {
            let lines = trace_lines(&e);
            (lines.first().cloned(), lines.into_iter().skip(1).collect())
        }
        e => (e, Vec::new()),
    };
    Some(LogLine {
        level,
        message,
        error,
        trace,
        ..LogLine::default()
    })
}

/// A level word as a text format writes it: upper case (`ERROR`, `WARNING`), or any case in
/// brackets (`[error]`).
fn text_level(w: &str) -> Option<Level> {
    if let Some(inner) = w.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        return Level::of_word(inner);
    }
    w.chars()
        .all(|c| c.is_ascii_uppercase())
        .then(|| Level::of_word(w))
        .flatten()
}

/// Python logging's `basicConfig` default, `ERROR:name:message`, and uvicorn's `ERROR:
/// message` (the level, a colon, spaces).
fn python_default(t: &str) -> Option<LogLine> {
    let (head, rest) = t.split_once(':')?;
    if !matches!(head, "CRITICAL" | "ERROR" | "WARNING" | "INFO" | "DEBUG") {
        return None;
    }
    let level = Level::of_word(head)?;
    let message = if rest.starts_with(char::is_whitespace) {
        rest.trim()
    } else {
        let (name, message) = rest.split_once(':')?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return None;
        }
        message
    };
    Some(LogLine {
        level,
        message: message.trim().to_string(),
        ..LogLine::default()
    })
}

/// A timestamp's token: digits with `-:.,/TZ+`, at least one digit (`2026-12-03`,
/// `10:07:32,054`, `2026-12-03T10:07:32.054Z`), in brackets or not.
fn timestamp_shaped(w: &str) -> bool {
    let w = w.trim_start_matches('[').trim_end_matches(']');
    !w.is_empty()
        && w.chars().any(|c| c.is_ascii_digit())
        && w.chars().all(|c| {
            c.is_ascii_digit() || matches!(c, '-' | ':' | '.' | ',' | '/' | 'T' | 'Z' | '+')
        })
}

/// `%(asctime)s - %(name)s - %(levelname)s - %(message)s` and loguru's `time | LEVEL    |
/// module:function:line - message`: fields split by ` - ` or ` | `, the level one of the
/// first four after a timestamp or names.
fn separated(t: &str) -> Option<LogLine> {
    let mut rest = t;
    for _ in 0..4 {
        let (at, sep) = [" - ", " | "]
            .iter()
            .filter_map(|s| rest.find(s).map(|i| (i, s.len())))
            .min()?;
        let f = rest[..at].trim();
        rest = &rest[at + sep..];
        if let Some(level) = text_level(f) {
            // loguru's place (`mod:fn:12 - `) before the message.
            let message = match rest.split_once(" - ") {
                Some((place, m))
                    if place.matches(':').count() == 2
                        && !place.contains(' ')
                        && place.rsplit(':').next().is_some_and(|n| {
                            !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
                        }) =>
                {
                    m
                }
                _ => rest,
            };
            return Some(LogLine {
                level,
                message: message.trim().to_string(),
                ..LogLine::default()
            });
        }
        let prefix_like = f.split(' ').all(timestamp_shaped) || !f.contains(char::is_whitespace);
        if !prefix_like || f.is_empty() {
            return None;
        }
    }
    None
}

/// A timestamp (or none), then the level: Rust tracing's `2026-..Z ERROR target: message
/// err=...`, env_logger's `[2026-..Z ERROR target] message`, `2026/12/03 10:07:32 [ERROR]
/// message`, `[ERROR] message`, `ERROR message`.
fn prefixed(t: &str) -> Option<LogLine> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() && i < 3 && timestamp_shaped(words[i]) {
        i += 1;
    }
    let w = words.get(i)?;
    let level = if w.starts_with('[') && !w.ends_with(']') {
        text_level(&format!("{w}]"))
    } else {
        text_level(w.trim_end_matches(':'))
    }?;
    // A bare upper-case word with nothing before it is a log's level only when a message
    // follows it (`ERROR something`), not a word alone.
    if words.len() < 2 {
        return None;
    }
    i += 1;
    // env_logger's bracket (opened before the level, `[ts ERROR target]`) closes after its
    // target; tracing's spans (`span{a=1}:`) and target (`crate::module:`) end with a colon.
    let opened = words[..i].iter().filter(|w| w.starts_with('[')).count();
    let closed = words[..i].iter().filter(|w| w.ends_with(']')).count();
    if opened > closed {
        while i < words.len() && !words[i - 1].ends_with(']') {
            i += 1;
        }
    } else {
        while i < words.len() && is_target(words[i]) {
            i += 1;
        }
    }
    let rest = words.get(i..).unwrap_or_default().join(" ");
    let (message, error) = split_fields(&rest);
    Some(LogLine {
        level,
        message,
        error,
        ..LogLine::default()
    })
}

/// A tracing target or span before the message: `crate::module:`, `serve{port=80}:`.
fn is_target(w: &str) -> bool {
    let Some(name) = w.strip_suffix(':') else {
        return false;
    };
    (name.contains("::") || name.contains('{')) && !name.is_empty()
}

/// A tracing message and its error field: `failed to connect err=Connection refused
/// attempt=3` -> (`failed to connect attempt=3`, `Connection refused`); other fields stay in
/// the message (an address a row may read).
fn split_fields(rest: &str) -> (String, Option<String>) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(rest.match_indices(' ').map(|(i, _)| i + 1))
        .filter(|&s| {
            rest[s..].split_once('=').is_some_and(|(k, _)| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'))
            })
        })
        .collect();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(rest.len(), |e| e - 1);
        let Some((k, v)) = rest[s..end].split_once('=') else {
            continue;
        };
        if k == "error" || k == "err" {
            let message = format!("{} {}", rest[..s].trim(), rest[end..].trim());
            return (
                message.trim().to_string(),
                Some(v.trim().trim_matches('"').to_string()),
            );
        }
    }
    (rest.trim().to_string(), None)
}

/// The stderr lines the rows read, for `lines` (oldest first): each structured log line as
/// the lines of [`LogLine::lines`]; when the launch logged at error level or above
/// (`any_error`), the log lines below that level are left out (they are not what went
/// wrong).
pub(crate) fn read_lines(lines: &[String], any_error: bool) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        match parse(line) {
            None => out.push(line.clone()),
            Some(l) if any_error && !l.is_error() => {}
            Some(l) => out.extend(l.lines()),
        }
    }
    out
}

/// The launch as the rows read it: its stderr (the tail and the notable lines) with each
/// exception group's box opened ([`super::boxes`]), each boxed traceback read as a plain one
/// ([`super::rich_boxes`]) and each structured log line read
/// ([`read_lines`]). `None` when it printed neither.
pub(crate) fn read_launch(l: &Launch) -> Option<Launch> {
    let tail = &l.report.stderr;
    let boxed = super::boxes::any(&tail.lines)
        || super::boxes::any(&tail.notable)
        || super::rich_boxes::any(&tail.lines)
        || super::rich_boxes::any(&tail.notable);
    let (lines, notable) = (
        super::rich_boxes::unbox(&super::boxes::unbox(&tail.lines)),
        super::rich_boxes::unbox(&super::boxes::unbox(&tail.notable)),
    );
    let parsed: Vec<LogLine> = lines
        .iter()
        .chain(&notable)
        .filter_map(|x| parse(x))
        .collect();
    if parsed.is_empty() && !boxed {
        return None;
    }
    let any_error = parsed.iter().any(LogLine::is_error);
    let mut read = l.clone();
    read.report.stderr.lines = read_lines(&lines, any_error);
    read.report.stderr.notable = read_lines(&notable, any_error);
    Some(read)
}

/// [`read_launch`] of each launch.
pub(crate) fn read_launches(launches: &[&Launch]) -> Vec<Option<Launch>> {
    launches.iter().map(|l| read_launch(l)).collect()
}

/// Each launch as read (`read`, from [`read_launches`]), or itself when it logged no record.
pub(crate) fn as_read<'a>(launches: &[&'a Launch], read: &'a [Option<Launch>]) -> Vec<&'a Launch> {
    launches
        .iter()
        .zip(read)
        .map(|(l, r)| r.as_ref().unwrap_or(l))
        .collect()
}

#[cfg(test)]
#[path = "logline_tests.rs"]
mod tests;
