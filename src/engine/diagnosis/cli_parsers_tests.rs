use super::*;

fn refused(text: &str) -> Option<Refused> {
    let lines: Vec<&str> = text.lines().collect();
    unknown_flag(&lines, &help::parts(&lines))
}

#[test]
fn each_parsers_unknown_flag_is_read_with_its_suggestion() {
    // Each parser's real lines (the versions are named in tests/cli/diagnosis_parsers.rs).
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        (
            "flag provided but not defined: -url\nUsage of srv:\n  -address string\n    \tThe host",
            &["-url"],
            None,
        ),
        ("Error: unknown flag: --url\nUsage:\n  srv [flags]", &["--url"], None),
        (
            "Error: unknown shorthand flag: 'x' in -xv\nUsage:\n  srv [flags]",
            &["-x"],
            None,
        ),
        (
            "error: unknown option '--api-kee'\n(Did you mean --api-key?)",
            &["--api-kee"],
            Some("--api-key"),
        ),
        ("Unknown arguments: api-kee, apiKee", &["api-kee", "apiKee"], None),
        (
            "Error: No such option '--api-kee'. Did you mean '--api-key'?",
            &["--api-kee"],
            Some("--api-key"),
        ),
        (
            "│ No such option: --api-kee (Possible options: --api-key)                      │",
            &["--api-kee"],
            Some("--api-key"),
        ),
        (
            "error: unexpected argument '--launchs' found\n\n  tip: a similar argument exists: '--launches'\n  tip: to pass '--launchs' as a value, use '-- --launchs'",
            &["--launchs"],
            Some("--launches"),
        ),
        (
            "usage: srv [-h] [--api-key API_KEY]\nsrv: error: unrecognized arguments: --url x",
            &["--url", "x"],
            None,
        ),
        (
            "TypeError [ERR_PARSE_ARGS_UNKNOWN_OPTION]: Unknown option '--url'",
            &["--url"],
            None,
        ),
    ];
    for (text, flags, suggestion) in cases {
        let r = refused(text).unwrap_or_else(|| panic!("nothing read in {text}"));
        assert_eq!(r.flags, *flags, "{text}");
        assert_eq!(r.suggestion.as_deref(), *suggestion, "{text}");
    }
    // Look-alikes: a help text describing a flag, a log line in prose.
    assert!(refused("Usage: srv\nOptions:\n  --strict  fail on an unknown option '--x'").is_none());
    assert!(refused("INFO loaded the config").is_none());
}

#[test]
fn a_usage_names_its_commands_and_its_flags() {
    // argparse (Python 3.11), the usage of web-forager 0.x.
    let l = [
        "usage: web-forager [-h] {serve,search,news,fetch,version} ...",
        "web-forager: error: the following arguments are required: command",
    ];
    assert_eq!(
        usage_commands(&l),
        ["serve", "search", "news", "fetch", "version"]
    );
    assert_eq!(
        missing_command(&l, &help::parts(&l)),
        Some("web-forager: error: the following arguments are required: command")
    );
    // A flag's values are no commands (the usage wrapped onto a second line).
    let l = [
        "usage: srv [-h] [--api-key API_KEY] [--transport {stdio,http}]",
        "           {serve,search} ...",
    ];
    assert_eq!(usage_commands(&l), ["serve", "search"]);
    let l = ["usage: srv [-h] [--transport {stdio,http}]"];
    assert!(usage_commands(&l).is_empty());
    // Go flag's listing and commander's options.
    let l = [
        "Usage of srv:",
        "  -address string",
        "    \tThe host and port",
        "  -t string",
        "    \tTransport type",
    ];
    assert_eq!(offered_flags(&l, &help::parts(&l)), ["-address", "-t"]);
    let l = [
        "Usage: srv [options]",
        "",
        "Options:",
        "  -k, --api-key <key>  the API key",
        "  -h, --help           display help for command",
    ];
    assert_eq!(
        offered_flags(&l, &help::parts(&l)),
        ["-k", "--api-key", "-h", "--help"]
    );
}

#[test]
fn a_close_flag_is_one_spelling_or_an_edit_or_two_away() {
    let offered: Vec<String> = ["--api-key", "--transport", "-address"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        close_flag("--api_key", &offered).as_deref(),
        Some("--api-key")
    );
    assert_eq!(
        close_flag("--transprt", &offered).as_deref(),
        Some("--transport")
    );
    assert_eq!(
        close_flag("--adress", &offered).as_deref(),
        Some("-address")
    );
    assert_eq!(close_flag("--url", &offered), None);
    assert_eq!(flag_key("--api-key=x"), flag_key("-apiKey"));
}

#[test]
fn a_missing_command_and_a_help_printed_alone() {
    for line in [
        "Error: Missing command.",
        "Not enough non-option arguments: got 0, need at least 1",
        "error: 'srv' requires a subcommand but one was not provided",
    ] {
        let l = [line];
        assert_eq!(missing_command(&l, &help::parts(&l)), Some(line));
    }
    // commander 14 without its command: the help alone, exit 1.
    let l = [
        "Usage: srv [options] [command]",
        "",
        "Options:",
        "  -h, --help      display help for command",
        "",
        "Commands:",
        "  serve           serve it",
    ];
    assert!(help_alone(&l, &help::parts(&l)));
    // A usage with an error after it is not a help alone.
    let l = ["Usage: srv [options]", "Error: the token was refused"];
    assert!(!help_alone(&l, &help::parts(&l)));
}

#[test]
fn choices_in_click_commander_and_a_must_be_message() {
    let click = "Error: Invalid value for '--transport': 'htp' is not one of 'stdio', 'http'.";
    assert_eq!(
        choice(click),
        Some((Some("--transport".to_string()), "htp".to_string()))
    );
    assert_eq!(choice_list(click), ["stdio", "http"]);
    let commander =
        "error: option '--transport <t>' argument 'htp' is invalid. Allowed choices are stdio, http.";
    assert_eq!(
        choice(commander),
        Some((Some("--transport".to_string()), "htp".to_string()))
    );
    assert_eq!(choice_list(commander), ["stdio", "http"]);
    let must = "time=x level=ERROR msg=\"Fatal error\" error=\"invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'\"";
    assert_eq!(choice(must), Some((None, "http".to_string())));
    assert_eq!(choice_list(must), ["stdio", "sse", "streamable-http"]);
    // Look-alikes: a `must be` that lists no quoted choices.
    assert_eq!(
        choice("SENTRY_URL must be a full HTTPS URL (e.g., https://sentry.example.com)."),
        None
    );
    assert_eq!(choice("the port must be a number, or empty"), None);
}

#[test]
fn a_boxed_help_reads_as_a_plain_one() {
    // typer 0.29.2's rich help (click 8.5.1, rich 15.0.0).
    let l = [
        " Usage: srv [OPTIONS] COMMAND [ARGS]...",
        "╭─ Commands ─────────────────────────────╮",
        "│ serve                                  │",
        "│ search                                 │",
        "╰────────────────────────────────────────╯",
    ];
    let plain = unboxed(&l);
    let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
    assert_eq!(
        crate::engine::diagnosis::evidence::commands(&plain),
        ["serve", "search"]
    );
}

#[test]
fn a_close_word_is_an_edit_or_two_away_or_its_beginning() {
    let offered: Vec<String> = ["serve", "watch", "config", "iam", "kubeconfig"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(close_word("server", &offered).as_deref(), Some("serve"));
    assert_eq!(close_word("confg", &offered).as_deref(), Some("config"));
    assert_eq!(close_word("kube", &offered).as_deref(), Some("kubeconfig"));
    // Two letters swapped are one edit.
    assert_eq!(close_word("iam", &["mia".to_string()]), None);
    assert_eq!(
        close_word("mpc", &["mcp".to_string()]).as_deref(),
        Some("mcp")
    );
    // Nothing near: no guess; a word listed is not its own correction; too short to tell.
    assert_eq!(close_word("index", &offered), None);
    assert_eq!(close_word("serve", &offered), None);
    assert_eq!(close_word("ia", &offered), None);
}
