//! A settings schema's refusal tied to the variable the schema binds the setting to (see
//! [`super::structured`]: `Key::SchemaPathBoundToAVariable`).
//!
//! A Node error raised in a package (its first frame under `node_modules`) whose message is
//! one line per refused setting, `PATH: what is wrong` (convict's `validate()`: `port: ports
//! must be within range 0 - 65535`, `db.host: must be of type String`), names each setting by
//! its path in the schema, not by the variable. The experiment reads the server's own file that
//! called the library (its first frame outside `node_modules`) for the schema's object of that
//! setting (`port: { format: "port", default: 3000, env: "ZOO_PORT" }`): the variable of its
//! `env:` property (and the flag of its `arg:`) is the one to change when the entry sets it, to
//! set when it does not.

use super::frame_rows::{frame_source, own_frame};
use super::given::is_set;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// The most bytes of the server's file read (the frame's file, as [`own_frame`] reads it).
const MAX_FILE: u64 = 1024 * 1024;

/// The most bytes of one setting's object read.
const MAX_OBJECT: usize = 4000;

/// One refused setting and what the schema binds it to.
#[derive(Debug, PartialEq, Eq)]
struct Bound {
    path: String,
    message: String,
    var: String,
    flag: Option<String>,
    format: Option<String>,
    line: usize,
}

pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (raised, _, _) = frame_source(lines)?;
    if !raised.contains("/node_modules/") {
        return None;
    }
    let refused = refused_paths(lines);
    if refused.is_empty() {
        return None;
    }
    let (file, _, _) = own_frame(lines)?;
    if std::fs::metadata(&file).ok()?.len() > MAX_FILE {
        return None;
    }
    let text = std::fs::read_to_string(&file).ok()?;
    let bound: Vec<Bound> = refused
        .iter()
        .filter_map(|(path, message)| {
            let (var, flag, format, line) = binding(&text, path)?;
            Some(Bound {
                path: path.clone(),
                message: message.clone(),
                var,
                flag,
                format,
                line,
            })
        })
        .collect();
    let first = bound.first()?;
    let env = terms("the entry's `env`", s);
    let name = file.rsplit('/').next().unwrap_or(&file);
    let steps: Vec<String> = bound.iter().map(|b| step(b, s, name, &env)).collect();
    let any_given = bound.iter().any(|b| is_set(s, &b.var) || flag_given(b, s));
    let id = if any_given {
        Id::BadArgument
    } else {
        Id::MissingEnvVar
    };
    let vars: Vec<String> = bound.iter().map(|b| format!("`{}`", b.var)).collect();
    let summary = if any_given {
        format!(
            "the server's settings schema refuses the value of {}",
            vars.join(", ")
        )
    } else {
        format!(
            "the server's settings schema needs {}, which {env} does not set",
            vars.join(", ")
        )
    };
    let mut evidence: Vec<(Source, String)> = bound
        .iter()
        .map(|b| (Source::Stderr, cut(&format!("{}: {}", b.path, b.message))))
        .collect();
    evidence.push((
        Source::Tried,
        cut(&format!(
            "read {file}: `{}` is bound to `env: \"{}\"` on line {}",
            first.path, first.var, first.line
        )),
    ));
    Some(Found {
        id,
        summary,
        next: steps.join("; "),
        evidence,
    })
}

/// Whether the entry's args pass the flag the schema binds the setting to.
fn flag_given(b: &Bound, s: &Setting) -> bool {
    b.flag.as_ref().is_some_and(|f| {
        s.args
            .iter()
            .any(|a| a == f || a.starts_with(&format!("{f}=")))
    })
}

/// What to do about one refused setting: change the flag or the variable the entry gives, or
/// set the variable it does not.
fn step(b: &Bound, s: &Setting, name: &str, env: &str) -> String {
    let format = b
        .format
        .as_ref()
        .map(|f| format!(" (format {f})"))
        .unwrap_or_default();
    let said = format!(
        "the server's settings schema ({name}:{}) reads `{}` from it{format} and says \"{}\"",
        b.line, b.path, b.message
    );
    if flag_given(b, s) {
        let f = b.flag.as_deref().unwrap_or_default();
        format!("change `{f}` in the args: {said}")
    } else if is_set(s, &b.var) {
        format!("change `{}` in {env}: {said}", b.var)
    } else {
        let or = b
            .flag
            .as_ref()
            .map(|f| format!(" (or pass `{f}`)"))
            .unwrap_or_default();
        format!("set `{}` in {env}{or}: {said}", b.var)
    }
}

/// The settings a Node error's message refuses, one a line (`port: ports must be ...`), with
/// what it says of each: the lines of the first error's message (its head's `Error: ` line and
/// those under it, before its first `at` frame) all shaped `PATH: text`.
fn refused_paths(lines: &[&str]) -> Vec<(String, String)> {
    let Some(start) = lines.iter().position(|l| error_head(l).is_some()) else {
        return Vec::new();
    };
    let mut body = vec![error_head(lines[start]).unwrap_or_default()];
    for l in &lines[start + 1..] {
        if l.trim_start().starts_with("at ") || l.trim().is_empty() {
            break;
        }
        body.push(l);
    }
    let parsed: Vec<Option<(String, String)>> = body.iter().map(|l| path_line(l)).collect();
    if parsed.iter().any(Option::is_none) {
        return Vec::new();
    }
    parsed.into_iter().flatten().collect()
}

/// The message of a Node error's head line (`Error: x`, `TypeError: x`), at the line's start.
fn error_head(line: &str) -> Option<&str> {
    let (kind, rest) = line.split_once(": ")?;
    (kind.ends_with("Error") && kind.chars().all(|c| c.is_ascii_alphanumeric())).then_some(rest)
}

/// `PATH: text`, PATH a dotted identifier path (`port`, `db.host`).
fn path_line(line: &str) -> Option<(String, String)> {
    let (path, text) = line.split_once(": ")?;
    let ok = !path.is_empty()
        && path.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    (ok && !text.trim().is_empty()).then(|| (path.to_string(), text.trim().to_string()))
}

/// The variable (and the flag, and the format) the schema in `text` binds the setting `path`
/// to: the object written after its last part's key (`port: {`, `"port": {`) whose own `env:`
/// property is a quoted name; the one binding there is. With its line (1-based).
fn binding(text: &str, path: &str) -> Option<(String, Option<String>, Option<String>, usize)> {
    let key = path.rsplit('.').next()?;
    let mut found: Vec<(String, Option<String>, Option<String>, usize)> = Vec::new();
    for (at, _) in text.match_indices(key) {
        let before = text[..at].chars().next_back();
        let quote = before.filter(|c| matches!(c, '"' | '\''));
        let lead = match quote {
            Some(_) => text[..at - 1].chars().next_back(),
            None => before,
        };
        if lead.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$') {
            continue;
        }
        let mut rest = &text[at + key.len()..];
        if let Some(q) = quote {
            let Some(r) = rest.strip_prefix(q) else {
                continue;
            };
            rest = r;
        }
        let Some(r) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let Some(body) = r.trim_start().strip_prefix('{').and_then(object) else {
            continue;
        };
        let Some(var) = property(body, "env").filter(|v| super::model::upper_snake(v)) else {
            continue;
        };
        let flag = property(body, "arg").map(|a| format!("--{a}"));
        let format = property_text(body, "format");
        let line = text[..at].matches('\n').count() + 1;
        if !found.iter().any(|(v, ..)| *v == var) {
            found.push((var, flag, format, line));
        }
    }
    match found.len() {
        1 => found.pop(),
        _ => None,
    }
}

/// The text of an object literal whose `{` was just passed, up to its matching `}` (strings
/// skipped), at most [`MAX_OBJECT`] bytes.
fn object(after: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in after.char_indices() {
        if i > MAX_OBJECT {
            return None;
        }
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' if depth == 0 => return Some(&after[..i]),
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The text at the object's own level (nested objects, arrays and calls left out).
fn own_level(body: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in body.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The quoted name a property of the object's own level holds (`env: "ZOO_PORT"`).
fn property(body: &str, name: &str) -> Option<String> {
    let raw = property_text(body, name)?;
    let q = raw.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = raw.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    .then(|| inner.to_string())
}

/// The text of a property's value at the object's own level, up to its `,` or line's end
/// (a nested value's text is left out: `format: ["a", "b"]` gives nothing).
fn property_text(body: &str, name: &str) -> Option<String> {
    let own = own_level(body);
    own.match_indices(name).find_map(|(at, _)| {
        let before = own[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            return None;
        }
        let rest = own[at + name.len()..].trim_start().strip_prefix(':')?;
        let value = rest
            .split([',', '\n'])
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        (!value.is_empty() && value.len() <= 40).then_some(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = r#"const config = convict({
  apiKey: { format: String, default: "", env: "ZOO_API_KEY", sensitive: true },
  logLevel: { format: ["debug", "info"], default: "info", env: "ZOO_LOG_LEVEL" },
  port: { format: "port", default: 3000, env: "ZOO_PORT", arg: "port" },
  db: {
    host: { format: String, default: null, env: "ZOO_DB_HOST" },
    "port": { format: "port", default: 5432, env: "ZOO_DB_PORT" },
  },
});
config.validate({ allowed: "strict" });
"#;

    #[test]
    fn a_settings_path_is_the_variable_its_schema_object_binds() {
        let b = binding(SCHEMA, "port");
        // Two objects under `port` bind two variables: no guess.
        assert_eq!(b, None);
        let b = binding(SCHEMA, "db.host").map(|(v, f, _, l)| (v, f, l));
        assert_eq!(b, Some(("ZOO_DB_HOST".to_string(), None, 6)));
        let b = binding(SCHEMA, "logLevel").map(|(v, _, fmt, _)| (v, fmt));
        // A nested format (a list of choices) is no text of its own level.
        assert_eq!(b, Some(("ZOO_LOG_LEVEL".to_string(), None)));
        let one = SCHEMA.replace(
            "\"port\": { format: \"port\", default: 5432, env: \"ZOO_DB_PORT\" },",
            "",
        );
        let b = binding(&one, "port");
        assert_eq!(
            b,
            Some((
                "ZOO_PORT".to_string(),
                Some("--port".to_string()),
                Some("\"port\"".to_string()),
                4
            ))
        );
        // A key inside a longer name, or an object with no `env:`, binds nothing.
        assert_eq!(
            binding("support: { x: 1 }, port: { default: 1 }", "port"),
            None
        );
    }

    #[test]
    fn only_a_message_of_path_lines_is_a_schemas_refusal() {
        let lines = [
            "/x/node_modules/convict/src/main.js:679",
            "          throw new Error(output)",
            "                ^",
            "",
            "Error: workers: must be a positive integer: value was -3",
            "db.host: must be of type String",
            "    at Object.validate (/x/node_modules/convict/src/main.js:679:17)",
        ];
        assert_eq!(
            refused_paths(&lines),
            vec![
                (
                    "workers".to_string(),
                    "must be a positive integer: value was -3".to_string()
                ),
                ("db.host".to_string(), "must be of type String".to_string()),
            ]
        );
        // A message that is no list of settings: `connect ECONNREFUSED 127.0.0.1:5432`, or a
        // sentence whose colon follows several words.
        for head in [
            "Error: connect ECONNREFUSED 127.0.0.1:5432",
            "Error: Invalid config: port is wrong",
            "Error: The server said: no",
        ] {
            let lines = [head, "    at f (/x/node_modules/a/index.js:1:1)"];
            assert!(refused_paths(&lines).is_empty(), "{head}");
        }
    }
}
