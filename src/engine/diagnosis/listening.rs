//! `http-mode` found by an experiment rather than by the server's words: a stdio launch that
//! answered nothing and was still running when its handshake ended, whose processes listen
//! on a TCP port (read from `/proc` before it was stopped: see
//! `probe::watch::sockets`). A FastMCP server run with `streamable-http` under a stdio host
//! (excel-mcp-server) prints nothing at all; the port is the proof.

use super::launch::{ended, ev};
use super::model::{Hit, Setting, Source};
use super::table::RULES;
use super::words::terms;
use crate::engine::probe::watch::sockets::Listening;
use crate::engine::probe::Launch;

/// The key of this row (in the list every rule's key is checked against).
#[cfg(test)]
pub(crate) const KEY: super::structured::Key = super::structured::Key::ListensOnTcpSilently;

/// A transport's name as an argument or a value says it (dashes and underscores dropped):
/// `sse`, `http`, `streamable-http`, `--streamableHttp`.
const MODE_WORDS: &[&str] = &[
    "sse",
    "http",
    "streamablehttp",
    "streamable",
    "httpstream",
    "shttp",
];

/// The step back to stdio: remove the variable or drop the argument that chose the HTTP mode
/// (`chosen`, `true` for a variable), or, with none, start it in its stdio mode. Shared with
/// the words' `http-mode` row (`modes.rs`).
pub(super) fn stdio_step(chosen: Option<&(String, bool)>, setting: &Setting) -> String {
    match chosen {
        Some((a, true)) => format!(
            "remove `{a}` from {} to run it over stdio",
            terms("the entry's `env`", setting)
        ),
        Some((a, false)) => format!(
            "drop `{a}` from {} to run it over stdio",
            terms("the entry's args", setting)
        ),
        None => "start it in its stdio mode (see its `--help`)".to_string(),
    }
}

/// The argument or variable of the entry that chose the HTTP mode or its port: a mode word
/// (`streamable-http`, `--transport http`, `sse`, a flag naming HTTP or SSE: `--streamableHttp`,
/// `--sse-port`), a `--port` (with `port`, the one listened on: only that one), an argument
/// equal to `port`, a variable whose value is a mode word (`MCP_TRANSPORT=http`) or `port`.
/// `true`: a variable. The one finder of both `http-mode` rows: the words' (`modes.rs`, the
/// port unknown) and the sockets' (this file).
pub(super) fn http_switch(setting: &Setting, port: Option<u16>) -> Option<(String, bool)> {
    let p = port.map(|p| p.to_string());
    let modal = |a: &str| {
        let low = a.to_ascii_lowercase();
        let word: String = low
            .trim_start_matches('-')
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect();
        MODE_WORDS.contains(&word.as_str())
            || (a.starts_with('-')
                && !low.contains("://")
                && (low.contains("http") || low.contains("streamable") || low.starts_with("--sse")))
    };
    let args = &setting.args;
    for (i, a) in args.iter().enumerate() {
        let low = a.to_ascii_lowercase();
        if ["--transport", "-t", "--mode"].contains(&low.as_str()) {
            if let Some(v) = args.get(i + 1).filter(|v| modal(v)) {
                return Some((format!("{a} {v}"), false));
            }
        }
        if let Some(v) = low.strip_prefix("--transport=") {
            if modal(v) {
                return Some((a.clone(), false));
            }
        }
        if modal(a) {
            return Some((a.clone(), false));
        }
    }
    for (i, a) in args.iter().enumerate() {
        let low = a.to_ascii_lowercase();
        let value = args.get(i + 1).filter(|v| !v.starts_with('-'));
        if low == "--port" || low == "-p" {
            match (value, &p) {
                (Some(v), Some(p)) if v == p => return Some((format!("{a} {p}"), false)),
                (Some(v), None) => return Some((format!("{a} {v}"), false)),
                _ => {}
            }
        }
        if low.starts_with("--port=") || p.as_ref().is_some_and(|p| a == p) {
            return Some((a.clone(), false));
        }
    }
    let env = &setting.env_values;
    env.iter()
        .find(|(k, v)| k.to_ascii_uppercase().contains("TRANSPORT") && modal(v))
        .or_else(|| {
            let p = p.as_ref()?;
            env.iter().find(|(_, v)| v.trim() == p)
        })
        .map(|(k, v)| (format!("{k}={v}"), true))
}

/// The sockets a launch that answered nothing listened on, when this row applies to it: not
/// connected, still running at the end of its handshake, nothing said on stdout that was
/// JSON-RPC (the wire reads the sockets only then).
fn silent_listener(l: &Launch) -> Option<&[Listening]> {
    if l.report.connected_at_ms.is_some() || ended(l).is_some() {
        return None;
    }
    let listening = &l.report.process.as_ref()?.listening;
    (!listening.is_empty()).then_some(listening.as_slice())
}

/// `http-mode` from the sockets: "it listens on port N (HTTP mode)".
pub(super) fn hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    let listening = silent_listener(l)?;
    let port = listening.first()?.port;
    let base = format!("http://localhost:{port}");
    let shown: Vec<String> = listening.iter().map(Listening::shown).collect();
    let mut evidence = vec![ev(
        l,
        Source::Tried,
        format!(
            "the TCP sockets its processes listen on (/proc/PID/fd, /proc/net/tcp): {}",
            shown.join(", ")
        ),
    )];
    if let Some(e) = l
        .report
        .outcome
        .as_ref()
        .map(|o| o.error().to_string())
        .filter(|e| !e.is_empty())
    {
        evidence.push(ev(l, Source::Exit, format!("{e}, nothing on stdout")));
    }
    let chosen = http_switch(setting, Some(port));
    let drop = format!("or {}", stdio_step(chosen.as_ref(), setting));
    let next = if setting.entry {
        format!(
            "it listens on port {port} (HTTP mode), which a stdio host cannot talk to: probe `--url {base}/mcp` (or `{base}/sse`) while it runs and give the entry that `\"url\"` in place of `command`, {drop}"
        )
    } else {
        format!(
            "it listens on port {port} (HTTP mode): probe `--url {base}/mcp` (or `{base}/sse`) while it runs, {drop}"
        )
    };
    Some(Hit {
        rule: i,
        confidence: RULES[i].confidence,
        name: Some(format!("port {port}")),
        says: Some(format!(
            "it listens on port {port} and answered nothing on stdio: it started an HTTP server, which a stdio host cannot talk to"
        )),
        next: Some(next),
        launches: vec![l.number],
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(args: &[&str], env: &[(&str, &str)]) -> Setting {
        Setting {
            command: Some("uvx".into()),
            args: args.iter().map(|a| a.to_string()).collect(),
            env_values: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            entry: true,
            ..Setting::default()
        }
    }

    #[test]
    fn names_the_argument_or_variable_that_chose_the_mode_or_the_port() {
        let switch = |s: &Setting, port: u16| http_switch(s, Some(port));
        let s = setting(&["excel-mcp-server", "streamable-http"], &[]);
        assert_eq!(switch(&s, 8024), Some(("streamable-http".into(), false)));
        let s = setting(&["srv", "--transport", "http"], &[]);
        assert_eq!(switch(&s, 8024), Some(("--transport http".into(), false)));
        let s = setting(&["srv", "--port", "8024"], &[]);
        assert_eq!(switch(&s, 8024), Some(("--port 8024".into(), false)));
        let s = setting(&["srv"], &[("FASTMCP_PORT", "8024")]);
        assert_eq!(switch(&s, 8024), Some(("FASTMCP_PORT=8024".into(), true)));
        let s = setting(&["srv"], &[("MCP_TRANSPORT", "sse")]);
        assert_eq!(switch(&s, 9), Some(("MCP_TRANSPORT=sse".into(), true)));
        // A URL holding "http", a package named for HTTP and a port that is not the one
        // listened on choose nothing.
        let s = setting(
            &["mcp-server-http-fetch", "--api", "http://x:8024"],
            &[("OTHER", "8025")],
        );
        assert_eq!(switch(&s, 8024), None);
        let s = setting(&["srv", "--port", "8025"], &[]);
        assert_eq!(switch(&s, 8024), None);
    }

    #[test]
    fn the_words_row_names_the_switch_without_a_port() {
        // What the server's words name (`listening on http://...`): no port to match.
        let s = setting(
            &["@modelcontextprotocol/server-everything", "streamableHttp"],
            &[],
        );
        assert_eq!(
            http_switch(&s, None),
            Some(("streamableHttp".into(), false))
        );
        let s = setting(&["srv", "--transport", "sse"], &[]);
        assert_eq!(
            http_switch(&s, None),
            Some(("--transport sse".into(), false))
        );
        let s = setting(&["srv", "--sse-port", "9000"], &[]);
        assert_eq!(http_switch(&s, None), Some(("--sse-port".into(), false)));
        let s = setting(&["srv", "--port", "3001"], &[]);
        assert_eq!(http_switch(&s, None), Some(("--port 3001".into(), false)));
        let s = setting(&["srv"], &[("MCP_TRANSPORT", "streamable-http")]);
        assert_eq!(
            http_switch(&s, None),
            Some(("MCP_TRANSPORT=streamable-http".into(), true))
        );
        // A variable equal to some port means nothing without the port.
        let s = setting(&["srv"], &[("FASTMCP_PORT", "8024")]);
        assert_eq!(http_switch(&s, None), None);
    }
}
