use super::*;

fn setting(command: &str, args: &[&str]) -> Setting {
    Setting {
        command: Some(command.to_string()),
        args: args.iter().map(|a| a.to_string()).collect(),
        given_env: Some(Default::default()),
        entry: true,
        ..Setting::default()
    }
}

fn facts(stderr: &str) -> Vec<Fact> {
    let lines: Vec<&str> = stderr.lines().collect();
    evidence::parse(&lines)
}

/// A CLI (a real shell script) that prints `help` for `--help` and refuses its first
/// argument as a command otherwise, as @launchdarkly/mcp-server 0.4 (stricli) does.
fn cli(help: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("cli.sh");
    std::fs::write(
        &p,
        format!(
            "if [ \"$1\" = --help ]; then printf '%s\\n' '{help}'; exit 0; fi\n\
             echo \"No command registered for \\`$1\\`\" >&2; exit 251\n"
        ),
    )
    .expect("write");
    let shown = p.display().to_string();
    (dir, shown)
}

const STRICLI_HELP: &str = "USAGE\n  mcp start [--api-key value]\n  mcp --help\n\nMCP server CLI\n\nFLAGS\n  -h --help     Print help information and exit\n\nCOMMANDS\n  start  Run the Model Context Protocol server";

#[test]
fn a_flag_taken_for_a_command_is_told_by_the_help_it_asks() {
    let (_d, script) = cli(STRICLI_HELP);
    let s = setting("/bin/sh", &[&script, "--api-key", "k-123456"]);
    let stderr = "No command registered for `--api-key`";
    let lines: Vec<&str> = stderr.lines().collect();
    let f = command_first(&lines, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(
        f.next.contains("add `start`") && f.next.contains("before `--api-key`"),
        "{}",
        f.next
    );
    let tried: Vec<&String> = f
        .evidence
        .iter()
        .filter(|(src, _)| *src == Source::Tried)
        .map(|(_, t)| t)
        .collect();
    assert!(
        tried
            .iter()
            .any(|t| t.contains("--help") && t.contains("start")),
        "{tried:?}"
    );
    // Look-alikes: the entry gives the command; the help lists no commands; an error quoting
    // nothing of the entry is never asked about.
    let given = setting("/bin/sh", &[&script, "start", "--api-key", "k-123456"]);
    assert!(command_first(&["No command registered for `--api-key`"], &given).is_none());
    let (_d2, flat) = cli("Usage: srv [--api-key KEY]\n\nOptions:\n  --api-key KEY  the key");
    let s2 = setting("/bin/sh", &[&flat, "--api-key", "k-123456"]);
    assert!(command_first(&lines, &s2).is_none());
    assert!(command_first(&["Error: something failed"], &s).is_none());
}

#[test]
fn a_usage_with_its_commands_names_them_in_place_of_the_word_refused() {
    // yargs, its program name before each command, and a word it refused.
    let s = setting("npx", &["-y", "srv", "serve"]);
    let stderr = "Usage: srv <command> [options]\n\nCommands:\n  srv start    Start the server\n  srv inspect  Print the config\n\nUnknown command: 'serve'";
    let lines: Vec<&str> = stderr.lines().collect();
    let f = command_first(&lines, &s).expect("a finding");
    assert!(
        f.next.contains("`start`, `inspect`") && f.next.contains("in place of `serve`"),
        "{}",
        f.next
    );
    // Look-alike: a CLI whose commands are optional (@sentry/mcp-server 0.x lists `auth
    // login` under its usage) and an error that quotes nothing of the entry's args.
    let s = setting("node", &["dist/index.js"]);
    let optional = "Error: No access token was provided.\nUsage: srv [--access-token=<token>]\n\nCommands:\n  auth login   Authenticate\n  auth logout  Clear";
    let lines: Vec<&str> = optional.lines().collect();
    assert!(command_first(&lines, &s).is_none());
}

#[test]
fn an_error_naming_a_given_flag_is_about_its_value() {
    // @stripe/mcp 0.3 with a publishable key: a thrown Error, its stack, the key masked.
    let s = setting("node", &["dist/index.js", "--api-key=[redacted]"]);
    let stderr = "Error: Invalid API key format. Expected sk_* (secret key) or rk_* (restricted key).\n    at validateApiKey (/x/dist/cli.js:41:15)\n    at main (/x/dist/index.js:20:30)";
    let f = flag_named(&facts(stderr), &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.next.contains("`--api-key`"), "{}", f.next);
    assert!(!f.next.contains(MASK), "{}", f.next);
    // The flag written as it is passed, and a value quoted by a Python exception.
    let s = setting("uvx", &["srv", "--log-level", "loud"]);
    let f = flag_named(&facts("srv: error: unknown value for --log-level"), &s).expect("a finding");
    assert!(f.summary.contains("`--log-level loud`"), "{}", f.summary);
    let py = "Traceback (most recent call last):\n  File \"/x/srv.py\", line 3, in <module>\nValueError: level 'loud' is not known";
    let f = flag_named(&facts(py), &s).expect("a finding");
    assert!(f.next.contains("`--log-level loud`"), "{}", f.next);
    // mcp-server-duckdb 1.x names the folder of the file given, whole.
    let s = setting(
        "mcp-server-duckdb",
        &["--db-path", "/srv/data/app.duckdb", "--readonly"],
    );
    let py = "Traceback (most recent call last):\n  File \"/v/site-packages/m/server.py\", line 33, in __init__\nValueError: Database file does not exist: /srv/data in read-only mode";
    let f = flag_named(&facts(py), &s).expect("a finding");
    assert!(
        f.next.contains("`--db-path /srv/data/app.duckdb`"),
        "{}",
        f.next
    );
    // Look-alikes: a crash naming nothing of the entry; a single word of a flag (`key`) or a
    // plain word of a value in prose.
    let s = setting(
        "node",
        &["dist/index.js", "--api-key=[redacted]", "--mode", "fast"],
    );
    let crash = "TypeError: Cannot read properties of undefined (reading 'map')\n    at run (/x/dist/index.js:9:9)";
    assert!(flag_named(&facts(crash), &s).is_none());
    let prose = "Error: the key store is too fast to open\n    at run (/x/dist/index.js:9:9)";
    assert!(flag_named(&facts(prose), &s).is_none());
    // A path's folder inside a longer path (a frame's file) is not the folder named.
    let s = setting("srv", &["--db-path", "/srv/data/app.duckdb"]);
    let frame =
        "Traceback (most recent call last):\nValueError: cannot load /srv/data/plugins/x.so";
    assert!(flag_named(&facts(frame), &s).is_none());
}

#[test]
fn a_command_left_out_names_the_one_that_serves_from_the_usage() {
    // argparse (Python 3.11), web-forager 0.x run without its command.
    let s = setting("/venv/bin/web-forager", &[]);
    let stderr = "usage: web-forager [-h] {serve,search,news,fetch,version} ...\nweb-forager: error: the following arguments are required: command";
    let lines: Vec<&str> = stderr.lines().collect();
    let f = command_first(&lines, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(
        f.next.starts_with(
            "add `serve` first in the entry's args (its usage lists `serve`, `search`"
        ),
        "{}",
        f.next
    );
}

#[test]
fn a_command_misspelt_names_the_closest_one_the_cli_lists() {
    // argparse (jcodemunch-mcp 1.x, stop 38): `server` for its `serve` subcommand, refused as
    // an unrecognised argument under a usage that lists the subcommands.
    let s = setting("/v/bin/jcodemunch-mcp", &["server"]);
    let stderr = "usage: jcodemunch-mcp [-h] [-V]\n                      {serve,watch,config,list-repos,surface,delete-index}\n                      ...\njcodemunch-mcp: error: unrecognized arguments: server";
    let lines: Vec<&str> = stderr.lines().collect();
    let f = command_first(&lines, &s).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(
        f.next
            .starts_with("write `serve` in the entry's args, in place of `server`"),
        "{}",
        f.next
    );
    // click 8 (`No such command 'srve'.` under its Commands), cobra (`unknown command "strat"
    // for "srv"`), commander (`error: unknown command 'stdoi'`): each names the closest.
    for (args, stderr, want) in [
        (
            ["srve"],
            "Usage: srv [OPTIONS] COMMAND [ARGS]...\nTry 'srv --help' for help.\n\nError: No such command 'srve'.\n\nCommands:\n  index  Build the index\n  serve  Run the MCP server",
            "write `serve` in the entry's args, in place of `srve`",
        ),
        (
            ["strat"],
            "Error: unknown command \"strat\" for \"srv\"\nRun 'srv --help' for usage.\n\nAvailable Commands:\n  start       Start the server\n  version     Print the version",
            "write `start` in the entry's args, in place of `strat`",
        ),
        (
            ["stdoi"],
            "error: unknown command 'stdoi'\nUsage: srv [options] [command]\n\nCommands:\n  stdio           Serve over stdio\n  http            Serve over HTTP",
            "write `stdio` in the entry's args, in place of `stdoi`",
        ),
    ] {
        let s = setting("/usr/bin/srv", &args);
        let lines: Vec<&str> = stderr.lines().collect();
        let f = command_first(&lines, &s).expect("a finding");
        assert!(f.next.starts_with(want), "{}", f.next);
    }
    // Look-alikes: the entry gives a listed command and an unrecognised flag after it; the
    // word refused is not the entry's.
    let s = setting("/v/bin/jcodemunch-mcp", &["serve", "--fast"]);
    let other = "usage: jcodemunch-mcp [-h] [-V] {serve,watch} ...\njcodemunch-mcp: error: unrecognized arguments: --fast";
    let lines: Vec<&str> = other.lines().collect();
    assert!(command_first(&lines, &s).is_none());
    let s = setting("/v/bin/jcodemunch-mcp", &[]);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(command_first(&lines, &s).is_none());
}
