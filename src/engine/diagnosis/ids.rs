//! The diagnoses' stable ids (in `--format json`, `--format events` and the docs), what each means, and how
//! sure a diagnosis is.

use serde::Serialize;

/// A diagnosis's stable id (in `--format json`, `--format events` and the docs).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Id {
    CommandNotFound,
    NotExecutable,
    MissingScript,
    MissingFile,
    MissingDependency,
    PortInUse,
    MissingEnvVar,
    OutOfMemory,
    Crash,
    DiesOnRequest,
    Timer,
    StdoutLogging,
    ExitsAfterHandshake,
    KilledFromOutside,
    WrongProtocol,
    HandshakeTimeoutTooShort,
    CauseUnknown,
    ResourceLimit,
    FatalSignal,
    InstallCutShort,
    Backgrounded,
    BadArgument,
    MissingArgument,
    WrongInterpreter,
    RuntimeTooOld,
    PackageNotFound,
    BrokenNpxCache,
    DependencyDrift,
    CrlfLineEndings,
    HttpMode,
    StdinClosed,
    ServiceNotRunning,
    ConflictingSettings,
    NoExecutable,
    NameNotResolved,
    ConnectionRefused,
    BlockedPort,
    ConnectTimeout,
    NoResponse,
    TlsUntrusted,
    WrongPath,
    HtmlPage,
    NotJsonRpc,
    ServerError,
    KeyRefused,
    AuthRequired,
    AuthUnsupported,
    TokenRejected,
    InsufficientScope,
    BlockedByProxy,
    BridgeTransport,
    SessionLost,
    GetStreamRefused,
    TlsNodeUntrusted,
    BridgeCallbackPort,
    BufferedStdout,
    HostEnvironment,
}

impl Id {
    /// Every id, in the docs' order.
    #[cfg(test)]
    pub(crate) const ALL: &'static [Id] = &[
        Id::CommandNotFound,
        Id::NotExecutable,
        Id::MissingScript,
        Id::MissingFile,
        Id::MissingDependency,
        Id::PortInUse,
        Id::MissingEnvVar,
        Id::OutOfMemory,
        Id::Crash,
        Id::DiesOnRequest,
        Id::Timer,
        Id::StdoutLogging,
        Id::ExitsAfterHandshake,
        Id::KilledFromOutside,
        Id::WrongProtocol,
        Id::HandshakeTimeoutTooShort,
        Id::CauseUnknown,
        Id::ResourceLimit,
        Id::FatalSignal,
        Id::InstallCutShort,
        Id::Backgrounded,
        Id::BadArgument,
        Id::MissingArgument,
        Id::WrongInterpreter,
        Id::RuntimeTooOld,
        Id::PackageNotFound,
        Id::BrokenNpxCache,
        Id::DependencyDrift,
        Id::CrlfLineEndings,
        Id::HttpMode,
        Id::StdinClosed,
        Id::ServiceNotRunning,
        Id::ConflictingSettings,
        Id::NoExecutable,
        Id::NameNotResolved,
        Id::ConnectionRefused,
        Id::BlockedPort,
        Id::ConnectTimeout,
        Id::NoResponse,
        Id::TlsUntrusted,
        Id::WrongPath,
        Id::HtmlPage,
        Id::NotJsonRpc,
        Id::ServerError,
        Id::KeyRefused,
        Id::AuthRequired,
        Id::AuthUnsupported,
        Id::TokenRejected,
        Id::InsufficientScope,
        Id::BlockedByProxy,
        Id::BridgeTransport,
        Id::SessionLost,
        Id::GetStreamRefused,
        Id::TlsNodeUntrusted,
        Id::BridgeCallbackPort,
        Id::BufferedStdout,
        Id::HostEnvironment,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Id::CommandNotFound => "command-not-found",
            Id::NotExecutable => "not-executable",
            Id::MissingScript => "missing-script",
            Id::MissingFile => "missing-file",
            Id::MissingDependency => "missing-dependency",
            Id::PortInUse => "port-in-use",
            Id::MissingEnvVar => "missing-env-var",
            Id::OutOfMemory => "out-of-memory",
            Id::Crash => "crash",
            Id::DiesOnRequest => "dies-on-request",
            Id::Timer => "timer",
            Id::StdoutLogging => "stdout-logging",
            Id::ExitsAfterHandshake => "exits-after-handshake",
            Id::KilledFromOutside => "killed-from-outside",
            Id::WrongProtocol => "wrong-protocol",
            Id::HandshakeTimeoutTooShort => "handshake-timeout-too-short",
            Id::CauseUnknown => "cause-unknown",
            Id::ResourceLimit => "resource-limit",
            Id::FatalSignal => "fatal-signal",
            Id::InstallCutShort => "install-cut-short",
            Id::Backgrounded => "backgrounded",
            Id::BadArgument => "bad-argument",
            Id::MissingArgument => "missing-argument",
            Id::WrongInterpreter => "wrong-interpreter",
            Id::RuntimeTooOld => "runtime-too-old",
            Id::PackageNotFound => "package-not-found",
            Id::BrokenNpxCache => "broken-npx-cache",
            Id::DependencyDrift => "dependency-drift",
            Id::CrlfLineEndings => "crlf-line-endings",
            Id::HttpMode => "http-mode",
            Id::StdinClosed => "stdin-closed",
            Id::ServiceNotRunning => "service-not-running",
            Id::ConflictingSettings => "conflicting-settings",
            Id::NoExecutable => "no-executable",
            Id::NameNotResolved => "name-not-resolved",
            Id::ConnectionRefused => "connection-refused",
            Id::BlockedPort => "blocked-port",
            Id::ConnectTimeout => "connect-timeout",
            Id::NoResponse => "no-response",
            Id::TlsUntrusted => "tls-untrusted",
            Id::WrongPath => "wrong-path",
            Id::HtmlPage => "html-page",
            Id::NotJsonRpc => "not-json-rpc",
            Id::ServerError => "server-error",
            Id::KeyRefused => "key-refused",
            Id::AuthRequired => "auth-required",
            Id::AuthUnsupported => "auth-unsupported",
            Id::TokenRejected => "token-rejected",
            Id::InsufficientScope => "insufficient-scope",
            Id::BlockedByProxy => "blocked-by-proxy",
            Id::BridgeTransport => "bridge-transport",
            Id::SessionLost => "session-lost",
            Id::GetStreamRefused => "get-stream-refused",
            Id::TlsNodeUntrusted => "tls-node-untrusted",
            Id::BridgeCallbackPort => "bridge-callback-port",
            Id::BufferedStdout => "buffered-stdout",
            Id::HostEnvironment => "host-environment",
        }
    }

    /// Whether the diagnosis is of a remote server's dial (`engine::diagnosis::remote`), found
    /// by the probe's own look rather than by a row of the table.
    #[cfg(test)]
    pub(crate) fn is_remote(self) -> bool {
        matches!(
            self,
            Id::NameNotResolved
                | Id::ConnectionRefused
                | Id::BlockedPort
                | Id::ConnectTimeout
                | Id::NoResponse
                | Id::TlsUntrusted
                | Id::WrongPath
                | Id::HtmlPage
                | Id::NotJsonRpc
                | Id::ServerError
                | Id::KeyRefused
                | Id::AuthRequired
                | Id::AuthUnsupported
                | Id::TokenRejected
                | Id::InsufficientScope
                | Id::BlockedByProxy
                | Id::BridgeTransport
                | Id::SessionLost
                | Id::GetStreamRefused
                | Id::TlsNodeUntrusted
                | Id::BridgeCallbackPort
        )
    }

    /// What the diagnosis means, in one line (docs and help).
    #[cfg(test)]
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Id::CommandNotFound => "the command (or its `#!` interpreter) is in none of PATH's folders",
            Id::NotExecutable => "the command exists but cannot be run (no execute permission, a folder)",
            Id::MissingScript => "the script the server's interpreter was asked to run does not exist (a wrong path)",
            Id::MissingFile => "a file the server reads at start (its configuration, keys, data) is not where it looks: the entry's value names no file, or the variable that would name it is unset",
            Id::MissingDependency => "a module, package or shared library the server imports is not installed",
            Id::PortInUse => "the port the server listens on is taken, likely by an earlier instance still running",
            Id::MissingEnvVar => "an environment variable the server needs is not set (or the host does not pass it)",
            Id::OutOfMemory => "the server ran out of memory (Node's heap limit, or killed with its memory rising)",
            Id::Crash => "an uncaught exception, a Python traceback, a Rust or Go panic: the error line and its first frame",
            Id::DiesOnRequest => "the connection ended while a host request was unanswered: the server dies on that request",
            Id::Timer => "every connection lived the same time after its handshake, or every launch the same time after its spawn: an idle timeout, a deliberate exit or a `timeout` wrapper",
            Id::StdoutLogging => "the server writes logs to stdout, where only JSON-RPC may go",
            Id::ExitsAfterHandshake => "exit 0 right after the handshake: the server believes its input ended or it was told to stop",
            Id::KilledFromOutside => "a signal the probe did not send ended the server (OOM killer, supervisor, container limit)",
            Id::WrongProtocol => "the server refused or answered another protocol version: the entry's `protocol` is wrong",
            Id::HandshakeTimeoutTooShort => "every handshake timed out at a --handshake-timeout under a second: the probe's own limit, not the server",
            Id::CauseUnknown => "none of the above fits: what was seen, to start from",
            Id::ResourceLimit => "a resource limit too low for the server (ulimit -v, -t, -n, -u): a limit to raise, not a crash",
            Id::FatalSignal => "a crash in native code (SIGSEGV, SIGABRT, SIGTRAP from V8's fatal handler, SIGBUS, SIGILL)",
            Id::InstallCutShort => "a launch stopped while its installer (npx -y, uvx, pip) was still installing: the install may be left half-written",
            Id::Backgrounded => "the command started the server in the background and exited: the host talks to the process it started",
            Id::BadArgument => "the server rejects a value it was given (an argument or a variable of the entry), and names it",
            Id::MissingArgument => "the server says it needs an argument it was not given",
            Id::WrongInterpreter => "`python -m X` run by an interpreter that does not have X (outside the server's venv)",
            Id::RuntimeTooOld => "the Python or Node.js that ran the server is older than the server needs",
            Id::PackageNotFound => "npm or PyPI has no package of the name the entry gives (a typo)",
            Id::BrokenNpxCache => "npx's cached copy of the package is incomplete: its folder must be deleted",
            Id::DependencyDrift => "a dependency changed under the server: a name the server imports is gone from it",
            Id::CrlfLineEndings => "the script's `#!` line ends in `\\r` (saved with Windows line endings): no interpreter has that name",
            Id::HttpMode => "the command starts an HTTP server, not a stdio one: a stdio host waits for an answer that never comes",
            Id::StdinClosed => "it exited 0 before its handshake because its stdin was closed or replaced (`< /dev/null`, `docker run` without `-i`)",
            Id::ServiceNotRunning => "a backing service the server connects to (a database, a cache, a vector store) refuses the connection: the doctor connected to its host:port itself, and nothing listens there",
            Id::ConflictingSettings => "the server refuses two settings of the entry that exclude each other (both variables named in its error are set)",
            Id::NoExecutable => "npx found the package but no executable to run in it (no `bin`, or another name than asked): a library, or the wrong bin",
            Id::NameNotResolved => "a remote server's host name has no address where the probe runs",
            Id::ConnectionRefused => "nothing listens at the remote server's host and port",
            Id::BlockedPort => "the URL's port is on the Fetch standard's blocked list: Node-based hosts and bridges never dial it",
            Id::ConnectTimeout => "no connection to the remote server's address in time (a firewall, a proxy, a wrong address)",
            Id::NoResponse => "the remote server accepts the connection and sends no HTTP answer in time (a hung server, a TCP proxy with nothing behind it, a port that speaks another protocol)",
            Id::TlsUntrusted => "the remote server's TLS certificate is refused (self-signed, an unknown issuer, an incomplete chain)",
            Id::WrongPath => "the URL's path answers 404 or 405: the usual paths tried, and which era answers where",
            Id::HtmlPage => "the URL answers 200 with an HTML page (a sign-in page, a catch-all, a proxy), not MCP",
            Id::NotJsonRpc => "the URL answers 200 with a body that is not a JSON-RPC message (another API)",
            Id::ServerError => "the remote server or its gateway answers the host's initialize with HTTP 5xx",
            Id::KeyRefused => "HTTP 401/403 with no OAuth offered: the key in the headers is missing, wrong or not the one expected",
            Id::AuthRequired => "the server asks for an OAuth sign-in a host can complete (the probe does not sign in)",
            Id::AuthUnsupported => "the server's OAuth chain cannot be completed by hosts (no metadata, no registration, no PKCE, a resource mismatch)",
            Id::TokenRejected => "the server answers 401 invalid_token: the token sent is invalid or expired",
            Id::InsufficientScope => "the server answers 403 insufficient_scope: the token lacks a scope it names",
            Id::BlockedByProxy => "a 403 without a WWW-Authenticate challenge: a WAF, CDN or allow-list, not OAuth",
            Id::BridgeTransport => "a stdio<->HTTP bridge speaks another transport than its remote server (mcp-proxy's default SSE to a Streamable HTTP server, mcp-remote --transport http-only to a legacy SSE one)",
            Id::SessionLost => "a remote server answered 404 to a request with its session id: it forgot the session (a restart, an expiry, another replica)",
            Id::GetStreamRefused => "the optional GET stream was answered 404, 400 or a 200 that is no event stream, not 405: a server bug whose cost depends on the host, not a restart",
            Id::TlsNodeUntrusted => "an https server this machine's store trusts and Node's bundled roots (plus NODE_EXTRA_CA_CERTS) refuse: the doctor connects, Node-based hosts and bridges do not",
            Id::BridgeCallbackPort => "mcp-remote failed with the OAuth callback port its arguments give held by another process, at a server that asks for a sign-in",
            Id::BufferedStdout => "its stdout is block-buffered: an experiment relaunched it and its answer came only once its stdin was closed, never while held open",
            Id::HostEnvironment => "an experiment relaunched it with the other environment (this shell's whole one, or a host's allowlist) and it answered: the variables that differ decide it",
        }
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How sure a diagnosis is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}
