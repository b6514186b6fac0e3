//! `simulate --preset HOST`: each host's own relaunch rule (issue 18, item 4), through the real
//! binary. Waits in seconds, then what the host does: gives up, or waits for the next tool call.

use serde_json::Value;

use crate::support::{run, stderr, stdout};

/// The one run of `simulate --json --no-jitter --preset PRESET ARGS...`.
fn run_of(preset: &str, args: &[&str]) -> Value {
    let mut all = vec!["simulate", "--json", "--no-jitter", "--preset", preset];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    doc["runs"][0].clone()
}

fn rows(run: &Value) -> &Vec<Value> {
    run["rows"].as_array().expect("rows")
}

fn waits_s(run: &Value) -> Vec<f64> {
    rows(run)
        .iter()
        .filter_map(|r| r["wait"]["ms"].as_f64())
        .map(|ms| ms / 1000.0)
        .collect()
}

/// What the host does after the last launch, and its words for it.
fn last_then(run: &Value) -> (String, String) {
    let last = rows(run).last().expect("a row");
    (
        last["then"].as_str().expect("then").to_string(),
        last["stopped"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn cline_http_waits_2_to_64_s_then_gives_up_in_its_words() {
    let out = run(&[
        "simulate",
        "--preset",
        "cline-http",
        "--behaviour",
        "never",
        "--no-jitter",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for wait in ["2 s", "4 s", "8 s", "16 s", "32 s", "1 min 4 s", "gives up"] {
        assert!(
            text.contains(&format!(" {wait} ")),
            "{wait:?} not in\n{text}"
        );
    }
    assert!(text.contains("Cline gives up after 6 tries"), "{text}");

    let run = run_of("cline-http", &["--behaviour", "never"]);
    assert_eq!(waits_s(&run), vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
    let (then, words) = last_then(&run);
    assert_eq!(then, "gives-up");
    assert!(words.contains("Restart Server"), "{words}");
    assert_eq!(run["summary"]["stopped_as"], "gives-up");
    assert_eq!(run["summary"]["launches"], 7);
}

#[test]
fn backoff_hosts_wait_their_schedules_then_give_up() {
    for (preset, waits, words) in [
        ("claude-code-remote", vec![1.0, 2.0, 4.0, 8.0, 16.0], "/mcp"),
        (
            "ts-sdk-sse",
            vec![1.0, 1.5],
            "Maximum reconnection attempts (2)",
        ),
        ("hermes", vec![1.0, 2.0, 4.0, 8.0, 16.0], "never resets"),
    ] {
        let run = run_of(preset, &["--behaviour", "never"]);
        assert_eq!(waits_s(&run), waits, "{preset}");
        let (then, said) = last_then(&run);
        assert_eq!(then, "gives-up", "{preset}");
        assert!(said.contains(words), "{preset}: {said}");
        // Every launch before the last relaunches after its wait.
        assert!(rows(&run)[..waits.len()]
            .iter()
            .all(|r| r["then"] == "relaunches"));
    }
}

#[test]
fn hermes_never_resets_its_count_where_claude_code_starts_afresh() {
    // Connections of 10 minutes: Claude Code's count starts afresh at each handshake (a
    // relaunch after 1 s each time, all day); Hermes counts every end and dies after 5.
    let hermes = run_of("hermes", &["--behaviour", "dies-after=10m"]);
    assert_eq!(waits_s(&hermes), vec![1.0, 2.0, 4.0, 8.0, 16.0]);
    assert_eq!(last_then(&hermes).0, "gives-up");
    let claude = run_of(
        "claude-code-remote",
        &["--behaviour", "dies-after=10m", "--launches", "20"],
    );
    assert!(waits_s(&claude).iter().all(|&w| w == 1.0), "{claude}");
    assert_eq!(claude["summary"]["launches"], 20);
    assert!(claude["summary"]["stopped_as"].is_null(), "{claude}");
}

#[test]
fn vscode_http_back_channel_waits_n_s_up_to_30_s_without_end() {
    let run = run_of("vscode-http", &["--behaviour", "never", "--launches", "40"]);
    let expected: Vec<f64> = (0..40).map(|n| f64::from(n.min(30))).collect();
    assert_eq!(waits_s(&run), expected);
    assert!(run["summary"]["stopped"].is_null(), "{run}");
}

#[test]
fn hosts_that_never_relaunch_give_up_after_the_first_end() {
    for (preset, words) in [
        ("claude-desktop", "until the app restarts"),
        ("cline-stdio", "Restart Server"),
        ("copilot-cli", "failed for the session"),
    ] {
        // A server that connects and dies after 10 minutes: one launch, then nothing.
        let run = run_of(preset, &["--behaviour", "dies-after=10m"]);
        assert_eq!(run["summary"]["launches"], 1, "{preset}");
        assert!(waits_s(&run).is_empty(), "{preset}");
        let (then, said) = last_then(&run);
        assert_eq!(then, "gives-up", "{preset}");
        assert!(said.contains(words), "{preset}: {said}");
        assert_eq!(run["summary"]["stopped_at_ms"], 600_000.0, "{preset}");
    }
    let out = run(&[
        "simulate",
        "--preset",
        "claude-desktop",
        "--behaviour",
        "never",
        "--no-jitter",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("Claude Desktop does not relaunch this server; it stays failed"),
        "{text}"
    );
    assert!(text.contains("no timed relaunch"), "{text}");
}

#[test]
fn lazy_hosts_wait_for_the_next_tool_call() {
    for (preset, host) in [("claude-code-stdio", "Claude Code"), ("vscode", "VS Code")] {
        let run = run_of(preset, &["--behaviour", "never"]);
        assert_eq!(run["summary"]["launches"], 1, "{preset}");
        let (then, said) = last_then(&run);
        assert_eq!(then, "waits-for-next-tool-call", "{preset}");
        assert!(said.starts_with(host), "{preset}: {said}");
        assert_eq!(run["summary"]["stopped_as"], "waits-for-next-tool-call");
    }
    let out = run(&[
        "simulate",
        "--preset",
        "claude-code-stdio",
        "--behaviour",
        "never",
        "--no-jitter",
    ]);
    let text = stdout(&out);
    assert!(text.contains("next tool call"), "{text}");
    assert!(!text.contains("gave up"), "{text}");
}

#[test]
fn a_start_slower_than_the_hosts_60_s_budget_fails() {
    for preset in ["cline-stdio", "copilot-cli"] {
        let slow = run_of(preset, &["--behaviour", "healthy", "--startup", "90s"]);
        let row = &rows(&slow)[0];
        assert_eq!(row["happened"], "failed-to-connect", "{preset}");
        assert!(
            row["happened_text"]
                .as_str()
                .is_some_and(|t| t.contains("1 min start budget")),
            "{row}"
        );
        assert_eq!(slow["summary"]["stopped_at_ms"], 60_000.0, "{preset}");
        // Within the budget it connects and stays up.
        let quick = run_of(preset, &["--behaviour", "healthy", "--startup", "30s"]);
        assert_eq!(rows(&quick)[0]["happened"], "still-up", "{preset}");
    }
    // A host without a budget waits as long as the server takes.
    let claude = run_of(
        "claude-desktop",
        &["--behaviour", "healthy", "--startup", "90s"],
    );
    assert_eq!(rows(&claude)[0]["happened"], "still-up");
}
