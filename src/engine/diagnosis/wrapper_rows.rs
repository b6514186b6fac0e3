//! The structured row about a wrapper's folder (see [`super::structured`]): `uv --directory DIR
//! run ...` / `uv run --project DIR ...` whose folder does not hold what it is asked to run,
//! tested by looking at the folder (read-only, at most 64 entries of it and of its parent).

use std::path::{Path, PathBuf};

use super::model::{Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// The most entries of a folder looked at.
const MAX_ENTRIES: usize = 64;

/// `uv`'s folder flag and its value, and what `run` runs (its first argument that is no flag).
fn uv_folder(s: &Setting) -> Option<(String, String, Option<String>)> {
    let cmd = s.command.as_deref()?;
    if cmd.rsplit('/').next()? != "uv" {
        return None;
    }
    let mut folder: Option<(String, String)> = None;
    for (i, a) in s.args.iter().enumerate() {
        for flag in ["--directory", "--project"] {
            if a == flag {
                if let Some(v) = s.args.get(i + 1) {
                    folder = Some((flag.to_string(), v.clone()));
                }
            } else if let Some(v) = a.strip_prefix(&format!("{flag}=")) {
                folder = Some((flag.to_string(), v.to_string()));
            }
        }
    }
    let at = s.args.iter().position(|a| a == "run")?;
    // What `run` runs: its first argument that is neither a flag nor a folder flag's value.
    let mut target = None;
    let mut skip = false;
    for b in &s.args[at + 1..] {
        if skip {
            skip = false;
            continue;
        }
        if b == "--directory" || b == "--project" {
            skip = true;
            continue;
        }
        if !b.starts_with('-') {
            target = Some(b.clone());
            break;
        }
    }
    let run = Some(target);
    let (flag, dir) = folder?;
    Some((flag, dir, run?))
}

/// Whether `dir` holds the project (`pyproject.toml`) or the script (`x.py`) asked for.
fn holds(dir: &Path, script: Option<&str>) -> bool {
    match script.filter(|t| t.ends_with(".py")) {
        Some(t) => dir.join(t).is_file(),
        None => dir.join("pyproject.toml").is_file(),
    }
}

/// The folders beside or under `around` that hold what is asked, the closest name first.
fn candidates(around: &Path, name: &str, script: Option<&str>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(around) else {
        return Vec::new();
    };
    let mut found: Vec<(usize, PathBuf)> = entries
        .flatten()
        .take(MAX_ENTRIES)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && holds(p, script))
        .map(|p| {
            let n = p
                .file_name()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default();
            (strsim::osa_distance(&n, name), p)
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, p)| p).take(2).collect()
}

/// `uv --directory DIR run X` that died, where DIR does not exist or does not hold X (or a
/// `pyproject.toml` when X is no script).
pub(super) fn uv_folder_row(s: &Setting) -> Option<Found> {
    let (flag, dir, target) = uv_folder(s)?;
    let path = match (&s.cwd, Path::new(&dir).is_relative()) {
        (Some(c), true) => c.join(&dir),
        _ => PathBuf::from(&dir),
    };
    let script = target.as_deref();
    let wanted = match script.filter(|t| t.ends_with(".py")) {
        Some(t) => format!("`{t}`"),
        None => "a `pyproject.toml`".to_string(),
    };
    let shown = format!("`{flag} {dir}`");
    let args = terms("the entry's args", s);
    let name = path
        .file_name()
        .map(|x| x.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (summary, tried, near) = if !path.is_dir() {
        let near = path
            .parent()
            .map(|p| candidates(p, &name, script))
            .unwrap_or_default();
        (
            format!("{shown}: no such folder, so uv cannot run {wanted} there"),
            format!("look at {}: no such folder", path.display()),
            near,
        )
    } else if !holds(&path, script) {
        let near = candidates(&path, &name, script);
        (
            format!("{shown}: the folder holds no {wanted}"),
            format!("look at {}: no {wanted} in it", path.display()),
            near,
        )
    } else {
        return None;
    };
    let mut tried = tried;
    let next = match near.first() {
        Some(p) => {
            tried.push_str(&format!("; {} holds {wanted}", p.display()));
            format!(
                "point {flag} at {} (it holds {wanted}), not {dir}, in {args}",
                p.display()
            )
        }
        None => format!(
            "point {flag} in {args} at the folder that holds {wanted} (the project's folder): {dir} does not"
        ),
    };
    Some(Found {
        id: Id::BadArgument,
        summary,
        next,
        evidence: vec![(Source::Tried, tried)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uv(args: &[&str], cwd: &Path) -> Setting {
        Setting {
            command: Some("/opt/bin/uv".into()),
            args: args.iter().map(|a| a.to_string()).collect(),
            cwd: Some(cwd.to_path_buf()),
            entry: true,
            ..Setting::default()
        }
    }

    #[test]
    fn a_uv_folder_that_lacks_the_project_names_the_one_that_has_it() {
        // The MCP quickstart's `uv --directory FOLDER run weather.py`, with FOLDER misspelt and
        // with FOLDER its parent (real folders, looked at).
        let root = tempfile::tempdir().expect("tempdir");
        let weather = root.path().join("weather");
        std::fs::create_dir_all(&weather).expect("mkdir");
        std::fs::write(weather.join("weather.py"), "").expect("write");
        std::fs::write(weather.join("pyproject.toml"), "").expect("write");
        let typo = root.path().join("wether").display().to_string();
        let f = uv_folder_row(&uv(
            &["--directory", &typo, "run", "weather.py"],
            root.path(),
        ))
        .expect("a finding");
        assert_eq!(f.id, Id::BadArgument);
        assert!(f.summary.contains("no such folder"), "{}", f.summary);
        assert!(
            f.next.contains(&weather.display().to_string()),
            "{}",
            f.next
        );
        assert!(f.evidence.iter().all(|(s, _)| *s == Source::Tried));
        let parent = root.path().display().to_string();
        let f = uv_folder_row(&uv(
            &["--directory", &parent, "run", "weather.py"],
            root.path(),
        ))
        .expect("a finding");
        assert!(f.summary.contains("holds no `weather.py`"), "{}", f.summary);
        assert!(
            f.next.contains(&weather.display().to_string()),
            "{}",
            f.next
        );
        // `uv run --project DIR SERVER`: the folder must hold a pyproject.toml.
        let f = uv_folder_row(&uv(
            &["run", "--project", &parent, "weather-server"],
            root.path(),
        ))
        .expect("a finding");
        assert!(f.summary.contains("pyproject.toml"), "{}", f.summary);
        // Look-alikes: the folder that holds it, relative too; another command; no folder flag.
        let ok = weather.display().to_string();
        assert!(
            uv_folder_row(&uv(&["--directory", &ok, "run", "weather.py"], root.path())).is_none()
        );
        assert!(uv_folder_row(&uv(
            &["--directory", "weather", "run", "weather.py"],
            root.path()
        ))
        .is_none());
        assert!(uv_folder_row(&uv(
            &["run", "--project", &ok, "weather-server"],
            root.path()
        ))
        .is_none());
        let mut other = uv(&["--directory", &typo, "run", "weather.py"], root.path());
        other.command = Some("python3".into());
        assert!(uv_folder_row(&other).is_none());
        assert!(uv_folder_row(&uv(&["run", "weather.py"], root.path())).is_none());
    }
}
