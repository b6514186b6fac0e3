//! `${...}` variables as each host expands them: `${VAR}` and `${VAR:-default}` (Claude Code,
//! Copilot CLI), `${env:VAR}`, `${input:ID}`, `${workspaceFolder}`, `${userHome}` and the
//! rest of VS Code's and Cursor's forms. A form the host does not expand reaches the server as
//! written; an `${input:ID}` with no value given is kept and reported, never passed on.

use std::path::PathBuf;

use super::host::{Host, VarForm};

/// Where variables' values come from when an entry is read for one host.
pub(crate) struct Scope<'e> {
    pub host: Host,
    /// The environment (`${VAR}`, `${env:VAR}`).
    pub env: &'e dyn Fn(&str) -> Option<String>,
    /// `${workspaceFolder}`.
    pub workspace: Option<PathBuf>,
    /// `${userHome}`.
    pub home: Option<PathBuf>,
    /// `${input:ID}` values (`--input ID=VALUE`).
    pub inputs: &'e [(String, String)],
}

/// What the command line says about a file's dialect: `--host`, `--workspace`, `--input`.
#[derive(Debug, Clone, Default)]
pub struct Dialect<'e> {
    /// `--host` (`None`: detected from the file's name and shape).
    pub host: Option<Host>,
    /// `--workspace` (`None`: the folder holding `.vscode/` or `.cursor/`, or `.mcp.json`).
    pub workspace: Option<PathBuf>,
    /// `--input ID=VALUE`, in order.
    pub inputs: &'e [(String, String)],
}

impl<'e> Dialect<'e> {
    /// The scope a file is read in: the host given or detected from `path` (the file as
    /// named) and `text` (its top-level keys, and whether an entry has `serverUrl`).
    pub(crate) fn scope(
        &self,
        path: &std::path::Path,
        top_keys: &[&str],
        text: &str,
        env: &'e dyn Fn(&str) -> Option<String>,
    ) -> Scope<'e> {
        let host = self
            .host
            .unwrap_or_else(|| Host::detect(path, top_keys, text.contains("\"serverUrl\"")));
        let workspace = self.workspace.clone().or_else(|| Host::workspace_of(path));
        Scope {
            host,
            env,
            workspace,
            home: env("HOME").map(PathBuf::from),
            inputs: self.inputs,
        }
    }
}

impl<'e> Scope<'e> {}

/// One `${...}` in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ref<'s> {
    /// Byte span of the whole reference in the string.
    pub start: usize,
    pub end: usize,
    /// What is between `${` and `}`.
    pub inner: &'s str,
}

/// What a reference is, for a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind<'s> {
    /// A known form, with its name (variable, input id or predefined name).
    Known(VarForm, &'s str),
    /// A form no host here knows (`${config:x}`, `${command:y}`, `${A B}`).
    Unknown,
}

/// Every `${...}` in `s` (a `${` with no closing `}` is not one).
pub(crate) fn refs(s: &str) -> Vec<Ref<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(off) = s.get(from..).and_then(|r| r.find("${")) {
        let start = from + off;
        let Some(close) = s[start + 2..].find('}') else {
            break;
        };
        let end = start + 2 + close + 1;
        out.push(Ref {
            start,
            end,
            inner: &s[start + 2..end - 1],
        });
        from = end;
    }
    out
}

/// Whether `s` is nothing but `${...}` references (it names values, holds none).
pub(crate) fn reference_only(s: &str) -> bool {
    let rs = refs(s);
    !rs.is_empty() && rs.iter().map(|r| r.end - r.start).sum::<usize>() == s.len()
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && !s.as_bytes()[0].is_ascii_digit()
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// What `inner` is for `host`: hosts that expand `${VAR}` read `${workspaceFolder}` as an
/// environment variable of that name.
pub(crate) fn classify(inner: &str, host: Host) -> Kind<'_> {
    if let Some(name) = inner.strip_prefix("env:") {
        return Kind::Known(VarForm::Env, name);
    }
    if let Some(id) = inner.strip_prefix("input:") {
        return Kind::Known(VarForm::Input, id);
    }
    if let Some((name, _)) = inner.split_once(":-") {
        if is_ident(name) {
            return Kind::Known(VarForm::Default, name);
        }
    }
    if !host.expands(VarForm::Plain) {
        let form = match inner {
            "workspaceFolder" | "workspaceFolderBasename" => Some(VarForm::Workspace),
            "userHome" => Some(VarForm::UserHome),
            "pathSeparator" | "/" => Some(VarForm::PathSeparator),
            "cwd" => Some(VarForm::Cwd),
            _ => None,
        };
        if let Some(f) = form {
            return Kind::Known(f, inner);
        }
    }
    if is_ident(inner) {
        Kind::Known(VarForm::Plain, inner)
    } else {
        Kind::Unknown
    }
}

/// A string after expansion.
#[derive(Debug, Default)]
pub(crate) struct Expanded {
    pub text: String,
    /// Values put in from the environment and inputs (secrets wherever the text is shown).
    pub secrets: Vec<String>,
    /// `${input:ID}` with no value given: kept as written, and the entry must not be launched.
    pub missing_inputs: Vec<String>,
}

/// `s` as `scope.host` expands it.
pub(crate) fn expand(s: &str, scope: &Scope<'_>) -> Expanded {
    let mut out = Expanded::default();
    let mut last = 0;
    for r in refs(s) {
        out.text.push_str(&s[last..r.start]);
        last = r.end;
        let written = &s[r.start..r.end];
        let value = match classify(r.inner, scope.host) {
            Kind::Known(form, name) if scope.host.expands(form) => {
                value_of(form, name, r.inner, scope, &mut out)
            }
            _ => None,
        };
        out.text.push_str(value.as_deref().unwrap_or(written));
    }
    out.text.push_str(&s[last..]);
    out
}

/// The value a host puts in for one reference it expands (`None`: it stays as written).
fn value_of(
    form: VarForm,
    name: &str,
    inner: &str,
    scope: &Scope<'_>,
    out: &mut Expanded,
) -> Option<String> {
    let secret = |v: String, out: &mut Expanded| {
        if !v.is_empty() {
            out.secrets.push(v.clone());
        }
        v
    };
    match form {
        // Claude Code: an unset `${VAR}` stays as written.
        VarForm::Plain => (scope.env)(name).map(|v| secret(v, out)),
        VarForm::Default => {
            let default = inner.split_once(":-").map_or("", |(_, d)| d);
            match (scope.env)(name).filter(|v| !v.is_empty()) {
                Some(v) => Some(secret(v, out)),
                // The default is what the server gets: a secret too, unless a path or what
                // cannot be one (a number, a duration).
                None if crate::engine::redact::could_be_secret(default)
                    && !default.starts_with(['/', '.', '~', '$']) =>
                {
                    Some(secret(default.to_string(), out))
                }
                None => Some(default.to_string()),
            }
        }
        // VS Code: an unset `${env:VAR}` is the empty string.
        VarForm::Env => Some(secret((scope.env)(name).unwrap_or_default(), out)),
        VarForm::Input => match scope.inputs.iter().rev().find(|(id, _)| id == name) {
            Some((_, v)) => Some(secret(v.clone(), out)),
            None => {
                if !out.missing_inputs.iter().any(|m| m == name) {
                    out.missing_inputs.push(name.to_string());
                }
                None
            }
        },
        VarForm::Workspace => {
            let dir = scope.workspace.as_ref()?;
            if name == "workspaceFolderBasename" {
                dir.file_name().map(|n| n.to_string_lossy().into_owned())
            } else {
                Some(dir.to_string_lossy().into_owned())
            }
        }
        VarForm::Cwd => scope
            .workspace
            .as_ref()
            .map(|d| d.to_string_lossy().into_owned()),
        VarForm::UserHome => scope
            .home
            .as_ref()
            .map(|d| d.to_string_lossy().into_owned()),
        VarForm::PathSeparator => Some(std::path::MAIN_SEPARATOR.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("t0ken-value".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    fn scope(host: Host) -> Scope<'static> {
        static INPUTS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
        let inputs = INPUTS.get_or_init(|| vec![("key".into(), "input-secret".into())]);
        Scope {
            host,
            env: &env,
            workspace: Some(PathBuf::from("/w/proj")),
            home: Some(PathBuf::from("/home/me")),
            inputs,
        }
    }

    #[test]
    fn each_host_expands_its_own_forms() {
        let s = "${TOKEN}|${UNSET}|${UNSET:-d}|${env:TOKEN}|${input:key}|${input:nope}|\
                 ${workspaceFolder}|${userHome}|${workspaceFolderBasename}|${config:x}";
        let code = expand(s, &scope(Host::ClaudeCode));
        assert_eq!(
            code.text,
            "t0ken-value|${UNSET}|d|${env:TOKEN}|${input:key}|${input:nope}|\
             ${workspaceFolder}|${userHome}|${workspaceFolderBasename}|${config:x}"
        );
        let vs = expand(s, &scope(Host::Vscode));
        assert_eq!(
            vs.text,
            "${TOKEN}|${UNSET}|${UNSET:-d}|t0ken-value|input-secret|${input:nope}|\
             /w/proj|/home/me|proj|${config:x}"
        );
        assert_eq!(vs.missing_inputs, vec!["nope"]);
        assert_eq!(vs.secrets, vec!["t0ken-value", "input-secret"]);
        let cursor = expand(s, &scope(Host::Cursor));
        assert!(cursor.text.contains("|${input:key}|"));
        assert!(cursor.text.contains("|/w/proj|/home/me|"));
        assert!(cursor.missing_inputs.is_empty());
        let desktop = expand(s, &scope(Host::ClaudeDesktop));
        assert_eq!(desktop.text, s);
        let windsurf = expand("${env:EMPTY}x${env:TOKEN}", &scope(Host::Windsurf));
        assert_eq!(windsurf.text, "xt0ken-value");
    }
}
