
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'mcpl-doctor' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'mcpl-doctor'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'mcpl-doctor' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files the way the host reads them (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Supervise every server of a configuration continuously as its host would (relaunching under the host''s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions generated from this command line''s definition')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (or write them all with --out) from this binary''s own definition')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpl-doctor;simulate' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The reconnect rule. Without it (and without --compare): reset-on-handshake and lasting side by side')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The reconnect rule. Without it (and without --compare): reset-on-handshake and lasting side by side')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Summaries of several rules side by side, one column each (comma-separated)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Which of the host''s engines: alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the modern engine clamps)')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'Which of the host''s engines: alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the modern engine clamps)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base (`reconnectIntervalMs`). Default: the rule''s own (5 s for the host)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base (`reconnectIntervalMs`). Default: the rule''s own (5 s for the host)')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling (`reconnectMaxIntervalMs`). Default: the rule''s own (5 min)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'What the server does (see below). Default: dies right after its handshake')
            [CompletionResult]::new('--behaviour', '--behaviour', [CompletionResultType]::ParameterName, 'What the server does (see below). Default: dies right after its handshake')
            [CompletionResult]::new('--fail-after', '--fail-after', [CompletionResultType]::ParameterName, 'With `never`: how long into each attempt the failure comes')
            [CompletionResult]::new('--startup', '--startup', [CompletionResultType]::ParameterName, 'Time from launch to completed handshake')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'Time from completed handshake to a settled policy exchange (legacy engine): a reconnect clears the "down" status line only if the connection is still up by then [default: 100ms]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Simulate this many launches')
            [CompletionResult]::new('--launches', '--launches', [CompletionResultType]::ParameterName, 'Simulate this many launches')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Simulate this much time [default: 1d]')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Simulate this much time [default: 1d]')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'How many rows of the schedule to show per rule (the summary always covers all)')
            [CompletionResult]::new('--rows', '--rows', [CompletionResultType]::ParameterName, 'How many rows of the schedule to show per rule (the summary always covers all)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output: human (tables) or json (one document with schema_version)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: human (tables) or json (one document with schema_version)')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report (timelines, schedules, each rule over a day) to FILE')
            [CompletionResult]::new('--svg', '--svg', [CompletionResultType]::ParameterName, 'Also write the timelines alone as an SVG picture to FILE')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('--no-jitter', '--no-jitter', [CompletionResultType]::ParameterName, 'Nominal waits, no jitter')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print the summary and the timelines only (as --rows 0), and no progress line')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print the summary and the timelines only (as --rows 0), and no progress line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show up to 100 rows of each rule''s schedule (as --rows 100; --rows sets another number)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show up to 100 rows of each rule''s schedule (as --rows 100; --rows sets another number)')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The same as --format json (kept for scripts)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;check-config' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Which host''s reconnect rule the findings describe: `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start), `reset-on-handshake` (older hosts), or a proposal')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'Which host''s reconnect rule the findings describe: `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start), `reset-on-handshake` (older hosts), or a proposal')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format on standard output')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format on standard output')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Also write FORMAT to FILE (repeatable), e.g. `--output sarif=results.sarif`: a human log and a SARIF file from one run')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The file name findings from standard input (`-`) are placed on, e.g. `.vscode/mcp.json`')
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'The systems the file will run on: what breaks there (a launcher a desktop host''s PATH lacks, `npx` without `cmd /c` on Windows, an `env` block that replaces the environment, paths for another system). `all` for a repository''s shared files; a comma list works too. Default: this machine''s')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print findings only: no summary line when there is nothing to say, no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print findings only: no summary line when there is nothing to say, no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also name every file read, and every `.json` file a folder search passed over')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also name every file read, and every `.json` file a folder search passed over')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Exit with status 1 when there are warnings, not only errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;probe' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'With an http(s):// URL, the HTTP transport to speak instead of detecting it: `streamable-http` (MCP 2025-03-26 to 2025-11-25), `sse` (the 2024-11-05 HTTP+SSE transport) or `stateless` (MCP 2026-07-28)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization: Bearer`. Never shown in any output')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell''s history. Values are never shown in any output')
            [CompletionResult]::new('--open-timeout', '--open-timeout', [CompletionResultType]::ParameterName, 'How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket), the dial of each request (HTTP)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'A host configuration file to take server entries from (with --server or --all); `-` reads standard input')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A host configuration file to take server entries from (with --server or --all); `-` reads standard input')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'An entry of --config: its id, or where it is when two share an id (`prod/files` for the entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe several entries at once')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'An entry of --config: its id, or where it is when two share an id (`prod/files` for the entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe several entries at once')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Which of the host''s engines a command speaks to: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry''s `protocol`, else legacy. A URL''s scheme decides for itself')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'Which of the host''s engines a command speaks to: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry''s `protocol`, else legacy. A URL''s scheme decides for itself')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The host''s reconnect rule. Default: with --config, the rule of the file''s host (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The host''s reconnect rule. Default: with --config, the rule of the file''s host (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base. Default: the entry''s reconnectIntervalMs, else 5 s. With several entries it applies to all of them')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base. Default: the entry''s reconnectIntervalMs, else 5 s. With several entries it applies to all of them')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling. Default: the entry''s reconnectMaxIntervalMs, else 5 min. With several entries it applies to all of them')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the wait''s jitter, to repeat a run''s waits. Default: random, printed. With several servers each uses N plus its entry''s position in the file (shown in its report)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]')
            [CompletionResult]::new('--launches', '--launches', [CompletionResultType]::ParameterName, 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Stop when a connection is still up this long after its handshake')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Stop when a connection is still up this long after its handshake')
            [CompletionResult]::new('--handshake-timeout', '--handshake-timeout', [CompletionResultType]::ParameterName, 'A handshake not completed this long after launch is a failed attempt. Default: 30 s, or the start budget of the host whose rule the run follows (Claude Code 30 s, Cline, Copilot CLI and Hermes 60 s)')
            [CompletionResult]::new('--start-budget', '--start-budget', [CompletionResultType]::ParameterName, 'How long a launch that is installing its package (npx -y, uvx, pip: seen in its process tree) may take to its handshake: the host''s budget for a first start. Default: 60 s, or the start budget of the host whose rule the run follows')
            [CompletionResult]::new('--ping-every', '--ping-every', [CompletionResultType]::ParameterName, 'Send a JSON-RPC ping this often while connected')
            [CompletionResult]::new('--ping-timeout', '--ping-timeout', [CompletionResultType]::ParameterName, 'A ping unanswered this long ends the connection as "stopped answering"')
            [CompletionResult]::new('--call', '--call', [CompletionResultType]::ParameterName, 'After listing the tools, call this one on each connection and report its result (`--call query=''{"sql":"SELECT 1"}''`; `{}` without `=`). Never by default: a tool can have side effects. A failed call is a finding')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'A secret to mask in all output (repeatable). The entry''s env values and token are masked anyway')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output: human (the report), json (one document with schema_version at the end), events (JSON lines as things happen, the last one the whole report)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: human (the report), json (one document with schema_version at the end), events (JSON lines as things happen, the last one the whole report)')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report (timeline, launches, verdict, predictions) to FILE, to open in a browser or attach to an incident (with --all: every server on one page)')
            [CompletionResult]::new('--svg', '--svg', [CompletionResultType]::ParameterName, 'Also write the timeline alone as an SVG picture to FILE')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)')
            [CompletionResult]::new('--include-disabled', '--include-disabled', [CompletionResultType]::ParameterName, 'Probe entries the host does not start (`disabled`) too, to debug them')
            [CompletionResult]::new('--until-down', '--until-down', [CompletionResultType]::ParameterName, 'Stop once the host would raise mcpl-down')
            [CompletionResult]::new('--handshake-only', '--handshake-only', [CompletionResultType]::ParameterName, 'Stop talking after the handshake: no featureSets/update, tools/list or subscription (for a server known to misbehave on them)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail the run (exit 1) on a start warning too: a server that stays up but said at start that it lacks something (`warning-at-start`, a note by default)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The same as --format json (kept for scripts)')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'The same as --format events (kept for scripts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the verdict and its Why (with --all: the summary), and no progress line')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the verdict and its Why (with --all: the summary), and no progress line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print a line on stderr for each launch, handshake, end, alert and wait as it happens (the --format events stream, for a person), terminal or not')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print a line on stderr for each launch, handshake, end, alert and wait as it happens (the --format events stream, for a person), terminal or not')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;serve' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'One server to dial instead of launching one: ws://, wss://, http:// or https://')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'One server to dial instead of launching one: ws://, wss://, http:// or https://')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'With an http(s):// URL, the HTTP transport to speak instead of detecting it')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'The token the host sends with --url. Never shown in any output')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell''s history. Values are never shown in any output')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'A host configuration file whose entries to supervise (every entry the host starts, unless --server names some)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A host configuration file whose entries to supervise (every entry the host starts, unless --server names some)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'An entry of --config to supervise (repeatable); default: every entry')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'An entry of --config to supervise (repeatable); default: every entry')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The metric label for one server from the command line (default: the program''s file name, or the URL''s host)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Where to serve HTTP. A non-loopback address is used only when given here, and printed')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Where to serve HTTP. A non-loopback address is used only when given here, and printed')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The handshake one command speaks: legacy or modern (default: the entry''s, else legacy)')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'The handshake one command speaks: legacy or modern (default: the entry''s, else legacy)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The host''s reconnect rule. Default: with --config, the rule of the file''s host, else lasting')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The host''s reconnect rule. Default: with --config, the rule of the file''s host, else lasting')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base (default: the entry''s reconnectIntervalMs, else 5 s)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base (default: the entry''s reconnectIntervalMs, else 5 s)')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling (default: the entry''s reconnectMaxIntervalMs, else 5 min)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the waits'' jitter (each entry adds its position in the file)')
            [CompletionResult]::new('--handshake-timeout', '--handshake-timeout', [CompletionResultType]::ParameterName, 'A handshake not completed this long after launch is a failed attempt (default: 30 s, or the host''s start budget)')
            [CompletionResult]::new('--start-budget', '--start-budget', [CompletionResultType]::ParameterName, 'How long a launch that is installing its package may take to its handshake')
            [CompletionResult]::new('--open-timeout', '--open-timeout', [CompletionResultType]::ParameterName, 'How long opening a connection may take (WebSocket and HTTP)')
            [CompletionResult]::new('--ping-every', '--ping-every', [CompletionResultType]::ParameterName, 'Send a JSON-RPC ping this often while connected')
            [CompletionResult]::new('--ping-timeout', '--ping-timeout', [CompletionResultType]::ParameterName, 'A ping unanswered this long ends the connection as "stopped answering"')
            [CompletionResult]::new('--probe-watch', '--probe-watch', [CompletionResultType]::ParameterName, '/probe: how long the probe''s connection is watched after its handshake')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'A secret to mask (repeatable). The entry''s env values and token are masked anyway')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('--include-disabled', '--include-disabled', [CompletionResultType]::ParameterName, 'Supervise entries the host does not start (`disabled`) too')
            [CompletionResult]::new('--handshake-only', '--handshake-only', [CompletionResultType]::ParameterName, 'Stop talking after the handshake (no featureSets/update, tools/list or subscription)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;schema' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;man' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write every page (mcpl-doctor.1 and one per subcommand) into DIR instead, creating it')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;help' {
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files the way the host reads them (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Supervise every server of a configuration continuously as its host would (relaunching under the host''s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions generated from this command line''s definition')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (or write them all with --out) from this binary''s own definition')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpl-doctor;help;simulate' {
            break
        }
        'mcpl-doctor;help;check-config' {
            break
        }
        'mcpl-doctor;help;probe' {
            break
        }
        'mcpl-doctor;help;serve' {
            break
        }
        'mcpl-doctor;help;schema' {
            break
        }
        'mcpl-doctor;help;completions' {
            break
        }
        'mcpl-doctor;help;man' {
            break
        }
        'mcpl-doctor;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
