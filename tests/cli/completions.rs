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
