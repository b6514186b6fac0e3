//! The terminal and the standard streams: writing to stderr without ever panicking, noticing a
//! reader that went away (`| head`), and the width output is fitted to.

use std::io;

/// Write one line to stderr. An unwritable stderr (a closed pipe, `2>/dev/full`) is ignored:
/// there is nowhere left to say so, and a doctor never panics over its own output.
pub(crate) fn stderr_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Write text to stderr as it is (no newline added); errors are ignored as in [`stderr_line`].
pub(crate) fn stderr_text(text: &str) {
    use std::io::Write;
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `eprintln!` that never panics (see [`stderr_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::render::terminal::stderr_line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// Whether writing failed because the reader went away (`| head`): the run ends quietly with
/// exit 0, as ripgrep and fd do. Looks through wrapped errors (serde_json's, `io::Error::other`).
pub(crate) fn is_broken_pipe(e: &io::Error) -> bool {
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
pub(crate) fn stdout_closed() -> bool {
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

thread_local! {
    /// A width set by [`with_width`] (tests), before the terminal and `COLUMNS`.
    static WIDTH: std::cell::Cell<Option<u16>> = const { std::cell::Cell::new(None) };
}

/// Run `f` with [`terminal_width`] answering `width` on this thread (snapshot tests).
#[cfg(test)]
pub(crate) fn with_width<R>(width: u16, f: impl FnOnce() -> R) -> R {
    let before = WIDTH.with(|w| w.replace(Some(width)));
    let out = f();
    WIDTH.with(|w| w.set(before));
    out
}

/// Below this many columns a terminal's reported width is taken as unknown: a pty nobody gave
/// a size (`script`, `expect`, some `docker exec -t`, `ssh -t` and CI runners) reports 0, and
/// fitting text to it would put every word on its own line.
pub(crate) const MIN_TERMINAL_WIDTH: u16 = 20;

/// The terminal's width (when it reports a usable one, see [`MIN_TERMINAL_WIDTH`]), or
/// `COLUMNS`, or 80.
pub(crate) fn terminal_width() -> u16 {
    if let Some(w) = WIDTH.with(|w| w.get()) {
        return w;
    }
    if let Some((w, _)) = terminal_size().filter(|(w, _)| *w >= MIN_TERMINAL_WIDTH) {
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
    let (terminal_size::Width(w), terminal_size::Height(h)) =
        terminal_size::terminal_size_of(io::stdout())?;
    Some((w, h))
}
