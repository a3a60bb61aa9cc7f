//! Device-independent bitmaps (DIB) of StretchDIBits, BitBlt and friends, re-encoded as
//! PNG `data:` URIs. Pixels are counted against the picture's cap before anything is
//! allocated.

use base64::Engine as _;

use super::MetafileError;
use crate::office::bytes::{le16, le32};

/// A decoded bitmap: a `data:` URI and its size in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Bitmap {
    /// `data:image/png;base64,…` (or JPEG for a JPEG-compressed DIB).
    pub uri: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// A source rectangle inside the DIB, in pixels: x, y (from the top for top-down DIBs and
/// from the bottom for bottom-up ones, as GDI counts), width, height.
pub type SourceRect = (i64, i64, i64, i64);

/// Decodes the DIB with header and colour table `bmi` and pixel data `bits`, cut to
/// `src` when that is a proper part of it. `alpha` keeps (premultiplied) 32-bit alpha, as
/// AlphaBlend with AC_SRC_ALPHA asks. `pixels_left` is the picture's remaining pixel
/// allowance. `Ok(None)` for a DIB that is damaged or in a form previewd does not decode
/// (run-length encoded): the picture is drawn without it.
pub fn decode(
    bmi: &[u8],
    bits: &[u8],
    src: Option<SourceRect>,
    alpha: bool,
    pixels_left: &mut u64,
    limit: u64,
) -> Result<Option<Bitmap>, MetafileError> {
    let Some(h) = Header::parse(bmi) else {
        return Ok(None);
    };
    let pixels = u64::from(h.width) * u64::from(h.height);
    if pixels > *pixels_left {
        return Err(MetafileError::BitmapTooLarge(limit));
    }
    *pixels_left -= pixels;
    match h.compression {
        0 | 3 => {}
        4 | 5 => return Ok(embedded(bits, h.compression)),
        _ => return Ok(None),
    }
    let stride = (u64::from(h.width) * u64::from(h.bit_count)).div_ceil(32) * 4;
    let Ok(stride) = usize::try_from(stride) else {
        return Ok(None);
    };
    let Some(needed) = stride.checked_mul(h.height as usize) else {
        return Ok(None);
    };
    if bits.len() < needed || !matches!(h.bit_count, 1 | 4 | 8 | 16 | 24 | 32) {
        return Ok(None);
    }
    let (w, hh) = (i64::from(h.width), i64::from(h.height));
    let (cx, cy_from_origin, cw, ch) = match src {
        Some((x, y, sw, sh))
            if x >= 0 && y >= 0 && sw > 0 && sh > 0 && x + sw <= w && y + sh <= hh =>
        {
            (x, y, sw, sh)
        }
        _ => (0, 0, w, hh),
    };
    // Rows from the top of the displayed image.
    let top = if h.top_down {
        cy_from_origin
    } else {
        hh - cy_from_origin - ch
    };
    let mut rgba = Vec::with_capacity((cw * ch * 4) as usize);
    for row in top..top + ch {
        let stored = if h.top_down { row } else { hh - 1 - row } as usize;
        let line = &bits[stored * stride..(stored + 1) * stride];
        for col in cx..cx + cw {
            rgba.extend_from_slice(&h.pixel(line, col as usize, alpha));
        }
    }
    let png = encode_png(&rgba, cw as u32, ch as u32).ok_or(MetafileError::Damaged("bitmap"))?;
    Ok(Some(Bitmap {
        uri: format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(png)
        ),
        width: cw as u32,
        height: ch as u32,
    }))
}

/// Splits a packed DIB (header, colour table, pixels in one run, as WMF stores them) into
/// its header-and-table part and its pixels.
pub fn split_packed(dib: &[u8]) -> Option<(&[u8], &[u8])> {
    let h = Header::parse(dib)?;
    let size = le32(dib, 0)? as usize;
    let entry = if size == 12 { 3 } else { 4 };
    let masks = if h.compression == 3 && size == 40 {
        12
    } else {
        0
    };
    let table = size + masks + h.palette.len() * entry;
    (table <= dib.len()).then(|| dib.split_at(table))
}

/// A JPEG or PNG stored whole inside the DIB (BI_JPEG, BI_PNG), checked by its magic.
fn embedded(bits: &[u8], compression: u32) -> Option<Bitmap> {
    let header = crate::office::image::sniff_image(bits)?;
    let mime = match (compression, header.format) {
        (4, crate::office::image::ImageFormat::Jpeg) => "image/jpeg",
        (5, crate::office::image::ImageFormat::Png) => "image/png",
        _ => return None,
    };
    let (width, height) = header.size?;
    Some(Bitmap {
        uri: format!(
            "data:{mime};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bits)
        ),
        width,
        height,
    })
}

fn encode_png(rgba: &[u8], w: u32, h: u32) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut writer = enc.write_header().ok()?;
        writer.write_image_data(rgba).ok()?;
    }
    Some(out)
}

/// The facts of a BITMAPINFOHEADER (or BITMAPCOREHEADER) and its colour table.
struct Header {
    width: u32,
    height: u32,
    top_down: bool,
    bit_count: u16,
    compression: u32,
    masks: [u32; 4],
    palette: Vec<[u8; 3]>,
}

impl Header {
    fn parse(bmi: &[u8]) -> Option<Header> {
        let size = le32(bmi, 0)? as usize;
        let (width, height, bit_count, compression, entry, mut colours, table_at);
        if size == 12 {
            width = i64::from(le16(bmi, 4)?);
            height = i64::from(le16(bmi, 6)?);
            bit_count = le16(bmi, 10)?;
            compression = 0;
            entry = 3;
            colours = 0usize;
            table_at = 12;
        } else if size >= 40 {
            width = i64::from(le32(bmi, 4)? as i32);
            height = i64::from(le32(bmi, 8)? as i32);
            bit_count = le16(bmi, 14)?;
            compression = le32(bmi, 16)?;
            entry = 4;
            colours = le32(bmi, 32)? as usize;
            table_at = if compression == 3 && size == 40 {
                52
            } else {
                size
            };
        } else {
            return None;
        }
        let top_down = height < 0;
        let height = height.unsigned_abs();
        if width <= 0 || height == 0 || width > 1 << 20 || height > 1 << 20 {
            return None;
        }
        let mut masks = match bit_count {
            16 => [0x7C00, 0x03E0, 0x001F, 0],
            _ => [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0],
        };
        if compression == 3 {
            masks = [le32(bmi, 40)?, le32(bmi, 44)?, le32(bmi, 48)?, 0];
        }
        if bit_count <= 8 {
            if colours == 0 || colours > 1 << bit_count {
                colours = 1 << bit_count;
            }
        } else {
            colours = 0;
        }
        let mut palette = Vec::with_capacity(colours);
        for i in 0..colours {
            let at = table_at + i * entry;
            match bmi.get(at..at + 3) {
                Some(c) => palette.push([c[2], c[1], c[0]]),
                // A short table: the missing entries are black, as GDI leaves them.
                None => palette.push([0, 0, 0]),
            }
        }
        Some(Header {
            width: width as u32,
            height: height as u32,
            top_down,
            bit_count,
            compression,
            masks,
            palette,
        })
    }

    fn pixel(&self, line: &[u8], x: usize, alpha: bool) -> [u8; 4] {
        let from_palette = |i: usize| {
            let c = self.palette.get(i).copied().unwrap_or([0, 0, 0]);
            [c[0], c[1], c[2], 255]
        };
        match self.bit_count {
            1 => from_palette(usize::from(line[x / 8] >> (7 - x % 8) & 1)),
            4 => from_palette(usize::from(
                line[x / 2] >> (if x.is_multiple_of(2) { 4 } else { 0 }) & 0xF,
            )),
            8 => from_palette(usize::from(line[x])),
            16 => {
                let v = u32::from(u16::from_le_bytes([line[2 * x], line[2 * x + 1]]));
                [
                    channel(v, self.masks[0]),
                    channel(v, self.masks[1]),
                    channel(v, self.masks[2]),
                    255,
                ]
            }
            24 => [line[3 * x + 2], line[3 * x + 1], line[3 * x], 255],
            _ => {
                let v = u32::from_le_bytes([
                    line[4 * x],
                    line[4 * x + 1],
                    line[4 * x + 2],
                    line[4 * x + 3],
                ]);
                let (r, g, b) = (
                    channel(v, self.masks[0]),
                    channel(v, self.masks[1]),
                    channel(v, self.masks[2]),
                );
                if !alpha {
                    return [r, g, b, 255];
                }
                let a = (v >> 24) as u8;
                // AlphaBlend's source is premultiplied.
                let un = |c: u8| {
                    if a == 0 {
                        0
                    } else {
                        ((u32::from(c) * 255 / u32::from(a)).min(255)) as u8
                    }
                };
                [un(r), un(g), un(b), a]
            }
        }
    }
}

/// One colour channel picked by `mask` and scaled to 8 bits.
fn channel(v: u32, mask: u32) -> u8 {
    if mask == 0 {
        return 0;
    }
    let shift = mask.trailing_zeros();
    let max = mask >> shift;
    let raw = (v & mask) >> shift;
    ((u64::from(raw) * 255) / u64::from(max)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BITMAPINFOHEADER for a `w`×`h` DIB of `bits` bits per pixel.
    pub(crate) fn info(w: i32, h: i32, bits: u16) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&w.to_le_bytes());
        b.extend_from_slice(&h.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&bits.to_le_bytes());
        b.extend_from_slice(&[0; 24]);
        b
    }

    fn decode_png(uri: &str) -> image::RgbaImage {
        let data = uri.strip_prefix("data:image/png;base64,").unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        image::load_from_memory(&bytes).unwrap().to_rgba8()
    }

    #[test]
    fn bottom_up_24_bit_rows_come_out_top_first() {
        // 2×2, bottom row blue blue, top row red green (rows padded to 8 bytes).
        let bits = [
            255, 0, 0, 255, 0, 0, 0, 0, // bottom: blue, blue
            0, 0, 255, 0, 255, 0, 0, 0, // top: red, green
        ];
        let mut left = 100;
        let bmp = decode(&info(2, 2, 24), &bits, None, false, &mut left, 100)
            .unwrap()
            .unwrap();
        let img = decode_png(&bmp.uri);
        assert_eq!(img.get_pixel(0, 0).0, [255, 0, 0, 255]);
        assert_eq!(img.get_pixel(1, 0).0, [0, 255, 0, 255]);
        assert_eq!(img.get_pixel(0, 1).0, [0, 0, 255, 255]);
        assert_eq!(left, 96);
    }

    #[test]
    fn palette_bitmaps_and_crop() {
        let mut bmi = info(8, 1, 1);
        bmi.extend_from_slice(&[0, 0, 0, 0, 255, 255, 255, 0]);
        let bits = [0b1000_0001, 0, 0, 0];
        let mut left = 100;
        let bmp = decode(&bmi, &bits, Some((6, 0, 2, 1)), false, &mut left, 100)
            .unwrap()
            .unwrap();
        assert_eq!((bmp.width, bmp.height), (2, 1));
        let img = decode_png(&bmp.uri);
        assert_eq!(img.get_pixel(0, 0).0, [0, 0, 0, 255]);
        assert_eq!(img.get_pixel(1, 0).0, [255, 255, 255, 255]);
    }

    #[test]
    fn giant_and_short_bitmaps_are_refused_before_allocating() {
        let mut left = 1_000_000;
        let err = decode(
            &info(100_000, 100_000, 32),
            &[],
            None,
            false,
            &mut left,
            1_000_000,
        );
        assert_eq!(err, Err(MetafileError::BitmapTooLarge(1_000_000)));
        // Declared 4×4 but only one row of pixel data: skipped, not a panic.
        let short = decode(&info(4, 4, 32), &[0; 16], None, false, &mut left, 1_000_000);
        assert_eq!(short, Ok(None));
        assert_eq!(decode(&[1, 2, 3], &[], None, false, &mut left, 1), Ok(None));
    }

    #[test]
    fn premultiplied_alpha_is_undone() {
        let bits = [64, 0, 0, 128]; // b=64 premultiplied by a=128
        let mut left = 10;
        let bmp = decode(&info(1, 1, 32), &bits, None, true, &mut left, 10)
            .unwrap()
            .unwrap();
        assert_eq!(decode_png(&bmp.uri).get_pixel(0, 0).0, [0, 0, 127, 128]);
    }
}
