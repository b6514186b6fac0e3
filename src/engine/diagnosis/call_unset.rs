//! The row about a `--call` that failed on a server that is up with an error that names no
//! variable but means one by its concept: missing or refused credentials (`Authentication
//! credentials are missing`, `401 Unauthorized`, `invalid API key`) mean a token, key, secret or
//! password; `You must specify a region` means a region. The experiment of
//! [`super::source_scan`] (the server's installed source, read for the variables it reads)
//! gives the variables of that concept the entry does not set: those sharing a prefix with the
//! variables the entry sets first (`ATLASSIAN_API_TOKEN` beside `ATLASSIAN_SITE_NAME`). A
//! server that reads a variable of that concept the entry does set is left alone: its value may
//! be what is refused.

use super::call_rows::FailedCall;
use super::given::{entry_env, is_set};
use super::model::{cut, Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::source_scan::Read;
use super::structured::Key;
use super::table::{Confidence, Id};
use crate::engine::probe::Launch;

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
/// parser's `unexpected token`, `password`, `secret`) or a region.
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
            || (matches!(x.as_str(), "token" | "tokens") && prev != Some("unexpected"))
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

/// A `--call` that failed (an error answer, `isError`, or a result proven a failure) whose error
/// means credentials or a region, while the server's source reads unset variables of that
/// concept: `missing-env-var` naming them.
pub(crate) fn call_means_unset(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    let FailedCall {
        launch: l,
        message,
        unmarked,
    } = super::call_rows::failed_call(launches)?;
    let c = concept(message.lines().next().unwrap_or(&message))?;
    let code = super::env_rows::scanned(s)?;
    let named = unset_meant(c, &code.reads, s);
    if named.is_empty() {
        return None;
    }
    let said = clause(&message, c);
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
    let mut evidence = vec![super::call_rows::answered(l, unmarked, &message)];
    evidence.push(Evidence {
        launches: Vec::new(),
        source: Source::Tried,
        text: super::env_rows::tried(code, &named),
    });
    evidence.truncate(MAX_EVIDENCE);
    let d = Diagnosis {
        id: Id::MissingEnvVar,
        confidence: Confidence::High,
        summary: format!(
            "the tool call fails for want of {} (\"{said}\"), and the server reads {names} ({wheres}), which {env} does not set",
            c.said()
        ),
        launches: vec![l.number],
        evidence,
        next_step: format!(
            "set {names} in {env}: the server reads {} ({wheres}) and its tool call says \"{said}\"",
            if one { "that variable" } else { "those variables" }
        ),
    };
    Some((Key::CallErrorMeansAnUnsetReadVariable, d))
}

/// A server that advertises tools and listed none on a launch, while a warning it wrote at
/// start names a variable the entry does not set (`Warning: edit_file tool unavailable -
/// MORPH_API_KEY not provided`): `missing-env-var` naming it.
pub(crate) fn no_tools_unset(launches: &[Launch], s: &Setting) -> Option<(Key, Diagnosis)> {
    use crate::engine::probe::opening::summary::warned_variable;
    let (l, line, var) = launches.iter().find_map(|l| {
        let o = l.report.opening.as_ref()?;
        if !o.tools_advertised || o.tool_count != Some(0) {
            return None;
        }
        super::structured::stderr_lines(l)
            .into_iter()
            .find_map(|x| warned_variable(x).map(|v| (l, x.to_string(), v)))
    })?;
    if is_set(s, &var) {
        return None;
    }
    let env = super::words::terms("the entry's `env`", s);
    let quoted = cut(&line);
    let d = Diagnosis {
        id: Id::MissingEnvVar,
        confidence: Confidence::High,
        summary: format!(
            "the server advertises tools but lists none, and says at start that it lacks `{var}`, which {env} does not set"
        ),
        launches: vec![l.number],
        evidence: vec![
            Evidence {
                launches: vec![l.number],
                source: Source::Stderr,
                text: quoted.clone(),
            },
            Evidence {
                launches: vec![l.number],
                source: Source::Request,
                text: "tools/list answered no tool".to_string(),
            },
        ],
        next_step: format!(
            "set `{var}` in {env}: the server lists no tools without it (it says \"{quoted}\")"
        ),
    };
    Some((Key::NoToolsAndAWarningNamesAnUnsetVariable, d))
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
