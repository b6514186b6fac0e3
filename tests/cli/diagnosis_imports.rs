//! An import that fails inside a library (`import_rows.rs`), through the real binary: a
//! console script in a real venv (made here with `python3 -m venv --without-pip`) whose
//! library raises an `ImportError` naming the project split out of it (lxml 6.0's
//! `lxml.html.clean`; `fixtures/servers/libimport/`). The doctor asks the venv's own
//! interpreter which names it can import and names the install into that venv, by its path.
//! Look-alikes: the extra installed, the ImportError caught as an optional extra, the same
//! ImportError raised in the server's own file.
//!
//! And a library upgraded under the server (`drift_rows.rs`): `No module named 'a.b'` where the
//! venv's interpreter imports `a` (mcp 2.3.0 and `mcp.server.fastmcp`;
//! `fixtures/servers/libdrift/`): the package and the pin below its installed major.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{bin, evidence_texts, fixture, run_diagnoses, text_field};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixture") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A venv with the fixture's libraries (and the split-out project, `with_extra`), and the
/// server's console script in its `bin`.
fn venv(with_extra: bool) -> (tempfile::TempDir, PathBuf, String) {
    venv_of(
        "libimport",
        with_extra,
        "fixture-forager",
        "fixture_forager.cli",
    )
}

/// A venv with `servers/FIXTURE/site-packages` (and its `extra/`, `with_extra`) and the console
/// script `bin/SCRIPT` calling `MODULE.main`, as pip writes it.
fn venv_of(
    fixture_dir: &str,
    with_extra: bool,
    script_name: &str,
    module: &str,
) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("venv");
    let ok = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&root)
        .status()
        .expect("python3 runs");
    assert!(ok.success());
    let lib = std::fs::read_dir(root.join("lib"))
        .expect("lib")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("python"))
        })
        .expect("lib/pythonX.Y");
    let site = lib.join("site-packages");
    let libimport = fixture(&format!("servers/{fixture_dir}"));
    copy_dir(&libimport.join("site-packages"), &site);
    if with_extra {
        copy_dir(&libimport.join("extra"), &site);
    }
    let script = root.join("bin").join(script_name);
    std::fs::write(
        &script,
        format!(
            "#!{}/bin/python\nimport sys\nfrom {module} import main\nsys.exit(main())\n",
            root.display()
        ),
    )
    .expect("write the console script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let shown = script.display().to_string();
    (dir, root, shown)
}

fn probe(command: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.args([
        "probe",
        "--launches",
        "1",
        "--watch",
        "2s",
        "--handshake-timeout",
        "30s",
    ])
    .args(["--json", "--"])
    .args(command)
    .env_remove("FIXTURE_OPTIONAL")
    .env_remove("FIXTURE_IMPORT")
    .env_remove("FIXTURE_DRIFT")
    .env_remove("PYTHONPATH")
    .stdin(Stdio::null());
    cmd
}

#[test]
fn an_import_error_raised_in_a_library_names_the_install_into_its_venv() {
    let (_dir, root, script) = venv(false);
    let (code, d) = run_diagnoses(&mut probe(&[&script]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-dependency", "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(next.contains("`fixture_htmlkit_clean`"), "{next}");
    assert!(next.contains("`fixture_htmlkit[html-clean]`"), "{next}");
    assert!(next.contains(&root.display().to_string()), "{next}");
    let t = evidence_texts(&d[0], Some("tried"));
    assert!(
        t.iter().any(|x| x.contains("find_spec")
            && x.contains("fixture_htmlkit.clean found")
            && x.contains("fixture_htmlkit_clean missing")),
        "{t:?}"
    );
    // A library's own dependency missing (`No module named`): the table said to install the
    // dependencies "where it runs"; now the environment is named.
    let (code, d) = run_diagnoses(probe(&[&script]).env("FIXTURE_IMPORT", "missing"));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "missing-dependency", "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(next.contains("`fixture_missing_dep`"), "{next}");
    assert!(next.contains(&root.display().to_string()), "{next}");
    // The table's own `missing-dependency` is replaced, not shown beside it.
    let same = d.iter().filter(|x| x["id"] == "missing-dependency").count();
    assert_eq!(same, 1, "{d:#?}");
}

#[test]
fn an_import_error_caught_fixed_or_raised_in_the_servers_own_file_is_not_this_rows() {
    // The split-out project installed: it serves.
    let (_dir, _root, script) = venv(true);
    let (code, d) = run_diagnoses(&mut probe(&[&script]));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
    // Caught as an optional extra, logged, and it serves.
    let (_dir, _root, script) = venv(false);
    let (code, d) = run_diagnoses(probe(&[&script]).env("FIXTURE_OPTIONAL", "1"));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
    // The same ImportError raised in the server's own file: today's answer, no experiment.
    let (_dir, root, _) = venv(false);
    let python = root.join("bin").join("python").display().to_string();
    let own = fixture("servers/libimport/own.py").display().to_string();
    let (code, d) = run_diagnoses(&mut probe(&[&python, &own]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "crash", "{d:#?}");
    assert!(
        d.iter()
            .all(|x| evidence_texts(x, Some("tried")).is_empty()),
        "{d:#?}"
    );
}

#[test]
fn a_module_an_installed_library_lost_names_the_pin_below_its_major() {
    let (_dir, root, script) = venv_of("libdrift", false, "fixture-slides", "fixture_slides");
    // mcp 2's shim: the module is there and raises as it is imported; its message names the pin.
    let (code, d) = run_diagnoses(&mut probe(&[&script]));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "dependency-drift", "{d:#?}");
    let summary = text_field(&d[0], "summary");
    assert!(
        summary.starts_with(
            "`fixture_mcpkit` 2.3.0 is installed here and has no `fixture_mcpkit.server.fastmcp`"
        ),
        "{summary}"
    );
    let next = text_field(&d[0], "next_step");
    let pip = root.join("bin").join("pip").display().to_string();
    assert!(
        next.starts_with("pin `fixture_mcpkit<2` where the server runs"),
        "{next}"
    );
    // A venv without pip: uv's, with the venv's interpreter.
    assert!(!Path::new(&pip).exists());
    assert!(next.contains("'fixture_mcpkit<2'"), "{next}");
    assert!(next.contains(&root.display().to_string()), "{next}");
    let t = evidence_texts(&d[0], Some("tried"));
    assert!(
        t.iter()
            .any(|x| x.contains("find_spec: fixture_mcpkit found in")
                && x.contains("(fixture_mcpkit 2.3.0)")),
        "{t:?}"
    );
    assert!(d.iter().all(|x| x["id"] != "missing-dependency"), "{d:#?}");
    // openai 1.0's `embeddings_utils`: simply gone; the pin is below the installed major,
    // under the distribution's own name.
    let (code, d) = run_diagnoses(probe(&[&script]).env("FIXTURE_DRIFT", "gone"));
    assert_eq!(code, Some(1), "{d:#?}");
    assert_eq!(d[0]["id"], "dependency-drift", "{d:#?}");
    let next = text_field(&d[0], "next_step");
    assert!(
        next.starts_with("pin `fixture-openkit<1` where the server runs"),
        "{next}"
    );
}

#[test]
fn a_caught_import_a_package_not_installed_a_namespace_or_its_own_module_is_no_drift() {
    let (_dir, _root, script) = venv_of("libdrift", false, "fixture-slides", "fixture_slides");
    // Caught as an optional extra, logged: it serves.
    let (code, d) = run_diagnoses(probe(&[&script]).env("FIXTURE_DRIFT", "optional"));
    assert_eq!(code, Some(0), "{d:#?}");
    assert!(d.is_empty(), "{d:#?}");
    // The top package is not installed at all: an install, not a pin.
    for mode in ["absent", "namespace", "own"] {
        let (code, d) = run_diagnoses(probe(&[&script]).env("FIXTURE_DRIFT", mode));
        assert_eq!(code, Some(1), "{mode}: {d:#?}");
        assert!(
            d.iter().all(|x| x["id"] != "dependency-drift"),
            "{mode}: {d:#?}"
        );
        assert_eq!(d[0]["id"], "missing-dependency", "{mode}: {d:#?}");
    }
}
