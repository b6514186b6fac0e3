//! `serve`'s command line, and the probe request it becomes: `serve` launches every server
//! exactly as `probe` would (the same planning, the same per-attempt options), only without
//! end.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use crate::cli::probe::args::HeaderArgs;
use crate::cli::probe::ProbeArgs;
use crate::cli::vocab::{parse_positive, parse_timing, EngineArg, FormatArg, PresetArg};

/// Where `serve` listens unless `--listen` says otherwise: loopback, the port registered for
/// this exporter's kind (9464 is OpenTelemetry's Prometheus exporter's).
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:9464";

/// The examples of `serve -h` and `serve --help` (and the man page's EXAMPLES).
macro_rules! serve_examples {
    () => {
        "Examples:
  mcpl-doctor serve --config mcpl-servers.json
  mcpl-doctor serve --config mcpl-servers.json --server weather --listen 127.0.0.1:9500
  mcpl-doctor serve --interval 200ms -- node server.mjs"
    };
}

/// The headings of `serve --help`, in the order they are shown.
const WHAT: &str = "What to supervise";
const SERVING: &str = "Serving";
const RULE: &str = "The host's rule";
const TIMING: &str = "Timing";

#[derive(Debug, Args)]
#[command(override_usage = "\
mcpl-doctor serve [OPTIONS] --config <FILE> [--server <ID>...]
       mcpl-doctor serve [OPTIONS] -- <COMMAND>...
       mcpl-doctor serve [OPTIONS] --url <URL> [--token <TOKEN>]")]
#[command(after_help = concat!("\
Endpoints: /metrics, /probe?server=ID, /healthz and / (a status page); more in --help.

", serve_examples!()))]
#[command(after_long_help = concat!("\
Endpoints: /metrics (Prometheus text, or OpenMetrics when Accept asks), /probe?server=ID (one \
bounded probe of a supervised entry, blackbox-exporter style), /healthz, and / (a status page). \
No endpoint starts, stops or reconfigures the supervision.

SIGTERM or Ctrl-C stops every server the host's way (stdin closed, SIGTERM to its group, SIGKILL \
after 2 s) and exits; should serve itself be killed, its keeper ends every server's group.

Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d).

", serve_examples!()))]
pub(crate) struct ServeArgs {
    /// One server's command and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND", help_heading = WHAT)]
    pub command: Vec<OsString>,

    /// One ws:// or http(s):// server to dial instead.
    ///
    /// ws://, wss://, http:// or https://, instead of launching one.
    #[arg(short = 'u', long, value_name = "URL", conflicts_with_all = ["command", "config"], help_heading = WHAT)]
    pub url: Option<String>,

    /// The HTTP transport to speak with an http(s) URL.
    ///
    /// Instead of detecting it.
    #[arg(long, value_name = "ERA", value_parser = ["streamable-http", "sse", "stateless"], help_heading = WHAT)]
    pub transport: Option<String>,

    /// The token the host sends with --url (never shown).
    ///
    /// Never shown in any output.
    #[arg(long, value_name = "TOKEN", requires = "url", conflicts_with_all = ["command", "config"], help_heading = WHAT)]
    pub token: Option<String>,

    #[command(flatten, next_help_heading = WHAT)]
    pub header: HeaderArgs,

    /// A host configuration file to supervise.
    ///
    /// Every entry the host starts, unless --server names some.
    #[arg(short = 'c', long, value_name = "FILE", conflicts_with = "command", help_heading = WHAT)]
    pub config: Option<PathBuf>,

    /// An entry of --config to supervise (repeatable).
    ///
    /// Default: every entry.
    #[arg(short = 's', long, value_name = "ID", requires = "config", help_heading = WHAT)]
    pub server: Vec<String>,

    /// Supervise `disabled` entries too.
    ///
    /// The entries the host does not start.
    #[arg(long, requires = "config", help_heading = WHAT)]
    pub include_disabled: bool,

    /// The metric label for a server given by `--` or --url.
    ///
    /// Default: the program's file name, or the URL's host.
    #[arg(long, value_name = "NAME", conflicts_with = "config", help_heading = WHAT)]
    pub name: Option<String>,

    /// Where to serve HTTP.
    ///
    /// A non-loopback address is used only when given here, and printed.
    #[arg(short = 'l', long, value_name = "ADDR:PORT", default_value = DEFAULT_LISTEN, help_heading = SERVING)]
    pub listen: SocketAddr,

    /// The handshake a command speaks: legacy or modern.
    ///
    /// Default: the entry's, else legacy.
    #[arg(short = 'e', long, value_enum, conflicts_with = "url", help_heading = WHAT)]
    pub engine: Option<EngineArg>,

    /// The host's reconnect rule.
    ///
    /// Default: with --config, the rule of the file's host, else lasting.
    #[arg(
        short = 'p',
        long,
        value_enum,
        value_name = "RULE",
        env = "MCPL_DOCTOR_PRESET",
        help_heading = RULE
    )]
    pub preset: Option<PresetArg>,

    /// The backoff's base.
    ///
    /// Default: the entry's reconnectIntervalMs, else 5 s.
    #[arg(short = 'i', long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub interval: Option<f64>,

    /// The backoff's ceiling.
    ///
    /// Default: the entry's reconnectMaxIntervalMs, else 5 min.
    #[arg(long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub cap: Option<f64>,

    /// Seed for the waits' jitter.
    ///
    /// Each entry adds its position in the file.
    #[arg(long, value_name = "N", help_heading = RULE)]
    pub seed: Option<u64>,

    /// A handshake slower than this fails the attempt.
    ///
    /// Counted from the launch. Default: 30 s, or the host's start budget.
    #[arg(long, value_name = "DUR", value_parser = parse_positive, help_heading = TIMING)]
    pub handshake_timeout: Option<f64>,

    /// The same, for a launch installing its package.
    ///
    /// How long a launch that is installing its package may take to its handshake.
    #[arg(long, value_name = "DUR", value_parser = parse_positive, help_heading = TIMING)]
    pub start_budget: Option<f64>,

    /// How long opening a connection may take.
    ///
    /// WebSocket and HTTP.
    #[arg(long, value_name = "DUR", default_value = "15s", value_parser = parse_positive, help_heading = TIMING)]
    pub open_timeout: f64,

    /// Send a JSON-RPC ping this often while connected.
    #[arg(long, value_name = "DUR", value_parser = parse_positive, help_heading = TIMING)]
    pub ping_every: Option<f64>,

    /// A ping unanswered this long ends the connection.
    ///
    /// As "stopped answering".
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_positive, help_heading = TIMING)]
    pub ping_timeout: f64,

    /// Stop talking after the handshake.
    ///
    /// No featureSets/update, tools/list or subscription.
    #[arg(long, help_heading = WHAT)]
    pub handshake_only: bool,

    /// How long /probe watches a connection.
    ///
    /// After its handshake.
    #[arg(long, value_name = "DUR", default_value = "2s", value_parser = parse_positive, help_heading = TIMING)]
    pub probe_watch: f64,

    /// A secret to mask (repeatable).
    ///
    /// The entry's env values and token are masked anyway.
    #[arg(long, value_name = "VALUE", help_heading = SERVING)]
    pub redact: Vec<String>,

    #[command(flatten, next_help_heading = WHAT)]
    pub dialect: crate::cli::dialect::DialectArgs,
}

impl ServeArgs {
    /// The probe request `serve`'s servers are launched with (planning and per-attempt
    /// options are `probe`'s own; the launch limit, deadline and watch are made endless by
    /// the engine's supervisor).
    pub(crate) fn as_probe(&self) -> ProbeArgs {
        ProbeArgs {
            command: self.command.clone(),
            url: self.url.clone(),
            transport: self.transport.clone(),
            token: self.token.clone(),
            header: self.header.clone(),
            open_timeout: self.open_timeout,
            config: self.config.clone(),
            server: self.server.clone(),
            all: self.config.is_some() && self.server.is_empty(),
            include_disabled: self.include_disabled,
            engine: self.engine,
            preset: self.preset,
            interval: self.interval,
            cap: self.cap,
            seed: self.seed,
            launches: None,
            run_for: None,
            until_down: false,
            watch: f64::INFINITY,
            handshake_timeout: self.handshake_timeout,
            start_budget: self.start_budget,
            ping_every: self.ping_every,
            ping_timeout: self.ping_timeout,
            handshake_only: self.handshake_only,
            strict: false,
            call: None,
            redact: self.redact.clone(),
            format: FormatArg::Human,
            json: false,
            events: false,
            report: None,
            svg: None,
            quiet: true,
            verbose: false,
            ascii: false,
            dialect: self.dialect.clone(),
        }
    }

    /// The label of the one server the command line names.
    pub(crate) fn single_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        if let Some(url) = &self.url {
            return url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_else(|| "server".to_string());
        }
        self.command
            .first()
            .and_then(|c| std::path::Path::new(c).file_name())
            .map_or_else(
                || "server".to_string(),
                |f| f.to_string_lossy().into_owned(),
            )
    }
}
