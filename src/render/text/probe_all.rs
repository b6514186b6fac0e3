//! Drawing `probe --config FILE --all` (or several `--server`): one summary table of every
//! server, the entries that were not probed and why, then each server that did not stay up in
//! the single-server report's own words; the `--format json` document holding every server's
//! single-server document; `--format events` lines tagged with their server.

use std::io::{self, Write};

use super::layout::{fitted_table_painted, prose};
use super::probe::write_text_to;
use crate::engine::fleet::{counts, Counts};
use crate::engine::fleet::{AllContext, ServerReport, ServerResult};
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{EngineKind, Preset, Timings};
use crate::engine::probe::opening::OpeningSummary;
use crate::engine::probe::runner::verdict::{self, Pattern, Verdict, PREDICTED_RULES};
use crate::render::sanitize::sanitize;
use crate::render::style;
use crate::render::terminal::terminal_width;
use crate::render::units::round_ms;

fn pattern_words(p: Pattern) -> &'static str {
    match p {
        Pattern::StayedUp => "stayed up",
        Pattern::ShortLived => "short-lived",
        Pattern::Flapped => "flapped",
        Pattern::NeverConnected => "never connected",
        Pattern::Refused => "permanent failure",
        Pattern::Unknown => "nothing judged",
    }
}

/// The first `mcpl-down` under `rule`, in a table cell.
fn first_down_cell(verdict: &Verdict, rule: &str) -> String {
    if verdict.pattern == Pattern::Refused {
        return "at once".into();
    }
    match verdict.predictions.iter().find(|p| p.rule == rule) {
        Some(p) => match (p.first_down_ms, p.first_down_attempt) {
            (Some(ms), Some(a)) => format!("{}\n(attempt {a})", format_ms(round_ms(ms))),
            (Some(ms), None) => format_ms(round_ms(ms)),
            _ => "never".into(),
        },
        None => "-".into(),
    }
}

/// The rules whose first `mcpl-down` the summary shows: agent-framework's two (main's
/// `reset-on-handshake`, #999's `lasting`), and each rule the entries ran that raises it. A
/// host that raises none (VS Code, Claude Desktop) has no column.
fn down_rules(ran: &[Preset]) -> Vec<&'static str> {
    let mut rules: Vec<&'static str> = PREDICTED_RULES
        .iter()
        .map(|r| r.name())
        .filter(|r| matches!(*r, "reset-on-handshake" | "lasting"))
        .collect();
    for r in ran {
        let alerts = r
            .policy_with(EngineKind::Legacy, Timings::default())
            .has_alert();
        if alerts && !rules.contains(&r.name()) {
            rules.push(r.name());
        }
    }
    rules
}

/// The line under the summary: what its `mcpl-down` columns mean, and which of the hosts whose
/// rules ran raise none.
fn down_note(ran: &[Preset]) -> String {
    let mut silent: Vec<&str> = Vec::new();
    for r in ran {
        let alerts = r
            .policy_with(EngineKind::Legacy, Timings::default())
            .has_alert();
        let host = r.host_title().unwrap_or(r.name());
        if !alerts && !silent.contains(&host) {
            silent.push(host);
        }
    }
    if silent.is_empty() {
        return "mcpl-down: when the host would first raise it under each rule, replaying what \
                the server did."
            .to_string();
    }
    format!(
        "mcpl-down: when agent-framework would first raise it under each of its rules, replaying \
         what the server did ({} {} none).",
        silent.join(" and "),
        if silent.len() == 1 { "raises" } else { "raise" }
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Every probed server's timeline, named as in the summary table.
pub(crate) fn tracks(servers: &[ServerReport]) -> Vec<crate::render::timeline::Track> {
    servers
        .iter()
        .filter_map(|s| match &s.result {
            ServerResult::Probed(p) => {
                Some(crate::render::timeline::Track::of_probe(&s.name, &p.run))
            }
            _ => None,
        })
        .collect()
}

/// The text report: the summary table, what was not probed, then the details of every server
/// that did not stay up (not when `quiet`: `probe --all --quiet` is the summary alone).
pub(crate) fn write_text(
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    color: bool,
    quiet: bool,
) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let c = counts(servers);
    writeln!(out, "{}", prose(&headline(servers, ctx, &c), "  "))?;
    writeln!(out)?;

    let summary = summary_block(servers, ctx, &c, color);
    write!(out, "{summary}")?;
    if let Some(by) = ctx.interrupted {
        let mut words = by.words().to_string();
        if let Some(first) = words.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        writeln!(
            out,
            "{words}: each server's report covers what it did until then."
        )?;
    }
    write_why(&mut out, servers)?;
    let tracks = tracks(servers);
    if !tracks.is_empty() {
        writeln!(out)?;
        super::strip::write_probe_all(&mut out, &tracks)?;
    }
    write_not_probed(&mut out, servers)?;

    let details = !quiet && write_details(&mut out, servers, color)?;
    if details {
        // The summary again, last, after the details it sums up.
        writeln!(out)?;
        writeln!(out, "== summary ==")?;
        write!(out, "{summary}")?;
    }
    out.flush()
}

/// The report's first sentence: what was probed, where, under which rules and seed, and how
/// long it took (or what could not be launched when nothing was).
fn headline(servers: &[ServerReport], ctx: &AllContext<'_>, c: &Counts) -> String {
    if c.probed == 0 && c.cannot_launch == 0 {
        return nothing_launched(servers, ctx);
    }
    format!(
        "Probed {} of {} in {} at once under {}, seed {} (plus each entry's position in the \
         file): {} in all (the slowest server {}, all of them one after another {}).",
        c.probed,
        plural(servers.len(), "entry", "entries"),
        sanitize(ctx.file),
        crate::render::words::rules_phrase(ctx.rules),
        ctx.seed,
        format_ms(round_ms(ctx.elapsed_ms)),
        format_ms(round_ms(c.slowest_ms)),
        format_ms(round_ms(c.sum_ms)),
    )
}

/// The surest cause of each server that did not stay up, one line each (nothing when all did).
fn write_why(out: &mut dyn Write, servers: &[ServerReport]) -> io::Result<()> {
    let why: Vec<(&ServerReport, String)> = servers
        .iter()
        .filter_map(|s| super::why::one_line(&s.why).map(|line| (s, line)))
        .collect();
    if !why.is_empty() {
        writeln!(
            out,
            "\nWhy (the surest cause of each server that did not stay up):"
        )?;
        for (s, line) in why {
            let line = format!("  {}: {line}", sanitize(&s.name));
            writeln!(out, "{}", prose(&line, "    "))?;
        }
    }
    Ok(())
}

/// The entries not probed: each finding that refused one, or why it was skipped.
fn write_not_probed(out: &mut dyn Write, servers: &[ServerReport]) -> io::Result<()> {
    let not_probed: Vec<&ServerReport> = servers
        .iter()
        .filter(|s| {
            matches!(
                s.result,
                ServerResult::Refused { .. } | ServerResult::Skipped(_)
            )
        })
        .collect();
    if not_probed.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nNot probed:")?;
    for s in not_probed {
        match &s.result {
            ServerResult::Refused { label, findings } => {
                for f in findings {
                    let line = format!(
                        "  {}: {label}: {} ({}, {})",
                        sanitize(&s.name),
                        sanitize(&f.message),
                        sanitize(&f.at),
                        f.code
                    );
                    writeln!(out, "{}", prose(&line, "    "))?;
                }
            }
            ServerResult::Skipped(why) => {
                let line = format!(
                    "  {}: skipped: {} ({})",
                    sanitize(&s.name),
                    sanitize(why),
                    sanitize(&s.at)
                );
                writeln!(out, "{}", prose(&line, "    "))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The full report of every server that did not stay up; whether there was one.
fn write_details(out: &mut dyn Write, servers: &[ServerReport], color: bool) -> io::Result<bool> {
    let mut details = false;
    for s in servers {
        let ServerResult::Probed(p) = &s.result else {
            continue;
        };
        // A server that stayed up is shown in full only when its opening has findings (they
        // count against a clean exit, and this is where they are told).
        if verdict::all_clear(&p.run) {
            continue;
        }
        writeln!(out)?;
        writeln!(
            out,
            "== {} ({}, {}) ==",
            sanitize(&s.name),
            s.transport,
            sanitize(&s.at)
        )?;
        write_text_to(out, &p.run, &p.verdict, &p.context(&s.why), color)?;
        details = true;
    }
    Ok(details)
}

/// The summary table (one row per entry) and its two lines under it. From 110 columns one
/// column per fact; narrower, the transport under the server's name and the launches under the
/// pattern.
fn summary_block(
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    c: &Counts,
    color: bool,
) -> String {
    let wide = terminal_width() >= 110 || super::layout::blocks();
    let rules = down_rules(ctx.rules);
    let mut header: Vec<String> = if wide {
        vec![
            "server".into(),
            "transport".into(),
            "launches".into(),
            "pattern".into(),
            "verdict".into(),
        ]
    } else {
        vec!["server".into(), "pattern".into(), "verdict".into()]
    };
    header.extend(
        rules
            .iter()
            .map(|r| format!("mcpl-down\n{}", crate::render::words::rule_cell(r))),
    );
    let rows: Vec<Vec<String>> = servers
        .iter()
        .map(|s| summary_row(s, ctx, &rules, wide))
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    // The pattern in the verdict's colours: green stayed up, red did not.
    let pattern_column = if wide { 3 } else { 1 };
    let paint = |r: usize, c: usize| -> Option<anstyle::Style> {
        if c != pattern_column {
            return None;
        }
        match servers.get(r).map(|s| &s.result) {
            Some(ServerResult::Probed(p)) => Some(match p.verdict.pattern {
                Pattern::StayedUp => style::GOOD,
                Pattern::Unknown => style::WARN,
                _ => style::BAD,
            }),
            Some(ServerResult::CannotLaunch(_)) => Some(style::BAD),
            _ => None,
        }
    };
    let table = fitted_table_painted(color, &header, &rows, if wide { &[2] } else { &[] }, &paint);
    let mut out = format!("{table}\n");
    out.push_str(&prose(&down_note(ctx.rules), ""));
    out.push('\n');
    out.push_str(&prose(&format!("{}.", counts_line(ctx, c)), ""));
    out.push('\n');
    out
}

/// One entry's row of the summary table.
fn summary_row(s: &ServerReport, ctx: &AllContext<'_>, rules: &[&str], wide: bool) -> Vec<String> {
    let (launches, pattern, verdict, downs): (u64, String, String, Vec<String>) = match &s.result {
        ServerResult::Probed(p) => {
            let (run, verdict) = (&p.run, &p.verdict);
            // Interrupted before it showed anything else: up until the stop, not
            // "stayed up".
            let mut pattern = match (verdict.pattern, ctx.interrupted) {
                (Pattern::StayedUp, Some(_)) => "up until stopped",
                (p, _) => pattern_words(p),
            }
            .to_string();
            let findings = OpeningSummary::of_run(run)
                .failing()
                .into_iter()
                .cloned()
                .collect::<Vec<_>>();
            if !findings.is_empty() {
                // Why it counts against a clean exit although it stayed up.
                let ids: Vec<&str> = findings.iter().map(|f| f.id).collect();
                pattern.push_str(&format!(", but {}", ids.join(", ")));
            }
            (
                run.total_launches(),
                pattern,
                sanitize(&verdict.short),
                rules.iter().map(|r| first_down_cell(verdict, r)).collect(),
            )
        }
        other => {
            let (pattern, why) = match other {
                ServerResult::CannotLaunch(e) => ("cannot launch", sanitize(e)),
                ServerResult::Refused { label, .. } => {
                    ("not probed", format!("{label} (see below)"))
                }
                ServerResult::Skipped(_) => ("skipped", "not probed (see below)".into()),
                ServerResult::Probed(_) => ("", String::new()),
            };
            (
                0,
                pattern.to_string(),
                why,
                rules.iter().map(|_| "-".to_string()).collect(),
            )
        }
    };
    let name = sanitize(&s.name);
    let mut row = if wide {
        vec![
            name,
            s.transport.to_string(),
            launches.to_string(),
            pattern,
            verdict,
        ]
    } else {
        vec![
            format!("{name}\n{}", s.transport),
            if launches == 0 {
                pattern
            } else {
                format!(
                    "{pattern}\n{launches} launch{}",
                    if launches == 1 { "" } else { "es" }
                )
            },
            verdict,
        ]
    };
    row.extend(downs);
    row
}

/// The head of a run that launched nothing: why, by cause ("2 entries need `--input
/// docs-token=VALUE`, 1 is refused: env-file-missing").
fn nothing_launched(servers: &[ServerReport], ctx: &AllContext<'_>) -> String {
    let mut inputs: Vec<String> = Vec::new();
    let mut needing = 0usize;
    let mut codes: Vec<&str> = Vec::new();
    let (mut refused, mut skipped) = (0usize, 0usize);
    for s in servers {
        match &s.result {
            ServerResult::Refused { findings, .. } if s.needs_input() => {
                needing += 1;
                for f in findings {
                    for i in inputs_named(&f.message) {
                        if !inputs.contains(&i) {
                            inputs.push(i);
                        }
                    }
                }
            }
            ServerResult::Refused { findings, .. } => {
                refused += 1;
                for f in findings {
                    if !codes.contains(&f.code) {
                        codes.push(f.code);
                    }
                }
            }
            ServerResult::Skipped(_) => skipped += 1,
            _ => {}
        }
    }
    let mut why = Vec::new();
    if needing > 0 {
        let given = if inputs.is_empty() {
            "`--input ID=VALUE`".to_string()
        } else {
            inputs
                .iter()
                .map(|i| format!("`--input {i}=VALUE`"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let verb = if needing == 1 { "needs" } else { "need" };
        why.push(format!(
            "{} {verb} {given}",
            plural(needing, "entry", "entries")
        ));
    }
    if refused > 0 {
        let verb = if refused == 1 { "is" } else { "are" };
        why.push(format!("{refused} {verb} refused: {}", codes.join(", ")));
    }
    if skipped > 0 {
        why.push(format!("{skipped} skipped"));
    }
    format!(
        "Launched none of {} in {}: {}.",
        plural(servers.len(), "entry", "entries"),
        sanitize(ctx.file),
        if why.is_empty() {
            "none was selected".to_string()
        } else {
            why.join(", ")
        }
    )
}

/// The input ids an `input-not-given` message names (`--input ID=VALUE`).
fn inputs_named(message: &str) -> Vec<String> {
    message
        .split("--input ")
        .skip(1)
        .filter_map(|rest| rest.split_once("=VALUE").map(|(id, _)| id.to_string()))
        .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
        .collect()
}

/// `3 servers stayed up, 1 did not (flapped or never connected), ...` (without the stop).
fn counts_line(ctx: &AllContext<'_>, c: &Counts) -> String {
    let mut summary = vec![if ctx.interrupted.is_some() {
        plural(
            c.stayed_up,
            "server up until stopped",
            "servers up until stopped",
        )
    } else {
        plural(c.stayed_up, "server stayed up", "servers stayed up")
    }];
    if c.with_findings > 0 {
        if let Some(first) = summary.first_mut() {
            first.push_str(&format!(
                " ({} with a finding about its opening, below)",
                c.with_findings
            ));
        }
    }
    if c.did_not > 0 {
        summary.push(format!(
            "{} did not (flapped or never connected)",
            c.did_not
        ));
    }
    if c.nothing_judged > 0 {
        summary.push(format!(
            "{} with nothing to judge (--for ended before its first handshake)",
            c.nothing_judged
        ));
    }
    if c.cannot_launch > 0 {
        summary.push(format!("{} could not be launched", c.cannot_launch));
    }
    if c.needs_input > 0 {
        summary.push(format!(
            "{} not launched (an --input to give)",
            c.needs_input
        ));
    }
    if c.refused > c.needs_input {
        summary.push(format!(
            "{} not probed (check-config errors)",
            c.refused - c.needs_input
        ));
    }
    if c.skipped > 0 {
        summary.push(format!("{} skipped", c.skipped));
    }
    summary.join(", ")
}
