//! Drawing `probe`'s results: the live progress line, the launch table, the verdict and
//! predictions, the `--json` document and `--events` lines.
//!
//! Everything here that a server controls (its name, errors, stderr, stdout noise) is already
//! redacted by the engine and is sanitised here before it reaches a terminal. JSON keeps the
//! text but escapes bidi and zero-width characters (`\uXXXX`), so even a JSON document printed
//! on a terminal cannot reorder what it shows.

use std::io::{self, Write};
use std::time::{Duration, SystemTime};

use comfy_table::Table;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::layout::{fitted_table, prose};
use super::{clock, terminal_width};
use super::{sanitize, StopCause};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, Next, Outcome};
use crate::engine::probe::opening::{ChannelFinding, OpeningSummary};
use crate::engine::probe::runner::Finish;
use crate::engine::probe::verdict::{Prediction, Verdict};
use crate::engine::probe::{
    AttemptReport, Event, Family, Launch, ProbeRun, Protocol, ServerInfo, Stopped,
};
use crate::engine::schedule::{Behaviour, Scenario};

/// The JSON document's version; bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// What the report shows besides the run itself.
pub struct Context<'a> {
    /// The target as shown to a person (redacted).
    pub target: &'a str,
    /// The configuration entry probed (`--config FILE --server ID`), if any.
    pub entry: Option<&'a EntryRef>,
    pub protocol: Protocol,
    /// What stopped the run from outside (Ctrl-C, SIGTERM, SIGHUP), if anything did.
    pub interrupted: Option<StopCause>,
    /// The likely causes of the ends, the surest first (empty when nothing died).
    pub why: &'a [Diagnosis],
}

/// A configuration entry, as `--server` names it and where it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct EntryRef {
    /// The id, qualified by the object holding its table where that names a host
    /// (`prod/files`).
    pub id: String,
    /// `file:line:column` of the entry.
    pub at: String,
    /// Its JSON path (`$.hosts.prod.mcplServers.files`).
    pub path: String,
}

// ---------------------------------------------------------------------------------------------
// Live progress line.

/// The progress line on stderr (a terminal only): launch number, state, time to next launch.
/// With several servers, one line each under a [`MultiLive`].
pub struct LiveLine {
    bar: Option<ProgressBar>,
    /// The server's name, padded, before the state (several servers only).
    prefix: String,
    /// Keep the line with its last state when the run finishes (several servers: the others
    /// are still running) instead of removing it.
    keep_when_finished: bool,
    launch: u32,
    attempt: u32,
    state: LiveState,
    bounds: Bounds,
    started: std::time::Instant,
}

/// What the progress line says it waits for, and up to when.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bounds {
    /// `--handshake-timeout`, ms.
    pub handshake_ms: f64,
    /// `--watch`, ms.
    pub watch_ms: f64,
    /// `--for`, ms from the start.
    pub run_for_ms: Option<f64>,
}

enum LiveState {
    Starting,
    Handshaking {
        since: std::time::Instant,
    },
    Connected {
        since: std::time::Instant,
    },
    Waiting {
        until: std::time::Instant,
        next: u32,
    },
    Stopping,
    Finished(String),
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

impl LiveLine {
    /// A progress line, drawn only when `enabled` (stderr is a terminal).
    pub fn new(enabled: bool) -> LiveLine {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(spinner_style());
            bar
        });
        LiveLine {
            bar,
            prefix: String::new(),
            keep_when_finished: false,
            launch: 0,
            attempt: 0,
            state: LiveState::Starting,
            bounds: Bounds::default(),
            started: std::time::Instant::now(),
        }
    }

    /// The bounds the line names while it waits.
    pub fn with_bounds(mut self, bounds: Bounds) -> LiveLine {
        self.bounds = bounds;
        self
    }

    /// One server's line among several, named `name` (padded to `width` characters).
    fn in_multi(multi: Option<&MultiProgress>, name: &str, width: usize) -> LiveLine {
        let bar = multi.map(|m| {
            let bar = m.add(ProgressBar::new_spinner());
            bar.set_style(spinner_style());
            bar
        });
        let name = sanitize(name);
        let pad = width.saturating_sub(name.chars().count());
        LiveLine {
            bar,
            prefix: format!("{name}{}  ", " ".repeat(pad)),
            keep_when_finished: true,
            launch: 0,
            attempt: 0,
            state: LiveState::Starting,
            bounds: Bounds::default(),
            started: std::time::Instant::now(),
        }
    }

    /// Follow an event.
    pub fn on_event(&mut self, event: &Event) {
        if self.bar.is_none() {
            return;
        }
        let now = std::time::Instant::now();
        match event {
            Event::Launched {
                launch, attempt, ..
            } => {
                self.launch = *launch;
                self.attempt = *attempt;
                self.state = LiveState::Handshaking { since: now };
            }
            Event::Connected { .. } => self.state = LiveState::Connected { since: now },
            Event::Waiting {
                next_attempt, wait, ..
            } => {
                self.state = LiveState::Waiting {
                    until: now + duration(wait.ms),
                    next: *next_attempt,
                }
            }
            Event::Ended(_) => self.state = LiveState::Stopping,
            Event::Finished { finish, .. } => {
                if self.keep_when_finished {
                    self.tick();
                    self.state = LiveState::Finished(format!(
                        "done after {} launch{}: {}",
                        self.launch,
                        if self.launch == 1 { "" } else { "es" },
                        finish_words(*finish)
                    ));
                    let msg = self.message();
                    if let Some(bar) = &self.bar {
                        bar.finish_with_message(msg);
                    }
                    return;
                }
                self.clear();
            }
            _ => {}
        }
        self.tick();
    }

    fn message(&self) -> String {
        let now = std::time::Instant::now();
        let head = format!("launch {} (attempt {})", self.launch, self.attempt);
        let bound = |ms: f64, flag: &str| {
            if ms > 0.0 {
                format!("up to {} ({flag})", format_ms(ms))
            } else {
                String::new()
            }
        };
        let msg = match &self.state {
            LiveState::Starting => "starting".to_string(),
            LiveState::Handshaking { since } => format!(
                "{head}: waiting {} for the handshake, {} so far",
                bound(self.bounds.handshake_ms, "--handshake-timeout"),
                format_ms(round_ms(ms(now - *since)))
            ),
            LiveState::Connected { since } => format!(
                "{head}: connected for {}; waiting {} for the connection to end",
                format_ms(round_ms(ms(now - *since))),
                bound(self.bounds.watch_ms, "--watch")
            ),
            LiveState::Waiting { until, next } => format!(
                "{head}: ended; the host's wait before attempt {next}: {} left",
                format_ms(round_ms(ms(until.saturating_duration_since(now))))
            ),
            LiveState::Stopping => format!("{head}: ended"),
            LiveState::Finished(text) => text.clone(),
        };
        let mut msg = msg.replace("waiting  for", "waiting for");
        if let (Some(limit), LiveState::Connected { .. } | LiveState::Waiting { .. }) =
            (self.bounds.run_for_ms, &self.state)
        {
            let left = (limit - ms(now - self.started)).max(0.0);
            msg.push_str(&format!("; --for ends in {}", format_ms(round_ms(left))));
        }
        format!("{}{msg}", self.prefix)
    }

    /// Redraw (call every 100 ms or so).
    pub fn tick(&self) {
        let Some(bar) = &self.bar else {
            return;
        };
        if matches!(self.state, LiveState::Finished(_)) {
            return;
        }
        bar.set_message(self.message());
        bar.tick();
    }

    /// Remove the line (before the report is printed).
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// Why a run finished, in a few words (a progress line).
fn finish_words(f: Finish) -> &'static str {
    match f {
        Finish::Launches(_) => "--launches reached",
        Finish::Deadline => "--for reached",
        Finish::UntilDown => "the host would raise mcpl-down",
        Finish::StillUp => "still up at --watch",
        Finish::Halted => "a permanent failure",
        Finish::GaveUp(_) => "the rule gives up",
        Finish::Interrupted => "interrupted",
    }
}

/// One progress line per server on stderr (a terminal only), under a header line that counts
/// the servers in each state (the terminal may be too short to show every line).
pub struct MultiLive {
    multi: Option<MultiProgress>,
    header: Option<ProgressBar>,
    lines: Vec<std::sync::Mutex<LiveLine>>,
}

impl MultiLive {
    /// Lines for servers named `names`, drawn only when `enabled`, naming `bounds`.
    pub fn new(enabled: bool, names: &[String], bounds: Bounds) -> MultiLive {
        let multi = enabled.then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        let header = multi.as_ref().map(|m| {
            let bar = m.add(ProgressBar::new_spinner());
            bar.set_style(
                ProgressStyle::with_template("{msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let width = names
            .iter()
            .map(|n| sanitize(n).chars().count())
            .max()
            .unwrap_or(0)
            .min(24);
        let lines = names
            .iter()
            .map(|n| {
                std::sync::Mutex::new(
                    LiveLine::in_multi(multi.as_ref(), n, width).with_bounds(bounds),
                )
            })
            .collect();
        let live = MultiLive {
            multi,
            header,
            lines,
        };
        live.draw_header();
        live
    }

    /// Whether anything is drawn.
    pub fn enabled(&self) -> bool {
        self.multi.is_some()
    }

    /// Server `index` reported `event`.
    pub fn on_event(&self, index: usize, event: &Event) {
        if self.multi.is_none() {
            return;
        }
        if let Some(Ok(mut line)) = self.lines.get(index).map(|l| l.lock()) {
            line.on_event(event);
        }
        if matches!(event, Event::Finished { .. } | Event::Launched { .. }) {
            self.draw_header();
        }
    }

    fn draw_header(&self) {
        let Some(header) = &self.header else {
            return;
        };
        let (mut starting, mut handshaking, mut connected, mut waiting, mut done) = (0, 0, 0, 0, 0);
        for line in &self.lines {
            let Ok(l) = line.lock() else { continue };
            match l.state {
                LiveState::Starting => starting += 1,
                LiveState::Handshaking { .. } => handshaking += 1,
                LiveState::Connected { .. } => connected += 1,
                LiveState::Waiting { .. } | LiveState::Stopping => waiting += 1,
                LiveState::Finished(_) => done += 1,
            }
        }
        let mut parts = Vec::new();
        for (n, what) in [
            (starting, "starting"),
            (handshaking, "handshaking"),
            (connected, "connected"),
            (waiting, "between launches"),
            (done, "done"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        header.set_message(format!(
            "probing {} server{}: {}",
            self.lines.len(),
            if self.lines.len() == 1 { "" } else { "s" },
            parts.join(", ")
        ));
    }

    /// Redraw every line (call every 100 ms or so).
    pub fn tick(&self) {
        if self.multi.is_none() {
            return;
        }
        for line in &self.lines {
            if let Ok(l) = line.lock() {
                l.tick();
            }
        }
        self.draw_header();
    }

    /// Remove every line (before the report is printed).
    pub fn clear(&self) {
        for line in &self.lines {
            if let Ok(mut l) = line.lock() {
                l.clear();
            }
        }
        if let Some(h) = &self.header {
            h.finish_and_clear();
        }
        if let Some(m) = &self.multi {
            let _ = m.clear();
        }
    }
}

fn duration(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms.max(0.0) / 1000.0)
        .unwrap_or(Duration::from_secs(u32::MAX.into()))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub(crate) fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

// ---------------------------------------------------------------------------------------------
// JSON.

pub(crate) fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

/// Write the `--json` document.
pub fn write_json(run: &ProbeRun, verdict: &Verdict, ctx: &Context<'_>) -> io::Result<()> {
    super::probe_json::write_pretty(&super::probe_json::ProbeDoc::of(run, verdict, ctx))
}

// ---------------------------------------------------------------------------------------------
// Text.

/// When, since the start: `7.779 s`, `2:05.123`, then `h:mm:ss.mmm`.
pub(crate) fn since_start(ms: f64) -> String {
    if !ms.is_finite() {
        return "-".into();
    }
    if ms < 60_000.0 {
        format!("{:.3} s", ms / 1000.0)
    } else if ms < 3_600_000.0 {
        let total = ms.round() as u64;
        format!(
            "{}:{:02}.{:03}",
            total / 60_000,
            (total / 1000) % 60,
            total % 1000
        )
    } else {
        clock(ms)
    }
}

/// A jitter range in the unit of its upper end: `150-250 ms`, `2.4-4 s`.
pub(crate) fn range(min: f64, max: f64) -> String {
    let whole = format_ms(max);
    let (scale, unit) = if whole.ends_with(" ms") {
        (1.0, " ms")
    } else if whole.ends_with(" s") && !whole.contains("min") {
        (1000.0, " s")
    } else {
        return format!("{}-{}", format_ms(min), whole);
    };
    let short = |v: f64| {
        let t = format!("{:.2}", v / scale);
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{}-{}{unit}", short(min), short(max))
}

fn dash() -> String {
    "-".to_string()
}

/// How an attempt ended, in a table cell.
pub(crate) fn ended_cell(l: &Launch, finish: Finish, by: &str) -> String {
    match l.report.outcome.as_ref() {
        None => {
            if finish == Finish::Interrupted {
                format!("cut ({by})")
            } else {
                "cut (--for)".into()
            }
        }
        Some(Outcome::Connected { ended, .. }) => match ended {
            Ended::Unknown => "closed".into(),
            e => sanitize(&e.to_string()),
        },
        Some(Outcome::StillUp { .. }) => match finish {
            Finish::Deadline => "still up at --for".into(),
            Finish::Interrupted => format!("still up at {by}"),
            _ => "still up at --watch".into(),
        },
        Some(Outcome::FailedToConnect(f)) | Some(Outcome::Permanent(f)) => sanitize(&f.to_string()),
    }
}

pub(crate) fn wait_cell(l: &Launch) -> String {
    match l.decision.map(|d| d.next) {
        Some(Next::Retry { wait, .. }) => {
            if (wait.max_ms - wait.min_ms).abs() < 0.5 {
                format_ms(wait.ms)
            } else {
                let or = wait
                    .or_ms
                    .map(|ms| format!(" or {}", format_ms(ms)))
                    .unwrap_or_default();
                format!(
                    "{}\n({}{or})",
                    format_ms(wait.ms.round()),
                    range(wait.min_ms, wait.max_ms)
                )
            }
        }
        Some(Next::Halt) => "stops reconnecting".into(),
        Some(Next::GiveUp { reason }) => reason.to_string(),
        _ => dash(),
    }
}

pub(crate) fn counted_cell(l: &Launch) -> String {
    use crate::engine::policy::Counted;
    l.decision.map_or_else(dash, |d| {
        match d.counted {
            Counted::Failure => "failure",
            Counted::ShortLived => "short-lived",
            Counted::Lasted => "lasted (count reset)",
            Counted::HandshakeReset => "reset by handshake",
            Counted::Permanent => "permanent failure",
            Counted::StillUp => "still up",
            Counted::Pending => "not decided",
        }
        .to_string()
    })
}

pub(crate) fn server_line(s: &ServerInfo) -> String {
    if s.family.is_none() {
        return if s.supported_versions.is_empty() {
            "refused the handshake".into()
        } else {
            format!(
                "refused the handshake; supports {}",
                sanitize(&s.supported_versions.join(", "))
            )
        };
    }
    let name = match (&s.name, &s.version) {
        (Some(n), Some(v)) => format!("{} {}", sanitize(n), sanitize(v)),
        (Some(n), None) => sanitize(n),
        _ => "(no serverInfo)".into(),
    };
    let family = match (s.family, &s.mcpl_version) {
        (Some(Family::Mcpl), Some(v)) => format!("MCPL {}", sanitize(v)),
        (Some(Family::Mcpl), None) => "MCPL".into(),
        _ => "plain MCP (no MCPL capability)".into(),
    };
    let version = s
        .protocol_version
        .as_ref()
        .map(|v| format!(", protocol {}", sanitize(v)))
        .unwrap_or_default();
    format!("{name}: {family}{version}")
}

pub(crate) fn finish_text(run: &ProbeRun, by: Option<StopCause>) -> String {
    let what = match run.finish {
        Finish::Launches(1) => "after 1 launch (--launches)".into(),
        Finish::Launches(n) => format!("after {n} launches (--launches)"),
        Finish::Deadline => format!(
            "at the --for deadline ({})",
            format_ms(run.elapsed_ms.round())
        ),
        Finish::UntilDown => "once the host would raise mcpl-down (--until-down)".into(),
        Finish::StillUp => match run.launches.last().and_then(|l| l.report.connected_ms()) {
            Some(up) => format!(
                "the connection was still up at the end of --watch ({} after its handshake)",
                format_ms(round_ms(up))
            ),
            None => "the connection was still up at the end of --watch".into(),
        },
        Finish::Halted => "a permanent failure, on which the host stops reconnecting".into(),
        Finish::GaveUp(why) => format!("the rule gives up ({why})"),
        Finish::Interrupted => by.unwrap_or(StopCause::Interrupt).words().into(),
    };
    match run.planned {
        Some(p) => format!(
            "Stopped: {what}; the host would launch attempt {} at {} (after a wait of {}).",
            p.attempt,
            since_start(p.at_ms),
            format_ms(p.wait.ms.round())
        ),
        None => format!("Stopped: {what}."),
    }
}

pub(crate) fn notes(run: &ProbeRun) -> Vec<String> {
    let mut out = Vec::new();
    let mut last_tail: Option<(u32, &Vec<String>)> = None;
    for l in &run.launches {
        let r: &AttemptReport = &l.report;
        if r.stdout.non_json_lines > 0 {
            let sample = r
                .stdout
                .samples
                .first()
                .map(|s| format!(", e.g. \"{}\"", sanitize(s)))
                .unwrap_or_default();
            out.push(format!(
                "launch {}: {} line{} on stdout that {} not JSON-RPC (the host ignores them; log to stderr instead){sample}",
                l.number,
                r.stdout.non_json_lines,
                plural(r.stdout.non_json_lines),
                if r.stdout.non_json_lines == 1 { "is" } else { "are" },
            ));
        }
        if r.misbehaviour.unsent_messages > 0 {
            out.push(format!(
                "launch {}: the server stopped reading what the probe sends: {} message{} (replies, \
                 pings) not sent rather than queued (a host's replies would pile up the same way)",
                l.number,
                r.misbehaviour.unsent_messages,
                plural(r.misbehaviour.unsent_messages),
            ));
        }
        if r.misbehaviour.ws_pings >= crate::engine::probe::PING_FLOOD {
            out.push(format!(
                "launch {}: ping flood: {} WebSocket pings from the server (each owes a pong; at most \
                 one pong is kept waiting for a server that does not read)",
                l.number, r.misbehaviour.ws_pings,
            ));
        }
        if r.stdout.overlong_lines > 0 {
            out.push(format!(
                "launch {}: {} line{} on stdout over {} skipped unread ({} read in all)",
                l.number,
                r.stdout.overlong_lines,
                plural(r.stdout.overlong_lines),
                bytes(crate::engine::probe::stdio::STDOUT_LINE_LIMIT as u64),
                bytes(r.stdout.total_bytes)
            ));
        }
        match r.stopped {
            Stopped::AfterSigkill => out.push(format!(
                "launch {}: ignored SIGTERM for 2 s; SIGKILL ended it",
                l.number
            )),
            Stopped::CouldNotBeReaped => out.push(format!(
                "launch {}: still there 2 s after SIGKILL: could not be reaped",
                l.number
            )),
            _ => {}
        }
        if r.escaped > 0 {
            out.push(format!(
                "launch {}: left {} process{} outside its process group (setsid, setpgid or a \
                 double fork; a host stopping the group would leave {}); the probe stopped {}",
                l.number,
                r.escaped,
                if r.escaped == 1 { "" } else { "es" },
                if r.escaped == 1 {
                    "it running"
                } else {
                    "them running"
                },
                if r.escaped == 1 { "it" } else { "them" },
            ));
        }
        if r.pings_sent > 0 {
            out.push(format!(
                "launch {}: {} ping{} sent, {} answered",
                l.number,
                r.pings_sent,
                plural(u64::from(r.pings_sent)),
                r.pings_answered
            ));
        }
        if !r.stderr.lines.is_empty() {
            match last_tail {
                Some((n, prev)) if *prev == r.stderr.lines => {
                    out.push(format!("launch {}: stderr as launch {n}", l.number));
                }
                _ => {
                    let shown = r.stderr.lines.len() as u64;
                    let mut s = format!(
                        "launch {}: stderr ({}{} line{}, {}):",
                        l.number,
                        if shown < r.stderr.total_lines {
                            format!("last {shown} of ")
                        } else {
                            String::new()
                        },
                        r.stderr.total_lines,
                        plural(r.stderr.total_lines),
                        bytes(r.stderr.total_bytes),
                    );
                    for line in &r.stderr.lines {
                        s.push_str("\n  | ");
                        s.push_str(&sanitize(line));
                    }
                    out.push(s);
                    last_tail = Some((l.number, &r.stderr.lines));
                }
            }
        }
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else if n < 1024 * 1024 * 1024 {
        format!("{:.1} MiB", n as f64 / 1048576.0)
    } else {
        format!("{:.2} GiB", n as f64 / 1073741824.0)
    }
}

pub(crate) fn per_day(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn predictions_table(preds: &[Prediction], color: bool) -> Table {
    let header = [
        "rule",
        "launches a day",
        "first mcpl-down",
        "downs a day",
        "status pairs a day",
        "webhooks a day",
        "connected",
    ];
    let rows: Vec<Vec<String>> = preds
        .iter()
        .map(|p| {
            let first = match (p.first_down_ms, p.first_down_attempt) {
                (Some(ms), Some(a)) => format!("{} (attempt {a})", format_ms(round_ms(ms))),
                (Some(ms), None) => format_ms(round_ms(ms)),
                _ => "never".into(),
            };
            vec![
                super::rule_cell(&p.rule),
                per_day(p.launches_per_day),
                first,
                per_day(p.downs_per_day),
                per_day(p.status_pairs_per_day),
                per_day(p.webhooks_per_day),
                format!("{:.1}%", p.connected_share * 100.0),
            ]
        })
        .collect();
    fitted_table(color, &header, &rows, &[1, 3, 4, 5, 6])
}

/// The text report on stdout: launch table, notes, verdict and predictions.
pub fn write_text(
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    write_text_to(&mut io::stdout().lock(), run, verdict, ctx, color)
}

/// The text report, written to `out`.
pub fn write_text_to(
    out: &mut dyn Write,
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    let threshold = run
        .policy
        .lasting_threshold(0.0)
        .map(|t| format!(", lasting after {}", format_ms(t)))
        .unwrap_or_else(|| ", every handshake resets the count".into());
    let entry = ctx.entry.map_or(String::new(), |e| {
        format!(
            "entry {} ({}, {}): ",
            sanitize(&e.id),
            sanitize(&e.at),
            sanitize(&e.path)
        )
    });
    let head = format!(
        "Probed {entry}{} ({} handshake) under rule {} (interval {}, cap {}{threshold}), seed {}.",
        sanitize(ctx.target),
        ctx.protocol.name(),
        run.policy.name,
        format_ms(run.policy.timings.interval_ms),
        format_ms(run.policy.timings.cap_ms),
        run.seed
    );
    writeln!(out, "{}", prose(&head, "  "))?;
    if let Some(s) = run.launches.iter().find_map(|l| l.report.server.as_ref()) {
        writeln!(
            out,
            "{}",
            prose(&format!("Server: {}", server_line(s)), "  ")
        )?;
    }
    writeln!(out)?;

    writeln!(out, "{}", launch_table(run, ctx, color))?;
    if run.folded.launches > 0 {
        writeln!(out, "{}", prose(&folded_text(&run.folded), "  "))?;
    }
    for l in &run.launches {
        if let Some(alert) = &l.alert {
            writeln!(out, "{}", prose(&alert_line(l, alert), "  "))?;
        }
    }
    writeln!(out, "{}", prose(&finish_text(run, ctx.interrupted), "  "))?;
    let mut notes = notes(run);
    notes.extend(super::opening::notes(
        run,
        &OpeningSummary::of(&run.launches),
    ));
    if !notes.is_empty() {
        writeln!(out)?;
        for n in notes {
            writeln!(out, "{}", prose(&n, "  "))?;
        }
    }
    if !verdict.predictions.is_empty() {
        let replayed = verdict
            .scenario
            .as_ref()
            .map(|s| format!(" ({})", replay_text(s)))
            .unwrap_or_default();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            prose(
                &format!(
                    "What each host rule would do over a day, replaying this behaviour{replayed}:"
                ),
                ""
            )
        )?;
        writeln!(out, "{}", predictions_table(&verdict.predictions, color))?;
    }
    // The timeline strip, then the final block: the verdict, directly followed by its "Why".
    writeln!(out)?;
    super::strip::write_probe(out, run)?;
    writeln!(out)?;
    let findings = OpeningSummary::of(&run.launches).findings;
    writeln!(out, "{}", verdict_line(verdict, &findings, color))?;
    super::why::write_why(out, ctx.why)?;
    out.flush()
}

/// `Verdict: ...`, wrapped to the terminal; on a terminal in bold green (stayed up), red
/// (flapped, never connected, refused) or yellow (nothing to judge, or stayed up with findings
/// about its opening, which the verdict then names).
pub fn verdict_line(verdict: &Verdict, findings: &[ChannelFinding], color: bool) -> String {
    use crate::engine::probe::verdict::Pattern;
    let colour = match verdict.pattern {
        Pattern::StayedUp if findings.is_empty() => 32,
        Pattern::StayedUp | Pattern::Unknown => 33,
        _ => 31,
    };
    let but = if findings.is_empty() {
        String::new()
    } else {
        let ids: Vec<&str> = findings.iter().map(|f| f.id).collect();
        format!(
            " But its opening has {} (above): {}.",
            if ids.len() == 1 {
                "a finding"
            } else {
                "findings"
            },
            ids.join(", ")
        )
    };
    let text = prose(
        &format!("Verdict: {}.{but}", sanitize(&verdict.sentence)),
        "  ",
    );
    text.lines()
        .map(|line| super::paint(color, colour, line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An alert, marked as the host's own words; where its text gives the lifetime in the host's
/// whole seconds (`closed after 0 s` for a 308 ms connection), the measured lifetime too.
fn alert_line(l: &Launch, alert: &str) -> String {
    let lived = match l.report.connected_ms() {
        Some(ms) if alert.contains("closed after") => format!(
            " (the connection lived {}; the host counts whole seconds, rounded down)",
            format_ms(ms.round())
        ),
        _ => String::new(),
    };
    format!(
        "mcpl-down on launch {}, in the host's words: \"{}\"{lived}",
        l.number,
        sanitize(alert)
    )
}

/// Whether the target is dialled (a URL) rather than launched.
fn dialled(ctx: &Context<'_>) -> bool {
    ["ws://", "wss://", "http://", "https://"]
        .iter()
        .any(|s| ctx.target.starts_with(s))
}

/// The launch table. From 110 columns: one column per fact. Narrower: the handshake time over
/// the connection's lifetime in one column, and `mcpl-down` under what the attempt counted as.
fn launch_table(run: &ProbeRun, ctx: &Context<'_>, color: bool) -> Table {
    let started = if dialled(ctx) { "dialled" } else { "launched" };
    let wide = terminal_width() >= 110;
    let header: Vec<&str> = if wide {
        vec![
            "#",
            "attempt",
            started,
            "handshake",
            "connected",
            "ended",
            "counted as",
            "wait",
            "mcpl-down",
            "opening",
        ]
    } else {
        vec![
            "#",
            "attempt",
            started,
            "handshake\nconnected",
            "ended",
            "counted as",
            "wait",
        ]
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (i, l) in run.launches.iter().enumerate() {
        if i == crate::engine::probe::runner::KEEP_FIRST && run.folded.launches > 0 {
            let f = &run.folded;
            let mut row = vec!["…".to_string(), "…".to_string(), String::new()];
            let folded = format!("{} launches folded ({} to {})", f.launches, f.first, f.last);
            let alerts = if f.alerts > 0 {
                format!("raised {}x", f.alerts)
            } else {
                "-".into()
            };
            if wide {
                row.extend([
                    String::new(),
                    String::new(),
                    folded,
                    String::new(),
                    String::new(),
                ]);
                row.push(alerts);
                row.push(String::new());
            } else {
                row.extend([String::new(), folded, String::new(), String::new()]);
            }
            rows.push(row);
        }
        rows.push({
            let r = &l.report;
            let handshake = r.handshake_ms().map_or_else(dash, |h| format_ms(h.round()));
            let connected = r.connected_ms().map_or_else(dash, |c| format_ms(c.round()));
            let mut row = vec![
                l.number.to_string(),
                l.attempt.to_string(),
                since_start(r.launched_at_ms),
            ];
            if wide {
                row.extend([
                    handshake,
                    connected,
                    ended_cell(
                        l,
                        run.finish,
                        ctx.interrupted.unwrap_or(StopCause::Interrupt).short(),
                    ),
                    counted_cell(l),
                    wait_cell(l),
                    if l.alert.is_some() { "raised" } else { "-" }.into(),
                    super::opening::cell(l),
                ]);
            } else {
                let up = if r.handshake_ms().is_none() && r.connected_ms().is_none() {
                    dash()
                } else {
                    format!("{handshake}\n{connected}")
                };
                let counted = if l.alert.is_some() {
                    format!("{}\nmcpl-down", counted_cell(l))
                } else {
                    counted_cell(l)
                };
                // Narrow: the opening's cell under how it ended (`✗ tools/list`, `5 tools`).
                let mut ended = ended_cell(
                    l,
                    run.finish,
                    ctx.interrupted.unwrap_or(StopCause::Interrupt).short(),
                );
                let opening = super::opening::cell(l);
                if opening != "-" {
                    ended.push('\n');
                    ended.push_str(&opening);
                }
                row.extend([up, ended, counted, wait_cell(l)]);
            }
            row
        });
    }
    fitted_table(color, &header, &rows, &[0, 1])
}

/// What the folded launches of a long run did, in one line.
fn folded_text(f: &crate::engine::probe::runner::Folded) -> String {
    let mut what = Vec::new();
    for (n, word) in [
        (f.closed, "connected then closed"),
        (f.still_up, "still up"),
        (f.failed, "never connected"),
        (f.cut, "cut"),
    ] {
        if n > 0 {
            what.push(format!("{n} {word}"));
        }
    }
    let connected = match (f.connected_ms_min, f.connected_ms_max) {
        (Some(lo), Some(hi)) => format!(
            "; connected {} to {} ({} in all)",
            format_ms(lo.round()),
            format_ms(hi.round()),
            format_ms(f.connected_ms_total.round())
        ),
        _ => String::new(),
    };
    let alerts = if f.alerts > 0 {
        format!("; mcpl-down raised on {} of them", f.alerts)
    } else {
        String::new()
    };
    format!(
        "Launches {} to {} are folded to keep the report small ({} launches: {}{connected}{alerts}).",
        f.first,
        f.last,
        f.launches,
        what.join(", ")
    )
}

/// The replayed behaviour in a few words.
pub(crate) fn replay_text(s: &Scenario) -> String {
    let startup = if s.startup_ms > 0.0 {
        format!(
            ", {} from launch to handshake",
            format_ms(round_ms(s.startup_ms))
        )
    } else {
        String::new()
    };
    match &s.behaviour {
        Behaviour::Never => format!(
            "never connecting, each attempt failing after {}",
            format_ms(round_ms(s.fail_after_ms))
        ),
        Behaviour::Healthy => format!("staying up{startup}"),
        Behaviour::Lives(lives) => {
            let finite: Vec<f64> = lives.iter().copied().filter(|l| l.is_finite()).collect();
            let stays = lives.last().is_some_and(|l| l.is_infinite());
            let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = finite.iter().copied().fold(0.0, f64::max);
            let lived = if finite.is_empty() {
                String::new()
            } else if hi - lo < 1.0 {
                format!(
                    "{} connection{} living {}",
                    finite.len(),
                    if finite.len() == 1 { "" } else { "s" },
                    format_ms(round_ms(lo))
                )
            } else {
                format!(
                    "{} connection{} living {} to {}",
                    finite.len(),
                    if finite.len() == 1 { "" } else { "s" },
                    format_ms(round_ms(lo)),
                    format_ms(round_ms(hi))
                )
            };
            let then = if stays {
                "then one staying up"
            } else {
                "the last repeating"
            };
            format!("{lived} as observed, {then}{startup}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Six connections living 308 ms (exit 0) under `lasting` with a 200 ms interval, each
    /// 120 ms from launch to handshake, stopped once the host would raise `mcpl-down`: the
    /// report is the same on every machine.
    fn sample() -> (ProbeRun, Verdict) {
        use crate::engine::policy::{EngineKind, Preset, Timings, Tracker};
        use crate::engine::probe::runner::launch_record;
        let policy = Preset::Lasting.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 200.0,
                cap_ms: 300_000.0,
            },
        );
        let mut tracker = Tracker::new(policy.clone(), Some(1));
        let mut t = 0.0;
        let mut launches = Vec::new();
        for i in 0..6 {
            let outcome = Outcome::Connected {
                lived_ms: 308.0,
                ended: Ended::Exit { code: 0 },
            };
            let ended = t + 120.0 + 308.0;
            let attempt = tracker.attempt();
            let d = tracker.record(t, &outcome, ended);
            let report = AttemptReport {
                launched_at_ms: t,
                launched_at_wall: SystemTime::UNIX_EPOCH,
                pid: None,
                connected_at_ms: Some(t + 120.0),
                server: None,
                ended_at_ms: ended,
                outcome: Some(outcome),
                stopped: Stopped::AlreadyGone,
                pings_sent: 0,
                pings_answered: 0,
                stderr: Default::default(),
                stdout: Default::default(),
                opening: None,
                misbehaviour: Default::default(),
                process: None,
                escaped: 0,
            };
            if let Next::Retry { wait, .. } = d.next {
                t = ended + wait.ms;
            }
            launches.push(launch_record(i + 1, attempt, report, Some(d)));
        }
        let run = ProbeRun {
            policy,
            seed: 1,
            launches,
            finish: Finish::UntilDown,
            planned: None,
            started_wall: SystemTime::UNIX_EPOCH,
            elapsed_ms: t,
            folded: Default::default(),
        };
        let verdict = crate::engine::probe::verdict::judge(
            &run,
            EngineKind::Legacy,
            crate::engine::schedule::DEFAULT_SETTLE_MS,
        );
        (run, verdict)
    }

    fn report_at(width: u16) -> String {
        let (run, verdict) = sample();
        let ctx = Context {
            target: "node server.mjs --exit-after-handshake 300",
            entry: None,
            protocol: Protocol::Legacy,
            interrupted: None,
            why: &[],
        };
        let mut out = Vec::new();
        super::super::with_width(width, || {
            write_text_to(&mut out, &run, &verdict, &ctx, false)
        })
        .expect("render");
        String::from_utf8(out).expect("UTF-8")
    }

    /// Every line within `width`; the verdict last.
    fn check_fits(text: &str, width: usize) {
        for line in text.lines() {
            assert!(
                super::super::layout::width(line) <= width,
                "wider than {width}: {line}"
            );
        }
        let last = text.trim_end().lines().last().unwrap_or_default();
        let verdict_at = text.rfind("Verdict:").expect("a verdict");
        assert!(
            text[verdict_at..].contains(last),
            "the verdict is not last:\n{text}"
        );
    }

    #[test]
    fn report_at_80_columns() {
        let text = report_at(80);
        check_fits(&text, 80);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn report_at_120_columns() {
        let text = report_at(120);
        check_fits(&text, 120);
        insta::assert_snapshot!(text);
    }
}
