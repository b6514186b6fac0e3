//! Host configuration files: load them the way the host reads them (with every value's
//! position), and check them. No printing here: `render::check` draws findings.
//!
//! - [`check_file`] / [`check_source`]: every finding of one file (`check-config`).
//! - [`load_servers`]: every server entry of one file with its resolved binding (`probe`).

use std::path::Path;

mod binding;
mod check;
pub(crate) mod discover;
mod draft;
mod duplicates;
mod entries;
mod entry;
mod envfile;
pub(crate) mod fields;
mod finding;
pub(crate) mod host;
pub(crate) mod json;
pub(crate) mod platform;
mod snippet;
pub(crate) mod source;
mod subst;
mod totals;
mod values;
pub(crate) mod vars;
mod walk;

pub use check::CheckOptions;
#[cfg(test)]
pub(crate) use entry::Binding;
pub(crate) use entry::{BindingRefusal, ServerEntry, TableKind, Transport};
pub use finding::Code;
pub(crate) use finding::{Finding, Report, Severity, Snippet};
pub(crate) use host::{EnvRule, Host};
pub(crate) use platform::Platform;
pub use platform::Platforms;
pub use source::Source;
pub(crate) use source::{LineIndex, LoadError};
pub(crate) use totals::Totals;
pub(crate) use vars::{Dialect, Scope};

/// The process environment, for [`CheckOptions::env`] and [`load_servers_with`].
pub(crate) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Check one file (`-` for standard input).
pub(crate) fn check_file(path: &Path, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let source = Source::read(path)?;
    check_source(&source, options)
}

/// Check a file already read.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let doc = parse(source)?;
    let scope = scope_of(source, &doc, &options.dialect, options.env);
    Ok(check::check(source, &doc, options, &scope))
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
pub(crate) fn load_servers_with(
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
    load_servers_in(source, env, &Dialect::default())
}

/// [`load_servers_from`] in a chosen dialect (`--host`, `--workspace`, `--input`).
pub(crate) fn load_servers_in(
    source: &Source,
    env: &dyn Fn(&str) -> Option<String>,
    dialect: &Dialect<'_>,
) -> Result<Vec<ServerEntry>, LoadError> {
    let doc = parse(source)?;
    let scope = scope_of(source, &doc, dialect, env);
    Ok(entries::server_entries(source, &doc, &scope))
}

/// The scope `source` is read in.
fn scope_of<'e>(
    source: &Source,
    doc: &json::Doc<'_>,
    dialect: &Dialect<'e>,
    env: &'e dyn Fn(&str) -> Option<String>,
) -> Scope<'e> {
    let keys: Vec<String> = if doc.kind(json::ROOT) == json::Kind::Object {
        doc.children(json::ROOT)
            .filter_map(|id| doc.key(id).map(|k| k.into_owned()))
            .collect()
    } else {
        Vec::new()
    };
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    dialect.scope(Path::new(&source.name), &keys, &source.text, env)
}

/// [`load_servers`] and [`check_file`] on one reading of the file: every server entry, and
/// every finding (match them with [`Report::errors_for`]). `probe --config` uses it to leave out
/// the entries the host would refuse, with the checker's own words.
pub(crate) fn load_and_check(
    path: &Path,
    options: &CheckOptions<'_>,
) -> Result<(Vec<ServerEntry>, Report), LoadError> {
    let source = Source::read(path)?;
    let entries = load_servers_in(&source, options.env, &options.dialect)?;
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
