//! The server's resident memory, sampled from `/proc` while an attempt runs (Linux; elsewhere
//! nothing is sampled). The diagnosis reads it: a SIGKILL with RSS rising to the end is what
//! the kernel's OOM killer (or a cgroup limit) leaves behind.
//!
//! The hooks in a transport are two lines: [`Sampler::start`] once the process is spawned and
//! [`Sampler::finish`] once the attempt has its end (before the probe stops the process).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How often RSS is read.
pub(crate) const EVERY: Duration = Duration::from_millis(100);
/// The most samples kept: past it, every other sample is dropped (the first and the latest are
/// always kept), so a long connection costs no more than a short one.
const MAX_SAMPLES: usize = 32;
/// The most processes summed (the server and its descendants, e.g. `npx` and its `node`).
const MAX_PROCESSES: usize = 32;

/// One reading.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct RssSample {
    /// Milliseconds since the run's epoch.
    pub at_ms: f64,
    /// The resident set of the server and its descendants, KiB.
    pub rss_kib: u64,
}

/// What the sampler saw over one attempt.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub(crate) struct MemoryTrace {
    /// Readings, oldest first (thinned evenly past 32; the latest is always the last).
    pub samples: Vec<RssSample>,
    /// The largest reading.
    pub peak_kib: u64,
    /// Readings taken in all.
    pub readings: u64,
}

impl MemoryTrace {
    fn push(&mut self, s: RssSample) {
        self.readings += 1;
        self.peak_kib = self.peak_kib.max(s.rss_kib);
        if self.samples.len() >= MAX_SAMPLES {
            // Keep the first, drop every other one after it.
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i == 1 || i % 2 == 0
            });
        }
        self.samples.push(s);
    }

    /// The first reading at or after `at_ms` (the baseline for "rising").
    pub(crate) fn first_from(&self, at_ms: f64) -> Option<RssSample> {
        self.samples.iter().copied().find(|s| s.at_ms >= at_ms)
    }

    /// The latest reading.
    pub(crate) fn last(&self) -> Option<RssSample> {
        self.samples.last().copied()
    }
}

/// A background reader of one process's RSS.
pub(crate) struct Sampler {
    trace: Arc<Mutex<MemoryTrace>>,
    task: Option<JoinHandle<()>>,
}

impl Sampler {
    /// Start reading `pid`'s RSS (and its descendants') every [`EVERY`], the first reading one
    /// interval after the spawn. Times are ms since `epoch`.
    pub(crate) fn start(pid: u32, epoch: Instant) -> Sampler {
        let trace = Arc::new(Mutex::new(MemoryTrace::default()));
        let task = cfg!(target_os = "linux").then(|| {
            let trace = trace.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval_at(Instant::now() + EVERY, EVERY);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tick.tick().await;
                    let Some(rss_kib) = group_rss_kib(pid) else {
                        break;
                    };
                    let at_ms = Instant::now()
                        .saturating_duration_since(epoch)
                        .as_secs_f64()
                        * 1000.0;
                    if let Ok(mut t) = trace.lock() {
                        t.push(RssSample { at_ms, rss_kib });
                    }
                }
            })
        });
        Sampler { trace, task }
    }

    /// Stop reading and hand over what was read.
    pub(crate) fn finish(mut self) -> MemoryTrace {
        if let Some(t) = self.task.take() {
            t.abort();
        }
        self.trace.lock().map(|t| t.clone()).unwrap_or_default()
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

/// Resident KiB of `pid` (`VmRSS` in `/proc/PID/status`); `None` once it is gone or a zombie
/// (which has no `VmRSS` line).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `pid`'s children (`/proc/PID/task/PID/children`: those its main thread forked).
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .map(|s| {
            s.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// RSS of `pid` and its descendants, KiB; `None` once `pid` itself is gone.
fn group_rss_kib(pid: u32) -> Option<u64> {
    let mut total = rss_kib(pid)?;
    let mut queue = children(pid);
    let mut seen = 1;
    while let Some(p) = queue.pop() {
        if seen >= MAX_PROCESSES {
            break;
        }
        seen += 1;
        total += rss_kib(p).unwrap_or(0);
        queue.extend(children(p));
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_trace_stays_small_and_keeps_its_ends() {
        let mut t = MemoryTrace::default();
        for i in 0..1000u64 {
            t.push(RssSample {
                at_ms: i as f64 * 100.0,
                rss_kib: 1000 + i,
            });
        }
        assert!(t.samples.len() <= MAX_SAMPLES, "{}", t.samples.len());
        assert_eq!(t.samples[0].rss_kib, 1000);
        assert_eq!(t.last().map(|s| s.rss_kib), Some(1999));
        assert_eq!(t.peak_kib, 1999);
        assert_eq!(t.readings, 1000);
        // Still in time order.
        assert!(t.samples.windows(2).all(|w| w[0].at_ms < w[1].at_ms));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn reads_a_real_process() {
        let own = rss_kib(std::process::id()).expect("our own RSS");
        assert!(own > 100, "{own}");
        let s = Sampler::start(std::process::id(), Instant::now());
        tokio::time::sleep(EVERY * 3).await;
        let t = s.finish();
        assert!(t.readings >= 1, "{t:?}");
        assert!(t.peak_kib > 100);
    }
}
