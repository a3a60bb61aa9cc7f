//! Model types for the pictures an Office file shows, shared by the DOCX and PPTX models.

use std::collections::HashMap;

use serde::Serialize;

use super::error::OfficeError;
use super::image::ImageFormat;
use super::package::OfficePackage;

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
    /// Whether a browser can show it (PNG, JPEG, GIF, BMP, WebP, and EMF/WMF pictures that
    /// convert to SVG, which the media route serves instead); others are placeholders.
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

/// The media parts a model shows, each recorded once with what its header says.
#[derive(Debug, Default)]
pub struct MediaCatalog {
    index: HashMap<String, usize>,
    parts: Vec<MediaPart>,
}

impl MediaCatalog {
    /// Records `part` once. A part whose header cannot be read for a reason `degradable`
    /// accepts (say, it is missing) is recorded without facts and shows as a placeholder;
    /// any other failure (an image over the pixel cap, a guard breach) is returned so the
    /// caller can refuse the whole file.
    pub fn register(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        degradable: impl Fn(&OfficeError) -> bool,
    ) -> Result<(), OfficeError> {
        if self.index.contains_key(part) {
            return Ok(());
        }
        let (format, pixels, result) = match package.image_header(part) {
            Ok(Some(h)) => (Some(h.format), h.size, Ok(())),
            Ok(None) => (None, None, Ok(())),
            Err(e) if degradable(&e) => (None, None, Ok(())),
            Err(e) => (None, None, Err(e)),
        };
        let displayable = match format {
            Some(ImageFormat::Emf | ImageFormat::Wmf) => converts(package, part),
            f => f.is_some_and(|f| f.is_web_displayable()),
        };
        self.index.insert(part.to_owned(), self.parts.len());
        self.parts.push(MediaPart {
            part: part.to_owned(),
            format,
            pixels,
            displayable,
        });
        result
    }

    /// The recorded parts, in the order they were first seen.
    pub fn into_parts(self) -> Vec<MediaPart> {
        self.parts
    }
}

/// Whether a metafile part converts to SVG (it is then served converted). A part that
/// cannot be read or converted keeps its placeholder instead of failing the document.
fn converts(package: &OfficePackage<'_>, part: &str) -> bool {
    let Ok(bytes) = package.read_part(part) else {
        return false;
    };
    match super::metafile::to_svg(&bytes, &super::metafile::MetafileLimits::default()) {
        Ok(_) => true,
        Err(e) => {
            tracing::debug!(part = ?part, error = %e, "metafile shown as a placeholder");
            false
        }
    }
}
