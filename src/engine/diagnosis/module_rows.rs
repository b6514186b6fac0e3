//! The rows about module names a Python framework is given (see [`super::structured`]): a
//! settings module the entry names that cannot be imported (`DJANGO_SETTINGS_MODULE=
//! site.settings_prod`: `ModuleNotFoundError: No module named 'site.settings_prod'`, the
//! exception that ended a "During handling" chain), with the modules its package does hold
//! (an experiment: the folder looked at); and Django's `Unknown command: 'NAME'` for a command
//! that an app provides (an experiment: `<app>/management/commands/NAME.py` looked for in the
//! interpreter's site-packages and the folder the server starts in) whose app the settings do
//! not install.

use std::path::{Path, PathBuf};

use super::given::entry_env;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// The most folder entries looked at in one folder.
const MAX_ENTRIES: usize = 4000;

/// The most module names listed.
const MAX_LISTED: usize = 8;

/// The last exception line of the lines (`Name: message`, the name a dotted identifier ending
/// in `Error` or `Exception`): the one that ended the process.
fn last_exception<'a>(lines: &[&'a str]) -> Option<&'a str> {
    lines.iter().rev().map(|l| l.trim()).find(|t| {
        t.split_once(": ").is_some_and(|(name, _)| {
            let last = name.rsplit('.').next().unwrap_or(name);
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                && (last.ends_with("Error") || last.ends_with("Exception"))
        })
    })
}

/// The module a `ModuleNotFoundError` that ended the process names.
fn missing_module(lines: &[&str]) -> Option<(String, String)> {
    let line = last_exception(lines)?;
    let rest = line.strip_prefix("ModuleNotFoundError: No module named ")?;
    let name = rest.trim().trim_matches(|c| c == '\'' || c == '"');
    (!name.is_empty()).then(|| (line.to_string(), name.to_string()))
}

/// Where the entry gives `value` whole: a variable (`` `NAME` ``), or a flag's value (`` `--settings` ``;
/// never `-m`'s: a module to run is `import_rows.rs`'s).
fn holder(s: &Setting, value: &str) -> Option<String> {
    if let Some((k, _)) = entry_env(s).find(|(_, v)| v == value) {
        return Some(format!("`{k}`"));
    }
    s.args.iter().enumerate().find_map(|(i, a)| {
        if let Some((f, v)) = a.split_once('=') {
            return (f.starts_with("--") && v == value).then(|| format!("`{f}`"));
        }
        let flag = s.args.get(i.checked_sub(1)?)?;
        (a == value && flag.starts_with("--")).then(|| format!("`{flag}`"))
    })
}

/// The folder the server starts in.
fn start_folder(s: &Setting) -> Option<PathBuf> {
    s.cwd.clone().or_else(|| std::env::current_dir().ok())
}

/// The modules a package folder holds (`settings`, `urls`), sorted, at most [`MAX_LISTED`].
fn modules_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .flatten()
        .take(MAX_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let m = name.strip_suffix(".py")?;
            (!m.starts_with('_')).then(|| m.to_string())
        })
        .collect();
    out.sort();
    out.truncate(MAX_LISTED);
    out
}

/// A `ModuleNotFoundError` (the exception that ended the process) naming a module the entry
/// gives whole, in a variable or a flag: the entry's value names no module.
pub(super) fn set_module_missing(lines: &[&str], s: &Setting) -> Option<Found> {
    let (line, module) = missing_module(lines)?;
    let held = holder(s, &module)?;
    let mut evidence = vec![(Source::Stderr, cut(&line))];
    let mut hint = String::new();
    if let (Some((package, _)), Some(cwd)) = (module.rsplit_once('.'), start_folder(s)) {
        let dir = cwd.join(package.replace('.', "/"));
        let held_there = modules_in(&dir);
        if dir.is_dir() {
            let listed = if held_there.is_empty() {
                "no module".to_string()
            } else {
                held_there.join(", ")
            };
            evidence.push((
                Source::Tried,
                format!("look at {}: it holds {listed}", dir.display()),
            ));
            let closest = held_there
                .iter()
                .map(|m| format!("{package}.{m}"))
                .max_by(|a, b| {
                    strsim::jaro_winkler(a, &module).total_cmp(&strsim::jaro_winkler(b, &module))
                });
            if let Some(c) = closest {
                hint = format!(" (`{package}` holds {listed}: `{c}`?)");
            }
        }
    }
    Some(Found {
        id: Id::BadArgument,
        summary: format!("{held} names the module `{module}`, which does not exist"),
        next: format!(
            "point {held} at a module that exists{hint}: the server imports `{module}` from it and there is none"
        ),
        evidence,
    })
}

/// Django's report of a command it does not know: `Unknown command: 'NAME'` with `Type '... help'
/// for usage.` on the next line.
fn unknown_command<'a>(lines: &[&'a str]) -> Option<(&'a str, String)> {
    lines.windows(2).find_map(|w| {
        let t = w[0].trim();
        let rest = t.strip_prefix("Unknown command: '")?;
        let name = rest.split('\'').next()?;
        let next = w[1].trim();
        let usage = next.starts_with("Type '") && next.ends_with(" help' for usage.");
        (usage && !name.is_empty() && !name.contains('/')).then(|| (w[0], name.to_string()))
    })
}

/// The app folder holding `management/commands/NAME.py` under one of `bases`.
fn app_of(bases: &[PathBuf], name: &str) -> Option<PathBuf> {
    bases.iter().find_map(|base| {
        let entries = std::fs::read_dir(base).ok()?;
        let mut apps: Vec<PathBuf> = entries
            .flatten()
            .take(MAX_ENTRIES)
            .map(|e| e.path())
            .filter(|p| {
                p.join("management")
                    .join("commands")
                    .join(format!("{name}.py"))
                    .is_file()
            })
            .collect();
        apps.sort();
        apps.into_iter().next()
    })
}

/// Django's `Unknown command: 'NAME'` for a command an app provides (found by its place,
/// `<app>/management/commands/NAME.py`, in the interpreter's site-packages or the folder the
/// server starts in): the app is missing from the settings' INSTALLED_APPS.
pub(super) fn command_app_missing(lines: &[&str], s: &Setting) -> Option<Found> {
    let (line, name) = unknown_command(lines)?;
    let path = s.path.clone().or_else(|| std::env::var("PATH").ok());
    let interp = super::manifest::resolve(s.command.as_deref()?, path.as_deref())?;
    let mut bases: Vec<PathBuf> = start_folder(s).into_iter().collect();
    bases.extend(super::env_rows::site_dirs(&interp));
    let app_dir = app_of(&bases, &name)?;
    let app = app_dir.file_name()?.to_string_lossy().into_owned();
    let file = app_dir
        .join("management")
        .join("commands")
        .join(format!("{name}.py"));
    let settings = entry_env(s)
        .find(|(k, _)| k == "DJANGO_SETTINGS_MODULE")
        .map(|(_, v)| format!("the settings module `{v}`"))
        .unwrap_or_else(|| "the project's settings".to_string());
    Some(Found {
        id: Id::BadArgument,
        summary: format!(
            "the command `{name}` is the app `{app}`'s, and the settings do not install it"
        ),
        next: format!(
            "add `'{app}'` to INSTALLED_APPS in {settings}: the command `{name}` is that app's ({}), and Django lists only the commands of installed apps",
            file.display()
        ),
        evidence: vec![
            (Source::Stderr, cut(line.trim())),
            (
                Source::Tried,
                format!("look for management/commands/{name}.py in the folder it starts in and the site-packages of {}: {}", interp.display(), file.display()),
            ),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::{last_exception, missing_module, unknown_command};

    #[test]
    fn the_exception_that_ended_a_chain_and_djangos_unknown_command_are_read() {
        let chain = [
            "KeyError: 'stdio_server'",
            "",
            "During handling of the above exception, another exception occurred:",
            "  File \"<frozen importlib._bootstrap>\", line 1140, in _find_and_load_unlocked",
            "ModuleNotFoundError: No module named 'site1.settings_prod'",
        ];
        assert_eq!(
            missing_module(&chain).map(|(_, m)| m).as_deref(),
            Some("site1.settings_prod")
        );
        // A later exception ended it: the missing module is not the answer.
        let later = [
            "ModuleNotFoundError: No module named 'x'",
            "During handling of the above exception, another exception occurred:",
            "RuntimeError: no settings",
        ];
        assert_eq!(last_exception(&later), Some("RuntimeError: no settings"));
        assert!(missing_module(&later).is_none());
        let django = [
            "Unknown command: 'stdio_server'. Did you mean testserver?",
            "Type 'manage.py help' for usage.",
        ];
        assert_eq!(
            unknown_command(&django).map(|(_, n)| n).as_deref(),
            Some("stdio_server")
        );
        // Another program's words, without Django's usage line under them.
        assert!(unknown_command(&["Unknown command: 'serve'", "Run with --help"]).is_none());
    }
}
