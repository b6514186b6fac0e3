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

/// The entry's values that hold a host and its port apart (`SMTP_HOST=127.0.0.1` and
/// `SMTP_PORT=2599`, `--port 2599`): the one whose whole value is the port, with the one whose
/// whole value is the host when there is one.
pub(super) fn split_holder(s: &Setting, host: &str, port: u16) -> Option<String> {
    let values = super::given::entry_values(s);
    let port = port.to_string();
    let of_port: Vec<&String> = values
        .iter()
        .filter(|(_, v)| *v == port)
        .map(|(shown, _)| shown)
        .collect();
    let [p] = of_port.as_slice() else {
        return None;
    };
    let of_host: Vec<&String> = values
        .iter()
        .filter(|(_, v)| v == host)
        .map(|(shown, _)| shown)
        .collect();
    Some(match of_host.as_slice() {
        [h] => format!("{h} and {p}"),
        _ => (*p).clone(),
    })
}

/// The one variable the server's source reads for a service's address (a part of its name is
/// URL, URI, DSN or HOST; for a well-known port, the service's word too: `DATABASE`, `PG`,
/// `POSTGRES` for PostgreSQL) that the entry does not set, and where it is read: without it the
/// server (or its driver) connects to its default (pg's 127.0.0.1:5432).
pub(super) fn unset_address_read(s: &Setting, port: u16) -> Option<(String, String)> {
    let code = super::env_rows::scanned(s)?;
    let words: &[&str] = match super::connect::service_of(port) {
        Some("PostgreSQL") => &["DATABASE", "DB", "PG", "POSTGRES", "POSTGRESQL"],
        Some("MySQL/MariaDB") => &["DATABASE", "DB", "MYSQL", "MARIADB"],
        Some("Redis") => &["REDIS", "CACHE", "VALKEY"],
        Some("MongoDB") => &["MONGO", "MONGODB", "DATABASE", "DB"],
        Some("Qdrant") => &["QDRANT"],
        Some("Elasticsearch") => &["ELASTIC", "ELASTICSEARCH", "ES", "OPENSEARCH"],
        Some("RabbitMQ") => &["AMQP", "RABBITMQ", "RABBIT"],
        _ => &[],
    };
    let parts = |n: &str| -> Vec<String> {
        n.split('_')
            .map(str::to_ascii_uppercase)
            .collect::<Vec<_>>()
    };
    let address = |n: &str| {
        parts(n)
            .iter()
            .any(|p| matches!(p.as_str(), "URL" | "URI" | "DSN" | "HOST" | "CONNECTION"))
    };
    let unset: Vec<_> = code
        .reads
        .iter()
        .filter(|r| {
            upper_snake_name(&r.name) && address(&r.name) && !super::given::is_set(s, &r.name)
        })
        .collect();
    let of_service: Vec<_> = unset
        .iter()
        .filter(|r| parts(&r.name).iter().any(|p| words.contains(&p.as_str())))
        .collect();
    let pick = match (of_service.as_slice(), unset.as_slice()) {
        ([one], _) => **one,
        ([], [one]) if words.is_empty() => *one,
        _ => return None,
    };
    Some((pick.name.clone(), pick.at.clone()))
}

fn upper_snake_name(n: &str) -> bool {
    super::model::upper_snake(n) || n.chars().all(|c| c.is_ascii_uppercase())
}
