//! A program's help text among its stderr lines: its usage line (`Usage: srv [options]`,
//! argparse's `usage: srv ...`, Go's `Usage of srv:`, stricli's `USAGE`) or a section heading
//! (`Options:`, `Commands:`, cobra's `Flags:`, argparse's `positional arguments:`), then the
//! indented lines under it (each flag and its description) and further headings, up to the
//! first unindented line that is neither. A help text is the server describing itself: what it
//! offers, never what is wrong (a flag's description that names a variable is no complaint).
//! The stderr reader keeps its lines out of the notable ones; the diagnosis reads a variable,
//! a flag or a value to fix only outside it.

/// Where a line stands with respect to a help text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// Not in a help text.
    Outside,
    /// The line that starts one: a usage line or a section heading.
    Start,
    /// A line inside one: an indented flag or description, a blank line, a further heading.
    Body,
}

/// A usage line: `Usage: srv ...`, `usage: srv ...`, `Usage:` alone (cobra), Go flag's
/// `Usage of srv:`, stricli's `USAGE`, after a program's prefix (`[srv] `).
pub(crate) fn starts_usage(line: &str) -> bool {
    let t = line.trim();
    let t = match t.strip_prefix('[').and_then(|r| r.split_once("] ")) {
        Some((_, after)) => after.trim(),
        None => t,
    };
    t.starts_with("Usage:")
        || t.starts_with("usage:")
        || t == "USAGE"
        || t == "USAGE:"
        || (t.starts_with("Usage of ") && t.ends_with(':'))
}

/// The section headings of help texts (lower-cased, without the colon): commander's,
/// yargs', click's, argparse's, cobra's, clap's, stricli's.
const HEADINGS: &[&str] = &[
    "options",
    "commands",
    "flags",
    "global flags",
    "global options",
    "arguments",
    "positional arguments",
    "optional arguments",
    "available commands",
    "subcommands",
    "examples",
    "example",
    "aliases",
];

/// Headings that continue a help text but never start one: a server's own complaint may be
/// laid out under them (`Environment variables:` then `  API_KEY is not set`).
const INNER_HEADINGS: &[&str] = &["environment variables", "environment", "env vars"];

/// A section heading: an unindented line of a few words ending in `:` (`Options:`), or one of
/// the upper-case ones alone (`OPTIONS`, `COMMANDS`, `FLAGS`).
pub(crate) fn is_heading(line: &str) -> bool {
    heading_of(line).is_some_and(|h| HEADINGS.contains(&h.as_str()))
}

/// A heading inside a help text: one of [`HEADINGS`] or of [`INNER_HEADINGS`].
fn is_inner_heading(line: &str) -> bool {
    heading_of(line)
        .is_some_and(|h| HEADINGS.contains(&h.as_str()) || INNER_HEADINGS.contains(&h.as_str()))
}

/// The lower-cased words of a line shaped like a heading.
fn heading_of(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t']) {
        return None;
    }
    let t = line.trim();
    let upper = t.len() > 3 && t.chars().all(|c| c.is_ascii_uppercase() || c == ' ');
    let head = match t.strip_suffix(':') {
        Some(h) => h,
        None if upper => t,
        None => return None,
    };
    Some(head.to_ascii_lowercase())
}

/// A line shaped like Go flag's own listing, whatever came before it: `  -name type`, or a
/// description under it (`    \tWhat it does`).
fn go_flag_line(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    let indent = line.len() - t.len();
    if indent >= 2 && t.starts_with('\t') {
        return true;
    }
    indent == 2
        && t.strip_prefix('-').is_some_and(|rest| {
            let mut words = rest.split(' ');
            let name_ok = words.next().is_some_and(|n| {
                n.starts_with(|c: char| c.is_ascii_alphanumeric())
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            });
            let rest: Vec<&str> = words.collect();
            name_ok
                && rest.len() <= 1
                && rest
                    .iter()
                    .all(|w| w.chars().all(|c| c.is_ascii_alphanumeric()))
        })
}

/// Reads lines one at a time and says where each stands.
#[derive(Debug, Default, Clone)]
pub(crate) struct HelpBlock {
    inside: bool,
}

impl HelpBlock {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Where `line`, the next line, stands.
    pub(crate) fn feed(&mut self, line: &str) -> Part {
        if starts_usage(line) || (!self.inside && is_heading(line)) {
            self.inside = true;
            return Part::Start;
        }
        if self.inside {
            let indented = line.starts_with([' ', '\t']);
            if line.trim().is_empty() || indented || is_inner_heading(line) {
                return Part::Body;
            }
            self.inside = false;
            return Part::Outside;
        }
        if go_flag_line(line) {
            return Part::Body;
        }
        Part::Outside
    }
}

/// Whether `line` is an error line that a usage text may answer: `Error: ...` (cobra, a
/// hand-written check), `error: ...` (clap), `prog: error: ...`, `Incorrect Usage: ...`
/// (urfave/cli), after a program's prefix (`[srv] `).
pub(crate) fn is_error_head(line: &str) -> bool {
    if line.starts_with([' ', '\t']) {
        return false;
    }
    let t = line.trim();
    let t = match t.strip_prefix('[').and_then(|r| r.split_once("] ")) {
        Some((_, after)) => after.trim(),
        None => t,
    };
    let low = t.to_ascii_lowercase();
    low.starts_with("error:")
        || low.starts_with("incorrect usage:")
        || t.split_once(": ").is_some_and(|(p, rest)| {
            !p.contains(' ') && rest.to_ascii_lowercase().starts_with("error:")
        })
}

/// The lines above a usage text to keep with it (`above`, the lines before it, oldest first):
/// the paragraph from the nearest error line among the last [`ABOVE_USAGE`] (`Error: no
/// context is set`, then `Configure one with ...`, then `Usage:`), else the line just above.
pub(crate) fn kept_above_usage<S: AsRef<str>>(above: &[S]) -> Vec<String> {
    let from = above.len().saturating_sub(ABOVE_USAGE);
    let last = &above[from..];
    let at = last
        .iter()
        .rposition(|l| is_error_head(l.as_ref()))
        .map(|i| from + i)
        .filter(|&i| above[i..].iter().all(|l| !l.as_ref().trim().is_empty()))
        .unwrap_or(above.len().saturating_sub(1));
    above[at..]
        .iter()
        .map(|l| l.as_ref().to_string())
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// How many lines above a usage text an error line heading its paragraph is looked for.
const ABOVE_USAGE: usize = 4;

/// Where each of `lines` stands (oldest first).
pub(crate) fn parts<S: AsRef<str>>(lines: &[S]) -> Vec<Part> {
    let mut b = HelpBlock::new();
    lines.iter().map(|l| b.feed(l.as_ref())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paragraph_an_error_line_heads_is_kept_above_a_usage() {
        // kubernetes-mcp-server (cobra): the error, a hint, then `Usage:`.
        let above = [
            "starting",
            "Error: unable to create kubernetes target provider: no current-context is set",
            "Configure a context with 'kubectl config set-context <name>'",
        ];
        assert_eq!(kept_above_usage(&above), above[1..].to_vec());
        // No error line: the line just above, as before.
        let plain = ["starting", "SRV_URL must be a full URL"];
        assert_eq!(kept_above_usage(&plain), vec!["SRV_URL must be a full URL"]);
        // An error line parted from the usage by a blank line heads no paragraph of it.
        let parted = ["Error: an old one", "", "next"];
        assert_eq!(kept_above_usage(&parted), vec!["next"]);
        assert!(kept_above_usage::<&str>(&[]).is_empty());
        assert!(is_error_head("[srv] Error: x") && is_error_head("srv: error: x"));
        assert!(!is_error_head("  Error: indented") && !is_error_head("no error: here"));
    }

    #[test]
    fn go_flag_usage_is_a_help_text_from_its_usage_line_on() {
        // Go's flag package (mcp-grafana 0.x): the error, then its usage.
        let l = [
            "flag provided but not defined: -url",
            "Usage of /x/mcp-grafana:",
            "  -address string",
            "    \tThe host and port (default \"localhost:8000\")",
            "  -debug",
            "    \tFalls back to GRAFANA_DEBUG environment variable",
        ];
        assert_eq!(
            parts(&l),
            [
                Part::Outside,
                Part::Start,
                Part::Body,
                Part::Body,
                Part::Body,
                Part::Body
            ]
        );
        // The listing's tail alone (its usage line scrolled out) is still read as one.
        assert_eq!(
            parts(&["    \tFalls back to GRAFANA_X", "  -version"]),
            [Part::Body, Part::Body]
        );
    }

    #[test]
    fn a_help_text_ends_at_the_first_unindented_line_that_is_no_heading() {
        // click 8.x: usage, a hint, then the error outside it.
        let l = [
            "Usage: srv serve [OPTIONS]",
            "Try 'srv serve --help' for help.",
            "",
            "Error: No such option '--url'.",
        ];
        assert_eq!(
            parts(&l),
            [Part::Start, Part::Outside, Part::Outside, Part::Outside]
        );
        // yargs 17: no usage prefix; the sections start it; the error block after it is not
        // in it (its indented choice line included).
        let l = [
            "srv serve",
            "Options:",
            "  --transport        [choices: \"stdio\", \"http\"]",
            "",
            "Invalid values:",
            "  Argument: transport, Given: \"htp\", Choices: \"stdio\", \"http\"",
        ];
        assert_eq!(
            parts(&l),
            [
                Part::Outside,
                Part::Start,
                Part::Body,
                Part::Body,
                Part::Outside,
                Part::Outside
            ]
        );
    }

    #[test]
    fn look_alikes_are_no_help_text() {
        // A log line, a traceback's indented source line, a sentence ending in a colon.
        let l = [
            "INFO options loaded: 3",
            "  File \"/srv/main.py\", line 3, in <module>",
            "    raise ValueError('API_KEY environment variable is not set')",
            "The following options are set:",
            "  --verbose",
            "Environment variables:",
            "  API_KEY is not set",
        ];
        assert!(
            parts(&l).iter().all(|p| *p == Part::Outside),
            "{:?}",
            parts(&l)
        );
    }
}
