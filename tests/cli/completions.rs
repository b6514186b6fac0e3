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

/// The man page of `cmd` and of each visible subcommand, as `clap_mangen::generate_to` names
/// and renders them.
fn man_pages(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        man_pages(sub, out);
    }
    let man = clap_mangen::Man::new(cmd);
    let mut bytes = Vec::new();
    man.render(&mut bytes).expect("render a man page");
    out.push((man.get_filename(), bytes));
}

#[test]
fn checked_in_man_pages_match_the_binary() {
    let mut cmd = mcpl_doctor::cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    man_pages(cmd, &mut pages);
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
