//! What every check of an entry sees: the document, the rule, the environment, the folder.

use std::path::Path;

use crate::engine::policy::Preset;

use super::super::json::Doc;
use super::super::platform::Platforms;
use super::super::source::Source;
use super::super::vars::Scope;

pub(super) const INTERVAL: &str = "reconnectIntervalMs";
pub(super) const CAP: &str = "reconnectMaxIntervalMs";

/// Whether the preset is #999 or one of its review proposals (bad timings refused at start).
pub(super) fn refuses_bad_timings(preset: Preset) -> bool {
    preset != Preset::Handshake
}

pub(super) struct Ctx<'a, 't> {
    pub doc: &'a Doc<'t>,
    pub preset: Preset,
    pub scope: &'a Scope<'a>,
    pub source: &'a Source,
    /// The ids the file's top-level `inputs` declares (VS Code).
    pub inputs: Vec<String>,
    pub dir: &'a Path,
    /// The systems the file is checked for.
    pub platforms: Platforms,
}
