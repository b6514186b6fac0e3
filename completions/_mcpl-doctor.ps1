
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
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables for a reconnect rule')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a server and judge it under the host''s rule')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Supervise servers for Prometheus')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpl-doctor;simulate' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The reconnect rule')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The reconnect rule')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Several rules side by side, one column each')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Which of the host''s engines: legacy or modern')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'Which of the host''s engines: legacy or modern')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base (`reconnectIntervalMs`)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base (`reconnectIntervalMs`)')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling (`reconnectMaxIntervalMs`)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the jitter, to repeat a run exactly')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'What the server does (see --help''s list)')
            [CompletionResult]::new('--behaviour', '--behaviour', [CompletionResultType]::ParameterName, 'What the server does (see --help''s list)')
            [CompletionResult]::new('--fail-after', '--fail-after', [CompletionResultType]::ParameterName, 'With `never`: how long into each attempt it fails')
            [CompletionResult]::new('--startup', '--startup', [CompletionResultType]::ParameterName, 'Time from launch to completed handshake')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'Time from handshake to a settled policy exchange')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Simulate this many launches')
            [CompletionResult]::new('--launches', '--launches', [CompletionResultType]::ParameterName, 'Simulate this many launches')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Simulate this much time')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Simulate this much time')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'How many rows of each rule''s schedule to show')
            [CompletionResult]::new('--rows', '--rows', [CompletionResultType]::ParameterName, 'How many rows of each rule''s schedule to show')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output: human (tables) or json')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: human (tables) or json')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report')
            [CompletionResult]::new('--svg', '--svg', [CompletionResultType]::ParameterName, 'Also write the timelines as an SVG picture')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('--no-jitter', '--no-jitter', [CompletionResultType]::ParameterName, 'Nominal waits, no jitter')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print the summary and the timelines only')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print the summary and the timelines only')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show up to 100 rows of each rule''s schedule')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show up to 100 rows of each rule''s schedule')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw timeline strips in plain ASCII')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The same as --format json (kept for scripts)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;check-config' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Which host''s reconnect rule the findings describe')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'Which host''s reconnect rule the findings describe')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format on standard output')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format on standard output')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Also write FORMAT to FILE (repeatable)')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The file name to place `-`''s findings on')
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'The systems it will run on: linux, macos, windows')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable, secret)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print findings only')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print findings only')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also name every file read')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also name every file read')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Exit 1 on warnings too, not only on errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;probe' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'A ws:// or http(s):// server to dial instead')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'A ws:// or http(s):// server to dial instead')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'The HTTP transport to speak with an http(s) URL')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'The token the host sends with --url (never shown)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header: `Name: value` or `@FILE`')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'A host configuration file (`-`: standard input)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A host configuration file (`-`: standard input)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'An entry of --config to probe (repeatable)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'An entry of --config to probe (repeatable)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable, secret)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The handshake a command speaks: legacy or modern')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'The handshake a command speaks: legacy or modern')
            [CompletionResult]::new('--call', '--call', [CompletionResultType]::ParameterName, 'Call this tool on each connection')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The host''s reconnect rule')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The host''s reconnect rule')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the waits'' jitter')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N launches of each server')
            [CompletionResult]::new('--launches', '--launches', [CompletionResultType]::ParameterName, 'Stop after N launches of each server')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Stop after this long')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Stop after this long')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Stop when a connection is up this long')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Stop when a connection is up this long')
            [CompletionResult]::new('--handshake-timeout', '--handshake-timeout', [CompletionResultType]::ParameterName, 'A handshake slower than this fails the attempt')
            [CompletionResult]::new('--start-budget', '--start-budget', [CompletionResultType]::ParameterName, 'The same, for a launch installing its package')
            [CompletionResult]::new('--open-timeout', '--open-timeout', [CompletionResultType]::ParameterName, 'How long opening a connection may take')
            [CompletionResult]::new('--ping-every', '--ping-every', [CompletionResultType]::ParameterName, 'Send a JSON-RPC ping this often while connected')
            [CompletionResult]::new('--ping-timeout', '--ping-timeout', [CompletionResultType]::ParameterName, 'A ping unanswered this long ends the connection')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output: human, json or events')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: human, json or events')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'A secret to mask in all output (repeatable)')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report')
            [CompletionResult]::new('--svg', '--svg', [CompletionResultType]::ParameterName, 'Also write the timeline as an SVG picture')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Probe every entry of --config at once')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Probe every entry of --config at once')
            [CompletionResult]::new('--include-disabled', '--include-disabled', [CompletionResultType]::ParameterName, 'Probe `disabled` entries too')
            [CompletionResult]::new('--handshake-only', '--handshake-only', [CompletionResultType]::ParameterName, 'Stop talking after the handshake')
            [CompletionResult]::new('--until-down', '--until-down', [CompletionResultType]::ParameterName, 'Stop once the host would raise mcpl-down')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The same as --format json (kept for scripts)')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'The same as --format events (kept for scripts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the verdict and its Why')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the verdict and its Why')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print a line on stderr for each event')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print a line on stderr for each event')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw timeline strips in plain ASCII')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 on a start warning too')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;serve' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'One ws:// or http(s):// server to dial instead')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'One ws:// or http(s):// server to dial instead')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'The HTTP transport to speak with an http(s) URL')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'The token the host sends with --url (never shown)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header: `Name: value` or `@FILE`')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'A host configuration file to supervise')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A host configuration file to supervise')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'An entry of --config to supervise (repeatable)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'An entry of --config to supervise (repeatable)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The metric label for a server given by `--` or --url')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Where to serve HTTP')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Where to serve HTTP')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The handshake a command speaks: legacy or modern')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'The handshake a command speaks: legacy or modern')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The host''s reconnect rule')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The host''s reconnect rule')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The backoff''s base')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the waits'' jitter')
            [CompletionResult]::new('--handshake-timeout', '--handshake-timeout', [CompletionResultType]::ParameterName, 'A handshake slower than this fails the attempt')
            [CompletionResult]::new('--start-budget', '--start-budget', [CompletionResultType]::ParameterName, 'The same, for a launch installing its package')
            [CompletionResult]::new('--open-timeout', '--open-timeout', [CompletionResultType]::ParameterName, 'How long opening a connection may take')
            [CompletionResult]::new('--ping-every', '--ping-every', [CompletionResultType]::ParameterName, 'Send a JSON-RPC ping this often while connected')
            [CompletionResult]::new('--ping-timeout', '--ping-timeout', [CompletionResultType]::ParameterName, 'A ping unanswered this long ends the connection')
            [CompletionResult]::new('--probe-watch', '--probe-watch', [CompletionResultType]::ParameterName, 'How long /probe watches a connection')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'A secret to mask (repeatable)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The host the file is written for')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The folder `${workspaceFolder}` stands for')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The value of `${input:ID}` (repeatable, secret)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('--include-disabled', '--include-disabled', [CompletionResultType]::ParameterName, 'Supervise `disabled` entries too')
            [CompletionResult]::new('--handshake-only', '--handshake-only', [CompletionResultType]::ParameterName, 'Stop talking after the handshake')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;schema' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;man' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write every page into DIR instead')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto, always or never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'mcpl-doctor;help' {
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables for a reconnect rule')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a server and judge it under the host''s rule')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Supervise servers for Prometheus')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page')
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
