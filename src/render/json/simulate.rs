//! `simulate --format json`: the rows and summary of every rule's run as one document.

use std::io::{self, Write};

use crate::engine::policy::EngineKind;
use crate::engine::schedule::{Row, Summary};
use crate::render::text::simulate::{strip_line, View};

/// The JSON document's version; bumped when a field changes meaning or goes away.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// `mcpl-doctor simulate --format json`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct JsonDoc<'a> {
    schema_version: u32,
    server: String,
    seed: Option<u64>,
    engine: EngineKind,
    runs: Vec<JsonRun<'a>>,
}

/// One rule's run.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct JsonRun<'a> {
    preset: &'static str,
    description: &'static str,
    interval_ms: Option<f64>,
    cap_ms: Option<f64>,
    span_ms: Option<f64>,
    max_attempts: Option<u64>,
    rows: &'a [Row],
    rows_total: u64,
    summary: &'a Summary,
    timeline: String,
    /// Where Ctrl-C stopped this run (simulated ms): its rows, summary and timeline hold over
    /// the time before it. Absent when the run went to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupted_at_ms: Option<f64>,
}

/// Infinity is not JSON: timings that are infinite are written as null with a note.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The same rows and summary as one JSON document.
pub(crate) fn write_json(view: &View) -> io::Result<()> {
    let doc = JsonDoc {
        schema_version: SCHEMA_VERSION,
        server: view.scenario.to_string(),
        seed: view.seed,
        engine: view.engine,
        runs: view
            .runs
            .iter()
            .map(|r| JsonRun {
                preset: r.preset.name(),
                description: r.preset.describe(),
                interval_ms: finite(r.request.policy.timings.interval_ms),
                cap_ms: finite(r.request.policy.timings.cap_ms),
                span_ms: r
                    .request
                    .max_attempts
                    .is_none()
                    .then_some(r.request.span_ms),
                max_attempts: r.request.max_attempts,
                rows: &r.simulation.rows,
                rows_total: r.simulation.rows_total,
                summary: &r.simulation.summary,
                timeline: strip_line(&r.simulation),
                interrupted_at_ms: r.simulation.interrupted_at_ms,
            })
            .collect(),
    };
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &doc).map_err(io::Error::other)?;
    writeln!(out)?;
    out.flush()
}
