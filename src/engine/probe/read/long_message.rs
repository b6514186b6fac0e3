//! A stdout message longer than the line kept in memory (4 MiB) that may be an answer: parsed
//! as it is read, never held whole, up to the host's own limit ([`HOST_LINE_LIMIT`]).
//!
//! The host reads a line of any length into one string (Node's `readline`), so a `tools/list`
//! page of 10 MiB works there; the probe streams it through [`bounded_json::parse_reader`] on a
//! blocking thread, which keeps a count and the first and last names of its tools, and cuts
//! long strings: what it costs is the 4 MiB head plus a few read buffers.

use std::io::Read;

use serde_json::Value;
use tokio::io::AsyncRead;
use tokio::sync::mpsc;

use super::bounded_json;
use super::lines::LineReader;

/// The longest line the host can read: Node's longest string (2^29 - 24 characters).
pub(crate) const HOST_LINE_LIMIT: u64 = (1 << 29) - 24;

/// Read the rest of the line whose `head` [`LineReader::next_head`] returned, parsing it as it
/// comes. `Ok`: a JSON-RPC message; `Err(len)`: not one, or longer than [`HOST_LINE_LIMIT`]
/// (its length in bytes, read to its end).
pub(crate) async fn read<R: AsyncRead + Unpin>(
    reader: &mut LineReader<R>,
    head: Vec<u8>,
) -> Result<Value, u64> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>(4);
    let parser = tokio::task::spawn_blocking(move || {
        bounded_json::parse_reader(Chunks {
            rx,
            chunk: Vec::new(),
            at: 0,
        })
    });
    let mut len = head.len() as u64;
    let mut tx = Some(tx);
    if let Some(t) = &tx {
        if t.send(head).await.is_err() {
            tx = None;
        }
    }
    while let Some(piece) = reader.rest_chunk().await {
        len += piece.len() as u64;
        if len > HOST_LINE_LIMIT {
            // Past what the host reads: the parser sees an early end (an error).
            tx = None;
        }
        if let Some(t) = &tx {
            if t.send(piece.to_vec()).await.is_err() {
                // The parser gave up (not JSON): the rest is only counted.
                tx = None;
            }
        }
    }
    drop(tx);
    match parser.await {
        Ok(Ok(v))
            if len <= HOST_LINE_LIMIT
                && v.get("jsonrpc").and_then(Value::as_str) == Some("2.0") =>
        {
            Ok(v)
        }
        _ => Err(len),
    }
}

/// The pieces of a line as a blocking reader (the parser's thread).
struct Chunks {
    rx: mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.rx.blocking_recv() {
                Some(c) => {
                    self.chunk = c;
                    self.at = 0;
                }
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn a_page_over_the_kept_line_is_parsed_as_it_is_read() {
        let tools: Vec<Value> = (0..20_000)
            .map(|i| json!({"name": format!("tool_{i}"), "description": "d".repeat(300)}))
            .collect();
        let page = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": tools}}).to_string();
        let mut input = page.clone().into_bytes();
        input.extend_from_slice(b"\nnot json but very long\n{\"jsonrpc\":\"2.0\",\"id\":4}\n");
        let mut r = LineReader::new(&input[..], 4096);
        let head = r
            .next_head()
            .await
            .map(|l| l.bytes.to_vec())
            .unwrap_or_default();
        assert_eq!(head.len(), 4096);
        let v = read(&mut r, head).await.unwrap_or_default();
        let f = &v["result"]["tools"][bounded_json::FOLDED_TOOLS];
        assert_eq!(f["count"], 20_000);
        assert_eq!(f["last"][7], "tool_19999");
        // Not JSON: its length; the reader goes on with the next line.
        let mut r = LineReader::new(&input[page.len() + 1..], 8);
        let head = r
            .next_head()
            .await
            .map(|l| l.bytes.to_vec())
            .unwrap_or_default();
        assert_eq!(read(&mut r, head).await, Err(22));
        let next = r.next_head().await.map(|l| l.bytes.to_vec());
        assert_eq!(next.as_deref(), Some(&b"{\"jsonrp"[..]));
    }
}
