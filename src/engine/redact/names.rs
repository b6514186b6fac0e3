//! What a secret is called (option, variable, header and parameter names that say their value
//! is one) and what a masked one reads as.

/// What a masked secret reads as.
pub(crate) const MASK: &str = "[redacted]";

/// Whether an option or query-parameter name says its value is a secret: `--token`,
/// `--api-key`, `--apiKey`, `--password`, `--client-secret`, `auth`, `access_token`, `key`...
pub(crate) fn is_secret_name(name: &str) -> bool {
    let name = name.trim_start_matches('-').to_ascii_lowercase();
    let squashed: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    const WORDS: &[&str] = &[
        "token",
        "key",
        "apikey",
        "secret",
        "password",
        "passwd",
        "pass",
        "pwd",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "bearer",
        "cookie",
        "sig",
        "signature",
        "pat",
        "jwt",
        "session",
    ];
    // Run-together names: `apiKey`, `accessToken`, `clientSecret`, `oauth`.
    const ENDINGS: &[&str] = &[
        "token",
        "apikey",
        "accesskey",
        "secretkey",
        "privatekey",
        "secret",
        "password",
        "passwd",
        "auth",
    ];
    // A name that ends in a word saying which kind of secret is used (`--auth-mode kube`,
    // `--token-type bearer`, `AUTH_METHOD`) holds a choice, not the secret: masking `kube`
    // garbled the server's `choose from 'iam', 'kubeconfig'` (stop 38, eks).
    let words: Vec<&str> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() >= 2 && words.last().is_some_and(|w| KIND_WORDS.contains(w)) {
        return false;
    }
    words.iter().any(|w| WORDS.contains(w)) || ENDINGS.iter().any(|e| squashed.ends_with(e))
}

/// The last words of an option's or a variable's name that make it a setting about a secret
/// (which kind, how it is sent, for how long), whose value is a choice: `--auth-mode`,
/// `--auth-type`, `--token-type`, `--key-format`, `--session-timeout`.
const KIND_WORDS: &[&str] = &[
    "mode",
    "type",
    "method",
    "kind",
    "scheme",
    "strategy",
    "flow",
    "provider",
    "format",
    "timeout",
    "ttl",
    "expiry",
    "algorithm",
    "alg",
];

/// Whether a URL query (or matrix) parameter's name says its value is a secret: the names of
/// [`is_secret_name`], and `code` (an OAuth authorisation code), `sid`.
pub(crate) fn is_secret_param(name: &str) -> bool {
    is_secret_name(name) || matches!(name.to_ascii_lowercase().as_str(), "code" | "sid")
}
