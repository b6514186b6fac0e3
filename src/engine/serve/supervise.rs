//! Every selected entry supervised continuously, as its host would run it: one run of the
//! probe's loop ([`probe::run`]) per server for the whole life of `serve`, launched with what
//! `probe --all` launches it with ([`fleet::prepare`]), with no launch limit, no deadline and
//! a watch that never ends a connection. Each run's events are folded into its
//! [`ServerStatus`] on the shared [`Board`]; nothing here prints or listens.
//!
//! Memory stays bounded: the loop itself keeps its first and last launches and folds the rest,
//! and a status keeps counters, histograms and a ring of [`super::status::RING`] launches.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::engine::diagnosis::Setting;
use crate::engine::fleet::{self, EntryPlan, FleetOptions, Item, Prepared, Resolved};
use crate::engine::probe::{self, Event, Finish, LaunchError, ProbeRun, RunOptions, Target};

use super::status::ServerStatus;

/// How long a supervised connection may stay up before observation would end it: never, in
/// practice (30 years).
pub(crate) const WATCH_FOREVER: Duration = Duration::from_secs(30 * 365 * 86_400);

/// An entry `serve` does not supervise, and why (the host skips it, or refuses it).
#[derive(Debug, Clone)]
pub(crate) struct NotSupervised {
    pub name: String,
    /// `skipped` or `refused`.
    pub reason: &'static str,
}

/// One supervised server: its template (what each run and each one-off probe starts from)
/// and its status.
pub(crate) struct Supervised {
    pub name: String,
    pub template: Template,
    pub status: Mutex<ServerStatus>,
}

/// What a server is launched with: the target, its loop's options, how it starts (for the
/// Why).
#[derive(Clone)]
pub(crate) struct Template {
    pub target: Target,
    pub run: RunOptions,
    pub setting: Setting,
}

/// Everything `serve` knows, shared between the runs (which write) and the exporter (which
/// reads).
pub(crate) struct Board {
    pub started_wall: SystemTime,
    pub servers: Vec<Supervised>,
    pub not_supervised: Vec<NotSupervised>,
}

impl Board {
    /// The server named `name`, if it is supervised.
    pub(crate) fn find(&self, name: &str) -> Option<&Supervised> {
        self.servers.iter().find(|s| s.name == name)
    }

    /// A copy of every server's status (each lock held only while it is copied).
    pub(crate) fn statuses(&self) -> Vec<ServerStatus> {
        self.servers
            .iter()
            .filter_map(|s| s.status.lock().ok().map(|g| g.clone()))
            .collect()
    }
}

/// One server to supervise, from the command line (`serve -- CMD`, `serve --url`) or an entry.
pub(crate) struct Entry {
    pub name: String,
    pub host: String,
    pub position: u64,
    pub resolved: Resolved,
}

/// The board for `items` (the entries of a configuration) and `singles` (a server from the
/// command line), every supervised one launched with `opts` made continuous.
pub(crate) fn board(items: Vec<Item>, singles: Vec<Entry>, opts: &FleetOptions) -> Board {
    let mut servers = Vec::new();
    let mut not_supervised = Vec::new();
    let mut entries = singles;
    for item in items {
        match item.plan {
            EntryPlan::Probe(resolved) => entries.push(Entry {
                host: resolved
                    .entry
                    .as_ref()
                    .map_or_else(|| "agent-framework".to_string(), |e| e.host.clone()),
                name: item.name,
                position: item.position,
                resolved: *resolved,
            }),
            EntryPlan::Skipped(_) => not_supervised.push(NotSupervised {
                name: item.name,
                reason: "skipped",
            }),
            EntryPlan::Refused(..) => not_supervised.push(NotSupervised {
                name: item.name,
                reason: "refused",
            }),
        }
    }
    let mut continuous = opts.clone();
    continuous.launches = None;
    continuous.run_for = None;
    continuous.until_down = false;
    continuous.attempt.watch = WATCH_FOREVER;
    for e in entries {
        let Prepared {
            target,
            run,
            mut setting,
            ..
        } = fleet::prepare(&e.resolved, &continuous, e.position);
        setting.entry = e.resolved.entry.is_some();
        let status = ServerStatus::new(&e.name, &e.host, &run.policy, run.seed, (*setting).clone());
        servers.push(Supervised {
            name: e.name,
            template: Template {
                target,
                run,
                setting: *setting,
            },
            status: Mutex::new(status),
        });
    }
    Board {
        started_wall: SystemTime::now(),
        servers,
        not_supervised,
    }
}

/// Run every server of `board` until the stop signal its templates share is raised; each
/// run's events go to its status. Returns once every run is over (every process stopped).
pub(crate) async fn supervise(board: Arc<Board>) {
    let mut tasks = Vec::new();
    for index in 0..board.servers.len() {
        let board = board.clone();
        tasks.push(tokio::spawn(async move {
            let Some(s) = board.servers.get(index) else {
                return;
            };
            let mut target = s.template.target.clone();
            let mut sink = |e: &Event| {
                if let Ok(mut st) = s.status.lock() {
                    st.on_event(e);
                }
            };
            let ran = probe::run(&mut target, s.template.run.clone(), &mut sink).await;
            if let (Err(e), Ok(mut st)) = (ran, s.status.lock()) {
                st.cannot_launch = Some(e.to_string());
                st.finished = Some(Finish::Halted);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// One bounded probe of a supervised server (`/probe?server=ID`): one launch, its connection
/// watched for `watch` after the handshake, the whole over by `budget`. The server's own
/// supervision is untouched.
pub(crate) async fn probe_once(
    s: &Supervised,
    watch: Duration,
    budget: Duration,
) -> Result<ProbeRun, LaunchError> {
    let mut run = s.template.run.clone();
    run.launches = Some(1);
    run.run_for = Some(budget);
    run.attempt.watch = watch;
    let mut target = s.template.target.clone();
    probe::run(&mut target, run, &mut |_: &Event| {}).await
}
