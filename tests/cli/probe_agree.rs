//! One server probed alone (`probe -- CMD`, `--server ID`) and the same server as an entry of
//! a configuration (`--config F --all`) get the same verdict and the same exit status: both
//! ways run through the real binary on the same fixture server (`fixtures/servers/server.mjs`).
//! Also what the fleet says when it launched nothing, and the hint for a missing `command`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::support::{bin, fixture, json, server_mjs, stderr, stdout};

/// A folder with the fixture server and a configuration whose entry `s` launches it with
/// `fixture_args`, every wait 30 ms.
fn setup(fixture_args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::copy(server_mjs(), dir.path().join("server.mjs")).expect("copy the fixture");
    let mut args = vec!["./server.mjs"];
    args.extend_from_slice(fixture_args);
    let config = json!({"mcplServers": {
        "s": {"command": "node", "args": args, "reconnect": true, "reconnectIntervalMs": 30},
        "gone": {"command": "mcpl-no-such-command-7d1f"}
    }});
    let file = dir.path().join("mcpl-servers.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    (dir, file)
}

fn probe(dir: &Path, args: &[&str]) -> Output {
    let mut cmd: Command = bin();
    cmd.current_dir(dir)
        .arg("probe")
        .args(args)
        .stdin(Stdio::null());
    cmd.output().expect("the binary runs")
}

/// The same run both ways: alone (`-- node ./server.mjs ARGS`, waits of 30 ms) and as entry
/// `s` under `--all`; each output and its JSON document's verdict.
fn both_ways(fixture_args: &[&str], common: &[&str]) -> [(Output, Option<Value>); 2] {
    let (dir, file) = setup(fixture_args);
    let mut alone: Vec<&str> = vec!["--interval", "30", "--format", "json"];
    alone.extend_from_slice(common);
    alone.extend(["--", "node", "./server.mjs"]);
    alone.extend_from_slice(fixture_args);
    let one = probe(dir.path(), &alone);
    let file_text = file.display().to_string();
    let mut fleet: Vec<&str> = vec!["--config", &file_text, "--server", "s", "--server", "s"];
    fleet.extend(["--format", "json"]);
    fleet.extend_from_slice(common);
    let all = probe(dir.path(), &fleet);
    let one_doc = serde_json::from_slice::<Value>(&one.stdout).ok();
    let all_doc = serde_json::from_slice::<Value>(&all.stdout)
        .ok()
        .and_then(|d| d["servers"].get(0).cloned());
    [(one, one_doc), (all, all_doc)]
}

fn pattern(doc: &Option<Value>) -> Value {
    doc.as_ref()
        .map_or(Value::Null, |d| d["verdict"]["pattern"].clone())
}

#[test]
fn a_for_too_short_for_any_handshake_is_nothing_to_judge_both_ways() {
    let [(one, one_doc), (all, all_doc)] = both_ways(&[], &["--for", "30ms"]);
    for (how, out) in [("alone", &one), ("in --all", &all)] {
        assert_eq!(out.status.code(), Some(2), "{how}: {}", stderr(out));
        assert!(
            stderr(out).contains("--for 30 ms ended before the first handshake; did you mean"),
            "{how}: {}",
            stderr(out)
        );
    }
    assert_eq!(pattern(&one_doc), json!("unknown"));
    assert_eq!(pattern(&all_doc), pattern(&one_doc));
    // The fleet counts it as such, not as a server that did not stay up.
    let doc: Value = serde_json::from_slice(&all.stdout).expect("a document");
    assert_eq!(doc["summary"]["nothing_judged"], 1, "{doc}");
    assert_eq!(doc["summary"]["did_not_stay_up"], 0, "{doc}");
}

#[test]
fn a_server_that_stays_up_and_one_that_exits_agree_both_ways() {
    for (args, code, want) in [
        (&[][..], 0, "stayed-up"),
        (&["--exit-after-handshake", "100"][..], 1, "short-lived"),
    ] {
        let common = ["--launches", "2", "--watch", "700ms", "--seed", "3"];
        let [(one, one_doc), (all, all_doc)] = both_ways(args, &common);
        assert_eq!(one.status.code(), Some(code), "alone: {}", stderr(&one));
        assert_eq!(all.status.code(), Some(code), "in --all: {}", stderr(&all));
        assert_eq!(pattern(&one_doc), json!(want), "{}", stdout(&one));
        assert_eq!(pattern(&all_doc), pattern(&one_doc), "{}", stdout(&all));
    }
}

/// Issue 29 item 1, the agreements pinned before one path: a server that never completes its
/// handshake and one the host refuses for good (another protocol version) get the same
/// pattern, the same verdict sentence, the same diagnoses and the same exit status alone and
/// as an entry of `--all`.
#[test]
fn a_server_that_never_connects_and_one_refused_for_good_agree_both_ways() {
    for (args, code, want) in [
        (&["--exit-before-answer", "3"][..], 1, "never-connected"),
        (&["--answer", "version:2025-03-26"][..], 1, "refused"),
    ] {
        let common = ["--launches", "2", "--seed", "3"];
        let [(one, one_doc), (all, all_doc)] = both_ways(args, &common);
        assert_eq!(one.status.code(), Some(code), "alone: {}", stderr(&one));
        assert_eq!(all.status.code(), Some(code), "in --all: {}", stderr(&all));
        assert_eq!(pattern(&one_doc), json!(want), "{}", stdout(&one));
        assert_eq!(pattern(&all_doc), pattern(&one_doc), "{}", stdout(&all));
        let field = |doc: &Option<Value>, f: &dyn Fn(&Value) -> Value| doc.as_ref().map(f);
        let text = |d: &Value| d["verdict"]["text"].clone();
        assert_eq!(field(&one_doc, &text), field(&all_doc, &text), "{args:?}");
        let ids = |d: &Value| {
            Value::Array(
                d["diagnoses"]
                    .as_array()
                    .map(|a| a.iter().map(|x| x["id"].clone()).collect())
                    .unwrap_or_default(),
            )
        };
        assert_eq!(field(&one_doc, &ids), field(&all_doc, &ids), "{args:?}");
    }
}

#[test]
fn a_missing_command_of_an_entry_names_its_command_field_not_the_double_dash() {
    let (dir, file) = setup(&[]);
    let file_text = file.display().to_string();
    let out = probe(dir.path(), &["--config", &file_text, "--server", "gone"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains("after `--`"), "{err}");
    assert!(
        err.contains("check the `command` field of server \"gone\" at ")
            && err.contains("mcpl-servers.json:1:"),
        "{err}"
    );
    // Alone, the command is the one after `--`.
    let out = probe(dir.path(), &["--", "mcpl-no-such-command-7d1f"]);
    assert!(
        stderr(&out).contains("check the command after `--`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_fleet_that_launched_nothing_says_why_by_cause() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::create_dir(dir.path().join(".vscode")).expect("mkdir");
    let config = json!({
        "inputs": [{"id": "docs-token", "type": "promptString", "password": true}],
        "servers": {
            "a": {"command": "node", "args": ["x.mjs"], "env": {"T": "${input:docs-token}"}},
            "b": {"command": "node", "args": ["x.mjs"], "env": {"T": "${input:docs-token}"}},
            "c": {"command": "node", "args": ["x.mjs"],
                  "envFile": "${workspaceFolder}/nope.env"}
        }
    });
    let file = dir.path().join(".vscode").join("mcp.json");
    std::fs::write(&file, config.to_string()).expect("write");
    let file_text = file.display().to_string();
    let out = probe(dir.path(), &["--config", &file_text, "--all"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            &("Launched none of 3 entries in ".to_string()
                + &file_text
                + ": 2 entries need \
             `--input docs-token=VALUE`, 1 is refused: env-file-missing.")
        ),
        "{text}"
    );
    assert!(!flat.contains("0 ms in all"), "{text}");
    assert!(
        flat.contains("2 not launched (an --input to give), 1 not probed (check-config errors)"),
        "{text}"
    );
    let out = probe(
        dir.path(),
        &["--config", &file_text, "--all", "--format", "json"],
    );
    let doc = json(&out);
    assert_eq!(doc["summary"]["refused"], 3, "{doc}");
    assert_eq!(doc["summary"]["needs_input"], 2, "{doc}");
}

/// #27 item 5: `--format json` prints one document even when nothing could be probed: a
/// command not found (its diagnoses), an entry the host refuses (its findings); exit 2 stays.
#[test]
fn json_has_a_document_when_nothing_could_be_probed() {
    let (dir, file) = setup(&[]);
    let out = probe(
        dir.path(),
        &["--format", "json", "--", "mcpl-no-such-command-7d1f"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["not_probed"], "cannot-launch", "{doc}");
    assert_eq!(doc["diagnoses"][0]["id"], "command-not-found", "{doc}");
    let config = json!({"mcplServers": {
        "zero": {"command": "node", "reconnect": true, "reconnectIntervalMs": 0}
    }});
    std::fs::write(&file, config.to_string()).expect("write");
    let file_text = file.display().to_string();
    let out = probe(
        dir.path(),
        &[
            "--format", "json", "--config", &file_text, "--server", "zero",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["not_probed"], "refused", "{doc}");
    assert_eq!(doc["id"], "zero", "{doc}");
    assert_eq!(doc["findings"][0]["code"], "reconnect-timing", "{doc}");
}

/// The ids of a document's `diagnoses`, in order.
fn diagnosis_ids(doc: &Value) -> Vec<String> {
    doc["diagnoses"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|d| d["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Issue 29: the Why knows the probe's own `--handshake-timeout` either way. A fleet's entry
/// was told of a host's start budget only, so a timeout of milliseconds that the server alone
/// was told was the probe's doing went unnamed in `--all`.
#[test]
fn a_handshake_timeout_of_milliseconds_is_named_in_the_why_both_ways() {
    let common = [
        "--handshake-timeout",
        "60",
        "--launches",
        "2",
        "--seed",
        "3",
    ];
    let [(one, one_doc), (all, all_doc)] = both_ways(&["--startup-ms", "600"], &common);
    assert_eq!(one.status.code(), Some(1), "alone: {}", stderr(&one));
    assert_eq!(all.status.code(), Some(1), "in --all: {}", stderr(&all));
    let (one_doc, all_doc) = (one_doc.expect("a document"), all_doc.expect("a document"));
    assert_eq!(
        diagnosis_ids(&one_doc).first().map(String::as_str),
        Some("handshake-timeout-too-short"),
        "{one_doc}"
    );
    assert_eq!(
        diagnosis_ids(&all_doc),
        diagnosis_ids(&one_doc),
        "{all_doc}"
    );
    assert_eq!(pattern(&Some(all_doc)), pattern(&Some(one_doc)));
}

/// Issue 29: `--config F --all --for 30ms` on a file whose one entry never gets to its
/// handshake says what one server alone says, with the same exit status (2): nothing was
/// judged, so it is no finding against the server.
#[test]
fn all_with_a_for_too_short_is_nothing_to_judge_as_one_server_is() {
    let (dir, file) = setup(&[]);
    let config = json!({"mcplServers": {
        "s": {"command": "node", "args": ["./server.mjs"], "reconnect": true,
              "reconnectIntervalMs": 30}
    }});
    std::fs::write(&file, config.to_string()).expect("write the config");
    let file_text = file.display().to_string();
    let all = probe(
        dir.path(),
        &["--config", &file_text, "--all", "--for", "30ms"],
    );
    let one = probe(
        dir.path(),
        &["--config", &file_text, "--server", "s", "--for", "30ms"],
    );
    let alone = probe(dir.path(), &["--for", "30ms", "--", "node", "./server.mjs"]);
    for (how, out) in [("--all", &all), ("--server", &one), ("alone", &alone)] {
        assert_eq!(out.status.code(), Some(2), "{how}: {}", stderr(out));
        assert!(
            stderr(out).contains("--for 30 ms ended before the first handshake; did you mean"),
            "{how}: {}",
            stderr(out)
        );
        let text = stdout(out);
        assert!(!text.contains("did not stay up"), "{how}: {text}");
    }
}

/// Issue 29: a command that cannot be launched gets the same Why alone (`--server gone`, its
/// one document) and among others (`--server gone --server s`, its entry under
/// `cannot_launch`); the exit status is 2 alone (a launch error) and 1 among others (a finding
/// about that entry), as docs/exit-codes.md says.
#[test]
fn a_command_that_cannot_be_launched_has_the_same_why_alone_and_among_others() {
    let (dir, file) = setup(&[]);
    let file_text = file.display().to_string();
    let json_args = ["--format", "json", "--launches", "1", "--watch", "300ms"];
    let mut alone = vec!["--config", &file_text, "--server", "gone"];
    alone.extend(json_args);
    let one = probe(dir.path(), &alone);
    let mut many = vec!["--config", &file_text, "--server", "gone", "--server", "s"];
    many.extend(json_args);
    let all = probe(dir.path(), &many);
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    assert_eq!(all.status.code(), Some(1), "{}", stderr(&all));
    let one_doc = json(&one);
    let all_doc = json(&all);
    assert_eq!(one_doc["not_probed"], "cannot-launch", "{one_doc}");
    let gone = &all_doc["cannot_launch"][0];
    assert_eq!(gone["id"], "gone", "{all_doc}");
    assert_eq!(
        diagnosis_ids(gone),
        diagnosis_ids(&one_doc),
        "{one_doc}\n{all_doc}"
    );
    assert_eq!(
        diagnosis_ids(&one_doc).first().map(String::as_str),
        Some("command-not-found")
    );
    // Its next step names the entry's `command` field both ways, never the `--`.
    for doc in [&one_doc, gone] {
        let next = doc["diagnoses"][0]["next_step"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(!next.is_empty(), "{doc}");
        assert!(!next.contains("after `--`"), "{next}");
    }
}

/// Issue 29: the Why of an install cut short names the `--start-budget` the launch ran under
/// alone and as an entry of a configuration (the fleet's Why knew a host's start budget only,
/// and said 60 s there).
#[test]
fn an_install_cut_short_names_the_same_start_budget_both_ways() {
    let npx = fixture("servers/installer/npx").display().to_string();
    let common = [
        "--format",
        "json",
        "--launches",
        "1",
        // Seconds enough for the fixture (Python) to start on a loaded machine; the install
        // takes 8 s, so the budget cuts it short.
        "--handshake-timeout",
        "3s",
        "--start-budget",
        "4s",
    ];
    let next_step = |cache: &Path, args: &[&str]| -> String {
        let mut cmd: Command = bin();
        cmd.arg("probe")
            .args(common)
            .args(args)
            .env("npm_config_cache", cache)
            .stdin(Stdio::null());
        let out = cmd.output().expect("the binary runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let doc = json(&out);
        let doc = if doc["servers"].is_array() {
            doc["servers"][0].clone()
        } else {
            doc
        };
        assert_eq!(doc["diagnoses"][0]["id"], "install-cut-short", "{doc}");
        doc["diagnoses"][0]["next_step"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let cache = tempfile::tempdir().expect("a temp dir");
    let alone = next_step(
        cache.path(),
        &["--", &npx, "-y", "fake-server", "--install-ms", "8000"],
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let cache = dir.path().join("cache");
    let config = json!({"mcplServers": {"n": {
        "command": npx, "args": ["-y", "fake-server", "--install-ms", "8000"],
        "env": {"npm_config_cache": cache.display().to_string()}
    }}});
    let file = dir.path().join("mcpl-servers.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let file_text = file.display().to_string();
    let in_all = next_step(
        &cache,
        &["--config", &file_text, "--server", "n", "--server", "n"],
    );
    for (how, next) in [("alone", &alone), ("in --all", &in_all)] {
        assert!(next.contains("the host's budget is 4 s"), "{how}: {next}");
    }
}

/// The one difference the one path keeps on purpose: one server alone runs under the open-file
/// limit the probe was given (`ulimit -Sn 256` to see what it does with few files), where many
/// at once need the descriptors and raise the soft limit to the hard one, as Node does for
/// the host's servers.
#[test]
fn one_server_alone_keeps_the_open_files_limit_it_was_given() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let seen = dir.path().join("limit.txt");
    let script = format!(
        "ulimit -Sn > '{}'; exec node '{}'",
        seen.display(),
        server_mjs()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -S -n 256 && exec \"$0\" probe --launches 1 --watch 200ms -- sh -c \"$1\"")
        .arg(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .arg(&script)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let limit = std::fs::read_to_string(&seen).expect("the server wrote its limit");
    assert_eq!(limit.trim(), "256");
}
