//! The structured row about last words that show the user a flag with a value to fill in
//! (see [`super::structured`]): a line outside a help text holding a flag followed by a
//! placeholder (`-p <preset>`, `--config <path>`, `--api-key=<KEY>`), in the last lines of a
//! launch that died before its handshake, where the entry's args lack that flag. The server
//! stopped to tell its user how to start it (lsmcp without a preset: "No configuration found.
//! Please initialize your project first:" over `lsmcp init -p <preset>`, on stdout, exit 0; a
//! CLI's `Run: srv --token <token>`; a `Try: srv --config <file>`). The values it lists for
//! the placeholder (an `Available presets:` block under it, or a list on that line) are named.
//!
//! Keyed on the structure (a flag and an angle-bracket placeholder, the entry's args), never
//! on the words around it.

use super::cli_parsers;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;
use crate::engine::probe::read::help::{self, Part};

/// How many of the last lines (outside a help text's body) are read.
const LAST_LINES: usize = 24;

/// The most values named.
const MAX_VALUES: usize = 8;

/// A token's text without the quotes or backticks around it.
fn bare(t: &str) -> &str {
    t.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | ';' | '(' | ')'))
}

/// Whether `t` is a flag: `-p`, `--preset` (a dash, then a letter).
fn is_flag(t: &str) -> bool {
    let name = t.trim_start_matches('-');
    t.starts_with('-')
        && t.len() - name.len() <= 2
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
}

/// A placeholder's name: `<preset>` -> `preset`.
fn placeholder(t: &str) -> Option<&str> {
    let inner = t.strip_prefix('<')?.strip_suffix('>')?;
    (!inner.is_empty()
        && inner.len() <= 40
        && inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' ' | '.')))
    .then_some(inner)
}

/// The first flag of a line followed by a placeholder: the flag and the placeholder's name.
pub(super) fn flag_with_placeholder(line: &str) -> Option<(String, String)> {
    let tokens: Vec<&str> = line.split_whitespace().map(bare).collect();
    for (i, t) in tokens.iter().enumerate() {
        if let Some((flag, value)) = t.split_once('=') {
            if is_flag(flag) {
                if let Some(p) = placeholder(value) {
                    return Some((flag.to_string(), p.to_string()));
                }
            }
            continue;
        }
        if !is_flag(t) {
            continue;
        }
        if let Some(p) = tokens.get(i + 1).and_then(|n| placeholder(n)) {
            return Some((t.to_string(), p.to_string()));
        }
    }
    None
}

/// Whether the entry's args pass `flag` (`-p x`, `--preset=x`, spelt with one dash or two).
fn passed(flag: &str, s: &Setting) -> bool {
    let key = cli_parsers::flag_key(flag);
    s.args
        .iter()
        .filter(|a| a.starts_with('-'))
        .any(|a| cli_parsers::flag_key(a) == key)
}

/// The values the lines list for `name` (`preset`): an unindented line naming it and ending
/// in `:` (`Available presets:`) with the first word of each indented line under it, or a
/// list after its `:` on that line (`Available presets: a, b, c`).
fn values_for(name: &str, lines: &[&str]) -> Vec<String> {
    let stem = name.to_ascii_lowercase();
    let stem = stem.trim_end_matches('s');
    if stem.len() < 3 {
        return Vec::new();
    }
    let word = |w: &str| {
        w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with([' ', '\t']) {
            continue;
        }
        let Some((head, rest)) = l.split_once(':') else {
            continue;
        };
        if !head.to_ascii_lowercase().contains(stem) || head.split_whitespace().count() > 4 {
            continue;
        }
        let rest = rest.trim();
        let mut out: Vec<String> = if rest.is_empty() {
            lines[i + 1..]
                .iter()
                .take_while(|x| x.starts_with([' ', '\t']) && !x.trim().is_empty())
                .filter_map(|x| x.split_whitespace().next())
                .filter(|w| word(w) && !w.starts_with('-'))
                .map(str::to_string)
                .collect()
        } else {
            rest.split(',')
                .map(|w| bare(w.trim()).trim_end_matches('.'))
                .filter(|w| !w.is_empty() && word(w))
                .map(str::to_string)
                .collect()
        };
        out.truncate(MAX_VALUES);
        if out.len() >= 2 {
            return out;
        }
    }
    Vec::new()
}

/// The row: a flag with a placeholder in the last words that the entry's args lack.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let parts = help::parts(lines);
    let outside: Vec<&str> = lines
        .iter()
        .zip(parts.iter().chain(std::iter::repeat(&Part::Outside)))
        .filter(|(_, p)| **p != Part::Body)
        .map(|(l, _)| *l)
        .collect();
    let from = outside.len().saturating_sub(LAST_LINES);
    let (line, flag, name) = outside[from..].iter().find_map(|l| {
        let (flag, name) = flag_with_placeholder(l)?;
        (!passed(&flag, s)).then(|| (l.trim(), flag, name))
    })?;
    let values = values_for(&name, lines);
    let listed = values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let with = if values.is_empty() {
        String::new()
    } else {
        format!(" (its {name} values: {listed})")
    };
    let args = terms("the entry's args", s);
    Some(Found {
        id: Id::MissingArgument,
        summary: format!(
            "it ended before its handshake showing `{flag} <{name}>`, a flag not in {args}"
        ),
        next: format!(
            "pass `{flag} <{name}>` in {args}{with}: the server showed it (\"{}\") and ended before its handshake",
            cut(line)
        ),
        evidence: vec![(Source::Stderr, cut(line))],
    })
}

/// What a required argument's name says its value is: a file's or a folder's path, a URL, a
/// port (by the words of its name), if any.
fn kind_of(name: &str) -> Option<&'static str> {
    let low = name.to_ascii_lowercase();
    let words: Vec<&str> = low
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |xs: &[&str]| words.iter().any(|w| xs.contains(w));
    if has(&["dir", "directory", "folder", "root", "workspace"]) {
        Some("a folder's path")
    } else if has(&[
        "file", "path", "config", "cfg", "conf", "json", "yaml", "yml", "toml",
    ]) {
        Some("a file's path")
    } else if has(&["url", "uri", "endpoint"]) {
        Some("a URL")
    } else if has(&["port"]) {
        Some("a port number")
    } else {
        None
    }
}

/// The entry's variable whose words end with a required argument's (`MONDAY_API_TOKEN` for
/// `--token`): the value the user meant for it, under a name the parser did not read. Only a
/// host entry's `env`.
fn worded_var<'a>(name: &str, s: &'a Setting) -> Option<&'a str> {
    let words: Vec<String> = name
        .trim_start_matches('-')
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect();
    // A bare command inherits the caller's whole environment: no variable of it is the entry's.
    if s.given_env.is_none() || words.is_empty() || words.concat().len() < 3 {
        return None;
    }
    let tail = format!("_{}", words.join("_"));
    super::given::entry_env(s)
        .map(|(k, _)| k.as_str())
        .find(|k| k.ends_with(&tail))
}

/// The row: an argument parser says a required argument was not given (commander, yargs,
/// click, argparse, clap, cobra: each in its own format), and the entry's args lack it. Its
/// name restated in the doctor's words, with the kind of value its name says.
pub(super) fn required_row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (names, line) = cli_parsers::required(lines)?;
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !(n.starts_with('-') && passed(n, s)))
        .collect();
    let first = missing.first()?;
    let args = terms("the entry's args", s);
    let what = |n: &String| match (n.starts_with('-'), kind_of(n)) {
        (true, Some(k)) => format!("`{n}` with {k}"),
        (true, None) => format!("`{n}` with its value"),
        (false, Some(k)) => format!("the `{n}` argument ({k})"),
        (false, None) => format!("the `{n}` argument"),
    };
    let all = missing
        .iter()
        .map(|n| what(n))
        .collect::<Vec<_>>()
        .join(" and ");
    let quoted = cut(&line);
    let worded = worded_var(first, s)
        .map(|k| {
            format!(
                "; {} sets `{k}`, which the server does not read for it: give its value there",
                terms("the entry's `env`", s)
            )
        })
        .unwrap_or_default();
    Some(Found {
        id: Id::MissingArgument,
        summary: format!("its argument parser says `{first}` is required and {args} lack it"),
        next: format!(
            "add {all} to {args}: its argument parser requires it (\"{quoted}\"){worded}"
        ),
        evidence: vec![(Source::Stderr, quoted)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_and_its_placeholder_are_read() {
        // lsmcp 0.10's words with no preset; a `--name=<value>` form; prose with none.
        assert_eq!(
            flag_with_placeholder("  lsmcp init -p <preset>"),
            Some(("-p".into(), "preset".into()))
        );
        assert_eq!(
            flag_with_placeholder("Run `srv --api-key=<KEY>` to start"),
            Some(("--api-key".into(), "KEY".into()))
        );
        assert_eq!(flag_with_placeholder("Usage: srv <command>"), None);
        assert_eq!(flag_with_placeholder("  lsmcp --list"), None);
        assert_eq!(flag_with_placeholder("a <b> -- c <d>"), None);
    }

    #[test]
    fn a_required_argument_is_read_in_each_parsers_format() {
        let read = |t: &str| {
            let lines: Vec<&str> = t.lines().collect();
            cli_parsers::required(&lines).map(|(names, _)| names)
        };
        // modular-mcp 0.x (commander 12), yargs 17, click 8.1, argparse, clap 4, cobra.
        for (t, names) in [
            ("error: missing required argument 'config-file-path'", vec!["config-file-path"]),
            ("Missing required argument: token", vec!["--token"]),
            ("Missing required arguments: token, url", vec!["--token", "--url"]),
            ("Error: Missing argument 'CONFIG_FILE'.", vec!["CONFIG_FILE"]),
            ("Error: Missing option '--db-path'.", vec!["--db-path"]),
            (
                "error: required option '-c, --config <path>' not specified",
                vec!["--config"],
            ),
            (
                "srv: error: the following arguments are required: config, --token",
                vec!["config", "--token"],
            ),
            (
                "error: the following required arguments were not provided:\n  --api-key <API_KEY>\n  <CONFIG>\n\nUsage: srv --api-key <API_KEY> <CONFIG>",
                vec!["--api-key", "CONFIG"],
            ),
            ("Error: required flag(s) \"token\", \"url\" not set", vec!["--token", "--url"]),
            (
                // python-fire 0.7 (core.py), then its usage.
                "ERROR: The function received no value for the required argument: api_key\nUsage: srv API_KEY <flags>",
                vec!["--api-key"],
            ),
            (
                // docopt 0.6: its usage alone.
                "Usage:\n  srv --api-key=<key> [--port=<port>]\n  srv (-h | --help)",
                vec!["--api-key"],
            ),
            (
                // @mondaydotcomorg/monday-api-mcp (dist/utils/args/args.service.js).
                "Error: The following required arguments are missing:\n  - token: Monday API token\n    You can provide it using:\n     --token or -t command line argument",
                vec!["--token"],
            ),
        ] {
            assert_eq!(read(t), Some(names.iter().map(|n| n.to_string()).collect()), "{t}");
        }
        // A sentence about an argument that is there.
        assert_eq!(read("Error: argument --port: invalid int value: 'x'"), None);
        // A usage with more than itself, only optional flags, or a choice: none required.
        assert_eq!(read("Usage:\n  srv --api-key=<key>\nstarting anyway"), None);
        assert_eq!(
            read("Usage:\n  srv [--port=<port>]\n  srv (-h | --help)"),
            None
        );
        assert_eq!(read("Usage:\n  srv (--token=<t> | --key=<k>)"), None);
        assert_eq!(kind_of("config-file-path"), Some("a file's path"));
        assert_eq!(kind_of("--workspace-dir"), Some("a folder's path"));
        assert_eq!(kind_of("--token"), None);
    }

    #[test]
    fn the_values_listed_for_a_placeholder_are_read() {
        let lines = [
            "Available presets:",
            "  typescript           - ",
            "  pyright              - Microsoft's Python language server",
            "",
            "For help:",
            "  lsmcp --help",
        ];
        assert_eq!(values_for("preset", &lines), ["typescript", "pyright"]);
        assert_eq!(
            values_for("mode", &["Valid modes: fast, safe, slow."]),
            ["fast", "safe", "slow"]
        );
        assert!(values_for("preset", &["Available tools:", "  a", "  b"]).is_empty());
    }
}
