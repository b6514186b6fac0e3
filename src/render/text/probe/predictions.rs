//! What each host rule would do over a day, and the behaviour the predictions replay.

use crate::engine::policy::timings::format_ms;
use crate::engine::probe::runner::verdict::Prediction;
use crate::engine::schedule::{Behaviour, Scenario};
use crate::render::text::layout::{fitted_table, Grid};
use crate::render::units::round_ms;
use crate::render::words::rule_cell;

pub(crate) fn per_day(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// When the rule first raises `mcpl-down`: `2 min 52 s (attempt 5)`, or `never`.
pub(crate) fn first_down(p: &Prediction) -> String {
    match (p.first_down_ms, p.first_down_attempt) {
        (Some(ms), Some(a)) => format!("{} (attempt {a})", format_ms(round_ms(ms))),
        (Some(ms), None) => format_ms(round_ms(ms)),
        _ => "never".into(),
    }
}

pub(super) fn predictions_table(preds: &[Prediction], color: bool) -> Grid {
    let header = [
        "rule",
        "launches a day",
        "first mcpl-down",
        "downs a day",
        "status pairs a day",
        "webhooks a day",
        "connected",
    ];
    let rows: Vec<Vec<String>> = preds
        .iter()
        .map(|p| {
            // A host that raises no `mcpl-down` has no alert figures (as in `simulate`).
            let na = |v: String| if p.raises_alert { v } else { "n/a".into() };
            vec![
                rule_cell(&p.rule),
                per_day(p.launches_per_day),
                na(first_down(p)),
                na(per_day(p.downs_per_day)),
                na(per_day(p.status_pairs_per_day)),
                na(per_day(p.webhooks_per_day)),
                format!("{:.1}%", p.connected_share * 100.0),
            ]
        })
        .collect();
    fitted_table(color, &header, &rows, &[1, 3, 4, 5, 6])
}

/// The replayed behaviour in a few words.
pub(crate) fn replay_text(s: &Scenario) -> String {
    let startup = if s.startup_ms > 0.0 {
        format!(
            ", {} from launch to handshake",
            format_ms(round_ms(s.startup_ms))
        )
    } else {
        String::new()
    };
    match &s.behaviour {
        Behaviour::Never => format!(
            "never connecting, each attempt failing after {}",
            format_ms(round_ms(s.fail_after_ms))
        ),
        Behaviour::Healthy => format!("staying up{startup}"),
        Behaviour::Lives(lives) => {
            let finite: Vec<f64> = lives.iter().copied().filter(|l| l.is_finite()).collect();
            let stays = lives.last().is_some_and(|l| l.is_infinite());
            let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = finite.iter().copied().fold(0.0, f64::max);
            let lived = if finite.is_empty() {
                String::new()
            } else if hi - lo < 1.0 {
                format!(
                    "{} connection{} living {}",
                    finite.len(),
                    if finite.len() == 1 { "" } else { "s" },
                    format_ms(round_ms(lo))
                )
            } else {
                format!(
                    "{} connection{} living {} to {}",
                    finite.len(),
                    if finite.len() == 1 { "" } else { "s" },
                    format_ms(round_ms(lo)),
                    format_ms(round_ms(hi))
                )
            };
            let then = if stays {
                "then one staying up"
            } else {
                "the last repeating"
            };
            format!("{lived} as observed, {then}{startup}")
        }
    }
}
