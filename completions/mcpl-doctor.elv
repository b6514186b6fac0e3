
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
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand simulate 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
            cand check-config 'Validate host configuration files the way the host reads them (for CI)'
            cand probe 'Launch a real server (or dial a ws:// URL), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict'
            cand completions 'Print shell completions generated from this command line''s definition'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpl-doctor;simulate'= {
            cand --preset 'The reconnect rule: handshake, lasting, bounded, preceding-wait, kubernetes, docker, pm2, supervisord, systemd, mcp-sdk-http. Without it (and without --compare): handshake and lasting side by side'
            cand --compare 'Summaries of several presets side by side, one column each (comma-separated)'
            cand --engine 'Which agent-framework engine: alert wording (MCPL/MCP) and, under `handshake`, whether waits are clamped to the timer limit (the modern engine clamps)'
            cand --interval 'The backoff''s base (`reconnectIntervalMs`). Default: the preset''s own (5 s for the host)'
            cand --cap 'The backoff''s ceiling (`reconnectMaxIntervalMs`). Default: the preset''s own (5 min)'
            cand --server 'What the server does (see below). Default: dies right after its handshake'
            cand --fail-after 'With `never`: how long into each attempt the failure comes'
            cand --startup 'Time from launch to completed handshake'
            cand --attempts 'Simulate this many launches'
            cand --span 'Simulate this much time [default: 1d]'
            cand --seed 'Seed for the jitter, to repeat a run exactly. Default: a random seed, printed'
            cand --rows 'How many rows of the schedule to show per preset (the summary always covers all)'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand --no-jitter 'Nominal waits, no jitter'
            cand --json 'One JSON document (with schema_version) instead of tables'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;check-config'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;probe'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;completions'= {
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;help'= {
            cand simulate 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
            cand check-config 'Validate host configuration files the way the host reads them (for CI)'
            cand probe 'Launch a real server (or dial a ws:// URL), speak the host''s handshake, measure each connection, relaunch it under the host''s rule, and give a verdict'
            cand completions 'Print shell completions generated from this command line''s definition'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpl-doctor;help;simulate'= {
        }
        &'mcpl-doctor;help;check-config'= {
        }
        &'mcpl-doctor;help;probe'= {
        }
        &'mcpl-doctor;help;completions'= {
        }
        &'mcpl-doctor;help;help'= {
        }
    ]
    $completions[$command]
}
