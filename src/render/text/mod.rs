//! What a person reads on a terminal: fitted tables and prose ([`layout`]), the probe report and
//! its live progress line ([`probe`], [`probe_all`]), `check-config`'s diagnostics
//! ([`check_config`]), `simulate`'s tables ([`simulate`]), timeline strips ([`strip`]) and the
//! "why" under a verdict ([`why`]).

pub(crate) mod check_config;
pub(crate) mod layout;
pub(crate) mod probe;
pub(crate) mod probe_all;
pub(crate) mod simulate;
pub(crate) mod strip;
pub(crate) mod why;
