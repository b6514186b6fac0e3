//! `mcpl-doctor check-config` (to be built: see its issue).

use clap::Args;

use crate::exit;
use crate::render::ColorChoice;

#[derive(Debug, Args)]
pub struct CheckConfigArgs {}

pub fn run(_args: CheckConfigArgs, _color: ColorChoice) -> u8 {
    eprintln!("error: not built yet");
    exit::USAGE
}
