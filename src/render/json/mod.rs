//! The documents for machines: `check-config --format json` ([`check_config`]), `simulate
//! --json` ([`simulate`]), and the JSON Schemas of those and of the probe's documents
//! ([`schema`]).
//!
//! Every document has a `schema_version`; text a server or a file controls keeps its characters
//! but bidi and zero-width ones are escaped (`\uXXXX`), so even a document printed on a terminal
//! cannot reorder what it shows.

pub mod check_config;
pub mod schema;
pub mod simulate;
