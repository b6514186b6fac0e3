//! One integration-test binary: drives the real `mcpl-doctor` binary. Modules by subcommand.

mod completions;
mod probe;
mod simulate;
mod support;
