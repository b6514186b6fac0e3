//! The reconnect rules as data: backoff, jitter, the timer clamp, when the failure count starts
//! afresh, when `mcpl-down` fires, when a supervisor gives up, and the host's wording.
//!
//! `simulate` feeds a [`Tracker`] a scripted server; `probe` feeds it what a real server did.
//! Both get their attempt numbers, waits, verdicts and alert texts from here and nowhere else.

pub(crate) mod jsnum;
pub(crate) mod presets;
mod rule;
pub(crate) mod timings;
mod tracker;

pub use presets::Preset;
#[cfg(test)]
pub(crate) use presets::PRESET_NAMES;
pub use rule::EngineKind;
#[cfg(test)]
pub(crate) use rule::Envelope;
pub(crate) use rule::{
    js_min, AlertRule, Policy, Relaunch, Reset, TimingField, TimingRefusal, BOUNDED_CEILING_MS,
};
pub use timings::Timings;
pub(crate) use timings::{DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS, TIMER_LIMIT_MS};
pub(crate) use tracker::{
    signal_name, Counted, Decision, Ended, Failure, Glide, Next, Outcome, Tracker, Wait,
};

#[cfg(test)]
mod tests;
