use super::*;

fn setting(command: &str, args: &[&str], env: &[(&str, &str)]) -> Setting {
    Setting {
        command: Some(command.to_string()),
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
    row(&lines, s)
}

/// uvx 0.9 `--python 3.11 dbt-mcp==2.8.0` (dbt-mcp requires Python >=3.12,<3.14): exact lines.
const UVX: &str = "error: No solution found when resolving tool dependencies
  cause: Because the current Python version (3.11.7) does not satisfy Python>=3.12,<3.14 and dbt-mcp==2.8.0 depends on Python>=3.12,<3.14, we can conclude that dbt-mcp==2.8.0 cannot be used.
         And because only dbt-mcp<=2.8.0 is available and you require dbt-mcp==2.8.0, we can conclude that your requirements are unsatisfiable.";

#[test]
fn uvx_refusing_the_python_names_the_entrys_python_argument() {
    let s = setting("uvx", &["--python", "3.11", "dbt-mcp==2.8.0"], &[]);
    let f = run(UVX, &s).expect("a finding");
    assert_eq!(f.id, Id::RuntimeTooOld);
    assert!(
        f.next
            .starts_with("change `--python 3.11` in the entry's args to `--python 3.12`"),
        "{}",
        f.next
    );
    assert!(f.summary.contains("Python 3.11.7"), "{}", f.summary);
    // No `--python`: UV_PYTHON when the entry sets it, else the flag to add.
    let s = setting("uvx", &["dbt-mcp"], &[("UV_PYTHON", "3.11")]);
    assert!(run(UVX, &s)
        .expect("a finding")
        .next
        .contains("`UV_PYTHON`"));
    let s = setting("uvx", &["dbt-mcp"], &[]);
    assert!(run(UVX, &s)
        .expect("a finding")
        .next
        .contains("`--python 3.12`"));
}

#[test]
fn uv_run_pip_and_pipx_refusals_are_read_in_their_formats() {
    let s = setting("uv", &["run", "--python=3.10", "server.py"], &[]);
    // uv run in a project whose requires-python is above the interpreter asked for.
    let uv_run = "error: The requested interpreter resolved to Python 3.10.14, which is incompatible with the project's Python requirement: `>=3.11`";
    let f = run(uv_run, &s).expect("a finding");
    assert!(
        f.next.contains("`--python=3.10`") && f.next.contains("`--python 3.11`"),
        "{}",
        f.next
    );
    // uv pip with a version asked for.
    let uv_pip = "  × No solution found when resolving dependencies:\n  ╰─▶ Because the requested Python version (3.10) does not satisfy Python>=3.11 and mcp-server-x==1.0 depends on Python>=3.11, we can conclude ...";
    assert_eq!(
        refusal(&uv_pip.lines().collect::<Vec<_>>()).map(|r| (r.running, r.wanted)),
        Some((Some("3.10".to_string()), ">=3.11".to_string()))
    );
    // pip (and pipx, which runs it).
    let pip =
        "ERROR: Package 'mcp-server-fetch' requires a different Python: 3.9.18 not in '>=3.10'";
    let r = refusal(&[pip]).expect("a refusal");
    assert_eq!(
        (r.running.as_deref(), r.wanted.as_str()),
        (Some("3.9.18"), ">=3.10")
    );
    let ignored = "ERROR: Ignored the following versions that require a different python version: 1.0.0 Requires-Python >=3.10; 1.1.0 Requires-Python >=3.12\nERROR: Could not find a version that satisfies the requirement x==1.1.0";
    let r = refusal(&ignored.lines().collect::<Vec<_>>()).expect("a refusal");
    assert_eq!(r.wanted, ">=3.12");
}

#[test]
fn a_resolver_failing_on_something_else_is_no_finding() {
    let s = setting("uvx", &["--python", "3.12", "x"], &[]);
    // A package that does not exist, a version conflict between two packages, a log line
    // quoting a requirement.
    let other = "error: No solution found when resolving tool dependencies\n  cause: Because there are no versions of no-such-pkg and you require no-such-pkg, we can conclude that your requirements are unsatisfiable.";
    assert!(run(other, &s).is_none());
    let conflict =
        "  cause: Because a==1.0 depends on b>=2 and you require b<2, we can conclude ...";
    assert!(run(conflict, &s).is_none());
    assert!(run("INFO starting; python requirement: met", &s).is_none());
}
