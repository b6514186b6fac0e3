//! The structured row about a URL whose scheme the server's library does not take (see
//! [`super::structured`]): an entry value `scheme://...` whose scheme an error quotes as a word
//! of its own (asyncpg's `ClientConfigurationError: invalid DSN: scheme is expected to be
//! either "postgresql" or "postgres", got 'postgress'`, SQLAlchemy's `NoSuchModuleError: Can't
//! load plugin: sqlalchemy.dialects:postgress`) while speaking of a scheme, a dialect, a
//! driver, a DSN, a plugin or a protocol. The fix is that value's scheme: the schemes the
//! message names, else a well-known one close to it (a typo).

use super::evidence::Fact;
use super::given::entry_values;
use super::model::Setting;
use super::model::{cut, Found, Source};
use super::table::Id;

/// Words that say the error is about a URL's scheme.
const ABOUT: &[&str] = &[
    "scheme",
    "schemes",
    "dialect",
    "dialects",
    "driver",
    "drivers",
    "dsn",
    "plugin",
    "protocol",
    "protocols",
    "url",
    "uri",
];

/// Well-known schemes, for a typo the message does not correct.
const KNOWN: &[&str] = &[
    "postgresql",
    "postgres",
    "mysql",
    "mariadb",
    "sqlite",
    "mssql",
    "oracle",
    "redis",
    "rediss",
    "mongodb",
    "amqp",
    "amqps",
    "bolt",
    "neo4j",
    "http",
    "https",
    "ws",
    "wss",
    "clickhouse",
    "kafka",
    "nats",
    "memcached",
];

/// The scheme of a value written `scheme://...`: letters, digits, `+`, `-`, `.`.
fn scheme_of(v: &str) -> Option<&str> {
    let (sch, _) = v.split_once("://")?;
    (sch.len() >= 2
        && sch.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && sch
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(sch)
}

/// The words of a message, a scheme's characters kept together.
fn tokens(message: &str) -> Vec<&str> {
    message
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-')))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `message` holds `scheme` as a word of its own that is not itself written as a
/// scheme (`redis://` is an example the message gives, not the value it refuses).
fn quotes_scheme(message: &str, scheme: &str) -> bool {
    message.match_indices(scheme).any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let after = &message[at + scheme.len()..];
        before.is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | '_')))
            && after
                .chars()
                .next()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '_')))
            && !after.starts_with("://")
            && !after.starts_with('.')
    })
}

/// The quoted single words of a message other than `scheme` (`"postgresql" or "postgres"`):
/// the schemes it takes.
fn quoted_words<'a>(message: &'a str, scheme: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for q in ['"', '\''] {
        let parts: Vec<&str> = message.split(q).collect();
        for w in parts
            .iter()
            .skip(1)
            .step_by(2)
            .take(parts.len().saturating_sub(1) / 2)
        {
            let ok = w.len() >= 2
                && *w != scheme
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-'));
            if ok && !out.contains(w) {
                out.push(w);
            }
        }
    }
    out
}

/// Edit distance, for a typo of a well-known scheme.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

pub(super) fn row(facts: &[Fact], s: &Setting) -> Option<Found> {
    for f in facts.iter().filter(|f| f.is_error()) {
        let Some(message) = f.message() else {
            continue;
        };
        let words: Vec<String> = tokens(message)
            .iter()
            .map(|w| w.to_ascii_lowercase())
            .collect();
        if !words.iter().any(|w| ABOUT.contains(&w.as_str())) {
            continue;
        }
        let held: Vec<(String, String)> = entry_values(s)
            .into_iter()
            .filter_map(|(shown, v)| {
                let sch = scheme_of(&v)?.to_string();
                quotes_scheme(message, &sch).then_some((shown, sch))
            })
            .collect();
        let [(shown, sch)] = held.as_slice() else {
            continue;
        };
        let named = quoted_words(message, sch);
        let low = sch.to_ascii_lowercase();
        let close: Vec<&str> = KNOWN
            .iter()
            .copied()
            .filter(|k| *k != low && distance(&low, k) <= 2 && distance(&low, k) * 3 < low.len())
            .collect();
        let (wanted, from) = if !named.is_empty() {
            (named, "the schemes its message names")
        } else if !close.is_empty() {
            (close, "a well-known scheme close to it")
        } else {
            (Vec::new(), "")
        };
        let next = if let Some(first) = wanted.first() {
            format!(
                "change the scheme of {shown} from `{sch}://` to `{first}://` ({from}: {})",
                wanted.join(", ")
            )
        } else {
            format!("change the scheme of {shown} (`{sch}://`) to one the server's library takes")
        };
        return Some(Found {
            id: Id::BadArgument,
            summary: format!("{shown}: the server's library does not take the scheme `{sch}`"),
            next,
            evidence: vec![(Source::Stderr, cut(&f.quoted()))],
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::diagnosis::evidence;

    fn setting(env: &[(&str, &str)]) -> Setting {
        Setting {
            command: Some("python3".to_string()),
            env_values: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            given_env: Some(env.iter().map(|(k, _)| k.to_string()).collect()),
            entry: true,
            ..Setting::default()
        }
    }

    fn run(stderr: &str, s: &Setting) -> Option<Found> {
        let lines: Vec<&str> = stderr.lines().collect();
        row(&evidence::parse(&lines), s)
    }

    /// asyncpg 0.30 (`connect_utils.py`) and SQLAlchemy 2.0 (`util/langhelpers.py`).
    const ASYNCPG: &str = "Traceback (most recent call last):\n  File \"/v/site-packages/asyncpg/connect_utils.py\", line 283, in _parse_connect_dsn_and_args\n    raise exceptions.ClientConfigurationError(\nasyncpg.exceptions._base.ClientConfigurationError: invalid DSN: scheme is expected to be either \"postgresql\" or \"postgres\", got 'postgress'";
    const SQLALCHEMY: &str = "Traceback (most recent call last):\n  File \"/v/site-packages/sqlalchemy/util/langhelpers.py\", line 375, in load\n    raise exc.NoSuchModuleError(\nsqlalchemy.exc.NoSuchModuleError: Can't load plugin: sqlalchemy.dialects:postgress";

    #[test]
    fn a_scheme_the_library_refuses_names_the_variable_and_the_schemes_it_takes() {
        let s = setting(&[("DATABASE_URL", "postgress://u:p@127.0.0.1:5432/db")]);
        let f = run(ASYNCPG, &s).expect("asyncpg");
        assert_eq!(f.id, Id::BadArgument);
        assert!(f.next.contains("`DATABASE_URL="), "{}", f.next);
        assert!(f.next.contains("`postgresql://`"), "{}", f.next);
        let f = run(SQLALCHEMY, &s).expect("sqlalchemy");
        assert!(f.next.contains("`DATABASE_URL="), "{}", f.next);
        assert!(f.next.contains("postgres"), "{}", f.next);
    }

    #[test]
    fn a_scheme_named_as_an_example_or_beside_other_words_is_not_refused() {
        // Right scheme, other failures that name it.
        let s = setting(&[("DATABASE_URL", "postgresql://u:p@127.0.0.1:5432/db")]);
        for other in [
            "Traceback (most recent call last):\n  File \"/v/x.py\", line 1, in f\nsqlalchemy.exc.NoSuchModuleError: Can't load plugin: sqlalchemy.dialects:postgresql.asyncpg",
            "Traceback (most recent call last):\n  File \"/v/x.py\", line 1, in f\nValueError: DSN must start with postgresql:// or postgres://",
            "Traceback (most recent call last):\n  File \"/v/x.py\", line 1, in f\nModuleNotFoundError: No module named 'psycopg2'",
            "Traceback (most recent call last):\n  File \"/v/x.py\", line 1, in f\nOSError: connection to postgresql server failed: timeout",
        ] {
            assert!(run(other, &s).is_none(), "{other}");
        }
        assert_eq!(distance("postgress", "postgres"), 1);
        assert_eq!(
            quoted_words("either \"postgresql\" or \"postgres\", got 'x'", "x"),
            ["postgresql", "postgres"]
        );
    }
}
