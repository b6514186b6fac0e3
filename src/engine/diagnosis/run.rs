//! The diagnosis of a whole run: every row on every launch that died, the rows that give way
//! to better explanations, the same lifetime across launches, grouped with merged evidence.

use std::collections::BTreeSet;

use super::launch::{ended, ev, launch_hit};
use super::logline;
use super::meaning;
use super::model::{fill, round_ms, Diagnosis, Evidence, Hit, Setting, Source, MAX_EVIDENCE};
use super::modes;
use super::process;
use super::table::{self, Confidence, Id, When, RULES};
use super::text;
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{AlertRule, Counted, Ended, Outcome, Reset};
use crate::engine::probe::runner::verdict::median;
use crate::engine::probe::{Launch, ProbeRun};

/// The likely causes of the ends in `run`, the surest first. Empty when every judged launch
/// stayed up (nothing died); `cause-unknown` with what was seen when nothing fits.
pub(crate) fn diagnose(run: &ProbeRun, setting: &Setting) -> Vec<Diagnosis> {
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
    // Structured log lines read as their level and message (`logline.rs`).
    let read = logline::read_launches(&died);
    let died = logline::as_read(&died, &read);
    // What a launch printed on stdout before it ended on its own: its last words too.
    let folded = super::stdout_words::fold_launches(&died);
    let died = logline::as_read(&died, &folded);
    let rule = run.policy.name.as_str();
    let blocked = whole_run(run, setting);
    if died.is_empty() {
        return blocked;
    }
    if let Some(mut d) = super::remote::diagnose(&died, setting) {
        d.extend(blocked);
        return d;
    }
    if let Some(d) = super::remote::session_lost(&died, setting, rule) {
        let mut out = vec![d];
        out.extend(blocked);
        return out;
    }
    if let Some(d) = timeout_too_short(&died, setting) {
        return vec![d];
    }
    let mut hits: Vec<Hit> = Vec::new();
    for l in &died {
        let mut on_launch: Vec<Hit> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            if let Some(h) = launch_hit(i, rule, l, setting)
                .or_else(|| process::process_hit(i, l, setting))
                .or_else(|| modes::mode_hit(i, l, setting))
            {
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
            if let Some(mut h) = same_lifetime(i, &died, run) {
                let explained = hits.iter().any(|o| {
                    rule.unless.contains(&RULES[o.rule].id)
                        && o.launches.iter().any(|n| h.launches.contains(n))
                });
                if !explained {
                    // The lifetime says more than each launch's `timeout` exit: one timer.
                    let (same, other): (Vec<Hit>, Vec<Hit>) = std::mem::take(&mut hits)
                        .into_iter()
                        .partition(|o| RULES[o.rule].id == Id::Timer);
                    hits = other;
                    for o in same {
                        for e in o.evidence {
                            if e.source != Source::Exit {
                                merge_evidence(&mut h.evidence, e);
                            }
                        }
                    }
                    hits.push(h);
                }
            }
        }
    }
    let mut out = group(hits);
    if out.is_empty() {
        out.push(unknown(&died, setting));
    }
    let out = prefer_structured(out, &died, setting);
    let out = port_holder(out, setting);
    let out = env_file_absent(out, setting);
    let out = read_under_prefix(out, setting);
    let out = option_envvar(out, setting);
    // A help printed before any handshake: the command that serves, or the package's server.
    let out = super::help_rows::lead(out, &died, setting);
    // An answer (an `initialize` error, a quiet end after the handshake) and an address the
    // entry holds where nothing listens.
    let out = super::answer_rows::lead(out, &died, setting);
    super::relaunch_rows::lead(out, &died, setting)
}

/// The diagnoses of the whole run, whether or not a launch died: a blocked port, a refused GET
/// stream, a certificate Node refuses, a failed `--call` or `tools/list`.
fn whole_run(run: &ProbeRun, setting: &Setting) -> Vec<Diagnosis> {
    let rule = run.policy.name.as_str();
    let mut blocked: Vec<Diagnosis> =
        super::remote::blocked_port(setting, run.launches.iter().map(|l| l.number).collect())
            .into_iter()
            .collect();
    blocked.extend(super::remote::get_stream_refused(
        &run.launches,
        setting,
        rule,
    ));
    blocked.extend(super::remote_tls::node_untrusted(&run.launches, setting));
    // A failed `--call`: a URL written without its scheme, else an address nothing listens on,
    // else a value of the entry's its error names; a failed `tools/list`'s address.
    let call = super::call_rows::url_unparsed(&run.launches, setting)
        .or_else(|| super::call_rows::service_down(&run.launches, setting))
        .or_else(|| super::call_unset::call_names_variable(&run.launches, setting, true))
        .or_else(|| super::allow_rows::call_word_not_listed(&run.launches, setting))
        .or_else(|| super::call_rows::value_named(&run.launches, setting))
        .or_else(|| super::call_child::call_command_missing(&run.launches, setting))
        .or_else(|| super::call_unset::call_names_variable(&run.launches, setting, false))
        .or_else(|| super::call_unset::call_means_unset(&run.launches, setting))
        .or_else(|| super::answer_rows::list_service_down(run, setting))
        .or_else(|| super::call_unset::no_tools_unset(&run.launches, setting));
    blocked.extend(call.map(|(_, d)| d));
    blocked
}

/// The table's answer, unless it is a generic one (`crash`, `cause-unknown`, ...) and the typed
/// evidence names the fix: then the structured diagnoses first, the table's others after.
fn prefer_structured(out: Vec<Diagnosis>, died: &[&Launch], setting: &Setting) -> Vec<Diagnosis> {
    use super::structured::{
        diagnose_keyed_but, Key, FILE_KEYS, GENERIC, OUTRANK_DEPENDENCY, OUTRANK_MISSING, STRONG,
    };
    let generic = |d: &Diagnosis| GENERIC.contains(&d.id);
    let Some(top) = out.first().map(|d| d.id) else {
        return out;
    };
    let weak_top = GENERIC.contains(&top);
    let outranked = [Id::BadArgument, Id::MissingEnvVar, Id::MissingDependency];
    if !weak_top && !outranked.contains(&top) {
        return out;
    }
    // A server that printed its usage ran its own code far enough to read its arguments: the
    // Node running it is new enough, whatever its package.json's engines claim.
    let ran_its_code = top == Id::MissingArgument;
    let may_replace = |k: &Key| {
        weak_top
            || (top == Id::BadArgument && STRONG.contains(k))
            || (top == Id::MissingEnvVar && OUTRANK_MISSING.contains(k))
            || (top == Id::MissingDependency && OUTRANK_DEPENDENCY.contains(k))
    };
    let skip: Vec<Key> = FILE_KEYS
        .iter()
        .filter(|k| !may_replace(k))
        .copied()
        .collect();
    let found: Vec<Diagnosis> = diagnose_keyed_but(died, setting, &skip)
        .into_iter()
        .filter(|(k, _)| !(ran_its_code && *k == Key::EnginesAboveRunningNode))
        .filter(|(k, _)| may_replace(k))
        .map(|(_, d)| d)
        .collect();
    if found.is_empty() {
        return out;
    }
    let replaced = |d: &Diagnosis| generic(d) || (!weak_top && d.id == top);
    found
        .into_iter()
        .chain(out.into_iter().filter(|d| !replaced(d)))
        .collect()
}

/// A port in use that one of the entry's values holds (`ZOO_PORT=8000`, `--port 8000`, a URL's
/// `:8000`): its next step names that value beside the port, the user's other fix.
fn port_holder(mut out: Vec<Diagnosis>, setting: &Setting) -> Vec<Diagnosis> {
    for d in out.iter_mut().filter(|d| d.id == Id::PortInUse) {
        let Some(port) = d
            .summary
            .strip_prefix("port ")
            .and_then(|r| r.split(' ').next())
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let holds = |v: &str| {
            v == port
                || v.rsplit_once(':')
                    .is_some_and(|(_, p)| p.split(['/', '?']).next() == Some(port))
        };
        let held: Vec<String> = super::given::entry_values(setting)
            .into_iter()
            .filter(|(_, v)| holds(v))
            .map(|(shown, _)| shown)
            .collect();
        if let [one] = held.as_slice() {
            d.next_step = format!(
                "{}; or change {one} in the entry to a port that is free",
                d.next_step
            );
        }
    }
    out
}

/// A variable missing while the entry points a `.env` file's variable (`*ENV_FILE*`, `*DOTENV*`,
/// or a value ending in `.env`) at a path where nothing is (looked up): python-dotenv's
/// `load_dotenv(path)` loads nothing from a missing file and says nothing, so the file's path is
/// the fix before the variable.
fn env_file_absent(mut out: Vec<Diagnosis>, setting: &Setting) -> Vec<Diagnosis> {
    let Some(d) = out.first_mut().filter(|d| d.id == Id::MissingEnvVar) else {
        return out;
    };
    let env_file = super::given::entry_env(setting).find(|(k, v)| {
        let up = k.to_ascii_uppercase();
        let named = up.contains("ENV_FILE") || up.contains("DOTENV") || v.ends_with(".env");
        let p = std::path::Path::new(v);
        let at = match &setting.cwd {
            Some(dir) if p.is_relative() => dir.join(p),
            _ => p.to_path_buf(),
        };
        named && !v.is_empty() && !v.contains("://") && std::fs::metadata(&at).is_err()
    });
    if let Some((k, v)) = env_file {
        d.next_step = format!(
            "point `{k}` at the .env file that exists (`{v}`: no such file, so nothing was loaded from it), or {}",
            d.next_step
        );
        d.evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Tried,
            text: format!("stat {v}: no such file"),
        });
    }
    out
}

/// A missing variable named bare (`API_KEY`, dynaconf's `API_KEY is required in env main`)
/// that the server's source never reads, while it reads exactly one variable ending in
/// `_API_KEY` that the entry does not set (`ZOO_API_KEY`, under dynaconf's `envvar_prefix`):
/// that one is named (an experiment: the source read).
fn read_under_prefix(mut out: Vec<Diagnosis>, setting: &Setting) -> Vec<Diagnosis> {
    let Some(d) = out.first_mut().filter(|d| d.id == Id::MissingEnvVar) else {
        return out;
    };
    let Some(code) = super::env_rows::scanned(setting) else {
        return out;
    };
    let named: Vec<&str> = d
        .next_step
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|n| {
            n.len() >= 3
                && n.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
        .collect();
    let [bare] = named.as_slice() else {
        return out;
    };
    let bare = bare.to_string();
    if code.reads.iter().any(|r| r.name == bare) || super::given::is_set(setting, &bare) {
        return out;
    }
    let tail = format!("_{bare}");
    let under: Vec<&super::source_scan::Read> = code
        .reads
        .iter()
        .filter(|r| r.name.ends_with(&tail) && !super::given::is_set(setting, &r.name))
        .collect();
    let [r] = under.as_slice() else {
        return out;
    };
    let from = format!("`{bare}`");
    let to = format!("`{}`", r.name);
    d.next_step = format!(
        "{} (the server reads `{bare}` under its prefix: {}, {})",
        d.next_step.replacen(&from, &to, 1),
        r.name,
        r.at
    );
    d.summary = d.summary.replacen(&from, &to, 1);
    d.evidence.push(Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text: format!(
            "read the server's source ({} file{}): `{}` is read at {}, `{bare}` nowhere",
            code.files,
            if code.files == 1 { "" } else { "s" },
            r.name,
            r.at
        ),
    });
    out
}

/// A required option missing (`Missing option '--api-key'`) whose declaration in the server's
/// source also reads a variable (click's `@click.option("--api-key", envvar="X")`, typer's
/// `api_key: str = typer.Option(..., envvar="X")`: the read's own line holds the flag or its
/// parameter), which the entry does not set: that variable is named beside the flag (an
/// experiment: the source read).
fn option_envvar(mut out: Vec<Diagnosis>, setting: &Setting) -> Vec<Diagnosis> {
    let Some(d) = out.first_mut().filter(|d| d.id == Id::MissingArgument) else {
        return out;
    };
    let Some(flag) = d
        .next_step
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|w| w.starts_with("--") && w.len() > 3 && !w.contains(' '))
        .map(str::to_string)
    else {
        return out;
    };
    let Some(code) = super::env_rows::scanned(setting) else {
        return out;
    };
    let param = flag.trim_start_matches('-').replace('-', "_");
    let declares = |line: &str| {
        line.contains(&format!("\"{flag}\""))
            || line.contains(&format!("'{flag}'"))
            || line.match_indices(&format!("{param}:")).any(|(at, _)| {
                !line[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
    };
    // The files the scan read variables in (at most 50), each looked through for the line
    // that declares the option with its `envvar=`.
    let mut files: Vec<&str> = Vec::new();
    for r in &code.reads {
        let file = r.at.rsplit_once(':').map_or(r.at.as_str(), |(f, _)| f);
        if !files.contains(&file) && files.len() < 50 {
            files.push(file);
        }
    }
    let found = files.iter().find_map(|file| {
        let path = if code.root.is_file() {
            code.root.clone()
        } else {
            code.root.join(file)
        };
        let text = std::fs::read_to_string(&path).ok()?;
        text.lines().enumerate().find_map(|(i, l)| {
            let at = l.find("envvar=")?;
            let after = l[at + "envvar=".len()..].trim_start_matches(['[', ' ']);
            let q = after.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let name = after[1..].split(q).next()?;
            let read = code.reads.iter().any(|r| r.name == name);
            (declares(l) && read && !super::given::is_set(setting, name))
                .then(|| (name.to_string(), format!("{file}:{}", i + 1)))
        })
    });
    if let Some((name, at)) = found {
        d.next_step = format!(
            "{}; or set `{name}` in the entry's env: the option reads it ({at})",
            d.next_step
        );
    }
    out
}

/// The shortest life from the spawn that a timer on the whole process explains (a server that
/// dies 50 ms after its spawn every time is no timer).
const SPAWN_TIMER_MIN_MS: f64 = 1000.0;

/// How much steadier (ms of spread) the lifetimes from the spawn must be than those from the
/// handshake to be the timer's reading: a loaded 2-core machine reads a lifetime late by up to
/// tens of ms (the probe's read, the server's timer).
const SPAWN_TIE_MS: f64 = 30.0;

/// Whether `lives` (launch, ms) are all the launches that died (at least two) and the same
/// within 5 % or 50 ms: their spread and middle.
fn steady(lives: &[(u32, f64)], died: usize) -> Option<(f64, f64)> {
    steady_within(lives, died, 0.05)
}

/// Exited before its handshake with an error code other than `timeout(1)`'s 124, after lines on
/// stderr: the server ended on what it said, not on a clock.
fn gave_up_saying_why(l: &Launch) -> bool {
    l.report.connected_at_ms.is_none()
        && matches!(ended(l), Some(Ended::Exit { code }) if code != 0 && code != 124)
        && !l.report.stderr.all_lines().is_empty()
}

/// `steady` with the share of the middle allowed as spread: every exit being `timeout(1)`'s
/// 124 already says "a timer", so its lifetimes need only be about the same (a loaded machine
/// reads an exit late by hundreds of ms).
fn steady_within(lives: &[(u32, f64)], died: usize, share: f64) -> Option<(f64, f64)> {
    if lives.len() < 2 || lives.len() < died {
        return None;
    }
    let lo = lives.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
    let hi = lives.iter().map(|x| x.1).fold(0.0, f64::max);
    let mid = (lo + hi) / 2.0;
    (hi - lo <= 50.0_f64.max(mid * share)).then_some((hi - lo, mid))
}

/// The spread a run of `timeout(1)` exits may have (a share of their middle).
const TIMEOUT_EXIT_SHARE: f64 = 0.2;

/// The lifetimes a timer is read from (launch, ms), whether they count from the spawn, and their
/// middle: the steadier of the connection's and the spawn's reading (see `same_lifetime`).
type Reading = (Vec<(u32, f64)>, bool, f64);

fn timer_reading(died: &[&Launch], code: Option<i32>) -> Option<Reading> {
    let connected: Vec<(u32, f64)> = died
        .iter()
        .filter_map(|l| match &l.report.outcome {
            Some(Outcome::Connected { lived_ms, .. }) => Some((l.number, *lived_ms)),
            _ => None,
        })
        .collect();
    // Ended on its own (an exit or a signal), not stopped by the probe; not after words on
    // stdout (it ended on what it told its user: `stdout_words.rs`), nor with an error code
    // of its own after words on stderr before any handshake (its start-up took that long and
    // its words say why it gave up: gdrive's "Credentials not found" after 2.7 s of loading).
    let spawned: Vec<(u32, f64)> = died
        .iter()
        .filter(|l| matches!(ended(l), Some(Ended::Exit { .. } | Ended::Signal { .. })))
        .filter(|l| !super::launch::talked_and_left(l))
        .filter(|l| !gave_up_saying_why(l))
        .map(|l| (l.number, l.report.ended_at_ms - l.report.launched_at_ms))
        .collect();
    let by_connection = steady(&connected, died.len());
    let share = if code == Some(124) {
        TIMEOUT_EXIT_SHARE
    } else {
        0.05
    };
    let by_spawn =
        steady_within(&spawned, died.len(), share).filter(|(_, mid)| *mid >= SPAWN_TIMER_MIN_MS);
    // When both readings are steady, the spawn's wins only when it is steadier by more than the
    // noise of reading a lifetime on a loaded machine (or the exit code is `timeout(1)`'s):
    // launches whose handshakes took about the same time are steady both ways, and there the
    // connection's is the host's reading.
    let clearly_steadier = |s: f64, c: f64, mid: f64| s + SPAWN_TIE_MS.max(mid * 0.01) < c;
    let (lives, from_spawn, mid) = match (by_connection, by_spawn) {
        (Some((c, _)), Some((s, m))) if code == Some(124) || clearly_steadier(s, c, m) => {
            (spawned, true, m)
        }
        (Some((_, m)), _) => (connected, false, m),
        (None, Some((_, m))) => (spawned, true, m),
        (None, None) => return None,
    };
    Some((lives, from_spawn, mid))
}

/// `timer`: two or more launches whose connections lived the same time (measured from the
/// handshake), or whose processes ended the same time after their spawn (a `timeout 2`
/// wrapper: the handshake's own time varies with start-up). The steadier of the two is used,
/// and the evidence says which. The figure named is the median, as in the verdict.
fn same_lifetime(i: usize, died: &[&Launch], run: &ProbeRun) -> Option<Hit> {
    let code = same_exit_code(died);
    let (lives, from_spawn, mid) = timer_reading(died, code)?;
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
    let typical = median(lives.iter().map(|x| x.1).collect()).unwrap_or(mid);
    let about = format_ms(round_ms(typical));
    let meaning = code
        .filter(|c| meaning::exit_meaning(*c).is_some())
        .map(|c| format!(" ({})", meaning::exit_text(c)))
        .unwrap_or_default();
    let host = what_the_host_says(run);
    let (says, text, next) = if from_spawn {
        let next = if code == Some(124) {
            format!(
                "remove the `timeout` that wraps the command (it ends the server {about} after its start; exit 124 is its mark), or give it longer: a host keeps a server running as long as it is connected; {host}"
            )
        } else {
            format!(
                "look for a limit of about {about} on the whole process (a `timeout` wrapper, a supervisor's or a CI job's run-time limit, a deliberate exit): {host}"
            )
        };
        (
            Some(format!(
                "every launch ended {about} (median) after it was started: a timer (a `timeout` wrapper, a run-time limit or a deliberate exit)"
            )),
            format!(
                "ended {}{more} after it was started{meaning}",
                shown.join(", ")
            ),
            next,
        )
    } else {
        (
            None,
            format!(
                "connected for {}{more} after the handshake{meaning}",
                shown.join(", ")
            ),
            format!("{}: {host}", RULES[i].next.replace("{}", &about)),
        )
    };
    Some(Hit {
        rule: i,
        confidence: if lives.len() >= 3 {
            RULES[i].confidence
        } else {
            Confidence::Medium
        },
        name: Some(format!("{about} (median)")),
        says,
        next: Some(next),
        launches: launches.clone(),
        evidence: vec![Evidence {
            launches,
            source: Source::Lifetime,
            text,
        }],
    })
}

/// The exit code every launch that died ended with, when they all did with the same one.
fn same_exit_code(died: &[&Launch]) -> Option<i32> {
    let codes: Vec<Option<i32>> = died
        .iter()
        .map(|l| match ended(l) {
            Some(Ended::Exit { code }) => Some(code),
            _ => None,
        })
        .collect();
    let first = codes.first().copied().flatten()?;
    codes.iter().all(|c| *c == Some(first)).then_some(first)
}

/// What the host does about connections that keep ending, under the rule in use and as this
/// run saw it: the `mcpl-down` it raised (when), or why it stays silent.
fn what_the_host_says(run: &ProbeRun) -> String {
    let rule = &run.policy.name;
    if let Some(l) = run.launches.iter().find(|l| l.alert.is_some()) {
        return format!(
            "under rule {rule} the host raised mcpl-down {} into this run (launch {})",
            format_ms(round_ms(l.report.ended_at_ms)),
            l.number
        );
    }
    let resets = run.policy.reset == Reset::OnHandshake
        || run
            .launches
            .iter()
            .filter_map(|l| l.decision)
            .any(|d| matches!(d.counted, Counted::HandshakeReset | Counted::Lasted));
    match run.policy.alert {
        AlertRule::Down { from_attempt, .. } if !resets => format!(
            "under rule {rule} each such end counts as a failure, and the host raises mcpl-down \
             from attempt {from_attempt}"
        ),
        AlertRule::None => format!(
            "rule {rule} never raises mcpl-down: the host stays silent while the server restarts"
        ),
        AlertRule::Down { .. } => format!(
            "under rule {rule} each connection resets the failure count: the host never raises \
             mcpl-down for this and stays silent while the server restarts"
        ),
    }
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
                summary: g
                    .says
                    .unwrap_or_else(|| fill(rule.says, rule.says_unnamed, name)),
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

/// The handshake timeouts under which every launch is suspected of being the probe's own
/// doing: `--handshake-timeout 5` is 5 ms, which no real server starts in.
const SHORT_HANDSHAKE_TIMEOUT_MS: f64 = 1000.0;

/// `handshake-timeout-too-short`: every launch that died timed out in its handshake, under a
/// `--handshake-timeout` shorter than a second. The server may be healthy; the limit is not.
fn timeout_too_short(died: &[&Launch], setting: &Setting) -> Option<Diagnosis> {
    let t = setting
        .handshake_timeout_ms
        .filter(|t| *t < SHORT_HANDSHAKE_TIMEOUT_MS)?;
    let all_timed_out = died.iter().all(|l| match &l.report.outcome {
        Some(o @ Outcome::FailedToConnect(_)) => {
            o.error().to_string().ends_with("handshake timed out")
        }
        _ => false,
    });
    if !all_timed_out {
        return None;
    }
    let shown = format_ms(t);
    let bare = format!("{t}");
    let next_step = if t < 100.0 {
        format!(
            "did you mean {bare}s? A bare number is milliseconds: give --handshake-timeout \
             {bare}s (default 30s)"
        )
    } else {
        "give --handshake-timeout more time (default 30s), e.g. --handshake-timeout 30s".to_string()
    };
    let first = died.first()?;
    let error = first
        .report
        .outcome
        .as_ref()
        .map(|o| o.error().to_string())
        .unwrap_or_default();
    Some(Diagnosis {
        id: Id::HandshakeTimeoutTooShort,
        confidence: Confidence::High,
        summary: format!(
            "every handshake timed out at --handshake-timeout = {shown}, shorter than this \
             server takes to start"
        ),
        launches: died.iter().map(|l| l.number).collect(),
        evidence: vec![Evidence {
            launches: died.iter().map(|l| l.number).collect(),
            source: Source::Exit,
            text: format!("{} after {shown}", text::quote(&error)),
        }],
        next_step,
    })
}

/// `cause-unknown`'s next step: what was seen, to start from (never "run it by hand" alone).
fn unknown_next(evidence: &[Evidence], setting: &Setting) -> String {
    let first = |source: Source| evidence.iter().find(|e| e.source == source);
    let ended = first(Source::Exit)
        .map(|e| e.text.clone())
        .unwrap_or_default();
    if let Some(next) = super::remote::unknown_next(setting, &ended) {
        return next;
    }
    let env = if setting.entry {
        "the entry's command, args and environment"
    } else {
        "the same command and environment"
    };
    match first(Source::Stderr).map(|e| e.text.as_str()) {
        Some(last) if last != "nothing" => {
            let line = last.strip_prefix("last line: ").unwrap_or(last);
            format!(
                "start from the server's last words, \"{line}\" (then: {ended}): they name no fix this doctor knows; run it with {env} to read the lines before them"
            )
        }
        _ if ended.contains("timed out") => format!(
            "it wrote nothing on stderr and answered nothing on stdout ({ended}): check that it is a stdio MCP server (a web server or a one-shot tool waits for something else) and how long it takes to start, with {env}"
        ),
        _ if ended.contains("answering pings") => format!(
            "it hangs without a word on stderr ({ended}): see what it is doing when it stops answering (`py-spy dump --pid PID`, `node --inspect`, `gdb -p PID`), run with {env}"
        ),
        _ => format!(
            "it ended without a word on stderr ({ended}): run it with {env} and look at its own log files and where it exits; `--format events` shows each launch as it happens"
        ),
    }
}

/// `cause-unknown`: what was seen on the launches that died.
fn unknown(died: &[&Launch], setting: &Setting) -> Diagnosis {
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
        let what = match ended(l).and_then(|e| match e {
            Ended::Exit { code } => meaning::exit_meaning(code).map(|m| (code, m)),
            _ => None,
        }) {
            Some((code, m)) => format!("{what} (exit {code}: {m})"),
            None => what,
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
        next_step: unknown_next(&evidence, setting),
        evidence,
    }
}
