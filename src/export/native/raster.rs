//! PNG: the display list painted with tiny-skia at the device scale, encoded by the `png`
//! crate with settings for flat-colour pictures.
//!
//! Boxes, rounded boxes and borders go through tiny-skia (anti-aliased paths); glyph
//! coverage bitmaps (from `fonts`, rasterized at `size × scale` device px) are blended
//! straight into the premultiplied pixels, pens snapped to whole device pixels as a
//! browser snaps text. The image is opaque, so it is written as 8-bit RGB: a quarter less
//! to filter and compress. The `Up` filter turns the long runs of identical rows (row
//! backgrounds, the blank parts of lines) into zeros, and the fast deflate of `fdeflate`
//! compresses those runs nearly as well as the default level at a fraction of its time.

use std::io::Write as _;

use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::fonts::fonts;
use super::layout::{Frame, Item, Rect};
use super::theme::Rgba;

/// Device size of `frame` at `scale`: `round(css × scale)` on each axis, at least 1.
pub fn device_size(frame: &Frame, scale: f64) -> (u32, u32) {
    let w = (f64::from(frame.width) * scale).round().max(1.0) as u32;
    let h = (f64::from(frame.height) * scale).round().max(1.0) as u32;
    (w, h)
}

fn paint_of(color: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.r, color.g, color.b, (color.a * 255.0).round() as u8);
    paint.anti_alias = true;
    paint
}

/// A rounded rectangle path (radius clamped to half the shorter side).
fn rounded(r: Rect, radius: f32) -> Option<tiny_skia::Path> {
    let rad = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
    if rad <= 0.0 {
        return tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h).map(PathBuilder::from_rect);
    }
    // Cubic quarter circles (k = 0.5523).
    let k = rad * 0.552_284_8;
    let (x0, y0, x1, y1) = (r.x, r.y, r.x + r.w, r.y + r.h);
    let mut pb = PathBuilder::new();
    pb.move_to(x0 + rad, y0);
    pb.line_to(x1 - rad, y0);
    pb.cubic_to(x1 - rad + k, y0, x1, y0 + rad - k, x1, y0 + rad);
    pb.line_to(x1, y1 - rad);
    pb.cubic_to(x1, y1 - rad + k, x1 - rad + k, y1, x1 - rad, y1);
    pb.line_to(x0 + rad, y1);
    pb.cubic_to(x0 + rad - k, y1, x0, y1 - rad + k, x0, y1 - rad);
    pb.line_to(x0, y0 + rad);
    pb.cubic_to(x0, y0 + rad - k, x0 + rad - k, y0, x0 + rad, y0);
    pb.close();
    pb.finish()
}

/// Rows painted at a time: the picture is painted band by band and each band's rows go
/// straight to the encoder, so a render holds one band, not the whole image (an 8 MP
/// frame would be 32 MiB of pixels).
pub const BAND_ROWS: u32 = 128;

/// Device px added to each baseline before it is snapped down to a whole pixel. Chromium
/// (FreeType's vertical hinting) draws a glyph's top about one device pixel above where
/// its unhinted outline sits; measured against Chromium 156 on the fidelity set
/// (`tests/export_native_fidelity.rs`), this moves the mean SSIM from 0.94 to 0.96.
const BASELINE_NUDGE: f32 = -0.5;

/// The vertical extent of an item in CSS px, for skipping it in bands it does not touch.
fn extent(item: &Item) -> (f32, f32) {
    match item {
        Item::Fill { rect, .. } | Item::Stroke { rect, .. } | Item::Hatch { rect, .. } => {
            (rect.y, rect.y + rect.h)
        }
        Item::Text { size, glyphs, .. } => {
            let (mut lo, mut hi) = (f32::MAX, f32::MIN);
            for g in glyphs {
                lo = lo.min(g.y);
                hi = hi.max(g.y);
            }
            // Glyphs reach about one em above and half an em below their baseline
            // (stacked marks further); two em either way is safe.
            (lo - 2.0 * size, hi + 2.0 * size)
        }
    }
}

/// Paints the device rows `top..top + pixmap.height()` of `frame` at `scale`.
fn paint_band(pixmap: &mut Pixmap, frame: &Frame, extents: &[(f32, f32)], scale: f32, top: u32) {
    let bg = frame.background;
    pixmap.fill(tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, 255));
    let s = scale;
    let band_top = top as f32 / s;
    let band_bottom = (top + pixmap.height()) as f32 / s;
    let t = Transform::from_row(s, 0.0, 0.0, s, 0.0, -(top as f32));
    for (item, &(lo, hi)) in frame.items.iter().zip(extents) {
        if hi < band_top - 1.0 || lo > band_bottom + 1.0 {
            continue;
        }
        match item {
            Item::Fill {
                rect,
                color,
                radius,
            } => {
                if *radius <= 0.0 {
                    if let Some(r) = tiny_skia::Rect::from_xywh(rect.x, rect.y, rect.w, rect.h) {
                        pixmap.fill_rect(r, &paint_of(*color), t, None);
                    }
                } else if let Some(path) = rounded(*rect, *radius) {
                    pixmap.fill_path(&path, &paint_of(*color), FillRule::Winding, t, None);
                }
            }
            Item::Stroke {
                rect,
                color,
                radius,
            } => {
                let inset = Rect {
                    x: rect.x + 0.5,
                    y: rect.y + 0.5,
                    w: rect.w - 1.0,
                    h: rect.h - 1.0,
                };
                if let Some(path) = rounded(inset, (radius - 0.5).max(0.0)) {
                    let stroke = Stroke {
                        width: 1.0,
                        ..Stroke::default()
                    };
                    pixmap.stroke_path(&path, &paint_of(*color), &stroke, t, None);
                }
            }
            Item::Hatch { rect, color } => hatch(pixmap, *rect, *color, s, top),
            Item::Text {
                size,
                color,
                glyphs,
            } => {
                let f = fonts();
                let px = size * s;
                for g in glyphs {
                    if g.ch == ' ' {
                        continue;
                    }
                    let bitmap = f.bitmap(g.face, g.gid, px);
                    let ox = (g.x * s).round() as i64 + i64::from(bitmap.left);
                    let oy = (g.y * s + BASELINE_NUDGE).floor() as i64 + i64::from(bitmap.top)
                        - i64::from(top);
                    blend_mask(
                        pixmap,
                        ox,
                        oy,
                        bitmap.width,
                        bitmap.height,
                        &bitmap.coverage,
                        *color,
                    );
                }
            }
        }
    }
}

/// Paints `frame` at `scale` and encodes it as an opaque 8-bit RGB PNG, band by band.
/// Returns the PNG and its size.
pub fn render_png(frame: &Frame, scale: f64) -> Result<(Vec<u8>, u32, u32), String> {
    let (w, h) = device_size(frame, scale);
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    let mut out = Vec::with_capacity((w as usize * h as usize) / 8 + 1024);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::Filter::Up);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        let mut stream = writer.stream_writer().map_err(|e| e.to_string())?;
        let mut band = Pixmap::new(w, BAND_ROWS.min(h)).ok_or("no memory for a band")?;
        let mut rgb = vec![0u8; w as usize * 3 * BAND_ROWS.min(h) as usize];
        let mut top = 0;
        while top < h {
            let rows = BAND_ROWS.min(h - top);
            if rows != band.height() {
                band = Pixmap::new(w, rows).ok_or("no memory for a band")?;
            }
            paint_band(&mut band, frame, &extents, scale as f32, top);
            let n = w as usize * rows as usize;
            for (dst, src) in rgb[..n * 3]
                .chunks_exact_mut(3)
                .zip(band.data().chunks_exact(4))
            {
                dst.copy_from_slice(&src[..3]);
            }
            stream.write_all(&rgb[..n * 3]).map_err(|e| e.to_string())?;
            top += rows;
        }
        stream.finish().map_err(|e| e.to_string())?;
    }
    Ok((out, w, h))
}

/// Paints the whole frame into one pixmap (tests and the fidelity check compare pixels).
pub fn paint(frame: &Frame, scale: f64) -> Option<Pixmap> {
    let (w, h) = device_size(frame, scale);
    let mut pixmap = Pixmap::new(w, h)?;
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    paint_band(&mut pixmap, frame, &extents, scale as f32, 0);
    Some(pixmap)
}

/// Source-over of `color` through a coverage mask whose top-left is at (`ox`, `oy`).
fn blend_mask(
    pixmap: &mut Pixmap,
    ox: i64,
    oy: i64,
    width: usize,
    height: usize,
    coverage: &[u8],
    color: Rgba,
) {
    let (pw, ph) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let alpha = color.a.clamp(0.0, 1.0);
    let data = pixmap.data_mut();
    for row in 0..height as i64 {
        let y = oy + row;
        if y < 0 || y >= ph {
            continue;
        }
        for col in 0..width as i64 {
            let x = ox + col;
            if x < 0 || x >= pw {
                continue;
            }
            let cov = coverage[(row as usize) * width + col as usize];
            if cov == 0 {
                continue;
            }
            let a = alpha * f32::from(cov) / 255.0;
            let i = ((y * pw + x) * 4) as usize;
            blend_px(&mut data[i..i + 4], color, a);
        }
    }
}

fn blend_px(px: &mut [u8], color: Rgba, a: f32) {
    let inv = 1.0 - a;
    px[0] = (f32::from(color.r) * a + f32::from(px[0]) * inv).round() as u8;
    px[1] = (f32::from(color.g) * a + f32::from(px[1]) * inv).round() as u8;
    px[2] = (f32::from(color.b) * a + f32::from(px[2]) * inv).round() as u8;
    px[3] = (255.0 * a + f32::from(px[3]) * inv).round() as u8;
}

/// `repeating-linear-gradient(135deg, transparent 0 6px, color 6px 7px)` over `rect`:
/// a pixel is on a line when its distance along the gradient (from the top-left corner,
/// in CSS px) falls in the last pixel of each 7 px period.
fn hatch(pixmap: &mut Pixmap, rect: Rect, color: Rgba, s: f32, top: u32) {
    let (pw, ph) = (pixmap.width() as i64, pixmap.height() as i64);
    let x0 = ((rect.x * s).round() as i64).clamp(0, pw);
    let x1 = (((rect.x + rect.w) * s).round() as i64).clamp(0, pw);
    let top = i64::from(top);
    let y0 = ((rect.y * s).round() as i64 - top).clamp(0, ph);
    let y1 = (((rect.y + rect.h) * s).round() as i64 - top).clamp(0, ph);
    let data = pixmap.data_mut();
    let inv_sqrt2 = std::f32::consts::FRAC_1_SQRT_2;
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = (x as f32 + 0.5) / s - rect.x;
            let dy = ((y + top) as f32 + 0.5) / s - rect.y;
            let d = ((dx + dy) * inv_sqrt2).rem_euclid(7.0);
            if d >= 6.0 {
                let i = ((y * pw + x) * 4) as usize;
                blend_px(&mut data[i..i + 4], color, color.a);
            }
        }
    }
}
