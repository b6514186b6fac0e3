//! Every HTTP event stream is bounded (issue 28 item 2): a server that floods the GET stream, a
//! legacy SSE stream or an answer's event stream with small events keeps the probe's memory
//! small, and `--watch 3s` ends on time. A GET stream that closes at once is reported reopened
//! as many times as GETs were sent. Server: fixtures/servers/http_flood.py.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, fixture, json, launches};

struct FloodServer {
    child: Child,
    port: u16,
}

impl FloodServer {
    fn start(kind: &str) -> FloodServer {
        let mut child = Command::new("python3")
            .arg(fixture("servers/http_flood.py"))
            .args(["--kind", kind])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("a line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .expect("PORT n");
        FloodServer { child, port }
    }

    /// Stop it and read how many GETs it answered.
    fn gets(mut self) -> u32 {
        drop(self.child.stdin.take());
        let mut err = String::new();
        if let Some(e) = self.child.stderr.take() {
            let _ = BufReader::new(e).read_line(&mut err);
        }
        let _ = self.child.wait();
        err.trim()
            .strip_prefix("GETS ")
            .and_then(|n| n.parse().ok())
            .expect("GETS n")
    }
}

/// The peak resident memory (VmHWM, kB) of a running process, if it still runs.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// `probe --url URL --launches 1 --watch 3s --json`: its peak memory (kB), how long it took,
/// and its report.
fn watched(url: &str) -> (u64, Duration, serde_json::Value) {
    let started = Instant::now();
    let mut child = bin()
        .args([
            "probe",
            "--launches",
            "1",
            "--watch",
            "3s",
            "--json",
            "--url",
            url,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let pid = child.id();
    let mut peak = 0;
    let limit = Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() && started.elapsed() < limit {
        if let Some(kb) = peak_kb(pid) {
            peak = peak.max(kb);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    (peak, started.elapsed(), json(&out))
}

/// Memory and the watch's end under a flood of `kind` at `path`.
fn assert_bounded(kind: &str, path: &str) {
    let server = FloodServer::start(kind);
    let url = format!("http://127.0.0.1:{}{path}", server.port);
    let (peak, took, doc) = watched(&url);
    let text = doc.to_string();
    eprintln!("{kind}: peak {peak} kB, {took:?}");
    // The bound is 20 MB, met by the release build: 8.7-9.7 MiB under every flood,
    // 9.1 MiB with none (docs/benchmarks.md, "probe over HTTP: floods";
    // scripts/bench/http-floods.sh). This is the debug build, whose own baseline is 19.3 MiB
    // with no flood at all (a healthy server, `--watch 3s`: unoptimised code, a larger binary),
    // so the bound allows 4 MB over the figure for the flood's share: an unbounded
    // stream took 1.5 GB.
    assert!(
        peak > 0 && peak < 20 * 1024 + 4096,
        "{kind}: peak {peak} kB"
    );
    // The watch's 3 s plus the era's detection and the close, on a loaded machine.
    assert!(
        took < Duration::from_secs(8),
        "{kind}: took {took:?}: {text}"
    );
    assert!(text.contains("still") || text.contains("ended"), "{text}");
}

#[test]
fn a_flooded_get_stream_stays_small_and_the_watch_ends_on_time() {
    assert_bounded("get", "/mcp");
}

#[test]
fn a_flooded_legacy_sse_stream_stays_small_and_the_watch_ends_on_time() {
    assert_bounded("sse", "/sse");
}

#[test]
fn a_flooded_answer_stream_stays_small_and_the_watch_ends_on_time() {
    assert_bounded("answer", "/mcp");
}

#[test]
fn a_get_stream_that_closes_at_once_counts_every_reopening() {
    let server = FloodServer::start("get-close");
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_, _, doc) = watched(&url);
    let gets = server.gets();
    let get = launches(&doc)[0]["server"]["get_stream"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(gets >= 2, "{gets} GETs: {get}");
    let reported: u32 = if get.contains("reopened once") {
        1
    } else {
        get.split("reopened ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    // Every GET after the first is a reopening (one may be in flight when the watch ends).
    assert!(
        reported + 1 == gets || reported + 2 == gets,
        "{gets} GETs, the report: {get}"
    );
}
