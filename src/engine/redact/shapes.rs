//! Secrets masked by their shape wherever they occur: known token formats and JWTs, and the
//! credential after `Bearer `/`Basic ` (see the room's text, `redact/mod.rs`).

use super::names::MASK;

/// The credentials after `Bearer ` or `Basic ` (any case) in `text`: a run of token characters
/// of 8 or more that has a digit, a symbol of base64 or a token (`+/=._~-`), or a capital
/// after its first letter, so that prose (`Basic authentication failed`) stays as it is.
pub(super) fn auth_scheme_tokens(text: &str) -> Vec<(usize, usize)> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for scheme in ["bearer ", "basic "] {
        for (at, _) in lower.match_indices(scheme) {
            let starts_word = !text[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric());
            if !starts_word {
                continue;
            }
            let from = at + scheme.len();
            let rest = &text[from..];
            let rest_trimmed = rest.trim_start_matches(' ');
            let from = from + (rest.len() - rest_trimmed.len());
            let token_char = |c: char| c.is_ascii_alphanumeric() || "+/=._~-".contains(c);
            let len = rest_trimmed
                .find(|c: char| !token_char(c))
                .unwrap_or(rest_trimmed.len());
            let token = &rest_trimmed[..len];
            let shaped = token
                .chars()
                .any(|c| c.is_ascii_digit() || "+/=._~-".contains(c))
                || token.chars().skip(1).any(|c| c.is_ascii_uppercase());
            if len >= 8 && shaped {
                out.push((from, from + len));
            }
        }
    }
    out.sort_unstable();
    out
}

/// `text` with the credential after every `Bearer `/`Basic ` replaced by [`MASK`] (see
/// [`auth_scheme_tokens`]).
pub(crate) fn mask_auth_schemes(text: &str) -> String {
    let spans = auth_scheme_tokens(text);
    if spans.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end) in spans {
        if start < last {
            continue;
        }
        out.push_str(&text[last..start]);
        out.push_str(MASK);
        last = end;
    }
    out.push_str(&text[last..]);
    out
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
pub(crate) fn mask_token_shapes(text: &str) -> String {
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
