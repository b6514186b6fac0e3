//! Each row of the table against one launch: its exit, stderr, memory, signal, the request
//! it died on, its stdout and its handshake.

use super::meaning;
use super::model::{round_ms, Evidence, Hit, Setting, Source};
use super::runtime;
use super::spawn::path_evidence;
use super::table::{self, Confidence, Id, Rule, When, RULES};
use super::text;
use super::words;
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, Outcome};
use crate::engine::probe::read::help::{self, Part};
use crate::engine::probe::session::handshake::{LEGACY_VERSION, MODERN_VERSION};
use crate::engine::probe::{Launch, Protocol, Stopped};

/// How the launch's process ended on its own (before or after its handshake), if seen.
pub(super) fn ended(l: &Launch) -> Option<Ended> {
    if let Some(Outcome::Connected { ended, .. }) = &l.report.outcome {
        return Some(ended.clone());
    }
    l.report.process.as_ref().and_then(|p| p.exited.clone())
}

/// Whether a launch ended on its own before any handshake, having printed text on stdout: its
/// last words (`stdout_words.rs`).
pub(super) fn talked_and_left(l: &Launch) -> bool {
    l.report.connected_at_ms.is_none() && ended(l).is_some() && l.report.stdout.non_json_lines > 0
}

pub(super) fn ev(l: &Launch, source: Source, text: String) -> Evidence {
    Evidence {
        launches: vec![l.number],
        source,
        text,
    }
}

/// The first line of the launch's stderr matching one of `texts`, with the thing it names.
pub(super) fn stderr_match<'a>(
    l: &'a Launch,
    texts: &[table::Text],
) -> Option<(&'a String, Option<String>, table::Text)> {
    let tail = &l.report.stderr;
    // Notable lines that scrolled out of the tail, then the tail.
    let lines: Vec<&'a String> = tail.all_lines();
    // A help text's flags and their descriptions are the server describing itself (`Falls
    // back to the X environment variable`), never a complaint.
    let parts = help::parts(&lines);
    let lines: Vec<&'a String> = lines
        .into_iter()
        .zip(parts)
        .filter(|(_, p)| *p != Part::Body)
        .map(|(l, _)| l)
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
        says: None,
        next: None,
        launches: vec![l.number],
        evidence,
    }
}

/// Row `i`'s finding on launch `l`, if any.
pub(super) fn launch_hit(i: usize, rule: &Rule, l: &Launch, setting: &Setting) -> Option<Hit> {
    let r = &l.report;
    match rule.when {
        When::SpawnNotFound | When::SpawnDenied | When::SameLifetime => None,
        When::Exit { codes, named_by } => {
            let code = match ended(l)? {
                Ended::Exit { code } if codes.contains(&code) => code,
                _ => return None,
            };
            let mut evidence = vec![ev(l, Source::Exit, meaning::exit_text(code))];
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
        When::Stderr(texts) => stderr_hit(i, rule, l, setting, texts),
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
        When::KilledWithMemoryRising => memory_hit(i, l),
        When::Signal(signals) => signal_hit(i, l, signals),
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
        When::StdoutNoise => noise_hit(i, l),
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
        When::VersionRefused => version_hit(i, l, setting),
        When::NamesAValue(_) => words::value_hit(i, l, setting),

        // In `process.rs` and `modes.rs`.
        When::Limited { .. }
        | When::NativeSignal(_)
        | When::InstallUnfinished
        | When::LeftRunning
        | When::ServesHttp
        | When::StdinEnded => None,
    }
}

/// `stderr`: a line naming the cause (a missing variable gets advice from the environment).
fn stderr_hit(
    i: usize,
    rule: &Rule,
    l: &Launch,
    setting: &Setting,
    texts: &[table::Text],
) -> Option<Hit> {
    let (line, name, t) = stderr_match(l, texts)?;
    let mut h = hit(i, l, name, vec![ev(l, Source::Stderr, text::quote(line))]);
    if rule.id == Id::MissingEnvVar {
        words::env_advice(&mut h, setting, line, t.with.is_some());
    }
    if rule.id == Id::MissingArgument {
        words::argument_advice(&mut h, &t, setting);
    }
    if !runtime::advice(&mut h, rule.id, &t, line, l, setting) {
        return None;
    }
    if rule.id == Id::OutOfMemory {
        heap_flag(&mut h, setting);
    }
    if rule.id == Id::MissingScript {
        // Node could not find the script itself (a path), not a dependency (a package name).
        let n = h.name.clone()?;
        let python_script = t.contains == "can't open file ";
        if !(n.starts_with('/') || n.starts_with('.') || python_script) {
            return None;
        }
        script_not_found(&mut h, n, setting);
    }
    Some(h)
}

/// A heap limit the command itself sets (`node --max-old-space-size=4 ...`) too small to
/// start in: that flag is the thing to change, not a leak to hunt.
fn heap_flag(h: &mut Hit, setting: &Setting) {
    let Some((flag, mb)) = setting.args.iter().find_map(|a| {
        let v = a.strip_prefix("--max-old-space-size=")?;
        Some((a.clone(), v.parse::<u64>().ok()?))
    }) else {
        return;
    };
    if mb >= 256 {
        return;
    }
    h.says = Some(format!(
        "it ran out of memory under the heap limit its command sets (`{flag}`: {mb} MB)"
    ));
    h.next = Some(format!(
        "raise or remove `{flag}` in {}: a Node server needs tens of MB of heap to start",
        words::terms("the entry's args", setting)
    ));
}

/// Node could not find the script it was asked to run (`node missing.mjs`): a wrong path, not a
/// missing dependency. For an entry, the entry's `args` and the host's working folder; for a
/// bare command, the current folder.
fn script_not_found(h: &mut Hit, path: String, setting: &Setting) {
    let interpreter = setting
        .command
        .as_deref()
        .map(|c| c.rsplit('/').next().unwrap_or(c).to_string())
        .unwrap_or_else(|| "node".to_string());
    h.says = Some(format!(
        "`{path}` does not exist (the script {interpreter} was asked to run)"
    ));
    h.next = Some(if setting.entry {
        format!(
            "check the script's path in the entry's args: {path} does not exist (relative paths \
             are from the host's working folder)"
        )
    } else {
        let folder = setting
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .map(|d| format!(", {}", d.display()))
            .unwrap_or_default();
        format!("check the path: {path} does not exist (a relative path is from the current folder{folder})")
    });
}

/// `oom`: killed while its memory rose to the end.
fn memory_hit(i: usize, l: &Launch) -> Option<Hit> {
    let r = &l.report;
    let e = ended(l)?;
    let Ended::Signal { signal } = e else {
        return None;
    };
    // An abort its runtime raised after an unhandled exception is the exception, whatever the
    // memory did while it started.
    if signal == 6 && meaning::unhandled_report(r.stderr.lines.iter().map(String::as_str)).is_some()
    {
        return None;
    }
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

/// A signal the probe did not send (or a wrapper's 128 + N).
fn signal_hit(i: usize, l: &Launch, signals: &[i32]) -> Option<Hit> {
    let r = &l.report;
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
        format!("{e} ({named}, passed on by a wrapper?) {when}; the probe had sent no signal")
    } else {
        format!("{named} {when}; the probe had sent no signal")
    };
    let mut h = hit(i, l, Some(named), vec![ev(l, Source::Exit, text)]);
    if via_code {
        h.confidence = Confidence::Low;
    }
    Some(h)
}

/// Log lines on stdout.
fn noise_hit(i: usize, l: &Launch) -> Option<Hit> {
    let r = &l.report;
    // A launch that ended on its own before its handshake talked to its user there: its
    // lines are its last words (`stdout_words.rs`), no log that broke a message.
    if r.stdout.non_json_lines == 0 || talked_and_left(l) {
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

/// A refused protocol version, and which setting to change.
fn version_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    let r = &l.report;
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
    // An editor's client (over stdio or HTTP) offered its newest version and accepts older
    // ones: only a server release that speaks one of them fixes it.
    let client_offer = server
        .offered_version
        .as_deref()
        .filter(|o| *o != LEGACY_VERSION && *o != MODERN_VERSION);
    let next = match setting.protocol {
        _ if client_offer.is_some() => format!(
            "the server answered {} to an offer of {}, a version the host's client cannot use \
             (it disconnects): update the server to a release that speaks {} or an older \
             version the host accepts",
            server.protocol_version.as_deref().unwrap_or("no version"),
            client_offer.unwrap_or_default(),
            client_offer.unwrap_or_default(),
        ),
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
