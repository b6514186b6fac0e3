//! Server entries as the host loads them, for `probe`: binding, environment, token, timings,
//! and every secret an entry holds (for the redactor).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::engine::policy::{EngineKind, Timings};
use crate::engine::redact::Redactor;

use super::binding::resolve;
use super::duplicates::live_members;
use super::entry::{BindingRefusal, ServerEntry};
use super::envfile;
use super::host::Host;
use super::json::{Doc, Kind};
use super::source::Source;
use super::subst::substituted_values;
use super::values::{js_of, text_of, truthy, Js};
use super::vars::{expand, reference_only, Scope};
use super::walk::{load, RawEntry};

/// The value nodes of an entry's secrets: `token`, `access`, every env value and every
/// header value.
fn secret_nodes(doc: &Doc<'_>, entry: &RawEntry<'_>) -> Vec<u32> {
    let mut ids: Vec<u32> = ["token", "access"]
        .into_iter()
        .filter_map(|name| entry.get_set(doc, name))
        .collect();
    for table in ["env", "headers"] {
        if let Some(id) = entry.get_set(doc, table) {
            if doc.kind(id) == Kind::Object {
                ids.extend(doc.children(id));
            }
        }
    }
    ids
}

/// Add an entry's secrets to `r`: strings as written and as substituted, numbers as written.
pub(crate) fn add_entry_secrets(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    scope: &Scope<'_>,
    r: &mut Redactor,
) {
    // A value that is only `${...}` references, left as written, names variables: no secret.
    let named_only = |s: &str| scope.host != Host::AgentFramework && reference_only(s);
    for id in secret_nodes(doc, entry) {
        match doc.kind(id) {
            Kind::String => {
                if let Some(raw) = doc.string(id).filter(|s| !named_only(s)) {
                    r.add_found(raw.as_ref());
                }
                if let Some(t) = text_of(doc, id, entry, scope).filter(|s| !named_only(s)) {
                    for v in crate::engine::redact::secrets_in_text(&t) {
                        r.add(v);
                    }
                    r.add_found(t.as_ref());
                }
            }
            // A number (`"PORT": 8080`, `"TIMEOUT": 5`) cannot be a secret: never masked.
            Kind::Number => r.add_found(doc.raw(id)),
            _ => {}
        }
    }
    for v in substituted_in(doc, entry, scope).0 {
        r.add_found(v);
    }
    // Secrets in the arguments' shapes (`--token VALUE`, `GITHUB_TOKEN=...`, a header, a URL's
    // password), as the probe masks them.
    let args = super::binding::args_of(doc, entry, std::path::Path::new("."), scope);
    for v in crate::engine::redact::secret_args(&args) {
        if !named_only(&v) {
            r.add(v);
        }
    }
}

/// The entries as the host loads them, for `probe`.
pub(crate) fn server_entries(
    source: &Source,
    doc: &Doc<'_>,
    scope: &Scope<'_>,
) -> Vec<ServerEntry> {
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    let loaded = load(source, doc, scope.host, &mut |e, _, _| {
        offsets.push(e.anchor.0);
        entries.push(server_entry(source, doc, &e, scope));
    });
    let positions = loaded.lines.positions(doc.text(), &offsets);
    for (entry, (line, column)) in entries.iter_mut().zip(positions) {
        entry.line = line;
        entry.column = column;
    }
    entries
}

/// One entry as the host loads it (line and column are filled in by the caller).
fn server_entry(
    source: &Source,
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> ServerEntry {
    let resolved = resolve(doc, e, &source.dir, scope);
    let family = resolved.family().unwrap_or(EngineKind::Legacy);
    let binding = match resolved.problems.first() {
        Some(p) => Err(BindingRefusal(p.message.clone())),
        None => resolved
            .binding
            .clone()
            .ok_or_else(|| BindingRefusal("the host cannot bind this entry".to_string())),
    };
    let js = |name: &str| e.get(name).map(|id| js_of(doc, id, e, scope));
    let reconnect = match js("reconnect") {
        None => false,
        Some(v) => match family {
            EngineKind::Modern => matches!(v, Js::Bool(true)),
            EngineKind::Legacy => truthy(&v),
        },
    };
    let interval = js("reconnectIntervalMs");
    let cap = js("reconnectMaxIntervalMs");
    let interval_v = interval.as_ref().map(Js::value);
    let cap_v = cap.as_ref().map(Js::value);
    let timings = Timings::from_json(interval_v.as_ref(), cap_v.as_ref());
    let (env_pairs, env_unset, file_secrets) = env_of(source, doc, e, scope);
    let inherit_env = e
        .get("inheritEnv")
        .is_some_and(|id| doc.kind(id) == Kind::True);
    let token = e
        .get_set(doc, "token")
        .and_then(|id| text_of(doc, id, e, scope))
        .map(Cow::into_owned);
    let request_timeout_ms = e
        .get_set(doc, "requestTimeoutMs")
        .map(|id| js_of(doc, id, e, scope).number());
    let (mut substituted, missing_inputs) = substituted_in(doc, e, scope);
    substituted.extend(file_secrets);
    ServerEntry {
        id: e.id.clone(),
        file: source.name.clone(),
        path: e.path.clone(),
        line: 0,
        column: 0,
        table: e.table,
        disabled: e
            .get("disabled")
            .is_some_and(|id| doc.kind(id) == Kind::True),
        is_override: e.is_override,
        binding,
        host: scope.host,
        env_rule: scope.host.env_rule(),
        env: env_pairs,
        env_unset,
        cwd: cwd_of(source, doc, e, scope),
        missing_inputs,
        inherit_env,
        token,
        headers: headers_of(doc, e, scope),
        reconnect,
        timings,
        request_timeout_ms,
        substituted,
    }
}

/// Every value substitution puts into the entry's strings, at any depth; and the inputs its
/// strings name that were not given.
fn substituted_in(
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    let agent = scope.host == Host::AgentFramework;
    if agent && !e.table.substitutes_env() {
        return (out, missing);
    }
    let mut stack: Vec<u32> = e.fields.iter().map(|(_, id)| *id).collect();
    while let Some(id) = stack.pop() {
        match doc.kind(id) {
            Kind::String => {
                if let Some(s) = doc.string(id) {
                    if s.contains("${") && agent {
                        out.extend(substituted_values(&s, scope.env));
                    } else if s.contains("${") {
                        let x = expand(&s, scope);
                        out.extend(x.secrets);
                        missing.extend(x.missing_inputs);
                    }
                }
            }
            Kind::Array | Kind::Object => stack.extend(doc.children(id)),
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    missing.sort();
    missing.dedup();
    (out, missing)
}

/// A path an entry names, expanded, relative ones read from the workspace folder (else the
/// file's folder).
fn entry_path(source: &Source, scope: &Scope<'_>, written: &str) -> PathBuf {
    let p = Path::new(written);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    scope
        .workspace
        .clone()
        .unwrap_or_else(|| source.dir.clone())
        .join(p)
}

/// The file `envFile` names, when the host reads one and the entry has it.
pub(crate) fn env_file_of(
    source: &Source,
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> Option<(u32, PathBuf)> {
    if !scope.host.reads_env_file() {
        return None;
    }
    let id = e.get_set(doc, "envFile")?;
    let text = text_of(doc, id, e, scope)?;
    Some((id, entry_path(source, scope, &text)))
}

/// The entry's variables as the host adds them (the `envFile`'s, then `env`'s on top), the
/// variables it unsets (`null`, VS Code), and the env file's values (secrets).
fn env_of(
    source: &Source,
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut unset = Vec::new();
    let mut secrets = Vec::new();
    if let Some((_, path)) = env_file_of(source, doc, e, scope) {
        // Capped and never blocking (a FIFO, `/dev/zero`): a file refused here is refused
        // with its reason by the entry's checks (`env-file-missing`), so the entry is not run.
        if let Ok(bytes) =
            crate::engine::infile::read_whole(&path, crate::engine::infile::MAX_ENV_FILE)
        {
            let text = String::from_utf8_lossy(&bytes);
            for (k, v) in envfile::parse(&text) {
                secrets.push(v.clone());
                pairs.retain(|(n, _)| *n != k);
                pairs.push((k, v));
            }
        }
    }
    let agent = scope.host == Host::AgentFramework;
    if let Some(id) = e
        .get_set(doc, "env")
        .filter(|&id| doc.kind(id) == Kind::Object)
    {
        let (members, _) = live_members(doc, id);
        for (k, v) in members {
            let value = match doc.kind(v) {
                Kind::Null if scope.host == Host::Vscode => {
                    pairs.retain(|(n, _)| *n != k);
                    unset.push(k.into_owned());
                    continue;
                }
                Kind::Number if !agent => Some(doc.raw(v).to_string()),
                _ => text_of(doc, v, e, scope).map(Cow::into_owned),
            };
            if let Some(value) = value {
                pairs.retain(|(n, _)| *n != k);
                pairs.push((k.into_owned(), value));
            }
        }
    }
    (pairs, unset, secrets)
}

/// The entry's `headers`, where the host reads them: each string member, expanded as the host
/// does (an unset variable as the host leaves it); other values are not sent.
fn headers_of(doc: &Doc<'_>, e: &RawEntry<'_>, scope: &Scope<'_>) -> Vec<(String, String)> {
    if !scope.host.extra_fields().contains(&"headers") {
        return Vec::new();
    }
    let Some(id) = e
        .get_set(doc, "headers")
        .filter(|&id| doc.kind(id) == Kind::Object)
    else {
        return Vec::new();
    };
    let (members, _) = live_members(doc, id);
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in members {
        if let Some(value) = text_of(doc, v, e, scope) {
            out.retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
            out.push((k.into_owned(), value.into_owned()));
        }
    }
    out
}

/// The folder the host launches the server in: its `cwd` where the host reads one, else the
/// workspace folder where the host launches there; `None`: wherever the host itself runs.
fn cwd_of(source: &Source, doc: &Doc<'_>, e: &RawEntry<'_>, scope: &Scope<'_>) -> Option<PathBuf> {
    let written = scope
        .host
        .reads_cwd()
        .then(|| e.get_set(doc, "cwd"))
        .flatten()
        .and_then(|id| text_of(doc, id, e, scope));
    match written {
        Some(w) if !w.is_empty() => Some(entry_path(source, scope, &w)),
        _ if scope.host.launches_in_workspace() => scope.workspace.clone(),
        _ => None,
    }
}
