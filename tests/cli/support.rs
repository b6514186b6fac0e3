//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcpl-doctor"));
    cmd.env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .env("COLUMNS", "160");
    cmd
}

/// Run the binary with `args`, no stdin.
pub fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
}

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture's path.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
