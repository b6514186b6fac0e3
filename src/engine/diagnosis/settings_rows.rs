//! The structured rows about a server's settings (see [`super::structured`]): a pydantic
//! validation block, each field mapped to the entry's variable (by the model's prefix and
//! case), and an error naming two variables the entry sets (in its words, or a settings
//! model's own validator tied to them): they conflict.

use super::env_rows;
use super::evidence::{self, Fact};
use super::given::{entry_env, entry_var, is_set, value_of, vars_in};
use super::model::{cut, Found, Setting, Source};
use super::source_scan::{Read, Scanned};
use super::table::Id;

pub(super) fn validation(facts: &[Fact], s: &Setting) -> Option<Found> {
    let Some(Fact::Pydantic { model, fields }) =
        facts.iter().find(|f| matches!(f, Fact::Pydantic { .. }))
    else {
        return None;
    };
    // A model's own validator (no field) is read by the entry's variables it names
    // ([`model_vars`]): one here, two or more in [`two_vars`].
    if let Some(m) = fields.iter().find(|f| f.field.is_empty()) {
        let vars = model_vars(m, s);
        let [var] = vars.as_slice() else {
            return None;
        };
        let message = m.message.trim_start_matches("Value error, ");
        return Some(Found {
            id: Id::BadArgument,
            summary: format!("the server's settings ({model}) refuse `{var}`: {message}"),
            next: format!(
                "change `{var}` in the entry's env (the server's settings {model} say: \"{}\")",
                cut(message)
            ),
            evidence: vec![(
                Source::Stderr,
                cut(&format!("validation error for {model}: {}", m.message)),
            )],
        });
    }
    let f = fields.first()?;
    let leaf = f.field.rsplit('.').next().unwrap_or(&f.field);
    let quoted = cut(&Fact::Pydantic {
        model: model.clone(),
        fields: fields.clone(),
    }
    .quoted());
    if let Some(var) = entry_var(s, leaf, true) {
        let v = value_of(s, var);
        return Some(Found {
            id: Id::BadArgument,
            summary: format!(
                "`{var}={v}` is refused by the server's settings ({model}.{}: {})",
                f.field, f.message
            ),
            next: format!("change `{var}` in the entry's env: {}", f.message),
            evidence: vec![(Source::Stderr, quoted)],
        });
    }
    if let Some(found) = whole_name(model, &f.message, leaf, &quoted, s) {
        return Some(found);
    }
    let up = leaf.to_ascii_uppercase();
    let missing = f.kind.as_deref() == Some("missing");
    if missing && !f.field.contains('.') {
        if let Some(found) = prefixed_missing(model, &f.field, &up, &quoted, s) {
            return Some(found);
        }
    }
    // A settings prefix shared by the entry's own variables (`QDRANT_URL` -> `QDRANT_`).
    let prefix = entry_env(s)
        .filter(|_| s.given_env.is_some())
        .filter_map(|(k, _)| k.split_once('_').map(|(p, _)| p))
        .find(|p| p.len() >= 2);
    let named = match prefix {
        Some(p) => {
            format!("`{up}` (or `{p}_{up}`, with the prefix of the entry's other variables)")
        }
        None => format!("`{up}`"),
    };
    Some(Found {
        id: if missing {
            Id::MissingEnvVar
        } else {
            Id::BadArgument
        },
        summary: format!(
            "the server's settings ({model}) refuse `{}`: {}",
            f.field, f.message
        ),
        next: if missing {
            format!(
                "set {named} in the entry's env: the settings field `{}` has no value",
                f.field
            )
        } else {
            format!("set {named} in the entry's env to a valid value ({}); the entry gives none, so the server used its default", f.message)
        },
        evidence: vec![(Source::Stderr, quoted)],
    })
}

/// An issue whose message names variables whole (`UPPER_SNAKE`): the one it names that holds
/// the field's word and that the entry does not set (`ES_PASSWORD` for the field `password`,
/// @elastic/mcp-server-elasticsearch's `Either ES_API_KEY or both ES_USERNAME and ES_PASSWORD
/// must be provided`), never the field's word alone (`PASSWORD`); an entry variable close to
/// it that the message does not name (`ES_PASS`) is to be renamed.
fn whole_name(model: &str, message: &str, leaf: &str, quoted: &str, s: &Setting) -> Option<Found> {
    let names: Vec<&str> = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 4 && w.contains('_') && super::model::upper_snake(w))
        .collect();
    let unset: Vec<&str> = names.iter().copied().filter(|n| !is_set(s, n)).collect();
    let words: Vec<String> = leaf.split('_').map(str::to_ascii_uppercase).collect();
    let holds = |n: &&str| words.iter().all(|w| n.split('_').any(|p| p == w));
    let wanted = match unset.iter().find(|n| holds(n)) {
        Some(w) => *w,
        None => match unset.as_slice() {
            [one] => *one,
            _ => return None,
        },
    };
    let near = entry_env(s)
        .map(|(k, _)| k.as_str())
        .filter(|k| !names.contains(k))
        .find(|k| env_rows::close(k, wanted).is_some());
    let said = cut(message);
    let (id, next) = match near {
        Some(k) => (
            Id::MissingEnvVar,
            format!("rename `{k}` to `{wanted}` in the entry's env: the server's settings ({model}) name `{wanted}`, never `{k}` (\"{said}\")"),
        ),
        None => (
            Id::MissingEnvVar,
            format!("set `{wanted}` in the entry's env: the server's settings ({model}) name it (\"{said}\")"),
        ),
    };
    Some(Found {
        id,
        summary: format!(
            "the server's settings ({model}) want `{wanted}`, which the entry does not set: {said}"
        ),
        next,
        evidence: vec![(Source::Stderr, quoted.to_string())],
    })
}

/// A missing field named alone (`api_key`), read under the model's prefix ([`prefixed_read`]).
fn prefixed_missing(
    model: &str,
    field: &str,
    up: &str,
    quoted: &str,
    s: &Setting,
) -> Option<Found> {
    let (read, code) = prefixed_read(up, s)?;
    Some(Found {
        id: Id::MissingEnvVar,
        summary: format!(
            "the server's settings ({model}) need `{field}`, read from `{}`, which the entry does not set",
            read.name
        ),
        next: format!(
            "set `{}` in the entry's env: the settings field `{field}` has no value (the model reads it with its prefix, {})",
            read.name, read.at
        ),
        evidence: vec![
            (Source::Stderr, quoted.to_string()),
            (Source::Tried, env_rows::tried(code, &[read])),
        ],
    })
}

/// The one variable the server's source reads for the field `up` (`API_KEY`) under a
/// prefix (`ZOO_API_KEY`, or `API_KEY` itself), which the entry does not set.
fn prefixed_read<'a>(up: &str, s: &'a Setting) -> Option<(&'a Read, &'a Scanned)> {
    let code = env_rows::scanned(s)?;
    let tail = format!("_{up}");
    let mut hits = code
        .reads
        .iter()
        .filter(|r| (r.name == up || r.name.ends_with(&tail)) && !is_set(s, &r.name));
    let one = hits.next()?;
    hits.next().is_none().then_some((one, code))
}

/// The entry's variables a model-level validation error ties to: the settings fields its
/// message quotes (`'local_path'` -> `QDRANT_LOCAL_PATH`) and the keys of the settings it was
/// given that the entry sets (`input_value={'QDRANT_URL': ...}`).
fn model_vars<'a>(f: &evidence::FieldError, s: &'a Setting) -> Vec<&'a str> {
    let mut vars = vars_in(s, &f.message);
    for k in &f.keys {
        if let Some(v) = super::given::entry_var(s, k, false) {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    vars
}

/// An error naming two variables the entry sets (in its words, or a settings model's own
/// validator tied to them: [`model_vars`]): they conflict.
pub(super) fn two_vars(facts: &[Fact], s: &Setting) -> Option<Found> {
    let (quoted, vars) = facts.iter().find_map(|f| {
        let vars = if f.is_error() {
            vars_in(s, f.message()?)
        } else if let Fact::Pydantic { model, fields } = f {
            let m = fields.iter().find(|x| x.field.is_empty())?;
            let vars = model_vars(m, s);
            return (vars.len() >= 2)
                .then(|| (format!("validation error for {model}: {}", m.message), vars));
        } else {
            return None;
        };
        (vars.len() >= 2).then(|| (f.quoted(), vars))
    })?;
    let quoted = cut(&quoted);
    let (a, b) = (vars[0], vars[1]);
    Some(Found {
        id: Id::ConflictingSettings,
        summary: format!("the entry sets both `{a}` and `{b}`, and the server refuses them together"),
        next: format!("keep one of `{a}` and `{b}` in the entry's env and remove the other (the server says: \"{quoted}\")"),
        evidence: vec![(Source::Stderr, quoted)],
    })
}
