//! Secrets that must never reach output: an entry's token and `env` values, `--redact VALUE`.
//!
//! Every string the probe reports that a server or a config controls goes through
//! [`Redactor::redact`] before it leaves the engine.

use std::collections::HashSet;
use std::sync::OnceLock;

/// What a masked secret reads as.
pub const MASK: &str = "[redacted]";

/// Values too short to mask safely (masking `1` would garble every number) are ignored.
const MIN_SECRET_LEN: usize = 3;

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

    /// Add a secret (ignored when shorter than 3 characters or already known).
    pub fn add(&mut self, secret: impl Into<String>) {
        let s = secret.into();
        if s.chars().count() >= MIN_SECRET_LEN && !self.known.contains(&s) {
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
            if out.contains(s) {
                out = out.replace(s, MASK);
            }
        }
        out
    }
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
        r.add("ab");
        assert_eq!(
            r.redact("a hunter2 and hunter2-extended, ab"),
            "a [redacted] and [redacted], ab"
        );
    }
}
