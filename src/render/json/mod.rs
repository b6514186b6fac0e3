//! The documents for machines: `check-config --format json` ([`check_config`]), `simulate
//! --json` ([`simulate`]), `probe --format json` for one server ([`probe`]) or every server
//! ([`probe_all`]), `probe --format events` lines ([`events`]), and the JSON Schemas of them all
//! ([`schema`]). Times are [`ms::Ms`]; [`write`] writes a document.
//!
//! Every document has a `schema_version`; text a server or a file controls keeps its characters
//! but bidi and zero-width ones are escaped (`\uXXXX`), so even a document printed on a terminal
//! cannot reorder what it shows.

pub mod check_config;
pub mod events;
pub mod ms;
pub mod probe;
pub mod probe_all;
pub mod schema;
pub mod simulate;
pub mod write;
