//! A Python traceback drawn in a box (rich's `rich.traceback`, typer's and FastMCP's through
//! it; loguru's and better-exceptions' annotated frames) read as the plain traceback it
//! stands for, so that the traceback parser ([`super::evidence::python`]) reads the exception
//! and its frames, the user's and the library's:
//!
//! ```text
//! ╭───── Traceback (most recent call last) ─────╮
//! │ /app/.venv/lib/python3.12/site-packages/pk │
//! │ g/ctx.py:24 in create_client               │
//! │                                            │
//! │   23 │   if not api_key:                   │
//! │ ❱ 24 │   │   raise RuntimeError("An API ke │
//! │ ╭──── locals ────╮                         │
//! │ │ api_key = None │                         │
//! │ ╰────────────────╯                         │
//! ╰────────────────────────────────────────────╯
//! RuntimeError: An API key is required to call the API.
//! ```
//!
//! becomes `Traceback (most recent call last):`, `  File "/app/.../pkg/ctx.py", line 24, in
//! create_client`, `    raise RuntimeError("An API ke`, then the exception's line. A frame's
//! location wrapped over several rows (a long path is cut at the box's width) is joined. The
//! box's head may have scrolled out of the stderr tail: a box whose rows hold rich's `❱` marker
//! of the raised line is one too. A box that is no traceback (a rich panel, a boxed help) is
//! left as it is. loguru's `> File "..."` (the frame that raised) is read as a `File` line (its
//! variables' annotations, `    │    └ <function main ...>`, are indented: the parser skips them).

/// Whether `t` (trimmed) is a boxed traceback's head: `╭──── Traceback (most recent call last) ──╮`.
fn is_head(t: &str) -> bool {
    t.starts_with('╭') && t.contains("Traceback")
}

/// The row inside the outer box: what is between `│ ` and ` │` (the right border's padding
/// kept, to tell a row cut at the box's width from one that ended), if `line` is one.
fn row(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('│')?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let inner = rest.trim_end().strip_suffix('│').unwrap_or(rest);
    // The one space before the right border is the box's; what is left is the row's padding.
    Some(inner.strip_suffix(' ').unwrap_or(inner))
}

/// A code row: `  21 │   code`, `❱ 24 │   code`; whether it is the raised line, and its code.
fn code_row(r: &str) -> Option<(bool, String)> {
    let t = r.trim_start();
    let (marked, t) = match t.strip_prefix('❱') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t),
    };
    let (num, code) = t.split_once(" │")?;
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // rich draws the code's indentation guides as `│`: spaces to the parser.
    let code = code.replace('│', " ");
    Some((marked, code.trim().to_string()))
}

/// A frame's location, `PATH:LINE in FUNC`, as a traceback's `File` line.
fn frame_line(loc: &str) -> Option<String> {
    let (at, func) = loc.rsplit_once(" in ")?;
    let (path, line) = at.rsplit_once(':')?;
    if path.is_empty() || line.is_empty() || !line.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!(
        "  File \"{path}\", line {line}, in {}",
        func.trim()
    ))
}

/// Whether `lines` hold a boxed traceback: its head, or rows of a box with the raised line's
/// `❱` marker (its head scrolled out of the tail).
pub(crate) fn any<S: AsRef<str>>(lines: &[S]) -> bool {
    lines.iter().any(|l| {
        let l = l.as_ref();
        is_head(l.trim())
            || row(l).and_then(code_row).is_some_and(|(marked, _)| marked)
            || l.trim_start().starts_with("> File \"")
    })
}

/// `lines` with each boxed traceback read as a plain one (unchanged when there is none).
pub(crate) fn unbox(lines: &[String]) -> Vec<String> {
    if !any(lines) {
        return lines.to_vec();
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut inside = false;
    // A frame's location being read, over its rows.
    let mut loc = String::new();
    let flush = |loc: &mut String, out: &mut Vec<String>| {
        if let Some(f) = frame_line(loc.trim()) {
            out.push(f);
        }
        loc.clear();
    };
    for line in lines {
        let t = line.trim();
        if is_head(t) {
            inside = true;
            out.push("Traceback (most recent call last):".to_string());
            continue;
        }
        // loguru: `> File "...", line N, in f` marks the frame that raised; `│ └ value` and
        // `└ value` annotate a frame's variables.
        if let Some(rest) = t.strip_prefix("> File \"") {
            out.push(format!("  File \"{rest}"));
            continue;
        }
        let r = if inside || line.starts_with('│') {
            row(line)
        } else {
            None
        };
        let Some(r) = r else {
            if inside && t.starts_with('╰') {
                flush(&mut loc, &mut out);
                inside = false;
                continue;
            }
            out.push(line.clone());
            continue;
        };
        if !inside {
            // The box's head scrolled out: its rows start the traceback.
            inside = true;
            out.push("Traceback (most recent call last):".to_string());
        }
        let rt = r.trim();
        if rt.is_empty() || rt.starts_with(['╭', '│', '╰']) {
            flush(&mut loc, &mut out);
            continue;
        }
        if let Some((marked, code)) = code_row(r) {
            flush(&mut loc, &mut out);
            if marked {
                out.push(format!("    {code}"));
            }
            continue;
        }
        // A location's row: one cut at the box's width (no padding left: a long path) is
        // continued by the next row unspaced; one padded ended at a space.
        loc.push_str(r.trim_start());
    }
    flush(&mut loc, &mut out);
    out
}

#[cfg(test)]
#[path = "rich_boxes_tests.rs"]
mod tests;
