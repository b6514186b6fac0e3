//! What a launched server's process shows while it runs (Linux `/proc`; elsewhere nothing):
//! [`limits`] it runs under, [`memory`] it holds, and what its process tree does
//! ([`tree_watch`]) and the TCP ports it listens on ([`sockets`]).

pub(crate) mod limits;
pub(crate) mod memory;
pub(crate) mod sockets;
pub(crate) mod tree_watch;
