//! Words for the engine's values, shared by every renderer: what stopped a run, a rule's name in
//! a narrow column.

use crate::engine::stop::StopCause;

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

/// A rule's name in a table cell: `reset-on-handshake` breaks after its last hyphen, so that a
/// column of rule names stays narrow at 80 columns.
pub(crate) fn rule_cell(name: &str) -> String {
    match name.rsplit_once('-') {
        Some((head, tail)) if name.len() > 14 => format!("{head}-\n{tail}"),
        _ => name.to_string(),
    }
}

/// A rule's name as a column's header (`simulate`'s summary): whole from 100 columns, where a
/// side-by-side summary has room for it; broken as [`rule_cell`] below.
pub(crate) fn rule_header(name: &str) -> String {
    if crate::render::terminal::terminal_width() >= 100 {
        name.to_string()
    } else {
        rule_cell(name)
    }
}
