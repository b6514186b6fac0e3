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
//! By shape as well as by name (issue 30): a URL's userinfo with or without a scheme
//! (`user:PASSWORD@host:port`), in an argument or an env value; the credential after `Bearer`
//! or `Basic` anywhere, also in what a server writes; a header whose name is a credential with
//! or without a space (`Authorization:Bearer TOKEN`); a JSON value walked for credential keys
//! (`OPENAPI_MCP_HEADERS={"Authorization":"Bearer ..."}`); the default in `${VAR:-default}`.
//! And never what cannot be a secret although its place says so: a number, a duration, a
//! boolean, a word of fewer than [`MIN_FOUND_LEN`] characters (`--auth-timeout 5` masked every
//! `5` of a server's stderr), see [`could_be_secret`] and [`Redactor::add_found`].
//!
//! To mask more (an HTTP entry's headers): [`Redactor::add`] for a value known to be secret,
//! [`Redactor::add_found`] for one found by its place, [`header_secrets`] for a header.
//!
//! Every string the probe reports that a server or a config controls goes through
//! [`Redactor::redact`] before it leaves the engine. A secret of 3 characters or more is masked
//! wherever it occurs; a shorter one (1 or 2 characters) is masked where it stands alone, not
//! inside a longer word or number, because masking `1` inside every number would garble the
//! report while protecting nothing (the CLI warns about a short `--redact` value).

use std::collections::HashSet;
use std::sync::OnceLock;

mod found;
mod names;
mod shapes;

#[cfg(test)]
pub(crate) use found::header_secrets;
pub(crate) use found::{could_be_secret, env_secrets, secret_args, secrets_in_text};
pub(crate) use names::{is_secret_name, MASK};
pub(crate) use shapes::{mask_auth_schemes, mask_token_shapes};

/// Secrets shorter than this are masked only where they stand alone (see the module's text).
pub(crate) const MIN_SECRET_LEN: usize = 3;

/// A set of secret values to mask.
#[derive(Debug, Clone, Default)]
pub(crate) struct Redactor {
    /// In the order added, without duplicates.
    secrets: Vec<String>,
    known: HashSet<String>,
    /// The secrets longest first, so a secret that contains another is masked whole; built on
    /// first use after an `add`, so adding n secrets costs O(n log n), not O(n^2 log n).
    longest_first: OnceLock<Vec<usize>>,
}

impl Redactor {
    pub(crate) fn new() -> Redactor {
        Redactor::default()
    }

    /// Add a secret (ignored when empty or already known).
    pub(crate) fn add(&mut self, secret: impl Into<String>) {
        let s = secret.into();
        if !s.is_empty() && !self.known.contains(&s) {
            self.known.insert(s.clone());
            self.secrets.push(s);
            self.longest_first = OnceLock::new();
        }
    }

    /// Add a value found by its place or shape (after `--token`, in an entry's `env`, a
    /// header's value), unless it cannot be a secret ([`could_be_secret`]): a `5` after
    /// `--auth-timeout` must not turn every `5` of a report into the mask.
    pub(crate) fn add_found(&mut self, secret: impl Into<String>) {
        let s = secret.into();
        if could_be_secret(&s) {
            self.add(s);
        }
    }

    /// `text` with every secret replaced by [`MASK`].
    pub(crate) fn redact(&self, text: &str) -> String {
        let order = self.longest_first.get_or_init(|| {
            let mut order: Vec<usize> = (0..self.secrets.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(self.secrets[i].len()));
            order
        });
        let mut out = mask_auth_schemes(&mask_token_shapes(text));
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
    pub(crate) fn redact_cut(&self, text: &str) -> String {
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
    pub(crate) fn longest(&self) -> usize {
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

#[cfg(test)]
mod tests;
