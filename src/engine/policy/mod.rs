//! The reconnect rules as data: backoff, jitter, the timer clamp, when the failure count starts
//! afresh, when `mcpl-down` fires, when a supervisor gives up, and the host's wording.
//!
//! `simulate` feeds a [`Tracker`] a scripted server; `probe` feeds it what a real server did.
//! Both get their attempt numbers, waits, verdicts and alert texts from here and nowhere else.

pub mod jsnum;
pub mod presets;
mod rule;
pub mod timings;
mod tracker;

pub use presets::{Preset, PRESET_NAMES};
pub use rule::{
    js_max, js_min, AlertRule, AlertText, EngineKind, Envelope, GiveUp, Growth, Jitter, Policy,
    Relaunch, Release, Reset, TimerRule, TimingField, TimingRefusal, BOUNDED_CEILING_MS,
    DOWN_FROM_ATTEMPT, LASTING_FLOOR_MS,
};
pub use timings::{Timings, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS, TIMER_LIMIT_MS};
pub use tracker::{
    signal_name, Counted, Decision, Ended, Failure, Glide, Next, Outcome, Tracker, Wait,
};

#[cfg(test)]
mod tests;
