//! Writing a document: one line (`--format events`) or pretty (`--format json`), with bidi and zero-width
//! characters escaped (`\uXXXX`) so a document printed on a terminal cannot reorder what it
//! shows.

use std::io::{self, Write};

use serde::Serialize;

use crate::render::sanitize;

/// Write one document as a line (`--format events`) and flush.
pub(crate) fn write_line(out: &mut impl Write, doc: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string(doc).map_err(io::Error::other)?;
    out.write_all(sanitize::json(text).as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Write one document, pretty (`--format json`), to stdout.
pub(crate) fn write_pretty(doc: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string_pretty(doc).map_err(io::Error::other)?;
    let mut out = io::stdout().lock();
    out.write_all(sanitize::json(text).as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
