//! The experiments that launch a stdio server again, after a run that failed: once with its
//! stdin closed right after `initialize` (does the answer come then? a block-buffered stdout),
//! and, for an entry the host starts with its own environment, once with the caller's whole
//! environment. `probe` runs them between the run and its Why; the diagnosis reads what they
//! found ([`Relaunched`]).
//!
//! Each launch is bounded (at most [`LIMIT`], [`MAX_STDOUT`] bytes of stdout read), runs in its
//! own process group, which is killed after (with whatever left it: see `engine::process`),
//! and writes nothing. Only names of variables are kept, never values.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

use crate::engine::policy::Outcome;
use crate::engine::probe::session::initialize;
use crate::engine::probe::{Launch, ProbeRun, Protocol, StdioTarget, Target};
use crate::engine::process;

/// The longest one relaunch may wait for its answer.
pub(crate) const LIMIT: Duration = Duration::from_secs(10);
/// The most bytes of a relaunch's stdout read.
const MAX_STDOUT: usize = 256 * 1024;
/// The least time the control launch holds stdin open.
const MIN_HOLD: Duration = Duration::from_secs(1);

/// What the relaunches found (names and times only).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Relaunched {
    /// The stdin-closed experiment, when it ran.
    pub buffered: Option<Buffered>,
    /// The other-environment experiment, when it ran.
    pub env: Option<OtherEnv>,
}

/// A relaunch with stdin closed right after `initialize`, and its control.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Buffered {
    /// How long the relaunch waited at most.
    pub limit_ms: f64,
    /// With stdin closed after `initialize`: when the answer came (from the spawn).
    pub closed_answer_ms: Option<f64>,
    /// The control, with stdin held open this long (when the closed launch answered).
    pub held_ms: Option<f64>,
    /// The control's answer, when one came while stdin was open.
    pub held_answer_ms: Option<f64>,
}

impl Buffered {
    /// The answer came only once stdin was closed: its stdout is block-buffered.
    pub(crate) fn proves_buffering(&self) -> bool {
        self.closed_answer_ms.is_some() && self.held_ms.is_some() && self.held_answer_ms.is_none()
    }
}

/// A relaunch of an entry with the caller's whole environment (the entry's `env` on top)
/// where the host gave it its own, its stdin held open.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OtherEnv {
    /// The variables one environment has and the other lacks (names; sorted).
    pub differ: Vec<String>,
    pub limit_ms: f64,
    /// When it answered `initialize` (from the spawn), if it did.
    pub answered_ms: Option<f64>,
    /// How it ended within the limit, if it did (`exited with code 1`).
    pub ended: Option<String>,
}

/// A whole environment.
type Env = Vec<(OsString, OsString)>;

/// What one relaunch saw.
#[derive(Debug, Default)]
struct Trial {
    answered: Option<Duration>,
    ended: Option<String>,
}

/// The launches of `run` that never connected and whose handshake timed out while the
/// process ran, with nothing at all on stdout and no port listened on: a candidate for a
/// block-buffered stdout.
fn silent_timeouts(run: &ProbeRun) -> Vec<&Launch> {
    run.launches
        .iter()
        .filter(|l| {
            let r = &l.report;
            let quiet = r.process.as_ref().is_some_and(|p| {
                p.silent
                    && p.listening.is_empty()
                    && !p.install.as_ref().is_some_and(|i| i.unfinished)
            });
            r.connected_at_ms.is_none() && timed_out(l) && quiet
        })
        .collect()
}

/// Whether launch `l`'s handshake timed out.
fn timed_out(l: &Launch) -> bool {
    matches!(&l.report.outcome, Some(o @ Outcome::FailedToConnect(_))
        if o.error().to_string().ends_with("handshake timed out"))
}

/// Whether every judged launch of `run` failed before it answered its handshake (none
/// connected, none answered a refusal or another version): a relaunch that answers then
/// shows a difference, not the same server.
fn failed(run: &ProbeRun) -> bool {
    let judged: Vec<&Launch> = run
        .launches
        .iter()
        .filter(|l| l.report.outcome.is_some())
        .collect();
    !judged.is_empty()
        && judged
            .iter()
            .all(|l| l.report.connected_at_ms.is_none() && l.report.server.is_none())
}

/// Run the experiments a failed run of a stdio `target` calls for (none for a run that
/// connected, a URL, or a run cut by the user). `handshake_ms` is the run's handshake timeout.
pub(crate) async fn after_run(
    run: &ProbeRun,
    target: &Target,
    protocol: Protocol,
    handshake_ms: f64,
    interrupted: bool,
) -> Relaunched {
    let mut out = Relaunched::default();
    let Target::Stdio(t) = target else {
        return out;
    };
    if interrupted || !failed(run) {
        return out;
    }
    let first = frame(&initialize::stdio_first_request(t.client, protocol));
    let limit = LIMIT.min(Duration::from_secs_f64(handshake_ms.max(0.0) / 1000.0));
    if limit.is_zero() {
        return out;
    }
    // A launch that listens on a port has its cause (`http-mode`): nothing to test.
    if run.launches.iter().any(|l| {
        l.report
            .process
            .as_ref()
            .is_some_and(|p| !p.listening.is_empty())
    }) {
        return out;
    }
    if !silent_timeouts(run).is_empty() {
        out.buffered = Some(stdin_closed(t, &first, limit).await);
    }
    if let Some((env, differ)) = other_env(t) {
        let trial = relaunch(t, Some(env), &first, None, limit).await;
        out.env = Some(OtherEnv {
            differ,
            limit_ms: ms(limit),
            answered_ms: trial.answered.map(ms),
            ended: trial.ended,
        });
    }
    out
}

/// The stdin-closed launch, then (when it answered) its control with stdin held open a while
/// longer than that answer took.
async fn stdin_closed(t: &StdioTarget, first: &[u8], limit: Duration) -> Buffered {
    let env = t.env.clone();
    let closed = relaunch(t, env.clone(), first, Some(Duration::ZERO), limit).await;
    let mut found = Buffered {
        limit_ms: ms(limit),
        closed_answer_ms: closed.answered.map(ms),
        held_ms: None,
        held_answer_ms: None,
    };
    if let Some(at) = closed.answered {
        let hold = (at * 2).max(at + MIN_HOLD).min(limit);
        let held = relaunch(t, env, first, Some(hold), hold).await;
        found.held_ms = Some(ms(hold));
        found.held_answer_ms = held.answered.map(ms);
    }
    found
}

/// For an entry (the run had the host's environment): the caller's whole one with the
/// entry's values on top, and the names the caller has that the host did not pass, when
/// there are any. A bare command already ran with the caller's whole environment.
fn other_env(t: &StdioTarget) -> Option<(Env, Vec<String>)> {
    let given = t.env.as_ref()?;
    let mut env: Env = std::env::vars_os()
        .filter(|(k, _)| k != crate::engine::process_tree::LAUNCH_VAR)
        .collect();
    let differ: BTreeSet<String> = env
        .iter()
        .filter(|(k, _)| !given.iter().any(|(g, _)| g == k))
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    for (k, v) in given {
        env.retain(|(e, _)| e != k);
        env.push((k.clone(), v.clone()));
    }
    (!differ.is_empty()).then(|| (env, differ.into_iter().collect()))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn frame(v: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(v).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Whether `line` is an answer (a JSON-RPC result or error with an id).
fn is_answer(line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(line).is_ok_and(|v| {
        v.get("id").is_some() && (v.get("result").is_some() || v.get("error").is_some())
    })
}

/// Launch `t` with `env` (`None`: the probe's own), send `first`, close stdin after `close`
/// (`None`: held open until the end), and wait until `limit` for an answer; then kill its
/// group and whatever left it.
async fn relaunch(
    t: &StdioTarget,
    env: Option<Vec<(OsString, OsString)>>,
    first: &[u8],
    close: Option<Duration>,
    limit: Duration,
) -> Trial {
    let mut cmd = tokio::process::Command::new(&t.command);
    cmd.args(&t.args);
    if let Some(env) = &env {
        cmd.env_clear();
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
    }
    if let Some(dir) = &t.cwd {
        cmd.current_dir(dir);
    }
    let Ok(spawned) = process::spawn(&mut cmd) else {
        return Trial::default();
    };
    let started = Instant::now();
    let process::Spawned {
        mut child,
        mut stdin,
        mut stdout,
        mut stderr,
    } = spawned;
    // Stderr is drained (a full pipe would block the server) and dropped.
    let drain = tokio::spawn(async move {
        let mut buf = [0u8; 8192];
        while matches!(stderr.read(&mut buf).await, Ok(n) if n > 0) {}
    });
    let _ = stdin.write_all(first).await;
    let _ = stdin.flush().await;
    let mut stdin = Some(stdin);
    let close_at = close.map(|c| started + c);
    if close == Some(Duration::ZERO) {
        stdin = None;
    }
    let deadline = started + limit;
    let mut got: Vec<u8> = Vec::new();
    let mut trial = Trial::default();
    let mut buf = [0u8; 8192];
    let mut open = true;
    while trial.answered.is_none() && Instant::now() < deadline {
        let close_due = close_at.filter(|_| stdin.is_some());
        tokio::select! {
            n = stdout.read(&mut buf), if open => match n {
                Ok(n) if n > 0 => {
                    let room = MAX_STDOUT.saturating_sub(got.len());
                    got.extend_from_slice(&buf[..n.min(room)]);
                    if got.split(|b| *b == b'\n').any(is_answer) {
                        trial.answered = Some(started.elapsed());
                    } else if room == 0 {
                        break;
                    }
                }
                _ => {
                    open = false;
                    if is_answer(got.rsplit(|b| *b == b'\n').next().unwrap_or_default()) {
                        trial.answered = Some(started.elapsed());
                    }
                }
            },
            s = child.wait(), if !open => {
                trial.ended = s.ok().map(|s| match s.code() {
                    Some(c) => format!("exited with code {c}"),
                    None => "killed by a signal".to_string(),
                });
                break;
            }
            () = tokio::time::sleep_until(close_due.unwrap_or(deadline)), if close_due.is_some() => {
                stdin = None;
            }
            () = tokio::time::sleep_until(deadline) => break,
        }
    }
    drop(stdin);
    child.kill(process::GRACE).await;
    drain.abort();
    trial
}
