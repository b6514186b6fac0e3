//! Timelines, for every renderer: what a server (or a simulated rule) did over time as a
//! [`Track`] of launches, aggregated into fixed-width [`Columns`] (terminal cells or SVG pixel
//! columns).
//!
//! The terminal strip ([`super::text::strip`]) and the SVG timeline ([`super::picture::svg`])
//! draw the same columns, so a report of 10,000 launches costs as much as the strip is wide, not
//! as many rectangles as there were launches.

use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Next, Outcome, Wait};
use crate::engine::probe::ProbeRun;
use crate::engine::schedule::{Happened, Notices, Row, Simulation, StatusLine, Strip};

use super::units::clock;

// ---------------------------------------------------------------------------------------------
// Tracks.

/// How a launch went, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// It completed its handshake (and then closed, or was still up).
    Connected,
    /// The handshake failed (or a permanent failure).
    Failed,
    /// Cut before it had an outcome.
    Cut,
}

/// One launch on a timeline.
#[derive(Debug, Clone)]
pub(crate) struct Mark {
    pub number: u64,
    pub at_ms: f64,
    pub connected_at_ms: Option<f64>,
    pub ended_at_ms: f64,
    pub kind: Kind,
    /// The wait after it, starting at `ended_at_ms` (`None`: no relaunch).
    pub wait: Option<Wait>,
    /// The `mcpl-down` text raised for it (redacted, not yet sanitised).
    pub alert: Option<String>,
    /// Its row of the launch table in words (redacted, not yet sanitised).
    pub row: String,
}

/// A status line the host's notices module posts.
#[derive(Debug, Clone)]
pub(crate) struct Notice {
    pub at_ms: f64,
    pub text: String,
}

/// One timeline: a server's launches (or a simulated rule's).
#[derive(Debug, Clone)]
pub(crate) struct Track {
    /// The server's (or rule's) name (not yet sanitised).
    pub name: String,
    pub marks: Vec<Mark>,
    pub notices: Vec<Notice>,
    /// Where observation ended.
    pub end_ms: f64,
    /// Share of `end_ms` spent connected, 0 to 1.
    pub connected_share: f64,
    /// Launches in all (more than `marks` when a simulation kept only the first rows).
    pub launches_total: u64,
    /// A simulation's own strip: connected time and alerts for every launch, kept or not.
    pub strip: Option<Strip>,
}

fn wait_words(w: &Wait) -> String {
    if (w.max_ms - w.min_ms).abs() < 0.5 {
        format_ms(w.ms.round())
    } else {
        format!(
            "{} (jitter range {} to {})",
            format_ms(w.ms.round()),
            format_ms(w.min_ms.round()),
            format_ms(w.max_ms.round())
        )
    }
}

/// The host's notices module (the engine's, as `simulate` uses it), replayed on a probe's
/// launches: a "down" status line once an `mcpl-down` episode has stayed open 60 s, a "cleared"
/// line when the host reports the server reconnected (`reported`, one per mark: see
/// [`reported_at`]).
fn notices_of(marks: &[Mark], reported: &[Option<f64>], end_ms: f64) -> Vec<Notice> {
    let mut host = Notices::default();
    let mut lines = Vec::new();
    for (m, at) in marks.iter().zip(reported) {
        if let Some(at) = *at {
            host.reconnected(at, Some(&mut lines));
        }
        if m.alert.is_some() {
            host.alert(m.ended_at_ms, m.alert.clone(), Some(&mut lines));
        }
    }
    host.advance(end_ms, Some(&mut lines));
    lines.iter().map(notice_of).collect()
}

/// A status line as the timeline labels it.
fn notice_of(s: &StatusLine) -> Notice {
    Notice {
        at_ms: s.at_ms,
        text: if s.text.starts_with("mcpl-down cleared") {
            "\"cleared\" status line (reconnected)".into()
        } else {
            format!("\"down\" status line: {}", s.text)
        },
    }
}

impl Track {
    /// A probe's run.
    pub(crate) fn of_probe(name: &str, run: &ProbeRun) -> Track {
        let mut connected = 0.0;
        let marks: Vec<Mark> = run
            .launches
            .iter()
            .map(|l| {
                let r = &l.report;
                let kind = match r.outcome {
                    Some(Outcome::Connected { .. }) | Some(Outcome::StillUp { .. }) => {
                        Kind::Connected
                    }
                    Some(Outcome::FailedToConnect(_)) | Some(Outcome::Permanent(_)) => Kind::Failed,
                    None if r.connected_at_ms.is_some() => Kind::Connected,
                    None => Kind::Cut,
                };
                if let Some(c) = r.connected_at_ms {
                    connected += (r.ended_at_ms - c).max(0.0);
                }
                let wait = l.wait();
                let mut row = format!(
                    "launch {} (attempt {}) at {}: ",
                    l.number,
                    l.attempt,
                    clock(r.launched_at_ms)
                );
                match (&r.outcome, r.handshake_ms()) {
                    (Some(Outcome::Connected { lived_ms, ended }), Some(h)) => {
                        row.push_str(&format!(
                            "handshake {}, connected {}, {}",
                            format_ms(h.round()),
                            format_ms(lived_ms.round()),
                            ended
                        ))
                    }
                    (Some(Outcome::StillUp { lived_ms }), Some(h)) => row.push_str(&format!(
                        "handshake {}, still up after {}",
                        format_ms(h.round()),
                        format_ms(lived_ms.round())
                    )),
                    (Some(Outcome::FailedToConnect(f)), _) => {
                        row.push_str(&format!("failed to connect: {f}"))
                    }
                    (Some(Outcome::Permanent(f)), _) => {
                        row.push_str(&format!("permanent failure: {f}"))
                    }
                    _ => row.push_str("cut before its handshake"),
                }
                if let Some(d) = l.decision {
                    row.push_str(&format!("; {}", d.counted.describe()));
                    match d.next {
                        Next::Retry { attempt, wait } => row
                            .push_str(&format!("; attempt {attempt} after {}", wait_words(&wait))),
                        Next::Halt => row.push_str("; stops reconnecting"),
                        Next::GiveUp { reason } | Next::OnNextCall { reason } => {
                            row.push_str(&format!("; {reason}"))
                        }
                        Next::Watching => {}
                    }
                }
                if let Some(a) = &l.alert {
                    row.push_str(&format!("; mcpl-down: {a}"));
                }
                Mark {
                    number: u64::from(l.number),
                    at_ms: r.launched_at_ms,
                    connected_at_ms: r.connected_at_ms,
                    ended_at_ms: r.ended_at_ms,
                    kind,
                    wait,
                    alert: l.alert.clone(),
                    row,
                }
            })
            .collect();
        let end_ms = run
            .elapsed_ms
            .max(marks.last().map_or(0.0, |m| m.ended_at_ms));
        let reported: Vec<Option<f64>> = run
            .launches
            .iter()
            .map(|l| reported_at(run, &l.report))
            .collect();
        let notices = notices_of(&marks, &reported, end_ms);
        Track {
            name: name.to_string(),
            launches_total: marks.len() as u64,
            marks,
            notices,
            end_ms,
            connected_share: if end_ms > 0.0 {
                (connected / end_ms).clamp(0.0, 1.0)
            } else {
                0.0
            },
            strip: None,
        }
    }

    /// A simulation under one rule (its kept rows, and its strip for the rest).
    pub(crate) fn of_simulation(name: &str, sim: &Simulation) -> Track {
        let marks: Vec<Mark> = sim.rows.iter().map(mark_of_row).collect();
        let notices = sim
            .rows
            .iter()
            .flat_map(|r| r.status.iter())
            .map(notice_of)
            .collect();
        Track {
            name: name.to_string(),
            marks,
            notices,
            end_ms: sim.strip.end_ms.max(sim.summary.span_ms),
            connected_share: sim.summary.connected_share,
            launches_total: sim.rows_total,
            strip: Some(sim.strip.clone()),
        }
    }
}

/// When the host reports a launch's connection as reconnected (`mcpl:server-reconnected`, which
/// closes an `mcpl-down` episode): at its handshake, except on agent-framework's legacy engine,
/// which reports it once the policy exchange has settled with the server still connected, and
/// never for a connection that ended first (one that closed at its handshake, lifetime 0).
fn reported_at(run: &ProbeRun, r: &crate::engine::probe::AttemptReport) -> Option<f64> {
    let up = r.connected_at_ms?;
    if !run.policy.reconnected_waits_for_settle() {
        return Some(up);
    }
    match r.opening.as_ref().and_then(|o| o.policy) {
        // No policy exchange (a plain MCP server): nothing to wait for.
        None => Some(up),
        Some(p) if p.settled => Some(up + p.settle_ms.unwrap_or(0.0)),
        Some(_) => None,
    }
}

fn mark_of_row(r: &Row) -> Mark {
    let kind = match r.happened {
        Happened::FailedToConnect => Kind::Failed,
        _ => Kind::Connected,
    };
    let ended = match (r.connected_at_ms, r.lived_ms) {
        (Some(c), Some(l)) => c + l,
        _ => r.launched_at_ms,
    };
    let mut row = format!(
        "launch {} (attempt {}) at {}: {}; {}",
        r.launch,
        r.attempt,
        clock(r.launched_at_ms),
        r.happened_text,
        r.counted.describe()
    );
    if let Some(w) = &r.wait {
        row.push_str(&format!("; wait {}", wait_words(w)));
    }
    if let Some(a) = &r.alert {
        row.push_str(&format!("; {a}"));
    }
    Mark {
        number: r.launch,
        at_ms: r.launched_at_ms,
        connected_at_ms: r.connected_at_ms,
        ended_at_ms: ended,
        kind,
        wait: r.wait,
        alert: r.alert.clone(),
        row,
    }
}

// ---------------------------------------------------------------------------------------------
// Columns.

/// A track aggregated into `width` columns of equal time over `[0, span_ms]`.
#[derive(Debug, Clone)]
pub(crate) struct Columns {
    pub span_ms: f64,
    pub col_ms: f64,
    pub connected_ms: Vec<f64>,
    pub waiting_ms: Vec<f64>,
    /// Time inside some wait's jitter range (where the next launch could have come).
    pub jitter_ms: Vec<f64>,
    pub launches: Vec<u32>,
    /// Index into the track's marks of the first launch in each column.
    pub first_mark: Vec<Option<usize>>,
    pub failures: Vec<u32>,
    pub alerts: Vec<u32>,
    /// Whether observation covers the column at all.
    pub used: usize,
}

impl Columns {
    /// Empty columns; `span_ms` is the time axis (shared by several tracks).
    pub(crate) fn new(width: usize, span_ms: f64) -> Columns {
        let width = width.max(1);
        let span = if span_ms.is_finite() && span_ms > 0.0 {
            span_ms
        } else {
            1.0
        };
        Columns {
            span_ms: span,
            col_ms: span / width as f64,
            connected_ms: vec![0.0; width],
            waiting_ms: vec![0.0; width],
            jitter_ms: vec![0.0; width],
            launches: vec![0; width],
            first_mark: vec![None; width],
            failures: vec![0; width],
            alerts: vec![0; width],
            used: width,
        }
    }

    pub(crate) fn width(&self) -> usize {
        self.launches.len()
    }

    fn col(&self, t: f64) -> usize {
        let i = (t / self.col_ms).floor();
        if i.is_nan() || i < 0.0 {
            0
        } else {
            (i as usize).min(self.width() - 1)
        }
    }

    /// Add `[from, to)` to `cells`.
    fn spread(&self, cells: &mut [f64], from: f64, to: f64) {
        let (from, to) = (from.max(0.0), to.min(self.span_ms));
        if to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        let (a, b) = (self.col(from), self.col(to));
        if a == b {
            cells[a] += to - from;
            return;
        }
        cells[a] += (a + 1) as f64 * self.col_ms - from;
        for c in cells.iter_mut().take(b).skip(a + 1) {
            *c += self.col_ms;
        }
        cells[b] += to - b as f64 * self.col_ms;
    }

    /// A track over a `span_ms` axis in `width` columns.
    pub(crate) fn of_track(track: &Track, width: usize, span_ms: f64) -> Columns {
        let mut c = Columns::new(width, span_ms);
        c.used = if track.end_ms >= c.span_ms {
            c.width()
        } else {
            ((track.end_ms / c.col_ms).ceil() as usize).clamp(1, c.width())
        };
        let mut connected = std::mem::take(&mut c.connected_ms);
        let mut waiting = std::mem::take(&mut c.waiting_ms);
        let mut jitter = std::mem::take(&mut c.jitter_ms);
        let complete = track.strip.is_none() || track.launches_total == track.marks.len() as u64;
        for (i, m) in track.marks.iter().enumerate() {
            let col = c.col(m.at_ms);
            if m.at_ms <= c.span_ms {
                c.launches[col] += 1;
                if c.first_mark[col].is_none() {
                    c.first_mark[col] = Some(i);
                }
                if m.kind == Kind::Failed {
                    c.failures[col] += 1;
                }
            }
            if let Some(from) = m.connected_at_ms {
                c.spread(&mut connected, from, m.ended_at_ms);
            }
            if m.alert.is_some() && track.strip.is_none() {
                let at = c.col(m.ended_at_ms);
                c.alerts[at] += 1;
            }
            if let Some(w) = m.wait {
                let next = track
                    .marks
                    .get(i + 1)
                    .map_or((m.ended_at_ms + w.ms).min(track.end_ms), |n| n.at_ms);
                c.spread(&mut waiting, m.ended_at_ms, next);
                c.spread(
                    &mut jitter,
                    m.ended_at_ms + w.min_ms,
                    (m.ended_at_ms + w.max_ms).min(track.end_ms),
                );
            }
        }
        if let Some(strip) = &track.strip {
            // The simulation's own strip covers every launch, kept as a row or not.
            if !complete || track.marks.is_empty() {
                connected = vec![0.0; c.width()];
            }
            c.resample_strip(strip, &mut connected, !complete || track.marks.is_empty());
        }
        c.connected_ms = connected;
        c.waiting_ms = waiting;
        c.jitter_ms = jitter;
        c
    }

    /// Alerts (and, when `with_connected`, connected time) from a simulation's strip.
    fn resample_strip(&mut self, strip: &Strip, connected: &mut [f64], with_connected: bool) {
        let used = strip.used_cells();
        for i in 0..used {
            let (from, to) = (i as f64 * strip.cell_ms, (i + 1) as f64 * strip.cell_ms);
            if strip.alerts[i] > 0 {
                let at = self.col((from + to) / 2.0);
                self.alerts[at] += strip.alerts[i];
            }
            if with_connected && strip.connected_ms[i] > 0.0 {
                // Spread the cell's connected time evenly over the columns it covers.
                let share = strip.connected_ms[i] / strip.cell_ms;
                let (a, b) = (self.col(from), self.col(to.min(self.span_ms) - 1e-9));
                for (j, cell) in connected.iter_mut().enumerate().take(b + 1).skip(a) {
                    let lo = from.max(j as f64 * self.col_ms);
                    let hi = to.min((j + 1) as f64 * self.col_ms);
                    if hi > lo {
                        *cell += share * (hi - lo);
                    }
                }
            }
        }
    }

    /// The time column `i` covers within the observation.
    fn len(&self, i: usize, end_ms: f64) -> f64 {
        let start = i as f64 * self.col_ms;
        (end_ms.min((i + 1) as f64 * self.col_ms) - start).max(f64::MIN_POSITIVE)
    }

    /// Share of column `i` spent connected, 0 to 1 (of the part observation covers).
    pub(crate) fn share(&self, i: usize, end_ms: f64) -> f64 {
        (self.connected_ms[i] / self.len(i, end_ms)).clamp(0.0, 1.0)
    }

    /// Share of column `i` spent waiting for a relaunch, 0 to 1.
    pub(crate) fn waiting_share(&self, i: usize, end_ms: f64) -> f64 {
        (self.waiting_ms[i] / self.len(i, end_ms)).clamp(0.0, 1.0)
    }

    /// Share of column `i` inside a wait's jitter range, 0 to 1.
    pub(crate) fn jitter_share(&self, i: usize, end_ms: f64) -> f64 {
        (self.jitter_ms[i] / self.len(i, end_ms)).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::policy::{Ended, EngineKind, Preset, Timings, Tracker};
    use crate::engine::probe::opening::{Opening, PolicySettle};
    use crate::engine::probe::{AttemptReport, Finish, Stopped};

    /// A probe's run under `lasting` on `engine` (default timings) of 8 connections that each
    /// live `lived` ms, their policy exchange settled (after 50 ms) or not.
    fn run_of(engine: EngineKind, lived: f64, settled: bool) -> ProbeRun {
        let policy = Preset::Lasting.policy_with(engine, Timings::default());
        let mut tracker = Tracker::new(policy.clone(), None);
        let mut t = 0.0;
        let launches = (1..=8)
            .map(|number| {
                let up = t + 200.0;
                let outcome = Outcome::Connected {
                    lived_ms: lived,
                    ended: Ended::Exit { code: 0 },
                };
                let attempt = tracker.attempt();
                let d = tracker.record(t, &outcome, up + lived);
                let report = AttemptReport {
                    launched_at_ms: t,
                    launched_at_wall: std::time::SystemTime::now(),
                    pid: None,
                    connected_at_ms: Some(up),
                    server: None,
                    ended_at_ms: up + lived,
                    outcome: Some(outcome),
                    stopped: Stopped::AlreadyGone,
                    pings_sent: 0,
                    pings_answered: 0,
                    stderr: Default::default(),
                    stdout: Default::default(),
                    process: None,
                    misbehaviour: Default::default(),
                    remote: None,
                    session: Default::default(),
                    opening: Some(Opening {
                        policy: Some(PolicySettle {
                            settled,
                            settle_ms: settled.then_some(50.0),
                        }),
                        ..Default::default()
                    }),
                    escaped: 0,
                };
                if let Next::Retry { wait, .. } = d.next {
                    t = up + lived + wait.ms;
                }
                crate::engine::probe::runner::launch_record(number, attempt, report, Some(d))
            })
            .collect();
        ProbeRun {
            policy,
            seed: 1,
            launches,
            folded: Default::default(),
            finish: Finish::Launches(8),
            planned: None,
            started_wall: std::time::SystemTime::now(),
            elapsed_ms: t,
            strict: false,
            args: vec![],
        }
    }

    fn lines(run: &ProbeRun) -> (usize, usize) {
        let track = Track::of_probe("x", run);
        let cleared = track
            .notices
            .iter()
            .filter(|n| n.text.contains("cleared"))
            .count();
        (track.notices.len() - cleared, cleared)
    }

    /// Issue 29 item 4: on the legacy engine a connection that ends before its policy exchange
    /// settles (one that closes at its handshake, lifetime 0) is never reported reconnected,
    /// so the `mcpl-down` episode opened at attempt 5 stays open: one "down" line, no
    /// "cleared" (as `simulate` counts it). The look-alikes: the same on the modern engine,
    /// and settled connections on the legacy one, clear it at each reconnect.
    #[test]
    fn a_legacy_connection_that_ends_before_its_exchange_settles_clears_nothing() {
        assert_eq!(lines(&run_of(EngineKind::Legacy, 0.0, false)), (1, 0));
        assert_eq!(lines(&run_of(EngineKind::Modern, 0.0, false)), (3, 2));
        assert_eq!(lines(&run_of(EngineKind::Legacy, 300.0, true)), (3, 2));
    }

    #[test]
    fn columns_split_spans_exactly() {
        let mut c = Columns::new(10, 100.0);
        let mut cells = vec![0.0; 10];
        c.spread(&mut cells, 5.0, 35.0);
        assert_eq!(cells[0], 5.0);
        assert_eq!(cells[1], 10.0);
        assert_eq!(cells[2], 10.0);
        assert_eq!(cells[3], 5.0);
        assert!((cells.iter().sum::<f64>() - 30.0).abs() < 1e-9);
        c.connected_ms = cells;
        assert_eq!(c.share(1, 100.0), 1.0);
        assert_eq!(c.share(3, 100.0), 0.5);
        // Beyond the axis is cut.
        let mut cells = vec![0.0; 10];
        c.spread(&mut cells, 95.0, 500.0);
        assert!((cells.iter().sum::<f64>() - 5.0).abs() < 1e-9);
    }
}
