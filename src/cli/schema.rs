//! `mcpl-doctor schema WHICH`: print a JSON Schema (draft 2020-12).

use clap::Args;

use crate::exit;
use crate::render::json::schema::{self, Which};

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  mcpl-doctor schema config > mcp.schema.json
  mcpl-doctor schema probe",
    after_long_help = "Examples:
  mcpl-doctor schema config > mcp.schema.json
  mcpl-doctor schema probe

Editors: point a configuration file at the schema with \
\"$schema\": \"./schema/config.schema.json\" (a path or URL), or map file names to it in VS \
Code's json.schemas setting; see docs/check-config.md.

The same files are checked in under schema/."
)]
pub(crate) struct SchemaArgs {
    /// Which schema: config, or an output document.
    ///
    /// `config` for host configuration files.
    #[arg(value_enum)]
    pub which: Which,
}

pub(crate) fn run(args: SchemaArgs) -> anyhow::Result<u8> {
    use std::io::Write;
    let text = schema::text(args.which);
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => super::error::fail(format!("cannot write the schema: {e}")),
    }
}
