//! The timeline as SVG: one strip per track on a shared time axis with real units, drawn from
//! [`Columns`] (one column per unit of width), so its size depends on the picture's width, not
//! on how many launches there were.
//!
//! Per track, top to bottom: launch marks (a tooltip with the launch's row; launches sharing a
//! column are one mark with their count), the strip (connected time from the bottom, waiting
//! time from the top, the rest is down or handshaking), the waits' jitter ranges (shaded by how
//! much of the column they cover), then `mcpl-down` and status-line markers.
//!
//! Every text a server controls is sanitised and escaped ([`esc`]).

use std::fmt::Write as _;

use crate::engine::policy::timings::format_ms;
use crate::engine::schedule::Strip;
use crate::render::sanitize::sanitize;
use crate::render::timeline::{Columns, Track};
use crate::render::units::{clock, percent};

/// The picture's width in user units; the plot gets one column per unit.
pub(crate) const WIDTH: usize = 1000;
/// The strip's height.
pub(crate) const BAR: f64 = 36.0;

/// Colours, light and dark (`prefers-color-scheme`), shared by the HTML report.
pub(crate) const STYLE: &str = "\
.mt-bg{fill:#e9ecef}.mt-conn{fill:#2b8a3e}.mt-wait{fill:#a5d8ff}.mt-jit{fill:#f08c00}\
.mt-launch{fill:#343a40}.mt-failed{fill:#e03131}.mt-down{fill:#c2255c}.mt-status{fill:#7048e8}\
.mt-axis{stroke:#868e96;stroke-width:1}.mt-text{fill:#212529}.mt-dim{fill:#495057}\
@media (prefers-color-scheme: dark){.mt-bg{fill:#2c2e33}.mt-conn{fill:#40c057}\
.mt-wait{fill:#1c7ed6}.mt-jit{fill:#ffa94d}.mt-launch{fill:#dee2e6}.mt-failed{fill:#ff6b6b}\
.mt-down{fill:#f06595}.mt-status{fill:#b197fc}.mt-axis{stroke:#909296}.mt-text{fill:#e9ecef}\
.mt-dim{fill:#adb5bd}}\
@media print{.mt-bg{fill:#e9ecef}.mt-conn{fill:#2b8a3e}.mt-wait{fill:#a5d8ff}\
.mt-launch{fill:#343a40}.mt-text{fill:#000}.mt-dim{fill:#333}}";

/// Text for XML: sanitised (control, bidi, zero-width characters escaped), then `&<>"'`.
pub(crate) fn esc(text: &str) -> String {
    let clean = sanitize(text);
    let mut out = String::with_capacity(clean.len());
    for c in clean.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number with at most two decimals, without trailing zeros.
fn n(v: f64) -> String {
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A tick step for a time axis of `span_ms`: at most about 8 ticks.
pub(crate) fn tick_step(span_ms: f64) -> f64 {
    const STEPS: &[f64] = &[
        1.0,
        2.0,
        5.0,
        10.0,
        20.0,
        50.0,
        100.0,
        200.0,
        500.0,
        1e3,
        2e3,
        5e3,
        10e3,
        15e3,
        30e3,
        60e3,
        120e3,
        300e3,
        600e3,
        900e3,
        1800e3,
        3600e3,
        7200e3,
        3.0 * 3600e3,
        6.0 * 3600e3,
        12.0 * 3600e3,
        86_400e3,
        2.0 * 86_400e3,
        7.0 * 86_400e3,
        30.0 * 86_400e3,
        365.0 * 86_400e3,
    ];
    STEPS
        .iter()
        .copied()
        .find(|s| span_ms / s <= 8.0)
        .unwrap_or(span_ms / 8.0)
}

/// Layout of one timeline picture.
struct Layout {
    left: f64,
    plot: usize,
    span_ms: f64,
}

impl Layout {
    fn x(&self, col: usize) -> f64 {
        self.left + col as f64
    }
    fn x_of(&self, t: f64) -> f64 {
        self.left + (t / self.span_ms * self.plot as f64).clamp(0.0, self.plot as f64)
    }
}

/// Runs of equal values: `(start, len, value)`.
fn runs(values: impl Iterator<Item = f64>) -> Vec<(usize, usize, f64)> {
    let mut out: Vec<(usize, usize, f64)> = Vec::new();
    for (i, v) in values.enumerate() {
        match out.last_mut() {
            Some(last) if last.0 + last.1 == i && (last.2 - v).abs() < 1e-9 => last.1 += 1,
            _ => out.push((i, 1, v)),
        }
    }
    out
}

fn axis(svg: &mut String, l: &Layout, y: f64) {
    let _ = write!(
        svg,
        r#"<line class="mt-axis" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        n(l.left),
        n(y),
        n(l.left + l.plot as f64),
        n(y)
    );
    let step = tick_step(l.span_ms);
    let mut k = 0u32;
    loop {
        let t = f64::from(k) * step;
        if t > l.span_ms * 1.0001 || k > 40 {
            break;
        }
        let x = l.x_of(t);
        let anchor = if k == 0 { "start" } else { "middle" };
        let _ = write!(
            svg,
            r#"<line class="mt-axis" x1="{x}" y1="{y}" x2="{x}" y2="{y2}"/><text class="mt-dim" x="{x}" y="{ty}" text-anchor="{anchor}">{label}</text>"#,
            x = n(x),
            y = n(y),
            y2 = n(y + 4.0),
            ty = n(y + 15.0),
            label = esc(&format_ms(t)),
        );
        k += 1;
    }
}

/// The first alert text and the count of alerts per column (`cols.alerts` counts them all).
fn alert_texts(track: &Track, cols: &Columns) -> Vec<Option<usize>> {
    let mut first: Vec<Option<usize>> = vec![None; cols.width()];
    for (i, m) in track.marks.iter().enumerate() {
        if m.alert.is_some() {
            let at =
                ((m.ended_at_ms / cols.col_ms).floor().max(0.0) as usize).min(cols.width() - 1);
            first[at].get_or_insert(i);
        }
    }
    first
}

/// Where one track's bar is drawn, and its columns.
struct Bar<'a> {
    track: &'a Track,
    cols: Columns,
    /// The end of observation, ms.
    end: f64,
    /// The track's top (launch marks hang from it).
    top: f64,
    /// Height of the launch marks above the bar (0 when compact).
    ticks_h: f64,
    bar_y: f64,
    bar_h: f64,
}

impl Bar<'_> {
    /// A share of the bar's height, in quarter units.
    fn q(&self, v: f64) -> f64 {
        (v * self.bar_h * 4.0).round() / 4.0
    }
}

/// One track at `y` (its top); returns the height used.
fn track_svg(svg: &mut String, track: &Track, l: &Layout, y: f64, compact: bool) -> f64 {
    let (ticks_h, bar_h) = if compact { (0.0, 16.0) } else { (14.0, BAR) };
    let bar = Bar {
        track,
        cols: Columns::of_track(track, l.plot, l.span_ms),
        end: track.end_ms,
        top: y,
        ticks_h,
        bar_y: y + ticks_h,
        bar_h,
    };
    let _ = write!(
        svg,
        r#"<g class="mt-track" data-name="{}" data-connected-share="{:.4}" data-launches="{}">"#,
        esc(&track.name),
        track.connected_share,
        track.launches_total
    );
    // The strip's background: the part observation covers.
    let _ = write!(
        svg,
        r#"<rect class="mt-bg" x="{}" y="{}" width="{}" height="{}" shape-rendering="crispEdges"><title>{}: {} connected over {}</title></rect>"#,
        n(l.left),
        n(bar.bar_y),
        bar.cols.used,
        n(bar_h),
        esc(&track.name),
        percent(track.connected_share),
        esc(&format_ms(bar.end.round()))
    );
    connected_rects(svg, &bar, l);
    if !compact {
        waiting_rects(svg, &bar, l);
        jitter_rects(svg, &bar, l);
        launch_marks(svg, &bar, l);
    }
    // mcpl-down markers (triangles) and status lines (diamonds).
    let my = if compact {
        bar.bar_y - 1.0
    } else {
        bar.bar_y + bar_h + 10.0
    };
    alert_marks(svg, &bar, l, my, compact);
    if !compact {
        status_marks(svg, &bar, l, my + 14.0);
    }
    svg.push_str("</g>");
    if compact {
        ticks_h + bar_h
    } else {
        ticks_h + bar_h + 30.0
    }
}

/// Connected time, from the bottom of the bar.
fn connected_rects(svg: &mut String, bar: &Bar<'_>, l: &Layout) {
    let cols = &bar.cols;
    for (start, len, h) in runs((0..cols.used).map(|i| bar.q(cols.share(i, bar.end)))) {
        if h > 0.0 {
            let _ = write!(
                svg,
                r#"<rect class="mt-conn" x="{}" y="{}" width="{len}" height="{}" shape-rendering="crispEdges"/>"#,
                n(l.x(start)),
                n(bar.bar_y + bar.bar_h - h),
                n(h)
            );
        }
    }
}

/// Waiting time, from the top of the bar (never over the connected part).
fn waiting_rects(svg: &mut String, bar: &Bar<'_>, l: &Layout) {
    let cols = &bar.cols;
    for (start, len, h) in runs((0..cols.used).map(|i| {
        let room = bar.bar_h - bar.q(cols.share(i, bar.end));
        bar.q(cols.waiting_share(i, bar.end)).min(room)
    })) {
        if h > 0.0 {
            let _ = write!(
                svg,
                r#"<rect class="mt-wait" x="{}" y="{}" width="{len}" height="{}" shape-rendering="crispEdges"/>"#,
                n(l.x(start)),
                n(bar.bar_y),
                n(h)
            );
        }
    }
}

/// Jitter ranges under the bar, shaded by cover.
fn jitter_rects(svg: &mut String, bar: &Bar<'_>, l: &Layout) {
    let cols = &bar.cols;
    let jy = bar.bar_y + bar.bar_h + 3.0;
    for (start, len, o) in
        runs((0..cols.used).map(|i| (cols.jitter_share(i, bar.end) * 10.0).round() / 10.0))
    {
        if o > 0.0 {
            let _ = write!(
                svg,
                r#"<rect class="mt-jit" x="{}" y="{}" width="{len}" height="5" fill-opacity="{}" shape-rendering="crispEdges"/>"#,
                n(l.x(start)),
                n(jy),
                n(o.max(0.2))
            );
        }
    }
}

/// Launch marks above the bar, one per column with launches.
fn launch_marks(svg: &mut String, bar: &Bar<'_>, l: &Layout) {
    let (track, cols) = (bar.track, &bar.cols);
    for i in 0..cols.used {
        let count = cols.launches[i];
        let Some(first) = cols.first_mark[i] else {
            continue;
        };
        let Some(m) = track.marks.get(first) else {
            continue;
        };
        let class = if cols.failures[i] > 0 {
            "mt-launch mt-failed"
        } else {
            "mt-launch"
        };
        let title = if count == 1 {
            m.row.clone()
        } else {
            let last = track
                .marks
                .get(first + count as usize - 1)
                .map_or(m.number, |l| l.number);
            format!(
                "{count} launches (#{} to #{last}), {} with a failed handshake; the first: {}",
                m.number, cols.failures[i], m.row
            )
        };
        let _ = write!(
            svg,
            r#"<rect class="{class}" data-mark="{count}" x="{}" y="{}" width="2" height="{}"><title>{}</title></rect>"#,
            n(l.x(i) - 0.5),
            n(bar.top + 1.0),
            n(bar.ticks_h - 3.0),
            esc(&title)
        );
    }
}

/// `mcpl-down` markers (triangles) at `my`, one per column with alerts.
fn alert_marks(svg: &mut String, bar: &Bar<'_>, l: &Layout, my: f64, compact: bool) {
    let (track, cols) = (bar.track, &bar.cols);
    let texts = alert_texts(track, cols);
    for (i, first) in texts.iter().enumerate().take(cols.used) {
        if cols.alerts[i] == 0 {
            continue;
        }
        let text = first
            .and_then(|k| track.marks.get(k))
            .and_then(|m| m.alert.clone())
            .unwrap_or_else(|| "mcpl-down".into());
        let title = if cols.alerts[i] == 1 {
            format!("mcpl-down raised: {text}")
        } else {
            format!(
                "mcpl-down raised {} times; the first: {text}",
                cols.alerts[i]
            )
        };
        let x = l.x(i) + 0.5;
        let (a, b) = if compact { (-5.0, 0.0) } else { (0.0, 7.0) };
        let _ = write!(
            svg,
            r#"<path class="mt-down" d="M{} {}L{} {}L{} {}Z"><title>{}</title></path>"#,
            n(x - 3.5),
            n(my + a),
            n(x + 3.5),
            n(my + a),
            n(x),
            n(my + b),
            esc(&title)
        );
    }
}

/// Status lines (diamonds) centred at `cy`, one marker per column.
fn status_marks(svg: &mut String, bar: &Bar<'_>, l: &Layout, cy: f64) {
    let (track, cols) = (bar.track, &bar.cols);
    // (column, its first line, how many).
    let mut per_col: Vec<(usize, usize, usize)> = Vec::new();
    for (k, notice) in track.notices.iter().enumerate() {
        let col = ((notice.at_ms / cols.col_ms).floor().max(0.0) as usize).min(cols.width() - 1);
        match per_col.last_mut() {
            Some((c, _, count)) if *c == col => *count += 1,
            _ => per_col.push((col, k, 1)),
        }
    }
    for (col, first, count) in &per_col {
        let Some(notice) = track.notices.get(*first) else {
            continue;
        };
        let x = l.x(*col) + 0.5;
        let title = if *count == 1 {
            format!("{} at {}", notice.text, clock(notice.at_ms))
        } else {
            format!(
                "{count} status lines; the first: {} at {}",
                notice.text,
                clock(notice.at_ms)
            )
        };
        let _ = write!(
            svg,
            r#"<path class="mt-status" d="M{} {}L{} {}L{} {}L{} {}Z"><title>{}</title></path>"#,
            n(x),
            n(cy - 3.5),
            n(x + 3.5),
            n(cy),
            n(x),
            n(cy + 3.5),
            n(x - 3.5),
            n(cy),
            esc(&title)
        );
    }
}

fn legend(svg: &mut String, x0: f64, y: f64) {
    let items: [(&str, &str, &str); 7] = [
        ("mt-conn", "rect", "connected"),
        ("mt-wait", "rect", "waiting to relaunch"),
        ("mt-bg", "rect", "down or handshaking"),
        ("mt-jit", "rect", "jitter range"),
        ("mt-launch", "tick", "launch"),
        ("mt-failed", "tick", "failed handshake"),
        ("mt-down", "tri", "mcpl-down"),
    ];
    let mut x = x0;
    for (class, shape, label) in items {
        match shape {
            "rect" => {
                let _ = write!(
                    svg,
                    r#"<rect class="{class}" x="{}" y="{}" width="10" height="10"/>"#,
                    n(x),
                    n(y - 9.0)
                );
            }
            "tick" => {
                let _ = write!(
                    svg,
                    r#"<rect class="{class}" x="{}" y="{}" width="2" height="10"/>"#,
                    n(x + 4.0),
                    n(y - 9.0)
                );
            }
            _ => {
                let _ = write!(
                    svg,
                    r#"<path class="{class}" d="M{} {}L{} {}L{} {}Z"/>"#,
                    n(x + 1.5),
                    n(y - 8.0),
                    n(x + 8.5),
                    n(y - 8.0),
                    n(x + 5.0),
                    n(y - 1.0)
                );
            }
        }
        let _ = write!(
            svg,
            r#"<text class="mt-text" x="{}" y="{}">{label}</text>"#,
            n(x + 14.0),
            n(y)
        );
        x += 14.0 + label.len() as f64 * 6.2 + 16.0;
    }
    let _ = write!(
        svg,
        r#"<path class="mt-status" d="M{} {}L{} {}L{} {}L{} {}Z"/><text class="mt-text" x="{}" y="{}">status line</text>"#,
        n(x + 5.0),
        n(y - 9.0),
        n(x + 9.0),
        n(y - 5.0),
        n(x + 5.0),
        n(y - 1.0),
        n(x + 1.0),
        n(y - 5.0),
        n(x + 14.0),
        n(y)
    );
}

fn open(svg: &mut String, height: f64, title: &str, standalone: bool, class: &str) {
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" viewBox="0 0 {WIDTH} {h}" width="{WIDTH}" height="{h}" font-family="sans-serif" font-size="11" role="img"><title>{}</title>"#,
        esc(title),
        h = n(height)
    );
    if standalone {
        let _ = write!(svg, "<style>{STYLE}</style>");
    }
}

/// The timeline of `tracks` on one time axis of `span_ms` (at least every track's end).
/// `standalone`: with its own colours (for `--svg`); in the HTML report the page has them.
pub(crate) fn timeline(tracks: &[Track], title: &str, standalone: bool) -> String {
    let named = tracks.len() > 1 || tracks.iter().any(|t| !t.name.is_empty());
    let left = if named { 150.0 } else { 10.0 };
    let span = tracks.iter().map(|t| t.end_ms).fold(0.0, f64::max);
    let l = Layout {
        left,
        plot: WIDTH - left as usize - 10,
        span_ms: if span > 0.0 { span } else { 1.0 },
    };
    let per_track = 14.0 + BAR + 30.0 + 8.0;
    let height = 8.0 + tracks.len() as f64 * per_track + 24.0 + 24.0;
    let mut svg = String::with_capacity(16 * 1024);
    open(&mut svg, height, title, standalone, "mt-timeline");
    let mut y = 8.0;
    for t in tracks {
        if named {
            let name: String = sanitize(&t.name).chars().take(22).collect();
            let _ = write!(
                svg,
                r#"<text class="mt-text" x="4" y="{}">{}</text><text class="mt-dim" x="4" y="{}">{} connected</text>"#,
                n(y + 14.0 + BAR / 2.0 - 2.0),
                esc(&name),
                n(y + 14.0 + BAR / 2.0 + 11.0),
                percent(t.connected_share)
            );
        }
        y += track_svg(&mut svg, t, &l, y, false) + 8.0;
    }
    axis(&mut svg, &l, y);
    legend(&mut svg, l.left, y + 40.0);
    svg.push_str("</svg>");
    svg
}

/// One rule's prediction over a day, for the small multiples.
pub(crate) struct RuleStrip<'a> {
    pub rule: &'a str,
    pub strip: &'a Strip,
    pub end_ms: f64,
    /// The figures beside the strip (`17280 launches/day, 0.1% connected`).
    pub figures: String,
}

/// Small multiples: one compact strip per rule over the same span (a day).
pub(crate) fn small_multiples(rules: &[RuleStrip<'_>], title: &str, standalone: bool) -> String {
    let left = 110.0;
    let plot = 600;
    let span = rules.iter().map(|r| r.end_ms).fold(0.0, f64::max);
    let l = Layout {
        left,
        plot,
        span_ms: if span > 0.0 { span } else { 1.0 },
    };
    // Each rule: its strip, then one line under it naming the rule and its figures (beside the
    // strip they ran past the picture's right edge, and a long rule name ran into the strip).
    let row = 40.0;
    let height = 10.0 + rules.len() as f64 * row + 24.0;
    let mut svg = String::with_capacity(8 * 1024);
    open(&mut svg, height, title, standalone, "mt-multiples");
    let mut y = 10.0;
    for r in rules {
        let track = Track {
            name: r.rule.to_string(),
            marks: Vec::new(),
            notices: Vec::new(),
            end_ms: r.end_ms,
            connected_share: share_of(r.strip),
            launches_total: 0,
            strip: Some(r.strip.clone()),
        };
        track_svg(&mut svg, &track, &l, y, true);
        let _ = write!(
            svg,
            r#"<text class="mt-text mt-caption" x="{}" y="{}">{}<tspan class="mt-dim" dx="8">{}</tspan></text>"#,
            n(left),
            n(y + 28.0),
            esc(r.rule),
            esc(&r.figures)
        );
        y += row;
    }
    axis(&mut svg, &l, y - 8.0);
    svg.push_str("</svg>");
    svg
}

fn share_of(strip: &Strip) -> f64 {
    let total: f64 = strip.connected_ms.iter().sum();
    if strip.end_ms > 0.0 {
        (total / strip.end_ms).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_text_stays_text() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(esc("a\u{202E}b"), "a\\u{202e}b");
    }

    /// Four launches over 10 s, each connected for 1 s (40%), the second failing its
    /// handshake instead; waits with a jitter range.
    fn track() -> Track {
        use crate::engine::policy::Wait;
        use crate::render::timeline::{Kind, Mark};
        let marks = (0..4)
            .map(|i| {
                let at = f64::from(i) * 2500.0;
                let failed = i == 1;
                Mark {
                    number: u64::from(i as u32 + 1),
                    at_ms: at,
                    connected_at_ms: (!failed).then_some(at + 300.0),
                    ended_at_ms: at + 1300.0,
                    kind: if failed {
                        Kind::Failed
                    } else {
                        Kind::Connected
                    },
                    wait: Some(Wait {
                        nominal_ms: 1200.0,
                        min_ms: 900.0,
                        max_ms: 1500.0,
                        or_ms: None,
                        ms: 1200.0,
                    }),
                    alert: (i == 3).then(|| "MCPL server down <b>(attempt 3)</b>".to_string()),
                    row: format!("launch {} <script>", i + 1),
                }
            })
            .collect();
        Track {
            name: "<script>alert(1)</script>".into(),
            marks,
            notices: Vec::new(),
            end_ms: 10_000.0,
            connected_share: 0.3,
            launches_total: 4,
            strip: None,
        }
    }

    #[test]
    fn rendered_by_resvg_the_strip_shows_the_connected_share_and_every_launch() {
        let t = track();
        let svg = timeline(std::slice::from_ref(&t), "test", true);
        // One mark per launch (`data-mark` counts the launches a mark stands for).
        assert_eq!(svg.matches(r#"data-mark="1""#).count(), 4, "{svg}");
        assert_eq!(
            svg.matches(r#"class="mt-launch mt-failed" data-mark"#)
                .count(),
            1
        );
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("<b>"), "{svg}");
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .expect("the SVG parses");
        let size = tree.size().to_int_size();
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::identity(),
            &mut pixmap.as_mut(),
        );
        let m = crate::testing::pictures::measure(
            pixmap.data(),
            size.width() as usize,
            size.height() as usize,
        )
        .expect("a strip in the picture");
        assert_eq!(m.height, BAR as usize, "{m:?}");
        assert_eq!(m.width, WIDTH - 160, "{m:?}");
        // 3 of 4 launches connected for 1 s of 10 s.
        assert!((m.connected_share - 0.3).abs() < 0.02, "{m:?}");
        assert_eq!(m.launch_marks, 4, "{m:?}");
    }

    #[test]
    fn ticks_in_round_units() {
        assert_eq!(tick_step(4_000.0), 500.0);
        assert_eq!(tick_step(12_000.0), 2_000.0);
        assert_eq!(tick_step(86_400_000.0), 3.0 * 3_600_000.0);
    }
}
