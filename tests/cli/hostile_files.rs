//! Hostile paths and streams, round 3 (issue 21 items 3, 4, 6 and 10): outputs that are links,
//! inputs, FIFOs or devices; globs through symlink loops, FIFOs, unreadable folders and dangling
//! links; an endless standard input under `--stdin-filename`; help and version into a closed or
//! full stdout. Every run is under a time bound.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, stderr, stdout};

/// Run `cmd` to its end within `bound` (killed and failed past it), sampling its peak memory.
pub(crate) fn bounded(mut cmd: Command, bound: Duration) -> (Output, u64) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let t = Instant::now();
    let mut child = cmd.spawn().expect("the binary runs");
    let pid = child.id();
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let mut peak_kb = 0;
    let status = loop {
        if let Some(kb) = vm_hwm_kb(pid) {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(s) = child.try_wait().expect("try_wait") {
            break s;
        }
        if t.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {bound:?} (peak {peak_kb} KB)");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    };
    (output, peak_kb)
}

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

// ---------------------------------------------------------------------------------------------
// Item 6: `--stdin-filename` keeps the input cap.

#[test]
fn an_endless_stdin_under_a_file_name_is_refused_at_the_cap() {
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut cmd = bin();
    cmd.args(["check-config", "--stdin-filename", "mcp.json", "-"])
        .stdin(zero);
    let (o, peak_kb) = bounded(cmd, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("mcp.json: larger than 256 MiB"),
        "{}",
        stderr(&o)
    );
    assert!(peak_kb < 300 * 1024, "peak {peak_kb} KB");
}

// ---------------------------------------------------------------------------------------------
// Item 10: help and version into a closed or full stdout.

#[test]
fn help_and_version_into_a_closed_or_full_stdout_never_panic() {
    let exe = env!("CARGO_BIN_EXE_mcpl-doctor");
    for args in ["--help", "--version", "probe --help", "help check-config"] {
        // A full disk: said on stderr, exit 2.
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >/dev/full"))
            .arg(exe)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args} full: {err}");
        assert!(!err.contains("panicked"), "{args} full: {err}");
        assert!(
            err.contains("cannot write to standard output: No space left"),
            "{args} full: {err}"
        );
        // A pipe whose reader is gone: quietly, exit 0.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let o = bin()
            .args(args.split(' '))
            .stdin(Stdio::null())
            .stdout(writer)
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(0), "{args} closed: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args} closed");
        // No standard output at all.
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&-"))
            .arg(exe)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        assert!(!stderr(&o).contains("panicked"), "{args}: {}", stderr(&o));
        assert!(matches!(o.status.code(), Some(0 | 2)), "{args}: {o:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Item 3: outputs are never written through a link, onto an input, or into a FIFO or device.

pub(crate) fn mkfifo(path: &std::path::Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", path.display());
}

const CONFIG: &str = r#"{"mcpServers": {"a": {"command": "node", "args": ["server.mjs"]}}}"#;

#[test]
fn an_output_that_is_a_link_replaces_the_link_never_its_target() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    std::fs::write(repo.join(".mcp.json"), CONFIG).expect("write");
    let victim = dir.path().join("victim");
    for (i, args) in [
        vec!["check-config", "--output", "sarif=mcpl-doctor.sarif", "."],
        vec!["simulate", "--report", "mcpl-doctor.sarif"],
        vec!["simulate", "--svg", "mcpl-doctor.sarif"],
    ]
    .into_iter()
    .enumerate()
    {
        std::fs::write(&victim, "precious").expect("write");
        let link = repo.join("mcpl-doctor.sarif");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("../victim", &link).expect("symlink");
        let (o, _) = bounded(
            {
                let mut c = bin();
                c.args(&args).current_dir(&repo).stdin(Stdio::null());
                c
            },
            Duration::from_secs(30),
        );
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{i}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read_to_string(&victim).expect("read"),
            "precious",
            "{args:?}"
        );
        let m = std::fs::symlink_metadata(&link).expect("stat");
        assert!(m.file_type().is_file(), "{args:?}: the link was replaced");
        assert!(m.len() > 0);
    }
    // The composite action's script, with its SARIF path a link out of the checkout.
    std::fs::write(&victim, "precious").expect("write");
    let link = repo.join("mcpl-doctor.sarif");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("../victim", &link).expect("symlink");
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_mcpl-doctor"));
    let path = format!(
        "{}:{}",
        exe.parent().expect("a folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .arg(crate::support::root().join("scripts/ci-check-config.sh"))
        .current_dir(&repo)
        .env("PATH", path)
        .env("INPUT_PATHS", ".")
        .env("INPUT_SARIF", "mcpl-doctor.sarif")
        .env_remove("GITHUB_OUTPUT")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
    assert!(std::fs::read_to_string(&link)
        .expect("read")
        .contains("\"version\": \"2.1.0\""));
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = dir.path().join(".mcp.json");
    std::fs::write(&config, CONFIG).expect("write");
    for out in [".mcp.json", "./.mcp.json", "../x/../"] {
        let out = if out == "../x/../" {
            // The same file by another path.
            format!(
                "../{}/.mcp.json",
                dir.path().file_name().expect("a name").to_string_lossy()
            )
        } else {
            out.to_string()
        };
        let (o, _) = bounded(
            {
                let mut c = bin();
                c.args(["check-config", "--output"])
                    .arg(format!("json={out}"))
                    .arg(".mcp.json")
                    .current_dir(dir.path())
                    .stdin(Stdio::null());
                c
            },
            Duration::from_secs(30),
        );
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is one of the inputs"),
            "{out}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&config).expect("read"), CONFIG);
    }
    // probe --config FILE --report FILE.
    let (o, _) = bounded(
        {
            let mut c = bin();
            c.args(["probe", "--config", ".mcp.json", "--server", "a"])
                .args(["--launches", "1", "--report", ".mcp.json"])
                .current_dir(dir.path())
                .stdin(Stdio::null());
            c
        },
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is one of the inputs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&config).expect("read"), CONFIG);
}

#[test]
fn an_output_that_is_a_fifo_or_a_device_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let fifo = dir.path().join("report.html");
    mkfifo(&fifo);
    let null_link = dir.path().join("null.svg");
    std::os::unix::fs::symlink("/dev/null", &null_link).expect("symlink");
    for (flag, path, what) in [
        ("--report", &fifo, "is a FIFO"),
        ("--svg", &null_link, "is a device"),
    ] {
        let (o, _) = bounded(
            {
                let mut c = bin();
                c.arg("simulate").arg(flag).arg(path).stdin(Stdio::null());
                c
            },
            Duration::from_secs(10),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(what), "{}", stderr(&o));
    }
    let (o, _) = bounded(
        {
            let mut c = bin();
            c.args(["check-config", "--output"])
                .arg(format!("sarif={}", fifo.display()))
                .arg(crate::support::fixture("configs"))
                .stdin(Stdio::null());
            c
        },
        Duration::from_secs(10),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a FIFO"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------------
// Item 4: globs and folder searches through symlink loops, FIFOs, dangling links and unreadable
// folders. Each run is bounded: before, two links looping hung with memory growing, and a FIFO
// matched by a glob blocked forever.

/// `check-config --format json ARGS` run from `cwd`, within 60 s.
fn check_config_in(cwd: &std::path::Path, args: &[&str]) -> (Output, serde_json::Value) {
    let mut cmd = bin();
    cmd.current_dir(cwd)
        .args(["check-config", "--format", "json"])
        .args(args)
        .stdin(Stdio::null());
    let (o, peak_kb) = bounded(cmd, Duration::from_secs(60));
    assert!(peak_kb < 100 * 1024, "peak {peak_kb} KB");
    let doc = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (o, doc)
}

/// The files a `check-config --format json` document reports on, in order.
fn files_of(doc: &serde_json::Value) -> Vec<String> {
    doc["files"]
        .as_array()
        .unwrap_or_else(|| panic!("no files in {doc}"))
        .iter()
        .map(|f| f["file"].as_str().expect("file").to_string())
        .collect()
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn symlink(target: &str, link: &std::path::Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[test]
fn a_glob_through_a_symlink_loop_of_one_link_reads_each_file_once() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    write(&root.join("repo/.vscode/mcp.json"), CONFIG);
    write(&root.join("repo/sub/mcp.json"), CONFIG);
    // repo/sub/again -> .. : `**` through it would see repo/ again and again (41 times).
    symlink("..", &root.join("repo/sub/again"));
    let note = "note: repo/sub/again: a symbolic link to a folder; not followed";
    for pattern in ["repo/**/mcp.json", "repo/*/mcp.json"] {
        let (o, doc) = check_config_in(root, &[pattern]);
        assert_eq!(o.status.code(), Some(0), "{pattern}: {}", stderr(&o));
        assert_eq!(files_of(&doc), ["repo/sub/mcp.json"], "{pattern}");
        // `**` passes the link over, and says so.
        assert_eq!(
            stderr(&o).contains(note),
            pattern.contains("**"),
            "{pattern}: {}",
            stderr(&o)
        );
    }
    // A folder argument does not enter the link either (and says so); `.vscode` is searched.
    let (o, doc) = check_config_in(root, &["repo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        files_of(&doc),
        ["repo/.vscode/mcp.json", "repo/sub/mcp.json"]
    );
    assert!(stderr(&o).contains(note), "{}", stderr(&o));
    // A one-name wildcard follows the link as shells do: the pattern bounds the depth.
    let (o, doc) = check_config_in(root, &["repo/*/*/*/mcp.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files_of(&doc), ["repo/sub/again/sub/mcp.json"]);
}

#[test]
fn a_glob_through_a_loop_of_two_links_ends_and_reads_each_file_once() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    write(&root.join("a/mcp.json"), CONFIG);
    write(&root.join("b/mcp.json"), CONFIG);
    symlink("../b", &root.join("a/to-b"));
    symlink("../a", &root.join("b/to-a"));
    let (o, doc) = check_config_in(root, &["**/mcp.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files_of(&doc), ["a/mcp.json", "b/mcp.json"]);
    for link in ["a/to-b", "b/to-a"] {
        let note = format!("note: {link}: a symbolic link to a folder; not followed");
        assert!(stderr(&o).contains(&note), "{}", stderr(&o));
    }
    // Through the links one name at a time, as a shell expands it; each file once.
    let (_, doc) = check_config_in(root, &["*/*/*/mcp.json"]);
    assert_eq!(
        files_of(&doc),
        ["a/to-b/to-a/mcp.json", "b/to-a/to-b/mcp.json"]
    );
    // The same file by two names (a link given, and its target) is read once.
    let (_, doc) = check_config_in(root, &["a/mcp.json", "b/to-a/mcp.json"]);
    assert_eq!(files_of(&doc), ["a/mcp.json"]);
}

#[test]
fn a_fifo_matched_by_a_glob_or_found_in_a_folder_is_never_opened_and_said() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    write(&root.join("ok/mcp.json"), CONFIG);
    std::fs::create_dir_all(root.join("pipe")).expect("mkdir");
    // Opening it to read would block until a writer comes: none ever does.
    mkfifo(&root.join("pipe/mcp.json"));
    // A folder argument's paths start with the folder as given (`./`).
    for (args, prefix) in [
        (vec!["*/mcp.json"], ""),
        (vec!["**/mcp.json"], ""),
        (vec!["*/mcp.js[o]n"], ""),
        (vec!["."], "./"),
    ] {
        let (o, doc) = check_config_in(root, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(files_of(&doc), [format!("{prefix}ok/mcp.json")], "{args:?}");
        let note = format!(
            "note: {prefix}pipe/mcp.json: a FIFO (named pipe), not a file; skipped (reading it \
             could block)"
        );
        assert!(stderr(&o).contains(&note), "{args:?}: {}", stderr(&o));
    }
    // A glob that matches the FIFO alone matches no file to read.
    let (o, _) = check_config_out(root, &["pipe/*.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a FIFO (named pipe)"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pipe/*.json: no file matches this pattern"),
        "{}",
        stderr(&o)
    );
}

/// `check-config ARGS` run from `cwd` within 60 s, for runs whose stdout is not a document.
fn check_config_out(cwd: &std::path::Path, args: &[&str]) -> (Output, u64) {
    let mut cmd = bin();
    cmd.current_dir(cwd)
        .arg("check-config")
        .args(args)
        .stdin(Stdio::null());
    bounded(cmd, Duration::from_secs(60))
}

#[test]
fn a_dangling_host_file_link_is_said_not_silently_skipped() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    write(&root.join("ok/mcp.json"), CONFIG);
    std::fs::create_dir_all(root.join("gone")).expect("mkdir");
    symlink("../nowhere/mcp.json", &root.join("gone/mcp.json"));
    for (args, prefix) in [(vec!["**/mcp.json"], ""), (vec!["."], "./")] {
        let (o, doc) = check_config_in(root, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(files_of(&doc), [format!("{prefix}ok/mcp.json")], "{args:?}");
        let note = format!(
            "note: {prefix}gone/mcp.json: a symbolic link to a file that does not exist; skipped"
        );
        assert!(stderr(&o).contains(&note), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn an_unreadable_folder_is_said_not_silently_skipped() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    write(&root.join("ok/mcp.json"), CONFIG);
    write(&root.join("locked/mcp.json"), CONFIG);
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    mode(&root.join("locked"), 0o000);
    // Root reads a chmod 000 folder: as root, the check runs as `nobody` (setpriv, from
    // util-linux), for whom the rest of the tree must be open.
    let root_user = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    };
    if root_user {
        mode(root, 0o755);
        let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
        if !setpriv {
            mode(&root.join("locked"), 0o755);
        }
        assert!(
            setpriv,
            "running as root, this test needs setpriv (util-linux) to look as `nobody`: a chmod 000 folder is readable to root"
        );
    }
    for (args, prefix) in [(vec!["**/mcp.json"], ""), (vec!["."], "./")] {
        let mut cmd = if root_user {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_mcpl-doctor"));
            c
        } else {
            bin()
        };
        cmd.current_dir(root)
            .env("TERM", "dumb")
            .args(["check-config", "--format", "json"])
            .args(&args)
            .stdin(Stdio::null());
        let (o, _) = bounded(cmd, Duration::from_secs(60));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&o)));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(files_of(&doc), [format!("{prefix}ok/mcp.json")], "{args:?}");
        let note = format!("note: {prefix}locked: cannot read this folder (Permission denied");
        assert!(stderr(&o).contains(&note), "{args:?}: {}", stderr(&o));
    }
    mode(&root.join("locked"), 0o755);
}

#[test]
fn a_fifo_given_by_name_is_never_waited_on_and_a_pipe_with_a_writer_is_read() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    mkfifo(&root.join("mcp.json"));
    // No program ever writes to it: before, opening it blocked forever.
    let (o, _) = check_config_out(root, &["mcp.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "mcp.json: a FIFO (named pipe) that no program writes to; not read (reading it would \
             block)"
        ),
        "{}",
        stderr(&o)
    );
    // `<(command)` is a pipe too, with a writer: it is read whole.
    write(&root.join("real.json"), CONFIG);
    let mut cmd = Command::new("bash");
    cmd.current_dir(root)
        .args([
            "-c",
            r#""$0" check-config --format json <(cat real.json)"#,
            env!("CARGO_BIN_EXE_mcpl-doctor"),
        ])
        .stdin(Stdio::null());
    let (o, _) = bounded(cmd, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&o)));
    assert_eq!(doc["files"].as_array().map(Vec::len), Some(1), "{doc}");
}
