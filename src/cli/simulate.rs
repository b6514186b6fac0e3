//! `mcpl-doctor simulate`: what-if tables from the engine's simulator.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::vocab::{
    parse_nonnegative, parse_timing, EngineArg, PresetArg, SimulateFormatArg as FormatArg,
};
use crate::engine::policy::timings::{format_ms, parse_duration_ms};
use crate::engine::policy::{EngineKind, Policy, Preset, Timings};
use crate::engine::schedule::{self, Drive, Request, Scenario, Simulation, DAY_MS};
use crate::exit;
use crate::render::json::simulate as json_view;
use crate::render::text::simulate::{self as view, Run, View};
use crate::render::ColorChoice;

/// The longest span a simulation may cover: 100 years.
const MAX_SPAN_MS: f64 = 100.0 * 365.0 * DAY_MS;

/// The headings of `simulate --help`, in the order they are shown.
const RULE: &str = "The host's rule";
const SERVER: &str = "The server";
const SPAN: &str = "How long";
const OUTPUT: &str = "Output";
const REPORTS: &str = "Reports";

#[derive(Debug, Args)]
#[command(after_help = "\
Durations: a bare number is milliseconds; or 300ms, 5s, 5m, 1d, inf.
Server behaviours (--behaviour): see --help.

Examples:
  mcpl-doctor simulate
  mcpl-doctor simulate --preset lasting --interval 200ms --behaviour dies-after=300ms --launches 12
  mcpl-doctor simulate --compare reset-on-handshake,lasting,bounded,kubernetes --cap 1d --behaviour drops-every=1h --for 30d")]
#[command(after_long_help = "\
Durations: a bare number is milliseconds (as in host configs); humantime (300ms, 5s, 5m, 1d) and \
inf are accepted.

Server behaviours (--behaviour), combined with commas:
  never               every attempt fails before its handshake (fail-after=DUR into it)
  dies-after=DUR      each connection lives DUR, then the server exits
  drops-every=DUR     a healthy server whose connections each last DUR
  lives=D1,D2,...     one lifetime per connection, the last repeats
  healthy             connects and stays up
  startup=DUR         time from launch to completed handshake (with any of the above)
  settle=DUR          time from handshake to a settled policy exchange (as --settle)

Examples:
  mcpl-doctor simulate
  mcpl-doctor simulate --preset lasting --interval 200ms --behaviour dies-after=300ms --launches 12
  mcpl-doctor simulate --compare reset-on-handshake,lasting,bounded,kubernetes --cap 1d --behaviour drops-every=1h --for 30d")]
pub(crate) struct SimulateArgs {
    /// The reconnect rule.
    ///
    /// Without it (and without --compare): reset-on-handshake and lasting side by side.
    #[arg(
        short = 'p',
        long,
        value_enum,
        value_name = "RULE",
        conflicts_with = "compare",
        help_heading = RULE
    )]
    pub preset: Option<PresetArg>,

    /// Several rules side by side, one column each.
    ///
    /// Comma-separated; their summaries only.
    #[arg(long, value_enum, value_name = "R1,R2,...", value_delimiter = ',', help_heading = RULE)]
    pub compare: Vec<PresetArg>,

    /// Which of the host's engines: legacy or modern.
    ///
    /// Alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle
    /// (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the
    /// modern engine clamps).
    #[arg(short = 'e', long, value_enum, default_value_t = EngineArg::Legacy, alias = "protocol", help_heading = RULE)]
    pub engine: EngineArg,

    /// The backoff's base (`reconnectIntervalMs`).
    ///
    /// Default: the rule's own (5 s for the host).
    #[arg(short = 'i', long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub interval: Option<f64>,

    /// The backoff's ceiling (`reconnectMaxIntervalMs`).
    ///
    /// Default: the rule's own (5 min).
    #[arg(long, value_name = "DUR", value_parser = parse_timing, allow_hyphen_values = true, help_heading = RULE)]
    pub cap: Option<f64>,

    /// Seed for the jitter, to repeat a run exactly.
    ///
    /// Default: a random seed, printed.
    #[arg(long, value_name = "N", conflicts_with = "no_jitter", help_heading = RULE)]
    pub seed: Option<u64>,

    /// Nominal waits, no jitter.
    #[arg(long, help_heading = RULE)]
    pub no_jitter: bool,

    /// What the server does (see --help's list).
    ///
    /// Default: dies right after its handshake.
    #[arg(
        short = 'b',
        long,
        value_name = "BEHAVIOUR",
        default_value = "dies-after=0",
        aliases = ["server", "behavior"],
        help_heading = SERVER
    )]
    pub behaviour: Scenario,

    /// With `never`: how long into each attempt it fails.
    #[arg(long, value_name = "DUR", value_parser = parse_nonnegative, help_heading = SERVER)]
    pub fail_after: Option<f64>,

    /// Time from launch to completed handshake.
    #[arg(long, value_name = "DUR", value_parser = parse_nonnegative, help_heading = SERVER)]
    pub startup: Option<f64>,

    /// Time from handshake to a settled policy exchange.
    ///
    /// Legacy engine: a reconnect clears the "down" status line only if the connection is still
    /// up by then [default: 100ms].
    #[arg(long, value_name = "DUR", value_parser = parse_settle, help_heading = SERVER)]
    pub settle: Option<f64>,

    /// Simulate this many launches.
    #[arg(
        short = 'n',
        long,
        value_name = "N",
        conflicts_with = "run_for",
        alias = "attempts",
        value_parser = clap::value_parser!(u64).range(1..),
        help_heading = SPAN
    )]
    pub launches: Option<u64>,

    /// Simulate this much time.
    ///
    /// [default: 1d]
    #[arg(short = 't', long = "for", value_name = "DUR", value_parser = parse_span, alias = "span", help_heading = SPAN)]
    pub run_for: Option<f64>,

    /// How many rows of each rule's schedule to show.
    ///
    /// The summary always covers all.
    #[arg(short = 'r', long, value_name = "N", help_heading = OUTPUT)]
    pub rows: Option<usize>,

    /// Output: human (tables) or json.
    ///
    /// json: one document with schema_version.
    #[arg(short = 'f', long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human, env = "MCPL_DOCTOR_FORMAT", help_heading = OUTPUT)]
    pub format: FormatArg,

    /// Print the summary and the timelines only.
    ///
    /// As --rows 0, and no progress line.
    #[arg(short = 'q', long, conflicts_with = "verbose", help_heading = OUTPUT)]
    pub quiet: bool,

    /// Show up to 100 rows of each rule's schedule.
    ///
    /// As --rows 100; --rows sets another number.
    #[arg(short = 'v', long, help_heading = OUTPUT)]
    pub verbose: bool,

    /// Draw timeline strips in plain ASCII.
    ///
    /// Also with TERM=dumb or a locale that is not UTF-8.
    #[arg(long, help_heading = OUTPUT)]
    pub ascii: bool,

    /// The same as --format json (kept for scripts).
    #[arg(long, hide = true)]
    pub json: bool,

    /// Also write a self-contained HTML report.
    ///
    /// Timelines, schedules, each rule over a day.
    #[arg(long, value_name = "FILE.html", help_heading = REPORTS)]
    pub report: Option<PathBuf>,

    /// Also write the timelines as an SVG picture.
    #[arg(long, value_name = "FILE.svg", help_heading = REPORTS)]
    pub svg: Option<PathBuf>,
}

fn parse_settle(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s).map_err(|e| e.to_string())?;
    super::vocab::note_bare_ms(s, ms);
    if ms >= 0.0 {
        Ok(ms)
    } else {
        Err("must be a duration of 0 or more (inf: never settles)".into())
    }
}

fn parse_span(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s).map_err(|e| e.to_string())?;
    super::vocab::note_bare_ms(s, ms);
    if ms > 0.0 && ms <= MAX_SPAN_MS {
        Ok(ms)
    } else {
        Err("must be more than 0 and at most 100 years".into())
    }
}

pub(crate) fn run(args: SimulateArgs, color: ColorChoice) -> anyhow::Result<u8> {
    let json = wants_json(&args)?;
    let (presets, keep_rows) = rules_and_rows(&args, json);
    let seed = if args.no_jitter {
        None
    } else {
        Some(args.seed.unwrap_or_else(|| fastrand::u64(..1_000_000)))
    };
    let scenario = scenario_of(&args);
    let (span_ms, max_attempts) = match (args.launches, args.run_for) {
        (Some(n), _) => (MAX_SPAN_MS, Some(n)),
        (None, Some(span)) => (span, None),
        (None, None) => (DAY_MS, None),
    };
    check_pictures(&args)?;
    let mut watcher = Watcher::new(
        !json && !args.quiet && std::io::stderr().is_terminal(),
        presets.len(),
        span_ms,
        max_attempts,
    );
    let strip_width = view::strip_width(presets.iter().map(|p| p.name().len()).max().unwrap_or(0));
    let request_for = |policy| Request {
        policy,
        scenario: scenario.clone(),
        max_attempts,
        span_ms,
        seed,
        keep_rows,
        strip_width,
    };
    let runs = simulate_each(&args, &presets, request_for, &mut watcher);
    let not_simulated: Vec<Preset> = presets[runs.len()..].to_vec();
    let view = View {
        runs,
        scenario,
        seed,
        engine: args.engine.into(),
        show_rows: keep_rows > 0,
        explicit_timings: (args.interval, args.cap),
    };
    write_all(&args, &view, &not_simulated, json, color, watcher)
}

/// Whether the output is one JSON document; `--format events` is refused (it is `probe`'s).
fn wants_json(args: &SimulateArgs) -> anyhow::Result<bool> {
    match (args.format, args.json) {
        (FormatArg::Events, _) => super::error::fail(
            "--format events is for `probe` (it reports as things happen); use --format json",
        ),
        (FormatArg::Json, _) | (_, true) => Ok(true),
        (FormatArg::Human, false) => Ok(false),
    }
}

/// The rules to simulate (`--preset`, `--compare`, or the two of agent-framework) and how many
/// rows of each run to keep (`--rows`, else by the rules' number, `--quiet` and `--verbose`).
fn rules_and_rows(args: &SimulateArgs, json: bool) -> (Vec<Preset>, usize) {
    let (presets, rows_default) = match (&args.preset, args.compare.is_empty()) {
        (Some(p), _) => (
            vec![Preset::from(*p)],
            args.launches.map_or(20, |n| n.min(500) as usize),
        ),
        (None, false) => (args.compare.iter().map(|p| Preset::from(*p)).collect(), 0),
        (None, true) => (vec![Preset::Handshake, Preset::Lasting], 10),
    };
    let rows_default = match (args.quiet, args.verbose) {
        (true, _) => 0,
        (_, true) => 100,
        _ => rows_default,
    };
    let keep_rows = if json {
        args.rows.unwrap_or(rows_default.max(20))
    } else {
        args.rows.unwrap_or(rows_default)
    };
    (presets, keep_rows)
}

/// The server's behaviour: `--behaviour` with `--fail-after`, `--startup` and `--settle` on top.
fn scenario_of(args: &SimulateArgs) -> Scenario {
    let mut scenario = args.behaviour.clone();
    if let Some(ms) = args.fail_after {
        scenario.fail_after_ms = ms;
    }
    if let Some(ms) = args.startup {
        scenario.startup_ms = ms;
    }
    if let Some(ms) = args.settle {
        scenario.settle_ms = ms;
    }
    scenario
}

/// One simulation per rule, each with its own default timings under `--interval` and `--cap`
/// (`request_for` makes the rest of the request), until all ran or the user interrupted.
fn simulate_each(
    args: &SimulateArgs,
    presets: &[Preset],
    request_for: impl Fn(Policy) -> Request,
    watcher: &mut Watcher,
) -> Vec<Run> {
    let engine: EngineKind = args.engine.into();
    let mut runs: Vec<Run> = Vec::with_capacity(presets.len());
    for preset in presets {
        if watcher.interrupted() {
            break;
        }
        let defaults = preset.default_timings();
        let timings = Timings {
            interval_ms: args.interval.unwrap_or(defaults.interval_ms),
            cap_ms: args.cap.unwrap_or(defaults.cap_ms),
        };
        let request = request_for(preset.policy_with(engine, timings));
        let simulation = watcher.simulate(preset.name(), &request);
        runs.push(Run {
            preset: *preset,
            simulation,
            request,
        });
    }
    runs
}

/// The pictures (`--report`, `--svg`), then the tables or the JSON, and the exit status: a file
/// that cannot be written fails the run after the tables, never instead of them.
fn write_all(
    args: &SimulateArgs,
    view: &View,
    not_simulated: &[Preset],
    json: bool,
    color: ColorChoice,
    mut watcher: Watcher,
) -> anyhow::Result<u8> {
    let mut pictures = Ok(());
    if (args.report.is_some() || args.svg.is_some()) && !watcher.interrupted() {
        pictures = write_pictures(args, view, &mut watcher);
    }
    watcher.done();
    let interrupted = watcher.interrupted();
    let result = if json {
        json_view::write_json(view)
    } else {
        view::write_text(view, color.for_stdout())
            .and_then(|()| write_interrupted(view, not_simulated))
    };
    pictures?;
    match result {
        Ok(()) if interrupted => Ok(exit::INTERRUPTED),
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) && interrupted => Ok(exit::INTERRUPTED),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => super::error::fail(format!("cannot write the output: {e}")),
    }
}

/// A typo in a `--report` or `--svg` path must not cost the run: the files are checked before
/// anything is simulated.
fn check_pictures(args: &SimulateArgs) -> anyhow::Result<()> {
    for path in args.report.iter().chain(args.svg.iter()) {
        crate::engine::outfile::check(path).map_err(|e| super::error::unwritable(&e))?;
    }
    Ok(())
}

/// `--report` and `--svg`: the runs again with every row kept (up to a bound) and a strip as
/// wide as the picture.
fn write_pictures(args: &SimulateArgs, view: &View, watcher: &mut Watcher) -> anyhow::Result<()> {
    use crate::render::picture::report;
    watcher.again();
    let mut runs = Vec::with_capacity(view.runs.len());
    for r in &view.runs {
        let request = Request {
            keep_rows: report::SIMULATION_ROWS,
            strip_width: report::STRIP_COLUMNS,
            ..r.request.clone()
        };
        let simulation = watcher.simulate(r.preset.name(), &request);
        if watcher.interrupted() {
            // Ctrl-C while drawing: the tables are still written, the pictures are not.
            return Ok(());
        }
        runs.push(Run {
            preset: r.preset,
            simulation,
            request,
        });
    }
    let pictured = View {
        runs,
        scenario: view.scenario.clone(),
        seed: view.seed,
        engine: view.engine,
        show_rows: true,
        explicit_timings: view.explicit_timings,
    };
    let mut written = super::probe::args::Written::default();
    if let Some(path) = &args.report {
        let command = report::command_line(&|t| t.to_string());
        report::write_file(
            path,
            &report::html(&report::simulate_page(&pictured, &command)),
        )
        .map_err(|e| super::error::unwritable(&e))?;
        written.add("report", path);
    }
    if let Some(path) = &args.svg {
        report::write_file(path, &report::simulate_svg(&pictured))
            .map_err(|e| super::error::unwritable(&e))?;
        written.add("svg", path);
    }
    written.say(args.quiet);
    Ok(())
}

/// After Ctrl-C (interrupted runs end early, their figures holding over the time reached): one
/// line per interrupted rule saying over which span its figures hold, and the rules not
/// simulated at all.
fn write_interrupted(view: &View, not_simulated: &[Preset]) -> std::io::Result<()> {
    let mut lines = Vec::new();
    let several = view.runs.len() > 1;
    for run in &view.runs {
        let Some(at) = run.simulation.interrupted_at_ms else {
            continue;
        };
        let whose = if several {
            format!("{}'s figures", run.preset.name())
        } else {
            "these figures".to_string()
        };
        let of = match run.request.max_attempts {
            Some(n) => format!(
                "{} launches of {n} ({} simulated)",
                run.simulation.summary.launches,
                format_ms(at)
            ),
            None => format!("{} of {}", format_ms(at), format_ms(run.request.span_ms)),
        };
        lines.push(format!("interrupted: {whose} hold for the first {of}"));
    }
    if !not_simulated.is_empty() {
        let names: Vec<&str> = not_simulated.iter().map(|p| p.name()).collect();
        lines.push(format!("interrupted: not simulated: {}", names.join(", ")));
    }
    if lines.is_empty() {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    writeln!(out)?;
    for line in lines {
        writeln!(out, "{}", crate::render::text::layout::prose(&line, "  "))?;
    }
    out.flush()
}

/// Ctrl-C while simulating: set by the signal handler, read between launches.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: nix::libc::c_int) {
    if INTERRUPT.swap(true, Ordering::Relaxed) {
        // A second Ctrl-C: leave at once.
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { nix::libc::_exit(i32::from(exit::INTERRUPTED)) }
    }
}

/// Catch Ctrl-C: the run under way stops at its next look (every 2^20 launches), and the
/// command reports what it has so far.
fn catch_interrupt() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
        let action = SigAction::new(
            SigHandler::Handler(on_interrupt),
            SaFlags::SA_RESTART,
            SigSet::empty(),
        );
        // SAFETY: the handler only touches an atomic and calls `_exit`, both
        // async-signal-safe.
        let _ = unsafe { sigaction(Signal::SIGINT, &action) };
    }
}

/// A run expected to take longer than this shows a progress bar (on a terminal).
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Watches the simulations: Ctrl-C, and a progress bar on stderr (a terminal only, never with
/// `--format json`) for a run expected to take over a second.
struct Watcher {
    enabled: bool,
    bar: Option<ProgressBar>,
    started: Instant,
    /// Runs to go through, and those done.
    runs: usize,
    done: usize,
    span_ms: f64,
    max_attempts: Option<u64>,
}

impl Watcher {
    fn new(enabled: bool, runs: usize, span_ms: f64, max_attempts: Option<u64>) -> Watcher {
        catch_interrupt();
        Watcher {
            enabled,
            bar: None,
            started: Instant::now(),
            runs: runs.max(1),
            done: 0,
            span_ms,
            max_attempts,
        }
    }

    fn interrupted(&self) -> bool {
        INTERRUPT.load(Ordering::Relaxed)
    }

    /// The same runs again (the pictures): the bar starts over.
    fn again(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.started = Instant::now();
        self.done = 0;
    }

    fn done(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn simulate(&mut self, name: &str, request: &Request) -> Simulation {
        let mut watch = |t: f64| {
            self.at(name, t);
            !self.interrupted()
        };
        let simulation = schedule::simulate_driven(
            request,
            Drive {
                watch: Some(&mut watch),
                ..Drive::default()
            },
        );
        self.done += 1;
        simulation
    }

    /// Simulated time `t` reached in the current run.
    fn at(&mut self, name: &str, t: f64) {
        if !self.enabled {
            return;
        }
        // Under --launches the end in time is not known: a spinner with the time reached.
        let bounded = self.max_attempts.is_none() && self.span_ms.is_finite();
        let whole = self.span_ms * self.runs as f64;
        let reached = self.span_ms * self.done as f64 + t.max(0.0);
        if self.bar.is_none() {
            let elapsed = self.started.elapsed();
            let expected = if bounded && reached > 0.0 {
                elapsed.as_secs_f64() * whole / reached
            } else {
                elapsed.as_secs_f64()
            };
            if expected <= SHOW_AFTER.as_secs_f64() {
                return;
            }
            self.bar = Some(new_bar(bounded.then_some(whole), self.runs == 1));
        }
        if let Some(bar) = &self.bar {
            let of = if bounded {
                format!(" of {}", format_ms(self.span_ms))
            } else {
                String::new()
            };
            let rule = if self.runs > 1 {
                format!("{name}: ")
            } else {
                String::new()
            };
            // The words first: a new bar's first frame already says how far the run is.
            bar.set_message(format!("{rule}simulated {}{of}", format_ms(t)));
            if bounded {
                bar.set_position(reached as u64);
            } else {
                bar.tick();
            }
        }
    }
}

/// A bar over `len` simulated ms (a spinner without it), on stderr. Within 80 columns: a word
/// on Ctrl-C when one rule runs, the rule's name in the message when several do.
fn new_bar(len: Option<f64>, hint: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(len.map(|l| l as u64), ProgressDrawTarget::stderr());
    let style = match (len, hint) {
        (Some(_), true) => {
            ProgressStyle::with_template("{bar:16} {msg}, ETA {eta} (Ctrl-C: summary so far)")
        }
        (Some(_), false) => ProgressStyle::with_template("{bar:16} {msg}, ETA {eta}"),
        (None, true) => ProgressStyle::with_template("{spinner} {msg} (Ctrl-C: summary so far)"),
        (None, false) => ProgressStyle::with_template("{spinner} {msg}"),
    };
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}
