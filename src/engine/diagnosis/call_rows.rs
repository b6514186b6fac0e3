//! The row about a `--call` that failed on a server that is up: the server starts, and its
//! tool cannot reach the service behind it (a cache, a database, a search cluster). The
//! addresses the call's error and the server's stderr name, and those the entry gives it (a
//! `host:port` in a value, a `*_HOST` beside its `*_PORT`), are each tried by a connect; one
//! where nothing listens is the cause, named with the variable that holds it, or as the
//! server's default when the entry holds none.

use super::evidence;
use super::given::entry_env;
use super::model::{Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::{connects, service_of, stderr_lines, Key};
use super::table::{Confidence, Id};
use crate::engine::probe::opening::ExchangeResult;
use crate::engine::probe::Launch;

/// The most connect experiments.
const MAX_CONNECTS: usize = 3;

/// The first launch whose `--call` failed with an error answer, and its message.
fn failed_call(launches: &[Launch]) -> Option<(&Launch, String)> {
    launches.iter().find_map(|l| {
        let o = l.report.opening.as_ref()?;
        let e = o.exchanges.iter().find(|e| e.method == "tools/call")?;
        match &e.result {
            ExchangeResult::Error { message, .. } => Some((l, message.clone())),
            _ => None,
        }
    })
}

/// An address the entry gives, with the variables or arguments that hold it.
struct Address {
    host: String,
    port: u16,
    held_by: Vec<String>,
}

/// The addresses the entry's values give: a `host:port` in one value (`REDIS_URL=
/// redis://127.0.0.1:6379`, `--host db:5432`), or a `P_HOST` beside a `P_PORT` (same prefix).
fn entry_addresses(s: &Setting) -> Vec<Address> {
    let mut out: Vec<Address> = Vec::new();
    // The values are redacted already: a masked password leaves the host and port readable.
    let env: Vec<&(String, String)> = entry_env(s).collect();
    for (k, v) in &env {
        for (host, port) in evidence::host_ports(v) {
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
        for (host, port) in evidence::host_ports(a) {
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

/// A `--call` that failed on a server that is up, where a connect to an address it names or
/// the entry gives is refused: `service-not-running`, with the key of the row.
pub(crate) fn service_down(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let (l, message) = failed_call(launches)?;
    let mut targets: Vec<Address> = Vec::new();
    let said = std::iter::once(message.as_str()).chain(stderr_lines(l));
    // A host the server names is tried when it is this machine or an address literal, or
    // the entry names it too: not a file's `name.py:455` in a traceback.
    let values: Vec<String> = entry_env(s)
        .map(|(_, v)| v.clone())
        .chain(s.args.iter().cloned())
        .collect();
    let plausible = |h: &str| {
        h == "localhost"
            || h.parse::<std::net::IpAddr>().is_ok()
            || values.iter().any(|v| v.contains(h))
    };
    for (host, port) in said
        .flat_map(evidence::host_ports)
        .filter(|(h, _)| plausible(h))
    {
        if targets.iter().any(|t| t.host == host && t.port == port) {
            continue;
        }
        targets.push(Address {
            host,
            port,
            held_by: Vec::new(),
        });
    }
    for a in entry_addresses(s) {
        match targets
            .iter_mut()
            .find(|t| t.host == a.host && t.port == a.port)
        {
            Some(t) => t.held_by.extend(a.held_by),
            None => targets.push(a),
        }
    }
    // What the entry gives first: that is where the user points the server.
    targets.sort_by_key(|t| t.held_by.is_empty());
    let mut tried = Vec::new();
    let mut down: Option<Address> = None;
    for t in targets.into_iter().take(MAX_CONNECTS) {
        let r = connects(&t.host, t.port);
        tried.push(format!(
            "connect {}:{}: {}",
            t.host,
            t.port,
            match &r {
                Ok(true) => "it answers".to_string(),
                Ok(false) => "refused".to_string(),
                Err(e) => e.clone(),
            }
        ));
        if r == Ok(false) && down.is_none() {
            down = Some(t);
        }
    }
    let d = down?;
    let at = format!("{}:{}", d.host, d.port);
    let what = service_of(d.port)
        .map(|x| format!(" ({x}'s usual port)"))
        .unwrap_or_default();
    let next = if d.held_by.is_empty() {
        format!(
            "start the service at {at}{what}: nothing listens there; the entry gives no such address, so it is the server's default (set its address variable or argument to where the service runs)"
        )
    } else {
        format!(
            "start the service at {at}{what}, or point {} at where it runs: nothing listens there",
            d.held_by.join(" and ")
        )
    };
    let mut evidence = vec![Evidence {
        launches: vec![l.number],
        source: Source::Request,
        text: format!(
            "tools/call (--call) answered: {}",
            super::model::cut(&message)
        ),
    }];
    evidence.extend(tried.into_iter().map(|t| Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text: t,
    }));
    evidence.truncate(MAX_EVIDENCE);
    let d = Diagnosis {
        id: Id::ServiceNotRunning,
        confidence: Confidence::High,
        summary: format!(
            "the tool call failed and nothing listens on {at}{what}, which the server's tools connect to"
        ),
        launches: vec![l.number],
        evidence,
        next_step: next,
    };
    Some((Key::CallFailedAndAddressRefused, d))
}
