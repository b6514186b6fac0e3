//! The checked-in completions must be what the binary generates.

use crate::support::{root, run, stdout};

#[test]
fn checked_in_completions_match_the_binary() {
    let files = [
        ("bash", "mcpl-doctor.bash"),
        ("zsh", "_mcpl-doctor"),
        ("fish", "mcpl-doctor.fish"),
        ("powershell", "_mcpl-doctor.ps1"),
        ("elvish", "mcpl-doctor.elv"),
    ];
    for (shell, file) in files {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "completions {shell} failed");
        let path = root().join("completions").join(file);
        let checked_in =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            checked_in == stdout(&out),
            "completions/{file} differs from `mcpl-doctor completions {shell}`; \
             regenerate with scripts/completions.sh"
        );
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn checked_in_man_pages_match_the_binary() {
    let mut cmd = mcpl_doctor::cli::command().disable_help_subcommand(true);
    cmd.build();
    let pages = mcpl_doctor::cli::man::pages(&cmd).expect("render the man pages");
    let dir = root().join("man");
    let mut expected: Vec<String> = pages.iter().map(|(name, _)| name.clone()).collect();
    expected.sort();
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    assert_eq!(
        present, expected,
        "man/ holds other pages than the binary's subcommands; regenerate with scripts/completions.sh"
    );
    for (name, bytes) in pages {
        let checked_in = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            checked_in == bytes,
            "man/{name} differs from the clap definition; regenerate with scripts/completions.sh"
        );
    }
}

/// The pages as `man` shows them at 80 columns (review 4, row 6): every example of every page
/// one unbroken line (no fill joining two, no hyphen splitting one), under EXAMPLES, and the
/// EXIT STATUS and ENVIRONMENT sections ripgrep's page has, ENVIRONMENT naming each
/// `MCPL_DOCTOR_*` variable the page's flags read. Needs man-db (`man -l`); scripts/test.sh
/// checks it is installed.
#[test]
fn man_pages_read_right_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["man", "--out", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "man --out failed");
    let mut cmd = mcpl_doctor::cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut subs: Vec<clap::Command> = vec![cmd.clone()];
    subs.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    for sub in subs {
        let file = if sub.get_name() == "mcpl-doctor" {
            "mcpl-doctor.1".to_string()
        } else {
            format!("mcpl-doctor-{}.1", sub.get_name())
        };
        let shown = std::process::Command::new("man")
            .arg("-l")
            .arg(dir.path().join(&file))
            .env("MANWIDTH", "80")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("LC_ALL", "C.UTF-8")
            .env_remove("MAN_KEEP_FORMATTING")
            .output()
            .expect("run man -l (man-db must be installed: apt-get install man-db groff-base)");
        assert!(shown.status.success(), "man -l {file} failed");
        let text = String::from_utf8_lossy(&shown.stdout).into_owned();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for section in ["EXIT STATUS", "ENVIRONMENT", "EXAMPLES"] {
            assert!(
                lines.contains(&section),
                "{file}: no {section} section in:\n{text}"
            );
        }
        assert!(
            !lines.contains(&"EXTRA"),
            "{file}: an EXTRA section:\n{text}"
        );
        let help = sub
            .get_after_long_help()
            .or_else(|| sub.get_after_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let examples: Vec<&str> = help
            .split("Examples:")
            .nth(1)
            .map(|rest| rest.split("\n\n").next().unwrap_or(""))
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert!(!examples.is_empty(), "{file}: the help has no examples");
        let after = lines
            .iter()
            .position(|l| *l == "EXAMPLES")
            .expect("checked above");
        for example in examples {
            assert!(
                lines[after..].contains(&example),
                "{file}: the example `{example}` is not one unbroken line under EXAMPLES:\n{text}"
            );
        }
        for var in sub
            .get_arguments()
            .chain(sub.get_subcommands().flat_map(|s| s.get_arguments()))
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_env())
        {
            let var = var.to_string_lossy();
            assert!(
                lines.contains(&var.as_ref()),
                "{file}: ENVIRONMENT does not name {var}:\n{text}"
            );
        }
        assert!(lines.contains(&"NO_COLOR"), "{file}: no NO_COLOR:\n{text}");
    }
}
