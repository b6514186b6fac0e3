//! A value as the host's JavaScript reads it: a string with `${VAR}` substituted where its
//! table does that, `Number(value)`, truthiness.

use std::borrow::Cow;

use crate::engine::policy::jsnum::{self, JsValue};

use super::host::Host;
use super::json::{Doc, Kind};
use super::subst::substitute;
use super::vars::{expand, Scope};
use super::walk::RawEntry;

/// A value's text at load: a string, decoded, with its variables expanded as the host does
/// (agent-framework: `${VAR}` substituted where its table does that).
pub(crate) fn text_of<'t>(
    doc: &Doc<'t>,
    id: u32,
    entry: &RawEntry<'_>,
    scope: &Scope<'_>,
) -> Option<Cow<'t, str>> {
    let s = doc.string(id)?;
    if !s.contains("${") {
        return Some(s);
    }
    match scope.host {
        Host::AgentFramework if entry.table.substitutes_env() => {
            Some(Cow::Owned(substitute(&s, scope.env).into_owned()))
        }
        Host::AgentFramework => Some(s),
        _ => Some(Cow::Owned(expand(&s, scope).text)),
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
    pub(super) fn value(&self) -> JsValue<'_> {
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
    pub(super) fn number(&self) -> f64 {
        jsnum::number(&self.value())
    }
}

pub(crate) fn js_of<'t>(doc: &Doc<'t>, id: u32, entry: &RawEntry<'_>, env: &Scope<'_>) -> Js<'t> {
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
