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

/// A `--report`, `--svg` or `--output` path that cannot be written is refused before any work:
/// nothing is launched (a typo must not cost a `--for 1h` probe).
#[test]
fn an_unwritable_output_is_refused_before_anything_runs() {
    let log = FixtureLog::new();
    let dir = tempfile::tempdir().expect("a temp dir");
    let missing = dir.path().join("no-such-folder/r.html");
    let missing = missing.to_str().expect("a UTF-8 path");
    let o = probe(&log, &["--for", "3s", "--report", missing], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("No such file or directory (os error 2); nothing was launched"),
        "{}",
        stderr(&o)
    );
    assert!(log.entries().is_empty(), "launched: {:?}", log.entries());
    let o = run(&["simulate", "--svg", missing]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let sarif = format!("sarif={missing}");
    let config = crate::support::fixture("configs/overlay.agent.json");
    let config = config.to_str().expect("a UTF-8 path");
    let o = run(&["check-config", "--output", &sarif, config]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    assert!(!dir.path().join("no-such-folder").exists());
}

/// `--launches` ending one launch before the host's first `mcpl-down` says it would come next.
#[test]
fn a_run_stopped_before_the_alert_says_it_comes_next() {
    let log = FixtureLog::new();
    let o = probe(
        &log,
        &["--launches", "5", "--interval", "50ms", "--seed", "1"],
        &["--exit-after-handshake", "100"],
    );
    let flat = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "the host would launch attempt 5 at "
        ) && flat.contains(
            "If it fails as these did, the host raises mcpl-down then (--until-down runs until it)."
        ),
        "{flat}"
    );
    let o = probe(
        &log,
        &["--launches", "2", "--interval", "50ms", "--seed", "1"],
        &["--exit-after-handshake", "100"],
    );
    assert!(
        !stdout(&o).contains("raises mcpl-down then"),
        "{}",
        stdout(&o)
    );
}
