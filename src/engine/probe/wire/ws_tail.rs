//! The close frame a WebSocket server sent, as it was on the wire: tungstenite hands a close
//! frame whose code no close frame may carry (999, 1005, 1006, 1015, 5000...) to the probe as
//! 1002 "Protocol violation", the server's code lost. [`FrameWatch`] reads along with
//! tungstenite: past the HTTP upgrade answer it follows the frame headers (payloads are
//! skipped, never copied) and keeps the payload of the first close frame, at most 125 bytes.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The largest payload a control frame may have.
const CONTROL_MAX: usize = 125;

/// Where the reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// The upgrade answer: the last four bytes, until they are "\r\n\r\n".
    Http(u32),
    /// A frame's header: its first two bytes, the length that follows (2 or 8 bytes), the mask.
    Header { have: usize, need: usize },
    /// A frame's payload, this many bytes left.
    Payload(u64),
}

/// A stream that follows the WebSocket frames read from it and keeps the first close frame.
pub(super) struct FrameWatch<S> {
    inner: S,
    at: At,
    header: [u8; 14],
    /// The frame being read is a close frame: its payload so far (masked as sent).
    close: Option<Vec<u8>>,
    /// The first whole close frame's code and reason.
    closed: Option<(u16, String)>,
}

impl<S> FrameWatch<S> {
    pub(super) fn new(inner: S) -> FrameWatch<S> {
        FrameWatch {
            inner,
            at: At::Http(0),
            header: [0; 14],
            close: None,
            closed: None,
        }
    }

    /// The code and reason of the first close frame the server sent (with a code), if a whole
    /// one was read.
    pub(super) fn close_sent(&self) -> Option<(u16, String)> {
        self.closed.clone()
    }

    fn follow(&mut self, mut bytes: &[u8]) {
        while let Some((&b, rest)) = bytes.split_first() {
            match self.at {
                At::Http(last) => {
                    let last = last << 8 | u32::from(b);
                    self.at = if last == 0x0d0a_0d0a {
                        At::Header { have: 0, need: 2 }
                    } else {
                        At::Http(last)
                    };
                    bytes = rest;
                }
                At::Header { have, need } => {
                    self.header[have] = b;
                    bytes = rest;
                    self.header_byte(have + 1, need);
                }
                At::Payload(left) => {
                    let n = bytes.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                    if let Some(c) = self.close.as_mut() {
                        let room = CONTROL_MAX.saturating_sub(c.len()).min(n);
                        c.extend_from_slice(&bytes[..room]);
                    }
                    bytes = &bytes[n..];
                    let left = left - n as u64;
                    self.at = At::Payload(left);
                    if left == 0 {
                        self.frame_done();
                    }
                }
            }
        }
    }

    /// One more header byte read (`have` of them now, of `need`).
    fn header_byte(&mut self, have: usize, need: usize) {
        let h = &self.header;
        let masked = usize::from(h[1] & 0x80 != 0) * 4;
        let need = match (have, h[1] & 0x7f) {
            (2, 126) => 4 + masked,
            (2, 127) => 10 + masked,
            (2, _) => 2 + masked,
            _ => need,
        };
        if have < need {
            self.at = At::Header { have, need };
            return;
        }
        let len = match h[1] & 0x7f {
            126 => u64::from(u16::from_be_bytes([h[2], h[3]])),
            127 => u64::from_be_bytes([h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9]]),
            n => u64::from(n),
        };
        self.close = (h[0] & 0x0f == 8 && self.closed.is_none()).then(Vec::new);
        self.at = At::Payload(len);
        if len == 0 {
            self.frame_done();
        }
    }

    /// A frame's payload is read whole.
    fn frame_done(&mut self) {
        self.at = At::Header { have: 0, need: 2 };
        let Some(mut payload) = self.close.take() else {
            return;
        };
        let h = self.header;
        if h[1] & 0x80 != 0 {
            let at = match h[1] & 0x7f {
                126 => 4,
                127 => 10,
                _ => 2,
            };
            for (k, b) in payload.iter_mut().enumerate() {
                *b ^= h[at + k % 4];
            }
        }
        if payload.len() >= 2 {
            let code = u16::from_be_bytes([payload[0], payload[1]]);
            self.closed = Some((code, String::from_utf8_lossy(&payload[2..]).into_owned()));
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for FrameWatch<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            self.follow(&buf.filled()[before..]);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for FrameWatch<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(opcode: u8, payload: &[u8], mask: Option<[u8; 4]>) -> Vec<u8> {
        let m = if mask.is_some() { 0x80 } else { 0 };
        let mut f = vec![0x80 | opcode];
        match payload.len() {
            n @ 0..=125 => f.push(n as u8 | m),
            n @ 126..=65535 => {
                f.push(126 | m);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(127 | m);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mut payload = payload.to_vec();
        if let Some(k) = mask {
            f.extend_from_slice(&k);
            for (i, b) in payload.iter_mut().enumerate() {
                *b ^= k[i % 4];
            }
        }
        f.extend(payload);
        f
    }

    fn close(code: u16, reason: &str) -> Vec<u8> {
        let mut p = code.to_be_bytes().to_vec();
        p.extend_from_slice(reason.as_bytes());
        p
    }

    /// Feeds `bytes` in reads of `chunk` bytes.
    fn watch(bytes: &[u8], chunk: usize) -> Option<(u16, String)> {
        let mut w = FrameWatch::new(());
        for c in bytes.chunks(chunk) {
            w.follow(c);
        }
        w.close_sent()
    }

    #[test]
    fn the_first_close_frame_after_any_frames_is_read_as_sent() {
        let mut wire = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".to_vec();
        // Frames whose payloads hold what looks like close frames, of every length encoding.
        wire.extend(frame(1, &[0x88, 0x05, 0x03, 0xe7, b'b'], None));
        wire.extend(frame(2, &vec![0x88; 300], None));
        wire.extend(frame(2, &vec![0x88; 70_000], Some([9, 8, 7, 6])));
        wire.extend(frame(9, b"ping", None));
        wire.extend(frame(8, &close(999, "bye ňň"), None));
        wire.extend(frame(8, &close(4000, "second"), None));
        for chunk in [1, 3, 7, 4096, wire.len()] {
            assert_eq!(watch(&wire, chunk), Some((999, "bye ňň".into())), "{chunk}");
        }
        // Masked (no server should), with the longest reason.
        let mut masked = b"\r\n\r\n".to_vec();
        masked.extend(frame(8, &close(1005, &"r".repeat(123)), Some([1, 2, 3, 4])));
        assert_eq!(watch(&masked, 5), Some((1005, "r".repeat(123))));
        // No code, or not yet whole: nothing.
        assert_eq!(watch(b"\r\n\r\n\x88\x00", 1), None);
        assert_eq!(watch(b"\r\n\r\n\x88\x05\x03\xe7b", 1), None);
        // Nothing is taken for a frame before the upgrade answer ends.
        assert_eq!(watch(b"HTTP/1.1 101\r\nX: \x88\x02\x03\xe7", 1), None);
    }
}
