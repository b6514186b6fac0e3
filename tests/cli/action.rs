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

/// `action.yml`'s inputs, each with its default (quotes dropped), in file order.
fn action_inputs() -> Vec<(String, String)> {
    let action = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    let mut inputs: Vec<(String, String)> = Vec::new();
    let mut inside = false;
    for line in action.lines() {
        if !line.starts_with(' ') {
            inside = line == "inputs:";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(name) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':')) {
            if !name.starts_with(' ') {
                inputs.push((name.to_string(), String::new()));
            }
        } else if let Some(default) = line.trim_start().strip_prefix("default:") {
            if let Some(last) = inputs.last_mut() {
                last.1 = default.trim().trim_matches('"').to_string();
            }
        }
    }
    inputs
}

/// The fenced blocks of docs/check-config.md after a `<!-- workflow:` comment.
fn documented_workflows() -> Vec<String> {
    let page = std::fs::read_to_string(root().join("docs/check-config.md")).expect("the page");
    let mut blocks = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("<!-- workflow:") {
            assert_eq!(lines.next(), Some("```yaml"), "a yaml block after {line}");
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push(block.join("\n"));
        }
    }
    blocks
}

/// A YAML scalar as the runner reads it: comment dropped, quotes dropped.
fn scalar(v: &str) -> String {
    let v = match v.find(" #") {
        Some(i) => &v[..i],
        None => v,
    };
    v.trim().trim_matches('"').to_string()
}

#[test]
fn the_action_page_lists_every_input_of_action_yml_with_its_default() {
    let page = std::fs::read_to_string(root().join("docs/check-config.md")).expect("the page");
    let table: Vec<(String, String)> = page
        .lines()
        .skip_while(|l| !l.starts_with("<!-- action-inputs:"))
        .skip(3)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_string(),
                cells[2].trim_matches('`').to_string(),
            )
        })
        .collect();
    let inputs = action_inputs();
    assert_eq!(inputs.len(), 7, "{inputs:?}");
    assert_eq!(
        table, inputs,
        "docs/check-config.md's table against action.yml"
    );
}

/// The page's workflow, run the way the runner runs the action: its `with:` values become
/// `INPUT_*` variables of `scripts/ci-check-config.sh` (the action's `compile` step is what put
/// the binary on PATH); then the by-hand workflow's `mcpl-doctor` line, run by bash.
#[test]
fn the_documented_workflows_run_through_the_action_script() {
    let workflows = documented_workflows();
    assert_eq!(workflows.len(), 2, "two workflows on the page");
    let names: Vec<String> = action_inputs().into_iter().map(|(n, _)| n).collect();

    let with: Vec<(String, String)> = workflows[0]
        .lines()
        .skip_while(|l| !l.contains("uses: OWNER/mcpl-doctor@"))
        .skip_while(|l| l.trim() != "with:")
        .skip(1)
        .take_while(|l| l.starts_with("          "))
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(':')?;
            Some((k.to_string(), scalar(v)))
        })
        .collect();
    assert!(with.len() >= 3, "{with:?}");
    for (k, _) in &with {
        assert!(names.contains(k), "`{k}` is not an input of action.yml");
    }
    assert!(
        workflows[0].contains("security-events: write"),
        "the SARIF upload needs the permission"
    );

    let dir = tempfile::tempdir().expect("a temp dir");
    let repo = dir.path();
    std::fs::copy(
        fixture("configs/typos.json"),
        repo.join("mcpl-servers.json"),
    )
    .expect("copy");
    let output = repo.join("github-output");
    let vars: Vec<(String, String)> = with
        .iter()
        .filter(|(k, _)| ["paths", "preset", "sarif", "deny-warnings"].contains(&k.as_str()))
        .map(|(k, v)| {
            (
                format!("INPUT_{}", k.to_uppercase().replace('-', "_")),
                v.clone(),
            )
        })
        .collect();
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let out = script(repo, &vars, &output);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("::error file=./mcpl-servers.json,line=3,"));
    assert_eq!(
        std::fs::read_to_string(&output).expect("GITHUB_OUTPUT"),
        "sarif=mcpl-doctor.sarif\nstatus=1\n"
    );
    assert!(repo.join("mcpl-doctor.sarif").is_file());

    // By hand: the step's command, run by bash from the checkout.
    std::fs::remove_file(repo.join("mcpl-doctor.sarif")).expect("rm");
    let line = workflows[1]
        .lines()
        .find_map(|l| l.trim().strip_prefix("run: mcpl-doctor "))
        .expect("a `run: mcpl-doctor` step");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("mcpl-doctor {line}"))
        .current_dir(repo)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin_dir.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("TERM", "dumb")
        .output()
        .expect("bash runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("::error file=./mcpl-servers.json,line=3,"));
    assert!(repo.join("mcpl-doctor.sarif").is_file());
}
