
use builtin;
use str;

set edit:completion:arg-completer[mcpl-doctor] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'mcpl-doctor'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'mcpl-doctor'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand --ascii 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand simulate 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
            cand check-config 'Validate host configuration files the way the host reads them (for CI)'
            cand probe 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict'
            cand serve 'Supervise every server of a configuration continuously as its host would (relaunching under the host''s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page'
            cand schema 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
            cand completions 'Print shell completions generated from this command line''s definition'
            cand man 'Print a man page (or write them all with --out) from this binary''s own definition'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpl-doctor;simulate'= {
            cand -p 'The reconnect rule. Without it (and without --compare): reset-on-handshake and lasting side by side'
            cand --preset 'The reconnect rule. Without it (and without --compare): reset-on-handshake and lasting side by side'
            cand --compare 'Summaries of several rules side by side, one column each (comma-separated)'
            cand -e 'Which of the host''s engines: alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the modern engine clamps)'
            cand --engine 'Which of the host''s engines: alert wording (MCPL/MCP), whether a reconnect waits for the policy exchange to settle (legacy), and under reset-on-handshake whether waits are clamped to the timer limit (the modern engine clamps)'
            cand -i 'The backoff''s base (`reconnectIntervalMs`). Default: the rule''s own (5 s for the host)'
            cand --interval 'The backoff''s base (`reconnectIntervalMs`). Default: the rule''s own (5 s for the host)'
            cand --cap 'The backoff''s ceiling (`reconnectMaxIntervalMs`). Default: the rule''s own (5 min)'
            cand -b 'What the server does (see below). Default: dies right after its handshake'
            cand --behaviour 'What the server does (see below). Default: dies right after its handshake'
            cand --fail-after 'With `never`: how long into each attempt the failure comes'
            cand --startup 'Time from launch to completed handshake'
            cand --settle 'Time from completed handshake to a settled policy exchange (legacy engine): a reconnect clears the "down" status line only if the connection is still up by then [default: 100ms]'
            cand -n 'Simulate this many launches'
            cand --launches 'Simulate this many launches'
            cand -t 'Simulate this much time [default: 1d]'
            cand --for 'Simulate this much time [default: 1d]'
            cand --seed 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed'
            cand -r 'How many rows of the schedule to show per rule (the summary always covers all)'
            cand --rows 'How many rows of the schedule to show per rule (the summary always covers all)'
            cand -f 'Output: human (tables) or json (one document with schema_version)'
            cand --format 'Output: human (tables) or json (one document with schema_version)'
            cand --report 'Also write a self-contained HTML report (timelines, schedules, each rule over a day) to FILE'
            cand --svg 'Also write the timelines alone as an SVG picture to FILE'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand --no-jitter 'Nominal waits, no jitter'
            cand -q 'Print the summary and the timelines only (as --rows 0), and no progress line'
            cand --quiet 'Print the summary and the timelines only (as --rows 0), and no progress line'
            cand -v 'Show up to 100 rows of each rule''s schedule (as --rows 100; --rows sets another number)'
            cand --verbose 'Show up to 100 rows of each rule''s schedule (as --rows 100; --rows sets another number)'
            cand --ascii 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
            cand --json 'The same as --format json (kept for scripts)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;check-config'= {
            cand -p 'Which host''s reconnect rule the findings describe: `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start), `reset-on-handshake` (older hosts), or a proposal'
            cand --preset 'Which host''s reconnect rule the findings describe: `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start), `reset-on-handshake` (older hosts), or a proposal'
            cand -f 'Output format on standard output'
            cand --format 'Output format on standard output'
            cand --output 'Also write FORMAT to FILE (repeatable), e.g. `--output sarif=results.sarif`: a human log and a SARIF file from one run'
            cand --stdin-filename 'The file name findings from standard input (`-`) are placed on, e.g. `.vscode/mcp.json`'
            cand --platform 'The systems the file will run on: what breaks there (a launcher a desktop host''s PATH lacks, `npx` without `cmd /c` on Windows, an `env` block that replaces the environment, paths for another system). `all` for a repository''s shared files; a comma list works too. Default: this machine''s'
            cand --host 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)'
            cand --workspace 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)'
            cand --input 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -q 'Print findings only: no summary line when there is nothing to say, no notes'
            cand --quiet 'Print findings only: no summary line when there is nothing to say, no notes'
            cand -v 'Also name every file read, and every `.json` file a folder search passed over'
            cand --verbose 'Also name every file read, and every `.json` file a folder search passed over'
            cand --deny-warnings 'Exit with status 1 when there are warnings, not only errors'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;probe'= {
            cand -u 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)'
            cand --url 'A server to dial instead of launching one: ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)'
            cand --transport 'With an http(s):// URL, the HTTP transport to speak instead of detecting it: `streamable-http` (MCP 2025-03-26 to 2025-11-25), `sse` (the 2024-11-05 HTTP+SSE transport) or `stateless` (MCP 2026-07-28)'
            cand --token 'The token the host sends with --url: WebSocket `?token=...`, HTTP `Authorization: Bearer`. Never shown in any output'
            cand --header 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell''s history. Values are never shown in any output'
            cand --open-timeout 'How long opening a connection may take: dial, TLS and WebSocket upgrade (WebSocket), the dial of each request (HTTP)'
            cand -c 'A host configuration file to take server entries from (with --server or --all); `-` reads standard input'
            cand --config 'A host configuration file to take server entries from (with --server or --all); `-` reads standard input'
            cand -s 'An entry of --config: its id, or where it is when two share an id (`prod/files` for the entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe several entries at once'
            cand --server 'An entry of --config: its id, or where it is when two share an id (`prod/files` for the entry under `hosts.prod`, or its JSON path `$.hosts.prod.mcplServers.files`). Repeat it to probe several entries at once'
            cand -e 'Which of the host''s engines a command speaks to: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry''s `protocol`, else legacy. A URL''s scheme decides for itself'
            cand --engine 'Which of the host''s engines a command speaks to: legacy (MCP 2024-11-05 initialize with MCPL) or modern (server/discover, 2026-07-28). Default: the entry''s `protocol`, else legacy. A URL''s scheme decides for itself'
            cand -p 'The host''s reconnect rule. Default: with --config, the rule of the file''s host (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting'
            cand --preset 'The host''s reconnect rule. Default: with --config, the rule of the file''s host (claude-desktop, vscode, cline-http...: see docs/hosts.md), else lasting'
            cand -i 'The backoff''s base. Default: the entry''s reconnectIntervalMs, else 5 s. With several entries it applies to all of them'
            cand --interval 'The backoff''s base. Default: the entry''s reconnectIntervalMs, else 5 s. With several entries it applies to all of them'
            cand --cap 'The backoff''s ceiling. Default: the entry''s reconnectMaxIntervalMs, else 5 min. With several entries it applies to all of them'
            cand --seed 'Seed for the wait''s jitter, to repeat a run''s waits. Default: random, printed. With several servers each uses N plus its entry''s position in the file (shown in its report)'
            cand -n 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]'
            cand --launches 'Stop after N launches (of each server) [default: 5, or no limit with --for or --until-down]'
            cand -t 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all'
            cand --for 'Stop after this long (a pending wait is cut; the planned next launch is reported). With several servers, one deadline for all'
            cand -w 'Stop when a connection is still up this long after its handshake'
            cand --watch 'Stop when a connection is still up this long after its handshake'
            cand --handshake-timeout 'A handshake not completed this long after launch is a failed attempt. Default: 30 s, or the start budget of the host whose rule the run follows (Claude Code 30 s, Cline, Copilot CLI and Hermes 60 s)'
            cand --start-budget 'How long a launch that is installing its package (npx -y, uvx, pip: seen in its process tree) may take to its handshake: the host''s budget for a first start. Default: 60 s, or the start budget of the host whose rule the run follows'
            cand --ping-every 'Send a JSON-RPC ping this often while connected'
            cand --ping-timeout 'A ping unanswered this long ends the connection as "stopped answering"'
            cand --call 'After listing the tools, call this one on each connection and report its result (`--call query=''{"sql":"SELECT 1"}''`; `{}` without `=`). Never by default: a tool can have side effects. A failed call is a finding'
            cand --redact 'A secret to mask in all output (repeatable). The entry''s env values and token are masked anyway'
            cand -f 'Output: human (the report), json (one document with schema_version at the end), events (JSON lines as things happen, the last one the whole report)'
            cand --format 'Output: human (the report), json (one document with schema_version at the end), events (JSON lines as things happen, the last one the whole report)'
            cand --report 'Also write a self-contained HTML report (timeline, launches, verdict, predictions) to FILE, to open in a browser or attach to an incident (with --all: every server on one page)'
            cand --svg 'Also write the timeline alone as an SVG picture to FILE'
            cand --host 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)'
            cand --workspace 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)'
            cand --input 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -a 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)'
            cand --all 'Probe every entry of --config at once (disabled entries and policy-only overrides are skipped, entries the host would refuse are reported and not probed)'
            cand --include-disabled 'Probe entries the host does not start (`disabled`) too, to debug them'
            cand --until-down 'Stop once the host would raise mcpl-down'
            cand --handshake-only 'Stop talking after the handshake: no featureSets/update, tools/list or subscription (for a server known to misbehave on them)'
            cand --strict 'Fail the run (exit 1) on a start warning too: a server that stays up but said at start that it lacks something (`warning-at-start`, a note by default)'
            cand --json 'The same as --format json (kept for scripts)'
            cand --events 'The same as --format events (kept for scripts)'
            cand -q 'Print only the verdict and its Why (with --all: the summary), and no progress line'
            cand --quiet 'Print only the verdict and its Why (with --all: the summary), and no progress line'
            cand -v 'Also print a line on stderr for each launch, handshake, end, alert and wait as it happens (the --format events stream, for a person), terminal or not'
            cand --verbose 'Also print a line on stderr for each launch, handshake, end, alert and wait as it happens (the --format events stream, for a person), terminal or not'
            cand --ascii 'Draw timeline strips in plain ASCII (also with TERM=dumb or a locale that is not UTF-8)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;serve'= {
            cand -u 'One server to dial instead of launching one: ws://, wss://, http:// or https://'
            cand --url 'One server to dial instead of launching one: ws://, wss://, http:// or https://'
            cand --transport 'With an http(s):// URL, the HTTP transport to speak instead of detecting it'
            cand --token 'The token the host sends with --url. Never shown in any output'
            cand --header 'An HTTP header sent on every request with an http(s):// --url, `Name: value` (repeatable); `@FILE` reads `Name: value` lines from a file, keeping the value out of the shell''s history. Values are never shown in any output'
            cand -c 'A host configuration file whose entries to supervise (every entry the host starts, unless --server names some)'
            cand --config 'A host configuration file whose entries to supervise (every entry the host starts, unless --server names some)'
            cand -s 'An entry of --config to supervise (repeatable); default: every entry'
            cand --server 'An entry of --config to supervise (repeatable); default: every entry'
            cand --name 'The metric label for one server from the command line (default: the program''s file name, or the URL''s host)'
            cand -l 'Where to serve HTTP. A non-loopback address is used only when given here, and printed'
            cand --listen 'Where to serve HTTP. A non-loopback address is used only when given here, and printed'
            cand -e 'The handshake one command speaks: legacy or modern (default: the entry''s, else legacy)'
            cand --engine 'The handshake one command speaks: legacy or modern (default: the entry''s, else legacy)'
            cand -p 'The host''s reconnect rule. Default: with --config, the rule of the file''s host, else lasting'
            cand --preset 'The host''s reconnect rule. Default: with --config, the rule of the file''s host, else lasting'
            cand -i 'The backoff''s base (default: the entry''s reconnectIntervalMs, else 5 s)'
            cand --interval 'The backoff''s base (default: the entry''s reconnectIntervalMs, else 5 s)'
            cand --cap 'The backoff''s ceiling (default: the entry''s reconnectMaxIntervalMs, else 5 min)'
            cand --seed 'Seed for the waits'' jitter (each entry adds its position in the file)'
            cand --handshake-timeout 'A handshake not completed this long after launch is a failed attempt (default: 30 s, or the host''s start budget)'
            cand --start-budget 'How long a launch that is installing its package may take to its handshake'
            cand --open-timeout 'How long opening a connection may take (WebSocket and HTTP)'
            cand --ping-every 'Send a JSON-RPC ping this often while connected'
            cand --ping-timeout 'A ping unanswered this long ends the connection as "stopped answering"'
            cand --probe-watch '/probe: how long the probe''s connection is watched after its handshake'
            cand --redact 'A secret to mask (repeatable). The entry''s env values and token are masked anyway'
            cand --host 'The host the file is written for (its keys, variables, env and folder rules). Default: detected from the file''s name and shape (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, cline_mcp_settings.json, mcp_config.json, context_servers)'
            cand --workspace 'The folder `${workspaceFolder}` stands for. Default: the folder holding .vscode/ or .cursor/ (or the file''s own folder)'
            cand --input 'The value of `${input:ID}` (repeatable). An entry naming an input not given is not launched. Values are secrets: never shown'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand --include-disabled 'Supervise entries the host does not start (`disabled`) too'
            cand --handshake-only 'Stop talking after the handshake (no featureSets/update, tools/list or subscription)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;schema'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;completions'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;man'= {
            cand --out 'Write every page (mcpl-doctor.1 and one per subcommand) into DIR instead, creating it'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;help'= {
            cand simulate 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
            cand check-config 'Validate host configuration files the way the host reads them (for CI)'
            cand probe 'Launch a real server (or dial its ws:// or http:// URL; or every server of a configuration at once), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict'
            cand serve 'Supervise every server of a configuration continuously as its host would (relaunching under the host''s rule) and serve what it sees to Prometheus: /metrics, /probe, /healthz and a status page'
            cand schema 'Print a JSON Schema: `config` for host configuration files (editors use it through `$schema`), or one of the output documents'
            cand completions 'Print shell completions generated from this command line''s definition'
            cand man 'Print a man page (or write them all with --out) from this binary''s own definition'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpl-doctor;help;simulate'= {
        }
        &'mcpl-doctor;help;check-config'= {
        }
        &'mcpl-doctor;help;probe'= {
        }
        &'mcpl-doctor;help;serve'= {
        }
        &'mcpl-doctor;help;schema'= {
        }
        &'mcpl-doctor;help;completions'= {
        }
        &'mcpl-doctor;help;man'= {
        }
        &'mcpl-doctor;help;help'= {
        }
    ]
    $completions[$command]
}
