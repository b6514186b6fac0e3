//! The verdict: the pattern the launches show, in one sentence, and what each host rule would
//! make of it, replayed through the engine's simulator.

use std::collections::HashMap;

use super::run_record::{Finish, Launch, ProbeRun};
use crate::engine::policy::timings::format_ms;
use crate::engine::policy::{Ended, EngineKind, Outcome, Preset, Timings};
use crate::engine::probe::opening::summary::OpeningSummary;
use crate::engine::schedule::{self, Behaviour, Request, Scenario, Summary, DAY_MS};

/// The rules every verdict predicts for (the host's own).
pub(crate) const PREDICTED_RULES: &[Preset] =
    &[Preset::Handshake, Preset::Lasting, Preset::Bounded];

/// The shape of what the server did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Pattern {
    /// Every observed connection was still up when observation ended.
    StayedUp,
    /// Every launch connected, then closed before it would count as lasting: the relaunch loop
    /// of agent-framework issue #375 (`short-lived`; formerly `loop375`).
    ShortLived,
    /// Some launches connected then closed, others did something else.
    Flapped,
    /// No launch completed its handshake.
    NeverConnected,
    /// A permanent verdict (a refused protocol version, a process that could not be reaped).
    Refused,
    /// Nothing to judge (stopped before any attempt finished).
    Unknown,
}

/// What one host rule would do with the observed behaviour, over a day.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct Prediction {
    pub rule: String,
    /// Launches a day.
    pub launches_per_day: f64,
    /// When `mcpl-down` first fires (`None`: never within the day).
    pub first_down_ms: Option<f64>,
    pub first_down_attempt: Option<u32>,
    pub downs_per_day: f64,
    /// Webhook posts a day (at most one per 15 minutes).
    pub webhooks_per_day: f64,
    /// "down" + "cleared" status line pairs a day.
    pub status_pairs_per_day: f64,
    /// Share of the day connected, 0 to 1.
    pub connected_share: f64,
    pub longest_wait_ms: f64,
    /// Whether the failure count ever starts afresh.
    pub count_starts_afresh: bool,
    /// Why reconnecting stops, if it does.
    pub stopped: Option<String>,
    /// Whether the rule's host raises `mcpl-down` at all (else the alert figures do not apply).
    pub raises_alert: bool,
}

impl Prediction {
    fn from_summary(rule: &str, raises_alert: bool, s: &Summary) -> Prediction {
        Prediction {
            rule: rule.to_string(),
            raises_alert,
            launches_per_day: s.launches_per_day,
            first_down_ms: s.first_down_ms,
            first_down_attempt: s.first_down_attempt,
            downs_per_day: s.downs_per_day,
            webhooks_per_day: s.webhooks_per_day,
            status_pairs_per_day: s.status_pairs_per_day,
            connected_share: s.connected_share,
            longest_wait_ms: s.longest_wait_ms,
            count_starts_afresh: s.count_starts_afresh,
            stopped: s.stopped.clone(),
        }
    }
}

/// The verdict on a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Verdict {
    pub pattern: Pattern,
    /// The pattern in one sentence (server-controlled parts redacted, not yet sanitised).
    pub sentence: String,
    /// The same in a few words, for a summary table: `closed 105 ms after its handshake (exit
    /// 0)`, `never connected: connection refused`, `still up 30 s after its handshake`.
    pub short: String,
    /// The behaviour replayed through the simulator (`None`: nothing to replay, e.g. a
    /// permanent verdict halts every host rule at once).
    pub scenario: Option<Scenario>,
    pub predictions: Vec<Prediction>,
}

/// The median of `v` (`None` when empty): the one figure the verdict and the Why give for how
/// long connections lived (and how long handshakes took), so that they never differ.
pub(crate) fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The most common of `items` and how often it occurs (first seen wins ties).
fn most_common(items: &[String]) -> Option<(String, usize)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for i in items {
        *counts.entry(i.as_str()).or_default() += 1;
    }
    let best = items.iter().max_by_key(|i| {
        let c = counts[i.as_str()];
        // Earlier items win ties: max_by_key keeps the last maximum, so rank by position too.
        (c, std::cmp::Reverse(items.iter().position(|x| x == *i)))
    })?;
    Some((best.clone(), counts[best.as_str()]))
}

/// The `lasting` threshold for the run's timings.
fn lasting_threshold(run: &ProbeRun) -> f64 {
    Preset::Lasting
        .policy_with(EngineKind::Legacy, run.policy.timings)
        .lasting_threshold(0.0)
        .unwrap_or(f64::INFINITY)
}

/// Judge a run: its pattern, and a prediction per host rule (plus the run's own rule when it is
/// not one of them).
///
/// `settle_ms` is how long the legacy engine's post-handshake policy exchange takes to settle
/// (see [`Scenario::settle_ms`]): the predictions' "cleared" status lines depend on it. Pass
/// the value measured live, else [`schedule::DEFAULT_SETTLE_MS`].
pub(crate) fn judge(run: &ProbeRun, engine: EngineKind, settle_ms: f64) -> Verdict {
    let judged = judged_launches(run);
    let n = judged.len();
    if n == 0 {
        return Verdict {
            pattern: Pattern::Unknown,
            sentence: "stopped before any launch finished its handshake: nothing to judge"
                .to_string(),
            short: "nothing to judge".to_string(),
            scenario: None,
            predictions: Vec::new(),
        };
    }
    // The host whose rule the run followed, in words, when it is one of the hosts' presets.
    let host = run
        .policy
        .name
        .parse::<Preset>()
        .ok()
        .and_then(Preset::host_title);
    if let Some(verdict) = refused(&judged, host) {
        return verdict;
    }
    let tally = Tally::of(&judged);
    let threshold = lasting_threshold(run);
    let mut parts = Vec::new();
    let mut short = Vec::new();
    if !tally.closed_lives.is_empty() {
        let (p, s) = closed_words(&tally, n, threshold, host.is_none());
        parts.push(p);
        short.push(s);
    }
    if !tally.failed.is_empty() {
        let (p, s) = failed_words(&tally.failed, n);
        parts.push(p);
        short.push(s);
    }
    for (l, lived) in &tally.up {
        let (p, s) = still_up_words(run, l, *lived);
        parts.push(p);
        short.push(s);
    }
    let closed = tally.closed_lives.len();
    let pattern = if tally.up.len() == n {
        Pattern::StayedUp
    } else if tally.hung == 0 && closed == n && tally.closed_lives.iter().all(|l| *l < threshold) {
        Pattern::ShortLived
    } else if tally.failed.len() == n {
        Pattern::NeverConnected
    } else {
        Pattern::Flapped
    };
    let scenario = scenario_of(&judged, settle_ms);
    let predictions = predictions(run, engine, &scenario);
    if let Some(host) = host {
        parts.extend(host_words(run, host, pattern, &scenario));
    }
    if pattern == Pattern::StayedUp && run.finish == Finish::Interrupted {
        // Stopped from outside while up: no all-clear, nothing says how long it stays up.
        return Verdict {
            pattern: Pattern::Unknown,
            sentence: format!(
                "interrupted while still up: {}; too soon to judge how long it stays up",
                parts.join("; ")
            ),
            short: "interrupted while still up".to_string(),
            scenario: Some(scenario),
            predictions,
        };
    }
    Verdict {
        pattern,
        sentence: parts.join("; "),
        short: short.join("; "),
        scenario: Some(scenario),
        predictions,
    }
}

/// What the host whose rule the run followed (`host`, in words) makes of it: its start budget
/// against the time to handshake, and, when the server went down, what the host does then
/// (its own words: "Claude Desktop does not relaunch this server; ...").
fn host_words(run: &ProbeRun, host: &str, pattern: Pattern, scenario: &Scenario) -> Vec<String> {
    let mut out = Vec::new();
    let never = scenario.behaviour == Behaviour::Never;
    match run.policy.start_budget_ms {
        // Every attempt ran out of the host's budget (the handshake waits that long).
        Some(budget) if never && scenario.fail_after_ms >= budget * 0.99 => out.push(format!(
            "no handshake within {host}'s {} start budget: {host} fails the start",
            format_ms(budget)
        )),
        Some(_) if never => {}
        Some(budget) => {
            let took = format_ms(round_ms(scenario.startup_ms));
            out.push(if scenario.startup_ms > budget {
                format!(
                "its handshake took {took}, over {host}'s {} start budget: {host} fails the start",
                format_ms(budget)
            )
            } else {
                format!(
                    "its handshake took {took}, within {host}'s {} start budget",
                    format_ms(budget)
                )
            });
        }
        None => {}
    }
    if let (Finish::GaveUp(words), false) = (run.finish, pattern == Pattern::StayedUp) {
        out.push(words.to_string());
    }
    out
}

/// The launches a verdict is about: those with an outcome, less a connection still up when
/// `--for` or Ctrl-C ended the run (cut short, it says nothing about how long the server stays
/// up), unless nothing else happened at all.
fn judged_launches(run: &ProbeRun) -> Vec<&Launch> {
    let with_outcome: Vec<&Launch> = run
        .launches
        .iter()
        .filter(|l| l.report.outcome.is_some())
        .collect();
    let cut_short = |l: &Launch| {
        matches!(run.finish, Finish::Deadline | Finish::Interrupted)
            && matches!(l.report.outcome, Some(Outcome::StillUp { .. }))
            && u64::from(l.number) == run.total_launches()
    };
    if with_outcome.iter().all(|l| cut_short(l)) {
        with_outcome
    } else {
        with_outcome.into_iter().filter(|l| !cut_short(l)).collect()
    }
}

/// The verdict on a permanent failure, when a judged launch had one.
fn refused(judged: &[&Launch], host: Option<&str>) -> Option<Verdict> {
    let l = judged
        .iter()
        .find(|l| matches!(l.report.outcome, Some(Outcome::Permanent(_))))?;
    let error = l.error.clone().unwrap_or_default();
    let then = match host {
        Some(host) => format!("{host} disconnects, and every relaunch meets the same answer"),
        None => "every host rule stops reconnecting at once and raises mcpl-down".to_string(),
    };
    Some(Verdict {
        pattern: Pattern::Refused,
        sentence: format!(
            "a permanent verdict on launch {}: {error}; {then}",
            l.number
        ),
        short: format!("permanent failure: {error}"),
        scenario: None,
        predictions: Vec::new(),
    })
}

/// The judged launches by how they went.
struct Tally<'a> {
    /// Connections that closed: how long each lived, and how it ended.
    closed_lives: Vec<f64>,
    closed_how: Vec<String>,
    /// Of them, those that stopped answering pings.
    hung: usize,
    /// Why each failed attempt failed.
    failed: Vec<String>,
    /// Connections still up, and for how long.
    up: Vec<(&'a Launch, f64)>,
}

impl<'a> Tally<'a> {
    fn of(judged: &[&'a Launch]) -> Tally<'a> {
        let mut t = Tally {
            closed_lives: Vec::new(),
            closed_how: Vec::new(),
            hung: 0,
            failed: Vec::new(),
            up: Vec::new(),
        };
        for l in judged {
            match &l.report.outcome {
                Some(Outcome::Connected { lived_ms, ended }) => {
                    t.closed_lives.push(*lived_ms);
                    t.closed_how.push(ended.to_string());
                    if *ended == Ended::StoppedAnswering {
                        t.hung += 1;
                    }
                }
                Some(Outcome::FailedToConnect(f)) => t.failed.push(f.to_string()),
                Some(Outcome::StillUp { lived_ms }) => t.up.push((*l, *lived_ms)),
                _ => {}
            }
        }
        t
    }
}

/// `` (all of them) or ` on 2 of 5`, for the short form.
fn share(k: usize, n: usize) -> String {
    if k == n {
        String::new()
    } else {
        format!(" on {k} of {n}")
    }
}

/// The sentence and the short form for the connections that closed.
fn closed_words(t: &Tally<'_>, n: usize, threshold: f64, loop_words: bool) -> (String, String) {
    let lives = &t.closed_lives;
    let typical = median(lives.clone()).unwrap_or(0.0);
    let how = most_common(&t.closed_how)
        .map(|(h, c)| {
            if c == t.closed_how.len() {
                format!(" ({h})")
            } else {
                format!(" (mostly {h})")
            }
        })
        .unwrap_or_default();
    let range = {
        let lo = lives.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = lives.iter().copied().fold(0.0, f64::max);
        if lives.len() > 1 && hi - lo >= 1000.0 {
            format!("; between {} and {}", format_ms(lo), format_ms(hi))
        } else {
            String::new()
        }
    };
    let all_hung = t.hung == lives.len();
    // Several connections: their median, said so (the Why's timer names the same figure).
    let typical_words = if lives.len() > 1 {
        format!("{} (median{range})", format_ms(round_ms(typical)))
    } else {
        format_ms(round_ms(typical))
    };
    let short = if all_hung {
        format!(
            "stopped answering pings {} after its handshake{}",
            format_ms(round_ms(typical)),
            share(t.hung, n)
        )
    } else {
        format!(
            "closed {} after its handshake{how}{}",
            format_ms(round_ms(typical)),
            share(lives.len(), n)
        )
    };
    let mut p = if all_hung {
        format!(
            "connected, then stopped answering pings {typical_words} after its handshake {} (a hung server)",
            on_launches(t.hung, n)
        )
    } else {
        format!(
            "connected, then closed {typical_words} after its handshake{how} {}",
            on_launches(lives.len(), n)
        )
    };
    let loop375 = t.hung == 0 && lives.len() == n && lives.iter().all(|l| *l < threshold);
    if loop375 && loop_words {
        p.push_str(": short-lived every time (the relaunch loop of agent-framework issue #375)");
    }
    (p, short)
}

/// The sentence and the short form for the attempts that never completed their handshake.
fn failed_words(failed: &[String], n: usize) -> (String, String) {
    let (what, c) = most_common(failed).unwrap_or_default();
    let what = if c == failed.len() {
        what
    } else {
        format!("mostly {what}")
    };
    let p = format!(
        "never completed its handshake {}: {what}",
        on_launches(failed.len(), n)
    );
    let short = if failed.len() == n {
        what.clone()
    } else {
        format!("never connected{}: {what}", share(failed.len(), n))
    };
    (p, short)
}

/// The sentence and the short form for a connection still up.
fn still_up_words(run: &ProbeRun, l: &Launch, lived: f64) -> (String, String) {
    let handshake = l
        .report
        .handshake_ms()
        .map(|h| format!(" {} after launch", format_ms(round_ms(h))))
        .unwrap_or_default();
    let rule = &run.policy.name;
    let needs = match l.decision.and_then(|d| d.lasting_threshold_ms) {
        // A host that does not relaunch by itself keeps no failure count to reset.
        _ if run.policy.relaunch.ended_state().is_some() => String::new(),
        Some(t) if lived >= t => format!(" (long enough for rule {rule} to reset the count)"),
        Some(t) => format!(
            " (rule {rule} resets the count once a connection has lived {})",
            format_ms(t)
        ),
        None => format!(" (rule {rule} reset the count at its handshake)"),
    };
    let p = format!(
        "connected{handshake} on launch {} and was still up {} later{needs}",
        l.number,
        format_ms(round_ms(lived))
    );
    let short = format!(
        "still up {} after its handshake",
        format_ms(round_ms(lived))
    );
    (p, short)
}

/// The timings rule `preset` replays a run with (its predictions, the report's day strips):
/// each rule its own host's. The run's own rule with the run's, an agent-framework rule with the
/// run's when the run followed agent-framework (its file's timings or --interval/--cap), else
/// with agent-framework's defaults (a VS Code or Claude Desktop file has no reconnect timings,
/// and 0/0 would be refused at start).
pub(crate) fn replay_timings(run: &ProbeRun, preset: Preset) -> Timings {
    let own = run.policy.name.parse::<Preset>().ok();
    let run_is_agent_framework = own.is_none_or(Preset::is_host_rule);
    if Some(preset) == own || (preset.is_host_rule() && run_is_agent_framework) {
        run.policy.timings
    } else {
        preset.default_timings()
    }
}

/// What each host rule (plus the run's own, when it is not one of them) would do with the
/// scenario, over a day.
fn predictions(run: &ProbeRun, engine: EngineKind, scenario: &Scenario) -> Vec<Prediction> {
    let mut rules: Vec<Preset> = PREDICTED_RULES.to_vec();
    let own = run.policy.name.parse::<Preset>().ok();
    if let Some(own) = own {
        if !rules.contains(&own) {
            rules.push(own);
        }
    }
    rules
        .iter()
        .map(|preset| {
            let timings = replay_timings(run, *preset);
            let raises_alert = preset.policy_with(engine, timings).has_alert();
            let req = Request {
                policy: preset.policy_with(engine, timings),
                scenario: scenario.clone(),
                max_attempts: None,
                span_ms: DAY_MS,
                seed: Some(run.seed),
                keep_rows: 0,
                strip_width: 1,
            };
            let summary = schedule::simulate(&req).summary;
            Prediction::from_summary(preset.name(), raises_alert, &summary)
        })
        .collect()
}

/// Whether the run is an all-clear: every connection stayed up and the host's opening found
/// nothing (no channel finding, no failed `tools/list`). Anything else exits 1.
pub(crate) fn all_clear(run: &ProbeRun) -> bool {
    stayed_up(run) && !OpeningSummary::of_run(run).has_findings()
}

/// Whether the run counts as healthy for the exit status: at least one launch had an outcome,
/// and every launch that had one was still up when observation ended (exit 0). Anything else
/// (a connection that closed, a failed or refused attempt, nothing judged) is a finding.
pub(crate) fn stayed_up(run: &ProbeRun) -> bool {
    let mut judged = run
        .launches
        .iter()
        .filter_map(|l| l.report.outcome.as_ref())
        .peekable();
    judged.peek().is_some() && judged.all(|o| matches!(o, Outcome::StillUp { .. }))
}

/// Whether the run has nothing to judge: the probe's own deadline (`--for`) came before any
/// launch had an outcome. That is no finding against the server (nothing was seen of it) but
/// a probe given too little time: one server alone and an entry of a fleet say so alike.
pub(crate) fn nothing_judged(run: &ProbeRun) -> bool {
    run.finish == Finish::Deadline && run.launches.iter().all(|l| l.report.outcome.is_none())
}

/// `on 3 of 5 launches`, `on its only launch`.
fn on_launches(k: usize, n: usize) -> String {
    if n == 1 {
        "on its only launch".to_string()
    } else {
        format!("on {k} of {n} launches")
    }
}

fn round_ms(ms: f64) -> f64 {
    if ms >= 1000.0 {
        (ms / 100.0).round() * 100.0
    } else {
        ms.round()
    }
}

/// The observed behaviour as a simulator scenario: the lifetimes of the connections in order
/// (a connection still up repeats forever), the median time to handshake as the startup; or,
/// when nothing connected, `never` with the median time to failure.
fn scenario_of(judged: &[&Launch], settle_ms: f64) -> Scenario {
    let startup = median(
        judged
            .iter()
            .filter_map(|l| l.report.handshake_ms())
            .collect(),
    )
    .unwrap_or(0.0);
    let mut lives = Vec::new();
    for l in judged {
        match &l.report.outcome {
            Some(Outcome::Connected { lived_ms, .. }) => lives.push(*lived_ms),
            Some(Outcome::StillUp { .. }) => {
                lives.push(f64::INFINITY);
                break;
            }
            _ => {}
        }
    }
    if lives.is_empty() {
        let fail_after = median(
            judged
                .iter()
                .map(|l| l.report.ended_at_ms - l.report.launched_at_ms)
                .collect(),
        )
        .unwrap_or(0.0);
        return Scenario {
            behaviour: Behaviour::Never,
            startup_ms: 0.0,
            fail_after_ms: fail_after,
            settle_ms,
        };
    }
    let behaviour = if lives.iter().all(|l| l.is_infinite()) {
        Behaviour::Healthy
    } else {
        Behaviour::Lives(lives)
    };
    Scenario {
        behaviour,
        startup_ms: startup,
        fail_after_ms: 0.0,
        settle_ms,
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::engine::policy::{Failure, Timings, Tracker};
    use crate::engine::probe::{AttemptReport, Stopped};

    /// A run of these outcomes under `lasting` with a 200 ms interval, each launch 100 ms to
    /// handshake.
    fn run_of(outcomes: &[Outcome], finish: Finish) -> ProbeRun {
        run_under(Preset::Lasting, 100.0, outcomes, finish)
    }

    /// A run of these outcomes under `preset`, each launch `start_ms` to its handshake (or to
    /// its failure).
    fn run_under(preset: Preset, start_ms: f64, outcomes: &[Outcome], finish: Finish) -> ProbeRun {
        let policy = preset.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 200.0,
                cap_ms: 300_000.0,
            },
        );
        let mut tracker = Tracker::new(policy.clone(), Some(1));
        let mut t = 0.0;
        let launches = outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let (connected, lived) = match o {
                    Outcome::Connected { lived_ms, .. } | Outcome::StillUp { lived_ms } => {
                        (Some(t + start_ms), *lived_ms)
                    }
                    _ => (None, 0.0),
                };
                let ended = t + start_ms + lived;
                let attempt = tracker.attempt();
                let d = tracker.record(t, o, ended);
                let report = AttemptReport {
                    launched_at_ms: t,
                    launched_at_wall: SystemTime::now(),
                    pid: None,
                    connected_at_ms: connected,
                    server: None,
                    ended_at_ms: ended,
                    outcome: Some(o.clone()),
                    stopped: Stopped::AlreadyGone,
                    pings_sent: 0,
                    pings_answered: 0,
                    stderr: Default::default(),
                    stdout: Default::default(),
                    process: None,
                    misbehaviour: Default::default(),
                    remote: None,
                    session: Default::default(),
                    opening: None,
                    escaped: 0,
                };
                if let Next::Retry { wait, .. } = d.next {
                    t = ended + wait.ms;
                }
                Launch {
                    number: i as u32 + 1,
                    attempt,
                    report,
                    decision: Some(d),
                    error: None,
                    alert: None,
                }
            })
            .collect();
        ProbeRun {
            policy,
            seed: 1,
            launches,
            folded: Default::default(),
            finish,
            planned: None,
            started_wall: SystemTime::now(),
            elapsed_ms: t,
            strict: false,
            args: vec![],
        }
    }

    use crate::engine::policy::Next;

    fn closed(ms: f64, ended: Ended) -> Outcome {
        Outcome::Connected {
            lived_ms: ms,
            ended,
        }
    }

    #[test]
    fn a_hosts_rule_speaks_its_words_and_weighs_its_start_budget() {
        let gone = closed(300.0, Ended::Exit { code: 0 });
        let words = "Claude Desktop does not relaunch this server; it stays failed until \
                     the app restarts";
        let run = run_under(
            Preset::ClaudeDesktop,
            200.0,
            std::slice::from_ref(&gone),
            Finish::GaveUp(words),
        );
        let v = judge(&run, EngineKind::Legacy, 0.0);
        assert!(v.sentence.ends_with(words), "{}", v.sentence);
        assert!(!v.sentence.contains("#375"), "{}", v.sentence);

        let run = run_under(Preset::ClineStdio, 2_000.0, &[gone], Finish::Launches(1));
        let v = judge(&run, EngineKind::Legacy, 0.0);
        assert!(
            v.sentence
                .contains("its handshake took 2 s, within Cline's 1 min start budget"),
            "{}",
            v.sentence
        );

        let timed_out =
            Outcome::FailedToConnect(Failure::Message("initialize handshake timed out".into()));
        let run = run_under(
            Preset::ClaudeCodeStdio,
            30_000.0,
            &[timed_out],
            Finish::Launches(1),
        );
        let v = judge(&run, EngineKind::Legacy, 0.0);
        assert!(
            v.sentence.contains(
                "no handshake within Claude Code's 30 s start budget: Claude Code fails the start"
            ),
            "{}",
            v.sentence
        );
    }

    #[test]
    fn the_375_loop_and_its_predictions() {
        let run = run_of(
            &vec![closed(300.0, Ended::Exit { code: 0 }); 4],
            Finish::Launches(4),
        );
        let v = judge(&run, EngineKind::Legacy, schedule::DEFAULT_SETTLE_MS);
        assert_eq!(v.pattern, Pattern::ShortLived);
        assert_eq!(
            v.sentence,
            "connected, then closed 300 ms (median) after its handshake (exit 0) on 4 of 4 launches: short-lived every time (the relaunch loop of agent-framework issue #375)"
        );
        assert_eq!(
            v.scenario.as_ref().map(|s| &s.behaviour),
            Some(&Behaviour::Lives(vec![300.0; 4]))
        );
        let rules: Vec<&str> = v.predictions.iter().map(|p| p.rule.as_str()).collect();
        assert_eq!(rules, vec!["reset-on-handshake", "lasting", "bounded"]);
        // handshake never alerts and relaunches every ~0.6 s; lasting alerts from attempt 5.
        assert_eq!(v.predictions[0].first_down_ms, None);
        assert!(v.predictions[0].launches_per_day > 100_000.0);
        assert_eq!(v.predictions[1].first_down_attempt, Some(5));
    }

    #[test]
    fn a_hung_server_is_not_the_375_loop() {
        let run = run_of(
            &vec![closed(1500.0, Ended::StoppedAnswering); 2],
            Finish::Launches(2),
        );
        let v = judge(&run, EngineKind::Legacy, schedule::DEFAULT_SETTLE_MS);
        assert_eq!(v.pattern, Pattern::Flapped);
        assert_eq!(
            v.sentence,
            "connected, then stopped answering pings 1.5 s (median) after its handshake on 2 of 2 launches (a hung server)"
        );
    }

    #[test]
    fn mixed_launches_and_a_connection_cut_by_the_deadline() {
        let run = run_of(
            &[
                Outcome::FailedToConnect(Failure::Message(
                    "exited with code 1 before its handshake".into(),
                )),
                closed(2000.0, Ended::Signal { signal: 9 }),
                Outcome::StillUp { lived_ms: 50.0 },
            ],
            Finish::Deadline,
        );
        let v = judge(&run, EngineKind::Legacy, schedule::DEFAULT_SETTLE_MS);
        // The connection cut by --for after 50 ms says nothing; the rest flapped.
        assert_eq!(v.pattern, Pattern::Flapped);
        assert_eq!(
            v.sentence,
            "connected, then closed 2 s after its handshake (signal SIGKILL) on 1 of 2 launches; \
             never completed its handshake on 1 of 2 launches: exited with code 1 before its handshake"
        );
        // Only still-up launches: it stayed up.
        let run = run_of(&[Outcome::StillUp { lived_ms: 30_000.0 }], Finish::StillUp);
        let v = judge(&run, EngineKind::Legacy, schedule::DEFAULT_SETTLE_MS);
        assert_eq!(v.pattern, Pattern::StayedUp);
        assert_eq!(
            v.sentence,
            "connected 100 ms after launch on launch 1 and was still up 30 s later \
             (rule lasting resets the count once a connection has lived 5 min)"
        );
        assert_eq!(v.predictions[1].launches_per_day, 1.0);
    }

    #[test]
    fn a_permanent_verdict_needs_no_replay() {
        let run = run_of(
            &[Outcome::Permanent(Failure::Message("refused".into()))],
            Finish::Halted,
        );
        let v = judge(&run, EngineKind::Legacy, schedule::DEFAULT_SETTLE_MS);
        assert_eq!(v.pattern, Pattern::Refused);
        assert!(v.predictions.is_empty());
    }
}
