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

/// Whether the entry sets the variable `name` (in any case).
pub(super) fn is_set(s: &Setting, name: &str) -> bool {
    entry_env(s).any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// The variable of the entry a name in a message (`DB_URL`, a settings field `db_url`) is:
/// the same name, or (`suffix`: a name with `_`, or quoted) one ending in `_NAME` (a settings
/// prefix).
pub(super) fn entry_var<'a>(s: &'a Setting, name: &str, suffix: bool) -> Option<&'a str> {
    let up = name.to_ascii_uppercase();
    if up.len() < 3 {
        return None;
    }
    let suffix = suffix || up.contains('_');
    entry_env(s)
        .map(|(k, _)| k.as_str())
        .find(|k| *k == up || (suffix && k.ends_with(&format!("_{up}"))))
}

/// The entry's variables a message names (in its words: `NAME`, `a_field`, or quoted).
pub(super) fn vars_in<'a>(s: &'a Setting, message: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    let quoted: Vec<&str> = ['\'', '"', '`']
        .iter()
        .flat_map(|q| message.split(*q).skip(1).step_by(2))
        .collect();
    for w in message.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        // A JS settings field (`logLevel`) is its variable's words (`*_LOG_LEVEL`).
        if let Some(snake) = camel_snake(w) {
            if let Some(v) = entry_var(s, &snake, true) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            continue;
        }
        let q = quoted.contains(&w);
        let worded = q
            || w.contains('_')
            || w.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if !worded {
            continue;
        }
        // A bare command inherits the caller's whole environment: a quoted word alone
        // (`'root'`) is no settings field of it.
        if let Some(v) = entry_var(s, w, q && s.given_env.is_some()) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// `logLevel` as `log_level`: a camelCase name (a lower-case start, an upper-case letter in it,
/// letters and digits only) in its snake-case words.
fn camel_snake(w: &str) -> Option<String> {
    let ok = w.starts_with(|c: char| c.is_ascii_lowercase())
        && w.chars().any(|c| c.is_ascii_uppercase())
        && w.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| {
        let mut out = String::with_capacity(w.len() + 2);
        for c in w.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    })
}

pub(super) fn value_of<'a>(s: &'a Setting, var: &str) -> &'a str {
    entry_env(s)
        .find(|(k, _)| k == var)
        .map(|(_, v)| v.as_str())
        .unwrap_or_default()
}
