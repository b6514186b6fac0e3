//! A choice written in words, in any program's message: a value, then the values it may take
//! (`invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'`, `mode must be
//! one of: a, b, c (got x)`). The structure, not the wording: a lead (`must be`, `one of`, ...)
//! followed by a list of two or more single-word values, and the value given before it or in
//! a `got x` after it.

/// What introduces the list (lower case; the longest that matches at a place wins).
const LEADS: &[&str] = &[
    "must be one of",
    "must be either",
    "must be",
    "should be one of",
    "expected one of",
    "expected",
    "valid values are",
    "valid options are",
    "allowed values are",
    "supported values are",
    "possible values are",
];

/// Words that open a named list (lower case): `Available presets:`, `Valid modes:`,
/// `Supported providers:`, clap's `[possible values: a, b]`: the word, up to two more words,
/// then a colon.
const NAMED_LISTS: &[&str] = &[
    "available",
    "valid",
    "supported",
    "allowed",
    "accepted",
    "known",
    "possible",
];

/// Words before a named list that refuse the value (lower case).
const REFUSALS: &[&str] = &[
    "unknown",
    "invalid",
    "unsupported",
    "not supported",
    "unrecognized",
    "unrecognised",
    "not recognized",
    "not valid",
    "no such",
    "not found",
    "not allowed",
    "does not exist",
];

/// A named list's lead in `low` (lower case): where it starts and how long it is (up to and
/// with its colon).
fn named_list(low: &str) -> Option<(usize, usize)> {
    NAMED_LISTS
        .iter()
        .flat_map(|w| low.match_indices(w).map(|(i, _)| (i, *w)))
        .filter(|(i, _)| {
            // A word of its own: `Available`, not `unavailable`.
            low[..*i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric())
        })
        .filter_map(|(i, w)| {
            let rest = &low[i + w.len()..];
            let colon = rest.find(':')?;
            let words = &rest[..colon];
            let named = !words.trim().is_empty()
                && words.split_whitespace().count() <= 2
                && words.chars().all(|c| c.is_ascii_alphabetic() || c == ' ');
            named.then_some((i, w.len() + colon + 1))
        })
        .min_by_key(|(i, _)| *i)
}

/// Words after the list that name the value given (`(got x)`).
const GIVEN: &[&str] = &["got ", "given ", "received "];

const QUOTES: [char; 3] = ['\'', '"', '`'];

/// The flag a message names before its list (`--transport`, `-t`), the value given and the
/// values listed.
pub(crate) fn choice_in(text: &str) -> Option<(Option<String>, String, Vec<String>)> {
    let low = text.to_ascii_lowercase();
    let fixed = LEADS
        .iter()
        .filter_map(|l| low.find(l).map(|i| (i, l.len(), *l)))
        .min_by_key(|(i, n, _)| (*i, usize::MAX - n));
    let (at, len, lead) = match (fixed, named_list(&low)) {
        (Some(f), Some((i, n))) if i < f.0 => (i, n, "named"),
        (Some(f), _) => f,
        (None, Some((i, n))) => (i, n, "named"),
        (None, None) => return None,
    };
    let before = &text[..at];
    // A named list is a choice only after a refusal (`Unknown preset: ts.`): a listing of what
    // a server has (`Known hosts: a, b`) after any other words is none.
    if lead == "named" {
        let b = before.to_ascii_lowercase();
        if !REFUSALS.iter().any(|r| b.contains(r)) {
            return None;
        }
    }
    let (items, quoted, rest) = list(&text[at + len..]);
    // Two bare words after a bare `must be` are a sentence ("must be set or given"), not a
    // list: a list of bare words needs three, or a lead that says it is one.
    // A bare `expected` (zod's `Expected 'a' | 'b', received 'c'`) leads a list only of quoted
    // values: `expected string, received undefined` is a type, not a choice.
    let listed = (lead != "expected" || quoted)
        && (items.len() >= 3 || (items.len() == 2 && (quoted || lead != "must be")));
    if !listed {
        return None;
    }
    let given = given_after(rest).or_else(|| given_before(before))?;
    if items.contains(&given) || given.len() > 60 {
        return None;
    }
    let argument = before
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '(' | ')'))
        .map(|w| w.trim_matches(QUOTES))
        .rfind(|w| w.starts_with('-') && w.trim_start_matches('-').starts_with(char::is_alphabetic))
        .map(str::to_string);
    Some((argument, given, items))
}

/// The values of a list (`'a', 'b' or 'c'`, `a, b, c`, `a|b|c`), whether they were quoted,
/// and the text after it.
fn list(after: &str) -> (Vec<String>, bool, &str) {
    let mut rest = after.trim_start_matches([':', ' ']);
    let mut items = Vec::new();
    let mut quoted = false;
    loop {
        let (item, next) = match rest.chars().next() {
            Some(q) if QUOTES.contains(&q) => {
                let body = &rest[1..];
                let Some(end) = body.find(q) else { break };
                quoted = true;
                (&body[..end], &body[end + 1..])
            }
            // A bare word after quoted values ends the list (`'a' | 'b', received 'c'`).
            Some(_) if quoted => break,
            Some(_) => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '(' | ')'))
                    .unwrap_or(rest.len());
                (rest[..end].trim_end_matches('.'), &rest[end..])
            }
            None => break,
        };
        if item.is_empty() || item.len() > 40 || item.contains(char::is_whitespace) {
            break;
        }
        items.push(item.to_string());
        let r = next.trim_start_matches(' ');
        let r = if let Some(x) = r.strip_prefix(',') {
            let x = x.trim_start_matches(' ');
            x.strip_prefix("or ")
                .or_else(|| x.strip_prefix("and "))
                .unwrap_or(x)
        } else if let Some(x) = r.strip_prefix('|') {
            x
        } else if let Some(x) = r.strip_prefix("or ").or_else(|| r.strip_prefix("and ")) {
            x
        } else {
            rest = next;
            break;
        };
        rest = r.trim_start_matches(' ');
    }
    (items, quoted, rest)
}

/// `(got x)`, `received 'x'` after the list.
fn given_after(rest: &str) -> Option<String> {
    let low = rest.to_ascii_lowercase();
    let at = GIVEN
        .iter()
        .filter_map(|g| low.find(g).map(|i| i + g.len()))
        .min()?;
    let w = rest[at..]
        .split(|c: char| c.is_whitespace() || matches!(c, ')' | ','))
        .next()?
        .trim_matches(QUOTES)
        .trim_end_matches('.');
    (!w.is_empty()).then(|| w.to_string())
}

/// The value before the lead: the last quoted word, else the word after the last `: ` (`type:
/// http.`), when that part is one word.
fn given_before(before: &str) -> Option<String> {
    let b = before
        .trim_end()
        .trim_end_matches(['.', ',', ';', ':'])
        .trim_end();
    let quoted = QUOTES
        .iter()
        .filter_map(|q| {
            let end = b.rfind(*q)?;
            let start = b[..end].rfind(*q)?;
            Some((end, &b[start + 1..end]))
        })
        .max_by_key(|(end, _)| *end);
    if let Some((_, v)) = quoted.filter(|(_, v)| !v.is_empty() && !v.contains(' ')) {
        return Some(v.to_string());
    }
    let (_, tail) = b.rsplit_once(": ")?;
    let tail = tail.trim();
    (!tail.is_empty() && !tail.contains(char::is_whitespace)).then(|| tail.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zods_quoted_expected_values_are_a_list_and_a_type_is_not() {
        // zod 3's enum message (t3-env prints it in its issue).
        let (arg, given, items) = choice_in(
            "message: \"Invalid enum value. Expected 'debug' | 'info', received 'trace'\"",
        )
        .expect("a choice");
        assert_eq!((arg, given.as_str()), (None, "trace"));
        assert_eq!(items, ["debug", "info"]);
        // Its type message: a type expected, no list.
        assert!(choice_in("Expected string, received undefined").is_none());
        assert!(choice_in("Invalid input: expected number, received string").is_none());
    }

    #[test]
    fn a_value_and_the_values_listed_for_it_are_read() {
        // mcp-grafana 0.7's error (its error= field).
        let (arg, given, items) = choice_in(
            "ERROR: Fatal error: invalid transport type: http. Must be 'stdio', 'sse' or 'streamable-http'",
        )
        .expect("a choice");
        assert_eq!((arg, given.as_str()), (None, "http"));
        assert_eq!(items, ["stdio", "sse", "streamable-http"]);
        // @mizchi/lsmcp 0.10: a named list after the value (`Unknown preset: ts.`).
        let (arg, given, items) = choice_in(
            "[MCP:ERROR] Configuration error: Unknown preset: ts. Available presets: typescript, tsgo, deno, pyright",
        )
        .expect("a choice");
        assert_eq!((arg, given.as_str()), (None, "ts"));
        assert_eq!(items, ["typescript", "tsgo", "deno", "pyright"]);
        // A Python server's `ValueError`, a value quoted before a named list.
        let (_, given, items) = choice_in(
            "ValueError: Unsupported provider 'gemeni'. Supported providers: openai, anthropic, gemini",
        )
        .expect("a choice");
        assert_eq!((given.as_str(), items.len()), ("gemeni", 3));
        let (arg, given, items) =
            choice_in("invalid value for --mode: must be one of: fast, safe (got slow)")
                .expect("a choice");
        assert_eq!((arg.as_deref(), given.as_str()), (Some("--mode"), "slow"));
        assert_eq!(items, ["fast", "safe"]);
        let (_, given, _) =
            choice_in("level 'loud' is invalid, expected one of quiet|normal|verbose")
                .expect("a choice");
        assert_eq!(given, "loud");
    }

    #[test]
    fn a_sentence_with_must_be_is_no_choice() {
        for t in [
            "API_KEY must be set or provided via --key",
            "--sentry-host must be a full HTTPS URL",
            "Error: the port must be a number (got abc)",
            "Transport must be one of stdio, sse",
            "invalid transport type: stdio. Must be 'stdio', 'sse' or 'streamable-http'",
            // A named list with no value given before it, or the value among its items.
            "Available tools: search, fetch, summarize",
            "Loaded preset: typescript. Available presets: typescript, tsgo, deno",
            "Server unavailable: retrying. Known hosts: a, b, c",
        ] {
            assert_eq!(choice_in(t), None, "{t}");
        }
    }
}
