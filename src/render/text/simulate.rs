//! Drawing `simulate`'s results: schedule tables, the side-by-side summary, timeline strips.
//! (Its JSON is [`crate::render::json::simulate`].)

use std::io::{self, Write};

use super::layout::{blocks, fitted_table, prose, Grid};
use super::probe::{range, since_start};
use super::strip::Glyphs;
use crate::render::style;
use crate::render::terminal::terminal_width;
use crate::render::units::ColumnClock;
use crate::render::words::rule_header;

use crate::engine::policy::timings::{format_ms, is_refused_timing};
use crate::engine::policy::{EngineKind, Preset, Relaunch};
use crate::engine::schedule::{Request, Row, Scenario, Simulation, Summary, Then};

/// One preset's simulation.
pub(crate) struct Run {
    pub preset: Preset,
    pub request: Request,
    pub simulation: Simulation,
}

/// Everything `simulate` shows.
pub(crate) struct View {
    pub runs: Vec<Run>,
    pub scenario: Scenario,
    pub seed: Option<u64>,
    pub engine: EngineKind,
    pub show_rows: bool,
    pub explicit_timings: (Option<f64>, Option<f64>),
}

/// Cells in a timeline strip, fitted to the terminal beside names `name_width` wide (and
/// ` |`, `| 100.0% connected`).
pub(crate) fn strip_width(name_width: usize) -> usize {
    (terminal_width() as usize)
        .saturating_sub(name_width + 20)
        .clamp(20, 100)
}

fn per_day(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{:.0}", v)
    } else if v >= 10.0 {
        format!("{:.1}", v)
    } else {
        format!("{:.2}", v)
    }
}

fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.1 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// Whether the rule's host relaunches by itself (its timings mean nothing otherwise).
fn relaunches_by_itself(run: &Run) -> bool {
    run.request.policy.relaunch == Relaunch::Backoff
}

pub(crate) fn timings_line(run: &Run) -> String {
    if !relaunches_by_itself(run) {
        return "no timed relaunch".into();
    }
    let t = run.request.policy.timings;
    format!(
        "interval {}, cap {}",
        format_ms(t.interval_ms),
        format_ms(t.cap_ms)
    )
}

fn timings_short(run: &Run) -> String {
    if !relaunches_by_itself(run) {
        return "none".into();
    }
    let t = run.request.policy.timings;
    format!("{} / {}", format_ms(t.interval_ms), format_ms(t.cap_ms))
}

pub(crate) fn wait_cell(row: &Row) -> String {
    match row.wait {
        None => match row.then {
            Then::GivesUp => "gives up".into(),
            Then::WaitsForNextToolCall => "next tool call".into(),
            _ => "-".into(),
        },
        Some(w) if (w.max_ms - w.min_ms).abs() < 0.5 => format_ms(w.ms),
        Some(w) => format!(
            "{}\n({}){}",
            format_ms(w.ms),
            range(w.min_ms, w.max_ms),
            w.or_ms
                .map(|ms| format!(" or {}", format_ms(ms)))
                .unwrap_or_default()
        ),
    }
}

pub(crate) fn notices_cell(row: &Row) -> String {
    let mut parts = Vec::new();
    if let Some(alert) = &row.alert {
        // The host's own words, quoted.
        parts.push(if row.webhook {
            format!("\"{alert}\" [webhook posted]")
        } else {
            format!("\"{alert}\"")
        });
    }
    // The status lines in short; their full text is in --format json.
    for line in &row.status {
        let what = if line.text.starts_with("mcpl-down cleared") {
            "\"cleared\" status line"
        } else {
            "\"down\" status line"
        };
        parts.push(format!("{what} at {}", since_start(line.at_ms)));
    }
    if let Some(stopped) = &row.stopped {
        parts.push(stopped.clone());
    }
    parts.join("\n")
}

/// What happened, with the host's own text marked where its whole seconds disagree with the
/// lifetime (`closed after 0 s` for a 300 ms connection).
fn happened_cell(row: &Row) -> String {
    match row.lived_ms {
        Some(lived) if row.happened_text == "lasted" || row.happened_text == "still up" => {
            format!("{} ({})", row.happened_text, format_ms(lived))
        }
        Some(lived) if lived % 1000.0 != 0.0 => match row.happened_text.split_once("closed ") {
            Some((before, host)) if host.starts_with("after ") => format!(
                "{before}closed after {} (the host says \"{host}\")",
                format_ms(lived)
            ),
            _ => row.happened_text.clone(),
        },
        _ => row.happened_text.clone(),
    }
}

fn counted_words(run: &Run, row: &Row) -> &'static str {
    crate::render::words::counted(row.counted, run.request.policy.relaunch)
}

/// One preset's schedule. From 110 columns the `mcpl-down` and status lines in a column of their
/// own; narrower, listed under the table.
fn rows_table(run: &Run, when: ColumnClock, color: bool) -> (Grid, Vec<String>) {
    let wide = terminal_width() >= 110 || blocks();
    let launched = when.header("launched");
    let mut header = vec![
        "#",
        "attempt",
        launched.as_str(),
        "what happened",
        "counted as",
        "wait",
    ];
    if wide {
        header.push("mcpl-down / status lines");
    }
    let mut notes = Vec::new();
    let rows: Vec<Vec<String>> = run
        .simulation
        .rows
        .iter()
        .map(|row| {
            let notices = notices_cell(row);
            let mut counted = counted_words(run, row).to_string();
            let mut cells = vec![
                row.launch.to_string(),
                row.attempt.to_string(),
                when.cell(row.launched_at_ms),
                happened_cell(row),
            ];
            if wide {
                cells.extend([counted, wait_cell(row), notices]);
            } else {
                if !notices.is_empty() {
                    if row.alert.is_some() {
                        counted.push_str("\nmcpl-down");
                    }
                    notes.push(format!(
                        "launch {}: {}",
                        row.launch,
                        notices.replace('\n', "; ")
                    ));
                }
                cells.extend([counted, wait_cell(row)]);
            }
            cells
        })
        .collect();
    (fitted_table(color, &header, &rows, &[0, 1]), notes)
}

fn status_pairs(s: &Summary) -> String {
    let pairs = per_day(s.status_pairs_per_day);
    if s.status_down_lines > s.status_cleared_lines {
        format!("{pairs} (+1 \"down\" never cleared)")
    } else {
        pairs
    }
}

fn first_down(s: &Summary) -> String {
    match (s.first_down_ms, s.first_down_attempt) {
        (Some(ms), Some(a)) => format!("{} (attempt {a})", format_ms(ms)),
        _ => "never".into(),
    }
}

pub(crate) fn summary_rows(run: &Run) -> Vec<(&'static str, String)> {
    let s = &run.simulation.summary;
    let has_alert = run.request.policy.has_alert();
    let na = |v: String| if has_alert { v } else { "n/a".to_string() };
    vec![
        ("launches", format!("{}", s.launches)),
        ("launches a day", per_day(s.launches_per_day)),
        ("first mcpl-down", na(first_down(s))),
        ("mcpl-down a day", na(per_day(s.downs_per_day))),
        ("webhook posts a day", na(per_day(s.webhooks_per_day))),
        ("status pairs a day", na(status_pairs(s))),
        ("connected", percent(s.connected_share)),
        ("longest wait", format_ms(s.longest_wait_ms)),
        (
            "count resets",
            if s.count_starts_afresh {
                match s.count_resets {
                    0 => "never".into(),
                    1 => "once".into(),
                    n => format!("{n} times"),
                }
            } else {
                "never".into()
            },
        ),
        (
            "gives up",
            match (&s.stopped, s.stopped_at_ms) {
                (Some(reason), Some(at)) if s.stopped_as == Some(Then::WaitsForNextToolCall) => {
                    format!("no: {reason}, from {}", format_ms(at))
                }
                (Some(reason), Some(at)) => format!("{reason}, at {}", format_ms(at)),
                (Some(reason), None) => reason.clone(),
                _ => "never".into(),
            },
        ),
    ]
}

fn summary_table(view: &View, color: bool) -> Grid {
    let mut header: Vec<String> = vec![String::new()];
    header.extend(view.runs.iter().map(|r| rule_header(r.preset.name())));
    let columns: Vec<Vec<(&str, String)>> = view.runs.iter().map(summary_rows).collect();
    let mut labels: Vec<&str> = vec!["base / cap"];
    labels.extend(columns.first().map_or(vec![], |c| {
        c.iter().map(|(label, _)| *label).collect::<Vec<_>>()
    }));
    let rows: Vec<Vec<String>> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let mut cells = vec![label.to_string()];
            for (run, col) in view.runs.iter().zip(&columns) {
                cells.push(if i == 0 {
                    timings_short(run)
                } else {
                    col[i - 1].1.clone()
                });
            }
            cells
        })
        .collect();
    if blocks() {
        // A block per rule: its figures under its name.
        let mut by_rule: Vec<Vec<String>> = vec![Vec::new(); view.runs.len()];
        for row in &rows {
            for (r, cell) in row.iter().skip(1).enumerate() {
                by_rule[r].push(cell.clone());
            }
        }
        for (r, run) in view.runs.iter().enumerate() {
            by_rule[r].insert(0, run.preset.name().to_string());
        }
        let mut head: Vec<&str> = vec!["rule"];
        head.extend(labels.iter().copied());
        return fitted_table(color, &head, &by_rule, &[]);
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    fitted_table(color, &header, &rows, &[])
}

/// A strip on a terminal: connected cells green, `mcpl-down` cells red.
fn paint_strip(strip: &str, g: Glyphs) -> String {
    strip
        .chars()
        .map(|c| {
            if c == g.connected || c == g.partly {
                style::paint(true, style::GOOD, &c.to_string())
            } else if c == g.alert {
                style::paint(true, style::BAD, &c.to_string())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The one-line timeline of a run: `!` where `mcpl-down` was raised, `█` connected most of the
/// cell, `▄` part of it, `·` not at all (block characters; the terminal's strip falls back to
/// ASCII, see [`super::strip::Glyphs`]).
pub(crate) fn strip_line(sim: &Simulation) -> String {
    super::strip::simulation_line(sim, Glyphs::UNICODE)
}

pub(crate) fn header(view: &View) -> String {
    let span = view
        .runs
        .first()
        .map(|r| {
            if r.request.max_attempts.is_some() {
                format!("{} launches", r.request.max_attempts.unwrap_or(0))
            } else {
                format_ms(r.request.span_ms)
            }
        })
        .unwrap_or_default();
    let jitter = match view.seed {
        Some(seed) => format!("jitter seed {seed} (--seed {seed} repeats this run)"),
        None => "no jitter (nominal waits)".into(),
    };
    let engine = match view.engine {
        EngineKind::Legacy => "legacy engine",
        EngineKind::Modern => "modern engine",
    };
    format!(
        "Server: {}. Simulated: {span}, {engine}, {jitter}.",
        scenario_words(&view.scenario)
    )
}

fn scenario_words(s: &Scenario) -> String {
    let text = s.to_string();
    match text.strip_prefix("each connection lives 0 ms") {
        Some(rest) => format!("dies right after its handshake{rest}"),
        None => text,
    }
}

/// The tables, summary and strips, for a person.
pub(crate) fn write_text(view: &View, color: bool) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{}", prose(&header(view), "  "))?;
    let (interval, cap) = view.explicit_timings;
    if [interval, cap]
        .iter()
        .flatten()
        .any(|ms| is_refused_timing(*ms))
    {
        let note = "Note: a timing of 0, below 0 or not a number is refused at start by hosts with the \
             lasting-connection fix (lasting, bounded, preceding-wait: no launch, one mcpl-down); \
             older hosts (reset-on-handshake) run every such wait after 1 ms, a relaunch loop with no backoff.";
        writeln!(out, "{}", prose(note, "  "))?;
    }
    if view.show_rows {
        // One format for the `launched` column of every rule's table.
        let when = ColumnClock::for_times(
            view.runs
                .iter()
                .flat_map(|r| r.simulation.rows.iter().map(|row| row.launched_at_ms)),
        );
        for run in &view.runs {
            writeln!(out)?;
            let title = format!(
                "{}: {} ({})",
                run.preset.name(),
                run.preset.describe(),
                timings_line(run)
            );
            writeln!(out, "{}", prose(&title, "  "))?;
            if let Some(alert) = &run.simulation.summary.refused_at_start {
                let refused = format!(
                    "The host refuses this server at start: nothing is launched; mcpl-down at 0: {alert}"
                );
                writeln!(out, "{}", prose(&refused, "  "))?;
                continue;
            }
            let (table, notes) = rows_table(run, when, color);
            writeln!(out, "{table}")?;
            for note in notes {
                writeln!(out, "{}", prose(&note, "  "))?;
            }
            let shown = run.simulation.rows.len() as u64;
            if shown < run.simulation.rows_total {
                let showing = format!(
                    "showing {shown} of {} launches (--rows N for more; the summary covers all)",
                    run.simulation.rows_total
                );
                writeln!(out, "{}", prose(&showing, "  "))?;
            }
        }
    }
    writeln!(out)?;
    let span = view
        .runs
        .first()
        .map(|r| format_ms(r.simulation.summary.span_ms))
        .unwrap_or_default();
    writeln!(out, "Summary over {span}:")?;
    writeln!(out, "{}", summary_table(view, color))?;
    if view
        .runs
        .iter()
        .any(|r| r.simulation.summary.span_ms < crate::engine::schedule::DAY_MS)
    {
        writeln!(
            out,
            "Per-day figures are extrapolated from {span}; --for 1d simulates a whole day."
        )?;
    }
    writeln!(out)?;
    let g = Glyphs::for_terminal();
    let legend = format!(
        "Timeline over {span} ({} connected, {} partly, {} down or waiting, {} mcpl-down raised):",
        g.connected, g.partly, g.down, g.alert
    );
    writeln!(out, "{}", prose(&legend, ""))?;
    let name_width = view
        .runs
        .iter()
        .map(|r| r.preset.name().len())
        .max()
        .unwrap_or(0);
    for run in &view.runs {
        let strip = super::strip::simulation_line(&run.simulation, g);
        let strip = if color { paint_strip(&strip, g) } else { strip };
        writeln!(
            out,
            "{:>name_width$} |{}| {} connected",
            run.preset.name(),
            strip,
            percent(run.simulation.summary.connected_share)
        )?;
    }
    out.flush()
}
