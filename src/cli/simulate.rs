//! `mcpl-doctor simulate`.

use clap::Args;

use crate::exit;
use crate::render::ColorChoice;

#[derive(Debug, Args)]
pub struct SimulateArgs {}

pub fn run(_args: SimulateArgs, _color: ColorChoice) -> u8 {
    exit::OK
}
