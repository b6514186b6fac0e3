//! The structured rows about Node and npm (see [`super::structured`]): an npm error block
//! with the package's `bin` read from npx's cache, and a Node too old for the server, named on
//! an error line, shown by a built-in it lacks, or below an `engines.node` in a package.json;
//! each tested by `node --version`.

use std::path::PathBuf;

use super::evidence::Fact;
use super::experiment::COMMAND_LIMIT;
use super::manifest;
use super::model::{cut, Found};
use super::model::{Setting, Source};
use super::table::Id;

/// The package `npx` was asked to run: the first argument that is no flag (or `--package`'s).
fn npx_package(s: &Setting) -> Option<String> {
    let base = s.command.as_deref()?.rsplit('/').next()?;
    if base != "npx" {
        return None;
    }
    let mut it = s.args.iter();
    while let Some(a) = it.next() {
        if a == "--package" || a == "-p" {
            return it.next().cloned();
        }
        if let Some(p) = a.strip_prefix("--package=") {
            return Some(p.to_string());
        }
        if !a.starts_with('-') {
            return Some(a.clone());
        }
    }
    None
}

/// `@scope/name@1.2` -> `@scope/name`.
fn bare(p: &str) -> &str {
    match p.strip_prefix('@') {
        Some(rest) => rest.find('@').map_or(p, |i| &p[..i + 1]),
        None => p.split('@').next().unwrap_or(p),
    }
}

/// The package's manifest in npx's cache (`~/.npm/_npx/*/node_modules/PKG/package.json`), at
/// most 64 cache folders and 256 KiB read.
fn cached_manifest(pkg: &str) -> Option<(PathBuf, serde_json::Value)> {
    let home = std::env::var_os("HOME")?;
    let root = PathBuf::from(home).join(".npm").join("_npx");
    for e in std::fs::read_dir(root).ok()?.flatten().take(64) {
        let p = e.path().join("node_modules").join(pkg).join("package.json");
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.len() > 256 * 1024 {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if let Ok(v) = serde_json::from_str(&text) {
            return Some((p, v));
        }
    }
    None
}

/// The folder of the package `npx` runs, found in its cache (see [`cached_manifest`]).
pub(super) fn npx_cached_dir(s: &Setting) -> Option<PathBuf> {
    npx_package(s)
        .and_then(|p| cached_manifest(bare(&p)))
        .and_then(|(p, _)| p.parent().map(std::path::Path::to_path_buf))
}

pub(super) fn npm(facts: &[Fact], s: &Setting) -> Option<Found> {
    let Some(Fact::Npm { code, what }) = facts.iter().find(|f| matches!(f, Fact::Npm { .. }))
    else {
        return None;
    };
    if code.as_deref() == Some("E404") {
        return None;
    }
    let mut evidence = vec![(Source::Stderr, format!("npm error {}", cut(what)))];
    let pkg = npx_package(s);
    let manifest = pkg.as_deref().and_then(|p| cached_manifest(bare(p)));
    let bins: Option<Vec<String>> = manifest.as_ref().map(|(_, v)| match &v["bin"] {
        serde_json::Value::String(_) => vec![v["name"].as_str().unwrap_or_default().to_string()],
        serde_json::Value::Object(m) => m.keys().cloned().collect(),
        _ => Vec::new(),
    });
    if let (Some((path, _)), Some(b)) = (&manifest, &bins) {
        evidence.push((
            Source::Tried,
            format!(
                "read {}: bin: {}",
                path.display(),
                if b.is_empty() {
                    "none".to_string()
                } else {
                    b.join(", ")
                }
            ),
        ));
    }
    let exec = what.contains("executable");
    let pkg_shown = pkg.clone().unwrap_or_else(|| "the package".to_string());
    let (id, summary, next) = match (&bins, exec) {
        (Some(b), _) if b.is_empty() => (
            Id::NoExecutable,
            format!("`{pkg_shown}` has no executable (no `bin` in its package.json): a library, not a server"),
            format!("check the package name `{pkg_shown}` in the entry's args: the server is likely another package of that family"),
        ),
        (Some(b), _) => (
            Id::NoExecutable,
            format!("npx could not pick an executable of `{pkg_shown}` (its bins: {})", b.join(", ")),
            format!("name the bin to run: `npx -y --package {pkg_shown} {}` in the entry's args", b[0]),
        ),
        (None, true) => (
            Id::NoExecutable,
            format!("npx found no executable to run in `{pkg_shown}`"),
            format!("check the package name `{pkg_shown}` in the entry's args: it has no bin of that name (a library, or a package whose bin has another name)"),
        ),
        (None, false) => (
            Id::CauseUnknown,
            format!("npm failed: {}", cut(what)),
            format!("fix what npm says: \"{}\"", cut(what)),
        ),
    };
    Some(Found {
        id,
        summary,
        next,
        evidence,
    })
}

/// The version `node --version` reports for the `node` the server runs (the command when it
/// is `node`, else the one on the entry's PATH), within [`COMMAND_LIMIT`].
pub(super) fn node_version(s: &Setting) -> Option<(String, String)> {
    let cmd = s.command.as_deref()?;
    let base = cmd.rsplit('/').next()?;
    let node = if base == "node" {
        PathBuf::from(cmd)
    } else {
        let path = s.path.clone().or_else(|| std::env::var("PATH").ok())?;
        std::env::split_paths(&path)
            .map(|d| d.join("node"))
            .find(|p| p.is_file())?
    };
    let out =
        crate::engine::diagnosis::experiment::run_bounded(&node, &["--version"], COMMAND_LIMIT)?;
    let v = out.trim().to_string();
    v.starts_with('v').then(|| (node.display().to_string(), v))
}

/// `v18.20.8` / `20.19.0` -> (18, 20, 8).
pub(super) fn version(v: &str) -> Option<(u32, u32, u32)> {
    let mut it = v.trim_start_matches('v').split('.').map(|x| {
        x.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
    });
    let major = it.next()?.parse().ok()?;
    let minor = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    let patch = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// A Node version an error line names (`Node 20.19`, `node >= 22.5.0`, `Node v20`).
fn named_node_version(message: &str) -> Option<String> {
    let low = message.to_ascii_lowercase();
    let at = low.find("node")?;
    low[at..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'v'))
        .filter(|w| {
            w.trim_start_matches('v')
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|w| w.trim_start_matches('v').trim_end_matches('.').to_string())
        .filter(|w| version(w).is_some_and(|(m, _, _)| (10..=40).contains(&m)))
        .max_by_key(|w| version(w))
}

/// Whether an error's message says the running Node lacks something: `without` (`Node.js 20
/// detected without native WebSocket support`), `not supported`, `unsupported`, `does not
/// support`, `lacks`, `missing`.
fn lacks_capability(message: &str) -> bool {
    let low = message.to_ascii_lowercase();
    [
        "without",
        "not supported",
        "unsupported",
        "does not support",
        "doesn't support",
        "lacks",
        "missing",
    ]
    .iter()
    .any(|w| low.contains(w))
}

/// A Node version above `running` that the lines name, not on a stack frame (`For Node.js <
/// 22, install "ws"`: the release where the capability is there).
fn named_above(lines: &[&str], running: (u32, u32, u32)) -> Option<String> {
    lines
        .iter()
        .filter(|l| !l.trim_start().starts_with("at ") && !l.trim_start().starts_with("Node.js v"))
        .filter_map(|l| named_node_version(l))
        .filter(|w| version(w).is_some_and(|v| v > running))
        .max_by_key(|w| version(w))
}

pub(super) fn node_too_old(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let builtin = facts.iter().find(
        |f| matches!(f, Fact::Node { code: Some(c), .. } if c == "ERR_UNKNOWN_BUILTIN_MODULE"),
    );
    let named = facts
        .iter()
        .filter(|f| f.is_error() || matches!(f, Fact::Npm { .. }))
        .find_map(|f| Some((f, named_node_version(f.message()?)?)));
    if builtin.is_none() && named.is_none() {
        return None;
    }
    let (node, running) = node_version(s)?;
    let tried = (Source::Tried, format!("{node} --version: {running}"));
    let running_v = version(&running)?;
    if let Some((f, want)) = named {
        // The running Node's own major named with something it lacks: the release the lines
        // name above it, else a newer one.
        let lacking = version(&want).is_some_and(|w| w.0 == running_v.0)
            && f.message().is_some_and(lacks_capability);
        if lacking {
            let at = named_above(lines, running_v)
                .map(|v| format!("Node.js {v} or newer (the release its lines name)"))
                .unwrap_or_else(|| format!("a Node.js newer than {running}"));
            return Some(Found {
                id: Id::RuntimeTooOld,
                summary: format!("the server says the `node` it runs ({running}) lacks what it needs"),
                next: format!("run it with {at}: set {} to a newer `node` (e.g. its full path under nvm), or put one first on its PATH", super::words::terms("the entry's `command`", s)),
                evidence: vec![(Source::Stderr, cut(&f.quoted())), tried],
            });
        }
        if version(&want)? > running_v {
            return Some(Found {
                id: Id::RuntimeTooOld,
                summary: format!("the server needs Node.js {want}; the `node` it runs is {running}"),
                next: format!("run it with Node.js {want} or newer: set the entry's `command` to a newer `node` (e.g. its full path under nvm), or put one first on its PATH"),
                evidence: vec![(Source::Stderr, cut(&f.quoted())), tried],
            });
        }
    }
    let f = builtin?;
    Some(Found {
        id: Id::RuntimeTooOld,
        summary: format!("the `node` it runs ({running}) lacks a built-in module the server imports"),
        next: "run it with a newer Node.js (the module is new in a later release): set the entry's `command` to a newer `node`, or put one first on its PATH".to_string(),
        evidence: vec![(Source::Stderr, cut(&f.quoted())), tried],
    })
}

/// `engines.node` above the running `node`: the package the launch runs (npx's cache, the
/// script's or the bin's package), the failing frame's package first, then its own, then its
/// dependencies'; the experiment `node --version` only when some range is stated.
pub(super) fn engines_too_new(lines: &[&str], s: &Setting) -> Option<Found> {
    let dir = manifest::launched_package(s, npx_cached_dir(s))?;
    let engines = manifest::engines(&dir, &manifest::frame_packages(lines));
    if engines.is_empty() {
        return None;
    }
    let (node, running) = node_version(s)?;
    let frames = manifest::frame_packages(lines);
    let (e, min) = engines
        .iter()
        .find_map(|e| manifest::needs_newer(&e.range, &running).map(|m| (e, m)))?;
    let own = e.manifest.parent() == Some(dir.as_path());
    let whose = if own {
        format!("`{}`", e.package)
    } else if frames.contains(&e.package) {
        format!("`{}` (the package of the failing frame)", e.package)
    } else {
        format!("its dependency `{}`", e.package)
    };
    let mut evidence: Vec<(Source, String)> = lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("at "))
        .map(|l| (Source::Stderr, cut(l)))
        .into_iter()
        .collect();
    evidence.push((
        Source::Tried,
        format!("read {}: engines.node {}", e.manifest.display(), e.range),
    ));
    evidence.push((Source::Tried, format!("{node} --version: {running}")));
    Some(Found {
        id: Id::RuntimeTooOld,
        summary: format!(
            "{whose} needs Node.js {} (its package.json's engines.node); the `node` it runs is {running}",
            e.range
        ),
        next: format!(
            "run it with Node.js {min} or newer: set {} to a newer `node` (e.g. its full path under nvm), or put one first on its PATH",
            super::words::terms("the entry's `command`", s)
        ),
        evidence,
    })
}
