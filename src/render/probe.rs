//! Drawing `probe`'s results: the live progress line, the launch table, the verdict and
//! predictions, the `--json` document and `--events` lines.
//!
//! Everything here that a server controls (its name, errors, stderr, stdout noise) is already
//! redacted by the engine and is sanitised here before it reaches a terminal. JSON keeps the
//! text but escapes bidi and zero-width characters (`\uXXXX`), so even a JSON document printed
//! on a terminal cannot reorder what it shows.

use std::io::{self, Write};
use std::time::{Duration, SystemTime};

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};

use super::sanitize;
use super::simulate::{clock, terminal_width};
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, Next, Outcome, Wait};
use crate::engine::probe::runner::{Finish, Planned};
use crate::engine::probe::verdict::{Prediction, Verdict};
use crate::engine::probe::{
    AttemptReport, Event, Family, Launch, ProbeRun, Protocol, ServerInfo, Stopped,
};

/// The JSON document's version; bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// What the report shows besides the run itself.
pub struct Context<'a> {
    /// The target as shown to a person (redacted).
    pub target: &'a str,
    pub protocol: Protocol,
    pub interrupted: bool,
}

// ---------------------------------------------------------------------------------------------
// Live progress line.

/// The progress line on stderr (a terminal only): launch number, state, time to next launch.
pub struct LiveLine {
    bar: Option<ProgressBar>,
    launch: u32,
    attempt: u32,
    state: LiveState,
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
}

impl LiveLine {
    /// A progress line, drawn only when `enabled` (stderr is a terminal).
    pub fn new(enabled: bool) -> LiveLine {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        LiveLine {
            bar,
            launch: 0,
            attempt: 0,
            state: LiveState::Starting,
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
            Event::Finished { .. } => self.clear(),
            _ => {}
        }
        self.tick();
    }

    /// Redraw (call every 100 ms or so).
    pub fn tick(&self) {
        let Some(bar) = &self.bar else {
            return;
        };
        let now = std::time::Instant::now();
        let head = format!("launch {} (attempt {})", self.launch, self.attempt);
        let msg = match &self.state {
            LiveState::Starting => "starting".to_string(),
            LiveState::Handshaking { since } => format!(
                "{head}: handshaking for {}",
                format_ms(round_ms(ms(now - *since)))
            ),
            LiveState::Connected { since } => format!(
                "{head}: connected for {}",
                format_ms(round_ms(ms(now - *since)))
            ),
            LiveState::Waiting { until, next } => format!(
                "{head}: ended; attempt {next} in {}",
                format_ms(round_ms(ms(until.saturating_duration_since(now))))
            ),
            LiveState::Stopping => format!("{head}: ended"),
        };
        bar.set_message(msg);
        bar.tick();
    }

    /// Remove the line (before the report is printed).
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
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

fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

// ---------------------------------------------------------------------------------------------
// JSON.

/// `text` as JSON would carry it, with bidi, zero-width and C1 control characters escaped as
/// `\uXXXX` (serde_json leaves them as they are). Only valid on serialised JSON, where such
/// characters can only occur inside strings.
pub fn escape_unsafe_json(text: String) -> String {
    if !text.chars().any(needs_json_escape) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if needs_json_escape(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn needs_json_escape(c: char) -> bool {
    let cp = c as u32;
    (0x7f..=0x9f).contains(&cp)
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{061C}'
        )
}

fn num(v: f64) -> Value {
    // JSON has no infinity or NaN: those are null.
    if v.is_finite() {
        json!((v * 1000.0).round() / 1000.0)
    } else {
        Value::Null
    }
}

fn opt_num(v: Option<f64>) -> Value {
    v.map_or(Value::Null, num)
}

fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

fn wait_json(w: &Wait) -> Value {
    json!({
        "ms": num(w.ms),
        "nominal_ms": num(w.nominal_ms),
        "min_ms": num(w.min_ms),
        "max_ms": num(w.max_ms),
    })
}

fn server_json(s: &ServerInfo) -> Value {
    serde_json::to_value(s).unwrap_or(Value::Null)
}

fn ended_json(e: &Ended) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("text".into(), json!(e.to_string()));
    }
    v
}

fn outcome_json(o: Option<&Outcome>) -> Value {
    match o {
        None => json!({"kind": "cut"}),
        Some(Outcome::FailedToConnect(f)) => {
            json!({"kind": "failed-to-connect", "error": f.to_string()})
        }
        Some(Outcome::Permanent(f)) => json!({"kind": "permanent", "error": f.to_string()}),
        Some(Outcome::Connected { lived_ms, ended }) => json!({
            "kind": "connected-then-closed",
            "lived_ms": num(*lived_ms),
            "ended": ended_json(ended),
        }),
        Some(Outcome::StillUp { lived_ms }) => json!({
            "kind": "still-up",
            "lived_ms": num(*lived_ms),
        }),
    }
}

fn stopped_name(s: Stopped) -> &'static str {
    match s {
        Stopped::AlreadyGone => "already-gone",
        Stopped::AfterSigterm => "after-sigterm",
        Stopped::AfterSigkill => "after-sigkill",
        Stopped::Forced => "forced",
        Stopped::CouldNotBeReaped => "could-not-be-reaped",
        Stopped::Closed => "closed",
    }
}

/// One launch as JSON.
pub fn launch_json(l: &Launch) -> Value {
    let r = &l.report;
    let d = l.decision.as_ref();
    let (next_attempt, wait, halt) = match d.map(|d| d.next) {
        Some(Next::Retry { attempt, wait }) => (json!(attempt), wait_json(&wait), Value::Null),
        Some(Next::Halt) => (Value::Null, Value::Null, json!("halt")),
        Some(Next::GiveUp { reason }) => (Value::Null, Value::Null, json!(reason)),
        _ => (Value::Null, Value::Null, Value::Null),
    };
    json!({
        "launch": l.number,
        "attempt": l.attempt,
        "pid": r.pid,
        "launched_at_ms": num(r.launched_at_ms),
        "launched_at": rfc3339(r.launched_at_wall),
        "handshake_ms": opt_num(r.handshake_ms()),
        "connected_at_ms": opt_num(r.connected_at_ms),
        "connected_ms": opt_num(r.connected_ms()),
        "ended_at_ms": num(r.ended_at_ms),
        "outcome": outcome_json(r.outcome.as_ref()),
        "server": r.server.as_ref().map_or(Value::Null, server_json),
        "counted": d.map_or(Value::Null, |d| json!(d.counted)),
        "error": l.error,
        "failures": d.map(|d| d.failures),
        "lasting_threshold_ms": opt_num(d.and_then(|d| d.lasting_threshold_ms)),
        "alert": l.alert,
        "next_attempt": next_attempt,
        "wait": wait,
        "stops_reconnecting": halt,
        "stopped": stopped_name(r.stopped),
        "pings": {"sent": r.pings_sent, "answered": r.pings_answered},
        "stderr": r.stderr,
        "stdout": r.stdout,
    })
}

fn finish_json(f: Finish) -> Value {
    match f {
        Finish::Launches(n) => json!({"reason": "launches", "launches": n}),
        Finish::Deadline => json!({"reason": "for"}),
        Finish::UntilDown => json!({"reason": "until-down"}),
        Finish::StillUp => json!({"reason": "still-up"}),
        Finish::Halted => json!({"reason": "halted"}),
        Finish::GaveUp(why) => json!({"reason": "gave-up", "text": why}),
        Finish::Interrupted => json!({"reason": "interrupted"}),
    }
}

fn planned_json(p: Option<Planned>) -> Value {
    p.map_or(
        Value::Null,
        |p| json!({"attempt": p.attempt, "at_ms": num(p.at_ms), "wait": wait_json(&p.wait)}),
    )
}

fn prediction_json(p: &Prediction) -> Value {
    json!({
        "rule": p.rule,
        "launches_per_day": num(p.launches_per_day),
        "first_down_ms": opt_num(p.first_down_ms),
        "first_down_attempt": p.first_down_attempt,
        "downs_per_day": num(p.downs_per_day),
        "webhooks_per_day": num(p.webhooks_per_day),
        "status_pairs_per_day": num(p.status_pairs_per_day),
        "connected_share": num(p.connected_share),
        "longest_wait_ms": num(p.longest_wait_ms),
        "count_starts_afresh": p.count_starts_afresh,
        "stopped": p.stopped,
    })
}

/// The whole `--json` document.
pub fn report_json(run: &ProbeRun, verdict: &Verdict, ctx: &Context<'_>) -> Value {
    json!({
        "schema_version": SCHEMA_VERSION,
        "command": "probe",
        "target": ctx.target,
        "protocol": ctx.protocol,
        "rule": run.policy.name,
        "timings": {
            "interval_ms": num(run.policy.timings.interval_ms),
            "cap_ms": num(run.policy.timings.cap_ms),
        },
        "seed": run.seed,
        "started_at": rfc3339(run.started_wall),
        "elapsed_ms": num(run.elapsed_ms),
        "interrupted": ctx.interrupted,
        "finish": finish_json(run.finish),
        "planned_next": planned_json(run.planned),
        "launches": run.launches.iter().map(launch_json).collect::<Vec<_>>(),
        "verdict": {
            "pattern": verdict.pattern,
            "text": verdict.sentence,
            "replayed": verdict.scenario.as_ref().map(|s| s.to_string()),
            "predictions": verdict.predictions.iter().map(prediction_json).collect::<Vec<_>>(),
        },
    })
}

/// One `--events` line for an event.
pub fn event_json(event: &Event) -> Value {
    match event {
        Event::Started {
            target,
            rule,
            protocol,
            interval_ms,
            cap_ms,
            lasting_threshold_ms,
            seed,
        } => json!({
            "event": "started",
            "target": target,
            "rule": rule,
            "protocol": protocol,
            "interval_ms": num(*interval_ms),
            "cap_ms": num(*cap_ms),
            "lasting_threshold_ms": opt_num(*lasting_threshold_ms),
            "seed": seed,
        }),
        Event::Launched {
            launch,
            attempt,
            at_ms,
            pid,
        } => json!({
            "event": "launched", "launch": launch, "attempt": attempt,
            "at_ms": num(*at_ms), "pid": pid,
        }),
        Event::Connected {
            launch,
            attempt,
            at_ms,
            handshake_ms,
            server,
        } => json!({
            "event": "connected", "launch": launch, "attempt": attempt,
            "at_ms": num(*at_ms), "handshake_ms": num(*handshake_ms), "server": server_json(server),
        }),
        Event::Ended(l) => {
            let mut v = launch_json(l);
            if let Value::Object(m) = &mut v {
                m.insert("event".into(), json!("ended"));
            }
            v
        }
        Event::Alert {
            launch,
            attempt,
            text,
        } => json!({"event": "alert", "launch": launch, "attempt": attempt, "text": text}),
        Event::Waiting {
            next_attempt,
            wait,
            until_ms,
        } => json!({
            "event": "waiting", "next_attempt": next_attempt, "wait": wait_json(wait),
            "until_ms": num(*until_ms),
        }),
        Event::Finished { finish, planned } => json!({
            "event": "finished", "finish": finish_json(*finish), "planned_next": planned_json(*planned),
        }),
    }
}

/// Write one JSON value as a line and flush.
pub fn write_json_line(out: &mut impl Write, v: &Value) -> io::Result<()> {
    let text = escape_unsafe_json(serde_json::to_string(v).unwrap_or_default());
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Write the `--json` document.
pub fn write_json(run: &ProbeRun, verdict: &Verdict, ctx: &Context<'_>) -> io::Result<()> {
    let v = report_json(run, verdict, ctx);
    let text = escape_unsafe_json(serde_json::to_string_pretty(&v).unwrap_or_default());
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

// ---------------------------------------------------------------------------------------------
// Text.

fn new_table(color: bool) -> Table {
    let mut table = Table::new();
    table
        .load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(terminal_width());
    if !color {
        table.force_no_tty();
    }
    table
}

fn dash() -> String {
    "-".to_string()
}

/// How an attempt ended, in a table cell.
fn ended_cell(l: &Launch, finish: Finish) -> String {
    match l.report.outcome.as_ref() {
        None => {
            if finish == Finish::Interrupted {
                "cut by Ctrl-C before its handshake".into()
            } else {
                "cut at --for before its handshake".into()
            }
        }
        Some(Outcome::Connected { ended, .. }) => match ended {
            Ended::Unknown => "closed".into(),
            e => format!("closed: {e}"),
        },
        Some(Outcome::StillUp { .. }) => match finish {
            Finish::Deadline => "still up at --for".into(),
            Finish::Interrupted => "still up at Ctrl-C".into(),
            _ => "still up at --watch".into(),
        },
        Some(Outcome::FailedToConnect(f)) | Some(Outcome::Permanent(f)) => sanitize(&f.to_string()),
    }
}

fn wait_cell(l: &Launch) -> String {
    match l.decision.map(|d| d.next) {
        Some(Next::Retry { wait, .. }) => {
            if (wait.max_ms - wait.min_ms).abs() < 0.5 {
                format_ms(wait.ms)
            } else {
                format!(
                    "{}\n({}-{})",
                    format_ms(wait.ms.round()),
                    format_ms(wait.min_ms),
                    format_ms(wait.max_ms)
                )
            }
        }
        Some(Next::Halt) => "stops reconnecting".into(),
        Some(Next::GiveUp { reason }) => reason.to_string(),
        _ => dash(),
    }
}

fn counted_cell(l: &Launch) -> String {
    l.decision
        .map_or_else(dash, |d| d.counted.describe().to_string())
}

fn server_line(s: &ServerInfo) -> String {
    let name = match (&s.name, &s.version) {
        (Some(n), Some(v)) => format!("{} {}", sanitize(n), sanitize(v)),
        (Some(n), None) => sanitize(n),
        _ => "(no serverInfo)".into(),
    };
    let family = match (s.family, &s.mcpl_version) {
        (Some(Family::Mcpl), Some(v)) => format!("MCPL {}", sanitize(v)),
        (Some(Family::Mcpl), None) => "MCPL".into(),
        (Some(Family::PlainMcp), _) => "plain MCP (no MCPL capability)".into(),
        (None, _) => "unknown".into(),
    };
    let version = s
        .protocol_version
        .as_ref()
        .map(|v| format!(", protocol {}", sanitize(v)))
        .unwrap_or_default();
    format!("{name}: {family}{version}")
}

fn finish_text(run: &ProbeRun) -> String {
    let what = match run.finish {
        Finish::Launches(n) => format!("after {n} launches (--launches)"),
        Finish::Deadline => format!(
            "at the --for deadline ({})",
            format_ms(run.elapsed_ms.round())
        ),
        Finish::UntilDown => "once the host would raise mcpl-down (--until-down)".into(),
        Finish::StillUp => "the connection was still up at the end of --watch".into(),
        Finish::Halted => "a permanent failure: the host stops reconnecting".into(),
        Finish::GaveUp(why) => format!("the rule gives up: {why}"),
        Finish::Interrupted => "interrupted (Ctrl-C)".into(),
    };
    match run.planned {
        Some(p) => format!(
            "Stopped {what}; the host would launch attempt {} at {} (after a wait of {}).",
            p.attempt,
            clock(p.at_ms),
            format_ms(p.wait.ms.round())
        ),
        None => format!("Stopped {what}."),
    }
}

fn notes(run: &ProbeRun) -> Vec<String> {
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

fn per_day(v: f64) -> String {
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
    let mut t = new_table(color);
    t.set_header(vec![
        "rule",
        "launches/day",
        "first mcpl-down",
        "mcpl-down/day",
        "status line pairs/day",
        "webhooks/day",
        "connected",
    ]);
    for p in preds {
        let first = match (p.first_down_ms, p.first_down_attempt) {
            (Some(ms), Some(a)) => format!("after {} (attempt {a})", format_ms(round_ms(ms))),
            (Some(ms), None) => format!("after {}", format_ms(round_ms(ms))),
            _ => "never".into(),
        };
        let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
        t.add_row(vec![
            Cell::new(&p.rule),
            right(per_day(p.launches_per_day)),
            Cell::new(first),
            right(per_day(p.downs_per_day)),
            right(per_day(p.status_pairs_per_day)),
            right(per_day(p.webhooks_per_day)),
            right(format!("{:.1}%", p.connected_share * 100.0)),
        ]);
    }
    t
}

/// The text report: launch table, notes, verdict and predictions.
pub fn write_text(
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let threshold = run
        .policy
        .lasting_threshold(0.0)
        .map(|t| format!(", lasting after {}", format_ms(t)))
        .unwrap_or_else(|| ", every handshake resets the count".into());
    writeln!(
        out,
        "Probed {} ({} handshake) under rule {} (interval {}, cap {}{threshold}), seed {}.",
        sanitize(ctx.target),
        ctx.protocol.name(),
        run.policy.name,
        format_ms(run.policy.timings.interval_ms),
        format_ms(run.policy.timings.cap_ms),
        run.seed
    )?;
    if let Some(s) = run.launches.iter().find_map(|l| l.report.server.as_ref()) {
        writeln!(out, "Server: {}", server_line(s))?;
    }
    writeln!(out)?;

    let mut table = new_table(color);
    table.set_header(vec![
        "#",
        "attempt",
        "launched at",
        "handshake",
        "connected",
        "how it ended",
        "counted as",
        "wait",
        "mcpl-down",
    ]);
    for l in &run.launches {
        let r = &l.report;
        table.add_row(vec![
            Cell::new(l.number).set_alignment(CellAlignment::Right),
            Cell::new(l.attempt).set_alignment(CellAlignment::Right),
            Cell::new(clock(r.launched_at_ms)),
            Cell::new(r.handshake_ms().map_or_else(dash, |h| format_ms(h.round()))),
            Cell::new(r.connected_ms().map_or_else(dash, |c| format_ms(c.round()))),
            Cell::new(ended_cell(l, run.finish)),
            Cell::new(counted_cell(l)),
            Cell::new(wait_cell(l)),
            Cell::new(l.alert.as_deref().map_or_else(dash, sanitize)),
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{}", finish_text(run))?;
    let notes = notes(run);
    if !notes.is_empty() {
        writeln!(out)?;
        for n in notes {
            writeln!(out, "{n}")?;
        }
    }
    writeln!(out)?;
    writeln!(out, "Verdict: {}.", sanitize(&verdict.sentence))?;
    if !verdict.predictions.is_empty() {
        let replayed = verdict
            .scenario
            .as_ref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        writeln!(
            out,
            "\nWhat each host rule would do over a day, replaying this behaviour{replayed}:"
        )?;
        writeln!(out, "{}", predictions_table(&verdict.predictions, color))?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_what_could_fool_a_terminal() {
        let v = json!({"name": "a\u{202E}b\u{200B}c\u{85}d\u{1b}"});
        let s = escape_unsafe_json(serde_json::to_string(&v).unwrap());
        assert_eq!(s, r#"{"name":"a\u202eb\u200bc\u0085d\u001b"}"#);
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
