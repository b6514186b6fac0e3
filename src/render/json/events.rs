//! `probe --format events`: one JSON document per line as the run goes. `mcpl-doctor schema events`
//! is generated from [`EventLine`].

use schemars::JsonSchema;
use serde::Serialize;

use super::ms::{ms, opt_ms, Ms};
use super::probe::{FinishDoc, LaunchDoc, PlannedDoc, ProbeDoc, WaitDoc};
use super::probe_all::{AllDoc, UnprobedDoc};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::{ServerReport, ServerResult};
use crate::engine::probe::{Event, Protocol, ServerInfo};

// ---------------------------------------------------------------------------------------------
// `--events`.

/// One `--format events` line. With `--all` (or several `--server`) every line about a server carries
/// its entry's `id` second, after `event`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub(crate) enum EventLine<'a> {
    /// The run begins.
    Started {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        target: &'a str,
        rule: &'a str,
        protocol: Protocol,
        interval_ms: Ms,
        cap_ms: Ms,
        /// How long the first connection must live to count as lasting (`null`: never by
        /// uptime, or reset by handshake).
        lasting_threshold_ms: Option<Ms>,
        seed: u64,
    },
    /// A launch (or a dial, for a URL) started.
    Launched {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        at_ms: Ms,
        pid: Option<u32>,
    },
    /// Its handshake completed: the connection is made.
    Connected {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        at_ms: Ms,
        handshake_ms: Ms,
        server: &'a ServerInfo,
    },
    /// The opening's `tools/list` completed (every page): how many tools the server listed.
    ToolsListed {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        count: u32,
    },
    /// The attempt is over, with the host's verdict on it (the members of a `launches` item).
    Ended {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        #[serde(flatten)]
        launch: LaunchDoc<'a>,
    },
    /// The host would raise `mcpl-down` with this exact text.
    Alert {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        launch: u32,
        attempt: u32,
        text: &'a str,
    },
    /// Waiting before the next attempt.
    Waiting {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        next_attempt: u32,
        wait: WaitDoc,
        /// When the next launch is due.
        until_ms: Ms,
    },
    /// This server's run is over.
    Finished {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        finish: FinishDoc,
        planned_next: Option<PlannedDoc>,
    },
    /// A likely cause (after the run, the surest first).
    Diagnosis {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        diagnosis: &'a Diagnosis,
    },
    /// `--all`: an entry whose command could not be launched.
    CannotLaunch {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// `--all`: an entry the host refuses.
    Refused {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// `--all`: an entry the host does not start on its own.
    Skipped {
        #[serde(flatten)]
        doc: UnprobedDoc<'a>,
    },
    /// The last line: the whole `--format json` document of one server.
    Report {
        #[serde(flatten)]
        doc: ProbeDoc<'a>,
    },
    /// The last line with `--all`: the whole `--format json` document of every server.
    #[serde(rename = "report")]
    ReportAll {
        #[serde(flatten)]
        doc: AllDoc<'a>,
    },
}

impl<'a> EventLine<'a> {
    /// The line for a run's event; `id`: the entry's id with `--all`.
    pub(crate) fn of(event: &'a Event, id: Option<&'a str>) -> Self {
        match event {
            Event::Started {
                target,
                rule,
                protocol,
                interval_ms,
                cap_ms,
                lasting_threshold_ms,
                seed,
            } => EventLine::Started {
                id,
                target,
                rule,
                protocol: *protocol,
                interval_ms: ms(*interval_ms),
                cap_ms: ms(*cap_ms),
                lasting_threshold_ms: opt_ms(*lasting_threshold_ms),
                seed: *seed,
            },
            Event::Launched {
                launch,
                attempt,
                at_ms,
                pid,
            } => EventLine::Launched {
                id,
                launch: *launch,
                attempt: *attempt,
                at_ms: ms(*at_ms),
                pid: *pid,
            },
            Event::Connected {
                launch,
                attempt,
                at_ms,
                handshake_ms,
                server,
            } => EventLine::Connected {
                id,
                launch: *launch,
                attempt: *attempt,
                at_ms: ms(*at_ms),
                handshake_ms: ms(*handshake_ms),
                server,
            },
            Event::ToolsListed {
                launch,
                attempt,
                count,
                ..
            } => EventLine::ToolsListed {
                id,
                launch: *launch,
                attempt: *attempt,
                count: *count,
            },
            Event::Ended(l) => EventLine::Ended {
                id,
                launch: LaunchDoc::of(l),
            },
            Event::Alert {
                launch,
                attempt,
                text,
            } => EventLine::Alert {
                id,
                launch: *launch,
                attempt: *attempt,
                text,
            },
            Event::Waiting {
                next_attempt,
                wait,
                until_ms,
            } => EventLine::Waiting {
                id,
                next_attempt: *next_attempt,
                wait: WaitDoc::from(wait),
                until_ms: ms(*until_ms),
            },
            Event::Finished { finish, planned } => EventLine::Finished {
                id,
                finish: (*finish).into(),
                planned_next: planned.map(PlannedDoc::from),
            },
        }
    }

    /// The line for an entry that was not probed (`None` for a probed one).
    pub(crate) fn unprobed(s: &'a ServerReport) -> Option<Self> {
        let doc = UnprobedDoc::of(s)?;
        Some(match &s.result {
            ServerResult::CannotLaunch(_) => EventLine::CannotLaunch { doc },
            ServerResult::Refused { .. } => EventLine::Refused { doc },
            _ => EventLine::Skipped { doc },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::json::write::write_line;

    #[test]
    fn events_carry_their_server_second() {
        let e = Event::Alert {
            launch: 6,
            attempt: 5,
            text: "MCPL server down (attempt 5): boom".into(),
        };
        let mut out = Vec::new();
        write_line(&mut out, &EventLine::of(&e, Some("files"))).expect("written");
        let v: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["event", "id", "launch", "attempt", "text"]);
        assert_eq!(v["event"], "alert");
        assert_eq!(v["id"], "files");
        assert_eq!(v["attempt"], 5);
        // Without `--all` there is no `id`.
        out.clear();
        write_line(&mut out, &EventLine::of(&e, None)).expect("written");
        assert!(!String::from_utf8_lossy(&out).contains("\"id\""));
    }

    #[test]
    fn lines_escape_what_could_fool_a_terminal() {
        let e = Event::Alert {
            launch: 1,
            attempt: 0,
            text: "a\u{202E}b\u{200B}c\u{85}d\u{1b}".into(),
        };
        let mut out = Vec::new();
        write_line(&mut out, &EventLine::of(&e, None)).expect("written");
        let s = String::from_utf8(out).expect("UTF-8");
        assert!(
            s.contains(r#""text":"a\u202eb\u200bc\u0085d\u001b""#),
            "{s}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).expect("JSON");
        assert_eq!(back["text"], "a\u{202E}b\u{200B}c\u{85}d\u{1b}");
    }
}
