//! What a launch error says: the command could not be started at all (not found, not
//! executable, its interpreter missing).

use std::path::{Path, PathBuf};

use super::model::{fill, Diagnosis, Evidence, Setting, Source};
use super::table::{Confidence, Id, When, RULES};
use super::text;
use crate::engine::probe::LaunchError;

/// What a launch error (the command could not be started at all) says.
pub(crate) fn of_launch_error(error: &LaunchError, setting: &Setting) -> Diagnosis {
    // The launch error's own words say which it is (see `stdio::launch_error`).
    let (when, reason) = match error {
        LaunchError::NotFound { .. } => (When::SpawnNotFound, None),
        LaunchError::CannotExecute { reason, .. } if reason.contains("(CRLF") => {
            return crlf(reason, setting);
        }
        LaunchError::CannotExecute { reason, .. }
            if reason.contains("interpreter") && reason.contains("does not exist") =>
        {
            (When::SpawnNotFound, Some(reason.clone()))
        }
        LaunchError::CannotExecute { reason, .. }
            if ["not executable", "not a program", "permission denied"]
                .iter()
                .any(|w| reason.contains(w)) =>
        {
            (When::SpawnDenied, Some(reason.clone()))
        }
        LaunchError::CannotExecute { reason, .. } | LaunchError::Other(reason) => {
            // A working directory that does not exist, a missing ELF loader, a bad URL: what
            // was seen, no more.
            return Diagnosis {
                id: Id::CauseUnknown,
                confidence: Confidence::Low,
                summary: format!("it could not be started: {}", text::quote(reason)),
                launches: Vec::new(),
                evidence: vec![Evidence {
                    launches: Vec::new(),
                    source: Source::Spawn,
                    text: text::quote(reason),
                }],
                next_step: format!(
                    "it could not be started ({}): check the command{} and the folder it runs in",
                    text::quote(reason),
                    if setting.entry { " of the entry" } else { "" }
                ),
            };
        }
    };
    let i = RULES
        .iter()
        .position(|r| std::mem::discriminant(&r.when) == std::mem::discriminant(&when))
        .unwrap_or(0);
    let rule = &RULES[i];
    let command = setting.command.clone().unwrap_or_default();
    let mut evidence: Vec<Evidence> = reason
        .iter()
        .map(|r| Evidence {
            launches: Vec::new(),
            source: Source::Spawn,
            text: text::quote(r),
        })
        .collect();
    let mut name = Some(command.clone());
    let mut says = None;
    let mut next = None;
    match when {
        When::SpawnNotFound => {
            if let Some((interp, fix)) = not_found(&command, setting, &mut evidence) {
                says = Some(format!("its interpreter `{interp}` was not found"));
                next = Some(fix);
                name = Some(interp);
            }
        }
        _ => evidence.push(denied(&command, setting)),
    }
    if next.is_none() && rule.id == Id::CommandNotFound && !setting.entry {
        // A bare command (`probe -- CMD`): there is no entry whose `command` to fix.
        next = Some(format!(
            "install `{command}` or give its full path (it is looked up in PATH's folders, shown)"
        ));
    }
    Diagnosis {
        id: rule.id,
        confidence: rule.confidence,
        summary: says.unwrap_or_else(|| fill(rule.says, rule.says_unnamed, name.as_deref())),
        launches: Vec::new(),
        evidence,
        next_step: next.unwrap_or_else(|| fill(rule.next, rule.next_unnamed, name.as_deref())),
    }
}

/// `crlf-line-endings`: the script's `#!` line ends in `\r`, so the system looks for an
/// interpreter whose name ends in it. The fix is the file's line endings, not the interpreter.
fn crlf(reason: &str, setting: &Setting) -> Diagnosis {
    let command = setting.command.clone().unwrap_or_default();
    let file = locate(&command, setting)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| command.clone());
    let interp = shebang(Path::new(&file))
        .map(|i| i.trim_end_matches("\\r").to_string())
        .unwrap_or_default();
    let mut evidence = vec![Evidence {
        launches: Vec::new(),
        source: Source::Spawn,
        text: text::quote(reason),
    }];
    if !interp.is_empty() {
        evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Spawn,
            text: format!("its first line: #!{interp}\\r"),
        });
    }
    Diagnosis {
        id: Id::CrlfLineEndings,
        confidence: Confidence::High,
        summary: format!("{file} has Windows line endings (CRLF): its `#!` line ends in `\\r`"),
        launches: Vec::new(),
        evidence,
        next_step: format!(
            "convert {file} to Unix line endings (`sed -i 's/\\r$//' {file}`, or `dos2unix`; \
             in git: `* text=auto eol=lf` in .gitattributes): the interpreter `{interp}` is \
             there, but the system looks for `{interp}\\r`"
        ),
    }
}

fn relative_to(command: &str, setting: &Setting) -> String {
    if command.starts_with('/') {
        return String::new();
    }
    let dir = setting
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    if dir.is_empty() {
        String::new()
    } else {
        format!(" (relative to {dir})")
    }
}

pub(super) fn path_evidence(setting: &Setting) -> Evidence {
    Evidence {
        launches: Vec::new(),
        source: Source::Environment,
        text: match &setting.path {
            Some(p) => format!("PATH={p}"),
            None => "the server gets no PATH".to_string(),
        },
    }
}

/// Where `command` resolves (a path, or the first `PATH` folder holding it).
fn locate(command: &str, setting: &Setting) -> Option<PathBuf> {
    if command.is_empty() {
        return None;
    }
    if command.contains('/') {
        let p = match &setting.cwd {
            Some(d) if !command.starts_with('/') => d.join(command),
            _ => PathBuf::from(command),
        };
        return p.is_file().then_some(p);
    }
    setting
        .path
        .as_deref()?
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(command))
        .find(|p| p.is_file())
}

/// The interpreter named by `file`'s `#!` line.
fn shebang(file: &Path) -> Option<String> {
    let head = crate::engine::infile::read_head_text(file, 256)?;
    let line = head.lines().next()?.strip_prefix("#!")?.trim();
    (!line.is_empty()).then(|| text::quote(line))
}

/// The evidence for a command not found: no such file (and PATH), or a file whose `#!`
/// interpreter is missing: then that interpreter and the next step.
fn not_found(
    command: &str,
    setting: &Setting,
    evidence: &mut Vec<Evidence>,
) -> Option<(String, String)> {
    let found = locate(command, setting);
    let mut missing = None;
    match &found {
        Some(file) => {
            // The file is there: what is missing is its `#!` interpreter.
            let interp = shebang(file);
            evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Spawn,
                text: format!(
                    "{} exists, yet starting it fails with \"No such file or directory\"",
                    file.display()
                ),
            });
            if let Some(i) = &interp {
                evidence.push(Evidence {
                    launches: Vec::new(),
                    source: Source::Spawn,
                    text: format!("its first line: #!{i}"),
                });
                let fix = format!(
                    "install the interpreter (`{i}`), or fix the `#!` line of {}",
                    file.display()
                );
                missing = Some((i.clone(), fix));
            }
        }
        None => {
            evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Spawn,
                text: if command.contains('/') {
                    format!("no file at {command}{}", relative_to(command, setting))
                } else {
                    format!("{command} is in none of PATH's folders")
                },
            });
        }
    }
    if !command.contains('/') || found.is_some() {
        evidence.push(path_evidence(setting));
    }
    missing
}

/// The evidence for a command that cannot be executed: a folder, or its mode.
fn denied(command: &str, setting: &Setting) -> Evidence {
    let p = locate(command, setting).unwrap_or_else(|| PathBuf::from(command));
    let what = match std::fs::metadata(&p) {
        Ok(m) if m.is_dir() => "is a folder".to_string(),
        Ok(m) => {
            use std::os::unix::fs::PermissionsExt;
            format!(
                "has mode {:o}: not executable",
                m.permissions().mode() & 0o777
            )
        }
        Err(_) => "cannot be executed (permission denied)".to_string(),
    };
    Evidence {
        launches: Vec::new(),
        source: Source::Spawn,
        text: format!("{} {what}", p.display()),
    }
}
