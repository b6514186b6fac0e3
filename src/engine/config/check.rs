//! The checks of host-config.md ("Checks a host makes, and a doctor adds"), one finding each,
//! worded for the chosen host rule. Timings are read by the engine's one implementation
//! (`policy::timings`, `policy::jsnum`) and judged by the preset's `Policy`.

use std::collections::HashMap;
use std::path::Path;

use url::{Host, Url};

use crate::engine::policy::timings::{format_ms, is_refused_timing, read_timing};
use crate::engine::policy::{
    js_min, EngineKind, Preset, Timings, BOUNDED_CEILING_MS, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS,
    TIMER_LIMIT_MS,
};

use crate::engine::redact::Redactor;

use super::json::{Doc, Kind, ROOT};
use super::load::{
    add_entry_secrets, describe, family_name, js_of, load, resolve, short, truthy, Draft, Js,
    Loaded, RawEntry,
};
use super::source::Source;
use super::subst::has_env_ref;
use super::{fields, snippet, CheckOptions, Code, Finding, Report, Transport};

const INTERVAL: &str = "reconnectIntervalMs";
const CAP: &str = "reconnectMaxIntervalMs";

/// Whether the preset is #999 or one of its review proposals (bad timings refused at start).
fn refuses_bad_timings(preset: Preset) -> bool {
    preset != Preset::Handshake
}

struct Ctx<'a, 't> {
    doc: &'a Doc<'t>,
    preset: Preset,
    env: &'a dyn Fn(&str) -> Option<String>,
    dir: &'a Path,
}

/// Every finding of a loaded document.
pub(crate) fn check(source: &Source, doc: &Doc<'_>, options: &CheckOptions<'_>) -> Report {
    let ctx = Ctx {
        doc,
        preset: options.preset,
        env: options.env,
        dir: &source.dir,
    };
    // Each entry is checked as it is found; its secrets are kept only when it has findings.
    let mut redactors: HashMap<String, Redactor> = HashMap::new();
    let mut loaded = load(source, doc, &mut |entry, drafts, mark| {
        check_entry(&ctx, &entry, drafts);
        if drafts[mark..]
            .iter()
            .any(|d| d.server.as_deref() == Some(entry.id.as_str()))
        {
            let r = redactors.entry(entry.id.clone()).or_default();
            add_entry_secrets(doc, &entry, options.env, r);
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
            message: "no server table (`mcplServers`, `mcpServers` or `servers`) anywhere in \
                      this file, so there is nothing to check; is it the right file?"
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
    finish(source, doc, &loaded, drafts, &redactors)
}

/// Positions, snippets and redaction; findings in document order.
fn finish(
    source: &Source,
    doc: &Doc<'_>,
    loaded: &Loaded,
    mut drafts: Vec<Draft>,
    redactors: &HashMap<String, Redactor>,
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
            let snippet = snippet::build(doc.text(), &loaded.lines, &d, &is_secret);
            let message = match d.server.as_deref().and_then(|id| redactors.get(id)) {
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
        servers: loaded.entries,
        findings,
    }
}

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

fn check_entry(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    if e.get("disabled")
        .is_some_and(|id| doc.kind(id) == Kind::True)
    {
        return;
    }
    let at = |id: u32, code: Code, field: &str, message: String| {
        Draft::at_value(doc, id, code, e.field_path(field), message)
            .server(&e.id)
            .field(field)
    };
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
    let resolved = (!e.is_override).then(|| resolve(doc, e, ctx.dir, ctx.env));
    if let Some(r) = &resolved {
        for p in &r.problems {
            let mut message = p.message.clone();
            if p.code == Code::Binding {
                message.push_str(&hidden_launch_fields(&typos));
            }
            match p.field.and_then(|f| e.get(f).map(|id| (f, id))) {
                Some((f, id)) => out.push(at(id, p.code, f, message)),
                None => out.push(at_entry(p.code, message)),
            }
        }
    }
    let binding = resolved.as_ref().and_then(|r| r.binding.as_ref());
    let family = binding.map(|b| b.family);

    field_types(ctx, e, out);

    // Modern-only rules.
    if let Some(b) = binding.filter(|b| b.family == EngineKind::Modern) {
        let why = modern_why(b.transport);
        if let Some(id) = e.get_set(doc, "requestTimeoutMs") {
            let ok = doc.kind(id) == Kind::Number && {
                let v = crate::engine::policy::jsnum::json_number_literal(doc.raw(id));
                v.fract() == 0.0 && (1.0..=TIMER_LIMIT_MS).contains(&v)
            };
            if !ok {
                out.push(at(
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
                    id,
                    Code::McplPolicyOnModern,
                    field,
                    format!(
                        "`{field}` is an MCPL policy field set to something that takes effect \
                         ({}), and this server runs on the modern engine ({why}), which has no \
                         MCPL policy: the host refuses this server at start; remove the field \
                         or set it to null",
                        describe(doc, id)
                    ),
                ));
            }
        }
    }

    // Credentials in clear text.
    if let Some(url) = binding.and_then(|b| b.url.as_deref()) {
        cleartext(ctx, e, url, out);
    }

    // `reconnect`.
    let reconnect = e
        .get_set(doc, "reconnect")
        .map(|id| (id, js_of(doc, id, e, ctx.env)));
    let legacy_on = reconnect.as_ref().is_some_and(|(_, js)| truthy(js));
    if let Some((id, js)) = &reconnect {
        if !matches!(doc.kind(*id), Kind::True | Kind::False) {
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
                *id,
                Code::ReconnectNotBoolean,
                "reconnect",
                format!(
                    "`reconnect` is {}, not a boolean: the legacy engine treats any truthy value \
                     as on and the modern engine needs exactly true; {this}. Write true or false",
                    describe(doc, *id)
                ),
            ));
        }
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

/// A field of an entry that the host does not read, and the known field it likely meant.
struct Typo {
    written: String,
    meant: Option<&'static fields::Field>,
}

/// One `unknown-field` warning per field the entry's host does not read; returns them for the
/// binding error to name the launch fields they hide.
fn unknown_fields(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) -> Vec<Typo> {
    let doc = ctx.doc;
    let mut typos = Vec::new();
    for (name, id) in &e.fields {
        if fields::entry_field(e.table, name).is_some() {
            continue;
        }
        let meant = fields::suggest_entry_field(e.table, name);
        let shown = short(name);
        let table = e.table.key();
        let mut message = match meant {
            Some(f) => format!(
                "`{shown}` is not a field the host reads in a `{table}` entry; did you mean \
                 `{}`? ",
                f.name
            ),
            None => format!("`{shown}` is not a field the host reads in a `{table}` entry. "),
        };
        match meant {
            Some(f) if e.get(f.name).is_some() => message.push_str(&format!(
                "The host ignores `{shown}` and reads the `{}` also set in this entry",
                f.name
            )),
            Some(f) => {
                message.push_str(&format!("The host ignores it, so `{}` ", f.name));
                match f.default {
                    Some(d) => message.push_str(&format!("keeps its default: {d}")),
                    None => message.push_str("is not set at all"),
                }
                if f.launch && e.is_override {
                    message.push_str(&format!(
                        "; and with no launch field this `{table}` entry only overrides the \
                         policy of a server `{}` defined elsewhere",
                        short(&e.id)
                    ));
                }
            }
            None => message.push_str("The host ignores it"),
        }
        if meant.is_none() {
            message.push_str(" (`mcpl-doctor schema config` lists the fields it reads)");
        }
        let d = Draft::at_key(doc, *id, Code::UnknownField, e.field_path(name), message)
            .server(&e.id)
            .field(name);
        typos.push(Typo {
            written: name.to_string(),
            meant,
        });
        out.push(d);
    }
    typos
}

/// For a binding error: the misspelt launch fields that hide `command`, `url` or `transport`.
fn hidden_launch_fields(typos: &[Typo]) -> String {
    let hidden: Vec<String> = typos
        .iter()
        .filter_map(|t| {
            let f = t.meant?;
            matches!(f.name, "command" | "url" | "transport").then(|| {
                format!(
                    "`{}` in this entry looks like a misspelt `{}`, which the host does not read",
                    short(&t.written),
                    f.name
                )
            })
        })
        .collect();
    if hidden.is_empty() {
        String::new()
    } else {
        format!(". {}", hidden.join("; "))
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

fn field_types(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
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
                        super::load::child_path(&e.field_path("env"), &name),
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

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(d)) => {
            let d = d.to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        Some(Host::Ipv4(ip)) => ip.octets()[0] == 127 || ip.is_unspecified(),
        Some(Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        None => false,
    }
}

fn cleartext(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, url: &str, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    // Only clear-text schemes matter; skip parsing the url again for the others.
    let lower = url.get(..5).unwrap_or(url).to_ascii_lowercase();
    if !(lower.starts_with("ws:") || lower.starts_with("http:")) {
        return;
    }
    let Ok(parsed) = Url::parse(url) else { return };
    let (how, fix) = match parsed.scheme() {
        "ws" => ("as the ?token= query of the URL", "wss://"),
        "http" => ("as an Authorization: Bearer header", "https://"),
        _ => return,
    };
    if is_loopback(&parsed) {
        return;
    }
    let host = parsed.host_str().map(short).unwrap_or_default();
    for field in ["token", "access"] {
        let Some(id) = e.get_set(doc, field) else {
            continue;
        };
        if doc.kind(id) == Kind::String && doc.string(id).is_some_and(|s| s.is_empty()) {
            continue;
        }
        let how = if field == "token" {
            how
        } else {
            "in clear text"
        };
        out.push(
            Draft::at_value(
                doc,
                id,
                Code::CleartextCredential,
                e.field_path(field),
                format!(
                    "`{field}` is sent over {}:// to `{host}`, which is not a loopback address: \
                     it crosses the network readable by anyone on the path ({how}); use {fix}",
                    parsed.scheme()
                ),
            )
            .server(&e.id)
            .field(field),
        );
    }
}

/// One timing field as found.
struct Timing<'t> {
    name: &'static str,
    id: u32,
    js: Js<'t>,
    ms: f64,
    is_number: bool,
    env_ref: bool,
}

/// How a timing value reads, without echoing what is not a number.
fn reads_as(t: &Timing<'_>, doc: &Doc<'_>) -> String {
    let what = describe(doc, t.id);
    if t.is_number {
        let v = t.ms;
        if v.is_infinite() {
            format!("{what}, which reads as Infinity")
        } else if what == "0" || v != 0.0 {
            what
        } else {
            format!("{what}, which reads as 0")
        }
    } else if t.ms.is_nan() {
        format!("{what}, which Number() reads as NaN")
    } else if t.ms == 0.0 {
        format!("{what}, which reads as 0")
    } else if t.ms < 0.0 {
        format!("{what}, which reads as a number below 0")
    } else {
        what
    }
}

fn check_timings(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    used: Option<&'static str>,
    family: Option<EngineKind>,
    reconnect_off_why: &str,
    out: &mut Vec<Draft>,
) {
    let doc = ctx.doc;
    let read = |name: &'static str, default: f64| -> Option<Timing<'_>> {
        let id = e.get_set(doc, name)?;
        let js = js_of(doc, id, e, ctx.env);
        let ms = read_timing(Some(&js.value()), default);
        Some(Timing {
            name,
            id,
            ms,
            is_number: doc.kind(id) == Kind::Number,
            env_ref: doc.string(id).is_some_and(|s| has_env_ref(&s)),
            js,
        })
    };
    let interval = read(INTERVAL, DEFAULT_INTERVAL_MS);
    let cap = read(CAP, DEFAULT_CAP_MS);
    let at = |t: &Timing<'_>, code: Code, message: String| {
        Draft::at_value(doc, t.id, code, e.field_path(t.name), message)
            .server(&e.id)
            .field(t.name)
    };
    let refuses = refuses_bad_timings(ctx.preset);

    let Some(why_used) = used else {
        // Not used: only a legacy entry with reconnect off gets here with a known family;
        // an entry the host refuses for its binding is not worth a second finding.
        if family != Some(EngineKind::Legacy) {
            return;
        }
        for t in [&interval, &cap].into_iter().flatten() {
            let refused = if is_refused_timing(t.ms) {
                "; if reconnect were turned on, this value would be refused under #999 (and \
                 loop with no backoff on main)"
            } else {
                ""
            };
            out.push(at(
                t,
                Code::TimingUnused,
                format!(
                    "`{}` is set, but this legacy entry does not reconnect ({reconnect_off_why}), \
                     so the host never uses it{refused}; set `reconnect: true` or remove the \
                     timing",
                    t.name
                ),
            ));
        }
        return;
    };

    let engine = family.unwrap_or(EngineKind::Legacy);
    for t in [&interval, &cap].into_iter().flatten() {
        if t.env_ref {
            let message = if e.table.substitutes_env() {
                format!(
                    "`{}` takes its value from an environment variable (`${{…}}`) when the file \
                     is loaded, so the host reads a string that depends on its environment: an \
                     unset variable without a default gives an empty string, which reads as 0 \
                     and is refused under #999; write a number of milliseconds",
                    t.name
                )
            } else {
                format!(
                    "`{}` holds a `${{…}}` reference, but `{}` entries are not substituted: the \
                     host reads the text as written, which Number() reads as NaN; write a number \
                     of milliseconds",
                    t.name,
                    e.table.key()
                )
            };
            out.push(at(t, Code::TimingEnvVar, message));
        }
        if is_refused_timing(t.ms) {
            let value = if t.env_ref && e.table.substitutes_env() {
                let how = if t.ms.is_nan() {
                    "which Number() reads as NaN"
                } else if t.ms == 0.0 {
                    "which reads as 0 (an unset variable gives an empty string)"
                } else {
                    "which reads as a number below 0"
                };
                format!("a `${{…}}` reference {how} once substituted from this environment")
            } else {
                reads_as(t, doc)
            };
            let message = if refuses {
                format!(
                    "`{}` is {value}, and this server uses its timings ({why_used}): under #999 \
                     the host refuses this server at start; before #999 it relaunches it with no \
                     wait at all (every wait runs after 1 ms)",
                    t.name
                )
            } else {
                format!(
                    "`{}` is {value}, and this server uses its timings ({why_used}): on main \
                     (before #999) the host loads it and runs every wait after 1 ms, so it \
                     relaunches this server with no backoff at all, in a loop; #999 refuses \
                     this server at start",
                    t.name
                )
            };
            out.push(at(t, Code::ReconnectTiming, message));
            continue;
        }
        let role = if t.name == INTERVAL {
            "the backoff's base"
        } else {
            "the cap (every wait)"
        };
        match (&t.js, t.env_ref) {
            (Js::Bool(_), _) => out.push(at(
                t,
                Code::TimingBoolean,
                format!(
                    "`{}` is a boolean, which the host reads as 1 ms (Number(true)), so {role} \
                     becomes 1 ms: almost certainly `reconnect: true` typed into the wrong \
                     field; write a number of milliseconds",
                    t.name
                ),
            )),
            (Js::Str(_), false) => out.push(at(
                t,
                Code::TimingString,
                format!(
                    "`{}` is a string; the host reads it with Number() and it loads, but the \
                     field takes a number: write it without quotes",
                    t.name
                ),
            )),
            (Js::Array(_), _) => out.push(at(
                t,
                Code::TimingArray,
                format!(
                    "`{}` is an array; the host reads it through its string form (Number([x]) \
                     is Number(x)), which works by accident; write a number of milliseconds",
                    t.name
                ),
            )),
            _ => {}
        }
        if t.ms > TIMER_LIMIT_MS {
            out.push(at(
                t,
                Code::TimingOverTimerLimit,
                over_limit_message(ctx.preset, engine, t, doc, interval.as_ref(), cap.as_ref()),
            ));
        }
    }

    // Both timings together (defaults for absent ones), when neither is refused.
    let interval_ms = interval.as_ref().map_or(DEFAULT_INTERVAL_MS, |t| t.ms);
    let cap_ms = cap.as_ref().map_or(DEFAULT_CAP_MS, |t| t.ms);
    if is_refused_timing(cap_ms) {
        return;
    }
    lasting_threshold(ctx, e, engine, interval_ms, cap.as_ref(), out);
    if is_refused_timing(interval_ms) {
        return;
    }
    let shown = |t: &Option<Timing<'_>>| t.as_ref().is_none_or(|t| t.is_number);
    if cap_ms < interval_ms {
        let where_ = cap.as_ref().or(interval.as_ref());
        if let Some(t) = where_ {
            let both_shown = shown(&interval) && shown(&cap);
            let detail = if both_shown {
                format!(
                    " ({} is below {})",
                    format_ms(cap_ms),
                    format_ms(interval_ms)
                )
            } else {
                String::new()
            };
            out.push(at(
                t,
                Code::CapBelowInterval,
                format!(
                    "`{CAP}` is below `{INTERVAL}`{detail}: every wait is the cap, so the backoff \
                     never grows; raise the cap or lower the interval"
                ),
            ));
        }
    }
}

/// Under a rule whose lasting threshold follows the cap, a cap above 1 hour.
fn lasting_threshold(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    engine: EngineKind,
    interval_ms: f64,
    cap: Option<&Timing<'_>>,
    out: &mut Vec<Draft>,
) {
    let doc = ctx.doc;
    let Some(t) = cap else { return };
    let cap_ms = t.ms;
    let timings = Timings {
        interval_ms,
        cap_ms,
    };
    let policy = ctx.preset.policy_with(engine, timings);
    let longest_wait = js_min(cap_ms, TIMER_LIMIT_MS);
    let Some(threshold) = policy.lasting_threshold(longest_wait) else {
        return;
    };
    if threshold <= BOUNDED_CEILING_MS {
        return;
    }
    let t_text = if t.is_number {
        format!("{} ", format_ms(threshold))
    } else {
        "as long as the cap ".to_string()
    };
    out.push(
        Draft::at_value(
            doc,
            t.id,
            Code::LastingThresholdLong,
            e.field_path(t.name),
            format!(
                "`{CAP}` is {}, above 1 hour: under the `{}` rule a connection must live \
                 {t_text}before its end stops counting as a failure, so a healthy server whose \
                 connection drops more often than that never has its failure count reset and its \
                 waits keep growing to the cap",
                reads_as(t, doc),
                ctx.preset.name()
            ),
        )
        .server(&e.id)
        .field(t.name),
    );
}

fn over_limit_message(
    preset: Preset,
    engine: EngineKind,
    t: &Timing<'_>,
    doc: &Doc<'_>,
    interval: Option<&Timing<'_>>,
    cap: Option<&Timing<'_>>,
) -> String {
    let value = if t.is_number {
        reads_as(t, doc)
    } else {
        format!(
            "{}, which reads as more than the limit",
            describe(doc, t.id)
        )
    };
    let head = format!(
        "`{}` is {value}: past the JavaScript timer limit of 2147483647 ms (about 24.9 days)",
        t.name
    );
    // When main's legacy engine would start relaunching every millisecond.
    let timings = Timings {
        interval_ms: interval.map_or(DEFAULT_INTERVAL_MS, |t| t.ms),
        cap_ms: cap.map_or(DEFAULT_CAP_MS, |t| t.ms),
    };
    let main_legacy = Preset::Handshake.policy_with(EngineKind::Legacy, timings);
    let from = (1..=64u32).find(|&k| main_legacy.nominal_wait(k) > TIMER_LIMIT_MS);
    let main_legacy_text = match from {
        Some(k) => format!(
            "waits are not clamped: after {k} consecutive failure{} the wait passes the limit, \
             JavaScript runs the timer after 1 ms, and the host relaunches the server every \
             millisecond",
            if k == 1 { "" } else { "s" }
        ),
        None => "waits are not clamped, but the backoff stops doubling before it reaches the \
                 limit"
            .to_string(),
    };
    if refuses_bad_timings(preset) {
        format!(
            "{head}; under #999 every wait is clamped to that limit; on main's legacy engine \
             {main_legacy_text}"
        )
    } else if engine == EngineKind::Modern {
        format!("{head}; main's modern engine clamps every wait to that limit, as #999 does")
    } else {
        format!("{head}; on main's legacy engine {main_legacy_text}; #999 clamps every wait to the limit")
    }
}
