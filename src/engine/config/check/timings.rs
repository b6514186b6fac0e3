//! The two reconnect timings: refused values, odd types, the timer limit, a cap below the
//! interval, a lasting threshold above an hour; or timings set where they are never used.

use crate::engine::policy::timings::{format_ms, is_refused_timing, read_timing};
use crate::engine::policy::{
    js_min, EngineKind, Preset, Timings, BOUNDED_CEILING_MS, DEFAULT_CAP_MS, DEFAULT_INTERVAL_MS,
    TIMER_LIMIT_MS,
};

use super::super::draft::{describe, Draft};
use super::super::finding::Code;
use super::super::json::{Doc, Kind};
use super::super::subst::has_env_ref;
use super::super::values::{js_of, Js};
use super::super::walk::RawEntry;
use super::ctx::{refuses_bad_timings, Ctx, CAP, INTERVAL};

/// One timing field as found.
struct Timing<'t> {
    name: &'static str,
    id: u32,
    js: Js<'t>,
    ms: f64,
    is_number: bool,
    env_ref: bool,
}

/// How a timing value reads, without echoing what is not a number.
fn reads_as(t: &Timing<'_>, doc: &Doc<'_>) -> String {
    let what = describe(doc, t.id);
    if t.is_number {
        let v = t.ms;
        if v.is_infinite() {
            format!("{what}, which reads as Infinity")
        } else if what == "0" || v != 0.0 {
            what
        } else {
            format!("{what}, which reads as 0")
        }
    } else if t.ms.is_nan() {
        format!("{what}, which Number() reads as NaN")
    } else if t.ms == 0.0 {
        format!("{what}, which reads as 0")
    } else if t.ms < 0.0 {
        format!("{what}, which reads as a number below 0")
    } else {
        what
    }
}

pub(super) fn check_timings(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    used: Option<&'static str>,
    family: Option<EngineKind>,
    reconnect_off_why: &str,
    out: &mut Vec<Draft>,
) {
    let doc = ctx.doc;
    let read = |name: &'static str, default: f64| -> Option<Timing<'_>> {
        let id = e.get_set(doc, name)?;
        let js = js_of(doc, id, e, ctx.scope);
        let ms = read_timing(Some(&js.value()), default);
        Some(Timing {
            name,
            id,
            ms,
            is_number: doc.kind(id) == Kind::Number,
            env_ref: doc.string(id).is_some_and(|s| has_env_ref(&s)),
            js,
        })
    };
    let interval = read(INTERVAL, DEFAULT_INTERVAL_MS);
    let cap = read(CAP, DEFAULT_CAP_MS);
    let at = |t: &Timing<'_>, code: Code, message: String| {
        Draft::at_value(doc, t.id, code, e.field_path(t.name), message)
            .server(&e.id)
            .field(t.name)
    };
    let Some(why_used) = used else {
        // Not used: only a legacy entry with reconnect off gets here with a known family;
        // an entry the host refuses for its binding is not worth a second finding.
        if family == Some(EngineKind::Legacy) {
            for t in [&interval, &cap].into_iter().flatten() {
                out.push(at(
                    t,
                    Code::TimingUnused,
                    unused_message(t, reconnect_off_why),
                ));
            }
        }
        return;
    };

    let engine = family.unwrap_or(EngineKind::Legacy);
    for t in [&interval, &cap].into_iter().flatten() {
        let over_limit =
            || over_limit_message(ctx.preset, engine, t, doc, interval.as_ref(), cap.as_ref());
        one_timing(ctx, e, t, why_used, &over_limit, out);
    }

    // Both timings together (defaults for absent ones), when neither is refused.
    let interval_ms = interval.as_ref().map_or(DEFAULT_INTERVAL_MS, |t| t.ms);
    let cap_ms = cap.as_ref().map_or(DEFAULT_CAP_MS, |t| t.ms);
    if is_refused_timing(cap_ms) {
        return;
    }
    lasting_threshold(ctx, e, engine, interval_ms, cap.as_ref(), out);
    if is_refused_timing(interval_ms) {
        return;
    }
    let shown = |t: &Option<Timing<'_>>| t.as_ref().is_none_or(|t| t.is_number);
    if cap_ms < interval_ms {
        let where_ = cap.as_ref().or(interval.as_ref());
        if let Some(t) = where_ {
            let both_shown = shown(&interval) && shown(&cap);
            let detail = if both_shown {
                format!(
                    " ({} is below {})",
                    format_ms(cap_ms),
                    format_ms(interval_ms)
                )
            } else {
                String::new()
            };
            out.push(at(
                t,
                Code::CapBelowInterval,
                format!(
                    "the cap is below the interval{detail}: `{CAP}` is below `{INTERVAL}`, so \
                     every wait is the cap and the backoff never grows; raise the cap or lower \
                     the interval"
                ),
            ));
        }
    }
}

/// The findings about one timing that is used: an env reference, a refused value, a value of
/// the wrong type, a value past the timer limit.
fn one_timing(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    t: &Timing<'_>,
    why_used: &str,
    over_limit: &dyn Fn() -> String,
    out: &mut Vec<Draft>,
) {
    let at = |code: Code, message: String| {
        Draft::at_value(ctx.doc, t.id, code, e.field_path(t.name), message)
            .server(&e.id)
            .field(t.name)
    };
    if t.env_ref {
        out.push(at(Code::TimingEnvVar, env_ref_message(e, t)));
    }
    if is_refused_timing(t.ms) {
        out.push(at(
            Code::ReconnectTiming,
            refused_message(ctx, e, t, why_used),
        ));
        return;
    }
    if let Some((code, message)) = type_finding(t) {
        out.push(at(code, message));
    }
    if t.ms > TIMER_LIMIT_MS {
        out.push(at(Code::TimingOverTimerLimit, over_limit()));
    }
}

/// What a `${…}` reference in a timing becomes: an environment-dependent string where the
/// table substitutes, the text itself (NaN) where it does not.
fn env_ref_message(e: &RawEntry<'_>, t: &Timing<'_>) -> String {
    if e.table.substitutes_env() {
        format!(
            "`{}` is a `${{…}}` reference: it takes its value from an environment \
             variable when the file is loaded, so the host reads a string that depends on its environment: an \
             unset variable without a default gives an empty string, which reads as 0 \
             and is refused by hosts with the lasting-connection fix; write a number of \
             milliseconds",
            t.name
        )
    } else {
        format!(
            "`{}` holds a `${{…}}` reference, but `{}` entries are not substituted: the \
             host reads the text as written, which Number() reads as NaN; write a number \
             of milliseconds",
            t.name,
            e.table.key()
        )
    }
}

/// A timing that reads as 0, below 0 or NaN: what it reads as, and what hosts with and without
/// the lasting-connection fix do with it (the run's rule says which it follows).
fn refused_message(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, t: &Timing<'_>, why_used: &str) -> String {
    let value = if t.env_ref && e.table.substitutes_env() {
        let how = if t.ms.is_nan() {
            "which Number() reads as NaN"
        } else if t.ms == 0.0 {
            "which reads as 0 (an unset variable gives an empty string)"
        } else {
            "which reads as a number below 0"
        };
        format!("a `${{…}}` reference, {how} once substituted from this environment")
    } else {
        reads_as(t, ctx.doc)
    };
    if refuses_bad_timings(ctx.preset) {
        format!(
            "`{}` is {value}: this server uses its timings ({why_used}), and hosts with \
             the lasting-connection fix refuse it at start; older hosts relaunch it with \
             no wait at all (every wait runs after 1 ms)",
            t.name
        )
    } else {
        format!(
            "`{}` is {value}: this server uses its timings ({why_used}), and older hosts \
             (without the lasting-connection fix) load it and run every wait after 1 ms, \
             so they relaunch this server with no backoff at all, in a loop; hosts with \
             the fix refuse this server at start",
            t.name
        )
    }
}

/// A timing written as another type than a number that still loads: a boolean (1 ms), a
/// string, an array; `None` for a number (or a substituted reference).
fn type_finding(t: &Timing<'_>) -> Option<(Code, String)> {
    let role = if t.name == INTERVAL {
        "the backoff's base"
    } else {
        "the cap (every wait)"
    };
    match (&t.js, t.env_ref) {
        (Js::Bool(_), _) => Some((
            Code::TimingBoolean,
            format!(
                "`{}` is a boolean, which the host reads as 1 ms (Number(true)), so {role} \
                 becomes 1 ms: almost certainly `reconnect: true` typed into the wrong \
                 field; write a number of milliseconds",
                t.name
            ),
        )),
        (Js::Str(_), false) => Some((
            Code::TimingString,
            format!(
                "`{}` is a string; the host reads it with Number() and it loads, but the \
                 field takes a number: write it without quotes",
                t.name
            ),
        )),
        (Js::Array(_), _) => Some((
            Code::TimingArray,
            format!(
                "`{}` is an array; the host reads it through its string form (Number([x]) \
                 is Number(x)), which works by accident; write a number of milliseconds",
                t.name
            ),
        )),
        _ => None,
    }
}

/// A timing set on a legacy entry that does not reconnect.
fn unused_message(t: &Timing<'_>, reconnect_off_why: &str) -> String {
    let refused = if is_refused_timing(t.ms) {
        "; if reconnect were turned on, hosts with the lasting-connection fix would \
         refuse this server (and older hosts would relaunch it with no backoff)"
    } else {
        ""
    };
    format!(
        "`{}` is set, but this legacy entry does not reconnect ({reconnect_off_why}), \
         so the host never uses it{refused}; set `reconnect: true` or remove the \
         timing",
        t.name
    )
}

/// Under a rule whose lasting threshold follows the cap, a cap above 1 hour.
fn lasting_threshold(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    engine: EngineKind,
    interval_ms: f64,
    cap: Option<&Timing<'_>>,
    out: &mut Vec<Draft>,
) {
    let doc = ctx.doc;
    let Some(t) = cap else { return };
    let cap_ms = t.ms;
    let timings = Timings {
        interval_ms,
        cap_ms,
    };
    let policy = ctx.preset.policy_with(engine, timings);
    let longest_wait = js_min(cap_ms, TIMER_LIMIT_MS);
    let Some(threshold) = policy.lasting_threshold(longest_wait) else {
        return;
    };
    if threshold <= BOUNDED_CEILING_MS {
        return;
    }
    let t_text = if t.is_number {
        format!("{} ", format_ms(threshold))
    } else {
        "as long as the cap ".to_string()
    };
    out.push(
        Draft::at_value(
            doc,
            t.id,
            Code::LastingThresholdLong,
            e.field_path(t.name),
            format!(
                "`{CAP}` is above 1 hour: it is {}, and under the `{}` rule a connection must live \
                 {t_text}before its end stops counting as a failure, so a healthy server whose \
                 connection drops more often than that never has its failure count reset and its \
                 waits keep growing to the cap",
                reads_as(t, doc),
                ctx.preset.name()
            ),
        )
        .server(&e.id)
        .field(t.name),
    );
}

fn over_limit_message(
    preset: Preset,
    engine: EngineKind,
    t: &Timing<'_>,
    doc: &Doc<'_>,
    interval: Option<&Timing<'_>>,
    cap: Option<&Timing<'_>>,
) -> String {
    let value = if t.is_number {
        reads_as(t, doc)
    } else {
        format!(
            "{}, which reads as more than the limit",
            describe(doc, t.id)
        )
    };
    let head = format!(
        "`{}` is {value}: past the JavaScript timer limit of 2147483647 ms (about 24.9 days)",
        t.name
    );
    // When main's legacy engine would start relaunching every millisecond.
    let timings = Timings {
        interval_ms: interval.map_or(DEFAULT_INTERVAL_MS, |t| t.ms),
        cap_ms: cap.map_or(DEFAULT_CAP_MS, |t| t.ms),
    };
    let main_legacy = Preset::Handshake.policy_with(EngineKind::Legacy, timings);
    let from = (1..=64u32).find(|&k| main_legacy.nominal_wait(k) > TIMER_LIMIT_MS);
    let main_legacy_text = match from {
        Some(k) => format!(
            "waits are not clamped: after {k} consecutive failure{} the wait passes the limit, \
             JavaScript runs the timer after 1 ms, and the host relaunches the server every \
             millisecond",
            if k == 1 { "" } else { "s" }
        ),
        None => "waits are not clamped, but the backoff stops doubling before it reaches the \
                 limit"
            .to_string(),
    };
    if refuses_bad_timings(preset) {
        format!(
            "{head}; hosts with the lasting-connection fix clamp every wait to that limit; on \
             older hosts' legacy engine {main_legacy_text}"
        )
    } else if engine == EngineKind::Modern {
        format!(
            "{head}; the modern engine clamps every wait to that limit, on older hosts as on \
             hosts with the lasting-connection fix"
        )
    } else {
        format!(
            "{head}; on older hosts' legacy engine {main_legacy_text}; hosts with the \
             lasting-connection fix clamp every wait to the limit"
        )
    }
}
