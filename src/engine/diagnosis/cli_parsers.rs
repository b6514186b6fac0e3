//! What argument parsers print when a command line is wrong, read by each parser's own fixed
//! format (the library's, not one server's): an unknown flag and the flag the parser suggests,
//! a command left out, and what the usage offers (its flags, its `{a,b,c}` commands). A help
//! text (see [`help`]) is read only for what it offers, never for what is wrong.

use crate::engine::probe::read::help::{self, Part};

/// A flag (or an argument) a parser refused, with the one it suggests instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused {
    /// The names as the parser wrote them (`-url`, `--url`, yargs' `url`, cobra's `-x`).
    pub flags: Vec<String>,
    /// The flag it suggests (`Did you mean --api-key?`, clap's `tip: a similar argument
    /// exists: '--api-key'`, click's `Possible options: --api-key`).
    pub suggestion: Option<String>,
    /// The line that refused it.
    pub line: String,
}

/// How each parser says a flag is unknown (lower-cased), and how the names follow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// The next word: `-url`, `'--url'`.
    Word,
    /// A list: yargs' `url, foo`, argparse's `--url x`.
    List,
    /// cobra's shorthand: `'x' in -xyz` (the letter).
    Shorthand,
}

const UNKNOWN_FLAG: &[(&str, After)] = &[
    // Go's flag package (and urfave/cli v1/v2 over it): `flag provided but not defined: -url`.
    ("flag provided but not defined:", After::Word),
    // spf13/pflag under cobra: `Error: unknown shorthand flag: 'x' in -xyz`.
    ("unknown shorthand flag:", After::Shorthand),
    // spf13/pflag under cobra: `Error: unknown flag: --url`.
    ("unknown flag:", After::Word),
    // commander: `error: unknown option '--url'`; Node's util.parseArgs: `TypeError
    // [ERR_PARSE_ARGS_UNKNOWN_OPTION]: Unknown option '--url'`; GNU getopt: `unrecognized
    // option '--url'`.
    ("unknown option", After::Word),
    ("unrecognized option", After::Word),
    // yargs (strict): `Unknown argument: url`, `Unknown arguments: url, foo`.
    ("unknown arguments:", After::List),
    ("unknown argument:", After::List),
    // click 8.2+: `Error: No such option '--url'.`; click before, typer: `No such option: --url`.
    ("no such option", After::Word),
    // clap 4: `error: unexpected argument '--url' found`; clap 2/3: `error: Found argument
    // '--url' which wasn't expected, or isn't valid in this context`.
    ("unexpected argument '", After::Word),
    ("found argument '", After::Word),
    // argparse: `srv: error: unrecognized arguments: --url x`.
    ("unrecognized arguments:", After::List),
    // python-fire: `ERROR: Could not consume arg: --url`.
    ("could not consume arg:", After::Word),
    // oclif: `Error: Nonexistent flag: --url`.
    ("nonexistent flag", After::Word),
    // absl: `FATAL Flags parsing error: Unknown command line flag 'url'`.
    ("unknown command line flag", After::Word),
];

/// How parsers suggest a flag (lower-cased): commander's `(Did you mean --x?)`, click's `Did
/// you mean '--x'?` and `(Possible options: --x, --y)`, clap's `tip: a similar argument
/// exists: '--x'`.
const SUGGESTS: &[&str] = &[
    "did you mean",
    "similar argument exists:",
    "possible options:",
];

/// How parsers say a command was left out (lower-cased): click's and typer's `Missing
/// command.`, yargs' `Not enough non-option arguments: got 0, need at least 1`, clap's `'srv'
/// requires a subcommand`, argparse's `the following arguments are required: command` (a
/// command only where its usage has `{a,b,c}` or a commands section: the row checks).
const MISSING_COMMAND: &[&str] = &[
    "missing command",
    "not enough non-option arguments",
    "requires a subcommand",
    "the following arguments are required:",
];

fn clean(w: &str) -> &str {
    w.trim_matches(|c: char| matches!(c, '\'' | '"' | '`' | '‘' | '’' | '(' | ')' | '│'))
        .trim_end_matches(['.', ',', ';', ':', '?', '!'])
        .trim_matches(|c: char| matches!(c, '\'' | '"' | '`'))
}

/// The names after a parser's marker.
fn names_after(rest: &str, after: After) -> Vec<String> {
    let rest = rest.trim_start_matches([':', ' ']);
    match after {
        After::Word => rest
            .split_whitespace()
            .next()
            .map(clean)
            .filter(|w| !w.is_empty())
            .map(|w| vec![w.to_string()])
            .unwrap_or_default(),
        After::Shorthand => rest
            .split_whitespace()
            .next()
            .map(clean)
            .filter(|w| !w.is_empty())
            .map(|w| vec![format!("-{w}")])
            .unwrap_or_default(),
        After::List => rest
            .split([',', ' '])
            .map(clean)
            .filter(|w| !w.is_empty() && *w != "│")
            .map(str::to_string)
            .collect(),
    }
}

/// The flag a line suggests, if it does.
fn suggested(line: &str) -> Option<String> {
    let low = line.to_ascii_lowercase();
    SUGGESTS.iter().find_map(|m| {
        let at = low.find(m)? + m.len();
        line[at..]
            .split([' ', ','])
            .map(clean)
            .find(|w| w.starts_with('-') && w.len() > 1)
            .map(str::to_string)
    })
}

/// The first unknown-flag error outside a help text, with the flag the parser suggests (on its
/// line or the few after it).
pub(crate) fn unknown_flag(lines: &[&str], parts: &[Part]) -> Option<Refused> {
    for (i, line) in lines.iter().enumerate() {
        if parts.get(i) == Some(&Part::Body) {
            continue;
        }
        let low = line.to_ascii_lowercase();
        let Some((at, flags)) = UNKNOWN_FLAG.iter().find_map(|(m, after)| {
            let at = low.find(m)?;
            let flags = names_after(&line[at + m.len()..], *after);
            (!flags.is_empty()).then_some((at, flags))
        }) else {
            continue;
        };
        let suggestion = std::iter::once(&line[at..])
            .chain(lines.iter().skip(i + 1).take(4).copied())
            .find_map(suggested);
        return Some(Refused {
            flags,
            suggestion,
            line: line.trim().trim_matches(['│', ' ']).to_string(),
        });
    }
    None
}

/// Whether a line is an argument parser's error (an unknown flag, a command left out): kept
/// for the diagnosis when a long usage after it scrolls it out of the tail.
pub(crate) fn is_parser_error(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    UNKNOWN_FLAG.iter().any(|(m, _)| low.contains(m))
        || MISSING_COMMAND.iter().any(|m| low.contains(m))
}

/// The line where a parser says a command (or a required argument) was left out.
pub(crate) fn missing_command<'a>(lines: &[&'a str], parts: &[Part]) -> Option<&'a str> {
    lines.iter().enumerate().find_map(|(i, l)| {
        let low = l.to_ascii_lowercase();
        (parts.get(i) != Some(&Part::Body) && MISSING_COMMAND.iter().any(|m| low.contains(m)))
            .then_some(*l)
    })
}

/// How each parser says a required argument or option was not given (lower-cased), and
/// whether the names after it are options (`--x`) when written bare.
const REQUIRED: &[(&str, bool)] = &[
    // commander: `error: missing required argument 'config-file-path'`.
    ("missing required argument '", false),
    // yargs (`demandOption`): `Missing required argument: token`, `Missing required
    // arguments: a, b`.
    ("missing required arguments:", true),
    ("missing required argument:", true),
    // commander: `error: required option '-c, --config <path>' not specified`.
    ("required option '", true),
    // click: `Error: Missing argument 'CONFIG_FILE'.`, `Error: Missing option '--token'.`.
    ("missing argument '", false),
    ("missing option '", true),
    // argparse: `srv: error: the following arguments are required: config, --token`.
    ("the following arguments are required:", false),
    // cobra: `Error: required flag(s) "token", "url" not set`.
    ("required flag(s)", true),
    // python-fire 0.7: `ERROR: The function received no value for the required argument:
    // api_key` (`core.py`); it takes `--api-key` as well as `--api_key`.
    ("received no value for the required argument:", true),
];

/// A required argument a parser says was not given: its names (an option with its dashes,
/// `--token`; a positional as written, `config-file-path`) and the line. clap's `the following
/// required arguments were not provided:` names them on the indented lines under it (`<CONFIG>`,
/// `--api-key <API_KEY>`).
pub(crate) fn required(lines: &[&str]) -> Option<(Vec<String>, String)> {
    for (i, line) in lines.iter().enumerate() {
        let low = line.to_ascii_lowercase();
        if low.contains("the following required arguments were not provided") {
            let names: Vec<String> = lines[i + 1..]
                .iter()
                .take_while(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty())
                .filter_map(|l| {
                    let t = l.trim();
                    let first = t.split_whitespace().next()?;
                    let name = if first.starts_with('-') { first } else { t };
                    Some(name.trim_matches(['<', '>']).to_string())
                })
                .collect();
            if !names.is_empty() {
                return Some((names, line.trim().to_string()));
            }
            continue;
        }
        // A header ending in `:` over an indented block of items (`  - token: Monday API
        // token`), each with the flags that give it (`--token or -t command line argument`).
        if low.contains("required argument")
            && low.contains("missing")
            && low.trim_end().ends_with(':')
        {
            let names = block_items(&lines[i + 1..]);
            if !names.is_empty() {
                return Some((names, line.trim().to_string()));
            }
            continue;
        }
        let Some((at, m, option)) = REQUIRED
            .iter()
            .find_map(|(m, option)| low.find(m).map(|at| (at, *m, *option)))
        else {
            continue;
        };
        let rest = &line[at + m.len()..];
        let rest = if m.ends_with('\'') {
            // The name, up to its closing quote.
            rest.split('\'').next().unwrap_or_default()
        } else {
            rest.split(" not set").next().unwrap_or_default()
        };
        // commander's option is one, its names aliases (`-c, --config <path>`).
        let parts: Vec<&str> = if m == "required option '" {
            vec![rest]
        } else {
            rest.split(',').collect()
        };
        let names: Vec<String> = parts
            .into_iter()
            .map(|n| clean(n.trim()))
            .filter(|n| !n.is_empty())
            .filter_map(|n| {
                // commander's `-c, --config <path>`: the long name, without its value.
                let n = n
                    .split_whitespace()
                    .find(|w| w.starts_with("--"))
                    .unwrap_or(n);
                let n = n.split_whitespace().next()?;
                let bare = n.trim_start_matches('-');
                let ok = !bare.is_empty()
                    && bare.len() <= 60
                    && bare
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
                ok.then(|| {
                    if m.starts_with("received no value") {
                        format!("--{}", n.replace('_', "-"))
                    } else if option && !n.starts_with('-') {
                        format!("--{n}")
                    } else {
                        n.to_string()
                    }
                })
            })
            .collect();
        if !names.is_empty() {
            return Some((names, line.trim().to_string()));
        }
    }
    docopt_required(lines)
}

/// docopt 0.6's `DocoptExit` for arguments no pattern matches: its usage alone (`Usage:` over
/// its indented patterns, nothing else), whose first pattern that is no `--help`'s or
/// `--version`'s requires the options written outside `[...]` (`--api-key=<key>`).
fn docopt_required(lines: &[&str]) -> Option<(Vec<String>, String)> {
    let lines: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let (head, rest) = lines.split_first()?;
    let inline = head.trim().get(6..).filter(|_| {
        head.trim()
            .get(..6)
            .is_some_and(|u| u.eq_ignore_ascii_case("usage:"))
    })?;
    if !rest.iter().all(|l| l.starts_with([' ', '\t'])) {
        return None;
    }
    let pattern = std::iter::once(inline)
        .chain(rest.iter().copied())
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.contains("--help") && !p.contains("--version"))?;
    let mut depth = 0usize;
    let mut outside = String::new();
    for c in pattern.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    // A choice between options (`(--a | --b)`) requires no one of them.
    if outside.contains('|') {
        return None;
    }
    let names: Vec<String> = outside
        .split_whitespace()
        .filter(|t| t.starts_with("--") && t.len() > 3)
        .map(|t| t.split('=').next().unwrap_or(t).to_string())
        .collect();
    (!names.is_empty()).then(|| (names, pattern.to_string()))
}

/// The items of an indented block under a header (`  - token: Monday API token`, then its
/// lines): per item, the first long flag its lines write (`--token`), else its first flag,
/// else its name.
fn block_items(lines: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut item: Option<(String, Vec<String>)> = None;
    let finish = |item: Option<(String, Vec<String>)>, out: &mut Vec<String>| {
        if let Some((name, flags)) = item {
            let pick = flags
                .iter()
                .find(|f| f.starts_with("--"))
                .or(flags.first())
                .cloned()
                .unwrap_or(name);
            if !out.contains(&pick) {
                out.push(pick);
            }
        }
    };
    for l in lines
        .iter()
        .take_while(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty())
    {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
            let name = rest.split([':', ' ']).next().unwrap_or_default();
            let ok = !name.is_empty()
                && name.len() <= 60
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if ok {
                finish(item.take(), &mut out);
                let flags = flags_in(rest.get(name.len()..).unwrap_or_default());
                item = Some((name.to_string(), flags));
                continue;
            }
        }
        if let Some((_, flags)) = item.as_mut() {
            flags.extend(flags_in(t));
        }
    }
    finish(item, &mut out);
    out
}

/// The flags a line writes as words (`--token`, `-t`): a dash, a letter, then letters, digits
/// and dashes.
fn flags_in(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '`' | '\'' | '"' | '(' | ')'))
        .filter(|w| {
            let bare = w.trim_start_matches('-');
            w.starts_with('-')
                && w.len() - bare.len() <= 2
                && bare.starts_with(|c: char| c.is_ascii_alphabetic())
                && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        .map(str::to_string)
        .collect()
}

/// Whether the lines are a help text alone (commander and click print their help and exit
/// when a command is left out): every line is in it, or is a `--help` pointer.
pub(crate) fn help_alone(lines: &[&str], parts: &[Part]) -> bool {
    parts.contains(&Part::Start)
        && lines
            .iter()
            .zip(parts)
            .all(|(l, p)| *p != Part::Outside || l.trim().is_empty() || l.contains("--help"))
}

/// The usage's lines: its usage line and the indented lines that continue it.
fn usage_text(lines: &[&str]) -> Vec<String> {
    let Some(at) = lines.iter().position(|l| help::starts_usage(l)) else {
        return Vec::new();
    };
    let mut out = vec![lines[at].trim().to_string()];
    out.extend(
        lines[at + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t']) && !l.trim_start().starts_with('-'))
            .map(|l| l.trim().to_string()),
    );
    out
}

/// The commands a usage writes as a choice of positionals (argparse's `{serve,search,news}`),
/// not a flag's values (`[--transport {stdio,http}]`).
pub(crate) fn usage_commands(lines: &[&str]) -> Vec<String> {
    let text = usage_text(lines).join(" ");
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let t = w.trim_start_matches('[').trim_end_matches([']', '.']);
        let Some(inner) = t.strip_prefix('{').and_then(|x| x.strip_suffix('}')) else {
            continue;
        };
        let after_flag = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| p.trim_start_matches('[').starts_with('-') && !p.ends_with(']'));
        if after_flag {
            continue;
        }
        let names: Vec<String> = inner
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect();
        if names.len() >= 2 {
            return names;
        }
    }
    Vec::new()
}

/// The flags a usage offers: each indented flag of its listing (`  -address string`, `
/// --api-key <key>  the key`, `  -k, --api-key TEXT`) and each `[--flag ...]` of its usage line.
pub(crate) fn offered_flags(lines: &[&str], parts: &[Part]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |w: &str| {
        let w = w
            .trim_start_matches('[')
            .split(['=', '[', '<', ']'])
            .next()
            .unwrap_or_default()
            .trim_end_matches([',', '.']);
        let ok = w.len() >= 2
            && w.starts_with('-')
            && w.trim_start_matches('-')
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            && !w.trim_start_matches('-').is_empty();
        if ok && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    };
    for (l, p) in lines.iter().zip(parts) {
        match p {
            Part::Start if help::starts_usage(l) => {
                l.split_whitespace()
                    .filter(|w| w.starts_with("[-"))
                    .for_each(&mut push);
            }
            Part::Body if l.trim_start().starts_with('-') => {
                let left = l.trim().split("  ").next().unwrap_or_default();
                left.split([' ', ','])
                    .filter(|w| w.starts_with('-'))
                    .for_each(&mut push);
            }
            _ => {}
        }
    }
    out
}

/// A value outside a flag's choices in the forms [`super::evidence`] does not read itself:
/// click's `Invalid value for '--transport': 'htp' is not one of 'stdio', 'http'.`,
/// commander's `option '--transport <t>' argument 'htp' is invalid. Allowed choices are stdio,
/// http.`, and a message listing the choices after `must be` (`invalid transport type: http.
/// Must be 'stdio', 'sse' or 'streamable-http'`: no argument named; the row ties the value to
/// the entry). The argument and the value given.
pub(crate) fn choice(line: &str) -> Option<(Option<String>, String)> {
    let t = line.trim().trim_matches(['│', ' ']);
    let quoted_after = |from: &str| -> Option<String> {
        let rest = from.trim_start_matches([':', ' ']);
        let q = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        rest[1..].split(q).next().map(str::to_string)
    };
    // click
    if let (Some(v), Some(n)) = (t.find("Invalid value for "), t.find(" is not one of ")) {
        if v < n {
            let argument = quoted_after(&t[v + 18..]);
            let colon = t[v + 18..n].rfind(": ").map(|c| v + 18 + c + 2)?;
            let given = clean(t[colon..n].trim()).to_string();
            return Some((argument, given));
        }
    }
    // commander
    if let (Some(o), Some(a)) = (t.find("option '"), t.find("' is invalid.")) {
        if t.contains("Allowed choices are ") && o < a {
            let argument = t[o + 8..].split([' ', '\'']).next().map(str::to_string);
            let given = t[..a].rsplit('\'').next()?.to_string();
            return Some((argument, given));
        }
    }
    // `must be 'a', 'b' or 'c'`: the word before it is the value, at least two choices.
    let low = t.to_ascii_lowercase();
    let at = low.find("must be ")?;
    if !t[at..].contains(['\'', '"']) || choice_list(t).len() < 2 {
        return None;
    }
    let given = t[..at]
        .split_whitespace()
        .next_back()
        .map(clean)
        .filter(|g| !g.is_empty())?;
    Some((None, given.to_string()))
}

/// The choices a line lists after its marker (argparse's `choose from`, yargs' `Choices:`,
/// click's `is not one of`, commander's `Allowed choices are`, `must be`).
pub(crate) fn choice_list(line: &str) -> Vec<String> {
    const MARKERS: &[&str] = &[
        "choose from",
        "choices: ",
        "is not one of",
        "allowed choices are",
        "must be one of",
        "must be",
    ];
    let low = line.to_ascii_lowercase();
    let Some(at) = MARKERS
        .iter()
        .find_map(|m| low.find(m).map(|a| a + m.len()))
    else {
        return Vec::new();
    };
    let rest = line[at..].split([')', '\n']).next().unwrap_or_default();
    let rest = rest.trim().trim_end_matches(['"', '│', ' ']);
    let quoted = rest.contains('\'') || rest.contains('"');
    let items: Vec<String> = rest
        .split(',')
        .flat_map(|p| p.split(" or "))
        .map(|p| clean(p.trim().trim_start_matches(':').trim()))
        .filter(|p| {
            !p.is_empty()
                && p.len() <= 40
                && !p.contains(' ')
                && (!quoted
                    || p.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')))
        })
        .map(str::to_string)
        .collect();
    items
}

/// Lines of a help drawn in boxes (typer's, through rich: `╭─ Commands ───╮`, `│ serve  │`,
/// `╰───╯`) as plain help lines: the box's title a heading, its rows indented.
pub(crate) fn unboxed<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let t = l.as_ref().trim();
            if let Some(top) = t.strip_prefix("╭─") {
                return format!("{}:", top.trim_end_matches(['─', '╮']).trim());
            }
            if t.starts_with('╰') {
                return String::new();
            }
            match t.strip_prefix('│') {
                Some(row) => format!("  {}", row.trim_end_matches('│').trim()),
                None => l.as_ref().to_string(),
            }
        })
        .collect()
}

/// A flag's name for comparing: without its leading dashes and value, lower-cased, without
/// `-` and `_` (Go takes `-url` and `--url` alike; yargs writes `api-kee` and `apiKee`).
pub(crate) fn flag_key(flag: &str) -> String {
    flag.trim_start_matches('-')
        .split('=')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The edit distance of two short names (a suggestion only between close names).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let a: Vec<char> = a.chars().collect();
    // Three rows: two letters swapped (`mpc` for `mcp`) are one edit.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let mut d = (last[j] + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(last[j + 1] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                d = d.min(before[j - 1] + 1);
            }
            row[j + 1] = d;
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

/// The flag of `offered` closest to `flag` (the same name spelt another way, or within one
/// edit for a short name, two for a longer one), if one is.
pub(crate) fn close_flag(flag: &str, offered: &[String]) -> Option<String> {
    let key = flag_key(flag);
    if key.len() < 3 {
        return None;
    }
    let most = if key.len() >= 6 { 2 } else { 1 };
    offered
        .iter()
        .map(|o| (distance(&key, &flag_key(o)), o))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, o)| o.clone())
}

/// The word of `offered` closest to `word` (a command or a choice misspelt: `server` for
/// `serve`, `kube` for `kubeconfig`): within one edit for a short word, two for a longer one,
/// or one of them the other's beginning (at least 3 letters); the nearest, if any.
pub(crate) fn close_word(word: &str, offered: &[String]) -> Option<String> {
    let w = word.to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    let most = if w.len() >= 6 { 2 } else { 1 };
    let near = offered
        .iter()
        .map(|o| (distance(&w, &o.to_ascii_lowercase()), o))
        .filter(|(d, o)| *d <= most && *o != word)
        .min_by_key(|(d, _)| *d)
        .map(|(_, o)| o.clone());
    near.or_else(|| {
        let mut begins = offered.iter().filter(|o| {
            let o = o.to_ascii_lowercase();
            o != w && (o.starts_with(&w) || (o.len() >= 3 && w.starts_with(&o)))
        });
        match (begins.next(), begins.next()) {
            (Some(one), None) => Some(one.clone()),
            _ => None,
        }
    })
}

/// A command whose role is running the server (`serve`, `start`, `stdio`, ...).
pub(crate) fn is_serving_command(c: &str) -> bool {
    matches!(
        c,
        "serve" | "server" | "start" | "run" | "stdio" | "mcp" | "mcp-server" | "run-server"
    )
}

#[cfg(test)]
#[path = "cli_parsers_tests.rs"]
mod tests;
