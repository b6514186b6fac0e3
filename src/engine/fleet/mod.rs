//! Probing a configuration: every selected entry of a host configuration planned (probe,
//! skip, refuse) and probed at once, as the host would start them.
//!
//! - [`plan`]: what an entry resolves to before anything runs (target, timings, secrets), or
//!   why the host does not start it; which entries a selection picks;
//! - [`one`]: the one entry `--server ID` names, planned, or why it cannot be probed;
//! - [`runner`]: every planned entry probed at once, reported as [`FleetEvent`]s, then judged;
//! - [`report`]: what the run produces ([`ServerReport`] per entry, [`counts`]).

pub mod one;
pub mod plan;
pub mod report;
pub mod runner;

pub use one::plan_one;
pub use plan::{
    duration, entry_at, find_entry, load_config, plan_entry, qualified_id, select, EntryPlan,
    EntryRef, Item, PlanError, PlanOptions, Resolved, Selection, TimingRefusal,
};
pub use report::{counts, AllContext, Counts, Probed, Refusal, ServerReport, ServerResult};
pub use runner::{prepare, run, FleetEvent, FleetOptions, HostBudgets, Prepared, Runs, Sink};

#[cfg(test)]
mod tests;
