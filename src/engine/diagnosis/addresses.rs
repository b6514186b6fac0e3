//! The addresses an entry's values give (a `host:port` in a value, a URL at its scheme's
//! default port, a `*_HOST` beside its `*_PORT`), with the variables or arguments that hold
//! them: read by the rows that connect to them (`call_rows.rs`, `answer_rows.rs`, the refused
//! row of `structured.rs`).

use super::evidence;
use super::given::entry_env;
use super::model::Setting;

/// An address the entry gives, with the variables or arguments that hold it.
pub(super) struct Address {
    pub(super) host: String,
    pub(super) port: u16,
    pub(super) held_by: Vec<String>,
}

/// The addresses the entry's values give: a `host:port` in one value (`REDIS_URL=
/// redis://127.0.0.1:6379`, `--host db:5432`), a URL without its port at its scheme's default
/// (`http://127.0.0.1/mcp` at 80), or a `P_HOST` beside a `P_PORT` (same prefix).
pub(super) fn entry_addresses(s: &Setting) -> Vec<Address> {
    let mut out: Vec<Address> = Vec::new();
    // The values are redacted already: a masked password leaves the host and port readable.
    let env: Vec<&(String, String)> = entry_env(s).collect();
    for (k, v) in &env {
        for (host, port) in evidence::host_ports(v).into_iter().chain(default_ports(v)) {
            out.push(Address {
                host,
                port,
                held_by: vec![format!("`{k}`")],
            });
        }
        let Some(prefix) = k.strip_suffix("_HOST") else {
            continue;
        };
        let port_var = format!("{prefix}_PORT");
        let port = env
            .iter()
            .find(|(p, _)| *p == port_var)
            .and_then(|(_, p)| p.trim().parse::<u16>().ok());
        if let Some(port) = port.filter(|p| *p > 0 && !v.is_empty() && !v.contains(':')) {
            out.push(Address {
                host: v.trim().to_string(),
                port,
                held_by: vec![format!("`{k}`"), format!("`{port_var}`")],
            });
        }
    }
    for (i, a) in s.args.iter().enumerate() {
        for (host, port) in evidence::host_ports(a).into_iter().chain(default_ports(a)) {
            let flag = i.checked_sub(1).and_then(|p| s.args.get(p));
            let shown = match flag {
                Some(f) if f.starts_with('-') && !a.starts_with('-') => format!("`{f} {a}`"),
                _ => format!("the argument `{a}`"),
            };
            out.push(Address {
                host,
                port,
                held_by: vec![shown],
            });
        }
    }
    out
}

/// The URLs in `text` written without a port, at their scheme's default port
/// (`https://api.example.com/v1` at 443, `redis://cache` at 6379).
fn default_ports(text: &str) -> Vec<(String, u16)> {
    const SCHEMES: &[(&str, u16)] = &[
        ("http", 80),
        ("https", 443),
        ("ws", 80),
        ("wss", 443),
        ("redis", 6379),
        ("postgres", 5432),
        ("postgresql", 5432),
        ("mysql", 3306),
        ("mongodb", 27017),
        ("amqp", 5672),
        ("nats", 4222),
    ];
    let mut out = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ',')) {
        let Some((scheme, rest)) = word.split_once("://") else {
            continue;
        };
        let scheme = scheme.rsplit(|c: char| !c.is_ascii_alphanumeric()).next();
        let Some(port) = SCHEMES
            .iter()
            .find(|(s, _)| Some(*s) == scheme.map(str::to_ascii_lowercase).as_deref())
            .map(|(_, p)| *p)
        else {
            continue;
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
        let host = authority.rsplit('@').next().unwrap_or(authority);
        let named = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if named && host.chars().any(|c| c.is_ascii_alphanumeric()) {
            out.push((host.to_string(), port));
        }
    }
    out
}
