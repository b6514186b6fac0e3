//! The causes the relaunch experiments prove (`relaunch.rs` runs them; `probe` hands over what
//! they found in [`Setting::relaunched`]): `buffered-stdout` (the answer comes only once stdin
//! is closed) and `host-environment` (it starts with one environment and not the other). An
//! experiment that proved nothing is still shown, as `tried:` evidence on the top cause.

use super::model::{round_ms, Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::relaunch::{Buffered, OtherEnv};
use super::table::{Confidence, Id};
use super::words::terms;
use crate::engine::probe::Launch;

/// The ids only these rows give (the table has no row for them).
#[cfg(test)]
pub(crate) const IDS: &[Id] = &[Id::BufferedStdout, Id::HostEnvironment];

/// Variables that change how a runtime starts or what it loads (a whole name or a prefix),
/// named first among those that differ, in this order.
const RUNTIME_VARS: &[&str] = &[
    "PYTHONUNBUFFERED",
    "PYTHONPATH",
    "PYTHONHOME",
    "VIRTUAL_ENV",
    "NODE_OPTIONS",
    "NODE_PATH",
    "LD_LIBRARY_PATH",
    "PYTHON",
    "CONDA_",
    "UV_",
    "NODE_",
    "NPM_",
    "npm_config_",
    "NVM_",
    "BUN_",
    "DENO_",
    "LD_",
    "DYLD_",
    "JAVA_HOME",
    "GOPATH",
    "GOFLAGS",
    "DOTNET_",
    "PIP_",
];

/// The most variable names shown.
const MAX_NAMES: usize = 6;

/// `diagnoses` with the relaunches' findings: a proven cause first (it replaces
/// `cause-unknown`), an experiment that proved nothing as evidence on the top cause.
pub(super) fn lead(
    diagnoses: Vec<Diagnosis>,
    died: &[&Launch],
    setting: &Setting,
) -> Vec<Diagnosis> {
    let found = &setting.relaunched;
    let launches: Vec<u32> = died.iter().map(|l| l.number).collect();
    let mut first: Vec<Diagnosis> = Vec::new();
    let mut tried: Vec<String> = Vec::new();
    if let Some(b) = &found.buffered {
        match buffered(b, &launches, setting) {
            Some(d) => first.push(d),
            None => tried.push(buffered_tried(b)),
        }
    }
    if let Some(e) = &found.env {
        match environment(e, &launches, died, setting) {
            Some(d) => first.push(d),
            None => tried.push(env_tried(e, &ranked(&e.differ, died))),
        }
    }
    if first.is_empty() && tried.is_empty() {
        return diagnoses;
    }
    // A proven cause leads over a generic answer (a silent timeout's `cause-unknown`); a
    // specific one (the variable the server names) stays first, the experiment its proof.
    let proven = !first.is_empty();
    let generic = diagnoses
        .first()
        .is_none_or(|d| super::structured::GENERIC.contains(&d.id));
    let rest = diagnoses
        .into_iter()
        .filter(|d| !(proven && d.id == Id::CauseUnknown));
    let mut out: Vec<Diagnosis> = if generic {
        first.into_iter().chain(rest).collect()
    } else {
        // The specific answer stays, with the experiment's result as its proof.
        let mut rest: Vec<Diagnosis> = rest.collect();
        if let Some(top) = rest.first_mut() {
            for proof in first
                .into_iter()
                .filter_map(|d| d.evidence.into_iter().next())
            {
                if top.evidence.len() < MAX_EVIDENCE {
                    top.evidence.push(proof);
                }
            }
        }
        rest
    };
    // An experiment that proved nothing is said only where nothing else is known.
    if let Some(top) = out.first_mut().filter(|d| d.id == Id::CauseUnknown) {
        for t in tried {
            if top.evidence.len() < MAX_EVIDENCE {
                top.evidence.push(Evidence {
                    launches: Vec::new(),
                    source: Source::Tried,
                    text: t,
                });
            }
        }
    }
    out
}

fn tried(text: String) -> Evidence {
    Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text,
    }
}

/// What the stdin-closed experiment tried, when it proved nothing.
fn buffered_tried(b: &Buffered) -> String {
    match (b.closed_answer_ms, b.held_answer_ms) {
        (None, _) => format!(
            "relaunched, initialize sent and stdin closed: no answer in {} (not a buffered stdout)",
            format_ms(b.limit_ms)
        ),
        (Some(_), Some(held)) => format!(
            "relaunched with stdin open: answered in {} (its stdout is not held back; the first launch was slower)",
            format_ms(held)
        ),
        (Some(closed), None) => format!(
            "relaunched, stdin closed after initialize: answered in {}",
            format_ms(closed)
        ),
    }
}

/// Whether the server runs on Python (its command, a `.py` argument, a Python launcher).
fn is_python(setting: &Setting) -> bool {
    let base = |a: &str| a.rsplit('/').next().unwrap_or(a).to_ascii_lowercase();
    let command = setting.command.as_deref().map(base).unwrap_or_default();
    command.starts_with("python")
        || ["uv", "uvx", "pipx", "poetry", "hatch", "pdm"].contains(&command.as_str())
        || setting.args.iter().any(|a| a.ends_with(".py"))
}

/// `buffered-stdout`: the answer came with stdin closed, and not with it held open longer.
fn buffered(b: &Buffered, launches: &[u32], setting: &Setting) -> Option<Diagnosis> {
    if !b.proves_buffering() {
        return None;
    }
    let closed = b.closed_answer_ms?;
    let held = b.held_ms?;
    let env = terms("the entry's `env`", setting);
    let next = if is_python(setting) {
        format!(
            "add `PYTHONUNBUFFERED=1` to {env} (or run it with `python -u`), or write each message with `print(..., flush=True)`: on a pipe Python holds its output until the buffer fills or it exits, and a host waits for each answer"
        )
    } else {
        "flush stdout after each message (the language's flush: `fflush(stdout)`, `flush()`, `setvbuf` to line buffering): on a pipe the output is held until the buffer fills or it exits, and a host waits for each answer".to_string()
    };
    Some(Diagnosis {
        id: Id::BufferedStdout,
        confidence: Confidence::High,
        summary: "its stdout is block-buffered: its answer comes only when its stdin is closed (at exit), never while the host holds it open".to_string(),
        launches: launches.to_vec(),
        evidence: vec![
            tried(format!(
                "relaunched, initialize sent and stdin closed: answered in {}",
                format_ms(closed)
            )),
            tried(format!(
                "relaunched, stdin held open {}: no answer",
                format_ms(held)
            )),
        ],
        next_step: next,
    })
}

/// The names that differ, those that plausibly matter first: those the server's own lines
/// name, then a runtime's (in [`RUNTIME_VARS`]' order), then the rest (alphabetical).
fn ranked(differ: &[String], died: &[&Launch]) -> Vec<String> {
    let said = |n: &str| {
        died.iter().any(|l| {
            let t = &l.report.stderr;
            t.lines.iter().chain(&t.notable).any(|x| {
                x.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| w == n)
            })
        })
    };
    let rank = |n: &str| {
        if said(n) {
            return 0;
        }
        RUNTIME_VARS
            .iter()
            .position(|p| n.starts_with(p))
            .map_or(RUNTIME_VARS.len() + 1, |i| i + 1)
    };
    let mut out = differ.to_vec();
    out.sort_by_key(|n| rank(n));
    out
}

/// `A`, `B` and 3 others.
fn shown(names: &[String]) -> String {
    let mut s: Vec<String> = names
        .iter()
        .take(MAX_NAMES)
        .map(|n| format!("`{n}`"))
        .collect();
    if names.len() > MAX_NAMES {
        s.push(format!("{} others", names.len() - MAX_NAMES));
    }
    s.join(", ")
}

/// What the other-environment launch tried, when it proved nothing.
fn env_tried(e: &OtherEnv, names: &[String]) -> String {
    let how = match &e.ended {
        Some(end) => format!("{end} too"),
        None => format!("no answer in {} either", format_ms(e.limit_ms)),
    };
    format!(
        "relaunched with this shell's whole environment: {how}, so the environment is not the cause ({} variables differ: {})",
        names.len(),
        shown(names)
    )
}

/// `host-environment`: the run failed with one environment and the relaunch with the other
/// answered.
fn environment(
    e: &OtherEnv,
    launches: &[u32],
    died: &[&Launch],
    setting: &Setting,
) -> Option<Diagnosis> {
    let answered = e.answered_ms?;
    let names = ranked(&e.differ, died);
    let list = shown(&names);
    let likely = shown(&names[..names.len().min(2)]);
    let summary = format!(
        "it starts with this shell's environment, not with the one the host gives it: the host does not pass {} of this shell's variables",
        names.len()
    );
    let what = format!(
        "relaunched with this shell's whole environment (the entry's `env` on top): answered initialize in {}",
        format_ms(answered)
    );
    let next = format!(
        "add the variables it needs to {} (first look at {likely}): the host starts it without them",
        terms("the entry's `env`", setting)
    );
    Some(Diagnosis {
        id: Id::HostEnvironment,
        confidence: Confidence::High,
        summary,
        launches: launches.to_vec(),
        evidence: vec![
            tried(what),
            tried(format!("the variables that differ (names only): {list}")),
        ],
        next_step: next,
    })
}

/// `ms` in words, rounded (whole ms below a second, tenths above).
fn format_ms(ms: f64) -> String {
    crate::engine::policy::timings::format_ms(round_ms(ms))
}
