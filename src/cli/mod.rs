//! The command line: clap definitions, conversion into validated requests, dispatch.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::exit;
use crate::render::ColorChoice;

pub(crate) mod check_config;
pub(crate) mod completions;
mod deprecated;
pub(crate) mod dialect;
pub(crate) mod error;
pub mod man;
pub(crate) mod probe;
pub(crate) mod schema;
pub(crate) mod serve;
pub(crate) mod simulate;
pub(crate) mod vocab;

/// Shows what an MCP/MCPL server does and what its host will do about it.
#[derive(Debug, Parser)]
#[command(
    name = "mcpl-doctor",
    version,
    about,
    long_about = None,
    max_term_width = 100,
    after_help = "Examples:
  mcpl-doctor probe -- node server.mjs
  mcpl-doctor probe --config mcp.json --all
  mcpl-doctor check-config .
  mcpl-doctor simulate --preset lasting --behaviour dies-after=300ms

Each subcommand's --help has more examples. The documentation: README.md and docs/ in the \
repository (docs/probe.md, docs/check-config.md, docs/simulate.md, docs/exit-codes.md); the \
man pages: mcpl-doctor man | man -l -"
)]
pub(crate) struct Cli {
    /// When to use colour: auto, always or never.
    ///
    /// auto: on a terminal, unless NO_COLOR is set or TERM is dumb.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for
    /// scripts; the subcommands that draw strips show it).
    #[arg(long, hide = true)]
    pub ascii: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print what-if tables for a reconnect rule.
    ///
    /// Attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any
    /// timings and server behaviour.
    Simulate(simulate::SimulateArgs),
    /// Validate host configuration files (for CI).
    ///
    /// The way the host reads them, for the systems they will run on.
    CheckConfig(check_config::CheckConfigArgs),
    /// Launch a server and judge it under the host's rule.
    ///
    /// Launch a real server (or dial its ws:// or http:// URL; or every server of a
    /// configuration at once), speak the host's handshake, measure each connection, relaunch it
    /// under the host's rule, and give a verdict.
    Probe(Box<probe::ProbeArgs>),
    /// Supervise servers for Prometheus.
    ///
    /// Supervise every server of a configuration continuously as its host would (relaunching
    /// under the host's rule) and serve what it sees to Prometheus: /metrics, /probe,
    /// /healthz and a status page.
    Serve(serve::ServeArgs),
    /// Print a JSON Schema.
    ///
    /// `config` for host configuration files (editors use it through
    /// `$schema`), or one of the output documents.
    Schema(schema::SchemaArgs),
    /// Print shell completions.
    ///
    /// Generated from this command line's definition.
    Completions(completions::CompletionsArgs),
    /// Print a man page.
    ///
    /// Or write them all with --out, from this binary's own definition.
    Man(man::ManArgs),
}

/// Parse `args` and run the command; errors are printed once, on stderr.
pub(crate) fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // `--color` reaches clap's own errors and help too, decided before clap parses it.
    let color = color_in(&args);
    let cmd = if short_help_asked(&args) {
        for_short_help(command())
    } else {
        command()
    };
    let cmd = cmd.color(match color {
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
        ColorChoice::Auto => clap::ColorChoice::Auto,
    });
    let parsed = cmd
        .try_get_matches_from(&args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and version, on stdout: examples kept whole whatever the width.
            let text = e.render();
            let text = if color.for_stdout() {
                text.ansi().to_string()
            } else {
                text.to_string()
            };
            let printed = print_help(&unwrap_examples(&text));
            return ExitCode::from(
                printed.unwrap_or_else(|e| error::report(&e, color.for_stderr())),
            );
        }
        Err(e) => {
            let _ = with_tips(e, &args).print();
            return ExitCode::from(exit::USAGE);
        }
    };
    for note in deprecated::notes(&args) {
        crate::say!("{note}");
    }
    let ascii = cli.ascii
        || match &cli.command {
            Command::Simulate(a) => a.ascii,
            Command::Probe(a) => a.ascii,
            _ => false,
        };
    crate::render::text::strip::set_ascii(ascii);
    let ran = match cli.command {
        Command::Simulate(args) => simulate::run(args, cli.color),
        Command::CheckConfig(args) => check_config::run(args, cli.color),
        Command::Probe(args) => probe::run(*args, cli.color),
        Command::Serve(args) => serve::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    };
    // The one place an error is printed, and its exit status chosen.
    let code = ran.unwrap_or_else(|e| error::report(&e, cli.color.for_stderr()));
    ExitCode::from(code)
}

/// Help or version text on stdout, never a panic: a reader gone (`| head`) ends quietly
/// (exit 0); a closed or full stdout is an error (said by [`error::report`], exit 2).
fn print_help(text: &str) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => error::fail(format!("cannot write to standard output: {e}")),
    }
}

/// Tips clap cannot give: `probe node server.mjs` (the forgotten `--`) gets the command that
/// works.
fn with_tips(mut e: clap::Error, args: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidArg).cloned() else {
        return e;
    };
    let Some(probe_at) = args.iter().position(|a| a == "probe") else {
        return e;
    };
    if bad.starts_with('-') {
        return e;
    }
    let Some(bad_at) = args.iter().skip(probe_at + 1).position(|a| *a == *bad) else {
        return e;
    };
    let bad_at = probe_at + 1 + bad_at;
    let words = |range: &[OsString]| -> Vec<String> {
        range
            .iter()
            .map(|a| crate::render::words::shell_word(&a.to_string_lossy()))
            .collect()
    };
    let mut line = vec!["mcpl-doctor".to_string(), "probe".to_string()];
    line.extend(words(&args[probe_at + 1..bad_at]));
    line.push("--".to_string());
    line.extend(words(&args[bad_at..]));
    e.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![format!(
            "put the server's command after `--`: {}",
            line.join(" ")
        )
        .into()]),
    );
    e
}

/// Whether `args` ask for the short help: a `-h` (alone or in a cluster such as `-qh`) before
/// any `--help` and before `--`. Only the help's look depends on it: the command it selects
/// parses every argument as the full one does.
fn short_help_asked(args: &[OsString]) -> bool {
    for arg in args.iter().skip(1).map(|a| a.to_string_lossy()) {
        if arg == "--" || arg == "--help" {
            return false;
        }
        let cluster = arg
            .strip_prefix('-')
            .filter(|rest| !rest.starts_with('-') && rest.chars().all(|c| c.is_ascii_alphabetic()));
        if cluster.is_some_and(|flags| flags.contains('h')) {
            return true;
        }
    }
    false
}

/// The command as `-h` shows it, one line an option (as ripgrep's `-h`): each option's
/// summary, without the defaults, variables and values that `--help` lists.
pub(crate) fn for_short_help(cmd: clap::Command) -> clap::Command {
    let mut cmd = cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.hide_default_value(true)
                .hide_env(true)
                .hide_possible_values(true)
        } else {
            a
        }
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, for_short_help);
    }
    cmd
}

/// The `--color` given in `args` (the last one before `--`), else auto.
fn color_in(args: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = it.next() {
        let value = match arg.as_ref() {
            "--" => break,
            "--color" => it.next().map(|v| v.into_owned()),
            other => other.strip_prefix("--color=").map(str::to_string),
        };
        match value.as_deref() {
            Some("always") => choice = ColorChoice::Always,
            Some("never") => choice = ColorChoice::Never,
            Some("auto") => choice = ColorChoice::Auto,
            _ => {}
        }
    }
    choice
}

/// Help text with the lines of its `Examples:` section put back together where clap wrapped
/// them: an example is one line, so that copying it works at any terminal width.
pub(crate) fn unwrap_examples(help: &str) -> String {
    let Some(at) = help.find("Examples:\n") else {
        return help.to_string();
    };
    let (before, examples) = help.split_at(at);
    let mut out = before.to_string();
    let mut in_section = true;
    for (i, line) in examples.split('\n').enumerate() {
        if i > 0 {
            let continuation = in_section
                && i > 1
                && !line.trim().is_empty()
                && !line.trim_start().starts_with("mcpl-doctor")
                && line.starts_with("  ");
            if continuation {
                out.push(' ');
                out.push_str(line.trim_start());
                continue;
            }
            if line.trim().is_empty() {
                in_section = false;
            }
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// The clap command, for completions and tests.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}
