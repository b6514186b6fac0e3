//! The environment a host gives a stdio server: an allowlist of its own variables plus the
//! entry's `env`, or (with `inheritEnv: true`) its whole environment plus the entry's `env`.

use std::ffi::{OsStr, OsString};

use crate::engine::config::EnvRule;

/// Variables passed through by name.
const ALLOWED: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "TMP",
    "TEMP",
    // CA bundles.
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    // Proxies.
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
];

/// Variables passed through by prefix (locale and XDG base directories).
const ALLOWED_PREFIXES: &[&str] = &["LC_", "XDG_"];

/// Whether the host passes its own variable `name` to a server without `inheritEnv`.
pub(crate) fn allowed(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    ALLOWED.contains(&name) || ALLOWED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The child's whole environment: `caller` filtered by the allowlist (or whole with
/// `inherit`), then the entry's `env` on top.
pub(crate) fn build(
    caller: impl IntoIterator<Item = (OsString, OsString)>,
    inherit: bool,
    entry_env: &[(String, String)],
) -> Vec<(OsString, OsString)> {
    let mut out: Vec<(OsString, OsString)> = caller
        .into_iter()
        .filter(|(k, _)| inherit || allowed(k))
        .collect();
    for (k, v) in entry_env {
        let k = OsString::from(k);
        out.retain(|(existing, _)| *existing != k);
        out.push((k, OsString::from(v)));
    }
    out
}

/// The child's whole environment under a host's rule: agent-framework's allowlist (or
/// `inherit`), the whole environment (most hosts), or `PATH` alone (Cline); then `unset`
/// removed and the entry's `env` on top.
pub(crate) fn build_for(
    rule: EnvRule,
    caller: impl IntoIterator<Item = (OsString, OsString)>,
    inherit: bool,
    entry_env: &[(String, String)],
    unset: &[String],
) -> Vec<(OsString, OsString)> {
    let caller: Vec<(OsString, OsString)> = caller
        .into_iter()
        .filter(|(k, _)| rule != EnvRule::PathOnly || k == "PATH")
        .collect();
    let path = caller.iter().find(|(k, _)| k == "PATH").cloned();
    let inherit = inherit || rule != EnvRule::Allowlist;
    let mut out = build(caller, inherit, &[]);
    out.retain(|(k, _)| !unset.iter().any(|u| k == u.as_str()));
    for (k, v) in entry_env {
        let k = OsString::from(k);
        out.retain(|(existing, _)| *existing != k);
        out.push((k, OsString::from(v)));
    }
    if rule == EnvRule::PathOnly {
        // Cline puts its own PATH last, over the entry's (`{...config.env, PATH}`).
        if let Some(path) = path {
            out.retain(|(k, _)| k != "PATH");
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect()
    }

    #[test]
    fn allowlist_plus_entry_env() {
        let caller = env(&[
            ("PATH", "/bin"),
            ("LC_ALL", "C"),
            ("XDG_CONFIG_HOME", "/x"),
            ("AWS_SECRET_ACCESS_KEY", "nope"),
            ("HTTPS_PROXY", "http://p"),
        ]);
        let entry = vec![
            ("API_KEY".to_string(), "k".to_string()),
            ("PATH".to_string(), "/opt".to_string()),
        ];
        let got = build(caller.clone(), false, &entry);
        assert_eq!(
            got,
            env(&[
                ("LC_ALL", "C"),
                ("XDG_CONFIG_HOME", "/x"),
                ("HTTPS_PROXY", "http://p"),
                ("API_KEY", "k"),
                ("PATH", "/opt"),
            ])
        );
        let all = build(caller, true, &[]);
        assert!(all.iter().any(|(k, _)| k == "AWS_SECRET_ACCESS_KEY"));
    }
}
