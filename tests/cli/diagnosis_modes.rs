//! The "Why" of a stdio server started in a mode its host cannot use, through the real binary:
//! an HTTP server under a stdio host (`fixtures/servers/faults.mjs --mode everything
//! streamableHttp`, the lines server-everything prints), found at the first launch; a stdin of
//! `/dev/null` (server-memory's `running on stdio`, then exit 0); a `#!` line ending in `\r`;
//! a dependency whose class lost a method (mcp-server-sqlite under mcp 2); and the honest
//! `cause-unknown`, whose next step names what was seen.

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, fixture, stderr, stdout};

fn faults(ext: &str) -> String {
    fixture(&format!("servers/faults.{ext}"))
        .display()
        .to_string()
}

fn probe(args: &[&str], command: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd: Command = bin();
    cmd.arg("probe")
        .args(args)
        .arg("--json")
        .arg("--")
        .args(command)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

use crate::support::{failed_diagnoses as diagnoses, free_port, text_field as field};

#[test]
fn an_http_server_under_a_stdio_host_is_named_at_the_first_launch() {
    let port = free_port().to_string();
    let started = Instant::now();
    let out = probe(
        &["--launches", "1", "--handshake-timeout", "60s"],
        &[
            "node",
            &faults("mjs"),
            "--mode",
            "everything",
            "streamableHttp",
        ],
        &[("PORT", &port)],
    );
    // The handshake ends 2 s after the server says it listens, not at the 60 s timeout.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "http-mode", "{d:#?}");
    let url = format!("http://localhost:{port}/mcp");
    assert_eq!(
        field(&d[0], "next_step"),
        format!(
            "this command starts an HTTP server: probe `--url {url}` while it runs, or drop \
             `streamableHttp` from the command to run it over stdio"
        )
    );
    assert!(
        d[0]["evidence"][0]["text"]
            .as_str()
            .is_some_and(|t| t == format!("MCP Streamable HTTP Server listening on port {port}")),
        "{d:#?}"
    );
    // Its stdout line is explained by the mode, not called a log on stdout.
    assert!(d.iter().all(|x| x["id"] != "stdout-logging"), "{d:#?}");
}

#[test]
fn an_http_server_whose_port_is_taken_names_the_port() {
    let holder = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = holder.local_addr().expect("addr").port().to_string();
    let out = probe(
        &["--launches", "1"],
        &[
            "node",
            &faults("mjs"),
            "--mode",
            "everything",
            "streamableHttp",
        ],
        &[("PORT", &port)],
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "port-in-use", "{d:#?}");
    assert!(field(&d[0], "summary").contains(&port), "{d:#?}");
    drop(holder);
}

#[test]
fn a_stdin_of_dev_null_is_named_and_the_redirect_is_the_fix() {
    let script = format!(
        "exec node {} --mode memory < /dev/null",
        faults("mjs").replace('\'', "")
    );
    let out = probe(&["--launches", "1"], &["sh", "-c", &script], &[]);
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "stdin-closed", "{d:#?}");
    assert_eq!(d[0]["confidence"], "high", "{d:#?}");
    assert!(
        field(&d[0], "next_step")
            .starts_with("give the server the host's stdin: drop the `< /dev/null`"),
        "{d:#?}"
    );
    let evidence = d[0]["evidence"].to_string();
    assert!(evidence.contains("its stdin was /dev/null"), "{evidence}");
    assert!(
        evidence.contains("Knowledge Graph MCP Server running on stdio"),
        "{evidence}"
    );
    // The same server with the host's stdin stays up: no cause.
    let out = probe(
        &["--launches", "1", "--watch", "1s"],
        &["node", &faults("mjs"), "--mode", "memory"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        crate::support::json(&out)["diagnoses"],
        serde_json::json!([])
    );
}

#[test]
fn a_crlf_shebang_is_named_not_a_missing_loader() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = dir.path().join("server");
    std::fs::write(&script, "#!/bin/sh\r\nexec true\r\n").expect("write");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let path = script.display().to_string();
    let out = probe(&["--launches", "1"], &[&path], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("crlf-line-endings (high confidence)"), "{err}");
    assert!(err.contains("ends in \\r (CRLF"), "{err}");
    assert!(!err.contains("ELF interpreter"), "{err}");
    assert!(
        err.contains(&format!("convert {path} to Unix line endings")),
        "{err}"
    );
}

#[test]
fn a_class_that_lost_a_method_in_a_dependency_is_drift_with_the_version_to_pin() {
    // mcp-server-sqlite 2025.4.25 under mcp 2: `AttributeError: 'Server' object has no
    // attribute 'list_resources'` in the server's own installed file.
    let out = probe(
        &["--launches", "1"],
        &["python3", &faults("py"), "--mode", "drift-attr"],
        &[],
    );
    let d = diagnoses(&out);
    assert_eq!(d[0]["id"], "dependency-drift", "{d:#?}");
    assert_eq!(
        field(&d[0], "summary"),
        "`mcpfixture_dep` 2.0.0 has no `Server.list_resources`, which the server imports: the \
         dependency changed under the server"
    );
    assert!(
        field(&d[0], "next_step")
            .starts_with("pin `mcpfixture_dep` below 2.0.0 where the server runs"),
        "{d:#?}"
    );
    assert!(d.iter().all(|x| x["id"] != "crash"), "{d:#?}");
}

#[test]
fn cause_unknown_names_what_was_seen_not_run_it_by_hand_alone() {
    let out = probe(
        &["--launches", "1"],
        &[
            "sh",
            "-c",
            "echo 'the widget frobnicator gave up' >&2; exit 3",
        ],
        &[],
    );
    let d = diagnoses(&out);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0]["id"], "cause-unknown");
    let next = field(&d[0], "next_step");
    assert!(
        next.starts_with("start from the server's last words, \"the widget frobnicator gave up\""),
        "{next}"
    );
    assert!(next.contains("exited with code 3"), "{next}");
}

#[test]
fn call_reports_a_failing_tool_as_a_finding_and_no_call_is_made_without_it() {
    let url = "postgresql://app:s3cretPw9@127.0.0.1:1/app";
    let mcp = faults("mjs");
    let command = ["node", mcp.as_str(), "--mode", "postgres", url];
    let out = probe(
        &[
            "--launches",
            "1",
            "--watch",
            "2s",
            "--call",
            r#"query={"sql":"SELECT 1"}"#,
        ],
        &command,
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(!stdout(&out).contains("s3cretPw9"), "{}", stdout(&out));
    let doc = crate::support::json(&out);
    // Nothing listens on 127.0.0.1:1: the doctor's own connect says so, and names the
    // argument that holds the address (its password masked).
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.contains("127.0.0.1:1") && next.contains("the argument `postgresql://app:"),
        "{next}"
    );
    let f = &doc["opening"]["findings"][0];
    assert_eq!(f["id"], "tool-call-failed", "{doc:#}");
    assert!(
        field(f, "text").contains("error -32603: connect ECONNREFUSED 127.0.0.1:1"),
        "{f:#}"
    );
    // Without --call: no tools/call is sent, and the server is healthy.
    let out = probe(&["--launches", "1", "--watch", "2s"], &command, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("tools/call"), "{}", stdout(&out));
    // A bad --call is a usage error.
    let out = probe(&["--call", "query=[1]"], &command, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_warning_at_start_on_a_server_that_stays_up_is_a_note_and_fails_only_under_strict() {
    let command = ["node", &faults("mjs"), "--mode", "unreachable"];
    let out = probe(&["--launches", "1", "--watch", "2s"], &command, &[]);
    // Up and answering: healthy (exit 0), the warning shown as a note.
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = crate::support::json(&out);
    let f = &doc["opening"]["findings"][0];
    assert_eq!(f["id"], "warning-at-start", "{doc:#}");
    assert_eq!(f["note"], true, "{doc:#}");
    assert!(
        field(f, "text").contains("could not connect to the database at 127.0.0.1:1"),
        "{f:#}"
    );
    // --strict: the same note fails the run.
    let out = probe(
        &["--launches", "1", "--watch", "2s", "--strict"],
        &command,
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let doc = crate::support::json(&out);
    let f = &doc["opening"]["findings"][0];
    assert_eq!(f["id"], "warning-at-start", "{doc:#}");
    assert!(f.get("note").is_none(), "{doc:#}");
    // The same server without the warning: no finding (exit 0).
    let out = probe(
        &["--launches", "1", "--watch", "2s"],
        &["node", &faults("mjs"), "--mode", "memory"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc = crate::support::json(&out);
    assert!(
        doc["opening"]["findings"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{doc:#}"
    );
}

#[test]
fn a_failed_call_names_the_variables_of_an_address_where_nothing_listens() {
    // awslabs.memcached-mcp-server's shape: the call's error names no address; the entry's
    // MEMCACHED_HOST and MEMCACHED_PORT do, and the doctor's connect there is refused.
    let port = free_port().to_string();
    let mcp = faults("mjs");
    let command = ["node", mcp.as_str(), "--mode", "cache"];
    let args = ["--launches", "1", "--watch", "2s", "--call", "cache_get={}"];
    let env = [
        ("MEMCACHED_HOST", "127.0.0.1"),
        ("MEMCACHED_PORT", port.as_str()),
    ];
    let out = probe(&args, &command, &env);
    let doc = crate::support::json(&out);
    let d = &doc["diagnoses"][0];
    assert_eq!(d["id"], "service-not-running", "{doc:#}");
    let next = field(d, "next_step");
    assert!(
        next.contains(&format!("127.0.0.1:{port}"))
            && next.contains("`MEMCACHED_HOST` and `MEMCACHED_PORT`"),
        "{next}"
    );
    let tried: Vec<String> = d["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter(|e| e["source"] == "tried")
        .map(|e| field(e, "text"))
        .collect();
    assert!(tried.iter().any(|t| t.ends_with(": refused")), "{tried:?}");
    // Look-alike: the same failed call where something listens at the address: the fault is
    // elsewhere, and no cause is named for it.
    let open = TcpListener::bind("127.0.0.1:0").expect("bind");
    let up = open.local_addr().expect("addr").port().to_string();
    let env = [
        ("MEMCACHED_HOST", "127.0.0.1"),
        ("MEMCACHED_PORT", up.as_str()),
    ];
    let out = probe(&args, &command, &env);
    let doc = crate::support::json(&out);
    assert_eq!(doc["diagnoses"], serde_json::json!([]), "{doc:#}");
    assert_eq!(doc["opening"]["findings"][0]["id"], "tool-call-failed");
    drop(open);
}
