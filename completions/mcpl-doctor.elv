
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
            cand --color 'When to use colour: auto, always or never'
            cand --ascii 'Before the subcommand: the same as `probe --ascii` / `simulate --ascii` (kept for scripts; the subcommands that draw strips show it)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand simulate 'Print what-if tables for a reconnect rule'
            cand check-config 'Validate host configuration files (for CI)'
            cand probe 'Launch a server and judge it under the host''s rule'
            cand serve 'Supervise servers for Prometheus'
            cand schema 'Print a JSON Schema'
            cand completions 'Print shell completions'
            cand man 'Print a man page'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpl-doctor;simulate'= {
            cand -p 'The reconnect rule'
            cand --preset 'The reconnect rule'
            cand --compare 'Several rules side by side, one column each'
            cand -e 'Which of the host''s engines: legacy or modern'
            cand --engine 'Which of the host''s engines: legacy or modern'
            cand -i 'The backoff''s base (`reconnectIntervalMs`)'
            cand --interval 'The backoff''s base (`reconnectIntervalMs`)'
            cand --cap 'The backoff''s ceiling (`reconnectMaxIntervalMs`)'
            cand --seed 'Seed for the jitter, to repeat a run exactly'
            cand -b 'What the server does (see --help''s list)'
            cand --behaviour 'What the server does (see --help''s list)'
            cand --fail-after 'With `never`: how long into each attempt it fails'
            cand --startup 'Time from launch to completed handshake'
            cand --settle 'Time from handshake to a settled policy exchange'
            cand -n 'Simulate this many launches'
            cand --launches 'Simulate this many launches'
            cand -t 'Simulate this much time'
            cand --for 'Simulate this much time'
            cand -r 'How many rows of each rule''s schedule to show'
            cand --rows 'How many rows of each rule''s schedule to show'
            cand -f 'Output: human (tables) or json'
            cand --format 'Output: human (tables) or json'
            cand --report 'Also write a self-contained HTML report'
            cand --svg 'Also write the timelines as an SVG picture'
            cand --color 'When to use colour: auto, always or never'
            cand --no-jitter 'Nominal waits, no jitter'
            cand -q 'Print the summary and the timelines only'
            cand --quiet 'Print the summary and the timelines only'
            cand -v 'Show up to 100 rows of each rule''s schedule'
            cand --verbose 'Show up to 100 rows of each rule''s schedule'
            cand --ascii 'Draw timeline strips in plain ASCII'
            cand --json 'The same as --format json (kept for scripts)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;check-config'= {
            cand -p 'Which host''s reconnect rule the findings describe'
            cand --preset 'Which host''s reconnect rule the findings describe'
            cand -f 'Output format on standard output'
            cand --format 'Output format on standard output'
            cand --output 'Also write FORMAT to FILE (repeatable)'
            cand --stdin-filename 'The file name to place `-`''s findings on'
            cand --platform 'The systems it will run on: linux, macos, windows'
            cand --host 'The host the file is written for'
            cand --workspace 'The folder `${workspaceFolder}` stands for'
            cand --input 'The value of `${input:ID}` (repeatable, secret)'
            cand --color 'When to use colour: auto, always or never'
            cand -q 'Print findings only'
            cand --quiet 'Print findings only'
            cand -v 'Also name every file read'
            cand --verbose 'Also name every file read'
            cand --deny-warnings 'Exit 1 on warnings too, not only on errors'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;probe'= {
            cand -u 'A ws:// or http(s):// server to dial instead'
            cand --url 'A ws:// or http(s):// server to dial instead'
            cand --transport 'The HTTP transport to speak with an http(s) URL'
            cand --token 'The token the host sends with --url (never shown)'
            cand --header 'An HTTP header: `Name: value` or `@FILE`'
            cand -c 'A host configuration file (`-`: standard input)'
            cand --config 'A host configuration file (`-`: standard input)'
            cand -s 'An entry of --config to probe (repeatable)'
            cand --server 'An entry of --config to probe (repeatable)'
            cand --host 'The host the file is written for'
            cand --workspace 'The folder `${workspaceFolder}` stands for'
            cand --input 'The value of `${input:ID}` (repeatable, secret)'
            cand -e 'The handshake a command speaks: legacy or modern'
            cand --engine 'The handshake a command speaks: legacy or modern'
            cand --call 'Call this tool on each connection'
            cand -p 'The host''s reconnect rule'
            cand --preset 'The host''s reconnect rule'
            cand -i 'The backoff''s base'
            cand --interval 'The backoff''s base'
            cand --cap 'The backoff''s ceiling'
            cand --seed 'Seed for the waits'' jitter'
            cand -n 'Stop after N launches of each server'
            cand --launches 'Stop after N launches of each server'
            cand -t 'Stop after this long'
            cand --for 'Stop after this long'
            cand -w 'Stop when a connection is up this long'
            cand --watch 'Stop when a connection is up this long'
            cand --handshake-timeout 'A handshake slower than this fails the attempt'
            cand --start-budget 'The same, for a launch installing its package'
            cand --open-timeout 'How long opening a connection may take'
            cand --ping-every 'Send a JSON-RPC ping this often while connected'
            cand --ping-timeout 'A ping unanswered this long ends the connection'
            cand -f 'Output: human, json or events'
            cand --format 'Output: human, json or events'
            cand --redact 'A secret to mask in all output (repeatable)'
            cand --report 'Also write a self-contained HTML report'
            cand --svg 'Also write the timeline as an SVG picture'
            cand --color 'When to use colour: auto, always or never'
            cand -a 'Probe every entry of --config at once'
            cand --all 'Probe every entry of --config at once'
            cand --include-disabled 'Probe `disabled` entries too'
            cand --handshake-only 'Stop talking after the handshake'
            cand --until-down 'Stop once the host would raise mcpl-down'
            cand --json 'The same as --format json (kept for scripts)'
            cand --events 'The same as --format events (kept for scripts)'
            cand -q 'Print only the verdict and its Why'
            cand --quiet 'Print only the verdict and its Why'
            cand -v 'Also print a line on stderr for each event'
            cand --verbose 'Also print a line on stderr for each event'
            cand --ascii 'Draw timeline strips in plain ASCII'
            cand --strict 'Exit 1 on a start warning too'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;serve'= {
            cand -u 'One ws:// or http(s):// server to dial instead'
            cand --url 'One ws:// or http(s):// server to dial instead'
            cand --transport 'The HTTP transport to speak with an http(s) URL'
            cand --token 'The token the host sends with --url (never shown)'
            cand --header 'An HTTP header: `Name: value` or `@FILE`'
            cand -c 'A host configuration file to supervise'
            cand --config 'A host configuration file to supervise'
            cand -s 'An entry of --config to supervise (repeatable)'
            cand --server 'An entry of --config to supervise (repeatable)'
            cand --name 'The metric label for a server given by `--` or --url'
            cand -l 'Where to serve HTTP'
            cand --listen 'Where to serve HTTP'
            cand -e 'The handshake a command speaks: legacy or modern'
            cand --engine 'The handshake a command speaks: legacy or modern'
            cand -p 'The host''s reconnect rule'
            cand --preset 'The host''s reconnect rule'
            cand -i 'The backoff''s base'
            cand --interval 'The backoff''s base'
            cand --cap 'The backoff''s ceiling'
            cand --seed 'Seed for the waits'' jitter'
            cand --handshake-timeout 'A handshake slower than this fails the attempt'
            cand --start-budget 'The same, for a launch installing its package'
            cand --open-timeout 'How long opening a connection may take'
            cand --ping-every 'Send a JSON-RPC ping this often while connected'
            cand --ping-timeout 'A ping unanswered this long ends the connection'
            cand --probe-watch 'How long /probe watches a connection'
            cand --redact 'A secret to mask (repeatable)'
            cand --host 'The host the file is written for'
            cand --workspace 'The folder `${workspaceFolder}` stands for'
            cand --input 'The value of `${input:ID}` (repeatable, secret)'
            cand --color 'When to use colour: auto, always or never'
            cand --include-disabled 'Supervise `disabled` entries too'
            cand --handshake-only 'Stop talking after the handshake'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;schema'= {
            cand --color 'When to use colour: auto, always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;completions'= {
            cand --color 'When to use colour: auto, always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;man'= {
            cand --out 'Write every page into DIR instead'
            cand --color 'When to use colour: auto, always or never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'mcpl-doctor;help'= {
            cand simulate 'Print what-if tables for a reconnect rule'
            cand check-config 'Validate host configuration files (for CI)'
            cand probe 'Launch a server and judge it under the host''s rule'
            cand serve 'Supervise servers for Prometheus'
            cand schema 'Print a JSON Schema'
            cand completions 'Print shell completions'
            cand man 'Print a man page'
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
