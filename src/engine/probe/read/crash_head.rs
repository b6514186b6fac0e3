//! The head of Node's report of an uncaught error, kept whole past the stderr tail: the
//! `file:line` line, the source line, the `^` under it, then the error's head and message up
//! to its first `at` frame. A validator's error prints its issues in the message (zod's
//! `ZodError: [` and the issues' JSON, joi's annotated object) and the `util.inspect` block
//! under the stack can run past the tail's 20 lines (yup's `value:` and valibot's `input:` are
//! the whole environment): the line that says what is wrong scrolled out. Kept by structure
//! (Node's fixed layout), never by a server's words.

/// The most lines of a head kept (the rest of a longer message is dropped).
pub(crate) const MAX_HEAD_LINES: usize = 80;

/// The latest crash head of a stderr stream.
#[derive(Debug, Default)]
pub(crate) struct CrashHead {
    lines: Vec<String>,
    /// The two lines before the one fed, oldest first.
    above: [String; 2],
    /// Still reading its message (no `at` frame seen yet).
    open: bool,
}

/// Whether `line` is Node's caret under the source line: spaces and one `^`.
fn is_caret(line: &str) -> bool {
    line.trim_start() == "^"
}

/// Whether `line` is where Node's report begins: a file, `:` and a line number (`/app/x.js:45`,
/// `file:///app/x.mjs:3`, `node:internal/url:816`).
fn is_location(line: &str) -> bool {
    let Some((file, n)) = line.rsplit_once(':') else {
        return false;
    };
    !file.is_empty()
        && !file.contains(' ')
        && !n.is_empty()
        && n.len() <= 7
        && n.bytes().all(|b| b.is_ascii_digit())
}

impl CrashHead {
    /// Feeds one stderr line.
    pub(crate) fn feed(&mut self, line: &str) {
        let next = [self.above[1].clone(), line.to_string()];
        let [loc, src] = std::mem::replace(&mut self.above, next);
        if is_caret(line) && is_location(&loc) {
            self.lines = vec![loc, src, line.to_string()];
            self.open = true;
            return;
        }
        if !self.open {
            return;
        }
        if line.trim_start().starts_with("at ") {
            self.open = false;
        }
        if self.lines.len() < MAX_HEAD_LINES {
            self.lines.push(line.to_string());
        }
    }

    /// The head's lines, oldest first (empty when no report was seen).
    pub(crate) fn lines(&self) -> &[String] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(lines: &[&str]) -> Vec<String> {
        let mut h = CrashHead::default();
        for l in lines {
            h.feed(l);
        }
        h.lines().to_vec()
    }

    #[test]
    fn keeps_the_report_up_to_its_first_frame() {
        let got = feed(&[
            "starting",
            "/app/node_modules/zod/v3/types.cjs:45",
            "                const error = new ZodError(ctx.common.issues);",
            "                              ^",
            "",
            "ZodError: [",
            "  {",
            "    \"message\": \"Required\"",
            "  }",
            "]",
            "    at get error [as error] (/app/node_modules/zod/v3/types.cjs:45:31)",
            "    at ZodObject.parse (/app/node_modules/zod/v3/types.cjs:120:22)",
            "  issues: [",
        ]);
        assert_eq!(got.len(), 10);
        assert_eq!(got[0], "/app/node_modules/zod/v3/types.cjs:45");
        assert_eq!(got[4], "ZodError: [");
        assert!(got[9].contains("get error"));
    }

    #[test]
    fn a_caret_without_nodes_location_above_is_no_report() {
        // Python's caret under an expression (3.11+), after its `File "...", line N`.
        let got = feed(&[
            "  File \"/app/x.py\", line 3, in <module>",
            "    foo(",
            "    ^",
            "NameError: name 'foo' is not defined",
        ]);
        assert!(got.is_empty());
    }
}
