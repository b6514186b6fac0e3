//! `probe --config FILE --server ID`: the one entry the command line names, planned as
//! `--all` plans each ([`plan_entry`]), ready to probe; or why the probe cannot probe it (the
//! file, the name, an entry the host skips or refuses, or an `--engine` its transport never
//! speaks), as a [`PlanError`] whose words the command line prints.

use std::path::Path;

use crate::engine::probe::{Protocol, Target};

use super::plan::{entry_at, find_entry, load_config, plan_entry};
use super::plan::{EntryPlan, PlanError, PlanOptions, Resolved};

/// The entry `id` of `file` (the last of that id, as the host keeps), ready to probe. `engine`
/// (`--engine`) sets the handshake of a launched server; a dialled one speaks the handshake of
/// its transport, and asking another is an error.
pub(crate) fn plan_one(
    file: &Path,
    id: &str,
    engine: Option<Protocol>,
    opts: &PlanOptions,
) -> Result<Resolved, PlanError> {
    let (entries, report) = load_config(file, opts)?;
    let entry = find_entry(file, id, &entries)?;
    let at = entry_at(entry);
    match plan_entry(entry, &report, opts) {
        EntryPlan::Probe(mut resolved) => {
            if let Some(p) = engine {
                if matches!(resolved.target, Target::Stdio(_)) {
                    resolved.protocol = p;
                } else if p != resolved.protocol {
                    return Err(PlanError::EngineFixed {
                        at,
                        id: id.to_string(),
                        transport: resolved.target.transport(),
                        protocol: resolved.protocol.name(),
                    });
                }
            }
            Ok(*resolved)
        }
        EntryPlan::Skipped(why) => Err(PlanError::Skipped {
            at,
            id: id.to_string(),
            why,
        }),
        EntryPlan::Refused(label, refusals) => Err(PlanError::Refused {
            file: file.display().to_string(),
            id: id.to_string(),
            label,
            refusals,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::policy::Preset;

    fn options() -> PlanOptions {
        PlanOptions {
            rule: Preset::Lasting,
            rule_given: true,
            interval: None,
            cap: None,
            open_timeout_ms: 15_000.0,
            redact: vec![],
            include_disabled: false,
            http_era: None,
            host: None,
            workspace: None,
            inputs: Vec::new(),
        }
    }

    const HOSTS: &str = r#"{
  "mcplServers": {
    "files": { "command": "node", "args": ["./files.mjs"], "env": { "API_KEY": "sk-one-secret-41" } },
    "remote": { "url": "ws://127.0.0.1:9/mcpl" },
    "off": { "command": "node", "disabled": true },
    "zero": { "command": "node", "reconnect": true, "reconnectIntervalMs": 0,
              "env": { "TOKEN": "sk-one-secret-42" } }
  }
}"#;

    /// A real file holding `text`, in a folder kept while the test runs.
    fn file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("hosts.json");
        std::fs::write(&path, text).expect("write");
        (dir, path)
    }

    #[test]
    fn a_stdio_entry_is_planned_with_its_place_and_takes_engine() {
        let (_dir, path) = file(HOSTS);
        let r = plan_one(&path, "files", None, &options()).expect("planned");
        assert_eq!(r.protocol, Protocol::Legacy);
        let Target::Stdio(t) = &r.target else {
            panic!("a stdio target");
        };
        assert_eq!(t.command, "node");
        let entry = r.entry.as_ref().expect("its entry");
        assert_eq!(entry.id, "files");
        assert_eq!(entry.at, format!("{}:3:5", path.display()));
        let r = plan_one(&path, "files", Some(Protocol::Modern), &options()).expect("planned");
        assert_eq!(r.protocol, Protocol::Modern);
    }

    #[test]
    fn a_dialled_entry_refuses_another_engine_and_takes_its_own() {
        let (_dir, path) = file(HOSTS);
        let e = plan_one(&path, "remote", Some(Protocol::Modern), &options())
            .err()
            .expect("refused");
        assert_eq!(
            e.to_string(),
            format!(
                "{}:4:5: server \"remote\" is a websocket server, which always speaks the \
                 legacy handshake; leave out --engine",
                path.display()
            )
        );
        assert_eq!(e.hint(), None);
        let r = plan_one(&path, "remote", Some(Protocol::Legacy), &options()).expect("planned");
        assert_eq!(r.protocol, Protocol::Legacy);
    }

    #[test]
    fn a_disabled_entry_is_skipped_unless_asked() {
        let (_dir, path) = file(HOSTS);
        let e = plan_one(&path, "off", None, &options())
            .err()
            .expect("skipped");
        assert!(matches!(e, PlanError::Skipped { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with(&format!(
                "{}:5:5: server \"off\" is not probed: disabled",
                path.display()
            )),
            "{e}"
        );
        let mut opts = options();
        opts.include_disabled = true;
        assert!(plan_one(&path, "off", None, &opts).is_ok());
    }

    #[test]
    fn a_refused_entry_names_each_finding_masked_and_hints_check_config() {
        let (_dir, path) = file(HOSTS);
        let e = plan_one(&path, "zero", None, &options())
            .err()
            .expect("refused");
        let text = e.to_string();
        assert!(
            text.contains("server \"zero\" refused by the host: `reconnectIntervalMs` is 0"),
            "{text}"
        );
        assert!(!text.contains("sk-one-secret-42"), "{text}");
        assert_eq!(
            e.hint(),
            Some(format!(
                "`mcpl-doctor check-config {}` lists every finding",
                path.display()
            ))
        );
    }

    #[test]
    fn an_unknown_name_lists_the_servers() {
        let (_dir, path) = file(HOSTS);
        let e = plan_one(&path, "nope", None, &options())
            .err()
            .expect("not found");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: no server \"nope\" (servers: files, off, remote, zero)",
                path.display()
            )
        );
    }
}
