//! The structured rows about a library upgraded under the server (see [`super::structured`]):
//! the server imports a module or a subpath the installed version no longer has.
//!
//! - Python: `No module named 'a.b'` (a `ModuleNotFoundError` or an `ImportError`) whose top
//!   package `a` the server's own interpreter imports: asked (`find_spec`,
//!   `importlib.metadata.packages_distributions` and `version`), `a` is a regular package one
//!   installed distribution brings, and the import came from outside it (mcp 2 dropping
//!   `mcp.server.fastmcp`, openai 1.0 dropping `openai.embeddings_utils`, langchain 0.2 moving
//!   `langchain.chat_models`).
//! - Node: `ERR_PACKAGE_PATH_NOT_EXPORTED` naming a package's `package.json` in `node_modules`
//!   (a subpath its `exports` no longer lists: uuid 7 dropping `uuid/v4`; a package gone
//!   ESM-only: `No "exports" main defined`), imported from outside that package; its version
//!   read from that `package.json`.
//!
//! Both say which package to pin below which version: below the installed major (the module
//! left at a major), or the pin the message itself names.

use std::path::PathBuf;

use super::import_rows::{ask, environment, install, interpreter, pinned};
use super::model::Setting;
use super::model::{cut, Found, Source};
use super::table::Id;

/// The pin below the installed version's major (`2.3.0` -> `<2`; `0.5.1` -> `<0.5`).
fn below_major(version: &str) -> Option<String> {
    let mut parts = version.split('.').map(|p| {
        let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u64>().ok()
    });
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(0), Some(minor)) if minor > 0 => Some(format!("0.{minor}")),
        (Some(0), _) => None,
        (Some(major), _) => Some(major.to_string()),
        _ => None,
    }
}

/// A dotted module name (`a.b`, each part an identifier).
fn dotted(name: &str) -> bool {
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// A traceback's frames: each file's path and the source line shown under it.
type Frames<'a> = Vec<(String, &'a str)>;

/// The last `No module named 'a.b'` of a traceback: (its line, the name, the frames, oldest
/// first).
fn no_submodule<'a>(lines: &[&'a str]) -> Option<(&'a str, String, Frames<'a>)> {
    let at = lines.iter().rposition(|l| {
        let l = l.trim_start();
        l.starts_with("ModuleNotFoundError: No module named ")
            || l.starts_with("ImportError: No module named ")
    })?;
    let line = lines[at].trim();
    let rest = line.split("No module named ").nth(1)?;
    let name = rest
        .trim_start_matches(['\'', '"'])
        .split(['\'', '"', ' '])
        .next()?
        .trim_end_matches(['.', ';']);
    if !dotted(name) {
        return None;
    }
    let start = lines[..at]
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last)"))
        .unwrap_or(0);
    let frames = lines[start..at]
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let r = l.trim_start().strip_prefix("File \"")?;
            let path = r.split('"').next()?.to_string();
            // The frame's source line, under it.
            let code = lines
                .get(start + i + 1)
                .map(|x| x.trim())
                .filter(|x| !x.starts_with("File \""))
                .unwrap_or_default();
            Some((path, code))
        })
        .collect();
    Some((line, name.to_string(), frames))
}

/// Whether `path` is inside the installed top package `top` (`.../site-packages/top/...` or
/// `.../site-packages/top.py`).
fn inside(path: &str, top: &str) -> bool {
    path.contains(&format!("-packages/{top}/")) || path.ends_with(&format!("-packages/{top}.py"))
}

/// `dependency-drift` for `No module named 'a.b'` when the server's interpreter imports `a`.
pub(super) fn python_submodule(lines: &[&str], s: &Setting) -> Option<Found> {
    let (line, name, frames) = no_submodule(lines)?;
    let top = name.split('.').next()?.to_string();
    // The server's own interpreter: that of the environment a frame is in, else the command's.
    let (root, interp) = frames
        .iter()
        .find_map(|(p, _)| environment(p))
        .map(|(r, p)| (Some(r), p))
        .or_else(|| interpreter(&frames.last()?.0, s))?;
    let asked = ask(&interp, std::slice::from_ref(&name), true)?;
    let found = asked.tops.iter().find(|t| t.name == name)?;
    // A namespace package (`google`, `azure`) many distributions share, or a module of the
    // server's own folder: the missing part is another install, not a changed one.
    if !found.regular || !found.at.contains("-packages/") {
        return None;
    }
    let [(dist, version)] = found.dists.as_slice() else {
        return None;
    };
    // The import came from outside the package (the server's file, another library), on a
    // line that names it. The server's own package lacking a module of its own is a broken
    // install of it, no drift: the console script's frame calls it without naming it, and
    // without its lines shown, the first installed frame is the server's.
    let importer = frames
        .iter()
        .rev()
        .find(|(p, _)| !p.starts_with('<') && !inside(p, &top))?;
    let names_top = |code: &str| {
        code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == top)
    };
    let own = frames.iter().find_map(|(p, _)| {
        let at = p.find("-packages/")? + "-packages/".len();
        let first = p[at..].split('/').next()?;
        Some(first.strip_suffix(".py").unwrap_or(first).to_string())
    });
    let from_outside = if importer.1.is_empty() {
        own.as_deref() != Some(top.as_str())
    } else {
        names_top(importer.1)
    };
    if !from_outside {
        return None;
    }
    let norm = |x: &str| x.to_ascii_lowercase().replace(['-', '.'], "_");
    let message = line.split_once(": ").map_or(line, |x| x.1);
    let pin = pinned(message)
        .filter(|p| {
            let n = p.split(['<', '>', '=', '~']).next().unwrap_or_default();
            norm(n) == norm(dist)
        })
        .or_else(|| below_major(version).map(|v| format!("{dist}<{v}")));
    let mut evidence = vec![(Source::Stderr, cut(line))];
    if !importer.1.is_empty() {
        evidence.push((
            Source::Stderr,
            cut(&format!("{}: {}", importer.0, importer.1)),
        ));
    }
    evidence.push((Source::Spawn, format!("installed: {dist} {version}")));
    evidence.push((
        Source::Tried,
        format!(
            "{}: find_spec: {top} found in {} ({dist} {version})",
            interp.display(),
            found.at
        ),
    ));
    let next = match &pin {
        Some(p) => format!(
            "pin `{p}` where the server runs: {}; or install the server from its lock file, or update it to a release that works with `{dist}` {version}",
            install(p, root.as_deref(), &interp, s)
        ),
        None => format!(
            "pin `{dist}` to the version the server was built with, where the server runs (`{}`); or update the server to a release that works with `{dist}` {version}",
            interp.display()
        ),
    };
    Some(Found {
        id: Id::DependencyDrift,
        summary: format!(
            "`{dist}` {version} is installed here and has no `{name}`, which the server imports: the dependency changed under the server"
        ),
        next,
        evidence,
    })
}

/// The `package.json` an `ERR_PACKAGE_PATH_NOT_EXPORTED` names, in a `node_modules`, and the
/// file that imported it (`imported from X`, else the stack's first frame outside it).
fn not_exported<'a>(lines: &[&'a str]) -> Option<(&'a str, PathBuf, Option<String>)> {
    let code = lines
        .iter()
        .any(|l| l.contains("ERR_PACKAGE_PATH_NOT_EXPORTED"));
    if !code {
        return None;
    }
    let line = lines.iter().find(|l| {
        l.contains("ERR_PACKAGE_PATH_NOT_EXPORTED") && l.contains("package.json")
            || (l.contains("\"exports\"") && l.contains("/node_modules/"))
    })?;
    let manifest = line
        .split_whitespace()
        .map(|w| w.trim_matches(['\'', '"', '(', ')', ',']))
        .find(|w| w.contains("/node_modules/") && w.ends_with("/package.json"))?;
    let manifest = PathBuf::from(manifest.strip_prefix("file://").unwrap_or(manifest));
    let folder = manifest.parent()?.to_string_lossy().into_owned();
    let outside = |p: &str| {
        let p = p.strip_prefix("file://").unwrap_or(p);
        (p.starts_with('/') && !p.starts_with(&format!("{folder}/"))).then(|| p.to_string())
    };
    let importer = line
        .split(" imported from ")
        .nth(1)
        .and_then(|r| outside(r.trim()))
        .or_else(|| {
            lines.iter().find_map(|l| {
                let f = l.trim_start().strip_prefix("at ")?;
                let f = f.rsplit_once('(').map_or(f, |x| x.1).trim_end_matches(')');
                // `path:line:col`.
                let p = f.rsplitn(3, ':').nth(2)?;
                outside(p)
            })
        });
    Some((line.trim(), manifest, importer))
}

/// `dependency-drift` for a subpath a package in `node_modules` no longer exports.
pub(super) fn node_subpath(lines: &[&str]) -> Option<Found> {
    let (line, manifest, importer) = not_exported(lines)?;
    // The server's import, not a package importing its own subpath.
    let importer = importer?;
    let text = crate::engine::infile::read_head_text(&manifest, 1 << 20)?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let (pkg, version) = (v["name"].as_str()?, v["version"].as_str()?);
    let shown = manifest.display().to_string();
    let folder = &shown[..shown.rfind("/node_modules/")?];
    let mut evidence = vec![
        (Source::Stderr, cut(line)),
        (
            Source::Spawn,
            format!("installed: {pkg} {version} ({shown})"),
        ),
    ];
    evidence.push((Source::Stderr, cut(&format!("imported from {importer}"))));
    let pin = below_major(version).map(|m| format!("{pkg}@<{m}"));
    let how = match &pin {
        // npx's cache is its own: a pin there lasts until npx installs the package again.
        Some(p) if folder.contains("/_npx/") => format!(
            "pin `{p}` for the server: install it in a folder of its own with the pin (`npm install <the server's package> '{p}'`) and run it from there"
        ),
        Some(p) => format!("pin `{p}` for the server: `npm install '{p}'` in {folder}"),
        None => format!("pin `{pkg}` to the version the server was built with, in {folder}"),
    };
    Some(Found {
        id: Id::DependencyDrift,
        summary: format!(
            "`{pkg}` {version} does not export what the server imports from it (its `exports` no longer list it): the dependency changed under the server"
        ),
        next: format!(
            "{how}; or install the server from its lock file, or update it to a release that works with `{pkg}` {version}"
        ),
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_pin_is_below_the_installed_major() {
        assert_eq!(below_major("2.3.0").as_deref(), Some("2"));
        assert_eq!(below_major("7.0.0").as_deref(), Some("7"));
        assert_eq!(below_major("0.5.1").as_deref(), Some("0.5"));
        assert_eq!(below_major("2.0.0rc1").as_deref(), Some("2"));
        assert_eq!(below_major("0.0.3"), None);
        assert_eq!(below_major("dev"), None);
    }

    #[test]
    fn a_dotted_missing_module_and_its_frames_are_read() {
        // office-powerpoint-mcp-server 2.0.7 under mcp 2.3.0 (its exact lines, paths shortened).
        let lines = [
            "Traceback (most recent call last):",
            "  File \"/v/bin/ppt_mcp_server\", line 5, in <module>",
            "    from ppt_mcp_server import main",
            "  File \"/v/lib/python3.11/site-packages/ppt_mcp_server.py\", line 9, in <module>",
            "    from mcp.server.fastmcp import FastMCP",
            "  File \"/v/lib/python3.11/site-packages/mcp/server/fastmcp.py\", line 16, in <module>",
            "    raise ModuleNotFoundError(_MESSAGE, name=__name__)",
            "ModuleNotFoundError: No module named 'mcp.server.fastmcp'. This is mcp 2.x, where FastMCP was renamed to MCPServer; or pin 'mcp<2' to keep running v1 code.",
        ];
        let (_, name, frames) = no_submodule(&lines).expect("read");
        assert_eq!(name, "mcp.server.fastmcp");
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[1].1, "from mcp.server.fastmcp import FastMCP");
        assert!(inside(&frames[2].0, "mcp"));
        assert!(!inside(&frames[1].0, "mcp"));
        // Not dotted: a package not installed at all (the table's `missing-dependency`).
        assert!(no_submodule(&["ModuleNotFoundError: No module named 'httpx'"]).is_none());
        assert_eq!(
            pinned("pin 'mcp<2' to keep running v1 code.").as_deref(),
            Some("mcp<2")
        );
    }

    #[test]
    fn a_subpath_not_exported_names_its_package_json_and_importer() {
        // Node 20's lines for `import "uuid/v4"` under uuid 7 (an ES module; paths shortened).
        let lines = [
            "node:internal/modules/esm/resolve:304",
            "  return new ERR_PACKAGE_PATH_NOT_EXPORTED(",
            "Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath './v4' is not defined by \"exports\" in /s/node_modules/uuid/package.json imported from /s/server.mjs",
            "    at exportsNotFound (node:internal/modules/esm/resolve:304:10)",
            "  code: 'ERR_PACKAGE_PATH_NOT_EXPORTED'",
        ];
        let (_, manifest, importer) = not_exported(&lines).expect("read");
        assert_eq!(manifest, Path::new("/s/node_modules/uuid/package.json"));
        assert_eq!(importer.as_deref(), Some("/s/server.mjs"));
        // CommonJS: no `imported from`; the stack's first frame outside the package.
        let lines = [
            "Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath './v4' is not defined by \"exports\" in /s/node_modules/uuid/package.json",
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1039:15)",
            "    at Object.<anonymous> (/s/node_modules/uuid/x.js:1:1)",
            "    at Object.<anonymous> (/s/server.js:3:14)",
        ];
        let (_, _, importer) = not_exported(&lines).expect("read");
        assert_eq!(importer.as_deref(), Some("/s/server.js"));
        // No code: not this row's.
        assert!(not_exported(&["Error: Cannot find module 'x'"]).is_none());
    }
}
