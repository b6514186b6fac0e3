//! `mcpl-doctor completions SHELL`.

use clap::Args;
use clap_complete::Shell;

use crate::exit;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mcpl-doctor completions bash > ~/.local/share/bash-completion/completions/mcpl-doctor
  mcpl-doctor completions zsh > ~/.zfunc/_mcpl-doctor
  mcpl-doctor completions fish > ~/.config/fish/completions/mcpl-doctor.fish")]
pub(crate) struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The completion script for `shell`, as bytes.
pub(crate) fn generate(shell: Shell) -> Vec<u8> {
    let mut cmd = super::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mcpl-doctor", &mut out);
    out
}

pub(crate) fn run(args: CompletionsArgs) -> anyhow::Result<u8> {
    use std::io::Write;
    let bytes = generate(args.shell);
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(exit::OK),
        Err(e) if crate::render::is_broken_pipe(&e) => Ok(exit::OK),
        Err(e) => super::error::fail(format!("cannot write completions: {e}")),
    }
}
