//! The structured rows about the entry's own arguments (see [`super::structured`]):
//!
//! - a CLI that takes a command first (its help lists `Commands:`) when none of the entry's
//!   arguments is one of them: the list read from the server's own usage, or from `--help`
//!   asked of it (a bounded experiment) when an error line quotes one of the entry's
//!   arguments as it refuses it (`No command registered for `--api-key``), or when its parser
//!   says a command is missing (argparse's `arguments are required: command` under `usage:
//!   srv {serve,search}`, click's `Missing command.`, or a help printed alone); the command
//!   that runs a server (`serve`, `start`, `stdio`) leads;
//! - a parser's unknown-flag error (Go's `flag provided but not defined: -url`, cobra's,
//!   commander's, yargs', click's, clap's, argparse's, `util.parseArgs`') naming a flag the
//!   entry passes, written with one dash or two: change it to the flag the parser suggests or
//!   a close one the usage offers, or remove it;
//! - an error whose message names a flag the entry passes (`--api-key`, or its words: `API
//!   key`, `apiKey`) or quotes that flag's value: the value is what the server refuses, not
//!   its code (a thrown `Error: Invalid API key format` is no crash to fix at a frame).

use std::path::{Path, PathBuf};

use super::cli_parsers;
use super::evidence::{self, Fact};
use super::experiment::{run_bounded_in, COMMAND_LIMIT};
use super::given::entry_env;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;
use crate::engine::probe::read::help;
use crate::engine::redact::MASK;

/// What an argument the entry passes is taken for by an error quoting it: the index of the
/// first argument a line quotes (`` `x` ``, `'x'`, `"x"`), not a script or a file on disk (a
/// module not found quotes its path).
fn quoted_arg(lines: &[&str], s: &Setting) -> Option<usize> {
    let cwd = s.cwd.as_deref();
    s.args.iter().position(|a| {
        a.len() >= 2
            && !a.contains(MASK)
            && !on_disk(a, cwd)
            && lines.iter().any(|l| {
                ['`', '\'', '"']
                    .iter()
                    .any(|q| l.contains(&format!("{q}{a}{q}")))
            })
    })
}

fn on_disk(a: &str, cwd: Option<&Path>) -> bool {
    match cwd {
        Some(d) => d.join(a).exists(),
        None => Path::new(a).exists(),
    }
}

/// The program as the server's `PATH` finds it (the doctor's own `PATH` may differ).
fn program(s: &Setting) -> Option<PathBuf> {
    let cmd = s.command.as_deref().filter(|c| !c.contains(MASK))?;
    if cmd.contains('/') {
        return Some(PathBuf::from(cmd));
    }
    let found = s.path.as_deref().and_then(|p| {
        p.split(':')
            .map(|d| Path::new(d).join(cmd))
            .find(|c| c.is_file())
    });
    Some(found.unwrap_or_else(|| PathBuf::from(cmd)))
}

/// `--help` asked of the command the entry runs, cut before its argument `at`: the commands
/// its help lists, and what was tried.
fn ask_help(s: &Setting, at: usize) -> Option<(Vec<String>, String)> {
    let prefix = s.args.get(..at)?;
    if prefix.iter().any(|a| a.contains(MASK)) {
        return None;
    }
    let prog = program(s)?;
    let mut args: Vec<&str> = prefix.iter().map(String::as_str).collect();
    args.push("--help");
    let shown = format!(
        "{} {}",
        prog.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        args.iter()
            .map(|a| a.rsplit('/').next().unwrap_or(a))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let out = run_bounded_in(&prog, &args, s.cwd.as_deref(), COMMAND_LIMIT);
    let commands = out
        .as_deref()
        .map(|o| {
            let lines = cli_parsers::unboxed(&o.lines().collect::<Vec<_>>());
            evidence::commands(&lines.iter().map(String::as_str).collect::<Vec<_>>())
        })
        .unwrap_or_default();
    let said = match (&out, commands.is_empty()) {
        (None, _) => "no help (it failed or took too long)".to_string(),
        (Some(_), true) => "its help lists no commands".to_string(),
        (Some(_), false) => format!("its help lists the commands {}", commands.join(", ")),
    };
    Some((commands, format!("ran `{}`: {said}", cut(&shown))))
}

/// What tells that the server's CLI wants a command: an error quoting one of the entry's
/// arguments as it refuses it, or the parser saying a command is missing (or printing its help
/// alone, as commander and click do).
enum Wants {
    /// The index of the argument refused.
    Quoted(usize),
    /// The parser's line (or the help's usage line).
    Missing(String),
}

/// The commands the server's own lines list: the usage's `{a,b,c}`, then a commands section.
fn own_commands(lines: &[&str]) -> Vec<String> {
    let mut out = cli_parsers::usage_commands(lines);
    let plain = cli_parsers::unboxed(lines);
    for c in evidence::commands(&plain.iter().map(String::as_str).collect::<Vec<_>>()) {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The index of the entry's word (not a flag) an argument parser refuses as unknown
/// (argparse's `unrecognized arguments: server`, yargs' `Unknown argument: server`): a
/// command misspelt or not one of the CLI's.
fn refused_word(lines: &[&str], parts: &[help::Part], s: &Setting) -> Option<usize> {
    let refused = cli_parsers::unknown_flag(lines, parts)?;
    s.args.iter().position(|a| {
        a.len() >= 2
            && !a.starts_with('-')
            && !a.contains(MASK)
            && refused.flags.iter().any(|f| f == a)
            && !on_disk(a, s.cwd.as_deref())
    })
}

/// A CLI that wants a command first, and the entry's arguments hold none of its commands.
pub(super) fn command_first(lines: &[&str], s: &Setting) -> Option<Found> {
    let parts = help::parts(lines);
    let own = own_commands(lines);
    // Only where an error quotes one of the entry's arguments as it refuses it, or the parser
    // says a command is missing: a CLI whose commands are optional (`srv [--token=x]` or `srv
    // auth login`) lists them too.
    let wants = match quoted_arg(lines, s).or_else(|| refused_word(lines, &parts, s)) {
        Some(i) => Wants::Quoted(i),
        None => {
            let line = cli_parsers::missing_command(lines, &parts)
                .map(str::to_string)
                .or_else(|| {
                    (cli_parsers::help_alone(lines, &parts) && !own.is_empty())
                        .then(|| lines.iter().find(|l| !l.trim().is_empty()))
                        .flatten()
                        .map(|l| l.trim().to_string())
                })?;
            // argparse's `arguments are required: X` is a command only where its usage
            // writes the commands (`{serve,search}`); a positional otherwise.
            if own.is_empty() && line.contains("arguments are required") {
                return None;
            }
            Wants::Missing(line)
        }
    };
    let (commands, tried) = match (&wants, own.is_empty()) {
        (_, false) => (own, None),
        (Wants::Quoted(at), true) => {
            let (c, t) = ask_help(s, *at)?;
            (c, Some(t))
        }
        (Wants::Missing(_), true) => {
            let (c, t) = ask_help(s, s.args.len())?;
            (c, Some(t))
        }
    };
    let commands: Vec<String> = commands.into_iter().filter(|c| c != "help").collect();
    if commands.is_empty() || s.args.iter().any(|a| commands.contains(a)) {
        return None;
    }
    let list = commands
        .iter()
        .take(8)
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    // The command the refused word misspells (`server` for `serve`), else the one that runs
    // the server, by its role, leads.
    let refused = match &wants {
        Wants::Quoted(at) => s.args.get(*at).filter(|a| !a.starts_with('-')),
        Wants::Missing(_) => None,
    };
    let serving = refused
        .and_then(|r| cli_parsers::close_word(r, &commands))
        .and_then(|c| commands.iter().find(|x| **x == c))
        .or_else(|| commands.iter().find(|c| cli_parsers::is_serving_command(c)));
    let (what, listed) = match (commands.as_slice(), serving) {
        ([one], _) => (format!("`{one}`"), String::new()),
        (_, Some(c)) => (format!("`{c}`"), format!(" (its usage lists {list})")),
        (_, None) => (format!("one of its commands ({list})"), String::new()),
    };
    let add = edit(&wants, &what, &listed, s);
    let said = match &wants {
        Wants::Missing(line) => Some(line.clone()),
        Wants::Quoted(_) => lines
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.to_string()),
    };
    let mut evidence: Vec<(Source, String)> = said
        .map(|l| (Source::Stderr, cut(&l)))
        .into_iter()
        .collect();
    evidence.extend(tried.map(|t| (Source::Tried, t)));
    Some(Found {
        id: Id::MissingArgument,
        summary: format!(
            "the server's CLI wants a command first (one of {list}), and the entry's args give none"
        ),
        next: terms(&add, s),
        evidence,
    })
}

/// What to change in the entry's args: the command added first, before a flag taken for a
/// command, or in place of a word that is none of its commands.
fn edit(wants: &Wants, what: &str, listed: &str, s: &Setting) -> String {
    match wants {
        Wants::Quoted(at) => {
            // A flag taken for a command wants the command before it; a word, in its place.
            let refused = s.args.get(*at).map(String::as_str).unwrap_or_default();
            let (verb, place) = if refused.starts_with('-') {
                ("add", "before")
            } else {
                ("write", "in place of")
            };
            let why = if refused.starts_with('-') {
                "the server's CLI takes a command first".to_string()
            } else {
                format!("`{refused}` is none of the commands of the server's CLI")
            };
            format!("{verb} {what} in the entry's args, {place} `{refused}`{listed}: {why}")
        }
        Wants::Missing(_) => format!(
            "add {what} first in the entry's args{listed}: the server's CLI takes a command first"
        ),
    }
}

/// The entry's argument a parser's refused flag is: the same name with one or two leading
/// dashes (Go takes both) or spelt as yargs writes it (`apiKee` for `--api-kee`); with the
/// value after it, when it takes one.
fn given_flag(s: &Setting, refused: &[String]) -> Option<(String, Option<String>)> {
    let keys: Vec<String> = refused.iter().map(|f| cli_parsers::flag_key(f)).collect();
    s.args.iter().enumerate().find_map(|(i, a)| {
        if !a.starts_with('-') || a == "-" || a == "--" || a.contains(MASK) {
            return None;
        }
        let key = cli_parsers::flag_key(a);
        // A shorthand refused (`-x` of `-xyz`): the first letter of the entry's cluster.
        let short = !a.starts_with("--")
            && refused
                .iter()
                .any(|r| r.len() == 2 && !r.starts_with("--") && a.get(1..2) == r.get(1..2));
        if key.is_empty() || !(keys.contains(&key) || short) {
            return None;
        }
        let name = a.split('=').next().unwrap_or(a).to_string();
        let value = match a.split_once('=') {
            Some((_, v)) => Some(v.to_string()),
            None => s.args.get(i + 1).filter(|v| !v.starts_with('-')).cloned(),
        };
        Some((name, value.filter(|v| !v.contains(MASK))))
    })
}

/// A parser's unknown-flag error naming a flag the entry passes: the flag to change (to the
/// one the parser suggests, or a close one its usage offers) or to remove.
pub(super) fn unknown_flag(lines: &[&str], s: &Setting) -> Option<Found> {
    let parts = help::parts(lines);
    let refused = cli_parsers::unknown_flag(lines, &parts)?;
    let (flag, value) = given_flag(s, &refused.flags)?;
    let offered = cli_parsers::offered_flags(lines, &parts);
    // The same name spelt another way (`--workspace_path` for `--workspace-path`, `--read-only`
    // for `--readOnly`) is the fix too: only the very flag refused is none.
    let close = cli_parsers::close_flag(&flag, &offered)
        .filter(|c| c.trim_start_matches('-') != flag.trim_start_matches('-'));
    let spelt = close
        .as_ref()
        .is_some_and(|c| cli_parsers::flag_key(c) == cli_parsers::flag_key(&flag));
    let quoted = cut(&refused.line);
    let mut evidence = vec![(Source::Stderr, quoted.clone())];
    let next = match (&refused.suggestion, &close) {
        (Some(y), _) => format!(
            "change `{flag}` to `{y}` in the entry's args: the server's parser refuses `{flag}` and suggests `{y}` (\"{quoted}\")"
        ),
        (None, Some(y)) if spelt => {
            evidence.push((Source::Stderr, format!("its usage lists `{y}`")));
            format!(
                "use `{y}` in place of `{flag}` in the entry's args: its usage lists it spelt so, and the server has no `{flag}` (\"{quoted}\")"
            )
        }
        (None, Some(y)) => {
            evidence.push((Source::Stderr, format!("its usage offers `{y}`")));
            format!(
                "change `{flag}` to `{y}` in the entry's args: the server has no `{flag}` and its usage offers `{y}` (\"{quoted}\")"
            )
        }
        (None, None) => {
            let with = value
                .as_deref()
                .map(|v| format!(" (and its value `{v}`)"))
                .unwrap_or_default();
            let offers = if offered.is_empty() {
                ""
            } else {
                "; its usage lists the flags it takes"
            };
            format!(
                "remove `{flag}`{with} from the entry's args: the server has no such flag (\"{quoted}\"){offers}"
            )
        }
    };
    Some(Found {
        id: Id::BadArgument,
        summary: format!("the server has no flag `{flag}`, which the entry passes"),
        next: terms(&next, s),
        evidence,
    })
}

/// The flags the entry passes (`--name`), each with its value when it takes one and the value
/// is not masked.
fn flags(s: &Setting) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for (i, a) in s.args.iter().enumerate() {
        let Some(name) = a.strip_prefix("--").filter(|n| n.len() >= 2) else {
            continue;
        };
        let (name, value) = match name.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (
                name,
                s.args.get(i + 1).filter(|v| !v.starts_with('-')).cloned(),
            ),
        };
        out.push((name.to_string(), value.filter(|v| !v.contains(MASK))));
    }
    out
}

/// Whether `message` names the flag `name`: `--name` as a word, or (a name of two words or
/// more) its words in a row in any case and spelling (`API key`, `api_key`, `apiKey`).
pub(super) fn names_flag(message: &str, name: &str) -> bool {
    let literal = format!("--{name}");
    if message.match_indices(&literal).any(|(at, _)| {
        message[at + literal.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
    }) {
        return true;
    }
    let parts: Vec<String> = name
        .split(['-', '_'])
        .map(str::to_ascii_lowercase)
        .collect();
    names_words(message, &parts)
}

/// The entry's variables whose name's words (two or more; for an entry's own `env`, also
/// without the first, a prefix: `API URL` for `GITLAB_API_URL`) stand in a row in `message`
/// (`Unsupported AWS documentation partition` for `AWS_DOCUMENTATION_PARTITION`).
pub(super) fn vars_in_words<'a>(s: &'a Setting, message: &str) -> Vec<&'a str> {
    entry_env(s)
        .map(|(k, _)| k.as_str())
        .filter(|k| {
            let parts: Vec<String> = k.split('_').map(str::to_ascii_lowercase).collect();
            names_words(message, &parts)
                || (s.given_env.is_some() && parts.len() >= 3 && names_words(message, &parts[1..]))
        })
        .collect()
}

/// Whether the words `parts` (two or more, each of two letters or more) stand in a row in
/// `message`, in any case, or joined as one word (`apiKey`).
fn names_words(message: &str, parts: &[String]) -> bool {
    if parts.len() < 2 || parts.iter().any(|p| p.len() < 2) {
        return false;
    }
    let words: Vec<String> = message
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let joined = parts.concat();
    words.contains(&joined) || words.windows(parts.len()).any(|w| w == parts)
}

/// Whether `message` quotes `value`, or names it whole where it is no plain word (a host, a
/// number with letters, a path), or names a path's folder whole (`Database file does not
/// exist: /data` for `/data/app.db`).
fn names_value(message: &str, value: &str) -> bool {
    if value.len() < 4 {
        return false;
    }
    if let Some((parent, _)) = value.rsplit_once('/') {
        if parent.len() >= 4 && parent.contains('/') && names_value(message, parent) {
            return true;
        }
    }
    if ['`', '\'', '"']
        .iter()
        .any(|q| message.contains(&format!("{q}{value}{q}")))
    {
        return true;
    }
    let plain = value.chars().all(|c| c.is_ascii_alphabetic());
    // Whole: not inside a longer name or path (`/srv/data` in `/srv/data/x.so`); a full stop
    // after it ends a sentence.
    let inner = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-');
    !plain
        && message.match_indices(value).any(|(at, _)| {
            let before = message[..at].chars().next_back();
            let mut after = message[at + value.len()..].chars();
            let next = after.next();
            before.is_none_or(|c| !(inner(c) || c == '.'))
                && next.is_none_or(|c| {
                    !inner(c) && (c != '.' || after.next().is_none_or(|d| !inner(d)))
                })
        })
}

/// An error naming a flag the entry passes, or quoting its value.
pub(super) fn flag_named(facts: &[Fact], s: &Setting) -> Option<Found> {
    let flags = flags(s);
    let (f, (name, value)) = facts.iter().filter(|f| f.is_error()).find_map(|f| {
        let m = f.message()?;
        flags
            .iter()
            .filter(|(n, v)| names_flag(m, n) || v.as_deref().is_some_and(|v| names_value(m, v)))
            .max_by_key(|(n, _)| n.len())
            .map(|x| (f, x.clone()))
    })?;
    let shown = match &value {
        Some(v) => format!("`--{name} {v}`"),
        None => format!("`--{name}`"),
    };
    let quoted = cut(&f.quoted());
    Some(Found {
        id: Id::BadArgument,
        summary: format!("the server rejects {shown}: its error names it"),
        next: terms(
            &format!("change {shown} in the entry's args: the server says \"{quoted}\""),
            s,
        ),
        evidence: vec![(Source::Stderr, quoted)],
    })
}

#[cfg(test)]
#[path = "entry_rows_tests.rs"]
mod tests;
