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
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| WORDS.contains(&w))
        || ENDINGS.iter().any(|e| squashed.ends_with(e))
}

/// Whether a URL query (or matrix) parameter's name says its value is a secret: the names of
/// [`is_secret_name`], and `code` (an OAuth authorisation code), `sid`.
pub(crate) fn is_secret_param(name: &str) -> bool {
    is_secret_name(name) || matches!(name.to_ascii_lowercase().as_str(), "code" | "sid")
}
