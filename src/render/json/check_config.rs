//! `check-config --format json`: one document with the files checked, those that could not be
//! read, every finding and the totals.

use serde::Serialize;

use crate::engine::config::Totals;
use crate::engine::config::{Finding, LoadError, Report};
use crate::render::sanitize;

/// The version of `--format json`'s document. Bump on any incompatible change.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// One file checked.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonFile<'a> {
    /// The file as named (`<stdin>`, or `--stdin-filename`'s name, for standard input).
    file: &'a str,
    /// The host whose dialect it was read in (`--host`, or detected from its name and shape).
    host: &'a str,
    /// Server entries found in it.
    servers: usize,
    errors: usize,
    warnings: usize,
}

/// A file that could not be read or parsed (exit status 2).
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonUnreadable {
    file: String,
    /// 1-based line of the problem, when it has a position.
    line: Option<usize>,
    /// 1-based column of the problem, when it has a position.
    column: Option<usize>,
    /// What is wrong, in plain words.
    message: String,
}

/// `mcpl-doctor check-config --format json`.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct JsonDoc<'a> {
    /// The version of this document's shape; bumped on any incompatible change.
    schema_version: u32,
    /// The host rule the findings describe (`--preset`).
    preset: &'a str,
    /// Every file checked.
    files: Vec<JsonFile<'a>>,
    /// Files that could not be read or parsed.
    unreadable: Vec<JsonUnreadable>,
    /// Every finding, file by file, in document order.
    findings: Vec<&'a Finding>,
    /// Counts over every file.
    summary: &'a Totals,
}

/// One JSON document: `schema_version`, the files, those that could not be read, every
/// finding (severity, code, file, line, column, path, server, field, message), and totals.
pub(crate) fn json(
    reports: &[Report],
    errors: &[LoadError],
    totals: &Totals,
    preset: &str,
) -> String {
    let doc = JsonDoc {
        schema_version: SCHEMA_VERSION,
        preset,
        files: reports
            .iter()
            .map(|r| JsonFile {
                file: &r.file,
                host: r.host.name(),
                servers: r.servers,
                errors: r.errors(),
                warnings: r.warnings(),
            })
            .collect(),
        unreadable: errors
            .iter()
            .map(|e| JsonUnreadable {
                file: e.file().to_string(),
                line: e.position().map(|p| p.0),
                column: e.position().map(|p| p.1),
                message: e.to_string(),
            })
            .collect(),
        findings: reports.iter().flat_map(|r| &r.findings).collect(),
        summary: totals,
    };
    let mut s = sanitize::json(serde_json::to_string_pretty(&doc).unwrap_or_else(|e| {
        format!("{{\"schema_version\": {SCHEMA_VERSION}, \"error\": \"{e}\"}}")
    }));
    s.push('\n');
    s
}
