//! The row about a settings library's own error naming one field of its settings and what is
//! wrong with it, the field read from a variable of the entry under the library's prefix
//! (`Key::SettingsLibraryRefusesAField`, see [`super::structured`]):
//! - pydantic-settings 2's `SettingsError: error parsing value for field "tags" from source
//!   "EnvSettingsSource"` (`sources.py`: a list, set, dict or model field is read from its
//!   variable as JSON, and `a,b` is no JSON): the variable is `TAGS` or `<PREFIX>_TAGS`;
//! - dynaconf 3's `ValidationError: MODE must is_in ['fast', 'slow'] but it is medium in env
//!   main` (`validator.py`'s default message, `{name} must {operation} {op_value} but it is
//!   {value} in env {env}`): the variable is `MODE` or `<ENVVAR_PREFIX>_MODE` (a dotted name,
//!   `DB.PORT`, is `DB__PORT`).
//!
//! The class and the message's shape are the library's; the field is tied to the entry only
//! when one of its variables is that field (a value from a settings file is none of the
//! entry's).

use super::evidence::Fact;
use super::given::{entry_env, is_set, value_of};
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// The entry's one variable that is the settings field `field` (its name, or its name under a
/// prefix: `ZOO_TAGS` for `tags`; a nested field's `__`).
fn field_var<'a>(s: &'a Setting, field: &str) -> Option<&'a str> {
    let up = field.to_ascii_uppercase().replace('.', "__");
    if up.len() < 2 || !up.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let tail = format!("_{up}");
    let vars: Vec<&str> = entry_env(s)
        .map(|(k, _)| k.as_str())
        .filter(|k| {
            let k = k.to_ascii_uppercase();
            // `ZOO_DB__PORT` is the field `db.port`, not `port`.
            k == up || (k.ends_with(&tail) && !k[..k.len() - tail.len()].ends_with('_'))
        })
        .collect();
    match vars.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// pydantic-settings' `error parsing value for field "X" from source "EnvSettingsSource"`:
/// the field.
fn unparsed_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("error parsing value for field \"")?;
    let (field, source) = rest.split_once('"')?;
    (source.trim() == "from source \"EnvSettingsSource\"").then_some(field)
}

/// dynaconf's `NAME must OPERATION OP_VALUE but it is VALUE in env ENV`: the name, the
/// operation and what it must be.
fn failed_validator(message: &str) -> Option<(&str, &str, &str)> {
    let (name, rest) = message.split_once(" must ")?;
    let (operation, rest) = rest.split_once(' ')?;
    let (op_value, rest) = rest.rsplit_once(" but it is ")?;
    let (_, env) = rest.rsplit_once(" in env ")?;
    let named = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    let op = operation
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b == b'_');
    (named && op && !env.is_empty() && !env.contains(' ')).then_some((name, operation, op_value))
}

/// dynaconf's `NAME is required in env ENV` while the entry sets `NAME` itself: dynaconf reads
/// it under its prefix (`envvar_prefix`, `DYNACONF` by default), never bare, so the entry's
/// value is not read for it. The one unset variable the server's source reads ending in
/// `_NAME` (an experiment: the source read; dynaconf's `Validator` names under their prefix) is
/// named, else the default prefix's.
fn required_yet_set(message: &str, quoted: &str, s: &Setting) -> Option<Found> {
    let (name, env) = message.split_once(" is required in env ")?;
    let bare = name.replace('.', "__");
    let named = !bare.is_empty()
        && bare
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    if !named || env.contains(' ') || !is_set(s, &bare) {
        return None;
    }
    let tail = format!("_{bare}");
    let read: Vec<(String, String)> = super::env_rows::scanned(s)
        .map(|code| {
            code.reads
                .iter()
                .filter(|r| r.name.ends_with(&tail) && !is_set(s, &r.name))
                .map(|r| (r.name.clone(), r.at.clone()))
                .collect()
        })
        .unwrap_or_default();
    let env_words = terms("the entry's `env`", s);
    let (var, why) = match read.as_slice() {
        [(var, at)] => (var.clone(), format!("the server reads `{bare}` under its prefix: {var}, {at}")),
        _ => (
            format!("DYNACONF_{bare}"),
            format!("dynaconf reads `{bare}` under its `envvar_prefix`, `DYNACONF` unless the server sets another"),
        ),
    };
    Some(Found {
        id: Id::MissingEnvVar,
        summary: format!("`{var}` is not set: dynaconf never reads the entry's bare `{bare}`"),
        next: format!(
            "set `{var}` in {env_words} ({why}); the entry's `{bare}` is not read for it (it says: \"{quoted}\")"
        ),
        evidence: vec![(Source::Stderr, quoted.to_string())],
    })
}

/// The row.
pub(super) fn row(facts: &[Fact], s: &Setting) -> Option<Found> {
    let env = terms("the entry's `env`", s);
    for f in facts {
        let Fact::Python { kind, message, .. } = f else {
            continue;
        };
        let quoted = cut(&f.quoted());
        if kind == "SettingsError" {
            let Some(var) = unparsed_field(message).and_then(|field| field_var(s, field)) else {
                continue;
            };
            let v = value_of(s, var);
            return Some(Found {
                id: Id::BadArgument,
                summary: format!(
                    "`{var}={v}` is no JSON, and the server's settings read that field as JSON"
                ),
                next: format!(
                    "write `{var}` in {env} as JSON (a list as `[\"a\", \"b\"]`, a mapping as `{{\"k\": \"v\"}}`): pydantic-settings reads a list, set, mapping or model field from its variable as JSON, and `{v}` does not parse (it says: \"{quoted}\")"
                ),
                evidence: vec![(Source::Stderr, quoted)],
            });
        }
        if kind == "ValidationError" {
            if let Some(found) = required_yet_set(message, &quoted, s) {
                return Some(found);
            }
            let Some((name, operation, op_value)) = failed_validator(message) else {
                continue;
            };
            let Some(var) = field_var(s, name) else {
                continue;
            };
            let v = value_of(s, var);
            let wants = match operation {
                "is_in" => format!("one of {op_value}"),
                "is_type_of" => format!("a value of type {op_value}"),
                _ => format!("a value that {operation} {op_value}"),
            };
            return Some(Found {
                id: Id::BadArgument,
                summary: format!("`{var}={v}` is refused by the server's settings validator: {name} must {operation} {op_value}"),
                next: format!(
                    "set `{var}` in {env} to {wants}, not `{v}` (the server reads `{name}` from it; its validator says: \"{quoted}\")"
                ),
                evidence: vec![(Source::Stderr, quoted)],
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_libraries_shapes_are_read_and_others_are_not() {
        assert_eq!(
            unparsed_field(
                "error parsing value for field \"tags\" from source \"EnvSettingsSource\""
            ),
            Some("tags")
        );
        // A .env file's value is no variable of the entry.
        assert_eq!(
            unparsed_field(
                "error parsing value for field \"tags\" from source \"DotEnvSettingsSource\""
            ),
            None
        );
        assert_eq!(
            failed_validator("MODE must is_in ['fast', 'slow'] but it is medium in env main"),
            Some(("MODE", "is_in", "['fast', 'slow']"))
        );
        assert_eq!(
            failed_validator("DB.PORT must gte 1 but it is 0 in env production"),
            Some(("DB.PORT", "gte", "1"))
        );
        assert_eq!(
            failed_validator("the token must be set but it is empty in env files"),
            None
        );
        assert_eq!(failed_validator("API_KEY is required in env main"), None);
    }

    #[test]
    fn a_field_is_the_one_variable_named_so_under_a_prefix() {
        let s = Setting {
            env_values: vec![
                ("ZOO_TAGS".into(), "a,b".into()),
                ("ZOO_DB__PORT".into(), "0".into()),
                ("OTHER_MODE".into(), "x".into()),
                ("ZOO_MODE".into(), "y".into()),
            ],
            ..Setting::default()
        };
        assert_eq!(field_var(&s, "tags"), Some("ZOO_TAGS"));
        assert_eq!(field_var(&s, "DB.PORT"), Some("ZOO_DB__PORT"));
        // Two under different prefixes: neither is named.
        assert_eq!(field_var(&s, "MODE"), None);
        assert_eq!(field_var(&s, "port"), None);
    }
}
