# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_mcpl_doctor_global_optspecs
    string join \n color= h/help V/version
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
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -s V -l version -d 'Print version'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "probe" -d 'Launch a real server (or dial a ws:// URL), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand simulate" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l preset -d 'Which host\'s reconnect rule the findings describe: `lasting` (#999, refuses bad timings at start), `handshake` (main, before #999), or a #999 review proposal' -r -f -a "handshake\t''
lasting\t''
bounded\t''
preceding-wait\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l format -d 'Output format' -r -f -a "human\t'Compiler-style diagnostics with the source line (default)'
json\t'One JSON document with `schema_version` and every finding'
github\t'GitHub Actions workflow commands (annotations on the pull request\'s diff)'"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -l deny-warnings -d 'Exit with status 1 when there are warnings, not only errors'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand check-config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand probe" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -l color -d 'When to use colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand completions" -s h -l help -d 'Print help'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe completions help" -f -a "simulate" -d 'Print what-if tables: attempts, waits, down alerts, status lines and uptime under a reconnect rule, for any timings and server behaviour'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe completions help" -f -a "check-config" -d 'Validate host configuration files the way the host reads them (for CI)'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe completions help" -f -a "probe" -d 'Launch a real server (or dial a ws:// URL), speak the host\'s handshake, measure each connection, relaunch it under the host\'s rule, and give a verdict'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe completions help" -f -a "completions" -d 'Print shell completions generated from this command line\'s definition'
complete -c mcpl-doctor -n "__fish_mcpl_doctor_using_subcommand help; and not __fish_seen_subcommand_from simulate check-config probe completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
