//! The host and port pairs Python libraries print apart, read for [`super::evidence::host_ports`].

/// The host and port a Python library writes apart: `host='H', port=N` (urllib3's connection
/// pools, `HTTPConnection(host=..., port=...)`) or a tuple `('H', N)` (a socket address:
/// asyncio's `Connect call failed`, uvicorn's bind). The host is quoted; the port a number.
pub(crate) fn python_pairs(text: &str) -> Vec<(String, u16)> {
    let quoted_host = |s: &str| -> Option<(String, usize)> {
        let q = s.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let end = s[1..].find(q)?;
        let host = &s[1..1 + end];
        let ok = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'));
        ok.then(|| (host.to_string(), end + 2))
    };
    let number = |s: &str| -> Option<u16> {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        let next = s[d.len()..].chars().next();
        (!d.is_empty() && next.is_none_or(|c| !c.is_ascii_alphanumeric()))
            .then(|| d.parse::<u16>().ok())
            .flatten()
            .filter(|p| *p > 0)
    };
    let mut out = Vec::new();
    // paramiko's NoValidConnectionsError: `Unable to connect to port 2299 on 127.0.0.1`.
    for (at, _) in text.match_indices("port ") {
        let rest = &text[at + 5..];
        let Some(port) = number(rest) else {
            continue;
        };
        let Some(host) = rest[port.to_string().len()..].strip_prefix(" on ") else {
            continue;
        };
        let host: String = host
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
            .collect();
        let host = host.trim_end_matches(['.', ':']).to_string();
        let address = host == "localhost" || host.chars().any(|c| c.is_ascii_digit() || c == '.');
        if !host.is_empty() && address {
            out.push((host, port));
        }
    }
    for (at, _) in text.match_indices("host=") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some((host, used)) = quoted_host(&text[at + 5..]) else {
            continue;
        };
        let rest = text[at + 5 + used..].trim_start_matches([',', ' ']);
        if let Some(port) = rest.strip_prefix("port=").and_then(number) {
            out.push((host, port));
        }
    }
    for (at, _) in text.match_indices('(') {
        let Some((host, used)) = quoted_host(&text[at + 1..]) else {
            continue;
        };
        let rest = &text[at + 1 + used..];
        let Some(rest) = rest.strip_prefix(", ") else {
            continue;
        };
        let named = host.chars().any(|c| c.is_ascii_alphabetic() && c != ':')
            && host != "localhost"
            && !host.contains('.');
        // A tuple's host is an address or a host name, not a word (`('name', 3)`).
        if named && !host.contains(':') {
            continue;
        }
        if let Some(port) = number(rest) {
            if rest[port.to_string().len()..].starts_with(')') {
                out.push((host, port));
            }
        }
    }
    out
}
