//! Planning each kind of entry (probe, skip, refuse), selecting entries, and the fleet runner
//! against real fixture servers (`fixtures/servers/server.mjs`, Node).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::engine::config::{self, CheckOptions, Report, ServerEntry, Source};
use crate::engine::policy::{Preset, Timings};
use crate::engine::probe::{self, AttemptOptions, Protocol, Target};
use crate::engine::redact::Redactor;

fn options(rule: Preset) -> PlanOptions {
    PlanOptions {
        rule,
        rule_given: true,
        interval: None,
        cap: None,
        open_timeout_ms: 15_000.0,
        redact: vec!["redacted-on-the-command-line".into()],
        include_disabled: false,
        http_era: None,
        host: None,
        workspace: None,
        inputs: Vec::new(),
    }
}

/// The entries of `text` (as `name`) and the checker's report under `rule`'s check preset.
fn loaded(name: &str, text: &str, opts: &PlanOptions) -> (Vec<ServerEntry>, Report) {
    let source = Source::from_bytes(name, PathBuf::from("/srv"), text.as_bytes().to_vec())
        .expect("a readable file");
    let check = CheckOptions {
        preset: opts.check_preset(),
        env: &|_| None,
        dialect: Default::default(),
        platforms: crate::engine::config::Platforms::current(),
    };
    let entries = config::load_servers_from(&source, &|_| None).expect("parses");
    let report = config::check_source(&source, &check).expect("parses");
    (entries, report)
}

fn plan_of(text: &str, id: &str, opts: &PlanOptions) -> EntryPlan {
    let (entries, report) = loaded("hosts.json", text, opts);
    let entry = find_entry(Path::new("hosts.json"), id, &entries).expect("the entry");
    plan_entry(entry, &report, opts)
}

const HOSTS: &str = r#"{
  "mcplServers": {
    "files": { "command": "node", "args": ["./files.mjs"], "env": { "API_KEY": "sk-entry-secret-1" },
               "reconnect": true, "reconnectIntervalMs": 2000 },
    "remote": { "url": "ws://127.0.0.1:9/mcpl", "token": "tok-entry-secret-2" },
    "web": { "url": "http://127.0.0.1:9/mcp" },
    "off": { "command": "node", "disabled": true },
    "zero": { "command": "node", "reconnect": true, "reconnectIntervalMs": 0 },
    "nothing": { "args": ["x"] }
  }
}"#;

#[test]
fn a_stdio_entry_is_probed_as_the_host_launches_it() {
    let EntryPlan::Probe(r) = plan_of(HOSTS, "files", &options(Preset::Lasting)) else {
        panic!("files is probed");
    };
    let Target::Stdio(t) = &r.target else {
        panic!("a stdio target");
    };
    assert_eq!(t.command, "node");
    assert_eq!(t.args, ["/srv/files.mjs"]);
    assert!(t.env.as_ref().is_some_and(|env| env
        .iter()
        .any(|(k, v)| k == "API_KEY" && v == "sk-entry-secret-1")));
    assert_eq!(r.protocol, Protocol::Legacy);
    assert_eq!(r.timings.interval_ms, 2000.0);
    assert_eq!(r.timings.cap_ms, 300_000.0);
    // The entry's env value and the command line's --redact are both masked.
    assert_eq!(
        r.redactor
            .redact("sk-entry-secret-1 redacted-on-the-command-line"),
        r.redactor.redact("[redacted] [redacted]")
    );
    let entry = r.entry.as_ref().expect("an entry");
    assert_eq!(entry.id, "files");
    assert_eq!(entry.path, "$.mcplServers.files");
    assert_eq!(entry.at, "hosts.json:3:5");
}

#[test]
fn url_entries_are_dialled_with_their_token_and_family() {
    let EntryPlan::Probe(ws) = plan_of(HOSTS, "remote", &options(Preset::Lasting)) else {
        panic!("remote is probed");
    };
    assert_eq!(ws.target.transport(), "websocket");
    assert_eq!(ws.protocol, Protocol::Legacy);
    assert!(!ws
        .redactor
        .redact("tok-entry-secret-2")
        .contains("tok-entry"));
    let EntryPlan::Probe(http) = plan_of(HOSTS, "web", &options(Preset::Lasting)) else {
        panic!("web is probed");
    };
    assert_eq!(http.target.transport(), "http");
    assert_eq!(http.protocol, Protocol::Modern);
}

#[test]
fn a_disabled_entry_is_skipped_unless_asked() {
    let EntryPlan::Skipped(why) = plan_of(HOSTS, "off", &options(Preset::Lasting)) else {
        panic!("off is skipped");
    };
    assert!(
        why.starts_with("disabled, the host does not start it"),
        "{why}"
    );
    let mut include = options(Preset::Lasting);
    include.include_disabled = true;
    assert!(matches!(
        plan_of(HOSTS, "off", &include),
        EntryPlan::Probe(_)
    ));
}

#[test]
fn a_policy_only_override_is_skipped() {
    let opts = options(Preset::Lasting);
    let (entries, report) = loaded(
        "coder.agent.json",
        r#"{ "mcplServers": { "files": { "toolPrefix": "f" } } }"#,
        &opts,
    );
    let EntryPlan::Skipped(why) = plan_entry(&entries[0], &report, &opts) else {
        panic!("an override is skipped");
    };
    assert!(why.starts_with("it only overrides policy fields"), "{why}");
}

#[test]
fn the_checkers_errors_refuse_an_entry_with_its_own_words() {
    let EntryPlan::Refused(label, findings) = plan_of(HOSTS, "zero", &options(Preset::Lasting))
    else {
        panic!("zero is refused");
    };
    assert_eq!(label, "refused by the host");
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].code, "reconnect-timing");
    assert_eq!(findings[0].path, "$.mcplServers.zero.reconnectIntervalMs");
    assert!(findings[0]
        .message
        .starts_with("`reconnectIntervalMs` is 0"));

    let EntryPlan::Refused(_, findings) = plan_of(HOSTS, "nothing", &options(Preset::Lasting))
    else {
        panic!("nothing is refused");
    };
    assert_eq!(findings[0].code, "binding");
}

#[test]
fn under_handshake_a_refused_timing_runs_as_older_hosts_run_it() {
    let EntryPlan::Probe(r) = plan_of(HOSTS, "zero", &options(Preset::Handshake)) else {
        panic!("zero runs under handshake");
    };
    assert_eq!(r.timings.interval_ms, 0.0);
}

#[test]
fn a_command_line_timing_the_host_refuses_refuses_the_entry_and_names_the_flag() {
    let mut opts = options(Preset::Lasting);
    opts.interval = Some(0.0);
    let EntryPlan::Refused(_, findings) = plan_of(HOSTS, "files", &opts) else {
        panic!("files is refused with --interval 0");
    };
    assert_eq!(findings[0].code, "reconnect-timing");
    assert!(
        findings[0]
            .message
            .contains("reconnectIntervalMs (--interval) reads as 0"),
        "{}",
        findings[0].message
    );
    assert!(!findings[0].message.contains('\n'));
    let refusal = opts
        .timing_refusal(Protocol::Legacy, opts.timings_for(None))
        .expect("refused");
    assert!(refusal.hint().starts_with("give a timing above 0"));
}

#[test]
fn timings_come_from_the_command_line_then_the_entry_then_the_rule() {
    let entry = Some(Timings {
        interval_ms: 2000.0,
        cap_ms: 9000.0,
    });
    let mut opts = options(Preset::Lasting);
    assert_eq!(opts.timings_for(entry).interval_ms, 2000.0);
    assert_eq!(opts.timings_for(None).interval_ms, 5000.0);
    opts.cap = Some(700.0);
    assert_eq!(opts.timings_for(entry).cap_ms, 700.0);
    assert_eq!(opts.timings_for(entry).interval_ms, 2000.0);
}

#[test]
fn server_ids_name_one_entry_or_say_which_ones_exist() {
    let opts = options(Preset::Lasting);
    let text = r#"{ "hosts": {
        "prod": { "mcplServers": { "files": { "command": "a" } } },
        "staging": { "mcplServers": { "files": { "command": "b" } } } },
      "mcplServers": { "solo": { "command": "c" } } }"#;
    let (entries, _) = loaded("hosts.json", text, &opts);
    let file = Path::new("hosts.json");
    assert_eq!(
        find_entry(file, "prod/files", &entries)
            .map(|e| e.path.as_str())
            .ok(),
        Some("$.hosts.prod.mcplServers.files")
    );
    let many = find_entry(file, "files", &entries).expect_err("ambiguous");
    assert_eq!(
        many.to_string(),
        "hosts.json: 2 entries are named \"files\"; give one of these to --server:\n  \
         prod/files  ($.hosts.prod.mcplServers.files)\n  \
         staging/files  ($.hosts.staging.mcplServers.files)"
    );
    let none = find_entry(file, "nope", &entries).expect_err("unknown");
    assert_eq!(
        none.to_string(),
        "hosts.json: no server \"nope\" (servers: prod/files, solo, staging/files)"
    );
}

fn fixture_server() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/servers/server.mjs")
        .display()
        .to_string()
}

/// What the sink saw, in order, as short words.
fn seen(log: &Mutex<Vec<String>>) -> Vec<String> {
    log.lock().map(|l| l.clone()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fleet_runs_every_probed_entry_at_once_and_reports_the_rest_first() {
    let server = fixture_server();
    let text = format!(
        r#"{{ "mcplServers": {{
          "skipped": {{ "command": "node", "disabled": true }},
          "up": {{ "command": "node", "args": [{server:?}] }},
          "refused": {{ "args": [] }},
          "gone": {{ "command": "node", "args": [{server:?}, "--exit-after-handshake", "20"],
                     "reconnect": true, "reconnectIntervalMs": 10 }}
        }} }}"#
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("hosts.json");
    std::fs::write(&file, text).expect("written");
    let plan = options(Preset::Lasting);
    let items = select(&file, Selection::All, &plan).expect("selected");
    let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["skipped", "up", "refused", "gone"]);

    let (_handle, stop) = probe::stop_pair();
    let opts = FleetOptions {
        host_budgets: Default::default(),
        seed: 1,
        launches: Some(2),
        run_for: Some(Duration::from_secs(20)),
        until_down: false,
        attempt: AttemptOptions {
            protocol: Protocol::Legacy,
            handshake_timeout: Duration::from_secs(10),
            watch: Duration::from_millis(300),
            ping: None,
            redactor: Arc::new(Redactor::new()),
            stop,
            deadline: None,
            epoch: tokio::time::Instant::now(),
            start_budget: Duration::from_secs(60),
            handshake_only: true,
            strict: false,
            call: None,
            notable_stderr: crate::engine::probe::no_notable_stderr,
        },
    };
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink_log = log.clone();
    let sink: Arc<Sink> = Arc::new(move |e: FleetEvent<'_>| {
        let word = match e {
            FleetEvent::NotProbed(s) => format!("not probed {}", s.name),
            FleetEvent::Server {
                index, name, event, ..
            } => match event {
                probe::Event::Started { .. } => format!("started {index} {name}"),
                _ => return,
            },
            FleetEvent::Judged(s) => format!("judged {}", s.name),
        };
        if let Ok(mut l) = sink_log.lock() {
            l.push(word);
        }
    });
    let runs = run(items, opts, sink.clone()).await;
    let before = seen(&log);
    assert_eq!(before[..2], ["not probed skipped", "not probed refused"]);
    let mut started = before[2..].to_vec();
    started.sort();
    assert_eq!(started, ["started 0 up", "started 1 gone"]);
    // At once: the whole run is about the slower server's time, not the sum.
    assert!(runs.elapsed_ms < 15_000.0, "{}", runs.elapsed_ms);

    let servers = runs.judge(None, &*sink);
    assert_eq!(seen(&log)[4..], ["judged up", "judged gone"]);
    let results: Vec<String> = servers
        .iter()
        .map(|s| match &s.result {
            ServerResult::Probed(p) => format!("{} {:?}", s.name, p.verdict.pattern),
            ServerResult::Skipped(_) => format!("{} skipped", s.name),
            ServerResult::Refused { findings, .. } => {
                format!("{} refused {}", s.name, findings[0].code)
            }
            ServerResult::CannotLaunch(e) => format!("{} cannot launch {e}", s.name),
        })
        .collect();
    assert_eq!(
        results,
        [
            "skipped skipped",
            "up StayedUp",
            "refused refused binding",
            "gone ShortLived"
        ]
    );
    let c = counts(&servers);
    assert_eq!(
        (c.probed, c.stayed_up, c.did_not, c.refused, c.skipped),
        (2, 1, 1, 1, 1)
    );
    assert!(servers.iter().filter(|s| s.is_finding()).count() == 2);
}

/// How a run comes out for its exit status, decided once for one server alone and for many
/// (issue 29): a run whose `--for` ended before any handshake has nothing to judge, which is
/// no finding against the server, unless another entry is a finding; skipped entries count
/// for nothing.
#[test]
fn how_a_run_comes_out_is_decided_once_for_one_server_and_many() {
    use crate::engine::policy::EngineKind;
    use crate::engine::probe::runner::verdict;
    use crate::engine::probe::{Finish, ProbeRun};
    let report = |name: &str, result: ServerResult| ServerReport {
        name: name.into(),
        transport: "stdio".into(),
        at: String::new(),
        path: String::new(),
        result,
        why: Vec::new(),
    };
    let unjudged = || {
        let run = ProbeRun {
            policy: Preset::Lasting.policy_with(EngineKind::Legacy, Timings::default()),
            seed: 1,
            launches: Vec::new(),
            folded: Default::default(),
            finish: Finish::Deadline,
            planned: None,
            started_wall: std::time::SystemTime::now(),
            elapsed_ms: 30.0,
            strict: false,
            args: vec![],
        };
        let verdict = verdict::judge(&run, EngineKind::Legacy, 0.0);
        let probed = Probed {
            run,
            verdict,
            target: "node s.mjs".into(),
            protocol: Protocol::Legacy,
            interrupted: None,
        };
        report("s", ServerResult::Probed(Box::new(probed)))
    };
    let skipped = || report("off", ServerResult::Skipped("disabled".into()));
    let refused = || {
        let result = ServerResult::Refused {
            label: "refused by the host".into(),
            findings: Vec::new(),
        };
        report("zero", result)
    };
    let gone = || report("gone", ServerResult::CannotLaunch("not found".into()));
    let nothing = Ending::NothingJudged {
        unjudged: 1,
        probed: 1,
    };
    assert!(!unjudged().is_finding());
    assert_eq!(ending(&[unjudged()]), nothing);
    assert_eq!(ending(&[skipped(), unjudged()]), nothing);
    assert_eq!(ending(&[unjudged(), gone()]), Ending::Findings);
    assert_eq!(ending(&[refused(), unjudged()]), Ending::Findings);
    assert_eq!(ending(&[skipped()]), Ending::Clean);
}

/// One server alone is a fleet of one (issue 29): planned from its entry, it is named, placed
/// and prepared as that entry of `--all` is, seed and budgets included; the Why is told the
/// budgets it ran under exactly (`--handshake-timeout 60` reads back as 60 ms), and whether it
/// comes from an entry.
#[test]
fn one_server_alone_is_prepared_as_the_same_entry_of_a_fleet() {
    let plan = || match plan_of(HOSTS, "files", &options(Preset::Lasting)) {
        EntryPlan::Probe(r) => r,
        _ => panic!("files is probed"),
    };
    let (_handle, stop) = probe::stop_pair();
    let opts = FleetOptions {
        host_budgets: Default::default(),
        seed: 7,
        launches: Some(1),
        run_for: None,
        until_down: false,
        attempt: AttemptOptions {
            protocol: Protocol::Legacy,
            handshake_timeout: duration(60.0),
            watch: Duration::from_millis(300),
            ping: None,
            redactor: Arc::new(Redactor::new()),
            stop,
            deadline: None,
            epoch: tokio::time::Instant::now(),
            start_budget: duration(2000.0),
            handshake_only: true,
            strict: false,
            call: None,
            notable_stderr: crate::engine::probe::no_notable_stderr,
        },
    };
    let alone = Item::alone(*plan());
    assert_eq!(
        (
            alone.name.as_str(),
            alone.transport.as_str(),
            alone.position
        ),
        ("files", "stdio", 0)
    );
    assert_eq!(alone.at, "hosts.json:3:5");
    let EntryPlan::Probe(resolved) = &alone.plan else {
        panic!("alone, it is probed");
    };
    let one = prepare(resolved, &opts, alone.position);
    let many = prepare(&plan(), &opts, 0);
    assert_eq!(one.run.seed, many.run.seed);
    assert_eq!(one.run.policy, many.run.policy);
    assert_eq!(one.target_text, many.target_text);
    assert_eq!(one.setting.handshake_timeout_ms, Some(60.0));
    assert_eq!(one.setting.start_budget_ms, Some(2000.0));
    assert_eq!(
        (
            one.setting.handshake_timeout_ms,
            one.setting.start_budget_ms
        ),
        (
            many.setting.handshake_timeout_ms,
            many.setting.start_budget_ms
        )
    );
    assert!(one.setting.entry && many.setting.entry);
    // A bare command has no entry: the Why speaks of the command line, not of fields.
    let mut bare = *plan();
    bare.entry = None;
    assert!(!prepare(&bare, &opts, 0).setting.entry);
}
