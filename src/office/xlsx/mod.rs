//! Excel workbooks (`.xlsx`, `.xlsm`): a read-only model, its parser, the number-format
//! engine and the grid's data (row blocks as JSON, a standalone HTML table).
//!
//! # Why not calamine
//!
//! `calamine` reads cell values, types and formulas well, and detects which number formats
//! are dates. It was read for this module and not used, for three reasons:
//!
//! - it opens the zip itself, so its reads would bypass the package guard (entry count,
//!   per-part/total/ratio inflation caps, no DTD, depth limits) every other Office file goes
//!   through; a zip bomb or a billion-laughs part would reach its reader unchecked;
//! - `worksheet_range` returns a dense `Range` sized by the bounding box of the cells, so
//!   one cell at `A1` and one at `XFD1048576` allocate 17 billion slots; a sparse,
//!   16-bytes-per-cell model is what keeps a million-row sheet cheap in a snapshot;
//! - it has no styles, layout or number-format *rendering*: fonts, fills, borders,
//!   alignment, merged cells' geometry, column widths, row heights, frozen panes, tab
//!   colours, hyperlinks, comments and drawings would all need a second reader of the
//!   same parts anyway.
//!
//! So the workbook, styles, theme, comments and drawings are read as guarded trees
//! ([`crate::office::xml`]); worksheets and the shared strings, which grow with the data,
//! are streamed under the same guards ([`stream`]); a large workbook is read in the
//! background, its first visible sheet shown as it streams in ([`live`]). calamine stays
//! a reference point in the benchmarks only (see `benches/README.md`).
//!
//! # Limits
//!
//! Sheets, shared strings and style records past their [`OfficeLimits`] refuse the file
//! with `sheet_too_large`; cells past `max_sheet_cells` keep the first rows with a note;
//! rows or columns past the grid (1,048,576 × 16,384) are `corrupt`. `<dimension>` is
//! never trusted: the used range is measured from the cells.
//!
//! [`OfficeLimits`]: crate::office::OfficeLimits

pub mod cond;
pub mod drawing;
pub mod grid;
pub mod live;
pub mod model;
pub mod numfmt;
pub mod style;
pub mod tables;

mod parse;
mod stream;

pub use parse::{cut_text, parse_package, parse_xlsx, safe_url};
