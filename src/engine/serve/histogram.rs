//! A fixed-bucket histogram in plain numbers: what `serve` keeps of handshake times and
//! connection lifetimes (a few dozen numbers whatever the run's length). The exporter encodes
//! it; nothing here knows a wire format.

/// Observations counted into fixed upper bounds (seconds), as Prometheus histograms are.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Histogram {
    bounds: &'static [f64],
    /// Per bucket (not cumulative); one more than `bounds`: the last is `+Inf`.
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

/// Handshake times (s): launch to completed handshake.
pub(crate) const HANDSHAKE_BOUNDS: &[f64] = &[
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// Connection lifetimes (s): handshake to end. 300 s is the lasting threshold under default
/// timings, so `le="300"` counts the short-lived connections of a default entry.
pub(crate) const SESSION_BOUNDS: &[f64] = &[
    0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0, 21_600.0, 86_400.0,
];

impl Histogram {
    pub(crate) fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            counts: vec![0; bounds.len() + 1],
            sum: 0.0,
            count: 0,
        }
    }

    /// Count `v`; a value that is not a number is not counted.
    pub(crate) fn observe(&mut self, v: f64) {
        if v.is_nan() {
            return;
        }
        let at = self
            .bounds
            .iter()
            .position(|b| v <= *b)
            .unwrap_or(self.bounds.len());
        if let Some(c) = self.counts.get_mut(at) {
            *c += 1;
        }
        self.sum += v;
        self.count += 1;
    }

    pub(crate) fn sum(&self) -> f64 {
        self.sum
    }

    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// `(upper bound, count)` per bucket (not cumulative: an encoder adds them up), the last
    /// `+Inf`.
    pub(crate) fn buckets(&self) -> Vec<(f64, u64)> {
        self.bounds
            .iter()
            .copied()
            .chain(std::iter::once(f64::INFINITY))
            .zip(self.counts.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_counts_in_its_own_bucket_and_inf_ends_them() {
        let mut h = Histogram::new(&[1.0, 10.0]);
        for v in [0.5, 1.0, 2.0, 50.0, f64::NAN] {
            h.observe(v);
        }
        assert_eq!(h.count(), 4);
        assert_eq!(h.sum(), 53.5);
        assert_eq!(h.buckets(), vec![(1.0, 2), (10.0, 1), (f64::INFINITY, 1)]);
    }
}
