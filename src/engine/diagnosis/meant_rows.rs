//! A launch that died on an exception or an error line whose message means a variable by its
//! concept and names none (`RuntimeError: An API key is required to call the PagerDuty API.`,
//! `Error: Authentication token missing`, `log.Fatal("no credentials found")`), while the
//! server's installed source (the experiment of [`super::source_scan`]) reads variables of that
//! concept the entry does not set: `missing-env-var` naming them. The ones read in the file of
//! the frame that raised come first (a traceback's, read through its box: `rich_boxes.rs`), then
//! those sharing a prefix with the entry's variables ([`super::concepts::unset_meant`]).

use super::concepts::{clause, concept, unset_meant, Concept};
use super::evidence::Fact;
use super::model::{cut, upper_snake, Found, Setting, Source};
use super::source_scan::Read;
use super::table::Id;

/// The path of a traceback's frame line (`File "/x/y.py", line 3, in f`).
fn frame_path(frame: &str) -> Option<&str> {
    frame.trim().strip_prefix("File \"")?.split('"').next()
}

/// Whether the read `r` (`pkg/ctx.py:20`, relative to the scan's root) is in the file `path`.
fn read_in(r: &Read, path: &str) -> bool {
    let file = r.at.rsplit_once(':').map_or(r.at.as_str(), |(f, _)| f);
    !file.is_empty() && (path == file || path.ends_with(&format!("/{file}")))
}

/// The row: the launch's last error means a concept; the unset variables of it the code reads.
pub(super) fn row(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let f = facts.iter().rev().find(|f| f.is_error())?;
    let message = f.message()?.lines().next()?;
    // A message naming a variable is the rows' that read names.
    if message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w.len() >= 4 && upper_snake(w))
    {
        return None;
    }
    let c = concept(message)?;
    // A Node error raised in a package (its first frame under `node_modules`) that reads
    // variables of that concept itself: those are its own (google-auth-library's `Could not
    // load the default credentials` reads GOOGLE_APPLICATION_CREDENTIALS), never a password
    // the server reads for another service.
    let node = facts.iter().any(|x| matches!(x, Fact::Node { .. }));
    if let Some(found) = raised_in_package(f, node, lines, c, s) {
        return Some(found);
    }
    let code = super::env_rows::scanned(s)?;
    let mut named = unset_meant(c, &code.reads, s);
    if node {
        // A read with a default (`env.NEO4J_PASSWORD ?? "x"`) is never wanted.
        named.retain(|r| !defaulted_read(&code.root, r));
    }
    if let Fact::Python {
        user_frame,
        library_frame,
        ..
    } = f
    {
        let frames: Vec<&str> = [user_frame, library_frame]
            .into_iter()
            .flatten()
            .filter_map(|x| frame_path(x))
            .collect();
        let here: Vec<&Read> = named
            .iter()
            .copied()
            .filter(|r| frames.iter().any(|p| read_in(r, p)))
            .collect();
        if !here.is_empty() {
            named = here;
        }
    }
    if named.is_empty() {
        return None;
    }
    let said = clause(message, c);
    let names: Vec<String> = named.iter().map(|r| format!("`{}`", r.name)).collect();
    let names = names.join(" or ");
    let mut wheres: Vec<&str> = Vec::new();
    for r in &named {
        if !wheres.contains(&r.at.as_str()) {
            wheres.push(&r.at);
        }
    }
    let wheres = wheres.join(", ");
    let env = super::words::terms("the entry's `env`", s);
    let one = named.len() == 1;
    Some(Found {
        id: Id::MissingEnvVar,
        summary: format!(
            "the server stops for want of {} (\"{said}\"), and it reads {names} ({wheres}), which {env} does not set",
            c.said()
        ),
        next: format!(
            "set {names} in {env}: the server reads {} ({wheres}) and says \"{}\"",
            if one { "that variable" } else { "those variables" },
            cut(&f.quoted())
        ),
        evidence: vec![
            (Source::Stderr, cut(&f.quoted())),
            (Source::Tried, super::env_rows::tried(code, &named)),
        ],
    })
}

/// Whether every read of `r` on its source line has a default after it (`?? "x"`, `|| 3000`).
fn defaulted_read(root: &std::path::Path, r: &Read) -> bool {
    let Some((file, n)) = r.at.rsplit_once(':') else {
        return false;
    };
    let Ok(n) = n.parse::<usize>() else {
        return false;
    };
    let path = root.join(file);
    if std::fs::metadata(&path).map_or(true, |m| m.len() > 1024 * 1024) {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        return false;
    };
    text.lines()
        .nth(n.saturating_sub(1))
        .is_some_and(|line| super::frame_rows::defaulted(line, &r.name))
}

/// The row for a Node error whose first frame is in a package under `node_modules` that reads
/// unset variables of concept `c` itself (its folder scanned, bounded like the server's).
fn raised_in_package(
    f: &Fact,
    node: bool,
    lines: &[&str],
    c: Concept,
    s: &Setting,
) -> Option<Found> {
    if !node {
        return None;
    }
    let (raised, _, _) = super::frame_rows::frame_source(lines)?;
    if !raised.contains("/node_modules/") {
        return None;
    }
    let root = super::raising::raising_package_in(lines)?;
    let code = super::source_scan::scan(
        &super::source_scan::Code::Folder { root, depth: 4 },
        super::source_scan::BOUNDS,
    );
    // Those read in the file that raised first (googleauth.js, not the AWS client's file).
    let here: Vec<Read> = code
        .reads
        .iter()
        .filter(|r| read_in(r, &raised))
        .cloned()
        .collect();
    let mut named = unset_meant(c, &here, s);
    if named.is_empty() {
        named = unset_meant(c, &code.reads, s);
    }
    if named.is_empty() {
        return None;
    }
    let name = super::raising::package_name(&code.root).unwrap_or_default();
    let names: Vec<String> = named.iter().map(|r| format!("`{}`", r.name)).collect();
    let names = names.join(" or ");
    let env = super::words::terms("the entry's `env`", s);
    let said = clause(f.message()?.lines().next()?, c);
    Some(Found {
        id: Id::MissingEnvVar,
        summary: format!(
            "the server's dependency {name} stops for want of {} (\"{said}\"), and it reads {names}, which {env} does not set",
            c.said()
        ),
        next: format!(
            "set {names} in {env}: the server's dependency {name}, which raised the error, reads {} and says \"{}\"",
            if named.len() == 1 { "that variable" } else { "those variables" },
            cut(&f.quoted())
        ),
        evidence: vec![
            (Source::Stderr, cut(&f.quoted())),
            (Source::Tried, super::env_rows::tried(&code, &named)),
        ],
    })
}

#[cfg(test)]
#[path = "meant_rows_tests.rs"]
mod tests;
