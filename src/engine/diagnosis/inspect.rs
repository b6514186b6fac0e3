//! The property block Node's `util.inspect` prints under a thrown error's stack (`{ code:
//! -32008, data: { validationErrors: { logLevel: [ 'Invalid option: ...' ] } } }`, an
//! error's `[cause]: Error: ...`, an `AggregateError`'s `[errors]: [ Error: ... ]`): its leaf
//! messages, each with the key that holds it (`logLevel`, `git`, `cause`). A settings
//! validation thrown as an error (zod's, through an `McpError`) says what is wrong only there:
//! the error's own message is a header (`Invalid application configuration.`).

/// The properties Node prints itself that are no message (read as the error's own fields).
const SCALARS: &[&str] = &[
    "code", "errno", "syscall", "address", "port", "input", "path", "dest", "type",
];

/// The most leaves read from one block.
const MAX_LEAVES: usize = 4;

/// A quoted string (`'...'`, `"..."`, `` `...` ``), its inside.
fn quoted(t: &str) -> Option<&str> {
    let q = t.chars().next().filter(|c| matches!(c, '\'' | '"' | '`'))?;
    t.strip_prefix(q)?.strip_suffix(q)
}

/// A message: words with a space, not an identifier or a number.
fn is_message(v: &str) -> bool {
    v.contains(' ') && v.chars().any(|c| c.is_ascii_alphabetic())
}

/// The leaf messages of the block that starts at `lines[0]` (the line after the stack, or the
/// stack's last line ending in `{`), with the key that holds each: `(key, message)`.
pub(crate) fn leaves(lines: &[&str]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    let mut depth = 0usize;
    for line in lines {
        let t = line.trim().trim_end_matches(',');
        // The block's lines are indented, all but its closing brace.
        if t.is_empty() || !(line.starts_with([' ', '\t']) || t.starts_with(['}', ']'])) {
            break;
        }
        if t.starts_with("at ") {
            continue;
        }
        let (key, value) = match t.split_once(": ") {
            Some((k, v)) if !k.contains(' ') || k.starts_with('[') => {
                (Some(k.trim_matches(['[', ']']).to_string()), v)
            }
            _ => (None, t),
        };
        if value.ends_with('{') || value.ends_with('[') {
            depth += 1;
            keys.push(key.unwrap_or_else(|| keys.last().cloned().unwrap_or_default()));
            continue;
        }
        if t.starts_with(['}', ']']) {
            keys.pop();
            depth = depth.saturating_sub(1);
            if depth == 0 {
                break;
            }
            continue;
        }
        let holder = key
            .clone()
            .filter(|k| k != "Error" && !k.ends_with("Error"))
            .or_else(|| keys.last().cloned())
            .unwrap_or_default();
        // `[cause]: Error: ...`, an `[errors]` entry `Error: ...`: the nested error's line.
        let nested = key.as_deref().is_some_and(|k| {
            k == "Error" || (k.ends_with("Error") && k.chars().all(|c| c.is_ascii_alphanumeric()))
        });
        let message = if nested {
            Some(t.to_string())
        } else if key.as_deref() == Some("cause") && value.contains(": ") {
            Some(value.to_string())
        } else {
            quoted(value).map(str::to_string)
        };
        let Some(m) = message.filter(|m| is_message(m)) else {
            continue;
        };
        if SCALARS.contains(&holder.as_str()) || out.iter().any(|(_, x)| *x == m) {
            continue;
        }
        out.push((holder, m));
        if out.len() == MAX_LEAVES {
            break;
        }
    }
    out
}

#[cfg(test)]
#[path = "inspect_tests.rs"]
mod tests;
