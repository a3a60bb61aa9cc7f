//! EMF playback: the record layouts of MS-EMF, played on the shared [`Canvas`].
//!
//! EMF+ records travel inside EMR_COMMENT records and are skipped: dual EMF+ files (what
//! Office writes) carry the same drawing as plain EMF records, which are played. An
//! EMF+-only file plays as empty and keeps its placeholder.

use super::bitmap::{self, Bitmap};
use super::draw::{ArcKind, Canvas};
use super::record::{ansi_units, Rec};
use super::state::{Brush, Color, Font, MapMode, Object, Pen, Xform};
use super::{MetafileError, MetafileLimits, Svg};

/// Whether `bytes` start with an EMR_HEADER carrying the " EMF" signature.
pub fn is_emf(bytes: &[u8]) -> bool {
    crate::office::bytes::le32(bytes, 0) == Some(1) && bytes.get(40..44) == Some(b" EMF")
}

/// Plays an EMF into SVG.
pub fn convert(bytes: &[u8], limits: &MetafileLimits) -> Result<Svg, MetafileError> {
    let head = Rec(bytes);
    let header_size = head.u32(4).ok_or(MetafileError::Damaged("header"))? as usize;
    if header_size < 88 || header_size > bytes.len() {
        return Err(MetafileError::Damaged("header"));
    }
    let bounds = head.rect(8).ok_or(MetafileError::Damaged("header"))?;
    let frame = head.rect(24).ok_or(MetafileError::Damaged("header"))?;
    let device = (head.i32(72).unwrap_or(0.0), head.i32(76).unwrap_or(0.0));
    let mm = (head.i32(80).unwrap_or(0.0), head.i32(84).unwrap_or(0.0));
    let ppmm = |d: f64, m: f64| {
        if d > 0.0 && m > 0.0 {
            d / m
        } else {
            96.0 / 25.4
        }
    };
    let px_per_mm = (ppmm(device.0, mm.0), ppmm(device.1, mm.1));

    // The picture's frame (hundredths of a millimetre) in device pixels; the bounds
    // (device pixels, inclusive) when the frame is empty.
    let (fl, ft, fr, fb) = frame;
    let view = if fr > fl && fb > ft {
        (
            fl * px_per_mm.0 / 100.0,
            ft * px_per_mm.1 / 100.0,
            (fr - fl) * px_per_mm.0 / 100.0,
            (fb - ft) * px_per_mm.1 / 100.0,
        )
    } else {
        let (l, t, r, b) = bounds;
        (l, t, (r - l + 1.0).max(1.0), (b - t + 1.0).max(1.0))
    };
    let size = if fr > fl && fb > ft {
        (
            (fr - fl) / 100.0 * 96.0 / 25.4,
            (fb - ft) / 100.0 * 96.0 / 25.4,
        )
    } else {
        (
            view.2 / px_per_mm.0 * 96.0 / 25.4,
            view.3 / px_per_mm.1 * 96.0 / 25.4,
        )
    };
    if !(view.2.is_finite() && view.3.is_finite() && view.2 > 0.0 && view.3 > 0.0) {
        return Err(MetafileError::Damaged("header"));
    }

    let mut canvas = Canvas::new(limits, px_per_mm);
    let mut at = header_size;
    while let (Some(kind), Some(len)) = (head.u32(at), head.u32(at + 4)) {
        let len = len as usize;
        if len < 8 || !len.is_multiple_of(4) || at + len > bytes.len() {
            // A cut or lying record: stop here and show what was drawn, if anything.
            if canvas.out.drawn == 0 {
                return Err(MetafileError::Damaged("record size"));
            }
            break;
        }
        let r = Rec(&bytes[at..at + len]);
        if kind == 14 {
            canvas.record(0)?;
            break;
        }
        play(&mut canvas, kind, r)?;
        at += len;
    }
    super::finish(canvas, view, size)
}

/// A stock object (`GetStockObject` index with the high bit set).
fn stock(index: u32) -> Object {
    let gray = |v| Object::Brush(Brush::Solid(Color(v, v, v)));
    match index & 0x7FFF_FFFF {
        0 | 18 => gray(255),
        1 => gray(0xC0),
        2 => gray(0x80),
        3 => gray(0x40),
        4 => gray(0),
        5 => Object::Brush(Brush::Null),
        6 => Object::Pen(Pen::new(0, 0.0, Color::WHITE)),
        7 | 19 => Object::Pen(Pen::black()),
        8 => Object::Pen(Pen::new(5, 0.0, Color::BLACK)),
        10..=17 => Object::Font(Font::default()),
        _ => Object::Other,
    }
}

fn play(c: &mut Canvas, kind: u32, r: Rec<'_>) -> Result<(), MetafileError> {
    c.record(0)?;
    let color = |at| r.u32(at).map(Color::from_colorref);
    match kind {
        // Poly records: bounds, count, points (32-bit, or 16-bit for 85…89).
        2..=6 | 85..=89 => {
            let wide = kind <= 6;
            let Some(n) = r.u32(24) else { return Ok(()) };
            let Some(pts) = r.points(28, n as usize, wide) else {
                return Ok(());
            };
            c.spend(pts.len() as u64)?;
            match if wide { kind } else { kind - 83 } {
                2 => c.bezier(&pts, false)?,
                3 => c.poly(&pts, true)?,
                4 => c.poly(&pts, false)?,
                5 => c.bezier(&pts, true)?,
                _ => c.poly_to(&pts)?,
            }
        }
        // PolyPolyline, PolyPolygon (and their 16-bit forms).
        7 | 8 | 90 | 91 => {
            let wide = kind <= 8;
            let (Some(polys), Some(total)) = (r.u32(24), r.u32(28)) else {
                return Ok(());
            };
            let Some(counts) = r.bytes(32, (polys as usize).saturating_mul(4)) else {
                return Ok(());
            };
            let Some(pts) = r.points(32 + counts.len(), total as usize, wide) else {
                return Ok(());
            };
            c.spend(u64::from(polys) + pts.len() as u64)?;
            let mut rest = &pts[..];
            let mut shapes = Vec::new();
            for chunk in counts.chunks_exact(4) {
                let n = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) as usize;
                if n > rest.len() {
                    break;
                }
                shapes.push(rest[..n].to_vec());
                rest = &rest[n..];
            }
            c.poly_poly(&shapes, matches!(kind, 8 | 91))?;
        }
        9 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.dc.window_ext = (x, y);
            }
        }
        10 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.dc.window_org = (x, y);
            }
        }
        11 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.dc.viewport_ext = (x, y);
            }
        }
        12 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.dc.viewport_org = (x, y);
            }
        }
        15 => {
            if let (Some(x), Some(y), Some(col)) = (r.i32(8), r.i32(12), color(16)) {
                c.fill_rect(x, y, x + 1.0, y + 1.0, &col.hex())?;
            }
        }
        17 => {
            if let Some(m) = r.u32(8) {
                c.dc.map_mode = match m {
                    2..=6 => MapMode::Fixed(m),
                    7 => MapMode::Isotropic,
                    8 => MapMode::Anisotropic,
                    _ => MapMode::Text,
                };
            }
        }
        18 => c.dc.bk_opaque = r.u32(8) == Some(2),
        19 => c.dc.winding = r.u32(8) == Some(2),
        22 => c.dc.text_align = r.u32(8).unwrap_or(0),
        24 => c.dc.text_color = color(8).unwrap_or(Color::BLACK),
        25 => c.dc.bk_color = color(8).unwrap_or(Color::WHITE),
        27 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.move_to(x, y);
            }
        }
        29 | 30 => {
            if let Some((l, t, rr, b)) = r.rect(8) {
                if kind == 29 {
                    c.exclude_clip(l, t, rr, b)?;
                } else {
                    c.intersect_clip(l, t, rr, b)?;
                }
            }
        }
        31 | 32 => {
            if let (Some(xn), Some(xd), Some(yn), Some(yd)) =
                (r.i32(8), r.i32(12), r.i32(16), r.i32(20))
            {
                if xd != 0.0 && yd != 0.0 {
                    let ext = if kind == 31 {
                        &mut c.dc.viewport_ext
                    } else {
                        &mut c.dc.window_ext
                    };
                    *ext = (ext.0 * xn / xd, ext.1 * yn / yd);
                }
            }
        }
        33 => c.save()?,
        34 => c.restore(r.i32(8).map_or(-1, |v| v as i64)),
        35 | 36 => {
            let Some(x) = xform(r, 8) else { return Ok(()) };
            let mode = if kind == 35 {
                4
            } else {
                r.u32(32).unwrap_or(0)
            };
            let next = match mode {
                1 => Xform::IDENTITY,
                2 => x.then(&c.dc.world),
                3 => c.dc.world.then(&x),
                4 => x,
                _ => return Ok(()),
            };
            if next.is_usable() {
                c.dc.world = next;
            }
        }
        37 => {
            let Some(ih) = r.u32(8) else { return Ok(()) };
            if ih & 0x8000_0000 != 0 {
                c.select(stock(ih));
            } else {
                c.select_slot(ih as usize);
            }
        }
        38 => {
            if let (Some(ih), Some(style), Some(w), Some(col)) =
                (r.u32(8), r.u32(12), r.i32(16), color(24))
            {
                c.store(ih as usize, Object::Pen(Pen::new(style, w, col)));
            }
        }
        39 => {
            let (Some(ih), Some(style), Some(col)) = (r.u32(8), r.u32(12), color(16)) else {
                return Ok(());
            };
            let brush = match style {
                1 => Brush::Null,
                2 => c.hatch_brush(col, r.u32(20).unwrap_or(0))?,
                _ => Brush::Solid(col),
            };
            c.store(ih as usize, Object::Brush(brush));
        }
        40 => {
            if let Some(ih) = r.u32(8) {
                c.delete(ih as usize);
            }
        }
        41 => {
            let (Some(x), Some(y), Some(radius), Some(start), Some(sweep)) =
                (r.i32(8), r.i32(12), r.u32(16), r.f32(20), r.f32(24))
            else {
                return Ok(());
            };
            let radius = f64::from(radius);
            // A counter-clockwise sweep in degrees, flattened into short lines.
            let steps = ((sweep.abs() / 10.0).ceil() as usize).clamp(1, 72);
            let pts: Vec<(f64, f64)> = (0..=steps)
                .map(|i| {
                    let a = (start + sweep * i as f64 / steps as f64).to_radians();
                    (x + radius * a.cos(), y - radius * a.sin())
                })
                .collect();
            c.poly_to(&pts)?;
        }
        42 | 43 => {
            if let Some((l, t, rr, b)) = r.rect(8) {
                if kind == 42 {
                    c.ellipse(l, t, rr, b)?;
                } else {
                    c.rectangle(l, t, rr, b)?;
                }
            }
        }
        44 => {
            if let (Some((l, t, rr, b)), Some(w), Some(h)) = (r.rect(8), r.i32(24), r.i32(28)) {
                c.round_rect(l, t, rr, b, w, h)?;
            }
        }
        45 | 46 | 47 | 55 => {
            let (Some(rect), Some(sx), Some(sy), Some(ex), Some(ey)) =
                (r.rect(8), r.i32(24), r.i32(28), r.i32(32), r.i32(36))
            else {
                return Ok(());
            };
            let kind = match kind {
                45 => ArcKind::Arc,
                46 => ArcKind::Chord,
                47 => ArcKind::Pie,
                _ => ArcKind::ArcTo,
            };
            c.arc(kind, rect, (sx, sy), (ex, ey))?;
        }
        54 => {
            if let (Some(x), Some(y)) = (r.i32(8), r.i32(12)) {
                c.line_to(x, y)?;
            }
        }
        56 | 92 => poly_draw(c, r, kind == 56)?,
        57 => c.dc.clockwise = r.u32(8) == Some(2),
        59 => c.begin_path(),
        60 => c.end_path(),
        61 => c.close_figure(),
        62 => c.draw_path(true, false)?,
        63 => c.draw_path(true, true)?,
        64 => c.draw_path(false, true)?,
        67 => c.clip_to_path(r.u32(8).unwrap_or(5))?,
        68 => c.abort_path(),
        71 => {
            // FillRgn: bounds, cbRgnData, ihBrush, region.
            let Some(ih) = r.u32(28) else { return Ok(()) };
            let paint = match c.objects.get(ih as usize) {
                Some(Some(Object::Brush(Brush::Solid(col)))) => col.hex(),
                Some(Some(Object::Brush(Brush::Pattern(id)))) => format!("url(#{id})"),
                _ => return Ok(()),
            };
            let rects = region(c, r, 32)?;
            c.fill_device_rects(&rects, &paint)?;
        }
        74 => {
            let rects = region(c, r, 28)?;
            if let Some(paint) = c.brush_paint() {
                c.fill_device_rects(&rects, &paint)?;
            }
        }
        75 => {
            let (Some(cb), Some(mode)) = (r.u32(8), r.u32(12)) else {
                return Ok(());
            };
            let rects = if cb == 0 {
                Vec::new()
            } else {
                region(c, r, 16)?
            };
            c.clip_region(&rects, mode)?;
        }
        76 | 77 | 78 | 114 | 116 => blit(c, kind, r)?,
        80 => {
            let (Some(x), Some(y), Some(sx), Some(sy), Some(w), Some(h)) = (
                r.i32(24),
                r.i32(28),
                r.i32(32),
                r.i32(36),
                r.i32(40),
                r.i32(44),
            ) else {
                return Ok(());
            };
            if let Some(bmp) = dib(c, r, 48, (sx, sy, w, h), false)? {
                c.image(&bmp, (x, y, w, h))?;
            }
        }
        81 => {
            let (Some(x), Some(y), Some(sx), Some(sy), Some(sw), Some(sh)) = (
                r.i32(24),
                r.i32(28),
                r.i32(32),
                r.i32(36),
                r.i32(40),
                r.i32(44),
            ) else {
                return Ok(());
            };
            let (Some(rop), Some(w), Some(h)) = (r.u32(68), r.i32(72), r.i32(76)) else {
                return Ok(());
            };
            if skipped_rop(rop) {
                return Ok(());
            }
            if let Some(bmp) = dib(c, r, 48, (sx, sy, sw, sh), false)? {
                c.image(&bmp, (x, y, w, h))?;
            }
        }
        82 => {
            let Some(ih) = r.u32(8) else { return Ok(()) };
            c.store(ih as usize, Object::Font(log_font(r, 12)));
        }
        83 | 84 => ext_text_out(c, r, kind == 84)?,
        93 | 94 => {
            // CreateMonoBrush, CreateDIBPatternBrushPt: ihBrush, usage, bitmap.
            let Some(ih) = r.u32(8) else { return Ok(()) };
            let brush = match dib(c, r, 16, (0.0, 0.0, 0.0, 0.0), false)? {
                Some(bmp) => c.bitmap_brush(&bmp)?,
                None => Brush::Solid(Color(0x80, 0x80, 0x80)),
            };
            c.store(ih as usize, Object::Brush(brush));
        }
        95 => {
            let (Some(ih), Some(style), Some(w), Some(brush_style), Some(col)) =
                (r.u32(8), r.u32(28), r.u32(32), r.u32(36), color(40))
            else {
                return Ok(());
            };
            let geometric = style & 0x000F_0000 == 0x0001_0000;
            let style = if brush_style == 1 { 5 } else { style };
            let width = if geometric { f64::from(w) } else { 0.0 };
            c.store(ih as usize, Object::Pen(Pen::new(style, width, col)));
        }
        108 => small_text_out(c, r)?,
        118 => gradient_fill(c, r)?,
        _ => {}
    }
    Ok(())
}

fn xform(r: Rec<'_>, at: usize) -> Option<Xform> {
    Some(Xform {
        a: r.f32(at)?,
        b: r.f32(at + 4)?,
        c: r.f32(at + 8)?,
        d: r.f32(at + 12)?,
        e: r.f32(at + 16)?,
        f: r.f32(at + 20)?,
    })
}

/// A LOGFONTW at `at`.
fn log_font(r: Rec<'_>, at: usize) -> Font {
    let byte = |o: usize| r.0.get(at + o).copied().unwrap_or(0);
    Font {
        face: r.utf16(at + 28, 32),
        height: r.i32(at).unwrap_or(0.0),
        weight: r.u32(at + 16).unwrap_or(400),
        italic: byte(20) != 0,
        underline: byte(21) != 0,
        strike: byte(22) != 0,
        escapement: r.i32(at + 8).unwrap_or(0.0),
        charset: byte(23),
    }
}

/// Raster operations that leave the destination alone or only invert it.
fn skipped_rop(rop: u32) -> bool {
    matches!(rop, 0x00AA_0029 | 0x0055_0009)
}

/// The bitmap whose offBmi, cbBmi, offBits, cbBits fields start at `at`.
fn dib(
    c: &mut Canvas,
    r: Rec<'_>,
    at: usize,
    src: (f64, f64, f64, f64),
    alpha: bool,
) -> Result<Option<Bitmap>, MetafileError> {
    let field = |o: usize| r.u32(at + o).map(|v| v as usize);
    let (Some(off_bmi), Some(cb_bmi), Some(off_bits), Some(cb_bits)) =
        (field(0), field(4), field(8), field(12))
    else {
        return Ok(None);
    };
    let (Some(bmi), Some(bits)) = (r.bytes(off_bmi, cb_bmi), r.bytes(off_bits, cb_bits)) else {
        return Ok(None);
    };
    let src = (src.0 as i64, src.1 as i64, src.2 as i64, src.3 as i64);
    let src = (src.2 > 0 && src.3 > 0).then_some(src);
    let limit = c.limits.max_bitmap_pixels;
    let bmp = bitmap::decode(bmi, bits, src, alpha, &mut c.pixels_left, limit)?;
    if let Some(b) = &bmp {
        c.spend(u64::from(b.width) * u64::from(b.height) / 64)?;
    }
    Ok(bmp)
}

/// BitBlt, StretchBlt, MaskBlt, AlphaBlend, TransparentBlt: a bitmap, or a brush fill
/// when the record carries none.
fn blit(c: &mut Canvas, kind: u32, r: Rec<'_>) -> Result<(), MetafileError> {
    let (Some(x), Some(y), Some(w), Some(h)) = (r.i32(24), r.i32(28), r.i32(32), r.i32(36)) else {
        return Ok(());
    };
    let rop = if matches!(kind, 114 | 116) {
        0x00CC_0020
    } else {
        r.u32(40).unwrap_or(0)
    };
    let (Some(sx), Some(sy)) = (r.i32(44), r.i32(48)) else {
        return Ok(());
    };
    let (sw, sh) = match kind {
        77 | 114 | 116 => (r.i32(100).unwrap_or(w), r.i32(104).unwrap_or(h)),
        _ => (w, h),
    };
    if skipped_rop(rop) {
        return Ok(());
    }
    if r.u32(88).unwrap_or(0) == 0 {
        // No source bitmap: the raster operation paints with the brush or a constant.
        let paint = match rop {
            0x0000_0042 => Some("#000000".to_owned()),
            0x00FF_0062 => Some("#ffffff".to_owned()),
            0x00F0_0021 | 0x005A_0049 => c.brush_paint(),
            _ => None,
        };
        if let Some(p) = paint {
            c.fill_rect(x, y, x + w, y + h, &p)?;
        }
        return Ok(());
    }
    let alpha = kind == 114 && r.0.get(43).copied().unwrap_or(0) & 1 != 0;
    if let Some(bmp) = dib(c, r, 84, (sx, sy, sw, sh), alpha)? {
        c.image(&bmp, (x, y, w, h))?;
    }
    Ok(())
}

/// The rectangles of a RGNDATA at `at`, in device units.
fn region(
    c: &mut Canvas,
    r: Rec<'_>,
    at: usize,
) -> Result<Vec<(f64, f64, f64, f64)>, MetafileError> {
    let Some(n) = r.u32(at + 8) else {
        return Ok(Vec::new());
    };
    c.spend(u64::from(n))?;
    let mut rects = Vec::new();
    for i in 0..n as usize {
        match r.rect(at + 32 + 16 * i) {
            Some(rect) => rects.push(rect),
            None => break,
        }
    }
    Ok(rects)
}

/// PolyDraw: points with a type byte each (move, line, Bézier).
fn poly_draw(c: &mut Canvas, r: Rec<'_>, wide: bool) -> Result<(), MetafileError> {
    let Some(n) = r.u32(24) else { return Ok(()) };
    c.spend(u64::from(n))?;
    let n = n as usize;
    let Some(pts) = r.points(28, n, wide) else {
        return Ok(());
    };
    let Some(types) = r.bytes(28 + n * if wide { 8 } else { 4 }, n) else {
        return Ok(());
    };
    let mut i = 0;
    while i < n {
        match types[i] & !1 {
            6 => c.move_to(pts[i].0, pts[i].1),
            4 if i + 2 < n => {
                c.bezier(&pts[i..i + 3], true)?;
                i += 2;
            }
            _ => c.line_to(pts[i].0, pts[i].1)?,
        }
        i += 1;
    }
    Ok(())
}

/// EMR_EXTTEXTOUTW and EMR_EXTTEXTOUTA.
fn ext_text_out(c: &mut Canvas, r: Rec<'_>, wide: bool) -> Result<(), MetafileError> {
    let (Some(x), Some(y), Some(n), Some(off), Some(options)) =
        (r.i32(36), r.i32(40), r.u32(44), r.u32(48), r.u32(52))
    else {
        return Ok(());
    };
    let n = n as usize;
    c.spend(n as u64)?;
    let units = if wide {
        let Some(raw) = r.bytes(off as usize, n.saturating_mul(2)) else {
            return Ok(());
        };
        raw.chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect()
    } else {
        let Some(raw) = r.bytes(off as usize, n) else {
            return Ok(());
        };
        ansi_units(raw)
    };
    let per = if options & 0x2000 != 0 { 2 } else { 1 };
    let dx: Option<Vec<f64>> = r.u32(72).filter(|&o| o != 0).and_then(|o| {
        let count = n.checked_mul(per)?;
        r.bytes(o as usize, count.checked_mul(4)?)?;
        (0..count).map(|i| r.i32(o as usize + 4 * i)).collect()
    });
    // ANSI text decodes to as many units as bytes (Windows-1252 is single-byte).
    let dx = dx.filter(|d| d.len() >= units.len() * per);
    let rect = r.rect(56).filter(|&(l, t, rr, b)| rr > l && b > t);
    c.text((x, y), &units, dx.as_deref(), options, rect)
}

/// EMR_SMALLTEXTOUT.
fn small_text_out(c: &mut Canvas, r: Rec<'_>) -> Result<(), MetafileError> {
    let (Some(x), Some(y), Some(n), Some(options)) = (r.i32(8), r.i32(12), r.u32(16), r.u32(20))
    else {
        return Ok(());
    };
    let n = n as usize;
    c.spend(n as u64)?;
    let (rect, at) = if options & 0x100 == 0 {
        (r.rect(36), 52)
    } else {
        (None, 36)
    };
    let units: Vec<u16> = if options & 0x200 != 0 {
        match r.bytes(at, n) {
            Some(b) => ansi_units(b),
            None => return Ok(()),
        }
    } else {
        match r.bytes(at, n.saturating_mul(2)) {
            Some(b) => b
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
            None => return Ok(()),
        }
    };
    c.text((x, y), &units, None, options, rect)
}

/// EMR_GRADIENTFILL: rectangles get a linear gradient, triangles their mean colour.
fn gradient_fill(c: &mut Canvas, r: Rec<'_>) -> Result<(), MetafileError> {
    let (Some(nv), Some(nt), Some(mode)) = (r.u32(24), r.u32(28), r.u32(32)) else {
        return Ok(());
    };
    c.spend(u64::from(nv) + u64::from(nt))?;
    let vertex = |i: u32| -> Option<((f64, f64), Color)> {
        if i >= nv {
            return None;
        }
        let at = 36 + 16 * i as usize;
        let ch = |o| r.u16(at + o).map(|v| (v >> 8) as u8);
        Some((
            (r.i32(at)?, r.i32(at + 4)?),
            Color(ch(8)?, ch(10)?, ch(12)?),
        ))
    };
    let objects = 36 + 16 * nv as usize;
    for i in 0..nt as usize {
        if mode == 2 {
            let at = objects + 12 * i;
            let (Some(a), Some(b), Some(d)) = (r.u32(at), r.u32(at + 4), r.u32(at + 8)) else {
                break;
            };
            let (Some(a), Some(b), Some(d)) = (vertex(a), vertex(b), vertex(d)) else {
                continue;
            };
            let mean = |f: fn(Color) -> u8| {
                ((u32::from(f(a.1)) + u32::from(f(b.1)) + u32::from(f(d.1))) / 3) as u8
            };
            let col = Color(mean(|c| c.0), mean(|c| c.1), mean(|c| c.2));
            let saved = (c.dc.brush.clone(), c.dc.pen.clone());
            c.dc.brush = Brush::Solid(col);
            c.dc.pen = Pen::new(5, 0.0, Color::BLACK);
            c.poly(&[a.0, b.0, d.0], true)?;
            (c.dc.brush, c.dc.pen) = saved;
        } else {
            let at = objects + 8 * i;
            let (Some(ul), Some(lr)) = (r.u32(at), r.u32(at + 4)) else {
                break;
            };
            let (Some(ul), Some(lr)) = (vertex(ul), vertex(lr)) else {
                continue;
            };
            let id = c.out.id("g");
            let (x2, y2) = if mode == 0 { (1, 0) } else { (0, 1) };
            c.out.push(&format!(
                "<defs><linearGradient id=\"{id}\" x2=\"{x2}\" y2=\"{y2}\"><stop offset=\"0\" stop-color=\"{}\"/><stop offset=\"1\" stop-color=\"{}\"/></linearGradient></defs>",
                ul.1.hex(),
                lr.1.hex()
            ))?;
            c.fill_rect(ul.0 .0, ul.0 .1, lr.0 .0, lr.0 .1, &format!("url(#{id})"))?;
        }
    }
    Ok(())
}
