//! The head of Node's report of an uncaught error, kept whole past the stderr tail: the
//! `file:line` line, the source line, the `^` under it, then the error's head and message up
//! to its first `at` frame. A validator's error prints its issues in the message (zod's
//! `ZodError: [` and the issues' JSON, joi's annotated object) and the `util.inspect` block
//! under the stack can run past the tail's 20 lines (yup's `value:` and valibot's `input:` are
//! the whole environment): the line that says what is wrong scrolled out. Kept by structure
//! (Node's fixed layout), never by a server's words.

/// The most lines of a head kept (the rest of a longer message is dropped).
pub(crate) const MAX_HEAD_LINES: usize = 80;

/// The most lines of the property block kept after the head (once its long values are
/// collapsed), and the most read before giving up on it.
const MAX_BLOCK_LINES: usize = 60;
const MAX_BLOCK_READ: usize = 4000;

/// A nested value of the property block with more than this many lines of its own (its nested
/// values' lines not counted) is kept as its first and last line around `…` (valibot's `input:
/// {` and yup's `value: {`: the whole environment).
const COLLAPSE_LINES: usize = 12;

/// The latest crash head of a stderr stream.
#[derive(Debug, Default)]
pub(crate) struct CrashHead {
    lines: Vec<String>,
    /// The two lines before the one fed, oldest first.
    above: [String; 2],
    /// Still reading its message (no `at` frame seen yet).
    open: bool,
    /// The property block under the stack (`util.inspect`'s `{ ... }` after the last frame),
    /// while it is read.
    block: Option<Block>,
}

/// The property block being read: its lines so far (long nested values collapsed) and where
/// each still-open nested value starts, with how many lines of its own it has.
#[derive(Debug, Default)]
struct Block {
    lines: Vec<String>,
    opens: Vec<(usize, usize)>,
    read: usize,
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
            self.block = None;
            return;
        }
        if !self.open {
            self.feed_block(line);
            return;
        }
        if line.trim_start().starts_with("at ") {
            self.open = false;
            if line.ends_with(" {") {
                self.block = Some(Block::default());
                return self.feed_block(line);
            }
        }
        if self.lines.len() < MAX_HEAD_LINES {
            self.lines.push(line.to_string());
        }
    }

    /// Feeds a line after the head's first frame: the last frame opens the property block
    /// (`at ... {`), read to its closing `}` at the left margin, its long values collapsed.
    fn feed_block(&mut self, line: &str) {
        let t = line.trim();
        if self.block.is_none() && t.starts_with("at ") && line.ends_with(" {") {
            self.block = Some(Block::default());
        }
        let Some(b) = self.block.as_mut() else {
            return;
        };
        b.read += 1;
        if b.read > MAX_BLOCK_READ {
            self.block = None;
            return;
        }
        if t.starts_with('}') || t.starts_with(']') {
            let Some((start, own)) = b.opens.pop() else {
                self.block = None;
                return;
            };
            if own > COLLAPSE_LINES {
                b.lines.truncate(start + 1);
                b.lines.push("…".to_string());
            }
            b.lines.push(line.to_string());
            if b.opens.is_empty() {
                let done = std::mem::take(&mut b.lines);
                self.block = None;
                if done.len() <= MAX_BLOCK_LINES {
                    self.lines.extend(done);
                }
            }
            return;
        }
        if let Some((_, own)) = b.opens.last_mut() {
            *own += 1;
        }
        if t.ends_with('{') || t.ends_with('[') {
            b.opens.push((b.lines.len(), 0));
        }
        b.lines.push(line.to_string());
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
    fn keeps_the_property_block_with_its_long_values_collapsed() {
        // valibot 1's ValiError: the issue's `path` item holds the whole environment.
        let mut lines = vec![
            "/app/node_modules/valibot/dist/index.cjs:5711",
            "    throw new ValiError(dataset.issues);",
            "          ^",
            "",
            "ValiError: Invalid type: Expected string but received undefined",
            "    at Object.parse (/app/node_modules/valibot/dist/index.cjs:5711:11)",
            "    at start (file:///app/index.mjs:95:9) {",
            "  issues: [",
            "    {",
            "      kind: 'schema',",
            "      path: [",
            "        {",
            "          input: {",
        ];
        let env: Vec<String> = (0..40)
            .map(|n| format!("            V_{n}: 'x',"))
            .collect();
        lines.extend(env.iter().map(String::as_str));
        lines.extend([
            "          },",
            "          key: 'API_KEY',",
            "          value: undefined",
            "        }",
            "      ],",
            "    }",
            "  ]",
            "}",
            "",
            "Node.js v20.20.2",
        ]);
        let got = feed(&lines);
        assert!(got.len() < 30, "{got:#?}");
        assert!(
            got.contains(&"          key: 'API_KEY',".to_string()),
            "{got:#?}"
        );
        assert!(got.contains(&"          input: {".to_string()), "{got:#?}");
        assert!(got.contains(&"…".to_string()), "{got:#?}");
        assert_eq!(got.last().map(String::as_str), Some("}"));
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
