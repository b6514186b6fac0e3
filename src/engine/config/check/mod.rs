//! The checks of host-config.md ("Checks a host makes, and a doctor adds"), one finding each,
//! worded for the chosen host rule. Timings are read by the engine's one implementation
//! (`policy::timings`, `policy::jsnum`) and judged by the preset's `Policy`.

use std::collections::HashMap;

use crate::engine::policy::Preset;

use super::platform::Platforms;
use crate::engine::redact::Redactor;

use super::draft::Draft;
use super::entries::add_entry_secrets;
use super::finding::{Code, Finding, Report};
use super::json::{Doc, Kind, ROOT};
use super::snippet;
use super::source::Source;
use super::vars::{Dialect, Scope};
use super::walk::{load, Loaded};

mod cleartext;
mod ctx;
mod dialect;
mod entry;
mod platform;
mod timings;
mod types;
mod unknown;

use ctx::Ctx;

/// How to check: which host rule the wording describes, and where `${VAR}` values come from.
pub struct CheckOptions<'e> {
    /// `handshake` (main, before #999), `lasting` (#999), or a #999 review proposal.
    pub preset: Preset,
    /// Looks up an environment variable for `${VAR}` substitution.
    pub env: &'e dyn Fn(&str) -> Option<String>,
    /// The host whose dialect the file is read in, its workspace folder and inputs.
    pub dialect: Dialect<'e>,
    /// The systems the file will run on (`--platform`; the running one by default).
    pub platforms: Platforms,
}

/// Every finding of a loaded document.
pub(crate) fn check(
    source: &Source,
    doc: &Doc<'_>,
    options: &CheckOptions<'_>,
    scope: &Scope<'_>,
) -> Report {
    let ctx = Ctx {
        doc,
        preset: options.preset,
        scope,
        dir: &source.dir,
        source,
        inputs: declared_inputs(doc),
        platforms: options.platforms,
    };
    // Each entry is checked as it is found; its secrets are kept only when it has findings.
    let mut redactors: HashMap<String, Redactor> = HashMap::new();
    let mut loaded = load(source, doc, scope.host, &mut |entry, drafts, mark| {
        entry::check_entry(&ctx, &entry, drafts);
        if drafts[mark..]
            .iter()
            .any(|d| d.server.as_deref() == Some(entry.id.as_str()))
        {
            let r = redactors.entry(entry.id.clone()).or_default();
            add_entry_secrets(doc, &entry, scope, r);
        }
    });
    let mut drafts = std::mem::take(&mut loaded.drafts);
    if loaded.tables == 0 && !drafts.iter().any(|d| d.code == Code::ServerTable) {
        let start = doc.node(ROOT).start();
        drafts.push(Draft {
            code: Code::NoServers,
            span: (start, start + 1),
            anchor: start,
            mask: None,
            path: "$".to_string(),
            server: None,
            field: None,
            message: "no server table anywhere in this file: none of `mcplServers`, \
                      `mcpServers` or `servers`, so there is nothing to check; is it the right \
                      file?"
                .to_string(),
        });
    }
    if loaded.plain_json_table {
        let first = [doc.first_comment, doc.first_trailing_comma]
            .into_iter()
            .flatten()
            .min();
        if let Some(at) = first {
            let what = if Some(at) == doc.first_comment {
                "a comment"
            } else {
                "a trailing comma"
            };
            drafts.push(Draft {
                code: Code::JsoncSyntax,
                span: (at, at + if what == "a comment" { 2 } else { 1 }),
                anchor: at,
                mask: None,
                path: "$".to_string(),
                server: None,
                field: None,
                message: format!(
                    "this file has {what} (the first is here); VS Code's mcp.json allows \
                     comments and trailing commas, but `mcplServers` and `mcpServers` files are \
                     plain JSON: a host that reads them with JSON.parse refuses the whole file"
                ),
            });
        }
    }
    finish(source, doc, &loaded, drafts, &redactors, scope)
}

/// The ids the top-level `inputs` array declares (VS Code's prompted values).
fn declared_inputs(doc: &Doc<'_>) -> Vec<String> {
    if doc.kind(ROOT) != Kind::Object {
        return Vec::new();
    }
    let Some(inputs) = doc
        .children(ROOT)
        .find(|&id| doc.key(id).as_deref() == Some("inputs"))
    else {
        return Vec::new();
    };
    doc.children(inputs)
        .filter(|&i| doc.kind(i) == Kind::Object)
        .flat_map(|i| doc.children(i))
        .filter(|&m| doc.key(m).as_deref() == Some("id"))
        .filter_map(|m| doc.string(m).map(|s| s.into_owned()))
        .collect()
}

/// Whether the value a finding points at may be a secret, so that its snippet masks it. Shown
/// as written: strings of the fields that hold names and paths (`command`, `args`, `cwd`,
/// `envFile`), never under `env`, `headers` or `inputs`, and
/// not when the text holds one of the entry's secrets, a token shape or a URL password. A
/// string where a number belongs (a value pasted into a timing) stays masked.
fn may_be_secret(text: &str, d: &Draft, redactor: Option<&Redactor>) -> bool {
    const SHOWN: &[&str] = &["command", "args", "cwd", "envFile"];
    const HIDDEN: &[&str] = &["env", "headers", "inputs", "token", "access", "auth"];
    if d.code == Code::LiteralSecret || !d.field.as_deref().is_some_and(|f| SHOWN.contains(&f)) {
        return true;
    }
    let path = d.path.to_ascii_lowercase();
    if path
        .split(['.', '[', ']', '"', '\''])
        .any(|s| HIDDEN.contains(&s))
    {
        return true;
    }
    let value = text.get(d.span.0..d.span.1).unwrap_or_default();
    redactor.is_some_and(|r| r.redact(value) != value)
        || crate::engine::redact::mask_token_shapes(value) != value
        || dialect::has_url_password(value)
}

/// Positions, snippets and redaction; findings in document order.
fn finish(
    source: &Source,
    doc: &Doc<'_>,
    loaded: &Loaded,
    mut drafts: Vec<Draft>,
    redactors: &HashMap<String, Redactor>,
    scope: &Scope<'_>,
) -> Report {
    drafts.sort_by_key(|d| {
        (
            d.span.0,
            Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
        )
    });
    let offsets: Vec<usize> = drafts
        .iter()
        .flat_map(|d| [d.span.0, d.span.1.max(d.span.0 + 1)])
        .collect();
    let both = loaded.lines.positions(doc.text(), &offsets);
    let positions = both.chunks(2).map(|p| (p[0], p[1]));
    let is_secret = |t: &str| loaded.numeric_secrets.contains(t);
    let findings = drafts
        .into_iter()
        .zip(positions)
        .map(|(d, ((line, column), (end_line, end_column)))| {
            let redactor = d.server.as_deref().and_then(|id| redactors.get(id));
            let reveal = !may_be_secret(doc.text(), &d, redactor);
            let snippet = snippet::build(doc.text(), &loaded.lines, &d, &is_secret, reveal);
            let message = match redactor {
                Some(r) => r.redact(&d.message),
                None => d.message.clone(),
            };
            Finding {
                severity: d.code.severity(),
                code: d.code,
                file: source.name.clone(),
                line,
                column,
                end_line,
                end_column,
                path: d.path,
                server: d.server,
                field: d.field,
                message,
                snippet: Some(snippet),
            }
        })
        .collect();
    Report {
        file: source.name.clone(),
        host: scope.host,
        servers: loaded.entries,
        findings,
    }
}
