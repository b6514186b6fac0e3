//! `serve`'s `/metrics`: every supervised server's figures, read from the engine's
//! [`Board`] at scrape time (each server's lock held while its samples are written), and the
//! exporter's own health.
//!
//! The session-lifetime histogram is named after OpenTelemetry's MCP semantic conventions
//! (`mcp.client.session.duration`, seconds: `mcp_client_session_duration_seconds`); the rest
//! are `mcpl_doctor_*`.

use std::sync::Arc;
use std::time::SystemTime;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Unit;

use crate::engine::serve::histogram::Histogram;
use crate::engine::serve::status::OUTCOMES;
use crate::engine::serve::{Board, ServerStatus};

use super::{counters, gauges, infos, unix_seconds, Labels};

/// What the exporter says of itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ExporterFacts {
    pub scrapes: u64,
    pub http_connections: u64,
    pub probes_in_flight: u64,
    pub resident_bytes: Option<u64>,
}

/// The collector of one scrape.
pub(crate) struct ServeMetrics {
    pub board: Arc<Board>,
    pub exporter: ExporterFacts,
}

impl std::fmt::Debug for ServeMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeMetrics").finish_non_exhaustive()
    }
}

fn server(s: &ServerStatus) -> Labels {
    vec![("server", s.name.clone())]
}

fn with(s: &ServerStatus, key: &'static str, value: &str) -> Labels {
    vec![("server", s.name.clone()), (key, value.to_string())]
}

impl ServeMetrics {
    /// One row per server that `f` gives a value for.
    fn rows<V>(&self, f: impl Fn(&ServerStatus) -> Option<(Labels, V)>) -> Vec<(Labels, V)> {
        self.board
            .servers
            .iter()
            .filter_map(|s| s.status.lock().ok().and_then(|g| f(&g)))
            .collect()
    }

    fn histogram(
        &self,
        enc: &mut DescriptorEncoder<'_>,
        name: &str,
        help: &str,
        of: impl Fn(&ServerStatus) -> &Histogram,
    ) -> std::fmt::Result {
        let mut m =
            enc.encode_descriptor(name, help, Some(&Unit::Seconds), MetricType::Histogram)?;
        for s in &self.board.servers {
            let Ok(g) = s.status.lock() else { continue };
            let h = of(&g);
            m.encode_family(&server(&g))?
                .encode_histogram::<NoLabelSet>(h.sum(), h.count(), &h.buckets(), None)?;
        }
        Ok(())
    }

    /// Every server's families, in the order they are listed: its state, its launches, the
    /// host's count, the alert, its tools, and what the doctor made of it.
    fn servers(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        self.state(enc)?;
        self.launches(enc)?;
        self.count(enc)?;
        self.alerts(enc)?;
        self.tools(enc)?;
        self.judged(enc)
    }

    /// Whether each server is up now, and since when.
    fn state(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let up = self.rows(|s| Some((with(s, "host", &s.host), u32::from(s.up))));
        gauges(
            enc,
            "mcpl_doctor_up",
            "Whether the server is connected now (handshake completed, not ended)",
            None,
            &up,
        )?;
        let since = self.rows(|s| Some((server(s), unix_seconds(s.state_since))));
        gauges(
            enc,
            "mcpl_doctor_state_since",
            "When the server last connected (while up) or last ended, Unix time",
            Some(&Unit::Seconds),
            &since,
        )?;
        Ok(())
    }

    /// Launches by how they were counted, the handshake and connection times.
    fn launches(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let launches: Vec<(Labels, u64)> = self
            .rows(|s| Some((server(s), s.outcomes)))
            .into_iter()
            .flat_map(|(l, counts)| {
                OUTCOMES.iter().zip(counts).map(move |(o, c)| {
                    let mut labels = l.clone();
                    labels.push(("outcome", (*o).to_string()));
                    (labels, c)
                })
            })
            .collect();
        counters(
            enc,
            "mcpl_doctor_launches",
            "Launches (or dials) ended, by how the host counted them",
            &launches,
        )?;
        self.histogram(
            enc,
            "mcpl_doctor_handshake",
            "Launch to completed handshake",
            |s| &s.handshake,
        )?;
        self.histogram(
            enc,
            "mcp_client_session_duration",
            "Connection lifetime, handshake to end (OpenTelemetry mcp.client.session.duration)",
            |s| &s.session,
        )?;
        let last = self.rows(|s| s.last_session_ms.map(|ms| (server(s), ms / 1000.0)));
        gauges(
            enc,
            "mcpl_doctor_last_session_duration",
            "The lifetime of the last connection that ended",
            Some(&Unit::Seconds),
            &last,
        )?;
        Ok(())
    }

    /// The host's count: short-lived connections in a row, the lasting threshold, the attempt
    /// number and the failures.
    fn count(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let streak = self.rows(|s| Some((server(s), s.short_lived_streak)));
        gauges(enc, "mcpl_doctor_consecutive_short_lived", "Consecutive connections that ended before the host's lasting threshold (5 min under a rule without one)", None, &streak)?;
        let threshold = self.rows(|s| {
            s.lasting_threshold_ms
                .map(|ms| (with(s, "rule", &s.rule), ms / 1000.0))
        });
        gauges(
            enc,
            "mcpl_doctor_lasting_threshold",
            "How long a connection must live to count as lasting under the host's rule",
            Some(&Unit::Seconds),
            &threshold,
        )?;
        let attempt = self.rows(|s| Some((server(s), s.attempt)));
        gauges(
            enc,
            "mcpl_doctor_attempt",
            "The host's attempt number of the latest launch (0: the first connect)",
            None,
            &attempt,
        )?;
        let failures = self.rows(|s| Some((server(s), s.failures)));
        gauges(
            enc,
            "mcpl_doctor_consecutive_failures",
            "The host's count of consecutive failed attempts",
            None,
            &failures,
        )?;
        Ok(())
    }

    /// The tools the server lists, and how often the list changed.
    fn tools(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let tools = self.rows(|s| s.tools.map(|t| (server(s), t)));
        gauges(
            enc,
            "mcpl_doctor_tools",
            "Tools the latest completed tools/list named (every page read)",
            None,
            &tools,
        )?;
        let changes = self.rows(|s| Some((server(s), s.tool_list_changes)));
        counters(
            enc,
            "mcpl_doctor_tool_list_changes",
            "Launches whose tool list differed from the previous launch's",
            &changes,
        )?;
        Ok(())
    }

    /// The likeliest cause of its ends so far, and whether the host still relaunches it.
    fn judged(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let why: Vec<Labels> = self
            .rows(|s| s.top_diagnosis.map(|id| (with(s, "id", id.as_str()), ())))
            .into_iter()
            .map(|(l, ())| l)
            .collect();
        infos(
            enc,
            "mcpl_doctor_diagnosis",
            "The most likely cause of the server's ends so far (its id in docs/diagnosis.md)",
            &why,
        )?;
        let running = self.rows(|s| Some((server(s), u32::from(s.finished.is_none()))));
        gauges(enc, "mcpl_doctor_supervising", "1 while the host would still relaunch the server; 0 once it stops (a permanent failure, a rule that gives up, a command that cannot launch)", None, &running)
    }

    fn alerts(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let down = self.rows(|s| Some((with(s, "rule", &s.rule), u32::from(s.host_down))));
        gauges(enc, "mcpl_doctor_host_down", "Whether the host would be raising mcpl-down now (raised for a failed attempt, cleared by the next handshake)", None, &down)?;
        let since = self.rows(|s| {
            s.host_down_since
                .map(|t| (with(s, "rule", &s.rule), unix_seconds(t)))
        });
        gauges(
            enc,
            "mcpl_doctor_host_down_since",
            "When the current mcpl-down episode began, Unix time",
            Some(&Unit::Seconds),
            &since,
        )?;
        let raised = self.rows(|s| Some((server(s), s.alerts)));
        counters(
            enc,
            "mcpl_doctor_down_alerts",
            "mcpl-down alerts the host would have raised",
            &raised,
        )
    }

    fn exporter(&self, enc: &mut DescriptorEncoder<'_>) -> std::fmt::Result {
        let none = Labels::new;
        infos(
            enc,
            "mcpl_doctor_exporter_build",
            "The exporter's version",
            &[vec![("version", env!("CARGO_PKG_VERSION").to_string())]],
        )?;
        gauges(
            enc,
            "mcpl_doctor_exporter_start_time",
            "When serve started, Unix time",
            Some(&Unit::Seconds),
            &[(none(), unix_seconds(self.board.started_wall))],
        )?;
        let uptime = SystemTime::now()
            .duration_since(self.board.started_wall)
            .map_or(0.0, |d| d.as_secs_f64());
        gauges(
            enc,
            "mcpl_doctor_exporter_uptime",
            "How long serve has run",
            Some(&Unit::Seconds),
            &[(none(), uptime)],
        )?;
        counters(
            enc,
            "mcpl_doctor_exporter_scrapes",
            "Requests for /metrics answered, this one included",
            &[(none(), self.exporter.scrapes)],
        )?;
        gauges(
            enc,
            "mcpl_doctor_exporter_http_connections",
            "HTTP connections open now",
            None,
            &[(none(), self.exporter.http_connections)],
        )?;
        gauges(
            enc,
            "mcpl_doctor_exporter_probes_in_flight",
            "/probe requests running now",
            None,
            &[(none(), self.exporter.probes_in_flight)],
        )?;
        if let Some(b) = self.exporter.resident_bytes {
            gauges(
                enc,
                "mcpl_doctor_exporter_resident_memory",
                "The exporter's own resident memory",
                Some(&Unit::Bytes),
                &[(none(), b)],
            )?;
        }
        gauges(
            enc,
            "mcpl_doctor_exporter_servers",
            "Entries supervised",
            None,
            &[(none(), self.board.servers.len() as u64)],
        )?;
        let skipped: Vec<(Labels, u32)> = self
            .board
            .not_supervised
            .iter()
            .map(|n| {
                (
                    vec![("server", n.name.clone()), ("reason", n.reason.to_string())],
                    1,
                )
            })
            .collect();
        gauges(
            enc,
            "mcpl_doctor_not_supervised",
            "Entries selected but not supervised: the host skips (disabled) or refuses them",
            None,
            &skipped,
        )
    }
}

impl Collector for ServeMetrics {
    fn encode(&self, mut enc: DescriptorEncoder<'_>) -> std::fmt::Result {
        self.servers(&mut enc)?;
        self.exporter(&mut enc)
    }
}
