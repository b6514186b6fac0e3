//! The documents for machines: `check-config --format json` ([`check_config`]), `simulate
//! --json` ([`simulate`]), `probe --format json` for one server ([`probe`]) or every server
//! ([`probe_all`]), `probe --format events` lines ([`events`]), and the JSON Schemas of them all
//! ([`schema`]). Times are [`ms::Ms`]; [`write`] writes a document.
//!
//! Every document has a `schema_version`; text a server or a file controls keeps its characters
//! but bidi and zero-width ones are escaped (`\uXXXX`), so even a document printed on a terminal
//! cannot reorder what it shows.

pub(crate) mod check_config;
pub(crate) mod events;
pub(crate) mod ms;
pub(crate) mod probe;
pub(crate) mod probe_all;
pub(crate) mod schema;
pub(crate) mod simulate;
pub(crate) mod write;
