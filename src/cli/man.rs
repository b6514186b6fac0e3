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
pub struct ManArgs {
    /// The subcommand whose page to print (default: the main page, mcpl-doctor(1)).
    #[arg(value_name = "SUBCOMMAND")]
    pub page: Option<String>,

    /// Write every page (mcpl-doctor.1 and one per subcommand) into DIR instead, creating it.
    #[arg(long, value_name = "DIR", conflicts_with = "page")]
    pub out: Option<PathBuf>,
}

pub fn run(args: ManArgs) -> anyhow::Result<u8> {
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
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out)?;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&out).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => super::error::fail(format!("cannot write the man page: {e}")),
    }
}

/// Every page (`cmd`'s and each visible subcommand's, as `clap_mangen::generate_to` names
/// them) written into `dir` by the project's writer: a temporary file renamed into place, a
/// link at a page's path replaced and never followed, a FIFO or device refused at once.
fn write_pages(cmd: &clap::Command, dir: &std::path::Path) -> Result<(), String> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir)?;
    }
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render(&mut page).map_err(|e| e.to_string())?;
    crate::engine::outfile::write(&dir.join(man.get_filename()), &page).map_err(|e| e.to_string())
}
