//! The values the entry gives the server (its arguments and its variables), as the structured
//! rows name them: a leaf the rows share, so none of them imports another to read the entry.

use super::model::Setting;

/// The entry's values: each argument (as `the argument X`, or `--flag X`) and each variable
/// (`NAME`), with its value (redacted).
pub(super) fn entry_values(s: &Setting) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, a) in s.args.iter().enumerate() {
        let shown = match i.checked_sub(1).and_then(|p| s.args.get(p)) {
            Some(flag) if flag.starts_with('-') && !a.starts_with('-') => {
                format!("`{flag} {a}`")
            }
            _ => format!("the argument `{a}`"),
        };
        let v = a.split_once('=').map(|(_, v)| v).unwrap_or(a);
        out.push((shown, v.to_string()));
    }
    for (k, v) in entry_env(s) {
        out.push((format!("`{k}={v}`"), v.clone()));
    }
    out
}

/// The variables the server was given that are not the host's standard ones: the entry's
/// `env`, or for a bare command (`probe -- CMD`) the caller's environment it inherits.
pub(super) fn entry_env(s: &Setting) -> impl Iterator<Item = &(String, String)> {
    s.env_values
        .iter()
        .filter(|(k, _)| s.given_env.as_ref().is_none_or(|g| g.contains(k)))
}
