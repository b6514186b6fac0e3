//! One integration-test binary: drives the real `mcpl-doctor` binary. Modules by subcommand.

mod action;
mod check_config;
mod check_config_ci;
mod completions;
mod diagnosis;
mod docs;
mod host_dialects;
mod hostile_files;
mod hostile_io;
mod hostile_kill;
mod hostile_proc;
mod hostile_secrets;
mod opening;
mod packaging;
mod pictures;
mod probe;
mod probe_all;
mod probe_http_eras;
mod probe_ws;
mod readable;
mod schema;
mod simulate;
mod support;
mod surface;
mod vocabulary;
mod widths;
