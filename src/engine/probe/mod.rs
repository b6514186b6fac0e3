//! The live probe: transports, handshakes, one attempt at a time.

pub mod dial;
pub mod urls;
