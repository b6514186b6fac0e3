//! `--host`, `--workspace` and `--input`: which host's dialect a configuration file is read
//! in, shared by `probe --config` and `check-config`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::engine::config::{Dialect, Host};

/// A host whose configuration dialect the doctor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HostArg {
    /// connectome-host and agent-framework (`mcplServers`, recipes).
    AgentFramework,
    /// claude_desktop_config.json: no variables.
    ClaudeDesktop,
    /// .mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`.
    ClaudeCode,
    /// .vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd.
    Vscode,
    /// .cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile.
    Cursor,
    /// mcp_config.json: `serverUrl`, `${env:VAR}`.
    Windsurf,
    /// cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only.
    Cline,
    /// settings.json `context_servers`.
    Zed,
    /// Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`.
    Copilot,
}

impl From<HostArg> for Host {
    fn from(h: HostArg) -> Host {
        match h {
            HostArg::AgentFramework => Host::AgentFramework,
            HostArg::ClaudeDesktop => Host::ClaudeDesktop,
            HostArg::ClaudeCode => Host::ClaudeCode,
            HostArg::Vscode => Host::Vscode,
            HostArg::Cursor => Host::Cursor,
            HostArg::Windsurf => Host::Windsurf,
            HostArg::Cline => Host::Cline,
            HostArg::Zed => Host::Zed,
            HostArg::Copilot => Host::Copilot,
        }
    }
}

fn parse_input(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((id, value)) if !id.is_empty() => Ok((id.to_string(), value.to_string())),
        _ => Err(format!(
            "`{}` is not ID=VALUE (e.g. --input api-key=...)",
            s.split('=').next().unwrap_or("")
        )),
    }
}

/// How a configuration file is read.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct DialectArgs {
    /// The host the file is written for.
    ///
    /// Its keys, variables, env and folder rules. Default: detected from the file's name and
    /// shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json,
    /// cline_mcp_settings.json, mcp_config.json, context_servers).
    #[arg(long, value_enum, value_name = "HOST", env = "MCPL_DOCTOR_HOST")]
    pub host: Option<HostArg>,

    /// The folder `${workspaceFolder}` stands for.
    ///
    /// Default: the folder holding .vscode/ or .cursor/ (or the file's own folder).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// The value of `${input:ID}` (repeatable, secret).
    ///
    /// An entry naming an input not given is not launched. Values are secrets: never shown.
    #[arg(long = "input", value_name = "ID=VALUE", value_parser = parse_input)]
    pub inputs: Vec<(String, String)>,
}

impl DialectArgs {
    /// The engine's view of these flags.
    pub(crate) fn dialect(&self) -> Dialect<'_> {
        Dialect {
            host: self.host.map(Host::from),
            workspace: self
                .workspace
                .as_ref()
                .map(|w| std::path::absolute(w).unwrap_or_else(|_| w.clone())),
            inputs: &self.inputs,
        }
    }
}
