use super::run::simulate_stepping;
use super::*;
use crate::engine::policy::Counted;
use crate::engine::policy::{EngineKind, Preset, Timings};

fn req(preset: Preset, timings: Timings, server: &str) -> Request {
    Request {
        policy: preset.policy_with(EngineKind::Legacy, timings),
        scenario: server.parse().expect("valid behaviour"),
        max_attempts: None,
        span_ms: DAY_MS,
        seed: None,
        keep_rows: 100_000,
        strip_width: 60,
    }
}

fn t(interval_ms: f64, cap_ms: f64) -> Timings {
    Timings {
        interval_ms,
        cap_ms,
    }
}

fn waits(sim: &Simulation, n: usize) -> Vec<f64> {
    sim.rows
        .iter()
        .take(n)
        .map(|r| r.wait.map_or(f64::NAN, |w| w.ms / 1000.0))
        .collect()
}

#[test]
fn defaults_server_never_waits_double_to_the_cap_and_alert_from_attempt_5() {
    for preset in [Preset::Handshake, Preset::Lasting] {
        let mut r = req(preset, Timings::default(), "never");
        r.max_attempts = Some(9);
        let sim = simulate(&r);
        assert_eq!(
            waits(&sim, 8),
            vec![5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0],
            "{preset}"
        );
        let attempts: Vec<u32> = sim.rows.iter().map(|r| r.attempt).collect();
        assert_eq!(attempts, (0..9).collect::<Vec<u32>>());
        for row in &sim.rows {
            assert_eq!(row.alert.is_some(), row.attempt >= 5, "{preset} {row:?}");
            assert_eq!(row.happened_text, "failed to connect");
        }
        let word = if preset == Preset::Handshake {
            "unreachable"
        } else {
            "down"
        };
        assert_eq!(
            sim.rows[5].alert.as_deref(),
            Some(format!("MCPL server {word} (attempt 5): failed to connect").as_str())
        );
        // Failures of attempts 0..4 take 5+10+20+40+80 s of waiting before attempt 5.
        assert_eq!(sim.summary.first_down_ms, Some(155_000.0));
    }
}

#[test]
fn issue_375_under_handshake_relaunches_every_half_second_forever_without_alert() {
    let r = Request {
        span_ms: 60_000.0,
        ..req(Preset::Handshake, t(200.0, 300_000.0), "dies-after=300ms")
    };
    let sim = simulate(&r);
    // A launch every 0.5 s: 120 in a minute.
    assert_eq!(sim.summary.launches, 120);
    assert!(sim
        .rows
        .windows(2)
        .all(|w| { (w[1].launched_at_ms - w[0].launched_at_ms - 500.0).abs() < 1e-9 }));
    assert_eq!(sim.summary.downs, 0);
    assert_eq!(sim.summary.first_down_ms, None);
    assert!(sim.summary.count_starts_afresh);
    assert!(sim.rows[1..].iter().all(|r| r.attempt == 1));
    // With a startup time the period grows by it.
    let r = Request {
        span_ms: 60_000.0,
        ..req(
            Preset::Handshake,
            t(200.0, 300_000.0),
            "dies-after=300ms,startup=100ms",
        )
    };
    let sim = simulate(&r);
    assert_eq!(sim.rows[1].launched_at_ms, 600.0);
}

#[test]
fn issue_375_under_lasting_waits_double_and_alert_from_attempt_5() {
    let mut r = req(Preset::Lasting, t(200.0, 300_000.0), "dies-after=300ms");
    r.max_attempts = Some(14);
    let sim = simulate(&r);
    let attempts: Vec<u32> = sim.rows.iter().map(|r| r.attempt).collect();
    assert_eq!(attempts, (0..14).collect::<Vec<u32>>());
    assert!(sim
        .rows
        .iter()
        .all(|r| r.happened_text == "connected, then closed after 0 s"));
    let w = waits(&sim, 13);
    assert_eq!(&w[..6], &[0.2, 0.4, 0.8, 1.6, 3.2, 6.4]);
    assert_eq!(w[12], 300.0, "reaches the cap");
    assert!(sim.rows[..5].iter().all(|r| r.alert.is_none()));
    assert_eq!(
        sim.rows[5].alert.as_deref(),
        Some("MCPL server down (attempt 5): connected, then closed after 0 s")
    );
    assert!(!sim.summary.count_starts_afresh);
}

#[test]
fn lasting_defaults_dying_server_posts_about_290_status_pairs_a_day() {
    // The modern engine reports a reconnect at once, so each cycle clears its "down" line.
    let mut r = req(Preset::Lasting, Timings::default(), "dies-after=0");
    r.policy = Preset::Lasting.policy_with(EngineKind::Modern, Timings::default());
    r.seed = Some(7);
    let sim = simulate(&r);
    let pairs = sim.summary.status_pairs_per_day;
    assert!((270.0..300.0).contains(&pairs), "{pairs}");
    // The webhook is limited to one post per 15 minutes: at most 96 a day.
    assert!(sim.summary.webhooks_per_day <= 96.0 + 1e-9);
    assert!(sim.summary.webhooks > 0);
    // Each cycle posts one "down" and one "cleared" line.
    let lines: Vec<&str> = sim
        .rows
        .iter()
        .flat_map(|r| r.status.iter().map(|s| s.text.as_str()))
        .take(4)
        .collect();
    assert_eq!(
        lines[0],
        "mcpl-down: MCP server down (attempt 5): connected, then closed after 0 s"
    );
    assert_eq!(lines[1], "mcpl-down cleared (reconnected)");
    assert!(lines[2].starts_with("mcpl-down: MCP server down (attempt 6)"));
    // On the legacy engine a server that outlives the policy exchange does the same.
    let mut r = req(Preset::Lasting, Timings::default(), "dies-after=300ms");
    r.seed = Some(7);
    let pairs = simulate(&r).summary.status_pairs_per_day;
    assert!((270.0..300.0).contains(&pairs), "{pairs}");
}

/// Issue 10, item 2: on the legacy engine a reconnect clears the "down" line only once the
/// policy exchange has settled with the server still connected.
#[test]
fn legacy_engine_clears_the_down_line_only_after_a_settled_policy_exchange() {
    let run = |engine: EngineKind, server: &str| {
        let mut r = req(Preset::Lasting, Timings::default(), server);
        r.policy = Preset::Lasting.policy_with(engine, Timings::default());
        simulate(&r).summary
    };
    // Dies right after its handshake: one "down" line, never cleared, no pairs.
    let s = run(EngineKind::Legacy, "dies-after=0");
    assert_eq!(
        (s.downs, s.status_down_lines, s.status_cleared_lines),
        (288, 1, 0)
    );
    assert_eq!(s.status_pairs_per_day, 0.0);
    // The modern engine was right and stays so: 288 "down", 287 cleared.
    let s = run(EngineKind::Modern, "dies-after=0");
    assert_eq!((s.status_down_lines, s.status_cleared_lines), (288, 287));
    // The settle time decides: a 300 ms connection clears with the default (100 ms), not with
    // a 400 ms exchange; a zero settle is the modern engine's behaviour.
    let s = run(EngineKind::Legacy, "dies-after=300ms");
    assert!(s.status_cleared_lines > 200, "{s:?}");
    let s = run(EngineKind::Legacy, "dies-after=300ms,settle=400ms");
    assert_eq!((s.status_down_lines, s.status_cleared_lines), (1, 0));
    // Issue 21, item 11: a connection that ends at the very instant its exchange would settle
    // did not carry a settled exchange, even with a zero settle time: nothing is cleared.
    let s = run(EngineKind::Legacy, "dies-after=0,settle=0");
    assert_eq!((s.status_down_lines, s.status_cleared_lines), (1, 0));
    let s = run(EngineKind::Legacy, "dies-after=100ms,settle=100ms");
    assert_eq!((s.status_down_lines, s.status_cleared_lines), (1, 0));
    let s = run(EngineKind::Legacy, "dies-after=101ms,settle=100ms");
    assert!(s.status_cleared_lines > 200, "{s:?}");
    // The "cleared" line comes when the exchange settles, not at the handshake.
    let mut r = req(Preset::Lasting, Timings::default(), "lives=0,0,0,0,0,0,1h");
    r.max_attempts = Some(7);
    let sim = simulate(&r);
    let cleared: Vec<&StatusLine> = sim
        .rows
        .iter()
        .flat_map(|r| r.status.iter())
        .filter(|l| l.text.starts_with("mcpl-down cleared"))
        .collect();
    assert_eq!(cleared.len(), 1);
    let up = sim.rows[6].connected_at_ms.expect("connected");
    assert_eq!(cleared[0].at_ms, up + DEFAULT_SETTLE_MS);
}

/// Issue 10, item 1: under the rules of hosts with the lasting-connection fix, a timing that
/// reads as 0 is refused at start: no launch, one mcpl-down at 0 naming the field. Main
/// (`handshake`) keeps its 1 ms loop.
#[test]
fn a_refused_timing_launches_nothing_and_raises_one_alert_naming_the_field() {
    for preset in [Preset::Lasting, Preset::Bounded, Preset::PrecedingWait] {
        let mut r = req(preset, t(0.0, 300_000.0), "dies-after=0");
        r.max_attempts = Some(5);
        let sim = simulate(&r);
        let s = &sim.summary;
        assert_eq!(s.launches, 0, "{preset}");
        assert!(sim.rows.is_empty());
        assert_eq!(
            (s.downs, s.first_down_ms, s.first_down_attempt),
            (1, Some(0.0), Some(0))
        );
        let alert = s.refused_at_start.as_deref().expect("refused");
        assert!(
            alert.starts_with("MCPL server down (attempt 0): "),
            "{alert}"
        );
        assert!(alert.contains("reconnectIntervalMs reads as 0"), "{alert}");
        assert!(s
            .stopped
            .as_deref()
            .is_some_and(|w| w.contains("refused by the host")));
        // Over a day: still one alert, its "down" line after 60 s, never cleared.
        let sim = simulate(&req(preset, t(5000.0, -1.0), "dies-after=0"));
        let s = &sim.summary;
        assert_eq!((s.launches, s.downs, s.status_down_lines), (0, 1, 1));
        assert!(s
            .refused_at_start
            .as_deref()
            .is_some_and(|a| a.contains("reconnectMaxIntervalMs")));
    }
    let mut r = req(Preset::Handshake, t(0.0, 300_000.0), "dies-after=0");
    r.max_attempts = Some(5);
    let sim = simulate(&r);
    assert_eq!(sim.summary.launches, 5);
    let at: Vec<f64> = sim.rows.iter().map(|r| r.launched_at_ms).collect();
    assert_eq!(at, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(sim.summary.refused_at_start, None);
}

/// Issue 10, item 3: nothing past the span is counted or shown.
#[test]
fn nothing_past_the_span_is_counted() {
    let sim = simulate(&Request {
        span_ms: 160_500.0,
        ..req(Preset::Lasting, Timings::default(), "never,fail-after=1s")
    });
    let s = &sim.summary;
    // Attempt 5 is launched at 160 s, inside the span; its failure (and alert) at 161 s is not.
    assert_eq!(s.launches, 6);
    assert_eq!((s.downs, s.first_down_ms, s.webhooks), (0, None, 0));
    let last = sim.rows.last().expect("rows");
    assert_eq!(
        (last.launched_at_ms, last.counted),
        (160_000.0, Counted::Pending)
    );
    assert_eq!(last.happened, Happened::Pending);
    assert!(last.alert.is_none() && last.wait.is_none());
    // A handshake that would complete after the span is still connecting too.
    let sim = simulate(&Request {
        span_ms: 5_000.0,
        ..req(
            Preset::Lasting,
            Timings::default(),
            "dies-after=0,startup=6s",
        )
    });
    let last = sim.rows.last().expect("rows");
    assert_eq!(
        (last.counted, last.connected_at_ms),
        (Counted::Pending, None)
    );
}

/// Issue 21, item 11: the span is half-open. A connection that ends exactly at its end is
/// still up when it ends (its failure and alert are not counted); a failure due exactly at the
/// end is still connecting.
#[test]
fn an_outcome_due_exactly_at_the_end_of_the_span_is_not_counted() {
    // Modern engine, cap 22 ms, dies after 12 ms: a cycle of 34 ms, and the 105,883rd launch
    // (at 3,599,988 ms) ends at exactly 1 h.
    let mut r = req(Preset::Lasting, t(5000.0, 22.0), "dies-after=12ms");
    r.policy = Preset::Lasting.policy_with(EngineKind::Modern, t(5000.0, 22.0));
    r.span_ms = 3_600_000.0;
    r.keep_rows = 0;
    let s = simulate(&r).summary;
    // Attempts 5 to 105,881 raise one each; the last launch's end is not seen.
    assert_eq!((s.launches, s.downs), (105_883, 105_877));
    assert_eq!(s.connected_ms, 105_883.0 * 12.0);
    r.span_ms = 3_600_001.0;
    let s = simulate(&r).summary;
    assert_eq!((s.launches, s.downs), (105_883, 105_878));

    let mut never = req(Preset::Lasting, Timings::default(), "never,fail-after=1s");
    never.span_ms = 161_000.0;
    let sim = simulate(&never);
    let last = sim.rows.last().expect("rows");
    assert_eq!(
        (last.launched_at_ms, last.counted),
        (160_000.0, Counted::Pending)
    );
    assert_eq!(sim.summary.downs, 0);
    let mut dies = req(Preset::Lasting, Timings::default(), "dies-after=1s");
    dies.span_ms = 161_000.0;
    let sim = simulate(&dies);
    let last = sim.rows.last().expect("rows");
    assert_eq!(
        (last.launched_at_ms, last.counted, last.lived_ms),
        (160_000.0, Counted::StillUp, Some(1000.0))
    );
    assert_eq!(sim.summary.downs, 0);
}

/// Issue 10, item 5: the lifetime reported is the one the behaviour gave.
#[test]
fn lifetimes_are_exact() {
    let r = req(
        Preset::Lasting,
        t(1234.567, 300_000.0),
        "lives=300000,startup=391.749",
    );
    let sim = simulate(&r);
    assert!(sim.rows.len() > 10);
    for row in sim.rows.iter().filter(|r| r.counted != Counted::StillUp) {
        assert_eq!(row.lived_ms, Some(300_000.0), "{row:?}");
        assert_eq!(row.counted, Counted::Lasted);
    }
}

#[test]
fn the_summary_does_not_need_the_rows() {
    for (preset, server) in [
        (Preset::Lasting, "dies-after=1s"),
        (Preset::Handshake, "never"),
        (Preset::Bounded, "lives=1s,2s,2h,3s"),
        (Preset::Pm2, "dies-after=100ms"),
    ] {
        let mut full = req(preset, Timings::default(), server);
        full.seed = Some(3);
        let mut bare = full.clone();
        bare.keep_rows = 0;
        let a = simulate(&full);
        let b = simulate(&bare);
        assert_eq!(a.summary, b.summary, "{preset}");
        assert!(b.rows.is_empty());
        assert_eq!(a.rows.len() as u64, a.rows_total);
    }
}

#[test]
fn a_lasting_connection_starts_the_count_afresh() {
    let mut r = req(Preset::Lasting, Timings::default(), "lives=1s,1s,10m,1s");
    r.max_attempts = Some(4);
    let sim = simulate(&r);
    let attempts: Vec<u32> = sim.rows.iter().map(|r| r.attempt).collect();
    assert_eq!(attempts, vec![0, 1, 2, 1]);
    assert_eq!(sim.rows[2].happened, Happened::Lasted);
    assert_eq!(sim.rows[2].happened_text, "lasted");
    assert!(sim.summary.count_starts_afresh);
}

#[test]
fn healthy_server_is_still_up_and_connected_all_the_time() {
    let sim = simulate(&req(Preset::Lasting, Timings::default(), "healthy"));
    assert_eq!(sim.summary.launches, 1);
    assert_eq!(sim.rows[0].happened, Happened::StillUp);
    assert!((sim.summary.connected_share - 1.0).abs() < 1e-9);
    let mut r = req(Preset::Lasting, Timings::default(), "healthy");
    r.max_attempts = Some(3);
    let sim = simulate(&r);
    assert_eq!(sim.summary.launches, 1);
}

#[test]
fn drops_every_hour_under_lasting_with_a_day_cap_never_resets() {
    let sim = simulate(&Request {
        span_ms: 30.0 * DAY_MS,
        ..req(Preset::Lasting, t(5000.0, DAY_MS), "drops-every=1h")
    });
    assert!(!sim.summary.count_starts_afresh);
    assert!(sim.summary.downs > 0);
    let bounded = simulate(&Request {
        span_ms: 30.0 * DAY_MS,
        ..req(Preset::Bounded, t(5000.0, DAY_MS), "drops-every=1h")
    });
    assert!(bounded.summary.count_starts_afresh);
    assert_eq!(bounded.summary.downs, 0);
}

#[test]
fn supervisors_give_up() {
    let sim = simulate(&req(
        Preset::Supervisord,
        Preset::Supervisord.default_timings(),
        "never",
    ));
    assert_eq!(sim.summary.launches, 4);
    assert!(sim.summary.stopped.is_some());
    assert_eq!(sim.summary.connected_share, 0.0);
}

#[test]
fn strip_stays_fixed_width_and_sums_connected_time() {
    let mut r = req(Preset::Handshake, t(1000.0, 300_000.0), "dies-after=1s");
    r.max_attempts = Some(10_000);
    r.keep_rows = 0;
    let sim = simulate(&r);
    assert_eq!(sim.strip.connected_ms.len(), 60);
    let total: f64 = sim.strip.connected_ms.iter().sum();
    assert!((total - sim.summary.connected_ms).abs() < 1e-3, "{total}");
    assert!((sim.summary.connected_share - 0.5).abs() < 0.01);
    let used = sim.strip.used_cells();
    assert!(used > 30 && used <= 60, "{used}");
}

/// Issue 20 (review row 13): a server up the whole day fills every cell of the strip, at any
/// width (a piece's cell was found again from its start, and `cell_end * per_cell` rounding
/// down put the rest of the day into one cell: 7 of 53 cells drawn connected).
#[test]
fn a_healthy_day_fills_every_cell() {
    for width in 20..=100 {
        let mut r = req(Preset::Lasting, Timings::default(), "healthy");
        r.strip_width = width;
        r.seed = Some(1);
        let sim = simulate(&r);
        assert_eq!(sim.summary.connected_share, 1.0);
        let used = sim.strip.used_cells();
        for i in 0..used {
            assert!(
                sim.strip.share(i) > 0.999,
                "width {width}, cell {i}: {}",
                sim.strip.share(i)
            );
        }
    }
}

#[test]
fn behaviour_specs_parse() {
    let s: Scenario = "lives=1s,5m,2h,startup=200ms".parse().expect("parses");
    assert_eq!(
        s.behaviour,
        Behaviour::Lives(vec![1000.0, 300_000.0, 7_200_000.0])
    );
    assert_eq!(s.startup_ms, 200.0);
    assert_eq!(s.settle_ms, DEFAULT_SETTLE_MS);
    let s: Scenario = "dies-after=0,settle=2s".parse().expect("parses");
    assert_eq!(s.settle_ms, 2000.0);
    let s: Scenario = "never fail-after=2s".parse().expect("parses");
    assert_eq!(s.behaviour, Behaviour::Never);
    assert_eq!(s.fail_after_ms, 2000.0);
    assert_eq!(
        "drops-every=1h".parse::<Scenario>().map(|s| s.behaviour),
        Ok(Behaviour::Lives(vec![3_600_000.0]))
    );
    for bad in [
        "",
        "sometimes",
        "dies-after=soon",
        "never,healthy",
        "dies-after=-1s",
    ] {
        assert!(bad.parse::<Scenario>().is_err(), "{bad}");
    }
}

mod properties {
    use super::*;
    use crate::engine::policy::Preset;
    use proptest::prelude::*;

    const PRESETS: &[Preset] = &[
        Preset::Handshake,
        Preset::Lasting,
        Preset::Bounded,
        Preset::PrecedingWait,
        Preset::Kubernetes,
        Preset::Docker,
        Preset::Pm2,
        Preset::Supervisord,
        Preset::Systemd,
        Preset::McpSdkHttp,
    ];

    /// A timing: ordinary values mostly, and now and then one of the edge cases.
    fn timing() -> impl Strategy<Value = f64> {
        prop_oneof![
            8 => 1.0f64..10_000_000.0,
            1 => 1.0e8f64..5.0e9,
            1 => prop_oneof![Just(0.0), Just(-5.0), Just(0.5), Just(f64::INFINITY), Just(2_147_483_648.0)],
        ]
    }

    fn duration() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => 0.0f64..2_000.0,
            3 => 0.0f64..1_000_000.0,
            1 => Just(300_000.0),
            1 => 0.0f64..100_000_000.0,
        ]
    }

    fn behaviour() -> impl Strategy<Value = Behaviour> {
        prop_oneof![
            1 => Just(Behaviour::Never),
            1 => Just(Behaviour::Healthy),
            4 => prop::collection::vec(duration(), 1..5).prop_map(Behaviour::Lives),
        ]
    }

    prop_compose! {
        fn request()(
            preset in prop::sample::select(PRESETS),
            modern in any::<bool>(),
            interval_ms in timing(),
            cap_ms in timing(),
            behaviour in behaviour(),
            startup_ms in duration(),
            fail_after_ms in duration(),
            settle_ms in duration(),
            span_ms in 1.0f64..1.0e9,
            max_attempts in 1u64..120,
            seed in prop::option::of(any::<u64>()),
        ) -> Request {
            let engine = if modern { EngineKind::Modern } else { EngineKind::Legacy };
            Request {
                policy: preset.policy_with(engine, Timings { interval_ms, cap_ms }),
                scenario: Scenario { behaviour, startup_ms, fail_after_ms, settle_ms },
                max_attempts: Some(max_attempts),
                span_ms,
                seed,
                keep_rows: usize::MAX,
                strip_width: 20,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Every chosen wait lies inside its stated range, nothing counted lies outside the
        /// span, and a lifetime at or above the threshold is always counted as lasting.
        #[test]
        fn simulations_keep_their_promises(r in request()) {
            let sim = simulate(&r);
            let span = r.span_ms;
            let s = &sim.summary;
            prop_assert!(s.first_down_ms.is_none_or(|t| t <= span), "{s:?}");
            prop_assert!(s.stopped_at_ms.is_none_or(|t| t <= span), "{s:?}");
            let mut preceding_wait = 0.0;
            for row in &sim.rows {
                if let Some(w) = row.wait {
                    prop_assert!(w.envelope().holds(w.ms), "{w:?} {r:?}");
                }
                prop_assert!(row.launched_at_ms < span, "{row:?}");
                if let Some(up) = row.connected_at_ms {
                    prop_assert!(up <= span, "{row:?}");
                }
                for line in &row.status {
                    prop_assert!(line.at_ms <= span, "{line:?} {span}");
                }
                if row.alert.is_some() {
                    let ended = match (row.connected_at_ms, row.lived_ms) {
                        (Some(up), Some(lived)) => up + lived,
                        _ => row.launched_at_ms + r.scenario.fail_after_ms,
                    };
                    prop_assert!(ended <= span, "{row:?} {span}");
                }
                if matches!(row.happened, Happened::ConnectedThenClosed | Happened::Lasted) {
                    let lived = row.lived_ms.unwrap_or(f64::NAN);
                    if let Some(t) = r.policy.lasting_threshold(preceding_wait) {
                        if lived >= t {
                            prop_assert_eq!(row.counted, Counted::Lasted, "{:?} {}", row, t);
                        }
                    }
                }
                preceding_wait = row.wait.map_or(0.0, |w| w.ms);
            }
        }
    }
}

/// Issue 22: skipping through the steady state gives exactly what stepping every launch gives
/// (rows, summary, strip), over every preset, both engines, lives lists, startups and settle
/// times, on spans short enough to step.
mod fast_forward {
    use super::*;
    use crate::engine::policy::{EngineKind, Preset, PRESET_NAMES};
    use proptest::prelude::*;

    fn same(r: &Request) -> Result<(), TestCaseError> {
        let fast = simulate(r);
        let slow = simulate_stepping(r);
        prop_assert_eq!(fast.rows_total, slow.rows_total, "{:?}", r);
        prop_assert_eq!(
            format!("{:?}", fast.summary),
            format!("{:?}", slow.summary),
            "{:?}",
            r
        );
        prop_assert_eq!(&fast.rows, &slow.rows);
        prop_assert_eq!(
            (fast.strip.cell_ms, fast.strip.end_ms),
            (slow.strip.cell_ms, slow.strip.end_ms)
        );
        prop_assert_eq!(&fast.strip.alerts, &slow.strip.alerts, "{:?}", r);
        prop_assert_eq!(
            format!("{:?}", fast.strip.connected_ms),
            format!("{:?}", slow.strip.connected_ms),
            "{:?}",
            r
        );
        // Stepping with every row kept adds up to the same (the quiet step is a copy).
        let all = simulate_stepping(&Request {
            keep_rows: usize::MAX,
            ..r.clone()
        });
        prop_assert_eq!(format!("{:?}", all.summary), format!("{:?}", slow.summary));
        prop_assert_eq!(&all.strip.alerts, &slow.strip.alerts);
        prop_assert_eq!(&all.rows[..slow.rows.len()], &slow.rows[..]);
        Ok(())
    }

    /// A duration on the run's scale: whole milliseconds mostly, now and then a fraction.
    fn on(scale: f64) -> impl Strategy<Value = f64> {
        prop_oneof![
            6 => (0u32..40).prop_map(move |k| k as f64 * scale / 4.0),
            1 => Just(0.0),
            1 => (0.0f64..10.0).prop_map(move |x| x * scale),
        ]
        .prop_map(|ms: f64| if ms > 1.0 { ms.round() } else { ms })
    }

    prop_compose! {
        fn request()(scale in prop::sample::select(vec![1.0, 7.0, 100.0, 1000.0, 20_000.0]))(
            preset in prop::sample::select(PRESET_NAMES),
            modern in any::<bool>(),
            interval_ms in on(scale),
            cap_ms in prop_oneof![4 => on(scale * 4.0), 1 => Just(f64::INFINITY)],
            lives in prop_oneof![
                1 => Just(None),
                1 => Just(Some(vec![f64::INFINITY])),
                6 => prop::collection::vec(on(scale), 1..4).prop_map(Some),
            ],
            startup_ms in prop_oneof![3 => Just(0.0), 1 => on(scale)],
            fail_after_ms in on(scale),
            settle_ms in prop_oneof![
                2 => Just(DEFAULT_SETTLE_MS),
                1 => Just(0.0),
                1 => on(scale),
            ],
            cycles in 50.0f64..3_000.0,
            bounded in prop::option::of(1u64..5_000),
            seed in prop::option::of(0u64..5),
            keep_rows in 0usize..6,
            strip_width in 1usize..90,
            scale in Just(scale),
        ) -> Request {
            let engine = if modern { EngineKind::Modern } else { EngineKind::Legacy };
            let preset: Preset = preset.parse().expect("a preset");
            // Each launch advances the clock by at least its (possibly jittered) wait plus
            // the time it lives; bound the span by that, so that a tiny interval under a long
            // scale is not hundreds of millions of stepped launches (three runs, debug build).
            let lives_ms = match &lives {
                None => fail_after_ms,
                Some(l) => startup_ms + l.iter().copied().fold(f64::INFINITY, f64::min),
            };
            let advance_ms = (interval_ms.min(cap_ms) * 0.5 + lives_ms).max(1.0);
            let behaviour = match lives {
                None => Behaviour::Never,
                Some(l) if l == [f64::INFINITY] => Behaviour::Healthy,
                Some(l) => Behaviour::Lives(l),
            };
            Request {
                policy: preset.policy_with(engine, Timings { interval_ms, cap_ms }),
                scenario: Scenario { behaviour, startup_ms, fail_after_ms, settle_ms },
                max_attempts: bounded,
                span_ms: if bounded.is_some() { 100.0 * 365.0 * DAY_MS } else {
                    (cycles * 3.0 * scale.min(advance_ms)).round()
                },
                seed,
                keep_rows,
                strip_width,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn skipping_the_steady_state_equals_stepping(r in request()) {
            same(&r)?;
        }

        /// Issue 29: an `--attempts N` run is the first N attempts of a longer run, plus the
        /// certain consequences of the last (a "down" line that falls due before the next
        /// launch would come, which nothing can clear first): the same rows, and counts that
        /// are those rows' sums.
        #[test]
        fn an_attempts_bound_is_a_prefix_of_a_longer_run(
            r in request(),
            n in 1u64..40,
            more in 1u64..20,
        ) {
            let short = simulate(&Request { max_attempts: Some(n), keep_rows: usize::MAX, ..r.clone() });
            let long = simulate(&Request { max_attempts: Some(n + more), keep_rows: usize::MAX, ..r.clone() });
            if short.summary.refused_at_start.is_some() {
                // Refused at start: no launch, the same in both.
                prop_assert!(short.rows.is_empty() && long.rows.is_empty());
                return Ok(());
            }
            let k = short.rows.len();
            prop_assert!(k <= long.rows.len(), "{:?}", r);
            prop_assert_eq!(&short.rows[..], &long.rows[..k], "{:?}", r);
            let rows = &short.rows;
            let s = &short.summary;
            prop_assert_eq!(s.launches, k as u64);
            prop_assert_eq!(s.downs, rows.iter().filter(|x| x.alert.is_some()).count() as u64, "{:?}", r);
            prop_assert_eq!(s.webhooks, rows.iter().filter(|x| x.webhook).count() as u64, "{:?}", r);
            let lines = |down: bool| rows.iter().flat_map(|x| &x.status)
                .filter(|l| l.text.starts_with("mcpl-down:") == down).count() as u64;
            prop_assert_eq!(s.status_down_lines, lines(true), "{:?}", r);
            prop_assert_eq!(s.status_cleared_lines, lines(false), "{:?}", r);
        }
    }

    /// The cases that matter most, by hand: a year at 1 ms is 365 days of one day, and the
    /// long runs of the issue agree with stepping on a span short enough to step.
    #[test]
    fn a_year_at_one_millisecond_is_365_days() {
        let mut r = req(Preset::Handshake, t(1.0, 1.0), "dies-after=0");
        r.keep_rows = 0;
        let day = simulate(&r).summary;
        r.span_ms = 365.0 * DAY_MS;
        let year = simulate(&r).summary;
        assert_eq!(year.launches, 365 * day.launches);
        assert_eq!(year.count_resets, 365 * day.count_resets);
        assert_eq!(day.launches, 86_400_000);
        for (preset, engine, server, timings) in [
            (
                Preset::Lasting,
                EngineKind::Legacy,
                "dies-after=0",
                Timings::default(),
            ),
            (
                Preset::Lasting,
                EngineKind::Modern,
                "dies-after=0",
                Timings::default(),
            ),
            (
                Preset::Lasting,
                EngineKind::Modern,
                "dies-after=12ms",
                t(5000.0, 22.0),
            ),
            (
                Preset::Bounded,
                EngineKind::Legacy,
                "lives=1s,10m,2s",
                t(1000.0, 60_000.0),
            ),
            (
                Preset::Handshake,
                EngineKind::Legacy,
                "dies-after=1s",
                t(1.0, 300_000.0),
            ),
            (
                Preset::Systemd,
                EngineKind::Legacy,
                "dies-after=20s",
                Timings::default(),
            ),
            (
                Preset::Kubernetes,
                EngineKind::Legacy,
                "never,fail-after=3s",
                t(10_000.0, 300_000.0),
            ),
        ] {
            let mut r = req(preset, timings, server);
            r.policy = preset.policy_with(engine, timings);
            r.keep_rows = 3;
            same(&r).unwrap_or_else(|e| panic!("{preset} {engine:?} {server}: {e}"));
            let year = Request {
                span_ms: 365.0 * DAY_MS,
                ..r.clone()
            };
            let s = simulate(&year).summary;
            assert_eq!(s.span_ms, 365.0 * DAY_MS);
        }
    }
}

/// Issue 29 item 4: the simulator against an independent model of agent-framework's host,
/// written from reconnect-rules.md alone (attempt numbering, the two count rules, `wait(k)`,
/// the alert from attempt 5, connectome-host's notices: a "down" line once an episode has been
/// open 60 s, a reconnect closing it, on the legacy engine only once the policy exchange has
/// settled with the server still connected). Nominal waits (no jitter), whole-millisecond
/// timings; lifetimes include 0 (a connection that ends at its handshake, before its exchange
/// settles) and exactly the settle time, on both engines, under an attempts bound.
mod host_model {
    use super::*;
    use crate::engine::policy::Preset;
    use proptest::prelude::*;

    /// What the model counts.
    #[derive(Debug, PartialEq)]
    struct Counts {
        launches: u64,
        downs: u64,
        first_down_attempt: Option<u32>,
        down_lines: u64,
        cleared_lines: u64,
    }

    /// The notices module: an open episode (since when, whether its "down" line is posted).
    #[derive(Default)]
    struct Episode {
        open: Option<f64>,
        posted: bool,
    }

    impl Episode {
        fn advance(&mut self, t: f64, c: &mut Counts) {
            if let Some(open) = self.open {
                if !self.posted && t >= open + 60_000.0 {
                    self.posted = true;
                    c.down_lines += 1;
                }
            }
        }
        fn reconnected(&mut self, t: f64, c: &mut Counts) {
            self.advance(t, c);
            if self.open.take().is_some() && self.posted {
                c.cleared_lines += 1;
            }
            self.posted = false;
        }
        fn alert(&mut self, t: f64, c: &mut Counts) {
            self.advance(t, c);
            if self.open.is_none() {
                self.open = Some(t);
                self.posted = false;
            }
        }
    }

    /// agent-framework under `lasting` (`lasting: true`) or `handshake`, `n` launches.
    #[allow(clippy::too_many_arguments)]
    fn model(
        lasting: bool,
        modern: bool,
        interval: f64,
        cap: f64,
        lives: &[f64],
        startup: f64,
        settle: f64,
        n: u64,
    ) -> Counts {
        let mut c = Counts {
            launches: 0,
            downs: 0,
            first_down_attempt: None,
            down_lines: 0,
            cleared_lines: 0,
        };
        let mut ep = Episode::default();
        let threshold = cap.clamp(300_000.0, 2_147_483_647.0);
        let (mut t, mut attempt) = (0.0, 0u32);
        for i in 0..n {
            c.launches += 1;
            let life = lives[(i as usize).min(lives.len() - 1)];
            let up = t + startup;
            // A reconnect (not the first connect) is reported at once on the modern engine;
            // on the legacy one once the exchange settled with the server still connected.
            if i > 0 {
                if modern {
                    ep.reconnected(up, &mut c);
                } else if life > settle {
                    ep.reconnected(up + settle, &mut c);
                }
            }
            if life.is_infinite() {
                return c;
            }
            let end = up + life;
            let k = if !lasting || life >= threshold {
                0
            } else {
                if attempt >= 5 {
                    c.downs += 1;
                    c.first_down_attempt.get_or_insert(attempt);
                    ep.alert(end, &mut c);
                }
                attempt + 1
            };
            let wait = (interval * 2f64.powi(k.saturating_sub(1).min(30) as i32)).min(cap);
            t = end + wait.min(2_147_483_647.0);
            attempt = k.max(1);
        }
        // What falls due before the next launch would come, which nothing can clear first.
        ep.advance(t, &mut c);
        c
    }

    fn life() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => Just(0.0),
            1 => Just(100.0),
            2 => (0u32..2_000).prop_map(f64::from),
            2 => (0u32..400_000).prop_map(f64::from),
            1 => Just(f64::INFINITY),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

        #[test]
        fn the_simulator_counts_what_the_host_model_counts(
            lasting in any::<bool>(),
            modern in any::<bool>(),
            interval in (1u32..20_000).prop_map(f64::from),
            extra in (0u32..400_000).prop_map(f64::from),
            lives in prop::collection::vec(life(), 1..5),
            startup in prop_oneof![Just(0.0), (0u32..2_000).prop_map(f64::from)],
            settle in prop_oneof![Just(0.0), Just(100.0), (0u32..500).prop_map(f64::from)],
            n in 1u64..300,
        ) {
            let cap = interval + extra;
            let preset = if lasting { Preset::Lasting } else { Preset::Handshake };
            let engine = if modern { EngineKind::Modern } else { EngineKind::Legacy };
            let r = Request {
                policy: preset.policy_with(engine, Timings { interval_ms: interval, cap_ms: cap }),
                scenario: Scenario {
                    behaviour: Behaviour::Lives(lives.clone()),
                    startup_ms: startup,
                    fail_after_ms: 0.0,
                    settle_ms: settle,
                },
                max_attempts: Some(n),
                span_ms: 1.0e15,
                seed: None,
                keep_rows: 0,
                strip_width: 1,
            };
            let s = simulate(&r).summary;
            let got = Counts {
                launches: s.launches,
                downs: s.downs,
                first_down_attempt: s.first_down_attempt,
                down_lines: s.status_down_lines,
                cleared_lines: s.status_cleared_lines,
            };
            let want = model(lasting, modern, interval, cap, &lives, startup, settle, n);
            prop_assert_eq!(got, want, "{:?}", r);
        }
    }
}
