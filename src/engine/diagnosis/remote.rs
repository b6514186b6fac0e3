//! The diagnosis of a remote (HTTP) server that could not be reached, by the rung of the
//! ladder it fell from (issue 28; `tests/reference/remote.md` sections 1 and 2): what the probe's
//! own look found ([`RemoteFacts`]: one `initialize` as the host sends it, the auth chain, the
//! usual paths), each rung with its own id and a next step in the URL's terms. A URL has no
//! stderr, command or log files: nothing here speaks of them.

use url::Url;

use super::model::{Diagnosis, Evidence, Setting, Source};
use super::table::{Confidence, Id};
use crate::engine::policy::Outcome;
use crate::engine::probe::wire::rungs::{AuthCache, RemoteFacts, Rung, BLOCKED_PORTS};
use crate::engine::probe::Launch;

use super::remote_tls::Place;

/// A URL on a port every `fetch`-based host refuses, whether or not the probe got through.
pub(crate) fn blocked_port(setting: &Setting, launches: Vec<u32>) -> Option<Diagnosis> {
    let place = Place::of(setting.url.as_deref()?)?;
    if !BLOCKED_PORTS.contains(&place.port) {
        return None;
    }
    Some(Diagnosis {
        id: Id::BlockedPort,
        confidence: Confidence::High,
        summary: format!("port {} is one Node's fetch refuses to dial", place.port),
        launches: launches.clone(),
        evidence: vec![Evidence {
            launches,
            source: Source::Http,
            text: format!(
                "{} uses port {}, on the Fetch standard's list of blocked ports",
                place.url, place.port
            ),
        }],
        next_step: format!(
            "move the server off port {}: every Node-based host and bridge (Claude Code, VS Code, \
             Cursor, mcp-remote, MCP Inspector) fails with `bad port` before it connects, \
             whatever listens there (this doctor can reach it; they cannot)",
            place.port
        ),
    })
}

/// The diagnosis of launches that failed to reach a remote server, from the look's facts;
/// `None` when the target is not a URL or nothing was looked at.
pub(crate) fn diagnose(died: &[&Launch], setting: &Setting) -> Option<Vec<Diagnosis>> {
    let place = Place::of(setting.url.as_deref()?)?;
    let failed: Vec<&Launch> = died
        .iter()
        .copied()
        .filter(|l| matches!(l.report.outcome, Some(Outcome::FailedToConnect(_))))
        .collect();
    let (first, facts) = failed
        .iter()
        .find_map(|l| l.report.remote.as_ref().map(|f| (*l, f)))?;
    let launches: Vec<u32> = failed.iter().map(|l| l.number).collect();
    let error = match &first.report.outcome {
        Some(Outcome::FailedToConnect(e)) => e.to_string(),
        _ => String::new(),
    };
    let reverse = setting
        .bridge
        .as_deref()
        .and_then(|b| bridge_to_sse(&place, facts, setting, b));
    let callback = callback_taken(&place, facts, setting);
    let (id, summary, next) = match (rung(&place, facts, setting), &setting.bridge) {
        _ if reverse.is_some() => reverse?,
        _ if callback.is_some() => callback?,
        (Some((id, summary, next)), Some(bridge)) => (
            id,
            format!("{bridge} could not reach {}: {summary}", place.url),
            next,
        ),
        (Some(found), None) => found,
        (None, Some(bridge)) => bridge_transport(&place, facts, setting, bridge)?,
        (None, None) => return None,
    };
    let mut evidence = vec![Evidence {
        launches: launches.clone(),
        source: Source::Http,
        text: format!("{}: {error}", place.url),
    }];
    let on_auth = matches!(
        facts.rung,
        Rung::Status {
            code: 401 | 403,
            ..
        }
    ) || id == Id::BridgeCallbackPort;
    let cache = facts
        .auth_cache
        .as_ref()
        .filter(|_| on_auth && setting.bridge.as_deref() == Some("mcp-remote"))
        .map(|c| auth_cache_words(c, &place.url));
    let next = match &cache {
        Some((_, clear)) => format!("{next}; {clear}"),
        None => next,
    };
    evidence.extend(cache.map(|(text, _)| Evidence {
        launches: launches.clone(),
        source: Source::Http,
        text,
    }));
    evidence.extend(auth_evidence(facts, &launches));
    evidence.extend(facts.tls.as_ref().map(|t| Evidence {
        launches: launches.clone(),
        source: Source::Http,
        text: super::remote_tls::tls_words(t),
    }));
    evidence.extend(path_evidence(&place, facts, &launches));
    evidence.truncate(super::model::MAX_EVIDENCE);
    Some(vec![Diagnosis {
        id,
        confidence: Confidence::High,
        summary,
        launches,
        evidence,
        next_step: next,
    }])
}

/// mcp-remote failed with the OAuth callback port its arguments give taken by another
/// process, at a remote that asks for a sign-in (or answers): the port stopped it.
fn callback_taken(
    place: &Place,
    facts: &RemoteFacts,
    setting: &Setting,
) -> Option<(Id, String, String)> {
    let port = facts.callback_taken?;
    let signs_in = matches!(
        facts.rung,
        Rung::Answered
            | Rung::Status {
                code: 401 | 403,
                ..
            }
    );
    if setting.bridge.as_deref() != Some("mcp-remote") || !signs_in {
        return None;
    }
    Some((
        Id::BridgeCallbackPort,
        format!("mcp-remote's OAuth callback port {port} is taken"),
        format!(
            "mcp-remote was given port {port} (the argument after {}) for its OAuth sign-in \
             callback, and another process holds 127.0.0.1:{port}: another mcp-remote signing \
             in to the same server, or another program; close it (`ss -ltnp 'sport = :{port}'` \
             names it) or give another free port, or drop the argument to let mcp-remote pick \
             one; a stale sign-in's state is in its auth cache (~/.mcp-auth, or \
             MCP_REMOTE_CONFIG_DIR): `rm -rf ~/.mcp-auth` clears it",
            place.url
        ),
    ))
}

/// What mcp-remote's auth cache holds for `url` (the evidence), and what clearing it does
/// (the next step's last sentence). Never a file's content.
fn auth_cache_words(c: &AuthCache, url: &str) -> (String, String) {
    let folder = &c.folder;
    let others = match c.other_servers {
        0 => String::new(),
        1 => " (and files of 1 other server)".into(),
        n => format!(" (and files of {n} other servers)"),
    };
    let Some(key) = &c.key else {
        return (
            format!(
                "mcp-remote's auth cache {folder}: its arguments change which files are this \
                 server's in a way not read here{others}"
            ),
            "`rm -rf ~/.mcp-auth` clears mcp-remote's cached sign-ins for every server: each \
             signs in again in the browser on its next start"
                .into(),
        );
    };
    let mut held = Vec::new();
    if c.tokens {
        held.push("tokens from an earlier sign-in".to_string());
    }
    if c.client_info {
        held.push("its client registration".to_string());
    }
    match c.pending {
        0 => {}
        1 => held.push("1 unfinished sign-in".into()),
        n => held.push(format!("{n} unfinished sign-ins")),
    }
    if held.is_empty() {
        return (
            format!("mcp-remote's auth cache {folder} holds nothing for {url}{others}"),
            "mcp-remote has no cached sign-in for this server, so none is stale: the answer \
             above is the server's to a first sign-in"
                .into(),
        );
    }
    (
        format!(
            "mcp-remote's auth cache {folder} holds for {url}: {} (files {key}..._*, not read)\
             {others}",
            held.join(", ")
        ),
        format!(
            "mcp-remote reuses what its cache holds for this server ({}): `rm {folder}/{key}*` \
             clears it, and on its next start mcp-remote registers again where the server \
             offers it and opens the browser to sign in; `rm -rf ~/.mcp-auth` does the same \
             for every server",
            held.join(", ")
        ),
    )
}

/// A bridge told to speak Streamable HTTP only, at a URL that answers as legacy SSE.
fn bridge_to_sse(
    place: &Place,
    facts: &RemoteFacts,
    setting: &Setting,
    bridge: &str,
) -> Option<(Id, String, String)> {
    let (era, flag) = setting.bridge_transport.as_ref()?;
    let sse_here = facts
        .paths
        .iter()
        .any(|p| p.path == place.path && p.era == Some("sse"));
    if era != "streamable-http" || !sse_here {
        return None;
    }
    let fix = match bridge {
        "mcp-proxy" => "drop `--transport streamablehttp` (its default is SSE)",
        "supergateway" => "use `--sse URL` instead of `--streamableHttp URL`",
        _ => "use `--transport sse-only` or `http-first` (or drop `--transport`)",
    };
    Some((
        Id::BridgeTransport,
        format!("{bridge} speaks Streamable HTTP to a legacy SSE server"),
        format!(
            "{} is a legacy HTTP+SSE endpoint (a GET opens its event stream), but {bridge} \
             ({flag}) only POSTs Streamable HTTP to it: {fix}",
            place.url
        ),
    ))
}

/// A bridge whose remote answers, on another transport than the bridge's flags choose.
fn bridge_transport(
    place: &Place,
    facts: &RemoteFacts,
    setting: &Setting,
    bridge: &str,
) -> Option<(Id, String, String)> {
    let (era, flag) = setting.bridge_transport.as_ref()?;
    if facts.rung != Rung::Answered || era != "sse" {
        return None;
    }
    let fix = match bridge {
        "mcp-proxy" => "add `--transport streamablehttp` to its args",
        "supergateway" => "use `--streamableHttp URL` instead of `--sse URL`",
        _ => "use `--transport http-first` (or drop `--transport`)",
    };
    Some((
        Id::BridgeTransport,
        format!("{bridge} speaks SSE to a Streamable HTTP server"),
        format!(
            "{} answers the host's initialize over Streamable HTTP, but {bridge} ({flag}) \
             speaks the legacy SSE transport to it: {fix}",
            place.url
        ),
    ))
}

/// The sentence naming which usual path answers with which era, if one does.
fn answering_path(place: &Place, facts: &RemoteFacts) -> Option<String> {
    facts.paths.iter().find(|p| p.era.is_some()).map(|p| {
        format!(
            "the server answers at {} ({}): put that URL in the entry",
            place.with_path(&p.path),
            p.era.unwrap_or("")
        )
    })
}

fn path_evidence(place: &Place, facts: &RemoteFacts, launches: &[u32]) -> Option<Evidence> {
    if facts.paths.is_empty() {
        return None;
    }
    let tried: Vec<String> = facts
        .paths
        .iter()
        .map(|p| match (p.era, p.status) {
            (Some(era), _) => format!("{} answers as {era}", p.path),
            (None, Some(s)) => format!("{} HTTP {s}", p.path),
            (None, None) => format!("{} no answer", p.path),
        })
        .collect();
    Some(Evidence {
        launches: launches.to_vec(),
        source: Source::Http,
        text: format!("on {}: {}", place.at(), tried.join(", ")),
    })
}

fn auth_evidence(facts: &RemoteFacts, launches: &[u32]) -> Vec<Evidence> {
    let mut out = Vec::new();
    let ev = |text: String| Evidence {
        launches: launches.to_vec(),
        source: Source::Http,
        text,
    };
    if let Some(c) = &facts.challenge {
        let mut parts = vec![c.scheme.clone()];
        for (k, v) in [
            ("resource_metadata", &c.resource_metadata),
            ("error", &c.error),
            ("scope", &c.scope),
        ] {
            if let Some(v) = v {
                parts.push(format!("{k}=\"{v}\""));
            }
        }
        out.push(ev(format!("WWW-Authenticate: {}", parts.join(" "))));
    }
    if let Some(m) = &facts.metadata {
        out.push(ev(if m.found {
            format!(
                "protected-resource metadata at {}: resource {}, authorization servers [{}], scopes [{}]",
                m.url,
                m.resource.as_deref().unwrap_or("(none)"),
                m.authorization_servers.join(", "),
                m.scopes.join(", ")
            )
        } else {
            format!("no protected-resource metadata (last tried {})", m.url)
        }));
    }
    if let Some(a) = &facts.auth_server {
        out.push(ev(match &a.found_at {
            Some(at) => format!(
                "authorization server {} (metadata at {at}): registration endpoint {}, client \
                 metadata documents {}, PKCE S256 {}",
                a.issuer,
                yes(a.registration_endpoint),
                yes(a.metadata_documents),
                match a.pkce_s256 {
                    Some(s) => yes(s),
                    None => "not stated",
                }
            ),
            None => format!("no authorization-server metadata for {}", a.issuer),
        }));
    }
    out
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "none"
    }
}

/// The rung's id, summary and next step.
fn rung(place: &Place, facts: &RemoteFacts, setting: &Setting) -> Option<(Id, String, String)> {
    let at = place.at();
    let fix_path = |what: &str| match answering_path(place, facts) {
        Some(s) => format!("{what}: {s}"),
        None => format!(
            "{what}; none of /mcp, /sse, / answers as MCP on {at} either: check the server's \
             documentation for its endpoint path, and that {at} is the MCP server's port"
        ),
    };
    Some(match &facts.rung {
        Rung::NameNotResolved { host, .. } => (
            Id::NameNotResolved,
            format!("{host} does not resolve"),
            format!(
                "{host} has no address here: check the host name in the URL (a typo; a name only \
                 a VPN or a container network resolves); a host on another machine resolves it \
                 where it runs"
            ),
        ),
        Rung::Refused => (
            Id::ConnectionRefused,
            format!("nothing listens on {at}"),
            format!(
                "nothing listens on {at}: start the server, or fix the port in the URL; a server \
                 bound to 127.0.0.1 inside a container or on another machine cannot be reached \
                 from here (bind 0.0.0.0, publish the port)"
            ),
        ),
        Rung::TimedOut | Rung::Unreachable(_) => (
            Id::ConnectTimeout,
            format!("{at} cannot be reached"),
            format!(
                "no connection to {at}: a firewall or a proxy drops it (check HTTPS_PROXY and \
                 NO_PROXY where the host runs), the address is wrong, or the server is too busy \
                 to accept"
            ),
        ),
        Rung::NoResponse(waited) => {
            let waited = crate::engine::probe::wire::dial::seconds(*waited);
            (
                Id::NoResponse,
                format!("{at} accepts the connection and never answers"),
                format!(
                    "{at} accepted the connection, and the host's initialize POST to {} got no \
                     HTTP answer in {waited}: the server is hung or busy (restart it; check its \
                     own health), or what listens on {at} is not the HTTP server (a TCP proxy or \
                     tunnel with nothing behind it, another protocol on that port); `curl -v {}` \
                     from where the host runs shows the same silence",
                    place.url, place.url
                ),
            )
        }
        Rung::Tls(why) => super::remote_tls::tls(place, why, facts.tls.as_ref()),
        Rung::Status {
            code: 404 | 405, ..
        } => {
            let code = match &facts.rung {
                Rung::Status { code, .. } => *code,
                _ => 404,
            };
            (
                Id::WrongPath,
                format!("nothing MCP answers at {} (HTTP {code})", place.path),
                fix_path(&format!(
                    "{} answers HTTP {code} to the host's POST (and to the legacy GET)",
                    place.url
                )),
            )
        }
        Rung::Html => (
            Id::HtmlPage,
            format!("{} answers with an HTML page", place.path),
            fix_path(&format!(
                "{} answers 200 with an HTML page (a sign-in page, a web app's catch-all, a \
                 proxy's page), not MCP: the path is wrong or a proxy in front rewrites it",
                place.url
            )),
        ),
        Rung::NotJsonRpc { content_type } => (
            Id::NotJsonRpc,
            format!("{} answers, but not in JSON-RPC", place.path),
            fix_path(&format!(
                "{} answers 200 ({content_type}) with something that is not a JSON-RPC message: \
                 the URL points at another API, not an MCP endpoint",
                place.url
            )),
        ),
        Rung::Status { code, .. } if *code >= 500 => (
            Id::ServerError,
            format!("the server fails with HTTP {code}"),
            format!(
                "{} answers HTTP {code}: the server (or a gateway in front of it: 502, 503, 504) \
                 fails on the host's initialize; it is the server side's to fix, and a host \
                 retries it as a failed connection",
                place.url
            ),
        ),
        Rung::Status {
            code: 401 | 403, ..
        } => auth(place, facts, setting),
        _ => return None,
    })
}

/// The auth ladder's rung: what was sent, what the challenge and the metadata say, what each
/// host does with it.
fn auth(place: &Place, facts: &RemoteFacts, setting: &Setting) -> (Id, String, String) {
    let code = match facts.rung {
        Rung::Status { code, .. } => code,
        _ => 401,
    };
    let sent = if facts.sent.is_empty() {
        "no credential was sent".to_string()
    } else {
        format!("sent {}", facts.sent.join(", "))
    };
    // Plural each way: "the variable {field} take".
    let field = match &setting.bridge {
        Some(bridge) => format!("{bridge}'s header arguments"),
        None if setting.entry => "the entry's `headers`".to_string(),
        None => "the `--header` values".to_string(),
    };
    let field = field.as_str();
    let challenge = facts.challenge.as_ref();
    let error = challenge.and_then(|c| c.error.as_deref());
    if error == Some("insufficient_scope") {
        let scope = challenge.and_then(|c| c.scope.as_deref()).unwrap_or("?");
        return (
            Id::InsufficientScope,
            format!("the token lacks scope {scope}"),
            format!(
                "the server wants scope `{scope}` the credential does not carry ({sent}): get a \
                 token with that scope; a host re-authorizes once (TS SDK: `Server returned 403 \
                 after trying upscoping`)"
            ),
        );
    }
    if error == Some("invalid_token") {
        return (
            Id::TokenRejected,
            "the token is refused as invalid or expired".into(),
            format!(
                "the server answers {code} invalid_token ({sent}): renew the token (the variable \
                 {field} take); a server that works and then says this at a steady age is a \
                 token's expiry, not a timer"
            ),
        );
    }
    if challenge.is_none() && code == 403 {
        return (
            Id::BlockedByProxy,
            "a 403 with no OAuth challenge".into(),
            format!(
                "{} answers 403 with no WWW-Authenticate ({sent}): a WAF, CDN or IP allow-list \
                 blocks this machine, not OAuth: have the address allowed; Claude Code caches it \
                 as needs-auth for 15 minutes (~/.claude/mcp-needs-auth-cache.json)",
                place.url
            ),
        );
    }
    let oauth = challenge.is_some_and(|c| c.resource_metadata.is_some())
        || facts.metadata.as_ref().is_some_and(|m| m.found)
        || facts
            .auth_server
            .as_ref()
            .is_some_and(|a| a.found_at.is_some());
    if !oauth {
        return if facts.sent.is_empty() {
            (
                Id::KeyRefused,
                format!("HTTP {code} and no credential sent"),
                format!(
                    "the server wants a credential and offers no OAuth sign-in: add the header it \
                     takes to {field} (`Authorization: Bearer ${{API_TOKEN}}` or its API-key \
                     header); mcp-remote would try client registration at {}/register and \
                     fail, VS Code opens its sign-in dialog",
                    origin(place)
                ),
            )
        } else {
            (
                Id::KeyRefused,
                format!("the credential sent is refused (HTTP {code})"),
                format!(
                    "the server refused what was sent ({sent}) and offers no OAuth: check the \
                     value (the variable {field} take, set where the host runs) and the header's \
                     name; on this {code} VS Code and Claude Code may start an OAuth sign-in \
                     anyway"
                ),
            )
        };
    }
    oauth_chain(place, facts, field)
}

/// The OAuth chain's verdict: one a host can complete, or why it cannot.
fn oauth_chain(place: &Place, facts: &RemoteFacts, field: &str) -> (Id, String, String) {
    let a = facts.auth_server.as_ref();
    let registers = a.is_some_and(|a| a.registration_endpoint || a.metadata_documents);
    let no_metadata = a.is_none_or(|a| a.found_at.is_none());
    let pkce = a.and_then(|a| a.pkce_s256);
    let mismatch = facts
        .metadata
        .as_ref()
        .and_then(|m| m.resource.as_ref().filter(|r| **r != place.url).cloned());
    if no_metadata || !registers || pkce == Some(false) || mismatch.is_some() {
        let why = if no_metadata {
            "its authorization server publishes no metadata: hosts fall back to \
             <origin>/register and fail"
                .to_string()
        } else if pkce == Some(false) {
            "the authorization server does not offer PKCE S256: spec clients refuse it".into()
        } else if let Some(r) = mismatch {
            format!(
                "the protected-resource metadata names resource {r}, not {}: VS Code wants it \
                 exact, the TypeScript SDK a prefix on the same origin",
                place.url
            )
        } else {
            "the authorization server has no registration endpoint and no client metadata \
             documents: Claude Code, Cursor and mcp-remote fail (`does not support dynamic \
             client registration`), VS Code asks for a client id"
                .into()
        };
        return (
            Id::AuthUnsupported,
            "the server's OAuth cannot be completed by a host".into(),
            format!(
                "{why}; register a client at the authorization server and give its id to the \
                 host (mcp-remote: --static-oauth-client-info), or use a static header in \
                 {field}"
            ),
        );
    }
    (
        Id::AuthRequired,
        "the server asks for an OAuth sign-in".into(),
        format!(
            "the server uses OAuth ({}): a host signs in in the browser (Claude Code: /mcp then \
             Authenticate; VS Code: its sign-in dialog; Cursor: Needs login); this doctor does \
             not sign in: to probe it, pass a token with {field} (`Authorization: Bearer ...`)",
            a.map(|a| a.issuer.as_str()).unwrap_or("")
        ),
    )
}

fn origin(place: &Place) -> String {
    Url::parse(&place.url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}

/// `cause-unknown`'s next step for a URL, in the URL's terms.
pub(crate) fn unknown_next(setting: &Setting, ended: &str) -> Option<String> {
    let place = Place::of(setting.url.as_deref()?)?;
    Some(format!(
        "{} failed ({ended}) on no rung this doctor knows: try it with `npx \
         @modelcontextprotocol/inspector --cli {} --method tools/list`, and compare with \
         `--transport streamable-http` or `--transport sse`",
        place.url, place.url
    ))
}

/// What the host the rule is named for does when the server forgets the session (`remote.md`
/// sections 3 and 4), first; then the others.
fn on_forgotten_session(rule: &str) -> String {
    let vscode = "VS Code starts a new session on the 404 (`will retry with new session ID`)";
    let claude = "Claude Code depends on its version (2.0.17 never re-initializes, 2.1.147 \
                  does, 2.1.205 reads the 404 as an OAuth error, 2.1.220 shows `Request timed \
                  out` and drops the call)";
    let others = "the TypeScript SDK does not re-initialize by itself (Cursor, Cline, \
                  mcp-remote: `Error POSTing to endpoint`, until the server is toggled or \
                  restarted)";
    if rule.starts_with("claude-code") {
        format!("{claude}; {vscode}; {others}")
    } else {
        format!("{vscode}; {claude}; {others}")
    }
}

/// `session-lost`: a connection ended on a 404 to a request that carried its session id: the
/// server no longer knows the session (it restarted, or expired it).
pub(crate) fn session_lost(died: &[&Launch], setting: &Setting, rule: &str) -> Option<Diagnosis> {
    let place = Place::of(setting.url.as_deref()?)?;
    let lost: Vec<&Launch> = died
        .iter()
        .copied()
        .filter(|l| l.report.session.lost_on.is_some())
        .collect();
    let first = lost.first()?;
    let launches: Vec<u32> = lost.iter().map(|l| l.number).collect();
    let on = first.report.session.lost_on.clone().unwrap_or_default();
    let after = first
        .report
        .session
        .lost_after_ms
        .map(|ms| {
            format!(
                ", {} after the handshake",
                crate::engine::policy::timings::format_ms(ms)
            )
        })
        .unwrap_or_default();
    let again = if lost.len() > 1 {
        format!(" (in {} connections)", lost.len())
    } else {
        String::new()
    };
    Some(Diagnosis {
        id: Id::SessionLost,
        confidence: Confidence::High,
        summary: "the server forgot the session: it restarted or expired it".into(),
        launches: launches.clone(),
        evidence: vec![Evidence {
            launches,
            source: Source::Http,
            text: format!(
                "{}: HTTP 404 to {on}, sent with the session id the initialize answer gave{after}{again}",
                place.url
            ),
        }],
        next_step: format!(
            "{} forgets its sessions (a restart, a redeploy, an idle expiry, or another replica \
             behind a load balancer): {}; judged under the {rule} rule, each loss is a \
             connection's end and a new initialize; on the server side, keep sessions in a \
             store that outlives a restart (or pin clients to a replica), or run it stateless",
            place.url,
            on_forgotten_session(rule)
        ),
    })
}

/// `get-stream-refused`: the GET stream a host opens after `initialize` was answered neither
/// an event stream nor 405, on a connection that otherwise worked: a server bug whose cost
/// depends on the host, not a restart.
pub(crate) fn get_stream_refused(
    launches: &[Launch],
    setting: &Setting,
    rule: &str,
) -> Option<Diagnosis> {
    let place = Place::of(setting.url.as_deref()?)?;
    let refused: Vec<&Launch> = launches
        .iter()
        .filter(|l| l.report.session.get_refused.is_some())
        .collect();
    let (code, content_type) = refused.first()?.report.session.get_refused.clone()?;
    let numbers: Vec<u32> = refused.iter().map(|l| l.number).collect();
    let answer = if code == 200 {
        format!("200 {content_type}")
    } else {
        format!("HTTP {code}")
    };
    let costs = "Claude Code 2.1.147 reads a 404 there as `MCP session expired` and loses the \
                 server, 2.1.226 fails on a 200 application/json; Cursor (TypeScript SDK) logs \
                 `Failed to open SSE stream` and retries twice; VS Code turns the server's \
                 notifications off; Claude Desktop gave up on a 400";
    Some(Diagnosis {
        id: Id::GetStreamRefused,
        confidence: Confidence::High,
        summary: format!("the GET stream is answered {answer}, not 405"),
        launches: numbers.clone(),
        evidence: vec![Evidence {
            launches: numbers,
            source: Source::Http,
            text: format!(
                "GET {} with the session id and `Accept: text/event-stream`: {answer}, while \
                 its POSTs were answered",
                place.url
            ),
        }],
        next_step: format!(
            "the server is up and keeps its session (its POSTs are answered): this is not a \
             restart; a server with no GET stream must answer 405 (with `Allow: POST`), as the \
             spec says; until it does, the cost depends on the host: {costs}; judged under the \
             {rule} rule, the connection goes on without the server's own messages"
        ),
    })
}
