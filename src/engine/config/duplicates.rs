//! `JSON.parse`'s last-wins rule: the members of an object the host keeps, and a finding for
//! each key it ignores (at any depth inside an entry's fields).

use std::borrow::Cow;

use super::draft::{child_path, short, Draft};
use super::finding::Code;
use super::json::{Doc, Kind};
use super::source::LineIndex;

/// Members of an object that `JSON.parse` keeps (the last of each key), in order, and the
/// ignored ones each with the member that overrides it.
/// Members by name, in order.
type Members<'t> = Vec<(Cow<'t, str>, u32)>;

pub(crate) fn live_members<'t>(doc: &Doc<'t>, obj: u32) -> (Members<'t>, Vec<(u32, u32)>) {
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
pub(crate) fn duplicate_drafts(
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
                    "server id `{}` appears again (line {line}): JSON.parse keeps the last \
                     entry of this table, so the host ignores this one",
                    short(&key)
                )
            } else {
                format!(
                    "`{}` appears again in the same object (line {line}); JSON.parse keeps \
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
pub(crate) fn nested_duplicates(
    doc: &Doc<'_>,
    fields: &[(Cow<'_, str>, u32)],
    entry_path: &str,
    server: &str,
    lines: &LineIndex,
    out: &mut Vec<Draft>,
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
                    let drafts = duplicate_drafts(doc, lines, &dups, &path, Some(server), false);
                    out.extend(drafts.into_iter().map(|d| d.field(name)));
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
