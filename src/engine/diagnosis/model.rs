//! What a diagnosis says (its evidence and next step), what it knows of how the server was
//! started, and the words shared by the rows that find it.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::table::{Confidence, Id};
use crate::engine::probe::{Protocol, Target};
use crate::engine::redact::Redactor;

/// Where a piece of evidence comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Source {
    /// Starting the command.
    Spawn,
    /// How the process ended.
    Exit,
    Stderr,
    Stdout,
    /// When connections ended.
    Lifetime,
    /// The process's resident memory.
    Memory,
    /// The handshake's answer.
    Handshake,
    /// A host request left unanswered.
    Request,
    /// The environment the server got.
    Environment,
    /// What a remote server's URL answered to the probe's own look.
    Http,
    /// An experiment the diagnosis ran and what came back (`tried: connect 127.0.0.1:6379:
    /// refused`).
    Tried,
}

impl Source {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Source::Spawn => "spawn",
            Source::Exit => "exit",
            Source::Stderr => "stderr",
            Source::Stdout => "stdout",
            Source::Lifetime => "lifetime",
            Source::Memory => "memory",
            Source::Handshake => "handshake",
            Source::Request => "request",
            Source::Environment => "environment",
            Source::Http => "http",
            Source::Tried => "tried",
        }
    }
}

/// One piece of evidence: a quoted line (redacted, not yet sanitised) and the launches it was
/// seen on (empty: not tied to a launch, e.g. the environment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct Evidence {
    pub launches: Vec<u32>,
    pub source: Source,
    pub text: String,
}

/// A likely cause.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Diagnosis {
    pub id: Id,
    pub confidence: Confidence,
    /// The cause in a few words, with the thing named (redacted, not yet sanitised).
    pub summary: String,
    /// The launches it explains.
    pub launches: Vec<u32>,
    /// At most [`MAX_EVIDENCE`] pieces, the strongest first.
    pub evidence: Vec<Evidence>,
    /// The one next step.
    pub next_step: String,
}

/// The most evidence kept per diagnosis.
pub(crate) const MAX_EVIDENCE: usize = 4;

/// What the diagnosis knows about how the server was started (for `PATH` and the environment).
#[derive(Debug, Clone, Default)]
pub(crate) struct Setting {
    /// The program as given (redacted).
    pub command: Option<String>,
    /// Its working directory.
    pub cwd: Option<PathBuf>,
    /// The names of the variables the server got; `None`: the probe's whole environment (a
    /// bare command).
    pub given_env: Option<BTreeSet<String>>,
    /// The names set in the probe's own environment.
    pub own_env: BTreeSet<String>,
    /// The `PATH` the server got (redacted).
    pub path: Option<String>,
    /// The handshake the probe spoke.
    pub protocol: Option<Protocol>,
    /// The probe's `--handshake-timeout`, when it set one (a config check does not).
    pub handshake_timeout_ms: Option<f64>,
    /// The command's arguments (redacted), to tie what the server says to one of them.
    pub args: Vec<String>,
    /// The variables the server got that are not the host's standard ones, with their values
    /// (redacted), to tie what the server says to one of them.
    pub env_values: Vec<(String, String)>,
    /// The probe's `--start-budget` (how long an install may take), when it set one.
    pub start_budget_ms: Option<f64>,
    /// The server comes from a host configuration's entry (`--config`): a next step may name
    /// the entry's fields (`command`, `args`) and the host's working folder. `false`: a bare
    /// command (`probe -- CMD`), run from the current folder.
    pub entry: bool,
    /// A remote (HTTP) server's URL as shown (redacted): the diagnosis speaks in its terms.
    pub url: Option<String>,
    /// The stdio<->HTTP bridge the command runs (`mcp-remote`...), whose remote is `url`.
    pub bridge: Option<String>,
    /// The transport the bridge's flags choose (`sse`, `streamable-http`; `None`: it tries
    /// both), and its flag as written.
    pub bridge_transport: Option<(String, String)>,
    /// What the relaunch experiments found (`probe` runs them after a failed run; none
    /// elsewhere).
    pub relaunched: super::relaunch::Relaunched,
    /// What the server's installed source reads (the experiment of `source_scan.rs`), read
    /// once, when a row first asks (`env_rows.rs`).
    pub source: std::sync::OnceLock<Option<super::source_scan::Scanned>>,
    /// The variables of `env_values` whose value is a path where nothing exists (looked up
    /// before the values were redacted: a secret-named variable's path is judged, not shown).
    pub absent_env_paths: BTreeSet<String>,
    /// The string values of `--call`'s arguments (redacted; a list's items each), to tie a
    /// refusal of the call to what it sent.
    pub call_words: Vec<String>,
    /// The tool `--call` asks for.
    pub call_tool: Option<String>,
}

/// The path a value names where nothing exists: an absolute path, `~/...` at `home`, `./` or
/// `../` at `cwd` (else the current folder). `None` for a value that is no path or that exists.
pub(crate) fn absent_path(v: &str, home: Option<&str>, cwd: Option<&Path>) -> Option<PathBuf> {
    let v = v.trim();
    let pathish = !v.is_empty()
        && !v.contains("://")
        && !v.contains(char::is_whitespace)
        && !v.contains(crate::engine::redact::MASK)
        && (v.starts_with('/')
            || v.starts_with("~/")
            || v.starts_with("./")
            || v.starts_with("../"));
    if !pathish {
        return None;
    }
    let p = match v.strip_prefix("~/") {
        Some(rest) => PathBuf::from(home?).join(rest),
        None if v.starts_with('/') => PathBuf::from(v),
        None => match cwd {
            Some(c) => c.join(v),
            None => std::env::current_dir().ok()?.join(v),
        },
    };
    (!p.exists()).then_some(p)
}

impl Setting {
    /// What `target` tells about how the server starts (a socket: little).
    pub(crate) fn of(target: &Target, protocol: Protocol, redactor: &Redactor) -> Setting {
        let own_env: BTreeSet<String> = std::env::vars_os()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        let mut s = Setting {
            own_env,
            protocol: Some(protocol),
            ..Setting::default()
        };
        if let Target::Http(t) = target {
            s.url = Some(t.describe(redactor));
        }
        if let Some(b) = match target {
            Target::Stdio(t) => crate::engine::probe::wire::bridge::of_target(t),
            _ => None,
        } {
            s.url =
                Some(redactor.redact(&crate::engine::probe::wire::urls::display_url_str(&b.url)));
            s.bridge = Some(b.name.to_string());
            s.bridge_transport = b.era.map(|e| (e.name().to_string(), b.transport.clone()));
        }
        if let Target::Stdio(t) = target {
            s.command = Some(redactor.redact(&t.command.to_string_lossy()));
            s.cwd = t.cwd.clone();
            s.args = t
                .args
                .iter()
                .map(|a| redactor.redact(&a.to_string_lossy()))
                .collect();
            let pairs: Vec<(String, String)> = match &t.env {
                Some(env) => env
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.to_string_lossy().into_owned(),
                            v.to_string_lossy().into_owned(),
                        )
                    })
                    .collect(),
                None => std::env::vars_os()
                    .map(|(k, v)| {
                        (
                            k.to_string_lossy().into_owned(),
                            v.to_string_lossy().into_owned(),
                        )
                    })
                    .collect(),
            };
            let home = pairs
                .iter()
                .find(|(k, _)| k == "HOME")
                .map(|(_, h)| h.clone())
                .or_else(|| std::env::var("HOME").ok());
            s.absent_env_paths = pairs
                .iter()
                .filter(|(k, v)| {
                    !is_standard_env(k)
                        && absent_path(v, home.as_deref(), s.cwd.as_deref()).is_some()
                })
                .map(|(k, _)| k.clone())
                .collect();
            s.env_values = pairs
                .into_iter()
                .filter(|(k, _)| !is_standard_env(k))
                .map(|(k, v)| (k, redactor.redact(&v)))
                .collect();
            let path = match &t.env {
                Some(env) => {
                    s.given_env = Some(
                        env.iter()
                            .map(|(k, _)| k.to_string_lossy().into_owned())
                            .collect(),
                    );
                    env.iter()
                        .find(|(k, _)| k == OsStr::new("PATH"))
                        .map(|(_, v)| v.to_string_lossy().into_owned())
                }
                None => std::env::var_os("PATH").map(|v| v.to_string_lossy().into_owned()),
            };
            s.path = path.map(|p| redactor.redact(&p));
        }
        s
    }
}

/// One rule's finding on one launch (or on the run).
#[derive(Debug, Clone)]
pub(super) struct Hit {
    pub(super) rule: usize,
    pub(super) confidence: Confidence,
    /// The thing named.
    pub(super) name: Option<String>,
    /// Overrides the rule's summary (what the evidence shows is more precise than the row).
    pub(super) says: Option<String>,
    /// Overrides the rule's next step (the environment or the protocol decide it).
    pub(super) next: Option<String>,
    pub(super) launches: Vec<u32>,
    pub(super) evidence: Vec<Evidence>,
}

/// `says` with `{}` replaced by the name; `unnamed` without one.
pub(super) fn fill(says: &str, unnamed: &str, name: Option<&str>) -> String {
    match name {
        Some(n) if says.contains("{}") => says.replace("{}", n),
        Some(_) => says.to_string(),
        None => unnamed.replace("{}", "it"),
    }
}

/// `ms` rounded for a sentence: whole ms below a second, tenths of a second above.
pub(super) fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

/// Variables every host passes or every shell has: never the value a server complains about.
pub(crate) fn is_standard_env(name: &str) -> bool {
    const STANDARD: &[&str] = &[
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "PWD", "OLDPWD",
        "TMPDIR", "TEMP", "TMP", "HOSTNAME", "SHLVL", "_", "TZ", "DISPLAY", "EDITOR", "PAGER",
        "MAIL", "COLUMNS", "LINES", "HISTFILE",
    ];
    STANDARD.contains(&name)
        || name.starts_with("LC_")
        || name.starts_with("XDG_")
        || name.starts_with("SSH_")
        || name.starts_with("CARGO")
        || name.starts_with("RUST")
}

/// A finding of one row on one launch.
pub(super) struct Found {
    pub(super) id: Id,
    pub(super) summary: String,
    pub(super) next: String,
    pub(super) evidence: Vec<(Source, String)>,
}

/// An identifier shaped like an environment variable: `UPPER_SNAKE` with at least two parts,
/// not an error code (`ERR_*`). Callers add the shortest length they take.
pub(super) fn upper_snake(w: &str) -> bool {
    w.contains('_')
        && !w.starts_with("ERR_")
        && !w.starts_with('_')
        && !w.ends_with('_')
        && w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// `s` trimmed to 240 characters (an ellipsis when cut).
pub(super) fn cut(s: &str) -> String {
    let t: String = s.trim().chars().take(240).collect();
    if t.len() < s.trim().len() {
        format!("{t}…")
    } else {
        t
    }
}
