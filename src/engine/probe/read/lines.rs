//! Bounded line reading: memory stays under the line limit plus one read buffer, whatever the
//! server writes. A line longer than the limit is cut at the limit (the rest is read and
//! dropped) and flagged, never buffered whole.

use std::collections::VecDeque;

use tokio::io::{AsyncRead, AsyncReadExt};

/// The read buffer's first size: a quiet server's lines fit, and the probe stays small when it
/// watches many servers at once (two readers per stdio server).
const MIN_CHUNK: usize = 8 * 1024;
/// The size it grows to, doubling after each read that filled it: a pipe holds 64 KiB, so a
/// flood is drained in reads as large as it can give.
const MAX_CHUNK: usize = 64 * 1024;

/// One line, at most `limit` bytes of it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// The line's first bytes (without the newline or a trailing `\r`).
    pub bytes: &'a [u8],
    /// The line was longer than the limit; `bytes` is its beginning.
    pub truncated: bool,
    /// The line's whole length in bytes (more than `bytes.len()` when truncated).
    pub len: u64,
}

/// Reads lines from `inner`, keeping at most `limit` bytes of any line.
pub(crate) struct LineReader<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    line: Vec<u8>,
    truncated: bool,
    /// The current line's length so far, kept or not.
    line_len: u64,
    limit: usize,
    eof: bool,
    /// The last read filled the buffer (grow it before the next).
    full: bool,
    /// Bytes read in all.
    pub total_bytes: u64,
    /// [`LineReader::next_head`] returned the head of a line whose rest is still unread.
    in_line: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: vec![0; MIN_CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            line: Vec::new(),
            truncated: false,
            line_len: 0,
            limit,
            eof: false,
            full: false,
            total_bytes: 0,
            in_line: false,
        }
    }

    fn take(&mut self, upto: usize) {
        let room = self.limit.saturating_sub(self.line.len());
        let n = upto - self.start;
        self.line_len += n as u64;
        if n > room {
            self.truncated = true;
        }
        let keep = n.min(room);
        self.line
            .extend_from_slice(&self.buf[self.start..self.start + keep]);
    }

    /// The next line, or `None` at the end of the stream. A read error ends the stream.
    pub(crate) async fn next_line(&mut self) -> Option<Line<'_>> {
        self.line.clear();
        self.truncated = false;
        self.line_len = 0;
        loop {
            if let Some(i) = self.buf[self.start..self.end]
                .iter()
                .position(|&b| b == b'\n')
            {
                let nl = self.start + i;
                self.take(nl);
                self.start = nl + 1;
                return Some(self.finish());
            }
            self.take(self.end);
            self.start = 0;
            self.end = 0;
            if self.eof {
                return None;
            }
            if self.full && self.buf.len() < MAX_CHUNK {
                // Empty here (start = end = 0): nothing to keep.
                self.buf = vec![0; (self.buf.len() * 2).min(MAX_CHUNK)].into_boxed_slice();
            }
            match self.inner.read(&mut self.buf).await {
                Ok(0) | Err(_) => {
                    self.eof = true;
                    if !self.line.is_empty() || self.truncated {
                        return Some(self.finish());
                    }
                    return None;
                }
                Ok(n) => {
                    self.end = n;
                    self.full = n == self.buf.len();
                    self.total_bytes += n as u64;
                }
            }
        }
    }

    /// Like [`LineReader::next_line`], but a line longer than the limit is returned at its
    /// first `limit` bytes (`truncated`, `len` those bytes) with its rest left unread: read it
    /// with [`LineReader::rest_chunk`] (the next call skips what is left of it).
    pub(crate) async fn next_head(&mut self) -> Option<Line<'_>> {
        while self.rest_chunk().await.is_some() {}
        self.line.clear();
        self.truncated = false;
        self.line_len = 0;
        loop {
            let room = self.limit.saturating_sub(self.line.len());
            let avail = &self.buf[self.start..self.end];
            let nl = avail.iter().take(room + 1).position(|&b| b == b'\n');
            if let Some(i) = nl {
                self.take(self.start + i);
                self.start += i + 1;
                return Some(self.finish());
            }
            if avail.len() >= room {
                // Over the limit (or exactly at it without its newline yet): the head.
                self.take(self.start + room);
                self.start += room;
                self.in_line = true;
                self.truncated = true;
                return Some(Line {
                    bytes: &self.line,
                    truncated: true,
                    len: self.line_len,
                });
            }
            self.take(self.end);
            self.start = 0;
            self.end = 0;
            if self.eof {
                return None;
            }
            if !self.fill().await {
                if !self.line.is_empty() {
                    return Some(self.finish());
                }
                return None;
            }
        }
    }

    /// The head [`LineReader::next_head`] returned, taken (no copy).
    pub(crate) fn take_head(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.line)
    }

    /// The next piece of the line whose head [`LineReader::next_head`] returned, up to its
    /// newline; `None` at its end.
    pub(crate) async fn rest_chunk(&mut self) -> Option<&[u8]> {
        if !self.in_line {
            return None;
        }
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            if self.eof || !self.fill().await {
                self.in_line = false;
                return None;
            }
        }
        let (a, b) = (self.start, self.end);
        match self.buf[a..b].iter().position(|&c| c == b'\n') {
            Some(i) => {
                self.start = a + i + 1;
                self.in_line = false;
                Some(&self.buf[a..a + i])
            }
            None => {
                self.start = b;
                Some(&self.buf[a..b])
            }
        }
    }

    /// Read into the (empty) buffer; `false` at the end of the stream.
    async fn fill(&mut self) -> bool {
        if self.full && self.buf.len() < MAX_CHUNK {
            self.buf = vec![0; (self.buf.len() * 2).min(MAX_CHUNK)].into_boxed_slice();
        }
        match self.inner.read(&mut self.buf).await {
            Ok(0) | Err(_) => {
                self.eof = true;
                false
            }
            Ok(n) => {
                self.end = n;
                self.full = n == self.buf.len();
                self.total_bytes += n as u64;
                true
            }
        }
    }

    fn finish(&mut self) -> Line<'_> {
        if !self.truncated && self.line.last() == Some(&b'\r') {
            self.line.pop();
            self.line_len -= 1;
        }
        Line {
            bytes: &self.line,
            truncated: self.truncated,
            len: self.line_len,
        }
    }
}

/// The last lines of a stream: at most `max_lines` lines and `max_bytes` bytes in all.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tail {
    lines: VecDeque<String>,
    bytes: usize,
    max_lines: usize,
    max_bytes: usize,
    /// Lines seen in all.
    pub total_lines: u64,
}

impl Tail {
    pub(crate) fn new(max_lines: usize, max_bytes: usize) -> Tail {
        Tail {
            max_lines,
            max_bytes,
            ..Tail::default()
        }
    }

    /// Add a line (already cut to a bounded length).
    pub(crate) fn push(&mut self, line: String) {
        self.total_lines += 1;
        let mut line = line;
        if line.len() > self.max_bytes {
            let mut cut = self.max_bytes;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
        }
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.lines.len() > self.max_lines || self.bytes > self.max_bytes {
            match self.lines.pop_front() {
                Some(old) => self.bytes -= old.len(),
                None => break,
            }
        }
    }

    /// The lines kept, oldest first.
    pub(crate) fn lines(&self) -> impl Iterator<Item = &String> {
        self.lines.iter()
    }
}

/// `line` without its colour and style codes (SGR: `ESC [ digits ; ... m`), how a terminal
/// paints a log line (pino's `\x1b[31mERROR\x1b[39m`), not what the server said: the Why
/// quotes and matches the words. Every other escape sequence stays, and is shown escaped.
pub(crate) fn without_colour(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("\x1b[") {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let params = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
            .unwrap_or(after.len());
        if after[params..].starts_with('m') {
            rest = &after[params + 1..];
        } else {
            out.push_str("\x1b[");
            rest = after;
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], limit: usize) -> Vec<(String, bool)> {
        let mut r = LineReader::new(input, limit);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().await {
            out.push((String::from_utf8_lossy(l.bytes).into_owned(), l.truncated));
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_and_cuts_long_ones() {
        assert_eq!(
            all(b"a\r\nbb\n\nccc", 10).await,
            vec![
                ("a".into(), false),
                ("bb".into(), false),
                ("".into(), false),
                ("ccc".into(), false)
            ]
        );
        assert_eq!(
            all(b"0123456789abc\nok\n", 4).await,
            vec![("0123".into(), true), ("ok".into(), false)]
        );
    }

    #[tokio::test]
    async fn the_read_buffer_starts_small_and_grows_only_under_a_flood() {
        // Lines that cross every buffer boundary come out whole, whatever the buffer's size.
        let mut input = Vec::new();
        for i in 0..20_000 {
            input.extend_from_slice(format!("line {i} {}\n", "y".repeat(i % 97)).as_bytes());
        }
        let mut r = LineReader::new(&input[..], 4096);
        assert_eq!(r.buf.len(), MIN_CHUNK);
        let mut n = 0;
        while let Some(l) = r.next_line().await {
            let text = String::from_utf8_lossy(l.bytes).into_owned();
            assert_eq!(text, format!("line {n} {}", "y".repeat(n % 97)));
            n += 1;
        }
        assert_eq!(n, 20_000);
        // Every read filled the buffer: it grew to its largest.
        assert_eq!(r.buf.len(), MAX_CHUNK);
        // A quiet stream keeps the small one.
        let mut r = LineReader::new(&b"{}\n{}\n"[..], 4096);
        while r.next_line().await.is_some() {}
        assert_eq!(r.buf.len(), MIN_CHUNK);
    }

    #[tokio::test]
    async fn a_huge_line_is_never_buffered() {
        // 5 MB without a newline, through a 1 KiB limit: the line buffer stays at 1 KiB.
        let big = vec![b'x'; 5 * 1024 * 1024];
        let mut input = big.clone();
        input.extend_from_slice(b"\n{}\n");
        let mut r = LineReader::new(&input[..], 1024);
        let first = r.next_line().await.expect("a line");
        assert!(first.truncated);
        assert_eq!(first.bytes.len(), 1024);
        assert!(r.line.capacity() <= 4096, "{}", r.line.capacity());
        assert_eq!(
            r.next_line().await.map(|l| l.bytes.to_vec()),
            Some(b"{}".to_vec())
        );
        assert!(r.next_line().await.is_none());
        assert_eq!(r.total_bytes, input.len() as u64);
    }

    #[test]
    fn tail_keeps_the_last_lines_within_bytes() {
        let mut t = Tail::new(3, 10);
        for s in ["aaaa", "bbbb", "cccc", "dd"] {
            t.push(s.to_string());
        }
        // At most 3 lines.
        assert_eq!(
            t.lines().cloned().collect::<Vec<_>>(),
            vec!["bbbb", "cccc", "dd"]
        );
        // At most 10 bytes.
        t.push("eee".to_string());
        assert_eq!(
            t.lines().cloned().collect::<Vec<_>>(),
            vec!["cccc", "dd", "eee"]
        );
        t.push("ffffffff".to_string());
        assert_eq!(t.lines().cloned().collect::<Vec<_>>(), vec!["ffffffff"]);
        assert_eq!(t.total_lines, 6);
        let mut t = Tail::new(20, 8);
        t.push("é".repeat(10));
        assert!(t.lines().next().is_some_and(|l| l.len() <= 8));
    }

    #[tokio::test]
    async fn a_long_lines_rest_is_read_in_pieces_after_its_head() {
        let mut input = b"short\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.extend_from_slice(b"\nafter\n0123456789\nend");
        let mut r = LineReader::new(&input[..], 10);
        let l = r.next_head().await.expect("a line");
        assert_eq!((l.bytes, l.truncated), (&b"short"[..], false));
        let l = r.next_head().await.expect("a head");
        assert_eq!((l.bytes, l.truncated), (&b"xxxxxxxxxx"[..], true));
        let mut rest = 0;
        while let Some(c) = r.rest_chunk().await {
            assert!(c.iter().all(|&b| b == b'x'));
            rest += c.len();
        }
        assert_eq!(rest, 100_000 - 10);
        let l = r.next_head().await.expect("a line");
        assert_eq!((l.bytes, l.truncated), (&b"after"[..], false));
        // Exactly at the limit: whole; a head's rest unread is skipped by the next call.
        let l = r.next_head().await.expect("a line");
        assert_eq!((l.bytes, l.truncated), (&b"0123456789"[..], false));
        let l = r.next_head().await.expect("a line");
        assert_eq!((l.bytes, l.truncated), (&b"end"[..], false));
        assert!(r.next_head().await.is_none());
        let mut r = LineReader::new(&b"0123456789abc\nok\n"[..], 4);
        assert!(r.next_head().await.is_some_and(|l| l.truncated));
        let l = r.next_head().await.expect("a line");
        assert_eq!(l.bytes, b"ok");
    }

    #[test]
    fn colour_codes_are_dropped_and_other_escapes_kept() {
        assert_eq!(
            super::without_colour("\x1b[31mERROR\x1b[39m [15:41] token not set"),
            "ERROR [15:41] token not set"
        );
        assert_eq!(super::without_colour("\x1b[1;38;5;196mx\x1b[0m"), "x");
        // Not colour: a cursor move, a title, a bare ESC [ at the end stay as they are.
        assert_eq!(super::without_colour("a\x1b[2Kb"), "a\x1b[2Kb");
        assert_eq!(
            super::without_colour("\x1b]0;title\x07"),
            "\x1b]0;title\x07"
        );
        assert_eq!(super::without_colour("end\x1b["), "end\x1b[");
        assert_eq!(super::without_colour("plain"), "plain");
    }
}
