//! What a failure's words mean a variable for, by concept (credentials, a region), and the
//! variables of that concept the server's source reads that the entry does not set: shared by
//! the row of a failed `--call` (`call_unset.rs`) and of a launch that died (`meant_rows.rs`).

use super::given::{entry_env, is_set};
use super::model::{cut, Setting};
use super::source_scan::Read;

/// What a failure's words mean a variable for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Concept {
    /// Credentials: a token, an API key, a secret, a password.
    Credential,
    /// A cloud region.
    Region,
}

impl Concept {
    pub(super) fn said(self) -> &'static str {
        match self {
            Concept::Credential => "credentials",
            Concept::Region => "a region",
        }
    }
}

/// The most variables named at once.
const MAX_NAMED: usize = 3;

/// The lower-case words of a text (`apiKey` as `apikey`).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The concept a failure's text means, by its words: credentials (`credentials`,
/// `authentication`, `unauthorized`, `forbidden`, `401`, `403`, `api key`, `token` but not a
/// parser's `unexpected token`, `next token` or `any token` (PyYAML's `while scanning for the
/// next token`), `password`, `secret`) or a region.
pub(super) fn concept(text: &str) -> Option<Concept> {
    const AUTH: &[&str] = &[
        "auth",
        "authn",
        "authz",
        "authentication",
        "authenticate",
        "authenticated",
        "authorization",
        "authorize",
        "authorized",
        "unauthorized",
        "unauthorised",
        "unauthenticated",
        "credential",
        "credentials",
        "apikey",
        "password",
        "secret",
        "forbidden",
        "401",
        "403",
    ];
    let w = words(text);
    let credential = w.iter().enumerate().any(|(i, x)| {
        let prev = i.checked_sub(1).and_then(|p| w.get(p)).map(String::as_str);
        AUTH.contains(&x.as_str())
            || (matches!(x.as_str(), "token" | "tokens")
                && !matches!(prev, Some("unexpected" | "next" | "any")))
            || (x == "key" && matches!(prev, Some("api" | "access" | "secret")))
    });
    if credential {
        return Some(Concept::Credential);
    }
    w.iter().any(|x| x == "region").then_some(Concept::Region)
}

/// Whether the variable `name` is one of `c` by its words: `*_TOKEN`, `*_API_KEY`, `*_APIKEY`,
/// `*_ACCESS_KEY`, `*_SECRET`, `*_SECRET_KEY`, `*_PASSWORD`, `*_PAT`, `*_CREDENTIALS`; `*_REGION`.
pub(super) fn means(c: Concept, name: &str) -> bool {
    let w: Vec<String> = name
        .split('_')
        .filter(|x| !x.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let (Some(last), before) = (w.last(), w.len().checked_sub(2).and_then(|i| w.get(i))) else {
        return false;
    };
    match c {
        Concept::Credential => {
            matches!(
                last.as_str(),
                "token" | "secret" | "password" | "passwd" | "apikey" | "pat" | "credentials"
            ) || (last == "key"
                && before.is_some_and(|b| matches!(b.as_str(), "api" | "access" | "secret")))
        }
        Concept::Region => last == "region",
    }
}

/// The variables of concept `c` the server's source reads and the entry does not set, those
/// sharing their first word with a variable the entry sets first (at most [`MAX_NAMED`]);
/// none when the server reads one of that concept the entry sets.
pub(super) fn unset_meant<'a>(c: Concept, reads: &'a [Read], s: &Setting) -> Vec<&'a Read> {
    let of: Vec<&Read> = reads.iter().filter(|r| means(c, &r.name)).collect();
    if of.iter().any(|r| is_set(s, &r.name)) {
        return Vec::new();
    }
    let first = |n: &str| n.split('_').next().unwrap_or(n).to_ascii_uppercase();
    let prefixes: Vec<String> = entry_env(s)
        .map(|(k, _)| first(k))
        .filter(|p| p.len() >= 2)
        .collect();
    let shared: Vec<&Read> = of
        .iter()
        .filter(|r| prefixes.contains(&first(&r.name)))
        .copied()
        .collect();
    let chosen = if shared.is_empty() { of } else { shared };
    if chosen.len() > MAX_NAMED {
        return Vec::new();
    }
    chosen
}

/// The clause of `message` that says the concept (`Authentication credentials are missing`),
/// else the message, cut.
pub(super) fn clause(message: &str, c: Concept) -> String {
    let first = message.lines().next().unwrap_or(message);
    let said = first
        .split(": ")
        .filter(|x| concept(x) == Some(c))
        .last()
        .unwrap_or(first);
    cut(said)
}

#[cfg(test)]
mod tests {
    use super::{concept, means, Concept};

    #[test]
    fn a_failures_concept_is_read_from_its_words_not_one_servers_sentence() {
        for cred in [
            "Error details: Authentication credentials are missing",
            "Request failed with status code 401",
            "HTTP 403 Forbidden",
            "Invalid API key provided",
            "Unauthorized: bad token",
            "the access key id you provided does not exist",
        ] {
            assert_eq!(concept(cred), Some(Concept::Credential), "{cred}");
        }
        assert_eq!(concept("You must specify a region."), Some(Concept::Region));
        for other in [
            "Unexpected token < in JSON at position 0",
            // PyYAML 6's ScannerError on a tab.
            "while scanning for the next token",
            "found character '\\t' that cannot start any token",
            "connect ECONNREFUSED 127.0.0.1:5432",
            "The author field is required",
            "rows: 4010",
        ] {
            assert_eq!(concept(other), None, "{other}");
        }
    }

    #[test]
    fn the_unset_variables_meant_share_the_entrys_prefix_and_none_when_one_is_set() {
        use super::unset_meant;
        use crate::engine::diagnosis::model::Setting;
        use crate::engine::diagnosis::source_scan::Read;
        let reads: Vec<Read> = ["GITHUB_TOKEN", "ATLASSIAN_API_TOKEN", "ATLASSIAN_SITE_NAME"]
            .iter()
            .map(|n| Read {
                name: n.to_string(),
                at: "dist/index.js:1".to_string(),
            })
            .collect();
        let entry = |env: &[(&str, &str)]| Setting {
            env_values: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
            entry: true,
            ..Setting::default()
        };
        let names = |s: &Setting| -> Vec<String> {
            unset_meant(Concept::Credential, &reads, s)
                .iter()
                .map(|r| r.name.clone())
                .collect()
        };
        assert_eq!(
            names(&entry(&[("ATLASSIAN_SITE_NAME", "acme")])),
            ["ATLASSIAN_API_TOKEN"]
        );
        // No prefix shared: both, the source's order.
        assert_eq!(names(&entry(&[])), ["GITHUB_TOKEN", "ATLASSIAN_API_TOKEN"]);
        // A token the server reads is set: its value may be what is refused.
        assert!(names(&entry(&[("GITHUB_TOKEN", "x")])).is_empty());
    }

    #[test]
    fn a_variable_is_of_a_concept_by_its_last_words() {
        for n in [
            "ATLASSIAN_API_TOKEN",
            "OPENAI_API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "MYSQL_PASSWORD",
            "GITLAB_PAT",
            "STRIPE_SECRET",
        ] {
            assert!(means(Concept::Credential, n), "{n}");
        }
        for n in ["ATLASSIAN_SITE_NAME", "TOKEN_PATH", "MONKEY", "SORT_KEY"] {
            assert!(!means(Concept::Credential, n), "{n}");
        }
        assert!(means(Concept::Region, "AWS_REGION"));
        assert!(!means(Concept::Region, "REGION_LIST"));
    }
}
