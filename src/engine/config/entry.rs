//! A server entry as the host loads it: its table, its binding (transport, family, command or
//! url), its environment, token and timings.

use serde::Serialize;

use crate::engine::policy::{EngineKind, Timings};

use super::host::{EnvRule, Host};

/// Which table format an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum TableKind {
    /// connectome-host registry / agent overlay / agent-framework `FrameworkConfig`.
    #[serde(rename = "mcplServers")]
    McplServers,
    /// connectome-host recipe, Claude Desktop / Claude Code `.mcp.json`.
    #[serde(rename = "mcpServers")]
    McpServers,
    /// VS Code `.vscode/mcp.json`.
    #[serde(rename = "servers")]
    Servers,
    /// Zed `settings.json`.
    #[serde(rename = "context_servers")]
    ContextServers,
}

impl TableKind {
    pub(crate) fn key(self) -> &'static str {
        match self {
            TableKind::McplServers => "mcplServers",
            TableKind::McpServers => "mcpServers",
            TableKind::Servers => "servers",
            TableKind::ContextServers => "context_servers",
        }
    }

    /// Whether string values of this table's entries get `${VAR}` / `${VAR:-default}`
    /// substituted from the environment at load (connectome-host recipes, and Claude Code's
    /// `.mcp.json`, which share the `mcpServers` key).
    pub(crate) fn substitutes_env(self) -> bool {
        self == TableKind::McpServers
    }
}

/// How the host reaches a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Stdio,
    Websocket,
    Http,
}

impl Transport {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Websocket => "websocket",
            Transport::Http => "http",
        }
    }
}

/// Which engine runs an entry and how it reaches the server, decided from the configuration
/// alone (host-config.md, "Binding").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub transport: Transport,
    /// legacy (MCPL) or modern (MCP).
    pub family: EngineKind,
    /// stdio: the program to launch (no shell).
    pub command: Option<String>,
    /// stdio: its arguments, `./` and `../` ones resolved against the config file's folder.
    pub args: Vec<String>,
    /// websocket / http: the URL to dial.
    pub url: Option<String>,
    /// http: the legacy HTTP+SSE transport (`type: sse`, Cline's untyped `url`), not
    /// Streamable HTTP.
    pub sse: bool,
}

/// Why the host refuses to bind an entry: the first of its binding or protocol problems, as
/// the checker words it (unredacted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BindingRefusal(pub String);

/// One server entry as the host would load it.
#[derive(Clone)]
pub struct ServerEntry {
    pub id: String,
    /// The file as named (`<stdin>` for standard input).
    pub file: String,
    /// The entry's JSON path, e.g. `$.mcplServers.files`.
    pub path: String,
    /// 1-based line and column of the entry.
    pub line: usize,
    pub column: usize,
    pub table: TableKind,
    /// `disabled: true`: the host does not start it (an agent overlay's way to remove a server).
    pub disabled: bool,
    /// An entry with no launch fields in a recipe or agent overlay: it only overrides policy
    /// fields of the entry of the same id defined elsewhere, and cannot be launched on its own.
    pub is_override: bool,
    /// The binding, or why the host refuses the entry (binding or protocol error).
    pub binding: Result<Binding, BindingRefusal>,
    /// The host whose dialect the file is read in.
    pub host: Host,
    /// How the host builds the server's environment from its own and `env`.
    pub env_rule: EnvRule,
    /// `env` (after the `envFile`'s variables, which it overrides): added on top of the
    /// host's environment as `env_rule` says. Secret: never print.
    pub env: Vec<(String, String)>,
    /// Variables the entry unsets (VS Code: `"NAME": null` in `env`).
    pub env_unset: Vec<String>,
    /// The folder the host launches the server in (`None`: the doctor's own).
    pub cwd: Option<std::path::PathBuf>,
    /// `${input:ID}` references with no `--input ID=VALUE`: the entry is not launched.
    pub missing_inputs: Vec<String>,
    /// `inheritEnv: true`: the host passes its whole environment.
    pub inherit_env: bool,
    /// `token`: WebSocket `?token=`, HTTP `Authorization: Bearer`. Secret: never print.
    pub token: Option<String>,
    /// `headers` where the host reads them (remote entries), values expanded as the host
    /// does. Secret values: never print.
    pub headers: Vec<(String, String)>,
    /// `reconnect` as this entry's engine reads it (legacy: any truthy value; modern: exactly
    /// `true`).
    pub reconnect: bool,
    /// The two reconnect timings as the host reads them (`Number(value)`, defaults for
    /// absent/null). May be NaN, 0, negative or infinite: the policy decides.
    pub timings: Timings,
    /// `requestTimeoutMs` as read (`None` when absent or null).
    pub request_timeout_ms: Option<f64>,
    /// Every value `${VAR}` substitution put into any of the entry's strings (command, args,
    /// env, url, token...). Secret: never print.
    pub substituted: Vec<String>,
}

impl std::fmt::Debug for ServerEntry {
    /// Never prints the token or env values.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let env_names: Vec<&str> = self.env.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("ServerEntry")
            .field("id", &self.id)
            .field("file", &self.file)
            .field("path", &self.path)
            .field("line", &self.line)
            .field("column", &self.column)
            .field("table", &self.table)
            .field("disabled", &self.disabled)
            .field("is_override", &self.is_override)
            .field("binding", &self.binding)
            .field("host", &self.host)
            .field("env_rule", &self.env_rule)
            .field("env (names only)", &env_names)
            .field("env_unset", &self.env_unset)
            .field("cwd", &self.cwd)
            .field("missing_inputs", &self.missing_inputs)
            .field("inherit_env", &self.inherit_env)
            .field("token", &self.token.as_ref().map(|_| "[redacted]"))
            .field(
                "headers (names only)",
                &self
                    .headers
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>(),
            )
            .field("reconnect", &self.reconnect)
            .field("timings", &self.timings)
            .field("request_timeout_ms", &self.request_timeout_ms)
            .field("substituted", &self.substituted.len())
            .finish()
    }
}
