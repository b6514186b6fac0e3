//! `mcpl-doctor probe --config FILE --all` (or several `--server`): the entries selected and
//! planned by the engine ([`engine::fleet`](crate::engine::fleet)), run by
//! [`run`](super::run) as one server is, and written as the summary of every entry: the
//! table, what was not probed, the details of each server that did not stay up.

use super::args::ProbeArgs;
use super::plan::plan_options;
use super::request::{Report, Request, Shape};
use crate::cli::error::fail;
use crate::engine::fleet::{self, AllContext, Selection, ServerReport};
use crate::render::json::events::EventLine;
use crate::render::json::probe_all::{self as json_all, AllDoc};
use crate::render::json::write as events_view;
use crate::render::picture::report;
use crate::render::text::probe_all as all_view;
use crate::render::ColorChoice;

/// The entries `--all` or the `--server` ids select, each planned (probe, skip, refuse).
pub(crate) fn request(args: &ProbeArgs) -> anyhow::Result<Request> {
    let Some(file) = args.config.clone() else {
        return fail("--all and repeated --server need --config FILE");
    };
    if args.engine.is_some() {
        return fail(
            "--protocol applies to one server; each entry of --config has its own (a command's \
             `protocol`, a URL's scheme)",
        );
    }
    let selection = if args.all {
        Selection::All
    } else {
        Selection::Ids(&args.server)
    };
    let items = fleet::select(&file, selection, &plan_options(args))?;
    if let Some(first) = items.first() {
        super::plan::stdin_host_note(args, first.host);
    }
    let file = if file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    Ok(Request {
        items,
        shape: Shape::Many { file },
    })
}

/// The summary of every entry: the files first (a closed stdout, `| head`, does not cost
/// them), then the report on stdout in the format asked.
pub(crate) fn write_report(
    args: &ProbeArgs,
    servers: &[ServerReport],
    ctx: &AllContext<'_>,
    color: ColorChoice,
) -> Report {
    let pictures = super::args::write_pictures(
        args,
        &|| {
            let mask = plan_options(args).base_redactor();
            let command = report::command_line(&|t| mask.redact(t));
            report::html(&report::probe_all_page(servers, ctx, &command))
        },
        &|| report::probe_all_svg(servers),
    );
    let written = if args.json {
        json_all::write_json(servers, ctx)
    } else if args.events {
        let doc = EventLine::ReportAll {
            doc: AllDoc::of(servers, ctx),
        };
        events_view::write_line(&mut std::io::stdout().lock(), &doc)
    } else {
        all_view::write_text(servers, ctx, color.for_stdout(), args.quiet)
    };
    Report { written, pictures }
}
