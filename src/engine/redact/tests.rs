//! The masking's unit tests.

use super::*;

/// Issue 30 item 4: each shape gives its secret, and a number or duration in a secret's
/// place gives none.
#[test]
fn secrets_by_shape_and_never_a_number_or_a_duration() {
    let found = |args: &[&str]| secret_args(args);
    let cases: &[(&[&str], &str)] = &[
        (
            &["--header", "Authorization:Bearer i30-hdr-token-1"],
            "i30-hdr-token-1",
        ),
        (&["--header", "X-Api-Key:i30-api-key-22"], "i30-api-key-22"),
        (&["app:i30-pg-pass@db.example:5432"], "i30-pg-pass"),
        (&["postgres://app:i30-url-pass@db/x"], "i30-url-pass"),
        (
            &["DATABASE_URL=redis://:i30-redis-pw@cache:6379"],
            "i30-redis-pw",
        ),
        (&["--x", "Bearer i30Bearer0token"], "i30Bearer0token"),
        (&["Basic aTMwOmJhc2lj"], "aTMwOmJhc2lj"),
        (
            &[r#"OPENAPI_MCP_HEADERS={"Authorization":"Bearer i30-json-bearer"}"#],
            "i30-json-bearer",
        ),
        (&[r#"HEADERS={"x-api-key":"i30-json-key"}"#], "i30-json-key"),
        (&["--opt", "${API_KEY:-i30-default-key}"], "i30-default-key"),
    ];
    for (args, secret) in cases {
        let got = found(args);
        assert!(got.iter().any(|g| g == secret), "{args:?}: {got:?}");
    }
    for args in [
        &["--auth-timeout", "5"][..],
        &["--token-ttl", "30s"],
        &["--auth-timeout=1500ms"],
        &["--password", "no"],
        &["--key", "-1"],
        &["Authorization: 10"],
        &["--session", "true"],
    ] {
        assert_eq!(found(args), Vec::<String>::new(), "{args:?}");
    }
    let mut r = Redactor::new();
    r.add_found("5");
    r.add_found("1.5h");
    r.add_found("i30-real");
    assert_eq!(
        r.redact("port 1515 and 5 seconds, i30-real"),
        "port 1515 and 5 seconds, [redacted]"
    );
}

#[test]
fn bearer_and_basic_credentials_are_masked_anywhere_but_prose_stays() {
    let r = Redactor::new();
    assert_eq!(
        r.redact("GET / Authorization: Bearer abc123DEF456ghi"),
        "GET / Authorization: Bearer [redacted]"
    );
    assert_eq!(r.redact("basic dXNlcjpwYXNz=="), "basic [redacted]");
    for prose in [
        "Basic authentication failed",
        "a bearer token is required",
        "Bearer Token missing",
    ] {
        assert_eq!(r.redact(prose), prose);
    }
}

#[test]
fn the_environment_is_walked_for_shapes_whatever_the_names() {
    let got = env_secrets([
        ("DATABASE_URL", "app:i30-env-pass@db:5432/x"),
        (
            "OPENAPI_MCP_HEADERS",
            r#"{"Authorization": "Bearer i30-env-json"}"#,
        ),
        ("PORT", "8080"),
    ]);
    assert!(got.contains(&"i30-env-pass".to_string()), "{got:?}");
    assert!(got.contains(&"i30-env-json".to_string()), "{got:?}");
    assert!(!got.iter().any(|g| g.contains("8080")), "{got:?}");
    assert_eq!(
        header_secrets("Authorization", "Bearer i30-hdr"),
        ["Bearer i30-hdr", "i30-hdr"]
    );
    assert_eq!(header_secrets("Accept", "text/plain"), Vec::<String>::new());
}

#[test]
fn many_secrets_are_cheap_to_add() {
    let mut r = Redactor::new();
    for i in 0..20_000 {
        r.add(format!("token-{i:06}"));
    }
    r.add("token-000001");
    assert_eq!(r.redact("a token-019999 b"), "a [redacted] b");
}

#[test]
fn masks_every_secret_longest_first() {
    let mut r = Redactor::new();
    r.add("hunter2");
    r.add("hunter2-extended");
    assert_eq!(
        r.redact("a hunter2 and hunter2-extended, ab"),
        "a [redacted] and [redacted], ab"
    );
}

#[test]
fn short_secrets_are_masked_where_they_stand_alone() {
    let mut r = Redactor::new();
    r.add("ab");
    r.add("7");
    r.add("");
    assert_eq!(
        r.redact("--token ab, about 17 ab: 7 x=7&y=ab"),
        "--token [redacted], about 17 [redacted]: [redacted] x=[redacted]&y=[redacted]"
    );
    assert_eq!(r.redact("abab"), "abab");
    let mut r = Redactor::new();
    r.add("+");
    assert_eq!(r.redact("a+b"), "a[redacted]b");
}

#[test]
fn a_cut_never_shows_a_secrets_beginning() {
    let mut r = Redactor::new();
    r.add("s3cr3t-value");
    assert_eq!(
        r.redact_cut("x s3cr3t-value y s3cr"),
        "x [redacted] y [redacted]"
    );
    assert_eq!(r.redact_cut("ends with s"), "ends with [redacted]");
    assert_eq!(r.redact_cut("nothing"), "nothing");
}

#[test]
fn secret_options_and_names() {
    for yes in [
        "--token",
        "--api-key",
        "--apiKey",
        "--api_key",
        "-password",
        "--client-secret",
        "--auth",
        "--authorization",
        "access_token",
        "key",
        "--github-token",
        "--pass",
        "X-Api-Key",
        "sig",
        // The kind word must end the name: these still hold the secret.
        "--mode-token",
        "--type-key",
        "AUTH_TYPE_TOKEN",
    ] {
        assert!(is_secret_name(yes), "{yes}");
    }
    for no in [
        "--port",
        "--verbose",
        "--keep-alive",
        "--author-name",
        "--monkey",
        "--stdio",
        // A setting about a secret holds a choice (stop 38, eks: `--auth-mode kube`).
        "--auth-mode",
        "--auth-type",
        "--token-type",
        "AUTH_METHOD",
        "--key-format",
    ] {
        assert!(!is_secret_name(no), "{no}");
    }
    let args = [
        "--token",
        "t0ken",
        "--port",
        "80",
        "--api-key=k3y-1",
        "--password",
        "",
        "-v",
        // Too short to be a secret (issue 30): not taken for one.
        "--key",
        "k3y",
    ];
    assert_eq!(
        secret_args(&args),
        vec!["t0ken".to_string(), "k3y-1".to_string()]
    );
}

#[test]
fn argument_shapes_give_their_secrets() {
    let args = [
        "env",
        "GITHUB_TOKEN=gh-value-1",
        "DEBUG=1",
        "docker",
        "-e",
        "MY_API_KEY=api-value-2",
        "--env=AWS_SECRET_ACCESS_KEY=aws-value-3",
        "--header",
        "Authorization: Bearer bearer-value-4",
        "-H",
        "X-Api-Key: header-value-5",
        "postgresql://user:pg-value-6@db.example/app",
        "https://api.example/v1?api_key=query-value-7&x=1",
        "-t",
        "short-t-value-8",
        "--pat",
        "pat-value-9",
        "--header=Authorization: Basic basic-value-10",
        "-t",
        "ab",
        "-p",
        "8080",
    ];
    let got = secret_args(&args);
    for want in [
        "gh-value-1",
        "api-value-2",
        "aws-value-3",
        "bearer-value-4",
        "Bearer bearer-value-4",
        "header-value-5",
        "pg-value-6",
        "query-value-7",
        "short-t-value-8",
        "pat-value-9",
        "basic-value-10",
    ] {
        assert!(got.iter().any(|g| g == want), "{want}: {got:?}");
    }
    for not in ["1", "ab", "8080", "user", "docker"] {
        assert!(!got.iter().any(|g| g == not), "{not}: {got:?}");
    }
}

#[test]
fn url_parameters_and_matrix_parameters() {
    let got = secrets_in_text("ws://h:1/mcp;token=t-01?code=c-02&jwt=j-03&session=s-04&n=5");
    for want in ["t-01", "c-02", "j-03", "s-04"] {
        assert!(got.iter().any(|g| g == want), "{want}: {got:?}");
    }
    assert!(!got.iter().any(|g| g == "5"), "{got:?}");
}

#[test]
fn secret_looking_environment_values() {
    let env = [
        ("GITHUB_TOKEN", "ghp-env-value"),
        ("ENABLE_AUTH", "1"),
        ("PATH", "/usr/bin:/bin"),
        ("PWD", "/home/someone/project"),
        ("SSH_AUTH_SOCK", "/tmp/ssh-XXXX/agent.1"),
        ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG"),
    ];
    assert_eq!(
        env_secrets(env),
        vec![
            "ghp-env-value".to_string(),
            "wJalrXUtnFEMI/K7MDENG".to_string()
        ]
    );
}

#[test]
fn known_token_shapes_are_masked_without_being_given() {
    let r = Redactor::new();
    for token in [
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
        "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
        "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
        "xoxb-123456789012-1234567890123-abcdefghij",
        "AKIAIOSFODNN7EXAMPLE",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ] {
        let text = format!("token {token}, and more");
        assert_eq!(r.redact(&text), "token [redacted], and more", "{token}");
    }
    for keep in [
        "task-sk-1",
        "sk-short",
        "AKIAIOSFODNN7EXAMPLEXX",
        "the ghp_ prefix",
        "eyJ.eyJ.x",
    ] {
        assert_eq!(r.redact(keep), keep);
    }
}

#[test]
fn a_setting_about_a_secret_is_no_secret_but_the_secret_still_is() {
    // stop 38, eks: `--auth-mode kube` masked `kube` in the server's `choose from 'iam',
    // 'kubeconfig'`; the token beside it must stay masked.
    let args = [
        "--auth-mode",
        "kube",
        "--auth",
        "kube-s3cret",
        "--token-type=bearer",
        "--api-token=t0ken-value",
        "--password",
        "hunter22",
    ];
    assert_eq!(
        secret_args(&args),
        vec![
            "kube-s3cret".to_string(),
            "t0ken-value".to_string(),
            "hunter22".to_string()
        ]
    );
}
