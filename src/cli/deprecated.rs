//! Old spellings still accepted (`--json`, `--events`, `--attempts`, `--span`, `--protocol`,
//! `simulate --server`, the rule name `handshake`): each gets a one-line note naming the
//! current one, so that scripts move before the old one goes.

use std::ffi::OsString;

/// Flags that were renamed: (subcommand or "" for any, old, new).
const FLAGS: &[(&str, &str, &str)] = &[
    ("", "--json", "--format json"),
    ("probe", "--events", "--format events"),
    ("", "--attempts", "--launches"),
    ("", "--span", "--for"),
    ("", "--protocol", "--engine"),
    ("simulate", "--server", "--behaviour"),
];

/// Flags whose value is a rule name (`handshake` is now `reset-on-handshake`).
const RULE_FLAGS: &[&str] = &["--preset", "-p", "--compare"];

/// The notes for the old spellings in `args` (the whole command line, program name first);
/// nothing after `--` is looked at (the server's own arguments).
pub(super) fn notes(args: &[OsString]) -> Vec<String> {
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|a| a != "--")
        .collect();
    let sub = words
        .iter()
        .find(|w| ["probe", "simulate", "check-config"].contains(&w.as_str()))
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut note = |old: &str, new: &str| {
        let line = format!(
            "note: {old} is an old spelling of {new}; it still works, but write {new} (the old \
             one may go)"
        );
        if !out.contains(&line) {
            out.push(line);
        }
    };
    let mut it = words.iter().peekable();
    while let Some(w) = it.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        for (only, old, new) in FLAGS {
            if flag == *old && (only.is_empty() || *only == sub) {
                note(old, new);
            }
        }
        if RULE_FLAGS.contains(&flag) {
            let value = inline.or_else(|| it.peek().map(|v| v.to_string()));
            if value.is_some_and(|v| v.split(',').any(|r| r == "handshake")) {
                note("the rule name handshake", "reset-on-handshake");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(line: &str) -> Vec<String> {
        let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
        notes(&args)
    }

    #[test]
    fn old_spellings_get_a_note_and_the_servers_arguments_none() {
        let n = of("mcpl-doctor probe --json --attempts 3 -p handshake -- node s.mjs --json");
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(n[0].starts_with("note: --json is an old spelling of --format json;"));
        assert!(n[1].contains("--attempts is an old spelling of --launches"));
        assert!(n[2].contains("the rule name handshake is an old spelling of reset-on-handshake"));
        assert_eq!(
            of("mcpl-doctor simulate --compare lasting,handshake").len(),
            1
        );
        assert_eq!(of("mcpl-doctor simulate --server healthy").len(), 1);
        assert!(of("mcpl-doctor probe --config f.json --server files").is_empty());
        assert!(of("mcpl-doctor probe --format json --launches 3 -- x --span").is_empty());
    }
}
