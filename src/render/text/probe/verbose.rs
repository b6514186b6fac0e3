//! `probe --verbose`: one line on stderr for each thing that happens (a launch, its handshake,
//! its end, the host's alert, the wait), whether or not stderr is a terminal: the `--format
//! events` stream, for a person.

use crate::engine::policy::timings::format_ms;
use crate::engine::policy::Relaunch;
use crate::engine::probe::runner::Finish;
use crate::engine::probe::Event;
use crate::render::sanitize::sanitize;
use crate::render::units::round_ms;

use super::table::{ended_cell, since_start};

/// The line for `event`, if it is one a person follows.
pub(crate) fn line(event: &Event, relaunch: Relaunch) -> Option<String> {
    Some(match event {
        Event::Launched {
            launch,
            attempt,
            at_ms,
            pid,
        } => {
            let how = pid.map_or("dialled".to_string(), |p| format!("started, pid {p}"));
            format!(
                "launch {launch} (attempt {attempt}) at {}: {how}",
                since_start(*at_ms)
            )
        }
        Event::Connected {
            launch,
            handshake_ms,
            ..
        } => format!(
            "launch {launch}: handshake completed in {}",
            format_ms(round_ms(*handshake_ms))
        ),
        Event::Ended(l) => {
            let lived = l
                .report
                .connected_ms()
                .map(|ms| format!(" after {} connected", format_ms(round_ms(ms))))
                .unwrap_or_default();
            format!(
                "launch {}: {}{lived}; counted as {}",
                l.number,
                ended_cell(l, Finish::StillUp, "the stop"),
                l.decision
                    .map_or("-", |d| crate::render::words::counted(d.counted, relaunch))
            )
        }
        Event::Alert { launch, text, .. } => {
            format!("launch {launch}: mcpl-down: \"{}\"", sanitize(text))
        }
        Event::Waiting {
            next_attempt, wait, ..
        } => format!(
            "the host waits {} before attempt {next_attempt}",
            format_ms(wait.ms.round())
        ),
        _ => return None,
    })
}
