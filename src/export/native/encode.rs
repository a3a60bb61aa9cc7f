//! The PNG file written by hand: one IDAT from `fdeflate`, rows filtered one at a time,
//! and the palette (`PLTE`) written last in time but first in the file.
//!
//! Why not the `png` crate's writer: it wants the palette before the first row, and a
//! palette built while painting is known only after the last one; it also applies one
//! filter to every row (or its costly adaptive choice). Here each row picks among three
//! filters by counting zero bytes, which is what `fdeflate` compresses best (it codes runs
//! of zeros and nothing else): a row equal to the one above is `Up` (all zeros, the common
//! case in a frame of bands and blank line gaps) without any counting, a row of one flat
//! run is `Sub` (zeros after its first pixel), and a text row takes whichever of `None`,
//! `Sub` and `Up` leaves the most zeros. The compressed stream is written after room left
//! free for the header, the palette and the IDAT length, which go in front of it at the
//! end: the palette is always written with 256 entries (those past the last one used are
//! black and never referenced, which PNG allows), so that room is known from the start
//! and the file is never moved or copied.

use std::io;

use super::canvas::Rgb;

/// Bytes before the stream of an RGB image: signature, `IHDR`, the IDAT head.
const RGB_HEAD: usize = 8 + 25 + 8;
/// Bytes before the stream of a palette image: the same and a 256-entry `PLTE`.
const INDEXED_HEAD: usize = RGB_HEAD + 12 + 256 * 3;

/// PNG filter types (the spec's numbers).
const NONE: u8 = 0;
const SUB: u8 = 1;
const UP: u8 = 2;

/// A PNG being written row by row.
pub struct Encoder {
    compressor: fdeflate::Compressor<Vec<u8>>,
    /// Bytes left free before the stream.
    head: usize,
    width: u32,
    height: u32,
    /// Bytes per pixel: 1 (palette indices) or 3 (RGB).
    bpp: usize,
    /// The previous row, unfiltered (empty before the first).
    prev: Vec<u8>,
    /// The filtered rows of one band, compressed in one call.
    filtered: Vec<u8>,
}

impl Encoder {
    /// A `width × height` image of `bpp`-byte pixels, its output sized for about
    /// `expected` bytes.
    pub fn new(width: u32, height: u32, bpp: usize, expected: usize) -> io::Result<Encoder> {
        let head = if bpp == 1 { INDEXED_HEAD } else { RGB_HEAD };
        let mut out = Vec::with_capacity(head + expected.max(1024));
        out.resize(head, 0);
        let row = width as usize * bpp;
        Ok(Encoder {
            compressor: fdeflate::Compressor::new(out)?,
            head,
            width,
            height,
            bpp,
            prev: Vec::with_capacity(row),
            // Grows to one band on first use.
            filtered: Vec::new(),
        })
    }

    /// Appends rows: `data` is whole rows of `width × bpp` bytes.
    pub fn rows(&mut self, data: &[u8]) -> io::Result<()> {
        let n = self.width as usize * self.bpp;
        if n == 0 || data.len() < n {
            return Ok(());
        }
        let count = data.len() / n;
        // Every byte of the band is written below, so the buffer is only resized (not
        // cleared) from one band to the next.
        self.filtered.resize(count * (n + 1), 0);
        let mut prev: &[u8] = &self.prev;
        for (row, out) in data
            .chunks_exact(n)
            .zip(self.filtered.chunks_exact_mut(n + 1))
        {
            filter(row, prev, self.bpp, out);
            prev = row;
        }
        // Only the band's last row is needed as the next band's `prev`.
        self.prev.clear();
        self.prev
            .extend_from_slice(&data[(count - 1) * n..count * n]);
        self.compressor.write_data(&self.filtered)
    }

    /// Ends the stream and puts the header (and `palette`, at most 256 colours, for an
    /// image of one-byte pixels) in front.
    pub fn finish(self, palette: Option<&[Rgb]>) -> io::Result<Vec<u8>> {
        let start = self.head;
        let mut out = self.compressor.finish()?;
        let data_len = out.len() - start;
        let idat_len = u32::try_from(data_len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "image too large"))?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(b"IDAT");
        crc.update(&out[start..]);
        out.extend_from_slice(&crc.finalize().to_be_bytes());
        chunk(&mut out, b"IEND", &[]);

        let mut head = Vec::with_capacity(start);
        head.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let mut ihdr = [0u8; 13];
        ihdr[..4].copy_from_slice(&self.width.to_be_bytes());
        ihdr[4..8].copy_from_slice(&self.height.to_be_bytes());
        ihdr[8] = 8; // bit depth
        ihdr[9] = if palette.is_some() { 3 } else { 2 }; // indexed or RGB
        chunk(&mut head, b"IHDR", &ihdr);
        if let Some(palette) = palette {
            let mut full = [[0u8; 3]; 256];
            let n = palette.len().min(256);
            full[..n].copy_from_slice(&palette[..n]);
            chunk(&mut head, b"PLTE", full.as_flattened());
        }
        head.extend_from_slice(&idat_len.to_be_bytes());
        head.extend_from_slice(b"IDAT");
        if head.len() != start {
            return Err(io::Error::other(
                "a palette with RGB pixels or none with indices",
            ));
        }
        out[..start].copy_from_slice(&head);
        Ok(out)
    }
}

/// Appends a chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Filters `row` into `out` (its filter byte, then `row.len()` bytes).
///
/// The choice is made by counting before anything is written: one pass counts the zeros
/// each of `None`, `Sub` and `Up` would leave, and only the winner is then written. The
/// counts run in blocks of at most 255 bytes with 8-bit sums, which the compiler turns
/// into wide compares (16 or 32 bytes at a time) instead of one byte at a time.
fn filter(row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    let (tag, dst) = out.split_first_mut().expect("room for the filter byte");
    if !prev.is_empty() && prev == row {
        *tag = UP;
        dst.fill(0);
        return;
    }
    let lead = bpp.min(row.len());
    let (none, sub, up) = zero_counts(row, prev, lead);
    // Ties go to `Sub`, then `None`: the order the encoder has always used, so the same
    // frame gives the same bytes.
    if up > sub && up >= none {
        *tag = UP;
        for ((o, a), b) in dst.iter_mut().zip(row).zip(prev) {
            *o = a.wrapping_sub(*b);
        }
    } else if none > sub {
        *tag = NONE;
        dst.copy_from_slice(row);
    } else {
        *tag = SUB;
        dst[..lead].copy_from_slice(&row[..lead]);
        for ((o, a), b) in dst[lead..].iter_mut().zip(&row[lead..]).zip(row) {
            *o = a.wrapping_sub(*b);
        }
    }
}

/// The zero bytes that `None`, `Sub` and `Up` would leave in `row` (the first `lead`
/// bytes, one pixel, are the same under `None` and `Sub`); `Up` counts 0 without a
/// `prev`, which makes it never win on the first row.
fn zero_counts(row: &[u8], prev: &[u8], lead: usize) -> (usize, usize, usize) {
    const BLOCK: usize = 255;
    let first = prev.is_empty();
    // The first row has nothing above it: it is counted against itself and its `Up`
    // count dropped, so one loop serves every row.
    let above = if first { row } else { prev };
    let head = &row[..lead];
    let zeros = head.iter().filter(|&&b| b == 0).count();
    let (mut none, mut sub) = (zeros, zeros);
    let mut up = head.iter().zip(above).filter(|(a, b)| a == b).count();
    let body = &row[lead..];
    let left = &row[..row.len() - lead];
    for ((b, l), p) in body
        .chunks(BLOCK)
        .zip(left.chunks(BLOCK))
        .zip(above[lead..].chunks(BLOCK))
    {
        let (mut n, mut s, mut u) = (0u8, 0u8, 0u8);
        for ((x, y), z) in b.iter().zip(l).zip(p) {
            n += u8::from(*x == 0);
            s += u8::from(x == y);
            u += u8::from(x == z);
        }
        none += usize::from(n);
        sub += usize::from(s);
        up += usize::from(u);
    }
    (none, sub, if first { 0 } else { up })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (png::OutputInfo, Vec<u8>, Option<Vec<u8>>) {
        let mut dec = png::Decoder::new(std::io::Cursor::new(png.to_vec()));
        dec.set_transformations(png::Transformations::IDENTITY);
        let mut reader = dec.read_info().unwrap();
        let palette = reader.info().palette.as_ref().map(|p| p.to_vec());
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf, palette)
    }

    #[test]
    fn indexed_and_rgb_images_decode_to_their_rows() {
        // Rows that take each filter: equal to the one above, one flat run, text-like.
        let (w, h) = (37u32, 6u32);
        let rows: Vec<u8> = (0..h)
            .flat_map(|y| {
                (0..w).map(move |x| match y {
                    0 | 1 => 0,
                    2 => 3,
                    3 => (x % 5) as u8,
                    _ => ((x * 7 + y) % 4) as u8,
                })
            })
            .collect();
        let palette: Vec<Rgb> = (0..5).map(|i| [i * 40, 255 - i * 40, 7]).collect();
        let mut enc = Encoder::new(w, h, 1, 0).unwrap();
        // Two bands of three rows.
        enc.rows(&rows[..3 * w as usize]).unwrap();
        enc.rows(&rows[3 * w as usize..]).unwrap();
        let png = enc.finish(Some(&palette)).unwrap();
        let (info, pixels, pal) = decode(&png);
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(pixels, rows);
        // The palette's colours, then black up to 256 entries.
        let pal = pal.unwrap();
        assert_eq!(pal.len(), 256 * 3);
        assert_eq!(&pal[..15], palette.as_flattened());
        assert!(pal[15..].iter().all(|&b| b == 0));

        let rgb: Vec<u8> = rows.iter().flat_map(|&i| palette[usize::from(i)]).collect();
        let mut enc = Encoder::new(w, h, 3, 0).unwrap();
        enc.rows(&rgb).unwrap();
        let png = enc.finish(None).unwrap();
        let (info, pixels, pal) = decode(&png);
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert!(pal.is_none());
        assert_eq!(pixels, rgb);
    }

    #[test]
    fn repeated_rows_cost_almost_nothing() {
        let (w, h) = (1000u32, 400u32);
        let mut enc = Encoder::new(w, h, 1, 0).unwrap();
        let row: Vec<u8> = (0..w).map(|x| (x / 10 % 7) as u8).collect();
        for _ in 0..h {
            enc.rows(&row).unwrap();
        }
        let png = enc.finish(Some(&[[0; 3]; 7])).unwrap();
        assert!(png.len() < 4_000, "{} bytes", png.len());
    }
}
