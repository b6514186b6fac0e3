//! `check-config`'s text: compiler-style diagnostics and the summary line (a file that cannot
//! be read is said by the CLI's one error printer, `cli/error.rs`). (Its JSON is [`crate::render::json::check_config`],
//! its GitHub annotations and SARIF are in [`crate::render::ci`].) Everything a file controls is
//! sanitised before it reaches a terminal; values that are not numbers, tokens and env values
//! never reach here (the engine masks them).

use crate::engine::config::Totals;
use crate::engine::config::{Finding, Host, Report, Severity, Snippet};

use crate::render::sanitize::sanitize;
use crate::render::style;
use crate::render::terminal::terminal_width;

/// Messages are wrapped at this width in human output.
const WRAP: usize = 100;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `2 errors, 3 warnings in 1 file` (and what could not be read).
pub(crate) fn summary_line(t: &Totals) -> String {
    let mut s = format!(
        "{}, {} in {}",
        plural(t.errors, "error", "errors"),
        plural(t.warnings, "warning", "warnings"),
        plural(t.files, "file", "files"),
    );
    if t.unreadable > 0 {
        s.push_str(&format!(
            "; {} could not be read",
            plural(t.unreadable, "file", "files")
        ));
    }
    s
}

/// Paints when colour is on.
struct Pen {
    on: bool,
}

impl Pen {
    fn paint(&self, s: anstyle::Style, text: &str) -> String {
        style::paint(self.on, s, text)
    }
    fn severity(&self, s: Severity) -> anstyle::Style {
        match s {
            Severity::Error => style::BAD,
            Severity::Warning => style::WARN,
        }
    }
}

/// `text` wrapped at `width` by the one word-wrapper ([`super::layout::wrap_indented`]), each
/// line prefixed with `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    super::layout::wrap_indented(text, width, "")
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{indent}{}\n", l.trim_start()))
        .collect()
}

/// A snippet made safe for a terminal, with the caret's column and width in the shown text.
fn shown_snippet(s: &Snippet) -> (String, usize, usize) {
    let mut text = String::new();
    let mut col = 0usize;
    let (mut caret_at, mut caret_end) = (None, None);
    if s.cut_left {
        text.push('…');
        col += 1;
    }
    for (i, c) in s.text.chars().enumerate() {
        if i == s.caret_start {
            caret_at = Some(col);
        }
        if i == s.caret_start + s.caret_len {
            caret_end = Some(col);
        }
        let piece = if c == '\t' {
            "    ".to_string()
        } else {
            sanitize(&c.to_string())
        };
        col += piece.chars().count();
        text.push_str(&piece);
    }
    let start = caret_at.unwrap_or(col);
    let end = caret_end.unwrap_or(col).max(start + 1);
    if s.cut_right {
        text.push('…');
    }
    (text, start, end - start)
}

/// The width a headline line fits in, `severity[code]: ` included: 80 columns, whatever the
/// terminal (it stays one line, as rustc's, for grep).
const HEADLINE_LINE: usize = 80;

/// The fewest characters a headline is given however long its code.
const HEADLINE_MIN: usize = 40;

/// A message cut into its headline and the rest (the note lines): at the first `; `, `. ` or
/// `: ` outside parentheses and backticks; when that comes after `max` characters (or there is
/// none), at the last `, and `, `, so `, `, which ` or `, but ` before the limit, then at the
/// last plain `, ` before it, then (a message with no clause to cut at) at the last space
/// outside backticks before it, the sentence going on in the note lines.
fn headline(message: &str, max: usize) -> (&str, &str) {
    let mut depth = 0i32;
    let mut code = false;
    let mut strong = None;
    let mut clauses: Vec<(usize, usize)> = Vec::new();
    let mut commas: Vec<(usize, usize)> = Vec::new();
    let mut spaces: Vec<(usize, usize)> = Vec::new();
    for (i, c) in message.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth -= 1,
            ' ' if !code => spaces.push((i, message[..i].chars().count())),
            _ => {}
        }
        if depth != 0 || code {
            continue;
        }
        let rest = &message[i..];
        if [". ", "; ", ": "].iter().any(|p| rest.starts_with(p)) {
            strong = Some(i);
            break;
        }
        if [", and ", ", so ", ", which ", ", but "]
            .iter()
            .any(|p| rest.starts_with(p))
        {
            clauses.push((i, message[..i].chars().count()));
        } else if rest.starts_with(", ") {
            commas.push((i, message[..i].chars().count()));
        }
    }
    let width = |at: usize| message[..at].chars().count();
    let last_within = |cuts: &[(usize, usize)]| {
        cuts.iter()
            .rev()
            .find(|(_, w)| *w <= max)
            .map(|(at, _)| *at)
    };
    // Where to cut, and how many bytes of separator to drop there.
    let cut = match strong {
        Some(at) if width(at) <= max => Some((at, 2)),
        _ if message.chars().count() <= max => strong.map(|at| (at, 2)),
        _ => last_within(&clauses)
            .or_else(|| last_within(&commas))
            .map(|at| (at, 2))
            .or_else(|| last_within(&spaces).map(|at| (at, 1)))
            .or(clauses.first().map(|(at, _)| (*at, 2)))
            .or(strong.map(|at| (at, 2))),
    };
    match cut {
        Some((at, sep)) => (&message[..at], message[at + sep..].trim_start()),
        None => (message, ""),
    }
}

/// One diagnostic, as rustc and cargo draw them: `severity[code]: what`, then `--> where`.
fn diagnostic(f: &Finding, pen: &Pen) -> String {
    let sev = pen.severity(f.severity);
    let message = sanitize(&f.message);
    let prefix = format!("{}[{}]: ", f.severity.as_str(), f.code)
        .chars()
        .count();
    let (head, rest) = headline(
        &message,
        HEADLINE_LINE.saturating_sub(prefix).max(HEADLINE_MIN),
    );
    let mut out = format!(
        "{}{}: {}\n",
        pen.paint(sev, f.severity.as_str()),
        pen.paint(style::STRONG, &format!("[{}]", f.code)),
        pen.paint(style::STRONG, head)
    );
    let arrow = pen.paint(style::GUTTER, "-->");
    out.push_str(&format!(
        "  {arrow} {}:{}:{}\n",
        sanitize(&f.file),
        f.line,
        f.column
    ));
    let mut whereabouts = Vec::new();
    if let Some(server) = &f.server {
        whereabouts.push(format!("server `{}`", sanitize(server)));
    }
    if let Some(field) = &f.field {
        whereabouts.push(format!("field `{}`", sanitize(field)));
    }
    whereabouts.push(format!("at {}", sanitize(&f.path)));
    // Prose within the terminal (the headline stays one line, as rustc's, for grep).
    let width = WRAP.min(usize::from(terminal_width()).saturating_sub(2));
    out.push_str(&wrap(&whereabouts.join(", "), "  ", width));
    out.push_str(&wrap(rest, "  ", width));
    if let Some(s) = &f.snippet {
        let num = s.line.to_string();
        let pad = " ".repeat(num.len());
        let bar = pen.paint(style::GUTTER, "|");
        let (text, at, len) = shown_snippet(s);
        out.push_str(&format!(" {pad} {bar}\n"));
        out.push_str(&format!(
            " {} {bar} {}\n",
            pen.paint(style::GUTTER, &num),
            text
        ));
        out.push_str(&format!(
            " {pad} {bar} {}{}\n",
            " ".repeat(at),
            pen.paint(sev, &"^".repeat(len))
        ));
    }
    out
}

/// Compiler-style diagnostics for every finding, then the summary line.
pub(crate) fn human(reports: &[Report], totals: &Totals, color: bool, quiet: bool) -> String {
    let pen = Pen { on: color };
    let mut out = String::new();
    for f in reports.iter().flat_map(|r| &r.findings) {
        out.push_str(&diagnostic(f, &pen));
        out.push('\n');
    }
    if quiet {
        return out;
    }
    for r in reports.iter().filter(|r| r.host != Host::AgentFramework) {
        out.push_str(&format!(
            "note: {} is read as {} reads it (--host {})\n",
            sanitize(&r.file),
            r.host.title(),
            r.host.name()
        ));
    }
    let line = summary_line(totals);
    let painted = if totals.errors > 0 {
        pen.paint(style::BAD, &line)
    } else if totals.warnings > 0 {
        pen.paint(style::WARN, &line)
    } else {
        pen.paint(style::GOOD, &line)
    };
    out.push_str(&painted);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts() {
        let t = Totals {
            files: 1,
            unreadable: 0,
            servers: 3,
            errors: 2,
            warnings: 3,
        };
        assert_eq!(summary_line(&t), "2 errors, 3 warnings in 1 file");
        let t = Totals {
            files: 2,
            unreadable: 1,
            servers: 3,
            errors: 1,
            warnings: 0,
        };
        assert_eq!(
            summary_line(&t),
            "1 error, 0 warnings in 2 files; 1 file could not be read"
        );
    }

    #[test]
    fn snippet_caret_follows_sanitising() {
        let s = Snippet {
            line: 1,
            text: "\t\"k\u{1b}\": <a string>".to_string(),
            caret_start: 7,
            caret_len: 10,
            cut_left: true,
            cut_right: true,
        };
        let (text, at, len) = shown_snippet(&s);
        assert_eq!(text, "…    \"k\\u{1b}\": <a string>…");
        assert_eq!((at, len), (16, 10));
        assert_eq!(
            text.chars().skip(at).take(len).collect::<String>(),
            "<a string>"
        );
    }

    #[test]
    fn headlines_are_cut_at_a_sentence_then_at_a_clause() {
        assert_eq!(headline("short; the rest", 100), ("short", "the rest"));
        let long = format!(
            "`x` is 0 (see: here), and {}: the host refuses it",
            "y".repeat(90)
        );
        let (head, rest) = headline(&long, 100);
        assert_eq!(head, "`x` is 0 (see: here)");
        assert!(rest.starts_with("and yyy"), "{rest}");
        let colon = "`reconnectIntervalMs` is 0, and this server uses its timings (reconnect is on): hosts refuse it";
        assert_eq!(
            headline(colon, 100),
            (
                "`reconnectIntervalMs` is 0, and this server uses its timings (reconnect is on)",
                "hosts refuse it"
            )
        );
        assert_eq!(headline("no cut at all", 100), ("no cut at all", ""));
        // No clause within the limit: a plain comma, then a space outside backticks.
        assert_eq!(
            headline("`a` is one folder, the whole PATH under Claude Code", 30),
            ("`a` is one folder", "the whole PATH under Claude Code")
        );
        assert_eq!(
            headline(
                "`node` by bare name may not be found by `Claude Desktop`",
                30
            ),
            (
                "`node` by bare name may not be",
                "found by `Claude Desktop`"
            )
        );
        assert_eq!(
            headline("see `a b c d e f g h i j k l m n` there", 10),
            ("see", "`a b c d e f g h i j k l m n` there")
        );
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("aa bb cc", "  ", 5), "  aa bb\n  cc\n");
    }
}
