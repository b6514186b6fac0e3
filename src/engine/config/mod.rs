//! Host configuration files: load them the way the host reads them (with every value's
//! position), and check them. No printing here: `render::check` draws findings.
//!
//! - [`check_file`] / [`check_source`]: every finding of one file (`check-config`).
//! - [`load_servers`]: every server entry of one file with its resolved binding (`probe`).

use std::path::Path;

use serde::Serialize;

use crate::engine::policy::{EngineKind, Preset, Timings};

mod check;
pub mod discover;
pub mod fields;
pub mod json;
mod load;
mod snippet;
pub mod source;
mod subst;
mod totals;

pub use source::{LineIndex, Source, STDIN_NAME};
pub use subst::{has_env_ref, substitute, substituted_values};
pub use totals::Totals;

/// How bad a finding is: an error means the host refuses the entry (or, on main, loops on it);
/// a warning means the host loads it and an operator should know.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A finding's stable code. The names are part of the interface (CI filters on them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    // Errors: the host refuses the entry.
    /// A binding error: no command, no url, an unknown scheme or transport, a mismatch.
    Binding,
    /// `protocol` other than legacy/modern, or set on a url server.
    Protocol,
    /// Modern server: `requestTimeoutMs` not an integer from 1 to 2147483647.
    ModernTimeout,
    /// Modern server: an MCPL policy field that takes effect.
    McplPolicyOnModern,
    /// A reconnect timing that reads as 0, below 0 or NaN where timings are used.
    ReconnectTiming,
    /// A server table that is not an object (or, for `mcplServers`, an array).
    ServerTable,
    /// A server entry that is not an object.
    EntryNotObject,
    /// An entry of an `mcplServers` array without a string `id`.
    MissingId,
    // Warnings: the host loads it.
    /// A token or `access` sent over `ws://` or `http://` to a host that is not loopback.
    CleartextCredential,
    /// A boolean in a timing field.
    TimingBoolean,
    /// A numeric string in a timing field.
    TimingString,
    /// An array in a timing field (read through its string form).
    TimingArray,
    /// A `${VAR}` reference in a timing field.
    TimingEnvVar,
    /// A cap below the interval: every wait is the cap.
    CapBelowInterval,
    /// A timing above 2147483647 ms, or infinite.
    TimingOverTimerLimit,
    /// A cap above 1 hour under the `lasting` rule: the count may never reset.
    LastingThresholdLong,
    /// `reconnect` that is not a boolean.
    ReconnectNotBoolean,
    /// Timings set where they are never used (reconnect off on a legacy entry).
    TimingUnused,
    /// A field of the wrong type (`args`, `env`, `inheritEnv`, `token`, `id`).
    FieldType,
    /// A key that appears twice in one object: `JSON.parse` keeps the last.
    DuplicateKey,
    /// Comments or trailing commas in a file that is plain JSON for its host.
    JsoncSyntax,
    /// No server table anywhere in the file.
    NoServers,
    /// A field the host does not read (in an entry), or a near-miss of a server table's key:
    /// the host ignores it and uses its default.
    UnknownField,
}

impl Code {
    /// Every code, errors first, in the order the README lists them.
    pub const ALL: &'static [Code] = &[
        Code::Binding,
        Code::Protocol,
        Code::ModernTimeout,
        Code::McplPolicyOnModern,
        Code::ReconnectTiming,
        Code::ServerTable,
        Code::EntryNotObject,
        Code::MissingId,
        Code::CleartextCredential,
        Code::TimingBoolean,
        Code::TimingString,
        Code::TimingArray,
        Code::TimingEnvVar,
        Code::CapBelowInterval,
        Code::TimingOverTimerLimit,
        Code::LastingThresholdLong,
        Code::ReconnectNotBoolean,
        Code::TimingUnused,
        Code::FieldType,
        Code::DuplicateKey,
        Code::JsoncSyntax,
        Code::NoServers,
        Code::UnknownField,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Binding => "binding",
            Code::Protocol => "protocol",
            Code::ModernTimeout => "modern-timeout",
            Code::McplPolicyOnModern => "mcpl-policy-on-modern",
            Code::ReconnectTiming => "reconnect-timing",
            Code::ServerTable => "server-table",
            Code::EntryNotObject => "entry-not-object",
            Code::MissingId => "missing-id",
            Code::CleartextCredential => "cleartext-credential",
            Code::TimingBoolean => "timing-boolean",
            Code::TimingString => "timing-string",
            Code::TimingArray => "timing-array",
            Code::TimingEnvVar => "timing-env-var",
            Code::CapBelowInterval => "cap-below-interval",
            Code::TimingOverTimerLimit => "timing-over-timer-limit",
            Code::LastingThresholdLong => "lasting-threshold-long",
            Code::ReconnectNotBoolean => "reconnect-not-boolean",
            Code::TimingUnused => "timing-unused",
            Code::FieldType => "field-type",
            Code::DuplicateKey => "duplicate-key",
            Code::JsoncSyntax => "jsonc-syntax",
            Code::NoServers => "no-servers",
            Code::UnknownField => "unknown-field",
        }
    }

    /// What the code means, in one line (SARIF's rule `shortDescription`, the docs' table).
    pub fn summary(self) -> &'static str {
        match self {
            Code::Binding => "The host cannot bind the entry: no command or url, an unknown scheme or transport, or a mismatch",
            Code::Protocol => "`protocol` is not legacy or modern, or is set on a url server",
            Code::ModernTimeout => "A modern server's `requestTimeoutMs` is not an integer from 1 to 2147483647",
            Code::McplPolicyOnModern => "An MCPL policy field that takes effect on a modern server",
            Code::ReconnectTiming => "A reconnect timing that reads as 0, below 0 or NaN where timings are used",
            Code::ServerTable => "A server table that is not an object (or, for mcplServers, an array)",
            Code::EntryNotObject => "A server entry that is not an object",
            Code::MissingId => "An mcplServers array entry without a string `id`",
            Code::CleartextCredential => "A token or access grant sent over ws:// or http:// to a host that is not loopback",
            Code::TimingBoolean => "A boolean in a timing field (reads as 1 ms)",
            Code::TimingString => "A numeric string in a timing field",
            Code::TimingArray => "An array in a timing field (read through its string form)",
            Code::TimingEnvVar => "A ${VAR} reference in a timing field",
            Code::CapBelowInterval => "A cap below the interval: every wait is the cap",
            Code::TimingOverTimerLimit => "A timing above 2147483647 ms (the JavaScript timer limit), or infinite",
            Code::LastingThresholdLong => "A cap above 1 hour under the lasting rule: the failure count may never reset",
            Code::ReconnectNotBoolean => "`reconnect` that is not a boolean (the legacy and modern engines disagree on it)",
            Code::TimingUnused => "Timings set where they are never used (reconnect off on a legacy entry)",
            Code::FieldType => "A field of the wrong type (args, env, inheritEnv, token, id)",
            Code::DuplicateKey => "A key that appears twice in one object: JSON.parse keeps the last",
            Code::JsoncSyntax => "Comments or trailing commas in a file that is plain JSON for its host",
            Code::NoServers => "No server table anywhere in the file",
            Code::UnknownField => "A field the host does not read (often a misspelt one): the host ignores it and uses its default",
        }
    }

    /// What to do about it, in one line (SARIF's rule `help`).
    pub fn help(self) -> &'static str {
        match self {
            Code::Binding => "Give the entry a `command` (stdio) or a ws://, wss://, http:// or https:// `url`, and a `transport` that agrees with it.",
            Code::Protocol => "Write `protocol: \"legacy\"` or `\"modern\"` on stdio entries only; a url's scheme decides a network server's family.",
            Code::ModernTimeout => "Write `requestTimeoutMs` as an integer number of milliseconds from 1 to 2147483647, or remove it.",
            Code::McplPolicyOnModern => "Remove the MCPL policy field, or set it to null, on a server that speaks modern MCP.",
            Code::ReconnectTiming => "Write a positive number of milliseconds.",
            Code::ServerTable => "Make the table an object keyed by server id (or, for mcplServers, an array of entries with an `id`).",
            Code::EntryNotObject => "Make each entry an object with `command` or `url`.",
            Code::MissingId => "Give each mcplServers array entry a non-empty string `id`.",
            Code::CleartextCredential => "Use wss:// or https://, or a loopback address.",
            Code::TimingBoolean => "Write a number of milliseconds; `reconnect: true` turns reconnecting on.",
            Code::TimingString => "Write the number without quotes.",
            Code::TimingArray => "Write a number of milliseconds, not an array.",
            Code::TimingEnvVar => "Write a number of milliseconds, or make sure the variable is always set to one.",
            Code::CapBelowInterval => "Raise `reconnectMaxIntervalMs` or lower `reconnectIntervalMs`.",
            Code::TimingOverTimerLimit => "Keep timings at or below 2147483647 ms (about 24.9 days).",
            Code::LastingThresholdLong => "Keep `reconnectMaxIntervalMs` at or below 1 hour, or choose a rule whose lasting threshold does not follow the cap.",
            Code::ReconnectNotBoolean => "Write `reconnect: true` or `false`.",
            Code::TimingUnused => "Set `reconnect: true`, or remove the timings.",
            Code::FieldType => "Give the field the type the host expects (strings for args and env values, a boolean for inheritEnv, a string token and id).",
            Code::DuplicateKey => "Keep one of the keys.",
            Code::JsoncSyntax => "Remove comments and trailing commas.",
            Code::NoServers => "Check the file: servers live under `mcplServers`, `mcpServers` or `servers`.",
            Code::UnknownField => "Fix the spelling (the finding names the field meant), or remove the field; `mcpl-doctor schema config` lists the fields hosts read.",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::Binding
            | Code::Protocol
            | Code::ModernTimeout
            | Code::McplPolicyOnModern
            | Code::ReconnectTiming
            | Code::ServerTable
            | Code::EntryNotObject
            | Code::MissingId => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about one value of one file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Finding {
    pub severity: Severity,
    pub code: Code,
    /// The file as named on the command line (`<stdin>` for standard input).
    pub file: String,
    /// 1-based line of the offending value.
    pub line: usize,
    /// 1-based column (in characters) of the offending value.
    pub column: usize,
    /// 1-based line where the offending value (or key) ends.
    pub end_line: usize,
    /// 1-based column (in characters) just past the offending value's last character (SARIF's
    /// `endColumn`).
    pub end_column: usize,
    /// The value's JSON path, e.g. `$.hosts.prod.mcplServers.files.reconnectIntervalMs`.
    pub path: String,
    /// The server id, when the finding is about a server entry.
    pub server: Option<String>,
    /// The entry's field, when the finding is about one field.
    pub field: Option<String>,
    /// What is wrong and what the host will do with it, in plain words. Never holds a value
    /// that is not a JSON number, a token or an env value.
    pub message: String,
    /// The source line, masked, with where the caret goes (human output only).
    #[serde(skip)]
    pub snippet: Option<Snippet>,
}

/// The source line under a diagnostic, already safe to show: every string value (not keys),
/// every comment and the offending value when it is not a number are masked, and a long line
/// is cut to a window around the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// 1-based line number.
    pub line: usize,
    /// The masked text (not yet sanitised for a terminal).
    pub text: String,
    /// Where the caret starts in `text`, in characters.
    pub caret_start: usize,
    /// How many characters the caret covers (at least 1).
    pub caret_len: usize,
    /// Text was cut before `text` starts.
    pub cut_left: bool,
    /// Text was cut after `text` ends.
    pub cut_right: bool,
}

/// The findings of one file.
#[derive(Debug, Clone)]
pub struct Report {
    pub file: String,
    /// Server entries found (across all tables).
    pub servers: usize,
    /// Findings in document order.
    pub findings: Vec<Finding>,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, s: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == s).count()
    }

    /// The errors about `entry` (its own value or any value inside it): why the host refuses
    /// it, in document order. Empty when the host loads the entry.
    pub fn errors_for<'r>(&'r self, entry: &ServerEntry) -> impl Iterator<Item = &'r Finding> {
        let path = entry.path.clone();
        let file = entry.file.clone();
        self.findings.iter().filter(move |f| {
            f.severity == Severity::Error && f.file == file && is_within(&f.path, &path)
        })
    }
}

/// Whether the JSON path `inner` is `outer` or a path below it (`outer.key`, `outer[...]`).
fn is_within(inner: &str, outer: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
}

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
}

impl TableKind {
    pub fn key(self) -> &'static str {
        match self {
            TableKind::McplServers => "mcplServers",
            TableKind::McpServers => "mcpServers",
            TableKind::Servers => "servers",
        }
    }

    /// Whether string values of this table's entries get `${VAR}` / `${VAR:-default}`
    /// substituted from the environment at load (connectome-host recipes, and Claude Code's
    /// `.mcp.json`, which share the `mcpServers` key).
    pub fn substitutes_env(self) -> bool {
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
    pub fn as_str(self) -> &'static str {
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
}

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
    pub binding: Result<Binding, String>,
    /// `env`: added on top of the host's allowlist of its own variables. Secret: never print.
    pub env: Vec<(String, String)>,
    /// `inheritEnv: true`: the host passes its whole environment.
    pub inherit_env: bool,
    /// `token`: WebSocket `?token=`, HTTP `Authorization: Bearer`. Secret: never print.
    pub token: Option<String>,
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
            .field("env (names only)", &env_names)
            .field("inherit_env", &self.inherit_env)
            .field("token", &self.token.as_ref().map(|_| "[redacted]"))
            .field("reconnect", &self.reconnect)
            .field("timings", &self.timings)
            .field("request_timeout_ms", &self.request_timeout_ms)
            .field("substituted", &self.substituted.len())
            .finish()
    }
}

/// Why a file could not be checked at all (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{file}: cannot read: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{file}:{line}:{column}: not valid UTF-8 (at byte offset {offset}); the host reads the file as UTF-8"
    )]
    InvalidUtf8 {
        file: String,
        offset: usize,
        line: usize,
        column: usize,
    },
    #[error("{file}:1:1: starts with a UTF-8 byte order mark; the host's JSON.parse(fs.readFileSync(file, 'utf8')) keeps it and fails at position 0, so it loads no server from this file")]
    Bom { file: String },
    #[error("{file}: the file is empty; JSON.parse refuses it (Unexpected end of JSON input), so the host loads no server from it")]
    Empty { file: String },
    #[error("{file}: larger than {} MiB, where mcpl-doctor stops reading (a host configuration is a few KB: an endless stream such as /dev/zero?)", source::MAX_INPUT >> 20)]
    TooLarge { file: String, bytes: usize },
    #[error("{file}:{line}:{column}: {message}; the host's JSON.parse refuses this file")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        offset: usize,
        message: String,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn file(&self) -> &str {
        match self {
            LoadError::Io { file, .. }
            | LoadError::InvalidUtf8 { file, .. }
            | LoadError::Bom { file }
            | LoadError::Empty { file }
            | LoadError::TooLarge { file, .. }
            | LoadError::Syntax { file, .. } => file,
        }
    }

    /// 1-based line and column, when the error has a position.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            LoadError::InvalidUtf8 { line, column, .. }
            | LoadError::Syntax { line, column, .. } => Some((*line, *column)),
            LoadError::Bom { .. } => Some((1, 1)),
            _ => None,
        }
    }

    /// A one-line hint on what to do, when there is one: for a missing file, a file of a near
    /// name in the same folder; for a folder, what to give instead.
    pub fn hint(&self) -> Option<String> {
        match self {
            LoadError::Bom { .. } => {
                Some("save the file as UTF-8 without a byte order mark".to_string())
            }
            LoadError::InvalidUtf8 { .. } => Some("save the file as UTF-8".to_string()),
            LoadError::Io { file, source } => {
                let path = Path::new(file);
                if source.kind() == std::io::ErrorKind::NotFound {
                    discover::near_file_name(path)
                        .map(|near| format!("did you mean {}?", near.display()))
                } else if path.is_dir() {
                    let found = discover::search(path);
                    Some(match found.first() {
                        Some(f) => format!(
                            "this is a folder: give a file, e.g. {} ({} host file{} below it)",
                            f.display(),
                            found.len(),
                            if found.len() == 1 { "" } else { "s" }
                        ),
                        None => format!(
                            "this is a folder, and it holds no host configuration file (looked \
                             for {})",
                            discover::host_file_list()
                        ),
                    })
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// How to check: which host rule the wording describes, and where `${VAR}` values come from.
pub struct CheckOptions<'e> {
    /// `handshake` (main, before #999), `lasting` (#999), or a #999 review proposal.
    pub preset: Preset,
    /// Looks up an environment variable for `${VAR}` substitution.
    pub env: &'e dyn Fn(&str) -> Option<String>,
}

/// The process environment, for [`CheckOptions::env`] and [`load_servers_with`].
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Check one file (`-` for standard input).
pub fn check_file(path: &Path, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let source = Source::read(path)?;
    check_source(&source, options)
}

/// Check a file already read.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let doc = parse(source)?;
    Ok(check::check(source, &doc, options))
}

/// Load every server entry of a configuration file the way the host reads it: the file is
/// parsed (JSON, or JSONC with comments and trailing commas), every server table anywhere in
/// it is found (`mcplServers` object or array, `mcpServers`, VS Code `servers`), `JSON.parse`'s
/// last-wins rule applies to duplicate keys, `${VAR}` / `${VAR:-default}` are substituted from
/// the process environment in `mcpServers` entries, and each entry gets its resolved
/// [`Binding`] (transport, legacy/modern family, command, args with `./` and `../` resolved
/// against the file's folder, url), `env`, `inheritEnv`, `token`, the `reconnect` flag as its
/// engine reads it, and its [`Timings`].
///
/// Entries the host would refuse are returned too, with `binding: Err(reason)`; entries with
/// `disabled: true` and policy-only overrides are flagged (`disabled`, `is_override`). Pick one
/// by `id`. `path` may be `-` for standard input. Run `check_file` for the full list of problems.
pub fn load_servers(path: &Path) -> Result<Vec<ServerEntry>, LoadError> {
    load_servers_with(path, &process_env)
}

/// [`load_servers`] with a chosen environment for `${VAR}` substitution.
pub fn load_servers_with(
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ServerEntry>, LoadError> {
    let source = Source::read(path)?;
    load_servers_from(&source, env)
}

/// [`load_servers`] for a file already read.
pub fn load_servers_from(
    source: &Source,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ServerEntry>, LoadError> {
    let doc = parse(source)?;
    Ok(load::server_entries(source, &doc, env))
}

/// [`load_servers`] and [`check_file`] on one reading of the file: every server entry, and
/// every finding (match them with [`Report::errors_for`]). `probe --config` uses it to leave out
/// the entries the host would refuse, with the checker's own words.
pub fn load_and_check(
    path: &Path,
    options: &CheckOptions<'_>,
) -> Result<(Vec<ServerEntry>, Report), LoadError> {
    let source = Source::read(path)?;
    let entries = load_servers_from(&source, options.env)?;
    let report = check_source(&source, options)?;
    Ok((entries, report))
}

fn parse<'t>(source: &'t Source) -> Result<json::Doc<'t>, LoadError> {
    json::Doc::parse(&source.text).map_err(|e| {
        let (line, column) = LineIndex::new(&source.text).position(&source.text, e.offset);
        LoadError::Syntax {
            file: source.name.clone(),
            line,
            column,
            offset: e.offset,
            message: e.message,
        }
    })
}

#[cfg(test)]
mod tests;
