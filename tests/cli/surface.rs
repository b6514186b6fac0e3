//! The command line's surface (issue 20): what a flag's value means is said, and a run the
//! probe's own flags cut short is not a finding against the server.

use crate::support::{probe, run, stderr, stdout, FixtureLog};

const NOTE: &str = "note: 5 is read as 5 ms (a bare number is milliseconds, as in host configs); \
                    write 5s for seconds";

/// Every duration flag prints the note for a bare small number, as --interval does.
#[test]
fn every_duration_flag_says_a_bare_number_is_milliseconds() {
    // `--help` after the flag: clap parses the value (and notes it), then prints help; nothing
    // is launched.
    for flag in [
        "--watch",
        "--for",
        "--handshake-timeout",
        "--open-timeout",
        "--ping-every",
        "--ping-timeout",
        "--interval",
        "--cap",
    ] {
        let o = run(&["probe", flag, "5", "--help"]);
        assert!(stderr(&o).contains(NOTE), "probe {flag}: {}", stderr(&o));
    }
    for flag in [
        "--fail-after",
        "--startup",
        "--settle",
        "--for",
        "--interval",
    ] {
        let o = run(&["simulate", flag, "5", "--help"]);
        assert!(stderr(&o).contains(NOTE), "simulate {flag}: {}", stderr(&o));
    }
    // A unit, or a number of 100 and more, says nothing.
    let o = run(&[
        "probe",
        "--watch",
        "5s",
        "--handshake-timeout",
        "100",
        "--help",
    ]);
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

/// `--handshake-timeout 5` against a healthy server: the Why names the probe's own limit.
#[test]
fn a_handshake_timeout_of_milliseconds_is_named_in_the_why() {
    let log = FixtureLog::new();
    let o = probe(
        &log,
        &[
            "--handshake-timeout",
            "5",
            "--launches",
            "2",
            "--interval",
            "100ms",
            "--seed",
            "1",
        ],
        &["--startup-ms", "200"],
    );
    let out = stdout(&o);
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(stderr(&o).contains(NOTE), "{}", stderr(&o));
    assert!(
        flat.contains("handshake-timeout-too-short (high confidence): every handshake timed out at --handshake-timeout = 5 ms"),
        "{out}"
    );
    assert!(flat.contains("did you mean 5s?"), "{out}");
    assert!(!flat.contains("cause-unknown"), "{out}");
}

/// `--for 5` ends before any handshake: a usage error (2), not a finding (1).
#[test]
fn a_for_deadline_before_the_first_handshake_is_not_a_finding() {
    let log = FixtureLog::new();
    let o = probe(&log, &["--for", "5"], &["--startup-ms", "300"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: --for 5 ms ended before the first handshake; did you mean 5s?"),
        "{}",
        stderr(&o)
    );
}
