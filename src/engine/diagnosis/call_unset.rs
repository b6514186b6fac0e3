//! The row about a `--call` that failed on a server that is up with an error that names no
//! variable but means one by its concept: missing or refused credentials (`Authentication
//! credentials are missing`, `401 Unauthorized`, `invalid API key`) mean a token, key, secret or
//! password; `You must specify a region` means a region. The experiment of
//! [`super::source_scan`] (the server's installed source, read for the variables it reads)
//! gives the variables of that concept the entry does not set: those sharing a prefix with the
//! variables the entry sets first (`ATLASSIAN_API_TOKEN` beside `ATLASSIAN_SITE_NAME`). A
//! server that reads a variable of that concept the entry does set is left alone: its value may
//! be what is refused.
//!
//! An error that names variables itself (`UPPER_SNAKE`: line-bot-mcp-server's "Specify the
//! userId or set the DESTINATION_USER_ID in the environment variables", google-drive-mcp's
//! "Set GOOGLE_DRIVE_OAUTH_CREDENTIALS to the path of your credentials file") is read first:
//! one the entry sets to a path where nothing exists (looked up) is that variable's fault; else
//! those it does not set, when the server's source reads them or the error asks for them.

use super::call_rows::FailedCall;
use super::concepts::{clause, concept, unset_meant};
use super::given::{entry_env, is_set};
use super::model::{absent_path, cut, Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::Key;
use super::table::{Confidence, Id};
use crate::engine::probe::Launch;
use crate::engine::redact::{is_secret_name, MASK};
use std::path::PathBuf;

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
    let own = super::env_rows::scanned(s);
    let mut named = own
        .map(|code| unset_meant(c, &code.reads, s))
        .unwrap_or_default();
    // None in the server's own code (or none read there at all): the package that raised the
    // error, by the first frame in a `node_modules` folder the server's stderr shows (an SDK
    // that reads its key itself: @anthropic-ai/sdk's `ANTHROPIC_API_KEY`).
    let raiser;
    let mut reader = "the server".to_string();
    // A variable of that concept the entry sets, read by the server, may be what is refused:
    // then no other is named.
    let set_one = |o: &super::source_scan::Scanned| {
        o.reads
            .iter()
            .any(|r| super::concepts::means(c, &r.name) && super::given::is_set(s, &r.name))
    };
    let code = if named.is_empty() && own.is_none_or(|o| !set_one(o)) {
        raiser = raising_package(l).map(|root| {
            super::source_scan::scan(
                &super::source_scan::Code::Folder { root, depth: 4 },
                super::source_scan::BOUNDS,
            )
        })?;
        named = unset_meant(c, &raiser.reads, s);
        if let Some(name) = super::raising::package_name(&raiser.root) {
            reader = format!("the server's dependency {name}");
        }
        &raiser
    } else {
        own?
    };
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
            "the tool call fails for want of {} (\"{said}\"), and {reader} reads {names} ({wheres}), which {env} does not set",
            c.said()
        ),
        launches: vec![l.number],
        evidence,
        next_step: format!(
            "set {names} in {env}: {reader} reads {} ({wheres}) and its tool call says \"{said}\"",
            if one { "that variable" } else { "those variables" }
        ),
    };
    Some((Key::CallErrorMeansAnUnsetReadVariable, d))
}

/// The folder of the package a launch's stderr shows raising an error: the first stack frame
/// under a `node_modules` folder (`at Anthropic.validateHeaders
/// (/srv/node_modules/@anthropic-ai/sdk/index.js:107:15)`: `/srv/node_modules/@anthropic-ai/sdk`).
fn raising_package(l: &Launch) -> Option<PathBuf> {
    super::raising::raising_package_in(&super::structured::stderr_lines(l))
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

/// The variables (`UPPER_SNAKE`, five characters or more) a text names, in order.
fn variables_named(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    // A text cut short ("…") ends in a word cut short: not a name.
    let text = match text.strip_suffix('…') {
        Some(t) => t.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_'),
        None => text,
    };
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if w.len() >= 5 && super::model::upper_snake(w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Whether an error asks for `var` in its words: it speaks of the environment, or writes `set`
/// or `export` just before the name (`set the NAME`).
fn asked_for(text: &str, var: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.contains("environment") || lower.contains("env var") || lower.contains(".env") {
        return true;
    }
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(3).any(|w| {
        let set = |x: &str| matches!(x.to_ascii_lowercase().as_str(), "set" | "export");
        (w[1] == var && set(w[0])) || (w[2] == var && set(w[0]) && w[1].eq_ignore_ascii_case("the"))
    })
}

/// The path a variable's value names where nothing exists (`~` at HOME, a relative path at the
/// server's working folder), or for a masked value whether the lookup made before it was
/// masked found nothing: `(shown, path)`, the path `None` when it is not to be printed.
fn absent_value(k: &str, v: &str, s: &Setting) -> Option<(String, Option<PathBuf>)> {
    if v.contains(MASK) || is_secret_name(k) {
        return s
            .absent_env_paths
            .contains(k)
            .then(|| (format!("`{k}` (its value masked)"), None));
    }
    let home = entry_env(s)
        .find(|(k, _)| k == "HOME")
        .map(|(_, h)| h.clone())
        .or_else(|| std::env::var("HOME").ok());
    let p = absent_path(v, home.as_deref(), s.cwd.as_deref())?;
    Some((format!("`{k}={v}`"), Some(p)))
}

/// A `--call` that failed with an error naming variables: one the entry sets to a path where
/// nothing exists (`missing-file`: point it at a file that exists), else those the entry does
/// not set that the server's source reads or the error asks for (`missing-env-var`). A named
/// variable the entry sets to anything else leaves the call to the other rows: one of "A or B"
/// set may be enough. `paths`: the first kind only (read before the error's values are), else
/// the second only.
pub(crate) fn call_names_variable(
    launches: &[Launch],
    s: &Setting,
    paths: bool,
) -> Option<(Key, Diagnosis)> {
    let FailedCall {
        launch: l,
        message,
        unmarked,
    } = super::call_rows::failed_call(launches)?;
    let named = variables_named(&message);
    let env = super::words::terms("the entry's `env`", s);
    let mut evidence = vec![super::call_rows::answered(l, unmarked, &message)];
    let absent = named.iter().filter(|_| paths).find_map(|n| {
        let (k, v) = entry_env(s).find(|(k, _)| k == n)?;
        absent_value(k, v, s).map(|(shown, p)| (k, shown, p))
    });
    if let Some((k, shown, p)) = absent {
        let at = match &p {
            Some(p) => {
                evidence.push(Evidence {
                    launches: Vec::new(),
                    source: Source::Tried,
                    text: format!("looked up {}: nothing there", p.display()),
                });
                format!("{shown} names {}, where nothing is", p.display())
            }
            None => {
                evidence.push(Evidence {
                    launches: Vec::new(),
                    source: Source::Tried,
                    text: format!("looked up the path `{k}` gives: nothing there"),
                });
                format!("{shown} names a path where nothing is")
            }
        };
        let d = Diagnosis {
            id: Id::MissingFile,
            confidence: Confidence::High,
            summary: format!(
                "the tool call fails and its error names `{k}`, which {env} sets to a path where nothing exists"
            ),
            launches: vec![l.number],
            evidence,
            next_step: format!(
                "point `{k}` at a file that exists: {at}, and the tool call's error names `{k}`"
            ),
        };
        return Some((Key::CallErrorNamesAVariable, d));
    }
    if paths || named.iter().any(|n| is_set(s, n)) {
        return None;
    }
    let code = super::env_rows::scanned(s);
    let unset: Vec<&str> = named
        .into_iter()
        .filter(|n| asked_for(&message, n) || code.is_some_and(|c| c.read(n).is_some()))
        .collect();
    if unset.is_empty() {
        return None;
    }
    let names: Vec<String> = unset.iter().map(|n| format!("`{n}`")).collect();
    let names = names.join(" or ");
    let said = cut(message
        .lines()
        .find(|x| !x.trim().is_empty())
        .unwrap_or(&message));
    let d = Diagnosis {
        id: Id::MissingEnvVar,
        confidence: Confidence::High,
        summary: format!("the tool call fails naming {names}, which {env} does not set"),
        launches: vec![l.number],
        evidence,
        next_step: format!("set {names} in {env}: the tool call's error names it (\"{said}\")"),
    };
    Some((Key::CallErrorNamesAVariable, d))
}

#[cfg(test)]
mod tests {
    use super::{asked_for, variables_named};

    #[test]
    fn a_variable_is_asked_for_by_the_errors_words_not_by_its_shape() {
        let line = "Error: Specify the userId or set the DESTINATION_USER_ID in the environment variables of this MCP Server.";
        assert_eq!(variables_named(line), ["DESTINATION_USER_ID"]);
        assert!(asked_for(line, "DESTINATION_USER_ID"));
        assert!(asked_for(
            "Set GOOGLE_DRIVE_OAUTH_CREDENTIALS to the path of your credentials file",
            "GOOGLE_DRIVE_OAUTH_CREDENTIALS"
        ));
        // An error code shaped like a variable is no variable asked for.
        for code in [
            "RESOURCE_EXHAUSTED: quota exceeded for this project",
            "PERMISSION_DENIED: the caller lacks the scope",
        ] {
            let v = variables_named(code);
            assert!(v.iter().all(|n| !asked_for(code, n)), "{code}");
        }
        // `ERR_*` codes and short words are not read as variables.
        assert!(variables_named("ERR_INVALID_URL at A_B").is_empty());
        // Nor a name cut short at the end of a text cut short.
        assert_eq!(
            variables_named("set API_TOKEN or GOOGLE_DRIVE_OAUT…"),
            ["API_TOKEN"]
        );
    }
}

#[cfg(test)]
mod path_tests {
    use super::absent_path;

    #[test]
    fn only_a_path_where_nothing_is_is_absent() {
        assert!(absent_path("/nonexistent-m41/gcp-oauth.keys.json", None, None).is_some());
        assert!(absent_path("/", None, None).is_none());
        for no_path in ["https://x.example/a.json", "prod", "a b/c", "~/x.json"] {
            // `~` without a HOME is not looked up.
            assert!(absent_path(no_path, None, None).is_none(), "{no_path}");
        }
    }
}
