//! Probing a configuration: every selected entry of a host configuration planned (probe,
//! skip, refuse) and probed at once, as the host would start them.
//!
//! - [`plan`]: what an entry resolves to before anything runs (target, timings, secrets), or
//!   why the host does not start it; which entries a selection picks;
//! - [`one`]: the one entry `--server ID` names, planned, or why it cannot be probed;
//! - [`server`]: one server's setup ([`prepare`]: its rule, timings, budgets, seed) and its
//!   judging (the verdict, the Why, what stopped it), the same alone and among many;
//! - [`runner`]: every planned entry probed at once (one server alone is a fleet of one),
//!   reported as [`FleetEvent`]s, then judged;
//! - [`report`]: what the run produces ([`ServerReport`] per entry, [`counts`], and how the
//!   run comes out for its exit status, [`ending`]).

pub(crate) mod one;
pub(crate) mod plan;
pub(crate) mod report;
pub(crate) mod runner;
pub(crate) mod server;

pub(crate) use one::plan_one;
pub(crate) use plan::{
    duration, select, EntryPlan, EntryRef, Item, PlanError, PlanOptions, Resolved, Selection,
    TimingRefusal,
};
#[cfg(test)]
pub(crate) use plan::{find_entry, plan_entry};
pub(crate) use report::{
    counts, ending, AllContext, Counts, Ending, Probed, Refusal, ServerReport, ServerResult,
};
pub(crate) use runner::{run, FleetEvent, Sink};
pub(crate) use server::{prepare, FleetOptions, HostBudgets, Prepared};

#[cfg(test)]
mod tests;
