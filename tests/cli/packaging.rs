//! What a release needs: changelog fragments named by the rule, the changelog script, the
//! licence file.

use std::process::Command;

use crate::support::root;

const KINDS: [&str; 5] = ["added", "changed", "fixed", "removed", "breaking"];

/// `<issue>-<slug>.<kind>.md`: issue digits, slug lowercase words joined by `-`.
fn follows_the_rule(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let Some((rest, kind)) = stem.rsplit_once('.') else {
        return false;
    };
    let Some((issue, slug)) = rest.split_once('-') else {
        return false;
    };
    KINDS.contains(&kind)
        && !issue.is_empty()
        && issue.bytes().all(|b| b.is_ascii_digit())
        && !slug.is_empty()
        && slug.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[test]
fn the_name_rule_accepts_and_refuses_what_the_readme_says() {
    assert!(follows_the_rule("2-simulate.added.md"));
    assert!(follows_the_rule("11-eighty-columns.changed.md"));
    for bad in [
        "simulate.added.md",
        "2-simulate.md",
        "2-simulate.added.txt",
        "2-Simulate.added.md",
        "2_simulate.added.md",
        "x2-simulate.fixed.md",
        "2-.added.md",
        "2-simulate.improved.md",
        "2-simulate--x.added.md",
    ] {
        assert!(!follows_the_rule(bad), "{bad} should not follow the rule");
    }
}

#[test]
fn every_changelog_fragment_follows_the_name_rule() {
    let dir = root().join("changelog.d");
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("changelog.d/") {
        let name = entry
            .expect("an entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name != "README.md" && !follows_the_rule(&name) {
            bad.push(name);
        }
    }
    assert!(
        bad.is_empty(),
        "changelog.d/ fragments must be named <issue>-<slug>.<added|changed|fixed|removed|breaking>.md: {bad:?}"
    );
}

#[test]
fn the_changelog_script_collects_the_fragments_by_kind() {
    let tmp = tempfile::tempdir().expect("a temp dir");
    let scripts = tmp.path().join("scripts");
    let fragments = tmp.path().join("changelog.d");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::create_dir_all(&fragments).unwrap();
    std::fs::copy(
        root().join("scripts/changelog.sh"),
        scripts.join("changelog.sh"),
    )
    .unwrap();
    std::fs::write(fragments.join("README.md"), "the rule\n").unwrap();
    std::fs::write(fragments.join("12-sarif.added.md"), "SARIF output.\n").unwrap();
    std::fs::write(
        fragments.join("9-verdict.fixed.md"),
        "The verdict\nnames the rule.\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("CHANGELOG.md"),
        "# Changelog\n\n## 0.1.0 (2026-11-01)\n\nFirst.\n",
    )
    .unwrap();

    let out = Command::new("bash")
        .arg(scripts.join("changelog.sh"))
        .args(["0.2.0", "2026-12-01"])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let changelog = std::fs::read_to_string(tmp.path().join("CHANGELOG.md")).unwrap();
    assert_eq!(
        changelog,
        "# Changelog\n\n## 0.2.0 (2026-12-01)\n\n### Added\n\n- SARIF output. (issue 12)\n\n\
         ### Fixed\n\n- The verdict\n  names the rule. (issue 9)\n\n## 0.1.0 (2026-11-01)\n\nFirst.\n"
    );
    let left: Vec<_> = std::fs::read_dir(&fragments)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("README.md")],
        "the fragments are consumed"
    );

    // A badly named fragment stops it before anything changes.
    std::fs::write(fragments.join("oops.md"), "x\n").unwrap();
    let out = Command::new("bash")
        .arg(scripts.join("changelog.sh"))
        .args(["0.3.0", "2026-12-02"])
        .output()
        .expect("bash runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("changelog.d/oops.md does not follow"));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("CHANGELOG.md")).unwrap(),
        changelog
    );
}

#[test]
fn the_licence_file_is_the_one_cargo_toml_names() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("\nlicense = \"MIT\"\n"),
        "Cargo.toml's licence changed: update LICENSE and this test"
    );
    let licence = std::fs::read_to_string(root().join("LICENSE")).expect("a LICENSE file");
    assert!(licence.starts_with("MIT License\n"));
    assert!(licence.contains("Permission is hereby granted, free of charge"));
}

/// `scripts/release.sh` packages this build for this machine's target: one top folder named
/// like the archive holding the binary, README.md, LICENSE, every completion and man page; a
/// `sha256sum` file beside it that checks; the packaged binary runs. Then the action's
/// installer (`scripts/ci-install.sh`) fetches that archive from a releases folder, checks the
/// sum and puts a working binary where it is told.
#[test]
fn the_release_archive_has_the_documented_layout_and_installs() {
    let out = tempfile::tempdir().expect("a temp dir");
    let version = env!("CARGO_PKG_VERSION");
    let target = String::from_utf8_lossy(
        &Command::new("rustc")
            .arg("-vV")
            .output()
            .expect("rustc runs")
            .stdout,
    )
    .lines()
    .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
    .expect("rustc names its host");
    // The test build stripped, as a release build is (100 MB of debug info would take most of
    // the test's time to compress).
    let binary = out.path().join("mcpl-doctor-stripped");
    let stripped = Command::new("strip")
        .arg("-o")
        .arg(&binary)
        .arg(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .status()
        .expect("this test needs strip (binutils) on PATH");
    assert!(stripped.success(), "strip failed");
    let made = Command::new("bash")
        .arg(root().join("scripts/release.sh"))
        .arg("--binary")
        .arg(&binary)
        .arg("--out")
        .arg(out.path())
        .arg(version)
        .output()
        .expect("bash runs");
    assert!(
        made.status.success(),
        "release.sh failed: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let name = format!("mcpl-doctor-{version}-{target}");
    let archive = out.path().join(format!("{name}.tar.gz"));
    assert!(archive.is_file(), "no {}", archive.display());

    let listed = Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .expect("tar runs");
    let mut entries: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    entries.sort();
    let mut expected = vec![
        name.clone(),
        format!("{name}/mcpl-doctor"),
        format!("{name}/README.md"),
        format!("{name}/LICENSE"),
        format!("{name}/completions"),
        format!("{name}/man"),
    ];
    for dir in ["completions", "man"] {
        for e in std::fs::read_dir(root().join(dir)).expect("the folder") {
            let file = e
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if dir == "completions" || file.ends_with(".1") {
                expected.push(format!("{name}/{dir}/{file}"));
            }
        }
    }
    expected.sort();
    assert_eq!(entries, expected, "the archive's layout");

    let sum = Command::new("sha256sum")
        .args(["-c", &format!("{name}.tar.gz.sha256")])
        .current_dir(out.path())
        .output()
        .expect("sha256sum runs");
    assert!(
        sum.status.success(),
        "the checksum file does not check: {:?}",
        sum
    );

    // The action's installer, from a releases folder.
    let bin = out.path().join("bin");
    let installed = Command::new("bash")
        .arg(root().join("scripts/ci-install.sh"))
        .env("INPUT_VERSION", version)
        .env("RELEASE_BASE", format!("file://{}", out.path().display()))
        .env("TARGET", &target)
        .env("INSTALL_DIR", &bin)
        .env_remove("GITHUB_PATH")
        .output()
        .expect("bash runs");
    assert!(
        installed.status.success(),
        "ci-install.sh failed: {}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let v = Command::new(bin.join("mcpl-doctor"))
        .arg("--version")
        .output()
        .expect("it runs");
    assert_eq!(
        String::from_utf8_lossy(&v.stdout).trim(),
        format!("mcpl-doctor {version}")
    );

    // A tampered archive is refused.
    std::fs::write(&archive, b"not the archive").expect("write");
    let refused = Command::new("bash")
        .arg(root().join("scripts/ci-install.sh"))
        .env("INPUT_VERSION", version)
        .env("RELEASE_BASE", format!("file://{}", out.path().display()))
        .env("TARGET", &target)
        .env("INSTALL_DIR", out.path().join("bin2"))
        .output()
        .expect("bash runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("does not match its published checksum")
    );
    assert!(!out.path().join("bin2/mcpl-doctor").exists());
}

/// `-h`/`--help` on every script prints its usage, exits 0 and changes nothing (the changelog
/// script once took `--help` as a version and deleted every fragment); the changelog script
/// refuses a version that is not semver, changing nothing.
#[test]
fn every_script_answers_help_and_changes_nothing() {
    let mut scripts = Vec::new();
    for dir in ["scripts", "scripts/bench"] {
        for e in std::fs::read_dir(root().join(dir)).expect("the folder") {
            let p = e.expect("an entry").path();
            if p.extension().is_some_and(|x| x == "sh" || x == "py") {
                scripts.push(p);
            }
        }
    }
    assert!(scripts.len() >= 10, "found only {} scripts", scripts.len());
    let status = || {
        Command::new("git")
            .args(["status", "--porcelain", "--untracked-files=all"])
            .current_dir(root())
            .output()
            .expect("git runs")
            .stdout
    };
    let before = status();
    for s in &scripts {
        let interpreter = if s.extension().is_some_and(|x| x == "py") {
            "python3"
        } else {
            "bash"
        };
        for flag in ["-h", "--help"] {
            let o = Command::new(interpreter)
                .arg(s)
                .arg(flag)
                .output()
                .expect("it runs");
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(
                o.status.success(),
                "{} {flag}: exit {:?}",
                s.display(),
                o.status
            );
            assert!(
                text.lines().count() >= 1 && text.len() > 20,
                "{} {flag} printed no usage",
                s.display()
            );
        }
    }
    for bad in ["--bogus", "v1.0", "1.0", "next"] {
        let o = Command::new("bash")
            .arg(root().join("scripts/changelog.sh"))
            .arg(bad)
            .output()
            .expect("bash runs");
        assert_eq!(o.status.code(), Some(2), "changelog.sh {bad}");
    }
    assert_eq!(
        String::from_utf8_lossy(&before),
        String::from_utf8_lossy(&status()),
        "a script changed the checkout"
    );
}

/// The install line and the action's default follow what is published. Nothing is published
/// while `Cargo.toml` names no `repository` and no `CHANGELOG.md` has been cut (`changelog.sh`
/// writes it for a release): then the README says to build from the clone and claims no
/// binary, and the action compiles by default. Once a release exists, the README offers its
/// binaries and the action downloads them by default.
#[test]
fn the_readme_and_the_action_say_what_is_published() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let published = manifest
        .lines()
        .any(|l| l.trim_start().starts_with("repository ="))
        || root().join("CHANGELOG.md").exists();
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let install: String = readme
        .lines()
        .skip_while(|l| *l != "## Install")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect::<Vec<_>>()
        .join("\n");
    let action = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    let compile_default = action
        .lines()
        .skip_while(|l| *l != "  compile:")
        .find_map(|l| l.trim().strip_prefix("default:"))
        .map(|d| d.trim().trim_matches('"').to_string())
        .expect("action.yml has a `compile` input with a default");
    if published {
        assert!(
            install.contains("cargo binstall mcpl-doctor"),
            "a release exists: the README's Install offers its binaries\n{install}"
        );
        assert_eq!(
            compile_default, "false",
            "a release exists: the action downloads it"
        );
    } else {
        assert!(
            install.contains("`cargo install --locked --path .`"),
            "{install}"
        );
        assert!(install.contains("Nothing is published yet"), "{install}");
        assert!(
            !readme.contains("binstall"),
            "nothing is published: the README must not offer `cargo binstall`"
        );
        assert_eq!(
            compile_default, "true",
            "nothing is published: the action must compile by default"
        );
        let release = std::fs::read_to_string(root().join("docs/release.md")).expect("release.md");
        assert!(
            release.contains("No release has been published yet"),
            "docs/release.md says so too"
        );
    }
}
