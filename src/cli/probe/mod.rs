//! `mcpl-doctor probe`: launch a real server (or dial a URL), play the host, give a verdict.
//!
//! - [`args`]: the command line;
//! - [`plan`]: what the arguments and a configuration entry resolve to (target, timings,
//!   redaction, the host's refusals), shared by both runners;
//! - [`stop`]: signals and a closed stdout;
//! - [`one`]: one server (a command, `--url`, `--server ID`), planned as a fleet of one and
//!   written as its detailed report; [`all`]: the entries of a configuration (`--all`,
//!   several `--server`), written as their summary;
//! - [`request`]: what a run is asked and what its writers give back;
//! - [`run`]: the one runner for both: the engine's fleet run, the events, the progress
//!   line, the end-of-run checks, the report's format and the exit status.

pub(crate) mod all;
pub(crate) mod args;
pub(crate) mod one;
pub(crate) mod plan;
pub(crate) mod request;
pub(crate) mod run;
pub(crate) mod stop;

pub(crate) use args::ProbeArgs;

use crate::render::ColorChoice;
use plan::short_redact_warning;

pub(crate) fn run(mut args: ProbeArgs, color: ColorChoice) -> anyhow::Result<u8> {
    args.normalise();
    if let Some(w) = short_redact_warning(&args) {
        crate::say!("{w}");
    }
    if let Some(limit) = crate::engine::process::too_few_file_descriptors() {
        return crate::cli::error::fail(format!(
            "too few file descriptors: the limit is {limit} (ulimit -n), a probe needs at \
             least {}",
            crate::engine::process::MIN_FILE_DESCRIPTORS
        ));
    }
    // Before any thread starts: a keeper that kills every server's group, and what left it,
    // should the probe be SIGKILLed (see engine::process_tree).
    if !crate::engine::process_tree::start_keeper() {
        crate::say!(
            "warning: cannot start the keeper process: should the probe be killed with SIGKILL, \
             a server's grandchildren may be left running"
        );
    }
    let request = if args.all || args.server.len() > 1 {
        all::request(&args)?
    } else {
        one::request(&args)?
    };
    run::run(args, request, color)
}
