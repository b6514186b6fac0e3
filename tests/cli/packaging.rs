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
