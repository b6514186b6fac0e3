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

pub(super) fn field_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let push = |out: &mut Vec<Draft>, id: u32, field: &str, path: String, message: String| {
        out.push(
            Draft::at_value(doc, id, Code::FieldType, path, message)
                .server(&e.id)
                .field(field),
        );
    };
    if let Some(id) = e.get_set(doc, "args") {
        if doc.kind(id) == Kind::Array {
            for (i, a) in doc.children(id).enumerate() {
                if doc.kind(a) != Kind::String {
                    push(
                        out,
                        a,
                        "args",
                        format!("{}[{i}]", e.field_path("args")),
                        format!(
                            "`args[{i}]` is {}; the host expects every argument to be a string",
                            describe(doc, a)
                        ),
                    );
                }
            }
        } else {
            push(
                out,
                id,
                "args",
                e.field_path("args"),
                format!(
                    "`args` is {}; the host expects an array of strings",
                    describe(doc, id)
                ),
            );
        }
    }
    if let Some(id) = e.get_set(doc, "env") {
        if doc.kind(id) == Kind::Object {
            for v in doc.children(id) {
                if doc.kind(v) != Kind::String {
                    let name = doc.key(v).unwrap_or_default();
                    push(
                        out,
                        v,
                        "env",
                        child_path(&e.field_path("env"), &name),
                        format!(
                            "`env.{}` is {}; the host expects every env value to be a string",
                            short(&name),
                            describe_secret(doc, v)
                        ),
                    );
                }
            }
        } else {
            push(
                out,
                id,
                "env",
                e.field_path("env"),
                format!(
                    "`env` is {}; the host expects an object of strings",
                    describe_secret(doc, id)
                ),
            );
        }
    }
    if let Some(id) = e.get_set(doc, "inheritEnv") {
        if !matches!(doc.kind(id), Kind::True | Kind::False) {
            push(
                out,
                id,
                "inheritEnv",
                e.field_path("inheritEnv"),
                format!(
                    "`inheritEnv` is {}, not a boolean; write true to pass the host's whole \
                     environment, false (the default) for its allowlist only",
                    describe(doc, id)
                ),
            );
        }
    }
    if let Some(id) = e.get_set(doc, "token") {
        if doc.kind(id) != Kind::String {
            push(
                out,
                id,
                "token",
                e.field_path("token"),
                format!(
                    "`token` is {}; the host expects a string",
                    describe_secret(doc, id)
                ),
            );
        }
    }
    if let Some(id) = e.get_set(doc, "id") {
        if doc.kind(id) != Kind::String {
            push(
                out,
                id,
                "id",
                e.field_path("id"),
                format!(
                    "`id` is {}; the host expects a string (used in tool prefixes, traces and \
                     alerts)",
                    describe(doc, id)
                ),
            );
        }
    }
}
