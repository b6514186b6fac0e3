//! Drawing the host's session opening (what `probe` did after each handshake): the table's
//! compact `opening` column, the notes under the table, and the run's summary for `--format json`.
//! Everything a server controls is redacted by the engine and sanitised here.

use crate::engine::folded::FoldedList;
use crate::engine::policy::timings::format_ms;
use crate::engine::probe::opening::{
    ChannelFinding, ExchangeResult, Opening, OpeningSummary, ToolsOnLaunch,
};
use crate::engine::probe::{Launch, ProbeRun};
use crate::render::sanitize::sanitize;
use crate::render::text::why::launches_text;
use crate::render::units::more;

/// The kept items of a folded list, sanitised, with `… N more` where the fold is, joined.
fn folded_words(list: &FoldedList<String>, folded: u64) -> String {
    let mut words: Vec<String> = list.iter().map(|s| sanitize(s)).collect();
    if folded > 0 {
        let at = list.fold_at().unwrap_or(words.len()).min(words.len());
        words.insert(at, more(folded));
    }
    words.join(", ")
}

/// The table's `opening` cell: `5 tools`, `✗ tools/list` (the connection ended while the host
/// waited for it), `tools/list error`, `-` (no handshake, or `--handshake-only`).
pub(crate) fn cell(l: &Launch) -> String {
    let Some(o) = &l.report.opening else {
        return "-".into();
    };
    if let Some(p) = &o.pending_at_close {
        return format!("✗ {}", sanitize(&p.method));
    }
    if let Some(n) = o.tool_count {
        return format!("{n} tool{}", if n == 1 { "" } else { "s" });
    }
    if let Some(e) = o
        .exchanges
        .iter()
        .find(|e| !matches!(e.result, ExchangeResult::Answered))
    {
        return match e.result {
            ExchangeResult::Error { .. } => format!("{} error", sanitize(&e.method)),
            ExchangeResult::TimedOut { .. } => format!("{} timed out", sanitize(&e.method)),
            _ => format!("{} pending", sanitize(&e.method)),
        };
    }
    "-".into()
}

fn round(ms: f64) -> String {
    if ms < 10.0 {
        format!("{:.1} ms", ms)
    } else {
        format_ms(ms.round())
    }
}

/// One exchange in a few words: `featureSets/update 0.8 ms`, `tools/list error -32601 (Method
/// not found)`.
fn exchange_words(o: &Opening) -> String {
    let mut parts: Vec<String> = Vec::new();
    // The pages answered: counted whole, though their exchanges may be folded.
    let pages = o.tool_pages;
    let page_rt = o.tool_pages_ms;
    for e in &o.exchanges {
        let method = sanitize(&e.method);
        if e.method == "tools/list" && matches!(e.result, ExchangeResult::Answered) {
            continue;
        }
        parts.push(match &e.result {
            ExchangeResult::Answered => {
                format!("{method} {}", round(e.round_trip_ms.unwrap_or(0.0)))
            }
            ExchangeResult::Error { code, message } => {
                let code = code.map(|c| format!(" {c}")).unwrap_or_default();
                if message.is_empty() {
                    format!("{method} error{code}")
                } else {
                    format!("{method} error{code} ({})", sanitize(message))
                }
            }
            ExchangeResult::TimedOut { deadline_ms } => {
                format!("{method} unanswered after {}", format_ms(*deadline_ms))
            }
            ExchangeResult::ConnectionEnded => format!("{method} (no answer: connection ended)"),
            ExchangeResult::Unanswered => format!("{method} (no answer yet)"),
        });
    }
    if pages > 0 {
        let tools = o
            .tool_count
            .map(|n| format!("{n} tool{}", if n == 1 { "" } else { "s" }))
            .unwrap_or_else(|| "tools".into());
        let paged = if pages > 1 {
            format!(" in {pages} pages")
        } else {
            String::new()
        };
        parts.push(format!("tools/list: {tools}{paged} ({})", round(page_rt)));
    }
    parts.join(", ")
}

/// Lines under the table: per launch, what the opening showed (one line for all launches when
/// they agree), what the connection died on, the policy exchange, channels, tool lists that
/// differ.
pub(crate) fn notes(run: &ProbeRun, summary: &OpeningSummary) -> Vec<String> {
    let mut out = launch_lines(run);
    for d in &summary.died_on {
        out.push(format!(
            "launch {}: closed {} after the host sent `{}` (no answer)",
            d.launch,
            round(d.after_ms),
            sanitize(&d.method)
        ));
    }
    if !summary.unsettled_launches.is_empty() {
        let launches: Vec<String> = summary
            .unsettled_launches
            .iter()
            .map(u32::to_string)
            .collect();
        out.push(format!(
            "policy exchange (featureSets/update) never settled before the connection ended on launch{} {}: the host emits no mcpl:server-reconnected for such a reconnect, so the \"down\" status line is never cleared",
            if launches.len() == 1 { "" } else { "es" },
            launches.join(", ")
        ));
    }
    if let Some(t) = &summary.tools_differ {
        out.push(tools_differ_line(t));
    }
    out.extend(summary.findings.iter().map(finding_line));
    out
}

/// Per launch, what its opening showed; launches like the one before are folded into one
/// line (`launches 2-6: opening as launch 1`).
fn launch_lines(run: &ProbeRun) -> Vec<String> {
    let mut out = Vec::new();
    let mut last: Option<(u32, String)> = None;
    // Launches whose opening was as launch `.0`'s, not yet written.
    let mut alike: Option<(u32, Vec<u32>)> = None;
    let flush = |alike: &mut Option<(u32, Vec<u32>)>, out: &mut Vec<String>| {
        if let Some((n, launches)) = alike.take() {
            out.push(format!(
                "{}: opening as launch {n}",
                launches_text(&launches)
            ));
        }
    };
    for l in &run.launches {
        let Some(o) = &l.report.opening else {
            continue;
        };
        let mut words = exchange_words(o);
        if !o.feature_sets.is_empty() {
            let sets = folded_words(&o.feature_sets, o.feature_sets_folded);
            words.push_str(&format!("; feature sets: {sets}"));
        }
        if let Some(r) = &o.receipt {
            if !r.unavailable.is_empty() {
                let sets = folded_words(&r.unavailable, r.unavailable_folded);
                words.push_str(&format!(" (unavailable: {sets})"));
            }
        }
        if !o.server_requests.is_empty() && o.server_requests_other > 0 {
            words.push_str(&format!(
                "; server requests of {} methods, {} of others",
                o.server_requests.len(),
                crate::render::units::count(o.server_requests_other)
            ));
        }
        if words.is_empty() {
            continue;
        }
        // Round trips differ on every launch; compare without them.
        let shape = words
            .split(|c: char| c.is_ascii_digit() || c == '.')
            .collect::<String>();
        match &last {
            Some((n, prev)) if *prev == shape => {
                alike
                    .get_or_insert_with(|| (*n, Vec::new()))
                    .1
                    .push(l.number);
            }
            _ => {
                flush(&mut alike, &mut out);
                out.push(format!("launch {}: opening: {words}", l.number));
                last = Some((l.number, shape));
            }
        }
    }
    flush(&mut alike, &mut out);
    out
}

/// `the tool list differs across launches (...)`, with the first launch's additions or lacks.
fn tools_differ_line(t: &[ToolsOnLaunch]) -> String {
    let counts: Vec<String> = t
        .iter()
        .map(|x| format!("launch {}: {}", x.launch, x.tool_count))
        .collect();
    let mut line = format!(
        "the tool list differs across launches ({})",
        counts.join(", ")
    );
    if let Some(x) = t
        .iter()
        .find(|x| !x.added.is_empty() || !x.missing.is_empty())
    {
        let names = |v: &Vec<String>| v.iter().map(|s| sanitize(s)).collect::<Vec<_>>();
        if !x.added.is_empty() {
            line.push_str(&format!(
                "; launch {} adds {}",
                x.launch,
                names(&x.added).join(", ")
            ));
        }
        if !x.missing.is_empty() {
            line.push_str(&format!(
                "; launch {} lacks {}",
                x.launch,
                names(&x.missing).join(", ")
            ));
        }
    }
    line
}

/// A finding about channels or tools, with each launch's evidence under it.
fn finding_line(f: &ChannelFinding) -> String {
    let subject = if f.id.starts_with("channels") || f.id.starts_with("content") {
        "channels"
    } else if f.id == crate::engine::probe::opening::summary::WARNING_AT_START {
        "start"
    } else {
        "tools"
    };
    let note = if f.note { ", note" } else { "" };
    let mut line = format!("{subject} ({}{note}): {}", f.id, sanitize(&f.text));
    for (i, c) in f.evidence.iter().enumerate() {
        if f.evidence.fold_at() == Some(i) {
            line.push_str(&format!(
                "\n  | {} connection{}",
                more(f.evidence_folded),
                if f.evidence_folded == 1 { "" } else { "s" }
            ));
        }
        let registered = if c.registered.is_empty() {
            "registered nothing".to_string()
        } else {
            format!(
                "registered {} {} after its handshake",
                folded_words(&c.registered, c.registered_folded),
                round(c.first_registration_ms.unwrap_or(0.0))
            )
        };
        let early = if c.content_before_registration.is_empty() {
            String::new()
        } else {
            let items = c.content_before_registration.map(|x| {
                format!(
                    "{} (message {})",
                    x.channel_id,
                    x.message_id.as_deref().unwrap_or("-")
                )
            });
            format!(
                "; content before registration: {}",
                folded_words(&items, c.content_before_registration_folded)
            )
        };
        line.push_str(&format!(
            "\n  | launch {}: connected {}, {registered}{early}",
            c.launch,
            round(c.connected_ms)
        ));
    }
    line
}
