//! Prometheus metrics, in the Prometheus text format (0.0.4) or OpenMetrics (1.0.0) as the
//! scraper's `Accept` asks, written with the `prometheus-client` crate's encoders:
//! [`serve`] for `serve`'s `/metrics` (every supervised server), [`probe`] for one
//! `/probe?server=ID`.
//!
//! Labels are the entry's id and its host or rule only: no argument, URL, query or environment
//! value ever becomes a label (an entry's id is the user's own name for it).

pub(crate) mod probe;
pub(crate) mod serve;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeGaugeValue, EncodeMetric};
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::{Registry, Unit};

/// Which text the scraper gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Prometheus,
    OpenMetrics,
}

/// OpenMetrics' content type.
pub(crate) const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

impl Format {
    /// OpenMetrics when the `Accept` header names it (as Prometheus sends it), else the
    /// Prometheus text format.
    pub(crate) fn from_accept(accept: Option<&str>) -> Format {
        match accept {
            Some(a) if a.contains("application/openmetrics-text") => Format::OpenMetrics,
            _ => Format::Prometheus,
        }
    }

    pub(crate) fn content_type(self) -> &'static str {
        match self {
            Format::Prometheus => prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
            Format::OpenMetrics => OPENMETRICS,
        }
    }
}

/// The text of everything `collector` says, in `format`.
pub(crate) fn encode(collector: impl Collector, format: Format) -> String {
    let mut registry = Registry::default();
    registry.register_collector(Box::new(collector));
    let mut out = String::with_capacity(8 * 1024);
    let written = match format {
        Format::Prometheus => {
            prometheus_client::encoding::prometheus_text::encode(&mut out, &registry)
        }
        Format::OpenMetrics => prometheus_client::encoding::text::encode(&mut out, &registry),
    };
    // Writing into a String does not fail; a collector's own error leaves what was written.
    let _ = written;
    out
}

/// A label set: names and values.
pub(crate) type Labels = Vec<(&'static str, String)>;

/// One gauge family: `name` (with `unit`'s suffix), one sample per row.
pub(crate) fn gauges<V: EncodeGaugeValue + Copy>(
    enc: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    unit: Option<&Unit>,
    rows: &[(Labels, V)],
) -> std::fmt::Result {
    let mut m = enc.encode_descriptor(name, help, unit, MetricType::Gauge)?;
    for (labels, v) in rows {
        ConstGauge::new(*v).encode(m.encode_family(labels)?)?;
    }
    Ok(())
}

/// One counter family (`_total` is added), one sample per row.
pub(crate) fn counters(
    enc: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    rows: &[(Labels, u64)],
) -> std::fmt::Result {
    use prometheus_client::metrics::counter::ConstCounter;
    let mut m = enc.encode_descriptor(name, help, None, MetricType::Counter)?;
    for (labels, v) in rows {
        ConstCounter::new(*v).encode(m.encode_family(labels)?)?;
    }
    Ok(())
}

/// One info family (`_info` is added): the labels are the facts.
pub(crate) fn infos(
    enc: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    rows: &[Labels],
) -> std::fmt::Result {
    let mut m = enc.encode_descriptor(name, help, None, MetricType::Info)?;
    for labels in rows {
        m.encode_info(labels)?;
    }
    Ok(())
}

/// Seconds since the Unix epoch (0 before it).
pub(crate) fn unix_seconds(t: std::time::SystemTime) -> f64 {
    t.duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openmetrics_only_when_asked() {
        assert_eq!(Format::from_accept(None), Format::Prometheus);
        assert_eq!(
            Format::from_accept(Some(
                "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
            )),
            Format::OpenMetrics
        );
        assert_eq!(Format::from_accept(Some("*/*")), Format::Prometheus);
    }
}
