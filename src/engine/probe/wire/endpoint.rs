//! URLs of WebSocket and HTTP servers: the token put where the host puts it, and the form that
//! may be shown.
//!
//! The host sends a WebSocket server's token in the query as `token=...`, replacing a `token`
//! parameter the configured URL already has (as `URL.searchParams.set("token", token)` does).
//! No URL that carries a token may ever be shown: every URL in a message, a table, a log line or
//! JSON goes through [`display_url`] first.

use url::Url;

use crate::engine::probe::model::LaunchError;
use crate::engine::redact::Redactor;

/// The query parameter that carries a WebSocket server's token.
pub(crate) const TOKEN_PARAM: &str = "token";

/// `url` with `token` in its query as `token=...`, exactly as the host sends it.
///
/// Like the WHATWG `URLSearchParams.set`: the first `token` parameter takes the new value in
/// place, any further `token` parameters are removed, and without one `token=...` is appended
/// after the others. The query is then serialized as `application/x-www-form-urlencoded` (space
/// as `+`, everything but `*-._` and ASCII alphanumerics percent-encoded), as the host's
/// `URLSearchParams` does. A `None` or empty token leaves the URL as it is (the host sends a
/// token only when the entry has one). The fragment, never sent, is dropped.
pub(crate) fn with_token(url: &Url, token: Option<&str>) -> Url {
    let mut out = url.clone();
    out.set_fragment(None);
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return out;
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut placed = false;
    for (k, v) in url.query_pairs() {
        if k == TOKEN_PARAM {
            if !placed {
                pairs.push((k.into_owned(), token.to_string()));
                placed = true;
            }
        } else {
            pairs.push((k.into_owned(), v.into_owned()));
        }
    }
    if !placed {
        pairs.push((TOKEN_PARAM.to_string(), token.to_string()));
    }
    out.query_pairs_mut().clear().extend_pairs(pairs);
    out
}

/// The form of `url` that may be shown: without any `token` query parameter, without the
/// userinfo password, without a fragment. Other query parameters are kept exactly as written.
pub(crate) fn display_url(url: &Url) -> String {
    let mut shown = url.clone();
    shown.set_fragment(None);
    if shown.password().is_some() {
        // Only fails for URLs that cannot have userinfo, which have no password either.
        let _ = shown.set_password(None);
    }
    if let Some(query) = url.query() {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|segment| !segment.is_empty() && !is_token_segment(segment))
            .collect();
        if kept.is_empty() {
            shown.set_query(None);
        } else {
            shown.set_query(Some(&kept.join("&")));
        }
    }
    shown.to_string()
}

/// [`display_url`] of a URL given as text. Text that does not parse as a URL is shown as typed,
/// with what could be a secret masked: a user name and password before `@`, and the value of
/// every `token` query parameter.
pub(crate) fn display_url_str(text: &str) -> String {
    match Url::parse(text) {
        Ok(url) => display_url(&url),
        Err(_) => mask_unparsed(text),
    }
}

/// `text` with its `user:password@` and `token=` values replaced by `…`.
fn mask_unparsed(text: &str) -> String {
    let (head, query) = match text.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (text, None),
    };
    let head = match (head.find("://"), head.rfind('@')) {
        (Some(i), Some(at)) if at > i + 3 => format!("{}…{}", &head[..i + 3], &head[at..]),
        (None, Some(at)) => format!("…{}", &head[at..]),
        _ => head.to_string(),
    };
    let Some(query) = query else {
        return head;
    };
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (query, None),
    };
    let kept: Vec<String> = query
        .split('&')
        .map(|seg| {
            if is_token_segment(seg) {
                format!("{TOKEN_PARAM}=…")
            } else {
                seg.to_string()
            }
        })
        .collect();
    let mut out = format!("{head}?{}", kept.join("&"));
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Whether one `key[=value]` query segment is a `token` parameter (key compared decoded).
fn is_token_segment(segment: &str) -> bool {
    let key = segment.split('=').next().unwrap_or("");
    form_key(key) == TOKEN_PARAM
}

/// A query key decoded as `application/x-www-form-urlencoded` would decode it.
fn form_key(raw: &str) -> String {
    url::form_urlencoded::parse(raw.as_bytes())
        .next()
        .map(|(k, _)| k.into_owned())
        .unwrap_or_default()
}

/// Parse the URL of a `kind` (`WebSocket`, `HTTP`) server the way the host would accept it: one
/// of `schemes`, with a host. The error shows the URL without its token.
pub(crate) fn parse_endpoint(url: &str, kind: &str, schemes: &[&str]) -> Result<Url, LaunchError> {
    let parsed = Url::parse(url).map_err(|e| {
        LaunchError::Other(format!(
            "not a usable {kind} URL: {} ({e})",
            display_url_str(url)
        ))
    })?;
    if !schemes.contains(&parsed.scheme()) {
        let list: Vec<String> = schemes.iter().map(|s| format!("{s}://")).collect();
        let article = if kind.starts_with(['A', 'E', 'H', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        return Err(LaunchError::Other(format!(
            "not {article} {kind} URL ({}): {}",
            list.join(" or "),
            display_url(&parsed)
        )));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(LaunchError::Other(format!(
            "a {kind} URL needs a host: {}",
            display_url(&parsed)
        )));
    }
    Ok(parsed)
}

/// The secrets a URL and its token carry (a WebSocket's or an HTTP server's).
pub(crate) fn url_secrets(url: &Url, token: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = token.filter(|t| !t.is_empty()) {
        out.push(t.to_string());
        let encoded: String = url::form_urlencoded::byte_serialize(t.as_bytes()).collect();
        out.push(encoded);
    }
    if let Some(query) = url.query() {
        for (k, v) in url.query_pairs() {
            if (k == TOKEN_PARAM || crate::engine::redact::is_secret_name(&k)) && !v.is_empty() {
                out.push(v.into_owned());
            }
        }
        // And as written (percent-encoded) in the query.
        for pair in query.split('&') {
            if let Some((k, v)) = pair.split_once('=') {
                let name = url::form_urlencoded::parse(pair.as_bytes())
                    .next()
                    .map(|(k, _)| k.into_owned())
                    .unwrap_or_else(|| k.to_string());
                if crate::engine::redact::is_secret_name(&name) && !v.is_empty() {
                    out.push(v.to_string());
                }
            }
        }
    }
    if let Some(p) = url.password() {
        out.push(p.to_string());
    }
    // And `;token=`, `code=`, `jwt=`... anywhere in it (matrix parameters, `;` separators).
    out.extend(crate::engine::redact::secrets_in_text(url.as_str()));
    out.dedup();
    out
}

/// The secrets one configured header carries: its whole value (every header value is treated
/// as a secret, whatever its name), and the credential after an auth scheme (`Bearer TOKEN`,
/// `Basic ...`) and whatever [`crate::engine::redact::secrets_in_text`] finds in `Name: value`.
pub(crate) fn header_secrets(name: &str, value: &str) -> Vec<String> {
    let value = value.trim();
    let mut out = Vec::new();
    if value.is_empty() {
        return out;
    }
    out.push(value.to_string());
    if let Some((scheme, rest)) = value.split_once(' ') {
        let rest = rest.trim();
        if scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !rest.is_empty()
        {
            out.push(rest.to_string());
        }
    }
    out.extend(crate::engine::redact::secrets_in_text(&format!(
        "{name}: {value}"
    )));
    out.dedup();
    out
}

/// `Name: value` (as curl, mcp-remote and supergateway take a header) as its name and value
/// trimmed; `None` when the name is empty or not an HTTP token.
pub(crate) fn parse_header(text: &str) -> Option<(String, String)> {
    let (name, value) = text.split_once(':')?;
    let name = name.trim();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return None;
    }
    Some((name.to_string(), value.trim().to_string()))
}

/// The run's redactor plus a target's own secrets.
pub(crate) fn redactor_with(base: &Redactor, secrets: Vec<String>) -> Redactor {
    let mut r = base.clone();
    for s in secrets {
        r.add_found(s);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).expect("test URL parses")
    }

    #[test]
    fn token_is_appended_as_the_host_sends_it() {
        let cases = [
            ("ws://h:1/mcp", "s3cret", "ws://h:1/mcp?token=s3cret"),
            (
                "ws://h:1/mcp?a=1",
                "s3cret",
                "ws://h:1/mcp?a=1&token=s3cret",
            ),
            // An existing token is replaced in place; later ones are removed.
            (
                "ws://h:1/?token=old&a=1&token=older",
                "new",
                "ws://h:1/?token=new&a=1",
            ),
            // Form-urlencoded, as URLSearchParams serializes.
            (
                "wss://h/x",
                "a b&c=d/é",
                "wss://h/x?token=a+b%26c%3Dd%2F%C3%A9",
            ),
            ("wss://h/x", "*-._~", "wss://h/x?token=*-._%7E"),
            // An encoded key `tok%65n` is the key `token`.
            ("ws://h/?tok%65n=old", "new", "ws://h/?token=new"),
            // The fragment is never sent.
            ("ws://h/p#frag", "tok", "ws://h/p?token=tok"),
        ];
        for (url, token, want) in cases {
            assert_eq!(with_token(&u(url), Some(token)).as_str(), want, "{url}");
        }
    }

    #[test]
    fn no_token_leaves_the_url_alone() {
        assert_eq!(
            with_token(&u("ws://h/p?a=b%20c"), None).as_str(),
            "ws://h/p?a=b%20c"
        );
        assert_eq!(
            with_token(&u("ws://h/p?token=x"), Some("")).as_str(),
            "ws://h/p?token=x"
        );
    }

    #[test]
    fn display_removes_token_and_password() {
        let cases = [
            ("ws://h:1/mcp?token=s3cret", "ws://h:1/mcp"),
            ("ws://h:1/mcp?a=1&token=s3cret&b=2", "ws://h:1/mcp?a=1&b=2"),
            ("ws://h/?tok%65n=s3cret&a=b%20c", "ws://h/?a=b%20c"),
            ("ws://h/?token&a", "ws://h/?a"),
            ("wss://user:pa55@h/x?token=t", "wss://user@h/x"),
            ("https://h/mcp#token=t", "https://h/mcp"),
            ("http://h/mcp", "http://h/mcp"),
            ("ws://h/?tokens=kept", "ws://h/?tokens=kept"),
        ];
        for (url, want) in cases {
            assert_eq!(display_url(&u(url)), want, "{url}");
        }
    }

    #[test]
    fn the_url_sent_never_shows_its_token() {
        let sent = with_token(&u("ws://h/mcp?x=1"), Some("hunter2-token"));
        assert!(sent.as_str().contains("hunter2-token"));
        assert!(!display_url(&sent).contains("hunter2-token"));
        assert_eq!(display_url_str("not a url"), "not a url");
        assert_eq!(
            display_url_str("ws://u:pw@h:x/?token=hunter2&a=1"),
            "ws://…@h:x/?token=…&a=1"
        );
    }
}
