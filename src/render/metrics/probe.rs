//! One `/probe?server=ID`, blackbox-exporter style: `probe_success` and `probe_duration_seconds`
//! as Prometheus's blackbox exporter names them, and what the one launch showed.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::registry::Unit;

use crate::engine::diagnosis::Id;
use crate::engine::policy::Outcome;
use crate::engine::probe::ProbeRun;

use super::{gauges, infos, Labels};

/// What one bounded probe found.
#[derive(Debug, Clone)]
pub(crate) struct ProbeResult {
    pub server: String,
    /// The run, or why it could not launch at all.
    pub run: Result<ProbeRun, String>,
    pub diagnosis: Option<Id>,
    pub duration_s: f64,
}

impl ProbeResult {
    /// Connected, and still up when the probe's watch ended.
    pub(crate) fn success(&self) -> bool {
        self.run.as_ref().is_ok_and(|r| {
            r.launches
                .first()
                .is_some_and(|l| matches!(l.report.outcome, Some(Outcome::StillUp { .. })))
        })
    }

    /// How the launch went, in the words of `mcpl_doctor_launches_total`'s `outcome`.
    pub(crate) fn outcome(&self) -> &'static str {
        let Ok(run) = &self.run else {
            return "cannot_launch";
        };
        match run.launches.first().and_then(|l| l.report.outcome.as_ref()) {
            Some(Outcome::StillUp { .. }) => "still_up",
            Some(Outcome::Connected { .. }) => "closed",
            Some(Outcome::FailedToConnect(_)) => "failed",
            Some(Outcome::Permanent(_)) => "permanent",
            None => "cut",
        }
    }
}

impl Collector for ProbeResult {
    fn encode(&self, mut enc: DescriptorEncoder<'_>) -> std::fmt::Result {
        let none = Labels::new;
        let one = |v: f64| [(none(), v)];
        gauges(&mut enc, "probe_success", "Whether the server completed its handshake and was still up when the probe's watch ended", None, &one(f64::from(u8::from(self.success()))))?;
        gauges(
            &mut enc,
            "probe_duration",
            "How long the probe took",
            Some(&Unit::Seconds),
            &one(self.duration_s),
        )?;
        infos(
            &mut enc,
            "mcpl_doctor_probe_outcome",
            "How the probe's launch went",
            &[vec![
                ("server", self.server.clone()),
                ("outcome", self.outcome().to_string()),
            ]],
        )?;
        let first = self.run.as_ref().ok().and_then(|r| r.launches.first());
        if let Some(h) = first.and_then(|l| l.report.handshake_ms()) {
            gauges(
                &mut enc,
                "mcpl_doctor_probe_handshake",
                "Launch to completed handshake",
                Some(&Unit::Seconds),
                &one(h / 1000.0),
            )?;
        }
        if let Some(c) = first.and_then(|l| l.report.connected_ms()) {
            gauges(
                &mut enc,
                "mcpl_doctor_probe_connected",
                "Time connected during the probe",
                Some(&Unit::Seconds),
                &one(c / 1000.0),
            )?;
        }
        if let Some(t) = first
            .and_then(|l| l.report.opening.as_ref())
            .and_then(|o| o.tool_count)
        {
            gauges(
                &mut enc,
                "mcpl_doctor_probe_tools",
                "Tools the probe's tools/list named",
                None,
                &one(f64::from(t)),
            )?;
        }
        if let Some(id) = self.diagnosis {
            infos(
                &mut enc,
                "mcpl_doctor_probe_diagnosis",
                "The most likely cause of what the probe saw",
                &[vec![
                    ("server", self.server.clone()),
                    ("id", id.as_str().to_string()),
                ]],
            )?;
        }
        Ok(())
    }
}
