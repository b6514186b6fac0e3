//! The engine: everything mcpl-doctor knows, with no terminal in sight. Nothing here prints,
//! parses arguments or draws tables; the CLI and renderers do that.

pub mod config;
pub(crate) mod diagnosis;
pub(crate) mod fleet;
pub(crate) mod folded;
pub(crate) mod infile;
pub(crate) mod outfile;
pub(crate) mod pidfd;
pub mod policy;
pub(crate) mod probe;
pub(crate) mod process;
pub(crate) mod process_tree;
pub(crate) mod redact;
pub mod schedule;
pub(crate) mod serve;
pub(crate) mod stop;
