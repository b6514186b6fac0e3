//! Named policies: agent-framework's rules and the supervisors operators already trust.

use super::rule::{
    AlertRule, EngineKind, GiveUp, Growth, Jitter, Policy, Release, Reset, TimerRule,
    DOWN_FROM_ATTEMPT,
};
use super::timings::Timings;

/// Every preset name, in the order they are listed to a user.
pub const PRESET_NAMES: &[&str] = &[
    "reset-on-handshake",
    "lasting",
    "bounded",
    "preceding-wait",
    "kubernetes",
    "docker",
    "pm2",
    "supervisord",
    "systemd",
    "mcp-sdk-http",
];

/// A preset's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// `reset-on-handshake` (formerly `handshake`): older hosts (agent-framework main, before
    /// its pull request #999): every completed handshake resets the count.
    Handshake,
    /// Hosts with the lasting-connection fix (agent-framework #999): a connection must last
    /// `max(min(cap, 2^31-1), 5 min)`.
    Lasting,
    /// #999 review proposal: `max(5 min, min(cap, 1 h))`.
    Bounded,
    /// #999 review proposal: `max(5 min, the preceding wait)`.
    PrecedingWait,
    Kubernetes,
    Docker,
    Pm2,
    Supervisord,
    Systemd,
    McpSdkHttp,
}

impl std::str::FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "reset-on-handshake" | "handshake" => Preset::Handshake,
            "lasting" => Preset::Lasting,
            "bounded" => Preset::Bounded,
            "preceding-wait" => Preset::PrecedingWait,
            "kubernetes" | "k8s" => Preset::Kubernetes,
            "docker" => Preset::Docker,
            "pm2" => Preset::Pm2,
            "supervisord" => Preset::Supervisord,
            "systemd" => Preset::Systemd,
            "mcp-sdk-http" => Preset::McpSdkHttp,
            other => {
                return Err(format!(
                    "unknown preset {other:?} (one of: {})",
                    PRESET_NAMES.join(", ")
                ))
            }
        })
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

const AF_JITTER: Jitter = Jitter::Multiplicative { spread: 0.25 };

impl Preset {
    pub fn name(self) -> &'static str {
        match self {
            Preset::Handshake => "reset-on-handshake",
            Preset::Lasting => "lasting",
            Preset::Bounded => "bounded",
            Preset::PrecedingWait => "preceding-wait",
            Preset::Kubernetes => "kubernetes",
            Preset::Docker => "docker",
            Preset::Pm2 => "pm2",
            Preset::Supervisord => "supervisord",
            Preset::Systemd => "systemd",
            Preset::McpSdkHttp => "mcp-sdk-http",
        }
    }

    /// One line on what the preset is.
    pub fn describe(self) -> &'static str {
        match self {
            Preset::Handshake => "older hosts: every completed handshake resets the failure count",
            Preset::Lasting => {
                "hosts with the lasting-connection fix: a connection counts as lasting after the \
                 cap, at least 5 min"
            }
            Preset::Bounded => "proposed: lasting after the cap, at least 5 min and at most 1 h",
            Preset::PrecedingWait => {
                "proposed: lasting after the wait that preceded it, at least 5 min"
            }
            Preset::Kubernetes => {
                "kubelet CrashLoopBackOff: 10 s x2 to 5 min, reset after 10 min up"
            }
            Preset::Docker => "Docker restart=always: 100 ms x2 to 60 s, reset after 10 s up",
            Preset::Pm2 => {
                "PM2 exp_backoff_restart_delay=100: x1.5 to 15 s, errored after 16 short runs"
            }
            Preset::Supervisord => "supervisord: 1 s, +1 s each, FATAL after startretries=3",
            Preset::Systemd => "systemd Restart=on-failure: 100 ms, failed after >5 starts in 10 s",
            Preset::McpSdkHttp => {
                "MCP TypeScript SDK HTTP reconnection: 1 s x1.5 to 30 s, 2 retries"
            }
        }
    }

    /// Whether this preset is agent-framework's own (its timings come from host configs).
    pub fn is_host_rule(self) -> bool {
        matches!(
            self,
            Preset::Handshake | Preset::Lasting | Preset::Bounded | Preset::PrecedingWait
        )
    }

    /// The preset's own default timings.
    pub fn default_timings(self) -> Timings {
        let t = |interval_ms: f64, cap_ms: f64| Timings {
            interval_ms,
            cap_ms,
        };
        match self {
            Preset::Handshake | Preset::Lasting | Preset::Bounded | Preset::PrecedingWait => {
                Timings::default()
            }
            Preset::Kubernetes => t(10_000.0, 300_000.0),
            Preset::Docker => t(100.0, 60_000.0),
            Preset::Pm2 => t(100.0, 15_000.0),
            Preset::Supervisord => t(1000.0, f64::INFINITY),
            Preset::Systemd => t(100.0, f64::INFINITY),
            Preset::McpSdkHttp => t(1000.0, 30_000.0),
        }
    }

    /// The policy, with the preset's default timings. `engine` picks the alert wording and,
    /// for `handshake` (main), whether waits are clamped to the timer limit (the modern engine
    /// clamps, the legacy one does not).
    pub fn policy(self, engine: EngineKind) -> Policy {
        self.policy_with(engine, self.default_timings())
    }

    /// The policy with the given timings.
    pub fn policy_with(self, engine: EngineKind, timings: Timings) -> Policy {
        let js = |clamp: bool| TimerRule {
            clamp_to_limit: clamp,
            javascript: true,
        };
        let native = TimerRule {
            clamp_to_limit: false,
            javascript: false,
        };
        let down = |release| AlertRule::Down {
            from_attempt: DOWN_FROM_ATTEMPT,
            engine,
            release,
        };
        let x2 = Growth::Exponential { factor: 2.0 };
        let (growth, jitter, timer, reset, give_up, alert) = match self {
            Preset::Handshake => (
                x2,
                AF_JITTER,
                js(engine == EngineKind::Modern),
                Reset::OnHandshake,
                GiveUp::Never,
                down(Release::Main),
            ),
            Preset::Lasting => (
                x2,
                AF_JITTER,
                js(true),
                Reset::CapThreshold,
                GiveUp::Never,
                down(Release::Pr999),
            ),
            Preset::Bounded => (
                x2,
                AF_JITTER,
                js(true),
                Reset::Bounded,
                GiveUp::Never,
                down(Release::Pr999),
            ),
            Preset::PrecedingWait => (
                x2,
                AF_JITTER,
                js(true),
                Reset::PrecedingWait,
                GiveUp::Never,
                down(Release::Pr999),
            ),
            Preset::Kubernetes => (
                x2,
                Jitter::None,
                native,
                Reset::AfterUptime { ms: 600_000.0 },
                GiveUp::Never,
                AlertRule::None,
            ),
            Preset::Docker => (
                x2,
                Jitter::None,
                native,
                Reset::AfterUptime { ms: 10_000.0 },
                GiveUp::Never,
                AlertRule::None,
            ),
            Preset::Pm2 => (
                Growth::ExponentialFloored { factor: 1.5 },
                Jitter::None,
                native,
                Reset::AfterUptime { ms: 30_000.0 },
                GiveUp::ShortRuns {
                    restarts: 16,
                    under_ms: 1000.0,
                },
                AlertRule::None,
            ),
            Preset::Supervisord => (
                Growth::Linear { step_ms: 1000.0 },
                Jitter::None,
                native,
                Reset::AfterUptime { ms: 1000.0 },
                GiveUp::AfterRetries { retries: 3 },
                AlertRule::None,
            ),
            Preset::Systemd => (
                Growth::Constant,
                Jitter::None,
                native,
                Reset::Never,
                GiveUp::StartBurst {
                    starts: 5,
                    within_ms: 10_000.0,
                },
                AlertRule::None,
            ),
            Preset::McpSdkHttp => (
                Growth::Exponential { factor: 1.5 },
                Jitter::None,
                native,
                Reset::OnHandshake,
                GiveUp::AfterRetries { retries: 2 },
                AlertRule::None,
            ),
        };
        Policy {
            name: self.name().to_string(),
            timings,
            growth,
            jitter,
            timer,
            reset,
            give_up,
            alert,
            refuses_bad_timings: matches!(
                self,
                Preset::Lasting | Preset::Bounded | Preset::PrecedingWait
            ),
        }
    }
}
