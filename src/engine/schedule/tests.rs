use super::*;
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
    let mut r = req(Preset::Lasting, Timings::default(), "dies-after=0");
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
        "mcpl-down: MCPL server down (attempt 5): connected, then closed after 0 s"
    );
    assert_eq!(lines[1], "mcpl-down cleared (reconnected)");
    assert!(lines[2].starts_with("mcpl-down: MCPL server down (attempt 6)"));
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

#[test]
fn behaviour_specs_parse() {
    let s: Scenario = "lives=1s,5m,2h,startup=200ms".parse().expect("parses");
    assert_eq!(
        s.behaviour,
        Behaviour::Lives(vec![1000.0, 300_000.0, 7_200_000.0])
    );
    assert_eq!(s.startup_ms, 200.0);
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
