//! The structured row about a flag the server needs beside the entry's (see
//! [`super::structured`]): the error line of an argument parser's usage (argparse's `prog:
//! error: ...`, click's `Error: ...` under `Usage:`, cobra's `Error: ...` above it) names a
//! flag the entry's args lack: argparse's `Host and port arguments are only valid when using
//! streamable HTTP or SSE transport (see: --http)` (markitdown-mcp with `--port` alone), click's
//! `In-memory databases require the --read-write flag` (mcp-server-motherduck without
//! arguments), cobra's `if any flags in the group [tls-cert tls-key] are set they must all be
//! set; missing [tls-key]` (kubernetes-mcp-server with `--tls-cert` alone). The fix is that
//! flag added, or the flag of the entry the line names (`--port`, or its word `port`) removed.

use super::cli_parsers;
use super::evidence::Fact;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// Flags no error asks for as a fix (a pointer to the help, a version, more output).
const POINTERS: &[&str] = &["help", "version", "verbose", "debug"];

/// The flags `text` names: each `--name` (two dashes, a name of letters, digits, `-`, `_`),
/// and the names cobra lists after `missing [` (`missing [tls-key]`, without their dashes).
fn named_flags(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |f: String| {
        if !out.contains(&f) {
            out.push(f);
        }
    };
    for w in text.split(|c: char| {
        c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '(' | ')' | ',' | ';' | '[' | ']')
    }) {
        let w = w
            .split('=')
            .next()
            .unwrap_or_default()
            .trim_end_matches(['.', ':', '?', '!']);
        let Some(name) = w.strip_prefix("--") else {
            continue;
        };
        if name.len() >= 2
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        {
            push(w.to_string());
        }
    }
    // cobra's flag groups: `the group [a b]`, `missing [a b]`, `[a b] were all set` (dashes
    // left out).
    for (_, rest) in ["group [", "missing [", "; ["]
        .iter()
        .filter_map(|m| text.split_once(m))
    {
        if let Some((names, _)) = rest.split_once(']') {
            for n in names.split_whitespace() {
                if n.len() >= 2
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
                {
                    push(format!("--{n}"));
                }
            }
        }
    }
    out
}

/// The entry's flags (`--port`, `--port=3021`) as written, without their values.
fn given_flags(s: &Setting) -> Vec<String> {
    s.args
        .iter()
        .filter(|a| a.starts_with("--") && a.len() > 3)
        .map(|a| a.split('=').next().unwrap_or(a).to_string())
        .collect()
}

/// Whether the entry passes `flag` (in any spelling: `--read_write` is `--read-write`).
fn passes(given: &[String], flag: &str) -> bool {
    let key = cli_parsers::flag_key(flag);
    given.iter().any(|g| cli_parsers::flag_key(g) == key)
}

/// The entry's flags `text` names: as written, or (a one-word flag) its name as a word
/// (`Host and port arguments` names `--port` and `--host`).
fn given_named(text: &str, given: &[String]) -> Vec<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let flags = named_flags(text);
    given
        .iter()
        .filter(|g| {
            passes(&flags, g) || {
                let name = g.trim_start_matches('-').to_ascii_lowercase();
                !name.contains(['-', '_']) && name.len() >= 3 && words.contains(&name)
            }
        })
        .cloned()
        .fold(Vec::new(), |mut acc, g| {
            if !acc.contains(&g) {
                acc.push(g);
            }
            acc
        })
}

pub(super) fn row(facts: &[Fact], s: &Setting) -> Option<Found> {
    let given = given_flags(s);
    facts.iter().find_map(|f| {
        let Fact::Usage {
            error: Some(error),
            usage,
        } = f
        else {
            return None;
        };
        let lacking: Vec<String> = named_flags(error)
            .into_iter()
            .filter(|f| !passes(&given, f))
            .filter(|f| !POINTERS.contains(&cli_parsers::flag_key(f).as_str()))
            .collect();
        let first = lacking.first()?;
        let refused = given_named(error, &given);
        let quoted = cut(error.trim());
        // `one of --stdio, --sse, or --streamableHttp`, `--a or --b`: any one of them.
        let low = error.to_ascii_lowercase();
        let one_of = lacking.len() > 1
            && (low.contains("one of") || low.contains(" or ") || low.contains("either"));
        let shown: Vec<String> = lacking.iter().map(|f| format!("`{f}`")).collect();
        let adds = match shown.split_last() {
            Some((last, rest)) if one_of => format!("one of {} or {last}", rest.join(", ")),
            _ => shown.join(" and "),
        };
        let next = if refused.is_empty() {
            format!("add {adds} to the entry's args: the server needs it (\"{quoted}\")")
        } else {
            let removes = refused
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            format!(
                "add {adds} to the entry's args, or remove {removes}: the server takes {removes} only with {adds} (\"{quoted}\")"
            )
        };
        Some(Found {
            id: Id::MissingArgument,
            summary: format!("the server's parser needs `{first}`, which the entry's args lack"),
            next: terms(&next, s),
            evidence: vec![(Source::Stderr, quoted), (Source::Stderr, cut(usage))],
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{given_named, named_flags};

    #[test]
    fn the_flags_an_error_names_are_read_by_their_dashes_or_cobras_groups() {
        assert_eq!(
            named_flags("Host and port arguments are only valid when using streamable HTTP or SSE transport (see: --http)."),
            vec!["--http"]
        );
        assert_eq!(
            named_flags("Error: In-memory databases require the --read-write flag."),
            vec!["--read-write"]
        );
        assert_eq!(
            named_flags("if any flags in the group [tls-cert tls-key] are set they must all be set; missing [tls-key]"),
            vec!["--tls-cert", "--tls-key"]
        );
        assert!(named_flags("a -- b, ---, --1").is_empty());
        assert_eq!(
            named_flags("if any flags in the group [http sse] are set none of the others can be; [http sse] were all set"),
            vec!["--http", "--sse"]
        );
    }

    #[test]
    fn the_entrys_flags_an_error_names_are_written_or_one_word() {
        let given = vec!["--port".to_string(), "--db-path".to_string()];
        assert_eq!(
            given_named(
                "Host and port arguments are only valid ... (see: --http)",
                &given
            ),
            vec!["--port"]
        );
        // A flag of two words is named only as written.
        assert!(given_named("the db path is wrong", &given).is_empty());
        assert_eq!(
            given_named("--db-path needs --token", &given),
            vec!["--db-path"]
        );
    }
}
