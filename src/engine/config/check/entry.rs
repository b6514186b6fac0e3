//! One entry's checks, in the order findings are given: unknown fields, binding and protocol,
//! field types, the modern engine's rules, clear-text credentials, `reconnect`, timings.

use crate::engine::policy::{EngineKind, TIMER_LIMIT_MS};

use super::super::binding::{family_name, resolve};
use super::super::draft::{describe, Draft};
use super::super::entry::{Binding, Transport};
use super::super::fields;
use super::super::finding::Code;
use super::super::json::{Doc, Kind};
use super::super::values::{js_of, truthy, Js};
use super::super::walk::RawEntry;
use super::cleartext::cleartext;
use super::ctx::Ctx;
use super::dialect::dialect_checks;
use super::timings::check_timings;
use super::types::field_types;
use super::unknown::{hidden_launch_fields, unknown_fields};

pub(super) fn check_entry(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    if e.get("disabled")
        .is_some_and(|id| doc.kind(id) == Kind::True)
    {
        return;
    }
    let at_field =
        |id: u32, code: Code, field: &str, message: String| at(doc, e, id, code, field, message);
    let at_entry = |code: Code, message: String| Draft {
        code,
        span: e.anchor,
        anchor: e.anchor.0,
        mask: None,
        path: e.path.clone(),
        server: Some(e.id.clone()),
        field: None,
        message,
    };

    // Fields the host does not read.
    let typos = unknown_fields(ctx, e, out);

    // Binding and protocol.
    let resolved = (!e.is_override).then(|| resolve(doc, e, ctx.dir, ctx.scope));
    if let Some(r) = &resolved {
        for p in &r.problems {
            let mut message = p.message.clone();
            if p.code == Code::Binding {
                message.push_str(&hidden_launch_fields(&typos));
            }
            match p.field.and_then(|f| e.get(f).map(|id| (f, id))) {
                Some((f, id)) => out.push(at_field(id, p.code, f, message)),
                None => out.push(at_entry(p.code, message)),
            }
        }
    }
    let binding = resolved.as_ref().and_then(|r| r.binding.as_ref());
    let family = binding.map(|b| b.family);

    field_types(ctx, e, out);

    // The host's own dialect: variables, inputs, envFile, secrets, launchers.
    dialect_checks(ctx, e, binding, out);

    // Modern-only rules.
    if let Some(b) = binding.filter(|b| b.family == EngineKind::Modern) {
        modern_rules(ctx, e, b, out);
    }

    // Credentials in clear text.
    if let Some(url) = binding.and_then(|b| b.url.as_deref()) {
        cleartext(ctx, e, url, out);
    }

    // `reconnect`.
    let reconnect = e
        .get_set(doc, "reconnect")
        .map(|id| (id, js_of(doc, id, e, ctx.scope)));
    let legacy_on = reconnect.as_ref().is_some_and(|(_, js)| truthy(js));
    if let Some((id, js)) = &reconnect {
        reconnect_not_boolean(doc, e, *id, js, legacy_on, family, out);
    }

    // Where timings are used.
    let used = if e.is_override {
        Some("this entry overrides one defined elsewhere, which may reconnect")
    } else if family == Some(EngineKind::Modern) {
        Some("the modern engine always uses them")
    } else if legacy_on {
        Some("reconnect is on")
    } else {
        None
    };
    let reconnect_off_why = match &reconnect {
        None => "there is no `reconnect: true`",
        Some((id, _)) if doc.kind(*id) == Kind::False => "`reconnect` is false",
        Some(_) => "`reconnect` reads as false",
    };
    check_timings(ctx, e, used, family, reconnect_off_why, out);
}

/// A finding about the value of `field` in entry `e`.
fn at(doc: &Doc<'_>, e: &RawEntry<'_>, id: u32, code: Code, field: &str, message: String) -> Draft {
    Draft::at_value(doc, id, code, e.field_path(field), message)
        .server(&e.id)
        .field(field)
}

/// The modern engine's rules: `requestTimeoutMs` an integer from 1 to 2147483647, and no MCPL
/// policy field that takes effect.
fn modern_rules(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, b: &Binding, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let why = modern_why(b.transport);
    if let Some(id) = e.get_set(doc, "requestTimeoutMs") {
        let ok = doc.kind(id) == Kind::Number && {
            let v = crate::engine::policy::jsnum::json_number_literal(doc.raw(id));
            v.fract() == 0.0 && (1.0..=TIMER_LIMIT_MS).contains(&v)
        };
        if !ok {
            out.push(at(
                doc,
                e,
                id,
                Code::ModernTimeout,
                "requestTimeoutMs",
                format!(
                    "`requestTimeoutMs` is {}, and this server runs on the modern engine \
                     ({why}), which needs an integer from 1 to 2147483647: the host refuses \
                     this server at start",
                    describe(doc, id)
                ),
            ));
        }
    }
    for field in fields::mcpl_policy_fields() {
        let Some(id) = e.get(field) else { continue };
        if takes_effect(doc, id) {
            out.push(at(
                doc,
                e,
                id,
                Code::McplPolicyOnModern,
                field,
                format!(
                    "`{field}` is an MCPL policy field: it is set to something that takes \
                     effect ({}), and this server runs on the modern engine ({why}), which has \
                     no MCPL policy, so the host refuses this server at start; remove the field \
                     or set it to null",
                    describe(doc, id)
                ),
            ));
        }
    }
}

/// `reconnect` that is not a boolean: how each engine reads it.
fn reconnect_not_boolean(
    doc: &Doc<'_>,
    e: &RawEntry<'_>,
    id: u32,
    js: &Js<'_>,
    legacy_on: bool,
    family: Option<EngineKind>,
    out: &mut Vec<Draft>,
) {
    if !matches!(doc.kind(id), Kind::True | Kind::False) {
        let modern_on = matches!(js, Js::Bool(true));
        let onoff = |b: bool| if b { "on" } else { "off" };
        let this = match family {
            Some(f) => format!(
                "this server runs on the {} engine, so reconnect is {}",
                family_name(f),
                onoff(if f == EngineKind::Modern {
                    modern_on
                } else {
                    legacy_on
                })
            ),
            None => format!(
                "the legacy engine would read it as {}, the modern one as {}",
                onoff(legacy_on),
                onoff(modern_on)
            ),
        };
        out.push(at(
            doc,
            e,
            id,
            Code::ReconnectNotBoolean,
            "reconnect",
            format!(
                "`reconnect` is {}, not a boolean: the legacy engine treats any truthy value \
                 as on and the modern engine needs exactly true; {this}. Write true or false",
                describe(doc, id)
            ),
        ));
    }
}

fn modern_why(t: Transport) -> &'static str {
    match t {
        Transport::Http => "an http url",
        _ => "protocol: modern",
    }
}

/// Not null, false, [] or {}.
fn takes_effect(doc: &Doc<'_>, id: u32) -> bool {
    match doc.kind(id) {
        Kind::Null | Kind::False => false,
        Kind::Array | Kind::Object => doc.children(id).next().is_some(),
        _ => true,
    }
}
