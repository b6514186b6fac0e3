//! The row about a command that printed its help and exited before its handshake (issue 27): it
//! tells the user about its arguments, it does not log on stdout. Keyed on the help's structure
//! (a usage line with a `Commands:`/`Options:`/`positional arguments` section, argparse's
//! `{a,b}`, click's, typer's and rich's boxes, commander's, yargs', cobra's, clap's and
//! System.CommandLine's shapes), on stdout or stderr, of a launch that ended on its own without
//! a handshake; then on what the package installed (an experiment reading its files):
//!
//! - its help lists a command that serves MCP (named `mcp`, `serve`, `stdio`..., or described
//!   as starting or running an MCP, stdio or server mode) the entry's args lack: add it
//!   (workiq run without `mcp`, github-mcp-server without `stdio`);
//! - else the program is one of several its package installs (npm's `bin`, the console scripts
//!   of the distribution's `entry_points.txt`), and another of them is the server (its name
//!   says `mcp` or `server`): run that one (notebooklm-mcp-cli's `nlm` for `notebooklm-mcp`,
//!   task-master's CLI for `task-master-ai`);
//! - else, a help on stdout: the command wants other arguments, read from its usage.
//!
//! A server that prints a banner or a usage on stdout and then answers is no match (it
//! completed its handshake, or it did not end on its own).

use std::path::{Path, PathBuf};

use super::cli_parsers;
use super::evidence;
use super::launch::ended;
use super::manifest;
use super::model::{cut, Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::{stderr_lines, Key};
use super::table::{Confidence, Id};
use super::words::terms;
use crate::engine::probe::read::help;
use crate::engine::probe::Launch;
use crate::engine::redact::MASK;

/// This row's key (see `structured.rs`).
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const KEY: Key = Key::HelpPrintedAndExited;

/// The answers this row may replace: a help on stdout read as logs, or nothing known. A
/// command left out (`missing-argument`) only by the package's server command.
const REPLACES: &[Id] = &[Id::StdoutLogging, Id::CauseUnknown];

/// The most entries of a `site-packages` folder looked at for `*.dist-info`.
const MAX_SITE_ENTRIES: usize = 4000;

/// The most bytes of an `entry_points.txt` read.
const MAX_ENTRY_POINTS: u64 = 64 * 1024;

/// A help text a launch printed: its lines (boxes unboxed) and the stream it came on.
struct Printed {
    lines: Vec<String>,
    source: Source,
    launches: Vec<u32>,
}

/// Whether `lines` (unboxed) are a help text: a usage line, and a section heading or
/// argparse's `{a,b}` commands.
pub(super) fn is_help(lines: &[&str]) -> bool {
    lines
        .iter()
        .any(|l| help::starts_usage(l) || command_placeholder(l))
        && (lines.iter().any(|l| help::is_heading(l.trim_start()))
            || !cli_parsers::usage_commands(lines).is_empty())
}

/// Whether a line writes the program's command as a placeholder (`Run code-review-graph
/// <command> --help for details`): a banner's usage, without `Usage:`.
fn command_placeholder(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    low.contains("<command>") || low.contains("<subcommand>")
}

/// `lines` without the indent they all share (a banner drawn two columns in): its headings at
/// the margin, as a help's are.
fn dedented(lines: Vec<String>) -> Vec<String> {
    let shared = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    if shared == 0 {
        return lines;
    }
    lines
        .into_iter()
        .map(|l| l.get(shared..).map(str::to_string).unwrap_or_default())
        .collect()
}

/// The help text of the launches that ended on their own before any handshake: stdout's, else
/// stderr's.
fn printed(died: &[&Launch]) -> Option<Printed> {
    let quiet: Vec<&&Launch> = died
        .iter()
        .filter(|l| l.report.connected_at_ms.is_none() && ended(l).is_some())
        .collect();
    let first = quiet.first()?;
    let launches = quiet.iter().map(|l| l.number).collect();
    let out = dedented(cli_parsers::unboxed(&first.report.stdout.head));
    let refs: Vec<&str> = out.iter().map(String::as_str).collect();
    if is_help(&refs) {
        return Some(Printed {
            lines: out,
            source: Source::Stdout,
            launches,
        });
    }
    let err = dedented(cli_parsers::unboxed(&stderr_lines(first)));
    let refs: Vec<&str> = err.iter().map(String::as_str).collect();
    is_help(&refs).then_some(Printed {
        lines: err,
        source: Source::Stderr,
        launches,
    })
}

/// A help's usage, on one line: cobra's and System.CommandLine's `Usage:` alone take the line
/// under it.
fn usage_of(lines: &[&str]) -> String {
    let Some(at) = lines.iter().position(|l| help::starts_usage(l)) else {
        return lines
            .iter()
            .find(|l| command_placeholder(l))
            .map(|l| cut(l))
            .unwrap_or_default();
    };
    let head = lines[at].trim();
    let next = lines[at + 1..]
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim());
    match next {
        Some(n) if head.ends_with(':') || head == "USAGE" => cut(&format!("{head} {n}")),
        _ => cut(head),
    }
}

/// Each command a help lists, with its description (the words after it on its line).
fn described(lines: &[&str]) -> Vec<(String, String)> {
    let names = evidence::commands(lines);
    names
        .into_iter()
        .map(|n| {
            let said = lines
                .iter()
                .find_map(|l| {
                    let t = l.trim();
                    // Its own line: the name first, or after the program's (yargs).
                    let at = t
                        .split_whitespace()
                        .position(|w| w == n)
                        .filter(|at| *at <= 1)?;
                    let rest = t.split_whitespace().skip(at + 1).collect::<Vec<_>>();
                    Some(rest.join(" "))
                })
                .unwrap_or_default();
            (n, said)
        })
        .collect()
}

/// Whether a command's description says it starts the server: `stdio`, or MCP or a server
/// with a verb that runs it (`Start MCP stdio server`, `Run the MCP server`); not one that
/// sets it up (`Configure MCP server for AI tools`).
fn serves_by_description(said: &str) -> bool {
    let words: Vec<String> = said
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .collect();
    let has = |xs: &[&str]| words.iter().any(|w| xs.contains(&w.as_str()));
    has(&["stdio"])
        || (has(&["mcp", "server"])
            && has(&[
                "start", "starts", "run", "runs", "serve", "serves", "launch", "launches",
            ]))
}

/// The command of the help that serves MCP: by its name, else by its description.
fn serving(commands: &[(String, String)]) -> Option<&(String, String)> {
    commands
        .iter()
        .find(|(n, _)| cli_parsers::is_serving_command(n))
        .or_else(|| commands.iter().find(|(_, d)| serves_by_description(d)))
}

/// The programs the package installs (npm's `bin`, the distribution's console scripts), the
/// one run among them, and what was read.
struct Siblings {
    current: String,
    others: Vec<String>,
    /// The folder the programs are in (a venv's `bin`), when they are files there.
    folder: Option<PathBuf>,
    read: String,
}

/// The console scripts of the distribution that installs `program` (a venv's `bin/NAME`): its
/// `*.dist-info/entry_points.txt` in the venv's `site-packages`.
fn python_scripts(program: &Path) -> Option<Siblings> {
    let name = program.file_name()?.to_str()?.to_string();
    let bin = program.parent()?;
    let venv = bin.parent()?;
    let libs = std::fs::read_dir(venv.join("lib")).ok()?;
    for lib in libs.flatten().take(8) {
        let site = lib.path().join("site-packages");
        let Ok(entries) = std::fs::read_dir(&site) else {
            continue;
        };
        for e in entries.flatten().take(MAX_SITE_ENTRIES) {
            let dir = e.path();
            if dir.extension().and_then(|x| x.to_str()) != Some("dist-info") {
                continue;
            }
            let file = dir.join("entry_points.txt");
            let Some(text) = read_small(&file) else {
                continue;
            };
            let scripts = console_scripts(&text);
            if scripts.contains(&name) {
                return Some(Siblings {
                    others: scripts.into_iter().filter(|s| *s != name).collect(),
                    current: name,
                    folder: Some(bin.to_path_buf()),
                    read: file.display().to_string(),
                });
            }
        }
    }
    None
}

fn read_small(file: &Path) -> Option<String> {
    let meta = std::fs::metadata(file).ok()?;
    (meta.is_file() && meta.len() <= MAX_ENTRY_POINTS)
        .then(|| std::fs::read_to_string(file).ok())
        .flatten()
}

/// The names of an `entry_points.txt`'s `[console_scripts]`.
fn console_scripts(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for l in text.lines() {
        let t = l.trim();
        if t.starts_with('[') {
            inside = t == "[console_scripts]";
            continue;
        }
        if let Some((name, _)) = t.split_once('=').filter(|_| inside) {
            let name = name.trim();
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The `bin` names of the Node package the launch runs, and the one run.
fn node_bins(s: &Setting) -> Option<Siblings> {
    let dir = manifest::launched_package(s, None)?;
    let file = dir.join("package.json");
    let v = manifest::read(&file)?;
    let bins = v["bin"].as_object()?;
    let cmd = s.command.as_deref()?;
    let base = cmd.rsplit('/').next().unwrap_or(cmd);
    let current = if bins.contains_key(base) {
        base.to_string()
    } else {
        // `node path/to/cli.js`: the bin whose target is that script.
        let script = s.args.iter().find(|a| !a.starts_with('-'))?;
        bins.iter()
            .find(|(_, t)| {
                t.as_str()
                    .is_some_and(|t| script.ends_with(t.trim_start_matches("./")))
            })
            .map(|(n, _)| n.clone())?
    };
    Some(Siblings {
        others: bins.keys().filter(|k| **k != current).cloned().collect(),
        current,
        folder: None,
        read: file.display().to_string(),
    })
}

/// The package's other program that is its server (its name says `mcp`, else `server`).
fn server_sibling(s: &Setting) -> Option<(Siblings, String)> {
    let cmd = s.command.as_deref().filter(|c| !c.contains(MASK))?;
    let program = manifest::resolve(cmd, s.path.as_deref());
    let sib = program
        .as_deref()
        .and_then(python_scripts)
        .or_else(|| node_bins(s))?;
    let low = |x: &String| x.to_ascii_lowercase();
    // The program run is itself the server's (`srv-mcp` beside `srv-mcp-admin`): no other.
    if ["mcp", "server"]
        .iter()
        .any(|w| low(&sib.current).contains(w))
    {
        return None;
    }
    let pick = sib
        .others
        .iter()
        .find(|o| low(o).contains("mcp"))
        .or_else(|| sib.others.iter().find(|o| low(o).contains("server")))
        .cloned()?;
    Some((sib, pick))
}

/// What to say of the package's other program that is its server: what was read, the
/// summary and the next step.
fn sibling_said(s: &Setting, stream: &str) -> Option<(String, String, String)> {
    let (sib, pick) = server_sibling(s)?;
    let tried = format!(
        "read {}: the package installs {} (this is `{}`)",
        sib.read,
        std::iter::once(&sib.current)
            .chain(&sib.others)
            .map(|x| format!("`{x}`"))
            .collect::<Vec<_>>()
            .join(", "),
        sib.current
    );
    let full = sib
        .folder
        .as_ref()
        .map(|f| f.join(&pick))
        .filter(|f| f.is_file())
        .map(|f| f.display().to_string())
        .unwrap_or_else(|| pick.clone());
    let current = &sib.current;
    Some((
        tried,
        format!("`{current}` is the package's other program (it printed its help on {stream} and exited); its server is `{pick}`"),
        format!("run `{pick}`, the package's server command, not `{current}`: set the entry's `command` to `{full}` (`{current}` printed its help on {stream} and exited before its handshake)"),
    ))
}

/// The row's finding on the launches that died, if their help says what to change, and
/// whether it names a word of the entry's args its serving command should replace.
fn found(died: &[&Launch], s: &Setting, top: Id) -> Option<(Diagnosis, bool)> {
    let p = printed(died)?;
    let refs: Vec<&str> = p.lines.iter().map(String::as_str).collect();
    let commands = described(&refs);
    let usage = usage_of(&refs);
    let stream = p.source.as_str();
    let mut evidence = vec![Evidence {
        launches: p.launches.clone(),
        source: p.source,
        text: usage.clone(),
    }];
    let mut in_place = false;
    let (summary, next) = if let Some((name, said)) =
        serving(&commands).filter(|(n, _)| !s.args.iter().any(|a| a == n))
    {
        // A command left out, named by its name, is the table's and `entry_rows`' answer.
        if top == Id::MissingArgument && cli_parsers::is_serving_command(name) {
            return None;
        }
        // Another of its commands given, or a word of the entry that misspells this one.
        let given = s
            .args
            .iter()
            .find(|a| commands.iter().any(|(n, _)| n == *a))
            .or_else(|| {
                s.args.iter().find(|a| {
                    !a.starts_with('-')
                        && cli_parsers::close_word(a, std::slice::from_ref(name)).is_some()
                })
            });
        let what = if said.is_empty() {
            format!("`{name}`")
        } else {
            format!("`{name}` (\"{}\")", cut(said))
        };
        in_place = given.is_some();
        let edit = match given {
            Some(g) => format!("write `{name}` in place of `{g}` in the entry's args"),
            None => format!("add `{name}` first in the entry's args"),
        };
        evidence.push(Evidence {
            launches: p.launches.clone(),
            source: p.source,
            text: cut(&format!("its help lists `{name}`: {said}")),
        });
        (
            format!("it printed its help on {stream} and exited: its command that serves, `{name}`, is not in the entry's args"),
            format!("{edit}: its help lists {what} to start the server (it printed its help on {stream} and exited before its handshake: no log)"),
        )
    } else if let Some((tried, summary, next)) = sibling_said(s, stream) {
        evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Tried,
            text: tried,
        });
        (summary, next)
    } else if p.source == Source::Stdout && top != Id::MissingArgument {
        let listed = commands
            .iter()
            .take(8)
            .map(|(n, _)| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let offers = if listed.is_empty() {
            String::new()
        } else {
            format!(" (its commands: {listed})")
        };
        (
            "it printed its help on stdout and exited: it wants other arguments".to_string(),
            format!("give the entry's args what its usage asks for{offers}: the command printed its help on stdout and exited before its handshake (\"{usage}\"), which is no log"),
        )
    } else {
        return None;
    };
    evidence.truncate(MAX_EVIDENCE);
    Some((
        Diagnosis {
            id: Id::MissingArgument,
            confidence: Confidence::High,
            summary: terms(&summary, s),
            launches: p.launches,
            evidence,
            next_step: terms(&next, s),
        },
        in_place,
    ))
}

/// `out` with this row's finding first, in place of a help read as logs or of nothing known
/// (`stdout-logging`, `cause-unknown`), or of a command left out when the package's server
/// command is another program.
pub(super) fn lead(out: Vec<Diagnosis>, died: &[&Launch], s: &Setting) -> Vec<Diagnosis> {
    let Some(top) = out.first().map(|d| d.id) else {
        return out;
    };
    if !REPLACES.contains(&top) && top != Id::MissingArgument && top != Id::BadArgument {
        return out;
    }
    let Some((d, in_place)) = found(died, s, top) else {
        return out;
    };
    // A word of the entry the parser refused (`Unrecognized command or argument 'mpc'`) is
    // the one the help's serving command replaces: that answer says what to write.
    if top == Id::BadArgument && !in_place {
        return out;
    }
    let replaced = |x: &Diagnosis| {
        REPLACES.contains(&x.id)
            || x.id == Id::MissingArgument
            || (top == Id::BadArgument && x.id == top)
    };
    std::iter::once(d)
        .chain(out.into_iter().filter(|x| !replaced(x)))
        .collect()
}

#[cfg(test)]
#[path = "help_rows_tests.rs"]
mod tests;
