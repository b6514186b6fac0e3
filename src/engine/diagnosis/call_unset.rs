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
use super::concepts::{clause, concept, unset_meant};
use super::given::is_set;
use super::model::{cut, Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::structured::Key;
use super::table::{Confidence, Id};
use crate::engine::probe::Launch;

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
