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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -l ascii -d 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s V -l version -d 'Print version'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "probe" -d 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "serve" -d 'Supervise every server of a configuration continuously as its host would (relaunching under the host\'s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "schema" -d 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "man" -d 'Print a man page (or write them all with --out) from this binary\'s own definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s p -l preset -d 'The reconnect rule. Without it (and without --compare): reset-on-handshake and lasting side by side' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix: a connection resets the count once it has lasted the cap (at least 5 min)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'
kubernetes\t'Kubernetes\' CrashLoopBackOff'
docker\t'Docker\'s restart=always'
pm2\t'PM2 with exp_backoff_restart_delay'
supervisord\t'supervisord'
systemd\t'systemd Restart=on-failure'
mcp-sdk-http\t'The MCP TypeScript SDK\'s HTTP reconnection'
claude-code-remote\t'Claude Code\'s remote servers: 1, 2, 4, 8, 16 s, then failed'
claude-code-stdio\t'Claude Code\'s stdio servers: relaunched on the next tool call'
claude-desktop\t'Claude Desktop: never relaunches'
vscode\t'VS Code: relaunches a stopped server on its next use'
vscode-http\t'VS Code\'s HTTP back-channel: min(n s, 30 s), without end'
cline-http\t'Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected'
cline-stdio\t'Cline\'s stdio servers: never relaunched; 60 s to start'
copilot-cli\t'GitHub Copilot CLI: never relaunches; 60 s to initialize'
ts-sdk-sse\t'The TypeScript SDK\'s SSE stream: 1 s x1.5 to 30 s, 2 retries'
hermes\t'Hermes agent: 1-16 s, 5 tries, the count never reset'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l compare -d 'Summaries of several rules side by side, one column each (comma-separated)' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix: a connection resets the count once it has lasted the cap (at least 5 min)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'
kubernetes\t'Kubernetes\' CrashLoopBackOff'
docker\t'Docker\'s restart=always'
pm2\t'PM2 with exp_backoff_restart_delay'
supervisord\t'supervisord'
systemd\t'systemd Restart=on-failure'
mcp-sdk-http\t'The MCP TypeScript SDK\'s HTTP reconnection'
claude-code-remote\t'Claude Code\'s remote servers: 1, 2, 4, 8, 16 s, then failed'
claude-code-stdio\t'Claude Code\'s stdio servers: relaunched on the next tool call'
claude-desktop\t'Claude Desktop: never relaunches'
vscode\t'VS Code: relaunches a stopped server on its next use'
vscode-http\t'VS Code\'s HTTP back-channel: min(n s, 30 s), without end'
cline-http\t'Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected'
cline-stdio\t'Cline\'s stdio servers: never relaunched; 60 s to start'
copilot-cli\t'GitHub Copilot CLI: never relaunches; 60 s to initialize'
ts-sdk-sse\t'The TypeScript SDK\'s SSE stream: 1 s x1.5 to 30 s, 2 retries'
hermes\t'Hermes agent: 1-16 s, 5 tries, the count never reset'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s e -l engine -d 'Which of the host\'s engines: alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the modern engine clamps)' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s i -l interval -d 'The backoff\'s base (`reconnectIntervalMs`). Default: the rule\'s own (5 s for the host)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l cap -d 'The backoff\'s ceiling (`reconnectMaxIntervalMs`). Default: the rule\'s own (5 min)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s b -l behaviour -d 'What the server does (see below). Default: dies right after its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l fail-after -d 'With `never`: how long into each attempt the failure comes' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l startup -d 'Time from launch to completed handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l settle -d 'Time from completed handshake to a settled policy exchange (legacy engine): a reconnect clears the "down" status line only if the connection is still up by then [default: 100ms]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s n -l launches -d 'Simulate this many launches' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s t -l for -d 'Simulate this much time [default: 1d]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l seed -d 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s r -l rows -d 'How many rows of the schedule to show per rule (the summary always covers all)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s f -l format -d 'Output: human (tables) or json (one document with schema_version)' -r -f -a "human\t'Tables for a person (default)'
json\t'One JSON document with `schema_version`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l report -d 'Also write a self-contained HTML report (timelines, schedules, each rule over a day) to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l svg -d 'Also write the timelines alone as an SVG picture to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l no-jitter -d 'Nominal waits, no jitter'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s q -l quiet -d 'Print the summary and the timelines only (as --rows 0), and no progress line'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s v -l verbose -d 'Show up to 100 rows of each rule\'s schedule (as --rows 100; --rows sets another number)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l json -d 'The same as --format json (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s p -l preset -d 'Which host\'s reconnect rule the findings describe: `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start), `reset-on-handshake` (older hosts), or a proposal' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix (they refuse bad timings at start)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s f -l format -d 'Output format on standard output' -r -f -a "human\t'Compiler-style diagnostics with the source line (default)'
json\t'One JSON document with `schema_version` and every finding'
github\t'GitHub Actions workflow commands (annotations on the pull request\'s diff)'
sarif\t'SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l output -d 'Also write FORMAT to FILE (repeatable), e.g. `--output sarif=results.sarif`: a human log and a SARIF file from one run' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l stdin-filename -d 'The file name findings from standard input (`-`) are placed on, e.g. `.vscode/mcp.json`' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l platform -d 'The systems the file will run on: what breaks there (a launcher a desktop host\'s PATH lacks, `npx` without `cmd /c` on Windows, an `env` block that replaces the environment, paths for another system). `all` for a repository\'s shared files; a comma list works too. Default: this machine\'s' -r -f -a "linux\t''
macos\t''
windows\t''
all\t'Linux, macOS and Windows'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l host -d 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file\'s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l workspace -d 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file\'s own folder)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l input -d 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s q -l quiet -d 'Print findings only: no summary line when there is nothing to say, no notes'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s v -l verbose -d 'Also name every file read, and every `.json` file a folder search passed over'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l deny-warnings -d 'Exit with status 1 when there are warnings, not only errors'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s u -l url -d 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l transport -d 'With an http(s):// URL, the HTTP transport to speak instead of detecting it: `streamable-http` (MCP 2025-03-26 to 2025-11-25), `sse` (the 2024-11-05 HTTP+SSE transport) or `stateless` (MCP 2026-07-28)' -r -f -a "streamable-http\t''
sse\t''
stateless\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l token -d 'The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization: Bearer`. Never shown in any output' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l header -d 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell\'s history. Values are never shown in any output' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l open-timeout -d 'How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket), the dial of each request (HTTP)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s c -l config -d 'A host configuration file to take server entries from (with --server or --all); `-` reads standard input' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s s -l server -d 'An entry of --config: its id, or where it is when two share an id (`prod/files` for the entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe several entries at once' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s e -l engine -d 'Which of the host\'s engines a command speaks to: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry\'s `protocol`, else legacy. A URL\'s scheme decides for itself' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s p -l preset -d 'The host\'s reconnect rule. Default: with --config, the rule of the file\'s host (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix: a connection resets the count once it has lasted the cap (at least 5 min)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'
kubernetes\t'Kubernetes\' CrashLoopBackOff'
docker\t'Docker\'s restart=always'
pm2\t'PM2 with exp_backoff_restart_delay'
supervisord\t'supervisord'
systemd\t'systemd Restart=on-failure'
mcp-sdk-http\t'The MCP TypeScript SDK\'s HTTP reconnection'
claude-code-remote\t'Claude Code\'s remote servers: 1, 2, 4, 8, 16 s, then failed'
claude-code-stdio\t'Claude Code\'s stdio servers: relaunched on the next tool call'
claude-desktop\t'Claude Desktop: never relaunches'
vscode\t'VS Code: relaunches a stopped server on its next use'
vscode-http\t'VS Code\'s HTTP back-channel: min(n s, 30 s), without end'
cline-http\t'Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected'
cline-stdio\t'Cline\'s stdio servers: never relaunched; 60 s to start'
copilot-cli\t'GitHub Copilot CLI: never relaunches; 60 s to initialize'
ts-sdk-sse\t'The TypeScript SDK\'s SSE stream: 1 s x1.5 to 30 s, 2 retries'
hermes\t'Hermes agent: 1-16 s, 5 tries, the count never reset'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s i -l interval -d 'The backoff\'s base. Default: the entry\'s reconnectIntervalMs, else 5 s. With several entries it applies to all of them' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l cap -d 'The backoff\'s ceiling. Default: the entry\'s reconnectMaxIntervalMs, else 5 min. With several entries it applies to all of them' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l seed -d 'Seed for the wait\'s jitter, to repeat a run\'s waits. Default: random, printed. With several servers each uses N plus its entry\'s position in the file (shown in its report)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s n -l launches -d 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s t -l for -d 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s w -l watch -d 'Stop when a connection is still up this long after its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-timeout -d 'A handshake not completed this long after launch is a failed attempt. Default: 30 s, or the start budget of the host whose rule the run follows (Claude Code 30 s, Cline, Copilot CLI and Hermes 60 s)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l start-budget -d 'How long a launch that is installing its package (npx -y, uvx, pip: seen in its process tree) may take to its handshake: the host\'s budget for a first start. Default: 60 s, or the start budget of the host whose rule the run follows' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-every -d 'Send a JSON-RPC ping this often while connected' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-timeout -d 'A ping unanswered this long ends the connection as "stopped answering"' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l call -d 'After listing the tools, call this one on each connection and report its result (`--call query=\'{"sql":"SELECT 1"}\'`; `{}` without `=`). Never by default: a tool can have side effects. A failed call is a finding' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l redact -d 'A secret to mask in all output (repeatable). The entry\'s env values and token are masked anyway' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s f -l format -d 'Output: human (the report), json (one document with schema_version at the end), events (JSON lines as things happen, the last one the whole report)' -r -f -a "human\t'Tables for a person (default)'
json\t'One JSON document with `schema_version`'
events\t'JSON lines as things happen, the last one the whole report (`probe` only)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l report -d 'Also write a self-contained HTML report (timeline, launches, verdict, predictions) to FILE, to open in a browser or attach to an incident (with --all: every server on one page)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l svg -d 'Also write the timeline alone as an SVG picture to FILE' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l host -d 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file\'s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l workspace -d 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file\'s own folder)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l input -d 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s a -l all -d 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l include-disabled -d 'Probe entries the host does not start (`disabled`) too, to debug them'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l until-down -d 'Stop once the host would raise mcpl-down'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-only -d 'Stop talking after the handshake: no featureSets/update, tools/list or subscription (for a server known to misbehave on them)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l strict -d 'Fail the run (exit 1) on a start warning too: a server that stays up but said at start that it lacks something (`warning-at-start`, a note by default)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l json -d 'The same as --format json (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l events -d 'The same as --format events (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s q -l quiet -d 'Print only the verdict and its Why (with --all: the summary), and no progress line'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s v -l verbose -d 'Also print a line on stderr for each launch, handshake, end, alert and wait as it happens (the --format events stream, for a person), terminal or not'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ascii -d 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s u -l url -d 'One server to dial instead of launching one: ws://, wss://, http:// or https://' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l transport -d 'With an http(s):// URL, the HTTP transport to speak instead of detecting it' -r -f -a "streamable-http\t''
sse\t''
stateless\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l token -d 'The token the host sends with --url. Never shown in any output' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l header -d 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell\'s history. Values are never shown in any output' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s c -l config -d 'A host configuration file whose entries to supervise (every entry the host starts, unless --server names some)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s s -l server -d 'An entry of --config to supervise (repeatable); default: every entry' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l name -d 'The metric label for one server from the command line (default: the program\'s file name, or the URL\'s host)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s l -l listen -d 'Where to serve HTTP. A non-loopback address is used only when given here, and printed' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s e -l engine -d 'The handshake one command speaks: legacy or modern (default: the entry\'s, else legacy)' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s p -l preset -d 'The host\'s reconnect rule. Default: with --config, the rule of the file\'s host, else lasting' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix: a connection resets the count once it has lasted the cap (at least 5 min)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'
kubernetes\t'Kubernetes\' CrashLoopBackOff'
docker\t'Docker\'s restart=always'
pm2\t'PM2 with exp_backoff_restart_delay'
supervisord\t'supervisord'
systemd\t'systemd Restart=on-failure'
mcp-sdk-http\t'The MCP TypeScript SDK\'s HTTP reconnection'
claude-code-remote\t'Claude Code\'s remote servers: 1, 2, 4, 8, 16 s, then failed'
claude-code-stdio\t'Claude Code\'s stdio servers: relaunched on the next tool call'
claude-desktop\t'Claude Desktop: never relaunches'
vscode\t'VS Code: relaunches a stopped server on its next use'
vscode-http\t'VS Code\'s HTTP back-channel: min(n s, 30 s), without end'
cline-http\t'Cline over HTTP: 2, 4, 8, 16, 32, 64 s, then disconnected'
cline-stdio\t'Cline\'s stdio servers: never relaunched; 60 s to start'
copilot-cli\t'GitHub Copilot CLI: never relaunches; 60 s to initialize'
ts-sdk-sse\t'The TypeScript SDK\'s SSE stream: 1 s x1.5 to 30 s, 2 retries'
hermes\t'Hermes agent: 1-16 s, 5 tries, the count never reset'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s i -l interval -d 'The backoff\'s base (default: the entry\'s reconnectIntervalMs, else 5 s)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l cap -d 'The backoff\'s ceiling (default: the entry\'s reconnectMaxIntervalMs, else 5 min)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l seed -d 'Seed for the waits\' jitter (each entry adds its position in the file)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l handshake-timeout -d 'A handshake not completed this long after launch is a failed attempt (default: 30 s, or the host\'s start budget)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l start-budget -d 'How long a launch that is installing its package may take to its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l open-timeout -d 'How long opening a connection may take (WebSocket and HTTP)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l ping-every -d 'Send a JSON-RPC ping this often while connected' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l ping-timeout -d 'A ping unanswered this long ends the connection as "stopped answering"' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l probe-watch -d '/probe: how long the probe\'s connection is watched after its handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l redact -d 'A secret to mask (repeatable). The entry\'s env values and token are masked anyway' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l host -d 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file\'s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l workspace -d 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file\'s own folder)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l input -d 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l include-disabled -d 'Supervise entries the host does not start (`disabled`) too'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l handshake-only -d 'Stop talking after the handshake (no featureSets/update, tools/list or subscription)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -l out -d 'Write every page (mcpl-doctor.1 and one per subcommand) into DIR instead, creating it' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "probe" -d 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "serve" -d 'Supervise every server of a configuration continuously as its host would (relaunching under the host\'s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "schema" -d 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "man" -d 'Print a man page (or write them all with --out) from this binary\'s own definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
