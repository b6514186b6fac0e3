//! Fields of the wrong type: `args`, `env`, `inheritEnv`, `token`, `id`.

use super::super::draft::{child_path, describe, short, Draft};
use super::super::finding::Code;
use super::super::json::{Doc, Kind};
use super::super::walk::RawEntry;
use super::ctx::Ctx;

/// A value described for a field whose values are secret: its kind only, even for numbers.
fn describe_secret(doc: &Doc<'_>, id: u32) -> &'static str {
    match doc.kind(id) {
        Kind::Null => "null",
        Kind::True | Kind::False => "a boolean",
        Kind::Number => "a number",
        Kind::String => "a string",
        Kind::Array => "an array",
        Kind::Object => "an object",
    }
}

/// Each field of the entry whose value is not of the type the host reads: `args`, `env`, then
/// the single values (`inheritEnv`, `token`, `id`).
pub(super) fn field_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    args_types(ctx, e, out);
    env_types(ctx, e, out);
    single_types(ctx, e, out);
}

/// A `field-type` finding at value `id` of the entry's `field`.
fn wrong_type(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    id: u32,
    field: &str,
    path: String,
    message: String,
) -> Draft {
    Draft::at_value(ctx.doc, id, Code::FieldType, path, message)
        .server(&e.id)
        .field(field)
}

/// `args` that is not an array, or each of its items that is not a string.
fn args_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let Some(id) = e.get_set(doc, "args") else {
        return;
    };
    if doc.kind(id) != Kind::Array {
        out.push(wrong_type(
            ctx,
            e,
            id,
            "args",
            e.field_path("args"),
            format!(
                "`args` is {}; the host expects an array of strings",
                describe(doc, id)
            ),
        ));
        return;
    }
    for (i, a) in doc.children(id).enumerate() {
        if doc.kind(a) != Kind::String {
            out.push(wrong_type(
                ctx,
                e,
                a,
                "args",
                format!("{}[{i}]", e.field_path("args")),
                format!(
                    "`args[{i}]` is {}; the host expects every argument to be a string",
                    describe(doc, a)
                ),
            ));
        }
    }
}

/// `env` that is not an object, or each of its values that is not a string (described by kind
/// only: the values are secret).
fn env_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let Some(id) = e.get_set(doc, "env") else {
        return;
    };
    if doc.kind(id) != Kind::Object {
        out.push(wrong_type(
            ctx,
            e,
            id,
            "env",
            e.field_path("env"),
            format!(
                "`env` is {}; the host expects an object of strings",
                describe_secret(doc, id)
            ),
        ));
        return;
    }
    for v in doc.children(id) {
        if doc.kind(v) != Kind::String {
            let name = doc.key(v).unwrap_or_default();
            out.push(wrong_type(
                ctx,
                e,
                v,
                "env",
                child_path(&e.field_path("env"), &name),
                format!(
                    "`env.{}` is {}; the host expects every env value to be a string",
                    short(&name),
                    describe_secret(doc, v)
                ),
            ));
        }
    }
}

/// `inheritEnv` that is not a boolean, `token` and `id` that are not strings.
fn single_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    if let Some(id) = e.get_set(doc, "inheritEnv") {
        if !matches!(doc.kind(id), Kind::True | Kind::False) {
            out.push(wrong_type(
                ctx,
                e,
                id,
                "inheritEnv",
                e.field_path("inheritEnv"),
                format!(
                    "`inheritEnv` is {}, not a boolean; write true to pass the host's whole \
                     environment, false (the default) for its allowlist only",
                    describe(doc, id)
                ),
            ));
        }
    }
    if let Some(id) = e.get_set(doc, "token") {
        if doc.kind(id) != Kind::String {
            out.push(wrong_type(
                ctx,
                e,
                id,
                "token",
                e.field_path("token"),
                format!(
                    "`token` is {}; the host expects a string",
                    describe_secret(doc, id)
                ),
            ));
        }
    }
    if let Some(id) = e.get_set(doc, "id") {
        if doc.kind(id) != Kind::String {
            out.push(wrong_type(
                ctx,
                e,
                id,
                "id",
                e.field_path("id"),
                format!(
                    "`id` is {}; the host expects a string (used in tool prefixes, traces and \
                     alerts)",
                    describe(doc, id)
                ),
            ));
        }
    }
}
