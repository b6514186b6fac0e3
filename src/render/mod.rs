//! Everything that touches a terminal: colour, sanitising server-controlled text, tables,
//! diagnostics, progress and JSON.

use std::io::IsTerminal;

pub mod check;
pub mod probe;
pub mod probe_all;
pub mod simulate;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Decided once: `--color`, then `NO_COLOR`, then `TERM=dumb`, then whether the stream is a
    /// terminal.
    pub fn enabled(self, stream_is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                    return false;
                }
                if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
                    return false;
                }
                stream_is_terminal
            }
        }
    }

    /// Colour for stdout.
    pub fn for_stdout(self) -> bool {
        self.enabled(std::io::stdout().is_terminal())
    }

    /// Colour for stderr.
    pub fn for_stderr(self) -> bool {
        self.enabled(std::io::stderr().is_terminal())
    }
}

/// Text a server or a file controls, made safe for a terminal: control, bidi and zero-width
/// characters are escaped as `\u{..}` (tabs and newlines as `\t`, `\n`).
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{061C}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_escapes_what_could_fool_a_terminal() {
        assert_eq!(sanitize("ok"), "ok");
        assert_eq!(sanitize("a\u{1b}[31mred"), "a\\u{1b}[31mred");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("z\u{200B}w"), "z\\u{200b}w");
        assert_eq!(sanitize("l1\nl2\t"), "l1\\nl2\\t");
    }
}
