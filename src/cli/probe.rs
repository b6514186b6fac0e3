//! `mcpl-doctor probe` (to be built: see its issue).

use clap::Args;

use crate::exit;
use crate::render::ColorChoice;

#[derive(Debug, Args)]
pub struct ProbeArgs {}

pub fn run(_args: ProbeArgs, _color: ColorChoice) -> u8 {
    eprintln!("error: not built yet");
    exit::USAGE
}
