//! PNG: the display list painted at the device scale, band by band, into a pixel
//! [`Target`] (palette indices, or RGB when a frame has too many colours), each band's rows
//! going straight to the [`Encoder`].
//!
//! Nothing goes through a general rasterizer: a diff frame is axis-aligned boxes (some
//! with rounded corners), 1 px borders, hatching and glyphs. A box fills the pixels it
//! covers whole as a run of one pixel value per row, and its edge pixels get the share of
//! it they cover (as an anti-aliasing rasterizer gives); a rounded corner's pixels get
//! the coverage of their distance to the corner's circle; a border is its outer rounded
//! box less its inner one, and the inner part of each row is skipped, not computed. Glyph
//! coverage bitmaps (from `fonts`, rasterized at `size × scale` device px) are blended
//! through a per-colour table that weights coverage as the browser does, pens snapped to
//! whole device pixels as a browser snaps text.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::canvas::{div255, Indexed, Ink, Rgb, Rgb8, Target};
use super::encode::Encoder;
use super::fonts::{fonts, Bitmap, FaceId};
use super::layout::{Frame, Item, Rect};
use super::theme::Rgba;

/// Device size of `frame` at `scale`: `round(css × scale)` on each axis, at least 1.
pub fn device_size(frame: &Frame, scale: f64) -> (u32, u32) {
    let w = (f64::from(frame.width) * scale).round().max(1.0) as u32;
    let h = (f64::from(frame.height) * scale).round().max(1.0) as u32;
    (w, h)
}

/// Rows painted at a time: the picture is painted band by band and each band's rows go
/// straight to the encoder, so a render holds one band, not the whole image.
pub const BAND_ROWS: u32 = 128;

/// Coverage steps of a text ramp in a palette image (the untouched pixel and the full
/// colour included). Measured on the fidelity set (`tests/export_native_fidelity.rs`,
/// see benches/README.md): fewer steps cost SSIM, more cost palette room.
pub const TEXT_LEVELS: usize = 8;

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

/// Device rows `top..top + h` of the picture, `w` pixels each.
pub struct Band<P> {
    w: usize,
    h: usize,
    top: u32,
    px: Vec<P>,
}

impl<P: Copy + Default> Band<P> {
    fn new(w: usize, h: usize) -> Band<P> {
        Band {
            w,
            h,
            top: 0,
            px: vec![P::default(); w * h],
        }
    }

    fn row(&mut self, y: usize) -> &mut [P] {
        &mut self.px[y * self.w..(y + 1) * self.w]
    }
}

/// A colour as the painter uses it: RGB and opacity 0–255.
fn split(c: Rgba) -> (Rgb, u32) {
    ([c.r, c.g, c.b], alpha_u8(c.a))
}

/// Paints the rows of `band` (its `top` set) of `frame` at `scale`.
fn paint_band<T: Target>(
    band: &mut Band<T::Px>,
    t: &mut T,
    frame: &Frame,
    extents: &[(f32, f32)],
    memo: &mut GlyphMemo,
    s: f32,
) {
    let bg = frame.background;
    let fill = t.solid([bg.r, bg.g, bg.b]);
    band.px.fill(fill);
    let band_top = band.top as f32 / s;
    let band_bottom = (band.top as usize + band.h) as f32 / s;
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
                let shape = Shape::new(*rect, *radius, s, band.top);
                fill_shape(band, t, &shape, *color);
            }
            Item::Stroke {
                rect,
                color,
                radius,
            } => stroke(band, t, *rect, *radius, *color, s),
            Item::Hatch { rect, color } => hatch(band, t, *rect, *color, s),
            Item::Text {
                size,
                color,
                glyphs,
            } => {
                let px = size * s;
                let (rgb, alpha) = split(*color);
                if alpha == 0 {
                    continue;
                }
                let ink = memo.ink(t, rgb, alpha as u8);
                for g in glyphs {
                    if g.ch == ' ' {
                        continue;
                    }
                    let bitmap = memo.get(g.face, g.gid, px);
                    let ox = (g.x * s).round() as i64 + i64::from(bitmap.left);
                    let oy = (g.y * s + BASELINE_NUDGE).floor() as i64 + i64::from(bitmap.top)
                        - i64::from(band.top);
                    blend_mask(band, t, ox, oy, bitmap, ink);
                }
            }
        }
    }
}

/// Pixel count and byte size of the latest PNG (the next one's first allocation).
static LAST_SIZE: Mutex<Option<(usize, usize)>> = Mutex::new(None);

/// Paints `frame` at `scale` and encodes it as an 8-bit palette PNG, band by band, or as
/// RGB when its colours do not fit a palette. Returns the PNG and its size.
///
/// While a core is free (fewer renders running than cores), painting and encoding run on
/// two threads, one band apart: a lone image then arrives in about the time of the longer
/// of the two instead of their sum. When every core is busy the render stays on its own
/// thread, so a sustained load pays no hand-over between threads. Both ways write the
/// same bytes.
pub fn render_png(frame: &Frame, scale: f64) -> Result<(Vec<u8>, u32, u32), String> {
    let running = Running::enter();
    render_png_with(frame, scale, running.has_spare_core())
}

/// [`render_png`] with the choice of one thread or two made by the caller.
pub fn render_png_with(
    frame: &Frame,
    scale: f64,
    two_threads: bool,
) -> Result<(Vec<u8>, u32, u32), String> {
    // Fewer steps first, then exact RGB: a frame of very many colour pairs still gets
    // a picture, at the price of painting it again.
    for levels in [TEXT_LEVELS, TEXT_LEVELS / 2] {
        if let Some(png) = encode(frame, scale, &mut Indexed::new(levels), two_threads)? {
            return Ok(png);
        }
    }
    encode(frame, scale, &mut Rgb8::default(), two_threads)?
        .ok_or_else(|| "RGB has no palette".into())
}

/// Native PNG renders running now, against the machine's cores.
struct Running;

static RUNNING: AtomicUsize = AtomicUsize::new(0);

impl Running {
    fn enter() -> Running {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Running
    }

    /// Whether another thread of this render would find a core no render is using.
    fn has_spare_core(&self) -> bool {
        static CORES: OnceLock<usize> = OnceLock::new();
        let cores =
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        RUNNING.load(Ordering::Relaxed) < cores
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Paints and encodes `frame` into target `t`; `None` once `t` has run out of colours.
fn encode<T: Target + Send>(
    frame: &Frame,
    scale: f64,
    t: &mut T,
    two_threads: bool,
) -> Result<Option<(Vec<u8>, u32, u32)>, String>
where
    T::Px: Send,
{
    let (w, h) = device_size(frame, scale);
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    // Sized from the last PNG of the same pixel count: growing a vector of megabytes by
    // doubling would hold the old and the new buffer at once.
    let pixels = w as usize * h as usize;
    let hint = LAST_SIZE
        .lock()
        .ok()
        .and_then(|l| l.filter(|(p, _)| *p == pixels).map(|(_, b)| b + b / 16));
    let mut enc =
        Encoder::new(w, h, T::BYTES, hint.unwrap_or(pixels / 8)).map_err(|e| e.to_string())?;
    let painter = Painter {
        frame,
        extents: &extents,
        scale: scale as f32,
        w: w as usize,
        h,
    };
    let complete = if two_threads && h > BAND_ROWS {
        painter.pipelined(t, &mut enc)?
    } else {
        painter.sequential(t, &mut enc)?
    };
    if !complete {
        return Ok(None);
    }
    let png = enc.finish(t.palette()).map_err(|e| e.to_string())?;
    if let Ok(mut last) = LAST_SIZE.lock() {
        *last = Some((pixels, png.len()));
    }
    Ok(Some((png, w, h)))
}

/// The frame's bands in order, painted into a target and handed to an encoder.
struct Painter<'a> {
    frame: &'a Frame,
    extents: &'a [(f32, f32)],
    scale: f32,
    w: usize,
    h: u32,
}

impl Painter<'_> {
    /// Paints the band starting at row `top` into `band`; false once `t` overflowed.
    fn paint<T: Target>(
        &self,
        band: &mut Band<T::Px>,
        top: u32,
        t: &mut T,
        memo: &mut GlyphMemo,
    ) -> bool {
        let rows = BAND_ROWS.min(self.h - top) as usize;
        band.h = rows;
        band.px.truncate(band.w * rows);
        band.top = top;
        paint_band(band, t, self.frame, self.extents, memo, self.scale);
        !t.overflowed()
    }

    fn band<P: Copy + Default>(&self) -> Band<P> {
        Band::new(self.w, BAND_ROWS.min(self.h) as usize)
    }

    /// One thread paints a band, then encodes it. False when `t` overflowed.
    fn sequential<T: Target>(&self, t: &mut T, enc: &mut Encoder) -> Result<bool, String> {
        let mut band = self.band();
        let mut memo = GlyphMemo::default();
        for top in (0..self.h).step_by(BAND_ROWS as usize) {
            if !self.paint(&mut band, top, t, &mut memo) {
                return Ok(false);
            }
            enc.rows(T::bytes(&band.px)).map_err(|e| e.to_string())?;
        }
        Ok(true)
    }

    /// A scoped thread paints bands while this one encodes them, the two passing band
    /// buffers back and forth (three in all, so neither waits on a buffer). False when
    /// `t` overflowed.
    fn pipelined<T: Target + Send>(&self, t: &mut T, enc: &mut Encoder) -> Result<bool, String>
    where
        T::Px: Send,
    {
        use std::sync::mpsc::sync_channel;
        const BUFFERS: usize = 3;
        std::thread::scope(|scope| {
            let (painted_tx, painted_rx) = sync_channel::<Band<T::Px>>(BUFFERS);
            let (free_tx, free_rx) = sync_channel::<Band<T::Px>>(BUFFERS);
            for _ in 0..BUFFERS {
                let _ = free_tx.send(self.band());
            }
            let painter = scope.spawn(move || {
                let mut memo = GlyphMemo::default();
                for top in (0..self.h).step_by(BAND_ROWS as usize) {
                    // The encoder stops taking bands only when it failed: stop too.
                    let Ok(mut band) = free_rx.recv() else {
                        return true;
                    };
                    if !self.paint(&mut band, top, t, &mut memo) {
                        return false;
                    }
                    if painted_tx.send(band).is_err() {
                        return true;
                    }
                }
                true
            });
            let encoded = (|| {
                for band in painted_rx {
                    enc.rows(T::bytes(&band.px)).map_err(|e| e.to_string())?;
                    let _ = free_tx.send(band);
                }
                Ok::<(), String>(())
            })();
            // On an encoder error `painted_rx` and `free_tx` are gone: the painter's next
            // send or receive fails and it returns.
            drop(free_tx);
            let complete = painter
                .join()
                .map_err(|_| "the painting thread panicked".to_string())?;
            encoded.map(|()| complete)
        })
    }
}

/// Paints the whole frame in exact RGB (tests and the fidelity check compare pixels).
pub fn paint(frame: &Frame, scale: f64) -> image::RgbImage {
    let (w, h) = device_size(frame, scale);
    let extents: Vec<(f32, f32)> = frame.items.iter().map(extent).collect();
    let mut band: Band<Rgb> = Band::new(w as usize, h as usize);
    let mut memo = GlyphMemo::default();
    paint_band(
        &mut band,
        &mut Rgb8::default(),
        frame,
        &extents,
        &mut memo,
        scale as f32,
    );
    image::RgbImage::from_raw(w, h, band.px.as_flattened().to_vec())
        .unwrap_or_else(|| image::RgbImage::new(w, h))
}

/// The glyph bitmaps and inks one render has used: the shared glyph cache sits behind a
/// lock that the renders of both cores would otherwise take for every glyph.
#[derive(Default)]
struct GlyphMemo {
    map: HashMap<(FaceId, u16, u32), Arc<Bitmap>>,
    inks: HashMap<(Rgb, u8), usize>,
}

impl GlyphMemo {
    /// The target's handle of text in `rgb` at opacity `alpha`.
    fn ink<T: Target>(&mut self, t: &mut T, rgb: Rgb, alpha: u8) -> usize {
        *self.inks.entry((rgb, alpha)).or_insert_with(|| {
            let lut = coverage_lut(rgb);
            let a = u32::from(alpha);
            let opacity = std::array::from_fn(|c| {
                let l = u32::from(lut[c]);
                if a == 255 {
                    l as u8
                } else {
                    div255(l * a) as u8
                }
            });
            t.ink(&Ink {
                rgb,
                alpha,
                opacity,
            })
        })
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
fn coverage_lut(color: Rgb) -> [u8; 256] {
    let (gamma, contrast) = (TEXT_GAMMA, TEXT_CONTRAST);
    let to_lin = |v: f32| v.powf(gamma);
    let from_lin = |v: f32| v.max(0.0).powf(1.0 / gamma);
    let lin = 0.2126 * to_lin(f32::from(color[0]) / 255.0)
        + 0.7152 * to_lin(f32::from(color[1]) / 255.0)
        + 0.0722 * to_lin(f32::from(color[2]) / 255.0);
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

/// How much of the device pixel `i..i + 1` the span `lo..hi` covers, 0–1.
#[inline]
fn overlap(i: usize, lo: f32, hi: f32) -> f32 {
    let i = i as f32;
    ((i + 1.0).min(hi) - i.max(lo)).clamp(0.0, 1.0)
}

/// A box with rounded corners in band device px.
#[derive(Debug, Clone, Copy)]
struct Shape {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    /// Corner radius (0: square), at most half the shorter side.
    r: f32,
}

impl Shape {
    /// `rect` (CSS px) with `radius` at scale `s`, in the coordinates of a band whose
    /// first row is device row `top`.
    fn new(rect: Rect, radius: f32, s: f32, top: u32) -> Shape {
        let top = top as f32;
        let r = (radius.min(rect.w / 2.0).min(rect.h / 2.0).max(0.0)) * s;
        let (x0, y0, x1, y1) = rect.snapped_edges();
        Shape {
            x0: x0 * s,
            y0: y0 * s - top,
            x1: x1 * s,
            y1: y1 * s - top,
            r,
        }
    }

    /// Rows `lo..hi` of the band (`h` rows) it touches.
    fn rows(&self, h: usize) -> (usize, usize) {
        let lo = self.y0.clamp(0.0, h as f32).floor() as usize;
        let hi = self.y1.clamp(0.0, h as f32).ceil() as usize;
        (lo, hi)
    }

    /// Columns `lo..hi` of a `w`-pixel row it touches.
    fn cols(&self, w: usize) -> (usize, usize) {
        let lo = self.x0.clamp(0.0, w as f32).floor() as usize;
        let hi = self.x1.clamp(0.0, w as f32).ceil() as usize;
        (lo, hi)
    }

    /// Whether row `y` crosses a rounded corner.
    fn corner_row(&self, y: usize) -> bool {
        self.r > 0.0 && ((y as f32) < self.y0 + self.r || (y + 1) as f32 > self.y1 - self.r)
    }

    /// Columns `lo..hi` of row `y` that are not in a corner: covered by `overlap` of the
    /// row alone.
    fn plain_cols(&self, y: usize, w: usize) -> (usize, usize) {
        let (lo, hi) = if self.corner_row(y) {
            (self.x0 + self.r, self.x1 - self.r)
        } else {
            (self.x0, self.x1)
        };
        let lo = lo.clamp(0.0, w as f32).ceil() as usize;
        let hi = (hi.clamp(0.0, w as f32).floor() as usize).max(lo);
        (lo, hi)
    }

    /// Coverage 0–1 of pixel (`x`, `y`): the overlap of the pixel with the box, within a
    /// corner limited by the pixel centre's distance to the corner's circle.
    fn coverage(&self, x: usize, y: usize) -> f32 {
        let base = overlap(x, self.x0, self.x1) * overlap(y, self.y0, self.y1);
        if base <= 0.0 || self.r <= 0.0 {
            return base;
        }
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let dx = if cx < self.x0 + self.r {
            self.x0 + self.r - cx
        } else if cx > self.x1 - self.r {
            cx - (self.x1 - self.r)
        } else {
            return base;
        };
        let dy = if cy < self.y0 + self.r {
            self.y0 + self.r - cy
        } else if cy > self.y1 - self.r {
            cy - (self.y1 - self.r)
        } else {
            return base;
        };
        let d = (dx * dx + dy * dy).sqrt();
        base.min((self.r - d + 0.5).clamp(0.0, 1.0))
    }
}

/// `c` at opacity `a` (0–255) over `under`; `edge`: in a pixel covered in part.
#[inline]
fn blend<T: Target>(t: &mut T, under: T::Px, c: Rgb, a: u8, edge: bool) -> T::Px {
    if edge {
        t.edge_over(under, c, a)
    } else {
        t.over(under, c, a)
    }
}

/// `c` at opacity `a` (0–255) over pixels `x0..x1` of `row`, which `edge` says are covered
/// in part. Opaque runs are one fill; a translucent run blends each distinct pixel under
/// it once.
#[inline]
fn span<T: Target>(
    t: &mut T,
    row: &mut [T::Px],
    (x0, x1): (usize, usize),
    c: Rgb,
    a: u32,
    edge: bool,
) {
    if a == 0 || x0 >= x1 {
        return;
    }
    if a >= 255 {
        let p = t.solid(c);
        row[x0..x1].fill(p);
        return;
    }
    let mut last: Option<(T::Px, T::Px)> = None;
    for px in &mut row[x0..x1] {
        let under = *px;
        *px = match last {
            Some((u, out)) if u == under => out,
            _ => {
                let out = blend(t, under, c, a as u8, edge);
                last = Some((under, out));
                out
            }
        };
    }
}

/// `c` at opacity `a` (0–255) times coverage `cov` (0–1) over one pixel.
#[inline]
fn dot<T: Target>(t: &mut T, px: &mut T::Px, c: Rgb, a: u32, cov: f32) {
    let cov = T::edge(cov);
    let a = (a as f32 * cov).round() as u32;
    if a >= 255 {
        *px = t.solid(c);
    } else if a > 0 {
        *px = blend(t, *px, c, a as u8, cov < 1.0);
    }
}

/// A filled box, square or rounded: the plain middle of each row as one span at the
/// row's vertical coverage, its edge and corner pixels by their own coverage.
fn fill_shape<T: Target>(band: &mut Band<T::Px>, t: &mut T, shape: &Shape, color: Rgba) {
    let (c, a) = split(color);
    if a == 0 {
        return;
    }
    let w = band.w;
    let (ylo, yhi) = shape.rows(band.h);
    let (xlo, xhi) = shape.cols(w);
    for y in ylo..yhi {
        let cy = overlap(y, shape.y0, shape.y1);
        let (p0, p1) = shape.plain_cols(y, w);
        let row = band.row(y);
        let cy = T::edge(cy);
        let row_a = (a as f32 * cy).round() as u32;
        span(t, row, (p0, p1), c, row_a, cy < 1.0);
        for x in (xlo..p0.min(xhi)).chain(p1.max(xlo)..xhi) {
            dot(t, &mut row[x], c, a, shape.coverage(x, y));
        }
    }
}

/// A 1 px border inside `rect` (rounded by `radius`): the outer box less the box 1 px
/// in, the inner part of each row skipped.
fn stroke<T: Target>(
    band: &mut Band<T::Px>,
    t: &mut T,
    rect: Rect,
    radius: f32,
    color: Rgba,
    s: f32,
) {
    let (c, a) = split(color);
    if a == 0 {
        return;
    }
    let outer = Shape::new(rect, radius, s, band.top);
    let inner_rect = Rect {
        x: rect.x + 1.0,
        y: rect.y + 1.0,
        w: (rect.w - 2.0).max(0.0),
        h: (rect.h - 2.0).max(0.0),
    };
    let inner = Shape::new(inner_rect, (radius - 1.0).max(0.0), s, band.top);
    let w = band.w;
    let (ylo, yhi) = outer.rows(band.h);
    let (xlo, xhi) = outer.cols(w);
    for y in ylo..yhi {
        // Where the inner box covers whole pixels, the border is not.
        let (s0, s1) = if overlap(y, inner.y0, inner.y1) >= 1.0 {
            let lo = (inner.x0 + inner.r).clamp(0.0, w as f32).ceil() as usize;
            let hi = ((inner.x1 - inner.r).clamp(0.0, w as f32).floor() as usize).max(lo);
            (lo, hi)
        } else {
            (xhi, xhi)
        };
        let row = band.row(y);
        for x in (xlo..s0.min(xhi)).chain(s1.max(xlo)..xhi) {
            let cov = outer.coverage(x, y) - inner.coverage(x, y);
            if cov > 0.0 {
                dot(t, &mut row[x], c, a, cov);
            }
        }
    }
}

/// Blends a glyph's coverage mask whose top-left is at (`ox`, `oy`) in `ink`, clipped
/// to the band.
fn blend_mask<T: Target>(
    band: &mut Band<T::Px>,
    t: &mut T,
    ox: i64,
    oy: i64,
    bitmap: &Bitmap,
    ink: usize,
) {
    let (pw, ph) = (band.w as i64, band.h as i64);
    let (bw, bh) = (bitmap.width as i64, bitmap.height as i64);
    let (c0, c1) = ((-ox).max(0), bw.min(pw - ox));
    let (r0, r1) = ((-oy).max(0), bh.min(ph - oy));
    if c0 >= c1 || r0 >= r1 {
        return;
    }
    for row in r0..r1 {
        let cov = &bitmap.coverage[(row * bw + c0) as usize..(row * bw + c1) as usize];
        let dst = band.row((oy + row) as usize);
        let x = (ox + c0) as usize;
        t.glyph_row(&mut dst[x..x + cov.len()], cov, ink);
    }
}

/// `repeating-linear-gradient(135deg, transparent 0 6px, color 6px 7px)` over `rect`:
/// a pixel is on a line when its distance along the gradient (from the top-left corner,
/// in CSS px) falls in the last pixel of each 7 px period.
fn hatch<T: Target>(band: &mut Band<T::Px>, t: &mut T, rect: Rect, color: Rgba, s: f32) {
    let (c, a) = split(color);
    let (pw, ph) = (band.w as i64, band.h as i64);
    let x0 = ((rect.x * s).round() as i64).clamp(0, pw);
    let x1 = (((rect.x + rect.w) * s).round() as i64).clamp(0, pw);
    let top = i64::from(band.top);
    let y0 = ((rect.y * s).round() as i64 - top).clamp(0, ph);
    let y1 = (((rect.y + rect.h) * s).round() as i64 - top).clamp(0, ph);
    let inv_sqrt2 = std::f32::consts::FRAC_1_SQRT_2;
    for y in y0..y1 {
        let row = band.row(y as usize);
        for x in x0..x1 {
            let dx = (x as f32 + 0.5) / s - rect.x;
            let dy = ((y + top) as f32 + 0.5) / s - rect.y;
            let d = ((dx + dy) * inv_sqrt2).rem_euclid(7.0);
            if d >= 6.0 {
                dot(t, &mut row[x as usize], c, a, 1.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::canvas::mix;
    use super::*;
    use tiny_skia::{Paint, PathBuilder, Pixmap, Transform};

    fn band(w: usize, h: usize, top: u32, bg: Rgb) -> Band<Rgb> {
        let mut b = Band::new(w, h);
        b.top = top;
        b.px.fill(bg);
        b
    }

    fn px(b: &Band<Rgb>, x: usize, y: usize) -> Rgb {
        b.px[y * b.w + x]
    }

    fn skia_paint(c: Rgba) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color_rgba8(c.r, c.g, c.b, 255);
        paint.anti_alias = true;
        paint
    }

    fn fill(b: &mut Band<Rgb>, rect: Rect, c: Rgba, radius: f32, s: f32) {
        let shape = Shape::new(rect, radius, s, b.top);
        fill_shape(b, &mut Rgb8::default(), &shape, c);
    }

    /// The frame of a diff of `n` changed lines, highlighted as Rust.
    fn diff_frame(n: usize) -> Frame {
        use crate::diff::{build_model, DiffDefaults, DiffRequest};
        let before: String = (0..n).map(|i| format!("let v{i} = old({i});\n")).collect();
        let after: String = (0..n)
            .map(|i| format!("let v{i} = new({i}, x);\n"))
            .collect();
        let body = serde_json::json!({"before": before, "after": after, "path": "a.rs"});
        let request = DiffRequest::from_json(&body, &DiffDefaults::default()).unwrap();
        let model = build_model(&request).unwrap().model().unwrap().clone();
        super::super::frame(&request, &model, f32::MAX).unwrap()
    }

    #[test]
    fn one_thread_and_two_write_the_same_png() {
        for (lines, scale) in [(1, 1.0), (40, 2.0), (150, 1.06)] {
            let frame = diff_frame(lines);
            let one = render_png_with(&frame, scale, false).unwrap();
            let two = render_png_with(&frame, scale, true).unwrap();
            assert!(one == two, "{lines} lines at {scale}");
            let one = encode(&frame, scale, &mut Rgb8::default(), false).unwrap();
            let two = encode(&frame, scale, &mut Rgb8::default(), true).unwrap();
            assert!(one.is_some() && one == two, "RGB: {lines} lines at {scale}");
        }
        // Taller than one band: the two-thread path really ran.
        assert!(device_size(&diff_frame(40), 2.0).1 > BAND_ROWS);
    }

    #[test]
    fn boxes_cover_whole_pixels_and_share_their_edge_pixels() {
        // Edges snap to whole CSS px before scaling: 2.25..6.0 CSS px is 2..6, device 4..12
        // at scale 2, every column whole.
        let mut s2 = band(20, 10, 0, [255; 3]);
        let frac = Rect {
            x: 2.25,
            y: 1.0,
            w: 3.75,
            h: 2.0,
        };
        fill(&mut s2, frac, Rgba::hex(0x102030), 0.0, 2.0);
        assert_eq!(px(&s2, 3, 2), [255; 3]);
        assert_eq!(px(&s2, 4, 2), [0x10, 0x20, 0x30]);
        assert_eq!(px(&s2, 11, 2), [0x10, 0x20, 0x30]);
        assert_eq!(px(&s2, 12, 2), [255; 3]);
        // At scale 1.125 a whole CSS px edge can still fall inside a device pixel:
        // 4..10 CSS px → device 4.5..11.25: column 4 half covered, 5..10 whole, 11 a
        // quarter; 8..16 CSS px → device rows 9..18, the band starting at device row 9.
        let mut p = band(20, 10, 9, [255; 3]);
        let r = Rect {
            x: 4.0,
            y: 8.0,
            w: 6.0,
            h: 8.0,
        };
        fill(&mut p, r, Rgba::hex(0x102030), 0.0, 1.125);
        assert_eq!(px(&p, 3, 0), [255; 3]);
        let part = |a| [mix(0x10, 255, a), mix(0x20, 255, a), mix(0x30, 255, a)];
        assert_eq!(px(&p, 4, 0), part(128));
        assert_eq!(px(&p, 5, 0), [0x10, 0x20, 0x30]);
        assert_eq!(px(&p, 10, 3), [0x10, 0x20, 0x30]);
        assert_eq!(px(&p, 11, 3), part(64));
        assert_eq!(px(&p, 12, 3), [255; 3]);
        assert_eq!(px(&p, 5, 9), [255; 3], "device rows 9..18 only");
        // Half-transparent black over white and over the box: integer source-over.
        let all = Rect {
            x: 0.0,
            y: 0.0,
            w: 10.0,
            h: 5.0,
        };
        let mut q = band(20, 10, 0, [255; 3]);
        fill(&mut q, frac, Rgba::hex(0x102030), 0.0, 2.0);
        fill(&mut q, all, Rgba::rgba(0, 0, 0, 0.5), 0.0, 2.0);
        assert_eq!(px(&q, 0, 9), [127; 3]);
        assert_eq!(px(&q, 5, 2), [8, 16, 24]);
    }

    /// Fills `rect` with `radius` both ways (this painter and tiny-skia's anti-aliased
    /// path fill, white on black) and returns the largest channel difference.
    fn against_skia(rect: Rect, radius: f32, s: f32) -> u8 {
        let (w, h) = (40usize, 30usize);
        let mut mine = band(w, h, 0, [0; 3]);
        fill(&mut mine, rect, Rgba::hex(0xffffff), radius, s);
        let mut sk = Pixmap::new(w as u32, h as u32).unwrap();
        sk.fill(tiny_skia::Color::BLACK);
        let k = radius * 0.552_284_8;
        // The painter snaps edges to whole CSS px first (as Chromium does); the path gets
        // the snapped box, so what is compared is the coverage at fractional device px.
        let (x0, y0, x1, y1) = rect.snapped_edges();
        let mut pb = PathBuilder::new();
        pb.move_to(x0 + radius, y0);
        pb.line_to(x1 - radius, y0);
        pb.cubic_to(x1 - radius + k, y0, x1, y0 + radius - k, x1, y0 + radius);
        pb.line_to(x1, y1 - radius);
        pb.cubic_to(x1, y1 - radius + k, x1 - radius + k, y1, x1 - radius, y1);
        pb.line_to(x0 + radius, y1);
        pb.cubic_to(x0 + radius - k, y1, x0, y1 - radius + k, x0, y1 - radius);
        pb.line_to(x0, y0 + radius);
        pb.cubic_to(x0, y0 + radius - k, x0 + radius - k, y0, x0 + radius, y0);
        pb.close();
        let path = pb.finish().unwrap();
        sk.fill_path(
            &path,
            &skia_paint(Rgba::hex(0xffffff)),
            tiny_skia::FillRule::Winding,
            Transform::from_scale(s, s),
            None,
        );
        let mut worst = 0;
        for y in 0..h {
            for x in 0..w {
                let a = px(&mine, x, y)[0];
                let b = sk.data()[(y * w + x) * 4];
                worst = worst.max(a.abs_diff(b));
            }
        }
        worst
    }

    #[test]
    fn boxes_and_rounded_boxes_agree_with_a_path_rasterizer() {
        let odd = Rect {
            x: 1.3,
            y: 0.7,
            w: 12.1,
            h: 9.45,
        };
        // Square: tiny-skia samples an edge in quarter pixels vertically, this fill
        // measures it exactly.
        assert!(against_skia(odd, 0.0, 2.0) <= 32);
        // Rounded (word marks 3 px, boxes 8 px): a corner pixel by its centre's distance
        // to the circle, against the rasterizer's sampled cubic curves.
        for (radius, s) in [(3.0, 2.0), (4.0, 1.06), (4.5, 2.37)] {
            let worst = against_skia(odd, radius, s);
            assert!(worst <= 80, "radius {radius} at {s}: {worst}");
        }
    }

    #[test]
    fn a_border_is_one_px_inside_its_box_and_its_middle_is_untouched() {
        let mut b = band(40, 30, 0, [0; 3]);
        let rect = Rect {
            x: 2.0,
            y: 2.0,
            w: 16.0,
            h: 12.0,
        };
        stroke(
            &mut b,
            &mut Rgb8::default(),
            rect,
            4.0,
            Rgba::hex(0xffffff),
            2.0,
        );
        // Device box 4..36 × 4..28, border 2 device px wide.
        assert_eq!(px(&b, 20, 4), [255; 3], "top border");
        assert_eq!(px(&b, 20, 5), [255; 3]);
        assert_eq!(px(&b, 20, 6), [0; 3], "inside");
        assert_eq!(px(&b, 4, 16), [255; 3], "left border");
        assert_eq!(px(&b, 6, 16), [0; 3]);
        assert_eq!(px(&b, 35, 16), [255; 3], "right border");
        assert_eq!(px(&b, 20, 3), [0; 3], "outside");
        // The corner is cut: the box's corner pixel is outside the rounded border.
        assert_eq!(px(&b, 4, 4), [0; 3]);
    }

    #[test]
    fn light_text_is_blended_heavier_than_dark_text_and_the_ends_stay() {
        let light = coverage_lut([0xe6, 0xed, 0xf3]);
        let dark = coverage_lut([0x1f, 0x23, 0x28]);
        for lut in [&light, &dark] {
            assert_eq!((lut[0], lut[255]), (0, 255));
            assert!(lut.windows(2).all(|w| w[0] <= w[1]), "monotonic");
        }
        assert!(light[128] > 128, "{}", light[128]);
        assert!(light[128] > dark[128], "{} {}", light[128], dark[128]);
    }

    #[test]
    fn glyph_masks_blend_by_coverage_and_clip_to_the_band() {
        let mut p = band(4, 2, 0, [0; 3]);
        let bitmap = Bitmap {
            left: 0,
            top: 0,
            width: 3,
            height: 3,
            coverage: vec![255, 128, 0, 0, 0, 0, 64, 64, 64],
        };
        let mut t = Rgb8::default();
        let linear = |alpha: u8| Ink {
            rgb: [255; 3],
            alpha,
            opacity: std::array::from_fn(|i| div255(i as u32 * u32::from(alpha)) as u8),
        };
        // One row above the band, one column left of it: only the mask's lower right
        // part lands.
        let full = t.ink(&linear(255));
        blend_mask(&mut p, &mut t, -1, -1, &bitmap, full);
        assert_eq!(px(&p, 0, 0), [0; 3]);
        assert_eq!(px(&p, 0, 1), [64; 3]);
        assert_eq!(px(&p, 1, 1), [64; 3]);
        let half = t.ink(&linear(128));
        blend_mask(&mut p, &mut t, 2, 0, &bitmap, half);
        assert_eq!(px(&p, 2, 0), [128; 3]);
        assert_eq!(px(&p, 3, 0), [64; 3]);
    }
}
