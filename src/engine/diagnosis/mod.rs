//! Why a server died, and what to do next: the likely causes of a run's ends, each with a
//! stable id, how sure it is, the evidence (quoted lines with launch numbers, redacted by the
//! engine; renderers sanitise) and one next step.
//!
//! The patterns are data ([`table::RULES`]); this module only looks for each kind of evidence
//! and groups what it finds. A cause is never given without evidence: when nothing fits, the
//! diagnosis is `cause-unknown` with what was seen.

mod absent_rows;
mod addresses;
mod allow_rows;
mod answer_rows;
mod asked_rows;
mod block_rows;
mod bound_rows;
mod boxes;
mod call_child;
mod call_record;
mod call_rows;
mod call_unset;
mod child_rows;
mod cli_parsers;
mod concepts;
mod connect;
mod drift_rows;
mod entry_rows;
mod env_rows;
pub(crate) mod evidence;
pub(crate) mod experiment;
mod field_rows;
mod file_patterns;
mod file_rows;
mod flag_needs;
mod folder_rows;
mod frame_rows;
mod git_rows;
mod given;
mod help_rows;
mod host_pairs;
pub(crate) mod ids;
mod import_rows;
mod inspect;
pub(crate) mod launch;
mod listed;
mod listening;
mod logline;
pub(crate) mod manifest;
pub(crate) mod meaning;
mod meant_rows;
pub(crate) mod model;
mod modes;
mod module_rows;
mod no_main;
mod node_rows;
mod opened_rows;
mod parse_rows;
mod port_defaults;
pub(crate) mod process;
mod query_rows;
mod raising;
mod relative_rows;
pub(crate) mod relaunch;
mod relaunch_rows;
pub(crate) mod remote;
mod remote_tls;
mod resolver_rows;
mod rich_boxes;
pub(crate) mod run;
pub(crate) mod runtime;
mod runtime_rows;
mod schema_issues;
mod scheme_rows;
mod settings_rows;
pub(crate) mod source_scan;
pub(crate) mod spawn;
mod stdout_words;
pub(crate) mod structured;
pub(crate) mod table;
#[cfg(test)]
mod tests;
pub(crate) mod text;
mod tied_rows;
mod typed_rows;
mod unset_rows;
mod url_rows;
mod usage_rows;
mod value_rows;
pub(crate) mod words;
mod wrapper_rows;

pub(crate) use allow_rows::call_words;
pub(crate) use call_rows::prove_answers;
#[cfg(test)]
pub(crate) use model::Source;
pub(crate) use model::{Diagnosis, Setting};
pub(crate) use run::diagnose;
pub(crate) use spawn::of_launch_error;
pub(crate) use table::Id;
#[cfg(test)]
pub(crate) use table::{Confidence, RULES};
