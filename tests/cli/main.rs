//! One integration-test binary: drives the real `mcpl-doctor` binary. Modules by subcommand.

mod check_config;
mod check_config_ci;
mod completions;
mod hostile_io;
mod hostile_proc;
mod opening;
mod packaging;
mod probe;
mod probe_all;
mod probe_ws;
mod simulate;
mod support;
