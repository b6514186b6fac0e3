use super::*;

fn nominal_waits(preset: Preset, engine: EngineKind, timings: Timings, n: u32) -> Vec<f64> {
    let policy = preset.policy_with(engine, timings);
    (1..=n)
        .map(|k| policy.timer_wait(policy.nominal_wait(k)))
        .collect()
}

fn secs(v: &[f64]) -> Vec<f64> {
    v.iter().map(|ms| ms / 1000.0).collect()
}

#[test]
fn every_preset_wait_sequence() {
    use EngineKind::Legacy;
    let table: &[(Preset, &[f64])] = &[
        (
            Preset::Handshake,
            &[5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0],
        ),
        (
            Preset::Lasting,
            &[5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0],
        ),
        (
            Preset::Bounded,
            &[5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0],
        ),
        (
            Preset::PrecedingWait,
            &[5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0],
        ),
        (
            Preset::Kubernetes,
            &[10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0, 300.0],
        ),
        (Preset::Docker, &[0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8]),
        (
            Preset::Pm2,
            &[0.1, 0.15, 0.225, 0.337, 0.505, 0.757, 1.135, 1.702],
        ),
        (
            Preset::Supervisord,
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        ),
        (Preset::Systemd, &[0.1; 8]),
        (
            Preset::McpSdkHttp,
            &[
                1.0, 1.5, 2.25, 3.375, 5.0625, 7.59375, 11.390625, 17.0859375,
            ],
        ),
    ];
    for (preset, want) in table {
        let got = secs(&nominal_waits(*preset, Legacy, preset.default_timings(), 8));
        assert_eq!(&got, want, "{preset}");
    }
    // PM2 reaches its 15 s cap and stays there.
    let pm2 = nominal_waits(Preset::Pm2, Legacy, Preset::Pm2.default_timings(), 20);
    assert_eq!(pm2[19], 15_000.0);
    // The MCP SDK's growth is capped at 30 s.
    let sdk = nominal_waits(
        Preset::McpSdkHttp,
        Legacy,
        Preset::McpSdkHttp.default_timings(),
        12,
    );
    assert_eq!(sdk[11], 30_000.0);
}

#[test]
fn count_zero_waits_the_base() {
    let p = Preset::Lasting.policy(EngineKind::Legacy);
    assert_eq!(p.nominal_wait(0), 5000.0);
    assert_eq!(p.nominal_wait(1), 5000.0);
}

#[test]
fn lasting_thresholds() {
    let t = |preset: Preset, cap: f64, preceding: f64| {
        preset
            .policy_with(
                EngineKind::Legacy,
                Timings {
                    interval_ms: 5000.0,
                    cap_ms: cap,
                },
            )
            .lasting_threshold(preceding)
    };
    let day = 86_400_000.0;
    assert_eq!(t(Preset::Lasting, 300_000.0, 0.0), Some(300_000.0));
    assert_eq!(t(Preset::Lasting, 60_000.0, 0.0), Some(300_000.0));
    assert_eq!(t(Preset::Lasting, day, 0.0), Some(day));
    assert_eq!(t(Preset::Lasting, f64::INFINITY, 0.0), Some(TIMER_LIMIT_MS));
    assert!(t(Preset::Lasting, f64::NAN, 0.0).is_some_and(f64::is_nan));
    assert_eq!(t(Preset::Bounded, day, 0.0), Some(3_600_000.0));
    assert_eq!(t(Preset::Bounded, 600_000.0, 0.0), Some(600_000.0));
    assert_eq!(t(Preset::Bounded, 1000.0, 0.0), Some(300_000.0));
    assert_eq!(t(Preset::PrecedingWait, day, 0.0), Some(300_000.0));
    assert_eq!(
        t(Preset::PrecedingWait, day, 7_200_000.0),
        Some(7_200_000.0)
    );
    assert_eq!(t(Preset::Handshake, day, 0.0), None);
    assert_eq!(t(Preset::Kubernetes, day, 0.0), Some(600_000.0));
    assert_eq!(t(Preset::Docker, day, 0.0), Some(10_000.0));
    assert_eq!(t(Preset::Systemd, day, 0.0), None);
}

#[test]
fn timer_clamp_and_javascript_overflow() {
    let inf = Timings {
        interval_ms: 5000.0,
        cap_ms: f64::INFINITY,
    };
    // main's legacy engine: no clamp, the JavaScript timer turns an overflow into 1 ms.
    let legacy = Preset::Handshake.policy_with(EngineKind::Legacy, inf);
    let waits: Vec<f64> = (1..=22)
        .map(|k| legacy.timer_wait(legacy.nominal_wait(k)))
        .collect();
    assert_eq!(waits[18], 5000.0 * 2f64.powi(18)); // k = 19
    assert_eq!(waits[19], 1.0); // k = 20: 2.6e9 ms passes the limit
    assert_eq!(waits[21], 1.0);
    // main's modern engine and #999 clamp.
    let modern = Preset::Handshake.policy_with(EngineKind::Modern, inf);
    assert_eq!(modern.timer_wait(modern.nominal_wait(20)), TIMER_LIMIT_MS);
    let lasting = Preset::Lasting.policy_with(EngineKind::Legacy, inf);
    assert_eq!(lasting.timer_wait(lasting.nominal_wait(40)), TIMER_LIMIT_MS);
    // The exponent stops at 30.
    let big = Preset::Lasting.policy_with(
        EngineKind::Legacy,
        Timings {
            interval_ms: 1.0,
            cap_ms: f64::INFINITY,
        },
    );
    assert_eq!(big.nominal_wait(31), 2f64.powi(30));
    assert_eq!(big.nominal_wait(100), 2f64.powi(30));
    // 0, negative and NaN timings run after 1 ms; fractions are truncated.
    for bad in [0.0, -5.0, f64::NAN] {
        let p = Preset::Handshake.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: bad,
                cap_ms: 300_000.0,
            },
        );
        assert_eq!(p.timer_wait(p.nominal_wait(3)), 1.0, "{bad}");
    }
    assert_eq!(legacy.timer_wait(1.9), 1.0);
    assert_eq!(legacy.timer_wait(250.7), 250.0);
}

#[test]
fn jitter_envelope_and_seeded_waits_stay_inside_it() {
    let p = Preset::Lasting.policy(EngineKind::Legacy);
    let range = |e: Envelope| (e.min_ms, e.max_ms, e.or_ms);
    assert_eq!(range(p.wait_envelope(1)), (3750.0, 6250.0, None));
    assert_eq!(range(p.wait_envelope(8)), (225_000.0, 375_000.0, None));
    let mut tr = Tracker::new(p.clone(), Some(42));
    let mut tr2 = Tracker::new(p, Some(42));
    for k in 0..20 {
        let w = tr.choose_wait(k);
        assert!(w.ms >= w.min_ms && w.ms <= w.max_ms, "{w:?}");
        assert_eq!(w, tr2.choose_wait(k), "same seed, same waits");
    }
    let none = Preset::Kubernetes.policy(EngineKind::Legacy);
    assert_eq!(range(none.wait_envelope(2)), (20_000.0, 20_000.0, None));
}

/// Issue 10, item 4: on the legacy engine under `handshake` (no clamp), a ±25 % range that
/// straddles 2^31-1 ms is two parts: the waits up to the limit, or 1 ms for the draws past it.
#[test]
fn a_jitter_range_past_the_timer_limit_is_stated_in_two_parts() {
    let t = Timings {
        interval_ms: 5000.0,
        cap_ms: 2_147_483_648.0,
    };
    let legacy = Preset::Handshake.policy_with(EngineKind::Legacy, t);
    let e = legacy.wait_envelope(21);
    assert_eq!(
        (e.min_ms, e.max_ms, e.or_ms),
        (1_610_612_736.0, TIMER_LIMIT_MS, Some(1.0))
    );
    // Every draw of the seeded jitter lands in one of the two parts, and both parts occur.
    let mut tr = Tracker::new(legacy, Some(2));
    let (mut low, mut one) = (false, false);
    for _ in 0..200 {
        let w = tr.choose_wait(21);
        assert!(w.envelope().holds(w.ms), "{w:?}");
        low |= w.ms > 1.0;
        one |= w.ms == 1.0;
    }
    assert!(low && one);
    // The modern engine clamps: one part, up to the limit.
    let modern = Preset::Handshake.policy_with(EngineKind::Modern, t);
    let e = modern.wait_envelope(21);
    assert_eq!(
        (e.min_ms, e.max_ms, e.or_ms),
        (1_610_612_736.0, TIMER_LIMIT_MS, None)
    );
    // Wholly past the limit: every draw runs after 1 ms.
    let inf = Preset::Handshake.policy_with(
        EngineKind::Legacy,
        Timings {
            interval_ms: 5000.0,
            cap_ms: f64::INFINITY,
        },
    );
    let e = inf.wait_envelope(40);
    assert_eq!((e.min_ms, e.max_ms, e.or_ms), (1.0, 1.0, None));
}

/// Issue 10, item 1: a timing that reads as 0, below 0 or not a number is refused at start
/// under the rules of hosts with the lasting-connection fix; main (`handshake`) runs it.
#[test]
fn bad_timings_are_refused_under_the_fixed_hosts_rules_only() {
    let with = |preset: Preset, interval_ms: f64, cap_ms: f64| {
        preset
            .policy_with(
                EngineKind::Legacy,
                Timings {
                    interval_ms,
                    cap_ms,
                },
            )
            .timing_refusal()
    };
    for preset in [Preset::Lasting, Preset::Bounded, Preset::PrecedingWait] {
        let r = with(preset, 0.0, 300_000.0).expect("refused");
        assert_eq!((r.field, r.reads_as), (TimingField::Interval, "0"));
        let r = with(preset, 5000.0, -1.0).expect("refused");
        assert_eq!((r.field, r.reads_as), (TimingField::Cap, "below 0"));
        let r = with(preset, f64::NAN, 0.0).expect("refused");
        assert_eq!(
            (r.field, r.reads_as),
            (TimingField::Interval, "not a number")
        );
        assert!(r.to_string().contains("reconnectIntervalMs"));
        assert_eq!(with(preset, 0.5, f64::INFINITY), None);
    }
    for preset in [Preset::Handshake, Preset::Kubernetes, Preset::Systemd] {
        assert_eq!(with(preset, 0.0, -1.0), None, "{preset}");
    }
}

fn short(ms: f64) -> Outcome {
    Outcome::Connected {
        lived_ms: ms,
        ended: Ended::Unknown,
    }
}

fn run(tracker: &mut Tracker, outcomes: &[Outcome]) -> Vec<Decision> {
    let mut t = 0.0;
    outcomes
        .iter()
        .map(|o| {
            let lived = match o {
                Outcome::Connected { lived_ms, .. } => *lived_ms,
                _ => 0.0,
            };
            let d = tracker.record(t, o, t + lived);
            if let Next::Retry { wait, .. } = d.next {
                t += lived + wait.ms;
            }
            d
        })
        .collect()
}

#[test]
fn attempt_numbering_across_a_lasting_connection() {
    // #999's test: short, short, lasted, short -> reconnected [1, 2, 1], failed [0, 1, 1].
    let mut tr = Tracker::new(Preset::Lasting.policy(EngineKind::Legacy), None);
    let d = run(
        &mut tr,
        &[
            short(1000.0),
            short(1000.0),
            short(400_000.0),
            short(1000.0),
        ],
    );
    let reconnected: Vec<u32> = d
        .iter()
        .filter_map(|d| match d.next {
            Next::Retry { attempt, .. } => Some(attempt),
            _ => None,
        })
        .take(3)
        .collect();
    assert_eq!(reconnected, vec![1, 2, 1]);
    let failed: Vec<u32> = d
        .iter()
        .filter(|d| d.counted.is_failure())
        .map(|d| d.attempt)
        .collect();
    assert_eq!(failed, vec![0, 1, 1]);
    assert_eq!(d[2].counted, Counted::Lasted);
    // After the lasted connection the wait is the base; after the failure of attempt 1, 10 s.
    match (d[2].next, d[3].next) {
        (Next::Retry { wait: a, .. }, Next::Retry { wait: b, .. }) => {
            assert_eq!(a.ms, 5000.0);
            assert_eq!(b.ms, 10_000.0);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn handshake_rule_never_counts_a_connection_as_failure() {
    let mut tr = Tracker::new(
        Preset::Handshake.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 200.0,
                cap_ms: 300_000.0,
            },
        ),
        None,
    );
    let d = run(&mut tr, &vec![short(300.0); 30]);
    for (i, d) in d.iter().enumerate() {
        assert_eq!(d.attempt, if i == 0 { 0 } else { 1 });
        assert_eq!(d.counted, Counted::HandshakeReset);
        assert_eq!(d.alert, None);
        assert!(matches!(d.next, Next::Retry { attempt: 1, wait } if wait.ms == 200.0));
    }
}

#[test]
fn lasting_rule_short_lived_connections_fail_and_alert_from_attempt_5() {
    let mut tr = Tracker::new(
        Preset::Lasting.policy_with(
            EngineKind::Legacy,
            Timings {
                interval_ms: 200.0,
                cap_ms: 300_000.0,
            },
        ),
        None,
    );
    let outcomes = vec![short(300.0); 8];
    let d = run(&mut tr, &outcomes);
    let attempts: Vec<u32> = d.iter().map(|d| d.attempt).collect();
    assert_eq!(attempts, vec![0, 1, 2, 3, 4, 5, 6, 7]);
    let waits: Vec<f64> = d
        .iter()
        .map(|d| match d.next {
            Next::Retry { wait, .. } => wait.ms,
            _ => f64::NAN,
        })
        .collect();
    assert_eq!(
        waits,
        vec![200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0, 12_800.0, 25_600.0]
    );
    assert!(d[..5].iter().all(|d| d.alert.is_none()));
    let alert = d[5].alert.map(|a| a.with_error(&outcomes[5].error()));
    assert_eq!(
        alert.as_deref(),
        Some("MCPL server down (attempt 5): connected, then closed after 0 s")
    );
}

#[test]
fn alert_wording_by_engine_and_release() {
    let err = Failure::Message("spawn ENOENT".into());
    let text = |preset: Preset, engine| {
        preset
            .policy(engine)
            .alert_for(6, false)
            .map(|a| a.with_error(&err))
    };
    assert_eq!(
        text(Preset::Handshake, EngineKind::Legacy).as_deref(),
        Some("MCPL server unreachable (attempt 6): spawn ENOENT")
    );
    assert_eq!(
        text(Preset::Handshake, EngineKind::Modern).as_deref(),
        Some("MCP server unreachable (attempt 6): spawn ENOENT")
    );
    assert_eq!(
        text(Preset::Lasting, EngineKind::Modern).as_deref(),
        Some("MCP server down (attempt 6): spawn ENOENT")
    );
    assert_eq!(text(Preset::Kubernetes, EngineKind::Legacy), None);
}

#[test]
fn permanent_failure_alerts_at_once_and_halts() {
    let mut tr = Tracker::new(Preset::Lasting.policy(EngineKind::Legacy), None);
    let d = tr.record(
        0.0,
        &Outcome::Permanent(Failure::Message("version".into())),
        10.0,
    );
    assert_eq!(d.counted, Counted::Permanent);
    assert!(d.alert.is_some());
    assert_eq!(d.next, Next::Halt);
    assert!(tr.finished());
}

#[test]
fn give_up_rules() {
    let never = || Outcome::FailedToConnect(Failure::Simulated);
    // supervisord: startretries=3, the 4th failed start is FATAL.
    let mut tr = Tracker::new(Preset::Supervisord.policy(EngineKind::Legacy), None);
    let d = run(&mut tr, &vec![never(); 4]);
    assert!(matches!(d[2].next, Next::Retry { .. }));
    assert!(matches!(d[3].next, Next::GiveUp { .. }));
    // MCP SDK: 2 retries.
    let mut tr = Tracker::new(Preset::McpSdkHttp.policy(EngineKind::Legacy), None);
    let d = run(&mut tr, &vec![never(); 3]);
    assert!(matches!(d[1].next, Next::Retry { .. }));
    assert!(matches!(d[2].next, Next::GiveUp { .. }));
    // systemd: the 6th start within 10 s is refused.
    let mut tr = Tracker::new(Preset::Systemd.policy(EngineKind::Legacy), None);
    let d = run(&mut tr, &vec![never(); 6]);
    assert!(matches!(d[3].next, Next::Retry { .. }));
    assert!(matches!(d[4].next, Next::GiveUp { .. }), "{:?}", d[4]);
    // PM2: 16 restarts each under 1 s.
    let mut tr = Tracker::new(Preset::Pm2.policy(EngineKind::Legacy), None);
    let d = run(&mut tr, &vec![short(10.0); 20]);
    assert!(matches!(d[14].next, Next::Retry { .. }));
    assert!(matches!(d[15].next, Next::GiveUp { .. }));
    // Kubernetes never gives up.
    let mut tr = Tracker::new(Preset::Kubernetes.policy(EngineKind::Legacy), None);
    let d = run(&mut tr, &vec![never(); 50]);
    assert!(d.iter().all(|d| matches!(d.next, Next::Retry { .. })));
}

#[test]
fn short_lived_error_texts() {
    let o = Outcome::Connected {
        lived_ms: 42_999.0,
        ended: Ended::WsClose {
            code: 4000,
            reason: "idle".into(),
        },
    };
    assert_eq!(
        o.error().to_string(),
        "connected, then closed after 42 s (close 4000: idle)"
    );
    let o = Outcome::Connected {
        lived_ms: 300.0,
        ended: Ended::Exit { code: 0 },
    };
    assert_eq!(
        o.error().to_string(),
        "connected, then closed after 0 s (exit 0)"
    );
    let o = Outcome::Connected {
        lived_ms: 1500.0,
        ended: Ended::Signal { signal: 15 },
    };
    assert_eq!(
        o.error().to_string(),
        "connected, then closed after 1 s (signal SIGTERM)"
    );
    assert_eq!(
        Outcome::FailedToConnect(Failure::Simulated)
            .error()
            .to_string(),
        "failed to connect"
    );
}

#[test]
fn preset_names_round_trip() {
    for name in PRESET_NAMES {
        let p: Preset = name.parse().expect("known preset");
        assert_eq!(p.name(), *name);
    }
    assert!("nope".parse::<Preset>().is_err());
}
