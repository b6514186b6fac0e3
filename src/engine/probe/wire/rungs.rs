//! What the look at a remote server found ([`super::remote_facts`]), as plain data: a leaf
//! the attempt's report and the diagnosis both read.

/// The rung the first request fell from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Rung {
    /// The host name has no address (the system's reason).
    NameNotResolved { host: String, reason: String },
    /// Nothing listens at the address (TCP refused).
    Refused,
    /// Another TCP failure (unreachable network, reset).
    Unreachable(String),
    /// The TLS handshake failed (rustls's reason: the certificate's problem).
    Tls(String),
    /// No connection within the open timeout (a SYN never answered: a firewall that drops).
    TimedOut,
    /// Connected, and no HTTP answer to the request within the look's step (a hung server, a
    /// TCP proxy with nothing behind it, a port speaking another protocol); how long it waited.
    NoResponse(std::time::Duration),
    /// An HTTP status other than 2xx, and the answer's content type.
    Status { code: u16, content_type: String },
    /// 200 with an HTML page (a login page, an SPA catch-all, a proxy's page).
    Html,
    /// 200 with a body that is not a JSON-RPC message.
    NotJsonRpc { content_type: String },
    /// A JSON-RPC answer came: the dial itself is fine.
    #[default]
    Answered,
    /// Something else went wrong (not HTTP, cut short), in words.
    Other(String),
}

/// A `WWW-Authenticate: Bearer ...` challenge's parameters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Challenge {
    /// The scheme (`Bearer`, `Basic`...).
    pub scheme: String,
    pub resource_metadata: Option<String>,
    pub error: Option<String>,
    pub scope: Option<String>,
}

/// The protected-resource metadata (RFC 9728) a host finds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ResourceMetadata {
    /// Where it was found (or last looked for).
    pub url: String,
    /// Whether a document was found there.
    pub found: bool,
    pub resource: Option<String>,
    pub authorization_servers: Vec<String>,
    pub scopes: Vec<String>,
}

/// The authorization server's metadata (RFC 8414 / OpenID discovery) a host finds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct AuthServer {
    /// The issuer it was derived from.
    pub issuer: String,
    /// Where the document was found (`None`: at none of the well-known forms).
    pub found_at: Option<String>,
    pub registration_endpoint: bool,
    /// `client_id_metadata_document_supported: true`.
    pub metadata_documents: bool,
    /// `code_challenge_methods_supported`: `None` when absent.
    pub pkce_s256: Option<bool>,
}

/// One of the usual paths tried on the same origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathTry {
    pub path: String,
    /// The era that answers there (`streamable-http`, `sse`), if one does.
    pub era: Option<&'static str>,
    /// The status the POST got (`None`: no HTTP answer).
    pub status: Option<u16>,
}

/// What the look found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct RemoteFacts {
    pub rung: Rung,
    /// The names of the headers the host sends (values never kept).
    pub sent: Vec<String>,
    pub challenge: Option<Challenge>,
    pub metadata: Option<ResourceMetadata>,
    pub auth_server: Option<AuthServer>,
    pub paths: Vec<PathTry>,
    /// An https server's certificate and whose roots trust it (a TLS failure).
    pub tls: Option<TlsFacts>,
    /// mcp-remote: the OAuth callback port its arguments give, found taken by another process
    /// after it failed.
    pub callback_taken: Option<u16>,
    /// mcp-remote: what its auth cache holds for this server (names only).
    pub auth_cache: Option<AuthCache>,
}

/// What mcp-remote's auth cache holds for one server, from its files' names (never their
/// content): see [`super::bridge_cache`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct AuthCache {
    /// The folder, as the user would type it (`~/.mcp-auth/mcp-remote-v1`).
    pub folder: String,
    /// The first 8 hex digits of the server's hash (its files' prefix); `None` when the
    /// arguments change the hash in a way the doctor does not model.
    pub key: Option<String>,
    /// `<hash>_tokens.json`: tokens from an earlier sign-in.
    pub tokens: bool,
    /// `<hash>_client_info.json`: the client registration (DCR) mcp-remote reuses.
    pub client_info: bool,
    /// `<hash>_code_verifier_*`: sign-ins started and not finished.
    pub pending: usize,
    /// How many other servers have files there.
    pub other_servers: usize,
}

/// What a store makes of a server's chain.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Trust {
    Trusted,
    /// Refused, and why in plain words (`no root it trusts issued it`, `expired`...).
    Refused(String),
    /// Not judged.
    #[default]
    Unknown,
}

/// An https server's leaf certificate and whose roots trust it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct TlsFacts {
    /// `CN=..., O=...`.
    pub subject: String,
    pub issuer: String,
    /// Subject and issuer are the same name (a self-signed certificate or a root).
    pub self_issued: bool,
    /// The last day it is valid (`2031-01-01`).
    pub not_after: String,
    pub expired: bool,
    /// How many certificates the server sent.
    pub chain_len: usize,
    /// This machine's store (what the doctor dials with; `SSL_CERT_FILE` replaces it).
    pub system: Trust,
    /// Node's: the version of the `node` asked and what its bundled roots plus
    /// `NODE_EXTRA_CA_CERTS` make of it; `None`: no node to ask.
    pub node: Option<(String, Trust)>,
    /// The file `NODE_EXTRA_CA_CERTS` names, when set.
    pub node_extra: Option<String>,
}

/// The Fetch standard's "bad ports": a `fetch`-based host (every Node host and bridge) refuses
/// to dial them, whatever listens there.
pub(crate) const BLOCKED_PORTS: &[u16] = &[
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 6679, 6697, 10080,
];

/// What a Streamable HTTP session did that hosts treat apart (`remote.md` section 3): the
/// server forgot the session, or its GET stream answered neither an event stream nor 405.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SessionFacts {
    /// The request (its method) that got HTTP 404 while carrying the session id: the server
    /// no longer knows the session (it restarted, or expired it).
    pub lost_on: Option<String>,
    /// How long after the handshake that 404 came, in ms.
    pub lost_after_ms: Option<f64>,
    /// The status the GET stream got when it was neither an event stream nor 405 (404, 400,
    /// a 200 that is not `text/event-stream`), and its content type.
    pub get_refused: Option<(u16, String)>,
    /// An https server this machine's store trusts and Node's roots refuse: the doctor got
    /// through where Node-based hosts and bridges do not.
    pub node_tls: Option<TlsFacts>,
}
