//! The launch table and its cells, the stop line.

use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, Next, Outcome};
use crate::engine::probe::runner::Finish;
use crate::engine::probe::{Family, Launch, ProbeRun, ServerInfo};
use crate::engine::stop::StopCause;
use crate::render::sanitize::sanitize;
use crate::render::terminal::terminal_width;
use crate::render::text::layout::{blocks, fitted_table, Grid};
use crate::render::units::{clock, round_ms, ColumnClock};

use crate::render::context::Context;

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

/// A jitter range in the unit of its upper end: `150-250 ms`, `2.4-4 s`; from a minute, the two
/// ends whole: `1 min 17 s to 2 min 8 s`.
pub(crate) fn range(min: f64, max: f64) -> String {
    let whole = format_ms(max);
    let (scale, unit) = if whole.ends_with(" ms") {
        (1.0, " ms")
    } else if whole.ends_with(" s") && !whole.contains("min") {
        (1000.0, " s")
    } else {
        // Minutes: each end kept whole (no-break spaces), a break only between them, so a
        // narrow column never splits a value from its unit (`(1 min 17` / `s-2 min 8 s)`).
        let whole_word = |t: String| t.replace(' ', "\u{a0}");
        return format!("{} to {}", whole_word(format_ms(min)), whole_word(whole));
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
        Some(Next::GiveUp { reason } | Next::OnNextCall { reason }) => reason.to_string(),
        _ => dash(),
    }
}

/// What the attempt counted as, in the words of the host whose rule `run` followed.
pub(crate) fn counted_cell(run: &ProbeRun, l: &Launch) -> String {
    l.decision.map_or_else(dash, |d| {
        crate::render::words::counted(d.counted, run.policy.relaunch).to_string()
    })
}

pub(crate) fn server_line(s: &ServerInfo) -> String {
    if s.family.is_none() {
        return if s.supported_versions.is_empty() {
            "refused the handshake".into()
        } else {
            format!(
                "refused the handshake; supports {}{}",
                sanitize(&s.supported_versions.join(", ")),
                if s.supported_versions_folded > 0 {
                    format!(
                        ", {}",
                        crate::render::units::more(s.supported_versions_folded)
                    )
                } else {
                    String::new()
                }
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
        .map(|v| match &s.offered_version {
            Some(o) if o != v => format!(", protocol {} (offered {})", sanitize(v), sanitize(o)),
            _ => format!(", protocol {}", sanitize(v)),
        })
        .unwrap_or_default();
    // Over stdio only when the client offered another version than the one answered.
    let era = s
        .era
        .as_ref()
        .filter(|e| *e != "stdio" || s.offered_version != s.protocol_version)
        .map(|e| format!(" over {}", sanitize(e)))
        .unwrap_or_default();
    let get = s
        .get_stream
        .as_ref()
        .map(|g| format!("; GET stream: {}", sanitize(g)))
        .unwrap_or_default();
    format!("{name}: {family}{version}{era}{get}")
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
    // A URL is dialled, not launched: its launches have no process.
    let verb = if run.launches.iter().all(|l| l.report.pid.is_none()) && !run.launches.is_empty() {
        "dial"
    } else {
        "launch"
    };
    match run.planned {
        Some(p) => format!(
            "Stopped: {what}; the host would {verb} attempt {} at {} (after a wait of {}).{}",
            p.attempt,
            since_start(p.at_ms),
            format_ms(p.wait.ms.round()),
            alert_to_come(run, p.attempt)
        ),
        None => format!("Stopped: {what}."),
    }
}

/// After `--launches` stopped a run one launch before the host's first `mcpl-down` (every
/// attempt counted as a failure, none raised it yet, and the next one would): say so, so that
/// the run does not end silently just before the alert the tool is about.
fn alert_to_come(run: &ProbeRun, next_attempt: u32) -> String {
    use crate::engine::policy::AlertRule;
    let AlertRule::Down { from_attempt, .. } = run.policy.alert else {
        return String::new();
    };
    let alerted = run.folded.alerts > 0 || run.launches.iter().any(|l| l.alert.is_some());
    // The count grew by one a launch (nothing reset it).
    let counting = run
        .launches
        .last()
        .is_some_and(|l| l.attempt + 1 == l.number)
        && u64::from(next_attempt) == run.total_launches();
    if alerted || !counting || next_attempt < from_attempt {
        return String::new();
    }
    if !matches!(run.finish, Finish::Launches(_)) {
        return String::new();
    }
    " If it fails as these did, the host raises mcpl-down then (--until-down runs until it)."
        .to_string()
}

/// An alert, marked as the host's own words; where its text gives the lifetime in the host's
/// whole seconds (`closed after 0 s` for a 308 ms connection), the measured lifetime too.
pub(super) fn alert_line(l: &Launch, alert: &str) -> String {
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

/// The launch table's header: one column per fact when `wide`, else two facts stacked in a
/// cell; a `mcpl-down` column only where the host raises it (`alerts`).
fn launch_header(started: &str, wide: bool, alerts: bool) -> Vec<&str> {
    if wide {
        let mut h = vec![
            "#",
            "attempt",
            started,
            "handshake",
            "connected",
            "ended",
            "counted as",
            "wait",
        ];
        if alerts {
            h.push("mcpl-down");
        }
        h.push("opening");
        h
    } else {
        // Two facts stacked in a cell: the header says so with a `/` (`handshake /` over
        // `connected`), held to its word by a no-break space.
        vec![
            "#",
            "attempt",
            started,
            "handshake\u{a0}/\nconnected",
            "ended\u{a0}/\nopening",
            if alerts {
                "counted as\u{a0}/\nmcpl-down"
            } else {
                "counted as"
            },
            "wait",
        ]
    }
}

/// The launch table. From 110 columns (and as blocks below 80): one column per fact. Between:
/// the handshake time over the connection's lifetime in one column, the opening under how it
/// ended, and `mcpl-down` under what the attempt counted as, each such header marked `/`.
pub(super) fn launch_table(run: &ProbeRun, ctx: &Context<'_>, color: bool) -> Grid {
    let when = ColumnClock::for_times(run.launches.iter().map(|l| l.report.launched_at_ms));
    let started = when.header(if dialled(ctx) { "dialled" } else { "launched" });
    let started = started.as_str();
    let wide = terminal_width() >= 110 || blocks();
    // A host that raises no `mcpl-down` (VS Code, Claude Desktop) has no column for it.
    let alerts = run.policy.has_alert();
    let header = launch_header(started, wide, alerts);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (i, l) in run.launches.iter().enumerate() {
        if i == crate::engine::probe::runner::KEEP_FIRST && run.folded.launches > 0 {
            let f = &run.folded;
            let mut row = vec!["…".to_string(), "…".to_string(), String::new()];
            let folded = format!("{} launches folded ({} to {})", f.launches, f.first, f.last);
            let raised = if f.alerts > 0 {
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
                if alerts {
                    row.push(raised);
                }
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
                when.cell(r.launched_at_ms),
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
                    counted_cell(run, l),
                    wait_cell(l),
                ]);
                if alerts {
                    row.push(if l.alert.is_some() { "raised" } else { "-" }.into());
                }
                row.push(super::opening::cell(l));
            } else {
                let up = if r.handshake_ms().is_none() && r.connected_ms().is_none() {
                    dash()
                } else {
                    format!("{handshake}\n{connected}")
                };
                let counted = if l.alert.is_some() {
                    format!("{}\nmcpl-down", counted_cell(run, l))
                } else {
                    counted_cell(run, l)
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
pub(super) fn folded_text(f: &crate::engine::probe::runner::Folded) -> String {
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
