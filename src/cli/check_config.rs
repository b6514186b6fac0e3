//! `mcpl-doctor check-config`: arguments, then one engine call per file, then one renderer.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::dialect::DialectArgs;
use super::error::{fail, Failure};
use super::vocab::HostPresetArg;
use crate::engine::config::discover::{self, Input};
use crate::engine::config::Totals;
use crate::engine::config::{self, CheckOptions, LoadError, Report, Source};
use crate::engine::config::{Platform, Platforms};
use crate::engine::policy::Preset;
use crate::exit;
use crate::render::ci::{github::github, sarif::sarif};
use crate::render::json::check_config::json;
use crate::render::text::check_config as render;
use crate::render::ColorChoice;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Compiler-style diagnostics with the source line (default).
    Human,
    /// One JSON document with `schema_version` and every finding.
    Json,
    /// GitHub Actions workflow commands (annotations on the pull request's diff).
    Github,
    /// SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps).
    Sarif,
}

/// `--platform`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlatformArg {
    Linux,
    Macos,
    Windows,
    /// Linux, macOS and Windows.
    All,
}

impl CheckConfigArgs {
    /// The systems to check for: those named, or this machine's.
    pub(crate) fn platforms(&self) -> Platforms {
        if self.platform.is_empty() {
            return Platforms::current();
        }
        let mut list = Vec::new();
        for p in &self.platform {
            match p {
                PlatformArg::Linux => list.push(Platform::Linux),
                PlatformArg::Macos => list.push(Platform::Macos),
                PlatformArg::Windows => list.push(Platform::Windows),
                PlatformArg::All => list.extend(Platform::ALL),
            }
        }
        Platforms::of(&list)
    }
}

/// A format's name, as `--output` takes it.
fn format_name(f: Format) -> &'static str {
    match f {
        Format::Human => "human",
        Format::Json => "json",
        Format::Github => "github",
        Format::Sarif => "sarif",
    }
}

/// `--output FORMAT=FILE`.
#[derive(Debug, Clone)]
pub(crate) struct Output {
    pub format: Format,
    pub file: PathBuf,
}

fn parse_output(s: &str) -> Result<Output, String> {
    let (format, file) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not FORMAT=FILE (e.g. sarif=results.sarif)"))?;
    let format = Format::from_str(format, true)
        .map_err(|_| format!("`{format}` is not a format (one of: human, json, github, sarif)"))?;
    if file.is_empty() {
        return Err("FORMAT=FILE needs a file after `=`".to_string());
    }
    Ok(Output {
        format,
        file: PathBuf::from(file),
    })
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  mcpl-doctor check-config .
  mcpl-doctor check-config --format github --output sarif=mcpl-doctor.sarif .
  mcpl-doctor check-config --stdin-filename .vscode/mcp.json - < mcp.json",
    after_long_help = "Folders are searched for the file names hosts read: mcp.json (VS Code, \
Cursor), .mcp.json (Claude Code), claude_desktop_config.json, mcpl-servers.json, *.agent.json and \
recipes/*.json. Quoted globs ('configs/*.json', '**/mcp.json') are expanded here.

Examples:
  mcpl-doctor check-config .
  mcpl-doctor check-config --format github --output sarif=mcpl-doctor.sarif .
  mcpl-doctor check-config --stdin-filename .vscode/mcp.json - < mcp.json

Exit status: 0 no errors (warnings allowed), 1 errors (or warnings with --deny-warnings), 2 a \
file could not be read or parsed, or bad arguments."
)]
pub(crate) struct CheckConfigArgs {
    /// Host configuration files, folders, or quoted globs.
    ///
    /// JSON or JSONC; `-` reads standard input.
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,

    /// Which host's reconnect rule the findings describe.
    ///
    /// `lasting` (hosts with the lasting-connection fix, which refuse bad timings at start),
    /// `reset-on-handshake` (older hosts), or a proposal.
    #[arg(short = 'p', long, value_enum, value_name = "RULE", default_value_t = HostPresetArg::Lasting, env = "MCPL_DOCTOR_PRESET")]
    pub preset: HostPresetArg,

    /// Output format on standard output.
    #[arg(short = 'f', long, value_enum, default_value_t = Format::Human, env = "MCPL_DOCTOR_FORMAT")]
    pub format: Format,

    /// Also write FORMAT to FILE (repeatable).
    ///
    /// E.g. `--output sarif=results.sarif`: a human log and a SARIF file from one run.
    #[arg(long, value_name = "FORMAT=FILE", value_parser = parse_output)]
    pub output: Vec<Output>,

    /// The file name to place `-`'s findings on.
    ///
    /// For `-`, e.g. `.vscode/mcp.json`.
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,

    /// Print findings only.
    ///
    /// No summary line when there is nothing to say, no notes.
    #[arg(long, short, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Also name every file read.
    ///
    /// And every `.json` file a folder search passed over.
    #[arg(long, short)]
    pub verbose: bool,

    /// Exit 1 on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,

    /// The systems it will run on: linux, macos, windows.
    ///
    /// What breaks there (a launcher a desktop host's PATH
    /// lacks, `npx` without `cmd /c` on Windows, an `env` block that replaces the environment,
    /// paths for another system). `all` for a repository's shared files; a comma list works
    /// too. Default: this machine's.
    #[arg(
        long,
        value_enum,
        value_name = "OS",
        value_delimiter = ',',
        env = "MCPL_DOCTOR_PLATFORM"
    )]
    pub platform: Vec<PlatformArg>,

    #[command(flatten)]
    pub dialect: DialectArgs,
}

pub(crate) fn run(args: CheckConfigArgs, color: ColorChoice) -> anyhow::Result<u8> {
    let preset: Preset = args.preset.into();
    check_arguments(&args)?;
    let inputs = find_inputs(&args)?;
    if !args.quiet {
        say_what_was_read(&args, &inputs);
    }
    let options = CheckOptions {
        preset,
        env: &config::process_env,
        dialect: args.dialect.dialect(),
        platforms: args.platforms(),
    };
    let (reports, errors) = check_each(&args, &inputs, &options, color.for_stderr());
    let totals = Totals::of(&reports, errors.len());
    let render_as = |format: Format, color: bool| match format {
        Format::Human => render::human(&reports, &totals, color, args.quiet),
        Format::Json => json(&reports, &errors, &totals, preset.name()),
        Format::Github => github(&reports, &errors, &totals, args.quiet),
        Format::Sarif => sarif(&reports, &errors),
    };
    if let Some(status) = write_results(&args, render_as, color)? {
        return Ok(status);
    }
    // A file that could not be read was told above, with the others' findings: exit 2.
    Ok(if !errors.is_empty() {
        exit::USAGE
    } else if totals.errors > 0 || (args.deny_warnings && totals.warnings > 0) {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// The arguments that contradict each other or a file that cannot be written (`--output`),
/// refused before anything is read.
fn check_arguments(args: &CheckConfigArgs) -> anyhow::Result<()> {
    if args.files.iter().filter(|f| is_stdin(f)).count() > 1 {
        return fail("`-` (standard input) can be given only once");
    }
    if args.stdin_filename.is_some() && !args.files.iter().any(|f| is_stdin(f)) {
        return Err(Failure::new(
            "--stdin-filename names standard input, but `-` is not among the files",
        )
        .hint("add `-` to read the file from standard input")
        .into());
    }
    for extra in &args.output {
        crate::engine::outfile::check(&extra.file).map_err(|e| super::error::unwritable(&e))?;
    }
    Ok(())
}

/// The files the arguments stand for (folders searched, globs expanded), with a note for each
/// file passed over, and a hint when a folder holds none but a host's file of another name.
fn find_inputs(args: &CheckConfigArgs) -> anyhow::Result<Vec<Input>> {
    let mut skipped = Vec::new();
    let found = discover::inputs_noting(&args.files, &mut skipped);
    // What a folder search or a glob passed over is said, never silently dropped (also before
    // an argument's "no file" error, which it explains).
    skipped.sort();
    skipped.dedup();
    for skipped in &skipped {
        crate::render::stderr_line(format_args!(
            "note: {}",
            crate::render::sanitize::sanitize(&skipped.to_string())
        ));
    }
    let inputs = found.map_err(|e| {
        let failure = Failure::new(crate::render::sanitize::sanitize(&e.to_string()));
        match &e {
            discover::DiscoverError::EmptyFolder(dir) => match unread_host_file(Path::new(dir)) {
                Some(hint) => failure.hint(hint),
                None => failure,
            },
            _ => failure,
        }
    })?;
    Ok(inputs)
}

/// Each input checked: its report, or its load error (told on stderr at once).
fn check_each(
    args: &CheckConfigArgs,
    inputs: &[Input],
    options: &CheckOptions<'_>,
    err_color: bool,
) -> (Vec<Report>, Vec<LoadError>) {
    let mut reports: Vec<Report> = Vec::new();
    let mut errors: Vec<LoadError> = Vec::new();
    for input in inputs {
        let checked = match input {
            Input::File(file) => config::check_file(file, options),
            Input::Stdin => check_stdin(args.stdin_filename.as_deref(), options),
        };
        match checked {
            Ok(r) => reports.push(r),
            Err(e) => {
                let windows = match input {
                    Input::File(file) => super::error::windows_path_hint(&file.to_string_lossy()),
                    Input::Stdin => None,
                };
                crate::render::stderr_text(&super::error::render_error(&e, windows, err_color));
                errors.push(e);
            }
        }
    }
    (reports, errors)
}

/// The `--output` files, then standard output. `Some(status)` ends the run there: a reader that
/// went away (`| head`) ends it quietly; a file that cannot be written fails it after the
/// results, never instead of them.
fn write_results(
    args: &CheckConfigArgs,
    render_as: impl Fn(Format, bool) -> String,
    color: ColorChoice,
) -> anyhow::Result<Option<u8>> {
    let mut unwritten = None;
    let mut written = super::probe::args::Written::default();
    for extra in &args.output {
        let text = render_as(extra.format, false);
        match crate::engine::outfile::write(&extra.file, text.as_bytes()) {
            Ok(()) => written.add(format_name(extra.format), &extra.file),
            Err(e) => {
                unwritten.get_or_insert(crate::render::sanitize::sanitize(&e.to_string()));
            }
        }
    }
    let out = render_as(args.format, color.for_stdout());
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if !crate::render::is_broken_pipe(&e) {
            return fail(format!("cannot write the results: {e}"));
        }
        // The reader went away (`| head`): end quietly, as ripgrep does.
        return Ok(Some(exit::OK));
    }
    written.say(args.quiet);
    if let Some(e) = unwritten {
        return fail(e);
    }
    Ok(None)
}

/// Which files a folder argument stood for: with `--verbose` each file read and each `.json`
/// file passed over; without, how many were passed over (a folder's "0 errors in 1 file" must not
/// read as "every file here is fine").
fn say_what_was_read(args: &CheckConfigArgs, inputs: &[Input]) {
    use crate::render::sanitize::sanitize;
    if args.verbose {
        for input in inputs {
            if let Input::File(f) = input {
                crate::render::stderr_line(format_args!("read {}", sanitize(&f.to_string_lossy())));
            }
        }
    }
    for dir in args.files.iter().filter(|f| f.is_dir()) {
        let over = discover::passed_over(dir);
        if over.is_empty() {
            continue;
        }
        let shown = sanitize(&dir.to_string_lossy());
        if args.verbose {
            for f in &over {
                crate::render::stderr_line(format_args!(
                    "passed over {} (not a name hosts read)",
                    sanitize(&f.to_string_lossy())
                ));
            }
            continue;
        }
        let (n, files) = match over.len() {
            1 => (1, "file"),
            n => (n, "files"),
        };
        crate::render::stderr_line(format_args!(
            "note: {shown}: {n} other .json {files} passed over (not names hosts read; -v lists \
             them)"
        ));
    }
}

/// For a folder with no file of a host's name: a `.json` file in it that holds a server table
/// under another name (`hosts.json`), and how to check it.
fn unread_host_file(dir: &Path) -> Option<String> {
    let over = discover::passed_over(dir);
    let hosts: Vec<&PathBuf> = over
        .iter()
        .filter(|f| discover::holds_server_table(f))
        .collect();
    let first = hosts.first()?;
    let shown = crate::render::sanitize::sanitize(&first.to_string_lossy());
    let more = match hosts.len() {
        1 => String::new(),
        2 => " (and 1 more)".to_string(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(format!(
        "{shown}{more} has servers but is not a name hosts read; name it: mcpl-doctor \
         check-config {shown}"
    ))
}

/// Standard input, named `name` when given (its folder resolves `./` args, as the file's would).
fn check_stdin(name: Option<&str>, options: &CheckOptions<'_>) -> Result<Report, LoadError> {
    let Some(name) = name else {
        return config::check_file(Path::new("-"), options);
    };
    let source = Source::read_stdin_named(name)?;
    config::check_source(&source, options)
}

fn is_stdin(p: &Path) -> bool {
    p == Path::new("-")
}
