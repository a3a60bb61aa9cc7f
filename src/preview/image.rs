//! Image metadata: format and dimensions from the header, without decoding pixels.

use std::io::Cursor;

use quick_xml::events::Event;
use quick_xml::Reader;
use serde::Serialize;

/// What the image view shows about an image.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageInfo {
    /// MIME type to serve the bytes with.
    pub mime: &'static str,
    /// Width in pixels (SVG: user units), when known.
    pub width: Option<u32>,
    /// Height in pixels (SVG: user units), when known.
    pub height: Option<u32>,
}

/// Inspects image bytes. SVG is recognised by its root element; raster formats by their
/// magic numbers. Unknown or broken headers give an `ImageInfo` without dimensions.
pub fn inspect(bytes: &[u8], file_name: &str) -> ImageInfo {
    if file_name.to_ascii_lowercase().ends_with(".svg") {
        let (width, height) = svg_size(bytes).unwrap_or((None, None));
        return ImageInfo {
            mime: "image/svg+xml",
            width,
            height,
        };
    }
    let reader = match image::ImageReader::new(Cursor::new(bytes)).with_guessed_format() {
        Ok(r) => r,
        Err(_) => {
            return ImageInfo {
                mime: "application/octet-stream",
                width: None,
                height: None,
            }
        }
    };
    let mime = match reader.format() {
        Some(image::ImageFormat::Png) => "image/png",
        Some(image::ImageFormat::Jpeg) => "image/jpeg",
        Some(image::ImageFormat::Gif) => "image/gif",
        Some(image::ImageFormat::WebP) => "image/webp",
        Some(image::ImageFormat::Bmp) => "image/bmp",
        _ => "application/octet-stream",
    };
    let (width, height) = match reader.into_dimensions() {
        Ok((w, h)) => (Some(w), Some(h)),
        Err(_) => (None, None),
    };
    ImageInfo {
        mime,
        width,
        height,
    }
}

/// Width and height of an SVG from its root element (`width`/`height`, else `viewBox`).
fn svg_size(bytes: &[u8]) -> Option<(Option<u32>, Option<u32>)> {
    let mut reader = Reader::from_reader(bytes);
    let mut buf = Vec::new();
    // The root element comes within the first few events; a bounded loop keeps a hostile
    // file from costing more than its prologue.
    for _ in 0..64 {
        match reader.read_event_into(&mut buf).ok()? {
            Event::Start(e) | Event::Empty(e) => {
                if e.local_name().as_ref() != "svg" {
                    return None;
                }
                let mut width = None;
                let mut height = None;
                let mut view_box = None;
                for attr in e.attributes().flatten() {
                    let value = attr.value.to_string();
                    match attr.key.local_name().as_ref() {
                        "width" => width = length(&value),
                        "height" => height = length(&value),
                        "viewBox" => view_box = Some(value),
                        _ => {}
                    }
                }
                if let (None, None, Some(vb)) = (width, height, view_box) {
                    let parts: Vec<f64> = vb
                        .split([' ', ','])
                        .filter(|s| !s.is_empty())
                        .filter_map(|s| s.parse().ok())
                        .collect();
                    if let [_, _, w, h] = parts[..] {
                        return Some((to_u32(w), to_u32(h)));
                    }
                }
                return Some((width, height));
            }
            Event::Eof => return None,
            _ => {}
        }
        buf.clear();
    }
    None
}

fn length(value: &str) -> Option<u32> {
    let number = value.trim().trim_end_matches("px");
    number.parse::<f64>().ok().and_then(to_u32)
}

fn to_u32(v: f64) -> Option<u32> {
    (v.is_finite() && v >= 0.0 && v <= u32::MAX as f64).then(|| v.round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_dimensions_come_from_the_header() {
        let mut png = Vec::new();
        image::RgbaImage::new(3, 2)
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let info = inspect(&png, "a.png");
        assert_eq!(info.mime, "image/png");
        assert_eq!((info.width, info.height), (Some(3), Some(2)));
    }

    #[test]
    fn svg_sizes() {
        let info = inspect(
            br#"<svg xmlns="http://www.w3.org/2000/svg" width="40px" height="20"/>"#,
            "a.svg",
        );
        assert_eq!((info.width, info.height), (Some(40), Some(20)));
        let info = inspect(
            br#"<?xml version="1.0"?><svg viewBox="0 0 16 9"></svg>"#,
            "a.svg",
        );
        assert_eq!((info.width, info.height), (Some(16), Some(9)));
        let info = inspect(b"garbage<<<", "a.svg");
        assert_eq!(info.mime, "image/svg+xml");
        assert_eq!(info.width, None);
    }

    #[test]
    fn broken_raster_has_no_dimensions() {
        let info = inspect(b"\x89PNG\r\n\x1a\nbroken", "a.png");
        assert_eq!(info.width, None);
    }
}
