//! `check-config` figures: load + check a 10,000-server file, and a 100 MB file.
//!
//! Run with `cargo bench --bench check_config` (`BENCH_SMALL_ONLY=1` skips the 100 MB file).
//! Prints the median of several runs (and the
//! process's peak resident memory on Linux). Not a test: nothing here fails on a slow machine.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcpl_doctor::engine::config::{check_source, load_servers_from, CheckOptions, Source};
use mcpl_doctor::engine::policy::Preset;

fn no_env(_: &str) -> Option<String> {
    None
}

/// One entry, pretty-printed as operators write them; every 50th has a finding or two.
fn entry(i: usize) -> String {
    let timing = if i % 50 == 0 { "0" } else { "2000" };
    let cap = if i % 70 == 0 { "86400000" } else { "600000" };
    match i % 3 {
        0 => format!(
            "    \"srv-{i}\": {{\n      \"command\": \"node\",\n      \"args\": [\"./servers/s{i}.js\", \"--port\", \"{i}\"],\n      \"env\": {{\"API_KEY\": \"key-{i}\", \"LOG\": \"info\"}},\n      \"reconnect\": true,\n      \"reconnectIntervalMs\": {timing},\n      \"reconnectMaxIntervalMs\": {cap}\n    }}"
        ),
        1 => format!(
            "    \"srv-{i}\": {{\n      \"url\": \"wss://mcp-{i}.example.com/mcpl\",\n      \"token\": \"tok-{i}\",\n      \"reconnect\": true,\n      \"reconnectIntervalMs\": {timing}\n    }}"
        ),
        _ => format!(
            "    \"srv-{i}\": {{\n      \"url\": \"https://mcp-{i}.example.com/mcp\",\n      \"requestTimeoutMs\": 30000,\n      \"reconnectMaxIntervalMs\": {cap}\n    }}"
        ),
    }
}

fn file_of(servers: usize) -> String {
    let body: Vec<String> = (0..servers).map(entry).collect();
    format!(
        "{{\n  \"mcplServers\": {{\n{}\n  }}\n}}\n",
        body.join(",\n")
    )
}

/// A file of at least `bytes` bytes (entries keep being added).
fn file_of_size(bytes: usize) -> (String, usize) {
    let mut out = String::with_capacity(bytes + 4096);
    out.push_str("{\n  \"mcplServers\": {\n");
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&entry(i));
        i += 1;
    }
    out.push_str("\n  }\n}\n");
    (out, i)
}

/// Median and fastest of `runs` runs.
struct Timed {
    median: Duration,
    min: Duration,
}

impl std::fmt::Display for Timed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "median {:.1} ms (fastest {:.1} ms)",
            self.median.as_secs_f64() * 1e3,
            self.min.as_secs_f64() * 1e3
        )
    }
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Timed {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    Timed {
        median: times[times.len() / 2],
        min: times[0],
    }
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let options = CheckOptions {
        preset: Preset::Lasting,
        env: &no_env,
        dialect: Default::default(),
        platforms: mcpl_doctor::engine::config::Platforms::current(),
    };
    let source = |text: String| Source {
        name: "bench.json".to_string(),
        dir: PathBuf::from("/etc/mcpl"),
        text,
    };

    let small = source(file_of(10_000));
    let report = check_source(&small, &options).expect("the generated file parses");
    println!(
        "10,000 servers ({:.1} MB, {} findings): load + check, 21 runs: {}",
        small.text.len() as f64 / 1e6,
        report.findings.len(),
        time(21, || check_source(&small, &options))
    );
    println!(
        "10,000 servers: load_servers (for probe), 21 runs: {}",
        time(21, || load_servers_from(&small, &no_env))
    );
    let before = peak_rss_mb();
    if std::env::var_os("BENCH_SMALL_ONLY").is_some() {
        return;
    }

    let (text, servers) = file_of_size(100 * 1024 * 1024);
    let big = source(text);
    let report = check_source(&big, &options).expect("the generated file parses");
    let t = time(3, || check_source(&big, &options));
    println!(
        "100 MB ({:.0} MB, {servers} servers, {} findings): load + check, 3 runs: {t}",
        big.text.len() as f64 / (1024.0 * 1024.0),
        report.findings.len(),
    );
    if let (Some(b), Some(a)) = (before, peak_rss_mb()) {
        println!(
            "peak resident memory: {b:.0} MB before the 100 MB file, {a:.0} MB after (the text \
             itself is 100 MB)"
        );
    }
}
