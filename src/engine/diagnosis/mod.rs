//! Why a server died, and what to do next: the likely causes of a run's ends, each with a
//! stable id, how sure it is, the evidence (quoted lines with launch numbers, redacted by the
//! engine; renderers sanitise) and one next step.
//!
//! The patterns are data ([`table::RULES`]); this module only looks for each kind of evidence
//! and groups what it finds. A cause is never given without evidence: when nothing fits, the
//! diagnosis is `cause-unknown` with what was seen.

pub mod evidence;
pub mod experiment;
pub mod ids;
pub mod launch;
pub mod manifest;
pub mod meaning;
pub mod model;
mod modes;
mod node_rows;
pub mod process;
pub mod remote;
mod remote_tls;
pub mod run;
pub mod runtime;
pub mod spawn;
pub mod structured;
pub mod table;
#[cfg(test)]
mod tests;
pub mod text;
pub mod words;
mod wrapper_rows;

pub use model::{Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
pub use run::diagnose;
pub use spawn::of_launch_error;
pub use table::{Confidence, Id, Rule, When, RULES};
