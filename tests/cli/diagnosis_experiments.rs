//! The experiments the "Why" runs on a stdio server that answered nothing, through the real
//! binary and real child processes (`fixtures/servers/silent.py`): the TCP ports its
//! processes listen on (a server started in its HTTP mode that prints nothing), each with a
//! healthy look-alike that must not get the cause.

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::support::{bin, fixture, stderr, stdout};

fn silent() -> String {
    fixture("servers/silent.py").display().to_string()
}

fn probe(args: &[&str], command: &[&str], env: &[(&str, &str)], json: bool) -> Output {
    let mut cmd: Command = bin();
    cmd.arg("probe").args(args);
    if json {
        cmd.arg("--json");
    }
    cmd.arg("--").args(command).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

/// The diagnoses of a run that did not stay up.
fn diagnoses(out: &Output) -> Vec<Value> {
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        stdout(out),
        stderr(out)
    );
    crate::support::json(out)["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .clone()
}

fn field(d: &Value, name: &str) -> String {
    d[name].as_str().unwrap_or_default().to_string()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Whether something accepts connections on 127.0.0.1:`port`.
fn listens(port: u16) -> bool {
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}

#[test]
fn a_silent_server_listening_on_a_port_is_http_mode_named_by_its_variable() {
    let port = free_port();
    let shown = port.to_string();
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "3s"],
        &["python3", &silent(), "listen"],
        &[("FASTMCP_PORT", &shown)],
        true,
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "http-mode", "{d:#?}");
    let url = format!("http://localhost:{port}");
    assert_eq!(
        field(&d[0], "next_step"),
        format!(
            "it listens on port {port} (HTTP mode): probe `--url {url}/mcp` (or `{url}/sse`) \
             while it runs, or remove `FASTMCP_PORT={port}` from the server's environment to \
             run it over stdio"
        )
    );
    assert_eq!(d[0]["evidence"][0]["source"], "tried", "{d:#?}");
    assert!(
        field(&d[0]["evidence"][0], "text").ends_with(&format!("127.0.0.1:{port}")),
        "{d:#?}"
    );
    // Stopped with its group: nothing listens any more.
    assert!(!listens(port), "the server was left running");

    // The text Why shows what was tried; the argument that chose the mode comes first.
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "3s"],
        &["python3", &silent(), "listen", "streamable-http"],
        &[("FASTMCP_PORT", &shown)],
        false,
    );
    let text = stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("http-mode"), "{text}");
    assert!(
        text.contains("tried: the TCP sockets its processes listen on"),
        "{text}"
    );
    assert!(
        text.contains("or drop `streamable-http` from the command"),
        "{text}"
    );
    assert!(!listens(port), "the server was left running");
}

#[test]
fn a_stdio_server_that_also_listens_or_a_mute_one_that_does_not_is_not_http_mode() {
    // Healthy, with a port of its own besides stdio: connected, no cause.
    let port = free_port().to_string();
    let out = probe(
        &["--launches", "1", "--watch", "1s"],
        &["python3", &silent(), "both", &port],
        &[],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        crate::support::json(&out)["diagnoses"],
        serde_json::json!([])
    );
    // Silent and listening on nothing: never `http-mode`.
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "2s"],
        &["python3", &silent(), "mute"],
        &[],
        true,
    );
    let d = diagnoses(&out);
    assert!(d.iter().all(|x| x["id"] != "http-mode"), "{d:#?}");
}
