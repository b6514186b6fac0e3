use super::*;

fn lines(text: &str) -> Vec<String> {
    cli_parsers::unboxed(&text.lines().collect::<Vec<_>>())
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_help_is_a_usage_with_a_section_or_its_commands() {
    // System.CommandLine (workiq), cobra (github-mcp-server), rich boxes (typer), argparse.
    for help in [
        "Description:\n  A client\n\nUsage:\n  workiq [command] [options]\n\nCommands:\n  mcp  Start MCP stdio server",
        "A server.\n\nUsage:\n  server [command]\n\nAvailable Commands:\n  stdio       Start stdio server",
        " Usage: nlm [OPTIONS] COMMAND [ARGS]...\n╭─ Commands ───╮\n│ login  Log in │\n╰──────────────╯",
        "usage: srv [-h] {serve,search} ...",
    ] {
        assert!(is_help(&refs(&lines(help))), "{help}");
    }
    // Look-alikes: a log line saying `usage:`, a heading alone, a banner.
    for not in [
        "Starting server...\nOptions: none given",
        "usage: 12% of quota",
        "MCP server v1.2 running on stdio",
    ] {
        assert!(!is_help(&refs(&lines(not))), "{not}");
    }
}

#[test]
fn the_command_that_serves_by_its_name_or_its_description() {
    let help = lines("Usage:\n  x [command]\n\nCommands:\n  config   Manage defaults for mcp and agent\n  setup    Configure MCP server for AI tools\n  agent    Start the MCP server over stdio\n  mcp      Start MCP stdio server");
    let c = described(&refs(&help));
    assert_eq!(
        c[0],
        (
            "config".to_string(),
            "Manage defaults for mcp and agent".to_string()
        )
    );
    // A command's description is on its own line, not where another's names it.
    assert_eq!(c[3].1, "Start MCP stdio server");
    // By its name first.
    assert_eq!(serving(&c).map(|x| x.0.as_str()), Some("mcp"));
    // By its description, never one that configures it.
    let c: Vec<(String, String)> = c.into_iter().filter(|x| x.0 != "mcp").collect();
    assert_eq!(serving(&c).map(|x| x.0.as_str()), Some("agent"));
    assert!(!serves_by_description("Configure MCP server for AI tools"));
    assert!(serves_by_description("Run the server"));
    assert!(!serves_by_description("Manage notebooks"));
}

#[test]
fn the_console_scripts_of_the_distribution_that_installs_the_program() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = dir.path().join("bin");
    let info = dir
        .path()
        .join("lib/python3.11/site-packages/pkg-1.0.dist-info");
    std::fs::create_dir_all(&bin).expect("bin");
    std::fs::create_dir_all(&info).expect("dist-info");
    std::fs::write(bin.join("cli"), "#!/bin/sh\n").expect("cli");
    std::fs::write(
        info.join("entry_points.txt"),
        "[gui_scripts]\nnot-this = pkg:gui\n\n[console_scripts]\ncli = pkg.cli:main\npkg-mcp = pkg.mcp.server:main\n",
    )
    .expect("entry points");
    let sib = python_scripts(&bin.join("cli")).expect("its scripts");
    assert_eq!(sib.current, "cli");
    assert_eq!(sib.others, vec!["pkg-mcp".to_string()]);
    assert_eq!(sib.folder.as_deref(), Some(bin.as_path()));
    // Look-alike: a program no distribution of the venv installs.
    assert!(python_scripts(&bin.join("other")).is_none());
}
