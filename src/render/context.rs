//! What a probe's renderers are told besides the run itself: how the target is named, which
//! configuration entry it is ([`EntryRef`], the engine's), what stopped the run, and why its connections ended.

use crate::engine::diagnosis::Diagnosis;
use crate::engine::fleet::{EntryRef, Probed};
use crate::engine::probe::Protocol;
use crate::engine::stop::StopCause;

/// What the report shows besides the run itself.
pub(crate) struct Context<'a> {
    /// The target as shown to a person (redacted).
    pub target: &'a str,
    /// The configuration entry probed (`--config FILE --server ID`), if any.
    pub entry: Option<&'a EntryRef>,
    pub protocol: Protocol,
    /// What stopped the run from outside (Ctrl-C, SIGTERM, SIGHUP), if anything did.
    pub interrupted: Option<StopCause>,
    /// The likely causes of the ends, the surest first (empty when nothing died).
    pub why: &'a [Diagnosis],
}

/// A server of `--all` seen as a single probe.
impl Probed {
    pub(crate) fn context<'a>(&'a self, why: &'a [Diagnosis]) -> Context<'a> {
        Context {
            target: &self.target,
            entry: None,
            protocol: self.protocol,
            interrupted: self.interrupted,
            why,
        }
    }
}
