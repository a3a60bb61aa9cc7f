//! PNG: a screenshot of the frame at a device scale that fits the pixel cap.
//!
//! The viewport is the frame's width; the page is measured at the requested scale. When
//! `css_w × css_h × scale²` is over the cap, the scale is lowered to the largest that fits
//! (in steps of 0.01, never below 1), the viewport re-emulated and the frame measured again
//! (layout may move by a pixel at another scale); still over at 1 → the size-limit error.
//! The clip is snapped to whole device pixels, so the PNG is exactly `round(css × scale)`
//! wide and tall. Frames taller than [`MAX_TILE_DEVICE_PX`] device pixels are captured as
//! tiles below Chromium's texture limit and stitched with `image`. Dimensions and the cap
//! are verified on the final bytes.

use std::io::Cursor;

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams, Viewport,
};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ColorType, ImageEncoder, ImageFormat};

use super::browser::Lease;
use super::{measure_frame, ExportError, FrameBox};
use crate::diff::input::FileOptions;
use crate::diff::options::{clamp_file_scale, MIN_FILE_SCALE};

/// Tallest capture in one screenshot, in device pixels. Chromium's compositor cannot
/// allocate surfaces past about 16384 px; half of that leaves room for its own padding.
pub const MAX_TILE_DEVICE_PX: u32 = 8192;

/// Viewport height while rendering, CSS px. The capture reaches beyond it, so it only needs
/// to be an ordinary window size.
const VIEWPORT_HEIGHT: u32 = 900;

/// Times the scale is lowered before giving up (layout barely moves between scales, so one
/// step nearly always suffices).
const MAX_SCALE_STEPS: u32 = 4;

/// What to render: the device scale to start from, the frame width and the pixel cap.
#[derive(Debug, Clone, PartialEq)]
pub struct PngOptions {
    /// Device scale factor wanted (1–4); lowered to fit `max_pixels`.
    pub scale: f64,
    /// Viewport width in CSS px; the image page's frame is exactly this wide.
    pub width: u32,
    /// Hard cap on the PNG's pixel count (width × height).
    pub max_pixels: u64,
}

impl From<&FileOptions> for PngOptions {
    fn from(file: &FileOptions) -> Self {
        PngOptions {
            scale: file.scale,
            width: file.max_width,
            max_pixels: file.max_pixels,
        }
    }
}

/// A verified PNG.
#[derive(Debug, Clone, PartialEq)]
pub struct PngOutput {
    /// The PNG file.
    pub bytes: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Device scale used (the requested one, or lower to fit the cap).
    pub scale: f64,
    /// The frame's width in CSS px.
    pub css_width: f64,
    /// The frame's height in CSS px.
    pub css_height: f64,
    /// Screenshots taken (more than one for tall frames).
    pub tiles: u32,
}

/// The frame in device pixels at one scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Plan {
    pub(crate) scale: f64,
    x: f64,
    y: f64,
    width: u32,
    height: u32,
}

impl Plan {
    pub(crate) fn new(frame: &FrameBox, scale: f64) -> Plan {
        Plan {
            scale,
            x: (frame.x * scale).floor(),
            y: (frame.y * scale).floor(),
            width: (frame.width * scale).round().max(1.0) as u32,
            height: (frame.height * scale).round().max(1.0) as u32,
        }
    }

    pub(crate) fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// The CSS clip of device rows `top..top + rows`: whole device pixels on every edge.
    fn clip(&self, top: u32, rows: u32) -> Viewport {
        Viewport {
            x: self.x / self.scale,
            y: (self.y + f64::from(top)) / self.scale,
            width: f64::from(self.width) / self.scale,
            height: f64::from(rows) / self.scale,
            scale: 1.0,
        }
    }
}

/// The next scale to try when `plan` is over `cap`, or `None` when nothing fits.
pub(crate) fn lower_scale(frame: &FrameBox, plan: &Plan, cap: u64) -> Option<f64> {
    if Plan::new(frame, MIN_FILE_SCALE).pixels() > cap || plan.scale <= MIN_FILE_SCALE {
        return None;
    }
    let fit = (cap as f64 / (frame.width * frame.height)).sqrt();
    let fit = ((fit * 100.0).floor() / 100.0).max(MIN_FILE_SCALE);
    // Rounding may land on the same or a higher scale; always make progress downwards.
    let next = if fit < plan.scale {
        fit
    } else {
        ((plan.scale * 100.0).round() - 1.0) / 100.0
    };
    Some(next.max(MIN_FILE_SCALE))
}

pub(crate) async fn render(
    lease: &Lease<'_>,
    html: String,
    options: &PngOptions,
) -> Result<PngOutput, ExportError> {
    let width = options.width.max(1);
    // Requests arrive clamped already; a hand-made NaN falls back to the plainest scale.
    let mut scale = if options.scale.is_finite() {
        clamp_file_scale(options.scale)
    } else {
        MIN_FILE_SCALE
    };
    let started = std::time::Instant::now();
    lease.set_viewport(width, VIEWPORT_HEIGHT, scale).await?;
    lease.load(html).await?;
    let mut frame = measure_frame(lease).await?;
    let laid_out = started.elapsed();
    let mut plan = Plan::new(&frame, scale);
    let mut steps = 0;
    while plan.pixels() > options.max_pixels {
        let next = match lower_scale(&frame, &plan, options.max_pixels) {
            Some(next) if steps < MAX_SCALE_STEPS => next,
            _ => return Err(ExportError::SizeLimit),
        };
        steps += 1;
        scale = next;
        lease.set_viewport(width, VIEWPORT_HEIGHT, scale).await?;
        frame = measure_frame(lease).await?;
        plan = Plan::new(&frame, scale);
    }

    let mut tiles = Vec::new();
    let mut top = 0;
    while top < plan.height {
        let rows = (plan.height - top).min(MAX_TILE_DEVICE_PX);
        tiles.push(capture(lease, plan.clip(top, rows)).await?);
        top += rows;
    }
    let tile_count = tiles.len() as u32;
    let bytes = if tiles.len() == 1 {
        tiles.pop().unwrap_or_default()
    } else {
        let (w, h) = (plan.width, plan.height);
        tokio::task::spawn_blocking(move || stitch(&tiles, w, h))
            .await
            .map_err(|_| ExportError::Browser("stitching the image panicked".into()))??
    };

    let (got_w, got_h) = png_dimensions(&bytes)
        .ok_or_else(|| ExportError::Browser("the browser returned no PNG".into()))?;
    if (got_w, got_h) != (plan.width, plan.height) {
        tracing::warn!(
            got_w,
            got_h,
            want_w = plan.width,
            want_h = plan.height,
            "screenshot size differs from the frame"
        );
        return Err(ExportError::Browser(
            "the screenshot does not match the frame".into(),
        ));
    }
    if u64::from(got_w) * u64::from(got_h) > options.max_pixels {
        return Err(ExportError::SizeLimit);
    }
    tracing::debug!(
        layout_ms = laid_out.as_millis() as u64,
        total_ms = started.elapsed().as_millis() as u64,
        width = got_w,
        height = got_h,
        scale,
        tiles = tile_count,
        "diff PNG rendered"
    );
    Ok(PngOutput {
        bytes,
        width: got_w,
        height: got_h,
        scale,
        css_width: frame.width,
        css_height: frame.height,
        tiles: tile_count,
    })
}

/// One screenshot of `clip` (CSS px at the emulated device scale).
async fn capture(lease: &Lease<'_>, clip: Viewport) -> Result<Vec<u8>, ExportError> {
    let params = CaptureScreenshotParams::builder()
        .format(CaptureScreenshotFormat::Png)
        .clip(clip)
        .capture_beyond_viewport(true)
        .from_surface(true)
        // Faster PNG encoding in the browser; the file is a little larger.
        .optimize_for_speed(true)
        .build();
    let shot = lease
        .page()
        .execute(params)
        .await
        .map_err(|e| lease.browser_error("take the screenshot", e))?;
    let data: &str = shot.result.data.as_ref();
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|_| ExportError::Browser("the screenshot was not base64".into()))
}

/// Stacks the tiles (each `width` wide) into one PNG of `width × height`. Full-width tiles
/// are contiguous rows, so their decoded pixels are simply concatenated.
fn stitch(tiles: &[Vec<u8>], width: u32, height: u32) -> Result<Vec<u8>, ExportError> {
    let bad = |what: &str| ExportError::Browser(format!("a screenshot tile {what}"));
    let mut color = None;
    let mut pixels = Vec::new();
    let mut rows: u32 = 0;
    for tile in tiles {
        let tile = image::load_from_memory_with_format(tile, ImageFormat::Png)
            .map_err(|_| bad("is not a PNG"))?;
        // Chromium encodes every tile alike; anything else is a surprise worth refusing.
        let this = tile.color();
        if *color.get_or_insert(this) != this || !matches!(this, ColorType::Rgb8 | ColorType::Rgba8)
        {
            return Err(bad("has an unexpected colour type"));
        }
        if tile.width() != width || rows + tile.height() > height {
            return Err(bad("does not fit the frame"));
        }
        rows += tile.height();
        if pixels.is_empty() {
            let row_bytes = width as usize * usize::from(this.bytes_per_pixel());
            pixels.reserve_exact(row_bytes * height as usize);
        }
        pixels.extend_from_slice(tile.as_bytes());
    }
    let color = color.ok_or_else(|| bad("set is empty"))?;
    if rows != height {
        return Err(bad("set does not cover the frame"));
    }
    let mut out = Vec::new();
    PngEncoder::new_with_quality(
        Cursor::new(&mut out),
        CompressionType::Fast,
        FilterType::Adaptive,
    )
    .write_image(&pixels, width, height, color.into())
    .map_err(|_| ExportError::Browser("encoding the stitched image failed".into()))?;
    Ok(out)
}

/// Width and height from a PNG's IHDR chunk, without decoding the image.
pub(crate) fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::RgbaImage;

    fn frame(width: f64, height: f64) -> FrameBox {
        FrameBox {
            x: 0.0,
            y: 0.0,
            width,
            height,
        }
    }

    #[test]
    fn plan_snaps_to_device_pixels() {
        let f = FrameBox {
            x: 0.4,
            y: 10.3,
            width: 960.0,
            height: 500.6,
        };
        let p = Plan::new(&f, 1.5);
        assert_eq!((p.width, p.height), (1440, 751));
        let clip = p.clip(0, p.height);
        assert_eq!(clip.width * 1.5, 1440.0);
        assert_eq!(clip.x * 1.5, 0.0);
        assert_eq!((clip.y * 1.5).round(), 15.0);
        let second = p.clip(700, 51);
        assert!((second.y * 1.5 - 715.0).abs() < 1e-9);
    }

    #[test]
    fn scale_is_lowered_to_fit_and_never_below_one() {
        let cap = 8_000_000;
        let f = frame(960.0, 3000.0);
        let p = Plan::new(&f, 2.0);
        assert!(p.pixels() > cap);
        let next = lower_scale(&f, &p, cap).unwrap();
        assert!((1.0..2.0).contains(&next));
        assert!(Plan::new(&f, next).pixels() <= cap, "{next}");
        // Impossible even at scale 1.
        let huge = frame(960.0, 9000.0);
        assert_eq!(lower_scale(&huge, &Plan::new(&huge, 2.0), cap), None);
        // Already at 1 and over.
        assert_eq!(lower_scale(&huge, &Plan::new(&huge, 1.0), cap), None);
    }

    #[test]
    fn lowering_always_makes_progress() {
        let f = frame(1000.0, 1000.0);
        let p = Plan::new(&f, 1.5);
        // Cap just under the current size: the fit rounds to 1.49.
        let next = lower_scale(&f, &p, p.pixels() - 1).unwrap();
        assert!(next < 1.5);
    }

    #[test]
    fn stitched_tiles_make_one_png() {
        let mut tiles = Vec::new();
        for (h, shade) in [(3u32, 10u8), (2, 200)] {
            let img = RgbaImage::from_pixel(4, h, image::Rgba([shade, 0, 0, 255]));
            let mut bytes = Vec::new();
            img.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
                .unwrap();
            tiles.push(bytes);
        }
        let out = stitch(&tiles, 4, 5).unwrap();
        assert_eq!(png_dimensions(&out), Some((4, 5)));
        let img = image::load_from_memory(&out).unwrap().into_rgba8();
        assert_eq!(img.get_pixel(0, 2)[0], 10);
        assert_eq!(img.get_pixel(3, 3)[0], 200);
        assert!(stitch(&tiles, 4, 6).is_err());
        assert!(stitch(&tiles, 5, 5).is_err());
    }

    #[test]
    fn png_dimensions_reads_the_header_only() {
        assert_eq!(png_dimensions(b"nope"), None);
        let img = RgbaImage::new(7, 3);
        let mut bytes = Vec::new();
        img.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        assert_eq!(png_dimensions(&bytes), Some((7, 3)));
    }
}
