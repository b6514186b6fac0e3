
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
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'mcpl-doctor;check-config'= {
            cand --preset 'Which host''s reconnect rule the findings describe: `lasting` (#999, refuses bad timings at start), `handshake` (main, before #999), or a #999 review proposal'
            cand --format 'Output format'
            cand --color 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never'
            cand --deny-warnings 'Exit with status 1 when there are warnings, not only errors'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
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
