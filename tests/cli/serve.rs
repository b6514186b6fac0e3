//! `serve` (issue 32): every entry supervised continuously, its figures on `/metrics`, one
//! bounded probe on `/probe`, `/healthz` and an escaped status page; against real fixture
//! servers (one that stays up, one that exits after its handshake, one that never connects,
//! one over HTTP), and nothing left running after SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support::{assert_all_gone, bin, fixture, server_mjs, FixtureLog};

/// A running `serve`, its port read from its first line; killed if a test fails.
pub struct Serve {
    pub child: Child,
    pub port: u16,
    pub first_line: String,
    /// Everything serve wrote on stderr after its first line, as it comes.
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Serve {
    pub fn start(args: &[&str]) -> Serve {
        let mut child = bin()
            .arg("serve")
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve runs");
        let err = child.stderr.take().expect("stderr piped");
        let mut reader = BufReader::new(err);
        let mut line = String::new();
        reader.read_line(&mut line).expect("a first line");
        // Keep draining stderr so that serve never blocks on it, keeping what it says.
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let kept = log.clone();
        std::thread::spawn(move || {
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                if let Ok(mut l) = kept.lock() {
                    l.push_str(&String::from_utf8_lossy(&line));
                }
                line.clear();
            }
        });
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Serve {
            child,
            port,
            first_line: line,
            log,
        }
    }

    /// `GET path` (with `accept`): the status code, the head and the body.
    pub fn get(&self, path: &str, accept: Option<&str>) -> (u16, String, String) {
        request(self.port, "GET", path, accept)
    }

    /// The metrics text once `ready` holds of it (polled; a loaded machine is slow).
    pub fn metrics_when(&self, limit: Duration, ready: impl Fn(&Metrics) -> bool) -> Metrics {
        let start = Instant::now();
        loop {
            let (code, _, body) = self.get("/metrics", None);
            assert_eq!(code, 200, "{body}");
            let m = Metrics(body);
            if ready(&m) {
                return m;
            }
            assert!(
                start.elapsed() < limit,
                "not ready after {limit:?}:\n{}",
                m.0
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// SIGTERM, then the exit status (within 20 s).
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("signal");
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "serve did not stop"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on its own connection.
pub fn request(port: u16, method: &str, path: &str, accept: Option<&str>) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let accept = accept.map_or(String::new(), |a| format!("Accept: {a}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{accept}Connection: close\r\n\r\n"
    )
    .expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, head.to_string(), body.to_string())
}

/// A scrape's text.
pub struct Metrics(pub String);

impl Metrics {
    /// The value of the sample whose name and labels start with `series` (e.g.
    /// `mcpl_doctor_up{server="files"`).
    pub fn value(&self, series: &str) -> Option<f64> {
        self.0
            .lines()
            .find(|l| l.starts_with(series))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
    }

    pub fn at_least(&self, series: &str, n: f64) -> bool {
        self.value(series).is_some_and(|v| v >= n)
    }
}

/// A configuration of four fixture servers: `healthy` stays up, `flapping` exits 300 ms after
/// each handshake (a tool named anew on each launch, a grandchild forked at each handshake), `never` exits before answering, and `web` is an HTTP server (its URL).
pub fn fleet_config(dir: &std::path::Path, log: &FixtureLog, url: &str) -> std::path::PathBuf {
    let server = server_mjs();
    let config = serde_json::json!({
        "mcplServers": {
            "healthy": {"command": "node", "args": [server, "--tools", "3"],
                        "env": {"FIXTURE_LOG": log.path, "API_KEY": "sk-serve-secret-1234"}},
            "flapping": {"command": "node", "args": [server, "--exit-after-handshake", "300", "--tools-vary", "--grandchild"],
                         "env": {"FIXTURE_LOG": log.path},
                         "reconnect": true, "reconnectIntervalMs": 100, "reconnectMaxIntervalMs": 400},
            "never": {"command": "node", "args": [server, "--exit-before-answer", "3"],
                      "env": {"FIXTURE_LOG": log.path},
                      "reconnect": true, "reconnectIntervalMs": 100, "reconnectMaxIntervalMs": 400},
            "web": {"url": url},
            "off": {"command": "node", "args": [server], "disabled": true}
        }
    });
    let path = dir.join("servers.json");
    std::fs::write(&path, serde_json::to_string_pretty(&config).expect("json")).expect("write");
    path
}

/// The HTTP fixture server (Streamable HTTP); it ends with its guard.
pub struct Web {
    child: Child,
    pub port: u16,
}

impl Web {
    pub fn start() -> Web {
        let mut child = std::process::Command::new("python3")
            .arg(fixture("servers/http_eras.py"))
            .env("HTTP_ERAS_LIFETIME_S", "120")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).expect("a line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .expect("PORT n");
        Web { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_supervises_each_fixture_and_exposes_it_with_entry_labels_only() {
    let dir = tempfile::tempdir().expect("dir");
    let log = FixtureLog::new();
    let web = Web::start();
    let config = fleet_config(dir.path(), &log, &web.url());
    let serve = Serve::start(&["--config", config.to_str().expect("utf-8")]);
    assert!(
        serve.first_line.contains("4 servers"),
        "{}",
        serve.first_line
    );
    let m = serve.metrics_when(Duration::from_secs(60), |m| {
        m.value(r#"mcpl_doctor_up{server="healthy""#) == Some(1.0)
            && m.value(r#"mcpl_doctor_tools{server="healthy""#).is_some()
            && m.value(r#"mcpl_doctor_up{server="web""#) == Some(1.0)
            && m.at_least(
                r#"mcpl_doctor_launches_total{server="flapping",outcome="short_lived"}"#,
                6.0,
            )
            && m.at_least(
                r#"mcpl_doctor_launches_total{server="never",outcome="failed"}"#,
                6.0,
            )
    });
    // The host's view: attempts past 5 raise mcpl-down; the flapping server's connections are
    // short-lived in a row; the healthy one listed its 3 tools.
    assert!(
        m.at_least(r#"mcpl_doctor_down_alerts_total{server="never"}"#, 1.0),
        "{}",
        m.0
    );
    assert!(
        m.at_least(r#"mcpl_doctor_down_alerts_total{server="flapping"}"#, 1.0),
        "{}",
        m.0
    );
    assert!(
        m.at_least(
            r#"mcpl_doctor_consecutive_short_lived{server="flapping"}"#,
            5.0
        ),
        "{}",
        m.0
    );
    assert_eq!(
        m.value(r#"mcpl_doctor_consecutive_short_lived{server="healthy"}"#),
        Some(0.0)
    );
    // Told as soon as the listing is read whole, while the connection is up.
    assert_eq!(m.value(r#"mcpl_doctor_tools{server="healthy"}"#), Some(3.0));
    assert_eq!(
        m.value(r#"mcpl_doctor_tool_list_changes_total{server="healthy"}"#),
        Some(0.0)
    );
    assert!(
        m.at_least(
            r#"mcpl_doctor_tool_list_changes_total{server="flapping"}"#,
            3.0
        ),
        "{}",
        m.0
    );
    assert!(
        m.0.contains(r#"mcpl_doctor_host_down{server="never",rule="lasting"} 1"#),
        "{}",
        m.0
    );
    assert!(
        m.0.contains(
            r#"mcpl_doctor_lasting_threshold_seconds{server="flapping",rule="lasting"} 300.0"#
        ),
        "{}",
        m.0
    );
    assert!(
        m.0.contains(r#"mcpl_doctor_not_supervised{server="off",reason="skipped"} 1"#),
        "{}",
        m.0
    );
    // The Why of the flapping server, its id only (which one depends on how steady its
    // lifetimes were on this machine: `timer` when steady).
    assert!(
        m.0.contains(r#"mcpl_doctor_diagnosis_info{server="flapping",id=""#),
        "{}",
        m.0
    );
    assert!(
        m.0.contains("# TYPE mcp_client_session_duration_seconds histogram"),
        "{}",
        m.0
    );
    assert!(
        m.at_least(
            r#"mcp_client_session_duration_seconds_count{server="flapping"}"#,
            6.0
        ),
        "{}",
        m.0
    );
    assert!(
        m.at_least(
            r#"mcpl_doctor_handshake_seconds_count{server="healthy"}"#,
            1.0
        ),
        "{}",
        m.0
    );
    assert!(
        m.0.contains("mcpl_doctor_exporter_scrapes_total"),
        "{}",
        m.0
    );
    // Labels are entry ids and rules only: no argument, URL, or environment value.
    for leak in [
        "server.mjs",
        "--exit",
        "sk-serve-secret-1234",
        "127.0.0.1",
        "/mcp",
    ] {
        assert!(!m.0.contains(leak), "{leak} in the metrics:\n{}", m.0);
    }
    for line in m.0.lines().filter(|l| !l.starts_with('#')) {
        let labels = line.split_once('{').map_or("", |(_, r)| r);
        for pair in labels.split("\",").filter(|p| !p.is_empty()) {
            let key = pair.split('=').next().unwrap_or("");
            assert!(
                ["server", "host", "rule", "outcome", "le", "id", "reason", "version"]
                    .contains(&key),
                "label {key} in {line}"
            );
        }
    }
    // One bounded probe per request, each its own extra launch: the HTTP server is up, the
    // never-connecting one is not, and says how it failed.
    let (code, _, body) = serve.get("/probe?server=web", None);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("probe_success 1"), "{body}");
    let (code, _, body) = serve.get("/probe?server=never", None);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("probe_success 0"), "{body}");
    assert!(
        body.contains(r#"mcpl_doctor_probe_outcome_info{server="never",outcome="failed"} 1"#),
        "{body}"
    );
    let status = serve.terminate();
    assert!(status.success(), "serve ended with {status:?}");
    assert_all_gone(&log.pids());
}

#[test]
fn serve_answers_probe_healthz_openmetrics_and_an_escaped_status_page() {
    let log = FixtureLog::new();
    let serve = Serve::start(&[
        "--name",
        "<b>odd</b>",
        "--",
        "node",
        &server_mjs(),
        "--tools",
        "2",
    ]);
    let _ = &log;
    serve.metrics_when(Duration::from_secs(30), |m| {
        m.value(r#"mcpl_doctor_up{server="<b>odd</b>""#) == Some(1.0)
    });
    let (code, _, body) = serve.get("/healthz", None);
    assert_eq!((code, body.as_str()), (200, "ok\n"));
    let (code, head, body) = serve.get(
        "/metrics",
        Some("application/openmetrics-text;version=1.0.0"),
    );
    assert_eq!(code, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/openmetrics-text"),
        "{head}"
    );
    assert!(body.trim_end().ends_with("# EOF"), "{body}");
    let (code, _, body) = serve.get("/probe?server=%3Cb%3Eodd%3C%2Fb%3E", None);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("probe_success 1"), "{body}");
    assert!(body.contains(r#"mcpl_doctor_probe_tools 2"#), "{body}");
    let (code, _, _) = serve.get("/probe?server=nope", None);
    assert_eq!(code, 404);
    let (code, _, _) = serve.get("/probe", None);
    assert_eq!(code, 400);
    let (code, _, _) = request(serve.port, "POST", "/metrics", None);
    assert_eq!(code, 405);
    let (code, head, page) = serve.get("/", None);
    assert_eq!(code, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-security-policy"),
        "{head}"
    );
    assert!(page.contains("&lt;b&gt;odd&lt;/b&gt;"), "{page}");
    assert!(!page.contains("<b>odd</b>"), "unescaped name in the page");
    assert!(page.contains("<svg"), "the timeline strip");
    assert!(serve.terminate().success());
}

#[test]
fn a_non_loopback_address_is_said_at_start() {
    let serve = {
        let mut child = bin()
            .args([
                "serve",
                "--listen",
                "0.0.0.0:0",
                "--",
                "node",
                &server_mjs(),
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve runs");
        let mut reader = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        let _ = child.kill();
        let _ = child.wait();
        line
    };
    assert!(serve.contains("not a loopback address"), "{serve}");
}

#[test]
fn a_killed_serve_leaves_no_server_behind() {
    // A bare command inherits serve's environment: the fixture logs to FIXTURE_LOG.
    let log = FixtureLog::new();
    let mut child = bin()
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--",
            "node",
            &server_mjs(),
            "--grandchild",
        ])
        .env("FIXTURE_LOG", &log.path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve runs");
    let start = Instant::now();
    while log.events("grandchild").is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no grandchild");
        std::thread::sleep(Duration::from_millis(50));
    }
    // SIGKILL: no chance to stop anything itself; its keeper ends the servers' groups.
    child.kill().expect("kill");
    child.wait().expect("reaped");
    assert_all_gone(&log.pids());
}
