//! Pages as pixels: hayro renders a page at a scale into an RGBA pixmap on a white
//! background, which is encoded as PNG. The scale is lowered until the page fits the pixel
//! caps, so a 100,000-point page renders small instead of not at all.

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::page::Page;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::{render, PixmapSettings, RenderCache, RenderSettings};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};

use super::{PdfError, PdfLimits};

/// A rendered page.
#[derive(Debug, Clone)]
pub struct Raster {
    /// The PNG file.
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The scale it was rendered at (pixels per point), after the caps.
    pub scale: f32,
}

/// The largest scale not above `wanted` at which a page of `w` × `h` points fits the caps.
pub fn fit_scale(w: f32, h: f32, wanted: f32, limits: &PdfLimits) -> f32 {
    let w = w.max(1.0);
    let h = h.max(1.0);
    let side = limits.max_page_side.clamp(1, u32::from(u16::MAX)) as f32;
    let mut scale = wanted.max(0.01);
    scale = scale.min(side / w).min(side / h);
    let pixels = (w * scale) * (h * scale);
    if pixels > limits.max_page_pixels as f32 {
        scale *= (limits.max_page_pixels as f32 / pixels).sqrt();
    }
    scale
}

/// Renders `page` at `scale` (lowered to fit the caps) to PNG.
pub fn render_page(page: &Page<'_>, scale: f32, limits: &PdfLimits) -> Result<Raster, PdfError> {
    render_page_with(page, scale, limits, &RenderSettings::default())
}

/// [`render_page`] with hayro's rasterizer settings given (hinting, glyph caching, image
/// interpolation, anti-aliasing): the corpus bench compares them; the service uses the
/// defaults.
pub fn render_page_with(
    page: &Page<'_>,
    scale: f32,
    limits: &PdfLimits,
    settings: &RenderSettings,
) -> Result<Raster, PdfError> {
    let (w, h) = page.render_dimensions();
    let scale = fit_scale(w, h, scale, limits);
    let cache = RenderCache::new();
    let pixmap = render(
        page,
        &cache,
        &InterpreterSettings::default(),
        settings,
        &PixmapSettings {
            x_scale: scale,
            y_scale: scale,
            bg_color: WHITE,
        },
    );
    let (width, height) = (u32::from(pixmap.width()), u32::from(pixmap.height()));
    if width == 0 || height == 0 {
        return Err(PdfError::Corrupt("the page has no area".into()));
    }
    // The background is opaque white, so premultiplied RGBA is plain RGBA; RGB is enough.
    let rgba = pixmap.data_as_u8_slice();
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    for px in rgba.chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    Ok(Raster {
        png: encode_png(&rgb, width, height)?,
        width,
        height,
        scale,
    })
}

/// Encodes RGB pixels as PNG, favouring speed: pages are made on request.
pub fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, PdfError> {
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Sub)
        .write_image(rgb, width, height, ExtendedColorType::Rgb8)
        .map_err(|e| {
            tracing::error!(error = %e, "cannot encode a page as PNG");
            PdfError::Internal
        })?;
    Ok(png)
}

/// The tile shown for a page that did not render in time: the page's size, grey, with the
/// reason written on it (rendered by hayro from a page previewd writes itself).
pub fn timeout_tile(w: f32, h: f32, scale: f32, limits: &PdfLimits) -> Result<Raster, PdfError> {
    let message = "Could not render this page in time";
    let size = (w / 24.0).clamp(6.0, 48.0);
    let text_width = size * 0.5 * message.len() as f32;
    let spec = super::writer::PageSpec::new(w, h)
        .rect(0.0, 0.0, w, h, 0.93)
        .text(((w - text_width) / 2.0).max(0.0), h / 2.0, size, message);
    let file = super::writer::document(&[spec], "timeout", &[]);
    let pdf =
        hayro::hayro_syntax::Pdf::new(std::sync::Arc::new(file)).map_err(|_| PdfError::Internal)?;
    let page = pdf.pages().first().ok_or(PdfError::Internal)?;
    render_page(page, scale, limits)
}
