//! The XLSX reader on arbitrary bytes: parse, then every block of the grid and the
//! standalone page.

use previewd::office::xlsx::{grid, parse_xlsx};
use previewd::office::OfficeLimits;

/// One input.
pub fn run(data: &[u8]) {
    if let Ok(book) = parse_xlsx(data, &OfficeLimits::default()) {
        let _ = grid::meta_json(&book, &grid::Loading::complete(&book, None));
        for s in 0..book.sheets.len() {
            let _ = grid::rows_json(&book, s, 0, grid::BLOCK_ROWS, false);
        }
        let _ = grid::standalone_html(&book, "fuzz", 50);
    }
}
