//! mcpl-doctor: shows what an MCP/MCPL server does and what its host's reconnect rule will do
//! about it.
//!
//! `engine` holds the rules and the runners and never prints; `cli` parses arguments and
//! dispatches; `render` draws tables, diagnostics, progress and JSON.

// The library's face is what the binary, the benches and the tests under tests/ use; every
// other item is `pub(crate)` (docs/architecture.md, "The library's face"); the lint below
// flags a `pub` item nothing outside the crate can reach.
#![warn(unreachable_pub)]

// Supported platforms: Linux (built and tested). Other Unix systems (macOS, the BSDs) build the
// same code without the Linux-only calls (child subreaper, parent-death signal, /proc), untested.
// Windows is not supported: servers run in their own process group and are stopped with
// SIGTERM/SIGKILL to the group, as the host stops them, and there is no such thing there.
#[cfg(not(unix))]
compile_error!(
    "mcpl-doctor needs a Unix system (Linux, macOS, BSD): it runs each server in its own process \
     group and stops it with signals, as the host does; Windows has neither"
);

#[cfg(test)]
mod architecture_tests;
pub mod cli;
pub mod engine;
mod exit;
mod render;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use render::terminal::say;

/// The binary's whole body: parse the arguments, run, return the exit code.
pub fn main() -> std::process::ExitCode {
    cli::run(std::env::args_os())
}
