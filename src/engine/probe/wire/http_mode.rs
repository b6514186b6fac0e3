//! A stdio server started in its HTTP mode: the line it prints when it listens
//! (`MCP Streamable HTTP Server listening on port 3001`, `Uvicorn running on
//! http://127.0.0.1:8000`), and the URL to probe instead. A stdio host waits for an answer on
//! stdout that never comes; the probe sees the line at the first launch and ends its handshake
//! early rather than waiting out the timeout on every launch.

/// Words of a line that says a server listens (with a URL or a port).
const LISTENS: &[&str] = &[
    "listening",
    "running on",
    "running at",
    "serving on",
    "serving at",
    "started on",
    "started at",
    "available at",
    "available on",
    "server at",
    "uvicorn running",
];

/// The URL a line says the server serves on (`http://localhost:3001/mcp`), when the line says
/// it listens for HTTP; `None` for a stdio server's own words (`running on stdio`).
pub(crate) fn listening(line: &str) -> Option<String> {
    let low = line.to_ascii_lowercase();
    if low.contains("stdio") || !LISTENS.iter().any(|w| low.contains(w)) {
        return None;
    }
    let sse = low.contains("sse");
    let path = |p: &str| {
        if !p.is_empty() && p != "/" {
            p.to_string()
        } else if sse {
            "/sse".to_string()
        } else {
            "/mcp".to_string()
        }
    };
    if let Some(at) = low.find("http://").or_else(|| low.find("https://")) {
        let url: String = line[at..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | ')' | ','))
            .collect();
        let url = url.trim_end_matches(['.', ';']);
        let (scheme, rest) = url.split_once("://")?;
        let (host, p) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let host = host
            .replace("0.0.0.0", "localhost")
            .replace("[::]", "localhost");
        if host.is_empty() {
            return None;
        }
        return Some(format!("{scheme}://{host}{}", path(p)));
    }
    port_in(&low).map(|port| format!("http://localhost:{port}{}", path("")))
}

/// The port a listening line names: `port 3001`, `:3001`.
fn port_in(low: &str) -> Option<u16> {
    let digits = |s: &str| -> Option<u16> {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        d.parse().ok().filter(|p| *p > 0)
    };
    if let Some(at) = low.find("port ") {
        if let Some(p) = digits(low[at + 5..].trim_start_matches([':', ' '])) {
            return Some(p);
        }
    }
    low.match_indices(':')
        .filter_map(|(i, _)| digits(&low[i + 1..]))
        .find(|p| *p >= 80)
}

#[cfg(test)]
mod tests {
    use super::listening;

    #[test]
    fn reads_the_url_real_servers_print() {
        let cases = [
            (
                "MCP Streamable HTTP Server listening on port 3001",
                Some("http://localhost:3001/mcp"),
            ),
            (
                "INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)",
                Some("http://127.0.0.1:8000/mcp"),
            ),
            (
                "Server running on http://0.0.0.0:3000/sse",
                Some("http://localhost:3000/sse"),
            ),
            (
                "SSE server listening on port 8080",
                Some("http://localhost:8080/sse"),
            ),
            (
                "Listening on 127.0.0.1:9000",
                Some("http://localhost:9000/mcp"),
            ),
            ("Knowledge Graph MCP Server running on stdio", None),
            ("Secure MCP Filesystem Server running on stdio", None),
            ("Allowed directories: [ '/tmp' ]", None),
            ("listening for changes", None),
        ];
        for (line, want) in cases {
            assert_eq!(listening(line).as_deref(), want, "{line}");
        }
    }
}
