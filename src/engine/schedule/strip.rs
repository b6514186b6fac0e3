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
        }
    }

    fn width(&self) -> usize {
        self.connected_ms.len()
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
                        self.connected_ms[a] + self.connected_ms[b],
                        self.alerts[a] + self.alerts[b],
                    )
                } else if a < w {
                    (self.connected_ms[a], self.alerts[a])
                } else {
                    (0.0, 0)
                };
                self.connected_ms[i] = c;
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
            self.connected_ms[i] += to - from;
            return;
        }
        let mut a = from;
        while a < to {
            let i = self.cell(a);
            let cell_end = (i + 1) as f64 * self.cell_ms;
            let b = if cell_end > a { to.min(cell_end) } else { to };
            self.connected_ms[i] += b - a;
            a = b;
        }
    }

    #[inline]
    pub(super) fn alert(&mut self, t: f64) {
        self.fit(t);
        let i = self.cell(t);
        self.alerts[i] += 1;
    }

    /// The cells that cover `end_ms` (fewer than the width when the run ended early).
    pub fn used_cells(&self) -> usize {
        if self.cell_ms <= 0.0 {
            return 0;
        }
        ((self.end_ms / self.cell_ms).ceil() as usize).clamp(1, self.width())
    }

    /// Share of cell `i` spent connected, 0 to 1.
    pub fn share(&self, i: usize) -> f64 {
        let len = if (i + 1) as f64 * self.cell_ms > self.end_ms {
            (self.end_ms - i as f64 * self.cell_ms).max(f64::MIN_POSITIVE)
        } else {
            self.cell_ms
        };
        (self.connected_ms[i] / len).clamp(0.0, 1.0)
    }
}
