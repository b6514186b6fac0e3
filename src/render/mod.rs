//! Everything that touches a terminal or a file a person or a machine reads, sorted by what it
//! produces:
//!
//! - [`text`]: what a person reads on a terminal (tables, the probe report, `check-config`'s
//!   diagnostics, `simulate`'s table, timeline strips, the live progress line);
//! - [`json`]: the documents for machines (`--json`, `--events`, `--format json`) and their
//!   JSON Schemas;
//! - [`ci`]: what CI systems read (SARIF, GitHub Actions annotations);
//! - [`picture`]: SVG timelines and the HTML report.
//!
//! They share the leaves: [`style`] (colour), [`sanitize`] (server- and file-controlled text
//! made safe), [`terminal`] (the streams and the width), [`units`], [`words`] (the engine's
//! values in words), [`timeline`] (what happened over time, aggregated into columns) and
//! [`context`] (what a probe's renderers are told besides the run).
//! A leaf uses no renderer; a renderer may use the leaves, and `picture`, `json` and `ci` may
//! use `text`'s words, never the other way round.

pub mod ci;
pub mod context;
pub mod json;
pub mod metrics;
pub mod picture;
pub mod sanitize;
pub mod style;
pub mod terminal;
pub mod text;
pub mod timeline;
pub mod units;
pub mod words;

#[cfg(test)]
mod check_config_outputs;

pub use crate::engine::stop::StopCause;
pub use sanitize::sanitize;
pub use style::ColorChoice;
pub use terminal::{is_broken_pipe, stderr_line, stderr_text, stdout_closed};
