//! Every cap the Office container guard enforces, as data.
//!
//! The service config embeds [`OfficeLimits`]; missing fields take the defaults below, so
//! a config file only names the limits it changes.

use serde::{Deserialize, Serialize};

const MIB: u64 = 1024 * 1024;

/// Caps checked before and while inflating an Office package. Each breach is an
/// [`OfficeError`](super::OfficeError) naming the limit.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct OfficeLimits {
    /// Most zip entries (directories included) a package may list.
    pub max_entries: usize,
    /// Most bytes one part may inflate to, counted while inflating.
    pub max_part_bytes: u64,
    /// Most bytes all parts read from one package may inflate to, together.
    pub max_total_bytes: u64,
    /// Largest inflated:compressed ratio allowed for parts past `ratio_threshold_bytes`.
    pub max_compression_ratio: u64,
    /// Parts smaller than this are exempt from the ratio check (small XML compresses well).
    pub ratio_threshold_bytes: u64,
    /// Deepest element nesting accepted in any XML part.
    pub max_xml_depth: usize,
    /// Most nodes (elements and text runs) one XML part may hold once parsed; this bounds
    /// the memory of the parsed tree, which the byte caps alone do not.
    pub max_xml_nodes: usize,
    /// Most paragraphs a document's model may hold. With the node cap this bounds the
    /// memory of the model and its HTML (about 0.7 KiB per paragraph), which a file of
    /// millions of empty paragraphs would otherwise blow up from a few hundred KiB.
    pub max_paragraphs: usize,
    /// Largest image, in pixels (width × height), that may be handed to a decoder.
    pub max_image_pixels: u64,
    /// Most sheets a workbook may list; past it the workbook is refused (`sheet_too_large`).
    pub max_sheets: usize,
    /// Most cells (values and styled blanks) kept per sheet, and per CSV file. A sheet
    /// with more is shown as its first rows up to the limit, with a note saying so; a
    /// cell costs about 16 bytes of snapshot memory.
    pub max_sheet_cells: usize,
    /// Most entries of a workbook's shared-string table; past it the workbook is refused
    /// (`sheet_too_large`): cells would point at strings that were never read.
    pub max_shared_strings: usize,
    /// Most records of each list in a workbook's styles (cell formats, fonts, fills,
    /// borders); past it the workbook is refused (`sheet_too_large`).
    pub max_style_records: usize,
    /// Longest text kept in one cell, in bytes; longer text (a CSV of one huge line) is
    /// cut at this length with an ellipsis.
    pub max_cell_bytes: usize,
}

impl Default for OfficeLimits {
    fn default() -> Self {
        Self {
            max_entries: 10_000,
            max_part_bytes: 64 * MIB,
            max_total_bytes: 256 * MIB,
            max_compression_ratio: 100,
            ratio_threshold_bytes: MIB,
            max_xml_depth: 256,
            // A 300-page report holds ~52,000 elements and ~7,100 paragraphs; these caps
            // leave room for documents of well over a thousand pages while keeping a
            // hostile file's parse under 64 MiB.
            max_xml_nodes: 750_000,
            max_paragraphs: 40_000,
            max_image_pixels: 50_000_000,
            max_sheets: 1_000,
            // A 1,000,000 × 10 sheet: about 160 MiB of model, under the snapshot store's
            // 512 MiB default.
            max_sheet_cells: 10_000_000,
            max_shared_strings: 5_000_000,
            // Excel itself stops at 64,000 cell formats.
            max_style_records: 65_000,
            max_cell_bytes: 32 * 1024,
        }
    }
}
