//! The lines under the launch table: what each launch showed besides its outcome.

use crate::engine::probe::watch::limits::Limit;
use crate::engine::probe::{AttemptReport, ProbeRun, ProcessFacts, Stopped};
use crate::render::sanitize;
use crate::render::text::why::launches_text;

/// The notes, with consecutive launches whose stderr was as an earlier one's folded into one
/// line (`launches 2-6: stderr as launch 1`).
pub(crate) fn notes(run: &ProbeRun) -> Vec<String> {
    fold_alike(each_launch(run))
}

/// Adjacent `launch K: stderr as launch N` lines with the same N as one line.
fn fold_alike(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut group: Option<(String, Vec<u32>)> = None;
    let flush = |group: &mut Option<(String, Vec<u32>)>, out: &mut Vec<String>| {
        if let Some((rest, launches)) = group.take() {
            out.push(format!("{}: {rest}", launches_text(&launches)));
        }
    };
    for line in lines {
        let alike = line
            .strip_prefix("launch ")
            .and_then(|l| l.split_once(": "))
            .filter(|(_, rest)| rest.starts_with("stderr as launch "))
            .and_then(|(n, rest)| Some((n.parse::<u32>().ok()?, rest.to_string())));
        match (alike, &mut group) {
            (Some((n, rest)), Some((r, launches))) if *r == rest => launches.push(n),
            (Some((n, rest)), _) => {
                flush(&mut group, &mut out);
                group = Some((rest, vec![n]));
            }
            (None, _) => {
                flush(&mut group, &mut out);
                out.push(line);
            }
        }
    }
    flush(&mut group, &mut out);
    out
}

/// Each launch's notes in order: its limits (when changed), its process tree, its wire, how it
/// was stopped, its pings, and its stderr (or which earlier launch's it repeats).
fn each_launch(run: &ProbeRun) -> Vec<String> {
    let mut out = Vec::new();
    let mut last_tail: Option<(u32, &Vec<String>)> = None;
    let mut last_limits: &[Limit] = &[];
    for l in &run.launches {
        let r: &AttemptReport = &l.report;
        let limits = r.process.as_ref().map_or(&[][..], |p| &p.limits[..]);
        out.extend(limits_note(l.number, limits, last_limits));
        if let Some(p) = &r.process {
            out.extend(process_notes(l.number, p));
        }
        last_limits = limits;
        out.extend(wire_notes(l.number, r));
        out.extend(stop_notes(l.number, r));
        if r.pings_sent > 0 {
            out.push(format!(
                "launch {}: {} ping{} sent, {} answered",
                l.number,
                r.pings_sent,
                plural(u64::from(r.pings_sent)),
                r.pings_answered
            ));
        }
        if !r.stderr.lines.is_empty() {
            match last_tail {
                Some((n, prev)) if *prev == r.stderr.lines => {
                    out.push(format!("launch {}: stderr as launch {n}", l.number));
                }
                _ => {
                    out.push(stderr_note(l.number, r));
                    last_tail = Some((l.number, &r.stderr.lines));
                }
            }
        }
    }
    out
}

/// What a launch did wrong on its wire: lines on stdout that are not JSON-RPC or too long, what
/// it stopped reading, a flood of WebSocket pings.
fn wire_notes(number: u32, r: &AttemptReport) -> Vec<String> {
    let mut out = Vec::new();
    if r.stdout.non_json_lines > 0 {
        let sample = r
            .stdout
            .samples
            .first()
            .map(|s| format!(", e.g. \"{}\"", sanitize(s)))
            .unwrap_or_default();
        out.push(format!(
            "launch {}: {} line{} on stdout that {} not JSON-RPC (the host ignores them; log to stderr instead){sample}",
            number,
            r.stdout.non_json_lines,
            plural(r.stdout.non_json_lines),
            if r.stdout.non_json_lines == 1 { "is" } else { "are" },
        ));
    }
    if r.misbehaviour.unsent_messages > 0 {
        out.push(format!(
            "launch {}: the server stopped reading what the probe sends: {} message{} (replies, \
             pings) not sent rather than queued (a host's replies would pile up the same way)",
            number,
            r.misbehaviour.unsent_messages,
            plural(r.misbehaviour.unsent_messages),
        ));
    }
    if r.misbehaviour.ws_pings >= crate::engine::probe::PING_FLOOD {
        out.push(format!(
            "launch {}: ping flood: {} WebSocket pings from the server (each owes a pong; at most \
             one pong is kept waiting for a server that does not read)",
            number, r.misbehaviour.ws_pings,
        ));
    }
    if r.stdout.overlong_lines > 0 {
        out.push(format!(
            "launch {}: {} line{} on stdout over {} skipped unread ({} read in all)",
            number,
            r.stdout.overlong_lines,
            plural(r.stdout.overlong_lines),
            bytes(crate::engine::probe::wire::stdio::STDOUT_LINE_LIMIT as u64),
            bytes(r.stdout.total_bytes)
        ));
    }
    out
}

/// How hard a launch was to stop: SIGKILL needed, not reaped, processes left outside its group.
fn stop_notes(number: u32, r: &AttemptReport) -> Vec<String> {
    let mut out = Vec::new();
    match r.stopped {
        Stopped::AfterSigkill => out.push(format!(
            "launch {number}: ignored SIGTERM for 2 s; SIGKILL ended it"
        )),
        Stopped::CouldNotBeReaped => out.push(format!(
            "launch {number}: still there 2 s after SIGKILL: could not be reaped"
        )),
        _ => {}
    }
    if r.escaped > 0 {
        out.push(format!(
            "launch {}: left {} process{} outside its process group (setsid, setpgid or a \
             double fork; a host stopping the group would leave {}); the probe stopped {}",
            number,
            r.escaped,
            if r.escaped == 1 { "" } else { "es" },
            if r.escaped == 1 {
                "it running"
            } else {
                "them running"
            },
            if r.escaped == 1 { "it" } else { "them" },
        ));
    }
    out
}

/// A launch's stderr tail, its lines indented under a heading that says how much of it is shown.
fn stderr_note(number: u32, r: &AttemptReport) -> String {
    let shown = r.stderr.lines.len() as u64;
    let mut s = format!(
        "launch {}: stderr ({}{} line{}, {}):",
        number,
        if shown < r.stderr.total_lines {
            format!("last {shown} of ")
        } else {
            String::new()
        },
        r.stderr.total_lines,
        plural(r.stderr.total_lines),
        bytes(r.stderr.total_bytes),
    );
    for line in &r.stderr.lines {
        s.push_str("\n  | ");
        s.push_str(&sanitize(line));
    }
    s
}

/// An install seen in the launch's process tree, and what it left running.
fn process_notes(number: u32, p: &ProcessFacts) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(i) = &p.install {
        let spent =
            crate::engine::policy::timings::format_ms(crate::render::units::round_ms(i.spent_ms));
        out.push(if i.unfinished {
            format!(
                "launch {number}: spent {spent} installing its package ({}) and was still \
                 installing when it ended",
                i.tool
            )
        } else {
            format!(
                "launch {number}: spent {spent} installing its package ({}) before it started",
                i.tool
            )
        });
    }
    if !p.left_running.is_empty() {
        out.push(format!(
            "launch {number}: its first process exited and left running: {}",
            p.left_running
                .iter()
                .map(|c| sanitize(c))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    out
}

/// The unusual limits a launch ran under, unless the launch before ran under the same.
fn limits_note(number: u32, limits: &[Limit], before: &[Limit]) -> Option<String> {
    if limits.is_empty() || limits == before {
        return None;
    }
    let shown: Vec<String> = limits.iter().map(Limit::describe).collect();
    Some(format!(
        "launch {number}: runs under limits that are not the usual ones: {}",
        shown.join(", ")
    ))
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else if n < 1024 * 1024 * 1024 {
        format!("{:.1} MiB", n as f64 / 1048576.0)
    } else {
        format!("{:.2} GiB", n as f64 / 1073741824.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alike_stderr_lines_fold_into_ranges() {
        let lines = [
            "launch 1: stderr (2 lines, 59 B):\n  | boom",
            "launch 2: stderr as launch 1",
            "launch 3: stderr as launch 1",
            "launch 4: stderr as launch 1",
            "launch 4: 1 ping sent, 1 answered",
            "launch 5: stderr as launch 1",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            fold_alike(lines),
            [
                "launch 1: stderr (2 lines, 59 B):\n  | boom",
                "launches 2-4: stderr as launch 1",
                "launch 4: 1 ping sent, 1 answered",
                "launch 5: stderr as launch 1",
            ]
        );
    }
}
