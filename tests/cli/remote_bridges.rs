//! Bridges in stdio entries (issue 28 item 6): the real mcp-remote (installed by
//! scripts/test.sh, pinned, into target/test-tools) pointed at a dead URL is diagnosed by the
//! remote's rung, naming the URL; its `--header` value never shows.

use std::path::PathBuf;
use std::process::Stdio;

use crate::probe_http_eras::EraServer;
use crate::support::{bin, json, root};

/// The pinned mcp-remote scripts/test.sh installs.
fn mcp_remote() -> PathBuf {
    let p = root().join("target/test-tools/node_modules/.bin/mcp-remote");
    assert!(
        p.exists(),
        "{} is missing: scripts/test.sh installs mcp-remote@0.15.1 there (npm)",
        p.display()
    );
    p
}

/// The pinned supergateway scripts/test.sh installs.
fn supergateway() -> PathBuf {
    let p = root().join("target/test-tools/node_modules/.bin/supergateway");
    assert!(
        p.exists(),
        "{} is missing: scripts/test.sh installs supergateway@4.0.0 there (npm)",
        p.display()
    );
    p
}

/// The pinned Python mcp-proxy scripts/test.sh installs (its modules beside it, for
/// PYTHONPATH).
fn mcp_proxy() -> (PathBuf, PathBuf) {
    let dir = root().join("target/test-tools/py");
    let p = dir.join("bin/mcp-proxy");
    assert!(
        p.exists(),
        "{} is missing: scripts/test.sh installs mcp-proxy==0.13.0 there (pip --target)",
        p.display()
    );
    (p, dir)
}

/// A free loopback port nothing listens on.
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// `probe --launches 1 --json -- bridge args` (with `env`): the report and everything printed.
fn bridged(
    bridge: &std::path::Path,
    args: &[&str],
    env: &[(&str, &std::path::Path)],
) -> (serde_json::Value, String) {
    let mut c = bin();
    c.args(["probe", "--launches", "1", "--watch", "2s", "--json", "--"])
        .arg(bridge)
        .args(args)
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (json(&out), all)
}

const BRIDGE_KEY: &str = "h28-bridged-key-8282";

#[test]
fn supergateway_at_a_dead_url_names_the_url_and_the_rung() {
    let port = dead_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let header = format!("X-API-Key: {BRIDGE_KEY}");
    let (doc, all) = bridged(
        &supergateway(),
        &["--streamableHttp", &url, "--header", &header],
        &[],
    );
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "connection-refused", "{}", doc["diagnoses"]);
    let summary = d["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains(&format!("supergateway could not reach {url}"))
            && summary.contains(&format!("nothing listens on 127.0.0.1:{port}")),
        "{summary}"
    );
    assert!(!all.contains(BRIDGE_KEY) && !all.contains("8282"), "{all}");
}

#[test]
fn supergateway_at_a_live_keyed_server_is_healthy_and_without_its_header_refused() {
    // supergateway answers the host's 2024-11-05 initialize with the server's own version:
    // the legacy SSE server speaks it, so the bridge is healthy end to end.
    let header = format!("X-API-Key: {BRIDGE_KEY}");
    let server = EraServer::start(&["--mode", "sse", "--require-header", &header]);
    let url = server.url("/sse");
    let (doc, all) = bridged(&supergateway(), &["--sse", &url, "--header", &header], &[]);
    assert!(
        doc["diagnoses"].as_array().is_some_and(Vec::is_empty),
        "{}",
        doc["diagnoses"]
    );
    assert!(
        crate::support::launches(&doc)[0]
            .to_string()
            .contains("still"),
        "{doc}"
    );
    assert!(!all.contains(BRIDGE_KEY) && !all.contains("8282"), "{all}");
    // The look-alike without the header: the remote's own 401, named as the bridge's.
    let (doc, _) = bridged(&supergateway(), &["--sse", &url], &[]);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "key-refused", "{}", doc["diagnoses"]);
    assert!(
        d["next_step"]
            .as_str()
            .unwrap_or_default()
            .contains("supergateway's header arguments"),
        "{d}"
    );
    assert!(
        d["summary"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("supergateway could not reach {url}")),
        "{d}"
    );
}

#[test]
fn mcp_proxy_at_a_dead_url_and_at_a_live_keyed_server() {
    let (proxy, modules) = mcp_proxy();
    let env = [("PYTHONPATH", modules.as_path())];
    let port = dead_port();
    let dead = format!("http://127.0.0.1:{port}/mcp");
    let (doc, all) = bridged(
        &proxy,
        &[
            "--transport",
            "streamablehttp",
            "-H",
            "X-API-Key",
            BRIDGE_KEY,
            &dead,
        ],
        &env,
    );
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "connection-refused", "{}", doc["diagnoses"]);
    assert!(
        d["summary"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("mcp-proxy could not reach {dead}")),
        "{d}"
    );
    assert!(!all.contains(BRIDGE_KEY) && !all.contains("8282"), "{all}");
    // Live: a Streamable HTTP server that wants the key, through the real proxy.
    let header = format!("X-API-Key: {BRIDGE_KEY}");
    let server = EraServer::start(&["--mode", "streamable", "--require-header", &header]);
    let url = server.url("/mcp");
    let (doc, all) = bridged(
        &proxy,
        &[
            "--transport",
            "streamablehttp",
            "-H",
            "X-API-Key",
            BRIDGE_KEY,
            &url,
        ],
        &env,
    );
    assert!(
        doc["diagnoses"].as_array().is_some_and(Vec::is_empty),
        "{}",
        doc["diagnoses"]
    );
    assert!(
        crate::support::launches(&doc)[0]
            .to_string()
            .contains("still"),
        "{doc}"
    );
    assert!(!all.contains(BRIDGE_KEY) && !all.contains("8282"), "{all}");
}

#[test]
fn mcp_remote_at_a_dead_url_names_the_url_and_the_rung() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let url = format!("http://127.0.0.1:{port}/mcp");
    let out = bin()
        .args(["probe", "--launches", "1", "--json", "--"])
        .arg(mcp_remote())
        .arg(&url)
        .args(["--header", "Authorization:Bearer h28-bridge-secret-qz5w"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let doc = json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "connection-refused", "{}", doc["diagnoses"]);
    let summary = d["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains(&format!("mcp-remote could not reach {url}"))
            && summary.contains(&format!("nothing listens on 127.0.0.1:{port}")),
        "{summary}"
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !all.contains("h28-bridge-secret-qz5w") && !all.contains("qz5w"),
        "{all}"
    );
}

/// The first diagnosis of one launch of the real mcp-remote with `args`.
fn bridge_diagnosis(args: &[&str]) -> serde_json::Value {
    // Its auth cache in a folder of its own, not the user's ~/.mcp-auth.
    let cache = tempfile::tempdir().expect("a dir");
    let out = bin()
        .args(["probe", "--launches", "1", "--format", "json", "--"])
        .arg(mcp_remote())
        .args(args)
        .env("MCP_REMOTE_CONFIG_DIR", cache.path())
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    json(&out)["diagnoses"][0].clone()
}

#[test]
fn mcp_remote_sse_only_at_a_streamable_http_server_is_bridge_transport() {
    let server = EraServer::start(&["--mode", "streamable"]);
    let url = server.url("/mcp");
    let d = bridge_diagnosis(&[&url, "--transport", "sse-only"]);
    assert_eq!(d["id"], "bridge-transport", "{d}");
    let next = d["next_step"].as_str().unwrap_or_default();
    assert!(next.contains("--transport sse-only"), "{next}");
    assert!(next.contains("http-first"), "{next}");
}

#[test]
fn mcp_remote_http_only_at_a_legacy_sse_server_is_bridge_transport() {
    let server = EraServer::start(&["--mode", "sse"]);
    let url = server.url("/sse");
    let d = bridge_diagnosis(&[&url, "--transport", "http-only"]);
    assert_eq!(d["id"], "bridge-transport", "{d}");
    let next = d["next_step"].as_str().unwrap_or_default();
    assert!(next.contains("legacy HTTP+SSE"), "{next}");
    assert!(next.contains("sse-only"), "{next}");
}

#[test]
fn mcp_remote_whose_callback_port_is_taken_says_so() {
    let server = crate::remote_rungs::RungServer::start(&["oauthdcr"]);
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = held.local_addr().expect("addr").port().to_string();
    let d = bridge_diagnosis(&[&server.url(), &port]);
    assert_eq!(d["id"], "bridge-callback-port", "{d}");
    let next = d["next_step"].as_str().unwrap_or_default();
    assert!(next.contains(&format!("127.0.0.1:{port}")), "{next}");
    assert!(next.contains(".mcp-auth"), "{next}");
    // The healthy look-alike of the port: free, so the remote's own rung is named.
    drop(held);
    let d = bridge_diagnosis(&[&server.url(), &port]);
    assert_ne!(d["id"], "bridge-callback-port", "{d}");
}

/// One launch of the real mcp-remote at `url` with its auth cache under `home` (as `HOME`):
/// the first diagnosis, and everything the probe printed.
fn with_home(home: &std::path::Path, url: &str) -> (serde_json::Value, String) {
    let out = bin()
        .args(["probe", "--launches", "1", "--handshake-timeout", "20s"])
        .args(["--format", "json", "--"])
        .arg(mcp_remote())
        .args([url, "--header", "X-API-Key:${H28_CACHE_KEY}", "--debug"])
        .env("HOME", home)
        .env("H28_CACHE_KEY", "h28-cache-header-3131")
        .env_remove("MCP_REMOTE_CONFIG_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (json(&out)["diagnoses"][0].clone(), all)
}

#[test]
fn mcp_remote_failing_on_auth_says_what_its_auth_cache_holds_for_the_url() {
    let server = crate::remote_rungs::RungServer::start(&["bare401"]);
    let url = server.url();
    let home = tempfile::tempdir().expect("a dir");
    // The healthy look-alike first: nothing cached for this server, nothing to clear.
    let (d, _) = with_home(home.path(), &url);
    assert_eq!(d["id"], "key-refused", "{d}");
    let text = d.to_string();
    assert!(
        text.contains(&format!(
            "~/.mcp-auth/mcp-remote-v1 holds nothing for {url}"
        )),
        "{text}"
    );
    assert!(!text.contains("rm ~/.mcp-auth"), "{text}");
    // mcp-remote's own --debug log names this server's hash: the files the doctor must find.
    let folder = home.path().join(".mcp-auth/mcp-remote-v1");
    let hash = std::fs::read_dir(&folder)
        .expect("mcp-remote made its cache folder")
        .flatten()
        .find_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix("_debug.log")
                .map(str::to_string)
        })
        .expect("mcp-remote --debug wrote <hash>_debug.log");
    std::fs::write(
        folder.join(format!("{hash}_tokens.json")),
        r#"{"access_token":"h28-cached-access-4242","token_type":"Bearer","refresh_token":"h28-cached-refresh-7373"}"#,
    )
    .expect("plant tokens");
    std::fs::write(
        folder.join("0123456789abcdef0123456789abcdef_tokens.json"),
        r#"{"access_token":"h28-other-server-5151","token_type":"Bearer"}"#,
    )
    .expect("plant another server's tokens");
    let (d, all) = with_home(home.path(), &url);
    assert_eq!(d["id"], "key-refused", "{d}");
    let text = d.to_string();
    assert!(
        text.contains("tokens from an earlier sign-in") && text.contains("1 other server"),
        "{text}"
    );
    assert!(
        text.contains(&format!("rm ~/.mcp-auth/mcp-remote-v1/{}*", &hash[..8])),
        "{text}"
    );
    for secret in ["4242", "7373", "5151", "3131"] {
        assert!(!all.contains(secret), "{secret} shown: {all}");
    }
}
