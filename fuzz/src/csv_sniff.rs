//! The CSV stage on arbitrary bytes: encoding detection, delimiter sniffing, quoting and
//! the first block of the grid.

use previewd::office::xlsx::grid;
use previewd::office::OfficeLimits;

/// One input.
pub fn run(data: &[u8]) {
    let (text, _) = previewd::csv::decode(data);
    let _ = previewd::csv::sniff_delimiter(&text, ',');
    let book = previewd::csv::parse_csv(data, "fuzz.csv", &OfficeLimits::default());
    let _ = grid::rows_json(&book, 0, 0, grid::BLOCK_ROWS, false);
}
