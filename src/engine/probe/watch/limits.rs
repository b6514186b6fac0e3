//! The resource limits a launched server runs under, read from `/proc/PID/limits` (Linux;
//! elsewhere nothing is read). An address-space limit (`ulimit -v`) makes a runtime fail to map
//! its code or libraries, which reads like a crash or an out-of-memory; the diagnosis names the
//! limit instead, and the report shows the limits that are not the usual ones.
//!
//! The limits are read at the spawn, every 5 ms for the first 100 ms (a wrapper's `ulimit -v N;
//! exec node ...` sets them a moment after the spawn, and the server may die within
//! milliseconds), then every second; the last reading is kept. Each reading also looks at what
//! its stdin is: `/dev/null` or a file there means a wrapper replaced the host's pipe.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Which limit.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LimitKind {
    /// `RLIMIT_AS`, bytes (`ulimit -v`, in KiB).
    AddressSpace,
    /// `RLIMIT_NOFILE`, files (`ulimit -n`).
    OpenFiles,
    /// `RLIMIT_NPROC`, processes of the user (`ulimit -u`).
    Processes,
    /// `RLIMIT_CPU`, seconds (`ulimit -t`).
    CpuTime,
}

impl LimitKind {
    /// Its row in `/proc/PID/limits`.
    fn row(self) -> &'static str {
        match self {
            LimitKind::AddressSpace => "Max address space",
            LimitKind::OpenFiles => "Max open files",
            LimitKind::Processes => "Max processes",
            LimitKind::CpuTime => "Max cpu time",
        }
    }

    /// In words: `address space`, `open files`.
    pub(crate) fn words(self) -> &'static str {
        match self {
            LimitKind::AddressSpace => "address space",
            LimitKind::OpenFiles => "open files",
            LimitKind::Processes => "processes",
            LimitKind::CpuTime => "CPU time",
        }
    }

    /// The `ulimit` flag that sets it.
    pub(crate) fn ulimit_flag(self) -> &'static str {
        match self {
            LimitKind::AddressSpace => "-v",
            LimitKind::OpenFiles => "-n",
            LimitKind::Processes => "-u",
            LimitKind::CpuTime => "-t",
        }
    }

    const ALL: [LimitKind; 4] = [
        LimitKind::AddressSpace,
        LimitKind::OpenFiles,
        LimitKind::Processes,
        LimitKind::CpuTime,
    ];
}

/// One limit: its soft (enforced) and hard (ceiling) values; `None` is unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct Limit {
    pub limit: LimitKind,
    /// Bytes (address space), seconds (CPU time), or a count.
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

impl Limit {
    /// `address space 293 MiB (ulimit -v 300000)`, `open files 64 (ulimit -n 64)`.
    pub(crate) fn describe(&self) -> String {
        let flag = self.limit.ulimit_flag();
        match (self.limit, self.soft) {
            (_, None) => format!("{} unlimited", self.limit.words()),
            (LimitKind::AddressSpace, Some(b)) => {
                format!("address space {} (ulimit -v {})", mib(b), b / 1024)
            }
            (LimitKind::CpuTime, Some(s)) => format!("CPU time {s} s (ulimit -t {s})"),
            (k, Some(n)) => format!("{} {n} (ulimit {flag} {n})", k.words()),
        }
    }
}

fn mib(bytes: u64) -> String {
    let m = bytes as f64 / 1048576.0;
    if m >= 1024.0 {
        format!("{:.1} GiB", m / 1024.0)
    } else {
        format!("{m:.0} MiB")
    }
}

/// The four limits in `text` (the contents of `/proc/PID/limits`).
pub(crate) fn parse(text: &str) -> Vec<Limit> {
    let value = |s: &str| -> Option<Option<u64>> {
        if s == "unlimited" {
            Some(None)
        } else {
            s.parse().ok().map(Some)
        }
    };
    LimitKind::ALL
        .iter()
        .filter_map(|&k| {
            let rest = text
                .lines()
                .find_map(|l| l.strip_prefix(k.row()))?
                .split_whitespace()
                .collect::<Vec<_>>();
            Some(Limit {
                limit: k,
                soft: value(rest.first()?)?,
                hard: value(rest.get(1)?)?,
            })
        })
        .collect()
}

/// `pid`'s limits; `None` when they cannot be read (gone, not Linux).
pub(crate) fn read(pid: u32) -> Option<Vec<Limit>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let l = parse(&text);
    (!l.is_empty()).then_some(l)
}

/// The open-files and processes limits under which a server is said to run short.
const FEW: u64 = 1024;

/// The limits of `got` worth showing: a finite address space or CPU time (unlimited is
/// everyone's default), and open files or processes under 1024 or under the probe's own
/// (`own`).
pub(crate) fn notable(got: &[Limit], own: &[Limit]) -> Vec<Limit> {
    got.iter()
        .filter(|l| {
            let Some(soft) = l.soft else {
                return false;
            };
            match l.limit {
                LimitKind::AddressSpace | LimitKind::CpuTime => true,
                k => {
                    let own_soft = own.iter().find(|o| o.limit == k).and_then(|o| o.soft);
                    soft < FEW || own_soft.is_none_or(|o| soft < o)
                }
            }
        })
        .copied()
        .collect()
}

/// What `pid`'s stdin is when it is not a pipe or a socket (`/dev/null`, a file): a wrapper
/// replaced the one the host gave it (`exec server < /dev/null`).
pub(crate) fn stdin_of(pid: u32) -> Option<String> {
    let target = std::fs::read_link(format!("/proc/{pid}/fd/0")).ok()?;
    let t = target.display().to_string();
    (!t.starts_with("pipe:") && !t.starts_with("socket:")).then_some(t)
}

/// A background reader of one process's limits (and of what its stdin is).
pub(crate) struct Watcher {
    last: Arc<Mutex<Option<Vec<Limit>>>>,
    stdin: Arc<Mutex<Option<String>>>,
    task: Option<JoinHandle<()>>,
}

/// How often the limits are read in the first 100 ms, and after.
const EARLY: Duration = Duration::from_millis(5);
const EARLY_FOR: Duration = Duration::from_millis(100);
const LATER: Duration = Duration::from_secs(1);

impl Watcher {
    /// Read `pid`'s limits now and while it runs.
    pub(crate) fn start(pid: u32) -> Watcher {
        let last = Arc::new(Mutex::new(read(pid)));
        let stdin = Arc::new(Mutex::new(stdin_of(pid)));
        let task = cfg!(target_os = "linux").then(|| {
            let last = last.clone();
            let stdin = stdin.clone();
            tokio::spawn(async move {
                let start = Instant::now();
                loop {
                    let every = if start.elapsed() < EARLY_FOR {
                        EARLY
                    } else {
                        LATER
                    };
                    tokio::time::sleep(every).await;
                    let Some(l) = read(pid) else {
                        break;
                    };
                    if let Ok(mut last) = last.lock() {
                        *last = Some(l);
                    }
                    if let Some(s) = stdin_of(pid) {
                        if let Ok(mut stdin) = stdin.lock() {
                            *stdin = Some(s);
                        }
                    }
                }
            })
        });
        Watcher { last, stdin, task }
    }

    /// What its stdin was, when a reading saw it was not the pipe it was given.
    pub(crate) fn stdin(&self) -> Option<String> {
        self.stdin.lock().ok().and_then(|s| s.clone())
    }

    /// Stop reading; the notable limits of the last reading (empty when none was read).
    pub(crate) fn finish(mut self) -> Vec<Limit> {
        if let Some(t) = self.task.take() {
            t.abort();
        }
        let got = self.last.lock().ok().and_then(|l| l.clone());
        let own = read(std::process::id()).unwrap_or_default();
        got.map(|g| notable(&g, &own)).unwrap_or_default()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
Limit                     Soft Limit           Hard Limit           Units
Max cpu time              2                    unlimited            seconds
Max processes             96365                96365                processes
Max open files            64                   20000                files
Max address space         307200000            unlimited            bytes
";

    #[test]
    fn parses_the_four_limits_and_keeps_the_unusual_ones() {
        let got = parse(SAMPLE);
        assert_eq!(got.len(), 4);
        let own = parse(
            "Max processes 96365 96365 processes\nMax open files 20000 20000 files\n\
             Max cpu time unlimited unlimited seconds\nMax address space unlimited unlimited bytes",
        );
        let n = notable(&got, &own);
        let kinds: Vec<LimitKind> = n.iter().map(|l| l.limit).collect();
        assert_eq!(
            kinds,
            [
                LimitKind::AddressSpace,
                LimitKind::OpenFiles,
                LimitKind::CpuTime
            ]
        );
        assert_eq!(n[0].describe(), "address space 293 MiB (ulimit -v 300000)");
        assert_eq!(n[1].describe(), "open files 64 (ulimit -n 64)");
        assert_eq!(n[2].describe(), "CPU time 2 s (ulimit -t 2)");
        // Nothing unusual about the probe's own.
        assert!(notable(&own, &own).is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn reads_its_own() {
        let own = read(std::process::id()).expect("our own limits");
        assert_eq!(own.len(), 4);
    }
}
