//! The TLS rung of a remote server's diagnosis (issue 28; `remote.md` section 6): which
//! certificate, what this machine's store and Node's make of it, and what to change where
//! they differ.

use super::model::{Diagnosis, Evidence, Setting, Source};
use super::table::{Confidence, Id};
use crate::engine::probe::wire::rungs::{TlsFacts, Trust};
use crate::engine::probe::Launch;
use url::Url;

/// The URL's parts as the next steps name them.
pub(super) struct Place {
    pub(super) url: String,
    pub(super) host: String,
    pub(super) port: u16,
    pub(super) path: String,
}

impl Place {
    pub(super) fn of(url: &str) -> Option<Place> {
        let u = Url::parse(url).ok()?;
        Some(Place {
            host: u.host_str()?.to_string(),
            port: u.port_or_known_default()?,
            path: u.path().to_string(),
            url: url.to_string(),
        })
    }

    pub(super) fn at(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }

    pub(super) fn with_path(&self, path: &str) -> String {
        match Url::parse(&self.url) {
            Ok(mut u) => {
                u.set_path(path);
                u.to_string()
            }
            Err(_) => self.url.clone(),
        }
    }
}

/// What a store made of the chain, in words.
fn trust_words(t: &Trust) -> String {
    match t {
        Trust::Trusted => "trusts it".into(),
        Trust::Refused(why) => format!("refuses it ({why})"),
        Trust::Unknown => "not checked".into(),
    }
}

/// The certificate and both stores' verdicts, in one line of evidence.
pub(super) fn tls_words(t: &TlsFacts) -> String {
    let node = match &t.node {
        Some((version, trust)) => format!(
            "Node {version}'s bundled roots{} {}",
            t.node_extra
                .as_ref()
                .map(|f| format!(" plus NODE_EXTRA_CA_CERTS={f}"))
                .unwrap_or_default(),
            trust_words(trust)
        ),
        None => "Node's roots not checked (no `node` on PATH)".into(),
    };
    format!(
        "certificate: subject {}, issuer {}{}, valid until {}{}, {} sent; this machine's store \
         {}; {node}",
        t.subject,
        t.issuer,
        if t.self_issued { " (self-signed)" } else { "" },
        t.not_after,
        if t.expired { " (expired)" } else { "" },
        match t.chain_len {
            1 => "1 certificate".to_string(),
            n => format!("{n} certificates"),
        },
        trust_words(&t.system),
    )
}

/// `tls-untrusted`: which certificate, which store, and what to change.
pub(super) fn tls(place: &Place, why: &str, t: Option<&TlsFacts>) -> (Id, String, String) {
    let host = &place.host;
    let summary = format!("the TLS certificate of {host} is not accepted");
    let Some(t) = t else {
        return (
            Id::TlsUntrusted,
            summary,
            format!(
                "the certificate of {host} is refused ({why}) by this machine's store; a \
                 Node-based host (Claude Code, VS Code, Cursor, mcp-remote) trusts Node's \
                 bundled roots plus the PEM file NODE_EXTRA_CA_CERTS names when it starts, not \
                 this store: have the server send its full chain, or set NODE_EXTRA_CA_CERTS \
                 (in a bridge entry's env) to the issuing CA, and SSL_CERT_FILE for this doctor"
            ),
        );
    };
    let node_trusts = matches!(t.node, Some((_, Trust::Trusted)));
    let mismatch = [&t.system]
        .into_iter()
        .chain(t.node.as_ref().map(|(_, n)| n))
        .find_map(|x| match x {
            Trust::Refused(w) if w.contains("not this host name") => Some(w.clone()),
            _ => None,
        });
    let next = if t.expired {
        format!(
            "the certificate of {host} ({}) expired on {}: renew it on the server; no store \
             trusts an expired certificate, and no host setting helps",
            t.subject, t.not_after
        )
    } else if let Some(w) = mismatch {
        format!(
            "the certificate {host} sends is {w}: put the name it is issued for in the URL, or \
             reissue it with {host} among its names; no store or variable changes this"
        )
    } else if node_trusts {
        format!(
            "Node's roots trust the certificate of {host} and this machine's store does not: \
             Node-based hosts and bridges connect, the doctor does not; give the doctor the \
             issuer ({}) with SSL_CERT_FILE=<its PEM file> to probe it as they see it",
            t.issuer
        )
    } else if t.self_issued && t.chain_len == 1 {
        format!(
            "{host} sends a self-signed certificate ({}): every host refuses it (Node: \
             DEPTH_ZERO_SELF_SIGNED_CERT); give the server a certificate from a CA, or trust \
             this one where the host starts: NODE_EXTRA_CA_CERTS=<its PEM file> in the \
             environment of a Node-based host or in a bridge entry's env (read only when Node \
             starts), SSL_CERT_FILE=<the same file> for this doctor",
            t.subject
        )
    } else {
        format!(
            "{host}'s certificate is issued by {}, which neither this machine's store nor \
             Node's roots trust (Node: UNABLE_TO_VERIFY_LEAF_SIGNATURE or \
             SELF_SIGNED_CERT_IN_CHAIN): have the server send its full chain, or, for a \
             private CA, set NODE_EXTRA_CA_CERTS=<the CA's PEM file> where the Node-based host \
             starts (a bridge entry's env) and SSL_CERT_FILE=<the same file> for this doctor",
            t.issuer
        )
    };
    (Id::TlsUntrusted, summary, next)
}

/// `tls-node-untrusted`: an https server the doctor reached with this machine's store, whose
/// certificate Node's roots (plus `NODE_EXTRA_CA_CERTS`) refuse.
pub(super) fn node_untrusted(launches: &[Launch], setting: &Setting) -> Option<Diagnosis> {
    let place = Place::of(setting.url.as_deref()?)?;
    let (number, t) = launches
        .iter()
        .find_map(|l| l.report.session.node_tls.as_ref().map(|t| (l.number, t)))?;
    let node_words = match &t.node {
        Some((v, Trust::Refused(w))) => format!("Node {v} refuses it ({w})"),
        _ => "Node refuses it".into(),
    };
    let extra = match &t.node_extra {
        Some(f) => format!(
            "NODE_EXTRA_CA_CERTS={f} is set but does not hold the issuer: point it at the PEM \
             file of {}",
            t.issuer
        ),
        None => format!(
            "set NODE_EXTRA_CA_CERTS=<the PEM file of {}> where the host starts (a bridge \
             entry's env; read only when Node starts)",
            t.issuer
        ),
    };
    Some(Diagnosis {
        id: Id::TlsNodeUntrusted,
        confidence: Confidence::High,
        summary: format!(
            "this machine trusts {}'s certificate, Node does not",
            place.host
        ),
        launches: vec![number],
        evidence: vec![Evidence {
            launches: vec![number],
            source: Source::Http,
            text: tls_words(t),
        }],
        next_step: format!(
            "the doctor connected to {} with this machine's store (a root installed there, a \
             TLS-inspecting proxy's), but {node_words}: Claude Code, Cursor, Cline, mcp-remote \
             and MCP Inspector fail with SELF_SIGNED_CERT_IN_CHAIN or \
             UNABLE_TO_VERIFY_LEAF_SIGNATURE; {extra}; VS Code adds the system's certificates \
             (http.systemCertificates) and may connect",
            place.url
        ),
    })
}
