//! Secrets that must never reach output: an entry's token and `env` values, every value
//! `${VAR}` substitution produced, the values of arguments that follow `--token`, `--api-key`,
//! `--password` and the like, URL query parameters named like `token`, `key`, `secret`,
//! `password` or `auth`, a URL's password, and `--redact VALUE`.
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
        let mut out = text.to_string();
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

/// The values of a command line's secret options: the argument after `--token` (and the like,
/// see [`is_secret_name`]), and `VALUE` in `--token=VALUE`.
pub fn secret_args<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    let mut out = Vec::new();
    let mut next_is_secret = false;
    for a in args {
        let a = a.as_ref();
        if next_is_secret {
            next_is_secret = false;
            if !a.is_empty() {
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
            None => next_is_secret = is_secret_name(a),
        }
    }
    out
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
}
