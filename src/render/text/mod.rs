//! What a person reads on a terminal: fitted tables and prose ([`layout`]), the probe report and
//! its live progress line ([`probe`], [`probe_all`]), `check-config`'s diagnostics
//! ([`check_config`]), `simulate`'s tables ([`simulate`]), timeline strips ([`strip`]) and the
//! "why" under a verdict ([`why`]).

pub mod check_config;
pub mod layout;
pub mod probe;
pub mod probe_all;
pub mod simulate;
pub mod strip;
pub mod why;
