//! The checks of a host's own dialect (hosts.md section 3.3, copied into
//! `tests/reference/hosts-dialects.md`): variables the host does not expand or that are unset,
//! inputs no `inputs` entry declares, a missing `envFile`, secrets written into the file; then
//! what breaks on the systems checked (`platform.rs`).

use super::super::draft::{short, Draft};
use super::super::entries::env_file_of;
use super::super::entry::{Binding, Transport};
use super::super::finding::Code;
use super::super::host::{Host, VarForm};
use super::super::json::{Doc, Kind};
use super::super::vars::{classify, refs, Kind as RefKind};
use super::super::walk::RawEntry;
use super::ctx::Ctx;
use super::platform::platform_checks;

/// Every dialect finding of one entry.
pub(super) fn dialect_checks(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    binding: Option<&Binding>,
    out: &mut Vec<Draft>,
) {
    literal_secrets(ctx, e, out);
    if ctx.scope.host == Host::AgentFramework {
        return;
    }
    variables(ctx, e, out);
    if let Some((id, path)) = env_file_of(ctx.source, ctx.doc, e, ctx.scope) {
        let refused =
            crate::engine::infile::read_whole(&path, crate::engine::infile::MAX_ENV_FILE).err();
        if let Some(refused) = refused {
            let shown = match ctx
                .scope
                .workspace
                .as_ref()
                .and_then(|w| path.strip_prefix(w).ok())
            {
                Some(rel) => format!("{} in the workspace folder", rel.display()),
                None => path.display().to_string(),
            };
            out.push(at(
                ctx.doc,
                e,
                id,
                Code::EnvFileMissing,
                "envFile",
                format!(
                    "`envFile` names {}, which {}: {} cannot read the server's variables and \
                     does not start it",
                    short(&shown),
                    if refused.is_missing() {
                        "does not exist".to_string()
                    } else {
                        refused.to_string()
                    },
                    ctx.scope.host.title()
                ),
            ));
        }
    }
    if let Some(b) = binding.filter(|b| b.transport == Transport::Stdio) {
        platform_checks(ctx, e, b, out);
    }
}

fn at(doc: &Doc<'_>, e: &RawEntry<'_>, id: u32, code: Code, field: &str, message: String) -> Draft {
    Draft::at_value(doc, id, code, e.field_path(field), message)
        .server(&e.id)
        .field(field)
}

/// Every string value of the entry, with the top-level field it is under.
fn strings<'e>(doc: &Doc<'_>, e: &'e RawEntry<'_>) -> Vec<(&'e str, u32)> {
    let mut out = Vec::new();
    for (name, id) in &e.fields {
        let mut stack = vec![*id];
        while let Some(n) = stack.pop() {
            match doc.kind(n) {
                Kind::String => out.push((name.as_ref(), n)),
                Kind::Array | Kind::Object => stack.extend(doc.children(n)),
                _ => {}
            }
        }
    }
    out.sort_by_key(|(_, id)| doc.node(*id).start());
    out
}

/// What the host reads instead of a form it does not expand.
fn instead(host: Host, form: Option<VarForm>, name: &str) -> String {
    let env_form = if host.expands(VarForm::Env) {
        Some(format!("`${{env:{name}}}`"))
    } else if host.expands(VarForm::Plain) {
        Some(format!("`${{{name}}}`"))
    } else {
        None
    };
    match (form, env_form) {
        (Some(VarForm::Plain | VarForm::Env | VarForm::Default), Some(f)) => {
            format!("; for an environment variable {} reads {f}", host.title())
        }
        _ => String::new(),
    }
}

/// `${...}` references: not expanded by this host, unset, or an undeclared input.
fn variables(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let host = ctx.scope.host;
    for (field, id) in strings(doc, e) {
        let Some(text) = doc.string(id) else {
            continue;
        };
        for r in refs(&text) {
            let written = short(&text[r.start..r.end]);
            if host.expands_none() {
                out.push(at(
                    doc,
                    e,
                    id,
                    Code::VariableNotExpanded,
                    field,
                    format!(
                        "{} expands no variables: the server gets `{written}` as written, not \
                         a value (write the value itself, or launch through a wrapper that \
                         reads it from the environment)",
                        host.title()
                    ),
                ));
                continue;
            }
            match classify(r.inner, host) {
                RefKind::Known(form, name) if host.expands(form) => {
                    known(ctx, e, id, field, form, name, &written, out)
                }
                kind => {
                    let (form, name) = match kind {
                        RefKind::Known(f, n) => (Some(f), n),
                        RefKind::Unknown => (None, r.inner),
                    };
                    out.push(at(
                        doc,
                        e,
                        id,
                        Code::VariableUnsupported,
                        field,
                        format!(
                            "{} does not expand `{written}`: the server gets it as written{}",
                            host.title(),
                            instead(host, form, &short(name))
                        ),
                    ));
                }
            }
        }
    }
}

/// A reference the host expands: an input must be declared, a variable set.
#[allow(clippy::too_many_arguments)]
fn known(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    id: u32,
    field: &str,
    form: VarForm,
    name: &str,
    written: &str,
    out: &mut Vec<Draft>,
) {
    let host = ctx.scope.host;
    match form {
        VarForm::Input if !ctx.inputs.iter().any(|i| i == name) => out.push(at(
            ctx.doc,
            e,
            id,
            Code::InputUndeclared,
            field,
            format!(
                "`{written}` is not declared in `inputs`: {} cannot \
                 prompt for it and does not start the server (declare {{\"type\": \
                 \"promptString\", \"id\": \"{}\", \"password\": true}})",
                host.title(),
                short(name)
            ),
        )),
        VarForm::Plain | VarForm::Env if (ctx.scope.env)(name).is_none() => {
            let becomes = if form == VarForm::Plain {
                "stays as written"
            } else {
                "becomes the empty string"
            };
            out.push(at(
                ctx.doc,
                e,
                id,
                Code::VariableUnset,
                field,
                format!(
                    "`{written}` is not set here: under {} it {becomes} \
                     unless the variable is set where the host runs",
                    host.title()
                ),
            ));
        }
        _ => {}
    }
}

/// A header value written into the file as a credential: a secret-named header
/// (`Authorization`, `X-Api-Key`, `*Token*`, `Cookie`) or a `Bearer`/`Basic` value with no
/// `${...}` reference in it.
fn literal_header(name: &str, value: &str) -> bool {
    if value.trim().is_empty() || value.contains("${") {
        return false;
    }
    let scheme = value.split_once(' ').is_some_and(|(s, rest)| {
        ["bearer", "basic", "token"].contains(&s.to_ascii_lowercase().as_str())
            && !rest.trim().is_empty()
    });
    scheme || crate::engine::redact::is_secret_name(name)
}

/// A token-looking value, or a URL with a password, written in `env` or `args`; a credential
/// written in `headers`.
fn literal_secrets(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    if let Some(table) = e
        .get_set(doc, "headers")
        .filter(|&t| doc.kind(t) == Kind::Object)
    {
        for id in doc.children(table) {
            let (Some(text), Some(name)) = (doc.string(id), doc.key(id)) else {
                continue;
            };
            if literal_header(&name, &text) {
                out.push(at(
                    doc,
                    e,
                    id,
                    Code::LiteralSecret,
                    "headers",
                    format!(
                        "`headers.{}` holds a credential written into the file: whoever reads                          the file (or its history) has it; write a variable the host expands                          instead (`{}`)",
                        short(&name),
                        header_form(ctx.scope.host)
                    ),
                ));
            }
        }
    }
    for field in ["env", "args"] {
        let Some(table) = e.get_set(doc, field) else {
            continue;
        };
        if !matches!(doc.kind(table), Kind::Object | Kind::Array) {
            continue;
        }
        for id in doc.children(table) {
            let Some(text) = doc.string(id) else {
                continue;
            };
            // The headline names the thing; the shape that gave it away goes to the notes.
            let (what, shape) = if crate::engine::redact::mask_token_shapes(&text) != text.as_ref()
            {
                (
                    "a token",
                    "it has a known token's shape (GitHub, OpenAI or Anthropic, Slack, AWS or a \
                     JWT)",
                )
            } else if has_url_password(&text) {
                ("a URL with a password", "`scheme://user:password@`")
            } else {
                continue;
            };
            let place = match doc.key(id) {
                Some(k) if field == "env" => format!("`env.{}`", short(&k)),
                _ => "an argument".to_string(),
            };
            out.push(at(
                doc,
                e,
                id,
                Code::LiteralSecret,
                field,
                format!(
                    "{place} holds {what}, written into the file: {shape}; whoever reads the \
                     file (or its history) has it; take it from an input, an env file or a \
                     variable the host expands"
                ),
            ));
        }
    }
}

/// How this host's `headers` take a variable, for the fix.
fn header_form(host: Host) -> &'static str {
    if host.expands(VarForm::Input) {
        "\"Bearer ${input:api-token}\""
    } else if host.expands(VarForm::Env) {
        "\"Bearer ${env:API_TOKEN}\""
    } else {
        "\"Bearer ${API_TOKEN}\""
    }
}

/// Whether `text` holds a `scheme://user:password@host` URL.
pub(super) fn has_url_password(text: &str) -> bool {
    let mut from = 0;
    while let Some(off) = text[from..].find("://") {
        let at = from + off;
        let start = text[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |i| i + 1);
        let end = text[at..]
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
            .map_or(text.len(), |i| at + i);
        if let Ok(u) = url::Url::parse(&text[start..end]) {
            if u.password().is_some_and(|p| !p.is_empty()) {
                return true;
            }
        }
        from = at + 3;
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn url_passwords_are_found_inside_arguments() {
        for yes in [
            "postgres://u:p4ss@db/x",
            "--db=mysql://root:secret@127.0.0.1:3306/app",
            "DATABASE_URL=redis://:pw@cache:6379",
        ] {
            assert!(super::has_url_password(yes), "{yes}");
        }
        for no in [
            "https://host/mcp",
            "postgres://user@db/x",
            "not a url",
            "a://",
        ] {
            assert!(!super::has_url_password(no), "{no}");
        }
    }
}
