//! Pictures: the SVG timeline and small multiples ([`svg`]), the self-contained HTML page
//! ([`html`]), and the report of each subcommand assembled from them ([`report`]).

pub(crate) mod html;
pub(crate) mod report;
pub(crate) mod status;
pub(crate) mod svg;
