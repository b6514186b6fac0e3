//! The source line of the frame a Node error was raised from (an experiment: the server's file
//! read at that line), and the row keyed on it (see [`super::structured`]:
//! `Key::UndefinedArgumentReadFromAnUnsetVariable`): Node's `ERR_INVALID_ARG_TYPE` with
//! `Received undefined` (`The "path" argument must be of type string ... Received undefined`:
//! `fs.readFileSync(process.env.X)`, `path.join(process.env.X)`, `new URL(...)` handed nothing)
//! raised from a line that reads `process.env.X` (or `process.env["X"]`) which the entry does
//! not set: `missing-env-var` naming `X`.

use super::evidence::Fact;
use super::given::is_set;
use super::model::{cut, upper_snake, Found, Setting, Source};
use super::table::Id;

/// The first frame of the launch's Node stacks outside Node's own modules (`at start
/// (file:///app/index.mjs:12:5)`, `at /app/index.js:3:9`): its file, line and source line
/// (the file read, at most 1 MiB).
pub(super) fn frame_source(lines: &[&str]) -> Option<(String, usize, String)> {
    source_at(lines, false)
}

/// The source line of the server's own first frame (outside Node's modules and any
/// `node_modules`): the line that handed a library the value it raised on.
pub(super) fn own_frame_line(lines: &[&str]) -> Option<String> {
    source_at(lines, true).map(|(_, _, src)| src)
}

/// The server's own first frame (outside Node's modules and any `node_modules`): its file,
/// line and source line.
pub(super) fn own_frame(lines: &[&str]) -> Option<(String, usize, String)> {
    source_at(lines, true)
}

/// The source of the first frame outside Node's own modules and, with `own`, outside any
/// `node_modules` too: the server's line that handed a library what it choked on.
fn source_at(lines: &[&str], own: bool) -> Option<(String, usize, String)> {
    let loc = lines.iter().find_map(|l| {
        let t = l.trim_start().strip_prefix("at ")?;
        let loc = match t.rfind(" (") {
            Some(i) => t[i + 2..].trim_end_matches(')'),
            None => t,
        };
        // Not Node's own modules, nor a frame with no file (`new Promise (<anonymous>)`).
        let skipped = loc.starts_with("node:") || loc.starts_with('<') || loc == "native";
        (!(skipped || own && loc.contains("/node_modules/"))).then_some(loc)
    })?;
    let loc = loc.strip_prefix("file://").unwrap_or(loc);
    let mut parts = loc.rsplitn(3, ':');
    let (_col, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let n: usize = line.parse().ok()?;
    if std::fs::metadata(file).ok()?.len() > 1024 * 1024 {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let src = text.lines().nth(n.checked_sub(1)?)?.trim().to_string();
    Some((file.to_string(), n, src))
}

/// The variables a source line reads from `process.env` (`process.env.X`, `process.env["X"]`,
/// `process.env['X']`, or through a binding of it named `env`: `env.X`), in order.
pub(super) fn env_reads(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, _) in src.match_indices("env") {
        let own = src[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'));
        let dotted = src[..i].ends_with('.');
        if !own || dotted && !src[..i].ends_with("process.") {
            continue;
        }
        let rest = &src[i + "env".len()..];
        let name = if let Some(r) = rest.strip_prefix('.') {
            r.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
        } else if let Some(r) = rest.strip_prefix("[\"").or_else(|| rest.strip_prefix("['")) {
            r.split(['"', '\'']).next()
        } else {
            None
        };
        if let Some(n) =
            name.filter(|n| upper_snake(n) || n.chars().all(|c| c.is_ascii_uppercase()))
        {
            if !n.is_empty() && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Whether every read of `name` on `src` has a default after it (`env.X ?? "a"`, `|| 3000`).
pub(super) fn defaulted(src: &str, name: &str) -> bool {
    let mut any = false;
    for (i, _) in src.match_indices(name) {
        any = true;
        let rest = src[i + name.len()..].trim_start();
        if !(rest.starts_with("??") || rest.starts_with("||")) {
            return false;
        }
    }
    any
}

/// A library's refusal of a value it was not given: the last Node error whose first frame
/// outside Node's modules is under `node_modules` (raised there, synchronously, under the
/// server's call) and whose message says a value is absent (`undefined`, `required`,
/// `missing`, `expected`, `must be`): neo4j-driver's `"Bolt URL" expected to be string but was:
/// undefined`, tedious' `The "config.server" property is required`, @elastic/elasticsearch's
/// `ConfigurationError: Missing node(s) option`.
fn refused_by_library<'a>(facts: &'a [Fact], lines: &[&str]) -> Option<&'a Fact> {
    let (raised, _, _) = source_at(lines, false)?;
    if !raised.contains("/node_modules/") {
        return None;
    }
    facts.iter().rev().find(|f| {
        let Fact::Node { message, code, .. } = f else {
            return false;
        };
        let low = message.to_ascii_lowercase();
        code.is_none()
            && ["undefined", "required", "missing", "expected", "must be"]
                .iter()
                .any(|w| low.contains(w))
    })
}

pub(super) fn undefined_argument(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let f = facts.iter().rev().find(|f| {
        matches!(f, Fact::Node { code, message, .. }
            if code.as_deref() == Some("ERR_INVALID_ARG_TYPE")
                && message.trim_end().ends_with("Received undefined"))
    });
    // V8's TypeError on a property of `undefined` (`Cannot read properties of undefined
    // (reading 'startsWith')`, older `Cannot read property 'x' of undefined`), raised in a
    // library (mongodb's `new MongoClient(process.env.MONGODB_URI)`) or on the server's line.
    let read = || {
        facts.iter().rev().find(|f| {
            matches!(f, Fact::Node { kind, message, .. }
                if kind == "TypeError"
                    && (message.starts_with("Cannot read properties of undefined")
                        || message.starts_with("Cannot read property ")
                            && message.contains(" of undefined")))
        })
    };
    let (f, own, refused) = match f {
        Some(f) => (f, false, false),
        None => match read() {
            Some(f) => (f, true, false),
            None => (refused_by_library(facts, lines)?, true, true),
        },
    };
    let unset_on = |src: &str| -> Vec<String> {
        env_reads(src)
            .into_iter()
            .filter(|v| !is_set(s, v) && !defaulted(src, v))
            .map(str::to_string)
            .collect()
    };
    let (mut file, mut n, mut src) = source_at(lines, own)?;
    let mut unset = unset_on(&src);
    // Node's own check raised under a package's line (sequelize's `url.parse(database)` handed
    // `new Sequelize(process.env.DATABASE_URL)` unset): the server's line that called it.
    if unset.is_empty() && !own && file.contains("/node_modules/") {
        (file, n, src) = source_at(lines, true)?;
        unset = unset_on(&src);
    }
    let [var] = unset.as_slice() else {
        return None;
    };
    // A library's refusal that names a set variable of that line by a word of its name
    // (`region must be one of us, eu` under `init({ debug: env.ZOO_DEBUG, region:
    // env.ZOO_REGION })` with ZOO_REGION=xx) is about that value, not the unset one, unless it
    // says a value was not given (`undefined`).
    if refused && !f.message().is_some_and(|m| m.contains("undefined")) {
        let words: Vec<String> = f
            .message()
            .unwrap_or_default()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .map(str::to_ascii_lowercase)
            .collect();
        let names_set = env_reads(&src)
            .into_iter()
            .filter(|v| is_set(s, v))
            .any(|v| {
                v.split('_')
                    .skip(1)
                    .filter(|p| p.len() >= 4)
                    .any(|p| words.contains(&p.to_ascii_lowercase()))
            });
        if names_set {
            return None;
        }
    }
    let env = super::words::terms("the entry's `env`", s);
    let error = cut(&f.quoted());
    Some(Found {
        id: Id::MissingEnvVar,
        summary: format!(
            "the server hands `{var}` to a call that needs a value, and {env} does not set it"
        ),
        next: format!(
            "set `{var}` in {env}: the server reads it on the line that failed ({file}:{n}) and says \"{error}\""
        ),
        evidence: vec![
            (Source::Stderr, error),
            (Source::Tried, cut(&format!("read {file}:{n}: {src}"))),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_lines_env_reads() {
        assert_eq!(
            env_reads(
                "const c = readFileSync(process.env.APP_CONFIG, 'utf8') || process.env[\"PORT\"];"
            ),
            ["APP_CONFIG", "PORT"]
        );
        assert!(env_reads("const env = process.env;").is_empty());
        assert!(env_reads("const x = process.env.npm_config_cache;").is_empty());
        // A binding of process.env named `env`; not another object's `env` property.
        assert_eq!(
            env_reads("const c = new MongoClient(env.MONGODB_URI, { a: 1 });"),
            ["MONGODB_URI"]
        );
        assert!(env_reads("const x = config.env.MONGODB_URI;").is_empty());
        assert!(env_reads("const x = myenv.MONGODB_URI;").is_empty());
    }

    #[test]
    fn a_read_with_a_default_is_never_the_one_missing() {
        let src = "new Client({ node: env.ES_URL, retries: Number(env.ES_RETRIES ?? 0), x: env.X || 'a' })";
        assert!(!defaulted(src, "ES_URL"));
        assert!(defaulted(src, "ES_RETRIES"));
        assert!(defaulted(src, "X"));
        assert!(!defaulted("f(env.A ?? 1, env.A)", "A"));
    }
}
