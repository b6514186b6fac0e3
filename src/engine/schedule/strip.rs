//! The timeline strip: connected time and alerts per slice of the span, in flat memory.

/// A fixed-width timeline: how much of each slice of time was spent connected, and where
/// alerts were raised. Grows by merging neighbouring cells, so memory stays flat.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Strip {
    /// Length of one cell.
    pub cell_ms: f64,
    /// Connected time in each cell.
    pub connected_ms: Vec<f64>,
    /// Alerts raised in each cell.
    pub alerts: Vec<u32>,
    /// The time covered (cells beyond it are unused).
    pub end_ms: f64,
    /// `1 / cell_ms`, so that finding a cell is a multiplication.
    #[serde(skip)]
    per_cell: f64,
    /// The end of the last cell.
    #[serde(skip)]
    limit_ms: f64,
    /// Connected time in each cell while the run adds it up, in units of 2^-64 ms: integer
    /// sums do not depend on their order, so whole cycles added at once (see
    /// `fast_forward`) give exactly what adding them one by one gives. `connected_ms` is
    /// filled from it when the run ends.
    #[serde(skip)]
    acc: Vec<i128>,
}

/// 2^64: one millisecond in the units of [`Strip::acc`].
const UNITS: f64 = 18_446_744_073_709_551_616.0;

/// `ms` in units of 2^-64 ms, truncated: `(ms * UNITS) as i128`, without the slow general
/// conversion from `f64` to `i128` for the usual case (0 to 2^63 ms): the whole milliseconds
/// and the fraction are converted apart, both exactly.
#[inline]
fn units(ms: f64) -> i128 {
    if (0.0..9.2e18).contains(&ms) {
        let whole = ms as u64;
        // Exact: `whole` is `ms` truncated, so the difference is representable.
        let fraction = ms - whole as f64;
        (i128::from(whole) << 64) + i128::from((fraction * UNITS) as u64)
    } else {
        (ms * UNITS) as i128
    }
}

impl Strip {
    pub(super) fn new(width: usize, span_ms: f64) -> Strip {
        let width = width.max(1);
        let cell = if span_ms.is_finite() && span_ms > 0.0 {
            span_ms / width as f64
        } else {
            60_000.0 / width as f64
        };
        Strip {
            cell_ms: cell,
            connected_ms: vec![0.0; width],
            alerts: vec![0; width],
            end_ms: 0.0,
            per_cell: 1.0 / cell,
            limit_ms: cell * width as f64,
            acc: vec![0; width],
        }
    }

    fn width(&self) -> usize {
        self.alerts.len()
    }

    /// The end of the last cell: times up to it need no growing.
    pub(super) fn limit_ms(&self) -> f64 {
        self.limit_ms
    }

    #[inline]
    pub(super) fn fit(&mut self, t: f64) {
        if t > self.limit_ms && t.is_finite() {
            self.grow(t);
        }
    }

    #[cold]
    fn grow(&mut self, t: f64) {
        let w = self.width();
        while t > self.limit_ms {
            for i in 0..w {
                let (a, b) = (2 * i, 2 * i + 1);
                let (c, al) = if b < w {
                    (
                        self.acc[a] + self.acc[b],
                        self.alerts[a].saturating_add(self.alerts[b]),
                    )
                } else if a < w {
                    (self.acc[a], self.alerts[a])
                } else {
                    (0, 0)
                };
                self.acc[i] = c;
                self.alerts[i] = al;
            }
            self.cell_ms *= 2.0;
            self.per_cell = 1.0 / self.cell_ms;
            self.limit_ms = self.cell_ms * w as f64;
        }
    }

    #[inline]
    fn cell(&self, t: f64) -> usize {
        ((t * self.per_cell) as usize).min(self.width() - 1)
    }

    #[inline]
    pub(super) fn connected(&mut self, from: f64, to: f64) {
        if to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        self.fit(to);
        let i = self.cell(from);
        if to <= (i + 1) as f64 * self.cell_ms {
            self.acc[i] += units(to - from);
            return;
        }
        self.connected_across(from, to);
    }

    /// A connection over more than one cell: a piece in each.
    fn connected_across(&mut self, from: f64, to: f64) {
        // Walk the cells by index: finding each piece's cell from its start again
        // (`cell(cell_end)`) can land one cell short when `cell_end * per_cell` rounds down,
        // and the rest of the connection then went into that one cell (a healthy day drew 7
        // cells of 53 connected).
        let last = self.width() - 1;
        let mut i = self.cell(from);
        let mut a = from;
        while a < to {
            let cell_end = (i + 1) as f64 * self.cell_ms;
            let b = if i >= last { to } else { to.min(cell_end) };
            if b > a {
                self.acc[i] += units(b - a);
                a = b;
            }
            if i >= last {
                break;
            }
            i += 1;
        }
    }

    #[inline]
    pub(super) fn alert(&mut self, t: f64) {
        self.fit(t);
        let i = self.cell(t);
        self.alerts[i] = self.alerts[i].saturating_add(1);
    }

    /// `n` connections `[from + j * period, from + j * period + len)`, `j` in `0..n`, exactly as
    /// `n` calls of [`Strip::connected`] would add them. The caller guarantees that the times
    /// are whole milliseconds (so each is exact), that the connections do not overlap
    /// (`len <= period`) and that the last end needs no growing.
    pub(super) fn connected_periodic(&mut self, from: f64, len: f64, period: f64, n: u64) {
        if n == 0 || len.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        let at = |j: u64| from + j as f64 * period;
        let mut j = 0;
        while j < n {
            let i = self.cell(at(j));
            // The connections starting in cell i: j..group_end.
            let group_end = first(j, n, |k| self.cell(at(k)) > i);
            // Those ending inside it (a prefix): one whole piece each.
            let cell_end = (i + 1) as f64 * self.cell_ms;
            let inside_end = first(j, group_end, |k| at(k) + len > cell_end);
            self.acc[i] += units(len) * (inside_end - j) as i128;
            for k in inside_end..group_end {
                self.connected_across(at(k), at(k) + len);
            }
            j = group_end;
        }
    }

    /// `n` alerts at `first + j * period`, `j` in `0..n`, exactly as `n` calls of
    /// [`Strip::alert`] would count them (same guarantees as [`Strip::connected_periodic`]).
    pub(super) fn alerts_periodic(&mut self, first_at: f64, period: f64, n: u64) {
        let at = |j: u64| first_at + j as f64 * period;
        let mut j = 0;
        while j < n {
            let i = self.cell(at(j));
            let group_end = first(j, n, |k| self.cell(at(k)) > i);
            let count = u32::try_from(group_end - j).unwrap_or(u32::MAX);
            self.alerts[i] = self.alerts[i].saturating_add(count);
            j = group_end;
        }
    }

    /// Fill `connected_ms` from the exact sums; called once the run has ended.
    pub(super) fn seal(&mut self) {
        self.connected_ms = self.acc.iter().map(|&u| u as f64 / UNITS).collect();
    }

    /// The cells that cover `end_ms` (fewer than the width when the run ended early).
    pub(crate) fn used_cells(&self) -> usize {
        if self.cell_ms <= 0.0 {
            return 0;
        }
        ((self.end_ms / self.cell_ms).ceil() as usize).clamp(1, self.width())
    }

    /// Share of cell `i` spent connected, 0 to 1.
    #[cfg(test)]
    pub(crate) fn share(&self, i: usize) -> f64 {
        let len = if (i + 1) as f64 * self.cell_ms > self.end_ms {
            (self.end_ms - i as f64 * self.cell_ms).max(f64::MIN_POSITIVE)
        } else {
            self.cell_ms
        };
        (self.connected_ms[i] / len).clamp(0.0, 1.0)
    }
}

/// The first `k` in `lo..hi` for which `past(k)` holds, `hi` if none; `past` must be false
/// then true along `lo..hi` (a binary search).
fn first(lo: u64, hi: u64, past: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if past(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::{units, UNITS};

    #[test]
    fn units_equal_the_general_conversion() {
        let mut rng = fastrand::Rng::with_seed(22);
        let mut cases = vec![
            0.0,
            -0.0,
            1.0,
            0.5,
            1e-30,
            f64::MIN_POSITIVE,
            4_503_599_627_370_496.5,
            9_007_199_254_740_993.0,
            9.19e18,
            9.2e18,
            1e19,
            -3.25,
            f64::NAN,
            f64::INFINITY,
        ];
        for _ in 0..100_000 {
            let scale = 10f64.powi(rng.i32(-12..19));
            cases.push(rng.f64() * scale);
            cases.push(rng.u64(..1 << 40) as f64);
        }
        for ms in cases {
            assert_eq!(units(ms), (ms * UNITS) as i128, "{ms:e}");
        }
    }
}
