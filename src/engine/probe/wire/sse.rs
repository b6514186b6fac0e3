//! An incremental, bounded `text/event-stream` reader: `event:`, `data:` and `id:` lines into
//! events (`retry:` and comments are skipped). Used by the HTTP transports for answers sent as
//! an event stream and for the legacy HTTP+SSE stream.

/// The most an event (its data lines together), or a line still without its end, may hold.
pub(crate) const MAX_EVENT: usize = 1024 * 1024;

/// One complete event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SseEvent {
    /// `event:` (empty when not given: a `message`).
    pub event: String,
    /// The `data:` lines, joined by newlines.
    pub data: String,
    /// `id:`, when given.
    pub id: Option<String>,
}

/// What feeding bytes gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fed {
    Events(Vec<SseEvent>),
    /// An event or a line grew past [`MAX_EVENT`]: the stream cannot be read on.
    TooLarge,
}

/// The reader's state between chunks.
#[derive(Debug, Default)]
pub(crate) struct SseReader {
    pending: Vec<u8>,
    current: SseEvent,
    has_data: bool,
}

impl SseReader {
    /// Feed bytes; returns every event they completed.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Fed {
        self.pending.extend_from_slice(bytes);
        let mut done = Vec::new();
        while let Some(pos) = self.pending.iter().position(|b| *b == b'\n') {
            let raw: Vec<u8> = self.pending.drain(..=pos).collect();
            let line = String::from_utf8_lossy(&raw);
            let line = line.trim_end_matches(['\n', '\r']);
            if let Some(event) = self.line(line) {
                done.push(event);
            }
            if self.current.data.len() > MAX_EVENT {
                return Fed::TooLarge;
            }
        }
        if self.pending.len() > MAX_EVENT {
            return Fed::TooLarge;
        }
        Fed::Events(done)
    }

    /// The last event, when the stream ended without its blank line.
    pub(crate) fn finish(&mut self) -> Option<SseEvent> {
        let rest = std::mem::take(&mut self.pending);
        let line = String::from_utf8_lossy(&rest).trim_end().to_string();
        if !line.is_empty() {
            self.line(&line);
        }
        self.dispatch()
    }

    fn line(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.current.event = value.to_string(),
            "data" => {
                if self.has_data {
                    self.current.data.push('\n');
                }
                self.current.data.push_str(value);
                self.has_data = true;
            }
            "id" => self.current.id = Some(value.to_string()),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.current);
        let had = std::mem::take(&mut self.has_data);
        had.then_some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(fed: Fed) -> Vec<SseEvent> {
        match fed {
            Fed::Events(e) => e,
            Fed::TooLarge => panic!("too large"),
        }
    }

    #[test]
    fn reads_events_split_across_chunks() {
        let mut r = SseReader::default();
        assert!(events(r.push(b"event: endpoint\r\nid: 7\r\ndata: /mes")).is_empty());
        let got = events(r.push(b"sage?sessionId=1\r\n\r\n: comment\n\ndata: a\ndata: b\n\n"));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].event, "endpoint");
        assert_eq!(got[0].id.as_deref(), Some("7"));
        assert_eq!(got[0].data, "/message?sessionId=1");
        assert_eq!(got[1].event, "");
        assert_eq!(got[1].data, "a\nb");
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_and_the_last_is_kept() {
        let mut r = SseReader::default();
        assert!(events(r.push(b"id: 1\ndata:\n\nretry: 5\n\n")).len() == 1);
        assert!(events(r.push(b"data: {}")).is_empty());
        assert_eq!(r.finish().map(|e| e.data), Some("{}".to_string()));
    }

    /// Every era reads its event streams here (stateless answers too), so a character split
    /// across two network chunks survives: lines are decoded whole.
    #[test]
    fn a_character_split_across_chunks_survives() {
        let mut r = SseReader::default();
        let text = "data: {\"t\":\"caf\u{e9} \u{1F600}\"}\n\n"
            .as_bytes()
            .to_vec();
        let cut = text.iter().position(|b| *b == 0xC3).expect("é") + 1;
        let emoji = text.iter().position(|b| *b == 0xF0).expect("emoji") + 2;
        assert!(events(r.push(&text[..cut])).is_empty());
        assert!(events(r.push(&text[cut..emoji])).is_empty());
        let got = events(r.push(&text[emoji..]));
        assert_eq!(got[0].data, "{\"t\":\"caf\u{e9} \u{1F600}\"}");
        assert!(!got[0].data.contains('\u{FFFD}'));
        assert!(events(r.push(b": c\r\nevent: message\r\nda")).is_empty());
        assert!(events(r.push(b"ta: {\"a\":\r\ndata: 1}\r\n")).is_empty());
        assert_eq!(events(r.push(b"\r\n"))[0].data, "{\"a\":\n1}");
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut r = SseReader::default();
        let big = vec![b'x'; MAX_EVENT + 1];
        assert_eq!(r.push(&big), Fed::TooLarge);
    }
}
