//! Tables and prose that fit the terminal: cells are wrapped here, at word boundaries, before
//! comfy-table draws them, so a table never breaks a word or a number in two (`launche`/`d`,
//! `(150-2`/`50 ms)`), and a number stays with its unit (`300 ms`, never `300`/`ms`).
//!
//! How the width is shared: every column first gets its longest unbreakable piece (a word, or a
//! number with its unit); then every column up to a comfortable floor (16, or its whole text);
//! then the columns whose whole text fits in what is left get it, narrowest need first, so short
//! words (`reset by handshake`) stay on one line; the rest goes to the free-text columns. Only a
//! piece wider than [`LONGEST_PIECE`] (a long URL or path) is ever cut. Below 80 columns a table
//! is drawn as blocks, one per row, a field a line ([`Grid`]).

use comfy_table::presets::{ASCII_FULL_CONDENSED, UTF8_FULL_CONDENSED};
use comfy_table::{Cell, CellAlignment, ContentArrangement, Table};
use unicode_width::UnicodeWidthStr;

use crate::render::style::cell_colour;
use crate::render::terminal::terminal_width;

/// Pieces wider than this may be cut to keep a table within the terminal.
pub(crate) const LONGEST_PIECE: usize = 24;

/// A column gets at least this many terminal columns (or its whole text, if shorter) before
/// any column gets more, when the table has the room.
const COMFORTABLE: usize = 16;

/// Below this many terminal columns, tables are drawn as blocks, one per row, each field on a
/// line of its own: columns side by side would wrap every cell to a word a line.
pub(crate) const BLOCKS_BELOW: u16 = 80;

/// Whether tables are drawn as blocks at the terminal's width (see [`BLOCKS_BELOW`]): callers
/// then give every fact its own column (the wide layout), since a block has room for them.
pub(crate) fn blocks() -> bool {
    terminal_width() < BLOCKS_BELOW
}

/// Units that stay on the line of the number before them.
const UNITS: [&str; 10] = ["ms", "s", "min", "h", "d", "%", "B", "KiB", "MiB", "GiB"];

/// Display width of `text`.
pub(crate) fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// The pieces of one line that must stay together: words, with a unit glued to its number.
fn pieces(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        // A unit after its number; a number after a short word (`attempt 5`, `exit 0`).
        let glue = out.last().is_some_and(|p| {
            (UNITS.contains(&word.trim_end_matches([',', ')', '.', ';', ':', '"']))
                && p.ends_with(|c: char| c.is_ascii_digit()))
                || (word.starts_with(|c: char| c.is_ascii_digit())
                    && p.trim_start_matches('(').chars().all(|c| c.is_alphabetic())
                    && width(p) + 1 + width(word) <= 12)
        });
        match out.last_mut() {
            Some(prev) if glue => {
                prev.push(' ');
                prev.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// Cut `piece` into chunks of at most `max` columns.
fn cut(piece: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in piece.chars() {
        let mut buf = [0; 4];
        if width(&cur) + width(c.encode_utf8(&mut buf)) > max && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `text` wrapped to `max` columns at word boundaries (its own line breaks kept); a piece wider
/// than `max` is cut. `indent` starts every continuation line.
pub(crate) fn wrap_indented(text: &str, max: usize, indent: &str) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let lead: String = line.chars().take_while(|c| *c == ' ').collect();
        let mut cur = lead.clone();
        let mut fresh = true;
        for piece in pieces(line) {
            let w = width(&piece);
            let sep = usize::from(!fresh);
            if !fresh && width(&cur) + sep + w > max {
                lines.push(std::mem::take(&mut cur));
                cur = indent.to_string();
                fresh = true;
            }
            if width(&cur) + w > max {
                let room = max.saturating_sub(width(&cur)).max(1);
                let mut chunks = cut(&piece, room).into_iter().peekable();
                while let Some(chunk) = chunks.next() {
                    cur.push_str(&chunk);
                    if chunks.peek().is_some() {
                        lines.push(std::mem::take(&mut cur));
                        cur = indent.to_string();
                    }
                }
                fresh = false;
                continue;
            }
            if !fresh {
                cur.push(' ');
            }
            cur.push_str(&piece);
            fresh = false;
        }
        lines.push(cur);
    }
    lines
}

/// `text` wrapped to `max` columns at word boundaries.
pub(crate) fn wrap(text: &str, max: usize) -> String {
    wrap_indented(text, max, "").join("\n")
}

/// Prose for stdout or stderr, wrapped to the terminal's width (continuation lines indented by
/// `indent`).
pub(crate) fn prose(text: &str, indent: &str) -> String {
    wrap_indented(text, usize::from(terminal_width()), indent).join("\n")
}

/// The longest piece of `text`, capped at [`LONGEST_PIECE`].
fn least_width(text: &str) -> usize {
    text.split('\n')
        .flat_map(pieces)
        .map(|p| width(&p))
        .max()
        .unwrap_or(0)
        .min(LONGEST_PIECE)
}

fn natural_width(text: &str) -> usize {
    text.split('\n').map(width).max().unwrap_or(0)
}

/// Column widths (content only) for `columns` (header first, then each row's cell) within
/// `total` terminal columns.
fn widths(columns: &[Vec<&str>], total: usize) -> Vec<usize> {
    let n = columns.len();
    let overhead = 3 * n + 1;
    let natural: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|t| natural_width(t)).max().unwrap_or(0).max(1))
        .collect();
    let least: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|t| least_width(t)).max().unwrap_or(0).max(1))
        .collect();
    let room = total.saturating_sub(overhead);
    if natural.iter().sum::<usize>() <= room {
        return natural;
    }
    let mut w = least.clone();
    let mut spare = room.saturating_sub(w.iter().sum());
    // A free-text column squeezed to its longest word stacks one word a line (`connected,` /
    // `then` / `closed` / `after 0 s`) while a wider one beside it stays half empty: first
    // every column up to a comfortable floor (its whole text if shorter), the smallest need
    // first.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| natural[i].min(COMFORTABLE).saturating_sub(w[i]));
    for &i in &order {
        let floor = natural[i].min(COMFORTABLE);
        if w[i] < floor {
            let give = (floor - w[i]).min(spare);
            w[i] += give;
            spare -= give;
        }
    }
    // Whole columns next, the smallest need first.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| natural[i] - w[i]);
    for &i in &order {
        let need = natural[i] - w[i];
        if need <= spare {
            w[i] = natural[i];
            spare -= need;
        }
    }
    // The rest to the columns still short, widest text first, one column at a time.
    while spare > 0 {
        let Some(i) = (0..n)
            .filter(|&i| w[i] < natural[i])
            .max_by_key(|&i| natural[i] - w[i])
        else {
            break;
        };
        w[i] += 1;
        spare -= 1;
    }
    w
}

/// A table as it is drawn: columns side by side, or (below [`BLOCKS_BELOW`] columns) one block
/// per row.
pub(crate) enum Grid {
    Table(Box<Table>),
    Blocks(String),
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Grid::Table(t) => write!(f, "{t}"),
            Grid::Blocks(b) => f.write_str(b.trim_end_matches('\n')),
        }
    }
}

/// A cell's lines as one line (`181 ms\n(150-250 ms)` reads `181 ms (150-250 ms)`; a word
/// broken after its hyphen, `reset-on-\nhandshake`, is whole again).
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n').map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() && !out.ends_with('-') {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

/// Rows as blocks within `total` columns: a title line (a `#` column reads `launch N`, any other
/// first column its cell), then one line per field (`  label  value`, the value wrapped under
/// itself), empty fields left out, a blank line between blocks.
fn blocks_of(
    color: bool,
    header: &[&str],
    rows: &[Vec<String>],
    total: usize,
    paint: &dyn Fn(usize, usize) -> Option<anstyle::Style>,
) -> String {
    let labels: Vec<String> = header
        .iter()
        .map(|h| {
            one_line(h)
                .trim_end_matches(['/', ' ', '\u{a0}'])
                .to_string()
        })
        .collect();
    let mut out = String::new();
    for (r, row) in rows.iter().enumerate() {
        // The labels of this block's fields, aligned.
        let label_w = labels
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(i, _)| !one_line(row.get(*i).map_or("", String::as_str)).is_empty())
            .map(|(_, l)| width(l))
            .max()
            .unwrap_or(0);
        let first = one_line(row.first().map_or("", String::as_str));
        let title = match header.first() {
            Some(&"#") => format!("launch {first}"),
            _ => first,
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&title);
        out.push('\n');
        for (i, label) in labels.iter().enumerate().skip(1) {
            let value = one_line(row.get(i).map_or("", String::as_str));
            if value.is_empty() {
                continue;
            }
            let lead = format!("  {label}{}  ", " ".repeat(label_w - width(label)));
            let room = total.saturating_sub(width(&lead)).max(20);
            let mut lines = wrap_indented(&value, room, "").into_iter();
            let painted = |t: &str| match paint(r, i).filter(|_| color) {
                Some(st) => crate::render::style::paint(true, st, t),
                None => t.to_string(),
            };
            if let Some(l) = lines.next() {
                out.push_str(&format!("{lead}{}\n", painted(&l)));
            }
            for l in lines {
                out.push_str(&format!("{}{}\n", " ".repeat(width(&lead)), painted(&l)));
            }
        }
    }
    out
}

/// A table in the house style whose cells are wrapped to fit the terminal (or `COLUMNS`):
/// `header` (a `\n` in a header is a line break), `rows` of cells, and the columns in `right`
/// aligned right.
pub(crate) fn fitted_table(
    color: bool,
    header: &[&str],
    rows: &[Vec<String>],
    right: &[usize],
) -> Grid {
    fitted_table_within(
        color,
        header,
        rows,
        right,
        usize::from(terminal_width()),
        &|_, _| None,
    )
}

/// [`fitted_table`] with cells coloured by `paint(row, column)` when `color` is on (in the
/// style's colour: comfy-table draws a cell's foreground only).
pub(crate) fn fitted_table_painted(
    color: bool,
    header: &[&str],
    rows: &[Vec<String>],
    right: &[usize],
    paint: &dyn Fn(usize, usize) -> Option<anstyle::Style>,
) -> Grid {
    fitted_table_within(
        color,
        header,
        rows,
        right,
        usize::from(terminal_width()),
        paint,
    )
}

/// [`fitted_table`] within `total` columns.
pub(crate) fn fitted_table_within(
    color: bool,
    header: &[&str],
    rows: &[Vec<String>],
    right: &[usize],
    total: usize,
    paint: &dyn Fn(usize, usize) -> Option<anstyle::Style>,
) -> Grid {
    if total < usize::from(BLOCKS_BELOW) {
        return Grid::Blocks(blocks_of(color, header, rows, total, paint));
    }
    let n = header.len();
    let columns: Vec<Vec<&str>> = (0..n)
        .map(|i| {
            std::iter::once(header[i])
                .chain(rows.iter().map(|r| r.get(i).map_or("", String::as_str)))
                .collect()
        })
        .collect();
    let w = widths(&columns, total);
    let mut table = Table::new();
    table
        .load_style(if super::strip::ascii_tables() {
            ASCII_FULL_CONDENSED
        } else {
            UTF8_FULL_CONDENSED
        })
        .set_content_arrangement(ContentArrangement::Disabled);
    if color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    table.set_header(
        header
            .iter()
            .enumerate()
            .map(|(i, h)| Cell::new(wrap(h, w[i])))
            .collect::<Vec<_>>(),
    );
    for (r, row) in rows.iter().enumerate() {
        table.add_row(
            (0..n)
                .map(|i| {
                    let text = row.get(i).map_or("", String::as_str);
                    let mut cell = Cell::new(wrap(text, w[i]));
                    if let (true, Some(c)) = (color, paint(r, i).and_then(cell_colour)) {
                        cell = cell.fg(c);
                    }
                    if right.contains(&i) {
                        cell.set_alignment(CellAlignment::Right)
                    } else {
                        cell
                    }
                })
                .collect::<Vec<_>>(),
        );
    }
    Grid::Table(Box::new(table))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_units_and_words_stay_whole() {
        assert_eq!(
            wrap("connected, then closed after 0 s", 10),
            "connected,\nthen\nclosed\nafter 0 s"
        );
        assert_eq!(wrap("215 ms\n(150-250 ms)", 12), "215 ms\n(150-250 ms)");
        assert_eq!(wrap("reset by handshake", 12), "reset by\nhandshake");
        // Only a piece wider than the column is cut.
        assert_eq!(
            wrap("ws://a.example/very/long", 10),
            "ws://a.exa\nmple/very/\nlong"
        );
    }

    #[test]
    fn prose_continuation_lines_are_indented() {
        assert_eq!(
            wrap_indented("mcpl-down on launch 6: MCPL server down", 20, "  "),
            vec!["mcpl-down on", "  launch 6: MCPL", "  server down"]
        );
    }

    #[test]
    fn a_table_fits_and_never_cuts_a_word_it_has_room_for() {
        let header = ["#", "counted as", "ended"];
        let rows = vec![vec![
            "1".to_string(),
            "reset by handshake".to_string(),
            "exited with code 1 before its handshake".to_string(),
        ]];
        let t = fitted_table_within(false, &header, &rows, &[0], 40, &|_, _| None).to_string();
        for line in t.lines() {
            assert!(width(line) <= 40, "{line}");
        }
        assert!(t.contains("reset by handshake"), "{t}");
        assert!(t.contains("handshake"));
    }
}
