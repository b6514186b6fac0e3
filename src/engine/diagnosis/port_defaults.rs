//! Part of the source-scan experiment ([`super::source_scan`]): the port numbers a server's
//! code writes as a default on the line where it reads a variable or declares a flag
//! (`os.getenv('OBSIDIAN_PORT', '27124')`, `parser.add_argument("--api-port", type=int,
//! default=15671)`, `process.env.API_PORT || 8443`, `.option('--port <n>', 'port', '3000')`):
//! which variable or flag sets the port a refused connection was made to, when the entry
//! gives none.

/// A port the code writes beside the variable or flag that sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PortDefault {
    /// The variable (`OBSIDIAN_PORT`) or the flag (`--api-port`).
    pub holder: String,
    pub port: u16,
    /// Where (`mcp_obsidian/obsidian.py:13`).
    pub at: String,
    /// The URL literal the port is written in (`http://localhost:9090` of
    /// `process.env.PROMETHEUS_URL || "http://localhost:9090"`), when it is one: the address
    /// of a service the server's tools reach, not a port it listens on.
    pub url: Option<String>,
}

/// How far after the variable or flag its default may be written (characters).
const NEAR: usize = 60;

/// The most defaults one scan keeps.
const MAX_DEFAULTS: usize = 2000;

/// The defaults on the lines of `text` (a file shown as `shown`) that read one of `found`
/// (variables, by offset) or quote a flag, with a port-shaped number (1024 to 65535, whole,
/// bare or quoted): the first written after the variable or flag, within [`NEAR`] characters.
/// A minified line is not read.
pub(crate) fn collect(
    text: &str,
    shown: &str,
    found: &[(String, usize)],
    out: &mut Vec<PortDefault>,
) {
    let mut start = 0;
    for (n, line) in text.split('\n').enumerate() {
        let end = start + line.len();
        let reads: Vec<(&str, usize)> = found
            .iter()
            .filter(|(_, at)| (start..end).contains(at))
            .map(|(name, at)| (name.as_str(), at - start))
            .collect();
        start = end + 1;
        if line.len() > 400 || (reads.is_empty() && !line.contains("\"--") && !line.contains("'--"))
        {
            continue;
        }
        let mut holders: Vec<(String, usize)> = reads
            .iter()
            .filter_map(|(name, at)| Some((name.to_string(), line.get(*at..)?.find(name)? + at)))
            .collect();
        holders.extend(quoted_flags(line));
        for (holder, at) in holders {
            let Some(after) = line.get(at + holder.len()..) else {
                continue;
            };
            // The first number after it, close by (its default in the same call or
            // expression), not one further along the line.
            let mut end = after.len().min(NEAR);
            while !after.is_char_boundary(end) {
                end -= 1;
            }
            // Up to the next flag: its number is its own.
            let near = &after[..end];
            let near = ["\"--", "'--"]
                .iter()
                .filter_map(|q| near.find(q))
                .min()
                .map_or(near, |cut| &near[..cut]);
            if let Some(port) = ports_in(near).into_iter().next() {
                if out.len() >= MAX_DEFAULTS {
                    return;
                }
                let url = near
                    .split(['"', '\'', '`'])
                    .find(|t| {
                        t.contains("://")
                            && t.contains(&port.to_string())
                            && !t.contains(char::is_whitespace)
                    })
                    .map(str::to_string);
                let d = PortDefault {
                    holder: holder.clone(),
                    port,
                    at: format!("{shown}:{}", n + 1),
                    url,
                };
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
}

/// The quoted flags of a line (`"--api-port"`, `'--port <n>'`), each with its offset.
fn quoted_flags(line: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for q in ['"', '\''] {
        let pat = format!("{q}--");
        for (at, _) in line.match_indices(pat.as_str()) {
            let name: String = line[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if name.len() > 3 {
                out.push((name, at + 1));
            }
        }
    }
    out
}

/// The whole numbers of 1024 to 65535 in `text` (not part of a word, a version or a decimal).
fn ports_in(text: &str) -> Vec<u16> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let before = s.checked_sub(1).map(|p| b[p]);
        let after = b.get(i).copied();
        let glued =
            |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_');
        if glued(before) || glued(after) {
            continue;
        }
        if let Some(p) = text[s..i].parse::<u16>().ok().filter(|p| *p >= 1024) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{collect, PortDefault};

    fn defaults(text: &str, found: &[(String, usize)]) -> Vec<(String, u16)> {
        let mut out: Vec<PortDefault> = Vec::new();
        collect(text, "f.py", found, &mut out);
        out.into_iter().map(|d| (d.holder, d.port)).collect()
    }

    #[test]
    fn a_port_default_is_read_beside_its_variable_or_flag() {
        // mcp-obsidian 0.2.x (obsidian.py:13) and mcp-server-rabbitmq 0.2.x (server.py:277).
        let py = "x = 1\n            port: int = int(os.getenv('OBSIDIAN_PORT', '27124')),\n";
        let at = py.find("OBSIDIAN_PORT").unwrap_or_default();
        assert_eq!(
            defaults(py, &[("OBSIDIAN_PORT".to_string(), at)]),
            [("OBSIDIAN_PORT".to_string(), 27124)]
        );
        let argparse =
            "    parser.add_argument(\n        \"--api-port\", type=int, default=15671, help=\"Port\"\n    )\n";
        assert_eq!(defaults(argparse, &[]), [("--api-port".to_string(), 15671)]);
        // Each flag its own number.
        let two = "add(\"--workers\", default=4); add(\"--port\", default=8080)\n";
        assert_eq!(defaults(two, &[]), [("--port".to_string(), 8080)]);
        // A service's URL: its literal kept (prometheus-mcp 1.x, dist/index.mjs:473).
        let url = "    prometheusUrl: process.env.PROMETHEUS_URL || \"http://localhost:9090\",\n";
        let at = url.find("PROMETHEUS_URL").unwrap_or_default();
        let mut out: Vec<PortDefault> = Vec::new();
        collect(
            url,
            "dist/index.mjs",
            &[("PROMETHEUS_URL".to_string(), at)],
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].port, 9090);
        assert_eq!(out[0].url.as_deref(), Some("http://localhost:9090"));
        let node = "const port = process.env.API_PORT || 8443;\n";
        let at = node.find("API_PORT").unwrap_or_default();
        assert_eq!(
            defaults(node, &[("API_PORT".to_string(), at)]),
            [("API_PORT".to_string(), 8443)]
        );
    }

    #[test]
    fn numbers_that_are_no_port_default_are_not_read() {
        // A number before the name, a version, a decimal, a small number, no holder.
        let text = "retries = 5000 if os.getenv('X_PORT') else 0\nversion = '1.2.3'\nport = 8080\n\"--timeout\", default=30.5\n\"--level\", default=3\n\"--level\", help=\"the level of detail of the log lines this server writes, see 8080\"\n";
        let at = text.find("X_PORT").unwrap_or_default();
        assert!(defaults(text, &[("X_PORT".to_string(), at)]).is_empty());
    }
}
