//! Server entries as the host loads them, for `probe`: binding, environment, token, timings,
//! and every secret an entry holds (for the redactor).

use std::borrow::Cow;

use crate::engine::policy::{EngineKind, Timings};
use crate::engine::redact::Redactor;

use super::binding::resolve;
use super::duplicates::live_members;
use super::entry::ServerEntry;
use super::json::{Doc, Kind};
use super::source::Source;
use super::subst::substituted_values;
use super::values::{js_of, text_of, truthy, Js};
use super::walk::{load, RawEntry};

/// The value nodes of an entry's secrets: `token`, `access` and every env value.
fn secret_nodes(doc: &Doc<'_>, entry: &RawEntry<'_>) -> Vec<u32> {
    let mut ids: Vec<u32> = ["token", "access"]
        .into_iter()
        .filter_map(|name| entry.get_set(doc, name))
        .collect();
    if let Some(env_id) = entry.get_set(doc, "env") {
        if doc.kind(env_id) == Kind::Object {
            ids.extend(doc.children(env_id));
        }
    }
    ids
}

/// Add an entry's secrets to `r`: strings as written and as substituted, numbers as written.
pub(crate) fn add_entry_secrets(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    env: &dyn Fn(&str) -> Option<String>,
    r: &mut Redactor,
) {
    for id in secret_nodes(doc, entry) {
        match doc.kind(id) {
            Kind::String => {
                if let Some(raw) = doc.string(id) {
                    r.add(raw.as_ref());
                }
                if let Some(t) = text_of(doc, id, entry, env) {
                    r.add(t.as_ref());
                }
            }
            Kind::Number => r.add(doc.raw(id)),
            _ => {}
        }
    }
    for v in substituted_in(doc, entry, env) {
        r.add(v);
    }
}

/// The entries as the host loads them, for `probe`.
pub(crate) fn server_entries(
    source: &Source,
    doc: &Doc<'_>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<ServerEntry> {
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    let loaded = load(source, doc, &mut |e, _, _| {
        offsets.push(e.anchor.0);
        entries.push(server_entry(source, doc, &e, env));
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
    env: &dyn Fn(&str) -> Option<String>,
) -> ServerEntry {
    let resolved = resolve(doc, e, &source.dir, env);
    let family = resolved.family().unwrap_or(EngineKind::Legacy);
    let binding = match resolved.problems.first() {
        Some(p) => Err(p.message.clone()),
        None => resolved
            .binding
            .clone()
            .ok_or_else(|| "the host cannot bind this entry".to_string()),
    };
    let js = |name: &str| e.get(name).map(|id| js_of(doc, id, e, env));
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
    let env_pairs = e
        .get_set(doc, "env")
        .filter(|&id| doc.kind(id) == Kind::Object)
        .map(|id| {
            let (members, _) = live_members(doc, id);
            members
                .into_iter()
                .filter_map(|(k, v)| {
                    text_of(doc, v, e, env).map(|t| (k.into_owned(), t.into_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    let inherit_env = e
        .get("inheritEnv")
        .is_some_and(|id| doc.kind(id) == Kind::True);
    let token = e
        .get_set(doc, "token")
        .and_then(|id| text_of(doc, id, e, env))
        .map(Cow::into_owned);
    let request_timeout_ms = e
        .get_set(doc, "requestTimeoutMs")
        .map(|id| js_of(doc, id, e, env).number());
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
        env: env_pairs,
        inherit_env,
        token,
        reconnect,
        timings,
        request_timeout_ms,
        substituted: substituted_in(doc, e, env),
    }
}

/// Every value substitution puts into the entry's strings, at any depth.
fn substituted_in(
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    if !e.table.substitutes_env() {
        return out;
    }
    let mut stack: Vec<u32> = e.fields.iter().map(|(_, id)| *id).collect();
    while let Some(id) = stack.pop() {
        match doc.kind(id) {
            Kind::String => {
                if let Some(s) = doc.string(id) {
                    if s.contains("${") {
                        out.extend(substituted_values(&s, env));
                    }
                }
            }
            Kind::Array | Kind::Object => stack.extend(doc.children(id)),
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}
