use super::*;
use crate::engine::diagnosis::evidence;

fn setting(args: &[&str], env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some("srv".to_string()),
        args: args.iter().map(|a| a.to_string()).collect(),
        env_values: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
        entry: true,
        ..Setting::default()
    }
}

fn run(stderr: &str, s: &Setting) -> Option<Found> {
    let lines: Vec<&str> = stderr.lines().collect();
    row(&evidence::parse(&lines), &lines, s)
}

/// kubernetes-mcp-server 0.0.67 (Go, cobra) with KUBECONFIG naming no file: its exact lines,
/// its flag list cut.
const COBRA: &str = "Error: unable to create kubernetes target provider: no current-context is set and no contexts are defined in kubeconfig.
Configure a context with 'kubectl config set-context <name>' and 'kubectl config use-context <name>'
Usage:
  kubernetes-mcp-server [command] [options] [flags]

Flags:
      --config string             Path of the config file.
  -h, --help                      help for kubernetes-mcp-server
      --kubeconfig string         Path to the kubeconfig file to use for authentication
      --port string               Start a streamable HTTP server on the specified port (e.g. 8080)
      --version                   Print version information and quit";

/// @sentry/mcp-server (a hand-written check, then its usage) without a token: exact lines.
const SENTRY: &str = "Error: No access token was provided.
Run `sentry-mcp auth login` interactively first, or pass `--access-token` / `SENTRY_ACCESS_TOKEN`.
Usage: @sentry/mcp-server [--access-token=<token>] [--host=<host>] [--insecure-http]
       @sentry/mcp-server auth [login|logout|status]

Authentication:
  --access-token <token>  Sentry User Auth Token with API access";

#[test]
fn a_cobra_error_above_its_usage_is_tied_to_the_variable_the_entry_sets() {
    let s = setting(&[], &[("KUBECONFIG", "/w/kube/config.yaml")]);
    let f = run(COBRA, &s).expect("a finding");
    assert_eq!(f.id, Id::BadArgument);
    assert!(f.next.contains("`KUBECONFIG`"), "{}", f.next);
    assert!(f.next.contains("`--kubeconfig`"), "{}", f.next);
    assert!(f.next.contains("no current-context"), "{}", f.next);
    assert!(
        !f.next.contains("config.yaml"),
        "a value is never printed: {}",
        f.next
    );
    // Without the variable: the flag its usage lists, to pass.
    let f = run(COBRA, &setting(&[], &[])).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(f.next.starts_with("pass `--kubeconfig`"), "{}", f.next);
}

#[test]
fn an_error_in_words_names_the_usage_flag_and_the_variable_of_its_hint() {
    let f = run(SENTRY, &setting(&[], &[])).expect("a finding");
    assert_eq!(f.id, Id::MissingArgument);
    assert!(f.next.contains("`--access-token`"), "{}", f.next);
    assert!(f.next.contains("`SENTRY_ACCESS_TOKEN`"), "{}", f.next);
    // The flag given: another row's (the error names a flag the entry passes).
    assert!(run(SENTRY, &setting(&["--access-token=x"], &[])).is_none());
}

#[test]
fn clap_and_urfave_errors_are_read_under_and_above_their_usage() {
    // clap 4 (an app's own error through clap's `Command::error`): `error:`, a blank line,
    // `Usage:`, its options.
    let clap = "error: no API key: pass --api-key or set SRV_API_KEY\n\nUsage: srv [OPTIONS]\n\nOptions:\n      --api-key <API_KEY>  The API key\n  -h, --help               Print help";
    let f = run(clap, &setting(&[], &[])).expect("a finding");
    assert!(f.next.contains("`--api-key`"), "{}", f.next);
    assert!(f.next.contains("`SRV_API_KEY`"), "{}", f.next);
    // urfave/cli v2: its usage, then the error naming the flag's variable.
    let urfave = "NAME:\n   srv - a server\n\nUSAGE:\n   srv [global options]\n\nGLOBAL OPTIONS:\n   --token value  the API token [$SRV_API_TOKEN]\n   --help, -h     show help\nError: SRV_API_TOKEN is required";
    let f = run(urfave, &setting(&[], &[])).expect("a finding");
    assert!(f.next.contains("`SRV_API_TOKEN`"), "{}", f.next);
}

#[test]
fn a_help_alone_or_an_error_naming_nothing_of_the_entry_is_no_finding() {
    // A healthy server's help at start (no error line): nothing.
    let help =
        "Usage: srv [--access-token=<token>]\n\nOptions:\n  --access-token <token>  the token";
    assert!(run(help, &setting(&[], &[])).is_none());
    // An error line that names no flag and no variable: the generic usage row's.
    let other = "Error: something broke while starting\nUsage:\n  srv [flags]\n\nFlags:\n      --kubeconfig string   Path to the kubeconfig file";
    assert!(run(other, &setting(&[], &[])).is_none());
}
