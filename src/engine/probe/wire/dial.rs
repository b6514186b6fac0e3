//! Reaching a server over the network: name resolution, TCP, TLS. Shared by the WebSocket and
//! HTTP transports so that both say why a connection could not be made in the same plain words:
//! `connection refused`, `name not resolved: HOST (...)`, `TLS failure: ...`.
//!
//! TLS is rustls with the ring provider and the system's certificate store, loaded once.

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rustls::pki_types::ServerName;
use tokio::net::TcpStream;
use tokio_tungstenite::MaybeTlsStream;
use url::{Host, Url};

/// A connection to a server, plain or TLS.
pub(crate) type Stream = MaybeTlsStream<TcpStream>;

/// Why a server could not be reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DialError {
    /// The URL has no host, or a scheme this transport does not speak.
    BadUrl(String),
    /// Name resolution failed (the system's reason follows, when it gave one).
    NameNotResolved { host: String, reason: String },
    /// Every address refused the TCP connection.
    Refused,
    /// Another TCP-level failure (unreachable network, reset, ...).
    Connect(String),
    /// The TLS handshake failed, or no trust anchors could be loaded.
    Tls(String),
}

impl fmt::Display for DialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DialError::BadUrl(why) => write!(f, "bad URL: {why}"),
            DialError::NameNotResolved { host, reason } if reason.is_empty() => {
                write!(f, "name not resolved: {host}")
            }
            DialError::NameNotResolved { host, reason } => {
                write!(f, "name not resolved: {host} ({reason})")
            }
            DialError::Refused => f.write_str("connection refused"),
            DialError::Connect(why) => write!(f, "connection failed: {why}"),
            DialError::Tls(why) => write!(f, "TLS failure: {why}"),
        }
    }
}

/// Whether the URL's scheme asks for TLS (`wss`, `https`).
pub(crate) fn is_tls(url: &Url) -> bool {
    matches!(url.scheme(), "wss" | "https")
}

/// Resolve, connect over TCP (each address in turn), and for `wss`/`https` do the TLS handshake
/// with `alpn` offered. No deadline of its own: the caller wraps it in its open timeout.
pub(crate) async fn dial(url: &Url, alpn: &[&[u8]]) -> Result<Stream, DialError> {
    let host = url
        .host()
        .ok_or_else(|| DialError::BadUrl("no host".into()))?;
    let port = url
        .port_or_known_default()
        .ok_or_else(|| DialError::BadUrl("no port".into()))?;
    let addrs: Vec<SocketAddr> = match &host {
        Host::Ipv4(ip) => vec![SocketAddr::new((*ip).into(), port)],
        Host::Ipv6(ip) => vec![SocketAddr::new((*ip).into(), port)],
        Host::Domain(name) => resolve(name, port).await?,
    };
    let tcp = connect_any(&addrs).await?;
    let _ = tcp.set_nodelay(true);
    if !is_tls(url) {
        return Ok(MaybeTlsStream::Plain(tcp));
    }
    let name = match host {
        Host::Domain(d) => ServerName::try_from(d.to_string())
            .map_err(|_| DialError::Tls(format!("{d} is not a valid server name")))?,
        Host::Ipv4(ip) => ServerName::IpAddress(std::net::IpAddr::from(ip).into()),
        Host::Ipv6(ip) => ServerName::IpAddress(std::net::IpAddr::from(ip).into()),
    };
    let config = tls_config(alpn)?;
    let connector = tokio_rustls::TlsConnector::from(config);
    match connector.connect(name, tcp).await {
        Ok(tls) => Ok(MaybeTlsStream::Rustls(tls)),
        Err(e) => Err(DialError::Tls(tls_reason(&e))),
    }
}

pub(super) async fn resolve(name: &str, port: u16) -> Result<Vec<SocketAddr>, DialError> {
    let not_resolved = |reason: String| DialError::NameNotResolved {
        host: name.to_string(),
        reason,
    };
    match tokio::net::lookup_host((name, port)).await {
        Ok(found) => {
            let addrs: Vec<SocketAddr> = found.collect();
            if addrs.is_empty() {
                Err(not_resolved("no addresses".into()))
            } else {
                Ok(addrs)
            }
        }
        Err(e) => {
            let text = e.to_string();
            let reason = text
                .strip_prefix("failed to lookup address information: ")
                .unwrap_or(&text)
                .to_string();
            Err(not_resolved(reason))
        }
    }
}

pub(super) async fn connect_any(addrs: &[SocketAddr]) -> Result<TcpStream, DialError> {
    let mut last = DialError::Refused;
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(s) => return Ok(s),
            Err(e) => last = connect_error(&e),
        }
    }
    Err(last)
}

/// A TCP connect error in plain words.
pub(crate) fn connect_error(e: &io::Error) -> DialError {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => DialError::Refused,
        _ => DialError::Connect(e.to_string()),
    }
}

/// The reason of a failed TLS handshake, without the io wrapper.
fn tls_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            "the server closed the connection during the TLS handshake (not a TLS server?)"
                .to_string()
        }
        io::ErrorKind::ConnectionReset => {
            "the server reset the connection during the TLS handshake".to_string()
        }
        _ => match e.get_ref() {
            Some(inner) => inner.to_string(),
            None => e.to_string(),
        },
    }
}

/// The system's trust anchors, loaded once per process.
pub(super) fn native_roots() -> Result<Arc<rustls::RootCertStore>, DialError> {
    static ROOTS: OnceLock<Result<Arc<rustls::RootCertStore>, DialError>> = OnceLock::new();
    ROOTS
        .get_or_init(|| {
            let found = rustls_native_certs::load_native_certs();
            let mut store = rustls::RootCertStore::empty();
            let (added, _ignored) = store.add_parsable_certificates(found.certs);
            if added == 0 {
                let why = found
                    .errors
                    .first()
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default();
                Err(DialError::Tls(format!(
                    "no certificates found in the system's certificate store{why}"
                )))
            } else {
                Ok(Arc::new(store))
            }
        })
        .clone()
}

/// A rustls client configuration: ring, safe defaults, the system's roots, `alpn` offered.
pub(crate) fn tls_config(alpn: &[&[u8]]) -> Result<Arc<rustls::ClientConfig>, DialError> {
    let roots = native_roots()?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| DialError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// `15 s`, or `300 ms` for a duration that is not whole seconds.
pub(crate) fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn refused_and_unresolved_in_plain_words() {
        // A port that was just free: bind, note it, close.
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr").port()
        };
        let url = Url::parse(&format!("ws://127.0.0.1:{port}/")).expect("url");
        let err = dial(&url, &[]).await.expect_err("nothing listens");
        assert_eq!(err.to_string(), "connection refused");

        let url = Url::parse("ws://no-such-host.invalid:80/").expect("url");
        let err = dial(&url, &[]).await.expect_err("not resolvable");
        assert!(
            err.to_string()
                .starts_with("name not resolved: no-such-host.invalid"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn tls_to_a_plain_server_is_a_tls_failure() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            if let Ok((mut s, _)) = listener.accept().await {
                let _ = s
                    .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                    .await;
            }
        });
        let url = Url::parse(&format!("wss://127.0.0.1:{}/", addr.port())).expect("url");
        let err = dial(&url, &[]).await.expect_err("not TLS");
        assert!(err.to_string().starts_with("TLS failure: "), "{err}");
    }
}
