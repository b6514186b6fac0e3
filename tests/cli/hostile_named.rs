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

#[test]
fn man_out_replaces_a_link_never_its_target_and_refuses_a_fifo_at_once() {
    // Before: `man --out DIR` wrote through a link at `DIR/mcpl-doctor.1` (its target was
    // overwritten) and hung on a FIFO there.
    let dir = tempfile::tempdir().expect("a temp dir");
    let pages = dir.path().join("man1");
    std::fs::create_dir(&pages).expect("mkdir");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").expect("write");
    std::os::unix::fs::symlink(&victim, pages.join("mcpl-doctor.1")).expect("symlink");
    let mut man = bin();
    man.arg("man").arg("--out").arg(&pages);
    let (o, _) = bounded(man, Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
    let page = pages.join("mcpl-doctor.1");
    assert!(!std::fs::symlink_metadata(&page)
        .expect("stat")
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&page)
        .expect("read")
        .starts_with(".ie"));
    let left: Vec<_> = std::fs::read_dir(&pages)
        .expect("list")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");

    let fifo = pages.join("mcpl-doctor-probe.1");
    std::fs::remove_file(&fifo).expect("rm");
    mkfifo(&fifo);
    let mut man = bin();
    man.arg("man").arg("--out").arg(&pages);
    let (o, _) = bounded(man, Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("mcpl-doctor-probe.1") && err.contains("FIFO"),
        "{err}"
    );
}

/// `scripts/release.sh` with `--binary` (a small executable: only its copying is under test)
/// and `--out out` in `dir`, its temporary folders under `dir/tmp`.
fn release(dir: &std::path::Path, target: &str) -> std::process::Output {
    let binary = dir.join("mcpl-doctor-bin");
    if !binary.exists() {
        std::fs::write(&binary, "#!/bin/sh\n").expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::create_dir_all(dir.join("tmp")).expect("mkdir");
    }
    let mut c = std::process::Command::new("bash");
    c.arg(crate::support::root().join("scripts/release.sh"))
        .args(["--target", target, "--binary"])
        .arg(&binary)
        .arg("--out")
        .arg(dir.join("out"))
        .arg(env!("CARGO_PKG_VERSION"))
        .env("TMPDIR", dir.join("tmp"));
    bounded(c, Duration::from_secs(60)).0
}

#[test]
fn release_refuses_a_target_that_is_not_a_triple_and_writes_nothing_outside() {
    // Before: `--target x/../../../escaped` staged the release's files outside its stage, in
    // `escaped/`, and left them there.
    let dir = tempfile::tempdir().expect("a temp dir");
    let o = release(dir.path(), "x/../../../escaped");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a target triple"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("escaped").exists());
    assert!(!dir.path().join("out").exists());
    assert_eq!(
        std::fs::read_dir(dir.path().join("tmp"))
            .expect("ls")
            .count(),
        0
    );
}

#[test]
fn release_never_writes_through_a_link_planted_at_its_temporary_names() {
    // Before: the archive was written to the fixed name `out/.NAME.tar.gz.tmp`: a link planted
    // there had its target overwritten, and the link was then moved into place as the release.
    let dir = tempfile::tempdir().expect("a temp dir");
    let target = "x86_64-unknown-linux-gnu";
    let name = format!("mcpl-doctor-{}-{target}", env!("CARGO_PKG_VERSION"));
    let out = dir.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").expect("write");
    for planted in [
        format!(".{name}.tar.gz.tmp"),
        format!("{name}.tar.gz.sha256.tmp"),
        format!("{name}.tar.gz"),
    ] {
        std::os::unix::fs::symlink(&victim, out.join(planted)).expect("symlink");
    }
    let o = release(dir.path(), target);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
    let archive = out.join(format!("{name}.tar.gz"));
    let meta = std::fs::symlink_metadata(&archive).expect("the archive");
    assert!(meta.file_type().is_file(), "{meta:?}");
    let sum = std::fs::read_to_string(out.join(format!("{name}.tar.gz.sha256"))).expect("sum");
    assert!(sum.ends_with(&format!("  {name}.tar.gz\n")), "{sum}");
    let listed = std::process::Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .expect("tar runs");
    assert!(stdout(&listed).contains(&format!("{name}/mcpl-doctor")));
}
