//! The one-line terminal strip of a timeline: one character per cell of [`Columns`], in block
//! characters or, where the terminal cannot show them, plain ASCII ([`Glyphs`]). `simulate` and
//! `probe` draw their strips here (one implementation).

use std::sync::OnceLock;

use crate::engine::policy::timings::format_ms;
use crate::engine::probe::ProbeRun;
use crate::engine::schedule::Simulation;

use crate::render::sanitize::sanitize;
use crate::render::terminal::terminal_width;
use crate::render::timeline::{Columns, Track};
use crate::render::units::{percent, round_ms};

// ---------------------------------------------------------------------------------------------
// Glyphs.

static ASCII_FLAG: OnceLock<bool> = OnceLock::new();

/// `--ascii`, decided once by the command line.
pub(crate) fn set_ascii(ascii: bool) {
    let _ = ASCII_FLAG.set(ascii);
}

/// The characters a strip is drawn with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Glyphs {
    pub connected: char,
    pub partly: char,
    pub down: char,
    pub failed: char,
    pub alert: char,
    pub launch: char,
}

impl Glyphs {
    pub(crate) const UNICODE: Glyphs = Glyphs {
        connected: '█',
        partly: '▄',
        down: '·',
        failed: 'x',
        alert: '!',
        launch: '^',
    };
    pub(crate) const ASCII: Glyphs = Glyphs {
        connected: '#',
        partly: '+',
        down: '.',
        failed: 'x',
        alert: '!',
        launch: '^',
    };

    /// Block characters, unless `--ascii`, `TERM=dumb` or a locale that is not UTF-8 says the
    /// terminal cannot show them.
    pub(crate) fn for_terminal() -> Glyphs {
        let flag = ASCII_FLAG.get().copied().unwrap_or(false);
        if plain_ascii(flag, &|k| std::env::var(k).ok()) {
            Glyphs::ASCII
        } else {
            Glyphs::UNICODE
        }
    }
}

/// Whether tables are drawn in plain ASCII: `--ascii`, or a locale that does not name UTF-8
/// (`TERM=dumb` is about colour and cursor moves; its terminal still shows box drawing).
pub(crate) fn ascii_tables() -> bool {
    let flag = ASCII_FLAG.get().copied().unwrap_or(false);
    plain_ascii(flag, &|k| {
        if k == "TERM" {
            None
        } else {
            std::env::var(k).ok()
        }
    })
}

/// Whether to draw in plain ASCII: `--ascii`, `TERM=dumb`, or a locale (the first set of
/// `LC_ALL`, `LC_CTYPE`, `LANG`) that does not name UTF-8. With no locale set at all, UTF-8 is
/// assumed (what terminals use today; `C`/`POSIX` set explicitly means ASCII).
pub(crate) fn plain_ascii(flag: bool, env: &dyn Fn(&str) -> Option<String>) -> bool {
    if flag {
        return true;
    }
    if env("TERM").is_some_and(|t| t == "dumb") {
        return true;
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| env(k).filter(|v| !v.is_empty()));
    match locale {
        None => false,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            !(l.contains("utf-8") || l.contains("utf8"))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Terminal strips.

/// One cell's character: an `mcpl-down` first (the cell where the host raised it is always
/// marked, even when the server was connected most of it, as a run stopped by `--until-down`
/// ends), then connected most of it, then a failed handshake, then connected part of it, else
/// down or waiting.
fn cell_char(share: f64, alerts: u32, failures: u32, g: Glyphs) -> char {
    if alerts > 0 {
        g.alert
    } else if share >= 0.5 {
        g.connected
    } else if failures > 0 {
        g.failed
    } else if share > 0.0 {
        g.partly
    } else {
        g.down
    }
}

/// `simulate`'s strip (the terminal's and the JSON `timeline`): the simulation as a [`Track`]
/// aggregated into [`Columns`] as the SVG draws it, one column per cell of the simulation's own
/// strip (so its alerts and, for launches not kept as rows, its connected time map exactly).
/// Failed handshakes are not marked: `simulate`'s legend has no `x`.
pub(crate) fn simulation_line(sim: &Simulation, g: Glyphs) -> String {
    let track = Track::of_simulation("", sim);
    let used = sim.strip.used_cells();
    let cols = Columns::of_track(&track, used, used as f64 * sim.strip.cell_ms);
    let end = sim.strip.end_ms;
    (0..cols.used)
        .map(|i| cell_char(cols.share(i, end), cols.alerts[i], 0, g))
        .collect()
}

/// A track's strip over its columns.
pub(crate) fn line(c: &Columns, end_ms: f64, g: Glyphs) -> String {
    (0..c.used)
        .map(|i| cell_char(c.share(i, end_ms), c.alerts[i], c.failures[i], g))
        .collect()
}

/// The launches under a strip: `^` in every column with a launch.
pub(crate) fn launch_line(c: &Columns, g: Glyphs) -> String {
    let s: String = (0..c.used)
        .map(|i| if c.launches[i] > 0 { g.launch } else { ' ' })
        .collect();
    s.trim_end().to_string()
}

/// The lines above probe strips: the span and what the characters mean, packed item by item
/// into the terminal's width (78 columns on one line).
pub(crate) fn probe_legend(span_ms: f64, g: Glyphs) -> String {
    let items = [
        format!("{} connected", g.connected),
        format!("{} partly", g.partly),
        format!("{} down or waiting", g.down),
        format!("{} handshake failed", g.failed),
        format!("{} mcpl-down", g.alert),
        format!("{} launch", g.launch),
    ];
    let width = usize::from(terminal_width());
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for item in items {
        if cur.is_empty() {
            cur = item;
        } else if cur.chars().count() + 1 + item.chars().count() <= width {
            cur.push(' ');
            cur.push_str(&item);
        } else {
            lines.push(std::mem::replace(&mut cur, item));
        }
    }
    lines.push(cur);
    format!(
        "Timeline over {}:\n{}",
        format_ms(round_ms(span_ms)),
        lines.join("\n")
    )
}

/// Cells in a probe strip for `width` columns of terminal, with `reserved` columns of name and
/// figures beside it.
pub(crate) fn cells_for(width: usize, reserved: usize) -> usize {
    width.saturating_sub(reserved).clamp(20, 100)
}

/// The probe's strip for one server: legend, strip with its connected share, and launches.
pub(crate) fn write_probe(out: &mut dyn std::io::Write, run: &ProbeRun) -> std::io::Result<()> {
    let g = Glyphs::for_terminal();
    let track = Track::of_probe("", run);
    let width = cells_for(terminal_width() as usize, 20);
    let cols = Columns::of_track(&track, width, track.end_ms);
    writeln!(out, "{}", probe_legend(track.end_ms, g))?;
    writeln!(
        out,
        "|{}| {} connected",
        line(&cols, track.end_ms, g),
        percent(track.connected_share)
    )?;
    writeln!(out, " {}", launch_line(&cols, g))
}

/// `probe --all`'s strips: one per server on a shared time axis, named.
pub(crate) fn write_probe_all(
    out: &mut dyn std::io::Write,
    tracks: &[Track],
) -> std::io::Result<()> {
    if tracks.is_empty() {
        return Ok(());
    }
    let g = Glyphs::for_terminal();
    let span = tracks.iter().map(|t| t.end_ms).fold(0.0, f64::max);
    let names: Vec<String> = tracks
        .iter()
        .map(|t| {
            let n = sanitize(&t.name);
            if n.chars().count() > 16 {
                let mut s: String = n.chars().take(15).collect();
                s.push('~');
                s
            } else {
                n
            }
        })
        .collect();
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let width = cells_for(terminal_width() as usize, name_w + 20);
    writeln!(out, "{}", probe_legend(span, g))?;
    if tracks.iter().any(|t| t.end_ms < span) {
        // A server whose probe ended before the others' has blank cells after it.
        writeln!(
            out,
            "(blank: after that server's probe ended, not observed)"
        )?;
    }
    for (t, name) in tracks.iter().zip(&names) {
        let cols = Columns::of_track(t, width, span);
        let pad = " ".repeat(name_w - name.chars().count());
        writeln!(
            out,
            "{pad}{name} |{}| {} connected",
            pad_to(&line(&cols, t.end_ms, g), width),
            percent(t.connected_share)
        )?;
        writeln!(out, "{}  {}", " ".repeat(name_w), launch_line(&cols, g))?;
    }
    Ok(())
}

fn pad_to(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_when_asked_dumb_or_not_utf8() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(plain_ascii(true, &env(&[])));
        assert!(!plain_ascii(false, &env(&[])));
        assert!(plain_ascii(false, &env(&[("TERM", "dumb")])));
        assert!(!plain_ascii(false, &env(&[("LANG", "en_GB.UTF-8")])));
        assert!(!plain_ascii(false, &env(&[("LANG", "C.utf8")])));
        assert!(plain_ascii(false, &env(&[("LANG", "C")])));
        assert!(plain_ascii(
            false,
            &env(&[("LC_ALL", "POSIX"), ("LANG", "en_US.UTF-8")])
        ));
        assert!(!plain_ascii(
            false,
            &env(&[("LC_ALL", ""), ("LC_CTYPE", "de_DE.UTF-8"), ("LANG", "C")])
        ));
    }

    #[test]
    fn cell_characters_in_order_of_importance() {
        let g = Glyphs::UNICODE;
        assert_eq!(cell_char(0.6, 1, 1, g), '!');
        assert_eq!(cell_char(0.6, 0, 1, g), '█');
        assert_eq!(cell_char(0.2, 1, 1, g), '!');
        assert_eq!(cell_char(0.2, 0, 1, g), 'x');
        assert_eq!(cell_char(0.2, 0, 0, g), '▄');
        assert_eq!(cell_char(0.0, 0, 0, g), '·');
        assert_eq!(cell_char(0.0, 0, 0, Glyphs::ASCII), '.');
    }
}
