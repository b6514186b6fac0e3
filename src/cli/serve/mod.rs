//! `mcpl-doctor serve`: every selected server supervised continuously as its host would run
//! it (the engine's [`serve`](crate::engine::serve) room, on the probe's own loop), and what it
//! sees served over HTTP for Prometheus.
//!
//! - [`args`]: the command line, and the probe request it becomes;
//! - [`http`]: the listener and its four read-only endpoints.

pub(crate) mod args;
pub(crate) mod http;

use std::sync::Arc;

pub(crate) use args::ServeArgs;

use crate::cli::error::{fail, Failure};
use crate::cli::probe::plan::{attempt_options, plan_options, resolve};
use crate::cli::probe::stop::handle_signals;
use crate::engine::fleet::{self, FleetOptions, HostBudgets, Selection};
use crate::engine::probe::{self, Protocol, StopLevel};
use crate::engine::serve::{self, Board, Entry};
use crate::exit;

pub(crate) fn run(args: ServeArgs) -> anyhow::Result<u8> {
    let probe_args = args.as_probe();
    if let Some(w) = crate::cli::probe::plan::short_redact_warning(&probe_args) {
        crate::say!("{w}");
    }
    if probe_args.config.is_none() && probe_args.url.is_none() && probe_args.command.is_empty() {
        return fail(
            "nothing to serve: give one of\n  \
             mcpl-doctor serve --config FILE [--server ID...]  entries of a host configuration\n  \
             mcpl-doctor serve -- COMMAND [ARGS...]             launch one server\n  \
             mcpl-doctor serve --url URL                        dial one server",
        );
    }
    // Before any thread starts: a keeper that kills every server's group should serve be
    // SIGKILLed (see engine::process_tree).
    if !crate::engine::process_tree::start_keeper() {
        crate::say!(
            "warning: cannot start the keeper process: should serve be killed with SIGKILL, a \
             server's grandchildren may be left running"
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(run_async(args, probe_args))
}

async fn run_async(
    args: ServeArgs,
    probe_args: crate::cli::probe::ProbeArgs,
) -> anyhow::Result<u8> {
    let (stop_handle, stop) = probe::stop_pair();
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let plan = plan_options(&probe_args);
    let base = Arc::new(plan.base_redactor());
    let opts = FleetOptions {
        host_budgets: HostBudgets {
            handshake: args.handshake_timeout.is_none(),
            install: args.start_budget.is_none(),
        },
        seed,
        launches: None,
        run_for: None,
        until_down: false,
        attempt: attempt_options(&probe_args, Protocol::Legacy, base, stop.clone(), None),
    };
    let board = match &args.config {
        Some(file) => {
            let selection = if args.server.is_empty() {
                Selection::All
            } else {
                Selection::Ids(&args.server)
            };
            let items = fleet::select(file, selection, &plan)?;
            serve::board(items, Vec::new(), &opts)
        }
        None => {
            let resolved = resolve(&probe_args)?;
            let host = args
                .dialect
                .host
                .map_or("agent-framework", |h| {
                    crate::engine::config::Host::from(h).name()
                })
                .to_string();
            let one = Entry {
                name: args.single_name(),
                host,
                position: 0,
                resolved,
            };
            serve::board(Vec::new(), vec![one], &opts)
        }
    };
    if board.servers.is_empty() {
        return fail("no entry to supervise: every selected entry is skipped or refused by the host (`mcpl-doctor check-config` says why)");
    }
    // Listen before anything is launched: a port in use costs no launch.
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| Failure::new(format!("cannot listen on {}: {e}", args.listen)))?;
    let addr = listener.local_addr().unwrap_or(args.listen);
    if !addr.ip().is_loopback() {
        crate::say!(
            "warning: listening on {addr}, not a loopback address: anyone who can reach it can \
             read every server's metrics and status page"
        );
    }
    crate::say!(
        "serving {} on http://{addr}/ (/metrics, /probe?server=ID, /healthz)",
        servers_words(&board)
    );
    let board = Arc::new(board);
    let signals = handle_signals(stop_handle, "every server");
    let supervised = tokio::spawn(serve::supervise(board.clone()));
    let shared = Arc::new(http::Shared::new(board.clone(), &args));
    let listening = tokio::spawn(http::serve(listener, shared, stop.clone()));
    stop.reached(StopLevel::Graceful).await;
    let _ = supervised.await;
    listening.abort();
    signals.finish();
    Ok(exit::OK)
}

/// `3 servers (files, weather, db)`, names sanitised for the terminal.
fn servers_words(board: &Board) -> String {
    let names: Vec<String> = board
        .servers
        .iter()
        .map(|s| crate::render::sanitize::sanitize(&s.name))
        .collect();
    match names.len() {
        1 => format!("1 server ({})", names.join(", ")),
        n => format!("{n} servers ({})", names.join(", ")),
    }
}
