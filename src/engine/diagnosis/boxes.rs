//! Python's exception-group boxes read as plain tracebacks (3.11's `ExceptionGroup`, anyio's
//! and trio's task groups): every line of a group's traceback is written behind a `| `, one
//! more level indented per nested group, and the sub-exceptions are ruled apart
//! (`+-+---------------- 1 ----------------`, `+------------------------------------`).
//! Unboxed, each sub-exception is the traceback it would print alone, its last line the
//! innermost leaf's `Type: message`, so every row that reads tracebacks and last words reads
//! them (a launch's stderr tail is often cut inside the box, above it nothing but `|` lines).

/// Whether `t` (trimmed) is a box's rule: `+-+---- 1 ----`, `+--------`, `+---- ... ----`.
fn is_rule(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('+') else {
        return false;
    };
    rest.len() >= 4
        && rest.starts_with('-')
        && rest
            .chars()
            .all(|c| matches!(c, '-' | '+' | ' ' | '.') || c.is_ascii_digit())
}

/// A group's header: `+ Exception Group Traceback (most recent call last):`.
const HEADER: &str = "+ Exception Group Traceback (most recent call last):";

/// The line inside a box: what follows its `| ` (an empty line's `|` alone), if it is one.
fn inside(line: &str) -> Option<&str> {
    let t = line.trim_start_matches(' ');
    let rest = t.strip_prefix('|')?;
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix(' ')
}

/// Whether `lines` hold a box: a rule or a group's header (a `| ` alone is a table's).
pub(crate) fn any<S: AsRef<str>>(lines: &[S]) -> bool {
    lines.iter().any(|l| {
        let t = l.as_ref().trim();
        is_rule(t) || t == HEADER
    })
}

/// `lines` with every box opened: rules dropped, a group's header read as a traceback's
/// (`Traceback (most recent call last):`), each boxed line without its `| ` (nested boxes
/// too). Lines outside a box are kept as they are. Unchanged when `lines` hold no box.
pub(crate) fn unbox(lines: &[String]) -> Vec<String> {
    if !any(lines) {
        return lines.to_vec();
    }
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut l = line.as_str();
        let mut rule = false;
        loop {
            let t = l.trim();
            if is_rule(t) {
                rule = true;
                break;
            }
            // The outer group's header has its `+`; a nested one's is behind its parent's `| `.
            if t == HEADER || t == &HEADER[2..] {
                l = "Traceback (most recent call last):";
                break;
            }
            match inside(l) {
                Some(x) => l = x,
                None => break,
            }
        }
        if !rule {
            out.push(l.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_task_groups_box_is_read_as_its_leaf_traceback() {
        // lean-lsp-mcp 0.x under the mcp SDK's anyio task group (Python 3.11.7), its tail cut
        // inside the box as a launch's stderr tail is.
        let boxed = lines(
            "    |   File \"/v/lib/python3.11/site-packages/lean_lsp_mcp/file_utils.py\", line 85, in require_lean_project_path\n\
             \x20   |     raise ValueError(f\"Lean project path '{path}' does not exist.\") from exc\n\
             \x20   | ValueError: Lean project path '/w/lean-project' does not exist.\n\
             \x20   +------------------------------------",
        );
        assert_eq!(
            unbox(&boxed),
            lines(
                "  File \"/v/lib/python3.11/site-packages/lean_lsp_mcp/file_utils.py\", line 85, in require_lean_project_path\n\
                 \x20   raise ValueError(f\"Lean project path '{path}' does not exist.\") from exc\n\
                 ValueError: Lean project path '/w/lean-project' does not exist."
            )
        );
        // The whole group, nested: the header is a traceback's, the rules go, empty boxed
        // lines stay empty.
        let nested = lines(
            "  + Exception Group Traceback (most recent call last):\n\
             \x20 |   File \"/app/server.py\", line 9, in <module>\n\
             \x20 | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n\
             \x20 +-+---------------- 1 ----------------\n\
             \x20   | Exception Group Traceback (most recent call last):\n\
             \x20   | ExceptionGroup: inner (1 sub-exception)\n\
             \x20   +-+---------------- 1 ----------------\n\
             \x20     | Traceback (most recent call last):\n\
             \x20     |\n\
             \x20     | KeyError: 'X'\n\
             \x20     +------------------------------------",
        );
        assert_eq!(
            unbox(&nested),
            lines(
                "Traceback (most recent call last):\n\
                 \x20 File \"/app/server.py\", line 9, in <module>\n\
                 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n\
                 Traceback (most recent call last):\n\
                 ExceptionGroup: inner (1 sub-exception)\n\
                 Traceback (most recent call last):\n\
                 \n\
                 KeyError: 'X'"
            )
        );
    }

    #[test]
    fn a_table_or_a_log_with_pipes_is_no_box() {
        // A markdown table and a log's `|` columns: no rule, no header, nothing changed.
        let table = lines("| name | value |\n|------|-------|\n| a | 1 |\n  | indented note");
        assert!(!any(&table));
        assert_eq!(unbox(&table), table);
        assert!(!is_rule("+ added a line"));
        assert!(!is_rule("+--"));
    }
}
