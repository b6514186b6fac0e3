//! Whose roots trust an https server's certificate (issue 28; `remote.md` section 6): the
//! chain the server sends is read with a handshake that is refused as soon as the chain has
//! arrived (nothing is ever sent over it), then judged against two stores: this machine's (the
//! one the doctor dials with) and Node's (what every Node-based host and bridge dials with:
//! the bundled roots of the `node` on PATH, plus the file `NODE_EXTRA_CA_CERTS` names). The
//! leaf's subject, issuer and expiry are read from its DER (a few fields; no X.509 crate).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use url::Url;

use super::rungs::{TlsFacts, Trust};

/// How long `node` may take to print its bundled roots.
const NODE_TIMEOUT: Duration = Duration::from_secs(10);

/// The server's certificate and what each store makes of it; `None` when no chain came (the
/// TCP dial or the handshake failed before the certificate).
pub(crate) async fn inspect(
    url: &Url,
    step: Duration,
    node_extra: Option<&str>,
) -> Option<TlsFacts> {
    let host = url
        .host_str()?
        .trim_start_matches('[')
        .trim_end_matches(']');
    let port = url.port_or_known_default()?;
    let name = ServerName::try_from(host.to_string()).ok()?;
    let chain = tokio::time::timeout(step, chain_of(host, port, name.clone()))
        .await
        .ok()??;
    let leaf = chain.first()?;
    let mut facts = read_leaf(leaf.as_ref()).unwrap_or_default();
    facts.chain_len = chain.len();
    facts.system = match super::dial::native_roots() {
        Ok(roots) => judge(roots, &chain, &name),
        Err(e) => Trust::Refused(e.to_string()),
    };
    facts.node_extra = node_extra.map(str::to_string);
    facts.node = node_roots(node_extra)
        .await
        .map(|(version, roots)| (version, judge(Arc::new(roots), &chain, &name)));
    Some(facts)
}

/// The file `NODE_EXTRA_CA_CERTS` names in the probe's environment (a Node host started from
/// it reads the same), if set.
pub(crate) fn node_extra() -> Option<String> {
    std::env::var("NODE_EXTRA_CA_CERTS")
        .ok()
        .filter(|v| !v.is_empty())
}

/// Dial and read the chain the server sends.
async fn chain_of(
    host: &str,
    port: u16,
    name: ServerName<'static>,
) -> Option<Vec<CertificateDer<'static>>> {
    let addrs = super::dial::resolve(host, port).await.ok()?;
    let tcp = super::dial::connect_any(&addrs).await.ok()?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let recorder = Arc::new(Recorder {
        chain: Mutex::default(),
        schemes: provider
            .signature_verification_algorithms
            .supported_schemes(),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .ok()?
        .dangerous()
        .with_custom_certificate_verifier(recorder.clone())
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    // The recorder refuses every chain: the handshake always fails, after the chain came.
    let _ = connector.connect(name, tcp).await;
    let chain = recorder
        .chain
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    (!chain.is_empty()).then_some(chain)
}

/// Keeps the chain the server sent and refuses it.
#[derive(Debug)]
struct Recorder {
    chain: Mutex<Vec<CertificateDer<'static>>>,
    schemes: Vec<SignatureScheme>,
}

impl ServerCertVerifier for Recorder {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let mut chain = vec![end_entity.clone().into_owned()];
        chain.extend(intermediates.iter().map(|c| c.clone().into_owned()));
        *self
            .chain
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = chain;
        Err(rustls::Error::General("read only".into()))
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("read only".into()))
    }

    fn verify_tls13_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("read only".into()))
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.schemes.clone()
    }
}

/// What a store makes of the chain.
fn judge(
    roots: Arc<RootCertStore>,
    chain: &[CertificateDer<'static>],
    name: &ServerName<'static>,
) -> Trust {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = match rustls::client::WebPkiServerVerifier::builder_with_provider(
        roots, provider,
    )
    .build()
    {
        Ok(v) => v,
        Err(e) => return Trust::Refused(e.to_string()),
    };
    let Some((leaf, rest)) = chain.split_first() else {
        return Trust::Refused("no certificate".into());
    };
    match verifier.verify_server_cert(leaf, rest, name, &[], UnixTime::now()) {
        Ok(_) => Trust::Trusted,
        Err(rustls::Error::InvalidCertificate(e)) => Trust::Refused(words(&e)),
        Err(e) => Trust::Refused(e.to_string()),
    }
}

/// A certificate error in plain words.
fn words(e: &CertificateError) -> String {
    match e {
        CertificateError::UnknownIssuer => "no root it trusts issued it".into(),
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => "expired".into(),
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            "not valid yet".into()
        }
        CertificateError::NotValidForName => "not issued for this host name".into(),
        CertificateError::NotValidForNameContext { presented, .. } => {
            let names: Vec<&str> = presented.iter().map(|p| bare_name(p)).collect();
            format!("issued for {}, not this host name", names.join(", "))
        }
        CertificateError::BadSignature => "a bad signature".into(),
        other => {
            let said = format!("{other:?}");
            if said.contains("CaUsedAsEndEntity") {
                "a CA certificate sent as the server's own".into()
            } else {
                said
            }
        }
    }
}

/// `other.example` of rustls's `DnsName("other.example")`.
fn bare_name(presented: &str) -> &str {
    match (presented.find('"'), presented.rfind('"')) {
        (Some(a), Some(b)) if b > a => &presented[a + 1..b],
        _ => presented,
    }
}

/// The roots of the `node` on PATH plus `NODE_EXTRA_CA_CERTS`'s file, and that node's version;
/// `None` when there is no node to ask.
async fn node_roots(extra: Option<&str>) -> Option<(String, RootCertStore)> {
    let out = tokio::time::timeout(
        NODE_TIMEOUT,
        tokio::process::Command::new("node")
            .args([
                "-p",
                "process.version + '\\n' + require('tls').rootCertificates.join('\\n')",
            ])
            .env_remove("NODE_OPTIONS")
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .ok()?
    .ok()?;
    if !out.status.success() {
        return None;
    }
    let version = out
        .stdout
        .split(|b| *b == b'\n')
        .next()
        .map(|v| String::from_utf8_lossy(v).trim().to_string())
        .unwrap_or_default();
    let mut store = RootCertStore::empty();
    store.add_parsable_certificates(
        CertificateDer::pem_slice_iter(&out.stdout).filter_map(Result::ok),
    );
    if let Some(path) = extra {
        if let Ok(pem) = std::fs::read(path) {
            store.add_parsable_certificates(
                CertificateDer::pem_slice_iter(&pem).filter_map(Result::ok),
            );
        }
    }
    Some((version, store))
}

/// One DER element: its tag, its content, and what follows it.
fn tlv(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = b.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (first as usize, rest)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 3 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |a, b| (a << 8) | *b as usize);
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// The subject, issuer and validity of a certificate.
fn read_leaf(der: &[u8]) -> Option<TlsFacts> {
    let (_, cert, _) = tlv(der)?;
    let (_, tbs, _) = tlv(cert)?;
    let mut rest = tbs;
    let (tag, _, r) = tlv(rest)?;
    if tag == 0xa0 {
        rest = r;
    }
    let (_, _, rest) = tlv(rest)?; // serial
    let (_, _, rest) = tlv(rest)?; // signature algorithm
    let (_, issuer, rest) = tlv(rest)?;
    let (_, validity, rest) = tlv(rest)?;
    let (_, subject, _) = tlv(rest)?;
    let (_, _, after) = tlv(validity)?;
    let (tag, not_after, _) = tlv(after)?;
    let expires = time_of(tag, not_after);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    Some(TlsFacts {
        subject: name_of(subject),
        issuer: name_of(issuer),
        self_issued: subject == issuer,
        not_after: expires
            .as_ref()
            .map(|(day, _)| day.clone())
            .unwrap_or_default(),
        expired: expires.is_some_and(|(_, at)| at < now),
        ..TlsFacts::default()
    })
}

/// `CN=..., O=...` of a Name (the common name and the organisation).
fn name_of(mut name: &[u8]) -> String {
    let mut parts = Vec::new();
    while let Some((_, set, rest)) = tlv(name) {
        name = rest;
        let Some((_, pair, _)) = tlv(set) else {
            continue;
        };
        let Some((_, oid, value)) = tlv(pair) else {
            continue;
        };
        let Some((_, text, _)) = tlv(value) else {
            continue;
        };
        let key = match oid {
            [0x55, 0x04, 0x03] => "CN",
            [0x55, 0x04, 0x0a] => "O",
            _ => continue,
        };
        let text: String = String::from_utf8_lossy(text)
            .chars()
            .filter(|c| !c.is_control())
            .take(120)
            .collect();
        parts.push(format!("{key}={text}"));
    }
    if parts.is_empty() {
        "(no common name)".into()
    } else {
        parts.join(", ")
    }
}

/// A UTCTime (0x17) or GeneralizedTime (0x18): the day (`2031-01-01`) and the Unix second.
fn time_of(tag: u8, t: &[u8]) -> Option<(String, i64)> {
    let s = std::str::from_utf8(t).ok()?;
    let (year, rest) = match tag {
        0x17 => {
            let yy: i64 = s.get(..2)?.parse().ok()?;
            (if yy < 50 { 2000 + yy } else { 1900 + yy }, s.get(2..)?)
        }
        0x18 => (s.get(..4)?.parse().ok()?, s.get(4..)?),
        _ => return None,
    };
    let num = |r: std::ops::Range<usize>| rest.get(r).and_then(|x| x.parse::<i64>().ok());
    let (month, day, hour, min) = (num(0..2)?, num(2..4)?, num(4..6)?, num(6..8)?);
    let sec = num(8..10).unwrap_or(0);
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some((
        format!("{year:04}-{month:02}-{day:02}"),
        days * 86400 + hour * 3600 + min * 60 + sec,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_times_are_read_as_days_and_seconds() {
        assert_eq!(
            time_of(0x17, b"210101000000Z"),
            Some(("2021-01-01".into(), 1_609_459_200))
        );
        assert_eq!(
            time_of(0x18, b"21260101000000Z"),
            Some(("2126-01-01".into(), 4_922_899_200))
        );
        assert_eq!(time_of(0x17, b"zz"), None);
    }

    #[test]
    fn a_short_or_bogus_der_reads_as_nothing() {
        assert_eq!(tlv(&[0x30, 0x85, 1, 2, 3, 4, 5]), None);
        assert_eq!(tlv(&[0x30, 0x05, 1]), None);
        assert!(read_leaf(b"not a certificate").is_none());
    }
}
