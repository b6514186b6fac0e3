//! A JSON reader that accepts what `JSON.parse` accepts, plus the two things VS Code's
//! `mcp.json` allows on top (JSONC): `//` and `/* */` comments, and trailing commas.
//!
//! Why not a general-purpose parser: the doctor must read a file the way the host does.
//! - Numbers keep their literal text, so `1e400` reads as Infinity and `-0` as zero exactly as
//!   `JSON.parse` gives them (see `policy::jsnum`).
//! - Everything else `JSON.parse` refuses is refused here too (single quotes, `0x10`, `+1`,
//!   `.5`, `NaN`, unquoted keys, raw control characters in strings, white space other than
//!   space, tab, LF and CR), with the byte offset of the problem.
//! - The reader is iterative: a document nested 100,000 levels deep is read without growing the
//!   call stack, and nothing that walks the result recurses either.
//! - Values live in one flat `Vec` of 24-byte nodes; strings are decoded only when asked for, so
//!   memory stays a small multiple of the file's size.

use std::borrow::Cow;

/// "No node" in the links between nodes.
pub(crate) const NONE: u32 = u32::MAX;

/// The largest document the reader takes: offsets are kept in 32 bits.
pub(crate) const MAX_LEN: usize = (u32::MAX - 1) as usize;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    True,
    False,
    Number,
    String,
    Array,
    Object,
}

/// One JSON value: its byte span, the start of its key when it is an object member, and its
/// links (first child for containers, next sibling within its container).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub kind: Kind,
    start: u32,
    end: u32,
    key: u32,
    first: u32,
    next: u32,
}

impl Node {
    /// Byte offset where the value starts.
    pub(crate) fn start(&self) -> usize {
        self.start as usize
    }
    /// Byte offset just past the value.
    pub(crate) fn end(&self) -> usize {
        self.end as usize
    }
    /// Byte offset of the opening quote of this member's key, if the node is an object member.
    pub(crate) fn key_start(&self) -> Option<usize> {
        (self.key != NONE).then_some(self.key as usize)
    }
}

/// A syntax error: what was expected, and where (byte offset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// A parsed document. Node 0 is the root.
#[derive(Debug)]
pub(crate) struct Doc<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// Byte offset of the first comment, if any (JSONC only).
    pub first_comment: Option<usize>,
    /// Byte offset of the first trailing comma, if any (JSONC only).
    pub first_trailing_comma: Option<usize>,
}

/// The root's id.
pub(crate) const ROOT: u32 = 0;

impl<'t> Doc<'t> {
    /// Parse `text`. An empty document (only white space and comments) is an error.
    pub(crate) fn parse(text: &'t str) -> Result<Doc<'t>, SyntaxError> {
        if text.len() > MAX_LEN {
            return Err(SyntaxError {
                offset: 0,
                message: format!("the file is larger than {MAX_LEN} bytes"),
            });
        }
        Parser {
            bytes: text.as_bytes(),
            pos: 0,
            nodes: Vec::new(),
            stack: Vec::new(),
            first_comment: None,
            first_trailing_comma: None,
        }
        .run()
        .map(|p| Doc {
            text,
            nodes: p.0,
            first_comment: p.1,
            first_trailing_comma: p.2,
        })
    }

    /// The document's text.
    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    /// How many values the document holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    pub(crate) fn kind(&self, id: u32) -> Kind {
        self.nodes[id as usize].kind
    }

    /// The children of an array or object (members of an object carry their key), in order.
    pub(crate) fn children(&self, id: u32) -> Children<'_, 't> {
        let first = match self.nodes[id as usize].kind {
            Kind::Array | Kind::Object => self.nodes[id as usize].first,
            _ => NONE,
        };
        Children {
            doc: self,
            next: first,
        }
    }

    /// The value's source text.
    pub(crate) fn raw(&self, id: u32) -> &'t str {
        let n = &self.nodes[id as usize];
        &self.text[n.start()..n.end()]
    }

    /// The byte span of a member's key literal, quotes included.
    pub(crate) fn key_span(&self, id: u32) -> Option<(usize, usize)> {
        let start = self.nodes[id as usize].key_start()?;
        let end = string_end(self.text.as_bytes(), start)?;
        Some((start, end))
    }

    /// A member's key, decoded.
    pub(crate) fn key(&self, id: u32) -> Option<Cow<'t, str>> {
        let (s, e) = self.key_span(id)?;
        Some(decode(&self.text[s + 1..e - 1]))
    }

    /// A string value, decoded (`None` when the node is not a string).
    pub(crate) fn string(&self, id: u32) -> Option<Cow<'t, str>> {
        let n = &self.nodes[id as usize];
        if n.kind != Kind::String {
            return None;
        }
        Some(decode(&self.text[n.start() + 1..n.end() - 1]))
    }
}

/// Iterator over a container's children.
pub(crate) struct Children<'d, 't> {
    doc: &'d Doc<'t>,
    next: u32,
}

impl Iterator for Children<'_, '_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id as usize].next;
        Some(id)
    }
}

/// The byte just past the closing quote of the string literal starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// Decode the inside of a (validated) string literal. A lone surrogate escape, which
/// `JSON.parse` keeps, becomes U+FFFD (Rust strings cannot hold it).
pub(crate) fn decode(inner: &str) -> Cow<'_, str> {
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((i, e)) = chars.next() else { break };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'u' => {
                let hi = hex4(inner, i + 1);
                for _ in 0..4 {
                    chars.next();
                }
                let Some(hi) = hi else {
                    out.push('\u{FFFD}');
                    continue;
                };
                if (0xD800..0xDC00).contains(&hi) {
                    // A high surrogate: pair it with a following \uDC00-\uDFFF.
                    let rest = inner.get(i + 5..).unwrap_or("");
                    if rest.starts_with("\\u") {
                        if let Some(lo) = hex4(inner, i + 7) {
                            if (0xDC00..0xE000).contains(&lo) {
                                let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                                for _ in 0..6 {
                                    chars.next();
                                }
                                continue;
                            }
                        }
                    }
                    out.push('\u{FFFD}');
                } else {
                    out.push(char::from_u32(hi).unwrap_or('\u{FFFD}'));
                }
            }
            other => out.push(other),
        }
    }
    Cow::Owned(out)
}

fn hex4(s: &str, at: usize) -> Option<u32> {
    let h = s.get(at..at + 4)?;
    u32::from_str_radix(h, 16).ok()
}

/// An open container while parsing.
struct Frame {
    node: u32,
    last: u32,
    object: bool,
}

struct Parser<'b> {
    bytes: &'b [u8],
    pos: usize,
    nodes: Vec<Node>,
    stack: Vec<Frame>,
    first_comment: Option<usize>,
    first_trailing_comma: Option<usize>,
}

type Parsed = (Vec<Node>, Option<usize>, Option<usize>);

impl Parser<'_> {
    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            offset,
            message: message.into(),
        })
    }

    /// "expected X", or "unexpected end of file, expected X" at the end.
    fn expected<T>(&self, what: &str) -> Result<T, SyntaxError> {
        if self.pos >= self.bytes.len() {
            self.err(self.pos, format!("unexpected end of file, expected {what}"))
        } else {
            self.err(self.pos, format!("expected {what}"))
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skip white space (space, tab, LF, CR) and comments.
    fn skip(&mut self) -> Result<(), SyntaxError> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' => {
                    let start = self.pos;
                    match self.bytes.get(self.pos + 1) {
                        Some(b'/') => {
                            self.first_comment.get_or_insert(start);
                            self.pos += 2;
                            while let Some(c) = self.peek() {
                                if c == b'\n' || c == b'\r' {
                                    break;
                                }
                                self.pos += 1;
                            }
                        }
                        Some(b'*') => {
                            self.first_comment.get_or_insert(start);
                            let body = &self.bytes[self.pos + 2..];
                            match body.windows(2).position(|w| w == b"*/") {
                                Some(i) => self.pos += 2 + i + 2,
                                None => return self.err(start, "unterminated /* comment"),
                            }
                        }
                        _ => {
                            return self
                                .err(start, "unexpected '/' (a comment starts with // or /*)")
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize, key: u32) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            kind,
            start: start as u32,
            end: end as u32,
            key,
            first: NONE,
            next: NONE,
        });
        if let Some(frame) = self.stack.last_mut() {
            if frame.last == NONE {
                self.nodes[frame.node as usize].first = id;
            } else {
                self.nodes[frame.last as usize].next = id;
            }
            frame.last = id;
        }
        id
    }

    /// Validate a string literal at `self.pos` (the opening quote); returns its end.
    fn scan_string(&mut self) -> Result<usize, SyntaxError> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = start + 1;
        loop {
            let Some(&c) = b.get(i) else {
                return self.err(start, "unterminated string");
            };
            match c {
                b'"' => return Ok(i + 1),
                b'\\' => {
                    match b.get(i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                        Some(b'u') => {
                            let ok = b.len() >= i + 6 && b[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit);
                            if !ok {
                                return self.err(i, "invalid \\u escape in a string (it takes four hex digits)");
                            }
                            i += 6;
                        }
                        None => return self.err(start, "unterminated string"),
                        Some(_) => return self.err(i, "invalid escape in a string (JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
                    }
                }
                0x00..=0x1F => {
                    return self.err(
                        i,
                        "control character inside a string (JSON needs it escaped, e.g. \\n or \\t)",
                    )
                }
                _ => i += 1,
            }
        }
    }

    /// Validate a number at `self.pos`; returns its end.
    fn scan_number(&self) -> Result<usize, SyntaxError> {
        let b = self.bytes;
        let start = self.pos;
        let mut i = start;
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i - s
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if b.get(i).is_some_and(u8::is_ascii_digit) {
                    return self.err(start, "invalid number (JSON numbers have no leading zeros)");
                }
            }
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => return self.err(start, "invalid number"),
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return self.err(
                    start,
                    "invalid number (a digit must follow the decimal point)",
                );
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return self.err(start, "invalid number (the exponent has no digits)");
            }
        }
        Ok(i)
    }

    /// Parse one value at `self.pos` (after white space). Containers are opened, not finished.
    /// Returns whether the value was complete (a scalar or an empty container).
    fn value(&mut self, key: u32) -> Result<bool, SyntaxError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return self.expected("a value");
        };
        let (kind, end) = match c {
            b'{' | b'[' => {
                let object = c == b'{';
                let kind = if object { Kind::Object } else { Kind::Array };
                let id = self.push(kind, start, start + 1, key);
                self.stack.push(Frame {
                    node: id,
                    last: NONE,
                    object,
                });
                self.pos += 1;
                return Ok(false);
            }
            b'"' => (Kind::String, self.scan_string()?),
            b'-' | b'0'..=b'9' => (Kind::Number, self.scan_number()?),
            b't' if self.bytes[start..].starts_with(b"true") => (Kind::True, start + 4),
            b'f' if self.bytes[start..].starts_with(b"false") => (Kind::False, start + 5),
            b'n' if self.bytes[start..].starts_with(b"null") => (Kind::Null, start + 4),
            _ => return self.expected("a value"),
        };
        self.push(kind, start, end, key);
        self.pos = end;
        Ok(true)
    }

    /// Parse a member's key and colon; returns the key's start.
    fn key(&mut self) -> Result<u32, SyntaxError> {
        if self.peek() != Some(b'"') {
            return self.expected("a key in double quotes");
        }
        let start = self.pos;
        self.pos = self.scan_string()?;
        self.skip()?;
        if self.peek() != Some(b':') {
            return self.expected("':' after the key");
        }
        self.pos += 1;
        self.skip()?;
        Ok(start as u32)
    }

    fn close(&mut self) {
        if let Some(frame) = self.stack.pop() {
            self.pos += 1;
            self.nodes[frame.node as usize].end = self.pos as u32;
        }
    }

    fn run(mut self) -> Result<Parsed, SyntaxError> {
        self.skip()?;
        if self.pos >= self.bytes.len() {
            return self.err(self.pos, "the file holds no JSON value");
        }
        let mut key = NONE;
        loop {
            // Expecting a value (the root, an element, or a member's value).
            let complete = self.value(key)?;
            key = NONE;
            if !complete {
                // A container was opened: an empty one closes at once, else read its first
                // element or key.
                self.skip()?;
                let object = self.stack.last().is_some_and(|f| f.object);
                match self.peek() {
                    Some(b'}') if object => self.close(),
                    Some(b']') if !object => self.close(),
                    _ => {
                        if object {
                            key = self.key()?;
                        }
                        continue;
                    }
                }
            }
            // After a value: a comma, or the end of containers.
            loop {
                self.skip()?;
                let Some(frame) = self.stack.last() else {
                    if self.pos < self.bytes.len() {
                        return self.err(self.pos, "unexpected text after the JSON value");
                    }
                    return Ok((self.nodes, self.first_comment, self.first_trailing_comma));
                };
                let object = frame.object;
                match self.peek() {
                    Some(b',') => {
                        let comma = self.pos;
                        self.pos += 1;
                        self.skip()?;
                        match self.peek() {
                            Some(b'}') if object => {
                                self.first_trailing_comma.get_or_insert(comma);
                                self.close();
                            }
                            Some(b']') if !object => {
                                self.first_trailing_comma.get_or_insert(comma);
                                self.close();
                            }
                            _ => {
                                if object {
                                    key = self.key()?;
                                }
                                break;
                            }
                        }
                    }
                    Some(b'}') if object => self.close(),
                    Some(b']') if !object => self.close(),
                    _ => {
                        return self.expected(if object {
                            "',' or '}' after an object member"
                        } else {
                            "',' or ']' after an array element"
                        })
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Doc<'_> {
        match Doc::parse(text) {
            Ok(d) => d,
            Err(e) => panic!("{text:?}: {e:?}"),
        }
    }

    fn err(text: &str) -> SyntaxError {
        match Doc::parse(text) {
            Ok(_) => panic!("{text:?} should not parse"),
            Err(e) => e,
        }
    }

    #[test]
    fn accepts_json_and_jsonc() {
        let cases = [
            "0",
            "-0",
            "1e400",
            "-1.5E-3",
            "\"a\\u00e9\\n\"",
            "true",
            "null",
            "[]",
            "{}",
            "[1, [2, [3]], {\"a\": {}}]",
            "{\"a\": 1,}",
            "[1, 2,]",
            "// c\n{\"a\" /* x */ : 1} // end",
            "/* only */ 5",
            " \t\r\n{ } ",
        ];
        for c in cases {
            ok(c);
        }
    }

    #[test]
    fn refuses_what_json_parse_refuses() {
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("   ", 3),
            ("// only a comment", 17),
            ("{'a': 1}", 1),
            ("{a: 1}", 1),
            ("[0x10]", 2),
            ("[+1]", 1),
            ("[.5]", 1),
            ("[5.]", 1),
            ("[01]", 1),
            ("[NaN]", 1),
            ("[Infinity]", 1),
            ("[1 2]", 3),
            ("{\"a\" 1}", 5),
            ("{\"a\": 1 \"b\": 2}", 8),
            ("[1,,2]", 3),
            ("[,]", 1),
            ("{,}", 1),
            ("\"a\nb\"", 2),
            ("\"\\x41\"", 1),
            ("\"\\u12\"", 1),
            ("\"abc", 0),
            ("[1] [2]", 4),
            ("/* open", 0),
            ("[1 / 2]", 3),
            ("\u{a0}1", 0),
            ("\u{feff}{}", 0),
            ("[", 1),
            ("{\"a\":", 5),
            ("tru", 0),
        ];
        for (text, offset) in cases {
            let e = err(text);
            assert_eq!(e.offset, *offset, "{text:?}: {}", e.message);
        }
    }

    #[test]
    fn keeps_spans_keys_and_number_text() {
        let text = "{\"a\": 1e400, \"b\\u0063\": [true, \"x\\ty\"], \"c\": -0}";
        let d = ok(text);
        let members: Vec<u32> = d.children(ROOT).collect();
        assert_eq!(members.len(), 3);
        assert_eq!(d.key(members[0]).as_deref(), Some("a"));
        assert_eq!(d.raw(members[0]), "1e400");
        assert_eq!(d.key(members[1]).as_deref(), Some("bc"));
        assert_eq!(d.key_span(members[1]), Some((13, 22)));
        let arr: Vec<u32> = d.children(members[1]).collect();
        assert_eq!(d.kind(arr[0]), Kind::True);
        assert_eq!(d.string(arr[1]).as_deref(), Some("x\ty"));
        assert_eq!(d.raw(members[2]), "-0");
        assert_eq!(d.node(members[1]).start(), 24);
        assert_eq!(
            &text[d.node(members[1]).start()..d.node(members[1]).end()],
            "[true, \"x\\ty\"]"
        );
    }

    #[test]
    fn surrogates_decode_like_utf16() {
        assert_eq!(decode("\\ud83d\\ude00"), "\u{1F600}");
        assert_eq!(decode("a\\ud800b"), "a\u{FFFD}b");
        assert_eq!(decode("\\udc00"), "\u{FFFD}");
        assert_eq!(decode("\\\"\\\\\\/"), "\"\\/");
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 100_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let d = ok(&text);
        assert_eq!(d.len(), depth);
        let text = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        let d = ok(&text);
        assert_eq!(d.len(), depth + 1);
        let unclosed = "[".repeat(depth);
        assert_eq!(err(&unclosed).offset, depth);
    }

    #[test]
    fn records_jsonc_extras() {
        let d = ok("{\"a\": [1,], // x\n}");
        assert_eq!(d.first_trailing_comma, Some(8));
        assert_eq!(d.first_comment, Some(12));
        let d = ok("{\"a\": [1]}");
        assert_eq!(d.first_trailing_comma, None);
        assert_eq!(d.first_comment, None);
    }
}
