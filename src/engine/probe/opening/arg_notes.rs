//! Notes about a server that stayed up, tied to the arguments it was given: a line it logged
//! at start at an error level (or an exception's line) that quotes a flag's value whole
//! (serena's `ERROR ... Error activating project '/x/proj' at startup: Project '/x/proj' not
//! found` under `--project /x/proj`), and a server that advertises tools and listed none while
//! a flag whose name is about tools (`--tools`, `--enabled-tools`) selects them
//! (code-review-graph's `--tools query_graph_tol`). Notes, never failures: the server stayed
//! up (issue 27's "warnings are notes"); `--strict` counts them.

use crate::engine::policy::Outcome;
use crate::engine::probe::Launch;

/// Whether the launch was still up when observation ended: a server that died is the Why's.
fn stayed_up(l: &Launch) -> bool {
    matches!(l.report.outcome, Some(Outcome::StillUp { .. }))
}

/// The flags of `args` with their values (`--project /x`, `--project=/x`), values that are no
/// flag (a masked secret left out).
fn flag_values(args: &[String]) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Some((f, v)) = a.split_once('=').filter(|(f, _)| f.starts_with("--")) {
            out.push((f, v));
            continue;
        }
        let Some(flag) = i.checked_sub(1).and_then(|p| args.get(p)) else {
            continue;
        };
        if flag.starts_with("--") && !flag.contains('=') && !a.starts_with('-') {
            out.push((flag.as_str(), a.as_str()));
        }
    }
    out.retain(|(_, v)| !v.is_empty() && !v.contains('\u{2022}'));
    out
}

/// A value worth looking for in a line: a path or a name of 4 characters or more (`/w/proj`,
/// `query_graph_tol`, `db.local:5432`), not a plain word a line may hold by chance (`false`,
/// `debug`, `stdio`).
fn shaped(v: &str) -> bool {
    v.chars().count() >= 4 && v.contains(['/', '.', '_', ':', '@', '-'])
}

/// Whether a line is at an error level (`ERROR`, `CRITICAL`, `FATAL` among its first 6 words)
/// or an exception's line (`pkg.ProjectNotFoundError: ...`).
fn error_levelled(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(6)
        .collect();
    let levelled = words.iter().any(|w| {
        matches!(
            *w,
            "ERROR" | "CRITICAL" | "FATAL" | "error" | "critical" | "fatal"
        )
    });
    let exception = line.split_once(": ").is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
            && (name.ends_with("Error") || name.ends_with("Exception"))
    });
    levelled || exception
}

/// Whether `value` stands whole in `line` (not inside a longer path or name).
fn whole(line: &str, value: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | '.');
    line.match_indices(value).any(|(at, _)| {
        line[..at].chars().next_back().is_none_or(|c| !part(c))
            && line[at + value.len()..]
                .chars()
                .next()
                .is_none_or(|c| !part(c) || c == '.')
    })
}

/// What a note is about: the summary gives it its finding's id (`warning-at-start`,
/// `no-tools-listed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum About {
    /// A start line quoting a flag's value.
    StartLine,
    /// No tools listed under a flag that selects them.
    NoTools,
}

/// The notes of a run's launches that stayed up, given its arguments (redacted): what each is
/// about and its sentence.
pub(crate) fn notes(launches: &[Launch], args: &[String]) -> Vec<(About, String)> {
    let flags = flag_values(args);
    let mut out = Vec::new();
    if flags.is_empty() {
        return out;
    }
    // A launch that made a `--call` is judged by its call: an error logged then is the call's.
    let uncalled = |l: &&Launch| l.report.opening.as_ref().is_none_or(|o| o.call.is_none());
    let quoted = launches
        .iter()
        .filter(|l| stayed_up(l))
        .filter(uncalled)
        .find_map(|l| {
            l.report.connected_at_ms?;
            let tail = &l.report.stderr;
            tail.notable.iter().chain(tail.lines.iter()).find_map(|x| {
                if x.len() > 1024 || !error_levelled(x) {
                    return None;
                }
                let (flag, _) = flags.iter().find(|(_, v)| shaped(v) && whole(x, v))?;
                Some((l.number, *flag, x))
            })
        });
    if let Some((n, flag, line)) = quoted {
        let shown: String = line.trim().chars().take(200).collect();
        out.push((
            About::StartLine,
            format!(
                "launch {n} answered the host but logged an error at start that quotes the value of `{flag}`: \"{shown}\": a note, not a failure (the server stayed up without it); check `{flag}` in the entry's args (`--strict` fails the run on it)"
            ),
        ));
    }
    let none_listed = launches.iter().filter(|l| stayed_up(l)).find(|l| {
        l.report
            .opening
            .as_ref()
            .is_some_and(|o| o.tools_advertised && o.tool_count == Some(0))
    });
    let tools_flag = flags.iter().find(|(f, _)| {
        f.trim_start_matches('-')
            .split(['-', '_'])
            .any(|w| matches!(w, "tool" | "tools" | "toolset" | "toolsets"))
    });
    if let (Some(l), Some((flag, _))) = (none_listed, tools_flag) {
        out.push((
            About::NoTools,
            format!(
                "launch {} advertises tools but listed none, and the entry's args select tools with `{flag}`: a name there that is no tool of the server's selects none; check `{flag}` against its tool names (a note: the server stayed up; `--strict` fails the run on it)",
                l.number
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{error_levelled, flag_values, shaped, whole};

    #[test]
    fn a_flags_value_quoted_whole_in_an_error_line_is_read() {
        let args: Vec<String> = ["start-mcp-server", "--project", "/w/proj", "--context=ide"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            flag_values(&args),
            [("--project", "/w/proj"), ("--context", "ide")]
        );
        // A plain word is no value to look for (`--enable-web-dashboard false`).
        assert!(shaped("/w/proj") && shaped("query_graph_tol"));
        assert!(!shaped("false") && !shaped("ide"));
        let line = "ERROR 2026-12-07 17:20:38,232 [MainThread] serena.agent:__init__:695 - Error activating project '/w/proj' at startup";
        assert!(error_levelled(line) && whole(line, "/w/proj"));
        assert!(error_levelled(
            "serena.agent.ProjectNotFoundError: Project '/w/proj' not found"
        ));
        // An INFO line, or the value inside a longer path, is no such line.
        assert!(!error_levelled(
            "INFO  2026 [MainThread] Loaded project /w/proj"
        ));
        assert!(!whole("Error reading /w/proj2/x", "/w/proj"));
    }
}
