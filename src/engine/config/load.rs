//! From a parsed document to server entries: find every server table anywhere in the document
//! (walking iteratively, so depth costs no stack), apply `JSON.parse`'s last-wins rule to
//! duplicate keys, and resolve each entry's binding the way the host does before launching.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use crate::engine::policy::jsnum::{self, JsValue};
use crate::engine::policy::{EngineKind, Timings};
use crate::engine::redact::Redactor;

use super::fields;
use super::json::{Doc, Kind, ROOT};
use super::source::{LineIndex, Source};
use super::subst::{substitute, substituted_values};
use super::{Binding, Code, ServerEntry, TableKind, Transport};

/// A finding before its position is turned into line:column and its snippet is cut.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    pub code: Code,
    /// Byte span of the offending value (or key).
    pub span: (usize, usize),
    /// A token boundary at or before `span.0` (the member's key), where a snippet may start.
    pub anchor: usize,
    /// The kind to show instead of the value when the value is not a number.
    pub mask: Option<&'static str>,
    pub path: String,
    pub server: Option<String>,
    pub field: Option<String>,
    pub message: String,
}

impl Draft {
    /// A finding about a value: the caret goes under the value, which is masked unless it is a
    /// number.
    pub fn at_value(doc: &Doc<'_>, id: u32, code: Code, path: String, message: String) -> Draft {
        let n = doc.node(id);
        Draft {
            code,
            span: (n.start(), n.end()),
            anchor: n.key_start().unwrap_or(n.start()),
            mask: mask_for(doc.kind(id)),
            path,
            server: None,
            field: None,
            message,
        }
    }

    /// A finding about a member's key (the caret goes under the key, shown as written).
    pub fn at_key(doc: &Doc<'_>, id: u32, code: Code, path: String, message: String) -> Draft {
        let n = doc.node(id);
        let span = doc.key_span(id).unwrap_or((n.start(), n.end()));
        Draft {
            code,
            span,
            anchor: span.0,
            mask: None,
            path,
            server: None,
            field: None,
            message,
        }
    }

    pub fn server(mut self, id: &str) -> Draft {
        self.server = Some(id.to_string());
        self
    }

    pub fn field(mut self, name: &str) -> Draft {
        self.field = Some(name.to_string());
        self
    }
}

/// What replaces a value that is not a number in a snippet.
fn mask_for(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Number => None,
        Kind::Null => Some("null"),
        Kind::True | Kind::False => Some("a boolean"),
        Kind::String => Some("a string"),
        Kind::Array => Some("an array"),
        Kind::Object => Some("an object"),
    }
}

/// A value described without showing it unless it is a number: `0`, `1e400`, `a string`.
pub(crate) fn describe(doc: &Doc<'_>, id: u32) -> String {
    match doc.kind(id) {
        Kind::Number => {
            let raw = doc.raw(id);
            if raw.chars().count() > 40 {
                "a very long number".to_string()
            } else {
                raw.to_string()
            }
        }
        other => mask_for(other).unwrap_or("a value").to_string(),
    }
}

/// One step of a JSON path.
#[derive(Debug, Clone, Copy)]
enum Seg {
    Member(u32),
    Index(usize),
}

/// Paths longer than this many steps are shown with their middle elided.
const PATH_KEEP: usize = 12;

fn push_key(out: &mut String, key: &str) {
    let ident = key.chars().enumerate().all(|(i, c)| {
        c == '_' || c == '$' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())
    });
    if ident && !key.is_empty() {
        out.push('.');
        out.push_str(key);
    } else {
        let shown: String = if key.chars().count() > 60 {
            key.chars().take(60).chain("…".chars()).collect()
        } else {
            key.to_string()
        };
        out.push('[');
        out.push_str(&serde_json::to_string(&shown).unwrap_or_else(|_| "\"?\"".to_string()));
        out.push(']');
    }
}

fn push_seg(out: &mut String, doc: &Doc<'_>, seg: Seg) {
    match seg {
        Seg::Member(id) => push_key(out, &doc.key(id).unwrap_or(Cow::Borrowed(""))),
        Seg::Index(i) => out.push_str(&format!("[{i}]")),
    }
}

fn render_path(doc: &Doc<'_>, segs: &[Seg]) -> String {
    let mut out = String::from("$");
    if segs.len() <= 2 * PATH_KEEP {
        for s in segs {
            push_seg(&mut out, doc, *s);
        }
    } else {
        for s in &segs[..PATH_KEEP] {
            push_seg(&mut out, doc, *s);
        }
        out.push_str(&format!("…({} steps)…", segs.len() - 2 * PATH_KEEP));
        for s in &segs[segs.len() - PATH_KEEP..] {
            push_seg(&mut out, doc, *s);
        }
    }
    out
}

/// `base` plus one key.
pub(crate) fn child_path(base: &str, key: &str) -> String {
    let mut out = base.to_string();
    push_key(&mut out, key);
    out
}

/// A server entry as found, before any check.
#[derive(Debug)]
pub(crate) struct RawEntry<'t> {
    pub id: String,
    pub table: TableKind,
    pub path: String,
    /// Where entry-level findings point: the entry's key (object-keyed tables) or its `{`.
    pub anchor: (usize, usize),
    /// Live members (last one wins), by name.
    pub fields: Vec<(Cow<'t, str>, u32)>,
    /// A policy-only override (recipe or agent overlay): no launch fields at all.
    pub is_override: bool,
}

impl RawEntry<'_> {
    /// The field's value node (present, possibly `null`).
    pub fn get(&self, name: &str) -> Option<u32> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, id)| *id)
    }

    /// The field's value node when present and not `null` (null reads as absent).
    pub fn get_set(&self, doc: &Doc<'_>, name: &str) -> Option<u32> {
        self.get(name).filter(|&id| doc.kind(id) != Kind::Null)
    }

    pub fn field_path(&self, name: &str) -> String {
        child_path(&self.path, name)
    }
}

/// Everything found in one document.
pub(crate) struct Loaded {
    pub lines: LineIndex,
    /// Server entries found (each was handed to the visitor).
    pub entries: usize,
    /// Tokens, `access` and env values written as JSON numbers, in any entry (ignored duplicates
    /// included): a snippet shows numbers, so these are masked there. Strings need no list: a
    /// snippet masks every string.
    pub numeric_secrets: std::collections::HashSet<String>,
    pub tables: usize,
    /// Whether a table whose format is plain JSON (`mcplServers`, `mcpServers`) was found.
    pub plain_json_table: bool,
    pub drafts: Vec<Draft>,
}

/// Members of an object that `JSON.parse` keeps (the last of each key), in order, and the
/// ignored ones each with the member that overrides it.
/// Members by name, in order.
type Members<'t> = Vec<(Cow<'t, str>, u32)>;

fn live_members<'t>(doc: &Doc<'t>, obj: u32) -> (Members<'t>, Vec<(u32, u32)>) {
    let all: Vec<(Cow<'t, str>, u32)> = doc
        .children(obj)
        .map(|id| (doc.key(id).unwrap_or(Cow::Borrowed("")), id))
        .collect();
    // Where each key last appears: a linear scan for small objects, a map for large ones.
    let winners: Vec<usize> = if all.len() <= 16 {
        (0..all.len())
            .map(|i| {
                (i..all.len())
                    .rev()
                    .find(|&j| all[j].0 == all[i].0)
                    .unwrap_or(i)
            })
            .collect()
    } else {
        let mut last: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(all.len());
        for (i, (k, _)) in all.iter().enumerate() {
            last.insert(k.as_ref(), i);
        }
        all.iter()
            .enumerate()
            .map(|(i, (k, _))| last.get(k.as_ref()).copied().unwrap_or(i))
            .collect()
    };
    if winners.iter().enumerate().all(|(i, w)| *w == i) {
        return (all, Vec::new());
    }
    let mut dups = Vec::new();
    let mut keep = vec![false; all.len()];
    for (i, (_, id)) in all.iter().enumerate() {
        let winner = winners[i];
        if winner == i {
            keep[i] = true;
        } else {
            dups.push((*id, all[winner].1));
        }
    }
    let live = all
        .into_iter()
        .zip(keep)
        .filter_map(|(m, k)| k.then_some(m))
        .collect();
    (live, dups)
}

/// Findings for keys `JSON.parse` ignores. `server`: the entry the object belongs to;
/// `table_level`: the object is a server table, so each key is a server id.
fn duplicate_drafts(
    doc: &Doc<'_>,
    lines: &LineIndex,
    dups: &[(u32, u32)],
    base_path: &str,
    server: Option<&str>,
    table_level: bool,
) -> Vec<Draft> {
    dups.iter()
        .map(|&(ignored, winner)| {
            let key = doc.key(ignored).unwrap_or(Cow::Borrowed(""));
            let at = doc.key_span(winner).map_or(0, |s| s.0);
            let line = lines.line_of(at) + 1;
            let message = if table_level {
                format!(
                    "server id `{}` appears again later in this table (line {line}); JSON.parse \
                     keeps the last entry, so the host ignores this one",
                    short(&key)
                )
            } else {
                format!(
                    "`{}` appears again later in the same object (line {line}); JSON.parse keeps \
                     the last one, so the host ignores this one and its value",
                    short(&key)
                )
            };
            let d = Draft::at_key(
                doc,
                ignored,
                Code::DuplicateKey,
                child_path(base_path, &key),
                message,
            );
            match (table_level, server) {
                (true, _) => d.server(&key),
                (false, Some(s)) => d.server(s).field(&key),
                (false, None) => d,
            }
        })
        .collect()
}

/// Nested objects inside an entry's fields are read no deeper than this for duplicate keys.
const NESTED_DEPTH: usize = 32;

/// Whether an object has a key twice (no allocation for keys without escapes).
fn has_duplicate_keys(doc: &Doc<'_>, obj: u32) -> bool {
    let keys: Vec<Cow<'_, str>> = doc.children(obj).filter_map(|m| doc.key(m)).collect();
    if keys.len() > 16 {
        let mut seen = std::collections::HashSet::with_capacity(keys.len());
        return !keys.iter().all(|k| seen.insert(k.as_ref()));
    }
    keys.iter()
        .enumerate()
        .any(|(i, k)| keys[i + 1..].contains(k))
}

/// Whether any object in a field's value (down to `NESTED_DEPTH`) has a duplicate key.
fn nested_has_duplicates(doc: &Doc<'_>, value: u32) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > NESTED_DEPTH {
            continue;
        }
        match doc.kind(node) {
            Kind::Object if has_duplicate_keys(doc, node) => return true,
            Kind::Object | Kind::Array => {
                stack.extend(
                    doc.children(node)
                        .filter(|&c| matches!(doc.kind(c), Kind::Object | Kind::Array))
                        .map(|c| (c, depth + 1)),
                );
            }
            _ => {}
        }
    }
    false
}

/// Duplicate keys inside an entry's field values (`env`, policy objects), named by the field.
fn nested_duplicates(
    doc: &Doc<'_>,
    fields: &[(Cow<'_, str>, u32)],
    entry_path: &str,
    server: &str,
    loaded: &mut Loaded,
) {
    for (name, id) in fields {
        if !matches!(doc.kind(*id), Kind::Object | Kind::Array) || !nested_has_duplicates(doc, *id)
        {
            continue;
        }
        let mut stack = vec![(*id, child_path(entry_path, name), 0usize)];
        while let Some((node, path, depth)) = stack.pop() {
            if depth > NESTED_DEPTH {
                continue;
            }
            match doc.kind(node) {
                Kind::Object => {
                    let (live, dups) = live_members(doc, node);
                    let drafts =
                        duplicate_drafts(doc, &loaded.lines, &dups, &path, Some(server), false);
                    loaded
                        .drafts
                        .extend(drafts.into_iter().map(|d| d.field(name)));
                    for (k, c) in live.iter().rev() {
                        if matches!(doc.kind(*c), Kind::Object | Kind::Array) {
                            stack.push((*c, child_path(&path, k), depth + 1));
                        }
                    }
                }
                Kind::Array => {
                    let kids: Vec<u32> = doc.children(node).collect();
                    for (i, c) in kids.into_iter().enumerate().rev() {
                        if matches!(doc.kind(c), Kind::Object | Kind::Array) {
                            stack.push((c, format!("{path}[{i}]"), depth + 1));
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn table_kind(key: &str) -> Option<TableKind> {
    match key {
        "mcplServers" => Some(TableKind::McplServers),
        "mcpServers" => Some(TableKind::McpServers),
        "servers" => Some(TableKind::Servers),
        _ => None,
    }
}

struct Frame<'t> {
    object: bool,
    kids: Vec<(Cow<'t, str>, u32)>,
    at: usize,
}

/// Called with each entry as it is found (so entries need not all be kept), with the findings
/// so far and how many there were before this entry's own (its duplicate keys).
pub(crate) type Visit<'v, 't> = dyn FnMut(RawEntry<'t>, &mut Vec<Draft>, usize) + 'v;

/// Find every table and entry in `doc`, handing each entry to `visit`.
pub(crate) fn load<'t>(source: &Source, doc: &Doc<'t>, visit: &mut Visit<'_, 't>) -> Loaded {
    let mut loaded = Loaded {
        lines: LineIndex::new(doc.text()),
        entries: 0,
        numeric_secrets: std::collections::HashSet::new(),
        tables: 0,
        plain_json_table: false,
        drafts: Vec::new(),
    };
    let overlay = source.name.ends_with(".agent.json");
    let mut segs: Vec<Seg> = Vec::new();
    let mut stack: Vec<Frame<'t>> = Vec::new();
    if let Some(frame) = open_frame(doc, ROOT, &segs, &mut loaded) {
        stack.push(frame);
    }
    while let Some(top) = stack.last_mut() {
        if top.at >= top.kids.len() {
            stack.pop();
            segs.pop();
            continue;
        }
        let idx = top.at;
        top.at += 1;
        let child = top.kids[idx].1;
        let object = top.object;
        let seg = if object {
            Seg::Member(child)
        } else {
            Seg::Index(idx)
        };
        if object {
            let key = doc.key(child).unwrap_or(Cow::Borrowed(""));
            if let Some(kind) = table_kind(&key) {
                segs.push(seg);
                let path = render_path(doc, &segs);
                let handled = read_table(doc, child, kind, &path, overlay, &mut loaded, visit);
                segs.pop();
                if handled {
                    continue;
                }
            } else if let Some(meant) = fields::suggest_table_key(&key) {
                if matches!(doc.kind(child), Kind::Object | Kind::Array) {
                    segs.push(seg);
                    let path = render_path(doc, &segs);
                    segs.pop();
                    loaded.drafts.push(Draft::at_key(
                        doc,
                        child,
                        Code::UnknownField,
                        path,
                        format!(
                            "`{}` is not a key hosts read servers from; did you mean `{meant}`? \
                             The host ignores it and reads no server from it",
                            short(&key)
                        ),
                    ));
                }
            }
        }
        if matches!(doc.kind(child), Kind::Object | Kind::Array) {
            segs.push(seg);
            if let Some(frame) = open_frame(doc, child, &segs, &mut loaded) {
                stack.push(frame);
            } else {
                segs.pop();
            }
        }
    }
    loaded
}

fn open_frame<'t>(
    doc: &Doc<'t>,
    node: u32,
    segs: &[Seg],
    loaded: &mut Loaded,
) -> Option<Frame<'t>> {
    match doc.kind(node) {
        Kind::Object => {
            let (kids, dups) = live_members(doc, node);
            if !dups.is_empty() {
                let path = render_path(doc, segs);
                let drafts = duplicate_drafts(doc, &loaded.lines, &dups, &path, None, false);
                loaded.drafts.extend(drafts);
            }
            Some(Frame {
                object: true,
                kids,
                at: 0,
            })
        }
        Kind::Array => Some(Frame {
            object: false,
            kids: doc
                .children(node)
                .map(|id| (Cow::Borrowed(""), id))
                .collect(),
            at: 0,
        }),
        _ => None,
    }
}

/// Read a table; `false` when the member is not a table after all (a `servers` key holding
/// something else than an object is walked as ordinary data).
fn read_table<'t>(
    doc: &Doc<'t>,
    table: u32,
    kind: TableKind,
    path: &str,
    overlay: bool,
    loaded: &mut Loaded,
    visit: &mut Visit<'_, 't>,
) -> bool {
    let value_kind = doc.kind(table);
    match (kind, value_kind) {
        (_, Kind::Null) => return true,
        (TableKind::Servers, k) if k != Kind::Object => return false,
        (TableKind::McplServers, Kind::Array) | (_, Kind::Object) => {}
        _ => {
            let expects = if kind == TableKind::McplServers {
                "an object keyed by server id, or an array of entries each with an `id`"
            } else {
                "an object keyed by server id"
            };
            loaded.drafts.push(Draft::at_value(
                doc,
                table,
                Code::ServerTable,
                path.to_string(),
                format!(
                    "`{}` is {}; the host expects {expects}, so it reads no server from it",
                    kind.key(),
                    describe(doc, table)
                ),
            ));
            return true;
        }
    }
    loaded.tables += 1;
    for entry in doc.children(table) {
        collect_numeric_secrets(doc, entry, &mut loaded.numeric_secrets);
    }
    if kind != TableKind::Servers {
        loaded.plain_json_table = true;
    }
    let policy_only_allowed = kind.substitutes_env() || overlay;
    if value_kind == Kind::Object {
        let (members, dups) = live_members(doc, table);
        let d = duplicate_drafts(doc, &loaded.lines, &dups, path, None, true);
        loaded.drafts.extend(d);
        for (key, member) in members {
            let entry_path = child_path(path, &key);
            if doc.kind(member) != Kind::Object {
                loaded.drafts.push(
                    Draft::at_value(
                        doc,
                        member,
                        Code::EntryNotObject,
                        entry_path,
                        format!(
                            "this `{}` entry is {}, not an object, so the host cannot read a \
                             server from it",
                            kind.key(),
                            describe(doc, member)
                        ),
                    )
                    .server(&key),
                );
                continue;
            }
            let mark = loaded.drafts.len();
            let (fields, dups) = live_members(doc, member);
            let id_field = fields
                .iter()
                .find(|(k, _)| k == "id")
                .and_then(|(_, v)| doc.string(*v))
                .filter(|s| !s.is_empty());
            let id = id_field.map_or_else(|| key.to_string(), |s| s.into_owned());
            let d = duplicate_drafts(doc, &loaded.lines, &dups, &entry_path, Some(&id), false);
            loaded.drafts.extend(d);
            nested_duplicates(doc, &fields, &entry_path, &id, loaded);
            let anchor = doc
                .key_span(member)
                .unwrap_or((doc.node(member).start(), doc.node(member).start() + 1));
            push_entry(
                loaded,
                visit,
                mark,
                id,
                kind,
                entry_path,
                anchor,
                fields,
                policy_only_allowed,
            );
        }
    } else {
        for (i, element) in doc.children(table).enumerate() {
            let entry_path = format!("{path}[{i}]");
            if doc.kind(element) != Kind::Object {
                loaded.drafts.push(Draft::at_value(
                    doc,
                    element,
                    Code::EntryNotObject,
                    entry_path,
                    format!(
                        "this `mcplServers` array entry is {}, not an object, so the host cannot \
                         read a server from it",
                        describe(doc, element)
                    ),
                ));
                continue;
            }
            let start = doc.node(element).start();
            let mark = loaded.drafts.len();
            let (fields, dups) = live_members(doc, element);
            let id = fields
                .iter()
                .find(|(k, _)| k == "id")
                .and_then(|(_, v)| doc.string(*v))
                .filter(|s| !s.is_empty())
                .map(Cow::into_owned);
            let Some(id) = id else {
                let mut d = Draft::at_value(
                    doc,
                    element,
                    Code::MissingId,
                    entry_path,
                    "this `mcplServers` array entry has no `id` (a non-empty string); the host \
                     needs one for tool prefixes, traces and alerts and refuses the entry"
                        .to_string(),
                );
                d.span = (start, start + 1);
                d.mask = None;
                loaded.drafts.push(d);
                continue;
            };
            let d = duplicate_drafts(doc, &loaded.lines, &dups, &entry_path, Some(&id), false);
            loaded.drafts.extend(d);
            nested_duplicates(doc, &fields, &entry_path, &id, loaded);
            push_entry(
                loaded,
                visit,
                mark,
                id,
                kind,
                entry_path,
                (start, start + 1),
                fields,
                policy_only_allowed,
            );
        }
    }
    true
}

#[allow(clippy::too_many_arguments)]
fn push_entry<'t>(
    loaded: &mut Loaded,
    visit: &mut Visit<'_, 't>,
    mark: usize,
    id: String,
    table: TableKind,
    path: String,
    anchor: (usize, usize),
    fields: Vec<(Cow<'t, str>, u32)>,
    policy_only_allowed: bool,
) {
    let is_override =
        policy_only_allowed && !fields.iter().any(|(k, _)| fields::is_launch_field(k));
    loaded.entries += 1;
    let entry = RawEntry {
        id,
        table,
        path,
        anchor,
        fields,
        is_override,
    };
    visit(entry, &mut loaded.drafts, mark);
}

/// A value's text at load: a string, decoded, with `${VAR}` substituted when its table does
/// that.
pub(crate) fn text_of<'t>(
    doc: &Doc<'t>,
    id: u32,
    entry: &RawEntry<'_>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<Cow<'t, str>> {
    let s = doc.string(id)?;
    if entry.table.substitutes_env() && s.contains("${") {
        Some(Cow::Owned(substitute(&s, env).into_owned()))
    } else {
        Some(s)
    }
}

/// A JSON value in the shape `policy::jsnum` reads, owning what substitution produced. Nested
/// single-element arrays are collapsed (`[[5]]` reads as `[5]` does), so nothing here is deep.
#[derive(Debug, Clone)]
pub(crate) enum Js<'t> {
    Null,
    Bool(bool),
    Number(&'t str),
    Str(Cow<'t, str>),
    Array(Vec<Js<'t>>),
    Object,
}

impl Js<'_> {
    pub fn value(&self) -> JsValue<'_> {
        match self {
            Js::Null => JsValue::Null,
            Js::Bool(b) => JsValue::Bool(*b),
            Js::Number(t) => JsValue::Number(t),
            Js::Str(s) => JsValue::String(s),
            Js::Array(items) => JsValue::Array(items.iter().map(Js::value).collect()),
            Js::Object => JsValue::Object,
        }
    }

    /// `Number(value)`.
    pub fn number(&self) -> f64 {
        jsnum::number(&self.value())
    }
}

pub(crate) fn js_of<'t>(
    doc: &Doc<'t>,
    id: u32,
    entry: &RawEntry<'_>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Js<'t> {
    let scalar = |id: u32| -> Js<'t> {
        match doc.kind(id) {
            Kind::Null => Js::Null,
            Kind::True => Js::Bool(true),
            Kind::False => Js::Bool(false),
            Kind::Number => Js::Number(doc.raw(id)),
            Kind::String => Js::Str(text_of(doc, id, entry, env).unwrap_or(Cow::Borrowed(""))),
            Kind::Object | Kind::Array => Js::Object,
        }
    };
    if doc.kind(id) != Kind::Array {
        return scalar(id);
    }
    let mut cur = id;
    loop {
        let mut kids = doc.children(cur);
        match (kids.next(), kids.next()) {
            (None, _) => return Js::Array(Vec::new()),
            (Some(_), Some(_)) => return Js::Array(vec![Js::Object, Js::Object]),
            (Some(only), None) => {
                if doc.kind(only) == Kind::Array {
                    cur = only;
                    continue;
                }
                return Js::Array(vec![scalar(only)]);
            }
        }
    }
}

/// JavaScript truthiness of a value (after substitution).
pub(crate) fn truthy(js: &Js<'_>) -> bool {
    match js {
        Js::Null => false,
        Js::Bool(b) => *b,
        Js::Number(t) => {
            let v = jsnum::json_number_literal(t);
            v != 0.0 && !v.is_nan()
        }
        Js::Str(s) => !s.is_empty(),
        Js::Array(_) | Js::Object => true,
    }
}

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
    pub fn family(&self) -> Option<EngineKind> {
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
    env: &dyn Fn(&str) -> Option<String>,
) -> Resolved {
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

    let protocol_id = entry.get_set(doc, "protocol");

    if transport == Some(Transport::Stdio) || (transport.is_none() && command.is_some()) {
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
        return Resolved {
            binding: Some(Binding {
                transport: Transport::Stdio,
                family,
                command: Some(command),
                args,
                url: None,
            }),
            problems,
        };
    }

    if let Some(url_id) = entry.get_set(doc, "url") {
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
                        "`transport` is `{}` but the url's scheme ({}:) means {}; the host \
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
        return Resolved {
            binding: Some(Binding {
                transport: by_scheme,
                family,
                command: None,
                args: Vec::new(),
                url: Some(url_text.into_owned()),
            }),
            problems,
        };
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

pub(crate) fn family_name(f: EngineKind) -> &'static str {
    match f {
        EngineKind::Legacy => "legacy",
        EngineKind::Modern => "modern",
    }
}

/// `args`: strings, substituted, `./` and `../` ones resolved against `dir`.
fn args_of(
    doc: &Doc<'_>,
    entry: &RawEntry<'_>,
    dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
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
            if a.starts_with("./") || a.starts_with("../") {
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
    // Secrets in the arguments' shapes (`--token VALUE`, `GITHUB_TOKEN=...`, a header, a URL's
    // password), as the probe masks them.
    let args = args_of(doc, entry, Path::new("."), env);
    for v in crate::engine::redact::secret_args(&args) {
        r.add(v);
    }
}

/// Every member of an entry object (duplicates included) that holds a secret written as a
/// number.
fn collect_numeric_secrets(doc: &Doc<'_>, entry: u32, out: &mut std::collections::HashSet<String>) {
    if doc.kind(entry) != Kind::Object {
        return;
    }
    for m in doc.children(entry) {
        let key = doc.key(m).unwrap_or_default();
        let values: Vec<u32> = match key.as_ref() {
            "token" | "access" => vec![m],
            "env" => doc.children(m).collect(),
            _ => continue,
        };
        for v in values {
            if doc.kind(v) == Kind::Number {
                out.insert(doc.raw(v).to_string());
            }
        }
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

/// A name shortened for a message.
pub(crate) fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        s.chars().take(60).chain("…".chars()).collect()
    } else {
        s.to_string()
    }
}
