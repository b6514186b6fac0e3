//! Engine benchmarks (`cargo bench --bench engine`): the cost of simulating long spans.
//!
//! Targets (issue 2): a year of a server dying one second after its handshake under
//! `handshake` (about 31 million cycles) and a year of `drops-every=1h` under `lasting`, each
//! well under 2 s, with flat memory (the summary does not keep rows).

use std::time::Instant;

use mcpl_doctor::engine::policy::{EngineKind, Preset, Timings};
use mcpl_doctor::engine::schedule::{simulate, Request, DAY_MS};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

fn bench(name: &str, req: &Request, runs: usize) {
    let mut times = Vec::with_capacity(runs);
    let mut launches = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let sim = simulate(req);
        times.push(start.elapsed().as_secs_f64());
        launches = sim.summary.launches;
        std::hint::black_box(&sim);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "{name}: {launches} launches, median {:.3} s over {runs} runs ({:.1} ns per launch), peak RSS {} KiB",
        median,
        median * 1e9 / launches.max(1) as f64,
        peak_rss_kib().map_or("?".to_string(), |k| k.to_string()),
    );
}

fn main() {
    let year = 365.0 * DAY_MS;
    let before = peak_rss_kib();
    println!(
        "peak RSS before: {} KiB",
        before.map_or("?".into(), |k| k.to_string())
    );
    let handshake = Request {
        policy: Preset::Handshake.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 1.0,
                cap_ms: 300_000.0,
            },
        ),
        scenario: "dies-after=1s".parse().expect("valid behaviour"),
        max_attempts: None,
        span_ms: year,
        seed: Some(1),
        keep_rows: 20,
        strip_width: 80,
    };
    bench(
        "a year of dies-after=1s under handshake (interval 1 ms)",
        &handshake,
        3,
    );
    let lasting = Request {
        policy: Preset::Lasting.policy(EngineKind::Legacy),
        scenario: "drops-every=1h".parse().expect("valid behaviour"),
        ..handshake.clone()
    };
    bench("a year of drops-every=1h under lasting", &lasting, 5);
    let lasting_dying = Request {
        policy: Preset::Lasting.policy(EngineKind::Legacy),
        scenario: "dies-after=0".parse().expect("valid behaviour"),
        ..handshake
    };
    bench("a year of dies-after=0 under lasting", &lasting_dying, 5);
}
