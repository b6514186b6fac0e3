//! The structured row about an address written without its scheme (see [`super::structured`]):
//! an entry value shaped like an address (`host:port`, or a host name with its path,
//! `gitlab.example.com/api/v4`) with no `scheme://`, beside a failure to parse a URL (Node's
//! `ERR_INVALID_URL`, pydantic's `url_*` types, an error about a URL/URI/DSN/scheme, a line
//! that quotes the value and speaks of a URL) or the value taken for a file.

use std::path::Path;

use super::evidence::{self, Fact};
use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::text::has_word;
use crate::engine::redact::MASK;

/// Whether a shown entry value names an address by its place: a part of its variable's name
/// (`` `ES_HOSTS=x` ``) or of its flag's (`` `--server-url x` ``, `` the argument
/// `--url=x` ``) is URL, URI, HOST(S), ENDPOINT, ADDR(ESS), DSN or SERVER(S).
fn address_named(shown: &str) -> bool {
    let t = shown.trim_start_matches("the argument ");
    let Some(t) = t.strip_prefix('`') else {
        return false;
    };
    let name = match t.strip_prefix("--") {
        Some(flag) => flag.split(['=', ' ']).next().unwrap_or_default(),
        None if t.starts_with('-') => return false,
        None => t.split('=').next().unwrap_or_default(),
    };
    // A positional value (`the argument `x``) has no name.
    if !t.starts_with("--") && !t.contains('=') {
        return false;
    }
    name.split(['_', '-']).any(|p| {
        matches!(
            p.to_ascii_uppercase().as_str(),
            "URL"
                | "URLS"
                | "URI"
                | "URIS"
                | "HOST"
                | "HOSTS"
                | "ENDPOINT"
                | "ENDPOINTS"
                | "ADDR"
                | "ADDRESS"
                | "DSN"
                | "SERVER"
                | "SERVERS"
        )
    })
}

/// A host name of the DNS's shape: labels of letters, digits and `-`, a last one of letters.
fn dns_labels(host: &str) -> Option<usize> {
    let labels: Vec<&str> = host.split('.').collect();
    let ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|t| t.len() >= 2 && t.chars().all(|c| c.is_ascii_alphabetic()));
    ok.then_some(labels.len())
}

/// How an entry value is shaped like an address without its scheme: `Some(true)` for a host
/// name without a port (`app.example.com`, `gitlab.example.com/api/v4`: an `https://` one),
/// `Some(false)` for a `host:port`. A host name needs three labels, a path, or a place named
/// for an address (`named`): `server.py` is a file. What is on disk (from the entry's folder)
/// is a file, not an address.
pub(super) fn schemeless_shape(v: &str, named: bool, cwd: Option<&Path>) -> Option<bool> {
    if v.contains("://")
        || v.starts_with(['/', '.', '~', '-'])
        || v.contains(char::is_whitespace)
        || v.contains(MASK)
    {
        return None;
    }
    let on_disk = || match cwd {
        Some(d) => d.join(v).exists(),
        None => Path::new(v).exists(),
    };
    if !evidence::host_ports(v).is_empty() {
        return Some(false);
    }
    let (host, path) = match v.split_once('/') {
        Some((h, p)) => (h, !p.is_empty()),
        None => (v, false),
    };
    let labels = dns_labels(host)?;
    ((labels >= 3 || path || named) && !on_disk()).then_some(true)
}

/// Whether `text` speaks of a URL: one of its words is URL, URI, DSN, scheme or protocol.
pub(super) fn speaks_of_url(text: &str) -> bool {
    let low = text.to_ascii_lowercase();
    ["url", "uri", "dsn", "scheme", "protocol"].iter().any(|w| {
        low.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|x| x == *w || x == format!("{w}s"))
    })
}

/// A value that is a file's path (`/srv/app.db`, `./data.db`, `~/x.sqlite`) where a line that
/// speaks of a URL quotes it (SQLAlchemy's `ArgumentError: Could not parse SQLAlchemy URL from
/// string '/srv/app.db'`): the URL form to write, after a space (` (for a SQLite database
/// file, `sqlite:////srv/app.db`)`), empty when the file's kind is not known.
pub(super) fn path_for_url(line: &str, v: &str) -> Option<String> {
    let path = (v.starts_with('/') || v.starts_with("./") || v.starts_with("~/"))
        && !v.contains("://")
        && !v.contains(char::is_whitespace)
        && !v.contains(MASK);
    if !path || !line.contains(v) || !speaks_of_url(line) {
        return None;
    }
    let ext = v.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let sqlite = matches!(
        ext.as_deref(),
        Some("db" | "sqlite" | "sqlite3" | "db3" | "sdb")
    );
    Some(if sqlite && v.starts_with('/') {
        format!(" (for a SQLite database file, `sqlite:///{v}`)")
    } else if sqlite {
        " (for a SQLite database file, `sqlite:///` and its absolute path)".to_string()
    } else {
        String::new()
    })
}

/// The exception types of Python's HTTP clients for a URL they cannot send: requests'
/// `MissingSchema`, `InvalidURL`, `InvalidSchema` (no adapter for a URL without its scheme),
/// httpx's and httpcore's `UnsupportedProtocol`, aiohttp 3.11's `NonHttpUrlClientError` (a URL
/// without `http://`) and `InvalidUrlClientError`.
const URL_TYPES: &[&str] = &[
    "MissingSchema",
    "InvalidURL",
    "UnsupportedProtocol",
    "InvalidSchema",
    "NonHttpUrlClientError",
    "InvalidUrlClientError",
];

/// Whether a fact says a URL/URI/DSN could not be parsed.
fn is_url_failure(f: &Fact) -> bool {
    if let Fact::Node { code: Some(c), .. } = f {
        if c == "ERR_INVALID_URL" {
            return true;
        }
    }
    if let Fact::Pydantic { fields, .. } = f {
        return fields
            .iter()
            .any(|x| x.kind.as_deref().is_some_and(|k| k.starts_with("url")));
    }
    // An HTTP client's own type for a URL it cannot send (requests' `InvalidSchema: No
    // connection adapters were found for '127.0.0.1:8000/health'`, whose words say no URL).
    if let Fact::Python { kind, .. } = f {
        if URL_TYPES.contains(&kind.as_str()) {
            return true;
        }
    }
    f.message().is_some_and(speaks_of_url)
}

/// The schemes the server's lines name (`postgres://`, `bolt://`), not from where it says
/// them: a stack frame (`at file:///…/index.js:13`, `File "…"`) or the location heading Node's
/// report of an uncaught error (`file:///…/index.mjs:32` alone on its line) names the code's
/// location, not a URL it accepts.
pub(super) fn schemes_named(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| {
            let t = l.trim_start();
            !t.starts_with("at ") && !t.starts_with("File \"") && !is_node_location(t)
        })
        .flat_map(|l| {
            l.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '(' | ','))
        })
        .filter_map(|w| {
            let (sch, _) = w.split_once("://")?;
            (!sch.is_empty() && sch.chars().all(|c| c.is_ascii_alphanumeric() || c == '+'))
                .then(|| format!("{sch}://"))
        })
        .fold(Vec::new(), |mut acc, x| {
            if !acc.contains(&x) {
                acc.push(x);
            }
            acc
        })
}

/// Node's location line above an uncaught error's source line: a path or `file://` URL, `:`
/// and a line number, nothing else.
fn is_node_location(t: &str) -> bool {
    t.rsplit_once(':').is_some_and(|(file, n)| {
        !file.is_empty()
            && !file.contains(char::is_whitespace)
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// How a value is written with its scheme: the one the server's lines name, else `https://`
/// for a host name (a service on the network, most often HTTPS), else `scheme://`.
pub(super) fn with_scheme(v: &str, host_name: bool, schemes: &[String]) -> String {
    if let [one] = schemes {
        format!("`{one}{v}`, the scheme its message names")
    } else if !schemes.is_empty() {
        format!(
            "`scheme://{v}`, the schemes its message names: {}",
            schemes.join(", ")
        )
    } else if host_name {
        format!("`https://{v}`, or `http://` for a plain-HTTP server")
    } else {
        format!("`scheme://{v}`")
    }
}

/// Whether a failed `--call`'s error text is a URL that did not parse, by its structure: Node's
/// URL parser (its `ERR_INVALID_URL` code, or a line that is its message, `Invalid URL`, bare or
/// after `TypeError:`; requests' `Invalid URL '...': No scheme supplied` too), requests'
/// `MissingSchema` / `InvalidURL`, httpx's `UnsupportedProtocol` (`Request URL is missing an
/// 'http://' or 'https://' protocol`), Go's `unsupported protocol scheme ""`.
pub(super) fn call_url_failure(message: &str) -> bool {
    let words = message.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    let typed = words
        .into_iter()
        .any(|w| w == "ERR_INVALID_URL" || URL_TYPES.contains(&w));
    let parser_line = message.lines().any(|l| {
        let l = l.trim();
        let l = l
            .strip_prefix("TypeError")
            .map(|r| {
                r.trim_start_matches(|c: char| c != ':')
                    .trim_start_matches(':')
            })
            .unwrap_or(l)
            .trim();
        l == "Invalid URL" || l.starts_with("Invalid URL:") || l.starts_with("Invalid URL '")
    });
    typed
        || parser_line
        || message.contains("missing an 'http://' or 'https://' protocol")
        || message.contains("unsupported protocol scheme \"\"")
}

/// The part of a shown value's name that says it holds a URL (URL, URI, ENDPOINT, BASE, DSN):
/// preferred over a HOST or SERVER, which a server may read as a plain host name.
fn url_named(shown: &str) -> bool {
    let t = shown
        .trim_start_matches("the argument ")
        .trim_start_matches('`');
    let name = t
        .trim_start_matches('-')
        .split(['=', ' '])
        .next()
        .unwrap_or_default();
    name.split(['_', '-']).any(|p| {
        matches!(
            p.to_ascii_uppercase().as_str(),
            "URL" | "URLS" | "URI" | "URIS" | "ENDPOINT" | "ENDPOINTS" | "BASE" | "DSN"
        )
    })
}

/// A failed `--call` whose error is a URL that did not parse ([`call_url_failure`]) while the
/// entry holds a value shaped like an address without its scheme in a place named for one
/// (`PERPLEXITY_BASE_URL=api.perplexity.ai`): the value its error quotes, else those in a
/// place named for a URL (all of them), else those named for a host.
///
/// Without a parser's structure, a message that judges the value itself ([`judges`]: it names
/// the variable or flag that holds it, or quotes the value, with a verdict or a URL example;
/// `SEARXNG_URL entry 1 has invalid format. Set SEARXNG_URL (e.g., http://localhost:8080)`)
/// names it too, unless it carries a connect failure's code (`unreached`: the server dialled,
/// so the value parsed). So does a line the server wrote as the call failed (`said`) that
/// quotes the value and is a URL parser's, or speaks of a URL with a verdict (meilisearch's client: `Invalid
/// URL 127.0.0.1:7701, no scheme/protocol supplied.` under a call answered only `Error
/// executing tool list-indexes`). The scheme written is that of the URL the server's source
/// writes as the value's default (`defaults`: holder and URL), else one its lines name.
pub(super) fn schemeless_call(
    message: &str,
    said: &[&str],
    defaults: &[(String, String)],
    s: &Setting,
    unreached: bool,
) -> Option<Found> {
    let parsed = call_url_failure(message);
    let said_of = |v: &str| {
        said.iter()
            .find(|l| l.contains(v) && (call_url_failure(l) || (speaks_of_url(l) && verdict(l))))
            .copied()
    };
    if !parsed && !unreached {
        return None;
    }
    let cwd = s.cwd.as_deref();
    let candidates: Vec<(String, String, bool)> = entry_values(s)
        .into_iter()
        .filter(|(shown, _)| address_named(shown) || url_named(shown))
        .filter_map(|(shown, v)| {
            let host_name = schemeless_shape(&v, true, cwd)?;
            Some((shown, v, host_name))
        })
        .filter(|(shown, v, _)| parsed || judges(message, shown, v) || said_of(v).is_some())
        .collect();
    let quoted: Vec<&(String, String, bool)> = candidates
        .iter()
        .filter(|(_, v, _)| message.contains(v.as_str()))
        .collect();
    let for_url: Vec<&(String, String, bool)> = candidates
        .iter()
        .filter(|(shown, _, _)| url_named(shown))
        .collect();
    let named = [quoted, for_url, candidates.iter().collect()]
        .into_iter()
        .find(|c| !c.is_empty())?;
    let quoting: Vec<&str> = named.iter().filter_map(|(_, v, _)| said_of(v)).collect();
    let shown: Vec<&str> = named.iter().map(|(shown, _, _)| shown.as_str()).collect();
    let with = written_with(&named, message, said, &quoting, defaults);
    let (summary, next) = if let ([one], [w]) = (shown.as_slice(), with.as_slice()) {
        (
            format!("{one}: the server wants a URL with a scheme ({w})"),
            format!("write {one} with its scheme ({w})"),
        )
    } else {
        (
            format!(
                "{}: the server could not parse a URL, and these hold one without its scheme",
                shown.join(", ")
            ),
            format!(
                "write {} with their schemes ({})",
                shown.join(" and "),
                with.join("; ")
            ),
        )
    };
    let mut evidence = vec![(
        Source::Request,
        format!("tools/call (--call) answered: {}", cut(message)),
    )];
    evidence.extend(quoting.iter().map(|l| (Source::Stderr, cut(l))));
    Some(Found {
        id: Id::BadArgument,
        summary,
        next,
        evidence,
    })
}

/// Each named value written with its scheme: the scheme of the default the server's source
/// writes for its variable (`os.getenv("MEILI_HTTP_ADDR", "http://localhost:7700")`) first,
/// else the schemes the call's error names, or the stderr lines that quote a value and the
/// one after each (`Did you mean https://...?`).
fn written_with(
    named: &[&(String, String, bool)],
    message: &str,
    said: &[&str],
    quoting: &[&str],
    defaults: &[(String, String)],
) -> Vec<String> {
    let mut lines: Vec<&str> = message.lines().collect();
    for q in quoting {
        if let Some(at) = said.iter().position(|l| l == q) {
            lines.extend(said.iter().skip(at).take(2).copied());
        }
    }
    let from_source: Option<String> = named.iter().find_map(|(shown, _, _)| {
        let h = holder_name(shown)?;
        defaults
            .iter()
            .find(|(d, _)| d == h)
            .and_then(|(_, url)| url.split_once("://").map(|(sch, _)| format!("{sch}://")))
    });
    let schemes = schemes_named(&lines);
    named
        .iter()
        .map(|(_, v, host_name)| match &from_source {
            Some(sch) => format!("`{sch}{v}`, the scheme of the server's own default"),
            None => with_scheme(v, *host_name, &schemes),
        })
        .collect()
}

/// Whether a message judges an entry value (shown as `` `NAME=v` `` or `` `--flag v` ``): it
/// names its variable or flag as a whole word, or holds the value, and it says a verdict
/// (`invalid`, `format`, `parse`, `malformed`, `must`, `expected`) or shows a URL with its
/// scheme (the form it wants).
fn judges(message: &str, shown: &str, v: &str) -> bool {
    let t = shown.trim_start_matches("the argument ").trim_matches('`');
    let name = if t.starts_with("--") {
        t.split(['=', ' ']).next().unwrap_or_default()
    } else {
        t.split('=')
            .next()
            .filter(|_| t.contains('='))
            .unwrap_or_default()
    };
    let named = name.len() >= 3 && has_word(message, name, &[]);
    (named || message.contains(v)) && (verdict(message) || message.contains("://"))
}

/// Whether a text says a verdict on a value: a word starting `invalid`, `format`, `parse`,
/// `malformed`, `must` or `expected`.
fn verdict(text: &str) -> bool {
    let low = text.to_ascii_lowercase();
    [
        "invalid",
        "format",
        "parse",
        "malformed",
        "must",
        "expected",
    ]
    .iter()
    .any(|w| {
        low.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|x| x.starts_with(w))
    })
}

/// The variable or flag a shown entry value is held by (`ODOO_URL` of `` `ODOO_URL=x` ``,
/// `--url` of `` `--url x` ``), if it has a name.
fn holder_name(shown: &str) -> Option<&str> {
    let t = shown
        .trim_start_matches("the argument ")
        .strip_prefix('`')?;
    let name = if t.starts_with("--") {
        t.split(['=', ' ']).next()?
    } else {
        t.split_once('=')?.0
    };
    (name.len() >= 3).then_some(name)
}

/// Whether `line` demands a scheme of the value `name` holds: it names `name` as a whole word,
/// says it must start (or begin) with something, and shows a scheme (`ODOO_URL must start with
/// http:// or https://`, mcp-server-odoo's check).
fn demands_scheme(line: &str, name: &str) -> bool {
    let named = has_word(line, name, &[]);
    let low = line.to_ascii_lowercase();
    let starts = ["start with", "starts with", "begin with", "begins with"]
        .iter()
        .any(|w| low.contains(w));
    named && starts && !schemes_named(&[line]).is_empty()
}

pub(super) fn schemeless(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let cwd = s.cwd.as_deref();
    // A line that quotes the value and speaks of a URL ties the failure to that value; so does
    // one that names its variable or flag and says it must start with a scheme.
    let quoting = |shown: &str, v: &str| {
        lines
            .iter()
            .find(|l| {
                (l.contains(v) && speaks_of_url(l))
                    || holder_name(shown).is_some_and(|n| demands_scheme(l, n))
            })
            .copied()
    };
    let mut candidates: Vec<(String, String, bool, bool)> = entry_values(s)
        .into_iter()
        .filter_map(|(shown, v)| {
            let named = address_named(&shown);
            let host_name = schemeless_shape(&v, named, cwd)?;
            Some((shown, v, named, host_name))
        })
        .collect();
    // The value a line quotes first, then one in a place named for an address (`*_URL`,
    // `*_HOSTS`, `--server-url`): that is where the server reads the URL from.
    candidates.sort_by_key(|(shown, v, named, _)| (quoting(shown, v).is_none(), !named));
    let (shown, v, _, host_name) = candidates.into_iter().next()?;
    // A URL-parse failure, or the schemeless value taken for a file or a command (a
    // `FileNotFoundError` / `ENOENT` that quotes it).
    let not_found = |f: &&Fact| match f {
        Fact::Python { kind, message, .. } => kind.contains("NotFound") && message.contains(&v),
        Fact::Node { code, message, .. } => {
            code.as_deref() == Some("ENOENT") && message.contains(&v)
        }
        _ => false,
    };
    // A `host:port` value read as a path under a base URL the library supplies (pg's
    // `new URL(value, 'postgres://base')`): a DNS failure for a host no entry value holds.
    let values = entry_values(s);
    let elsewhere = |f: &&Fact| match f {
        Fact::Node { code, message, .. } if !host_name && code.as_deref() == Some("ENOTFOUND") => {
            message
                .rsplit(' ')
                .next()
                .is_some_and(|h| !h.is_empty() && !values.iter().any(|(_, x)| x.contains(h)))
        }
        _ => false,
    };
    let quoted = facts
        .iter()
        .find(|f| is_url_failure(f) && f.message().is_some_and(|m| m.contains(&v)))
        .map(|f| cut(&f.quoted()))
        .or_else(|| quoting(&shown, &v).map(cut))
        .or_else(|| {
            facts
                .iter()
                .find(|f| is_url_failure(f))
                .or_else(|| facts.iter().find(not_found))
                .or_else(|| facts.iter().find(elsewhere))
                .map(|f| cut(&f.quoted()))
        })?;
    let with = with_scheme(&v, host_name, &schemes_named(lines));
    Some(Found {
        id: Id::BadArgument,
        summary: format!("{shown}: the server wants a URL with a scheme ({with})"),
        next: format!("write {shown} with its scheme ({with})"),
        evidence: vec![(Source::Stderr, quoted)],
    })
}

#[cfg(test)]
mod tests {
    use super::call_url_failure;

    #[test]
    fn a_url_parse_failure_is_known_by_its_parser_not_by_the_word_url() {
        for failed in [
            "Invalid URL",
            "TypeError: Invalid URL",
            "TypeError [ERR_INVALID_URL]: Invalid URL",
            "Invalid URL: api.perplexity.ai/v1",
            "Invalid URL 'api.example.com/v1': No scheme supplied. Perhaps you meant https://api.example.com/v1?",
            "requests.exceptions.MissingSchema: Invalid URL",
            "httpx.UnsupportedProtocol: Request URL is missing an 'http://' or 'https://' protocol.",
            "requests.exceptions.InvalidSchema: No connection adapters were found for '127.0.0.1:8000/health'",
            "Get \"api.example.com/v1\": unsupported protocol scheme \"\"",
        ] {
            assert!(call_url_failure(failed), "{failed}");
        }
        for other in [
            "PERPLEXITY_API_KEY environment variable is required",
            "Failed to fetch URL https://example.com: 404",
            "the URL list is empty",
            "Invalid URLs are skipped: 3",
            "unsupported protocol scheme \"ftp\"",
        ] {
            assert!(!call_url_failure(other), "{other}");
        }
    }
}
