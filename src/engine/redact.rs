//! Secrets that must never reach output: an entry's token and `env` values, every value
//! `${VAR}` substitution produced, the values of arguments that follow `--token`, `--api-key`,
//! `--password` and the like, URL query parameters named like `token`, `key`, `secret`,
//! `password` or `auth`, a URL's password, and `--redact VALUE`; in a command's arguments also
//! `NAME=VALUE` with a secret-looking name (`env GITHUB_TOKEN=...`, docker `-e`), a header's
//! value (`Authorization: Bearer ...`), a URL's password and secret query parameters anywhere
//! in an argument, `-t`/`--pat VALUE`; the values of secret-looking variables of the
//! environment a server gets; and, whatever their source, known token shapes (GitHub `ghp_` and
//! `github_pat_`, `sk-`, Slack `xoxb-`, AWS `AKIA`, JWTs...), see [`mask_token_shapes`].
//!
//! Every string the probe reports that a server or a config controls goes through
//! [`Redactor::redact`] before it leaves the engine. A secret of 3 characters or more is masked
//! wherever it occurs; a shorter one (1 or 2 characters) is masked where it stands alone, not
//! inside a longer word or number, because masking `1` inside every number would garble the
//! report while protecting nothing (the CLI warns about a short `--redact` value).

use std::collections::HashSet;
use std::sync::OnceLock;

/// What a masked secret reads as.
pub const MASK: &str = "[redacted]";

/// Secrets shorter than this are masked only where they stand alone (see the module's text).
pub const MIN_SECRET_LEN: usize = 3;

/// A set of secret values to mask.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// In the order added, without duplicates.
    secrets: Vec<String>,
    known: HashSet<String>,
    /// The secrets longest first, so a secret that contains another is masked whole; built on
    /// first use after an `add`, so adding n secrets costs O(n log n), not O(n^2 log n).
    longest_first: OnceLock<Vec<usize>>,
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Add a secret (ignored when empty or already known).
    pub fn add(&mut self, secret: impl Into<String>) {
        let s = secret.into();
        if !s.is_empty() && !self.known.contains(&s) {
            self.known.insert(s.clone());
            self.secrets.push(s);
            self.longest_first = OnceLock::new();
        }
    }

    /// Whether there is anything to mask.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret replaced by [`MASK`].
    pub fn redact(&self, text: &str) -> String {
        let order = self.longest_first.get_or_init(|| {
            let mut order: Vec<usize> = (0..self.secrets.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(self.secrets[i].len()));
            order
        });
        let mut out = mask_token_shapes(text);
        for &i in order {
            let s = self.secrets[i].as_str();
            if !out.contains(s) {
                continue;
            }
            if s.chars().count() >= MIN_SECRET_LEN {
                out = out.replace(s, MASK);
            } else {
                out = replace_standalone(&out, s);
            }
        }
        out
    }

    /// [`Redactor::redact`] for text cut short at a limit (the rest is unknown): a secret whose
    /// beginning is the text's end is masked too, so a cut never shows a secret's first part.
    pub fn redact_cut(&self, text: &str) -> String {
        let mut out = self.redact(text);
        let mut longest_prefix = 0;
        for s in &self.secrets {
            for (k, _) in s.char_indices().skip(1) {
                if k > longest_prefix && out.ends_with(&s[..k]) {
                    longest_prefix = k;
                }
            }
        }
        if longest_prefix > 0 {
            out.truncate(out.len() - longest_prefix);
            out.push_str(MASK);
        }
        out
    }

    /// The longest secret's length in bytes (0 when there is none).
    pub fn longest(&self) -> usize {
        self.secrets.iter().map(String::len).max().unwrap_or(0)
    }
}

/// `text` with every standalone occurrence of `s` (not inside a longer run of letters and
/// digits) replaced by [`MASK`].
fn replace_standalone(text: &str, s: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let first_is_word = word(s.chars().next());
    let last_is_word = word(s.chars().next_back());
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(s) {
        if at < last {
            continue;
        }
        let before = text[..at].chars().next_back();
        let after = text[at + s.len()..].chars().next();
        if (first_is_word && word(before)) || (last_is_word && word(after)) {
            continue;
        }
        out.push_str(&text[last..at]);
        out.push_str(MASK);
        last = at + s.len();
    }
    out.push_str(&text[last..]);
    out
}

/// Whether an option or query-parameter name says its value is a secret: `--token`,
/// `--api-key`, `--apiKey`, `--password`, `--client-secret`, `auth`, `access_token`, `key`...
pub fn is_secret_name(name: &str) -> bool {
    let name = name.trim_start_matches('-').to_ascii_lowercase();
    let squashed: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    const WORDS: &[&str] = &[
        "token",
        "key",
        "apikey",
        "secret",
        "password",
        "passwd",
        "pass",
        "pwd",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "bearer",
        "cookie",
        "sig",
        "signature",
        "pat",
        "jwt",
        "session",
    ];
    // Run-together names: `apiKey`, `accessToken`, `clientSecret`, `oauth`.
    const ENDINGS: &[&str] = &[
        "token",
        "apikey",
        "accesskey",
        "secretkey",
        "privatekey",
        "secret",
        "password",
        "passwd",
        "auth",
    ];
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| WORDS.contains(&w))
        || ENDINGS.iter().any(|e| squashed.ends_with(e))
}

/// Whether a URL query (or matrix) parameter's name says its value is a secret: the names of
/// [`is_secret_name`], and `code` (an OAuth authorisation code), `sid`.
pub fn is_secret_param(name: &str) -> bool {
    is_secret_name(name) || matches!(name.to_ascii_lowercase().as_str(), "code" | "sid")
}

/// Options whose next argument is a secret although their name does not say so (`-t TOKEN`),
/// when that argument looks like one: 8 characters or more, not a path.
const SECRET_SHORT_OPTIONS: &[&str] = &["-t"];

/// The values of a command line's secret options: the argument after `--token` (and the like,
/// see [`is_secret_name`]; also `-t` and `-p`), and `VALUE` in `--token=VALUE`; and in any
/// argument, the secrets [`secrets_in_text`] finds.
pub fn secret_args<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    let mut out = Vec::new();
    let mut next_is_secret = false;
    let mut short_is_secret = false;
    for a in args {
        let a = a.as_ref();
        out.extend(secrets_in_text(a));
        if next_is_secret {
            next_is_secret = false;
            if !a.is_empty() {
                out.push(a.to_string());
                continue;
            }
        }
        if short_is_secret {
            short_is_secret = false;
            if a.chars().count() >= 8 && !a.contains('/') && !a.starts_with('-') {
                out.push(a.to_string());
                continue;
            }
        }
        if !a.starts_with('-') {
            continue;
        }
        match a.split_once('=') {
            Some((name, value)) if is_secret_name(name) && !value.is_empty() => {
                out.push(value.to_string())
            }
            Some(_) => {}
            None => {
                next_is_secret = is_secret_name(a);
                short_is_secret = SECRET_SHORT_OPTIONS.contains(&a);
            }
        }
    }
    out
}

/// The secrets inside one piece of text (an argument, a URL): `NAME=VALUE` where NAME looks
/// like an environment variable with a secret-looking name (`GITHUB_TOKEN=...`, also after
/// `--env=`), a header's value (`Authorization: Bearer TOKEN`, `X-Api-Key: KEY`: the value and
/// the token after its scheme), a URL's password (`postgresql://user:PASS@host`), and the value
/// of every secret-named query or matrix parameter (`?api_key=`, `&code=`, `;token=`).
pub fn secrets_in_text(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |v: &str| {
        let v = v.trim();
        if !v.is_empty() {
            out.push(v.to_string());
        }
    };
    // NAME=VALUE and headers, the whole text or after an option's `=` (`--env=NAME=VALUE`,
    // `--header=Authorization: Bearer ...`).
    let after_option = text
        .starts_with('-')
        .then(|| text.split_once('=').map(|(_, v)| v))
        .flatten();
    let candidates: Vec<&str> = [Some(text), after_option].into_iter().flatten().collect();
    for &candidate in &candidates {
        if let Some((name, value)) = candidate.split_once('=') {
            let env_like = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if env_like && is_secret_name(name) {
                push(value);
            }
        }
    }
    // A header: `Name: value`.
    for (name, value) in candidates.iter().filter_map(|c| c.split_once(':')) {
        let header_like = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && value.starts_with(' ');
        if header_like && is_secret_name(name) {
            push(value);
            let value = value.trim();
            if let Some((scheme, rest)) = value.split_once(' ') {
                if !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                    push(rest);
                }
            }
        }
    }
    // A URL's password: `scheme://user:password@host`.
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let after = &rest[at + 3..];
        let authority_end = after.find(['/', '?', '#', ' ']).unwrap_or(after.len());
        let authority = &after[..authority_end];
        if let Some((userinfo, _)) = authority.rsplit_once('@') {
            if let Some((_, password)) = userinfo.split_once(':') {
                push(password);
            }
        }
        rest = after;
    }
    // Secret-named parameters: `?name=value`, `&name=value`, `;name=value`.
    for (i, c) in text.char_indices() {
        if !matches!(c, '?' | '&' | ';') {
            continue;
        }
        let param = &text[i + 1..];
        let end = param.find(['&', ';', '#', ' ', '?']).unwrap_or(param.len());
        if let Some((name, value)) = param[..end].split_once('=') {
            let decoded = url::form_urlencoded::parse(name.as_bytes())
                .next()
                .map(|(k, _)| k.into_owned())
                .unwrap_or_else(|| name.to_string());
            if is_secret_param(&decoded) {
                push(value);
                if let Some((_, v)) = url::form_urlencoded::parse(&param.as_bytes()[..end]).next() {
                    push(&v);
                }
            }
        }
    }
    out.dedup();
    out
}

/// The values of the secret-looking variables (see [`is_secret_name`]) of the environment a
/// server gets, 8 characters or more (shorter values of such names are flags such as `1` or
/// `true`, which masking would garble every number with; a real secret is longer). Not the
/// working directories (`PWD` reads as "password") nor paths (`SSH_AUTH_SOCK`, `*_DIR`, a
/// value starting with `/`): masking them would hide every path below them, and they are
/// where a secret is, not the secret.
pub fn env_secrets<K: AsRef<std::ffi::OsStr>, V: AsRef<std::ffi::OsStr>>(
    vars: impl IntoIterator<Item = (K, V)>,
) -> Vec<String> {
    vars.into_iter()
        .filter_map(|(k, v)| {
            let k = k.as_ref().to_str()?;
            let v = v.as_ref().to_string_lossy();
            let upper = k.to_ascii_uppercase();
            let path_like = matches!(upper.as_str(), "PWD" | "OLDPWD")
                || ["_SOCK", "_DIR", "_PATH", "_HOME", "_FILE"]
                    .iter()
                    .any(|e| upper.ends_with(e))
                || v.starts_with('/');
            (is_secret_name(k) && !path_like && v.chars().count() >= 8).then(|| v.into_owned())
        })
        .collect()
}

/// One known token shape: its prefix, the characters that may follow, and how many at least.
struct Shape {
    prefix: &'static str,
    body: fn(char) -> bool,
    min: usize,
    /// The most that follow (`usize::MAX`: as many as there are).
    max: usize,
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn dash_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn upper_digit(c: char) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

/// Token shapes masked wherever they occur (whole, prefix included).
const SHAPES: &[Shape] = &[
    // GitHub: personal, OAuth, user-to-server, server-to-server, refresh; fine-grained.
    Shape {
        prefix: "ghp_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    Shape {
        prefix: "gho_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    Shape {
        prefix: "ghu_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    Shape {
        prefix: "ghs_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    Shape {
        prefix: "ghr_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    Shape {
        prefix: "github_pat_",
        body: word_char,
        min: 20,
        max: usize::MAX,
    },
    // GitLab.
    Shape {
        prefix: "glpat-",
        body: dash_word_char,
        min: 20,
        max: usize::MAX,
    },
    // OpenAI, Anthropic and others (`sk-`, `sk-proj-`, `sk-ant-`).
    Shape {
        prefix: "sk-",
        body: dash_word_char,
        min: 20,
        max: usize::MAX,
    },
    // Slack: bot, user, app-level, refresh, configuration.
    Shape {
        prefix: "xoxb-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    Shape {
        prefix: "xoxp-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    Shape {
        prefix: "xoxa-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    Shape {
        prefix: "xoxr-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    Shape {
        prefix: "xoxs-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    Shape {
        prefix: "xapp-",
        body: dash_word_char,
        min: 10,
        max: usize::MAX,
    },
    // AWS access key ids (long-term and temporary).
    Shape {
        prefix: "AKIA",
        body: upper_digit,
        min: 16,
        max: 16,
    },
    Shape {
        prefix: "ASIA",
        body: upper_digit,
        min: 16,
        max: 16,
    },
    // Google API keys.
    Shape {
        prefix: "AIza",
        body: dash_word_char,
        min: 35,
        max: 35,
    },
    // npm.
    Shape {
        prefix: "npm_",
        body: word_char,
        min: 36,
        max: usize::MAX,
    },
];

/// `text` with every known token shape ([`SHAPES`], and JWTs: `eyJ...` `.` `eyJ...` `.` ...)
/// replaced by [`MASK`]. A shape counts where it starts a word (not inside a longer one).
pub fn mask_token_shapes(text: &str) -> String {
    // Cheap test first: most text holds none of the prefixes.
    if !SHAPES.iter().any(|s| text.contains(s.prefix)) && !text.contains("eyJ") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let starts_word = i == 0 || !text[..i].chars().next_back().is_some_and(dash_word_char);
        if starts_word {
            if let Some(len) = shape_at(&text[i..]) {
                out.push_str(MASK);
                i += len;
                continue;
            }
        }
        // Advance one character.
        let step = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + step]);
        i += step;
    }
    out
}

/// The length of the token shape `text` starts with, if any.
fn shape_at(text: &str) -> Option<usize> {
    for shape in SHAPES {
        if let Some(rest) = text.strip_prefix(shape.prefix) {
            let body: usize = rest
                .chars()
                .take_while(|&c| (shape.body)(c))
                .take(shape.max.saturating_add(1))
                .count();
            let ends_word = body <= shape.max;
            if body >= shape.min && ends_word {
                return Some(shape.prefix.len() + body);
            }
        }
    }
    // A JWT: three base64url parts, the first two JSON objects (`eyJ` is `{"`).
    if text.starts_with("eyJ") {
        let b64 = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let first = text.chars().take_while(|&c| b64(c)).count();
        let rest = &text[first..];
        if first >= 10 {
            if let Some(rest) = rest.strip_prefix('.') {
                if rest.starts_with("eyJ") {
                    let second = rest.chars().take_while(|&c| b64(c)).count();
                    let after = &rest[second..];
                    if second >= 10 {
                        if let Some(sig) = after.strip_prefix('.') {
                            let third = sig.chars().take_while(|&c| b64(c)).count();
                            return Some(first + 1 + second + 1 + third);
                        }
                        return Some(first + 1 + second);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_secrets_are_cheap_to_add() {
        let mut r = Redactor::new();
        for i in 0..20_000 {
            r.add(format!("token-{i:06}"));
        }
        r.add("token-000001");
        assert_eq!(r.redact("a token-019999 b"), "a [redacted] b");
    }

    #[test]
    fn masks_every_secret_longest_first() {
        let mut r = Redactor::new();
        r.add("hunter2");
        r.add("hunter2-extended");
        assert_eq!(
            r.redact("a hunter2 and hunter2-extended, ab"),
            "a [redacted] and [redacted], ab"
        );
    }

    #[test]
    fn short_secrets_are_masked_where_they_stand_alone() {
        let mut r = Redactor::new();
        r.add("ab");
        r.add("7");
        r.add("");
        assert_eq!(
            r.redact("--token ab, about 17 ab: 7 x=7&y=ab"),
            "--token [redacted], about 17 [redacted]: [redacted] x=[redacted]&y=[redacted]"
        );
        assert_eq!(r.redact("abab"), "abab");
        let mut r = Redactor::new();
        r.add("+");
        assert_eq!(r.redact("a+b"), "a[redacted]b");
    }

    #[test]
    fn a_cut_never_shows_a_secrets_beginning() {
        let mut r = Redactor::new();
        r.add("s3cr3t-value");
        assert_eq!(
            r.redact_cut("x s3cr3t-value y s3cr"),
            "x [redacted] y [redacted]"
        );
        assert_eq!(r.redact_cut("ends with s"), "ends with [redacted]");
        assert_eq!(r.redact_cut("nothing"), "nothing");
    }

    #[test]
    fn secret_options_and_names() {
        for yes in [
            "--token",
            "--api-key",
            "--apiKey",
            "--api_key",
            "-password",
            "--client-secret",
            "--auth",
            "--authorization",
            "access_token",
            "key",
            "--github-token",
            "--pass",
            "X-Api-Key",
            "sig",
        ] {
            assert!(is_secret_name(yes), "{yes}");
        }
        for no in [
            "--port",
            "--verbose",
            "--keep-alive",
            "--author-name",
            "--monkey",
            "--stdio",
        ] {
            assert!(!is_secret_name(no), "{no}");
        }
        let args = [
            "--token",
            "t0k",
            "--port",
            "80",
            "--api-key=k3y",
            "--password",
            "",
            "-v",
        ];
        assert_eq!(
            secret_args(&args),
            vec!["t0k".to_string(), "k3y".to_string()]
        );
    }

    #[test]
    fn argument_shapes_give_their_secrets() {
        let args = [
            "env",
            "GITHUB_TOKEN=gh-value-1",
            "DEBUG=1",
            "docker",
            "-e",
            "MY_API_KEY=api-value-2",
            "--env=AWS_SECRET_ACCESS_KEY=aws-value-3",
            "--header",
            "Authorization: Bearer bearer-value-4",
            "-H",
            "X-Api-Key: header-value-5",
            "postgresql://user:pg-value-6@db.example/app",
            "https://api.example/v1?api_key=query-value-7&x=1",
            "-t",
            "short-t-value-8",
            "--pat",
            "pat-value-9",
            "--header=Authorization: Basic basic-value-10",
            "-t",
            "ab",
            "-p",
            "8080",
        ];
        let got = secret_args(&args);
        for want in [
            "gh-value-1",
            "api-value-2",
            "aws-value-3",
            "bearer-value-4",
            "Bearer bearer-value-4",
            "header-value-5",
            "pg-value-6",
            "query-value-7",
            "short-t-value-8",
            "pat-value-9",
            "basic-value-10",
        ] {
            assert!(got.iter().any(|g| g == want), "{want}: {got:?}");
        }
        for not in ["1", "ab", "8080", "user", "docker"] {
            assert!(!got.iter().any(|g| g == not), "{not}: {got:?}");
        }
    }

    #[test]
    fn url_parameters_and_matrix_parameters() {
        let got = secrets_in_text("ws://h:1/mcp;token=t-1?code=c-2&jwt=j-3&session=s-4&n=5");
        for want in ["t-1", "c-2", "j-3", "s-4"] {
            assert!(got.iter().any(|g| g == want), "{want}: {got:?}");
        }
        assert!(!got.iter().any(|g| g == "5"), "{got:?}");
    }

    #[test]
    fn secret_looking_environment_values() {
        let env = [
            ("GITHUB_TOKEN", "ghp-env-value"),
            ("ENABLE_AUTH", "1"),
            ("PATH", "/usr/bin:/bin"),
            ("PWD", "/home/someone/project"),
            ("SSH_AUTH_SOCK", "/tmp/ssh-XXXX/agent.1"),
            ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG"),
        ];
        assert_eq!(
            env_secrets(env),
            vec![
                "ghp-env-value".to_string(),
                "wJalrXUtnFEMI/K7MDENG".to_string()
            ]
        );
    }

    #[test]
    fn known_token_shapes_are_masked_without_being_given() {
        let r = Redactor::new();
        for token in [
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
            "xoxb-123456789012-1234567890123-abcdefghij",
            "AKIAIOSFODNN7EXAMPLE",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ] {
            let text = format!("token {token}, and more");
            assert_eq!(r.redact(&text), "token [redacted], and more", "{token}");
        }
        for keep in [
            "task-sk-1",
            "sk-short",
            "AKIAIOSFODNN7EXAMPLEXX",
            "the ghp_ prefix",
            "eyJ.eyJ.x",
        ] {
            assert_eq!(r.redact(keep), keep);
        }
    }
}
