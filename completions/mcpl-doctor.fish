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

complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -l ascii -d 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s V -l version -d 'Print version'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "simulate" -d 'Print what-if tables for a reconnect rule'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "check-config" -d 'Validate host configuration files (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "probe" -d 'Launch a server and judge it under the host\'s rule'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "serve" -d 'Supervise servers for Prometheus'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "schema" -d 'Print a JSON Schema'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "completions" -d 'Print shell completions'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "man" -d 'Print a man page'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s p -l preset -d 'The reconnect rule' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l compare -d 'Several rules side by side, one column each' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s e -l engine -d 'Which of the host\'s engines: legacy or modern' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s i -l interval -d 'The backoff\'s base (`reconnectIntervalMs`)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l cap -d 'The backoff\'s ceiling (`reconnectMaxIntervalMs`)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l seed -d 'Seed for the jitter, to repeat a run exactly' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s b -l behaviour -d 'What the server does (see --help\'s list)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l fail-after -d 'With `never`: how long into each attempt it fails' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l startup -d 'Time from launch to completed handshake' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l settle -d 'Time from handshake to a settled policy exchange' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s n -l launches -d 'Simulate this many launches' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s t -l for -d 'Simulate this much time' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s r -l rows -d 'How many rows of each rule\'s schedule to show' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s f -l format -d 'Output: human (tables) or json' -r -f -a "human\t'Tables for a person (default)'
json\t'One JSON document with `schema_version`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l report -d 'Also write a self-contained HTML report' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l svg -d 'Also write the timelines as an SVG picture' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l no-jitter -d 'Nominal waits, no jitter'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s q -l quiet -d 'Print the summary and the timelines only'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s v -l verbose -d 'Show up to 100 rows of each rule\'s schedule'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l ascii -d 'Draw timeline strips in plain ASCII'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l json -d 'The same as --format json (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s p -l preset -d 'Which host\'s reconnect rule the findings describe' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
lasting\t'Hosts with the lasting-connection fix (they refuse bad timings at start)'
bounded\t'Proposed: lasting after the cap, at least 5 min and at most 1 h'
preceding-wait\t'Proposed: lasting after the wait that preceded it, at least 5 min'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s f -l format -d 'Output format on standard output' -r -f -a "human\t'Compiler-style diagnostics with the source line (default)'
json\t'One JSON document with `schema_version` and every finding'
github\t'GitHub Actions workflow commands (annotations on the pull request\'s diff)'
sarif\t'SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l output -d 'Also write FORMAT to FILE (repeatable)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l stdin-filename -d 'The file name to place `-`\'s findings on' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l platform -d 'The systems it will run on: linux, macos, windows' -r -f -a "linux\t''
macos\t''
windows\t''
all\t'Linux, macOS and Windows'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l host -d 'The host the file is written for' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l workspace -d 'The folder `${workspaceFolder}` stands for' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l input -d 'The value of `${input:ID}` (repeatable, secret)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s q -l quiet -d 'Print findings only'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s v -l verbose -d 'Also name every file read'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l deny-warnings -d 'Exit 1 on warnings too, not only on errors'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s u -l url -d 'A ws:// or http(s):// server to dial instead' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l transport -d 'The HTTP transport to speak with an http(s) URL' -r -f -a "streamable-http\t''
sse\t''
stateless\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l token -d 'The token the host sends with --url (never shown)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l header -d 'An HTTP header: `Name: value` or `@FILE`' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s c -l config -d 'A host configuration file (`-`: standard input)' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s s -l server -d 'An entry of --config to probe (repeatable)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l host -d 'The host the file is written for' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l workspace -d 'The folder `${workspaceFolder}` stands for' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l input -d 'The value of `${input:ID}` (repeatable, secret)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s e -l engine -d 'The handshake a command speaks: legacy or modern' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l call -d 'Call this tool on each connection' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s p -l preset -d 'The host\'s reconnect rule' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s i -l interval -d 'The backoff\'s base' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l cap -d 'The backoff\'s ceiling' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l seed -d 'Seed for the waits\' jitter' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s n -l launches -d 'Stop after N launches of each server' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s t -l for -d 'Stop after this long' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s w -l watch -d 'Stop when a connection is up this long' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-timeout -d 'A handshake slower than this fails the attempt' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l start-budget -d 'The same, for a launch installing its package' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l open-timeout -d 'How long opening a connection may take' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-every -d 'Send a JSON-RPC ping this often while connected' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ping-timeout -d 'A ping unanswered this long ends the connection' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s f -l format -d 'Output: human, json or events' -r -f -a "human\t'Tables for a person (default)'
json\t'One JSON document with `schema_version`'
events\t'JSON lines as things happen, the last one the whole report (`probe` only)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l redact -d 'A secret to mask in all output (repeatable)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l report -d 'Also write a self-contained HTML report' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l svg -d 'Also write the timeline as an SVG picture' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s a -l all -d 'Probe every entry of --config at once'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l include-disabled -d 'Probe `disabled` entries too'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l handshake-only -d 'Stop talking after the handshake'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l until-down -d 'Stop once the host would raise mcpl-down'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l json -d 'The same as --format json (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l events -d 'The same as --format events (kept for scripts)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s q -l quiet -d 'Print only the verdict and its Why'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s v -l verbose -d 'Also print a line on stderr for each event'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l ascii -d 'Draw timeline strips in plain ASCII'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l strict -d 'Exit 1 on a start warning too'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s u -l url -d 'One ws:// or http(s):// server to dial instead' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l transport -d 'The HTTP transport to speak with an http(s) URL' -r -f -a "streamable-http\t''
sse\t''
stateless\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l token -d 'The token the host sends with --url (never shown)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l header -d 'An HTTP header: `Name: value` or `@FILE`' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s c -l config -d 'A host configuration file to supervise' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s s -l server -d 'An entry of --config to supervise (repeatable)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l name -d 'The metric label for a server given by `--` or --url' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s l -l listen -d 'Where to serve HTTP' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s e -l engine -d 'The handshake a command speaks: legacy or modern' -r -f -a "legacy\t'MCP 2024-11-05 `initialize` with MCPL; alerts read `MCPL server ...`'
modern\t'MCP 2026-07-28 `server/discover`; alerts read `MCP server ...`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s p -l preset -d 'The host\'s reconnect rule' -r -f -a "reset-on-handshake\t'Older hosts: every completed handshake resets the failure count'
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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s i -l interval -d 'The backoff\'s base' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l cap -d 'The backoff\'s ceiling' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l seed -d 'Seed for the waits\' jitter' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l handshake-timeout -d 'A handshake slower than this fails the attempt' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l start-budget -d 'The same, for a launch installing its package' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l open-timeout -d 'How long opening a connection may take' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l ping-every -d 'Send a JSON-RPC ping this often while connected' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l ping-timeout -d 'A ping unanswered this long ends the connection' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l probe-watch -d 'How long /probe watches a connection' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l redact -d 'A secret to mask (repeatable)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l host -d 'The host the file is written for' -r -f -a "agent-framework\t'connectome-host and agent-framework (`mcplServers`, recipes)'
claude-desktop\t'claude_desktop_config.json: no variables'
claude-code\t'.mcp.json, ~/.claude.json: `${VAR}`, `${VAR:-default}`'
vscode\t'.vscode/mcp.json: `servers`, `inputs`, `${input:ID}`, `${env:VAR}`, envFile, cwd'
cursor\t'.cursor/mcp.json: `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, envFile'
windsurf\t'mcp_config.json: `serverUrl`, `${env:VAR}`'
cline\t'cline_mcp_settings.json: no variables, `url` without `type` is SSE, env plus PATH only'
zed\t'settings.json `context_servers`'
copilot\t'Copilot CLI mcp-config.json: `${VAR}`, `${VAR:-default}`'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l workspace -d 'The folder `${workspaceFolder}` stands for' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l input -d 'The value of `${input:ID}` (repeatable, secret)' -r
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l include-disabled -d 'Supervise `disabled` entries too'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -l handshake-only -d 'Stop talking after the handshake'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -l out -d 'Write every page into DIR instead' -r -F
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -l color -d 'When to use colour: auto, always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "simulate" -d 'Print what-if tables for a reconnect rule'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "check-config" -d 'Validate host configuration files (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "probe" -d 'Launch a server and judge it under the host\'s rule'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "serve" -d 'Supervise servers for Prometheus'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "schema" -d 'Print a JSON Schema'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "completions" -d 'Print shell completions'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "man" -d 'Print a man page'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe serve schema completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
