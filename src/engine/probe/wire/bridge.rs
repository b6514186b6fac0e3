//! The stdio<->HTTP bridges people put in stdio entries (issue 28 item 6; `tests/reference/
//! remote.md` section 5): `mcp-remote`, `supergateway` and the Python `mcp-proxy`, run directly
//! or through `npx -y` / `uvx`, recognised by their command lines, with the remote URL, the
//! transport and the headers read from their arguments as each bridge reads them. When the
//! bridge fails, the probe dials that URL itself with the same headers (see
//! [`super::remote_facts`]) to say which rung the remote fell from.

use std::path::Path;

use super::http::{Era, HttpTarget};

/// A bridge and what its arguments say about the remote server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bridge {
    /// `mcp-remote`, `supergateway`, `mcp-proxy`.
    pub name: &'static str,
    /// The remote URL as given.
    pub url: String,
    /// The headers it sends (`${VAR}` expanded from the bridge's environment, as mcp-remote
    /// does). Secret values.
    pub headers: Vec<(String, String)>,
    /// The transport its flags choose (`None`: it tries Streamable HTTP, then SSE).
    pub era: Option<Era>,
    /// The transport flag as written, for the words (`--transport sse-only`, or the default).
    pub transport: String,
    /// mcp-remote: the OAuth callback port given as the argument after the URL (it then uses
    /// that port and no other).
    pub callback_port: Option<u16>,
    /// mcp-remote: where its auth cache keeps this server's state.
    pub cache: Option<super::bridge_cache::CacheKey>,
}

impl Bridge {
    /// The remote as the bridge dials it: its URL, headers and transport.
    pub(crate) fn target(&self) -> Option<HttpTarget> {
        let t = HttpTarget::new(&self.url, None)
            .ok()?
            .with_headers(self.headers.clone());
        Some(match self.era {
            Some(era) => t.with_era(era),
            None => t,
        })
    }
}

/// The bridge a stdio target runs, if it is one, its header variables read from the
/// target's environment (or the probe's, for a bare command).
pub(crate) fn of_target(t: &super::stdio::StdioTarget) -> Option<Bridge> {
    let args: Vec<String> = t
        .args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env = |name: &str| -> Option<String> {
        match &t.env {
            Some(pairs) => pairs
                .iter()
                .find(|(k, _)| k.to_string_lossy() == name)
                .map(|(_, v)| v.to_string_lossy().into_owned()),
            None => std::env::var(name).ok(),
        }
    };
    recognise(&t.command.to_string_lossy(), &args, &env)
}

/// The program's name without its folder and a Windows suffix.
fn base(program: &str) -> String {
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    for suffix in [".cmd", ".exe", ".ps1"] {
        if let Some(stem) = name.strip_suffix(suffix) {
            return stem.to_string();
        }
    }
    name
}

/// A package name without its `@version` (`mcp-remote@0.15.1` -> `mcp-remote`).
fn package(arg: &str) -> String {
    let a = arg.to_ascii_lowercase();
    match a.rsplit_once('@') {
        Some((name, _)) if !name.is_empty() => name.to_string(),
        _ => a,
    }
}

fn is_url(a: &str) -> bool {
    let l = a.to_ascii_lowercase();
    l.starts_with("http://") || l.starts_with("https://")
}

/// `${VAR}` in a header value from `env` (unset: empty, as mcp-remote does).
fn expand(value: &str, env: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find('}') {
            Some(end) => {
                let name = &rest[start + 2..start + 2 + end];
                out.push_str(&env(name).unwrap_or_default());
                rest = &rest[start + 3 + end..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The bridge `command args` runs, if it is one (directly, or through `npx`, `bunx`, `pnpm
/// dlx`, `uvx`, `pipx run`), with `env` for the variables its header values name.
pub(crate) fn recognise(
    command: &str,
    args: &[String],
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<Bridge> {
    let program = base(command);
    let mut rest: &[String] = args;
    let launcher = matches!(program.as_str(), "npx" | "bunx" | "uvx" | "pnpx")
        || (matches!(program.as_str(), "pnpm" | "pipx")
            && rest.first().is_some_and(|a| a == "dlx" || a == "run"));
    let name = if launcher {
        if matches!(program.as_str(), "pnpm" | "pipx") {
            rest = &rest[1..];
        }
        // Skip the launcher's own flags (`-y`, `--yes`, `-q`, `--from X`...).
        while let Some(first) = rest.first() {
            if first == "--package" || first == "-p" || first == "--from" {
                rest = rest.get(2..).unwrap_or(&[]);
            } else if first.starts_with('-') {
                rest = &rest[1..];
            } else {
                break;
            }
        }
        let (first, tail) = rest.split_first()?;
        rest = tail;
        package(first)
    } else {
        program
    };
    match name.as_str() {
        "mcp-remote" | "mcp-remote-client" => mcp_remote(rest, env),
        "supergateway" => supergateway(rest, env),
        "mcp-proxy" => mcp_proxy(rest),
        _ => None,
    }
}

/// mcp-remote's `--header` as its `parseHeaderLine` reads it: `Name:value`, the name of
/// `[A-Za-z0-9_-]+` right before the colon, the value after any blanks, kept as written.
fn raw_header(arg: &str) -> Option<(String, String)> {
    let (name, value) = arg.split_once(':')?;
    let good = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    good.then(|| (name.to_string(), value.trim_start().to_string()))
}

/// Where mcp-remote keeps this invocation's auth state (see [`super::bridge_cache`]).
fn cache_key(
    url: &str,
    args: &[String],
    raw: &std::collections::BTreeMap<String, String>,
    env: &dyn Fn(&str) -> Option<String>,
) -> super::bridge_cache::CacheKey {
    let var = |name: &str| {
        env(name)
            .or_else(|| std::env::var(name).ok())
            .filter(|v| !v.is_empty())
    };
    let home = var("HOME").map(std::path::PathBuf::from);
    let base = match var("MCP_REMOTE_CONFIG_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => home.clone().unwrap_or_default().join(".mcp-auth"),
    };
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let unmodelled = [
        "--header-file",
        "--authorize-param",
        "--client-metadata-url",
        "--token-endpoint",
    ]
    .iter()
    .any(|f| has(f));
    let resource = args
        .iter()
        .position(|a| a == "--resource")
        .and_then(|i| args.get(i + 1))
        .map(|r| r.trim())
        .filter(|r| !r.is_empty() && !has("--disable-resource-parameter"));
    super::bridge_cache::CacheKey {
        base,
        home,
        hash: (!unmodelled).then(|| super::bridge_cache::server_hash(url, resource, raw)),
    }
}

fn mcp_remote(args: &[String], env: &dyn Fn(&str) -> Option<String>) -> Option<Bridge> {
    let mut headers = Vec::new();
    let mut raw = std::collections::BTreeMap::new();
    let mut url = None;
    let mut transport = "http-first".to_string();
    let mut callback_port = None;
    let mut after_url = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if std::mem::take(&mut after_url) {
            if let Ok(p) = a.parse::<u16>() {
                callback_port = Some(p);
                i += 1;
                continue;
            }
        }
        match a {
            "--header" => {
                if let Some(v) = args.get(i + 1) {
                    if let Some((n, v)) = v.split_once(':') {
                        headers.push((n.trim().to_string(), expand(v.trim(), env)));
                    }
                    raw.extend(raw_header(v));
                }
                i += 2;
                continue;
            }
            "--transport" => {
                if let Some(v) = args.get(i + 1) {
                    transport.clone_from(v);
                }
                i += 2;
                continue;
            }
            _ if url.is_none() && is_url(a) => {
                url = Some(a.to_string());
                after_url = true;
            }
            _ => {}
        }
        i += 1;
    }
    let era = match transport.as_str() {
        "sse-only" => Some(Era::Sse),
        "http-only" => Some(Era::StreamableHttp),
        _ => None,
    };
    let url = url?;
    let cache = Some(cache_key(&url, args, &raw, env));
    Some(Bridge {
        name: "mcp-remote",
        url,
        headers,
        era,
        transport: format!("--transport {transport}"),
        callback_port,
        cache,
    })
}

fn supergateway(args: &[String], env: &dyn Fn(&str) -> Option<String>) -> Option<Bridge> {
    let mut headers = Vec::new();
    let mut found = None;
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--streamableHttp" => {
                found = next.map(|u| (u, Era::StreamableHttp, "--streamableHttp"))
            }
            "--sse" => found = next.map(|u| (u, Era::Sse, "--sse")),
            "--header" => {
                if let Some((n, v)) = next.as_deref().and_then(|v| v.split_once(':')) {
                    headers.push((n.trim().to_string(), expand(v.trim(), env)));
                }
            }
            "--oauth2Bearer" => {
                if let Some(t) = next {
                    headers.push(("Authorization".into(), format!("Bearer {t}")));
                }
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let (url, era, flag) = found?;
    Some(Bridge {
        name: "supergateway",
        url,
        headers,
        era: Some(era),
        transport: flag.to_string(),
        callback_port: None,
        cache: None,
    })
}

fn mcp_proxy(args: &[String]) -> Option<Bridge> {
    let mut headers = Vec::new();
    let mut url = None;
    let mut era = Era::Sse;
    let mut transport = "the default (sse)".to_string();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--headers" | "-H" => {
                if let (Some(k), Some(v)) = (args.get(i + 1), args.get(i + 2)) {
                    headers.push((k.clone(), v.clone()));
                }
                i += 3;
                continue;
            }
            "--transport" => {
                if let Some(v) = args.get(i + 1) {
                    if v == "streamablehttp" {
                        era = Era::StreamableHttp;
                    }
                    transport = format!("--transport {v}");
                }
                i += 2;
                continue;
            }
            "--" => return None,
            _ if url.is_none() && is_url(a) => url = Some(a.to_string()),
            _ => {}
        }
        i += 1;
    }
    Some(Bridge {
        name: "mcp-proxy",
        url: url?,
        headers,
        era: Some(era),
        transport,
        callback_port: None,
        cache: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| a.to_string()).collect()
    }

    fn env(name: &str) -> Option<String> {
        (name == "KEY").then(|| "k-value".to_string())
    }

    #[test]
    fn mcp_remote_through_npx_with_headers_and_a_port() {
        let b = recognise(
            "npx",
            &v(&[
                "-y",
                "mcp-remote@0.15.1",
                "--header",
                "X-API-Key:${KEY}",
                "https://h.example/mcp",
                "3334",
                "--transport",
                "sse-only",
            ]),
            &env,
        )
        .expect("a bridge");
        assert_eq!(b.name, "mcp-remote");
        assert_eq!(b.url, "https://h.example/mcp");
        assert_eq!(b.headers, vec![("X-API-Key".into(), "k-value".into())]);
        assert_eq!(b.era, Some(Era::Sse));
    }

    #[test]
    fn supergateway_and_mcp_proxy_read_their_own_flags() {
        let b = recognise(
            "npx",
            &v(&[
                "-y",
                "supergateway",
                "--streamableHttp",
                "http://h/mcp",
                "--oauth2Bearer",
                "t",
            ]),
            &env,
        )
        .expect("supergateway");
        assert_eq!(b.era, Some(Era::StreamableHttp));
        assert_eq!(b.headers[0].1, "Bearer t");
        let b = recognise(
            "uvx",
            &v(&[
                "mcp-proxy",
                "-H",
                "Authorization",
                "Bearer x",
                "http://h/sse",
            ]),
            &env,
        )
        .expect("mcp-proxy");
        assert_eq!(b.era, Some(Era::Sse));
        assert_eq!(b.url, "http://h/sse");
        // The server side of mcp-proxy (`-- cmd`) and other packages are no bridge.
        assert!(recognise(
            "mcp-proxy",
            &v(&["--port", "8080", "--", "node", "s.js"]),
            &env
        )
        .is_none());
        assert!(recognise(
            "npx",
            &v(&["-y", "@modelcontextprotocol/server-everything"]),
            &env
        )
        .is_none());
        assert!(recognise("node", &v(&["mcp-remote", "http://h/mcp"]), &env).is_none());
    }
}
