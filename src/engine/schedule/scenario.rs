//! The scripted server: what it does on each attempt, and how a user writes that down.

use std::fmt;

use crate::engine::policy::timings::{parse_duration_ms, DurationError};
use crate::engine::policy::{Ended, Failure, Outcome};

/// How long the legacy engine's post-handshake policy exchange (`featureSets/update`, then
/// `tools/list`) takes to settle when nothing says otherwise: a few round trips to a local
/// server. `--settle` (or `settle=DUR` in `--server`) sets it; `probe` measures it live.
pub(crate) const DEFAULT_SETTLE_MS: f64 = 100.0;

/// What the simulated server does on each attempt.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Every attempt fails before its handshake.
    Never,
    /// Each connection lives this long (one per connection; the last repeats).
    Lives(Vec<f64>),
    /// Connects and stays up.
    Healthy,
}

/// A server behaviour with its timings.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub behaviour: Behaviour,
    /// From launch to completed handshake.
    pub startup_ms: f64,
    /// For `never`: from launch to the failure.
    pub fail_after_ms: f64,
    /// From completed handshake to a settled policy exchange. On the legacy engine a reconnect
    /// is reported (`mcpl:server-reconnected`, which clears a "down" status line) only once the
    /// exchange has settled with the server still connected; the modern engine ignores it.
    pub settle_ms: f64,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            behaviour: Behaviour::Lives(vec![0.0]),
            startup_ms: 0.0,
            fail_after_ms: 0.0,
            settle_ms: DEFAULT_SETTLE_MS,
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::engine::policy::timings::format_ms;
        match &self.behaviour {
            Behaviour::Never if self.fail_after_ms > 0.0 => write!(
                f,
                "never connects (fails {} into each attempt)",
                format_ms(self.fail_after_ms)
            )?,
            Behaviour::Never => f.write_str("never connects")?,
            Behaviour::Healthy => f.write_str("healthy (stays up)")?,
            Behaviour::Lives(lives) if lives.len() == 1 => {
                write!(f, "each connection lives {}", format_ms(lives[0]))?
            }
            Behaviour::Lives(lives) => {
                let list: Vec<String> = lives.iter().map(|l| format_ms(*l)).collect();
                write!(f, "connections live {} (the last repeats)", list.join(", "))?
            }
        }
        if self.startup_ms > 0.0 {
            write!(
                f,
                ", {} from launch to handshake",
                format_ms(self.startup_ms)
            )?;
        }
        if self.settle_ms != DEFAULT_SETTLE_MS {
            write!(
                f,
                ", policy exchange settles {} after the handshake",
                format_ms(self.settle_ms)
            )?;
        }
        Ok(())
    }
}

/// Why a `--server` behaviour does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// `key=DUR` with a duration that does not parse.
    #[error("{key}: {source}")]
    Duration { key: String, source: DurationError },
    /// `key=DUR` with a negative duration.
    #[error("{0}: a duration cannot be negative")]
    Negative(String),
    /// Two behaviours (`never,healthy`).
    #[error("give one behaviour (never, dies-after, drops-every, lives, healthy)")]
    TwoBehaviours,
    /// A word that is none of them (the token as given).
    #[error(
        "{0:?} is not a server behaviour (try never, dies-after=300ms, drops-every=1h, \
         lives=1s,5m, healthy, with startup=DUR or settle=DUR)"
    )]
    Unknown(String),
    /// Nothing but blanks.
    #[error("empty server behaviour")]
    Empty,
}

impl std::str::FromStr for Scenario {
    type Err = ScenarioError;

    /// `never`, `dies-after=DUR`, `drops-every=DUR`, `lives=D1,D2,...`, `healthy`, plus
    /// `startup=DUR`, `fail-after=DUR` and `settle=DUR`, combined with commas, spaces or `;`
    /// (`dies-after=300ms,startup=200ms`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut scenario = Scenario {
            behaviour: Behaviour::Healthy,
            ..Scenario::default()
        };
        let mut behaviour: Option<Behaviour> = None;
        let mut in_lives = false;
        let dur = |key: &str, v: &str| -> Result<f64, ScenarioError> {
            let ms = parse_duration_ms(v).map_err(|source| ScenarioError::Duration {
                key: key.to_string(),
                source,
            })?;
            if ms < 0.0 {
                return Err(ScenarioError::Negative(key.to_string()));
            }
            Ok(ms)
        };
        let set = |b: Behaviour, current: &mut Option<Behaviour>| -> Result<(), ScenarioError> {
            if current.is_some() {
                return Err(ScenarioError::TwoBehaviours);
            }
            *current = Some(b);
            Ok(())
        };
        for token in s
            .split([',', ';', ' ', '+'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            let (key, value) = match token.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (token, None),
            };
            if value.is_none() && in_lives {
                if let Some(Behaviour::Lives(list)) = behaviour.as_mut() {
                    list.push(dur("lives", key)?);
                    continue;
                }
            }
            in_lives = false;
            match (key, value) {
                ("never", None) => set(Behaviour::Never, &mut behaviour)?,
                ("healthy", None) => set(Behaviour::Healthy, &mut behaviour)?,
                ("dies-after" | "drops-every", Some(v)) => {
                    set(Behaviour::Lives(vec![dur(key, v)?]), &mut behaviour)?
                }
                ("lives", Some(v)) => {
                    set(Behaviour::Lives(vec![dur(key, v)?]), &mut behaviour)?;
                    in_lives = true;
                }
                ("startup", Some(v)) => scenario.startup_ms = dur(key, v)?,
                ("fail-after", Some(v)) => scenario.fail_after_ms = dur(key, v)?,
                ("settle", Some(v)) => scenario.settle_ms = dur(key, v)?,
                _ => return Err(ScenarioError::Unknown(token.to_string())),
            }
        }
        scenario.behaviour = behaviour.unwrap_or(Behaviour::Healthy);
        if s.trim().is_empty() {
            return Err(ScenarioError::Empty);
        }
        Ok(scenario)
    }
}

/// What one attempt of the scripted server does, on the simulation's clock.
pub(super) struct Attempt {
    pub outcome: Outcome,
    /// When the attempt ended (its failure, or its connection's end); infinite for a healthy
    /// server.
    pub ended_at: f64,
    /// When its handshake completed, if it did.
    pub connected_at: Option<f64>,
    /// How long its connection lives, whatever the span: the behaviour's own figure.
    pub life: Option<f64>,
}

/// The scripted server's `connections`-th connection, launched at `launched`. A host with a
/// start budget (`budget`) counts a launch whose handshake (or failure) comes later than that
/// as failed when the budget runs out; the connection is not made.
pub(super) fn attempt_at(
    scenario: &Scenario,
    lives: &[f64],
    connections: &mut usize,
    launched: f64,
    budget: Option<f64>,
) -> Attempt {
    if let Some(budget) = budget {
        let takes = match (&scenario.behaviour, lives.is_empty()) {
            (Behaviour::Never, _) => scenario.fail_after_ms,
            _ => scenario.startup_ms,
        };
        if takes > budget {
            return Attempt {
                outcome: Outcome::FailedToConnect(Failure::Message(format!(
                    "no handshake within the host's {} start budget",
                    crate::engine::policy::timings::format_ms(budget)
                ))),
                ended_at: launched + budget,
                connected_at: None,
                life: None,
            };
        }
    }
    match (&scenario.behaviour, lives.is_empty()) {
        (Behaviour::Never, _) => Attempt {
            outcome: Outcome::FailedToConnect(Failure::Simulated),
            ended_at: launched + scenario.fail_after_ms.max(0.0),
            connected_at: None,
            life: None,
        },
        (Behaviour::Lives(_), false) => {
            let life = lives[(*connections).min(lives.len() - 1)];
            *connections += 1;
            let up = launched + scenario.startup_ms.max(0.0);
            Attempt {
                outcome: Outcome::Connected {
                    lived_ms: life,
                    ended: Ended::Unknown,
                },
                ended_at: up + life,
                connected_at: Some(up),
                life: Some(life),
            }
        }
        _ => Attempt {
            outcome: Outcome::StillUp { lived_ms: 0.0 },
            ended_at: f64::INFINITY,
            connected_at: Some(launched + scenario.startup_ms.max(0.0)),
            life: Some(f64::INFINITY),
        },
    }
}
