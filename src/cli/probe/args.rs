//! `probe`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use crate::cli::vocab::{parse_positive, parse_timing, EngineArg, FormatArg, PresetArg};
use crate::engine::policy::Preset;
use crate::engine::probe::Protocol;

/// The examples of `probe -h` and `probe --help` (and the man page's EXAMPLES).
macro_rules! probe_examples {
    () => {
        "Examples:
  mcpl-doctor probe -- node server.mjs
  mcpl-doctor probe --preset reset-on-handshake --interval 200ms --for 8s -- node server.mjs
  mcpl-doctor probe --until-down --interval 200ms -- ./my-server --stdio
  mcpl-doctor probe --url ws://127.0.0.1:8080/mcpl --token \"$MCPL_TOKEN\"
  mcpl-doctor probe --config mcpl-servers.json --server files
  mcpl-doctor probe --config mcpl-servers.json --all --launches 3"
    };
}

/// The headings of `probe --help`, in the order they are shown.
const RUN: &str = "What to run";
const RULE: &str = "The host's rule";
const TIMING: &str = "Timing";
const OUTPUT: &str = "Output";
const REPORTS: &str = "Reports";

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("selection").args(["server", "all"])))]
#[command(override_usage = "\
mcpl-doctor probe [OPTIONS] -- <COMMAND>...
       mcpl-doctor probe [OPTIONS] --url <URL> [--token <TOKEN>]
       mcpl-doctor probe [OPTIONS] --config <FILE> <--server <ID>...|--all>")]
#[command(after_help = concat!("\
Durations: a bare number is milliseconds; or 300ms, 5s, 5m, 1d, inf.

", probe_examples!()))]
#[command(after_long_help = concat!("\
Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d) and \
inf are accepted.

Exit status: 0 the server stayed up (with --all: every server), 1 it flapped or never connected \
(with --all: any server did, or the host refuses an entry), 2 usage or launch error, 130 \
interrupted (Ctrl-C once stops the servers gracefully and prints the report so far; twice kills \
them at once), 143 terminated (SIGTERM, likewise), 129 hung up (SIGHUP). A closed stdout (`| \
head`) stops the servers and exits 0.

", probe_examples!()))]
pub(crate) struct ProbeArgs {
    /// The server's command and arguments, after `--`.
    ///
    /// With a bare command the server gets the caller's environment.
    #[arg(last = true, value_name = "COMMAND", help_heading = RUN)]
    pub command: Vec<OsString>,

    /// A ws:// or http(s):// server to dial instead.
    ///
    /// ws:// or wss://: legacy MCPL over WebSocket; http:// or https://: modern MCP over HTTP.
    #[arg(short = 'u', long, value_name = "URL", conflicts_with_all = ["command", "config"], help_heading = RUN)]
    pub url: Option<String>,

    /// The HTTP transport to speak with an http(s) URL.
    ///
    /// Instead of detecting it: `streamable-http` (MCP 2025-03-26 to 2025-11-25), `sse` (the
    /// 2024-11-05 HTTP+SSE transport) or `stateless` (MCP 2026-07-28).
    #[arg(long, value_name = "ERA", value_parser = ["streamable-http", "sse", "stateless"], help_heading = RUN)]
    pub transport: Option<String>,

    /// The token the host sends with --url (never shown).
    ///
    /// WebSocket `?token=...`, HTTP `Authorization: Bearer`. Never shown in any output.
    #[arg(long, value_name = "TOKEN", requires = "url", conflicts_with_all = ["command", "config"], help_heading = RUN)]
    pub token: Option<String>,

    #[command(flatten, next_help_heading = RUN)]
    pub header: HeaderArgs,

    /// A host configuration file (`-`: standard input).
    ///
    /// The file to take server entries from, with --server or --all. Standard input is read
    /// as agent-framework's file unless --host names its host.
    #[arg(
        short = 'c',
        long,
        value_name = "FILE",
        requires = "selection",
        conflicts_with = "command",
        help_heading = RUN
    )]
    pub config: Option<PathBuf>,

    /// An entry of --config to probe (repeatable).
    ///
    /// Its id, or where it is when two share an id (`prod/files` for the entry under
    /// `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe
    /// several entries at once.
    #[arg(short = 's', long, value_name = "ID", requires = "config", help_heading = RUN)]
    pub server: Vec<String>,

    /// Probe every entry of --config at once.
    ///
    /// Disabled entries and policy-only overrides are skipped; entries the host would refuse are
    /// reported and not probed.
    #[arg(short = 'a', long, requires = "config", help_heading = RUN)]
    pub all: bool,

    /// Probe `disabled` entries too.
    ///
    /// The entries the host does not start, to debug them.
    #[arg(long, requires = "config", help_heading = RUN)]
    pub include_disabled: bool,

    #[command(flatten, next_help_heading = RUN)]
    pub dialect: crate::cli::dialect::DialectArgs,

    /// The handshake a command speaks: legacy or modern.
    ///
    /// Which of the host's engines: legacy (MCP 2024-11-05 initialize with MCPL) or modern
    /// (server/discover, 2026-07-28). Default: the entry's `protocol`, else legacy. A URL's
    /// scheme decides for itself.
    #[arg(short = 'e', long, value_enum, conflicts_with_all = ["url", "all"], alias = "protocol", help_heading = RUN)]
    pub engine: Option<EngineArg>,

    /// Stop talking after the handshake.
    ///
    /// No featureSets/update, tools/list or subscription (for a server known to misbehave on
    /// them).
    #[arg(long, help_heading = RUN)]
    pub handshake_only: bool,

    /// Call this tool on each connection.
    ///
    /// After listing the tools, and report its result (`--call query='{"sql":"SELECT 1"}'`;
    /// `{}` without `=`). Never by default: a tool can have side effects. A failed call is a
    /// finding.
    #[arg(long, value_name = "TOOL[=JSON]", value_parser = parse_call, conflicts_with = "handshake_only", help_heading = RUN)]
    pub call: Option<String>,

    /// The host's reconnect rule.
    ///
    /// Default: with --config, the rule of the file's host (claude-desktop, vscode,
    /// cline-http...: see docs/hosts.md), else lasting.
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
    /// Default: the entry's reconnectIntervalMs, else 5 s. With several entries it applies to
    /// all of them.
    #[arg(short = 'i', long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub interval: Option<f64>,

    /// The backoff's ceiling.
    ///
    /// Default: the entry's reconnectMaxIntervalMs, else 5 min. With several entries it applies
    /// to all of them.
    #[arg(long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub cap: Option<f64>,

    /// Seed for the waits' jitter.
    ///
    /// To repeat a run's waits. Default: random, printed. With several servers each uses N plus
    /// its entry's position in the file (shown in its report).
    #[arg(long, value_name = "N", help_heading = RULE)]
    pub seed: Option<u64>,

    /// Stop after N launches of each server.
    ///
    /// Default: 5, or no limit with --for or --until-down.
    #[arg(short = 'n', long, value_name = "N", alias = "attempts", value_parser = clap::value_parser!(u32).range(1..), help_heading = TIMING)]
    pub launches: Option<u32>,

    /// Stop after this long.
    ///
    /// A pending wait is cut; the planned next launch is reported. With several servers, one
    /// deadline for all.
    #[arg(short = 't', long = "for", value_name = "DUR", value_parser = parse_positive, alias = "span", help_heading = TIMING)]
    pub run_for: Option<f64>,

    /// Stop once the host would raise mcpl-down.
    #[arg(long, help_heading = TIMING)]
    pub until_down: bool,

    /// Stop when a connection is up this long.
    ///
    /// Still up this long after its handshake.
    #[arg(short = 'w', long, value_name = "DUR", default_value = "30s", value_parser = parse_positive, help_heading = TIMING)]
    pub watch: f64,

    /// A handshake slower than this fails the attempt.
    ///
    /// Counted from the launch. Default: 30 s, or the start budget of the host whose rule the
    /// run follows (Claude Code 30 s, Cline, Copilot CLI and Hermes 60 s).
    #[arg(long, value_name = "DUR", value_parser = parse_positive, help_heading = TIMING)]
    pub handshake_timeout: Option<f64>,

    /// The same, for a launch installing its package.
    ///
    /// How long a launch that is installing its package (npx -y, uvx, pip: seen in its process
    /// tree) may take to its handshake: the host's budget for a first start. Default: 60 s, or
    /// the start budget of the host whose rule the run follows.
    #[arg(long, value_name = "DUR", value_parser = parse_positive, help_heading = TIMING)]
    pub start_budget: Option<f64>,

    /// How long opening a connection may take.
    ///
    /// Dial, TLS and WebSocket upgrade (WebSocket), the dial of each request (HTTP).
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

    /// Output: human, json or events.
    ///
    /// human: the report; json: one document with schema_version at the end; events: JSON
    /// lines as things happen, the last one the whole report.
    #[arg(short = 'f', long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human, env = "MCPL_DOCTOR_FORMAT", help_heading = OUTPUT)]
    pub format: FormatArg,

    /// The same as --format json (kept for scripts).
    #[arg(long, hide = true, conflicts_with = "events")]
    pub json: bool,

    /// The same as --format events (kept for scripts).
    #[arg(long, hide = true)]
    pub events: bool,

    /// Print only the verdict and its Why.
    ///
    /// With --all: the summary. No progress line.
    #[arg(short = 'q', long, conflicts_with = "verbose", help_heading = OUTPUT)]
    pub quiet: bool,

    /// Also print a line on stderr for each event.
    ///
    /// Each launch, handshake, end, alert and wait as it happens (the --format events stream,
    /// for a person), terminal or not.
    #[arg(short = 'v', long, help_heading = OUTPUT)]
    pub verbose: bool,

    /// Draw timeline strips in plain ASCII.
    ///
    /// Also with TERM=dumb or a locale that is not UTF-8.
    #[arg(long, help_heading = OUTPUT)]
    pub ascii: bool,

    /// Exit 1 on a start warning too.
    ///
    /// Fail the run on a server that stays up but said at start that it lacks something
    /// (`warning-at-start`, a note by default).
    #[arg(long, help_heading = OUTPUT)]
    pub strict: bool,

    /// A secret to mask in all output (repeatable).
    ///
    /// The entry's env values and token are masked anyway.
    #[arg(long, value_name = "VALUE", help_heading = OUTPUT)]
    pub redact: Vec<String>,

    /// Also write a self-contained HTML report.
    ///
    /// Timeline, launches, verdict, predictions, to open in a browser or attach to an incident
    /// (with --all: every server on one page).
    #[arg(long, value_name = "FILE.html", help_heading = REPORTS)]
    pub report: Option<PathBuf>,

    /// Also write the timeline as an SVG picture.
    #[arg(long, value_name = "FILE.svg", help_heading = REPORTS)]
    pub svg: Option<PathBuf>,
}

/// `--header`, shared by `probe` and `serve` (both send it to the one `--url` they dial).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct HeaderArgs {
    /// An HTTP header: `Name: value` or `@FILE`.
    ///
    /// Repeatable. Sent on every request with an http(s):// --url; `@FILE` reads `Name: value`
    /// lines from a file, keeping the value out of the shell's history. Values are never shown
    /// in any output.
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
