//! TLS trust as hosts meet it (issue 28 item 3's TLS rung): for an https server whose
//! certificate fails, which certificate (subject, issuer, expiry) and which store refuses it:
//! this machine's (what the doctor dials with; `SSL_CERT_FILE` replaces it) and Node's (the
//! bundled roots of the `node` on PATH plus `NODE_EXTRA_CA_CERTS`), and where they differ.
//! Server: fixtures/servers/http_eras.py `--tls NAME`; certificates: fixtures/tls/ (made by
//! fixtures/tls/make.sh with OpenSSL: a self-signed leaf, a private CA and leaves it signed,
//! one expired, one for another name).

use std::process::Stdio;

use serde_json::Value;

use crate::probe_http_eras::EraServer;
use crate::support::{bin, fixture, json, stderr};

fn node_present() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The diagnoses of one launch at the server's https URL, with this machine's store replaced
/// by `system` (a PEM file) when given and `NODE_EXTRA_CA_CERTS` set to `node_extra`.
fn diagnoses(server: &EraServer, system: Option<&str>, node_extra: Option<&str>) -> Vec<Value> {
    let url = server.url("/mcp").replace("http://", "https://");
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--url",
        &url,
        "--launches",
        "1",
        "--watch",
        "1s",
        "--open-timeout",
        "5s",
        "--format",
        "json",
    ])
    .env_remove("NODE_EXTRA_CA_CERTS")
    .env_remove("SSL_CERT_DIR")
    .stdin(Stdio::null());
    if let Some(f) = system {
        cmd.env("SSL_CERT_FILE", fixture(f));
    }
    if let Some(f) = node_extra {
        cmd.env("NODE_EXTRA_CA_CERTS", fixture(f));
    }
    let out = cmd.output().expect("runs");
    let doc = json(&out);
    let _ = stderr(&out);
    doc["diagnoses"].as_array().cloned().unwrap_or_default()
}

/// The first diagnosis is `id`; its next step says each of `next`, its evidence each of `seen`.
fn assert_tls(d: &[Value], id: &str, next: &[&str], seen: &[&str]) {
    let text = Value::from(d.to_vec()).to_string();
    assert_eq!(
        d.first().map(|x| x["id"].clone()),
        Some(Value::from(id)),
        "{text}"
    );
    let step = d[0]["next_step"].as_str().unwrap_or_default();
    for s in next {
        assert!(step.contains(s), "{s:?} in {step}");
    }
    let evidence = d[0]["evidence"].to_string();
    for s in seen {
        assert!(evidence.contains(s), "{s:?} in {evidence}");
    }
    for word in ["stderr", "log file", "command"] {
        assert!(!text.contains(word), "{id} speaks of {word}: {text}");
    }
}

#[test]
fn a_self_signed_certificate_is_named_with_both_stores() {
    let server = EraServer::start(&["--mode", "streamable", "--tls", "selfsigned"]);
    let mut seen = vec![
        "subject CN=mcpl-doctor self-signed test",
        "(self-signed)",
        "valid until 2126",
        "this machine's store refuses it",
    ];
    if node_present() {
        seen.push("bundled roots refuses it");
    }
    assert_tls(
        &diagnoses(&server, None, None),
        "tls-untrusted",
        &[
            "self-signed",
            "NODE_EXTRA_CA_CERTS=<its PEM file>",
            "SSL_CERT_FILE",
        ],
        &seen,
    );
}

#[test]
fn a_private_ca_neither_store_holds_names_its_issuer() {
    let server = EraServer::start(&["--mode", "streamable", "--tls", "private"]);
    assert_tls(
        &diagnoses(&server, None, None),
        "tls-untrusted",
        &[
            "issued by CN=mcpl-doctor test root CA",
            "NODE_EXTRA_CA_CERTS",
            "full chain",
        ],
        &[
            "issuer CN=mcpl-doctor test root CA",
            "no root it trusts issued it",
        ],
    );
}

#[test]
fn trusted_here_but_not_by_node_says_set_node_extra_ca_certs() {
    if !node_present() {
        eprintln!("no node on PATH: Node's roots cannot be read");
        return;
    }
    let server = EraServer::start(&["--mode", "streamable", "--tls", "private"]);
    // This machine's store holds the private CA (as a corporate root is installed there).
    assert_tls(
        &diagnoses(&server, Some("tls/ca.pem"), None),
        "tls-node-untrusted",
        &[
            "set NODE_EXTRA_CA_CERTS=<the PEM file of CN=mcpl-doctor test root CA",
            "mcp-remote",
        ],
        &["this machine's store trusts it", "bundled roots refuses it"],
    );
    // The healthy look-alike: the same server, with Node told of the CA.
    let d = diagnoses(&server, Some("tls/ca.pem"), Some("tls/ca.pem"));
    assert!(d.is_empty(), "{}", Value::from(d));
}

#[test]
fn an_expired_certificate_says_when_and_that_no_setting_helps() {
    let server = EraServer::start(&["--mode", "streamable", "--tls", "expired"]);
    assert_tls(
        &diagnoses(&server, Some("tls/ca.pem"), None),
        "tls-untrusted",
        &["expired on 2021-01-01", "renew it"],
        &["(expired)", "subject CN=mcpl-doctor expired test"],
    );
}

#[test]
fn a_certificate_for_another_name_names_the_name_it_is_for() {
    let server = EraServer::start(&["--mode", "streamable", "--tls", "othername"]);
    assert_tls(
        &diagnoses(&server, Some("tls/ca.pem"), None),
        "tls-untrusted",
        &["issued for other.example", "127.0.0.1 among its names"],
        &["subject CN=mcpl-doctor othername test"],
    );
}
