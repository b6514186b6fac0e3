//! `serve`'s status page (`/`): one row per supervised server and the latest launches of each
//! on the same timeline strip as `probe --report`, in the same escaped, script-free HTML
//! ([`super::html::page`]).

use std::time::SystemTime;

use crate::engine::probe::ProbeRun;
use crate::engine::serve::ServerStatus;
use crate::render::timeline::Track;

use super::html::{page as html_page, Page, TableView};
use super::svg;

/// The run's kept launches with every time measured from the first of them, so that the
/// strip shows the latest launches across its whole width however long `serve` has run.
fn windowed(mut run: ProbeRun) -> ProbeRun {
    let Some(start) = run.launches.first().map(|l| l.report.launched_at_ms) else {
        return run;
    };
    for l in &mut run.launches {
        let r = &mut l.report;
        r.launched_at_ms -= start;
        r.ended_at_ms -= start;
        if let Some(c) = r.connected_at_ms.as_mut() {
            *c -= start;
        }
    }
    if let Some(p) = run.planned.as_mut() {
        p.at_ms -= start;
    }
    run.elapsed_ms = (run.elapsed_ms - start).max(0.0);
    run
}

fn state(s: &ServerStatus) -> String {
    match (&s.cannot_launch, s.finished, s.up, s.host_down) {
        (Some(e), _, _, _) => format!("cannot launch: {e}"),
        (None, Some(f), _, _) => format!("not relaunched ({f:?})"),
        (None, None, true, _) => "up".into(),
        (None, None, false, true) => "down: the host would be raising mcpl-down".into(),
        (None, None, false, false) => "waiting to relaunch".into(),
    }
}

fn since(t: SystemTime) -> String {
    let ago = SystemTime::now()
        .duration_since(t)
        .map_or(0.0, |d| d.as_secs_f64());
    format!(
        "{} ago",
        crate::engine::policy::timings::format_ms((ago * 1000.0).round())
    )
}

/// The page, for `statuses` of a `serve` started at `started`.
pub(crate) fn page(statuses: &[ServerStatus], started: SystemTime) -> String {
    let mut summary = TableView {
        header: [
            "server",
            "host",
            "rule",
            "state",
            "since",
            "launches",
            "attempt",
            "short-lived in a row",
            "tools",
            "why",
        ]
        .map(String::from)
        .to_vec(),
        ..TableView::default()
    };
    let mut tracks = Vec::new();
    for s in statuses {
        summary.rows.push(vec![
            s.name.clone(),
            s.host.clone(),
            s.rule.clone(),
            state(s),
            since(s.state_since),
            s.launches.to_string(),
            s.attempt.to_string(),
            s.short_lived_streak.to_string(),
            s.tools.map_or_else(|| "-".into(), |t| t.to_string()),
            s.top_diagnosis
                .map_or_else(|| "-".into(), |d| d.as_str().to_string()),
        ]);
        if let Some(a) = &s.last_alert {
            summary.note = Some(match summary.note.take() {
                Some(n) => format!("{n}\n{}: last mcpl-down: {a}", s.name),
                None => format!("{}: last mcpl-down: {a}", s.name),
            });
        }
        tracks.push(Track::of_probe(&s.name, &windowed(s.snapshot())));
    }
    let p = Page {
        kind: "serve".into(),
        title: "mcpl-doctor serve".into(),
        command: "mcpl-doctor serve".into(),
        facts: vec![
            ("started".into(), since(started)),
            ("servers".into(), statuses.len().to_string()),
        ],
        verdict: None,
        summary: Some(summary),
        timeline_svg: svg::timeline(&tracks, "The latest launches of each server", false),
        timeline_caption: format!(
            "Each server's latest {} launches at most, times from the first of them.",
            crate::engine::serve::status::RING
        ),
        sections: Vec::new(),
    };
    html_page(&p)
}
