//! `mcpl-doctor probe`: launch a real server, play the host, give a verdict.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::engine::policy::timings::parse_duration_ms;
use crate::engine::policy::{Preset, Timings, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS};
use crate::engine::probe::{
    self, verdict, AttemptOptions, Event, Finish, PingOptions, Protocol, RunOptions, StdioTarget,
    StopLevel, Target,
};
use crate::engine::redact::Redactor;
use crate::exit;
use crate::render::probe::{self as view, Context, LiveLine};
use crate::render::ColorChoice;

#[derive(Debug, Args)]
#[command(after_help = "\
Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d).

Exit status: 0 the server stayed up, 1 it flapped or never connected, 2 usage or launch error,
130 interrupted (Ctrl-C once stops the server gracefully and prints the report so far; twice
kills it at once).

Examples:
  mcpl-doctor probe -- node server.mjs
  mcpl-doctor probe --preset handshake --interval 200ms --for 8s -- node server.mjs
  mcpl-doctor probe --until-down --interval 200ms -- ./my-server --stdio
  mcpl-doctor probe --config mcpl-servers.json --server files")]
pub struct ProbeArgs {
    /// The server's command and arguments, after `--`. With a bare command the server gets the
    /// caller's environment.
    #[arg(
        last = true,
        value_name = "COMMAND",
        required_unless_present = "config"
    )]
    pub command: Vec<OsString>,

    /// A host configuration file to take the server entry from (with --server).
    #[arg(
        long,
        value_name = "FILE",
        requires = "server",
        conflicts_with = "command"
    )]
    pub config: Option<PathBuf>,

    /// The entry's id in --config.
    #[arg(long, value_name = "ID", requires = "config")]
    pub server: Option<String>,

    /// The handshake: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover,
    /// 2026-07-28). Default: the entry's `protocol`, else legacy.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,

    /// The host's reconnect rule: handshake (main), lasting (#999), bounded, preceding-wait, or a
    /// peer preset (kubernetes, docker, pm2, supervisord, systemd, mcp-sdk-http).
    #[arg(long, value_name = "PRESET", default_value = "lasting")]
    pub preset: Preset,

    /// The backoff's base. Default: the entry's reconnectIntervalMs, else 5 s.
    #[arg(long, value_name = "DUR", value_parser = parse_duration_ms, allow_hyphen_values = true)]
    pub interval: Option<f64>,

    /// The backoff's ceiling. Default: the entry's reconnectMaxIntervalMs, else 5 min.
    #[arg(long, value_name = "DUR", value_parser = parse_duration_ms, allow_hyphen_values = true)]
    pub cap: Option<f64>,

    /// Seed for the wait's jitter, to repeat a run's waits. Default: random, printed.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Stop after N launches [default: 5, or no limit with --for or --until-down].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub launches: Option<u32>,

    /// Stop after this long (a pending wait is cut; the planned next launch is reported).
    #[arg(long = "for", value_name = "DUR", value_parser = parse_positive)]
    pub run_for: Option<f64>,

    /// Stop once the host would raise mcpl-down.
    #[arg(long)]
    pub until_down: bool,

    /// Stop when a connection is still up this long after its handshake.
    #[arg(long, value_name = "DUR", default_value = "30s", value_parser = parse_positive)]
    pub watch: f64,

    /// A handshake not completed this long after launch is a failed attempt.
    #[arg(long, value_name = "DUR", default_value = "30s", value_parser = parse_positive)]
    pub handshake_timeout: f64,

    /// Send a JSON-RPC ping this often while connected.
    #[arg(long, value_name = "DUR", value_parser = parse_positive)]
    pub ping_every: Option<f64>,

    /// A ping unanswered this long ends the connection as "stopped answering".
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_positive)]
    pub ping_timeout: f64,

    /// A secret to mask in all output (repeatable). The entry's env values and token are masked
    /// anyway.
    #[arg(long, value_name = "VALUE")]
    pub redact: Vec<String>,

    /// One JSON document (with schema_version) at the end instead of the table.
    #[arg(long, conflicts_with = "events")]
    pub json: bool,

    /// JSON lines on stdout as things happen (the last line is the whole report).
    #[arg(long)]
    pub events: bool,
}

/// `--protocol`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolArg {
    Legacy,
    Modern,
}

impl From<ProtocolArg> for Protocol {
    fn from(p: ProtocolArg) -> Protocol {
        match p {
            ProtocolArg::Legacy => Protocol::Legacy,
            ProtocolArg::Modern => Protocol::Modern,
        }
    }
}

fn parse_positive(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s)?;
    if ms > 0.0 {
        Ok(ms)
    } else {
        Err("must be more than 0".into())
    }
}

/// A duration in ms as a `Duration`; infinite (or absurd) is 30 years.
fn duration(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms / 1000.0)
        .unwrap_or(Duration::from_secs(30 * 365 * 86_400))
        .min(Duration::from_secs(30 * 365 * 86_400))
}

/// What the command line resolves to before anything runs.
struct Resolved {
    target: Target,
    protocol: Protocol,
    timings: Timings,
    redactor: Redactor,
}

fn resolve(args: &ProbeArgs) -> Result<Resolved, String> {
    let mut redactor = Redactor::new();
    for r in &args.redact {
        redactor.add(r.clone());
    }
    if args.config.is_some() {
        return Err("--config is not supported yet; give the command after --".into());
    }
    let Some((command, rest)) = args.command.split_first() else {
        return Err("give the server's command after --".into());
    };
    let target = Target::Stdio(StdioTarget {
        command: command.clone(),
        args: rest.to_vec(),
        env: None,
        cwd: None,
    });
    let defaults = if args.preset.is_host_rule() {
        Timings {
            interval_ms: DEFAULT_INTERVAL_MS,
            cap_ms: DEFAULT_CAP_MS,
        }
    } else {
        args.preset.default_timings()
    };
    Ok(Resolved {
        target,
        protocol: args.protocol.map_or(Protocol::Legacy, Protocol::from),
        timings: Timings {
            interval_ms: args.interval.unwrap_or(defaults.interval_ms),
            cap_ms: args.cap.unwrap_or(defaults.cap_ms),
        },
        redactor,
    })
}

pub fn run(args: ProbeArgs, color: ColorChoice) -> u8 {
    let resolved = match resolve(&args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return exit::USAGE;
        }
    };
    runtime.block_on(run_async(args, resolved, color))
}

async fn run_async(args: ProbeArgs, resolved: Resolved, color: ColorChoice) -> u8 {
    let Resolved {
        mut target,
        protocol,
        timings,
        redactor,
    } = resolved;
    let redactor = Arc::new(redactor);
    let policy = args.preset.policy_with(protocol.engine(), timings);
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000));
    let (stop_handle, stop) = probe::stop_pair();
    let launches = match (args.launches, args.run_for, args.until_down) {
        (Some(n), _, _) => Some(n),
        (None, None, false) => Some(5),
        _ => None,
    };
    let target_text = target.describe(&redactor);
    let opts = RunOptions {
        policy,
        seed,
        launches,
        run_for: args.run_for.map(duration),
        until_down: args.until_down,
        attempt: AttemptOptions {
            protocol,
            handshake_timeout: duration(args.handshake_timeout),
            watch: duration(args.watch),
            ping: args.ping_every.map(|every| PingOptions {
                every: duration(every),
                timeout: duration(args.ping_timeout),
            }),
            redactor: redactor.clone(),
            stop: stop.clone(),
            deadline: None,
            epoch: tokio::time::Instant::now(),
        },
        target: target_text.clone(),
    };

    // Ctrl-C (and SIGTERM): the first stops gracefully, the second forces.
    let signals = tokio::spawn(async move {
        #[cfg(unix)]
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        loop {
            #[cfg(unix)]
            let got = match term.as_mut() {
                Some(t) => tokio::select! {
                    r = tokio::signal::ctrl_c() => r.is_ok(),
                    r = t.recv() => r.is_some(),
                },
                None => tokio::signal::ctrl_c().await.is_ok(),
            };
            #[cfg(not(unix))]
            let got = tokio::signal::ctrl_c().await.is_ok();
            if !got {
                break;
            }
            let level = stop_handle.escalate();
            if level == StopLevel::Graceful {
                eprintln!("\nstopping the server (Ctrl-C again to kill it at once)...");
            } else {
                eprintln!("\nkilling the server...");
            }
        }
    });

    let live = std::sync::Mutex::new(LiveLine::new(
        std::io::stderr().is_terminal() && !args.events,
    ));
    let events = args.events;
    let mut broken_pipe = false;
    let mut sink = |e: &Event| {
        if let Ok(mut l) = live.lock() {
            l.on_event(e);
        }
        if events && !broken_pipe {
            let mut out = std::io::stdout().lock();
            if view::write_json_line(&mut out, &view::event_json(e)).is_err() {
                broken_pipe = true;
            }
        }
    };
    let result = {
        let run_fut = probe::run(&mut target, opts, &mut sink);
        tokio::pin!(run_fut);
        let mut ticker = tokio::time::interval(Duration::from_millis(100));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                r = &mut run_fut => break r,
                _ = ticker.tick() => {
                    if let Ok(l) = live.lock() {
                        l.tick();
                    }
                }
            }
        }
    };
    signals.abort();
    if let Ok(mut l) = live.lock() {
        l.clear();
    }

    let run = match result {
        Ok(run) => run,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("hint: check the command after `--` (it runs without a shell, from the current folder)");
            return exit::USAGE;
        }
    };
    let interrupted = run.finish == Finish::Interrupted || stop.level() >= StopLevel::Graceful;
    let verdict = verdict::judge(&run, protocol.engine());
    let ctx = Context {
        target: &target_text,
        protocol,
        interrupted,
    };
    let written = if args.json {
        view::write_json(&run, &verdict, &ctx)
    } else if args.events {
        let mut doc = view::report_json(&run, &verdict, &ctx);
        if let serde_json::Value::Object(m) = &mut doc {
            m.insert("event".into(), serde_json::json!("report"));
        }
        view::write_json_line(&mut std::io::stdout().lock(), &doc)
    } else {
        view::write_text(&run, &verdict, &ctx, color.for_stdout())
    };
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the report: {e}");
            return exit::USAGE;
        }
    }
    if interrupted {
        return exit::INTERRUPTED;
    }
    let judged: Vec<_> = run
        .launches
        .iter()
        .filter_map(|l| l.report.outcome.as_ref())
        .collect();
    let stayed_up = !judged.is_empty()
        && judged
            .iter()
            .all(|o| matches!(o, crate::engine::policy::Outcome::StillUp { .. }));
    if stayed_up {
        exit::OK
    } else {
        exit::FINDINGS
    }
}
