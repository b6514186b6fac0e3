//! docs/monitoring.md's Prometheus configuration and alerting rules, checked by Prometheus's
//! own `promtool` (Debian's `prometheus` package ships it; `.ci/run` installs it, and this test
//! fails when it is missing).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

/// The fenced block after the HTML comment `marker` in docs/monitoring.md.
pub fn block_after(marker: &str) -> String {
    let page = std::fs::read_to_string(root().join("docs/monitoring.md")).expect("the page");
    let after = page
        .split_once(&format!("<!-- {marker} -->"))
        .unwrap_or_else(|| panic!("no <!-- {marker} --> in docs/monitoring.md"))
        .1;
    let body = after.split_once("```yaml\n").expect("a yaml block").1;
    body.split_once("```").expect("its end").0.to_string()
}

/// A tool Prometheus ships, failing loudly when it is not installed.
pub fn prometheus_tool(name: &str) -> PathBuf {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join(name);
        if p.is_file() {
            return p;
        }
    }
    panic!("{name} is not on PATH: install Debian's `prometheus` package (apt-get install prometheus; .ci/run does)");
}

/// Write the rules and the configuration beside each other, as the page says.
pub fn written(dir: &Path) -> (PathBuf, PathBuf) {
    let rules = dir.join("mcpl-doctor.rules.yml");
    std::fs::write(&rules, block_after("prometheus-rules")).expect("rules");
    let config = dir.join("prometheus.yml");
    std::fs::write(&config, block_after("prometheus-config")).expect("config");
    (config, rules)
}

#[test]
fn the_pages_rules_and_scrape_config_pass_promtool_check() {
    let dir = tempfile::tempdir().expect("dir");
    let (config, rules) = written(dir.path());
    let promtool = prometheus_tool("promtool");
    let out = Command::new(&promtool)
        .args(["check", "rules"])
        .arg(&rules)
        .output()
        .expect("promtool runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("4 rules found"), "{said}");
    let out = Command::new(&promtool)
        .args(["check", "config"])
        .arg(&config)
        .output()
        .expect("promtool runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
}
