//! The rows about a runtime too old for a dependency, seen through the dependency's failure
//! (see [`super::structured`]): Node's `ERR_REQUIRE_ESM` on a Node that cannot `require()` an
//! ES module, and a `TypeError` / `ReferenceError` thrown as the server loads from a
//! dependency's frame (an installed package's file, or a bundle's `node_modules/<pkg>/...`
//! section) on a Node older than the current LTS. Each asks the `node` that runs it for its
//! version and reads the `engines.node` of the packages the error and its frames name.

use std::path::Path;

use super::manifest::{self, Engine};
use super::model::{cut, Found, Setting, Source};
use super::node_rows::{node_version, npx_cached_dir, version};
use super::table::Id;
use super::words::terms;

/// Whether Node `v` can `require()` an ES module without a flag (20.19, 22.12, 23 and later).
fn requires_esm(v: (u32, u32, u32)) -> bool {
    (v.0 == 20 && v.1 >= 19) || (v.0 == 22 && v.1 >= 12) || v.0 >= 23
}

/// The lowest Node at or above `min` that can `require()` an ES module.
fn esm_floor(min: (u32, u32, u32)) -> (u32, u32, u32) {
    let m = min.max((20, 19, 0));
    if m.0 == 21 || (m.0 == 22 && m.1 < 12) {
        (22, 12, 0)
    } else {
        m
    }
}

fn shown(v: (u32, u32, u32)) -> String {
    format!("{}.{}.{}", v.0, v.1, v.2)
}

/// The `name` of the package in `dir`.
fn name_of(dir: &Path) -> Option<String> {
    manifest::read(&dir.join("package.json"))?["name"]
        .as_str()
        .map(str::to_string)
}

/// The first `engines.node` among `engines` that excludes `running`, with the lowest version
/// it allows.
fn excluding(engines: &[Engine], running: &str) -> Option<(Engine, String)> {
    engines
        .iter()
        .find_map(|e| manifest::needs_newer(&e.range, running).map(|m| (e.clone(), m)))
}

/// How to point the entry at a newer `node`.
fn newer_node(s: &Setting) -> String {
    format!(
        "set {} to a newer `node` (e.g. its full path under nvm), or put one first on its PATH",
        terms("the entry's `command`", s)
    )
}

/// `Error [ERR_REQUIRE_ESM]: require() of ES Module /x/node_modules/p/dist/index.mjs not
/// supported`: a package `require()`s an ES module, which the running Node (asked) cannot do
/// (Node 20.19 and 22.12 can). The `engines.node` of the ES module's package, of the packages
/// the frames name and of the package the launch runs are read; one that excludes the running
/// Node is named. This answer outranks the table's `missing-dependency` (the module is there).
pub(super) fn esm_required(lines: &[&str], s: &Setting) -> Option<Found> {
    // The error's own line (`Error [ERR_REQUIRE_ESM]: ...`), else its `code:` property.
    let line = lines
        .iter()
        .find(|l| l.contains("[ERR_REQUIRE_ESM]"))
        .or_else(|| lines.iter().find(|l| l.contains("'ERR_REQUIRE_ESM'")))?;
    let esm = lines.iter().find_map(|l| {
        let rest = &l[l.find("require() of ES Module ")? + "require() of ES Module ".len()..];
        rest.split_whitespace().next().map(str::to_string)
    });
    let (node, running) = node_version(s)?;
    let running_v = version(&running)?;
    if requires_esm(running_v) {
        return None;
    }
    let esm_dir = esm
        .as_deref()
        .and_then(|p| manifest::package_of(Path::new(p)));
    let esm_name = esm_dir.as_deref().and_then(name_of);
    let frames = manifest::frame_packages(lines);
    let mut engines: Vec<Engine> = Vec::new();
    if let Some(dir) = &esm_dir {
        engines.extend(manifest::engine_at(dir));
    }
    if let Some(dir) = manifest::launched_package(s, npx_cached_dir(s)) {
        for e in manifest::engines(&dir, &frames) {
            if !engines.iter().any(|x| x.package == e.package) {
                engines.push(e);
            }
        }
    }
    let mut evidence = vec![(Source::Stderr, cut(line.trim()))];
    let stated = excluding(&engines, &running);
    let mut min = esm_floor((0, 0, 0));
    let module = esm_name
        .as_deref()
        .map(|n| format!("the ES module `{n}`"))
        .unwrap_or_else(|| "an ES module".to_string());
    let mut summary = format!(
        "the `node` it runs ({running}) cannot require() {module}, which the server loads (Node.js 20.19 and 22.12 can)"
    );
    if let Some((e, m)) = &stated {
        evidence.push((
            Source::Tried,
            format!("read {}: engines.node {}", e.manifest.display(), e.range),
        ));
        min = esm_floor(version(m)?);
        summary.push_str(&format!(
            "; `{}` needs Node.js {} (its package.json's engines.node)",
            e.package, e.range
        ));
    }
    evidence.push((Source::Tried, format!("{node} --version: {running}")));
    let mut next = format!(
        "run it with Node.js {} or newer: {}",
        shown(min),
        newer_node(s)
    );
    if stated.is_none() {
        if let Some(n) = &esm_name {
            next.push_str(&format!(
                "; or install the release of `{n}` the server was built with (one that still ships CommonJS)"
            ));
        }
    }
    Some(Found {
        id: Id::RuntimeTooOld,
        summary,
        next,
        evidence,
    })
}

/// Global names a runtime never had: a browser's, or CommonJS's inside an ES module (another
/// fault than an old Node).
const NEVER_NODES: &[&str] = &[
    "window",
    "document",
    "localStorage",
    "sessionStorage",
    "location",
    "HTMLElement",
    "Element",
    "XMLHttpRequest",
    "self",
    "require",
    "module",
    "exports",
    "__dirname",
    "__filename",
];

/// The error a load-time row reads: `TypeError: x is not a function` / `is not a
/// constructor`, or `ReferenceError: X is not defined` (a name a Node once lacked), with its
/// index among `lines`.
fn load_error(lines: &[&str]) -> Option<(usize, String)> {
    lines.iter().enumerate().find_map(|(i, l)| {
        let t = l.trim();
        let typed = t.strip_prefix("TypeError: ").is_some_and(|m| {
            m.ends_with(" is not a function") || m.ends_with(" is not a constructor")
        });
        let referenced = t
            .strip_prefix("ReferenceError: ")
            .and_then(|m| m.strip_suffix(" is not defined"))
            .is_some_and(|name| {
                !name.contains(' ') && !NEVER_NODES.contains(&name) && !name.is_empty()
            });
        (typed || referenced).then(|| (i, t.to_string()))
    })
}

/// One stack frame: its function (`new _CacheStorage`, `node_modules/undici/index.js`) and
/// its file (no line and column).
struct Frame {
    function: String,
    file: String,
}

fn frame(line: &str) -> Option<Frame> {
    let rest = line.trim().strip_prefix("at ")?;
    let (function, loc) = match rest.strip_suffix(')').and_then(|r| r.split_once(" (")) {
        Some((f, loc)) => (f.to_string(), loc),
        None => (String::new(), rest),
    };
    let loc = loc.strip_prefix("file://").unwrap_or(loc);
    // `/x/index.js:82588:21` -> `/x/index.js`.
    let mut file = loc;
    for _ in 0..2 {
        if let Some((a, b)) = file.rsplit_once(':') {
            if b.chars().all(|c| c.is_ascii_digit()) && !b.is_empty() {
                file = a;
            }
        }
    }
    Some(Frame {
        function,
        file: file.to_string(),
    })
}

/// The package named at the start of `rest` (`@scope/name/...`, `name/...`).
fn package_at(rest: &str) -> Option<String> {
    let mut parts = rest.split('/');
    match parts.next()? {
        scope if scope.starts_with('@') => Some(format!("{scope}/{}", parts.next()?)),
        n if !n.is_empty() && n != ".bin" => Some(n.to_string()),
        _ => None,
    }
}

/// A bundle's section a frame's function is named by (esbuild's `__commonJS` wrappers:
/// `node_modules/undici/index.js`, `src/server.ts`).
fn section(function: &str) -> Option<&str> {
    let f = function
        .trim_start_matches("new ")
        .trim_start_matches("async ")
        .trim_start_matches("Object.");
    let ext = f.rsplit_once('.').map(|(_, e)| e)?;
    (f.contains('/')
        && matches!(
            ext,
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx"
        ))
    .then_some(f)
}

/// The dependency whose code threw: walking the frames innermost first, the first that names a
/// package other than the server's (`own`): a bundle's `node_modules/<pkg>/` section, or a file
/// under `node_modules/<pkg>/`. A frame in the server's own code (a file of its own package
/// that is no bundle, or a bundle's section outside `node_modules`) ends the walk: the error
/// is the server's. Returns the package and whether it is bundled (the file of that frame).
fn dependency(frames: &[Frame], own: Option<&str>) -> Option<(String, Option<String>)> {
    // The files holding a bundle (a section names a frame in them).
    let bundles: Vec<&str> = frames
        .iter()
        .filter(|f| section(&f.function).is_some())
        .map(|f| f.file.as_str())
        .collect();
    let own_pkg = |file: &str| -> Option<String> {
        let at = file.rfind("node_modules/")?;
        package_at(&file[at + "node_modules/".len()..])
    };
    // Without the launched package known, the outermost frame's package is the server's.
    let outer = frames
        .iter()
        .rev()
        .find(|f| !f.file.starts_with("node:") && f.file.starts_with('/'))
        .and_then(|f| own_pkg(&f.file));
    let own = own.map(str::to_string).or(outer);
    for f in frames.iter().take(8) {
        if f.file.starts_with("node:") || !f.file.starts_with('/') {
            continue;
        }
        if let Some(sec) = section(&f.function) {
            let pkg = sec
                .strip_prefix("node_modules/")
                .and_then(|r| package_at(r.rsplit("node_modules/").next().unwrap_or(r)))?;
            return (Some(&pkg) != own.as_ref()).then(|| (pkg, Some(f.file.clone())));
        }
        let pkg = own_pkg(&f.file);
        match pkg {
            Some(p) if Some(&p) != own.as_ref() => return Some((p, None)),
            _ if bundles.contains(&f.file.as_str()) => continue,
            _ => return None,
        }
    }
    None
}

/// The current Node LTS line by Node's release schedule (an even major each April, LTS each
/// October: 22 in October 2024, 24 in October 2025, 26 in October 2026).
fn current_lts(now: std::time::SystemTime) -> u32 {
    let stamp = humantime::format_rfc3339_seconds(now).to_string();
    let year: u32 = stamp.get(..4).and_then(|y| y.parse().ok()).unwrap_or(2026);
    let month: u32 = stamp.get(5..7).and_then(|m| m.parse().ok()).unwrap_or(1);
    let lts = if month >= 10 { 2 * year } else { 2 * year - 2 };
    lts.saturating_sub(4026).max(22)
}

/// A `TypeError` (`x is not a function`, `is not a constructor`) or `ReferenceError` (`X is not
/// defined`) thrown while the server loads (a frame in Node's module loader) from a dependency's
/// frame, on a Node (asked) older than the current LTS: the Node is likely too old for that
/// dependency (an API it calls is newer). Its installed `engines.node` is read when it has one
/// (an excluding one is stated); otherwise the answer is a likely one, with its evidence. Never
/// for an error in the server's own code.
pub(super) fn dependency_on_old_node(lines: &[&str], s: &Setting) -> Option<Found> {
    let (at, error) = load_error(lines)?;
    let frames: Vec<Frame> = lines[at + 1..]
        .iter()
        .take_while(|l| l.trim().starts_with("at ") || l.trim().is_empty())
        .filter_map(|l| frame(l))
        .collect();
    if !frames
        .iter()
        .any(|f| f.file.starts_with("node:internal/modules/"))
    {
        return None;
    }
    let launched = manifest::launched_package(s, npx_cached_dir(s));
    let own = launched.as_deref().and_then(name_of);
    let (pkg, bundle) = dependency(&frames, own.as_deref())?;
    let (node, running) = node_version(s)?;
    let major = version(&running)?.0;
    let lts = current_lts(std::time::SystemTime::now());
    if major >= lts {
        return None;
    }
    let mut evidence = vec![(Source::Stderr, cut(&error))];
    let where_ = match &bundle {
        Some(file) => format!("in `{pkg}`'s code, bundled in {file}"),
        None => format!("in `{pkg}`'s code"),
    };
    // An installed copy's engines (not a bundled one's: the copy may be another version).
    let installed = bundle
        .is_none()
        .then(|| {
            frames.iter().find_map(|f| {
                let dir = manifest::package_of(Path::new(&f.file))?;
                (name_of(&dir).as_deref() == Some(pkg.as_str())).then_some(dir)
            })
        })
        .flatten();
    let engine = installed.as_deref().and_then(manifest::engine_at);
    if let Some(e) = &engine {
        evidence.push((
            Source::Tried,
            format!("read {}: engines.node {}", e.manifest.display(), e.range),
        ));
    }
    evidence.push((Source::Tried, format!("{node} --version: {running}")));
    if let Some((e, min)) = engine
        .as_ref()
        .and_then(|e| manifest::needs_newer(&e.range, &running).map(|m| (e.clone(), m)))
    {
        return Some(Found {
            id: Id::RuntimeTooOld,
            summary: format!(
                "`{}` needs Node.js {} (its package.json's engines.node); the `node` it runs is {running}, and it fails as it loads {where_}",
                e.package, e.range
            ),
            next: format!("run it with Node.js {min} or newer: {}", newer_node(s)),
            evidence,
        });
    }
    let next_line = (major + 2 - major % 2).min(lts);
    Some(Found {
        id: Id::RuntimeTooOld,
        summary: format!(
            "likely a Node.js too old for its dependency `{pkg}`: \"{}\" is thrown as the server loads, {where_}, and the `node` it runs is {running} (the current LTS is v{lts})",
            cut(&error)
        ),
        next: format!(
            "run it with a newer Node.js (v{next_line} or later; the current LTS is v{lts}): {}; if it fails the same way there, the installed `{pkg}` does not match the server: reinstall the server",
            newer_node(s)
        ),
        evidence,
    })
}

/// The Python a traceback's frames ran (`/lib/python3.9/site-packages/...` -> (3, 9)).
fn python_of(path: &str) -> Option<(u32, u32)> {
    let at = path.find("/python3.")? + "/python".len();
    let v: String = path[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut it = v.split('.').filter(|x| !x.is_empty());
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

/// The lowest Python a `Requires-Python` allows (`>=3.10`, `>3.9`, `~=3.11`, `>=3.10,<4`).
pub(super) fn python_floor(spec: &str) -> Option<(u32, u32)> {
    spec.split(',')
        .filter_map(|c| {
            let c = c.trim();
            let (op, v) = [">=", "~=", ">", "=="]
                .iter()
                .find_map(|op| c.strip_prefix(op).map(|v| (*op, v.trim())))?;
            let mut it = v.split('.');
            let major: u32 = it.next()?.trim().parse().ok()?;
            let minor: u32 = it
                .next()
                .map(|m| m.trim_end_matches(".*").trim())
                .unwrap_or("0")
                .parse()
                .ok()?;
            Some(if op == ">" && it.next().is_none() {
                (major, minor + 1)
            } else {
                (major, minor)
            })
        })
        .max()
}

/// The installed distribution that holds the top-level module `top` in `site`: its
/// `*.dist-info` folder, by its name, its `top_level.txt` or its `RECORD` (at most 2048
/// entries read, 64 KiB of each file).
fn dist_of(site: &Path, top: &str) -> Option<std::path::PathBuf> {
    let norm = |x: &str| x.to_ascii_lowercase().replace(['-', '.'], "_");
    let want = norm(top);
    let infos: Vec<std::path::PathBuf> = std::fs::read_dir(site)
        .ok()?
        .flatten()
        .take(2048)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dist-info"))
        .collect();
    let head = |p: &Path| crate::engine::infile::read_head_text(p, 64 * 1024);
    infos
        .iter()
        .find(|d| {
            let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
            name.and_then(|n| n.split('-').next().map(norm)) == Some(want.clone())
        })
        .or_else(|| {
            infos.iter().find(|d| {
                head(&d.join("top_level.txt")).is_some_and(|t| t.lines().any(|l| l.trim() == top))
                    || head(&d.join("RECORD"))
                        .is_some_and(|t| t.lines().any(|l| l.starts_with(&format!("{top}/"))))
            })
        })
        .cloned()
}

/// A Python traceback through installed code (`site-packages`) whose distribution's
/// `Requires-Python` (its METADATA, read) excludes the Python the frames ran (their path:
/// `lib/python3.9/`): that Python is too old for it (a `match` statement's `SyntaxError`, a
/// `str | None` annotation's `TypeError` on 3.9, a name `typing` lacks). The distributions of
/// the frames are read innermost first.
pub(super) fn requires_python(lines: &[&str], s: &Setting) -> Option<Found> {
    let files: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix("File \"")?;
            Some(&rest[..rest.find('"')?])
        })
        .filter(|f| f.contains("-packages/"))
        .collect();
    let error = lines.iter().rev().map(|l| l.trim()).find(|l| {
        l.split_once(": ").is_some_and(|(k, _)| {
            !k.contains(' ') && (k.ends_with("Error") || k.ends_with("Exception"))
        })
    })?;
    let running = files.iter().find_map(|f| python_of(f))?;
    let mut seen: Vec<String> = Vec::new();
    for f in files.iter().rev().take(16) {
        let at = f.find("-packages/")? + "-packages".len();
        let (site, rest) = (&f[..at], &f[at + 1..]);
        let top = rest.split('/').next()?.trim_end_matches(".py").to_string();
        if seen.contains(&top) {
            continue;
        }
        seen.push(top.clone());
        let Some(info) = dist_of(Path::new(site), &top) else {
            continue;
        };
        let meta = info.join("METADATA");
        let Some(text) = crate::engine::infile::read_head_text(&meta, 64 * 1024) else {
            continue;
        };
        let header = text.split("\n\n").next().unwrap_or_default();
        let Some(spec) = header
            .lines()
            .find_map(|l| l.strip_prefix("Requires-Python:").map(str::trim))
        else {
            continue;
        };
        let Some(min) = python_floor(spec).filter(|m| *m > running) else {
            continue;
        };
        let dist = info
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .trim_end_matches(".dist-info")
                    .replacen('-', " ", 1)
            })
            .unwrap_or_else(|| top.clone());
        let (want, ran) = (
            format!("{}.{}", min.0, min.1),
            format!("{}.{}", running.0, running.1),
        );
        return Some(Found {
            id: Id::RuntimeTooOld,
            summary: format!(
                "`{dist}` needs Python {spec} (Requires-Python in its METADATA); the frames ran Python {ran}, and it fails in that package's code"
            ),
            next: format!(
                "run it with Python {want} or newer: set {} to a newer `python3.x` (the one of an environment the server is installed in), or start it with `uvx --python {want} ...`",
                terms("the entry's `command`", s)
            ),
            evidence: vec![
                (Source::Stderr, cut(error)),
                (Source::Tried, format!("read {}: Requires-Python: {spec}", meta.display())),
            ],
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(text: &str) -> Vec<Frame> {
        text.lines().filter_map(frame).collect()
    }

    #[test]
    fn the_frame_that_threw_is_a_dependencys_or_the_servers() {
        // dynatrace-mcp-server 2.1.2's bundle on Node 20: its bundled undici's section.
        let bundled = "    at new _CacheStorage (/c/node_modules/@d/srv/index.js:82588:21)
    at node_modules/undici/index.js (/c/node_modules/@d/srv/index.js:86136:30)
    at __require (/c/node_modules/@d/srv/index.js:10:50)
    at Object.<anonymous> (/c/node_modules/@d/srv/index.js:120525:29)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)";
        assert_eq!(
            dependency(&frames(bundled), Some("@d/srv")),
            Some((
                "undici".to_string(),
                Some("/c/node_modules/@d/srv/index.js".to_string())
            ))
        );
        // Without the launched package known, the outermost frame's is the server's.
        assert_eq!(
            dependency(&frames(bundled), None).map(|d| d.0).as_deref(),
            Some("undici")
        );
        // An installed dependency's file.
        let installed = "    at Object.<anonymous> (/c/node_modules/srv/node_modules/undici/lib/web/fetch/index.js:1:1)
    at Module._compile (node:internal/modules/cjs/loader:1364:14)
    at Object.<anonymous> (/c/node_modules/srv/dist/index.js:3:1)";
        assert_eq!(
            dependency(&frames(installed), Some("srv")),
            Some(("undici".to_string(), None))
        );
        // Look-alikes: the server's own file, and its own section of a bundle.
        let own = "    at main (/c/node_modules/srv/dist/index.js:9:9)
    at Object.<anonymous> (/c/node_modules/srv/dist/index.js:3:1)
    at Module._compile (node:internal/modules/cjs/loader:1364:14)";
        assert_eq!(dependency(&frames(own), Some("srv")), None);
        let own_section = "    at main (/c/node_modules/srv/index.js:9:9)
    at src/server.ts (/c/node_modules/srv/index.js:12:1)
    at __require (/c/node_modules/srv/index.js:10:50)";
        assert_eq!(dependency(&frames(own_section), Some("srv")), None);
        let script = "    at main (/home/u/server.js:9:9)
    at Module._compile (node:internal/modules/cjs/loader:1364:14)";
        assert_eq!(dependency(&frames(script), None), None);
    }

    #[test]
    fn only_load_time_type_and_reference_errors_are_read() {
        let got = |t: &str| load_error(&t.lines().collect::<Vec<_>>()).map(|x| x.1);
        assert!(got("TypeError: webidl.util.markAsUncloneable is not a function").is_some());
        assert!(got("ReferenceError: File is not defined").is_some());
        assert!(got("TypeError: Headers is not a constructor").is_some());
        for other in [
            "ReferenceError: window is not defined",
            "ReferenceError: require is not defined in ES module scope, you can use import instead",
            "TypeError: Cannot read properties of undefined (reading 'x')",
            "Error: x is not a function",
        ] {
            assert_eq!(got(other), None, "{other}");
        }
    }

    #[test]
    fn a_requires_python_floor_and_the_python_a_frame_ran() {
        assert_eq!(python_floor(">=3.10"), Some((3, 10)));
        assert_eq!(python_floor(">=3.10, <4"), Some((3, 10)));
        assert_eq!(python_floor(">3.9"), Some((3, 10)));
        assert_eq!(python_floor("~=3.11"), Some((3, 11)));
        assert_eq!(python_floor("<4"), None);
        assert_eq!(
            python_of("/v/lib/python3.9/site-packages/mcp/types.py"),
            Some((3, 9))
        );
        assert_eq!(python_of("/v/lib/site-packages/x.py"), None);
    }

    #[test]
    fn the_lts_follows_nodes_schedule() {
        let at = |s: &str| current_lts(humantime::parse_rfc3339(s).expect("a date"));
        assert_eq!(at("2025-05-01T00:00:00Z"), 22);
        assert_eq!(at("2025-11-01T00:00:00Z"), 24);
        assert_eq!(at("2026-12-03T00:00:00Z"), 26);
        assert!(requires_esm((20, 19, 0)) && requires_esm((22, 12, 0)) && requires_esm((24, 0, 0)));
        assert!(
            !requires_esm((18, 20, 8)) && !requires_esm((20, 18, 0)) && !requires_esm((22, 11, 0))
        );
        assert_eq!(esm_floor((20, 12, 0)), (20, 19, 0));
        assert_eq!(esm_floor((22, 0, 0)), (22, 12, 0));
    }
}
