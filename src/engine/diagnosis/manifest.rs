//! The manifests the experiments read, bounded and read-only: the package a Node launch runs
//! (the script's, the bin's, npx's cache), its `engines.node` and its dependencies'.

use std::path::{Path, PathBuf};

use super::model::Setting;

/// The most bytes of one manifest read.
const MAX_MANIFEST: u64 = 256 * 1024;

/// The most dependencies whose manifests are read.
const MAX_DEPENDENCIES: usize = 64;

/// A package's manifest, when it is at most [`MAX_MANIFEST`] bytes of JSON.
pub(crate) fn read(path: &Path) -> Option<serde_json::Value> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return None;
    }
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The folder of the package that holds `file`: the nearest folder above it with a
/// `package.json` that has a `name` (at most 8 folders up).
pub(crate) fn package_of(file: &Path) -> Option<PathBuf> {
    file.ancestors().skip(1).take(8).find_map(|d| {
        let v = read(&d.join("package.json"))?;
        v["name"].as_str().map(|_| d.to_path_buf())
    })
}

/// The program `cmd` names: itself when it is a path, else the first match on `path`.
pub(crate) fn resolve(cmd: &str, path: Option<&str>) -> Option<PathBuf> {
    if cmd.contains('/') {
        return Some(PathBuf::from(cmd));
    }
    std::env::split_paths(path?)
        .map(|d| d.join(cmd))
        .find(|p| p.is_file())
}

/// The folder of the Node package a launch runs: the script of `node SCRIPT`, the target of
/// a bin (`node_modules/.bin/x` is a link into its package), or `found` (npx's cache).
pub(crate) fn launched_package(s: &Setting, found: Option<PathBuf>) -> Option<PathBuf> {
    if let Some(dir) = found {
        return Some(dir);
    }
    let cmd = s.command.as_deref()?;
    let base = cmd.rsplit('/').next()?;
    let cwd = s.cwd.clone().or_else(|| std::env::current_dir().ok());
    let file = if base == "node" || base == "nodejs" {
        let script = s.args.iter().find(|a| !a.starts_with('-'))?;
        let p = PathBuf::from(script);
        match (&cwd, p.is_relative()) {
            (Some(c), true) => c.join(p),
            _ => p,
        }
    } else {
        let path = s.path.clone().or_else(|| std::env::var("PATH").ok());
        resolve(cmd, path.as_deref())?
    };
    let real = std::fs::canonicalize(file).ok()?;
    let in_node = base == "node"
        || base == "nodejs"
        || real.components().any(|c| c.as_os_str() == "node_modules");
    in_node.then(|| package_of(&real)).flatten()
}

/// One `engines.node` requirement: the package that states it, its manifest, the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Engine {
    pub package: String,
    pub manifest: PathBuf,
    pub range: String,
}

/// Where Node would find `name` from `dir`: `dir/node_modules/name`, then each folder above.
fn dependency_dir(dir: &Path, name: &str) -> Option<PathBuf> {
    dir.ancestors()
        .take(8)
        .map(|d| d.join("node_modules").join(name))
        .find(|p| p.join("package.json").is_file())
}

/// The `engines.node` the package in `dir` states, if any.
pub(crate) fn engine_at(dir: &Path) -> Option<Engine> {
    engine_of(dir)?.1
}

fn engine_of(dir: &Path) -> Option<(serde_json::Value, Option<Engine>)> {
    let manifest = dir.join("package.json");
    let v = read(&manifest)?;
    let range = v["engines"]["node"].as_str().map(str::to_string);
    let package = v["name"].as_str().unwrap_or_default().to_string();
    let e = range.map(|range| Engine {
        package,
        manifest,
        range,
    });
    Some((v, e))
}

/// The `engines.node` of the package in `dir`, of the packages `first` names (the failing
/// frame's), then of its dependencies (at most [`MAX_DEPENDENCIES`]), in that order.
pub(crate) fn engines(dir: &Path, first: &[String]) -> Vec<Engine> {
    let Some((v, own)) = engine_of(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Engine> = own.into_iter().collect();
    let deps: Vec<String> = v["dependencies"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for name in first
        .iter()
        .chain(deps.iter())
        .take(MAX_DEPENDENCIES + first.len())
    {
        if out.iter().any(|e| &e.package == name) {
            continue;
        }
        if let Some(Some(e)) = dependency_dir(dir, name).and_then(|d| engine_of(&d).map(|x| x.1)) {
            out.push(e);
        }
    }
    out
}

/// The packages the stack frames of `lines` run in (`.../node_modules/undici/lib/x.js`,
/// `node_modules/@scope/pkg/...`), innermost first.
pub(crate) fn frame_packages(lines: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in lines {
        let Some(at) = l.rfind("node_modules/") else {
            continue;
        };
        let rest = &l[at + "node_modules/".len()..];
        let mut parts = rest.split('/');
        let name = match parts.next() {
            Some(scope) if scope.starts_with('@') => match parts.next() {
                Some(n) => format!("{scope}/{n}"),
                None => continue,
            },
            Some(n) if !n.is_empty() && n != ".bin" => n.to_string(),
            _ => continue,
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The lowest version `range` allows, when `running` (`v18.20.8`) is below it: the version
/// to install.
pub(crate) fn needs_newer(range: &str, running: &str) -> Option<String> {
    let r = node_semver::Range::parse(range).ok()?;
    let v = node_semver::Version::parse(running.trim().trim_start_matches('v')).ok()?;
    if r.satisfies(&v) {
        return None;
    }
    let min = r.min_version()?;
    (min > v).then(|| min.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_says_whether_the_running_node_is_too_old() {
        assert_eq!(needs_newer(">=20", "v18.20.8").as_deref(), Some("20.0.0"));
        assert_eq!(
            needs_newer("^20.19.0 || >=22.12.0", "v18.20.8").as_deref(),
            Some("20.19.0")
        );
        assert_eq!(needs_newer(">=18", "v18.20.8"), None);
        assert_eq!(needs_newer(">=20.20.0", "v22.11.0"), None);
        // Too new is no "too old".
        assert_eq!(needs_newer("<20", "v22.11.0"), None);
        assert_eq!(needs_newer("not a range", "v18.0.0"), None);
    }

    #[test]
    fn frames_name_their_packages() {
        let lines = [
            "ReferenceError: File is not defined",
            "    at Object.<anonymous> (/x/node_modules/figma/node_modules/undici/lib/web/a.js:1:1)",
            "    at y (/x/node_modules/@scope/core/lib/b.js:2:2)",
            "    at Module._compile (node:internal/modules/cjs/loader:1364:14)",
        ];
        assert_eq!(frame_packages(&lines), ["undici", "@scope/core"]);
    }

    #[test]
    fn engines_of_the_package_then_of_its_dependencies() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pkg = dir.path().join("node_modules").join("srv");
        let dep = dir.path().join("node_modules").join("core");
        std::fs::create_dir_all(&pkg).expect("mkdir");
        std::fs::create_dir_all(&dep).expect("mkdir");
        std::fs::write(
            pkg.join("package.json"),
            r#"{"name":"srv","engines":{"node":">=18"},"dependencies":{"core":"1","absent":"1"}}"#,
        )
        .expect("write");
        std::fs::write(
            dep.join("package.json"),
            r#"{"name":"core","engines":{"node":">=20"}}"#,
        )
        .expect("write");
        std::fs::write(pkg.join("cli.js"), "").expect("write");
        assert_eq!(
            package_of(&pkg.join("cli.js")).as_deref(),
            Some(pkg.as_path())
        );
        let e = engines(&pkg, &[]);
        let got: Vec<(&str, &str)> = e
            .iter()
            .map(|e| (e.package.as_str(), e.range.as_str()))
            .collect();
        assert_eq!(got, [("srv", ">=18"), ("core", ">=20")]);
    }
}
