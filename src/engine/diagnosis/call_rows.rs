//! The row about a `--call` that failed on a server that is up: the server starts, and its
//! tool cannot reach the service behind it (a cache, a database, a search cluster). The
//! addresses the call's error and the server's stderr name, and those the entry gives it (a
//! `host:port` in a value, a `*_HOST` beside its `*_PORT`), are each tried by a connect; one
//! where nothing listens is the cause, named with the variable that holds it, or as the
//! server's default when the entry holds none.

use super::addresses::{entry_addresses, Address};
use super::evidence;
use super::given::entry_env;
use super::model::{Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::{connects, service_of, stderr_lines, Key};
use super::table::{Confidence, Id};
use crate::engine::probe::opening::ExchangeResult;
use crate::engine::probe::{Launch, ProbeRun};

/// The most connect experiments.
const MAX_CONNECTS: usize = 3;

/// How a `--call` failed: the text of its error, and whether the result was not marked
/// `isError` (proven a failure by the connect experiment of [`prove_answers`]).
pub(super) struct FailedCall<'a> {
    pub(super) launch: &'a Launch,
    pub(super) message: String,
    pub(super) unmarked: bool,
}

/// The first launch whose `--call` failed: an error answer, a result with `isError`, or a
/// result not marked `isError` that [`prove_answers`] proved a failure.
pub(super) fn failed_call(launches: &[Launch]) -> Option<FailedCall<'_>> {
    launches.iter().find_map(|l| {
        let o = l.report.opening.as_ref()?;
        let e = o.exchanges.iter().find(|e| e.method == "tools/call")?;
        let (message, unmarked) = match (&e.result, &o.call) {
            // The whole text of the result (2 KiB) where there is one, not its cut first line.
            (ExchangeResult::Error { .. }, Some(a)) if a.is_error => (a.text.clone(), false),
            (ExchangeResult::Error { message, .. }, _) => (message.clone(), false),
            (ExchangeResult::Answered, Some(a)) if a.failed.is_some() => (a.text.clone(), true),
            _ => return None,
        };
        Some(FailedCall {
            launch: l,
            message,
            unmarked,
        })
    })
}

/// The ports the entry gives without a host (`--port 9877`, `--port=9877`, `BLENDER_PORT=9877`
/// with no `BLENDER_HOST` beside it), at this machine: where a service the server's tools
/// reach listens by default on the host's own machine.
fn entry_ports(s: &Setting) -> Vec<Address> {
    let port = |v: &str| v.trim().parse::<u16>().ok().filter(|p| *p > 0);
    let named = |k: &str| {
        k.trim_start_matches('-')
            .to_ascii_lowercase()
            .ends_with("port")
    };
    let mut out: Vec<Address> = Vec::new();
    for (i, a) in s.args.iter().enumerate() {
        let (flag, p, shown) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, port(v), format!("`{a}`")),
            _ => match i.checked_sub(1).and_then(|p| s.args.get(p)) {
                Some(f) if f.starts_with('-') => (f.as_str(), port(a), format!("`{f} {a}`")),
                _ => continue,
            },
        };
        if let (true, Some(p)) = (named(flag), p) {
            out.push(Address {
                host: "localhost".to_string(),
                port: p,
                held_by: vec![shown],
            });
        }
    }
    let env: Vec<&(String, String)> = entry_env(s).collect();
    for (k, v) in &env {
        let Some(prefix) = k.strip_suffix("_PORT") else {
            continue;
        };
        let host = format!("{prefix}_HOST");
        if let (false, Some(p)) = (env.iter().any(|(h, _)| *h == host), port(v)) {
            out.push(Address {
                host: "localhost".to_string(),
                port: p,
                held_by: vec![format!("`{k}`")],
            });
        }
    }
    out
}

/// The addresses a failed call's words (its error, the server's stderr) name that are worth a
/// connect, then those the entry gives, each with what holds it. Tried in this order: an
/// address the error itself names (the one it failed at; one the entry holds first), then one
/// the entry gives, then one the server's other lines name. A refusal at a port the entry
/// does not give is the server's default (rabbitmq's management API at 15671), not the
/// entry's other port (`--port 5672`, the broker's).
fn targets<'a>(message: &'a str, said: impl Iterator<Item = &'a str>, s: &Setting) -> Vec<Address> {
    let in_message = evidence::host_ports(message);
    let mut targets: Vec<Address> = Vec::new();
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
    for (host, port) in std::iter::once(message)
        .chain(said)
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
    for a in entry_addresses(s).into_iter().chain(entry_ports(s)) {
        match targets
            .iter_mut()
            .find(|t| t.host == a.host && t.port == a.port)
        {
            Some(t) => t.held_by.extend(a.held_by),
            None => targets.push(a),
        }
    }
    // Where the error failed first, then what the entry gives: that is where the user points
    // the server.
    targets.sort_by_key(|t| {
        let named = in_message.iter().any(|(h, p)| *h == t.host && *p == t.port);
        (!named, t.held_by.is_empty())
    });
    targets
}

/// Whether a text carries a connect failure's code: a Node/libuv code (`ECONNREFUSED`,
/// `ENOTFOUND`, `EHOSTUNREACH`, ...), an errno written after `errno`/`error` or in the
/// parentheses a client library gives it (`Errno 111`, `[Errno -2]`, `Error 111 connecting`,
/// `[WinError 10061]`,
/// `(111)`), or Go's `dial tcp HOST:PORT: connect:`. Numbers are the connect errnos of Linux
/// (111 refused, 110 timed out, 113 no route, 104 reset), macOS (61) and Windows (10061),
/// and getaddrinfo's (-2, -3, -5).
pub(super) fn connect_code(text: &str) -> bool {
    const CODES: &[&str] = &[
        "ECONNREFUSED",
        "ECONNRESET",
        "ETIMEDOUT",
        "EHOSTUNREACH",
        "ENETUNREACH",
        "ENOTFOUND",
        "EAI_AGAIN",
    ];
    const ERRNOS: &[&str] = &["111", "110", "113", "104", "61", "10061", "-2", "-3", "-5"];
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| CODES.contains(w)) {
        return true;
    }
    let after_errno = words.windows(2).any(|w| {
        matches!(
            w[0].to_ascii_lowercase().as_str(),
            "errno" | "error" | "winerror"
        ) && ERRNOS.contains(&w[1])
    });
    let in_parens = ERRNOS
        .iter()
        .any(|n| text.contains(&format!("({n})")) || text.contains(&format!("({n} ")));
    after_errno || in_parens || (text.contains("dial tcp ") && text.contains(": connect:"))
}

/// Whether the server logged the text it answered (a stderr line holds one of the clauses of
/// its first line, 16 characters or more) or answered an error record, and a stderr line
/// carries a connect failure's code: the answer is what the server said of a connection that
/// failed (blender-mcp: "Error getting scene info: Could not connect to Blender. Make sure the
/// Blender addon is running.", with `[Errno 111] Connection refused` logged as it answered).
fn logged_beside_a_code(text: &str, lines: &[&str]) -> bool {
    let first = text.lines().next().unwrap_or_default();
    let logged = first
        .split(": ")
        .map(str::trim)
        .filter(|c| c.chars().count() >= 16)
        .any(|c| lines.iter().any(|l| l.contains(c)));
    (logged || super::call_record::error_record(text).is_some())
        && lines.iter().any(|l| connect_code(l))
}

/// The addresses a result not marked `isError` is tested at: with a connect failure's code in
/// its text ([`connect_code`]) or beside it ([`logged_beside_a_code`]), every address its text
/// or the entry gives; without one, only
/// an address the entry gives that its text holds too (a tool that prints where it connects
/// is no failure by that alone).
fn answer_targets(text: &str, lines: &[&str], s: &Setting) -> Vec<Address> {
    let coded = connect_code(text) || logged_beside_a_code(text, lines);
    let named = evidence::host_ports(text);
    targets(text, std::iter::empty(), s)
        .into_iter()
        .filter(|t| {
            coded
                || (!t.held_by.is_empty()
                    && named.iter().any(|(h, p)| *h == t.host && *p == t.port))
        })
        .collect()
}

/// Each address connected to (at most [`MAX_CONNECTS`]): what was tried and came back, and the
/// first where nothing listens.
pub(super) fn try_connects(targets: Vec<Address>) -> (Vec<String>, Option<Address>) {
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
    (tried, down)
}

/// The experiment on each `--call` result not marked `isError`: when its text holds a connect
/// failure's code or an address the entry gives, connect there; refused, the call failed (its
/// record's `failed` says what was tried), and the run is a finding as for `isError`. Run once
/// the run is over, before its verdict, off the probe's threads (each connect is bounded;
/// nothing is written). A result not proven so whose structure says it failed (an error record,
/// the server's ERROR log line repeated) and that names one of the entry's values, or fails
/// the same way on every launch, is a failed call too (`call_record.rs`).
pub(crate) async fn prove_answers(run: &mut ProbeRun, s: &Setting) {
    connect_answers(run, s).await;
    // Not proven by a connect: a result whose structure says it failed, tied to the entry.
    for (i, failed) in super::call_record::prove(run, s) {
        let call = run
            .launches
            .get_mut(i)
            .and_then(|l| l.report.opening.as_mut())
            .and_then(|o| o.call.as_mut());
        if let Some(a) = call {
            a.failed = Some(failed);
        }
    }
}

/// The connect experiment of [`prove_answers`].
async fn connect_answers(run: &mut ProbeRun, s: &Setting) {
    let answers: Vec<(usize, Vec<Address>)> = run
        .launches
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let a = l.report.opening.as_ref()?.call.as_ref()?;
            let targets = answer_targets(&a.text, &stderr_lines(l), s);
            (!a.is_error && a.failed.is_none() && !targets.is_empty()).then_some((i, targets))
        })
        .collect();
    if answers.is_empty() {
        return;
    }
    let proven = tokio::task::spawn_blocking(move || {
        answers
            .into_iter()
            .filter_map(|(i, targets)| {
                let (_, down) = try_connects(targets);
                down.map(|d| (i, format!("connect {}:{}: refused", d.host, d.port)))
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    for (i, failed) in proven {
        let call = run
            .launches
            .get_mut(i)
            .and_then(|l| l.report.opening.as_mut())
            .and_then(|o| o.call.as_mut());
        if let Some(a) = call {
            a.failed = Some(failed);
        }
    }
}

/// A `--call` that failed on a server that is up with a URL that did not parse (Node's
/// `Invalid URL`, httpx's `UnsupportedProtocol`, ...), while the entry holds an address without
/// its scheme in a place named for one: `bad-argument` naming it (`url_rows.rs`).
pub(crate) fn url_unparsed(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let FailedCall {
        launch, message, ..
    } = failed_call(launches)?;
    // A connect failure's code says the server dialled: the value parsed.
    let unreached = !connect_code(&message);
    let said = stderr_lines(launch);
    // The URL defaults the server's installed source writes (an experiment, read once).
    let defaults: Vec<(String, String)> = super::env_rows::scanned(s)
        .map(|x| {
            x.ports
                .iter()
                .filter_map(|p| Some((p.holder.clone(), p.url.clone()?)))
                .collect()
        })
        .unwrap_or_default();
    let f = super::url_rows::schemeless_call(&message, &said, &defaults, s, unreached)?;
    let d = Diagnosis {
        id: f.id,
        confidence: Confidence::High,
        summary: f.summary,
        launches: vec![launch.number],
        evidence: f
            .evidence
            .into_iter()
            .map(|(source, text)| Evidence {
                launches: vec![launch.number],
                source,
                text,
            })
            .collect(),
        next_step: f.next,
    };
    Some((Key::UrlParseWithSchemelessValue, d))
}

/// A `--call` that failed on a server that is up, where a connect to an address it names or
/// the entry gives is refused: `service-not-running`, with the key of the row (a result not
/// marked `isError` is its own key).
pub(crate) fn service_down(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let FailedCall {
        launch: l,
        message,
        unmarked,
    } = failed_call(launches)?;
    let mut targets = if unmarked {
        answer_targets(&message, &stderr_lines(l), s)
    } else {
        targets(&message, stderr_lines(l).into_iter(), s)
    };
    if targets.is_empty() && network_failure(&message, &stderr_lines(l)) {
        targets = source_urls(s);
    }
    let (tried, down) = try_connects(targets);
    let d = down?;
    let at = format!("{}:{}", d.host, d.port);
    let what = service_of(d.port)
        .map(|x| format!(" ({x}'s usual port)"))
        .unwrap_or_default();
    let set_by = d
        .held_by
        .is_empty()
        .then(|| default_set_by(s, d.port))
        .flatten();
    let next = if let Some(p) = &set_by {
        let how = if let Some(url) = &p.url {
            let place = if p.holder.starts_with("--") {
                super::words::terms("the entry's args", s)
            } else {
                super::words::terms("the entry's `env`", s)
            };
            format!(
                "set `{}` in {place} to the service's URL (its default is {url})",
                p.holder
            )
        } else if p.holder.starts_with("--") {
            let args = super::words::terms("the entry's args", s);
            format!("add `{} <the port where it runs>` to {args}", p.holder)
        } else {
            let env = super::words::terms("the entry's `env`", s);
            format!("set `{}` in {env} to the port where it runs", p.holder)
        };
        format!(
            "start the service at {at}{what}: nothing listens there; the entry gives no such address, so port {} is the server's default, which `{}` sets ({}): {how}",
            d.port, p.holder, p.at
        )
    } else if d.held_by.is_empty() {
        format!(
            "start the service at {at}{what}: nothing listens there; the entry gives no such address, so it is the server's default (set its address variable or argument to where the service runs)"
        )
    } else {
        format!(
            "start the service at {at}{what}, or point {} at where it runs: nothing listens there",
            d.held_by.join(" and ")
        )
    };
    let mut evidence = vec![answered(l, unmarked, &message)];
    evidence.extend(tried.into_iter().map(|t| Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text: t,
    }));
    if let Some(p) = &set_by {
        // Kept under the cut: it says where the port comes from.
        let at = evidence.len().min(MAX_EVIDENCE - 1);
        evidence.insert(
            at,
            Evidence {
                launches: Vec::new(),
                source: Source::Tried,
                text: format!(
                    "read the server's source: `{}` defaults to {} ({})",
                    p.holder, p.port, p.at
                ),
            },
        );
    }
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
    let key = if unmarked {
        Key::CallAnswerHoldsRefusedAddress
    } else {
        Key::CallFailedAndAddressRefused
    };
    Some((key, d))
}

/// Whether a failed call's error is a network failure that names no address: a connect
/// failure's code in it or in the server's lines, or undici's `fetch failed` (Node's `fetch`,
/// whose `TypeError` carries the code only in its `cause`).
fn network_failure(message: &str, lines: &[&str]) -> bool {
    let fetch = |t: &str| {
        t.lines().any(|l| {
            let l = l.trim().trim_start_matches("TypeError:").trim();
            l == "fetch failed" || l.ends_with(": fetch failed") || l.starts_with("fetch failed")
        })
    };
    connect_code(message) || fetch(message) || lines.iter().any(|l| connect_code(l))
}

/// The service address the server's installed source writes as a URL default beside the
/// variable or flag that sets it, which the entry does not set (prometheus-mcp's
/// `process.env.PROMETHEUS_URL || "http://localhost:9090"`): where its tools connect when
/// the entry gives no address. One such variable, or of several the one whose name shares a
/// word with the tool called (`PROMETHEUS_URL`, `prometheus_build_info`).
fn source_urls(s: &Setting) -> Vec<Address> {
    let all = default_urls(s);
    let mut holders: Vec<&str> = all.iter().map(|(h, _)| h.as_str()).collect();
    holders.dedup();
    let tool = s
        .call_tool
        .as_deref()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let tied = |h: &str| {
        h.trim_start_matches('-')
            .split(['_', '-'])
            .map(str::to_ascii_lowercase)
            .filter(|p| p.len() >= 4 && !["host", "addr", "base", "endpoint"].contains(&p.as_str()))
            .any(|p| tool.contains(&p))
    };
    let chosen: Vec<&str> = match holders.as_slice() {
        [one] => vec![*one],
        _ => holders.iter().copied().filter(|h| tied(h)).collect(),
    };
    let [one] = chosen.as_slice() else {
        return Vec::new();
    };
    let one = one.to_string();
    all.into_iter()
        .filter(|(h, _)| *h == one)
        .map(|(_, a)| a)
        .collect()
}

/// Each URL default of the server's source whose holder the entry does not set, with it.
fn default_urls(s: &Setting) -> Vec<(String, Address)> {
    let Some(scanned) = super::env_rows::scanned(s) else {
        return Vec::new();
    };
    let given = |h: &str| {
        entry_env(s).any(|(k, _)| k == h)
            || s.args
                .iter()
                .any(|a| a == h || a.starts_with(&format!("{h}=")))
    };
    let mut out: Vec<(String, Address)> = Vec::new();
    for p in scanned.ports.iter().filter(|p| !given(&p.holder)) {
        let Some(url) = &p.url else { continue };
        let Some((_, rest)) = url.split_once("://") else {
            continue;
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = authority
            .rsplit_once(':')
            .map_or(authority, |(h, _)| h)
            .rsplit('@')
            .next()
            .unwrap_or_default();
        if host.is_empty() || out.iter().any(|(_, a)| a.host == host && a.port == p.port) {
            continue;
        }
        let a = Address {
            host: host.to_string(),
            port: p.port,
            held_by: Vec::new(),
        };
        out.push((p.holder.clone(), a));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// An experiment reading the server's installed source ([`super::source_scan`]): the
/// variable or flag it writes `port` beside as its default, one the entry does not set
/// (`"--api-port", type=int, default=15671`; `os.getenv('OBSIDIAN_PORT', '27124')`).
fn default_set_by(s: &Setting, port: u16) -> Option<super::source_scan::PortDefault> {
    let scanned = super::env_rows::scanned(s)?;
    let given = |h: &str| {
        entry_env(s).any(|(k, _)| k == h)
            || s.args
                .iter()
                .any(|a| a == h || a.starts_with(&format!("{h}=")))
    };
    scanned
        .ports
        .iter()
        .find(|p| p.port == port && !given(&p.holder))
        .cloned()
}

/// A `--call` that failed (an error, `isError`, or a result whose structure says so) with an
/// error that names one of the entry's values as a whole word (or the server's ERROR log line
/// does): `bad-argument` naming the variable or argument that holds it (`AWS_PROFILE=prod`: the
/// config profile (prod) could not be found).
pub(crate) fn value_named(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let FailedCall {
        launch: l,
        message,
        unmarked,
    } = failed_call(launches)?;
    let (said, logs) = super::call_record::failure_of(l).unwrap_or_else(|| {
        (
            message.clone(),
            super::call_record::error_logs(&stderr_lines(l)),
        )
    });
    let (n, line) = super::call_record::tie(&said, &logs, s)?;
    // The clause that names the value: `The config profile (prod) could not be found`.
    let clause = line
        .split(": ")
        .filter(|c| c.contains(&n.value))
        .last()
        .unwrap_or(&line);
    let clause = super::model::cut(clause);
    let (what, change) = match &n.var {
        Some(k) => (
            format!("`{k}={}`", n.value),
            super::words::terms(
                &format!("set `{k}` in the entry's `env` to a value it accepts, or remove it"),
                s,
            ),
        ),
        None => (
            n.shown.clone(),
            super::words::terms("change it in the entry's args", s),
        ),
    };
    let mut evidence = vec![answered(l, unmarked, &said)];
    if line != said {
        evidence.push(Evidence {
            launches: vec![l.number],
            source: Source::Stderr,
            text: super::model::cut(&line),
        });
    }
    if let Some(k) = &n.var {
        evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Environment,
            text: format!("the server's environment gives {k}={}", n.value),
        });
    }
    let d = Diagnosis {
        id: Id::BadArgument,
        confidence: Confidence::High,
        summary: format!("the tool call fails on {what}: \"{clause}\""),
        launches: vec![l.number],
        evidence,
        next_step: format!("{what}: the server says \"{clause}\": {change}"),
    };
    Some((Key::CallErrorNamesAnEntryValue, d))
}

/// The call's answer as evidence: `tools/call (--call) answered[, not marked isError]: <text>`.
pub(super) fn answered(l: &Launch, unmarked: bool, text: &str) -> Evidence {
    let how = if unmarked {
        "tools/call (--call) answered, not marked isError"
    } else {
        "tools/call (--call) answered"
    };
    Evidence {
        launches: vec![l.number],
        source: Source::Request,
        text: format!("{how}: {}", super::model::cut(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::connect_code;

    #[test]
    fn a_connect_failure_code_is_a_structure_not_a_word() {
        for coded in [
            "Error executing query: Can't connect to MySQL server on '127.0.0.1:3399' (Errno 111: Connection refused)",
            "connect ECONNREFUSED 127.0.0.1:5432",
            "getaddrinfo ENOTFOUND db.internal",
            "Error 111 connecting to 127.0.0.1:6390. Connection refused.",
            "[Errno -2] Name or service not known",
            "Can't connect to MySQL server on 'db' (111)",
            "dial tcp 127.0.0.1:9000: connect: connection refused",
            "[WinError 10061] No connection could be made",
        ] {
            assert!(connect_code(coded), "{coded}");
        }
        for plain in [
            "errors: 0, refused: 0, primary 127.0.0.1:5432 up",
            "Error 500 from the API",
            "HTTP error (404)",
            "connection refused by policy",
            "ECONNREFUSEDX is not a code",
            "rows: 111",
        ] {
            assert!(!connect_code(plain), "{plain}");
        }
    }
}
