//! Charts: one engine for the DrawingML chart parts of Word documents, PowerPoint decks
//! and workbooks.
//!
//! [`parse_chart`] reads a `c:chartSpace` part into a [`Chart`] model: plots (column and
//! bar clustered, stacked and 100 %, line, area, pie, doughnut, scatter, bubble, radar;
//! several in one plot area for combo charts), series with their cached values and
//! colours (the theme's accent cycle, `c:spPr`, `c:dPt`, `varyColors`), axes (fixed
//! bounds and major unit, number formats, titles, secondary axes), data labels, the
//! legend and a manual plot-area layout. 3-D charts become their 2-D equivalent and say
//! so ([`Chart::drawn_as_2d`]); a surface becomes a contour chart (`contour`). [`render_svg`] draws the model as one SVG element.
//!
//! Number formats go through the spreadsheet module's Excel format engine
//! ([`crate::office::xlsx::numfmt`]); axis scaling follows Office's automatic rule
//! ([`scale`]).

mod contour;
mod dates;
pub mod model;
pub mod palette;
pub mod parse;
mod pie;
pub mod render;
pub mod scale;

pub use model::Chart;
pub(crate) use parse::parse_chart;
pub use parse::parse_chart_part;
pub use render::{accessible_label, render_svg, Measure, SvgOptions};

#[cfg(test)]
mod tests;
