//! What the checker says about a file: findings, their codes and severities, the report.

use serde::Serialize;

use super::entry::ServerEntry;

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
    pub(crate) fn as_str(self) -> &'static str {
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
    // Host dialects.
    /// `${input:ID}` with no declared input of that id (VS Code cannot prompt for it).
    InputUndeclared,
    /// An `envFile` that does not exist, or is no regular file, or is too large to be one.
    EnvFileMissing,
    /// A `${...}` form the host does not expand (it reaches the server as written).
    VariableUnsupported,
    /// A `${...}` in a file whose host expands no variables at all.
    VariableNotExpanded,
    /// A variable the host expands but that is not set here (names only).
    VariableUnset,
    /// A secret written into the file (`env`, `args`): never printed.
    LiteralSecret,
    /// `npx`/`uvx`/`node` by name on a host that launches without the user's shell PATH.
    LauncherWithoutShellPath,
    /// `cmd /c` or a `.cmd`/`.bat` command checked for macOS or Linux.
    WindowsOnlyCommand,
    // Platforms (`--platform`).
    /// `npx`, `npm` or another `.cmd` shim without `cmd /c`, checked for Windows.
    WindowsShimWithoutShell,
    /// An `env` block on a host that then gives the server only that block (and PATH).
    EnvReplacesEnvironment,
    /// `env.PATH` set to one folder: the server's programs are not found.
    EnvPathOneFolder,
    /// A Python server checked for Windows without `PYTHONUTF8`/`PYTHONIOENCODING`.
    PythonEncoding,
    /// A path written for another system than one checked (drive letters, `\`, `/Users`).
    PlatformPath,
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
        Code::InputUndeclared,
        Code::EnvFileMissing,
        Code::VariableUnsupported,
        Code::VariableNotExpanded,
        Code::VariableUnset,
        Code::LiteralSecret,
        Code::LauncherWithoutShellPath,
        Code::WindowsOnlyCommand,
        Code::WindowsShimWithoutShell,
        Code::EnvReplacesEnvironment,
        Code::EnvPathOneFolder,
        Code::PythonEncoding,
        Code::PlatformPath,
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
            Code::InputUndeclared => "input-undeclared",
            Code::EnvFileMissing => "env-file-missing",
            Code::VariableUnsupported => "variable-unsupported",
            Code::VariableNotExpanded => "variable-not-expanded",
            Code::VariableUnset => "variable-unset",
            Code::LiteralSecret => "literal-secret",
            Code::LauncherWithoutShellPath => "launcher-without-shell-path",
            Code::WindowsOnlyCommand => "windows-only-command",
            Code::WindowsShimWithoutShell => "windows-shim-without-shell",
            Code::EnvReplacesEnvironment => "env-replaces-environment",
            Code::EnvPathOneFolder => "env-path-one-folder",
            Code::PythonEncoding => "python-encoding",
            Code::PlatformPath => "platform-path",
        }
    }

    /// What the code means, in one line (SARIF's rule `shortDescription`, the docs' table).
    pub(crate) fn summary(self) -> &'static str {
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
            Code::InputUndeclared => "An `${input:ID}` that no entry of the file's `inputs` declares",
            Code::EnvFileMissing => "An `envFile` that does not exist (or is not a regular file): the host cannot start the server",
            Code::VariableUnsupported => "A `${...}` form this host does not expand: the server gets it as written",
            Code::VariableNotExpanded => "A `${...}` in a host that expands no variables (Claude Desktop, Cline, Zed)",
            Code::VariableUnset => "A `${VAR}` or `${env:VAR}` whose variable is not set here",
            Code::LiteralSecret => "A token-looking value or a URL password written in `env` or `args`",
            Code::LauncherWithoutShellPath => "`npx`, `uvx` or `node` by bare name on a host that launches without the login shell's PATH",
            Code::WindowsOnlyCommand => "A Windows-only form (`cmd /c`, a `.cmd` or `.bat` shim) checked for macOS or Linux",
            Code::WindowsShimWithoutShell => "`npx`, `npm` or another .cmd shim without `cmd /c`, checked for Windows (spawn ENOENT or EINVAL)",
            Code::EnvReplacesEnvironment => "An `env` block on a host that then gives the server only that block: APPDATA, HOME, PATHEXT or SystemRoot go missing",
            Code::EnvPathOneFolder => "`env.PATH` set to one folder: the programs the server runs are not found",
            Code::PythonEncoding => "A Python server without PYTHONUTF8 or PYTHONIOENCODING, checked for Windows (UnicodeEncodeError on the code page)",
            Code::PlatformPath => "A path written for another system than the one checked (a drive letter or `\\` off Windows, `/Users` or `/home` on Windows)",
        }
    }

    /// What to do about it, in one line (SARIF's rule `help`).
    pub(crate) fn help(self) -> &'static str {
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
            Code::InputUndeclared => "Declare the input in `inputs` (`{\"type\": \"promptString\", \"id\": \"ID\", \"password\": true}`), or fix the id.",
            Code::EnvFileMissing => "Create the file, or fix the path (relative paths are read from the workspace folder).",
            Code::VariableUnsupported => "Use a form the host expands (docs/hosts.md lists them), or write the value.",
            Code::VariableNotExpanded => "Write the value itself, or launch through a wrapper that reads it from the environment.",
            Code::VariableUnset => "Set the variable where the host runs, or give a default (`${VAR:-value}` where the host reads it).",
            Code::LiteralSecret => "Move the secret out of the file: an input, an env file or a variable the host expands.",
            Code::LauncherWithoutShellPath => "Give the launcher's absolute path (`which npx`), or set `PATH` in the entry's env.",
            Code::WindowsOnlyCommand => "Launch the program itself (`npx ...`), not through cmd or a .cmd shim.",
            Code::WindowsShimWithoutShell => "Write `\"command\": \"cmd\"` with `\"/c\", \"npx\"` first in `args` in the file for Windows machines.",
            Code::EnvReplacesEnvironment => "Add the missing variables to `env`, or set the values in a wrapper script instead of `env`.",
            Code::EnvPathOneFolder => "Add the system's folders after it (`:/usr/local/bin:/usr/bin:/bin`, or `;C:\\Windows\\System32;C:\\Windows` on Windows).",
            Code::PythonEncoding => "Add `\"PYTHONUTF8\": \"1\"` to the entry's `env`.",
            Code::PlatformPath => "Write the path as it is on the machine that runs the host, or keep one file per system.",
        }
    }

    pub(crate) fn severity(self) -> Severity {
        match self {
            Code::Binding
            | Code::Protocol
            | Code::ModernTimeout
            | Code::McplPolicyOnModern
            | Code::ReconnectTiming
            | Code::ServerTable
            | Code::EntryNotObject
            | Code::MissingId
            | Code::InputUndeclared
            | Code::EnvFileMissing => Severity::Error,
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
    /// The host whose dialect the file was read in.
    pub host: super::host::Host,
    /// Server entries found (across all tables).
    pub servers: usize,
    /// Findings in document order.
    pub findings: Vec<Finding>,
}

impl Report {
    pub(crate) fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub(crate) fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, s: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == s).count()
    }

    /// The errors about `entry` (its own value or any value inside it): why the host refuses
    /// it, in document order. Empty when the host loads the entry.
    pub(crate) fn errors_for<'r>(
        &'r self,
        entry: &ServerEntry,
    ) -> impl Iterator<Item = &'r Finding> {
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
