//! The package a Node or Python stack shows raising an error (a leaf the rows share: the row of
//! a failed `--call`, `call_unset.rs`, and of a launch that died, `meant_rows.rs`).

use std::path::PathBuf;

/// The folder of the package a launch's stderr shows raising an error: the innermost Python
/// frame in an installed package, else the first Node frame under a `node_modules` folder
/// (`at Anthropic.validateHeaders (/srv/node_modules/@anthropic-ai/sdk/index.js:107:15)`:
/// `/srv/node_modules/@anthropic-ai/sdk`).
pub(super) fn raising_package_in(lines: &[&str]) -> Option<PathBuf> {
    // Python: the innermost frame in an installed package (`File ".../site-packages/anthropic/
    // _client.py", line 180`), a package folder, not a lone module.
    let python = lines.iter().rev().find_map(|line| {
        let path = line
            .trim_start()
            .strip_prefix("File \"")?
            .split('"')
            .next()?;
        let at = path.rfind("-packages/")?;
        let (base, rest) = path.split_at(at + "-packages/".len());
        let (first, _) = rest.split_once('/')?;
        let root = PathBuf::from(format!("{base}{first}"));
        root.is_dir().then_some(root)
    });
    if python.is_some() {
        return python;
    }
    lines.iter().find_map(|line| {
        let t = line.trim_start().strip_prefix("at ")?;
        let loc = match t.rfind(" (") {
            Some(i) => t[i + 2..].trim_end_matches(')'),
            None => t,
        };
        let loc = loc.strip_prefix("file://").unwrap_or(loc);
        let at = loc.rfind("/node_modules/")?;
        let (base, rest) = loc.split_at(at + "/node_modules/".len());
        let mut parts = rest.split('/');
        let first = parts.next()?;
        let name = if first.starts_with('@') {
            format!("{first}/{}", parts.next()?)
        } else {
            first.to_string()
        };
        let root = PathBuf::from(format!("{base}{name}"));
        root.is_dir().then_some(root)
    })
}

/// A package's name from its folder under `node_modules` (`@anthropic-ai/sdk`).
pub(super) fn package_name(root: &std::path::Path) -> Option<String> {
    let t = root.to_str()?;
    if let Some(at) = t.rfind("-packages/") {
        return Some(t[at + "-packages/".len()..].to_string());
    }
    let at = t.rfind("/node_modules/")?;
    Some(t[at + "/node_modules/".len()..].to_string())
}
