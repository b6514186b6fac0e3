//! Host configuration files: load them the way the host reads them (with every value's
//! position), and check them. No printing here: `render::check` draws findings.
//!
//! - [`check_file`] / [`check_source`]: every finding of one file (`check-config`).
//! - [`load_servers`]: every server entry of one file with its resolved binding (`probe`).

use std::path::Path;

mod binding;
mod check;
pub mod discover;
mod draft;
mod duplicates;
mod entries;
mod entry;
pub mod fields;
mod finding;
pub mod json;
mod snippet;
pub mod source;
mod subst;
mod totals;
mod values;
mod walk;

pub use check::CheckOptions;
pub use entry::{Binding, ServerEntry, TableKind, Transport};
pub use finding::{Code, Finding, Report, Severity, Snippet};
pub use source::{LineIndex, LoadError, Source, STDIN_NAME};
pub use subst::{has_env_ref, substitute, substituted_values};
pub use totals::Totals;

/// The process environment, for [`CheckOptions::env`] and [`load_servers_with`].
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Check one file (`-` for standard input).
pub fn check_file(path: &Path, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let source = Source::read(path)?;
    check_source(&source, options)
}

/// Check a file already read.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let doc = parse(source)?;
    Ok(check::check(source, &doc, options))
}

/// Load every server entry of a configuration file the way the host reads it: the file is
/// parsed (JSON, or JSONC with comments and trailing commas), every server table anywhere in
/// it is found (`mcplServers` object or array, `mcpServers`, VS Code `servers`), `JSON.parse`'s
/// last-wins rule applies to duplicate keys, `${VAR}` / `${VAR:-default}` are substituted from
/// the process environment in `mcpServers` entries, and each entry gets its resolved
/// [`Binding`] (transport, legacy/modern family, command, args with `./` and `../` resolved
/// against the file's folder, url), `env`, `inheritEnv`, `token`, the `reconnect` flag as its
/// engine reads it, and its [`Timings`].
///
/// Entries the host would refuse are returned too, with `binding: Err(reason)`; entries with
/// `disabled: true` and policy-only overrides are flagged (`disabled`, `is_override`). Pick one
/// by `id`. `path` may be `-` for standard input. Run `check_file` for the full list of problems.
pub fn load_servers(path: &Path) -> Result<Vec<ServerEntry>, LoadError> {
    load_servers_with(path, &process_env)
}

/// [`load_servers`] with a chosen environment for `${VAR}` substitution.
pub fn load_servers_with(
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ServerEntry>, LoadError> {
    let source = Source::read(path)?;
    load_servers_from(&source, env)
}

/// [`load_servers`] for a file already read.
pub fn load_servers_from(
    source: &Source,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ServerEntry>, LoadError> {
    let doc = parse(source)?;
    Ok(entries::server_entries(source, &doc, env))
}

/// [`load_servers`] and [`check_file`] on one reading of the file: every server entry, and
/// every finding (match them with [`Report::errors_for`]). `probe --config` uses it to leave out
/// the entries the host would refuse, with the checker's own words.
pub fn load_and_check(
    path: &Path,
    options: &CheckOptions<'_>,
) -> Result<(Vec<ServerEntry>, Report), LoadError> {
    let source = Source::read(path)?;
    let entries = load_servers_from(&source, options.env)?;
    let report = check_source(&source, options)?;
    Ok((entries, report))
}

fn parse<'t>(source: &'t Source) -> Result<json::Doc<'t>, LoadError> {
    json::Doc::parse(&source.text).map_err(|e| {
        let (line, column) = LineIndex::new(&source.text).position(&source.text, e.offset);
        LoadError::Syntax {
            file: source.name.clone(),
            line,
            column,
            offset: e.offset,
            message: e.message,
        }
    })
}

#[cfg(test)]
mod tests;
