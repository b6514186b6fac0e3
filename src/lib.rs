//! mcpl-doctor: shows what an MCP/MCPL server does and what its host's reconnect rule will do
//! about it.
//!
//! `engine` holds the rules and the runners and never prints; `cli` parses arguments and
//! dispatches; `render` draws tables, diagnostics, progress and JSON.

pub mod cli;
pub mod engine;
pub mod exit;
pub mod render;
#[doc(hidden)]
pub mod testing;

/// The binary's whole body: parse the arguments, run, return the exit code.
pub fn main() -> std::process::ExitCode {
    cli::run(std::env::args_os())
}
