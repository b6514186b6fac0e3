//! The rows about the process itself against what real runtimes do under a limit, a signal and
//! a `timeout` wrapper (lines from Node 20 and Python 3.11 run under `ulimit -v`, issue 19).

use super::*;
use crate::engine::probe::watch::limits::{Limit, LimitKind};

fn limited(mut l: Launch, limit: LimitKind, soft: u64) -> Launch {
    if let Some(p) = l.report.process.as_mut() {
        p.limits.push(Limit {
            limit,
            soft: Some(soft),
            hard: None,
        });
    }
    l
}

/// Node 20 under `ulimit -v 300000`: V8 cannot reserve its code range and traps (exit 133 from
/// a shell, SIGTRAP without one).
const NODE_CODE_RANGE: &[&str] = &[
    "",
    "#",
    "# Fatal process OOM in Failed to reserve virtual memory for CodeRange",
    "#",
];

#[test]
fn an_address_space_limit_is_a_limit_to_raise_not_a_crash() {
    let trap = Ended::Signal { signal: 5 };
    // The limit read from /proc: sure, and named.
    let l = limited(
        launch(1, End::Before(trap.clone()), NODE_CODE_RANGE),
        LimitKind::AddressSpace,
        300_000 * 1024,
    );
    let d = diagnose(&run_of(vec![l]), &setting());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].id, Id::ResourceLimit);
    assert_eq!(d[0].confidence, Confidence::High);
    assert!(
        d[0].summary
            .contains("address-space limit of 293 MiB (ulimit -v 300000)"),
        "{}",
        d[0].summary
    );
    assert!(d[0].next_step.contains("ulimit -v unlimited"));
    let texts: Vec<&str> = d[0].evidence.iter().map(|e| e.text.as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("CodeRange")), "{texts:#?}");
    assert!(texts
        .iter()
        .any(|t| t.contains("signal SIGTRAP (a trap: V8")));
    assert!(texts
        .iter()
        .any(|t| t == &"its limits: address space 293 MiB (ulimit -v 300000)"));
    // Without the limit read: the line alone still says so, less surely, and no fatal-signal.
    let d = one(End::Before(trap), NODE_CODE_RANGE);
    assert_eq!(d[0].id, Id::ResourceLimit, "{d:#?}");
    assert_eq!(d[0].confidence, Confidence::Medium);
    assert!(d.iter().all(|x| x.id != Id::FatalSignal), "{d:#?}");
    // Python's loader under `ulimit -v 5000` exits 127: not a missing library nor command.
    let d = one(
        End::Before(exit(127)),
        &["/usr/bin/python3: error while loading shared libraries: libpython3.11.so.1.0: failed to map segment from shared object"],
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].id, Id::ResourceLimit);
    // A MemoryError at import is out of memory, unless an address-space limit is set.
    let py = &[
        "  File \"/usr/lib/python3.11/enum.py\", line 750, in __delattr__",
        "MemoryError: Out of memory interning an attribute name",
    ];
    assert_eq!(one(End::Before(exit(1)), py)[0].id, Id::OutOfMemory);
    let l = limited(
        launch(1, End::Before(exit(1)), py),
        LimitKind::AddressSpace,
        20_000 * 1024,
    );
    let d = diagnose(&run_of(vec![l]), &setting());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].id, Id::ResourceLimit);
}

#[test]
fn cpu_time_and_open_files_limits() {
    let l = limited(
        launch(1, End::After(2000.0, Ended::Signal { signal: 24 }), &[]),
        LimitKind::CpuTime,
        2,
    );
    let d = diagnose(&run_of(vec![l]), &setting());
    assert_eq!(d[0].id, Id::ResourceLimit, "{d:#?}");
    assert!(d[0].summary.contains("CPU-time limit of 2 s (ulimit -t 2)"));
    assert!(d.iter().all(|x| x.id != Id::KilledFromOutside), "{d:#?}");
    let d = one(
        End::Before(exit(1)),
        &["Error: EMFILE: too many open files, open '/srv/data/x.json'"],
    );
    assert_eq!(d[0].id, Id::ResourceLimit, "{d:#?}");
    assert_eq!(d[0].confidence, Confidence::Medium);
    assert!(d[0].next_step.contains("ulimit -n"));
}

#[test]
fn a_native_crash_names_its_signal() {
    let d = one(
        End::After(300.0, Ended::Signal { signal: 11 }),
        &["loading addon"],
    );
    assert_eq!(d[0].id, Id::FatalSignal, "{d:#?}");
    assert_eq!(d[0].confidence, Confidence::High);
    assert!(d[0].summary.contains("SIGSEGV (an invalid memory access"));
    assert!(d[0].next_step.contains("npm rebuild"));
    // From a wrapper shell: 134 is 128 + SIGABRT, less sure.
    let d = one(End::Before(exit(134)), &["Aborted"]);
    assert_eq!(d[0].id, Id::FatalSignal, "{d:#?}");
    assert_eq!(d[0].confidence, Confidence::Medium);
    assert!(d[0].evidence[0].text.contains("128 + 6"), "{d:#?}");
    // A Rust panic that aborts is a crash at its frame, not a signal.
    let d = one(
        End::Before(Ended::Signal { signal: 6 }),
        &["thread 'main' panicked at src/main.rs:5:5:", "boom"],
    );
    assert_eq!(d[0].id, Id::Crash, "{d:#?}");
    assert!(d.iter().all(|x| x.id != Id::FatalSignal));
}

/// `n` launches that each connected after `startups[i]` ms and ended `total` ms after the
/// spawn with `code`, as a `timeout` wrapper does.
fn wrapped(startups: &[f64], total: f64, code: i32) -> Vec<Launch> {
    startups
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut l = launch(i as u32 + 1, End::After(total - s, exit(code)), &[]);
            let r = &mut l.report;
            r.connected_at_ms = Some(r.launched_at_ms + s);
            r.ended_at_ms = r.launched_at_ms + total;
            l
        })
        .collect()
}

#[test]
fn a_fixed_limit_from_the_spawn_is_a_timer_with_its_exit_code() {
    // Start-up 100, 600, 1100 ms; every launch ends 2 s after its spawn with exit 124.
    let d = diagnose(
        &run_of(wrapped(&[100.0, 600.0, 1100.0], 2000.0, 124)),
        &setting(),
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].id, Id::Timer);
    assert_eq!(d[0].confidence, Confidence::High);
    assert!(
        d[0].summary
            .starts_with("every launch ended 2 s (median) after it was started: a timer"),
        "{}",
        d[0].summary
    );
    assert_eq!(
        d[0].evidence[0].text,
        "ended 2000 ms, 2000 ms, 2000 ms after it was started (exit 124 (what `timeout(1)` exits with when its time runs out))"
    );
    assert!(d[0].next_step.contains("remove the `timeout`"));
    // One launch: the exit code alone says `timeout`, less surely.
    let d = diagnose(&run_of(wrapped(&[300.0], 2000.0, 124)), &setting());
    assert_eq!(d[0].id, Id::Timer, "{d:#?}");
    assert_eq!(d[0].confidence, Confidence::Medium);
    assert!(d[0].summary.contains("`timeout` wrapper"));
    // Exits 800 ms after each spawn: too short for a limit on the whole process.
    let d = diagnose(
        &run_of(wrapped(&[10.0, 300.0, 600.0], 800.0, 1)),
        &setting(),
    );
    assert!(d.iter().all(|x| x.id != Id::Timer), "{d:#?}");
}

/// `n` launches connected after `startups[i]` ms that each lived `lives[i]` ms connected,
/// then exited 0 (an idle timer from the handshake).
fn idle(startups: &[f64], lives: &[f64]) -> Vec<Launch> {
    startups
        .iter()
        .zip(lives)
        .enumerate()
        .map(|(i, (s, lived))| {
            let mut l = launch(i as u32 + 1, End::After(*lived, exit(0)), &[]);
            let r = &mut l.report;
            r.connected_at_ms = Some(r.launched_at_ms + s);
            r.ended_at_ms = r.launched_at_ms + s + lived;
            l
        })
        .collect()
}

#[test]
fn a_timer_from_the_handshake_is_read_from_the_handshake_when_both_are_steady() {
    // Seen under load: handshakes of 77 and 73 ms, connections of 3,000 and 3,003 ms. From the
    // spawn the spread is 1 ms, from the handshake 3 ms: noise, not a limit on the process.
    let d = diagnose(&run_of(idle(&[77.0, 73.0], &[3000.0, 3003.0])), &setting());
    assert_eq!(d[0].id, Id::Timer, "{d:#?}");
    assert!(
        d[0].evidence[0]
            .text
            .starts_with("connected for 3000 ms, 3003 ms"),
        "{d:#?}"
    );
    // Handshakes that differ by more than the noise: the spawn's reading is the steady one.
    let d = diagnose(&run_of(idle(&[80.0, 400.0], &[2920.0, 2600.0])), &setting());
    assert_eq!(d[0].id, Id::Timer, "{d:#?}");
    assert!(
        d[0].evidence[0]
            .text
            .starts_with("ended 3000 ms, 3000 ms after it was started"),
        "{d:#?}"
    );
}

#[test]
fn cause_unknown_says_what_a_known_exit_code_means() {
    let d = one(End::Before(exit(125)), &[]);
    assert_eq!(d[0].id, Id::CauseUnknown, "{d:#?}");
    assert!(
        d[0].evidence[0]
            .text
            .contains("(exit 125: `timeout(1)` or `env` itself failed)"),
        "{d:#?}"
    );
}
