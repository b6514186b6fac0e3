//! Issue 30: nothing a configuration, a path or a dying server can do makes the probe hang,
//! blow up, leak or hit a stranger. Files a configuration names (an `envFile`), the man pages'
//! folder, and the release script's paths; every run under a time bound.

use std::time::Duration;

use crate::hostile_files::{bounded, mkfifo};
use crate::support::{bin, server_mjs, stderr, stdout};

/// A VS Code file whose entries `z` and `f` name `/dev/zero` and a FIFO as their `envFile`,
/// beside a healthy `ok`.
fn hostile_env_files(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join(".vscode")).expect("mkdir");
    mkfifo(&dir.join("fifo"));
    std::fs::write(
        dir.join("big.env"),
        "A=".to_string() + &"x".repeat(300 * 1024),
    )
    .expect("write");
    let entry = |env_file: &str| {
        serde_json::json!({"type": "stdio", "command": "node", "args": [server_mjs()],
                           "envFile": env_file})
    };
    let doc = serde_json::json!({"servers": {
        "z": entry("/dev/zero"),
        "f": entry("${workspaceFolder}/fifo"),
        "big": entry("${workspaceFolder}/big.env"),
        "ok": {"type": "stdio", "command": "node", "args": [server_mjs()]},
    }});
    let path = dir.join(".vscode/mcp.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

#[test]
fn an_env_file_that_is_a_device_a_fifo_or_huge_is_refused_by_name_and_the_others_run() {
    // Before: `"envFile": "/dev/zero"` grew the probe to 1.5 GB in 2 s, a FIFO hung it before
    // it printed anything, whatever entry was asked for.
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = hostile_env_files(dir.path());
    let probe = |server: &str| {
        let mut c = bin();
        c.current_dir(dir.path())
            .args(["probe", "--config"])
            .arg(&config)
            .args(["--server", server, "--launches", "1", "--watch", "300ms"]);
        bounded(c, Duration::from_secs(60))
    };
    for (server, said) in [
        ("big", "which holds more than 256 KiB"),
        ("f", "which is a FIFO (named pipe), not a regular file"),
        ("z", "which is a device, not a regular file"),
    ] {
        let (o, peak_kb) = probe(server);
        assert_eq!(o.status.code(), Some(2), "{server}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("server \"{server}\"")) && err.contains("`envFile`"),
            "{err}"
        );
        assert!(err.contains(said), "{server}: {err}");
        assert!(peak_kb < 100_000, "{server}: peak {peak_kb} KB");
    }
    let (o, peak_kb) = probe("ok");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(peak_kb < 100_000, "peak {peak_kb} KB");
    let mut all = bin();
    all.current_dir(dir.path())
        .args(["probe", "--config"])
        .arg(&config)
        .args(["--all", "--launches", "1", "--watch", "300ms"]);
    let (o, _) = bounded(all, Duration::from_secs(90));
    let out = stdout(&o);
    assert!(out.contains("Not probed"), "{out}");
    assert!(out.contains("ok"), "{out}");
    // And check-config says the same, at once.
    let mut check = bin();
    check.args(["check-config"]).arg(&config);
    let (o, _) = bounded(check, Duration::from_secs(20));
    let out = stdout(&o);
    assert_eq!(out.matches("error[env-file-missing]").count(), 3, "{out}");
    assert!(out.contains("is a FIFO (named pipe)"), "{out}");
}
