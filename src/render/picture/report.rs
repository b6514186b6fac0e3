//! What `--report FILE.html` and `--svg FILE` write for `probe`, `probe --all` and `simulate`:
//! the run's facts, tables and verdicts gathered into a [`Page`], its timeline drawn by
//! [`super::svg`].

use std::path::Path;

use super::html::{self, DiagnosisView, Page, Section, TableView};
use super::svg::{self, RuleStrip};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::{AllContext, ServerReport, ServerResult};
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{EngineKind, Preset, Timings};
use crate::engine::probe::runner::verdict::{replay_timings, Prediction, Verdict, PREDICTED_RULES};
use crate::engine::probe::ProbeRun;
use crate::engine::schedule::{self, Request, Scenario, Simulation, DAY_MS};
use crate::engine::stop::StopCause;
use crate::render::context::Context;
use crate::render::text::probe::{
    counted_cell, ended_cell, finish_text, notes, per_day, replay_text, server_line, since_start,
    wait_cell,
};
use crate::render::text::simulate::{self as simulate_text, summary_rows, View};
use crate::render::text::why::launches_text;
use crate::render::timeline::Track;
use crate::render::units::{clock, percent, rfc3339, round_ms};

/// Launch tables longer than this show their first and last half.
pub(crate) const TABLE_ROWS: usize = 200;
/// Rows a simulation keeps for the report's timeline and table.
pub(crate) const SIMULATION_ROWS: usize = 100_000;
/// Columns of a simulation's strip for the report (the SVG's plot width with names).
pub(crate) const STRIP_COLUMNS: usize = svg::WIDTH - 160;

/// `rows`, or its first and last halves with a note when there are more than [`TABLE_ROWS`].
fn capped(
    header: Vec<String>,
    mut rows: Vec<Vec<String>>,
    total: u64,
    json_hint: &str,
) -> TableView {
    let mut note = None;
    if rows.len() > TABLE_ROWS {
        let half = TABLE_ROWS / 2;
        let left_out = rows.len() - TABLE_ROWS;
        let tail = rows.split_off(rows.len() - half);
        rows.truncate(half);
        let mut gap = vec![String::new(); header.len()];
        if let Some(first) = gap.get_mut(1) {
            *first = format!("... {left_out} launches left out ...");
        }
        rows.push(gap);
        rows.extend(tail);
        note = Some(format!(
            "The first and last {half} of {} launches; {json_hint} has every one.",
            rows.len() - 1 + left_out
        ));
    }
    if (rows.len() as u64) < total && note.is_none() {
        note = Some(format!(
            "The first {} of {total} launches; the timeline and figures cover them all.",
            rows.len()
        ));
    }
    TableView { header, rows, note }
}

fn launch_table(run: &ProbeRun, by: Option<StopCause>) -> TableView {
    // A host that raises no `mcpl-down` (VS Code, Claude Desktop) has no column for it.
    let alerts = run.policy.has_alert();
    let mut header = [
        "#",
        "attempt",
        "launched",
        "handshake",
        "connected",
        "ended",
        "counted as",
        "wait",
    ]
    .map(String::from)
    .to_vec();
    if alerts {
        header.push("mcpl-down".into());
    }
    let rows = run
        .launches
        .iter()
        .map(|l| {
            let r = &l.report;
            let mut row = vec![
                l.number.to_string(),
                l.attempt.to_string(),
                since_start(r.launched_at_ms),
                r.handshake_ms()
                    .map_or_else(|| "-".into(), |h| format_ms(h.round())),
                r.connected_ms()
                    .map_or_else(|| "-".into(), |c| format_ms(c.round())),
                ended_cell(l, run.finish, by.unwrap_or(StopCause::Interrupt).short()),
                counted_cell(run, l),
                wait_cell(l),
            ];
            if alerts {
                row.push(l.alert.clone().unwrap_or_else(|| "-".into()));
            }
            row
        })
        .collect();
    capped(header, rows, run.launches.len() as u64, "--json")
}

fn predictions_table(preds: &[Prediction]) -> TableView {
    let header = [
        "rule",
        "launches/day",
        "first mcpl-down",
        "mcpl-down/day",
        "status pairs/day",
        "webhooks/day",
        "connected",
    ]
    .map(String::from)
    .to_vec();
    let rows = preds
        .iter()
        .map(|p| {
            // A host that raises no `mcpl-down` has no alert figures (as in `simulate`).
            let na = |v: String| if p.raises_alert { v } else { "n/a".into() };
            vec![
                p.rule.clone(),
                per_day(p.launches_per_day),
                na(crate::render::text::probe::first_down(p)),
                na(per_day(p.downs_per_day)),
                na(per_day(p.status_pairs_per_day)),
                na(per_day(p.webhooks_per_day)),
                percent(p.connected_share),
            ]
        })
        .collect();
    TableView {
        header,
        rows,
        note: None,
    }
}

/// One simulation per rule over a day of `scenario`, for the small multiples.
fn day_strips(
    rules: &[(String, Preset, Timings)],
    scenario: &Scenario,
    engine: EngineKind,
    seed: Option<u64>,
) -> Vec<(String, Simulation)> {
    rules
        .iter()
        .map(|(name, preset, timings)| {
            let req = Request {
                policy: preset.policy_with(engine, *timings),
                scenario: scenario.clone(),
                max_attempts: None,
                span_ms: DAY_MS,
                seed,
                keep_rows: 0,
                strip_width: 600,
            };
            (name.clone(), schedule::simulate(&req))
        })
        .collect()
}

fn multiples(sims: &[(String, Simulation)], title: &str) -> String {
    let strips: Vec<RuleStrip<'_>> = sims
        .iter()
        .map(|(rule, sim)| {
            let s = &sim.summary;
            RuleStrip {
                rule,
                strip: &sim.strip,
                end_ms: DAY_MS,
                figures: format!(
                    "{} launches/day, {} mcpl-down/day, {} connected",
                    per_day(s.launches_per_day),
                    per_day(s.downs_per_day),
                    percent(s.connected_share)
                ),
            }
        })
        .collect();
    svg::small_multiples(&strips, title, false)
}

/// The rules a probe's verdict predicts for, with the timings `judge` replayed them with.
fn predicted_rules(run: &ProbeRun, verdict: &Verdict) -> Vec<(String, Preset, Timings)> {
    verdict
        .predictions
        .iter()
        .filter_map(|p| {
            let preset: Preset = p.rule.parse().ok()?;
            Some((p.rule.clone(), preset, replay_timings(run, preset)))
        })
        .collect()
}

fn run_facts(run: &ProbeRun, ctx: &Context<'_>) -> Vec<(String, String)> {
    let threshold = run
        .policy
        .lasting_threshold(0.0)
        .map(|t| format!("lasting after {}", format_ms(t)))
        .unwrap_or_else(|| "every handshake resets the count".into());
    let mut f = vec![
        ("target".to_string(), ctx.target.to_string()),
        ("handshake".to_string(), ctx.protocol.name().to_string()),
        ("rule".to_string(), run.policy.name.clone()),
        (
            "timings".to_string(),
            // A host's own rule in its words; agent-framework's by its timings.
            match run
                .policy
                .name
                .parse::<Preset>()
                .ok()
                .filter(|p| p.host_title().is_some())
            {
                Some(p) => p.describe().to_string(),
                None => format!(
                    "interval {}, cap {}, {threshold}",
                    format_ms(run.policy.timings.interval_ms),
                    format_ms(run.policy.timings.cap_ms)
                ),
            },
        ),
        ("seed".to_string(), run.seed.to_string()),
        ("started".to_string(), rfc3339(run.started_wall)),
        (
            "observed".to_string(),
            format!(
                "{} ({} launch{})",
                format_ms(round_ms(run.elapsed_ms)),
                run.launches.len(),
                if run.launches.len() == 1 { "" } else { "es" }
            ),
        ),
        ("finished".to_string(), finish_text(run, ctx.interrupted)),
    ];
    if let Some(s) = run.launches.iter().find_map(|l| l.report.server.as_ref()) {
        f.insert(2, ("server".to_string(), server_line(s)));
    }
    f
}

/// The diagnosis ("Why") for the page: each cause with its confidence, evidence and next step.
fn diagnosis_views(why: &[Diagnosis]) -> Vec<DiagnosisView> {
    why.iter()
        .map(|d| DiagnosisView {
            summary: format!(
                "{} ({} confidence): {}",
                d.id,
                d.confidence.as_str(),
                d.summary
            ),
            evidence: d
                .evidence
                .iter()
                .map(|e| {
                    let whence = if e.launches.is_empty() {
                        e.source.as_str().to_string()
                    } else {
                        format!("{}, {}", launches_text(&e.launches), e.source.as_str())
                    };
                    format!("{whence}: {}", e.text)
                })
                .collect(),
            next_step: d.next_step.clone(),
        })
        .collect()
}

/// One probed server's section.
fn probe_section(
    heading: Option<String>,
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
) -> Section {
    let diagnosis = diagnosis_views(ctx.why);
    let rules = predicted_rules(run, verdict);
    let (predictions_svg, caption) = match &verdict.scenario {
        Some(sc) if !rules.is_empty() => (
            Some(multiples(
                &day_strips(&rules, sc, ctx.protocol.engine(), Some(run.seed)),
                "What each host rule would do over a day",
            )),
            format!(
                "What each host rule would do over a day, replaying this behaviour ({})",
                replay_text(sc)
            ),
        ),
        _ => (None, "What each host rule would do over a day".to_string()),
    };
    Section {
        heading,
        facts: if ctx.target.is_empty() {
            Vec::new()
        } else {
            run_facts(run, ctx)
        },
        verdict: Some(format!("{}.", verdict.sentence)),
        diagnosis,
        launches: launch_table(run, ctx.interrupted),
        predictions: (!verdict.predictions.is_empty())
            .then(|| predictions_table(&verdict.predictions)),
        predictions_svg,
        predictions_caption: caption,
        notes: notes(run),
    }
}

fn timeline_caption(tracks: &[Track]) -> String {
    let span = tracks.iter().map(|t| t.end_ms).fold(0.0, f64::max);
    let launches: u64 = tracks.iter().map(|t| t.launches_total).sum();
    format!(
        "{} over {}: {launches} launch{}. Hover a launch mark for its row, a marker for its \
         text. Green is connected, blue waiting to relaunch (orange under it: the wait's \
         jitter range), grey down or handshaking.",
        if tracks.len() > 1 {
            format!("{} timelines on one axis", tracks.len())
        } else {
            "The timeline".to_string()
        },
        format_ms(round_ms(span)),
        if launches == 1 { "" } else { "es" }
    )
}

/// `probe`'s page.
pub(crate) fn probe_page(
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    command: &str,
) -> Page {
    let tracks = vec![Track::of_probe("", run)];
    Page {
        kind: "probe".into(),
        title: format!("probe: {}", ctx.target),
        command: command.to_string(),
        facts: Vec::new(),
        verdict: None,
        summary: None,
        timeline_svg: svg::timeline(&tracks, &format!("Timeline of {}", ctx.target), false),
        timeline_caption: timeline_caption(&tracks),
        sections: vec![probe_section(None, run, verdict, ctx)],
    }
}

/// `probe`'s timeline alone.
pub(crate) fn probe_svg(run: &ProbeRun, ctx: &Context<'_>) -> String {
    svg::timeline(
        &[Track::of_probe("", run)],
        &format!("Timeline of {}", ctx.target),
        true,
    )
}

fn all_tracks(servers: &[ServerReport]) -> Vec<Track> {
    crate::render::text::probe_all::tracks(servers)
}

/// `probe --all`'s page: the summary, every server's timeline on one axis, then each server.
pub(crate) fn probe_all_page(
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    command: &str,
) -> Page {
    let tracks = all_tracks(servers);
    let mut summary = TableView {
        header: ["server", "transport", "launches", "connected", "verdict"]
            .map(String::from)
            .to_vec(),
        ..TableView::default()
    };
    let mut sections = Vec::new();
    let mut stayed = 0;
    for s in servers {
        summary.rows.push(summary_row(s));
        if let ServerResult::Probed(p) = &s.result {
            if crate::engine::probe::runner::verdict::stayed_up(&p.run) {
                stayed += 1;
            }
            let pctx = Context {
                target: &p.target,
                entry: None,
                protocol: p.protocol,
                interrupted: p.interrupted,
                why: &s.why,
            };
            sections.push(probe_section(
                Some(format!("{} ({}, {})", s.name, s.transport, s.at)),
                &p.run,
                &p.verdict,
                &pctx,
            ));
        }
    }
    let probed = sections.len();
    Page {
        kind: "probe --all".into(),
        title: format!("probe --all: {}", ctx.file),
        command: command.to_string(),
        facts: all_facts(ctx),
        verdict: Some(format!(
            "{stayed} of {probed} probed server{} stayed up ({} entr{} in the file){}.",
            if probed == 1 { "" } else { "s" },
            servers.len(),
            if servers.len() == 1 { "y" } else { "ies" },
            ctx.interrupted
                .map(|by| format!("; {}", by.words()))
                .unwrap_or_default()
        )),
        summary: Some(summary),
        timeline_svg: svg::timeline(&tracks, "Every server's timeline", false),
        timeline_caption: timeline_caption(&tracks),
        sections,
    }
}

/// A server's row of the `probe --all` summary: name, transport, launches, share connected and
/// its verdict (or why it was not probed).
fn summary_row(s: &ServerReport) -> Vec<String> {
    let not_probed = |verdict: String| {
        vec![
            s.name.clone(),
            s.transport.clone(),
            "0".into(),
            "-".into(),
            verdict,
        ]
    };
    match &s.result {
        ServerResult::Probed(p) => {
            let track = Track::of_probe(&s.name, &p.run);
            vec![
                s.name.clone(),
                s.transport.clone(),
                p.run.launches.len().to_string(),
                percent(track.connected_share),
                p.verdict.short.clone(),
            ]
        }
        ServerResult::CannotLaunch(e) => not_probed(format!("cannot launch: {e}")),
        ServerResult::Refused { label, findings } => not_probed(format!(
            "{label}: {}",
            findings
                .iter()
                .map(|f| format!("{} ({}, {})", f.message, f.at, f.code))
                .collect::<Vec<_>>()
                .join("; ")
        )),
        ServerResult::Skipped(why) => not_probed(format!("skipped: {why}")),
    }
}

/// The facts at the top of `probe --all`'s page: the file, the rules run, the seed, when and
/// how long.
fn all_facts(ctx: &AllContext<'_>) -> Vec<(String, String)> {
    vec![
        ("configuration".into(), ctx.file.to_string()),
        (
            if ctx.rules.len() == 1 {
                "rule"
            } else {
                "rules"
            }
            .into(),
            ctx.rules
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        (
            "seed".into(),
            format!("{} (plus each entry's position in the file)", ctx.seed),
        ),
        ("started".into(), rfc3339(ctx.started_wall)),
        ("observed".into(), format_ms(round_ms(ctx.elapsed_ms))),
    ]
}

/// `probe --all`'s timelines alone.
pub(crate) fn probe_all_svg(servers: &[ServerReport]) -> String {
    svg::timeline(&all_tracks(servers), "Every server's timeline", true)
}

fn simulate_tracks(view: &View) -> Vec<Track> {
    view.runs
        .iter()
        .map(|r| Track::of_simulation(r.preset.name(), &r.simulation))
        .collect()
}

/// `simulate`'s page: every rule's simulation on one axis, its schedule, and the rules over a
/// day.
pub(crate) fn simulate_page(view: &View, command: &str) -> Page {
    let tracks = simulate_tracks(view);
    let mut sections = Vec::new();
    for run in &view.runs {
        let header = [
            "#",
            "attempt",
            "launched at",
            "what happened",
            "counted as",
            "wait (jitter range)",
            "mcpl-down / status lines",
        ]
        .map(String::from)
        .to_vec();
        let rows = run
            .simulation
            .rows
            .iter()
            .map(|row| {
                vec![
                    row.launch.to_string(),
                    row.attempt.to_string(),
                    clock(row.launched_at_ms),
                    row.happened_text.clone(),
                    row.counted.describe().to_string(),
                    simulate_text::wait_cell(row),
                    simulate_text::notices_cell(row),
                ]
            })
            .collect();
        sections.push(Section {
            heading: Some(format!(
                "{}: {} ({})",
                run.preset.name(),
                run.preset.describe(),
                simulate_text::timings_line(run)
            )),
            facts: summary_rows(run)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            launches: capped(header, rows, run.simulation.rows_total, "--json --rows N"),
            ..Section::default()
        });
    }
    // The rules over a day, small multiples.
    let mut presets: Vec<Preset> = PREDICTED_RULES.to_vec();
    for r in &view.runs {
        if !presets.contains(&r.preset) {
            presets.push(r.preset);
        }
    }
    let (interval, cap) = view.explicit_timings;
    let rules: Vec<(String, Preset, Timings)> = presets
        .iter()
        .map(|p| {
            let d = p.default_timings();
            (
                p.name().to_string(),
                *p,
                Timings {
                    interval_ms: interval.unwrap_or(d.interval_ms),
                    cap_ms: cap.unwrap_or(d.cap_ms),
                },
            )
        })
        .collect();
    let day = day_strips(&rules, &view.scenario, view.engine, view.seed);
    if let Some(last) = sections.last_mut() {
        last.predictions_caption = "Each rule over a day of this server".into();
        last.predictions_svg = Some(multiples(&day, "Each rule over a day"));
    }
    let seed = match view.seed {
        Some(s) => format!("{s} (--seed {s} repeats this run)"),
        None => "no jitter (nominal waits)".into(),
    };
    Page {
        kind: "simulate".into(),
        title: format!("simulate: {}", view.scenario),
        command: command.to_string(),
        facts: vec![
            ("what was simulated".into(), simulate_text::header(view)),
            ("seed".into(), seed),
        ],
        verdict: None,
        summary: None,
        timeline_svg: svg::timeline(&tracks, "Simulated timeline", false),
        timeline_caption: timeline_caption(&tracks),
        sections,
    }
}

/// `simulate`'s timelines alone.
pub(crate) fn simulate_svg(view: &View) -> String {
    svg::timeline(&simulate_tracks(view), "Simulated timeline", true)
}

/// Write `text` to `path` (a usage error on failure, with the path named).
pub(crate) fn write_file(
    path: &Path,
    text: &str,
) -> Result<(), crate::engine::outfile::WriteError> {
    crate::engine::outfile::write(path, text.as_bytes())
}

/// The command line as run, secrets masked by `mask`.
pub(crate) fn command_line(mask: &dyn Fn(&str) -> String) -> String {
    let args: Vec<String> = std::env::args_os()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                return "mcpl-doctor".to_string();
            }
            crate::render::words::shell_word(&a.to_string_lossy())
        })
        .collect();
    mask(&args.join(" "))
}

/// `html::page`, re-exported for the CLI.
pub(crate) fn html(page: &Page) -> String {
    html::page(page)
}
