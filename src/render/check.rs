//! `check-config` output: compiler-style diagnostics, one JSON document, or GitHub Actions
//! workflow commands. Everything a file controls is sanitised before it reaches a terminal;
//! values that are not numbers, tokens and env values never reach here (the engine masks them).

use serde::Serialize;

use crate::engine::config::{Finding, LoadError, Report, Severity, Snippet};

use super::sanitize;
use super::sanitize::{github_data as gh_data, github_property as gh_prop};
use super::style;

/// The version of `--format json`'s document. Bump on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// Messages are wrapped at this width in human output.
const WRAP: usize = 100;

/// Counts over every file checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Totals {
    /// Files checked (read and parsed).
    pub files: usize,
    /// Files that could not be read or parsed.
    pub unreadable: usize,
    pub servers: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Totals {
    pub fn of(reports: &[Report], unreadable: usize) -> Totals {
        Totals {
            files: reports.len(),
            unreadable,
            servers: reports.iter().map(|r| r.servers).sum(),
            errors: reports.iter().map(Report::errors).sum(),
            warnings: reports.iter().map(Report::warnings).sum(),
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `2 errors, 3 warnings in 1 file` (and what could not be read).
pub fn summary_line(t: &Totals) -> String {
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

/// Word-wrap `text` at `width`, each line prefixed with `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
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

/// A message cut into its headline (up to the first `; ` or `. `) and the rest.
fn headline(message: &str) -> (&str, &str) {
    let cut = [message.find("; "), message.find(". ")]
        .into_iter()
        .flatten()
        .min();
    match cut {
        Some(at) => (&message[..at], message[at + 2..].trim_start()),
        None => (message, ""),
    }
}

/// One diagnostic, as rustc and cargo draw them: `severity[code]: what`, then `--> where`.
fn diagnostic(f: &Finding, pen: &Pen) -> String {
    let sev = pen.severity(f.severity);
    let message = sanitize(&f.message);
    let (head, rest) = headline(&message);
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
    let width = WRAP.min(usize::from(super::terminal_width()).saturating_sub(2));
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
pub fn human(reports: &[Report], totals: &Totals, color: bool, quiet: bool) -> String {
    let pen = Pen { on: color };
    let mut out = String::new();
    for f in reports.iter().flat_map(|r| &r.findings) {
        out.push_str(&diagnostic(f, &pen));
        out.push('\n');
    }
    if quiet {
        return out;
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

/// A usage error for standard error: `error: <what>` and a `hint:` when there is one.
pub fn usage_error(what: &str, hint: Option<&str>, color: bool) -> String {
    let pen = Pen { on: color };
    let mut out = format!("{}: {}\n", pen.paint(style::BAD, "error"), sanitize(what));
    if let Some(hint) = hint {
        out.push_str(&format!(
            "{}: {}\n",
            pen.paint(style::HINT, "hint"),
            sanitize(hint)
        ));
    }
    out
}

/// A load error for standard error: `error: <what>` and a `hint:` when there is one.
pub fn load_error(e: &LoadError, color: bool) -> String {
    let pen = Pen { on: color };
    let mut out = format!(
        "{}: {}\n",
        pen.paint(style::BAD, "error"),
        sanitize(&e.to_string())
    );
    if let Some(hint) = e.hint() {
        out.push_str(&format!(
            "{}: {}\n",
            pen.paint(style::HINT, "hint"),
            sanitize(&hint)
        ));
    }
    out
}

/// One file checked.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonFile<'a> {
    /// The file as named (`<stdin>`, or `--stdin-filename`'s name, for standard input).
    file: &'a str,
    /// Server entries found in it.
    servers: usize,
    errors: usize,
    warnings: usize,
}

/// A file that could not be read or parsed (exit status 2).
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonUnreadable {
    file: String,
    /// 1-based line of the problem, when it has a position.
    line: Option<usize>,
    /// 1-based column of the problem, when it has a position.
    column: Option<usize>,
    /// What is wrong, in plain words.
    message: String,
}

/// `mcpl-doctor check-config --format json`.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonDoc<'a> {
    /// The version of this document's shape; bumped on any incompatible change.
    schema_version: u32,
    /// The host rule the findings describe (`--preset`).
    preset: &'a str,
    /// Every file checked.
    files: Vec<JsonFile<'a>>,
    /// Files that could not be read or parsed.
    unreadable: Vec<JsonUnreadable>,
    /// Every finding, file by file, in document order.
    findings: Vec<&'a Finding>,
    /// Counts over every file.
    summary: &'a Totals,
}

/// One JSON document: `schema_version`, the files, those that could not be read, every
/// finding (severity, code, file, line, column, path, server, field, message), and totals.
pub fn json(reports: &[Report], errors: &[LoadError], totals: &Totals, preset: &str) -> String {
    let doc = JsonDoc {
        schema_version: SCHEMA_VERSION,
        preset,
        files: reports
            .iter()
            .map(|r| JsonFile {
                file: &r.file,
                servers: r.servers,
                errors: r.errors(),
                warnings: r.warnings(),
            })
            .collect(),
        unreadable: errors
            .iter()
            .map(|e| JsonUnreadable {
                file: e.file().to_string(),
                line: e.position().map(|p| p.0),
                column: e.position().map(|p| p.1),
                message: e.to_string(),
            })
            .collect(),
        findings: reports.iter().flat_map(|r| &r.findings).collect(),
        summary: totals,
    };
    let mut s = super::sanitize::json(serde_json::to_string_pretty(&doc).unwrap_or_else(|e| {
        format!("{{\"schema_version\": {SCHEMA_VERSION}, \"error\": \"{e}\"}}")
    }));
    s.push('\n');
    s
}

/// GitHub Actions workflow commands, one per finding (`::error file=..,line=..,col=..,
/// title=..::message`), so findings show on the pull request's diff; then the summary.
pub fn github(reports: &[Report], errors: &[LoadError], totals: &Totals, quiet: bool) -> String {
    let mut out = String::new();
    for e in errors {
        let pos = e
            .position()
            .map(|(l, c)| format!(",line={l},col={c}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "::error file={}{pos},title={}::{}\n",
            gh_prop(e.file()),
            gh_prop("mcpl-doctor: cannot read"),
            gh_data(&e.to_string())
        ));
    }
    for f in reports.iter().flat_map(|r| &r.findings) {
        let mut whereabouts = String::new();
        if let Some(s) = &f.server {
            whereabouts.push_str(&format!("server `{s}`"));
            if let Some(field) = &f.field {
                whereabouts.push_str(&format!(", `{field}`"));
            }
            whereabouts.push_str(": ");
        }
        // GitHub's endColumn is the last column of the annotation (ours is one past it).
        let end_column = if f.end_line > f.line {
            f.end_column.saturating_sub(1).max(1)
        } else {
            f.end_column.saturating_sub(1).max(f.column)
        };
        out.push_str(&format!(
            "::{} file={},line={},endLine={},col={},endColumn={},title={}::{}{} ({})\n",
            f.severity.as_str(),
            gh_prop(&f.file),
            f.line,
            f.end_line.max(f.line),
            f.column,
            end_column,
            gh_prop(&format!("mcpl-doctor {}", f.code)),
            gh_data(&whereabouts),
            gh_data(&f.message),
            gh_data(&f.path)
        ));
    }
    if !quiet {
        out.push_str(&summary_line(totals));
        out.push('\n');
    }
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
    fn workflow_commands_escape() {
        assert_eq!(gh_prop("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(gh_data("a:b,c%\r\n"), "a:b,c%25%0D%0A");
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("aa bb cc", "  ", 5), "  aa bb\n  cc\n");
    }

    mod no_raw_control_in_any_format {
        use std::path::PathBuf;

        use proptest::prelude::*;

        use super::super::super::sanitize::is_unsafe;
        use super::*;
        use crate::engine::config::{check_source, CheckOptions, LoadError, Source};
        use crate::engine::policy::Preset;

        /// Characters a hostile config plants in keys, values and names.
        const HOSTILE: &[char] = &[
            '\u{0}',
            '\u{7}',
            '\u{8}',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9b}',
            '\u{200b}',
            '\u{200d}',
            '\u{200e}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{2028}',
            '\u{2029}',
            '\u{feff}',
            '\u{e0041}',
            '\r',
            '\t',
            '%',
            ':',
            ',',
            '"',
            '\\',
        ];

        const KEYS: &[&str] = &[
            "mcplServers",
            "mcpServers",
            "servers",
            "command",
            "args",
            "env",
            "url",
            "transport",
            "token",
            "reconnect",
            "reconnectIntervalMs",
            "reconnectMaxIntervalMs",
            "disabled",
            "comand",
        ];

        fn hostile_string() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop_oneof![
                    3 => prop::sample::select(HOSTILE),
                    1 => any::<char>(),
                    2 => prop::sample::select(&['a', 'b', '1', ' ', '$', '{', '}'][..]),
                ],
                0..6,
            )
            .prop_map(|c| c.into_iter().collect())
        }

        fn key() -> impl Strategy<Value = String> {
            prop_oneof![
                prop::sample::select(KEYS).prop_map(str::to_string),
                hostile_string(),
                (prop::sample::select(KEYS), hostile_string()).prop_map(|(k, h)| format!("{k}{h}")),
            ]
        }

        fn value() -> impl Strategy<Value = String> {
            prop_oneof![
                prop::sample::select(&["0", "1", "-1", "true", "null", "5000", "[]"][..])
                    .prop_map(str::to_string),
                hostile_string().prop_map(|s| serde_json::to_string(&s).unwrap_or_default()),
                prop::collection::vec(hostile_string(), 0..3)
                    .prop_map(|v| serde_json::to_string(&v).unwrap_or_default()),
            ]
        }

        /// `{"<table>": {"<id>": {"<key>": <value>, ...}, ...}}`, raw characters unescaped in
        /// keys half the time (JSON allows all but C0 raw; the loader rejects C0 with a
        /// position, itself an output to check).
        fn config() -> impl Strategy<Value = String> {
            let entry = prop::collection::vec((key(), value()), 0..5);
            (
                prop::sample::select(&["mcplServers", "mcpServers", "servers"][..]),
                prop::collection::vec((hostile_string(), entry), 1..4),
                any::<bool>(),
            )
                .prop_map(|(table, servers, raw)| {
                    let quote = |s: &str| {
                        if raw {
                            format!("\"{}\"", s.replace(['"', '\\'], "_"))
                        } else {
                            serde_json::to_string(s).unwrap_or_default()
                        }
                    };
                    let mut t = format!("{{\"{table}\": {{");
                    for (i, (id, fields)) in servers.iter().enumerate() {
                        if i > 0 {
                            t.push(',');
                        }
                        t.push_str(&format!("{}: {{", quote(id)));
                        for (j, (k, v)) in fields.iter().enumerate() {
                            if j > 0 {
                                t.push(',');
                            }
                            t.push_str(&format!("{}: {v}", quote(k)));
                        }
                        t.push('}');
                    }
                    t.push_str("}}");
                    t
                })
        }

        fn env(_: &str) -> Option<String> {
            Some("x\u{1b}\u{202e}y".into())
        }

        fn assert_clean(format: &str, out: &str) {
            if let Some(c) = out.chars().find(|&c| c != '\n' && is_unsafe(c)) {
                panic!("{format} output holds U+{:04X}:\n{out}", c as u32);
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

            #[test]
            fn no_output_format_holds_a_raw_unsafe_character(
                text in config(),
                name in hostile_string(),
                preset in prop::sample::select(&[Preset::Lasting, Preset::Handshake][..]),
            ) {
                let src = Source {
                    name: format!("{name}.json"),
                    dir: PathBuf::from("/"),
                    text,
                };
                let options = CheckOptions { preset, env: &env };
                let (reports, errors): (Vec<_>, Vec<LoadError>) = match check_source(&src, &options) {
                    Ok(r) => (vec![r], vec![]),
                    Err(e) => (vec![], vec![e]),
                };
                let totals = Totals::of(&reports, errors.len());
                assert_clean("human", &human(&reports, &totals, false, false));
                for e in &errors {
                    assert_clean("load error", &load_error(e, false));
                }
                assert_clean("json", &json(&reports, &errors, &totals, "lasting"));
                assert_clean("github", &github(&reports, &errors, &totals, false));
                assert_clean("sarif", &crate::render::sarif::sarif(&reports, &errors));
            }
        }
    }
}
