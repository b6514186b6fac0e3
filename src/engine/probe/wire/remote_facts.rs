//! What a failed dial of a remote (HTTP) server looked like, rung by rung, for the diagnosis
//! (issue 28; the facts are in `tests/reference/remote.md`): one `initialize` POST as the host
//! sends it (the entry's token and headers), classified by the rung it fell from; for a 401 or
//! 403 the auth chain a host climbs, read without logging in (the `WWW-Authenticate`
//! challenge, the protected-resource metadata of RFC 9728, the authorization server's metadata
//! of RFC 8414 / OpenID discovery); for a wrong path, the usual paths (`/mcp`, `/sse`, `/`)
//! tried and which era answers there.
//!
//! Every request is a plain GET or the host's own `initialize` POST: nothing registers a
//! client or asks for a token. Redirects are never followed, and the entry's credentials go
//! only to the server's own origin.

use std::time::Duration;

use hyper::header::{ACCEPT, WWW_AUTHENTICATE};
use hyper::Method;
use serde_json::Value;
use url::Url;

use super::dial::DialError;
use super::http::HttpTarget;
use super::http_client::{self, Auth, HttpError, Reply};
use super::legacy_sse;
use crate::engine::probe::session::handshake::{self, Incoming};
use crate::engine::probe::session::initialize;

/// How long each request of the look may take.
const STEP: Duration = Duration::from_secs(5);

#[cfg(test)]
pub(crate) use super::rungs::BLOCKED_PORTS;
pub(crate) use super::rungs::{
    AuthServer, Challenge, PathTry, RemoteFacts, ResourceMetadata, Rung,
};

/// Look at `target` as the host reaches it, within a few seconds per request.
pub(crate) async fn look(target: &HttpTarget) -> RemoteFacts {
    let step = STEP.min(target.open_timeout.max(Duration::from_millis(500)));
    let mut facts = RemoteFacts {
        sent: target.auth().sent_names(),
        ..RemoteFacts::default()
    };
    let (rung, reply) = post_initialize(target, step).await;
    facts.rung = rung;
    match &facts.rung {
        Rung::Status {
            code: 401 | 403, ..
        } => {
            let challenge = reply
                .as_ref()
                .map(|r| r.header(WWW_AUTHENTICATE.as_str()))
                .filter(|h| !h.is_empty())
                .map(|h| parse_challenge(&h));
            facts.challenge = challenge;
            auth_chain(target, &mut facts, step).await;
        }
        Rung::Status {
            code: 404 | 405, ..
        }
        | Rung::Html
        | Rung::NotJsonRpc { .. } => {
            facts.paths = try_paths(target, step).await;
        }
        Rung::Tls(_) => {
            let extra = super::tls_trust::node_extra();
            facts.tls = super::tls_trust::inspect(target.url(), step, extra.as_deref()).await;
        }
        _ => {}
    }
    facts
}

/// The host's `initialize` POST: the rung, and the answer when one came.
async fn post_initialize(target: &HttpTarget, step: Duration) -> (Rung, Option<Reply>) {
    let request = initialize::request("2025-11-25");
    // The dial and the answer each get their own step: a SYN never answered is
    // `connect-timeout`, a connection that never gets an answer is `no-response`.
    let sent = http_client::send_within(
        target.url(),
        target.auth(),
        target.open_timeout.min(step),
        Some(step),
        Method::POST,
        &http_client::post_headers(),
        Some(&request),
    )
    .await;
    let reply = match sent {
        Err(e) => return (rung_of(e), None),
        Ok(r) => r,
    };
    let content_type = reply.content_type();
    if !reply.status.is_success() {
        let code = reply.status.as_u16();
        return (Rung::Status { code, content_type }, Some(reply));
    }
    if content_type.starts_with("text/html") {
        return (Rung::Html, None);
    }
    if reply.is_event_stream() {
        let mut events = reply.events();
        let first = tokio::time::timeout(step, async {
            while let Ok(Some(e)) = events.next().await {
                if let Incoming::Message(_) = handshake::classify(e.data.as_bytes()) {
                    return true;
                }
            }
            false
        })
        .await;
        return match first {
            Ok(true) => (Rung::Answered, None),
            _ => (Rung::NotJsonRpc { content_type }, None),
        };
    }
    match reply.bytes(step).await {
        Ok(b) => match handshake::classify(&b) {
            Incoming::Message(_) => (Rung::Answered, None),
            _ => (Rung::NotJsonRpc { content_type }, None),
        },
        Err(e) => (Rung::Other(e.to_string()), None),
    }
}

fn rung_of(e: HttpError) -> Rung {
    match e {
        HttpError::Dial(DialError::NameNotResolved { host, reason }) => {
            Rung::NameNotResolved { host, reason }
        }
        HttpError::Dial(DialError::Refused) => Rung::Refused,
        HttpError::Dial(DialError::Connect(why)) => Rung::Unreachable(why),
        HttpError::Dial(DialError::Tls(why)) => Rung::Tls(why),
        HttpError::ConnectTimedOut(_) => Rung::TimedOut,
        HttpError::NoAnswer(waited) => Rung::NoResponse(waited),
        other => Rung::Other(other.to_string()),
    }
}

/// `Bearer resource_metadata="...", error="invalid_token", scope="a b"` read leniently
/// (quoted or token values, any order).
pub(crate) fn parse_challenge(header: &str) -> Challenge {
    let header = header.trim();
    let (scheme, rest) = header.split_once(' ').unwrap_or((header, ""));
    let mut c = Challenge {
        scheme: scheme.to_string(),
        ..Challenge::default()
    };
    let mut rest = rest.trim();
    while !rest.is_empty() {
        let Some((name, after)) = rest.split_once('=') else {
            break;
        };
        let name = name
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = after.trim_start();
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim().to_string(), &after[end..])
        };
        match name.as_str() {
            "resource_metadata" => c.resource_metadata = Some(value),
            "error" => c.error = Some(value),
            "scope" => c.scope = Some(value),
            _ => {}
        }
        rest = tail.trim_start_matches([',', ' ']);
    }
    c
}

/// GET `url` as JSON (no redirect followed), with `auth` (the entry's credentials on the
/// server's own origin, none elsewhere): the document, when a 2xx JSON object came.
async fn get_json(url: &Url, auth: Auth<'_>, step: Duration) -> Option<Value> {
    let headers = [
        (ACCEPT.as_str(), "application/json".to_string()),
        (http_client::VERSION_HEADER, "2025-11-25".to_string()),
    ];
    let reply = tokio::time::timeout(
        step,
        http_client::send(url, auth, step, Method::GET, &headers, None),
    )
    .await
    .ok()?
    .ok()?;
    if !reply.status.is_success() {
        return None;
    }
    let body = reply.bytes(step).await.ok()?;
    serde_json::from_slice::<Value>(&body)
        .ok()
        .filter(Value::is_object)
}

/// The credentials for `url`: the target's on its own origin, none on another.
fn auth_for<'a>(target: &'a HttpTarget, url: &Url) -> Auth<'a> {
    if url.origin() == target.url().origin() {
        target.auth()
    } else {
        Auth::default()
    }
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The PRM (the challenge's URL, else the two well-known forms) and the first authorization
/// server's metadata (else the server's origin, as the TypeScript SDK falls back).
async fn auth_chain(target: &HttpTarget, facts: &mut RemoteFacts, step: Duration) {
    let url = target.url();
    let mut candidates: Vec<Url> = Vec::new();
    if let Some(u) = facts
        .challenge
        .as_ref()
        .and_then(|c| c.resource_metadata.as_deref())
        .and_then(|m| url.join(m).ok())
    {
        candidates.push(u);
    } else {
        let path = url.path().trim_end_matches('/');
        for p in [
            format!("/.well-known/oauth-protected-resource{path}"),
            "/.well-known/oauth-protected-resource".to_string(),
        ] {
            let mut u = url.clone();
            u.set_path(&p);
            u.set_query(None);
            if !candidates.contains(&u) {
                candidates.push(u);
            }
        }
    }
    let mut metadata = ResourceMetadata::default();
    for u in &candidates {
        metadata.url = u.to_string();
        if let Some(doc) = get_json(u, auth_for(target, u), step).await {
            metadata.found = true;
            metadata.resource = doc
                .get("resource")
                .and_then(Value::as_str)
                .map(str::to_string);
            metadata.authorization_servers = strings(&doc, "authorization_servers");
            metadata.scopes = strings(&doc, "scopes_supported");
            break;
        }
    }
    let issuer = match metadata.authorization_servers.first() {
        Some(i) => i.clone(),
        None => url.origin().ascii_serialization(),
    };
    facts.metadata = Some(metadata);
    facts.auth_server = Some(auth_server(target, &issuer, step).await);
}

/// The authorization server's metadata, tried in the specification's order.
async fn auth_server(target: &HttpTarget, issuer: &str, step: Duration) -> AuthServer {
    let mut found = AuthServer {
        issuer: issuer.to_string(),
        ..AuthServer::default()
    };
    let Ok(base) = Url::parse(issuer) else {
        return found;
    };
    let path = base.path().trim_end_matches('/').to_string();
    let forms: Vec<String> = if path.is_empty() {
        vec![
            "/.well-known/oauth-authorization-server".into(),
            "/.well-known/openid-configuration".into(),
        ]
    } else {
        vec![
            format!("/.well-known/oauth-authorization-server{path}"),
            format!("/.well-known/openid-configuration{path}"),
            format!("{path}/.well-known/openid-configuration"),
        ]
    };
    for form in forms {
        let mut u = base.clone();
        u.set_path(&form);
        u.set_query(None);
        if let Some(doc) = get_json(&u, auth_for(target, &u), step).await {
            found.found_at = Some(u.to_string());
            found.registration_endpoint = doc.get("registration_endpoint").is_some();
            found.metadata_documents = doc
                .get("client_id_metadata_document_supported")
                .and_then(Value::as_bool)
                == Some(true);
            found.pkce_s256 = doc.get("code_challenge_methods_supported").map(|_| {
                strings(&doc, "code_challenge_methods_supported").contains(&"S256".into())
            });
            break;
        }
    }
    found
}

/// `/mcp`, `/sse` and `/` on the same origin (the URL's own path left out): which era answers
/// at each.
async fn try_paths(target: &HttpTarget, step: Duration) -> Vec<PathTry> {
    let mut out = Vec::new();
    // The URL itself may be a legacy SSE endpoint the host was told to POST to.
    if speaks_sse(target, step).await {
        out.push(PathTry {
            path: target.url().path().to_string(),
            era: Some("sse"),
            status: None,
        });
    }
    for path in ["/mcp", "/sse", "/"] {
        if target.url().path() == path {
            continue;
        }
        let mut u = target.url().clone();
        u.set_path(path);
        let Ok(t) = HttpTarget::new(u.as_str(), target.token().map(str::to_string)) else {
            continue;
        };
        let t = t
            .with_headers(target.headers().to_vec())
            .with_open_timeout(target.open_timeout);
        let (rung, _) = post_initialize(&t, step).await;
        let status = match &rung {
            Rung::Status { code, .. } => Some(*code),
            Rung::Answered | Rung::Html | Rung::NotJsonRpc { .. } => Some(200),
            _ => None,
        };
        let era = if rung == Rung::Answered {
            Some("streamable-http")
        } else if speaks_sse(&t, step).await {
            Some("sse")
        } else {
            None
        };
        out.push(PathTry {
            path: path.to_string(),
            era,
            status,
        });
    }
    out
}

async fn speaks_sse(target: &HttpTarget, step: Duration) -> bool {
    let look = tokio::time::timeout(step, async {
        let mut events = legacy_sse::open_stream(target).await?;
        legacy_sse::endpoint(&mut events, target.url()).await
    })
    .await;
    matches!(look, Ok(Ok(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_read_in_any_order_quoted_or_not() {
        let c = parse_challenge(
            r#"Bearer resource_metadata="https://a/.well-known/oauth-protected-resource", scope="mcp read""#,
        );
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("https://a/.well-known/oauth-protected-resource")
        );
        assert_eq!(c.scope.as_deref(), Some("mcp read"));
        let c = parse_challenge("Bearer error=invalid_token, scope=x");
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(c.scope.as_deref(), Some("x"));
        assert_eq!(parse_challenge("Basic").scheme, "Basic");
    }

    #[test]
    fn a_dial_never_connected_and_an_answer_never_sent_are_apart() {
        assert_eq!(
            rung_of(HttpError::ConnectTimedOut(Duration::from_secs(3))),
            Rung::TimedOut
        );
        assert_eq!(
            rung_of(HttpError::NoAnswer(Duration::from_secs(3))),
            Rung::NoResponse(Duration::from_secs(3))
        );
    }

    /// A real socket that accepts and reads and never answers: connected, no response, within
    /// the look's step (not the minutes of TCP).
    #[tokio::test]
    async fn a_server_that_accepts_and_never_answers_is_no_response() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let held = tokio::spawn(async move {
            let mut kept = Vec::new();
            while let Ok((s, _)) = listener.accept().await {
                kept.push(s);
            }
        });
        let target = HttpTarget::new(&format!("http://127.0.0.1:{port}/mcp"), None)
            .expect("a URL")
            .with_open_timeout(Duration::from_millis(800));
        let facts = look(&target).await;
        held.abort();
        assert_eq!(facts.rung, Rung::NoResponse(Duration::from_millis(800)));
    }

    #[test]
    fn the_fetch_block_list_has_the_ports_node_refuses() {
        for p in [5060, 6000, 6666, 10080, 9] {
            assert!(BLOCKED_PORTS.contains(&p), "{p}");
        }
        assert!(!BLOCKED_PORTS.contains(&8080));
    }
}
