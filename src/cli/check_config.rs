//! `mcpl-doctor check-config`: arguments, then one engine call per file, then one renderer.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::builder::PossibleValuesParser;
use clap::{Args, ValueEnum};

use crate::engine::config::{self, CheckOptions, LoadError, Report};
use crate::engine::policy::Preset;
use crate::exit;
use crate::render::check::{self as render, Totals};
use crate::render::ColorChoice;

/// The host rules `check-config` can describe (agent-framework's own; the same names as
/// `simulate --preset`).
const HOST_PRESETS: [&str; 4] = ["handshake", "lasting", "bounded", "preceding-wait"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Compiler-style diagnostics with the source line (default).
    Human,
    /// One JSON document with `schema_version` and every finding.
    Json,
    /// GitHub Actions workflow commands (annotations on the pull request's diff).
    Github,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 no errors (warnings allowed), 1 errors (or warnings with \
--deny-warnings), 2 a file could not be read or parsed, or bad arguments."
)]
pub struct CheckConfigArgs {
    /// Host configuration files (JSON or JSONC); `-` reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Which host's reconnect rule the findings describe: `lasting` (#999, refuses bad
    /// timings at start), `handshake` (main, before #999), or a #999 review proposal.
    #[arg(long, default_value = "lasting", value_parser = PossibleValuesParser::new(HOST_PRESETS))]
    pub preset: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Exit with status 1 when there are warnings, not only errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

pub fn run(args: CheckConfigArgs, color: ColorChoice) -> u8 {
    let err_color = color.for_stderr();
    let preset: Preset = match args.preset.parse() {
        Ok(p) => p,
        Err(e) => {
            crate::say!("error: {e}");
            return exit::USAGE;
        }
    };
    if args.files.iter().filter(|f| is_stdin(f)).count() > 1 {
        crate::say!("error: `-` (standard input) can be given only once");
        return exit::USAGE;
    }
    let options = CheckOptions {
        preset,
        env: &config::process_env,
    };
    let mut reports: Vec<Report> = Vec::new();
    let mut errors: Vec<LoadError> = Vec::new();
    for file in &args.files {
        match config::check_file(file, &options) {
            Ok(r) => reports.push(r),
            Err(e) => {
                crate::render::stderr_text(&render::load_error(&e, err_color));
                errors.push(e);
            }
        }
    }
    let totals = Totals::of(&reports, errors.len());
    let out = match args.format {
        Format::Human => render::human(&reports, &totals, color.for_stdout()),
        Format::Json => render::json(&reports, &errors, &totals, preset.name()),
        Format::Github => render::github(&reports, &errors, &totals),
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if !crate::render::is_broken_pipe(&e) {
            crate::say!("error: cannot write the results: {e}");
            return exit::USAGE;
        }
    }
    if !errors.is_empty() {
        exit::USAGE
    } else if totals.errors > 0 || (args.deny_warnings && totals.warnings > 0) {
        exit::FINDINGS
    } else {
        exit::OK
    }
}

fn is_stdin(p: &Path) -> bool {
    p == Path::new("-")
}
