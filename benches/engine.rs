//! Engine benchmarks (`cargo bench --bench engine`): the cost of simulating long spans.
//!
//! Targets (issues 2 and 22): a year of a server dying one second after its handshake (about
//! 31 million cycles) and a year of `drops-every=1h` under `lasting`, each well under 2 s, with
//! flat memory (the summary does not keep rows); the steady state fast-forwarded, so that a
//! span without jitter costs about the same whatever its length; and where jitter really
//! changes every wait (so each launch is stepped), at most 15 ns per launch.
//!
//! Each case prints the median wall time and the median CPU time of the thread (the machine is
//! shared: CPU time is what the step costs, wall time what a user waits).

use std::time::Instant;

use mcpl_doctor::engine::policy::{EngineKind, Preset, Timings};
use mcpl_doctor::engine::schedule::{simulate, simulate_stepping, Request, Simulation, DAY_MS};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// CPU time of this thread, in seconds (user and system).
fn cpu_s() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_THREAD).map_or(0.0, |u| {
        let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 * 1e-6;
        t(u.user_time()) + t(u.system_time())
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(name: &str, req: &Request, runs: usize, sim: fn(&Request) -> Simulation) {
    let (mut wall, mut cpu) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let mut launches = 0;
    for _ in 0..runs {
        let (start, start_cpu) = (Instant::now(), cpu_s());
        let result = sim(req);
        wall.push(start.elapsed().as_secs_f64());
        cpu.push(cpu_s() - start_cpu);
        launches = result.summary.launches;
        std::hint::black_box(&result);
    }
    let (wall, cpu) = (median(wall), median(cpu));
    let per = |s: f64| s * 1e9 / launches.max(1) as f64;
    println!(
        "{name}: {launches} launches, median {:.3} ms wall ({:.2} ns per launch), {:.3} ms \
         CPU ({:.2} ns per launch) over {runs} runs, peak RSS {} KiB",
        wall * 1e3,
        per(wall),
        cpu * 1e3,
        per(cpu),
        peak_rss_kib().map_or("?".to_string(), |k| k.to_string()),
    );
}

fn timings(interval_ms: f64, cap_ms: f64) -> Timings {
    Timings {
        interval_ms,
        cap_ms,
    }
}

fn main() {
    let year = 365.0 * DAY_MS;
    let before = peak_rss_kib();
    println!(
        "peak RSS before: {} KiB",
        before.map_or("?".into(), |k| k.to_string())
    );
    let handshake = Request {
        policy: Preset::Handshake.policy_with(EngineKind::Legacy, timings(1.0, 300_000.0)),
        scenario: "dies-after=1s".parse().expect("valid behaviour"),
        max_attempts: None,
        span_ms: year,
        seed: Some(1),
        keep_rows: 20,
        strip_width: 80,
    };
    bench(
        "a year of dies-after=1s under handshake (interval 1 ms; jitter truncated away)",
        &handshake,
        3,
        simulate,
    );
    // Waits of 3-5 ms: every launch draws its own, so nothing repeats and each is stepped.
    let jittered = Request {
        policy: Preset::Handshake.policy_with(EngineKind::Legacy, timings(4.0, 4.0)),
        ..handshake.clone()
    };
    bench(
        "a year of dies-after=1s under handshake (interval 4 ms, cap 4 ms, jittered 3-5 ms)",
        &jittered,
        3,
        simulate,
    );
    // The done-when command of issue 22, and a day of it stepped launch by launch.
    let dying = Request {
        policy: Preset::Handshake.policy_with(EngineKind::Legacy, timings(1.0, 1.0)),
        scenario: "dies-after=0".parse().expect("valid behaviour"),
        seed: None,
        ..handshake.clone()
    };
    bench(
        "a year of dies-after=0 at 1 ms, no jitter (fast-forwarded)",
        &dying,
        5,
        simulate,
    );
    let day = Request {
        span_ms: DAY_MS,
        ..dying.clone()
    };
    bench(
        "a day of dies-after=0 at 1 ms, no jitter",
        &day,
        5,
        simulate,
    );
    bench(
        "a day of dies-after=0 at 1 ms, no jitter, stepped",
        &day,
        3,
        simulate_stepping,
    );
    let day_jittered = Request {
        seed: Some(1),
        ..day.clone()
    };
    bench(
        "a day of dies-after=0 at 1 ms, jitter seed 1",
        &day_jittered,
        3,
        simulate,
    );
    let lasting = Request {
        policy: Preset::Lasting.policy(EngineKind::Legacy),
        scenario: "drops-every=1h".parse().expect("valid behaviour"),
        ..handshake.clone()
    };
    bench(
        "a year of drops-every=1h under lasting",
        &lasting,
        5,
        simulate,
    );
    let lasting_dying = Request {
        policy: Preset::Lasting.policy(EngineKind::Legacy),
        scenario: "dies-after=0".parse().expect("valid behaviour"),
        ..handshake
    };
    bench(
        "a year of dies-after=0 under lasting",
        &lasting_dying,
        5,
        simulate,
    );
}
