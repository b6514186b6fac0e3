//! `probe`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use crate::cli::vocab::{parse_positive, parse_timing, EngineArg, FormatArg, PresetArg};
use crate::engine::policy::Preset;
use crate::engine::probe::Protocol;

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("selection").args(["server", "all"])))]
#[command(override_usage = "\
mcpl-doctor probe [OPTIONS] -- <COMMAND>...
       mcpl-doctor probe [OPTIONS] --url <URL> [--token <TOKEN>]
       mcpl-doctor probe [OPTIONS] --config <FILE> <--server <ID>...|--all>")]
#[command(after_help = "\
Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d) and
inf are accepted.

Exit status: 0 the server stayed up (with --all: every server), 1 it flapped or never connected
(with --all: any server did, or the host refuses an entry), 2 usage or launch error, 130
interrupted (Ctrl-C once stops the servers gracefully and prints the report so far; twice kills
them at once), 143 terminated (SIGTERM, likewise), 129 hung up (SIGHUP). A closed stdout (`|
head`) stops the servers and exits 0.

Examples:
  mcpl-doctor probe -- node server.mjs
  mcpl-doctor probe --preset reset-on-handshake --interval 200ms --for 8s -- node server.mjs
  mcpl-doctor probe --until-down --interval 200ms -- ./my-server --stdio
  mcpl-doctor probe --url ws://127.0.0.1:8080/mcpl --token \"$MCPL_TOKEN\"
  mcpl-doctor probe --config mcpl-servers.json --server files
  mcpl-doctor probe --config mcpl-servers.json --all --launches 3")]
pub struct ProbeArgs {
    /// The server's command and arguments, after `--`. With a bare command the server gets the
    /// caller's environment.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,

    /// A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket),
    /// http:// or https:// (modern MCP over HTTP).
    #[arg(short = 'u', long, value_name = "URL", conflicts_with_all = ["command", "config"])]
    pub url: Option<String>,

    /// With an http(s):// URL, the HTTP transport to speak instead of detecting it:
    /// `streamable-http` (MCP 2025-03-26 to 2025-11-25), `sse` (the 2024-11-05 HTTP+SSE
    /// transport) or `stateless` (MCP 2026-07-28).
    #[arg(long, value_name = "ERA", value_parser = ["streamable-http", "sse", "stateless"])]
    pub transport: Option<String>,

    /// The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization:
    /// Bearer`. Never shown in any output.
    #[arg(long, value_name = "TOKEN", requires = "url", conflicts_with_all = ["command", "config"])]
    pub token: Option<String>,

    #[command(flatten)]
    pub header: HeaderArgs,

    /// How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket),
    /// the dial of each request (HTTP).
    #[arg(long, value_name = "DUR", default_value = "15s", value_parser = parse_positive)]
    pub open_timeout: f64,

    /// A host configuration file to take server entries from (with --server or --all); `-`
    /// reads standard input.
    #[arg(
        short = 'c',
        long,
        value_name = "FILE",
        requires = "selection",
        conflicts_with = "command"
    )]
    pub config: Option<PathBuf>,

    /// An entry of --config: its id, or where it is when two share an id (`prod/files` for the
    /// entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it
    /// to probe several entries at once.
    #[arg(short = 's', long, value_name = "ID", requires = "config")]
    pub server: Vec<String>,

    /// Probe every entry of --config at once (disabled entries and policy-only overrides are
    /// skipped, entries the host would refuse are reported and not probed).
    #[arg(short = 'a', long, requires = "config")]
    pub all: bool,

    /// Probe entries the host does not start (`disabled`) too, to debug them.
    #[arg(long, requires = "config")]
    pub include_disabled: bool,

    /// Which of the host's engines a command speaks to: legacy (MCP 2024-11-05 initialize with
    /// MCPL) or modern (server/discover, 2026-07-28). Default: the entry's `protocol`, else
    /// legacy. A URL's scheme decides for itself.
    #[arg(short = 'e', long, value_enum, conflicts_with_all = ["url", "all"], alias = "protocol")]
    pub engine: Option<EngineArg>,

    /// The host's reconnect rule. Default: with --config, the rule of the file's host
    /// (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting.
    #[arg(
        short = 'p',
        long,
        value_enum,
        value_name = "RULE",
        env = "MCPL_DOCTOR_PRESET"
    )]
    pub preset: Option<PresetArg>,

    /// The backoff's base. Default: the entry's reconnectIntervalMs, else 5 s. With several
    /// entries it applies to all of them.
    #[arg(short = 'i', long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true)]
    pub interval: Option<f64>,

    /// The backoff's ceiling. Default: the entry's reconnectMaxIntervalMs, else 5 min. With
    /// several entries it applies to all of them.
    #[arg(long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true)]
    pub cap: Option<f64>,

    /// Seed for the wait's jitter, to repeat a run's waits. Default: random, printed. With
    /// several servers each uses N plus its entry's position in the file (shown in its report).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Stop after N launches (of each server) [default: 5, or no limit with --for or
    /// --until-down].
    #[arg(short = 'n', long, value_name = "N", alias = "attempts", value_parser = clap::value_parser!(u32).range(1..))]
    pub launches: Option<u32>,

    /// Stop after this long (a pending wait is cut; the planned next launch is reported). With
    /// several servers, one deadline for all.
    #[arg(short = 't', long = "for", value_name = "DUR", value_parser = parse_positive, alias = "span")]
    pub run_for: Option<f64>,

    /// Stop once the host would raise mcpl-down.
    #[arg(long)]
    pub until_down: bool,

    /// Stop when a connection is still up this long after its handshake.
    #[arg(short = 'w', long, value_name = "DUR", default_value = "30s", value_parser = parse_positive)]
    pub watch: f64,

    /// A handshake not completed this long after launch is a failed attempt. Default: 30 s, or
    /// the start budget of the host whose rule the run follows (Claude Code 30 s, Cline,
    /// Copilot CLI and Hermes 60 s).
    #[arg(long, value_name = "DUR", value_parser = parse_positive)]
    pub handshake_timeout: Option<f64>,

    /// How long a launch that is installing its package (npx -y, uvx, pip: seen in its
    /// process tree) may take to its handshake: the host's budget for a first start. Default:
    /// 60 s, or the start budget of the host whose rule the run follows.
    #[arg(long, value_name = "DUR", value_parser = parse_positive)]
    pub start_budget: Option<f64>,

    /// Send a JSON-RPC ping this often while connected.
    #[arg(long, value_name = "DUR", value_parser = parse_positive)]
    pub ping_every: Option<f64>,

    /// A ping unanswered this long ends the connection as "stopped answering".
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_positive)]
    pub ping_timeout: f64,

    /// Stop talking after the handshake: no featureSets/update, tools/list or subscription (for
    /// a server known to misbehave on them).
    #[arg(long)]
    pub handshake_only: bool,

    /// Fail the run (exit 1) on a start warning too: a server that stays up but said at start
    /// that it lacks something (`warning-at-start`, a note by default).
    #[arg(long)]
    pub strict: bool,

    /// After listing the tools, call this one on each connection and report its result
    /// (`--call query='{"sql":"SELECT 1"}'`; `{}` without `=`). Never by default: a tool can
    /// have side effects. A failed call is a finding.
    #[arg(long, value_name = "TOOL[=JSON]", value_parser = parse_call, conflicts_with = "handshake_only")]
    pub call: Option<String>,

    /// A secret to mask in all output (repeatable). The entry's env values and token are masked
    /// anyway.
    #[arg(long, value_name = "VALUE")]
    pub redact: Vec<String>,

    /// Output: human (the report), json (one document with schema_version at the end), events
    /// (JSON lines as things happen, the last one the whole report).
    #[arg(short = 'f', long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human, env = "MCPL_DOCTOR_FORMAT")]
    pub format: FormatArg,

    /// The same as --format json (kept for scripts).
    #[arg(long, hide = true, conflicts_with = "events")]
    pub json: bool,

    /// The same as --format events (kept for scripts).
    #[arg(long, hide = true)]
    pub events: bool,

    /// Also write a self-contained HTML report (timeline, launches, verdict, predictions) to
    /// FILE, to open in a browser or attach to an incident (with --all: every server on one
    /// page).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,

    /// Also write the timeline alone as an SVG picture to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,

    /// Print only the verdict and its Why (with --all: the summary), and no progress line.
    #[arg(short = 'q', long, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Also print a line on stderr for each launch, handshake, end, alert and wait as it
    /// happens (the --format events stream, for a person), terminal or not.
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8).
    #[arg(long)]
    pub ascii: bool,

    #[command(flatten)]
    pub dialect: crate::cli::dialect::DialectArgs,
}

/// `--header`, shared by `probe` and `serve` (both send it to the one `--url` they dial).
#[derive(Debug, Clone, Default, Args)]
pub struct HeaderArgs {
    /// An HTTP header sent on every request with an http(s):// --url, `Name: value`
    /// (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the
    /// shell's history. Values are never shown in any output.
    #[arg(long = "header", value_name = "HEADER", requires = "url", conflicts_with_all = ["command", "config"])]
    pub headers: Vec<String>,
}

/// `--handshake-timeout`'s default when the host has no start budget of its own.
pub(crate) const DEFAULT_HANDSHAKE_TIMEOUT_MS: f64 = 30_000.0;
/// `--start-budget`'s default when the host has no start budget of its own.
pub(crate) const DEFAULT_START_BUDGET_MS: f64 = 60_000.0;

/// Check `--report` and `--svg` before anything is launched: a typo in a path must not cost the
/// run. The error names the file.
pub(crate) fn check_outputs(args: &ProbeArgs) -> anyhow::Result<()> {
    use crate::cli::error::Failure;
    for path in args.report.iter().chain(args.svg.iter()) {
        crate::engine::outfile::check(path).map_err(|e| {
            Failure::new(format!(
                "{}; nothing was launched",
                crate::render::sanitize::sanitize(&e.to_string())
            ))
        })?;
    }
    Ok(())
}

/// Write `--report` and `--svg` for a run; an error names the file.
pub(crate) fn write_pictures(
    args: &ProbeArgs,
    html: &dyn Fn() -> String,
    svg: &dyn Fn() -> String,
) -> anyhow::Result<Written> {
    use crate::cli::error::unwritable;
    use crate::render::picture::report::write_file;
    let mut written = Written::default();
    if let Some(path) = &args.report {
        write_file(path, &html()).map_err(|e| unwritable(&e))?;
        written.add("report", path);
    }
    if let Some(path) = &args.svg {
        write_file(path, &svg()).map_err(|e| unwritable(&e))?;
        written.add("svg", path);
    }
    Ok(written)
}

/// The files a run wrote, named on standard error after its report (`report: r.html`), so
/// that a run says everything it did.
#[derive(Debug, Default)]
pub(crate) struct Written(Vec<(&'static str, String)>);

impl Written {
    pub(crate) fn add(&mut self, what: &'static str, path: &std::path::Path) {
        self.0.push((what, path.display().to_string()));
    }

    /// One line per file, unless `quiet`.
    pub(crate) fn say(&self, quiet: bool) {
        if quiet {
            return;
        }
        for (what, path) in &self.0 {
            crate::render::stderr_text(&format!(
                "{what}: {}\n",
                crate::render::sanitize::sanitize(path)
            ));
        }
    }
}

impl ProbeArgs {
    /// Fold the old spellings (`--json`, `--events`) into `--format`, and `--format` into the
    /// two switches the runners read.
    pub(crate) fn normalise(&mut self) {
        match self.format {
            FormatArg::Json => self.json = true,
            FormatArg::Events => self.events = true,
            FormatArg::Human => {}
        }
        if self.json && self.events {
            self.events = false;
        }
    }

    /// `--handshake-timeout`, else the host's start budget (`host_budget_ms`), else 30 s.
    pub(crate) fn handshake_timeout_ms(&self, host_budget_ms: Option<f64>) -> f64 {
        self.handshake_timeout
            .or(host_budget_ms)
            .unwrap_or(DEFAULT_HANDSHAKE_TIMEOUT_MS)
    }

    /// `--start-budget`, else the host's start budget (`host_budget_ms`), else 60 s.
    pub(crate) fn start_budget_ms(&self, host_budget_ms: Option<f64>) -> f64 {
        self.start_budget
            .or(host_budget_ms)
            .unwrap_or(DEFAULT_START_BUDGET_MS)
    }

    /// The rule `--preset` names, else agent-framework's (`lasting`). With `--config`, an
    /// entry of another host follows that host's rule unless `--preset` is given (see
    /// [`PlanOptions::rule_for`](crate::engine::fleet::PlanOptions::rule_for)).
    pub(crate) fn rule(&self) -> Preset {
        self.preset.map_or(Preset::Lasting, Into::into)
    }
}

impl From<EngineArg> for Protocol {
    fn from(p: EngineArg) -> Protocol {
        match p {
            EngineArg::Legacy => Protocol::Legacy,
            EngineArg::Modern => Protocol::Modern,
        }
    }
}

/// `--call TOOL[=JSON]`, checked (kept as given: the engine reads it again).
fn parse_call(s: &str) -> Result<String, String> {
    crate::engine::probe::opening::ToolCall::parse(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}
