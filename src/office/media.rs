//! Model types for the pictures an Office file shows, shared by the DOCX and PPTX models.

use serde::Serialize;

use super::image::ImageFormat;

/// An image part a document or deck shows.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaPart {
    /// The part name (serve its bytes by this name).
    pub part: String,
    /// Format from magic bytes, if recognised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<ImageFormat>,
    /// Pixel size from the header, for raster formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pixels: Option<(u32, u32)>,
    /// Whether a browser can show it (PNG, JPEG, GIF, BMP, WebP); others are placeholders.
    pub displayable: bool,
}

/// Where an image comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ImageSource {
    /// A part of the package, listed in the model's `media`.
    Part {
        /// The part name.
        part: String,
    },
    /// A linked file or URL; never fetched, shown as a placeholder naming it.
    External {
        /// The link as written.
        url: String,
    },
    /// The relationship or part is missing or unusable.
    Missing {
        /// What the file pointed at (relationship id or target).
        target: String,
    },
}
