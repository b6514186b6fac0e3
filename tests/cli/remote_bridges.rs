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
        .args(["--header", "Authorization:Bearer h28-bridge-secret-5521"])
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
        !all.contains("h28-bridge-secret-5521") && !all.contains("5521"),
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
