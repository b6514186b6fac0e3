//! The structured row about a labelled error block (see [`super::structured`]): many CLIs say
//! what is wrong in sections, each a label at the start of a line and its text after it or
//! indented under it (obsidian-mcp 2's `obsidian-mcp: error [CODE]` / `Problem:` / `Detected:`
//! / `Fix:` / `Verify:` / `More help: <url>`; `Error:` / `Hint:`, `Reason:` / `Solution:`).
//! A block with a section saying what is wrong and one saying what to do is the entry's fault
//! when its detected value (`Detected:`, `Received:`, `Got:`, `Given:`, `Value:`) is one of the
//! entry's values (or a part of an argument, `notes=/path`), or when its problem names a flag
//! the entry passes: the fix names the argument or variable that holds it, what the disk says
//! of it when it is a path (an experiment: looked up), and the block's own fix.

use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::text::has_word;
use super::words::{path_fact, terms};
use crate::engine::redact::MASK;

/// Labels of the section that says what is wrong.
const PROBLEM: &[&str] = &["Problem", "Error", "Reason", "Cause", "Issue"];
/// Labels of the section that says what to do.
const FIX: &[&str] = &[
    "Fix",
    "Hint",
    "Solution",
    "Suggestion",
    "Try",
    "To fix",
    "Action",
];
/// Labels of the section that shows the value the program found.
const DETECTED: &[&str] = &["Detected", "Received", "Got", "Given", "Value", "Found"];

/// One section: its label and its text (the rest of its line, or its indented lines).
struct Section {
    label: String,
    text: Vec<String>,
}

/// The sections of a block: a line `Label: text` or `Label:` at the start of the line (a
/// label of one or two capitalised words), with the indented lines under it.
fn sections(lines: &[&str]) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut open = false;
    for l in lines {
        if l.trim().is_empty() {
            open = false;
            continue;
        }
        if l.starts_with([' ', '\t']) {
            if let (true, Some(s)) = (open, out.last_mut()) {
                s.text.push(l.trim().to_string());
            }
            continue;
        }
        let Some((label, rest)) = l.split_once(':') else {
            open = false;
            continue;
        };
        let words: Vec<&str> = label.split(' ').collect();
        let labelled = !label.is_empty()
            && words.len() <= 2
            && words
                .iter()
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic()))
            && label.starts_with(|c: char| c.is_ascii_uppercase());
        if !labelled {
            open = false;
            continue;
        }
        let rest = rest.trim();
        out.push(Section {
            label: label.to_string(),
            text: if rest.is_empty() {
                Vec::new()
            } else {
                vec![rest.to_string()]
            },
        });
        open = rest.is_empty();
    }
    out
}

fn find<'a>(secs: &'a [Section], labels: &[&str]) -> Option<&'a Section> {
    secs.iter()
        .find(|s| labels.iter().any(|l| s.label.eq_ignore_ascii_case(l)))
}

/// The row: a block whose detected value is one of the entry's values, or whose problem names
/// a flag the entry passes.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let secs = sections(lines);
    let problem = find(&secs, PROBLEM)?;
    let fix = find(&secs, FIX)?;
    let problem_text = problem.text.join(" ");
    let fix_text = fix.text.join(" ");
    let detected = find(&secs, DETECTED).map(|d| d.text.join(" "));
    let values = entry_values(s);
    let usable = |v: &str| v.trim().len() >= 2 && !v.contains(MASK);
    // The value detected, whole (an argument's `id=` part after its `=` too).
    let by_value = detected.as_deref().and_then(|d| {
        values
            .iter()
            .find(|(_, v)| usable(v) && v == d.trim())
            .or_else(|| {
                values
                    .iter()
                    .find(|(shown, v)| usable(v) && d.trim().len() >= 4 && shown.contains(d.trim()))
            })
            .map(|(shown, v)| (shown.clone(), v.clone()))
    });
    // Else a flag the entry passes that the problem names.
    let by_flag = || {
        values
            .iter()
            .find(|(shown, _)| {
                let t = shown.trim_matches('`');
                t.starts_with("--")
                    && t.split([' ', '='])
                        .next()
                        .is_some_and(|f| f.len() >= 3 && has_word(&problem_text, f, &[]))
            })
            .map(|(shown, v)| (shown.clone(), v.clone()))
    };
    let (shown, value) = by_value.or_else(by_flag)?;
    let in_env = super::given::entry_env(s).any(|(k, x)| shown == format!("`{k}={x}`"));
    let place = if in_env {
        terms("the entry's `env`", s)
    } else {
        terms("the entry's args", s)
    };
    let on_disk = path_fact(&value, s.cwd.as_deref());
    let absent = on_disk
        .as_deref()
        .is_some_and(|f| f.starts_with("nothing at"));
    let its_fix = if fix_text.is_empty() {
        String::new()
    } else {
        format!(" (the server's fix: \"{}\")", cut(&fix_text))
    };
    let looked = match (&on_disk, absent) {
        (Some(f), true) => format!(" ({f})"),
        _ => String::new(),
    };
    let next = format!(
        "change {shown} in {place}: {}{looked}{its_fix}",
        cut(&problem_text)
    );
    let mut evidence = vec![(Source::Stderr, cut(&format!("Problem: {problem_text}")))];
    if let Some(d) = &detected {
        evidence.push((Source::Stderr, cut(&format!("Detected: {d}"))));
    }
    if !fix_text.is_empty() {
        evidence.push((Source::Stderr, cut(&format!("{}: {fix_text}", fix.label))));
    }
    if let Some(f) = on_disk {
        evidence.push((Source::Tried, format!("looked at it: {f}")));
    }
    Some(Found {
        id: Id::BadArgument,
        summary: format!("the server refuses {shown}: \"{}\"", cut(&problem_text)),
        next,
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(args: &[&str]) -> Setting {
        Setting {
            args: args.iter().map(|a| a.to_string()).collect(),
            entry: true,
            ..Setting::default()
        }
    }

    const MISSING: &str = "obsidian-mcp: error [VAULT_PATH_NOT_FOUND]

Problem: The configured path for vault 'notes' does not exist.

Detected: DIR

Fix:
  Correct the path in the MCP server configuration.
  Expected argument form: [\"--vault\",\"notes=/correct/absolute/path\"]

Verify: Run the same configuration with 'obsidian-mcp doctor' after applying the fix.

More help: https://github.com/StevenStavrakis/obsidian-mcp/blob/v2-next/MIGRATING.md#vault-configuration-errors";

    #[test]
    fn a_block_detecting_an_entry_value_names_its_argument_and_looks_at_the_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let gone = dir.path().join("no-vault").display().to_string();
        let s = setting(&["serve", "--vault", &format!("notes={gone}")]);
        let err = MISSING.replace("DIR", &gone);
        let lines: Vec<&str> = err.lines().collect();
        let f = row(&lines, &s).expect("found");
        assert!(
            f.next.starts_with(&format!(
                "change `--vault notes={gone}` in the entry's args: The configured path for vault 'notes' does not exist. (nothing at {gone})"
            )),
            "{}",
            f.next
        );
        assert!(f.next.contains("Correct the path"), "{}", f.next);
        // The bare path given without its id: the flag the problem names.
        let here = dir.path().display().to_string();
        let s = setting(&["serve", "--vault", &here]);
        let err = "obsidian-mcp: error [CLI_INVALID_VAULT_ARGUMENT]\n\nProblem: The --vault value is malformed.\n\nDetected: HERE\n\nFix:\n  Use the form id=/absolute/path.\n  Example: [\"serve\", \"--vault\", \"notes=/absolute/path/to/vault\"]\n\nMore help: https://x";
        let err = err.replace("HERE", &here);
        let lines: Vec<&str> = err.lines().collect();
        let f = row(&lines, &s).expect("found");
        assert!(
            f.next.starts_with(&format!("change `--vault {here}` in the entry's args: The --vault value is malformed. (the server's fix: \"Use the form id=/absolute/path.")),
            "{}",
            f.next
        );
    }

    #[test]
    fn a_block_about_something_the_entry_does_not_hold_is_no_finding() {
        // obsidian-mcp on an old Node: detected is the runtime, not an entry value.
        let s = setting(&["serve", "--vault", "notes=/srv/vault"]);
        let err = "obsidian-mcp: error [UNSUPPORTED_NODE_VERSION]\n\nProblem: obsidian-mcp requires Node.js 22 or newer.\n\nDetected: Node.js 20.20.2\n\nFix:\n  Install Node.js 22.\n";
        let lines: Vec<&str> = err.lines().collect();
        assert!(row(&lines, &s).is_none());
        // A value detected with no problem or fix section: a log, not a block.
        let err = "Detected: /srv/vault\nServing 3 notes";
        let lines: Vec<&str> = err.lines().collect();
        assert!(row(&lines, &s).is_none());
    }
}
