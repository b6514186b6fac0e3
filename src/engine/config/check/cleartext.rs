//! A token or `access` sent in clear text (`ws://`, `http://`) to a host that is not loopback.

use url::{Host, Url};

use super::super::draft::{short, Draft};
use super::super::finding::Code;
use super::super::json::Kind;
use super::super::walk::RawEntry;
use super::ctx::Ctx;

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

pub(super) fn cleartext(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, url: &str, out: &mut Vec<Draft>) {
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
