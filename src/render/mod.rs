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

pub(crate) mod ci;
pub(crate) mod context;
pub(crate) mod json;
pub(crate) mod metrics;
pub(crate) mod picture;
pub(crate) mod sanitize;
pub(crate) mod style;
pub(crate) mod terminal;
pub(crate) mod text;
pub(crate) mod timeline;
pub(crate) mod units;
pub(crate) mod words;

#[cfg(test)]
mod check_config_outputs;

pub(crate) use crate::engine::stop::StopCause;
pub(crate) use sanitize::sanitize;
pub(crate) use style::ColorChoice;
pub(crate) use terminal::{is_broken_pipe, stderr_line, stderr_text, stdout_closed};
