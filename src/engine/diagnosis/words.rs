//! The server's own words about what it was given: a line that names one of the launch's
//! arguments or variables (`/x is not a valid Git repository` with `--repository /x`), a
//! message that asks for an argument, a message that names several variables. The next step
//! names the thing to change, in the entry's terms for a configuration entry and in the
//! command's terms for `probe -- CMD`.

use std::path::{Component, Path, PathBuf};

use super::model::{Evidence, Hit, Setting, Source};
use super::table::{self, Confidence, When, RULES};
use super::text;
use crate::engine::probe::read::help::{self, Part};
use crate::engine::probe::Launch;

/// Whether the server came from a configuration entry (the entry's terms) or a bare command.
fn from_entry(setting: &Setting) -> bool {
    setting.entry
}

/// `text` in the command's terms when the server is a bare command.
pub(super) fn terms(text: &str, setting: &Setting) -> String {
    if from_entry(setting) {
        return text.to_string();
    }
    text.replace("the entry's args", "the command")
        .replace("the entry's `env`", "the server's environment")
        .replace("the entry's `command`", "the command's program")
}

/// A value the launch gave the server, and how to name it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Given {
    /// `` `--repository /x` ``, `` the argument `/x` ``, `` `ALLOWED_DIR` ``.
    shown: String,
    /// What the server would print.
    value: String,
    /// The variable, when it is one.
    var: Option<String>,
}

/// Words that are no value a server complains about.
const NOT_VALUES: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "stdio", "sse", "http", "run", "serve", "start",
    "server", "null", "none",
];

/// Whether `a` is the program a runner or an interpreter runs (a script file, a package for
/// npx or uvx): what a server complains about is its arguments, not itself.
fn is_program(a: &str, cwd: Option<&Path>) -> bool {
    const SCRIPTS: &[&str] = &[
        ".js", ".mjs", ".cjs", ".ts", ".mts", ".py", ".rb", ".jar", ".sh", ".php", ".pl",
    ];
    if SCRIPTS.iter().any(|e| a.ends_with(e)) {
        return true;
    }
    // `@scope/name`, `name@1.2.3`: a package spec.
    a.starts_with('@')
        || (a.contains('@') && !a.contains("://") && !a.starts_with('-'))
        || cwd.is_some_and(|d| {
            let p = d.join(a);
            p.is_file() && !a.is_empty()
        }) && a.contains('.')
}

fn usable(value: &str) -> bool {
    let v = value.trim();
    let short_number = v.chars().all(|c| c.is_ascii_digit()) && v.len() < 3;
    v.chars().count() >= 2
        && !NOT_VALUES.contains(&v.to_ascii_lowercase().as_str())
        && !short_number
        && !v.contains("***")
}

/// The values the launch gave the server: each argument (an option with its value as one),
/// then each variable that is not a standard one.
fn givens(setting: &Setting) -> Vec<Given> {
    let base = setting
        .command
        .as_deref()
        .map(|c| c.rsplit('/').next().unwrap_or(c).to_string())
        .unwrap_or_default();
    let runner = ["npx", "uvx", "pnpx", "bunx", "pipx"].contains(&base.as_str());
    let mut out = Vec::new();
    let args = &setting.args;
    let mut i = 0;
    let mut program_seen = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "-m" || a == "--from" || a == "-p" || a == "--package" {
            // `python -m module`, `uvx --from pkg`: the program.
            i += 1;
            program_seen = true;
            continue;
        }
        if let Some(flag) = a.strip_prefix("--").filter(|_| a.len() > 3) {
            if let Some((name, value)) = flag.split_once('=') {
                if usable(value) {
                    out.push(Given {
                        shown: format!("`--{name}={value}`"),
                        value: value.to_string(),
                        var: None,
                    });
                }
                continue;
            }
            out.push(Given {
                shown: format!("`{a}`"),
                value: a.clone(),
                var: None,
            });
            if let Some(v) = args.get(i).filter(|v| !v.starts_with('-')) {
                i += 1;
                if usable(v) {
                    out.push(Given {
                        shown: format!("`{a} {v}`"),
                        value: v.clone(),
                        var: None,
                    });
                }
            }
            continue;
        }
        if a.starts_with('-') {
            continue;
        }
        if !program_seen && (runner || is_program(a, setting.cwd.as_deref())) {
            program_seen = true;
            continue;
        }
        if usable(a) {
            out.push(Given {
                shown: format!("the argument `{a}`"),
                value: a.clone(),
                var: None,
            });
        }
    }
    for (k, v) in &setting.env_values {
        if usable(v) && v.chars().count() >= 3 {
            out.push(Given {
                shown: format!("`{k}`"),
                value: v.clone(),
                var: Some(k.clone()),
            });
        }
    }
    out
}

/// `p` made absolute from `cwd` (or the probe's folder) without touching the disk.
fn absolute(p: &str, cwd: Option<&Path>) -> Option<String> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let path = if let Some(rest) = p.strip_prefix("~/") {
        home?.join(rest)
    } else if p.starts_with('.') || (p.contains('/') && !p.starts_with('/') && !p.contains("://")) {
        let base = cwd
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())?;
        base.join(p)
    } else {
        return None;
    };
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    Some(out.display().to_string())
}

/// Whether `value` is a plain lower-case word (`time`, `foo`), which prose also uses.
fn plain_word(value: &str) -> bool {
    value.chars().all(|c| c.is_ascii_lowercase())
}

/// Where `value` stands in `line` as a whole word (not inside a longer name or path); a plain
/// word only where it is not part of a sentence (`Unknown transport: foo`, not `No time zone`).
fn find_word(line: &str, value: &str) -> Option<usize> {
    let inner = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '/');
    let mut from = 0;
    while let Some(at) = line[from..].find(value) {
        let start = from + at;
        let end = start + value.len();
        let before = line[..start].chars().next_back();
        let after = line[end..].chars().next();
        let ok_before = before.is_none_or(|c| !(inner(c) || c == '.'));
        // A full stop then a name is a dotted path the value only begins (`redis` in
        // `redis.exceptions.AuthenticationError`), not the value.
        let mut past = line[end..].chars().skip(1);
        let ok_after = after.is_none_or(|c| {
            !inner(c)
                && (c != '.'
                    || past
                        .next()
                        .is_none_or(|d| !(d.is_alphanumeric() || d == '_')))
        });
        let in_prose = plain_word(value)
            && line[..start].ends_with(' ')
            && line[..start]
                .trim_end()
                .ends_with(|c: char| c.is_alphabetic())
            && line[end..].starts_with(' ')
            && line[end..]
                .trim_start()
                .starts_with(|c: char| c.is_alphabetic());
        if ok_before && ok_after && !in_prose {
            return Some(start);
        }
        from = start + value.len().max(1);
        if from >= line.len() {
            break;
        }
    }
    None
}

/// The given value `line` names (a path or a name before a plain word, then the longest),
/// with where it stands and the length of the text it matched.
fn tie<'g>(
    line: &str,
    givens: &'g [Given],
    cwd: Option<&Path>,
) -> Option<(&'g Given, usize, usize)> {
    let mut best: Option<((bool, usize), &Given, usize, usize)> = None;
    for g in givens {
        let forms = std::iter::once(g.value.clone()).chain(absolute(&g.value, cwd));
        for form in forms {
            if let Some(at) = find_word(line, &form) {
                let rank = (!plain_word(&form), form.len());
                if best.as_ref().is_none_or(|b| rank > b.0) {
                    best = Some((rank, g, at, form.len()));
                }
            }
        }
    }
    best.map(|(_, g, at, len)| (g, at, len))
}

/// A value the launch gave the server that a line names (a whole word), and how to name it
/// (`` `AWS_PROFILE` ``, `` the argument `/x` ``).
pub(super) struct Named {
    pub(super) shown: String,
    pub(super) value: String,
    pub(super) var: Option<String>,
}

/// The value of the entry's that `line` names, if any (the rows about a failed `--call`).
pub(super) fn named_value(line: &str, setting: &Setting) -> Option<Named> {
    let givens = givens(setting);
    let (g, _, _) = tie(line, &givens, setting.cwd.as_deref())?;
    Some(Named {
        shown: g.shown.clone(),
        value: g.value.clone(),
        var: g.var.clone(),
    })
}

/// What the server says about the value, as `it ...`: from the words after it (`/x is not a
/// valid Git repository`), else from the kind of complaint.
fn says_it(line: &str, at: usize, len: usize) -> Option<String> {
    let rest = line[at + len..]
        .trim_start_matches(['\'', '"', '`', '’', '”'])
        .trim();
    const VERBS: &[&str] = &[
        "is ", "does ", "cannot ", "can't ", "isn't ", "doesn't ", "was ", "has ", "not ",
    ];
    if VERBS.iter().any(|v| rest.starts_with(v)) {
        let cut = rest.split([',', ';', '(']).next().unwrap_or(rest);
        return Some(format!(
            "it {}",
            cut.trim().trim_end_matches(['.', ':', '!'])
        ));
    }
    let kinds: &[(&[&str], &str)] = &[
        (
            &[
                "ENOENT",
                "No such file",
                "no such file",
                "does not exist",
                "doesn't exist",
                "NoSuchPathError",
                "FileNotFoundError",
            ],
            "it does not exist",
        ),
        (
            &["ENOTDIR", "NotADirectoryError", "not a directory"],
            "it is not a directory",
        ),
        (
            &[
                "Cannot access",
                "cannot access",
                "Can't access",
                "EACCES",
                "Permission denied",
                "permission denied",
                "not accessible",
            ],
            "it cannot access it",
        ),
        (
            &["No time zone found"],
            "it knows no time zone of that name (IANA names look like `America/Los_Angeles`)",
        ),
        (
            &["nknown option", "nrecognized", "No such option"],
            "it does not know this option",
        ),
    ];
    kinds
        .iter()
        .find(|(words, _)| words.iter().any(|w| line.contains(w)))
        .map(|(_, s)| s.to_string())
}

fn ev(l: &Launch, source: Source, text: String) -> Evidence {
    Evidence {
        launches: vec![l.number],
        source,
        text,
    }
}

/// What the disk says about a value that looks like a path.
pub(super) fn path_fact(value: &str, cwd: Option<&Path>) -> Option<String> {
    let looks = value.starts_with('/') || value.starts_with('.') || value.starts_with("~/");
    if !looks || value.contains("://") {
        return None;
    }
    let abs = if value.starts_with('/') {
        value.to_string()
    } else {
        absolute(value, cwd)?
    };
    let shown = if abs == value {
        value.to_string()
    } else {
        format!(
            "{value} (from {}: {abs})",
            cwd.map_or_else(|| "here".to_string(), |d| d.display().to_string())
        )
    };
    Some(match std::fs::metadata(&abs) {
        Ok(m) if m.is_dir() => format!("{shown} is a folder"),
        Ok(_) => format!("{shown} is a file"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("nothing at {shown}"),
        Err(_) => format!("{shown} cannot be read from here"),
    })
}

/// `bad-argument`: a line of the server's stderr that complains and names a value it was
/// given, on a launch that ended before its handshake.
pub(super) fn value_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    let When::NamesAValue(words) = RULES[i].when else {
        return None;
    };
    // A server that completed its handshake accepted what it was given: a later line naming
    // one of its values (`crashed on tools/list` under `--crash-on tools/list`) is about
    // something else.
    if l.report.connected_at_ms.is_some() {
        return None;
    }
    let givens = givens(setting);
    if givens.is_empty() {
        return None;
    }
    let cwd = setting.cwd.as_deref();
    let tail = &l.report.stderr;
    let lines: Vec<&String> = tail.all_lines();
    let parts = help::parts(&lines);
    for (line, part) in lines.into_iter().zip(parts) {
        // A help text (its usage line included) describes the server, it does not complain.
        if part != Part::Outside
            || line.starts_with(char::is_whitespace)
            || line.len() > 1024
            || table::NOT_EVIDENCE.iter().any(|n| line.contains(n))
            || !words.iter().any(|w| line.contains(w))
        {
            continue;
        }
        let Some((g, at, len)) = tie(line, &givens, cwd) else {
            continue;
        };
        let place = match &g.var {
            Some(_) => terms("the entry's `env`", setting),
            None => terms("the entry's args", setting),
        };
        let it = says_it(line, at, len);
        let mut evidence = vec![ev(l, Source::Stderr, text::quote(line))];
        let given = match &g.var {
            Some(k) => format!("{place} gives {k}={}", g.value),
            None => format!(
                "{place} gives {}",
                g.shown.trim_start_matches("the argument ")
            ),
        };
        evidence.push(Evidence {
            launches: Vec::new(),
            source: if g.var.is_some() {
                Source::Environment
            } else {
                Source::Spawn
            },
            text: given,
        });
        if let Some(fact) = path_fact(&g.value, cwd) {
            evidence.push(Evidence {
                launches: Vec::new(),
                source: Source::Spawn,
                text: fact,
            });
        }
        let summary = match &it {
            Some(it) => format!("the server rejects {}: {it}", g.shown),
            None => format!("the server rejects {}", g.shown),
        };
        let as_url = super::url_rows::path_for_url(line, &g.value);
        let next = match &it {
            _ if as_url.is_some() => format!(
                "write {} in {place} as a URL with its scheme, not a file's path{}: the server says \"{}\"",
                g.shown,
                as_url.unwrap_or_default(),
                text::quote(line.trim())
            ),
            Some(it) => format!("change {} in {place}: the server says {it}", g.shown),
            None => format!(
                "change {} in {place}: the server says \"{}\"",
                g.shown,
                text::quote(line.trim())
            ),
        };
        return Some(Hit {
            rule: i,
            confidence: RULES[i].confidence,
            name: Some(g.shown.clone()),
            next: Some(next),
            says: Some(summary),
            launches: vec![l.number],
            evidence,
        });
    }
    None
}

/// `missing-argument`: the next step in the command's terms for a bare command; a usage line
/// alone is less sure than a message asking for the argument.
pub(super) fn argument_advice(h: &mut Hit, matched: &table::Text, setting: &Setting) {
    if matched.contains.eq_ignore_ascii_case("usage: ") {
        h.confidence = Confidence::Medium;
        h.says = Some("it printed its usage: an argument is wrong or missing".to_string());
        h.next = Some(terms(
            &format!(
                "compare the entry's args with the usage it prints: \"{}\"",
                h.name.clone().unwrap_or_default()
            ),
            setting,
        ));
        return;
    }
    let rule = &RULES[h.rule];
    let next = super::model::fill(rule.next, rule.next_unnamed, h.name.as_deref());
    h.next = Some(terms(&next, setting));
}

/// Whether the server got `name`: from the entry's environment, or (a bare command) the
/// probe's own.
fn got(name: &str, setting: &Setting) -> bool {
    match &setting.given_env {
        Some(given) => given.contains(name),
        None => setting.own_env.contains(name),
    }
}

/// `A`, `A and B`, `A, B and C`, each in backticks.
fn names(list: &[String]) -> String {
    let ticked: Vec<String> = list.iter().map(|n| format!("`{n}`")).collect();
    match ticked.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why the server did not get `name`, from what the entry passes and what is set here.
fn not_got_text(name: &str, setting: &Setting) -> String {
    let in_own = setting.own_env.contains(name);
    match &setting.given_env {
        Some(_) if in_own => format!(
            "{name} is set here, but the host does not pass it: the entry has no env.{name} and no inheritEnv"
        ),
        Some(_) => format!("{name} is set neither in the entry's env nor here"),
        None => format!("{name} is not set in the environment it got"),
    }
}

/// The next step for missing variables.
fn set_next(missing: &[String], setting: &Setting) -> String {
    let list = names(missing);
    match &setting.given_env {
        Some(_) if missing.iter().all(|n| setting.own_env.contains(n)) => {
            let shapes: Vec<String> = missing
                .iter()
                .map(|n| format!("`\"{n}\": \"${{{n}}}\"`"))
                .collect();
            format!(
                "add {list} to the entry's `env` (as {}), or set `\"inheritEnv\": true`: the host passes only its allowlist",
                shapes.join(", ")
            )
        }
        Some(_) => format!("set {list} in the entry's `env`"),
        None => format!("set {list} for the server (for the host: in the entry's `env`)"),
    }
}

/// The next step and evidence for the variables a message names: each one the server got and
/// each one it did not; a variable it got is never called missing.
pub(super) fn env_advice(h: &mut Hit, setting: &Setting, line: &str, keyed: bool) {
    let Some(first) = h.name.clone() else {
        return;
    };
    let mut named = if keyed {
        vec![first.clone()]
    } else {
        text::env_vars(line)
    };
    if !named.contains(&first) {
        named.insert(0, first);
    }
    let (had, missing): (Vec<String>, Vec<String>) =
        named.iter().cloned().partition(|n| got(n, setting));
    for n in &missing {
        h.evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Environment,
            text: not_got_text(n, setting),
        });
    }
    if !had.is_empty() {
        let verb = if had.len() == 1 { "is" } else { "are" };
        let whose = if had.len() == 1 {
            "its value"
        } else {
            "their values"
        };
        h.evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Environment,
            text: match &setting.given_env {
                Some(_) => format!(
                    "{} {verb} passed to the server: check {whose}",
                    had.join(", ")
                ),
                None => format!(
                    "{} {verb} set in the environment it got: check {whose}",
                    had.join(", ")
                ),
            },
        });
    }
    if missing.is_empty() {
        // Everything it asks for, it got: the values are suspect, not their absence.
        h.confidence = Confidence::Medium;
        h.says = Some(format!(
            "the server asks for {}, which it gets: {} suspect",
            names(&had),
            if had.len() == 1 {
                "its value is"
            } else {
                "their values are"
            }
        ));
        h.next = Some(match &setting.given_env {
            Some(_) => format!("check the value the entry gives {}", names(&had)),
            None => format!("check the value of {} in the environment", names(&had)),
        });
        return;
    }
    h.name = Some(missing.join(", "));
    if named.len() > 1 {
        h.says = Some(if had.is_empty() {
            format!("the environment variables {} are not set", names(&missing))
        } else {
            format!(
                "the server asks for {}: it gets {}, not {}",
                names(&named),
                names(&had),
                names(&missing)
            )
        });
    }
    let mut next = set_next(&missing, setting);
    if let Some(flag) = flag_offered(line, setting) {
        next.push_str(&terms(
            &format!(", or pass `{flag}` in the entry's args (the message offers both)"),
            setting,
        ));
    }
    if !had.is_empty() {
        next.push_str(&format!("; it already gets {}", names(&had)));
    }
    h.next = Some(next);
}

/// A flag the message offers beside the variable (`... or from environment variable
/// AWS_REGION. Please provide the region explicitly using --region argument.`), when the
/// entry's args do not pass it already.
fn flag_offered(line: &str, setting: &Setting) -> Option<String> {
    line.split(|c: char| c.is_whitespace() || matches!(c, '`' | '\'' | '"' | ',' | ';' | '(' | ')'))
        .map(|w| w.trim_end_matches(['.', ':', '!']))
        .map(|w| w.split('=').next().unwrap_or(w))
        .find(|w| {
            w.strip_prefix("--").is_some_and(|n| {
                n.len() >= 2
                    && n.starts_with(|c: char| c.is_ascii_lowercase())
                    && n.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            }) && !setting
                .args
                .iter()
                .any(|a| a == w || a.starts_with(&format!("{w}=")))
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::find_word;

    #[test]
    fn a_value_is_a_whole_word_not_the_head_of_a_dotted_path() {
        let line = "redis.exceptions.AuthenticationError: invalid username-password pair";
        assert_eq!(find_word(line, "redis"), None);
        assert_eq!(find_word("cannot open /srv/data.", "/srv/data"), Some(12));
        assert_eq!(find_word("Unknown mode: fast. Use slow", "fast"), Some(14));
    }
}
