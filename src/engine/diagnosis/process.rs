//! Rows about the process itself rather than what it wrote: the resource limits it ran under
//! and the signal it died of.

use super::launch::{ended, ev, stderr_match};
use super::meaning::{exit_text, signal_meaning, unhandled_report};
use super::model::{round_ms, Evidence, Hit, Setting, Source};
use super::table::{self, Confidence, RULES};
use super::text;
use crate::engine::policy::signal_name;
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::Ended;
use crate::engine::probe::watch::limits::{Limit, LimitKind};
use crate::engine::probe::Launch;

/// The signal `l` died of: its own, or 128 + N passed on by a wrapper (`true`).
fn died_of(l: &Launch) -> Option<(i32, bool)> {
    match ended(l)? {
        Ended::Signal { signal } => Some((signal, false)),
        Ended::Exit { code } if (129..=159).contains(&code) => Some((code - 128, true)),
        _ => None,
    }
}

/// The limit of `kind` the launch ran under, when it was not unlimited (from its
/// `/proc/PID/limits`).
fn limit_of(l: &Launch, kind: LimitKind) -> Option<Limit> {
    l.report
        .process
        .as_ref()?
        .limits
        .iter()
        .find(|x| x.limit == kind && x.soft.is_some())
        .copied()
}

/// `293 MiB (ulimit -v 300000)`: the amount of a limit with the command that sets it.
fn amount(limit: &Limit) -> String {
    let d = limit.describe();
    d.strip_prefix(limit.limit.words())
        .map(|s| s.trim().to_string())
        .unwrap_or(d)
}

/// The rows of this file on launch `l` (`None` for the other rows: see [`super::launch`]).
pub(super) fn process_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    match RULES[i].when {
        table::When::Limited { .. } => limit_hit(i, l),
        table::When::NativeSignal(signals) => native_signal_hit(i, l, signals),
        table::When::InstallUnfinished => install_hit(i, l, setting),
        table::When::LeftRunning => left_running_hit(i, l),
        _ => None,
    }
}

fn plain_hit(i: usize, l: &Launch, name: Option<String>, evidence: Vec<Evidence>) -> Hit {
    Hit {
        rule: i,
        confidence: RULES[i].confidence,
        name,
        says: None,
        next: None,
        launches: vec![l.number],
        evidence,
    }
}

/// `install-cut-short`: the launch ended while its installer was still at work.
fn install_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    let install = l.report.process.as_ref()?.install.as_ref()?;
    // An installer that exited on its own failed (npm's E404, a build error): its own words
    // say why; cut short is a launch stopped (or killed) while it installed.
    if !install.unfinished || matches!(ended(l), Some(Ended::Exit { .. })) {
        return None;
    }
    let budget = setting.start_budget_ms.unwrap_or(60_000.0);
    let spent = format_ms(round_ms(install.spent_ms));
    let how = match ended(l) {
        Some(e) => format!("it ended ({e})"),
        None => "the probe stopped it".to_string(),
    };
    let mut evidence = vec![ev(
        l,
        Source::Lifetime,
        format!(
            "spent {spent} installing ({}) and was still installing when {how}; the start budget is {}",
            install.tool,
            format_ms(round_ms(budget))
        ),
    )];
    // npm's own words (`npm warn exec The following package was not found and will be
    // installed: ...`).
    if let Some(line) = l.report.stderr.lines.iter().find(|x| {
        x.starts_with("npm ") || x.starts_with("Downloading ") || x.starts_with("Resolved ")
    }) {
        evidence.push(ev(l, Source::Stderr, text::quote(line)));
    }
    for f in &install.folders {
        evidence.push(ev(
            l,
            Source::Spawn,
            format!("written during the launch, may be left half-written: {f}"),
        ));
    }
    let mut h = plain_hit(i, l, Some(install.tool.clone()), evidence);
    let mut next = format!(
        "launch {} spent {spent} installing; the host's budget is {}. ",
        l.number,
        format_ms(round_ms(budget))
    );
    if !install.folders.is_empty() {
        next.push_str(&format!(
            "Delete {} (left half-written: later launches may hang on its lock or fail to load it), then ",
            install.folders.join(" and ")
        ));
    }
    next.push_str(RULES[i].next);
    h.next = Some(next);
    Some(h)
}

/// `backgrounded`: the first process exited on its own and left others running.
fn left_running_hit(i: usize, l: &Launch) -> Option<Hit> {
    let p = l.report.process.as_ref()?;
    if p.left_running.is_empty() {
        return None;
    }
    let e = ended(l)?;
    let when = match l.report.connected_at_ms {
        Some(c) => format!(
            "{} after its handshake",
            format_ms(round_ms(l.report.ended_at_ms - c))
        ),
        None => format!(
            "{} after its spawn, before its handshake",
            format_ms(round_ms(l.report.ended_at_ms - l.report.launched_at_ms))
        ),
    };
    let mut evidence = vec![ev(l, Source::Exit, format!("{e} {when}"))];
    for c in &p.left_running {
        evidence.push(ev(
            l,
            Source::Spawn,
            format!("still running: {}", text::quote(c)),
        ));
    }
    let name = p.left_running.first().map(|c| {
        let w: Vec<&str> = c.split_whitespace().take(2).collect();
        format!("`{}`", w.join(" "))
    });
    let mut h = plain_hit(i, l, name, evidence);
    if !matches!(e, Ended::Exit { code: 0 }) {
        // An exit with an error that leaves a child behind: less surely a background start.
        h.confidence = Confidence::Medium;
    }
    Some(h)
}

/// `resource-limit`: a line or signal that a limit too low gives.
fn limit_hit(i: usize, l: &Launch) -> Option<Hit> {
    let table::When::Limited {
        limit,
        sure,
        if_limited,
        signals,
        signals_if_limited,
    } = RULES[i].when
    else {
        return None;
    };
    let set = limit_of(l, limit);
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some((line, _, _)) = stderr_match(l, sure) {
        evidence.push(ev(l, Source::Stderr, text::quote(line)));
    } else if set.is_some() {
        if let Some((line, _, _)) = stderr_match(l, if_limited) {
            evidence.push(ev(l, Source::Stderr, text::quote(line)));
        }
    }
    if let Some((signal, via_code)) = died_of(l) {
        let counts =
            signals.contains(&signal) || (set.is_some() && signals_if_limited.contains(&signal));
        if counts {
            evidence.push(ev(l, Source::Exit, signal_text(signal, via_code)));
        }
    }
    if evidence.is_empty() {
        return None;
    }
    let name = set.map(|s| amount(&s));
    if let Some(s) = &set {
        evidence.push(ev(
            l,
            Source::Environment,
            format!("its limits: {}", s.describe()),
        ));
    }
    Some(Hit {
        rule: i,
        // The limit read from /proc: sure; a line or signal only that limit gives, without
        // the limit read (it died before it could be): less sure.
        confidence: if set.is_some() {
            RULES[i].confidence
        } else {
            Confidence::Medium
        },
        name,
        says: None,
        next: None,
        launches: vec![l.number],
        evidence,
    })
}

/// `signal SIGTRAP (a trap: V8's ...)` or `exit 133 (128 + 5: ...)`.
fn signal_text(signal: i32, via_code: bool) -> String {
    if via_code {
        exit_text(signal + 128)
    } else {
        format!(
            "signal {} ({})",
            signal_name(signal),
            signal_meaning(signal)
        )
    }
}

/// `fatal-signal`: died of a signal of a crash in native code.
fn native_signal_hit(i: usize, l: &Launch, signals: &[i32]) -> Option<Hit> {
    let (signal, via_code) = died_of(l)?;
    if !signals.contains(&signal) {
        return None;
    }
    let name = signal_name(signal);
    let mut evidence = vec![ev(l, Source::Exit, signal_text(signal, via_code))];
    if signal == 6 {
        if let Some(report) = unhandled_report(l.report.stderr.lines.iter().map(String::as_str)) {
            return Some(unhandled_hit(i, l, report, evidence));
        }
    }
    // The last words before it died say what failed (V8's `# Fatal error`, an assertion).
    if let Some(last) = l
        .report
        .stderr
        .lines
        .iter()
        .rev()
        .map(|s| s.trim())
        .find(|s| !s.is_empty() && s.chars().any(char::is_alphabetic))
    {
        evidence.push(ev(
            l,
            Source::Stderr,
            format!("last line: {}", text::quote(last)),
        ));
    }
    let next = match signal {
        5 | 6 => "read the fatal error above the end of its stderr (shown): if it names memory or a thread, look at the limits it runs under (`ulimit -a`); otherwise update Node/the runtime and the server's native modules (`npm rebuild`)".to_string(),
        4 => "install a build of the runtime or the native module for this CPU (a binary built for a newer CPU, or another architecture under emulation)".to_string(),
        7 => "look for a memory-mapped file truncated under it or a full `/dev/shm` (a container's default is 64 MiB: `--shm-size`)".to_string(),
        _ => "update the runtime and the server's native modules (`npm rebuild`, reinstall its wheels for this platform); run it by hand with `ulimit -c unlimited` to get a core dump".to_string(),
    };
    Some(Hit {
        rule: i,
        confidence: if via_code {
            Confidence::Medium
        } else {
            RULES[i].confidence
        },
        name: Some(format!("{name} ({})", signal_meaning(signal))),
        says: None,
        next: Some(next),
        launches: vec![l.number],
        evidence,
    })
}

/// A SIGABRT its runtime raised after reporting an unhandled exception (.NET, C++, a Rust
/// panic under abort): the exception is the cause, not native code. Medium confidence, so a
/// row that reads the exception's own structure (an option it could not parse, a variable it
/// names) comes first; a memory reading is no hypothesis for it (`launch::memory_hit`).
fn unhandled_hit(i: usize, l: &Launch, report: &str, mut evidence: Vec<Evidence>) -> Hit {
    evidence.push(ev(l, Source::Stderr, text::quote(report)));
    Hit {
        rule: i,
        confidence: Confidence::Medium,
        name: Some("SIGABRT (its runtime's abort after an unhandled exception)".to_string()),
        says: Some(format!(
            "it aborted on an unhandled exception: {}",
            super::model::cut(report)
        )),
        next: Some(
            "read the exception shown (its type and message): it names what the server could not accept or find; change that in the entry, or fix the code at its first frame in the server's own code".to_string(),
        ),
        launches: vec![l.number],
        evidence,
    }
}
