//! The simulator: a policy plus what each connection did gives a timeline of rows and a summary.
//!
//! It drives the same [`Tracker`] the live probe uses. The summary is accumulated as the
//! simulation runs, so a year of a server dying every second costs time in proportion to its
//! attempts and no memory beyond the few rows asked for.

mod fast_forward;
mod model;
mod notices;
mod run;
mod scenario;
mod strip;

pub use model::{
    Happened, Request, Row, Simulation, StatusLine, Summary, Then, DAY_MS, STATUS_AFTER_MS,
    WEBHOOK_PERIOD_MS,
};
pub use notices::Notices;
pub use run::{simulate, simulate_driven, simulate_stepping, Drive};
pub use scenario::{Behaviour, Scenario, DEFAULT_SETTLE_MS};
pub use strip::Strip;

#[cfg(test)]
mod tests;
