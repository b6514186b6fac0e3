//! A finding before its position is turned into line:column: what it points at (a value or a
//! key, and its JSON path), and how a value is described without showing it.

use std::borrow::Cow;

use super::finding::Code;
use super::json::{Doc, Kind};

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
    pub(super) fn at_value(
        doc: &Doc<'_>,
        id: u32,
        code: Code,
        path: String,
        message: String,
    ) -> Draft {
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
    pub(super) fn at_key(
        doc: &Doc<'_>,
        id: u32,
        code: Code,
        path: String,
        message: String,
    ) -> Draft {
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

    pub(super) fn server(mut self, id: &str) -> Draft {
        self.server = Some(id.to_string());
        self
    }

    pub(super) fn field(mut self, name: &str) -> Draft {
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
pub(crate) enum Seg {
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

pub(crate) fn render_path(doc: &Doc<'_>, segs: &[Seg]) -> String {
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

/// A name shortened for a message.
pub(crate) fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        s.chars().take(60).chain("…".chars()).collect()
    } else {
        s.to_string()
    }
}
