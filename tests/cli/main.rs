//! One integration-test binary: drives the real `mcpl-doctor` binary. Modules by subcommand.

mod completions;
mod simulate;
mod support;
