//! The command line: clap definitions, conversion into validated requests, dispatch.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::exit;
use crate::render::ColorChoice;

pub mod check_config;
pub mod completions;
pub mod probe;
pub mod probe_all;
pub mod schema;
pub mod simulate;

/// Shows what an MCP/MCPL server does and what its host will do about it.
#[derive(Debug, Parser)]
#[command(name = "mcpl-doctor", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8).
    #[arg(long, global = true)]
    pub ascii: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what-if tables: attempts, waits, down alerts, status lines and uptime under a
    /// reconnect rule, for any timings and server behaviour.
    Simulate(simulate::SimulateArgs),
    /// Validate host configuration files the way the host reads them (for CI).
    CheckConfig(check_config::CheckConfigArgs),
    /// Launch a real server (or dial its ws:// or http:// URL; or every server of a
    /// configuration at once), speak the host's handshake, measure each connection, relaunch it
    /// under the host's rule, and give a verdict.
    Probe(probe::ProbeArgs),
    /// Print a JSON Schema: `config` for host configuration files (editors use it through
    /// `$schema`), or one of the output documents.
    Schema(schema::SchemaArgs),
    /// Print shell completions generated from this command line's definition.
    Completions(completions::CompletionsArgs),
}

/// Parse `args` and run the command; errors are printed once, on stderr.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    crate::render::strip::set_ascii(cli.ascii);
    let code = match cli.command {
        Command::Simulate(args) => simulate::run(args, cli.color),
        Command::CheckConfig(args) => check_config::run(args, cli.color),
        Command::Probe(args) => probe::run(args, cli.color),
        Command::Schema(args) => schema::run(args),
        Command::Completions(args) => completions::run(args),
    };
    ExitCode::from(code)
}

/// The clap command, for completions and tests.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}
