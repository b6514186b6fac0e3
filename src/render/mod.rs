//! Everything that touches a terminal: colour, sanitising server-controlled text, tables,
//! diagnostics, progress and JSON.

use std::io::{self, IsTerminal};

use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

pub mod check;
pub mod html;
pub mod layout;
pub mod opening;
pub mod probe;
pub mod probe_all;
pub mod probe_json;
pub mod report;
pub mod sanitize;
pub mod sarif;
pub mod schema;
pub mod simulate;
pub mod strip;
pub mod svg;
pub mod why;

/// Write one line to stderr. An unwritable stderr (a closed pipe, `2>/dev/full`) is ignored:
/// there is nowhere left to say so, and a doctor never panics over its own output.
pub fn stderr_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Write text to stderr as it is (no newline added); errors are ignored as in [`stderr_line`].
pub fn stderr_text(text: &str) {
    use std::io::Write;
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `eprintln!` that never panics (see [`stderr_line`]).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::render::stderr_line(format_args!($($arg)*))
    };
}

/// Whether writing failed because the reader went away (`| head`): the run ends quietly with
/// exit 0, as ripgrep and fd do. Looks through wrapped errors (serde_json's, `io::Error::other`).
pub fn is_broken_pipe(e: &io::Error) -> bool {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = current {
        if let Some(io) = err.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return true;
            }
            if let Some(inner) = io.get_ref() {
                current = Some(inner);
                continue;
            }
        }
        if let Some(json) = err.downcast_ref::<serde_json::Error>() {
            if json.io_error_kind() == Some(io::ErrorKind::BrokenPipe) {
                return true;
            }
        }
        current = err.source();
    }
    false
}

/// Whether stdout's reader has gone away (a pipe or socket whose other end is closed). Never
/// true for a terminal or a file. Checked without writing anything.
pub fn stdout_closed() -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    let stdout = io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
    match poll(&mut fds, PollTimeout::ZERO) {
        Ok(n) if n > 0 => fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP)),
        _ => false,
    }
}

pub use crate::engine::stop::StopCause;

/// The report's words for what stopped a run.
impl StopCause {
    /// `interrupted (Ctrl-C)`, `terminated (SIGTERM)`, `hung up (SIGHUP)`.
    pub fn words(self) -> &'static str {
        match self {
            StopCause::Interrupt => "interrupted (Ctrl-C)",
            StopCause::Terminate => "terminated (SIGTERM)",
            StopCause::HangUp => "hung up (SIGHUP)",
        }
    }

    /// `Ctrl-C`, `SIGTERM`, `SIGHUP`.
    pub fn short(self) -> &'static str {
        match self {
            StopCause::Interrupt => "Ctrl-C",
            StopCause::Terminate => "SIGTERM",
            StopCause::HangUp => "SIGHUP",
        }
    }
}
pub use sanitize::sanitize;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Decided once: `--color`, then `NO_COLOR`, then `TERM=dumb`, then whether the stream is a
    /// terminal.
    pub fn enabled(self, stream_is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                    return false;
                }
                if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
                    return false;
                }
                stream_is_terminal
            }
        }
    }

    /// Colour for stdout.
    pub fn for_stdout(self) -> bool {
        self.enabled(std::io::stdout().is_terminal())
    }

    /// Colour for stderr.
    pub fn for_stderr(self) -> bool {
        self.enabled(std::io::stderr().is_terminal())
    }
}

thread_local! {
    /// A width set by [`with_width`] (tests), before the terminal and `COLUMNS`.
    static WIDTH: std::cell::Cell<Option<u16>> = const { std::cell::Cell::new(None) };
}

/// Run `f` with [`terminal_width`] answering `width` on this thread (snapshot tests).
pub fn with_width<R>(width: u16, f: impl FnOnce() -> R) -> R {
    let before = WIDTH.with(|w| w.replace(Some(width)));
    let out = f();
    WIDTH.with(|w| w.set(before));
    out
}

/// `text` in bold `colour` (an SGR colour number: 31 red, 32 green, 33 yellow) when `on`.
pub fn paint(on: bool, colour: u8, text: &str) -> String {
    if on {
        format!("\x1b[1;{colour}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The terminal's width, or `COLUMNS`, or 80.
pub fn terminal_width() -> u16 {
    if let Some(w) = WIDTH.with(|w| w.get()) {
        return w;
    }
    if let Some((w, _)) = terminal_size() {
        return w;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|w| *w >= 40)
        // Not a terminal and no COLUMNS (`| less`, a CI log, a file): the width a person on call
        // most likely reads it at.
        .unwrap_or(80)
}

fn terminal_size() -> Option<(u16, u16)> {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() {
        return None;
    }
    let (w, h) = crossterm_size()?;
    Some((w, h))
}

fn crossterm_size() -> Option<(u16, u16)> {
    // comfy-table measures the terminal itself; ask a throwaway table for its width.
    let t = Table::new();
    t.width().map(|w| (w, 0))
}

/// `h:mm:ss.mmm` from the start (with days when past one).
pub fn clock(ms: f64) -> String {
    if !ms.is_finite() {
        return "-".into();
    }
    let total = ms.max(0.0).round() as u64;
    let (days, rest) = (total / 86_400_000, total % 86_400_000);
    let (h, rest) = (rest / 3_600_000, rest % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    if days > 0 {
        format!("{days}d {h:02}:{m:02}:{s:02}.{milli:03}")
    } else {
        format!("{h}:{m:02}:{s:02}.{milli:03}")
    }
}

/// A table in the house style, fitted to the terminal (or `COLUMNS`).
pub fn new_table(color: bool) -> Table {
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

/// A rule's name in a table cell: `reset-on-handshake` breaks after its last hyphen, so that a
/// column of rule names stays narrow at 80 columns.
pub(crate) fn rule_cell(name: &str) -> String {
    match name.rsplit_once('-') {
        Some((head, tail)) if name.len() > 14 => format!("{head}-\n{tail}"),
        _ => name.to_string(),
    }
}
