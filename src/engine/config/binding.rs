//! An entry's binding, decided the way the host does before launching: transport, family
//! (legacy or modern), command and args, or url; and every binding or protocol error.

use std::path::{Component, Path, PathBuf};

use crate::engine::policy::EngineKind;

use super::draft::describe;
use super::entry::{Binding, Transport};
use super::finding::Code;
use super::host::Host;
use super::json::{Doc, Kind};
use super::values::text_of;
use super::vars::Scope;
use super::walk::RawEntry;

/// Why an entry cannot be bound, or a protocol error.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub code: Code,
    /// The field at fault (`None`: the entry as a whole).
    pub field: Option<&'static str>,
    pub message: String,
}

/// An entry's binding as far as it can be decided, and every binding/protocol error.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// Transport and family when they could be decided (even with a protocol error on a url
    /// server, whose family the scheme still decides).
    pub binding: Option<Binding>,
    pub problems: Vec<Problem>,
}

impl Resolved {
    pub(super) fn family(&self) -> Option<EngineKind> {
        self.binding.as_ref().map(|b| b.family)
    }
}

fn problem(code: Code, field: Option<&'static str>, message: String) -> Problem {
    Problem {
        code,
        field,
        message,
    }
}

/// Decide an entry's transport and family as host-config.md's "Binding" says.
pub(crate) fn resolve(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    dir: &Path,
    env: &Scope<'_>,
) -> Resolved {
    if env.host != Host::AgentFramework {
        return resolve_host(doc, entry, dir, env);
    }
    let mut problems = Vec::new();
    let fail = |problems: Vec<Problem>| Resolved {
        binding: None,
        problems,
    };

    // `transport`
    let transport_id = entry.get_set(doc, "transport");
    let transport = match transport_id {
        None => None,
        Some(id) => match text_of(doc, id, entry, env).as_deref() {
            Some("stdio") => Some(Transport::Stdio),
            Some("websocket") => Some(Transport::Websocket),
            Some("http") => Some(Transport::Http),
            _ => {
                problems.push(problem(
                    Code::Binding,
                    Some("transport"),
                    format!(
                        "`transport` is {} that is not `stdio`, `websocket` or `http`; the host \
                         refuses this server",
                        describe(doc, id)
                    ),
                ));
                return fail(problems);
            }
        },
    };

    // `command`: a non-empty string, or absent.
    let command = match entry.get_set(doc, "command") {
        None => None,
        Some(id) => match text_of(doc, id, entry, env) {
            Some(s) if s.is_empty() => None,
            Some(s) => Some(s.into_owned()),
            None => {
                problems.push(problem(
                    Code::Binding,
                    Some("command"),
                    format!(
                        "`command` is {}, not a string; the host cannot launch this server",
                        describe(doc, id)
                    ),
                ));
                return fail(problems);
            }
        },
    };

    if transport == Some(Transport::Stdio) || (transport.is_none() && command.is_some()) {
        return resolve_stdio(doc, entry, dir, env, command, problems);
    }

    if let Some(url_id) = entry.get_set(doc, "url") {
        return resolve_url(doc, entry, env, url_id, transport, problems);
    }

    if let Some(t) = transport {
        problems.push(problem(
            Code::Binding,
            Some("transport"),
            format!(
                "`transport` is `{}` but there is no `url`; the host refuses this server",
                t.as_str()
            ),
        ));
        return fail(problems);
    }
    problems.push(problem(
        Code::Binding,
        None,
        "this entry has neither `command` nor `url`, so the host can neither launch nor dial it \
         and refuses it"
            .to_string(),
    ));
    fail(problems)
}

/// A stdio entry: its command (given), its protocol and args.
fn resolve_stdio(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    dir: &Path,
    env: &Scope<'_>,
    command: Option<String>,
    mut problems: Vec<Problem>,
) -> Resolved {
    let fail = |problems: Vec<Problem>| Resolved {
        binding: None,
        problems,
    };
    let protocol_id = entry.get_set(doc, "protocol");
    let Some(command) = command else {
        problems.push(problem(
            Code::Binding,
            Some("transport"),
            "the stdio transport requires `command`, and this entry has none; the host \
             refuses this server"
                .to_string(),
        ));
        return fail(problems);
    };
    let family = match protocol_id {
        None => EngineKind::Legacy,
        Some(id) => match text_of(doc, id, entry, env).as_deref() {
            Some("legacy") => EngineKind::Legacy,
            Some("modern") => EngineKind::Modern,
            _ => {
                problems.push(problem(
                    Code::Protocol,
                    Some("protocol"),
                    format!(
                        "`protocol` is {} that is not `legacy` or `modern`; the host \
                         refuses this server",
                        describe(doc, id)
                    ),
                ));
                return fail(problems);
            }
        },
    };
    let args = args_of(doc, entry, dir, env);
    Resolved {
        binding: Some(Binding {
            transport: Transport::Stdio,
            family,
            command: Some(command),
            args,
            url: None,
            sse: false,
        }),
        problems,
    }
}

/// A url entry: the scheme decides transport and family.
fn resolve_url(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    env: &Scope<'_>,
    url_id: u32,
    transport: Option<Transport>,
    mut problems: Vec<Problem>,
) -> Resolved {
    let fail = |problems: Vec<Problem>| Resolved {
        binding: None,
        problems,
    };
    let protocol_id = entry.get_set(doc, "protocol");
    let Some(url_text) = text_of(doc, url_id, entry, env) else {
        problems.push(problem(
            Code::Binding,
            Some("url"),
            format!(
                "`url` is {}, not a string; the host refuses this server",
                describe(doc, url_id)
            ),
        ));
        return fail(problems);
    };
    let parsed = match url::Url::parse(&url_text) {
        Ok(u) => u,
        Err(_) => {
            problems.push(problem(
                Code::Binding,
                Some("url"),
                "`url` cannot be parsed as an absolute URL; the host refuses this server"
                    .to_string(),
            ));
            return fail(problems);
        }
    };
    let by_scheme = match parsed.scheme() {
        "ws" | "wss" => Transport::Websocket,
        "http" | "https" => Transport::Http,
        _ => {
            problems.push(problem(
                Code::Binding,
                Some("url"),
                "`url`'s scheme is not ws, wss, http or https; the host refuses this server"
                    .to_string(),
            ));
            return fail(problems);
        }
    };
    if let Some(t) = transport {
        if t != by_scheme {
            problems.push(problem(
                Code::Binding,
                Some("transport"),
                format!(
                    "`transport` is `{}`, but the url's scheme ({}:) means {}; the host \
                     refuses a transport that disagrees with the scheme",
                    t.as_str(),
                    parsed.scheme(),
                    by_scheme.as_str()
                ),
            ));
            return fail(problems);
        }
    }
    let family = match by_scheme {
        Transport::Http => EngineKind::Modern,
        _ => EngineKind::Legacy,
    };
    if protocol_id.is_some() {
        problems.push(problem(
            Code::Protocol,
            Some("protocol"),
            format!(
                "`protocol` applies to stdio servers only; this is a {} server, whose \
                 family its url decides ({}), and the host refuses `protocol` on it",
                by_scheme.as_str(),
                family_name(family)
            ),
        ));
    }
    Resolved {
        binding: Some(Binding {
            transport: by_scheme,
            family,
            command: None,
            args: Vec::new(),
            url: Some(url_text.into_owned()),
            sse: false,
        }),
        problems,
    }
}

pub(crate) fn family_name(f: EngineKind) -> &'static str {
    match f {
        EngineKind::Legacy => "legacy",
        EngineKind::Modern => "modern",
    }
}

/// `args`: strings, substituted, `./` and `../` ones resolved against `dir`.
pub(super) fn args_of(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    dir: &Path,
    env: &Scope<'_>,
) -> Vec<String> {
    let Some(id) = entry.get_set(doc, "args") else {
        return Vec::new();
    };
    if doc.kind(id) != Kind::Array {
        return Vec::new();
    }
    doc.children(id)
        .filter_map(|a| text_of(doc, a, entry, env))
        .map(|a| {
            let relative = a.starts_with("./") || a.starts_with("../");
            if relative && env.host.resolves_relative_args() {
                normalize(&dir.join(a.as_ref()))
                    .to_string_lossy()
                    .into_owned()
            } else {
                a.into_owned()
            }
        })
        .collect()
}

/// `.` and `..` removed lexically, as Node's `path.resolve` does.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// What a host's `type` says about an entry's transport.
enum Via {
    Stdio,
    /// Streamable HTTP (the era is detected).
    Http,
    /// The legacy HTTP+SSE transport.
    Sse,
}

/// An entry of a host other than agent-framework: its `type` (Cline's `transportType`)
/// decides, else `command` means stdio and a url means HTTP (Cline: SSE).
fn resolve_host(doc: &Doc<'_>, entry: &RawEntry<'_>, dir: &Path, scope: &Scope<'_>) -> Resolved {
    let host = scope.host;
    let (written, type_field) = match written_via(doc, entry, scope) {
        Ok(w) => w,
        Err(refused) => return refused,
    };
    let url_key = host.url_key();
    let url = entry.get_set(doc, url_key);
    let kind = match written {
        Some(k) => k,
        None => match implied_via(doc, entry, host, url.is_some()) {
            Ok(k) => k,
            Err(refused) => return refused,
        },
    };
    if let Via::Stdio = kind {
        return host_stdio(doc, entry, dir, scope);
    }
    let Some(url_id) = url else {
        return refused(
            type_field,
            format!(
                "a remote server needs `{url_key}`; {} refuses this one",
                host.title()
            ),
        );
    };
    host_url(doc, entry, scope, url_id, matches!(kind, Via::Sse))
}

/// A `binding` problem that leaves the entry unresolved.
fn refused(field: Option<&'static str>, message: String) -> Resolved {
    Resolved {
        binding: None,
        problems: vec![problem(Code::Binding, field, message)],
    }
}

/// The transport the entry's `type` names (Cline's `transportType` too), and that field; no
/// transport when none is written; a value the host does not know is refused.
fn written_via(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> Result<(Option<Via>, Option<&'static str>), Resolved> {
    let host = scope.host;
    let type_field = ["type", "transportType"]
        .into_iter()
        .find(|f| entry.get_set(doc, f).is_some() && (host == Host::Cline || *f == "type"));
    let Some((f, id)) = type_field.and_then(|f| entry.get_set(doc, f).map(|id| (f, id))) else {
        return Ok((None, type_field));
    };
    let via = match text_of(doc, id, entry, scope).as_deref() {
        Some("stdio" | "local") => Via::Stdio,
        Some("http" | "streamable-http" | "streamableHttp") => Via::Http,
        Some("sse") => Via::Sse,
        _ => {
            return Err(refused(
                Some(f),
                format!(
                    "`{f}` is {} that {} does not know (stdio, http or sse); it refuses \
                     this server",
                    describe(doc, id),
                    host.title()
                ),
            ))
        }
    };
    Ok((Some(via), type_field))
}

/// The transport an entry without `type` implies: `command` means stdio, a url HTTP (Cline:
/// SSE); neither is refused, naming the other host's url key when that is what is written.
fn implied_via(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    host: Host,
    has_url: bool,
) -> Result<Via, Resolved> {
    let url_key = host.url_key();
    if entry.get_set(doc, "command").is_some() {
        return Ok(Via::Stdio);
    }
    if has_url {
        return Ok(if host == Host::Cline {
            Via::Sse
        } else {
            Via::Http
        });
    }
    let other = if url_key == "url" && entry.get_set(doc, "serverUrl").is_some() {
        " (`serverUrl` is Windsurf's key; this host reads `url`)"
    } else if url_key == "serverUrl" && entry.get_set(doc, "url").is_some() {
        " (Windsurf reads a remote server's address from `serverUrl`, not `url`)"
    } else {
        ""
    };
    Err(refused(
        None,
        format!(
            "this entry has neither `command` nor `{url_key}`{other}, so {} can neither \
             launch nor dial it",
            host.title()
        ),
    ))
}

/// A stdio entry of a host other than agent-framework: its command (a non-empty string, else
/// refused) and its arguments.
fn host_stdio(doc: &Doc<'_>, entry: &RawEntry<'_>, dir: &Path, scope: &Scope<'_>) -> Resolved {
    let host = scope.host;
    let command = entry
        .get_set(doc, "command")
        .map(|id| (id, text_of(doc, id, entry, scope)));
    let command = match command {
        Some((_, Some(c))) if !c.is_empty() => c.into_owned(),
        Some((id, Some(_))) | Some((id, None)) if doc.kind(id) != Kind::String => {
            return refused(
                Some("command"),
                format!(
                    "`command` is {}, not a string; {} cannot launch this server",
                    describe(doc, id),
                    host.title()
                ),
            )
        }
        _ => {
            return refused(
                Some("command"),
                format!(
                    "a stdio server needs a `command`; {} refuses this one",
                    host.title()
                ),
            )
        }
    };
    Resolved {
        binding: Some(Binding {
            transport: Transport::Stdio,
            family: EngineKind::Legacy,
            command: Some(command),
            args: args_of(doc, entry, dir, scope),
            url: None,
            sse: false,
        }),
        problems: Vec::new(),
    }
}

/// A remote entry of a host other than agent-framework: an http:// or https:// URL.
fn host_url(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    scope: &Scope<'_>,
    url_id: u32,
    sse: bool,
) -> Resolved {
    let url_key = scope.host.url_key();
    let text = text_of(doc, url_id, entry, scope).unwrap_or_default();
    match url::Url::parse(&text) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Resolved {
            binding: Some(Binding {
                transport: Transport::Http,
                family: EngineKind::Modern,
                command: None,
                args: Vec::new(),
                url: Some(text.into_owned()),
                sse,
            }),
            problems: Vec::new(),
        },
        _ => Resolved {
            binding: None,
            problems: vec![problem(
                Code::Binding,
                Some(if url_key == "url" { "url" } else { "serverUrl" }),
                format!(
                    "`{url_key}` is not an http:// or https:// URL; {} refuses this server",
                    scope.host.title()
                ),
            )],
        },
    }
}
