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

pub use model::Request;
pub use model::Simulation;
pub use model::DAY_MS;
pub(crate) use model::{Happened, Row, StatusLine, Summary, Then};
pub(crate) use notices::Notices;
pub use run::simulate;
pub use run::simulate_stepping;
pub(crate) use run::{simulate_driven, Drive};
pub(crate) use scenario::{Behaviour, Scenario, DEFAULT_SETTLE_MS};
pub(crate) use strip::Strip;

#[cfg(test)]
mod tests;
