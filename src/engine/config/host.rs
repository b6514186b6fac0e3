//! The host a configuration file is written for (its dialect): which keys it reads, which
//! variables it expands, how it builds a server's environment and folder. Facts from the
//! hosts' own sources and documentation, copied into `tests/reference/hosts-dialects.md`.

use std::path::Path;

use serde::Serialize;

/// A host whose configuration files the doctor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    /// connectome-host and agent-framework (`mcplServers`, recipes' `mcpServers`).
    AgentFramework,
    ClaudeDesktop,
    ClaudeCode,
    Vscode,
    Cursor,
    Windsurf,
    Cline,
    Zed,
    Copilot,
}

/// How a host builds a stdio server's environment from its own and the entry's `env`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnvRule {
    /// An allowlist of the host's variables (PATH, HOME, locale...) plus `env`; `inheritEnv:
    /// true` passes the whole environment (agent-framework).
    Allowlist,
    /// The host's whole environment, with `env` on top.
    Merge,
    /// `env` plus the host's `PATH` only (Cline's `{...config.env, PATH}`).
    PathOnly,
}

/// A `${...}` form a host may expand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VarForm {
    /// `${VAR}` (an environment variable).
    Plain,
    /// `${VAR:-default}`.
    Default,
    /// `${env:VAR}`.
    Env,
    /// `${input:ID}`.
    Input,
    /// `${workspaceFolder}`, `${workspaceFolderBasename}`.
    Workspace,
    /// `${userHome}`.
    UserHome,
    /// `${pathSeparator}`, `${/}`.
    PathSeparator,
    /// `${cwd}`.
    Cwd,
}

impl Host {
    pub(crate) const ALL: &'static [Host] = &[
        Host::AgentFramework,
        Host::ClaudeDesktop,
        Host::ClaudeCode,
        Host::Vscode,
        Host::Cursor,
        Host::Windsurf,
        Host::Cline,
        Host::Zed,
        Host::Copilot,
    ];

    /// The name `--host` takes and reports print.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Host::AgentFramework => "agent-framework",
            Host::ClaudeDesktop => "claude-desktop",
            Host::ClaudeCode => "claude-code",
            Host::Vscode => "vscode",
            Host::Cursor => "cursor",
            Host::Windsurf => "windsurf",
            Host::Cline => "cline",
            Host::Zed => "zed",
            Host::Copilot => "copilot",
        }
    }

    /// The host as people name it.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Host::AgentFramework => "agent-framework",
            Host::ClaudeDesktop => "Claude Desktop",
            Host::ClaudeCode => "Claude Code",
            Host::Vscode => "VS Code",
            Host::Cursor => "Cursor",
            Host::Windsurf => "Windsurf",
            Host::Cline => "Cline",
            Host::Zed => "Zed",
            Host::Copilot => "Copilot CLI",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Host> {
        Host::ALL.iter().copied().find(|h| h.name() == name)
    }

    /// Whether this host expands `form`. Forms it does not expand reach the server as written.
    pub(crate) fn expands(self, form: VarForm) -> bool {
        use VarForm::*;
        match self {
            // Recipes' `${VAR}` / `${VAR:-default}` are handled by the table's own rule.
            Host::AgentFramework => matches!(form, Plain | Default),
            Host::ClaudeCode | Host::Copilot => matches!(form, Plain | Default),
            Host::Vscode => matches!(
                form,
                Env | Input | Workspace | UserHome | PathSeparator | Cwd
            ),
            Host::Cursor => matches!(form, Env | Workspace | UserHome | PathSeparator),
            Host::Windsurf => form == Env,
            Host::ClaudeDesktop | Host::Cline | Host::Zed => false,
        }
    }

    /// Whether this host expands no variable at all.
    pub(crate) fn expands_none(self) -> bool {
        matches!(self, Host::ClaudeDesktop | Host::Cline | Host::Zed)
    }

    /// The environment rule for stdio servers.
    pub(crate) fn env_rule(self) -> EnvRule {
        match self {
            Host::AgentFramework => EnvRule::Allowlist,
            Host::Cline => EnvRule::PathOnly,
            _ => EnvRule::Merge,
        }
    }

    /// Whether the host reads `envFile`.
    pub(crate) fn reads_env_file(self) -> bool {
        matches!(self, Host::Vscode | Host::Cursor)
    }

    /// Whether the host reads `cwd`.
    pub(crate) fn reads_cwd(self) -> bool {
        matches!(
            self,
            Host::Vscode | Host::Cursor | Host::Cline | Host::Windsurf
        )
    }

    /// Whether the host launches a server in the workspace folder when the entry has no `cwd`
    /// (VS Code's documented default; Cursor is a VS Code fork; Claude Code runs servers in the
    /// project folder, the one holding `.mcp.json`).
    pub(crate) fn launches_in_workspace(self) -> bool {
        matches!(self, Host::Vscode | Host::Cursor | Host::ClaudeCode)
    }

    /// Whether `./` and `../` args are resolved against the file's folder (agent-framework);
    /// other hosts pass them as written, to be read from the server's folder.
    pub(crate) fn resolves_relative_args(self) -> bool {
        self == Host::AgentFramework
    }

    /// The key of a remote entry's URL.
    pub(crate) fn url_key(self) -> &'static str {
        match self {
            Host::Windsurf => "serverUrl",
            _ => "url",
        }
    }

    /// Whether the host, started from the desktop, launches servers without the user's login
    /// shell PATH (nvm, asdf, mise, `~/.local/bin`, Homebrew missing): hosts.md F1.
    pub(crate) fn lacks_shell_path(self) -> bool {
        matches!(self, Host::ClaudeDesktop | Host::Cline)
    }

    /// Extra entry fields this host reads beyond its table's common ones.
    pub(crate) fn extra_fields(self) -> &'static [&'static str] {
        match self {
            Host::AgentFramework => &[],
            Host::ClaudeDesktop => &[],
            Host::ClaudeCode => &["type", "headers"],
            Host::Vscode => &["type", "headers", "envFile", "cwd", "dev"],
            Host::Cursor => &["type", "headers", "envFile", "cwd", "auth"],
            Host::Windsurf => &["serverUrl", "headers", "cwd", "disabled"],
            Host::Cline => &[
                "type",
                "headers",
                "cwd",
                "disabled",
                "autoApprove",
                "alwaysAllow",
                "timeout",
                "transportType",
            ],
            Host::Zed => &[
                "headers", "timeout", "enabled", "remote", "source", "settings",
            ],
            Host::Copilot => &["type", "headers", "tools"],
        }
    }

    /// The host a file is written for, from its name and folder and, where the name says
    /// nothing, its shape (`top_keys`: the document's top-level keys; `server_url`: whether an
    /// entry has a `serverUrl`).
    pub(crate) fn detect(path: &Path, top_keys: &[&str], server_url: bool) -> Host {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parent = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let has = |k: &str| top_keys.contains(&k);
        match name.as_str() {
            "claude_desktop_config.json" => return Host::ClaudeDesktop,
            ".mcp.json" | ".claude.json" => return Host::ClaudeCode,
            "cline_mcp_settings.json" => return Host::Cline,
            "mcp_config.json" => return Host::Windsurf,
            "mcp-config.json" => return Host::Copilot,
            "mcp.json" if parent == ".cursor" => return Host::Cursor,
            "mcp.json" if parent == ".vscode" || has("servers") => return Host::Vscode,
            _ => {}
        }
        if has("context_servers") {
            Host::Zed
        } else if server_url {
            Host::Windsurf
        } else if has("servers") && has("inputs") {
            Host::Vscode
        } else {
            Host::AgentFramework
        }
    }

    /// The folder standing for `${workspaceFolder}` when none is given: the folder holding
    /// `.vscode/` or `.cursor/`, or the one holding `.mcp.json`.
    pub(crate) fn workspace_of(path: &Path) -> Option<std::path::PathBuf> {
        let abs = std::path::absolute(path).ok()?;
        let dir = abs.parent()?;
        let dir_name = dir.file_name()?.to_string_lossy();
        if dir_name == ".vscode" || dir_name == ".cursor" {
            return dir.parent().map(Path::to_path_buf);
        }
        Some(dir.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_hosts_from_names_and_shapes() {
        let cases: &[(&str, &[&str], bool, Host)] = &[
            ("p/.vscode/mcp.json", &["servers"], false, Host::Vscode),
            ("p/.cursor/mcp.json", &["mcpServers"], false, Host::Cursor),
            (
                "a/claude_desktop_config.json",
                &["mcpServers"],
                false,
                Host::ClaudeDesktop,
            ),
            ("p/.mcp.json", &["mcpServers"], false, Host::ClaudeCode),
            (
                "s/cline_mcp_settings.json",
                &["mcpServers"],
                false,
                Host::Cline,
            ),
            ("w/mcp_config.json", &["mcpServers"], true, Host::Windsurf),
            ("z/settings.json", &["context_servers"], false, Host::Zed),
            ("x/any.json", &["mcpServers"], true, Host::Windsurf),
            (
                "x/recipe.json",
                &["mcpServers"],
                false,
                Host::AgentFramework,
            ),
            (
                "x/mcpl-servers.json",
                &["mcplServers"],
                false,
                Host::AgentFramework,
            ),
        ];
        for (path, keys, url, want) in cases {
            assert_eq!(Host::detect(Path::new(path), keys, *url), *want, "{path}");
        }
        for h in Host::ALL {
            assert_eq!(Host::from_name(h.name()), Some(*h));
        }
    }

    /// The dialects agree with the host reference's table (copied into
    /// `tests/reference/hosts-dialects.md`, source named there): each host's top-level key,
    /// and every variable form it expands is one its row names (and none for "none").
    #[test]
    fn agrees_with_the_host_reference() {
        let text = include_str!("../../../tests/reference/hosts-dialects.md");
        let row = |title: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("| **{title}**")))
                .unwrap_or_else(|| panic!("no row for {title}"));
            line.split(" | ").map(str::to_string).collect()
        };
        let cases: &[(Host, &str, &str)] = &[
            (Host::ClaudeDesktop, "Claude Desktop", "mcpServers"),
            (Host::ClaudeCode, "Claude Code", "mcpServers"),
            (Host::Vscode, "VS Code (native)", "servers"),
            (
                Host::Copilot,
                "VS Code / Copilot portable format",
                "mcpServers",
            ),
            (Host::Cursor, "Cursor", "mcpServers"),
            (Host::Windsurf, "Windsurf", "mcpServers"),
            (Host::Zed, "Zed", "context_servers"),
            (Host::Cline, "Cline", "mcpServers"),
        ];
        let forms: &[(VarForm, &str)] = &[
            (VarForm::Plain, "`${VAR}`"),
            (VarForm::Default, "`${VAR:-default}`"),
            (VarForm::Env, "`${env:"),
            (VarForm::Input, "`${input:"),
            (VarForm::Workspace, "`${workspaceFolder}`"),
            (VarForm::UserHome, "`${userHome}`"),
            (VarForm::PathSeparator, "`${pathSeparator}`"),
            (VarForm::Cwd, "`${cwd}`"),
        ];
        for (host, title, top) in cases {
            let cells = row(title);
            assert!(
                cells[2].contains(&format!("`{top}`")),
                "{title}: {}",
                cells[2]
            );
            let vars = &cells[6];
            for (form, token) in forms {
                if host.expands(*form) {
                    assert!(vars.contains(token), "{title} expands {token}: {vars}");
                }
            }
            let none = vars.starts_with("**none");
            assert_eq!(host.expands_none(), none, "{title}: {vars}");
            if host.env_rule() == EnvRule::PathOnly {
                assert!(vars.contains("PATH only"), "{title}");
            }
            if host.url_key() == "serverUrl" {
                assert!(cells[4].contains("`serverUrl`"), "{title}");
            }
        }
    }
}
