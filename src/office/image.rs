//! Image headers: format and pixel dimensions without decoding.
//!
//! An image part is only handed to a decoder (the browser, a thumbnailer) once its header
//! says it stays under the pixel cap: a 100 000 × 100 000 PNG is a few kilobytes of zip
//! and gigabytes of pixels. Only the first bytes of a part are needed, so callers read a
//! bounded prefix (see [`HEADER_PREFIX_BYTES`]).

use super::bytes::{be16, be32, le16, le32};
use serde::Serialize;

use super::error::{OfficeError, OfficeErrorKind, OfficeResult};

/// How many leading bytes of an image part are enough to find its dimensions in practice
/// (JPEG frame headers can sit after large EXIF/ICC segments).
pub const HEADER_PREFIX_BYTES: u64 = 256 * 1024;

/// Image formats recognised by their magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// GIF.
    Gif,
    /// Windows bitmap.
    Bmp,
    /// Enhanced metafile (vector; served converted to SVG by `office::metafile`).
    Emf,
    /// Windows metafile (vector; served converted to SVG by `office::metafile`).
    Wmf,
    /// TIFF (browsers do not show it; placeholder).
    Tiff,
    /// WebP.
    Webp,
    /// SVG.
    Svg,
}

impl ImageFormat {
    /// The MIME type to serve the bytes with.
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Bmp => "image/bmp",
            ImageFormat::Emf => "image/emf",
            ImageFormat::Wmf => "image/wmf",
            ImageFormat::Tiff => "image/tiff",
            ImageFormat::Webp => "image/webp",
            ImageFormat::Svg => "image/svg+xml",
        }
    }

    /// Whether browsers display this format in an `<img>` as it is (EMF and WMF are
    /// displayable only once converted; others become placeholders).
    pub fn is_web_displayable(self) -> bool {
        matches!(
            self,
            ImageFormat::Png
                | ImageFormat::Jpeg
                | ImageFormat::Gif
                | ImageFormat::Bmp
                | ImageFormat::Webp
        )
    }
}

/// What a header says about an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageHeader {
    /// The format, from magic bytes.
    pub format: ImageFormat,
    /// Width and height in pixels, when the header states them (raster formats).
    pub size: Option<(u32, u32)>,
}

/// Reads the format and, for raster formats, the pixel size from the first bytes.
pub fn sniff_image(bytes: &[u8]) -> Option<ImageHeader> {
    let header = |format, size: Option<(u32, u32)>| {
        Some(ImageHeader {
            format,
            size: size.filter(|&(w, h)| w > 0 && h > 0),
        })
    };
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        // IHDR is always the first chunk: width and height at offsets 16 and 20.
        return header(ImageFormat::Png, Some((be32(bytes, 16)?, be32(bytes, 20)?)));
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return header(
            ImageFormat::Gif,
            Some((u32::from(le16(bytes, 6)?), u32::from(le16(bytes, 8)?))),
        );
    }
    if bytes.starts_with(b"BM") {
        // BITMAPINFOHEADER: signed width and height (negative height = top-down rows);
        // the older BITMAPCOREHEADER (size 12) stores 16-bit values.
        let dib_size = le32(bytes, 14)?;
        let size = if dib_size == 12 {
            (u32::from(le16(bytes, 18)?), u32::from(le16(bytes, 20)?))
        } else {
            let w = le32(bytes, 18)? as i32;
            let h = le32(bytes, 22)? as i32;
            (w.unsigned_abs(), h.unsigned_abs())
        };
        return header(ImageFormat::Bmp, Some(size));
    }
    if bytes.starts_with(&[0xFF, 0xD8]) {
        return header(ImageFormat::Jpeg, jpeg_size(bytes));
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        return header(ImageFormat::Webp, webp_size(bytes));
    }
    if bytes.get(40..44) == Some(b" EMF") && le32(bytes, 0) == Some(1) {
        return header(ImageFormat::Emf, None);
    }
    if bytes.starts_with(&[0xD7, 0xCD, 0xC6, 0x9A]) || bytes.starts_with(&[0x01, 0x00, 0x09, 0x00])
    {
        return header(ImageFormat::Wmf, None);
    }
    if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        return header(ImageFormat::Tiff, None);
    }
    let head = &bytes[..bytes.len().min(512)];
    let head = String::from_utf8_lossy(head);
    if head.contains("<svg") {
        return header(ImageFormat::Svg, None);
    }
    None
}

/// Refuses an image whose header declares more pixels than `max_pixels`.
pub fn check_pixels(part: &str, header: &ImageHeader, max_pixels: u64) -> OfficeResult<()> {
    if let Some((w, h)) = header.size {
        let pixels = u64::from(w) * u64::from(h);
        if pixels > max_pixels {
            return Err(OfficeError::new(
                OfficeErrorKind::ImageTooLarge,
                format!("image {part} is {w}×{h} pixels, over the limit of {max_pixels} pixels"),
            ));
        }
    }
    Ok(())
}

/// Walks JPEG markers to the first start-of-frame segment.
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        // Markers may be padded with any number of 0xFF bytes.
        while *bytes.get(i)? == 0xFF && *bytes.get(i + 1)? == 0xFF {
            i += 1;
        }
        if *bytes.get(i)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(i + 1)?;
        i += 2;
        match marker {
            // Standalone markers without a length.
            0x01 | 0xD0..=0xD7 => continue,
            0xD9 | 0xDA => return None,
            _ => {}
        }
        let len = usize::from(be16(bytes, i)?);
        let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_sof {
            let h = be16(bytes, i + 3)?;
            let w = be16(bytes, i + 5)?;
            return Some((u32::from(w), u32::from(h)));
        }
        if len < 2 {
            return None;
        }
        i += len;
    }
}

fn webp_size(bytes: &[u8]) -> Option<(u32, u32)> {
    match bytes.get(12..16)? {
        b"VP8X" => {
            let w = u32::from_le_bytes([*bytes.get(24)?, *bytes.get(25)?, *bytes.get(26)?, 0]) + 1;
            let h = u32::from_le_bytes([*bytes.get(27)?, *bytes.get(28)?, *bytes.get(29)?, 0]) + 1;
            Some((w, h))
        }
        b"VP8 " => Some((
            u32::from(le16(bytes, 26)? & 0x3FFF),
            u32::from(le16(bytes, 28)? & 0x3FFF),
        )),
        b"VP8L" => {
            let b = le32(bytes, 21)?;
            Some(((b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        b.extend_from_slice(&w.to_be_bytes());
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[8, 6, 0, 0, 0]);
        b
    }

    #[test]
    fn png_gif_bmp_jpeg_sizes() {
        let png = sniff_image(&png_header(640, 480)).unwrap();
        assert_eq!(png.format, ImageFormat::Png);
        assert_eq!(png.size, Some((640, 480)));

        let gif = sniff_image(b"GIF89a\x20\x03\x58\x02\0\0").unwrap();
        assert_eq!(gif.size, Some((800, 600)));

        let mut bmp = b"BM".to_vec();
        bmp.extend_from_slice(&[0; 12]);
        bmp.extend_from_slice(&40u32.to_le_bytes());
        bmp.extend_from_slice(&100i32.to_le_bytes());
        bmp.extend_from_slice(&(-50i32).to_le_bytes());
        assert_eq!(sniff_image(&bmp).unwrap().size, Some((100, 50)));

        // SOI, APP0 (length 16), SOF0 with height 200 and width 300.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C]);
        assert_eq!(sniff_image(&jpeg).unwrap().size, Some((300, 200)));
    }

    #[test]
    fn pixel_cap() {
        let big = sniff_image(&png_header(100_000, 100_000)).unwrap();
        let err = check_pixels("word/media/a.png", &big, 50_000_000).unwrap_err();
        assert_eq!(err.kind(), OfficeErrorKind::ImageTooLarge);
        assert!(err.reason().contains("100000×100000"));
        let small = sniff_image(&png_header(5000, 5000)).unwrap();
        assert!(check_pixels("a.png", &small, 50_000_000).is_ok());
    }

    #[test]
    fn truncated_headers_do_not_panic() {
        for n in 0..30 {
            let png = png_header(1, 1);
            let _ = sniff_image(&png[..n.min(png.len())]);
            let _ = sniff_image(&[0xFF, 0xD8, 0xFF, 0xC0, 0, 0][..n.min(6)]);
        }
        assert_eq!(sniff_image(b"\xFF\xD8\xFF\xC0").map(|h| h.size), Some(None));
    }
}
