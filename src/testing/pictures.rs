//! Measuring a rendered timeline the way a person looks at it: find the first strip in a
//! picture (RGBA pixels, from resvg or a browser's screenshot) and how much of it is drawn in
//! the connected colour; count the launch marks above it.

// The colours of the light scheme in render/picture/svg.rs's style, as a person sees them (a
// change there fails the tests that measure pictures).

/// The connected colour.
const CONNECTED_RGB: (u8, u8, u8) = (0x2b, 0x8a, 0x3e);
/// The strip's background (down) and waiting colours.
const BG_RGB: (u8, u8, u8) = (0xe9, 0xec, 0xef);
const WAIT_RGB: (u8, u8, u8) = (0xa5, 0xd8, 0xff);
/// Launch marks, and those of launches whose handshake failed.
const LAUNCH_RGB: (u8, u8, u8) = (0x34, 0x3a, 0x40);
const FAILED_RGB: (u8, u8, u8) = (0xe0, 0x31, 0x31);

/// What a picture's first strip shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StripPixels {
    /// The strip's box: left, top, width, height in pixels.
    pub left: usize,
    pub top: usize,
    pub width: usize,
    pub height: usize,
    /// Share of the box in the connected colour, 0 to 1.
    pub connected_share: f64,
    /// Separate marks in the launch colour in the rows just above the strip.
    pub launch_marks: usize,
}

fn near(p: &[u8], c: (u8, u8, u8)) -> bool {
    let d = |a: u8, b: u8| (i16::from(a) - i16::from(b)).abs();
    d(p[0], c.0) <= 6 && d(p[1], c.1) <= 6 && d(p[2], c.2) <= 6
}

fn in_strip(p: &[u8]) -> bool {
    near(p, BG_RGB) || near(p, CONNECTED_RGB) || near(p, WAIT_RGB)
}

/// Measure the first (topmost) strip in `rgba` (`width` x `height`, 4 bytes a pixel, not
/// premultiplied or opaque), in the light colour scheme.
pub fn measure(rgba: &[u8], width: usize, height: usize) -> Option<StripPixels> {
    let px = |x: usize, y: usize| &rgba[(y * width + x) * 4..(y * width + x) * 4 + 4];
    // A strip row has a long run of strip colours.
    let row_run = |y: usize| -> Option<(usize, usize)> {
        let (mut best, mut start, mut run) = ((0, 0), 0, 0);
        for x in 0..width {
            if in_strip(px(x, y)) {
                if run == 0 {
                    start = x;
                }
                run += 1;
                if run > best.1 {
                    best = (start, run);
                }
            } else {
                run = 0;
            }
        }
        (best.1 >= width / 4).then_some(best)
    };
    let top = (0..height).find(|y| row_run(*y).is_some())?;
    let mut bottom = top;
    while bottom + 1 < height && row_run(bottom + 1).is_some() {
        bottom += 1;
    }
    let (mut left, mut right) = (usize::MAX, 0);
    for y in top..=bottom {
        if let Some((s, len)) = row_run(y) {
            left = left.min(s);
            right = right.max(s + len);
        }
    }
    let (w, h) = (right - left, bottom - top + 1);
    let mut connected = 0usize;
    for y in top..=bottom {
        for x in left..right {
            if near(px(x, y), CONNECTED_RGB) {
                connected += 1;
            }
        }
    }
    // Launch marks: runs of the launch colour across the rows above the strip.
    let mut launch_marks = 0;
    let probe_y = top.saturating_sub(6);
    let mut inside = false;
    for x in left.saturating_sub(3)..(right + 3).min(width) {
        let hit = (probe_y.saturating_sub(3)..=probe_y)
            .any(|y| near(px(x, y), LAUNCH_RGB) || near(px(x, y), FAILED_RGB));
        if hit && !inside {
            launch_marks += 1;
        }
        inside = hit;
    }
    Some(StripPixels {
        left,
        top,
        width: w,
        height: h,
        connected_share: connected as f64 / (w * h) as f64,
        launch_marks,
    })
}
