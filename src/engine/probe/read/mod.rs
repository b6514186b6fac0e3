//! The bounded readers: everything a server sends is read under a limit and folded, never held
//! whole. [`lines`] reads lines, [`bounded_json`] parses a message without a second copy of its
//! bulk, [`long_message`] reads a message longer than the line kept in memory; [`help`] says
//! which stderr lines are a program's help text (its usage and flag list); [`crash_head`] keeps
//! the head of Node's report of an uncaught error past the tail.

pub(crate) mod bounded_json;
pub(crate) mod crash_head;
pub(crate) mod help;
#[allow(dead_code)]
pub(super) mod lines;
pub(super) mod long_message;
