//! A `--call` result not marked `isError` that reports a failure by its structure: its text is
//! an error record (a JSON object with an `error`, a `status` of `error`, a `success` of
//! `false`; a first line `Error: ...`, `ValueError: ...`, a traceback), or the server logged at
//! ERROR/CRITICAL the very message it returned. That alone is no failure (a log-search tool
//! returns error lines as its data): something must tie it to the entry (one of the entry's
//! values, a whole token, in the record or the server's error log line), or the call must fail
//! the same way on every launch (two or more), or the server must have raised it: a stderr line
//! holding the answer's message that is an ERROR log line or an exception's head with its stack
//! (Node's `at` frames under it, a Python traceback's `File` lines above it: what a server
//! prints when its own code failed, not data it returns). The tie then names the value to change
//! (awslabs.aws-pricing-mcp-server with `AWS_PROFILE=prod`: `{"status": "error", "message":
//! "Failed to create AWS Pricing client: The config profile (prod) could not be found"}`).

use serde_json::Value;

use super::logline;
use super::model::Setting;
use super::structured::stderr_lines;
use super::words::{self, Named};
use crate::engine::probe::{Launch, ProbeRun};

/// Keys whose non-empty value makes an object an error record.
const ERROR_KEYS: &[&str] = &["error", "errors", "error_type", "errorType", "exception"];

/// Values of `status`/`state`/`result` that say it failed.
const FAILED_STATES: &[&str] = &["error", "failed", "failure", "fail", "exception"];

/// The message of an error record, when `text` is one.
pub(super) fn error_record(text: &str) -> Option<String> {
    let t = text.trim();
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(t) {
        let filled = |v: &Value| match v {
            Value::Null | Value::Bool(false) => false,
            Value::String(s) => !s.trim().is_empty(),
            Value::Array(a) => !a.is_empty(),
            Value::Object(m) => !m.is_empty(),
            _ => true,
        };
        let erred = ERROR_KEYS.iter().any(|k| o.get(*k).is_some_and(filled))
            || ["status", "state", "result"].iter().any(|k| {
                o.get(*k)
                    .and_then(Value::as_str)
                    .is_some_and(|s| FAILED_STATES.contains(&s.to_ascii_lowercase().as_str()))
            })
            || ["success", "ok"]
                .iter()
                .any(|k| o.get(*k) == Some(&Value::Bool(false)))
            || o.get("isError") == Some(&Value::Bool(true));
        if !erred {
            return None;
        }
        let said = ["message", "error", "detail", "details", "reason", "msg"]
            .iter()
            .find_map(|k| match o.get(*k)? {
                Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
                Value::Object(e) => e.get("message").and_then(Value::as_str).map(str::to_string),
                _ => None,
            });
        return Some(said.unwrap_or_else(|| super::model::cut(t)));
    }
    let first = t.lines().next()?.trim();
    if first.starts_with("Traceback (most recent call last)") {
        return t
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim().to_string());
    }
    let (head, rest) = first.split_once(':')?;
    let exception = !head.is_empty()
        && head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        && (head.ends_with("Error") || head.ends_with("Exception"));
    let word = matches!(
        head,
        "Error" | "ERROR" | "error" | "Exception" | "Fatal" | "FATAL"
    );
    (exception || word).then(|| format!("{head}:{rest}").trim().to_string())
}

/// The messages the server logged at ERROR or above (structured lines only).
pub(super) fn error_logs(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| logline::parse(l))
        .filter(logline::LogLine::is_error)
        .map(|l| match l.error {
            Some(e) if !l.message.contains(&e) => format!("{}: {e}", l.message),
            _ => l.message,
        })
        .filter(|m| !m.trim().is_empty())
        .collect()
}

/// What a result's text says went wrong, when its structure says so: the record's message (or
/// the server's error log line the text repeats), how it was read, and the server's error log
/// lines.
fn failure(text: &str, lines: &[&str]) -> Option<(String, &'static str, Vec<String>)> {
    let logs = error_logs(lines);
    if let Some(m) = error_record(text) {
        return Some((m, "an error record", logs));
    }
    let repeated = logs
        .iter()
        .find(|m| m.trim().chars().count() >= 16 && text.contains(m.trim()))?
        .clone();
    Some((repeated, "the message the server logged at ERROR", logs))
}

/// The clauses of a message worth finding in a log line: its `: `-separated parts of 16
/// characters or more (`Error details: Authentication credentials are missing` gives the
/// second), a leading `Error`/exception word left out.
fn clauses(message: &str) -> Vec<&str> {
    message
        .lines()
        .next()
        .unwrap_or_default()
        .split(": ")
        .map(str::trim)
        .filter(|c| c.chars().count() >= 16)
        .collect()
}

/// Whether the line at `i` heads an exception the runtime printed with its stack: an
/// exception type or `Error` before its message, and a Node stack frame (`    at f (file:1:2)`)
/// under it, or a Python traceback's `File "..."` line in the lines above it.
fn heads_a_stack(lines: &[&str], i: usize) -> bool {
    let Some(line) = lines.get(i) else {
        return false;
    };
    let t = line.trim();
    // The type is the word before the first `: ` (after a log's prefix, if any).
    let head = t.split(": ").next().unwrap_or_default();
    let kind = head.rsplit([' ', ']']).next().unwrap_or_default();
    let last = kind.rsplit('.').next().unwrap_or(kind);
    let typed = last.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && kind
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        && (kind.ends_with("Error") || kind.ends_with("Exception"));
    if !typed {
        return false;
    }
    let node_frame = |l: &&str| {
        let f = l.trim();
        f.starts_with("at ") && (f.ends_with(')') || f.contains(".js:") || f.contains("node:"))
    };
    let below = lines.get(i + 1).is_some_and(node_frame);
    let above = lines[i.saturating_sub(8)..i]
        .iter()
        .any(|l| l.trim_start().starts_with("File \"") || l.starts_with("Traceback "));
    below || above
}

/// The stderr line where the server raised the failure it answered: a line holding one of the
/// message's clauses ([`clauses`]) that is an ERROR (or FATAL) log line, or an exception's head
/// with its stack ([`heads_a_stack`]). A tool returning log lines as its data does not print
/// its answer as its own exception.
pub(super) fn raised(message: &str, lines: &[&str]) -> Option<String> {
    let said = clauses(message);
    if said.is_empty() {
        return None;
    }
    lines.iter().enumerate().find_map(|(i, l)| {
        if !said.iter().any(|c| l.contains(c)) {
            return None;
        }
        let logged = logline::parse(l).is_some_and(|x| x.is_error());
        (logged || heads_a_stack(lines, i)).then(|| l.trim().to_string())
    })
}

/// The entry's value a failure names (in its message, else in the server's error log lines),
/// with the line that names it.
pub(super) fn tie(message: &str, logs: &[String], s: &Setting) -> Option<(Named, String)> {
    std::iter::once(message)
        .chain(logs.iter().map(String::as_str))
        .find_map(|line| words::named_value(line, s).map(|n| (n, line.to_string())))
}

/// The failure a `--call` result not marked `isError` reports by its structure, with the
/// server's error log lines (for the row that names the value).
pub(super) fn failure_of(l: &Launch) -> Option<(String, Vec<String>)> {
    let a = l.report.opening.as_ref()?.call.as_ref()?;
    failure(&a.text, &stderr_lines(l)).map(|(m, _, logs)| (m, logs))
}

/// Each launch whose `--call` result, not marked `isError` and not proven failed yet, is a
/// failure by its structure and tied to the entry or the same on every launch: what to record
/// as its `failed` (the variable's name, never its value).
pub(crate) fn prove(run: &ProbeRun, s: &Setting) -> Vec<(usize, String)> {
    let seen: Vec<(usize, String, &'static str, Vec<String>)> = run
        .launches
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let a = l.report.opening.as_ref()?.call.as_ref()?;
            if a.is_error || a.failed.is_some() {
                return None;
            }
            let (m, how, logs) = failure(&a.text, &stderr_lines(l))?;
            Some((i, m, how, logs))
        })
        .collect();
    let answered = run
        .launches
        .iter()
        .filter(|l| l.report.opening.as_ref().is_some_and(|o| o.call.is_some()))
        .count();
    let same = answered >= 2 && seen.len() == answered && seen.windows(2).all(|w| w[0].1 == w[1].1);
    seen.into_iter()
        .filter_map(|(i, m, how, logs)| match tie(&m, &logs, s) {
            Some((n, _)) => Some((
                i,
                format!("its text is {how}, naming the value of {}", n.shown),
            )),
            None if same => Some((i, format!("its text is {how}, the same on every launch"))),
            None => {
                let l = run.launches.get(i)?;
                raised(&m, &stderr_lines(l))?;
                Some((
                    i,
                    format!("its text is {how}, which the server raised as an error on stderr"),
                ))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{error_logs, error_record, raised};

    #[test]
    fn what_the_server_raised_is_an_error_line_or_an_exception_with_its_stack() {
        // Node (@aashari/mcp-server-atlassian-jira): the McpError printed with its frames.
        let node = [
            "McpError: An unexpected error occurred while GET request api. Error details: Authentication credentials are missing",
            "    at createApiError (/srv/dist/utils/error.util.js:61:12)",
        ];
        let answer = "Error: An unexpected error occurred while GET request api. Error details: Authentication credentials are missing";
        assert!(raised(answer, &node).is_some());
        // Python (a FastMCP tool's `logger.exception`): the traceback's last line.
        let python = [
            "Traceback (most recent call last):",
            "  File \"/srv/server.py\", line 40, in search",
            "httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'https://api.example.com/v1/search'",
        ];
        let answer =
            "Error: Client error '401 Unauthorized' for url 'https://api.example.com/v1/search'";
        assert!(raised(answer, &python).is_some());
        // A structured ERROR line (Go's slog).
        let slog = ["time=2026-12-03T10:00:00Z level=ERROR msg=\"search failed\" error=\"401 Unauthorized: invalid API key given\""];
        assert!(raised("Error: 401 Unauthorized: invalid API key given", &slog).is_some());
        // The same words at INFO, or an exception line with no stack: not raised.
        let info = [
            "2026-12-03 10:00:00,000 - srv - INFO - returned: invalid API key given to the tool",
        ];
        assert!(raised("Error: invalid API key given to the tool", &info).is_none());
        let bare = ["ValueError: invalid API key given to the tool"];
        assert!(raised("Error: invalid API key given to the tool", &bare).is_none());
    }

    #[test]
    fn an_error_record_is_read_by_its_structure_not_its_words() {
        for (text, said) in [
            (
                r#"{"status": "error", "error_type": "client_creation_failed", "message": "Failed: profile (prod) not found"}"#,
                "Failed: profile (prod) not found",
            ),
            (r#"{"success": false, "error": "bad token"}"#, "bad token"),
            (
                r#"{"error": {"code": 403, "message": "Forbidden"}}"#,
                "Forbidden",
            ),
            (
                "Error: connect to db.local failed",
                "Error: connect to db.local failed",
            ),
            (
                "botocore.exceptions.ProfileNotFound: The config profile (prod) could not be found",
                "",
            ),
            (
                "ValueError: invalid region 'mars'",
                "ValueError: invalid region 'mars'",
            ),
        ] {
            let got = error_record(text);
            if said.is_empty() {
                // A dotted type that ends neither in Error nor Exception: not read as one.
                assert_eq!(got, None, "{text}");
            } else {
                assert_eq!(got.as_deref(), Some(said), "{text}");
            }
        }
        for data in [
            r#"{"error": null, "items": [1, 2]}"#,
            r#"{"errors": [], "status": "ok"}"#,
            r#"{"success": true, "message": "Error count: 0"}"#,
            "2026-12-03T12:00:01Z ERROR [prod-api] Error: upstream timed out",
            "Errors: 0, warnings: 2",
            "Found 3 errors in the logs:\nError: a\nError: b",
            "[]",
        ] {
            assert_eq!(error_record(data), None, "{data}");
        }
    }

    #[test]
    fn only_error_level_log_lines_are_the_servers_errors() {
        let lines = [
            "2026-12-03 12:53:19.153 | ERROR    | awslabs.server:create_error_response:70 - Failed to create client: profile (prod) not found",
            "2026-12-03 12:53:19.153 | INFO     | awslabs.server:main:9 - Error budget: 3",
            "plain text Error: not a log line's level",
        ];
        assert_eq!(
            error_logs(&lines),
            ["Failed to create client: profile (prod) not found"]
        );
    }
}
