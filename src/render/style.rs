//! Colour, decided once and drawn in one place. The palette is a handful of [`anstyle::Style`]s
//! named for what they say (good, warning, bad, a hint, the gutter of a snippet); [`paint`]
//! draws one around a text, and [`cell_colour`] hands the same colour to comfy-table, which
//! colours table cells itself.
//!
//! Whether to colour at all is [`ColorChoice`]: `--color`, then `NO_COLOR`, then `TERM=dumb`,
//! then whether the stream is a terminal (the renderers only ever get the answer, a `bool`).

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};

/// Stayed up, no findings: bold green.
pub(crate) const GOOD: Style = Style::new().bold().fg_color(Some(ansi(AnsiColor::Green)));
/// Warnings, or nothing to judge: bold yellow.
pub(crate) const WARN: Style = Style::new().bold().fg_color(Some(ansi(AnsiColor::Yellow)));
/// Errors, flapping, never connected: bold red.
pub(crate) const BAD: Style = Style::new().bold().fg_color(Some(ansi(AnsiColor::Red)));
/// `hint:`: bold cyan.
pub(crate) const HINT: Style = Style::new().bold().fg_color(Some(ansi(AnsiColor::Cyan)));
/// A snippet's gutter and arrow (`-->`, `|`, the line number), as rustc draws them: bold blue.
pub(crate) const GUTTER: Style = Style::new().bold().fg_color(Some(ansi(AnsiColor::Blue)));
/// A diagnostic's code and headline: bold.
pub(crate) const STRONG: Style = Style::new().bold();

const fn ansi(c: AnsiColor) -> anstyle::Color {
    anstyle::Color::Ansi(c)
}

/// `text` drawn in `style` when `on`, else `text` as it is.
///
/// The opening sequence is the compact form, one `ESC[…m` with the parameters joined by `;`
/// (`ESC[1;31m`), as this tool has always written it (and its tests and users' scripts match
/// it); anstyle's own rendering writes one sequence per attribute (`ESC[1mESC[31m`), which a
/// terminal shows the same.
pub(crate) fn paint(on: bool, style: Style, text: &str) -> String {
    if !on || style.is_plain() {
        return text.to_string();
    }
    format!("{}{text}{}", compact(style), anstyle::Reset.render())
}

/// `style`'s opening sequence with its parameters joined: `ESC[1mESC[31m` becomes `ESC[1;31m`.
fn compact(style: Style) -> String {
    let each = style.render().to_string();
    let params: Vec<&str> = each
        .split("\x1b[")
        .filter(|p| !p.is_empty())
        .map(|p| p.trim_end_matches('m'))
        .collect();
    format!("\x1b[{}m", params.join(";"))
}

/// The colour comfy-table gives a cell in `style` (it draws cell colours itself, foreground
/// only, never bold).
pub(crate) fn cell_colour(style: Style) -> Option<comfy_table::Color> {
    match style.get_fg_color()? {
        anstyle::Color::Ansi(c) => Some(match c {
            AnsiColor::Black => comfy_table::Color::Black,
            AnsiColor::Red => comfy_table::Color::Red,
            AnsiColor::Green => comfy_table::Color::Green,
            AnsiColor::Yellow => comfy_table::Color::Yellow,
            AnsiColor::Blue => comfy_table::Color::Blue,
            AnsiColor::Magenta => comfy_table::Color::Magenta,
            AnsiColor::Cyan => comfy_table::Color::Cyan,
            AnsiColor::White => comfy_table::Color::White,
            AnsiColor::BrightBlack => comfy_table::Color::DarkGrey,
            AnsiColor::BrightRed => comfy_table::Color::DarkRed,
            AnsiColor::BrightGreen => comfy_table::Color::DarkGreen,
            AnsiColor::BrightYellow => comfy_table::Color::DarkYellow,
            AnsiColor::BrightBlue => comfy_table::Color::DarkBlue,
            AnsiColor::BrightMagenta => comfy_table::Color::DarkMagenta,
            AnsiColor::BrightCyan => comfy_table::Color::DarkCyan,
            AnsiColor::BrightWhite => comfy_table::Color::Grey,
        }),
        anstyle::Color::Ansi256(c) => Some(comfy_table::Color::AnsiValue(c.index())),
        anstyle::Color::Rgb(c) => Some(comfy_table::Color::Rgb {
            r: c.r(),
            g: c.g(),
            b: c.b(),
        }),
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Decided once: `--color`, then `NO_COLOR`, then `TERM=dumb`, then whether the stream is a
    /// terminal.
    pub(crate) fn enabled(self, stream_is_terminal: bool) -> bool {
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
    pub(crate) fn for_stdout(self) -> bool {
        self.enabled(std::io::stdout().is_terminal())
    }

    /// Colour for stderr.
    pub(crate) fn for_stderr(self) -> bool {
        self.enabled(std::io::stderr().is_terminal())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_in_the_escape_sequences_this_tool_always_wrote() {
        for (style, code) in [
            (GOOD, "1;32"),
            (WARN, "1;33"),
            (BAD, "1;31"),
            (HINT, "1;36"),
            (GUTTER, "1;34"),
            (STRONG, "1"),
        ] {
            assert_eq!(paint(true, style, "x"), format!("\x1b[{code}mx\x1b[0m"));
            assert_eq!(paint(false, style, "x"), "x");
        }
    }

    #[test]
    fn tables_get_the_palettes_colours() {
        assert_eq!(cell_colour(GOOD), Some(comfy_table::Color::Green));
        assert_eq!(cell_colour(WARN), Some(comfy_table::Color::Yellow));
        assert_eq!(cell_colour(BAD), Some(comfy_table::Color::Red));
        assert_eq!(cell_colour(STRONG), None);
    }
}
