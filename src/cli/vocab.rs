//! One vocabulary for every subcommand: the value enums the flags share (reconnect rules,
//! engines, output formats) and the duration parsers, so that the same idea has the same name,
//! the same values, did-you-mean suggestions and completions everywhere.
//!
//! Old spellings stay accepted as hidden aliases; the table is in docs/glossary.md.

use clap::ValueEnum;

use crate::engine::policy::timings::parse_duration_ms;
use crate::engine::policy::{EngineKind, Preset};

/// A reconnect rule (`--preset`, `--compare`). The host's own rules first, then the restart
/// policies of other supervisors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PresetArg {
    /// Older hosts: every completed handshake resets the failure count.
    #[value(name = "reset-on-handshake", alias = "handshake")]
    ResetOnHandshake,
    /// Hosts with the lasting-connection fix: a connection resets the count once it has lasted
    /// the cap (at least 5 min).
    Lasting,
    /// Proposed: lasting after the cap, at least 5 min and at most 1 h.
    Bounded,
    /// Proposed: lasting after the wait that preceded it, at least 5 min.
    PrecedingWait,
    /// Kubernetes' CrashLoopBackOff.
    #[value(alias = "k8s")]
    Kubernetes,
    /// Docker's restart=always.
    Docker,
    /// PM2 with exp_backoff_restart_delay.
    Pm2,
    /// supervisord.
    Supervisord,
    /// systemd Restart=on-failure.
    Systemd,
    /// The MCP TypeScript SDK's HTTP reconnection.
    McpSdkHttp,
    /// Claude Code's remote servers: 1, 2, 4, 8, 16 s, then failed.
    ClaudeCodeRemote,
    /// Claude Code's stdio servers: relaunched on the next tool call.
    ClaudeCodeStdio,
    /// Claude Desktop: never relaunches.
    ClaudeDesktop,
    /// VS Code: relaunches a stopped server on its next use.
    Vscode,
    /// VS Code's HTTP back-channel: min(n s, 30 s), without end.
    VscodeHttp,
    /// Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected.
    ClineHttp,
    /// Cline's stdio servers: never relaunched; 60 s to start.
    ClineStdio,
    /// GitHub Copilot CLI: never relaunches; 60 s to initialize.
    CopilotCli,
    /// The TypeScript SDK's SSE stream: 1 s x1.5 to 30 s, 2 retries.
    TsSdkSse,
    /// Hermes agent: 1-16 s, 5 tries, the count never reset.
    Hermes,
}

impl From<PresetArg> for Preset {
    fn from(p: PresetArg) -> Preset {
        match p {
            PresetArg::ResetOnHandshake => Preset::Handshake,
            PresetArg::Lasting => Preset::Lasting,
            PresetArg::Bounded => Preset::Bounded,
            PresetArg::PrecedingWait => Preset::PrecedingWait,
            PresetArg::Kubernetes => Preset::Kubernetes,
            PresetArg::Docker => Preset::Docker,
            PresetArg::Pm2 => Preset::Pm2,
            PresetArg::Supervisord => Preset::Supervisord,
            PresetArg::Systemd => Preset::Systemd,
            PresetArg::McpSdkHttp => Preset::McpSdkHttp,
            PresetArg::ClaudeCodeRemote => Preset::ClaudeCodeRemote,
            PresetArg::ClaudeCodeStdio => Preset::ClaudeCodeStdio,
            PresetArg::ClaudeDesktop => Preset::ClaudeDesktop,
            PresetArg::Vscode => Preset::Vscode,
            PresetArg::VscodeHttp => Preset::VscodeHttp,
            PresetArg::ClineHttp => Preset::ClineHttp,
            PresetArg::ClineStdio => Preset::ClineStdio,
            PresetArg::CopilotCli => Preset::CopilotCli,
            PresetArg::TsSdkSse => Preset::TsSdkSse,
            PresetArg::Hermes => Preset::Hermes,
        }
    }
}

/// The host's own rules only (`check-config --preset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HostPresetArg {
    /// Older hosts: every completed handshake resets the failure count.
    #[value(name = "reset-on-handshake", alias = "handshake")]
    ResetOnHandshake,
    /// Hosts with the lasting-connection fix (they refuse bad timings at start).
    Lasting,
    /// Proposed: lasting after the cap, at least 5 min and at most 1 h.
    Bounded,
    /// Proposed: lasting after the wait that preceded it, at least 5 min.
    PrecedingWait,
}

impl From<HostPresetArg> for Preset {
    fn from(p: HostPresetArg) -> Preset {
        match p {
            HostPresetArg::ResetOnHandshake => Preset::Handshake,
            HostPresetArg::Lasting => Preset::Lasting,
            HostPresetArg::Bounded => Preset::Bounded,
            HostPresetArg::PrecedingWait => Preset::PrecedingWait,
        }
    }
}

/// Which of the host's engines (`--engine`): the legacy one speaks MCP 2024-11-05 with MCPL
/// (`initialize`), the modern one MCP 2026-07-28 (`server/discover`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum EngineArg {
    /// MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`.
    Legacy,
    /// MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`.
    Modern,
}

impl From<EngineArg> for EngineKind {
    fn from(e: EngineArg) -> EngineKind {
        match e {
            EngineArg::Legacy => EngineKind::Legacy,
            EngineArg::Modern => EngineKind::Modern,
        }
    }
}

/// `--format` of `simulate`: what `probe` takes but events, which is accepted only to say it is
/// for `probe` (and not offered in the help).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimulateFormatArg {
    /// Tables for a person (default).
    #[value(alias = "text")]
    Human,
    /// One JSON document with `schema_version`.
    Json,
    /// Refused with a word: events are `probe`'s.
    #[value(hide = true)]
    Events,
}

/// `--format` of `probe`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// Tables for a person (default).
    #[value(alias = "text")]
    Human,
    /// One JSON document with `schema_version`.
    Json,
    /// JSON lines as things happen, the last one the whole report (`probe` only).
    Events,
}

/// A timing (`--interval`, `--cap`): a duration that may be 0, negative or infinite (the rule
/// decides what the host does with it). A bare number under 100 gets a note: it is
/// milliseconds, which someone thinking in seconds would not expect.
pub(crate) fn parse_timing(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s).map_err(|e| e.to_string())?;
    note_bare_ms(s, ms);
    Ok(ms)
}

/// The note every duration flag prints for a bare number under 100: it is milliseconds, which
/// someone thinking in seconds would not expect (`--handshake-timeout 5` is 5 ms).
pub(crate) fn note_bare_ms(s: &str, ms: f64) {
    let t = s.trim();
    if ms > 0.0 && ms < 100.0 && t.parse::<f64>().is_ok() {
        crate::say!(
            "note: {t} is read as {t} ms (a bare number is milliseconds, as in host configs); \
             write {t}s for seconds"
        );
    }
}

/// A duration above 0.
pub(crate) fn parse_positive(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s).map_err(|e| e.to_string())?;
    note_bare_ms(s, ms);
    if ms > 0.0 {
        Ok(ms)
    } else {
        Err("must be more than 0".into())
    }
}

/// A finite duration of 0 or more.
pub(crate) fn parse_nonnegative(s: &str) -> Result<f64, String> {
    let ms = parse_duration_ms(s).map_err(|e| e.to_string())?;
    note_bare_ms(s, ms);
    if ms.is_finite() && ms >= 0.0 {
        Ok(ms)
    } else {
        Err("must be a finite duration of 0 or more".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_rule_names_stay_accepted() {
        for (text, want) in [
            ("handshake", Preset::Handshake),
            ("reset-on-handshake", Preset::Handshake),
            ("k8s", Preset::Kubernetes),
            ("preceding-wait", Preset::PrecedingWait),
        ] {
            let got = PresetArg::from_str(text, true).map(Preset::from);
            assert_eq!(got, Ok(want), "{text}");
        }
        assert_eq!(
            HostPresetArg::from_str("handshake", true).map(Preset::from),
            Ok(Preset::Handshake)
        );
        // Every engine preset has a value here, with the engine's own name.
        for p in PresetArg::value_variants() {
            let name = p.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(Preset::from(*p).name()));
        }
    }
}
