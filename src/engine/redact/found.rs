//! Secrets found by their place or shape in a command line, a piece of text, a JSON value or an
//! environment (see the room's text, `redact/mod.rs`).

use super::names::{is_secret_name, is_secret_param};
use super::shapes::auth_scheme_tokens;

/// Values found by their place shorter than this are not taken for secrets (see
/// [`could_be_secret`]).
pub(crate) const MIN_FOUND_LEN: usize = 4;

/// Whether a value found by its place (after `--token`, under a secret-looking name, in a
/// header) can be a secret: not a number (`5`, `-1`, `0.5`, `0x1F`), a duration (`30s`,
/// `1.5h`, `500ms`), a boolean or switch word (`true`, `off`, `none`), nor shorter than
/// [`MIN_FOUND_LEN`] characters.
pub(crate) fn could_be_secret(v: &str) -> bool {
    let v = v.trim();
    if v.chars().count() < MIN_FOUND_LEN {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "none" | "null" | "auto" | "never" | "always"
    ) {
        return false;
    }
    let unsigned = lower.trim_start_matches(['-', '+']);
    if unsigned.starts_with("0x")
        && unsigned.len() > 2
        && unsigned[2..].chars().all(|c| c.is_ascii_hexdigit())
        && unsigned.len() <= 10
    {
        return false;
    }
    let digits_end = unsigned
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(unsigned.len());
    let (number, unit) = unsigned.split_at(digits_end);
    let is_number = number.chars().any(|c| c.is_ascii_digit()) && number.matches('.').count() <= 1;
    let duration_unit = matches!(
        unit,
        "" | "ns"
            | "us"
            | "µs"
            | "ms"
            | "s"
            | "sec"
            | "secs"
            | "m"
            | "min"
            | "mins"
            | "h"
            | "hr"
            | "d"
            | "w"
            | "kb"
            | "mb"
            | "gb"
            | "k"
            | "%"
    );
    !(is_number && duration_unit)
}

/// The secrets of one header, `name: value`: the value and the credential after its scheme
/// (`Bearer TOKEN`) when the name is a credential's (`Authorization`, `X-Api-Key`, `Cookie`),
/// else what the value's own shapes hold ([`secrets_in_text`]); values that cannot be secrets
/// left out ([`could_be_secret`]).
pub(crate) fn header_secrets(name: &str, value: &str) -> Vec<String> {
    let mut out = Vec::new();
    if is_secret_name(name) {
        let value = value.trim();
        out.push(value.to_string());
        if let Some((scheme, rest)) = value.split_once(' ') {
            if !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                out.push(rest.trim().to_string());
            }
        }
    }
    out.extend(secrets_in_text(value));
    out.retain(|v| could_be_secret(v));
    out.dedup();
    out
}

/// The passwords of every userinfo in `text`, with a scheme or without
/// (`postgresql://app:PASS@db`, `app:PASS@db:5432`, `redis://:PASS@host`): before each `@`
/// that a host name follows, the word back to a space, a quote, `/`, `=` or `,`, split at its
/// first `:`.
fn userinfo_passwords(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices('@') {
        let host_follows = text[at + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '[');
        if !host_follows {
            continue;
        }
        let before = &text[..at];
        let start = before
            .rfind(|c: char| c.is_whitespace() || "\"'`/=,;<>()[]{}@".contains(c))
            .map_or(0, |i| {
                i + before[i..].chars().next().map_or(1, char::len_utf8)
            });
        let userinfo = &before[start..];
        if let Some((user, password)) = userinfo.split_once(':') {
            let user_like = user
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._~%+-".contains(c));
            if user_like && !password.is_empty() {
                out.push(password.to_string());
            }
        }
    }
    out
}

/// The secrets a JSON text holds (`{"Authorization": "Bearer ..."}`): under every key with a
/// secret-looking name, its string or number value (and the credential after a scheme); and in
/// every string, what its shapes hold ([`secrets_in_text`]). Nothing when `text` is not JSON.
fn json_secrets(text: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, key: Option<&str>, out: &mut Vec<String>, depth: usize) {
        if depth > 32 {
            return;
        }
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    walk(v, Some(k), out, depth + 1);
                }
            }
            serde_json::Value::Array(a) => {
                for v in a {
                    walk(v, key, out, depth + 1);
                }
            }
            serde_json::Value::String(s) => match key {
                Some(k) => out.extend(header_secrets(k, s)),
                None => out.extend(secrets_in_text(s)),
            },
            serde_json::Value::Number(n) if key.is_some_and(is_secret_name) => {
                out.push(n.to_string());
            }
            _ => {}
        }
    }
    let t = text.trim();
    if !(t.starts_with('{') || t.starts_with('[')) || t.len() > 1 << 20 {
        return Vec::new();
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(t) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk(&v, None, &mut out, 0);
    out
}

/// Options whose next argument is a secret although their name does not say so (`-t TOKEN`),
/// when that argument looks like one: 8 characters or more, not a path.
const SECRET_SHORT_OPTIONS: &[&str] = &["-t"];

/// The values of a command line's secret options: the argument after `--token` (and the like,
/// see [`is_secret_name`]; also `-t` and `-p`), and `VALUE` in `--token=VALUE`; and in any
/// argument, the secrets [`secrets_in_text`] finds.
pub(crate) fn secret_args<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    let mut out = Vec::new();
    let mut next_is_secret = false;
    let mut short_is_secret = false;
    for a in args {
        let a = a.as_ref();
        out.extend(secrets_in_text(a));
        if next_is_secret {
            next_is_secret = false;
            if could_be_secret(a) {
                out.push(a.to_string());
                continue;
            }
        }
        if short_is_secret {
            short_is_secret = false;
            if a.chars().count() >= 8 && !a.contains('/') && !a.starts_with('-') {
                out.push(a.to_string());
                continue;
            }
        }
        if !a.starts_with('-') {
            continue;
        }
        match a.split_once('=') {
            Some((name, value)) if is_secret_name(name) && could_be_secret(value) => {
                out.push(value.to_string())
            }
            Some(_) => {}
            None => {
                next_is_secret = is_secret_name(a);
                short_is_secret = SECRET_SHORT_OPTIONS.contains(&a);
            }
        }
    }
    out
}

/// The secrets inside one piece of text (an argument, a URL): `NAME=VALUE` where NAME looks
/// like an environment variable with a secret-looking name (`GITHUB_TOKEN=...`, also after
/// `--env=`), a header's value (`Authorization: Bearer TOKEN`, `X-Api-Key: KEY`: the value and
/// the token after its scheme), a URL's password (`postgresql://user:PASS@host`), and the value
/// of every secret-named query or matrix parameter (`?api_key=`, `&code=`, `;token=`).
pub(crate) fn secrets_in_text(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // NAME=VALUE and headers, the whole text or after an option's `=` (`--env=NAME=VALUE`,
    // `--header=Authorization: Bearer ...`).
    let after_option = text
        .starts_with('-')
        .then(|| text.split_once('=').map(|(_, v)| v))
        .flatten();
    let candidates: Vec<&str> = [Some(text), after_option].into_iter().flatten().collect();
    assigned_secrets(&candidates, &mut out);
    for v in json_secrets(text) {
        keep(&mut out, &v);
    }
    header_value_secrets(&candidates, &mut out);
    url_passwords(text, &mut out);
    default_secrets(text, &mut out);
    // The credential after `Bearer ` or `Basic `, anywhere.
    for (start, end) in auth_scheme_tokens(text) {
        keep(&mut out, &text[start..end]);
    }
    param_secrets(text, &mut out);
    out.retain(|v| could_be_secret(v));
    out.dedup();
    out
}

/// A found value, trimmed, unless empty.
fn keep(out: &mut Vec<String>, v: &str) {
    let v = v.trim();
    if !v.is_empty() {
        out.push(v.to_string());
    }
}

/// `NAME=VALUE` where NAME looks like an environment variable: the value when the name is a
/// secret's, and the secrets of a JSON value.
fn assigned_secrets(candidates: &[&str], out: &mut Vec<String>) {
    for &candidate in candidates {
        if let Some((name, value)) = candidate.split_once('=') {
            let env_like = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if env_like && is_secret_name(name) {
                keep(out, value);
            }
            if env_like {
                for v in json_secrets(value) {
                    keep(out, &v);
                }
            }
        }
    }
}

/// A header: `Name: value`, also `Name:value` (`--header Authorization:Bearer TOKEN`, as
/// mcp-remote takes it) when the name is a credential's: the value, and the token after its
/// scheme.
fn header_value_secrets(candidates: &[&str], out: &mut Vec<String>) {
    for (name, value) in candidates.iter().filter_map(|c| c.split_once(':')) {
        let header_like = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !value.starts_with("//");
        if header_like && is_secret_name(name) {
            keep(out, value);
            let value = value.trim();
            if let Some((scheme, rest)) = value.split_once(' ') {
                if !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                    keep(out, rest);
                }
            }
        }
    }
}

/// A URL's password: `scheme://user:password@host`, also without the scheme.
fn url_passwords(text: &str, out: &mut Vec<String>) {
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let after = &rest[at + 3..];
        let authority_end = after.find(['/', '?', '#', ' ']).unwrap_or(after.len());
        let authority = &after[..authority_end];
        if let Some((userinfo, _)) = authority.rsplit_once('@') {
            if let Some((_, password)) = userinfo.split_once(':') {
                keep(out, password);
            }
        }
        rest = after;
    }
    for password in userinfo_passwords(text) {
        keep(out, &password);
    }
}

/// The default of `${VAR:-default}` (the value a host passes when VAR is unset), unless a path.
fn default_secrets(text: &str, out: &mut Vec<String>) {
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        let after = &rest[at + 2..];
        let name_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if let Some(default) = after[name_end..].strip_prefix(":-") {
            if let Some(end) = default.find('}') {
                if !default[..end].starts_with(['/', '.', '~', '$']) {
                    keep(out, &default[..end]);
                }
            }
        }
        rest = after;
    }
}

/// Secret-named parameters: `?name=value`, `&name=value`, `;name=value` (the value as written
/// and decoded).
fn param_secrets(text: &str, out: &mut Vec<String>) {
    for (i, c) in text.char_indices() {
        if !matches!(c, '?' | '&' | ';') {
            continue;
        }
        let param = &text[i + 1..];
        let end = param.find(['&', ';', '#', ' ', '?']).unwrap_or(param.len());
        if let Some((name, value)) = param[..end].split_once('=') {
            let decoded = url::form_urlencoded::parse(name.as_bytes())
                .next()
                .map(|(k, _)| k.into_owned())
                .unwrap_or_else(|| name.to_string());
            if is_secret_param(&decoded) {
                keep(out, value);
                if let Some((_, v)) = url::form_urlencoded::parse(&param.as_bytes()[..end]).next() {
                    keep(out, &v);
                }
            }
        }
    }
}

/// The values of the secret-looking variables (see [`is_secret_name`]) of the environment a
/// server gets, 8 characters or more (shorter values of such names are flags such as `1` or
/// `true`, which masking would garble every number with; a real secret is longer). Not the
/// working directories (`PWD` reads as "password") nor paths (`SSH_AUTH_SOCK`, `*_DIR`, a
/// value starting with `/`): masking them would hide every path below them, and they are
/// where a secret is, not the secret.
pub(crate) fn env_secrets<K: AsRef<std::ffi::OsStr>, V: AsRef<std::ffi::OsStr>>(
    vars: impl IntoIterator<Item = (K, V)>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in vars {
        let Some(k) = k.as_ref().to_str() else {
            continue;
        };
        let v = v.as_ref().to_string_lossy();
        let upper = k.to_ascii_uppercase();
        let path_like = matches!(upper.as_str(), "PWD" | "OLDPWD")
            || ["_SOCK", "_DIR", "_PATH", "_HOME", "_FILE"]
                .iter()
                .any(|e| upper.ends_with(e))
            || v.starts_with('/');
        if is_secret_name(k) && !path_like && v.chars().count() >= 8 {
            out.push(v.clone().into_owned());
        }
        // Whatever the name, what the value's shapes hold: a connection string's password
        // (`DATABASE_URL=app:PASS@db`), a JSON value's credentials (`OPENAPI_MCP_HEADERS`).
        out.extend(secrets_in_text(&v));
    }
    out
}
