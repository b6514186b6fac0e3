//! The live progress line on stderr (a terminal only), one per server with `--all`.

use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::policy::timings::format_ms;
use crate::engine::probe::runner::Finish;
use crate::engine::probe::Event;
use crate::render::sanitize;
use crate::render::units::round_ms;

/// The progress line on stderr (a terminal only): launch number, state, time to next launch.
/// With several servers, one line each under a [`MultiLive`].
pub(crate) struct LiveLine {
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
pub(crate) struct Bounds {
    /// `--handshake-timeout`, ms.
    pub handshake_ms: f64,
    /// `--watch`, ms.
    pub watch_ms: f64,
    /// `--for`, ms from the start.
    pub run_for_ms: Option<f64>,
    /// How many launches the run makes at most (`--launches`, or the default), if bounded.
    pub launches: Option<u32>,
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

/// The progress lines on the terminal now (at most one set per process: one probe run), so that
/// a message from elsewhere (the signal handler's `interrupted (Ctrl-C): stopping ...`) clears
/// them first and is not left under a stale line (review 4, row 11).
static ON_SCREEN: std::sync::Mutex<Option<OnScreen>> = std::sync::Mutex::new(None);

enum OnScreen {
    One(ProgressBar),
    Many(MultiProgress),
}

fn show(on: OnScreen) {
    if let Ok(mut s) = ON_SCREEN.lock() {
        *s = Some(on);
    }
}

fn hide() {
    if let Ok(mut s) = ON_SCREEN.lock() {
        *s = None;
    }
}

/// Print `line` on stderr with the progress lines cleared first and redrawn under it; false
/// (nothing printed) when no progress line is on the terminal.
pub(crate) fn say_above_progress(line: &str) -> bool {
    let Ok(s) = ON_SCREEN.lock() else {
        return false;
    };
    match &*s {
        Some(OnScreen::One(bar)) => bar.suspend(|| crate::say!("{line}")),
        Some(OnScreen::Many(m)) => m.suspend(|| crate::say!("{line}")),
        None => return false,
    }
    true
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

impl LiveLine {
    /// A progress line, drawn only when `enabled` (stderr is a terminal).
    pub(crate) fn new(enabled: bool) -> LiveLine {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(spinner_style());
            show(OnScreen::One(bar.clone()));
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
    pub(crate) fn with_bounds(mut self, bounds: Bounds) -> LiveLine {
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
    pub(crate) fn on_event(&mut self, event: &Event) {
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

    /// The line: `launch 2 of 5 (attempt 1): handshaking 0.4 s (--handshake-timeout 30 s)`,
    /// `...: connected 3.4 s (--watch 30 s)`, `...: ended; attempt 2 in 1.2 s`, with `; --for:
    /// 12 s left` under `--for`; cut to the terminal's width so that it never wraps.
    fn message(&self) -> String {
        let now = std::time::Instant::now();
        let of = self
            .bounds
            .launches
            .map(|n| format!(" of {n}"))
            .unwrap_or_default();
        let head = format!("launch {}{of} (attempt {})", self.launch, self.attempt);
        let bound = |ms: f64, flag: &str| {
            if ms > 0.0 && ms.is_finite() {
                format!(" ({flag} {})", format_ms(ms))
            } else {
                String::new()
            }
        };
        let mut msg = match &self.state {
            LiveState::Starting => "starting".to_string(),
            LiveState::Handshaking { since } => format!(
                "{head}: handshaking {}{}",
                format_ms(round_ms(ms(now - *since))),
                bound(self.bounds.handshake_ms, "--handshake-timeout"),
            ),
            LiveState::Connected { since } => format!(
                "{head}: connected {}{}",
                format_ms(round_ms(ms(now - *since))),
                bound(self.bounds.watch_ms, "--watch")
            ),
            LiveState::Waiting { until, next } => format!(
                "{head}: ended; attempt {next} in {}",
                format_ms(round_ms(ms(until.saturating_duration_since(now))))
            ),
            LiveState::Stopping => format!("{head}: ended"),
            LiveState::Finished(text) => text.clone(),
        };
        if let (Some(limit), false) = (
            self.bounds.run_for_ms,
            matches!(self.state, LiveState::Finished(_) | LiveState::Starting),
        ) {
            let left = (limit - ms(now - self.started)).max(0.0);
            msg.push_str(&format!("; --for: {} left", format_ms(round_ms(left))));
        }
        // The spinner and a space before it; a line that wraps is redrawn as two.
        let room = usize::from(crate::render::terminal::terminal_width()).saturating_sub(3);
        let line = format!("{}{msg}", self.prefix);
        if line.chars().count() > room {
            let mut cut: String = line.chars().take(room.saturating_sub(1)).collect();
            cut.push('…');
            cut
        } else {
            line
        }
    }

    /// Redraw (call every 100 ms or so).
    pub(crate) fn tick(&self) {
        let Some(bar) = &self.bar else {
            return;
        };
        if matches!(self.state, LiveState::Finished(_)) {
            return;
        }
        bar.set_message(self.message());
        bar.tick();
    }

    /// Print `line` on stderr above the progress line (or alone, without one).
    pub(crate) fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => crate::say!("{line}"),
        }
    }

    /// Remove the line (before the report is printed).
    pub(crate) fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            if !self.keep_when_finished {
                hide();
            }
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
pub(crate) struct MultiLive {
    multi: Option<MultiProgress>,
    header: Option<ProgressBar>,
    lines: Vec<std::sync::Mutex<LiveLine>>,
}

impl MultiLive {
    /// Lines for servers named `names`, drawn only when `enabled`, naming `bounds`.
    pub(crate) fn new(enabled: bool, names: &[String], bounds: Bounds) -> MultiLive {
        let multi = enabled.then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        if let Some(m) = &multi {
            show(OnScreen::Many(m.clone()));
        }
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

    /// Print `line` on stderr above the progress lines (or alone, without them).
    pub(crate) fn println(&self, line: &str) {
        match &self.multi {
            Some(m) => {
                let _ = m.println(line);
            }
            None => crate::say!("{line}"),
        }
    }

    /// Server `index` reported `event`.
    pub(crate) fn on_event(&self, index: usize, event: &Event) {
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
    pub(crate) fn tick(&self) {
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
    pub(crate) fn clear(&self) {
        for line in &self.lines {
            if let Ok(mut l) = line.lock() {
                l.clear();
            }
        }
        if let Some(h) = &self.header {
            h.finish_and_clear();
        }
        if let Some(m) = &self.multi {
            hide();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::terminal::with_width;

    fn line(state: LiveState, bounds: Bounds) -> LiveLine {
        let mut l = LiveLine::new(false).with_bounds(bounds);
        l.launch = 2;
        l.attempt = 1;
        l.state = state;
        l
    }

    /// Issue 20 (review row 27): the progress line says which launch of how many and what it
    /// waits for, within 80 columns (it was 95, padded, and wrapped to two rows).
    #[test]
    fn the_progress_line_fits_and_counts_launches() {
        let now = std::time::Instant::now();
        let bounds = Bounds {
            handshake_ms: 30_000.0,
            watch_ms: 30_000.0,
            run_for_ms: None,
            launches: Some(5),
        };
        let texts = with_width(80, || {
            [
                line(LiveState::Handshaking { since: now }, bounds).message(),
                line(LiveState::Connected { since: now }, bounds).message(),
                line(
                    LiveState::Waiting {
                        until: now + Duration::from_millis(1200),
                        next: 2,
                    },
                    bounds,
                )
                .message(),
            ]
        });
        assert!(
            texts[0].starts_with("launch 2 of 5 (attempt 1): handshaking ")
                && texts[0].ends_with(" (--handshake-timeout 30 s)"),
            "{}",
            texts[0]
        );
        assert!(texts[1].ends_with(" (--watch 30 s)"), "{}", texts[1]);
        assert!(
            texts[2].starts_with("launch 2 of 5 (attempt 1): ended; attempt 2 in 1."),
            "{}",
            texts[2]
        );
        for t in &texts {
            assert!(t.chars().count() + 2 <= 80, "{t}");
        }
        // --for: the time left; without a launch limit, no "of".
        let for_bounds = Bounds {
            run_for_ms: Some(60_000.0),
            launches: None,
            ..bounds
        };
        let t = with_width(80, || {
            line(LiveState::Connected { since: now }, for_bounds).message()
        });
        assert!(t.starts_with("launch 2 (attempt 1): connected "), "{t}");
        assert!(t.contains("; --for: "), "{t}");
        // A narrow terminal: cut, never wrapped.
        let t = with_width(40, || {
            line(LiveState::Handshaking { since: now }, bounds).message()
        });
        assert!(t.chars().count() + 2 <= 40 && t.ends_with('…'), "{t}");
    }
}
