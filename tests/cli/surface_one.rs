//! One surface (issue 20): the same short flags, quiet and verbose, environment defaults,
//! help that leads somewhere, man pages from the binary, and hints where a newcomer slips.

use std::process::Stdio;

use crate::support::{bin, fixture, probe, root, run, stderr, stdout, FixtureLog};

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn check_config_takes_f_and_shows_one_example_a_line_in_both_helps() {
    let file = fixture("configs/overlay.agent.json");
    let o = run(&["check-config", "-f", "json", file.to_str().expect("UTF-8")]);
    assert!(stdout(&o).contains("\"schema_version\""), "{}", stderr(&o));
    for help in ["-h", "--help"] {
        let out = stdout(&run(&["check-config", help]));
        let examples: Vec<&str> = out
            .split("Examples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("check-config {help}: no Examples\n{out}"))
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .collect();
        assert_eq!(examples.len(), 3, "{help}: {examples:?}");
        assert!(
            examples.iter().all(|l| l.starts_with("  mcpl-doctor ")),
            "{examples:?}"
        );
    }
}

#[test]
fn every_subcommand_that_reports_has_quiet_and_verbose() {
    // probe: -q is the verdict and its Why; -v a line per event on stderr.
    let log = FixtureLog::new();
    let args = ["--launches", "2", "--interval", "100ms", "--seed", "1"];
    let o = probe(
        &log,
        &[&["-q"], &args[..]].concat(),
        &["--exit-after-handshake", "300"],
    );
    let out = stdout(&o);
    assert!(out.starts_with("Verdict: "), "{out}");
    assert!(out.contains("\nWhy:\n"), "{out}");
    let o = probe(
        &log,
        &[&["-v"], &args[..]].concat(),
        &["--exit-after-handshake", "300"],
    );
    let err = stderr(&o);
    for want in [
        "launch 1 (attempt 0) at 0.0",
        ": started, pid ",
        "launch 1: handshake completed in ",
        "; counted as short-lived",
        "launch 2 (attempt 1) at ",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
    // simulate: -q is the summary alone; -v more rows.
    let quiet = stdout(&run(&["simulate", "-q", "--seed", "1"]));
    assert!(quiet.contains("Summary over 1 d"), "{quiet}");
    assert!(!quiet.contains("showing "), "{quiet}");
    let verbose = stdout(&run(&["simulate", "-v", "--seed", "1"]));
    assert!(verbose.contains("showing 100 of "), "{verbose}");
    // check-config: -v names what it read and what a folder search passed over; without it, a
    // count.
    let o = bin()
        .current_dir(fixture("configs"))
        .args(["check-config", "."])
        .output()
        .expect("runs");
    assert!(
        flat(&stderr(&o)).contains(
            "note: .: 21 other .json files passed over (not names hosts read; -v lists them)"
        ),
        "{}",
        stderr(&o)
    );
    let o = bin()
        .current_dir(fixture("configs"))
        .args(["check-config", "-v", "."])
        .output()
        .expect("runs");
    let err = stderr(&o);
    assert!(err.contains("read ./overlay.agent.json\n"), "{err}");
    assert!(
        err.contains("passed over ./hosts.json (not a name hosts read)\n"),
        "{err}"
    );
}

#[test]
fn a_hosts_json_a_folder_search_passes_over_is_named() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::copy(fixture("configs/hosts.json"), dir.path().join("hosts.json")).expect("copy");
    let o = bin()
        .current_dir(dir.path())
        .args(["check-config", "."])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        flat(&stderr(&o)).contains(
            "hint: ./hosts.json has servers but is not a name hosts read; name it: mcpl-doctor check-config ./hosts.json"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_mistyped_server_id_and_a_windows_path_get_a_hint() {
    let config = fixture("servers/mcpl-servers.json");
    let o = run(&[
        "probe",
        "--config",
        config.to_str().expect("UTF-8"),
        "--server",
        "fles",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("; did you mean files?"),
        "{}",
        stderr(&o)
    );
    let windows = "this looks like a Windows path; mcpl-doctor runs on Linux";
    let o = run(&["check-config", "C:\\Users\\me\\hosts.json"]);
    assert!(stderr(&o).contains(windows), "{}", stderr(&o));
    let o = run(&["probe", "--launches", "1", "--", "C:\\servers\\server.exe"]);
    assert!(stderr(&o).contains(windows), "{}", stderr(&o));
}

#[test]
fn help_offers_only_what_each_subcommand_takes() {
    let simulate = stdout(&run(&["simulate", "--help"]));
    assert!(!simulate.contains("- events"), "{simulate}");
    let o = run(&["simulate", "-f", "events"]);
    assert!(
        stderr(&o).contains("--format events is for `probe`"),
        "{}",
        stderr(&o)
    );
    let schema = stdout(&run(&["schema", "--help"]));
    assert!(
        !schema.contains("--json`") && !schema.contains("--events`"),
        "{schema}"
    );
    for sub in ["check-config", "schema", "completions", "man"] {
        let help = stdout(&run(&[sub, "--help"]));
        assert!(!help.contains("--ascii"), "{sub}: {help}");
    }
    for sub in ["probe", "simulate"] {
        assert!(stdout(&run(&[sub, "--help"])).contains("--ascii"), "{sub}");
    }
    // The old place before the subcommand still works.
    let o = run(&["--ascii", "simulate", "--seed", "1"]);
    assert!(stdout(&o).contains("|!!!!"), "{}", stdout(&o));
}

#[test]
fn old_spellings_get_a_one_line_note() {
    let o = run(&[
        "simulate",
        "--json",
        "--preset",
        "handshake",
        "--span",
        "1h",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("note: --json is an old spelling of --format json;"),
        "{err}"
    );
    assert!(
        err.contains("note: --span is an old spelling of --for;"),
        "{err}"
    );
    assert!(
        err.contains("note: the rule name handshake is an old spelling of reset-on-handshake;"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 3, "{err}");
}

#[test]
fn the_top_level_help_has_examples_and_says_where_the_docs_are() {
    let help = stdout(&run(&["--help"]));
    assert!(
        help.contains("Examples:\n  mcpl-doctor probe -- node server.mjs\n"),
        "{help}"
    );
    assert!(flat(&help).contains("docs/probe.md"), "{help}");
    assert!(flat(&help).contains("mcpl-doctor man | man -l -"), "{help}");
}

#[test]
fn the_binary_writes_the_man_pages_under_man() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let o = run(&["man", "--out", dir.path().to_str().expect("UTF-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root().join("man"))
        .expect("man/")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let written = std::fs::read(dir.path().join(&name)).unwrap_or_default();
        assert_eq!(
            written,
            std::fs::read(entry.path()).expect("read"),
            "{name}"
        );
        names.push(name);
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("list").count(),
        names.len()
    );
    let page = bin()
        .args(["man", "probe"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(
        page.stdout,
        std::fs::read(root().join("man/mcpl-doctor-probe.1")).expect("read")
    );
}

#[test]
fn environment_defaults_are_shown_and_used() {
    let help = stdout(&run(&["check-config", "--help"]));
    for var in [
        "MCPL_DOCTOR_PRESET",
        "MCPL_DOCTOR_FORMAT",
        "MCPL_DOCTOR_HOST",
    ] {
        assert!(help.contains(&format!("[env: {var}=]")), "{var}: {help}");
    }
    let file = fixture("configs/overlay.agent.json");
    let o = bin()
        .env("MCPL_DOCTOR_FORMAT", "json")
        .env("MCPL_DOCTOR_PRESET", "reset-on-handshake")
        .args(["check-config", file.to_str().expect("UTF-8")])
        .output()
        .expect("runs");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["preset"], "reset-on-handshake", "{doc}");
    // The command line wins.
    let o = bin()
        .env("MCPL_DOCTOR_FORMAT", "json")
        .args(["check-config", "-f", "human", file.to_str().expect("UTF-8")])
        .output()
        .expect("runs");
    assert!(!stdout(&o).starts_with('{'), "{}", stdout(&o));
}

/// `-h` is the short help (review 4's convention row "--help layout"): one line an option at 80
/// columns, as ripgrep's `-h` is, each option's summary without the defaults, variables and
/// values that `--help` lists; `--help` keeps them all. Every option `clap` defines is listed
/// in both.
#[test]
fn short_help_is_one_line_an_option_at_80_columns() {
    let mut cmd = mcpl_doctor::cli::command();
    cmd.build();
    let mut pages: Vec<(Vec<&str>, &clap::Command)> = vec![(vec![], &cmd)];
    pages.extend(
        cmd.get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(|s| (vec![s.get_name()], s)),
    );
    for (sub, def) in pages {
        let run_at = |flag: &str| {
            let o = bin()
                .env("COLUMNS", "80")
                .args(&sub)
                .arg(flag)
                .stdin(Stdio::null())
                .output()
                .expect("the binary runs");
            assert_eq!(o.status.code(), Some(0), "{sub:?} {flag}");
            stdout(&o)
        };
        let short = run_at("-h");
        let entries = option_sections(&short);
        let options: Vec<&str> = entries
            .iter()
            .copied()
            .filter(|l| is_option_line(l))
            .collect();
        let continued: Vec<&str> = entries
            .iter()
            .copied()
            .filter(|l| !is_option_line(l))
            .collect();
        assert!(
            continued.is_empty(),
            "{sub:?} -h: an option takes more than one line: {continued:?}\n{short}"
        );
        let visible = def
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !a.is_hide_short_help_set())
            .count();
        assert_eq!(options.len(), visible, "{sub:?} -h:\n{short}");
        assert!(
            short
                .lines()
                .all(|l| l.chars().count() <= 80 || l.starts_with("  mcpl-doctor ")),
            "{sub:?} -h is wider than 80 columns:\n{short}"
        );
        assert!(!short.contains("[default: "), "{sub:?} -h:\n{short}");
        assert!(
            !short.contains("[possible values: "),
            "{sub:?} -h:\n{short}"
        );
        let long = run_at("--help");
        for arg in def.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long_flag) = arg.get_long() {
                assert!(
                    long.contains(&format!("--{long_flag}")),
                    "{sub:?} --help lacks --{long_flag}"
                );
            }
        }
        if def
            .get_arguments()
            .any(|a| a.get_default_values().len() == 1 && !a.is_hide_set())
        {
            assert!(long.contains("[default: "), "{sub:?} --help:\n{long}");
        }
    }
    // A cluster counts: `-qh` is the short help, `--help -h` the long one.
    let at80 = |args: &[&str]| {
        stdout(
            &bin()
                .env("COLUMNS", "80")
                .args(args)
                .stdin(Stdio::null())
                .output()
                .expect("runs"),
        )
    };
    assert_eq!(at80(&["probe", "-qh"]), at80(&["probe", "-h"]));
    assert_eq!(at80(&["probe", "--help", "-h"]), at80(&["probe", "--help"]));
    assert_ne!(at80(&["probe", "-h"]), at80(&["probe", "--help"]));
}

/// `probe --help` groups its options under the headings a person looks for (issue 31), in
/// this order; `simulate` and `serve`, which have many options, are grouped too.
#[test]
fn probe_simulate_and_serve_help_are_grouped_under_headings() {
    for (sub, headings) in [
        (
            "probe",
            &[
                "What to run:",
                "The host's rule:",
                "Timing:",
                "Output:",
                "Reports:",
            ][..],
        ),
        (
            "simulate",
            &[
                "The host's rule:",
                "The server:",
                "How long:",
                "Output:",
                "Reports:",
            ][..],
        ),
        (
            "serve",
            &[
                "What to supervise:",
                "Serving:",
                "The host's rule:",
                "Timing:",
            ][..],
        ),
    ] {
        for flag in ["-h", "--help"] {
            let help = stdout(&run(&[sub, flag]));
            let at: Vec<usize> = headings
                .iter()
                .map(|h| {
                    help.lines()
                        .position(|l| l == *h)
                        .unwrap_or_else(|| panic!("{sub} {flag}: no heading {h}\n{help}"))
                })
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{sub} {flag}: {at:?}");
        }
    }
    // Each option sits under its heading: --preset under the rule, --for under timing.
    let help = stdout(&run(&["probe", "-h"]));
    let section = |name: &str| -> String {
        help.split(&format!("\n{name}\n"))
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        section("The host's rule:").contains("--preset <RULE>"),
        "{help}"
    );
    assert!(section("Timing:").contains("--for <DUR>"), "{help}");
    assert!(
        section("Reports:").contains("--report <FILE.html>"),
        "{help}"
    );
    assert!(
        section("What to run:").contains("--config <FILE>"),
        "{help}"
    );
    assert!(
        section("What to run:").contains("--input <ID=VALUE>"),
        "{help}"
    );
}

/// The lines of a help's option sections (those under a heading ending in `:`, other than the
/// usage, the subcommand list and the closing text).
fn option_sections(help: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.is_empty() {
            inside = false;
        } else if !line.starts_with(' ') && line.ends_with(':') {
            inside = !matches!(line, "Commands:" | "Examples:");
        } else if inside {
            out.push(line);
        }
    }
    out
}

/// An option's first line in a help: `  -p, --preset <RULE>  …`, `      --all  …`, or an
/// argument (`  <PATH>...`, `  [COMMAND]...`).
fn is_option_line(line: &str) -> bool {
    let rest = line.strip_prefix("  ").unwrap_or("");
    rest.starts_with('-') && !rest.starts_with("--")
        || rest.starts_with("    --")
        || rest.starts_with('<')
        || rest.starts_with('[')
}
