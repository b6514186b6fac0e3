//! docs/monitoring.md's Prometheus configuration and alerting rules, checked by Prometheus's
//! own `promtool` (Debian's `prometheus` package ships it; `.ci/run` installs it, and this test
//! fails when it is missing).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

/// The fenced block after the HTML comment `marker` in docs/monitoring.md.
pub fn block_after(marker: &str) -> String {
    let page = std::fs::read_to_string(root().join("docs/monitoring.md")).expect("the page");
    let after = page
        .split_once(&format!("<!-- {marker} -->"))
        .unwrap_or_else(|| panic!("no <!-- {marker} --> in docs/monitoring.md"))
        .1;
    let body = after.split_once("```yaml\n").expect("a yaml block").1;
    body.split_once("```").expect("its end").0.to_string()
}

/// A tool Prometheus ships, failing loudly when it is not installed.
pub fn prometheus_tool(name: &str) -> PathBuf {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join(name);
        if p.is_file() {
            return p;
        }
    }
    panic!("{name} is not on PATH: install Debian's `prometheus` package (apt-get install prometheus; .ci/run does)");
}

/// Write the rules and the configuration beside each other, as the page says.
pub fn written(dir: &Path) -> (PathBuf, PathBuf) {
    let rules = dir.join("mcpl-doctor.rules.yml");
    std::fs::write(&rules, block_after("prometheus-rules")).expect("rules");
    let config = dir.join("prometheus.yml");
    std::fs::write(&config, block_after("prometheus-config")).expect("config");
    (config, rules)
}

#[test]
fn the_pages_rules_and_scrape_config_pass_promtool_check() {
    let dir = tempfile::tempdir().expect("dir");
    let (config, rules) = written(dir.path());
    let promtool = prometheus_tool("promtool");
    let out = Command::new(&promtool)
        .args(["check", "rules"])
        .arg(&rules)
        .output()
        .expect("promtool runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("4 rules found"), "{said}");
    let out = Command::new(&promtool)
        .args(["check", "config"])
        .arg(&config)
        .output()
        .expect("promtool runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
}

/// The launch (1-based) at which `simulate` first raises `mcpl-down`, and the first at which
/// three connections in a row have been short-lived, for a server living `lives` under
/// `lasting` with these timings.
fn simulated(interval: &str, cap: &str, lives: &str) -> (u64, u64) {
    let out = crate::support::run(&[
        "simulate",
        "--preset",
        "lasting",
        "--interval",
        interval,
        "--cap",
        cap,
        "--behaviour",
        &format!("dies-after={lives}"),
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("simulate's JSON");
    let rows = doc["runs"][0]["rows"].as_array().expect("rows");
    let launch = |r: &serde_json::Value| r["launch"].as_u64().expect("launch");
    let down = rows
        .iter()
        .find(|r| !r["alert"].is_null())
        .map(launch)
        .expect("simulate raises mcpl-down");
    let mut streak = 0;
    let flapping = rows
        .iter()
        .find(|r| {
            streak = if r["counted"] == "short-lived" {
                streak + 1
            } else {
                0
            };
            streak >= 3
        })
        .map(launch)
        .expect("three short-lived in a row");
    (down, flapping)
}

/// One sample per ended launch of a real `serve` of a flapping fixture: the last scrape after
/// each launch ended and before the next one began, until `n` launches have ended.
fn scraped_per_launch(serve: &crate::serve::Serve, n: u64) -> Vec<crate::serve::Metrics> {
    let ended = |m: &crate::serve::Metrics| {
        m.0.lines()
            .filter(|l| l.starts_with("mcpl_doctor_launches_total{"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64
    };
    // The next launch has begun: its attempt number is out, or it connected.
    let next_began = |m: &crate::serve::Metrics, attempt: Option<f64>| {
        m.value("mcpl_doctor_attempt{") != attempt || m.value("mcpl_doctor_up{") == Some(1.0)
    };
    let start = std::time::Instant::now();
    let mut samples = Vec::new();
    let mut seen = 0;
    // The latest scrape since launch `seen` ended, and the attempt number it ended on. A launch's
    // end and the host's alert for it are two events: the scrape that takes launch `seen` is
    // the last one before the next launch begins (after the alert, before a connect resets it).
    let mut pending: Option<(crate::serve::Metrics, Option<f64>)> = None;
    while (samples.len() as u64) < n {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "only {seen} launches ended"
        );
        let (_, _, body) = serve.get("/metrics", None);
        let m = crate::serve::Metrics(body);
        let now = ended(&m);
        if now > seen {
            assert_eq!(
                now,
                seen + 1,
                "two launches ended between two scrapes 20 ms apart"
            );
            if let Some((last, _)) = pending.take() {
                samples.push(last);
            }
            seen = now;
            let attempt = m.value("mcpl_doctor_attempt{");
            pending = Some((m, attempt));
        } else if let Some((last, attempt)) = pending.take() {
            if next_began(&m, attempt) {
                samples.push(last);
            } else {
                pending = Some((m, attempt));
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    samples
}

#[test]
fn the_would_be_mcpl_down_rule_fires_at_the_attempt_simulate_predicts() {
    let (interval, cap, lives) = ("100ms", "400ms", "300ms");
    let (down_at, flapping_at) = simulated(interval, cap, lives);
    assert_eq!(down_at, 6, "attempt 5 is the 6th launch");
    let serve = crate::serve::Serve::start(&[
        "--interval",
        interval,
        "--cap",
        cap,
        "--name",
        "flapping",
        "--",
        "node",
        &crate::support::server_mjs(),
        "--exit-after-handshake",
        "300",
    ]);
    let samples = scraped_per_launch(&serve, down_at + 2);
    assert!(serve.terminate().success());
    // One sample a minute in promtool's time: minute i is the scrape after launch i + 1.
    let series = |name: &str, labels: &str| {
        let values: Vec<String> = samples
            .iter()
            .map(|m| {
                let v = m.value(&format!("{name}{{{labels}")).expect(name);
                format!("{v}")
            })
            .collect();
        format!(
            "      - series: '{name}{{{labels}}}'\n        values: '{}'\n",
            values.join(" ")
        )
    };
    let down_labels = r#"server="flapping",rule="lasting""#;
    let mut input = series("mcpl_doctor_host_down", down_labels);
    input += &series(
        "mcpl_doctor_consecutive_short_lived",
        r#"server="flapping""#,
    );
    let fires = |alert: &str, launch: u64, labels: &str, summary: &str| {
        format!(
            "      - eval_time: {}m\n        alertname: {alert}\n        exp_alerts: []\n\
             \x20     - eval_time: {}m\n        alertname: {alert}\n        exp_alerts:\n\
             \x20         - exp_labels: {{{labels}}}\n            exp_annotations:\n\
             \x20             summary: \"{summary}\"\n",
            launch - 2,
            launch - 1
        )
    };
    let mut alerts = fires(
        "McpServerWouldBeDown",
        down_at,
        "severity: page, server: flapping, rule: lasting",
        "flapping: the host would be raising mcpl-down (rule lasting)",
    );
    alerts += &fires(
        "McpServerFlapping",
        flapping_at,
        "severity: warning, server: flapping",
        "flapping: 3 short-lived connections in a row",
    );
    let dir = tempfile::tempdir().expect("dir");
    written(dir.path());
    let test = format!(
        "rule_files:\n  - mcpl-doctor.rules.yml\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n{input}    alert_rule_test:\n{alerts}"
    );
    let file = dir.path().join("serve.test.yml");
    std::fs::write(&file, &test).expect("write");
    let out = Command::new(prometheus_tool("promtool"))
        .current_dir(dir.path())
        .args(["test", "rules", "serve.test.yml"])
        .output()
        .expect("promtool runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}\n{test}");
    assert!(said.contains("SUCCESS"), "{said}");
}

/// A real Prometheus on loopback, its data in a temp folder; stopped with its guard.
struct Prometheus {
    child: std::process::Child,
    port: u16,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Prometheus {
    fn start(dir: &Path, config: &str) -> Prometheus {
        std::fs::write(dir.join("prometheus.yml"), config).expect("config");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(prometheus_tool("prometheus"))
            .current_dir(dir)
            .arg("--config.file=prometheus.yml")
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--log.level=warn")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("prometheus runs");
        Prometheus { child, port }
    }

    /// `/api/v1/query` for `query`: each result's labels and value (empty until Prometheus is
    /// up and has scraped).
    fn query(&self, query: &str) -> Vec<(serde_json::Value, f64)> {
        let q: String = url::form_urlencoded::byte_serialize(query.as_bytes()).collect();
        if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            // Not listening yet.
            return Vec::new();
        }
        let (code, _, body) =
            crate::serve::request(self.port, "GET", &format!("/api/v1/query?query={q}"), None);
        if code != 200 {
            return Vec::new();
        }
        let body = dechunk(&body);
        let doc: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        doc["data"]["result"]
            .as_array()
            .map(|rs| {
                rs.iter()
                    .map(|r| {
                        let v = r["value"][1].as_str().and_then(|v| v.parse().ok());
                        (r["metric"].clone(), v.unwrap_or(f64::NAN))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn value(&self, query: &str) -> Option<f64> {
        self.query(query).first().map(|(_, v)| *v)
    }
}

/// A chunked HTTP/1.1 body put back together (Prometheus chunks its answers); any other
/// body as it is.
fn dechunk(body: &str) -> String {
    if body.trim_start().starts_with('{') {
        return body.to_string();
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

#[test]
fn a_real_prometheus_scrapes_serve_and_its_rules_fire() {
    let dir = tempfile::tempdir().expect("dir");
    let log = crate::support::FixtureLog::new();
    let web = crate::serve::Web::start();
    let config = crate::serve::fleet_config(dir.path(), &log, &web.url());
    let serve = crate::serve::Serve::start(&[
        "--config",
        config.to_str().expect("utf-8"),
        "--probe-watch",
        "300ms",
    ]);
    written(dir.path());
    let target = format!("127.0.0.1:{}", serve.port);
    let prometheus = Prometheus::start(
        dir.path(),
        &format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - mcpl-doctor.rules.yml\n\
             scrape_configs:\n  - job_name: mcpl-doctor\n    static_configs:\n      - targets: ['{target}']\n\
             \x20 - job_name: mcpl-doctor-probe\n    metrics_path: /probe\n    params:\n      server: [healthy]\n\
             \x20   scrape_interval: 3s\n    scrape_timeout: 3s\n    static_configs:\n      - targets: ['{target}']\n"
        ),
    );
    let start = std::time::Instant::now();
    let ready = loop {
        let up = prometheus.query("mcpl_doctor_up");
        let value = |q: &str| prometheus.value(q);
        let firing = prometheus.query("ALERTS{alertstate=\"firing\"}");
        let fired = |alert: &str, server: &str| {
            firing
                .iter()
                .any(|(m, _)| m["alertname"] == alert && m["server"] == server)
        };
        let done = up.len() == 4
            && value(r#"mcpl_doctor_up{server="healthy"}"#) == Some(1.0)
            && value(r#"mcpl_doctor_up{server="web"}"#) == Some(1.0)
            && value(r#"mcpl_doctor_up{server="never"}"#) == Some(0.0)
            && value(r#"mcpl_doctor_launches_total{server="flapping",outcome="short_lived"}"#)
                .is_some_and(|v| v >= 3.0)
            && value(r#"mcpl_doctor_launches_total{server="never",outcome="failed"}"#)
                .is_some_and(|v| v >= 6.0)
            && value(r#"probe_success{job="mcpl-doctor-probe"}"#) == Some(1.0)
            && value(r#"mcpl_doctor_tools{server="healthy"}"#) == Some(3.0)
            && fired("McpServerWouldBeDown", "never")
            && fired("McpServerFlapping", "flapping")
            && fired("McpServerToolListChanged", "flapping");
        if done {
            break (up, firing);
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "Prometheus never saw it all: up {up:?}, firing {firing:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    };
    // The histograms arrive whole: a quantile over the flapping server's lifetimes is about
    // its 300 ms.
    let p50 = prometheus
        .value(r#"histogram_quantile(0.5, mcp_client_session_duration_seconds_bucket{server="flapping"})"#)
        .expect("a quantile");
    assert!(
        (0.1..=0.5).contains(&p50),
        "median lifetime {p50} s; {ready:?}"
    );
    assert!(
        !ready.1.iter().any(|(m, _)| m["server"] == "healthy"),
        "no alert for the healthy server: {:?}",
        ready.1
    );
    drop(prometheus);
    assert!(serve.terminate().success());
    crate::support::assert_all_gone(&log.pids());
}
