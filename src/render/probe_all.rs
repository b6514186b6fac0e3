//! Drawing `probe --config FILE --all` (or several `--server`): one summary table of every
//! server, the entries that were not probed and why, then each server that did not stay up in
//! the single-server report's own words; the `--json` document holding every server's
//! single-server document; `--events` lines tagged with their server.

use std::io::{self, Write};
use std::time::SystemTime;

use super::terminal::terminal_width;
use super::text::layout::{fitted_table_painted, prose};
use super::text::probe::{write_text_to, Context};
use super::units::round_ms;
use super::{sanitize, style, StopCause};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::policy::timings::format_ms;
use crate::engine::probe::opening::OpeningSummary;
use crate::engine::probe::verdict::{self, Pattern, Verdict, PREDICTED_RULES};
use crate::engine::probe::{ProbeRun, Protocol};

/// One check-config error that kept an entry from being probed.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// `file:line:column` of the offending value.
    pub at: String,
    pub path: String,
    /// The finding's code (`binding`, `reconnect-timing`, ...).
    pub code: &'static str,
    /// The checker's message (redacted).
    pub message: String,
}

/// A server that was probed: its run, the verdict, how to name it.
pub struct Probed {
    pub run: ProbeRun,
    pub verdict: Verdict,
    /// The target as shown to a person (redacted).
    pub target: String,
    pub protocol: Protocol,
    pub interrupted: Option<StopCause>,
}

impl Probed {
    pub(crate) fn context<'a>(&'a self, why: &'a [Diagnosis]) -> Context<'a> {
        Context {
            target: &self.target,
            entry: None,
            protocol: self.protocol,
            interrupted: self.interrupted,
            why,
        }
    }
}

/// What became of one selected entry.
pub enum ServerResult {
    /// It was probed.
    Probed(Box<Probed>),
    /// Its command could not be launched at all (redacted).
    CannotLaunch(String),
    /// `check-config` has errors for it: a label (`refused by the host`) and the findings.
    Refused {
        label: String,
        findings: Vec<Refusal>,
    },
    /// The host does not start it on its own: why.
    Skipped(String),
}

/// One selected entry and what became of it.
pub struct ServerReport {
    /// How the entry is named in the report (its id; with its JSON path when the id is not
    /// unique in the file).
    pub name: String,
    /// `stdio`, `websocket`, `http`, or `-` when the host cannot bind it.
    pub transport: String,
    /// `file:line:column` of the entry.
    pub at: String,
    /// The entry's JSON path.
    pub path: String,
    pub result: ServerResult,
    /// The likely causes of its ends (or of its launch error), the surest first.
    pub why: Vec<Diagnosis>,
}

impl ServerReport {
    /// Whether this server counts against a clean exit: it was probed and did not stay up,
    /// could not be launched, or the host refuses it. Skipped entries do not count.
    pub fn is_finding(&self) -> bool {
        match &self.result {
            ServerResult::Probed(p) => !verdict::all_clear(&p.run),
            ServerResult::CannotLaunch(_) | ServerResult::Refused { .. } => true,
            ServerResult::Skipped(_) => false,
        }
    }
}

/// The whole run.
pub struct AllContext<'a> {
    /// The configuration file as named.
    pub file: &'a str,
    /// The rule every server followed.
    pub rule: &'a str,
    pub seed: u64,
    pub started_wall: SystemTime,
    /// Wall time of the whole run, ms.
    pub elapsed_ms: f64,
    pub interrupted: Option<StopCause>,
}

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

/// The rules whose first `mcpl-down` the summary shows: the host's two (main's `handshake`,
/// #999's `lasting`), and the run's own rule when it is another.
fn down_rules(own: &str) -> Vec<&str> {
    let mut rules: Vec<&str> = PREDICTED_RULES
        .iter()
        .map(|r| r.name())
        .filter(|r| matches!(*r, "reset-on-handshake" | "lasting"))
        .collect();
    if !rules.contains(&own) {
        rules.push(own);
    }
    rules
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Counts for the summary line and the JSON `summary`.
pub(crate) struct Counts {
    pub(crate) probed: usize,
    pub(crate) stayed_up: usize,
    /// Of those that stayed up: with an opening finding (they count against a clean exit).
    pub(crate) with_findings: usize,
    pub(crate) did_not: usize,
    pub(crate) cannot_launch: usize,
    pub(crate) refused: usize,
    pub(crate) skipped: usize,
    /// The longest single run and all runs one after another, ms.
    pub(crate) slowest_ms: f64,
    pub(crate) sum_ms: f64,
}

pub(crate) fn counts(servers: &[ServerReport]) -> Counts {
    let mut c = Counts {
        probed: 0,
        stayed_up: 0,
        with_findings: 0,
        did_not: 0,
        cannot_launch: 0,
        refused: 0,
        skipped: 0,
        slowest_ms: 0.0,
        sum_ms: 0.0,
    };
    for s in servers {
        match &s.result {
            ServerResult::Probed(p) => {
                let run = &p.run;
                c.probed += 1;
                if verdict::stayed_up(run) {
                    c.stayed_up += 1;
                    if !verdict::all_clear(run) {
                        c.with_findings += 1;
                    }
                } else {
                    c.did_not += 1;
                }
                c.slowest_ms = c.slowest_ms.max(run.elapsed_ms);
                c.sum_ms += run.elapsed_ms;
            }
            ServerResult::CannotLaunch(_) => c.cannot_launch += 1,
            ServerResult::Refused { .. } => c.refused += 1,
            ServerResult::Skipped(_) => c.skipped += 1,
        }
    }
    c
}

/// Every probed server's timeline, named as in the summary table.
pub fn tracks(servers: &[ServerReport]) -> Vec<super::timeline::Track> {
    servers
        .iter()
        .filter_map(|s| match &s.result {
            ServerResult::Probed(p) => Some(super::timeline::Track::of_probe(&s.name, &p.run)),
            _ => None,
        })
        .collect()
}

/// The text report: the summary table, what was not probed, then the details of every server
/// that did not stay up.
pub fn write_text(servers: &[ServerReport], ctx: &AllContext<'_>, color: bool) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let c = counts(servers);
    let head = format!(
        "Probed {} of {} in {} at once under rule {}, seed {} (plus each entry's position in \
         the file): {} in all (the slowest server {}, all of them one after another {}).",
        c.probed,
        plural(servers.len(), "entry", "entries"),
        sanitize(ctx.file),
        ctx.rule,
        ctx.seed,
        format_ms(round_ms(ctx.elapsed_ms)),
        format_ms(round_ms(c.slowest_ms)),
        format_ms(round_ms(c.sum_ms)),
    );
    writeln!(out, "{}", prose(&head, "  "))?;
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
    let why: Vec<(&ServerReport, String)> = servers
        .iter()
        .filter_map(|s| super::text::why::one_line(&s.why).map(|line| (s, line)))
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

    let tracks = tracks(servers);
    if !tracks.is_empty() {
        writeln!(out)?;
        super::text::strip::write_probe_all(&mut out, &tracks)?;
    }

    let not_probed: Vec<&ServerReport> = servers
        .iter()
        .filter(|s| {
            matches!(
                s.result,
                ServerResult::Refused { .. } | ServerResult::Skipped(_)
            )
        })
        .collect();
    if !not_probed.is_empty() {
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
    }

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
        write_text_to(&mut out, &p.run, &p.verdict, &p.context(&s.why), color)?;
        details = true;
    }
    if details {
        // The summary again, last, after the details it sums up.
        writeln!(out)?;
        writeln!(out, "== summary ==")?;
        write!(out, "{summary}")?;
    }
    out.flush()
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
    let wide = terminal_width() >= 110;
    let rules = down_rules(ctx.rule);
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
            .map(|r| format!("mcpl-down\n{}", super::words::rule_cell(r))),
    );
    let mut rows: Vec<Vec<String>> = Vec::new();
    for s in servers {
        let (launches, pattern, verdict, downs): (u64, String, String, Vec<String>) =
            match &s.result {
                ServerResult::Probed(p) => {
                    let (run, verdict) = (&p.run, &p.verdict);
                    // Interrupted before it showed anything else: up until the stop, not
                    // "stayed up".
                    let mut pattern = match (verdict.pattern, ctx.interrupted) {
                        (Pattern::StayedUp, Some(_)) => "up until stopped",
                        (p, _) => pattern_words(p),
                    }
                    .to_string();
                    let findings = OpeningSummary::of(&run.launches).findings;
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
        rows.push(row);
    }
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
    out.push_str(&prose(
        "mcpl-down: when the host would first raise it under each rule, replaying what the server \
         did.",
        "",
    ));
    out.push('\n');
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
    if c.cannot_launch > 0 {
        summary.push(format!("{} could not be launched", c.cannot_launch));
    }
    if c.refused > 0 {
        summary.push(format!("{} not probed (check-config errors)", c.refused));
    }
    if c.skipped > 0 {
        summary.push(format!("{} skipped", c.skipped));
    }
    out.push_str(&prose(&format!("{}.", summary.join(", ")), ""));
    out.push('\n');
    out
}

/// Write the `--json` document.
pub fn write_json(servers: &[ServerReport], ctx: &AllContext<'_>) -> io::Result<()> {
    super::probe_json::write_pretty(&super::probe_json::AllDoc::of(servers, ctx))
}
