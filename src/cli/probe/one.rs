//! One server (a command after `--`, `--url`, `--config FILE --server ID`): planned here, run
//! by [`run`](super::run) as a fleet of one, and written as one server's detailed report (every
//! launch, the verdict, the predictions, the Why); or why it could not be planned or launched,
//! as an error (and its `--format json` document).

use crate::cli::error::Failure;
use crate::engine::diagnosis;
use crate::engine::fleet::{Item, PlanError, ServerReport, ServerResult, TimingRefusal};
use crate::render::context::Context;
use crate::render::json::events::EventLine;
use crate::render::json::probe::{self as json_view, ProbeDoc};
use crate::render::json::probe_all as json_all;
use crate::render::json::write as events_view;
use crate::render::picture::report;
use crate::render::text::probe as view;
use crate::render::ColorChoice;

use super::args::{write_pictures, ProbeArgs};
use super::plan::resolve;
use super::request::{Alone, Report, Request, Shape};

/// The one server the command line names, planned as a fleet of one; or why it cannot be
/// (with `--format json`, its document first).
pub(crate) fn request(args: &ProbeArgs) -> anyhow::Result<Request> {
    let resolved = match resolve(args) {
        Ok(r) => r,
        Err(e) => {
            if args.json {
                write_unplanned(&e);
            }
            return Err(e);
        }
    };
    if let Some(host) = resolved
        .entry
        .as_ref()
        .and_then(|e| crate::engine::config::Host::from_name(&e.host))
    {
        super::plan::stdin_host_note(args, host);
    }
    let alone = Alone {
        entry: resolved.entry.clone(),
        target: resolved.target.describe(&resolved.redactor),
        redactor: resolved.redactor.clone(),
        command: match &resolved.target {
            crate::engine::probe::Target::Stdio(s) => {
                Some(s.command.to_string_lossy().into_owned())
            }
            _ => None,
        },
    };
    Ok(Request {
        items: vec![Item::alone(resolved)],
        shape: Shape::One(Box::new(alone)),
    })
}

impl Alone {
    /// A run that could not launch at all: the error, a hint on the command (after `--`, or
    /// the entry's `command` field in its file), and the Why (in the error's detail); with
    /// `--format json`, its document first.
    pub(crate) fn cannot_launch(
        &self,
        args: &ProbeArgs,
        error: &str,
        why: &[diagnosis::Diagnosis],
    ) -> Failure {
        let mut failure = Failure::new(error);
        if let Some(command) = &self.command {
            failure = match (crate::cli::error::windows_path_hint(command), &self.entry) {
                (Some(hint), _) => failure.hint(hint),
                (None, Some(entry)) => failure.hint(format!(
                    "check the `command` field of server \"{}\" at {} ({}); the host runs it \
                     without a shell",
                    crate::render::sanitize::sanitize(&entry.id),
                    crate::render::sanitize::sanitize(&entry.at),
                    entry.path,
                )),
                (None, None) => failure.hint(
                    "check the command after `--` (it runs without a shell, from the current \
                     folder)",
                ),
            };
        }
        let mut detail = Vec::new();
        let _ = crate::render::text::why::write_why(&mut detail, why);
        let failure = failure.detail(String::from_utf8_lossy(&detail).into_owned());
        if args.json {
            self.write_cannot_launch(&failure, why);
        }
        failure
    }

    /// `--format json` for a command that cannot be launched: one document, with the Why.
    fn write_cannot_launch(&self, failure: &Failure, why: &[diagnosis::Diagnosis]) {
        let error = failure.to_string();
        let doc = json_all::NotProbedDoc {
            schema_version: crate::render::json::probe::SCHEMA_VERSION,
            command: "probe",
            not_probed: "cannot-launch",
            target: Some(&self.target),
            id: self.entry.as_ref().map(|e| e.id.as_str()),
            error: &error,
            hint: failure.hint_text(),
            findings: Vec::new(),
            diagnoses: why,
        };
        if let Err(e) = json_all::write_not_probed(&doc) {
            crate::say!("cannot write the document: {e}");
        }
    }
}

/// `--format json` for an entry the host refuses or skips (`--server ID`), or a timing it
/// refuses at start: one document, as for every run; other errors (usage) have none.
fn write_unplanned(e: &anyhow::Error) {
    let error = e.to_string();
    let (not_probed, id, findings) = match e.downcast_ref::<PlanError>() {
        Some(PlanError::Refused { id, refusals, .. }) => (
            "refused",
            Some(id.as_str()),
            refusals.iter().map(json_all::RefusalDoc::from).collect(),
        ),
        Some(PlanError::Skipped { id, .. }) => ("skipped", Some(id.as_str()), Vec::new()),
        _ if e.downcast_ref::<TimingRefusal>().is_some() => ("refused", None, Vec::new()),
        _ => return,
    };
    let hint = match e.downcast_ref::<PlanError>() {
        Some(p) => p.hint(),
        None => e
            .downcast_ref::<TimingRefusal>()
            .map(|t| t.hint().to_string()),
    };
    let doc = json_all::NotProbedDoc {
        schema_version: crate::render::json::probe::SCHEMA_VERSION,
        command: "probe",
        not_probed,
        target: None,
        id,
        error: &error,
        hint: hint.as_deref(),
        findings,
        diagnoses: &[],
    };
    if let Err(e) = json_all::write_not_probed(&doc) {
        crate::say!("cannot write the document: {e}");
    }
}

/// One probed server's report: the files first (a closed stdout, `| head`, does not cost
/// them), then the report on stdout in the format asked.
pub(crate) fn write_report(
    args: &ProbeArgs,
    server: &ServerReport,
    alone: &Alone,
    color: ColorChoice,
) -> Report {
    let ServerResult::Probed(p) = &server.result else {
        return Report {
            written: Ok(()),
            pictures: Ok(Default::default()),
        };
    };
    let (run, verdict) = (&p.run, &p.verdict);
    let ctx = Context {
        target: &alone.target,
        entry: alone.entry.as_ref(),
        protocol: p.protocol,
        interrupted: p.interrupted,
        why: &server.why,
    };
    let pictures = write_pictures(
        args,
        &|| {
            let command = report::command_line(&|t| alone.redactor.redact(t));
            report::html(&report::probe_page(run, verdict, &ctx, &command))
        },
        &|| report::probe_svg(run, &ctx),
    );
    let written = if args.json {
        json_view::write_json(run, verdict, &ctx)
    } else if args.events {
        // The Why's lines went out as the server was judged.
        let doc = EventLine::Report {
            doc: ProbeDoc::of(run, verdict, &ctx),
        };
        events_view::write_line(&mut std::io::stdout().lock(), &doc)
    } else if args.quiet {
        view::write_final_to(
            &mut std::io::stdout().lock(),
            run,
            verdict,
            &ctx,
            color.for_stdout(),
        )
    } else {
        view::write_text(run, verdict, &ctx, color.for_stdout())
    };
    Report { written, pictures }
}
