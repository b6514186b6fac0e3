
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
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files the way the host reads them (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a real server (or dial a ws:// URL), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions generated from this command line''s definition')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpl-doctor;simulate' {
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The reconnect rule: handshake, lasting, bounded, preceding-wait, kubernetes, docker, pm2, supervisord, systemd, mcp-sdk-http. Without it (and without --compare): handshake and lasting side by side')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Summaries of several presets side by side, one column each (comma-separated)')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'Which agent-framework engine: alert wording (MCPL/MCP) and, under `handshake`, whether waits are clamped to the timer limit (the modern engine clamps)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'The backoff''s base (`reconnectIntervalMs`). Default: the preset''s own (5 s for the host)')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'The backoff''s ceiling (`reconnectMaxIntervalMs`). Default: the preset''s own (5 min)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'What the server does (see below). Default: dies right after its handshake')
            [CompletionResult]::new('--fail-after', '--fail-after', [CompletionResultType]::ParameterName, 'With `never`: how long into each attempt the failure comes')
            [CompletionResult]::new('--startup', '--startup', [CompletionResultType]::ParameterName, 'Time from launch to completed handshake')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Simulate this many launches')
            [CompletionResult]::new('--span', '--span', [CompletionResultType]::ParameterName, 'Simulate this much time [default: 1d]')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed')
            [CompletionResult]::new('--rows', '--rows', [CompletionResultType]::ParameterName, 'How many rows of the schedule to show per preset (the summary always covers all)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('--no-jitter', '--no-jitter', [CompletionResultType]::ParameterName, 'Nominal waits, no jitter')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON document (with schema_version) instead of tables')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;check-config' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;probe' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;help' {
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour')
            [CompletionResult]::new('check-config', 'check-config', [CompletionResultType]::ParameterValue, 'Validate host configuration files the way the host reads them (for CI)')
            [CompletionResult]::new('probe', 'probe', [CompletionResultType]::ParameterValue, 'Launch a real server (or dial a ws:// URL), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions generated from this command line''s definition')
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
        'mcpl-doctor;help;completions' {
            break
        }
        'mcpl-doctor;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
