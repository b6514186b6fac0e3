//! `check-config --platform`: what breaks on the machine a file will run on (hosts.md F1, F2,
//! F4, F9, copied into `tests/reference/hosts-dialects.md`), at line:column, in fixture files of
//! Claude Desktop, Claude Code and VS Code (`fixtures/configs/platforms/`).

use crate::support::{fixture, json, root, run, stdout};

/// The codes the tests below find in `fixtures/configs/platforms/`.
pub const COVERED: [&str; 7] = [
    "windows-shim-without-shell",
    "platform-path",
    "env-replaces-environment",
    "python-encoding",
    "env-path-one-folder",
    "launcher-without-shell-path",
    "windows-only-command",
];

/// (code, line, column) of every finding, in order.
fn findings(file: &str, platform: &str) -> Vec<(String, u64, u64)> {
    let path = fixture(&format!("configs/platforms/{file}"));
    let out = run(&[
        "check-config",
        "--platform",
        platform,
        "-f",
        "json",
        &path.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings only: {}",
        stdout(&out)
    );
    json(&out)["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("a code").to_string(),
                f["line"].as_u64().expect("a line"),
                f["column"].as_u64().expect("a column"),
            )
        })
        .collect()
}

fn expect(file: &str, platform: &str, want: &[(&str, u64, u64)]) {
    let got = findings(file, platform);
    let want: Vec<(String, u64, u64)> = want
        .iter()
        .map(|(c, l, k)| (c.to_string(), *l, *k))
        .collect();
    assert_eq!(got, want, "{file} --platform {platform}");
}

#[test]
fn windows_findings_of_a_claude_desktop_file() {
    expect(
        "desktop/claude_desktop_config.json",
        "windows",
        &[
            // `npx` without `cmd /c` (F2), twice.
            ("windows-shim-without-shell", 4, 18),
            // `/Users/me/Desktop`.
            ("platform-path", 5, 65),
            ("windows-shim-without-shell", 8, 18),
            // The `env` block replaces the environment (F4).
            ("env-replaces-environment", 10, 14),
            // `uvx` runs a Python server (F9).
            ("python-encoding", 13, 18),
            ("env-replaces-environment", 19, 14),
            ("env-path-one-folder", 19, 24),
        ],
    );
}

#[test]
fn macos_findings_of_a_claude_desktop_file() {
    expect(
        "desktop/claude_desktop_config.json",
        "macos",
        &[
            // Bare launchers under launchd's PATH (F1).
            ("launcher-without-shell-path", 4, 18),
            ("launcher-without-shell-path", 8, 18),
            ("launcher-without-shell-path", 13, 18),
            ("launcher-without-shell-path", 17, 18),
            // `C:\Users\...` and a Windows `env.PATH`.
            ("platform-path", 18, 16),
            ("platform-path", 19, 24),
            ("windows-only-command", 22, 18),
        ],
    );
}

#[test]
fn windows_and_macos_findings_of_a_claude_code_file() {
    expect(
        "code/.mcp.json",
        "windows",
        &[
            ("windows-shim-without-shell", 3, 49),
            ("python-encoding", 5, 18),
            ("platform-path", 6, 16),
            ("env-path-one-folder", 7, 24),
        ],
    );
    // Claude Code runs from the terminal, with the shell's PATH: a bare `npx` is fine on macOS.
    expect("code/.mcp.json", "macos", &[("env-path-one-folder", 7, 24)]);
}

#[test]
fn windows_and_macos_findings_of_a_vscode_file() {
    // VS Code resolves `npx.cmd` itself: no `cmd /c` finding for it.
    expect(
        "vscode/.vscode/mcp.json",
        "windows",
        &[
            ("python-encoding", 4, 44),
            ("env-path-one-folder", 9, 24),
            ("platform-path", 11, 42),
        ],
    );
    expect(
        "vscode/.vscode/mcp.json",
        "macos",
        &[("platform-path", 8, 16), ("env-path-one-folder", 9, 24)],
    );
}

#[test]
fn all_platforms_name_each_fault_once_with_where_it_breaks() {
    let path = fixture("configs/platforms/desktop/claude_desktop_config.json");
    let out = run(&[
        "check-config",
        "--platform",
        "all",
        "-f",
        "json",
        &path.display().to_string(),
    ]);
    let doc = json(&out);
    let messages: Vec<(String, String)> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or_default().to_string(),
                f["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let of = |code: &str| {
        messages
            .iter()
            .filter(|(c, _)| c == code)
            .map(|(_, m)| m.as_str())
            .collect::<Vec<_>>()
    };
    // A bare `npx` breaks both ways: launchd's PATH on macOS and Linux, `cmd /c` on Windows.
    assert!(of("launcher-without-shell-path")[0].contains("on macOS and Linux"));
    assert!(of("windows-shim-without-shell")[0].contains("on Windows"));
    assert!(of("windows-only-command")[0].contains("on macOS and Linux"));
    // Each names the host and gives the fix in the file's terms.
    for (code, m) in &messages {
        assert!(
            m.contains("Claude Desktop") || code == "windows-only-command",
            "{m}"
        );
    }
    assert!(of("windows-shim-without-shell")[0]
        .contains(r#"Write `"command": "cmd"` and put `"/c", "npx"` first in `args`"#));
    assert!(of("python-encoding")[0].contains(r#"`"PYTHONUTF8": "1"` to `env`"#));
    assert!(of("env-replaces-environment")[0].contains("APPDATA"));
    assert!(of("env-replaces-environment")[0].contains("PATHEXT"));
    assert!(of("env-replaces-environment")[0].contains("SystemRoot"));
}

/// The default is this machine's platform; `--platform linux` says the same here.
#[test]
fn the_default_platform_is_the_running_one() {
    let path = fixture("configs/platforms/desktop/claude_desktop_config.json");
    let path = path.display().to_string();
    let default = run(&["check-config", "-f", "json", &path]);
    let linux = run(&["check-config", "--platform", "linux", "-f", "json", &path]);
    assert_eq!(stdout(&default), stdout(&linux));
    let unknown = run(&["check-config", "--platform", "beos", &path]);
    assert_eq!(unknown.status.code(), Some(2));
}

/// The facts the checks encode are the reference's (hosts.md F2, F4, F9).
#[test]
fn the_checks_follow_the_host_reference() {
    let reference = std::fs::read_to_string(root().join("tests/reference/hosts-dialects.md"))
        .expect("the reference");
    let row = |id: &str| {
        reference
            .lines()
            .find(|l| l.starts_with(&format!("| {id} |")))
            .unwrap_or_else(|| panic!("row {id}"))
            .to_string()
    };
    assert!(row("F1").contains("launchd gives a minimal PATH"));
    assert!(row("F2").contains("spawn EINVAL") && row("F2").contains("cmd /c"));
    assert!(row("F4").contains("APPDATA") && row("F4").contains("PATHEXT"));
    assert!(row("F9").contains("PYTHONUTF8") && row("F9").contains("PYTHONIOENCODING"));
}
