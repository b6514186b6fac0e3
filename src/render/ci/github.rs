//! `check-config --format github`: GitHub Actions workflow commands, so findings show on the
//! pull request's diff.

use crate::engine::config::Totals;
use crate::engine::config::{LoadError, Report};
use crate::render::sanitize::{github_data as gh_data, github_property as gh_prop};
use crate::render::text::check_config::summary_line;

/// GitHub Actions workflow commands, one per finding (`::error file=..,line=..,col=..,
/// title=..::message`), so findings show on the pull request's diff; then the summary.
pub(crate) fn github(
    reports: &[Report],
    errors: &[LoadError],
    totals: &Totals,
    quiet: bool,
) -> String {
    let mut out = String::new();
    for e in errors {
        let pos = e
            .position()
            .map(|(l, c)| format!(",line={l},col={c}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "::error file={}{pos},title={}::{}\n",
            gh_prop(e.file()),
            gh_prop("mcpl-doctor: cannot read"),
            gh_data(&e.to_string())
        ));
    }
    for f in reports.iter().flat_map(|r| &r.findings) {
        let mut whereabouts = String::new();
        if let Some(s) = &f.server {
            whereabouts.push_str(&format!("server `{s}`"));
            if let Some(field) = &f.field {
                whereabouts.push_str(&format!(", `{field}`"));
            }
            whereabouts.push_str(": ");
        }
        // GitHub's endColumn is the last column of the annotation (ours is one past it).
        let end_column = if f.end_line > f.line {
            f.end_column.saturating_sub(1).max(1)
        } else {
            f.end_column.saturating_sub(1).max(f.column)
        };
        out.push_str(&format!(
            "::{} file={},line={},endLine={},col={},endColumn={},title={}::{}{} ({})\n",
            f.severity.as_str(),
            gh_prop(&f.file),
            f.line,
            f.end_line.max(f.line),
            f.column,
            end_column,
            gh_prop(&format!("mcpl-doctor {}", f.code)),
            gh_data(&whereabouts),
            gh_data(&f.message),
            gh_data(&f.path)
        ));
    }
    if !quiet {
        out.push_str(&summary_line(totals));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape() {
        assert_eq!(gh_prop("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(gh_data("a:b,c%\r\n"), "a:b,c%25%0D%0A");
    }
}
