//! Why a server died, and what to do next: the likely causes of a run's ends, each with a
//! stable id, how sure it is, the evidence (quoted lines with launch numbers, redacted by the
//! engine; renderers sanitise) and one next step.
//!
//! The patterns are data ([`table::RULES`]); this module only looks for each kind of evidence
//! and groups what it finds. A cause is never given without evidence: when nothing fits, the
//! diagnosis is `cause-unknown` with what was seen.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, Outcome};
use crate::engine::probe::handshake::{LEGACY_VERSION, MODERN_VERSION};
use crate::engine::probe::{Launch, LaunchError, ProbeRun, Protocol, Stopped, Target};
use crate::engine::redact::Redactor;

pub mod table;
#[cfg(test)]
mod tests;
pub mod text;

pub use table::{Confidence, Id, Rule, When, RULES};

/// Where a piece of evidence comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
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
}

impl Source {
    pub fn as_str(self) -> &'static str {
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
        }
    }
}

/// One piece of evidence: a quoted line (redacted, not yet sanitised) and the launches it was
/// seen on (empty: not tied to a launch, e.g. the environment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Evidence {
    pub launches: Vec<u32>,
    pub source: Source,
    pub text: String,
}

/// A likely cause.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Diagnosis {
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
pub const MAX_EVIDENCE: usize = 4;

/// What the diagnosis knows about how the server was started (for `PATH` and the environment).
#[derive(Debug, Clone, Default)]
pub struct Setting {
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
}

impl Setting {
    /// What `target` tells about how the server starts (a socket: little).
    pub fn of(target: &Target, protocol: Protocol, redactor: &Redactor) -> Setting {
        let own_env: BTreeSet<String> = std::env::vars_os()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        let mut s = Setting {
            own_env,
            protocol: Some(protocol),
            ..Setting::default()
        };
        if let Target::Stdio(t) = target {
            s.command = Some(redactor.redact(&t.command.to_string_lossy()));
            s.cwd = t.cwd.clone();
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
struct Hit {
    rule: usize,
    confidence: Confidence,
    /// The thing named.
    name: Option<String>,
    /// Overrides the rule's next step (the environment or the protocol decide it).
    next: Option<String>,
    launches: Vec<u32>,
    evidence: Vec<Evidence>,
}

/// The likely causes of the ends in `run`, the surest first. Empty when every judged launch
/// stayed up (nothing died); `cause-unknown` with what was seen when nothing fits.
pub fn diagnose(run: &ProbeRun, setting: &Setting) -> Vec<Diagnosis> {
    let died: Vec<&Launch> = run
        .launches
        .iter()
        .filter(|l| {
            matches!(
                l.report.outcome,
                Some(Outcome::Connected { .. })
                    | Some(Outcome::FailedToConnect(_))
                    | Some(Outcome::Permanent(_))
            )
        })
        .collect();
    if died.is_empty() {
        return Vec::new();
    }
    let mut hits: Vec<Hit> = Vec::new();
    for l in &died {
        let mut on_launch: Vec<Hit> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            if let Some(h) = launch_hit(i, rule, l, setting) {
                on_launch.push(h);
            }
        }
        // A row gives way to the diagnoses that explain the same launch better.
        let found: BTreeSet<Id> = on_launch.iter().map(|h| RULES[h.rule].id).collect();
        hits.extend(
            on_launch
                .into_iter()
                .filter(|h| !RULES[h.rule].unless.iter().any(|u| found.contains(u))),
        );
    }
    for (i, rule) in RULES.iter().enumerate() {
        if let When::SameLifetime = rule.when {
            if let Some(h) = same_lifetime(i, &died) {
                let explained = hits.iter().any(|o| {
                    rule.unless.contains(&RULES[o.rule].id)
                        && o.launches.iter().any(|n| h.launches.contains(n))
                });
                if !explained {
                    hits.push(h);
                }
            }
        }
    }
    let mut out = group(hits);
    if out.is_empty() {
        out.push(unknown(&died));
    }
    out
}

/// What a launch error (the command could not be started at all) says.
pub fn of_launch_error(error: &LaunchError, setting: &Setting) -> Diagnosis {
    // The launch error's own words say which it is (see `stdio::launch_error`).
    let (when, reason) = match error {
        LaunchError::NotFound { .. } => (When::SpawnNotFound, None),
        LaunchError::CannotExecute { reason, .. }
            if reason.contains("interpreter") && reason.contains("does not exist") =>
        {
            (When::SpawnNotFound, Some(reason.clone()))
        }
        LaunchError::CannotExecute { reason, .. }
            if ["not executable", "not a program", "permission denied"]
                .iter()
                .any(|w| reason.contains(w)) =>
        {
            (When::SpawnDenied, Some(reason.clone()))
        }
        LaunchError::CannotExecute { reason, .. } | LaunchError::Other(reason) => {
            // A working directory that does not exist, a missing ELF loader, a bad URL: what
            // was seen, no more.
            return Diagnosis {
                id: Id::CauseUnknown,
                confidence: Confidence::Low,
                summary: format!("it could not be started: {}", text::quote(reason)),
                launches: Vec::new(),
                evidence: vec![Evidence {
                    launches: Vec::new(),
                    source: Source::Spawn,
                    text: text::quote(reason),
                }],
                next_step: table::UNKNOWN_NEXT.to_string(),
            };
        }
    };
    let i = RULES
        .iter()
        .position(|r| std::mem::discriminant(&r.when) == std::mem::discriminant(&when))
        .unwrap_or(0);
    let rule = &RULES[i];
    let command = setting.command.clone().unwrap_or_default();
    let mut evidence: Vec<Evidence> = reason
        .iter()
        .map(|r| Evidence {
            launches: Vec::new(),
            source: Source::Spawn,
            text: text::quote(r),
        })
        .collect();
    let mut name = Some(command.clone());
    let mut says = None;
    let mut next = None;
    match when {
        When::SpawnNotFound => {
            let found = locate(&command, setting);
            match &found {
                Some(file) => {
                    // The file is there: what is missing is its `#!` interpreter.
                    let interp = shebang(file);
                    evidence.push(Evidence {
                        launches: Vec::new(),
                        source: Source::Spawn,
                        text: format!(
                            "{} exists, yet starting it fails with \"No such file or directory\"",
                            file.display()
                        ),
                    });
                    if let Some(i) = &interp {
                        evidence.push(Evidence {
                            launches: Vec::new(),
                            source: Source::Spawn,
                            text: format!("its first line: #!{i}"),
                        });
                        says = Some(format!("its interpreter `{i}` was not found"));
                        next = Some(format!(
                            "install the interpreter (`{i}`), or fix the `#!` line of {}",
                            file.display()
                        ));
                        name = Some(i.clone());
                    }
                }
                None => {
                    evidence.push(Evidence {
                        launches: Vec::new(),
                        source: Source::Spawn,
                        text: if command.contains('/') {
                            format!("no file at {command}{}", relative_to(&command, setting))
                        } else {
                            format!("{command} is in none of PATH's folders")
                        },
                    });
                }
            }
            if !command.contains('/') || found.is_some() {
                evidence.push(path_evidence(setting));
            }
        }
        _ => {
            let p = locate(&command, setting).unwrap_or_else(|| PathBuf::from(&command));
            let what = match std::fs::metadata(&p) {
                Ok(m) if m.is_dir() => "is a folder".to_string(),
                Ok(m) => {
                    use std::os::unix::fs::PermissionsExt;
                    format!(
                        "has mode {:o}: not executable",
                        m.permissions().mode() & 0o777
                    )
                }
                Err(_) => "cannot be executed (permission denied)".to_string(),
            };
            evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Spawn,
                text: format!("{} {what}", p.display()),
            });
        }
    }
    Diagnosis {
        id: rule.id,
        confidence: rule.confidence,
        summary: says.unwrap_or_else(|| fill(rule.says, rule.says_unnamed, name.as_deref())),
        launches: Vec::new(),
        evidence,
        next_step: next.unwrap_or_else(|| fill(rule.next, rule.next_unnamed, name.as_deref())),
    }
}

fn relative_to(command: &str, setting: &Setting) -> String {
    if command.starts_with('/') {
        return String::new();
    }
    let dir = setting
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    if dir.is_empty() {
        String::new()
    } else {
        format!(" (relative to {dir})")
    }
}

fn path_evidence(setting: &Setting) -> Evidence {
    Evidence {
        launches: Vec::new(),
        source: Source::Environment,
        text: match &setting.path {
            Some(p) => format!("PATH={p}"),
            None => "the server gets no PATH".to_string(),
        },
    }
}

/// Where `command` resolves (a path, or the first `PATH` folder holding it).
fn locate(command: &str, setting: &Setting) -> Option<PathBuf> {
    if command.is_empty() {
        return None;
    }
    if command.contains('/') {
        let p = match &setting.cwd {
            Some(d) if !command.starts_with('/') => d.join(command),
            _ => PathBuf::from(command),
        };
        return p.is_file().then_some(p);
    }
    setting
        .path
        .as_deref()?
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(command))
        .find(|p| p.is_file())
}

/// The interpreter named by `file`'s `#!` line.
fn shebang(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(file).ok()?.read(&mut head).ok()?;
    let head = String::from_utf8_lossy(&head[..n]);
    let line = head.lines().next()?.strip_prefix("#!")?.trim();
    (!line.is_empty()).then(|| text::quote(line))
}

/// `says` with `{}` replaced by the name; `unnamed` without one.
fn fill(says: &str, unnamed: &str, name: Option<&str>) -> String {
    match name {
        Some(n) if says.contains("{}") => says.replace("{}", n),
        Some(_) => says.to_string(),
        None => unnamed.replace("{}", "it"),
    }
}

/// How the launch's process ended on its own (before or after its handshake), if seen.
fn ended(l: &Launch) -> Option<Ended> {
    if let Some(Outcome::Connected { ended, .. }) = &l.report.outcome {
        return Some(ended.clone());
    }
    l.report.process.as_ref().and_then(|p| p.exited.clone())
}

fn ev(l: &Launch, source: Source, text: String) -> Evidence {
    Evidence {
        launches: vec![l.number],
        source,
        text,
    }
}

/// The first line of the launch's stderr matching one of `texts`, with the thing it names.
fn stderr_match<'a>(
    l: &'a Launch,
    texts: &[table::Text],
) -> Option<(&'a String, Option<String>, table::Text)> {
    let tail = &l.report.stderr;
    // Notable lines that scrolled out of the tail, then the tail.
    let lines: Vec<&'a String> = tail
        .notable
        .iter()
        .filter(|n| !tail.lines.contains(n))
        .chain(tail.lines.iter())
        .collect();
    for t in texts {
        if let Some(with) = t.with {
            if !lines.iter().any(|x| x.contains(with)) {
                continue;
            }
        }
        let matching = || {
            lines.iter().filter(|x| {
                x.contains(t.contains) && !table::NOT_EVIDENCE.iter().any(|n| x.contains(n))
            })
        };
        // The message itself rather than the source line a runtime echoes above it (indented).
        let line = matching()
            .find(|x| !x.starts_with(' '))
            .or_else(|| matching().next());
        if let Some(line) = line {
            let name = text::name_in(line, t.contains, t.name);
            if t.name.required() && name.is_none() {
                // A row that names a thing claims nothing it cannot name.
                continue;
            }
            return Some((line, name, *t));
        }
    }
    None
}

fn hit(rule: usize, l: &Launch, name: Option<String>, evidence: Vec<Evidence>) -> Hit {
    Hit {
        rule,
        confidence: RULES[rule].confidence,
        name,
        next: None,
        launches: vec![l.number],
        evidence,
    }
}

/// Row `i`'s finding on launch `l`, if any.
fn launch_hit(i: usize, rule: &Rule, l: &Launch, setting: &Setting) -> Option<Hit> {
    let r = &l.report;
    match rule.when {
        When::SpawnNotFound | When::SpawnDenied | When::SameLifetime => None,
        When::Exit { codes, named_by } => {
            let code = match ended(l)? {
                Ended::Exit { code } if codes.contains(&code) => code,
                _ => return None,
            };
            let mut evidence = vec![ev(l, Source::Exit, format!("exit {code}"))];
            let mut name = None;
            if let Some((line, n, _)) = stderr_match(l, named_by) {
                evidence.push(ev(l, Source::Stderr, text::quote(line)));
                name = n;
            }
            if code == 127 {
                evidence.push(path_evidence(setting));
            }
            Some(hit(i, l, name, evidence))
        }
        When::Stderr(texts) => {
            let (line, name, t) = stderr_match(l, texts)?;
            let mut h = hit(i, l, name, vec![ev(l, Source::Stderr, text::quote(line))]);
            if rule.id == Id::MissingEnvVar {
                env_advice(&mut h, setting);
            }
            if rule.id == Id::MissingDependency {
                if let Some(n) = &h.name {
                    if n.starts_with('/') || n.starts_with('.') {
                        // Node could not find the script itself, not a dependency.
                        if t.contains.starts_with("Cannot find module") {
                            h.next = Some(format!(
                                "check the script's path in the entry's args: {n} does not exist (relative paths are from the host's working folder)"
                            ));
                        }
                    }
                }
            }
            Some(h)
        }
        When::CrashTrace => {
            let c = text::crash(&r.stderr.lines)?;
            let mut evidence = vec![ev(l, Source::Stderr, c.error.clone())];
            if let Some(f) = &c.frame {
                evidence.push(ev(l, Source::Stderr, f.clone()));
            }
            Some(hit(
                i,
                l,
                Some(format!("{} ({})", c.error, c.runtime)),
                evidence,
            ))
        }
        When::KilledWithMemoryRising => {
            let e = ended(l)?;
            let Ended::Signal { signal } = e else {
                return None;
            };
            let mem = &r.process.as_ref()?.memory;
            let base = mem.first_from(r.connected_at_ms.unwrap_or(r.launched_at_ms))?;
            let last = mem.last()?;
            let rise = last.rss_kib.saturating_sub(base.rss_kib);
            let rising = mem.samples.len() >= 3
                && rise >= (16 * 1024).max(base.rss_kib / 4)
                && last.rss_kib * 10 >= mem.peak_kib * 8;
            if !rising {
                return None;
            }
            let mib = |k: u64| format!("{:.0} MiB", k as f64 / 1024.0);
            let at = |ms: f64| format_ms((ms - r.launched_at_ms).max(0.0).round());
            let mid = mem.samples[mem.samples.len() / 2];
            let mut h = hit(
                i,
                l,
                None,
                vec![
                    ev(l, Source::Exit, e.to_string()),
                    ev(
                        l,
                        Source::Memory,
                        format!(
                            "RSS {} at {}, {} at {}, {} at {} (the last reading before it died)",
                            mib(base.rss_kib),
                            at(base.at_ms),
                            mib(mid.rss_kib),
                            at(mid.at_ms),
                            mib(last.rss_kib),
                            at(last.at_ms)
                        ),
                    ),
                ],
            );
            if signal != 9 {
                h.confidence = Confidence::Medium;
            }
            Some(h)
        }
        When::Signal(signals) => {
            let e = ended(l)?;
            let (signal, via_code) = match e {
                Ended::Signal { signal } => (signal, false),
                Ended::Exit { code } if code > 128 => (code - 128, true),
                _ => return None,
            };
            if !signals.contains(&signal) {
                return None;
            }
            let named = Ended::Signal { signal }
                .to_string()
                .trim_start_matches("signal ")
                .to_string();
            let when = match r.connected_ms() {
                Some(ms) => format!("{} after its handshake", format_ms(round_ms(ms))),
                None => "before its handshake".to_string(),
            };
            let text = if via_code {
                format!(
                    "{e} ({named}, passed on by a wrapper?) {when}; the probe had sent no signal"
                )
            } else {
                format!("{named} {when}; the probe had sent no signal")
            };
            let mut h = hit(i, l, Some(named), vec![ev(l, Source::Exit, text)]);
            if via_code {
                h.confidence = Confidence::Low;
            }
            Some(h)
        }
        When::RequestPending => {
            // Only a connection that ended (not one the probe stopped watching).
            let Some(Outcome::Connected { .. }) = &r.outcome else {
                return None;
            };
            let p = r.opening.as_ref()?.pending_at_close.as_ref()?;
            let after = (r.ended_at_ms - p.sent_at_ms).max(0.0);
            let how = ended(l).map(|e| format!(" ({e})")).unwrap_or_default();
            Some(hit(
                i,
                l,
                Some(p.method.clone()),
                vec![ev(
                    l,
                    Source::Request,
                    format!(
                        "closed{how} {} after the host sent `{}` (no answer)",
                        format_ms(round_ms(after)),
                        p.method
                    ),
                )],
            ))
        }
        When::StdoutNoise => {
            if r.stdout.non_json_lines == 0 {
                return None;
            }
            let mut evidence: Vec<Evidence> = r
                .stdout
                .samples
                .iter()
                .take(2)
                .map(|s| ev(l, Source::Stdout, text::quote(s)))
                .collect();
            if evidence.is_empty() {
                evidence.push(ev(
                    l,
                    Source::Stdout,
                    format!("{} non-JSON lines", r.stdout.non_json_lines),
                ));
            }
            let mut h = hit(i, l, None, evidence);
            // Logs on stdout explain an end only when no handshake got through them.
            if r.connected_at_ms.is_some() {
                h.confidence = Confidence::Low;
            }
            Some(h)
        }
        When::QuietExitAfterHandshake { within_ms } => {
            let Some(Outcome::Connected { lived_ms, ended }) = &r.outcome else {
                return None;
            };
            if *lived_ms > within_ms
                || !matches!(ended, Ended::Exit { code: 0 } | Ended::StdoutClosed)
            {
                return None;
            }
            let t = format_ms(lived_ms.round());
            Some(hit(
                i,
                l,
                None,
                vec![ev(
                    l,
                    Source::Exit,
                    format!("{ended} {t} after its handshake"),
                )],
            ))
        }
        When::VersionRefused => {
            let server = r.server.as_ref()?;
            let refused = match &r.outcome {
                Some(Outcome::Permanent(_)) => r.stopped != Stopped::CouldNotBeReaped,
                Some(Outcome::FailedToConnect(_)) => !server.supported_versions.is_empty(),
                _ => false,
            };
            if !refused {
                return None;
            }
            let error = l
                .error
                .clone()
                .or_else(|| r.outcome.as_ref().map(|o| o.error().to_string()))?;
            let said: Vec<String> = server
                .supported_versions
                .iter()
                .cloned()
                .chain(server.protocol_version.clone())
                .collect();
            let speaks_modern = said.iter().any(|v| v == MODERN_VERSION);
            let speaks_legacy = said.iter().any(|v| v == LEGACY_VERSION);
            let entry = setting.protocol.map_or("this", Protocol::name);
            let next = match setting.protocol {
                Some(Protocol::Legacy) if speaks_modern => {
                    "set `\"protocol\": \"modern\"` in the entry (or probe with `--protocol modern`)".to_string()
                }
                Some(Protocol::Modern) if speaks_legacy => {
                    "set `\"protocol\": \"legacy\"` in the entry (or probe with `--protocol legacy`)".to_string()
                }
                _ => format!(
                    "the server speaks {}; this host speaks {LEGACY_VERSION} (legacy) and {MODERN_VERSION} (modern): update the server",
                    if said.is_empty() { "no version it names".to_string() } else { said.join(", ") }
                ),
            };
            let mut h = hit(
                i,
                l,
                Some(entry.to_string()),
                vec![ev(l, Source::Handshake, text::quote(&error))],
            );
            h.next = Some(next);
            Some(h)
        }
    }
}

/// `ms` rounded for a sentence: whole ms below a second, tenths of a second above.
fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

/// The next step for a missing variable, from what the server was given.
fn env_advice(h: &mut Hit, setting: &Setting) {
    let Some(name) = h.name.clone() else {
        return;
    };
    let in_own = setting.own_env.contains(&name);
    match &setting.given_env {
        Some(given) if !given.contains(&name) => {
            h.evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Environment,
                text: if in_own {
                    format!("{name} is set here, but the host does not pass it: the entry has no env.{name} and no inheritEnv")
                } else {
                    format!("{name} is set neither in the entry's env nor here")
                },
            });
            h.next = Some(if in_own {
                format!("add `{name}` to the entry's `env` (as `\"{name}\": \"${{{name}}}\"`), or set `\"inheritEnv\": true`: the host passes only its allowlist")
            } else {
                format!("set `{name}` in the entry's `env`")
            });
        }
        Some(_) => {
            h.evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Environment,
                text: format!("{name} is passed to the server: check its value"),
            });
            h.confidence = Confidence::Medium;
            h.next = Some(format!("check the value the entry gives `{name}`"));
        }
        None => {
            h.evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Environment,
                text: if in_own {
                    format!("{name} is set in the environment it got: check its value")
                } else {
                    format!("{name} is not set in the environment it got")
                },
            });
            if in_own {
                h.confidence = Confidence::Medium;
            }
            h.next = Some(format!(
                "set `{name}` for the server (for the host: in the entry's `env`)"
            ));
        }
    }
}

/// `timer`: two or more connections that lived the same time (within 5 % or 50 ms).
fn same_lifetime(i: usize, died: &[&Launch]) -> Option<Hit> {
    let lives: Vec<(u32, f64)> = died
        .iter()
        .filter_map(|l| match &l.report.outcome {
            Some(Outcome::Connected { lived_ms, .. }) => Some((l.number, *lived_ms)),
            _ => None,
        })
        .collect();
    if lives.len() < 2 || lives.len() < died.len() {
        return None;
    }
    let lo = lives.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
    let hi = lives.iter().map(|x| x.1).fold(0.0, f64::max);
    let mid = (lo + hi) / 2.0;
    if hi - lo > 50.0_f64.max(mid * 0.05) {
        return None;
    }
    let shown: Vec<String> = lives
        .iter()
        .take(6)
        .map(|(_, ms)| {
            if *ms < 10_000.0 {
                format!("{:.0} ms", ms.round())
            } else {
                format_ms(round_ms(*ms))
            }
        })
        .collect();
    let more = if lives.len() > 6 { ", ..." } else { "" };
    let launches: Vec<u32> = lives.iter().map(|x| x.0).collect();
    let about = format_ms(round_ms(mid));
    Some(Hit {
        rule: i,
        confidence: if lives.len() >= 3 {
            RULES[i].confidence
        } else {
            Confidence::Medium
        },
        name: Some(about.clone()),
        next: Some(RULES[i].next.replace("{}", &about)),
        launches: launches.clone(),
        evidence: vec![Evidence {
            launches,
            source: Source::Lifetime,
            text: format!(
                "connected for {}{more} after the handshake",
                shown.join(", ")
            ),
        }],
    })
}

/// Hits grouped into diagnoses: one per row and thing named, evidence merged across launches.
fn group(hits: Vec<Hit>) -> Vec<Diagnosis> {
    let mut groups: Vec<Hit> = Vec::new();
    for h in hits {
        let id = RULES[h.rule].id;
        match groups
            .iter_mut()
            .find(|g| RULES[g.rule].id == id && g.name == h.name)
        {
            Some(g) => {
                g.confidence = g.confidence.max(h.confidence);
                for n in h.launches {
                    if !g.launches.contains(&n) {
                        g.launches.push(n);
                    }
                }
                for e in h.evidence {
                    merge_evidence(&mut g.evidence, e);
                }
            }
            None => {
                let mut g = h.clone();
                g.evidence.clear();
                for e in h.evidence {
                    merge_evidence(&mut g.evidence, e);
                }
                groups.push(g);
            }
        }
    }
    // The surest first; among equals, the table's order.
    groups.sort_by(|a, b| b.confidence.cmp(&a.confidence).then(a.rule.cmp(&b.rule)));
    groups
        .into_iter()
        .map(|mut g| {
            let rule = &RULES[g.rule];
            g.launches.sort_unstable();
            g.evidence.truncate(MAX_EVIDENCE);
            let name = g.name.as_deref();
            Diagnosis {
                id: rule.id,
                confidence: g.confidence,
                summary: fill(rule.says, rule.says_unnamed, name),
                launches: g.launches,
                evidence: g.evidence,
                next_step: g
                    .next
                    .unwrap_or_else(|| fill(rule.next, rule.next_unnamed, name)),
            }
        })
        .collect()
}

fn merge_evidence(list: &mut Vec<Evidence>, e: Evidence) {
    match list
        .iter_mut()
        .find(|x| x.source == e.source && x.text == e.text)
    {
        Some(x) => {
            for n in e.launches {
                if !x.launches.contains(&n) {
                    x.launches.push(n);
                }
            }
        }
        None => list.push(e),
    }
}

/// `cause-unknown`: what was seen on the launches that died.
fn unknown(died: &[&Launch]) -> Diagnosis {
    let mut evidence: Vec<Evidence> = Vec::new();
    for l in died {
        let r = &l.report;
        let what = match &r.outcome {
            Some(Outcome::Connected { lived_ms, ended }) => format!(
                "connected, then ended ({ended}) {} after its handshake",
                format_ms(round_ms(*lived_ms))
            ),
            Some(o) => o.error().to_string(),
            None => continue,
        };
        merge_evidence(&mut evidence, ev(l, Source::Exit, text::quote(&what)));
        match r.stderr.lines.iter().rev().find(|s| !s.trim().is_empty()) {
            Some(last) => merge_evidence(
                &mut evidence,
                ev(
                    l,
                    Source::Stderr,
                    format!("last line: {}", text::quote(last)),
                ),
            ),
            None if r.process.is_some() => {
                merge_evidence(&mut evidence, ev(l, Source::Stderr, "nothing".to_string()))
            }
            None => {}
        }
    }
    evidence.truncate(MAX_EVIDENCE);
    Diagnosis {
        id: Id::CauseUnknown,
        confidence: Confidence::Low,
        summary: table::UNKNOWN_SAYS.to_string(),
        launches: died.iter().map(|l| l.number).collect(),
        evidence,
        next_step: table::UNKNOWN_NEXT.to_string(),
    }
}
