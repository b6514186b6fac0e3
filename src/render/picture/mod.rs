//! Pictures: the SVG timeline and small multiples ([`svg`]), the self-contained HTML page
//! ([`html`]), and the report of each subcommand assembled from them ([`report`]).

pub mod html;
pub mod report;
pub mod status;
pub mod svg;
