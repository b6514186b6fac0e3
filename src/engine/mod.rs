//! The engine: everything mcpl-doctor knows, with no terminal in sight. Nothing here prints,
//! parses arguments or draws tables; the CLI and renderers do that.

pub mod config;
pub mod diagnosis;
pub mod fleet;
pub mod folded;
pub mod infile;
pub mod outfile;
pub mod pidfd;
pub mod policy;
pub mod probe;
pub mod process;
pub mod process_tree;
pub mod redact;
pub mod schedule;
pub mod serve;
pub mod stop;
