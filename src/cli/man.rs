//! `mcpl-doctor man`: the man pages from this binary's own definition (as ripgrep's
//! `--generate man`), so that an install without the repository has them.

use std::path::PathBuf;

use clap::Args;

use crate::exit;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mcpl-doctor man | man -l -
  mcpl-doctor man probe | man -l -
  mcpl-doctor man --out ~/.local/share/man/man1")]
pub(crate) struct ManArgs {
    /// The subcommand whose page to print.
    ///
    /// Default: the main page, mcpl-doctor(1).
    #[arg(value_name = "SUBCOMMAND")]
    pub page: Option<String>,

    /// Write every page into DIR instead.
    ///
    /// mcpl-doctor.1 and one per subcommand, creating DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "page")]
    pub out: Option<PathBuf>,
}

pub(crate) fn run(args: ManArgs) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut cmd = super::command().disable_help_subcommand(true);
    if let Some(dir) = &args.out {
        cmd.build();
        let written = std::fs::create_dir_all(dir)
            .map_err(|e| e.to_string())
            .and_then(|()| write_pages(&cmd, dir));
        return match written {
            Ok(()) => Ok(exit::OK),
            Err(e) => super::error::fail(format!(
                "cannot write the man pages into {}: {e}",
                dir.display()
            )),
        };
    }
    // Built as `generate_to` builds it: the same page, byte for byte, as the files under man/.
    cmd.build();
    let page = match &args.page {
        None => cmd,
        Some(name) => {
            let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
            let Some(sub) = cmd.find_subcommand(name) else {
                return super::error::fail(format!(
                    "no subcommand {name:?} (one of: {})",
                    names.join(", ")
                ));
            };
            sub.clone()
        }
    };
    let out = render(&page)?;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&out).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => super::error::fail(format!("cannot write the man page: {e}")),
    }
}

/// Every page (`cmd`'s and each visible subcommand's, as `clap_mangen::generate_to` names
/// them) with its file name: what `--out` writes and what man/ holds.
pub fn pages(cmd: &clap::Command) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    collect(cmd, &mut out)?;
    Ok(out)
}

fn collect(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out)?;
    }
    let name = clap_mangen::Man::new(cmd.clone()).get_filename();
    out.push((name, render(cmd)?));
    Ok(())
}

/// Every page written into `dir` by the project's writer: a temporary file renamed into place,
/// a link at a page's path replaced and never followed, a FIFO or device refused at once.
fn write_pages(cmd: &clap::Command, dir: &std::path::Path) -> Result<(), String> {
    for (name, page) in pages(cmd).map_err(|e| e.to_string())? {
        crate::engine::outfile::write(&dir.join(name), &page).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One page: clap_mangen's NAME, SYNOPSIS, DESCRIPTION, OPTIONS and SUBCOMMANDS, then the
/// sections ripgrep's page has, taken apart from the help's closing text (instead of
/// clap_mangen's one EXTRA section): NOTES, EXIT STATUS, ENVIRONMENT, EXAMPLES. No
/// hyphenation and no justification anywhere (a flag or a variable split at a line's end cannot
/// be copied), and each example in a no-fill block: one unbroken command a line.
fn render(cmd: &clap::Command) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    out.extend_from_slice(b".nh\n.ad l\n");
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    let closing = Closing::of(cmd);
    let mut roff = roff::Roff::new();
    if !closing.notes.is_empty() {
        roff.control("SH", ["NOTES"]);
        for para in &closing.notes {
            paragraph(&mut roff, para);
        }
    }
    roff.control("SH", ["EXIT STATUS"]);
    roff.control("PP", []);
    roff.text([roff::roman(closing.exit_status.unwrap_or_else(|| {
        default_exit_status(cmd.get_name()).to_string()
    }))]);
    roff.control("SH", ["ENVIRONMENT"]);
    for (var, what) in environment(cmd) {
        roff.control("TP", []);
        roff.text([roff::bold(var)]);
        roff.text([roff::roman(what)]);
    }
    if !closing.examples.is_empty() {
        roff.control("SH", ["EXAMPLES"]);
        roff.control("PP", []);
        roff.control("RS", ["4"]);
        roff.control("nf", []);
        for line in &closing.examples {
            roff.text([roff::roman(line.as_str())]);
        }
        roff.control("fi", []);
        roff.control("RE", []);
    }
    roff.to_writer(&mut out)?;
    if cmd.get_version().is_some() {
        man.render_version_section(&mut out)?;
    }
    Ok(out)
}

/// A paragraph of the closing text: prose is filled; one whose later lines are indented (a
/// table of values) keeps its lines.
fn paragraph(roff: &mut roff::Roff, para: &str) {
    roff.control("PP", []);
    let tabular = para.lines().skip(1).any(|l| l.starts_with("  "));
    if tabular {
        roff.control("nf", []);
        for line in para.lines() {
            roff.text([roff::roman(line)]);
        }
        roff.control("fi", []);
    } else {
        roff.text([roff::roman(
            para.split_whitespace().collect::<Vec<_>>().join(" "),
        )]);
    }
}

/// The help's closing text (`after_long_help`, else `after_help`) in the man page's sections.
#[derive(Debug, Default)]
struct Closing {
    notes: Vec<String>,
    exit_status: Option<String>,
    examples: Vec<String>,
}

impl Closing {
    fn of(cmd: &clap::Command) -> Closing {
        let text = cmd
            .get_after_long_help()
            .or_else(|| cmd.get_after_help())
            .map(|t| t.to_string())
            .unwrap_or_default();
        Closing::parse(&text)
    }

    fn parse(text: &str) -> Closing {
        let mut closing = Closing::default();
        for para in text
            .split("\n\n")
            .map(str::trim_end)
            .filter(|p| !p.trim().is_empty())
        {
            if let Some(rest) = para.strip_prefix("Examples:") {
                closing.examples.extend(
                    rest.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(String::from),
                );
            } else if let Some(rest) = para.strip_prefix("Exit status:") {
                closing.exit_status = Some(rest.split_whitespace().collect::<Vec<_>>().join(" "));
            } else {
                closing.notes.push(para.to_string());
            }
        }
        closing
    }
}

/// The exit status of a page whose help does not spell it out (docs/exit-codes.md).
fn default_exit_status(name: &str) -> &'static str {
    match name {
        "mcpl-doctor" => {
            "0 success: every probed server stayed up, a configuration has no errors, a \
             simulation or a generated file was written; 1 a finding: a server flapped or never \
             connected, a configuration has errors (or warnings with --deny-warnings); 2 a usage \
             error, a launch error, or a file that cannot be read or parsed; 130 interrupted \
             (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP): the report covers what \
             each server did until then. A closed standard output (| head) ends the run with 0. \
             Each subcommand's page says which of these it uses."
        }
        "serve" => {
            "0 once SIGTERM, SIGINT or SIGHUP has stopped every server (a second signal kills \
             them at once); 2 a usage error found before anything is launched: bad arguments, an \
             unusable --config, no entry left to supervise, an address it cannot listen on."
        }
        _ => {
            "0 the command ran (also when standard output's reader went away); 2 wrong \
             arguments, or an output that cannot be written."
        }
    }
}

/// The variables the page's command reads: each `MCPL_DOCTOR_*` as clap declares it (with the
/// flags it sets the default of, and on the main page the subcommands that have them), then
/// the ones every subcommand's output follows.
fn environment(cmd: &clap::Command) -> Vec<(String, String)> {
    let mut vars: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    let mut visit = |sub: &clap::Command, top: bool| {
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let (Some(var), Some(long)) = (arg.get_env(), arg.get_long()) else {
                continue;
            };
            let var = var.to_string_lossy().into_owned();
            let flag = format!("--{long}");
            let i = match vars.iter().position(|(v, _, _)| *v == var) {
                Some(i) => i,
                None => {
                    vars.push((var, Vec::new(), Vec::new()));
                    vars.len() - 1
                }
            };
            if !vars[i].1.contains(&flag) {
                vars[i].1.push(flag);
            }
            if !top {
                vars[i].2.push(sub.get_name().to_string());
            }
        }
    };
    visit(cmd, true);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        visit(sub, false);
    }
    vars.sort();
    let mut out: Vec<(String, String)> = vars
        .into_iter()
        .map(|(var, flags, subs)| {
            let mut what = format!("The default of {}", flags.join(" and "));
            if !subs.is_empty() {
                what.push_str(&format!(" ({})", subs.join(", ")));
            }
            what.push_str("; the flag, when given, wins.");
            (var, what)
        })
        .collect();
    out.push((
        "NO_COLOR".into(),
        "Set and not empty: no colour (as --color never), unless --color always.".into(),
    ));
    out.push((
        "TERM".into(),
        "dumb: no colour, and strips in ASCII.".into(),
    ));
    out.push((
        "LC_ALL, LC_CTYPE, LANG".into(),
        "The first one set: a locale that does not name UTF-8 (C, POSIX) draws strips and \
         tables in ASCII, as --ascii does."
            .into(),
    ));
    out.push((
        "COLUMNS".into(),
        "The width to fit text to when standard output is not a terminal (default 80).".into(),
    ));
    out
}
