//! From a parsed document to raw server entries: find every server table anywhere in the
//! document (walking iteratively, so depth costs no stack) and hand each entry, with its live
//! members, to a visitor.

use std::borrow::Cow;

use super::draft::{child_path, describe, render_path, short, Draft, Seg};
use super::duplicates::{duplicate_drafts, live_members, nested_duplicates};
use super::entry::TableKind;
use super::fields;
use super::finding::Code;
use super::host::Host;
use super::json::{Doc, Kind, ROOT};
use super::source::{LineIndex, Source};

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
    pub(super) fn get(&self, name: &str) -> Option<u32> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, id)| *id)
    }

    /// The field's value node when present and not `null` (null reads as absent).
    pub(super) fn get_set(&self, doc: &Doc<'_>, name: &str) -> Option<u32> {
        self.get(name).filter(|&id| doc.kind(id) != Kind::Null)
    }

    pub(super) fn field_path(&self, name: &str) -> String {
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

fn table_kind(key: &str) -> Option<TableKind> {
    match key {
        "mcplServers" => Some(TableKind::McplServers),
        "mcpServers" => Some(TableKind::McpServers),
        "servers" => Some(TableKind::Servers),
        "context_servers" => Some(TableKind::ContextServers),
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
pub(crate) fn load<'t>(
    source: &Source,
    doc: &Doc<'t>,
    host: Host,
    visit: &mut Visit<'_, 't>,
) -> Loaded {
    let mut loaded = Loaded {
        lines: LineIndex::new(doc.text()),
        entries: 0,
        numeric_secrets: std::collections::HashSet::new(),
        tables: 0,
        plain_json_table: false,
        drafts: Vec::new(),
    };
    // Policy-only overrides are agent-framework's (recipes and agent overlays).
    let overlay = source.name.ends_with(".agent.json");
    let agent = host == Host::AgentFramework;
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
                let handled = read_table(
                    doc,
                    child,
                    kind,
                    &path,
                    (overlay, agent),
                    &mut loaded,
                    visit,
                );
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
    (overlay, agent): (bool, bool),
    loaded: &mut Loaded,
    visit: &mut Visit<'_, 't>,
) -> bool {
    let value_kind = doc.kind(table);
    match (kind, value_kind) {
        (_, Kind::Null) => return true,
        (TableKind::Servers | TableKind::ContextServers, k) if k != Kind::Object => return false,
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
    if !matches!(kind, TableKind::Servers | TableKind::ContextServers) {
        loaded.plain_json_table = true;
    }
    let policy_only_allowed = agent && (kind.substitutes_env() || overlay);
    let table = Table {
        node: table,
        kind,
        path,
        policy_only_allowed,
    };
    if value_kind == Kind::Object {
        read_object_table(doc, &table, loaded, visit);
    } else {
        read_array_table(doc, &table, loaded, visit);
    }
    true
}

/// A server table being read.
struct Table<'p> {
    node: u32,
    kind: TableKind,
    path: &'p str,
    /// Whether an entry with no launch field is a policy-only override (recipes, overlays).
    policy_only_allowed: bool,
}

/// An object keyed by server id.
fn read_object_table<'t>(
    doc: &Doc<'t>,
    t: &Table<'_>,
    loaded: &mut Loaded,
    visit: &mut Visit<'_, 't>,
) {
    let (table, kind, path, policy_only_allowed) = (t.node, t.kind, t.path, t.policy_only_allowed);
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
        nested_duplicates(
            doc,
            &fields,
            &entry_path,
            &id,
            &loaded.lines,
            &mut loaded.drafts,
        );
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
}

/// An `mcplServers` array of entries, each with an `id`.
fn read_array_table<'t>(
    doc: &Doc<'t>,
    t: &Table<'_>,
    loaded: &mut Loaded,
    visit: &mut Visit<'_, 't>,
) {
    let (table, kind, path, policy_only_allowed) = (t.node, t.kind, t.path, t.policy_only_allowed);
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
                "this `mcplServers` array entry has no `id`: the host needs one (a non-empty \
                 string) for tool prefixes, traces and alerts and refuses the entry"
                    .to_string(),
            );
            d.span = (start, start + 1);
            d.mask = None;
            loaded.drafts.push(d);
            continue;
        };
        let d = duplicate_drafts(doc, &loaded.lines, &dups, &entry_path, Some(&id), false);
        loaded.drafts.extend(d);
        nested_duplicates(
            doc,
            &fields,
            &entry_path,
            &id,
            &loaded.lines,
            &mut loaded.drafts,
        );
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
