//! `serve`: every selected entry supervised continuously as its host would run it, its state
//! kept for an exporter to read.
//!
//! - [`supervise`]: the [`Board`] of servers, each one run of the probe's loop for the whole
//!   life of `serve` (launched as `probe --all` launches it), and the one-off bounded probe
//!   behind `/probe`;
//! - [`status`]: one server's state folded from its events (counters, the host's alert, the
//!   tool list's drift, the current Why, a ring of launches), bounded whatever the run's
//!   length;
//! - [`histogram`]: fixed buckets in plain numbers.
//!
//! Nothing here prints, listens or knows a wire format: the command line serves HTTP and
//! `render/metrics/` writes the bytes.

pub(crate) mod histogram;
pub(crate) mod status;
pub(crate) mod supervise;

pub(crate) use status::ServerStatus;
pub(crate) use supervise::{board, probe_once, supervise, Board, Entry};
