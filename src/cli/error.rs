//! Errors, printed once. Every subcommand returns `anyhow::Result<u8>`: the exit status of a run
//! that went through (0, 1 for findings, 128+N for a signal), or an error; [`report`] is the one
//! place that prints an error (`error:`, then `caused by:` for each cause not already said, then
//! `hint:`) and chooses its exit status. Findings are results, not errors.
//!
//! A closed stdout is not an error: a write that fails with a broken pipe ends quietly with 0
//! (`| head` has what it wants), as ripgrep and fd do.

use crate::engine::config::LoadError;
use crate::engine::fleet::{PlanError, TimingRefusal};
use crate::exit;
use crate::render::sanitize::sanitize;
use crate::render::style::{paint, BAD, HINT};

/// An error as a person reads it: what went wrong, what to try (`hint:`), and text to show
/// under it (a diagnosis of a command that cannot be launched).
#[derive(Debug)]
pub(crate) struct Failure {
    message: String,
    hint: Option<String>,
    detail: Option<String>,
}

impl Failure {
    /// The message to show after `error: `.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            hint: None,
            detail: None,
        }
    }

    /// With `hint: <hint>` under it.
    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Failure {
        self.hint = Some(hint.into());
        self
    }

    /// With `detail` under it, as it is (lines ending in a newline).
    /// The hint, if one was given.
    pub(crate) fn hint_text(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    pub(crate) fn detail(mut self, detail: impl Into<String>) -> Failure {
        self.detail = Some(detail.into());
        self
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// `Err(Failure)` as an `anyhow::Error`, for `return fail(...)`.
pub(crate) fn fail<T>(message: impl Into<String>) -> anyhow::Result<T> {
    Err(Failure::new(message).into())
}

/// A file that cannot be written, as a person reads it: the path sanitised whole (a newline in
/// it stays on the one line).
pub(crate) fn unwritable(e: &crate::engine::outfile::WriteError) -> Failure {
    Failure::new(sanitize(&e.to_string()))
}

/// Whether `e` (or anything it wraps) is a write to a reader that went away.
pub(crate) fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(crate::render::is_broken_pipe)
    })
}

/// The hint the first error in the chain that has one gives.
fn hint_of(chain: &[&(dyn std::error::Error + 'static)]) -> Option<String> {
    chain.iter().find_map(|c| {
        if let Some(f) = c.downcast_ref::<Failure>() {
            f.hint.clone()
        } else if let Some(p) = c.downcast_ref::<PlanError>() {
            p.hint()
        } else if let Some(l) = c.downcast_ref::<LoadError>() {
            l.hint()
        } else {
            c.downcast_ref::<TimingRefusal>()
                .map(|t| t.hint().to_string())
        }
    })
}

/// The text `report` prints for `e`: `error: ...`, `caused by: ...` for each cause whose words
/// the lines above do not already hold, `hint: ...`, then any detail. Every line is sanitised
/// for the terminal (server and file names reach these messages).
pub(crate) fn render(e: &anyhow::Error, color: bool) -> String {
    render_chain(&e.chain().collect::<Vec<_>>(), color)
}

/// [`render`] for an error a run reports and goes on after (`check-config`'s file that cannot
/// be read, beside the others' findings): the same lines, from the same place, and `also` as
/// one more `hint:` line.
pub(crate) fn render_error(
    e: &(dyn std::error::Error + 'static),
    also: Option<&str>,
    color: bool,
) -> String {
    let mut chain = vec![e];
    while let Some(cause) = chain.last().and_then(|c| c.source()) {
        chain.push(cause);
    }
    let mut out = render_chain(&chain, color);
    if let Some(hint) = also {
        out.push_str(&format!(
            "{}: {}\n",
            paint(color, HINT, "hint"),
            sanitize(hint)
        ));
    }
    out
}

/// `error:` for the first of `chain`, `caused by:` for the rest not already said, `hint:`, detail.
fn render_chain(chain: &[&(dyn std::error::Error + 'static)], color: bool) -> String {
    let lines = |text: &str| -> String {
        text.split('\n')
            .map(sanitize)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut said = chain.first().map(ToString::to_string).unwrap_or_default();
    let mut out = format!("{}: {}\n", paint(color, BAD, "error"), lines(&said));
    for cause in chain.iter().skip(1) {
        let text = cause.to_string();
        if said.contains(&text) {
            continue;
        }
        out.push_str(&format!("caused by: {}\n", lines(&text)));
        said.push('\n');
        said.push_str(&text);
    }
    if let Some(hint) = hint_of(chain) {
        out.push_str(&format!(
            "{}: {}\n",
            paint(color, HINT, "hint"),
            lines(&hint)
        ));
    }
    if let Some(detail) = chain
        .iter()
        .find_map(|c| c.downcast_ref::<Failure>()?.detail.clone())
    {
        out.push_str(&detail);
    }
    out
}

/// Print `e` once on stderr and return the exit status: 2 (usage or I/O error), or 0 quietly
/// for a broken pipe.
pub(crate) fn report(e: &anyhow::Error, color: bool) -> u8 {
    if is_broken_pipe(e) {
        return exit::OK;
    }
    crate::render::stderr_text(&render(e, color));
    exit::USAGE
}

/// For a path that looks like a Windows one (a drive letter, backslashes): a hint naming the
/// platforms mcpl-doctor runs on.
pub(crate) fn windows_path_hint(path: &str) -> Option<&'static str> {
    let b = path.as_bytes();
    let drive =
        b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/');
    (drive || path.contains('\\')).then_some(
        "this looks like a Windows path; mcpl-doctor runs on Linux (and macOS, untested), and \
         reads paths as they are written there (forward slashes, no drive letters)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_its_new_causes_and_its_hint_each_on_a_line() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(io).context("reading hosts.json");
        assert_eq!(
            render(&e, false),
            "error: reading hosts.json\ncaused by: no such file\n"
        );
        let said = anyhow::Error::new(Failure::new("cannot write x: disk full").hint("try -o"));
        assert_eq!(
            render(&said, false),
            "error: cannot write x: disk full\nhint: try -o\n"
        );
        let again = anyhow::Error::new(std::io::Error::other("disk full"))
            .context("cannot write x: disk full");
        assert_eq!(render(&again, false), "error: cannot write x: disk full\n");
    }

    #[test]
    fn colour_names_the_labels_only_and_lines_are_sanitised() {
        let e = anyhow::Error::new(Failure::new("bad\u{202e}name\nsecond").hint("h"));
        assert_eq!(
            render(&e, true),
            "\u{1b}[1;31merror\u{1b}[0m: bad\\u{202e}name\nsecond\n\u{1b}[1;36mhint\u{1b}[0m: h\n"
        );
    }

    #[test]
    fn a_broken_pipe_is_quiet() {
        let pipe = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "closed");
        let e = anyhow::Error::new(pipe).context("cannot write the report");
        assert!(is_broken_pipe(&e));
        assert_eq!(report(&e, false), exit::OK);
    }
}
