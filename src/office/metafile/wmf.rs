//! WMF playback: the classic record set of MS-WMF (16-bit coordinates, parameters
//! mostly stored last-first), played on the shared [`Canvas`] in logical units.
//!
//! A WMF has no device: the picture is its window (SetWindowOrg/SetWindowExt), or the
//! placeable header's bounding box when it sets none.

use super::bitmap;
use super::draw::{ArcKind, Canvas};
use super::record::{ansi_units, Rec};
use super::state::{Brush, Color, Font, Object, Pen};
use super::{MetafileError, MetafileLimits, Svg};
use crate::office::bytes::{le16, le32};

const PLACEABLE_KEY: u32 = 0x9AC6_CDD7;

/// Whether `bytes` start with a placeable header or a META_HEADER.
pub fn is_wmf(bytes: &[u8]) -> bool {
    le32(bytes, 0) == Some(PLACEABLE_KEY)
        || (matches!(le16(bytes, 0), Some(1 | 2)) && le16(bytes, 2) == Some(9))
}

/// Plays a WMF into SVG.
pub fn convert(bytes: &[u8], limits: &MetafileLimits) -> Result<Svg, MetafileError> {
    let head = Rec(bytes);
    let mut at = 0;
    let mut placeable = None;
    if head.u32(0) == Some(PLACEABLE_KEY) {
        let (Some(l), Some(t), Some(r), Some(b), Some(inch)) = (
            head.i16(6),
            head.i16(8),
            head.i16(10),
            head.i16(12),
            head.u16(14),
        ) else {
            return Err(MetafileError::Damaged("header"));
        };
        placeable = Some((
            (l.min(r), t.min(b), (r - l).abs(), (b - t).abs()),
            f64::from(inch),
        ));
        at = 22;
    }
    if head.u16(at + 2) != Some(9) || head.u32(at + 6).is_none() {
        return Err(MetafileError::Damaged("header"));
    }
    at += 18;

    let mut canvas = Canvas::new(limits, (1.0, 1.0));
    canvas.logical_device = true;
    let mut window: Option<((f64, f64), (f64, f64))> = None;
    while let (Some(words), Some(function)) = (head.u32(at), head.u16(at + 4)) {
        let len = (words as usize).saturating_mul(2);
        if len < 6 || at + len > bytes.len() {
            // A cut or lying record: stop here and show what was drawn, if anything.
            if canvas.out.drawn == 0 {
                return Err(MetafileError::Damaged("record size"));
            }
            break;
        }
        if function == 0 {
            canvas.record(0)?;
            break;
        }
        play(&mut canvas, function, Rec(&bytes[at..at + len]))?;
        // The picture is the window the drawing was made in: the first one set.
        if window.is_none() && matches!(function, 0x020C) {
            window = Some((canvas.dc.window_org, canvas.dc.window_ext));
        }
        at += len;
    }
    let (view, size) = match (window, placeable) {
        (Some(((ox, oy), (ex, ey))), p) => {
            let _ = (ox, oy);
            let view = (0.0, 0.0, ex.abs(), ey.abs());
            let size = match p {
                Some((b, inch)) if inch > 0.0 => (b.2 / inch * 96.0, b.3 / inch * 96.0),
                _ => (view.2, view.3),
            };
            (view, size)
        }
        (None, Some((b, inch))) => {
            let inch = if inch > 0.0 { inch } else { 1440.0 };
            (b, (b.2 / inch * 96.0, b.3 / inch * 96.0))
        }
        // Neither: the box around what was drawn.
        (None, None) => match canvas.extent.view() {
            Some(v) => (v, (v.2, v.3)),
            None => return Err(MetafileError::Empty),
        },
    };
    if !(view.2 > 0.0 && view.3 > 0.0) {
        return Err(MetafileError::Damaged("empty window"));
    }
    // Keep the intrinsic size sensible when the header's units are unknown.
    let scale = if size.0.max(size.1) > 4000.0 {
        4000.0 / size.0.max(size.1)
    } else {
        1.0
    };
    super::finish(canvas, view, (size.0 * scale, size.1 * scale))
}

/// Puts a new object in the lowest free slot, as WMF numbers them.
fn create(c: &mut Canvas, object: Object) {
    let slot = c
        .objects
        .iter()
        .position(Option::is_none)
        .unwrap_or(c.objects.len());
    c.store(slot, object);
}

fn play(c: &mut Canvas, function: u16, r: Rec<'_>) -> Result<(), MetafileError> {
    c.record(0)?;
    // Parameter `i` (16-bit words after the 6-byte record head).
    let w = |i: usize| r.i16(6 + 2 * i);
    let u = |i: usize| r.u16(6 + 2 * i);
    let color = |i: usize| r.u32(6 + 2 * i).map(Color::from_colorref);
    // A rectangle stored bottom, right, top, left from parameter `i`.
    let rect = |i: usize| Some((w(i + 3)?, w(i + 2)?, w(i + 1)?, w(i)?));
    match function {
        0x0201 => c.dc.bk_color = color(0).unwrap_or(Color::WHITE),
        0x0102 => c.dc.bk_opaque = u(0) == Some(2),
        0x0106 => c.dc.winding = u(0) == Some(2),
        0x0209 => c.dc.text_color = color(0).unwrap_or(Color::BLACK),
        0x012E => c.dc.text_align = u32::from(u(0).unwrap_or(0)),
        0x020B => {
            if let (Some(y), Some(x)) = (w(0), w(1)) {
                c.dc.window_org = (x, y);
            }
        }
        0x020C => {
            if let (Some(y), Some(x)) = (w(0), w(1)) {
                c.dc.window_ext = (x, y);
            }
        }
        0x020F => {
            if let (Some(y), Some(x)) = (w(0), w(1)) {
                c.dc.window_org.0 += x;
                c.dc.window_org.1 += y;
            }
        }
        0x0410 => {
            if let (Some(yd), Some(yn), Some(xd), Some(xn)) = (w(0), w(1), w(2), w(3)) {
                if xd != 0.0 && yd != 0.0 {
                    c.dc.window_ext = (c.dc.window_ext.0 * xn / xd, c.dc.window_ext.1 * yn / yd);
                }
            }
        }
        0x0214 => {
            if let (Some(y), Some(x)) = (w(0), w(1)) {
                c.move_to(x, y);
            }
        }
        0x0213 => {
            if let (Some(y), Some(x)) = (w(0), w(1)) {
                c.line_to(x, y)?;
            }
        }
        0x041B | 0x0418 => {
            if let Some((l, t, rr, b)) = rect(0) {
                if function == 0x041B {
                    c.rectangle(l, t, rr, b)?;
                } else {
                    c.ellipse(l, t, rr, b)?;
                }
            }
        }
        0x061C => {
            if let (Some(h), Some(wd), Some((l, t, rr, b))) = (w(0), w(1), rect(2)) {
                c.round_rect(l, t, rr, b, wd, h)?;
            }
        }
        0x0817 | 0x081A | 0x0830 => {
            let (Some(ey), Some(ex), Some(sy), Some(sx), Some(rc)) =
                (w(0), w(1), w(2), w(3), rect(4))
            else {
                return Ok(());
            };
            let kind = match function {
                0x0817 => ArcKind::Arc,
                0x081A => ArcKind::Pie,
                _ => ArcKind::Chord,
            };
            c.arc(kind, rc, (sx, sy), (ex, ey))?;
        }
        0x0324 | 0x0325 => {
            let Some(n) = u(0) else { return Ok(()) };
            c.spend(u64::from(n))?;
            if let Some(pts) = r.points(8, usize::from(n), false) {
                c.poly(&pts, function == 0x0324)?;
            }
        }
        0x0538 => {
            let Some(n) = u(0) else { return Ok(()) };
            let counts: Option<Vec<usize>> = (0..usize::from(n))
                .map(|i| u(1 + i).map(usize::from))
                .collect();
            let Some(counts) = counts else { return Ok(()) };
            let total: usize = counts.iter().sum();
            c.spend(total as u64 + u64::from(n))?;
            let Some(pts) = r.points(8 + 2 * usize::from(n), total, false) else {
                return Ok(());
            };
            let mut rest = &pts[..];
            let polys: Vec<Vec<(f64, f64)>> = counts
                .iter()
                .map(|&k| {
                    let (head, tail) = rest.split_at(k);
                    rest = tail;
                    head.to_vec()
                })
                .collect();
            c.poly_poly(&polys, true)?;
        }
        0x0521 => {
            let Some(n) = u(0) else { return Ok(()) };
            let n = usize::from(n);
            let padded = n + n % 2;
            let (Some(text), Some(y), Some(x)) =
                (r.bytes(8, n), r.i16(8 + padded), r.i16(10 + padded))
            else {
                return Ok(());
            };
            c.text((x, y), &ansi_units(text), None, 0, None)?;
        }
        0x0A32 => ext_text_out(c, r)?,
        0x001E => c.save()?,
        0x0127 => c.restore(w(0).map_or(-1, |v| v as i64)),
        0x0416 | 0x0415 => {
            if let Some((l, t, rr, b)) = rect(0) {
                if function == 0x0416 {
                    c.intersect_clip(l, t, rr, b)?;
                } else {
                    c.exclude_clip(l, t, rr, b)?;
                }
            }
        }
        0x012D => {
            if let Some(i) = u(0) {
                c.select_slot(usize::from(i));
            }
        }
        0x01F0 => {
            if let Some(i) = u(0) {
                c.delete(usize::from(i));
            }
        }
        0x02FA => {
            if let (Some(style), Some(width), Some(col)) = (u(0), w(1), color(3)) {
                create(c, Object::Pen(Pen::new(u32::from(style), width, col)));
            }
        }
        0x02FC => {
            let (Some(style), Some(col)) = (u(0), color(1)) else {
                create(c, Object::Other);
                return Ok(());
            };
            let brush = match style {
                1 => Brush::Null,
                2 => c.hatch_brush(col, u32::from(u(3).unwrap_or(0)))?,
                _ => Brush::Solid(col),
            };
            create(c, Object::Brush(brush));
        }
        0x02FB => create(c, Object::Font(font(r))),
        0x0142 => {
            let brush = match r.0.get(10..) {
                Some(dib) => match packed(c, dib, None, false)? {
                    Some(bmp) => c.bitmap_brush(&bmp)?,
                    None => Brush::Solid(Color(0x80, 0x80, 0x80)),
                },
                None => Brush::Solid(Color(0x80, 0x80, 0x80)),
            };
            create(c, Object::Brush(brush));
        }
        // Palettes, regions and bitmap pattern brushes take a slot.
        0x00F7 | 0x06FF | 0x01F9 => create(c, Object::Other),
        0x061D => {
            let (Some(rop), Some(h), Some(wd), Some(y), Some(x)) =
                (r.u32(6), w(2), w(3), w(4), w(5))
            else {
                return Ok(());
            };
            patblt(c, rop, (x, y, wd, h))?;
        }
        0x041F => {
            if let (Some(col), Some(y), Some(x)) = (color(0), w(2), w(3)) {
                c.fill_rect(x, y, x + 1.0, y + 1.0, &col.hex())?;
            }
        }
        0x0F43 => {
            // StretchDIB: rop, usage, src h w y x, dest h w y x, DIB.
            let (Some(sh), Some(sw), Some(sy), Some(sx)) = (w(3), w(4), w(5), w(6)) else {
                return Ok(());
            };
            let (Some(h), Some(wd), Some(y), Some(x)) = (w(7), w(8), w(9), w(10)) else {
                return Ok(());
            };
            if let Some(dib) = r.0.get(28..) {
                if let Some(bmp) = packed(c, dib, Some((sx, sy, sw, sh)), false)? {
                    c.image(&bmp, (x, y, wd, h))?;
                }
            }
        }
        0x0B41 | 0x0940 => {
            // DIBStretchBlt (src h w y x, dest h w y x) and DIBBitBlt (src y x, h w, dest y x).
            let stretch = function == 0x0B41;
            let Some(rop) = r.u32(6) else { return Ok(()) };
            let has_bitmap = r.0.len() > 40;
            let i = if has_bitmap { 2 } else { 3 };
            let fields = blit_fields(&w, i, stretch);
            let Some((src, (x, y, wd, h))) = fields else {
                return Ok(());
            };
            if !has_bitmap {
                return patblt(c, rop, (x, y, wd, h));
            }
            let at = if stretch { 26 } else { 22 };
            if let Some(dib) = r.0.get(at..) {
                if let Some(bmp) = packed(c, dib, Some(src), false)? {
                    c.image(&bmp, (x, y, wd, h))?;
                }
            }
        }
        0x0D33 => {
            let (Some(sy), Some(sx), Some(h), Some(wd), Some(y), Some(x)) =
                (w(3), w(4), w(5), w(6), w(7), w(8))
            else {
                return Ok(());
            };
            if let Some(dib) = r.0.get(24..) {
                if let Some(bmp) = packed(c, dib, Some((sx, sy, wd, h)), false)? {
                    c.image(&bmp, (x, y, wd, h))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The source and destination rectangles (x, y, width, height) of DIBStretchBlt (source
/// height, width, y, x, then the destination's) or DIBBitBlt (source y, x, then height,
/// width and destination y, x), from parameter `i`.
type Rect4 = (f64, f64, f64, f64);
fn blit_fields(
    w: &dyn Fn(usize) -> Option<f64>,
    i: usize,
    stretch: bool,
) -> Option<(Rect4, Rect4)> {
    if stretch {
        Some((
            (w(i + 3)?, w(i + 2)?, w(i + 1)?, w(i)?),
            (w(i + 7)?, w(i + 6)?, w(i + 5)?, w(i + 4)?),
        ))
    } else {
        let (h, wd) = (w(i + 2)?, w(i + 3)?);
        Some(((w(i + 1)?, w(i)?, wd, h), (w(i + 5)?, w(i + 4)?, wd, h)))
    }
}

/// A PatBlt-like fill of the logical rectangle `(x, y, w, h)`.
fn patblt(
    c: &mut Canvas,
    rop: u32,
    (x, y, w, h): (f64, f64, f64, f64),
) -> Result<(), MetafileError> {
    let paint = match rop {
        0x0000_0042 => Some("#000000".to_owned()),
        0x00FF_0062 => Some("#ffffff".to_owned()),
        0x00F0_0021 => c.brush_paint(),
        _ => None,
    };
    match paint {
        Some(p) => c.fill_rect(x, y, x + w, y + h, &p),
        None => Ok(()),
    }
}

/// A packed DIB decoded against the picture's pixel allowance.
fn packed(
    c: &mut Canvas,
    dib: &[u8],
    src: Option<(f64, f64, f64, f64)>,
    alpha: bool,
) -> Result<Option<bitmap::Bitmap>, MetafileError> {
    let Some((bmi, bits)) = bitmap::split_packed(dib) else {
        return Ok(None);
    };
    let src = src
        .map(|s| (s.0 as i64, s.1 as i64, s.2 as i64, s.3 as i64))
        .filter(|s| s.2 > 0 && s.3 > 0);
    let limit = c.limits.max_bitmap_pixels;
    let bmp = bitmap::decode(bmi, bits, src, alpha, &mut c.pixels_left, limit)?;
    if let Some(b) = &bmp {
        c.spend(u64::from(b.width) * u64::from(b.height) / 64)?;
    }
    Ok(bmp)
}

/// META_CREATEFONTINDIRECT's Font object.
fn font(r: Rec<'_>) -> Font {
    let byte = |o: usize| r.0.get(6 + o).copied().unwrap_or(0);
    let face_bytes: Vec<u8> =
        r.0.get(24..56.min(r.0.len()))
            .unwrap_or(&[])
            .iter()
            .copied()
            .take_while(|&b| b != 0)
            .collect();
    Font {
        face: String::from_utf16_lossy(&ansi_units(&face_bytes)),
        height: r.i16(6).unwrap_or(0.0),
        weight: r.i16(14).map_or(400, |v| v.max(0.0) as u32),
        italic: byte(10) != 0,
        underline: byte(11) != 0,
        strike: byte(12) != 0,
        escapement: r.i16(10).unwrap_or(0.0),
        charset: byte(13),
    }
}

/// META_EXTTEXTOUT: y, x, length, options, [rectangle], string, [dx].
fn ext_text_out(c: &mut Canvas, r: Rec<'_>) -> Result<(), MetafileError> {
    let (Some(y), Some(x), Some(n), Some(options)) = (r.i16(6), r.i16(8), r.u16(10), r.u16(12))
    else {
        return Ok(());
    };
    let n = usize::from(n);
    let options = u32::from(options);
    let has_rect = options & 6 != 0;
    let rect = if has_rect {
        match (r.i16(14), r.i16(16), r.i16(18), r.i16(20)) {
            (Some(l), Some(t), Some(rr), Some(b)) if rr > l && b > t => Some((l, t, rr, b)),
            _ => None,
        }
    } else {
        None
    };
    let at = if has_rect { 22 } else { 14 };
    let Some(text) = r.bytes(at, n) else {
        return Ok(());
    };
    let units = ansi_units(text);
    let dx_at = at + n + n % 2;
    let dx: Option<Vec<f64>> = (0..n).map(|i| r.i16(dx_at + 2 * i)).collect();
    let dx = dx.filter(|d| d.len() == units.len());
    c.text((x, y), &units, dx.as_deref(), options, rect)
}
