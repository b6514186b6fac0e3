//! Named policies: agent-framework's rules and the supervisors operators already trust.

use super::rule::{
    AlertRule, EngineKind, GiveUp, Growth, Jitter, Policy, Relaunch, Release, Reset, TimerRule,
    DOWN_FROM_ATTEMPT,
};
use super::timings::Timings;

/// Every preset name, in the order they are listed to a user.
pub(crate) const PRESET_NAMES: &[&str] = &[
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
    "claude-code-remote",
    "claude-code-stdio",
    "claude-desktop",
    "vscode",
    "vscode-http",
    "cline-http",
    "cline-stdio",
    "copilot-cli",
    "ts-sdk-sse",
    "hermes",
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
    /// Claude Code's remote (HTTP, SSE, WebSocket) servers: 1, 2, 4, 8, 16 s, then `failed`.
    ClaudeCodeRemote,
    /// Claude Code's stdio servers: relaunched on the next tool call.
    ClaudeCodeStdio,
    /// Claude Desktop: never relaunches.
    ClaudeDesktop,
    /// VS Code: relaunches a server in `Error` or `Stopped` on its next use.
    Vscode,
    /// VS Code's HTTP back-channel (the GET stream): `min(n s, 30 s)` without end.
    VscodeHttp,
    /// Cline's Streamable HTTP: 2, 4, 8, 16, 32, 64 s, then `disconnected`.
    ClineHttp,
    /// Cline's stdio servers: never relaunched; a fixed 60 s start budget.
    ClineStdio,
    /// GitHub Copilot CLI: never relaunches; a fixed 60 s `initialize` budget.
    CopilotCli,
    /// The TypeScript SDK's SSE stream: 1 s x1.5 up to 30 s, 2 retries.
    TsSdkSse,
    /// Hermes agent: 1, 2, 4, 8, 16 s, 5 tries, the count never reset.
    Hermes,
}

/// A name that is no preset (as given, trimmed and lower-cased).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset {0:?} (one of: {names})", names = PRESET_NAMES.join(", "))]
pub struct UnknownPreset(pub String);

impl std::str::FromStr for Preset {
    type Err = UnknownPreset;
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
            "claude-code-remote" => Preset::ClaudeCodeRemote,
            "claude-code-stdio" => Preset::ClaudeCodeStdio,
            "claude-desktop" => Preset::ClaudeDesktop,
            "vscode" => Preset::Vscode,
            "vscode-http" => Preset::VscodeHttp,
            "cline-http" => Preset::ClineHttp,
            "cline-stdio" => Preset::ClineStdio,
            "copilot-cli" => Preset::CopilotCli,
            "ts-sdk-sse" => Preset::TsSdkSse,
            "hermes" => Preset::Hermes,
            other => return Err(UnknownPreset(other.to_string())),
        })
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Cline's, Copilot CLI's and Hermes' fixed time for a server's handshake (hosts.md 4.1).
pub(crate) const HOST_START_BUDGET_MS: f64 = 60_000.0;
/// Claude Code's `MCP_TIMEOUT` default: 30 s to start a server (hosts.md 4.1).
pub(crate) const CLAUDE_CODE_START_BUDGET_MS: f64 = 30_000.0;

/// A timer that runs a wait as it is (the supervisors', the hosts' own rules).
const NATIVE: TimerRule = TimerRule {
    clamp_to_limit: false,
    javascript: false,
};

const AF_JITTER: Jitter = Jitter::Multiplicative { spread: 0.25 };

impl Preset {
    pub(crate) fn name(self) -> &'static str {
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
            Preset::ClaudeCodeRemote => "claude-code-remote",
            Preset::ClaudeCodeStdio => "claude-code-stdio",
            Preset::ClaudeDesktop => "claude-desktop",
            Preset::Vscode => "vscode",
            Preset::VscodeHttp => "vscode-http",
            Preset::ClineHttp => "cline-http",
            Preset::ClineStdio => "cline-stdio",
            Preset::CopilotCli => "copilot-cli",
            Preset::TsSdkSse => "ts-sdk-sse",
            Preset::Hermes => "hermes",
        }
    }

    /// One line on what the preset is.
    pub(crate) fn describe(self) -> &'static str {
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
            Preset::ClaudeCodeRemote => {
                "Claude Code, remote servers: 1, 2, 4, 8, 16 s, then failed (/mcp to reconnect)"
            }
            Preset::ClaudeCodeStdio => {
                "Claude Code, stdio servers: relaunched on the next tool call"
            }
            Preset::ClaudeDesktop => "Claude Desktop: never relaunches a server",
            Preset::Vscode => "VS Code: relaunches a stopped server on its next use",
            Preset::VscodeHttp => "VS Code's HTTP back-channel: min(n s, 30 s), without end",
            Preset::ClineHttp => "Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected",
            Preset::ClineStdio => "Cline, stdio servers: never relaunched; 60 s to start",
            Preset::CopilotCli => "GitHub Copilot CLI: never relaunches; 60 s to initialize",
            Preset::TsSdkSse => "TypeScript SDK SSE stream: 1 s x1.5 to 30 s, 2 retries",
            Preset::Hermes => "Hermes agent: 1, 2, 4, 8, 16 s, 5 tries, the count never reset",
        }
    }

    /// Whether this preset is agent-framework's own (its timings come from host configs).
    pub(crate) fn is_host_rule(self) -> bool {
        matches!(
            self,
            Preset::Handshake | Preset::Lasting | Preset::Bounded | Preset::PrecedingWait
        )
    }

    /// The preset's own default timings.
    pub(crate) fn default_timings(self) -> Timings {
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
            Preset::McpSdkHttp | Preset::TsSdkSse => t(1000.0, 30_000.0),
            Preset::ClaudeCodeRemote | Preset::Hermes => t(1000.0, 16_000.0),
            Preset::ClineHttp => t(2000.0, 64_000.0),
            Preset::VscodeHttp => t(0.0, 30_000.0),
            // No wait: these hosts do not relaunch by themselves.
            Preset::ClaudeCodeStdio
            | Preset::ClaudeDesktop
            | Preset::Vscode
            | Preset::ClineStdio
            | Preset::CopilotCli => t(0.0, 0.0),
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
        let (growth, jitter, timer, reset, give_up, alert) = self
            .agent_framework_shape(engine)
            .or_else(|| self.supervisor_shape())
            .unwrap_or_else(|| self.host_shape());
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
            relaunch: self.relaunch(),
            start_budget_ms: self.start_budget_ms(),
            give_up_words: self.give_up_words(),
        }
    }

    /// agent-framework's rules (main's and #999's): jittered doubling, never giving up,
    /// `mcpl-down` from the attempt it names in `engine`'s words; when the count starts afresh
    /// is what tells them apart. `None` for another rule.
    fn agent_framework_shape(
        self,
        engine: EngineKind,
    ) -> Option<(Growth, Jitter, TimerRule, Reset, GiveUp, AlertRule)> {
        let js = |clamp: bool| TimerRule {
            clamp_to_limit: clamp,
            javascript: true,
        };
        let down = |release| AlertRule::Down {
            from_attempt: DOWN_FROM_ATTEMPT,
            engine,
            release,
        };
        let x2 = Growth::Exponential { factor: 2.0 };
        Some(match self {
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
            _ => return None,
        })
    }

    /// Other supervisors' restart policies and the SDKs' reconnection: exact waits, no alert.
    /// `None` for a host's or agent-framework's rule.
    fn supervisor_shape(self) -> Option<(Growth, Jitter, TimerRule, Reset, GiveUp, AlertRule)> {
        let x2 = Growth::Exponential { factor: 2.0 };
        Some(match self {
            Preset::Kubernetes => (
                x2,
                Jitter::None,
                NATIVE,
                Reset::AfterUptime { ms: 600_000.0 },
                GiveUp::Never,
                AlertRule::None,
            ),
            Preset::Docker => (
                x2,
                Jitter::None,
                NATIVE,
                Reset::AfterUptime { ms: 10_000.0 },
                GiveUp::Never,
                AlertRule::None,
            ),
            Preset::Pm2 => (
                Growth::ExponentialFloored { factor: 1.5 },
                Jitter::None,
                NATIVE,
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
                NATIVE,
                Reset::AfterUptime { ms: 1000.0 },
                GiveUp::AfterRetries { retries: 3 },
                AlertRule::None,
            ),
            Preset::Systemd => (
                Growth::Constant,
                Jitter::None,
                NATIVE,
                Reset::Never,
                GiveUp::StartBurst {
                    starts: 5,
                    within_ms: 10_000.0,
                },
                AlertRule::None,
            ),
            Preset::McpSdkHttp | Preset::TsSdkSse => (
                Growth::Exponential { factor: 1.5 },
                Jitter::None,
                NATIVE,
                Reset::OnHandshake,
                GiveUp::AfterRetries { retries: 2 },
                AlertRule::None,
            ),
            _ => return None,
        })
    }

    /// A host's own rule (hosts.md 4.2): exact waits (no jitter), no alert; its growth, when
    /// its count starts afresh and its give-up.
    fn host_shape(self) -> (Growth, Jitter, TimerRule, Reset, GiveUp, AlertRule) {
        let x2 = Growth::Exponential { factor: 2.0 };
        let (growth, reset, give_up) = match self {
            Preset::ClaudeCodeRemote => {
                (x2, Reset::OnHandshake, GiveUp::AfterRetries { retries: 5 })
            }
            Preset::ClineHttp => (x2, Reset::OnHandshake, GiveUp::AfterRetries { retries: 6 }),
            Preset::Hermes => (x2, Reset::Never, GiveUp::AfterRetries { retries: 5 }),
            Preset::VscodeHttp => (
                Growth::Linear { step_ms: 1000.0 },
                Reset::OnHandshake,
                GiveUp::Never,
            ),
            // The others do not relaunch by themselves (see [`Preset::relaunch`]).
            _ => (Growth::Constant, Reset::OnHandshake, GiveUp::Never),
        };
        (
            growth,
            Jitter::None,
            NATIVE,
            reset,
            give_up,
            AlertRule::None,
        )
    }

    /// Whether the host relaunches by itself, on the next tool call, or never (in its words).
    fn relaunch(self) -> Relaunch {
        match self {
            Preset::ClaudeCodeStdio => Relaunch::OnNextCall {
                words: "Claude Code waits for the next tool call to relaunch this server",
                state: "stopped",
            },
            Preset::Vscode => Relaunch::OnNextCall {
                words: "VS Code waits for the next tool call to relaunch this server (or \
                        Restart Server)",
                state: "stopped",
            },
            Preset::ClaudeDesktop => Relaunch::Never {
                words: "Claude Desktop does not relaunch this server; it stays failed until \
                        the app restarts",
                state: "failed",
            },
            Preset::ClineStdio => Relaunch::Never {
                words: "Cline does not relaunch this server; it stays disconnected until \
                        Restart Server",
                state: "disconnected",
            },
            Preset::CopilotCli => Relaunch::Never {
                words: "Copilot CLI does not relaunch this server; it stays failed for the \
                        session",
                state: "failed",
            },
            _ => Relaunch::Backoff,
        }
    }

    /// How long the host waits for a server's handshake before it fails the start (hosts.md
    /// 4.1), where that is known (Claude Code's is its `MCP_TIMEOUT` default).
    fn start_budget_ms(self) -> Option<f64> {
        match self {
            Preset::ClineStdio | Preset::CopilotCli | Preset::Hermes => Some(HOST_START_BUDGET_MS),
            Preset::ClaudeCodeStdio | Preset::ClaudeCodeRemote => Some(CLAUDE_CODE_START_BUDGET_MS),
            _ => None,
        }
    }

    /// The host's name in words, for a host's own rule (`None`: agent-framework's rules and
    /// the supervisors).
    pub(crate) fn host_title(self) -> Option<&'static str> {
        Some(match self {
            Preset::ClaudeCodeRemote | Preset::ClaudeCodeStdio => "Claude Code",
            Preset::ClaudeDesktop => "Claude Desktop",
            Preset::Vscode | Preset::VscodeHttp => "VS Code",
            Preset::ClineHttp | Preset::ClineStdio => "Cline",
            Preset::CopilotCli => "Copilot CLI",
            Preset::TsSdkSse => "the TypeScript SDK",
            Preset::Hermes => "Hermes",
            _ => return None,
        })
    }

    /// The host's words when it gives up after its tries.
    fn give_up_words(self) -> Option<&'static str> {
        Some(match self {
            Preset::ClaudeCodeRemote => {
                "Claude Code gives up after 5 tries: the server is failed until /mcp reconnects it"
            }
            Preset::ClineHttp => {
                "Cline gives up after 6 tries: the server stays disconnected until Restart Server"
            }
            Preset::Hermes => {
                "Hermes gives up after 5 tries in all (the count never resets): the server is \
                 dead until the agent restarts"
            }
            Preset::TsSdkSse => "Maximum reconnection attempts (2) exceeded",
            _ => return None,
        })
    }

    /// The host's rule for servers of a `--host` dialect (`claude-code`, `vscode`, ...), over
    /// stdio or a remote transport (`remote`). `None`: a host whose rule has no preset (Cursor,
    /// Windsurf, Zed: unknown), or agent-framework, whose rule comes from its config.
    pub(crate) fn for_host(host: &str, remote: bool) -> Option<Preset> {
        Some(match (host, remote) {
            ("claude-code", false) => Preset::ClaudeCodeStdio,
            ("claude-code", true) => Preset::ClaudeCodeRemote,
            ("claude-desktop", _) => Preset::ClaudeDesktop,
            ("vscode", false) => Preset::Vscode,
            ("vscode", true) => Preset::VscodeHttp,
            ("cline", false) => Preset::ClineStdio,
            ("cline", true) => Preset::ClineHttp,
            ("copilot" | "copilot-cli", _) => Preset::CopilotCli,
            ("hermes", _) => Preset::Hermes,
            _ => return None,
        })
    }
}
