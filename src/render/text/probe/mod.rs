//! Drawing `probe`'s results, by section: [`live`] the progress line on stderr, [`table`] the
//! launch table and the lines under it, [`notes`] what each launch showed besides its outcome,
//! [`predictions`] what each host rule would do over a day; here, the whole text report and the
//! verdict. The `--format json` document and `--format events` lines are typed in [`crate::render::json`].
//!
//! Everything here that a server controls (its name, errors, stderr, stdout noise) is already
//! redacted by the engine and is sanitised here before it reaches a terminal. JSON keeps the
//! text but escapes bidi and zero-width characters (`\uXXXX`), so even a JSON document printed
//! on a terminal cannot reorder what it shows.

pub(crate) mod live;
pub(crate) mod notes;
pub(crate) mod opening;
pub(crate) mod predictions;
pub(crate) mod table;
pub(crate) mod verbose;

pub(crate) use live::{Bounds, LiveLine, MultiLive};
pub(crate) use notes::notes;
use predictions::predictions_table;
pub(crate) use predictions::{first_down, per_day, replay_text};
use table::{alert_line, folded_text, launch_table};
pub(crate) use table::{
    counted_cell, ended_cell, finish_text, range, server_line, since_start, wait_cell,
};

use std::io::{self, Write};

use crate::engine::policy::timings::format_ms;
use crate::engine::probe::opening::{ChannelFinding, OpeningSummary};
use crate::engine::probe::runner::verdict::Verdict;
use crate::engine::probe::ProbeRun;
use crate::render::context::Context;
use crate::render::sanitize::sanitize;
use crate::render::style;
use crate::render::text::layout::prose;

/// The text report on stdout: launch table, notes, verdict and predictions.
pub(crate) fn write_text(
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    write_text_to(&mut io::stdout().lock(), run, verdict, ctx, color)
}

/// The text report, written to `out`.
pub(crate) fn write_text_to(
    out: &mut dyn Write,
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    let threshold = run
        .policy
        .lasting_threshold(0.0)
        .map(|t| format!(", lasting after {}", format_ms(t)))
        .unwrap_or_else(|| ", every handshake resets the count".into());
    let entry = ctx.entry.map_or(String::new(), |e| {
        let host =
            crate::engine::config::Host::from_name(&e.host).map_or(e.host.as_str(), |h| h.title());
        format!(
            "entry {} ({}, {}) as {} reads it: ",
            sanitize(&e.id),
            sanitize(&e.at),
            sanitize(&e.path),
            sanitize(host)
        )
    });
    // A host's own rule is said in its words; agent-framework's and the supervisors' by
    // their timings.
    let host_rule = run
        .policy
        .name
        .parse::<crate::engine::policy::Preset>()
        .ok()
        .filter(|p| p.host_title().is_some());
    let rule = match host_rule {
        Some(p) => format!("{} ({})", run.policy.name, p.describe()),
        None => format!(
            "{} (interval {}, cap {}{threshold})",
            run.policy.name,
            format_ms(run.policy.timings.interval_ms),
            format_ms(run.policy.timings.cap_ms),
        ),
    };
    let head = format!(
        "Probed {entry}{} ({} handshake) under rule {rule}, seed {}.",
        sanitize(ctx.target),
        ctx.protocol.name(),
        run.seed
    );
    writeln!(out, "{}", prose(&head, "  "))?;
    if let Some(s) = run.launches.iter().find_map(|l| l.report.server.as_ref()) {
        writeln!(
            out,
            "{}",
            prose(&format!("Server: {}", server_line(s)), "  ")
        )?;
    }
    writeln!(out)?;

    writeln!(out, "{}", launch_table(run, ctx, color))?;
    if run.folded.launches > 0 {
        writeln!(out, "{}", prose(&folded_text(&run.folded), "  "))?;
    }
    for l in &run.launches {
        if let Some(alert) = &l.alert {
            writeln!(out, "{}", prose(&alert_line(l, alert), "  "))?;
        }
    }
    writeln!(out, "{}", prose(&finish_text(run, ctx.interrupted), "  "))?;
    let mut notes = notes(run);
    notes.extend(opening::notes(run, &OpeningSummary::of_run(run)));
    if !notes.is_empty() {
        writeln!(out)?;
        for n in notes {
            writeln!(out, "{}", prose(&n, "  "))?;
        }
    }
    if !verdict.predictions.is_empty() {
        let replayed = verdict
            .scenario
            .as_ref()
            .map(|s| format!(" ({})", replay_text(s)))
            .unwrap_or_default();
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            prose(
                &format!(
                    "What each host rule would do over a day, replaying this behaviour{replayed}:"
                ),
                ""
            )
        )?;
        writeln!(out, "{}", predictions_table(&verdict.predictions, color))?;
    }
    // The timeline strip, then the final block: the verdict, directly followed by its "Why".
    writeln!(out)?;
    super::strip::write_probe(out, run)?;
    writeln!(out)?;
    write_final_to(out, run, verdict, ctx, color)
}

/// The final block alone: the verdict, directly followed by its "Why" (all `--quiet` prints).
pub(crate) fn write_final_to(
    out: &mut dyn Write,
    run: &ProbeRun,
    verdict: &Verdict,
    ctx: &Context<'_>,
    color: bool,
) -> io::Result<()> {
    let summary = OpeningSummary::of_run(run);
    let findings: Vec<ChannelFinding> = summary.failing().into_iter().cloned().collect();
    writeln!(out, "{}", verdict_line(verdict, &findings, color))?;
    super::why::write_why(out, ctx.why)?;
    out.flush()
}

/// `Verdict: ...`, wrapped to the terminal; on a terminal in bold green (stayed up), red
/// (flapped, never connected, refused) or yellow (nothing to judge, or stayed up with findings
/// about its opening, which the verdict then names).
pub(crate) fn verdict_line(verdict: &Verdict, findings: &[ChannelFinding], color: bool) -> String {
    use crate::engine::probe::runner::verdict::Pattern;
    let colour = match verdict.pattern {
        Pattern::StayedUp if findings.is_empty() => style::GOOD,
        Pattern::StayedUp | Pattern::Unknown => style::WARN,
        _ => style::BAD,
    };
    let but = if findings.is_empty() {
        String::new()
    } else {
        let ids: Vec<&str> = findings.iter().map(|f| f.id).collect();
        format!(
            " But its opening has {} (above): {}.",
            if ids.len() == 1 {
                "a finding"
            } else {
                "findings"
            },
            ids.join(", ")
        )
    };
    let text = prose(
        &format!("Verdict: {}.{but}", sanitize(&verdict.sentence)),
        "  ",
    );
    text.lines()
        .map(|line| style::paint(color, colour, line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::engine::policy::{Ended, Next, Outcome};
    use crate::engine::probe::{AttemptReport, Finish, Protocol, Stopped};
    use crate::render::terminal::with_width;
    use crate::render::text::layout;

    /// Six connections living 308 ms (exit 0) under `lasting` with a 200 ms interval, each
    /// 120 ms from launch to handshake, stopped once the host would raise `mcpl-down`: the
    /// report is the same on every machine.
    fn sample() -> (ProbeRun, Verdict) {
        use crate::engine::policy::{EngineKind, Preset, Timings, Tracker};
        use crate::engine::probe::runner::launch_record;
        let policy = Preset::Lasting.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 200.0,
                cap_ms: 300_000.0,
            },
        );
        let mut tracker = Tracker::new(policy.clone(), Some(1));
        let mut t = 0.0;
        let mut launches = Vec::new();
        for i in 0..6 {
            let outcome = Outcome::Connected {
                lived_ms: 308.0,
                ended: Ended::Exit { code: 0 },
            };
            let ended = t + 120.0 + 308.0;
            let attempt = tracker.attempt();
            let d = tracker.record(t, &outcome, ended);
            let report = AttemptReport {
                launched_at_ms: t,
                launched_at_wall: SystemTime::UNIX_EPOCH,
                pid: None,
                connected_at_ms: Some(t + 120.0),
                server: None,
                ended_at_ms: ended,
                outcome: Some(outcome),
                stopped: Stopped::AlreadyGone,
                pings_sent: 0,
                pings_answered: 0,
                stderr: Default::default(),
                stdout: Default::default(),
                opening: None,
                misbehaviour: Default::default(),
                remote: None,
                session: Default::default(),
                process: None,
                escaped: 0,
            };
            if let Next::Retry { wait, .. } = d.next {
                t = ended + wait.ms;
            }
            launches.push(launch_record(i + 1, attempt, report, Some(d)));
        }
        let run = ProbeRun {
            policy,
            seed: 1,
            launches,
            finish: Finish::UntilDown,
            planned: None,
            started_wall: SystemTime::UNIX_EPOCH,
            elapsed_ms: t,
            folded: Default::default(),
            strict: false,
            args: vec![],
        };
        let verdict = crate::engine::probe::runner::verdict::judge(
            &run,
            EngineKind::Legacy,
            crate::engine::schedule::DEFAULT_SETTLE_MS,
        );
        (run, verdict)
    }

    fn report_at(width: u16) -> String {
        let (run, verdict) = sample();
        let ctx = Context {
            target: "node server.mjs --exit-after-handshake 300",
            entry: None,
            protocol: Protocol::Legacy,
            interrupted: None,
            why: &[],
        };
        let mut out = Vec::new();
        with_width(width, || {
            write_text_to(&mut out, &run, &verdict, &ctx, false)
        })
        .expect("render");
        String::from_utf8(out).expect("UTF-8")
    }

    /// Every line within `width`; the verdict last.
    fn check_fits(text: &str, width: usize) {
        for line in text.lines() {
            assert!(layout::width(line) <= width, "wider than {width}: {line}");
        }
        let last = text.trim_end().lines().last().unwrap_or_default();
        let verdict_at = text.rfind("Verdict:").expect("a verdict");
        assert!(
            text[verdict_at..].contains(last),
            "the verdict is not last:\n{text}"
        );
    }

    #[test]
    fn report_at_80_columns() {
        let text = report_at(80);
        check_fits(&text, 80);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn report_at_120_columns() {
        let text = report_at(120);
        check_fits(&text, 120);
        insta::assert_snapshot!(text);
    }
}
