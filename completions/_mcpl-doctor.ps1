
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
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'mcpl-doctor;check-config' {
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'Which host''s reconnect rule the findings describe: `lasting` (#999, refuses bad timings at start), `handshake` (main, before #999), or a #999 review proposal')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Exit with status 1 when there are warnings, not only errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
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
