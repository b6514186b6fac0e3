# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_mcpl_doctor_global_optspecs
    string join \n color= ascii h/help V/version
end

function __fish_mcpl_doctor_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_mcpl_doctor_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_mcpl_doctor_using_subcommand
    set -l cmd (__fish_mcpl_doctor_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s V -l version -d 'Print version'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "probe" -d 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "schema" -d 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l preset -d 'The reconnect rule: handshake, lasting, bounded, preceding-wait, kubernetes, docker, pm2, supervisord, systemd, mcp-sdk-http. Without it (and without --compare): handshake and lasting side by side' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l compare -d 'Summaries of several presets side by side, one column each (comma-separated)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l engine -d 'Which agent-framework engine: alert wording (MCPL/MCP) and, under `handshake`, whether waits are clamped to the timer limit (the modern engine clamps)' -r -f -a "legacy\t''
modern\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l interval -d 'The backoff\'s base (`reconnectIntervalMs`). Default: the preset\'s own (5 s for the host)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l cap -d 'The backoff\'s ceiling (`reconnectMaxIntervalMs`). Default: the preset\'s own (5 min)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l server -d 'What the server does (see below). Default: dies right after its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l fail-after -d 'With `never`: how long into each attempt the failure comes' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l startup -d 'Time from launch to completed handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l settle -d 'Time from completed handshake to a settled policy exchange (legacy engine): a reconnect clears the "down" status line only if the connection is still up by then [default: 100ms]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l attempts -d 'Simulate this many launches' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l span -d 'Simulate this much time [default: 1d]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l seed -d 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l rows -d 'How many rows of the schedule to show per preset (the summary always covers all)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l report -d 'Also write a self-contained HTML report (timelines, schedules, each rule over a day) to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l svg -d 'Also write the timelines alone as an SVG picture to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l no-jitter -d 'Nominal waits, no jitter'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l json -d 'One JSON document (with schema_version) instead of tables'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l preset -d 'Which host\'s reconnect rule the findings describe: `lasting` (#999, refuses bad timings at start), `handshake` (main, before #999), or a #999 review proposal' -r -f -a "handshake\t''
lasting\t''
bounded\t''
preceding-wait\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l format -d 'Output format on standard output' -r -f -a "human\t'Compiler-style diagnostics with the source line (default)'
json\t'One JSON document with `schema_version` and every finding'
github\t'GitHub Actions workflow commands (annotations on the pull request\'s diff)'
sarif\t'SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l output -d 'Also write FORMAT to FILE (repeatable), e.g. `--output sarif=results.sarif`: a human log and a SARIF file from one run' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l stdin-filename -d 'The file name findings from standard input (`-`) are placed on, e.g. `.vscode/mcp.json`' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s q -l quiet -d 'Print findings only: no summary line when there is nothing to say'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l deny-warnings -d 'Exit with status 1 when there are warnings, not only errors'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l url -d 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l token -d 'The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization: Bearer`. Never shown in any output' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l open-timeout -d 'How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket), the dial of each request (HTTP)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l config -d 'A host configuration file to take server entries from (with --server or --all)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l server -d 'An entry\'s id in --config. Repeat it to probe several entries at once' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l protocol -d 'The handshake of a command: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry\'s `protocol`, else legacy. A URL\'s scheme decides for itself' -r -f -a "legacy\t''
modern\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l preset -d 'The host\'s reconnect rule: handshake (main), lasting (#999), bounded, preceding-wait, or a peer preset (kubernetes, docker, pm2, supervisord, systemd, mcp-sdk-http)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l interval -d 'The backoff\'s base. Default: the entry\'s reconnectIntervalMs, else 5 s. With several entries it applies to all of them' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l cap -d 'The backoff\'s ceiling. Default: the entry\'s reconnectMaxIntervalMs, else 5 min. With several entries it applies to all of them' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l seed -d 'Seed for the wait\'s jitter, to repeat a run\'s waits. Default: random, printed. With several servers each uses N plus its entry\'s position in the file (shown in its report)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l launches -d 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l for -d 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l watch -d 'Stop when a connection is still up this long after its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-timeout -d 'A handshake not completed this long after launch is a failed attempt' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-every -d 'Send a JSON-RPC ping this often while connected' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-timeout -d 'A ping unanswered this long ends the connection as "stopped answering"' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l redact -d 'A secret to mask in all output (repeatable). The entry\'s env values and token are masked anyway' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l report -d 'Also write a self-contained HTML report (timeline, launches, verdict, predictions) to FILE, to open in a browser or attach to an incident (with --all: every server on one page)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l svg -d 'Also write the timeline alone as an SVG picture to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l all -d 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l until-down -d 'Stop once the host would raise mcpl-down'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-only -d 'Stop talking after the handshake: no featureSets/update, tools/list or subscription (for a server known to misbehave on them)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l json -d 'One JSON document (with schema_version) at the end instead of the table'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l events -d 'JSON lines on stdout as things happen (the last line is the whole report)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "probe" -d 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "schema" -d 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe schema completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
