use super::*;
use crate::engine::diagnosis::evidence;

/// A server script reading its key and its host (as pagerduty-mcp's
/// `application_context_strategy.py` does), in a folder of its own.
fn server() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("ctx.py");
    std::fs::write(
        &p,
        "import os\n\ndef create_client():\n    api_key = os.getenv(\"FIXTURE_USER_API_KEY\")\n    host = os.getenv(\"FIXTURE_API_HOST\", \"https://api.example.com\")\n    if not api_key:\n        raise RuntimeError(\"An API key is required to call the API.\")\n",
    )
    .expect("write");
    let shown = p.display().to_string();
    (dir, shown)
}

fn setting(script: &str, env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some("python3".to_string()),
        args: vec![script.to_string()],
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

fn traceback(script: &str, message: &str) -> String {
    format!("Traceback (most recent call last):\n  File \"{script}\", line 7, in create_client\n    raise RuntimeError(\"...\")\nRuntimeError: {message}")
}

#[test]
fn a_credential_exception_names_the_unset_key_its_source_reads() {
    let (_dir, script) = server();
    let s = setting(&script, &[("FIXTURE_API_HOST", "https://h.example")]);
    let f = run(
        &traceback(&script, "An API key is required to call the API."),
        &s,
    )
    .expect("a finding");
    assert_eq!(f.id, Id::MissingEnvVar);
    assert!(
        f.next.starts_with("set `FIXTURE_USER_API_KEY`"),
        "{}",
        f.next
    );
    assert!(!f.next.contains("FIXTURE_API_HOST"), "{}", f.next);
    assert!(
        f.evidence
            .iter()
            .any(|(src, t)| *src == Source::Tried && t.contains("FIXTURE_USER_API_KEY (ctx.py:")),
        "{:?}",
        f.evidence
    );
    // Node's and Go's forms: an error with its stack, a fatal log line.
    let node = "Error: Authentication token missing\n    at main (/srv/index.js:3:9)";
    assert!(run(node, &s).is_some());
}

#[test]
fn a_set_key_a_named_variable_or_another_failure_is_no_finding() {
    let (_dir, script) = server();
    // The key is set: its value may be what is refused (another row's matter).
    let set = setting(&script, &[("FIXTURE_USER_API_KEY", "k")]);
    assert!(run(
        &traceback(&script, "An API key is required to call the API."),
        &set
    )
    .is_none());
    let s = setting(&script, &[]);
    // A message naming its variable: the rows that read names.
    assert!(run(&traceback(&script, "FIXTURE_USER_API_KEY is required"), &s).is_none());
    // A failure that means no credential.
    assert!(run(&traceback(&script, "division by zero"), &s).is_none());
}
