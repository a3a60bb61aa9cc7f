//! PNG: the display list painted at the device scale, encoded by the `png` crate with
//! settings for flat-colour pictures.
//!
//! The picture is nearly all axis-aligned boxes and glyphs, so those skip tiny-skia's
//! blending pipeline: a box fills the pixels it covers whole as a run of one `u32` per
//! row (its edge pixels get their share of it, as tiny-skia's anti-aliasing gives), and
//! glyph coverage bitmaps (from `fonts`, rasterized at `size × scale` device px) are
//! blended with integer arithmetic through a per-colour table that weights coverage as
//! the browser does, pens snapped to whole device pixels as a browser snaps text. Only
//! rounded boxes and borders go through tiny-skia. The image is opaque, so it is written
//! as 8-bit RGB: a quarter less to filter and compress. The `Up` filter turns the long
//! runs of identical rows (row backgrounds, the blank parts of lines) into zeros, and the
//! fast deflate of `fdeflate` compresses those runs nearly as well as the default level
//! at a fraction of its time.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex};

use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::fonts::{fonts, Bitmap, FaceId};
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
fn paint_band(
    pixmap: &mut Pixmap,
    frame: &Frame,
    extents: &[(f32, f32)],
    glyphs_memo: &mut GlyphMemo,
    scale: f32,
    top: u32,
) {
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
                    fill_box(pixmap, *rect, *color, s, top);
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
                let px = size * s;
                let alpha = alpha_u8(color.a);
                if alpha == 0 {
                    continue;
                }
                let lut = glyphs_memo.lut(*color);
                for g in glyphs {
                    if g.ch == ' ' {
                        continue;
                    }
                    let bitmap = glyphs_memo.get(g.face, g.gid, px);
                    let ox = (g.x * s).round() as i64 + i64::from(bitmap.left);
                    let oy = (g.y * s + BASELINE_NUDGE).floor() as i64 + i64::from(bitmap.top)
                        - i64::from(top);
                    blend_mask(pixmap, ox, oy, bitmap, &lut, *color, alpha);
                }
            }
        }
    }
}

/// Pixel count and byte size of the latest PNG (the next one's first allocation).
static LAST_SIZE: Mutex<Option<(usize, usize)>> = Mutex::new(None);

/// Paints `frame` at `scale` and encodes it as an opaque 8-bit RGB PNG, band by band.
/// Returns the PNG and its size.
pub fn render_png(frame: &Frame, scale: f64) -> Result<(Vec<u8>, u32, u32), String> {
    let (w, h) = device_size(frame, scale);
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    // Sized from the last PNG of the same pixel count: growing a 4 MiB vector by doubling
    // would hold the old and the new buffer at once, twice per render.
    let pixels = w as usize * h as usize;
    let hint = LAST_SIZE
        .lock()
        .ok()
        .and_then(|l| l.filter(|(p, _)| *p == pixels).map(|(_, b)| b + b / 16));
    let mut out = Vec::with_capacity(hint.unwrap_or(pixels / 8 + 1024));
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
        let mut memo = GlyphMemo::default();
        let mut top = 0;
        while top < h {
            let rows = BAND_ROWS.min(h - top);
            if rows != band.height() {
                band = Pixmap::new(w, rows).ok_or("no memory for a band")?;
            }
            paint_band(&mut band, frame, &extents, &mut memo, scale as f32, top);
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
    if let Ok(mut last) = LAST_SIZE.lock() {
        *last = Some((pixels, out.len()));
    }
    Ok((out, w, h))
}

/// Paints the whole frame into one pixmap (tests and the fidelity check compare pixels).
pub fn paint(frame: &Frame, scale: f64) -> Option<Pixmap> {
    let (w, h) = device_size(frame, scale);
    let mut pixmap = Pixmap::new(w, h)?;
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    let mut memo = GlyphMemo::default();
    paint_band(&mut pixmap, frame, &extents, &mut memo, scale as f32, 0);
    Some(pixmap)
}

/// The glyph bitmaps one render has used: the shared cache sits behind a lock that the
/// renders of both cores would otherwise take for every glyph.
#[derive(Default)]
struct GlyphMemo {
    map: HashMap<(FaceId, u16, u32), Arc<Bitmap>>,
    luts: HashMap<(u8, u8, u8), Arc<[u8; 256]>>,
}

impl GlyphMemo {
    fn lut(&mut self, color: Rgba) -> Arc<[u8; 256]> {
        Arc::clone(
            self.luts
                .entry((color.r, color.g, color.b))
                .or_insert_with(|| Arc::new(coverage_lut(color))),
        )
    }

    fn get(&mut self, face: FaceId, gid: u16, px: f32) -> &Bitmap {
        self.map
            .entry((face, gid, px.to_bits()))
            .or_insert_with(|| fonts().bitmap(face, gid, px))
    }
}

/// Gamma of the text contrast correction (Skia's `SK_GAMMA_EXPONENT` on Linux).
const TEXT_GAMMA: f32 = 1.2;
/// Contrast boost of dark text (Skia's `SK_GAMMA_CONTRAST` on Linux).
const TEXT_CONTRAST: f32 = 0.2;

/// Coverage as a browser blends it for text of `color`: Chromium (Skia) does not blend
/// glyph coverage linearly but through a table per text luminance that makes light
/// text on dark backgrounds heavier and keeps dark text crisp (gamma 1.2, contrast 0.2
/// on Linux). The same correction, computed once per colour, is applied here, so dark
/// themes match the browser's text weight.
fn coverage_lut(color: Rgba) -> [u8; 256] {
    let (gamma, contrast) = (TEXT_GAMMA, TEXT_CONTRAST);
    let to_lin = |v: f32| v.powf(gamma);
    let from_lin = |v: f32| v.max(0.0).powf(1.0 / gamma);
    let lin = 0.2126 * to_lin(f32::from(color.r) / 255.0)
        + 0.7152 * to_lin(f32::from(color.g) / 255.0)
        + 0.0722 * to_lin(f32::from(color.b) / 255.0);
    let src = from_lin(lin);
    // Skia's guess at the background: the perceptual opposite of the text.
    let dst = 1.0 - src;
    let mut lut = [0u8; 256];
    if (src - dst).abs() < 1.0 / 256.0 {
        for (i, v) in lut.iter_mut().enumerate() {
            *v = i as u8;
        }
        return lut;
    }
    let (lin_src, lin_dst) = (to_lin(src), to_lin(dst));
    let k = contrast * lin_dst;
    for (i, v) in lut.iter_mut().enumerate() {
        let raw = i as f32 / 255.0;
        let a = raw + (1.0 - raw) * k * raw;
        let out = from_lin(lin_src * a + (1.0 - a) * lin_dst);
        let result = (out - dst) / (src - dst);
        *v = (result.clamp(0.0, 1.0) * 255.0).round() as u8;
    }
    lut
}

/// An opacity 0–1 as 0–255.
fn alpha_u8(a: f32) -> u32 {
    (a.clamp(0.0, 1.0) * 255.0).round() as u32
}

/// `x / 255` rounded to nearest, exact for every `x` up to 255 × 255.
#[inline]
fn div255(x: u32) -> u32 {
    let x = x + 128;
    (x + (x >> 8)) >> 8
}

/// `src` over `dst` at opacity `a` (0–255), one channel.
#[inline]
fn mix(src: u8, dst: u8, a: u32) -> u8 {
    div255(u32::from(src) * a + u32::from(dst) * (255 - a)) as u8
}

/// `color` at opacity `a` (0–255) over one opaque RGBA pixel.
#[inline]
fn blend_px(px: &mut [u8], color: Rgba, a: u32) {
    px[0] = mix(color.r, px[0], a);
    px[1] = mix(color.g, px[1], a);
    px[2] = mix(color.b, px[2], a);
    px[3] = 255;
}

/// How much of the device pixel `i..i + 1` the span `lo..hi` covers, 0–1.
#[inline]
fn overlap(i: usize, lo: f32, hi: f32) -> f32 {
    let i = i as f32;
    ((i + 1.0).min(hi) - i.max(lo)).clamp(0.0, 1.0)
}

/// An axis-aligned box, anti-aliased as tiny-skia draws it (an edge pixel gets the share
/// of it the box covers) but without its blending pipeline: the rows and columns the box
/// covers whole are a run of one `u32` per row when it is opaque, and every other pixel is
/// blended with integer arithmetic. The band is opaque, so straight and premultiplied
/// pixels are the same.
fn fill_box(pixmap: &mut Pixmap, rect: Rect, color: Rgba, s: f32, top: u32) {
    let a = alpha_u8(color.a);
    let (pw, ph) = (pixmap.width() as f32, pixmap.height() as f32);
    let top = top as f32;
    let fx0 = (rect.x * s).clamp(0.0, pw);
    let fx1 = ((rect.x + rect.w) * s).clamp(0.0, pw);
    let fy0 = (rect.y * s - top).clamp(0.0, ph);
    let fy1 = ((rect.y + rect.h) * s - top).clamp(0.0, ph);
    if a == 0 || fx0 >= fx1 || fy0 >= fy1 {
        return;
    }
    let (ix0, ix1) = (fx0.floor() as usize, fx1.ceil() as usize);
    let (iy0, iy1) = (fy0.floor() as usize, fy1.ceil() as usize);
    // Columns covered whole: `full0..full1` (may be empty).
    let full0 = fx0.ceil() as usize;
    let full1 = (fx1.floor() as usize).max(full0);
    let w = pixmap.width() as usize;
    let opaque = tiny_skia::PremultipliedColorU8::from_rgba(color.r, color.g, color.b, 255);
    for y in iy0..iy1 {
        let cy = overlap(y, fy0, fy1);
        let row_a = (a as f32 * cy).round() as u32;
        if row_a == 0 {
            continue;
        }
        if row_a == 255 {
            if let Some(px) = opaque {
                pixmap.pixels_mut()[y * w + full0..y * w + full1].fill(px);
            }
        }
        let data = pixmap.data_mut();
        let mut last: Option<([u8; 4], u32, [u8; 4])> = None;
        for x in ix0..ix1 {
            if row_a == 255 && (full0..full1).contains(&x) {
                continue;
            }
            let pa = if (full0..full1).contains(&x) {
                row_a
            } else {
                (row_a as f32 * overlap(x, fx0, fx1)).round() as u32
            };
            if pa == 0 {
                continue;
            }
            let px = &mut data[(y * w + x) * 4..(y * w + x) * 4 + 4];
            let under = [px[0], px[1], px[2], px[3]];
            // Runs of one colour under the box (the usual case) are blended once.
            match last {
                Some((was, wa, out)) if was == under && wa == pa => px.copy_from_slice(&out),
                _ => {
                    blend_px(px, color, pa);
                    last = Some((under, pa, [px[0], px[1], px[2], px[3]]));
                }
            }
        }
    }
}

/// Source-over of `color` at opacity `alpha` (0–255) through a glyph's coverage mask
/// whose top-left is at (`ox`, `oy`), clipped to the band; integer arithmetic only.
fn blend_mask(
    pixmap: &mut Pixmap,
    ox: i64,
    oy: i64,
    bitmap: &Bitmap,
    lut: &[u8; 256],
    color: Rgba,
    alpha: u32,
) {
    let (pw, ph) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let (bw, bh) = (bitmap.width as i64, bitmap.height as i64);
    let (c0, c1) = ((-ox).max(0), bw.min(pw - ox));
    let (r0, r1) = ((-oy).max(0), bh.min(ph - oy));
    if c0 >= c1 || r0 >= r1 {
        return;
    }
    let data = pixmap.data_mut();
    for row in r0..r1 {
        let cov = &bitmap.coverage[(row * bw + c0) as usize..(row * bw + c1) as usize];
        let start = (((oy + row) * pw + ox + c0) * 4) as usize;
        let dst = &mut data[start..start + cov.len() * 4];
        for (px, &c) in dst.chunks_exact_mut(4).zip(cov) {
            if c == 0 {
                continue;
            }
            let c = u32::from(lut[usize::from(c)]);
            let a = if alpha == 255 { c } else { div255(c * alpha) };
            if a == 255 {
                px[..3].copy_from_slice(&[color.r, color.g, color.b]);
            } else {
                blend_px(px, color, a);
            }
        }
    }
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
    let a = alpha_u8(color.a);
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = (x as f32 + 0.5) / s - rect.x;
            let dy = ((y + top) as f32 + 0.5) / s - rect.y;
            let d = ((dx + dy) * inv_sqrt2).rem_euclid(7.0);
            if d >= 6.0 {
                let i = ((y * pw + x) * 4) as usize;
                blend_px(&mut data[i..i + 4], color, a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * p.width() + x) * 4) as usize;
        let d = p.data();
        [d[i], d[i + 1], d[i + 2], d[i + 3]]
    }

    #[test]
    fn division_by_255_rounds_exactly() {
        for x in 0..=255 * 255 {
            assert_eq!(div255(x), (f64::from(x) / 255.0).round() as u32, "{x}");
        }
    }

    #[test]
    fn boxes_cover_whole_pixels_and_share_their_edge_pixels() {
        let mut p = Pixmap::new(20, 10).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(255, 255, 255, 255));
        // 2.25..6.0 CSS px at scale 2 → device 4.5..12: column 4 half covered, 5..12 whole;
        // rows 2..6 of the picture, the band starting at device row 2.
        let r = Rect {
            x: 2.25,
            y: 1.0,
            w: 3.75,
            h: 2.0,
        };
        fill_box(&mut p, r, Rgba::hex(0x102030), 2.0, 2);
        assert_eq!(px(&p, 3, 0), [255; 4]);
        assert_eq!(
            px(&p, 4, 0),
            [
                mix(0x10, 255, 128),
                mix(0x20, 255, 128),
                mix(0x30, 255, 128),
                255
            ]
        );
        assert_eq!(px(&p, 5, 0), [0x10, 0x20, 0x30, 255]);
        assert_eq!(px(&p, 11, 3), [0x10, 0x20, 0x30, 255]);
        assert_eq!(px(&p, 12, 3), [255; 4]);
        assert_eq!(px(&p, 5, 4), [255; 4], "rows 0..4 of the band only");
        // Half-transparent black over white and over the box: integer source-over.
        let half = Rgba::rgba(0, 0, 0, 0.5);
        let all = Rect {
            x: 0.0,
            y: 0.0,
            w: 10.0,
            h: 5.0,
        };
        fill_box(&mut p, all, half, 2.0, 0);
        assert_eq!(px(&p, 0, 9), [127, 127, 127, 255]);
        assert_eq!(px(&p, 5, 0), [8, 16, 24, 255]);
        // The same box as tiny-skia's anti-aliased fill, within rounding.
        let mut q = Pixmap::new(20, 10).unwrap();
        q.fill(tiny_skia::Color::from_rgba8(255, 255, 255, 255));
        let mut mine = q.clone();
        let odd = Rect {
            x: 1.3,
            y: 0.7,
            w: 5.1,
            h: 2.45,
        };
        fill_box(&mut mine, odd, Rgba::hex(0x336699), 2.0, 0);
        let sk = tiny_skia::Rect::from_xywh(odd.x, odd.y, odd.w, odd.h).unwrap();
        q.fill_rect(
            sk,
            &paint_of(Rgba::hex(0x336699)),
            Transform::from_scale(2.0, 2.0),
            None,
        );
        // tiny-skia samples an edge's coverage in quarter pixels vertically, this fill
        // measures it exactly: an edge pixel may differ by up to an eighth of the colour
        // step; every pixel covered whole or not at all is equal.
        for (a, b) in mine.data().iter().zip(q.data()) {
            assert!(a.abs_diff(*b) <= 32, "{a} vs {b}");
        }
        // Device box 2.6..12.8 × 1.4..6.3: columns 3..12 and rows 2..6 are inside whole,
        // columns up to 1 and from 13, rows 0 and from 7 are outside.
        for y in 0..10 {
            for x in 0..20 {
                let inside = (3..12).contains(&x) && (2..6).contains(&y);
                let outside = x <= 1 || x >= 13 || y == 0 || y >= 7;
                if inside || outside {
                    assert_eq!(px(&mine, x, y), px(&q, x, y), "({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn light_text_is_blended_heavier_than_dark_text_and_the_ends_stay() {
        let light = coverage_lut(Rgba::hex(0xe6edf3));
        let dark = coverage_lut(Rgba::hex(0x1f2328));
        for lut in [&light, &dark] {
            assert_eq!((lut[0], lut[255]), (0, 255));
            assert!(lut.windows(2).all(|w| w[0] <= w[1]), "monotonic");
        }
        assert!(light[128] > 128, "{}", light[128]);
        assert!(light[128] > dark[128], "{} {}", light[128], dark[128]);
    }

    #[test]
    fn glyph_masks_blend_by_coverage_and_clip_to_the_band() {
        let mut p = Pixmap::new(4, 2).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(0, 0, 0, 255));
        let bitmap = Bitmap {
            left: 0,
            top: 0,
            width: 3,
            height: 3,
            coverage: vec![255, 128, 0, 0, 0, 0, 64, 64, 64],
        };
        // One row above the band, one column left of it: only the mask's lower right
        // part lands.
        let linear: [u8; 256] = std::array::from_fn(|i| i as u8);
        blend_mask(&mut p, -1, -1, &bitmap, &linear, Rgba::hex(0xffffff), 255);
        assert_eq!(px(&p, 0, 0), [0, 0, 0, 255]);
        assert_eq!(px(&p, 0, 1), [64, 64, 64, 255]);
        assert_eq!(px(&p, 1, 1), [64, 64, 64, 255]);
        blend_mask(&mut p, 2, 0, &bitmap, &linear, Rgba::hex(0xffffff), 128);
        assert_eq!(px(&p, 2, 0), [128, 128, 128, 255]);
        assert_eq!(px(&p, 3, 0), [64, 64, 64, 255]);
    }
}
