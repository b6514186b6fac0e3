//! Secrets that must never reach output: an entry's token and `env` values, `--redact VALUE`.
//!
//! Every string the probe reports that a server or a config controls goes through
//! [`Redactor::redact`] before it leaves the engine.

/// What a masked secret reads as.
pub const MASK: &str = "[redacted]";

/// Values too short to mask safely (masking `1` would garble every number) are ignored.
const MIN_SECRET_LEN: usize = 3;

/// A set of secret values to mask.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Add a secret (ignored when shorter than 3 characters or already known).
    pub fn add(&mut self, secret: impl Into<String>) {
        let s = secret.into();
        if s.chars().count() >= MIN_SECRET_LEN && !self.secrets.contains(&s) {
            self.secrets.push(s);
            // Longest first, so a secret that contains another is masked whole.
            self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        }
    }

    /// Whether there is anything to mask.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret replaced by [`MASK`].
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), MASK);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
