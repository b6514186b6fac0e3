//! The composite action's script (`scripts/ci-check-config.sh`, run by `action.yml`), run as a
//! workflow would run it: inputs as `INPUT_*` variables, `GITHUB_OUTPUT` a file, the binary on
//! PATH.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support::{fixture, root, stderr, stdout};

fn script(dir: &Path, inputs: &[(&str, &str)], output: &Path) -> std::process::Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("bash");
    cmd.arg(root().join("scripts/ci-check-config.sh"))
        .current_dir(dir)
        .env("PATH", path)
        .env("GITHUB_OUTPUT", output)
        .env("TERM", "dumb")
        .env_remove("INPUT_SOURCE");
    for (k, v) in inputs {
        cmd.env(k, v);
    }
    cmd.output().expect("bash runs")
}

#[test]
fn the_action_script_annotates_writes_sarif_and_reports_the_status() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let repo = dir.path();
    std::fs::create_dir_all(repo.join(".vscode")).expect("mkdir");
    std::fs::copy(
        fixture("configs/typos.json"),
        repo.join("mcpl-servers.json"),
    )
    .expect("copy");
    std::fs::write(
        repo.join(".vscode/mcp.json"),
        r#"{"servers": {"fs": {"type": "stdio", "command": "npx"}}}"#,
    )
    .expect("write");
    let output = repo.join("github-output");
    let out = script(repo, &[("INPUT_PATHS", ". *.json")], &output);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("::error file=./mcpl-servers.json,line=3,"),
        "{text}"
    );
    assert!(
        text.contains("::warning file=./mcpl-servers.json,line=4,endLine=4,col=77,endColumn=99,")
    );
    let outputs = std::fs::read_to_string(&output).expect("GITHUB_OUTPUT");
    assert_eq!(outputs, "sarif=mcpl-doctor.sarif\nstatus=1\n");
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("mcpl-doctor.sarif")).expect("the SARIF file"),
    )
    .expect("JSON");
    assert_eq!(sarif["runs"][0]["tool"]["driver"]["name"], "mcpl-doctor");
    assert!(sarif["runs"][0]["results"]
        .as_array()
        .is_some_and(|r| r.len() >= 6));

    // Clean files, a chosen SARIF path, warnings denied.
    std::fs::remove_file(repo.join("mcpl-servers.json")).expect("rm");
    std::fs::remove_file(&output).expect("rm");
    let out = script(
        repo,
        &[
            ("INPUT_PATHS", ".vscode/mcp.json"),
            ("INPUT_SARIF", "out/results.sarif"),
            ("INPUT_DENY_WARNINGS", "true"),
        ],
        &output,
    );
    // The folder of the SARIF path must exist (as in a workflow, which creates it).
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    std::fs::create_dir(repo.join("out")).expect("mkdir");
    std::fs::remove_file(&output).ok();
    let out = script(
        repo,
        &[
            ("INPUT_PATHS", ".vscode/mcp.json"),
            ("INPUT_SARIF", "out/results.sarif"),
            ("INPUT_DENY_WARNINGS", "true"),
        ],
        &output,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&output).expect("GITHUB_OUTPUT"),
        "sarif=out/results.sarif\nstatus=0\n"
    );
    assert!(repo.join("out/results.sarif").is_file());
}

#[test]
fn action_yml_runs_the_tested_script_with_its_inputs() {
    let action = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    assert!(action.contains("using: composite"));
    assert!(action.contains("scripts/ci-check-config.sh"));
    let script =
        std::fs::read_to_string(root().join("scripts/ci-check-config.sh")).expect("the script");
    for input in ["paths", "preset", "sarif", "deny-warnings"] {
        let var = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(action.contains(&format!("  {input}:")), "input {input}");
        assert!(
            action.contains(&format!("{var}: ${{{{ inputs.{input} }}}}")),
            "{var}"
        );
        assert!(script.contains(&var), "{var} in the script");
    }
    assert!(action.contains("github/codeql-action/upload-sarif@"));
}
