//! Compact Table Format: block 1 of an MTX stream is an sfnt whose `glyf` is written
//! compactly, whose `loca` is left out (rebuilt from the glyphs) and whose `cvt ` is
//! delta coded; blocks 2 and 3 carry the glyphs' push data and instructions.
//!
//! A CTF glyph (MTX spec, "CTF glyph"):
//!
//! * `numberOfContours` (int16): 0 is an empty glyph; `0x7FFF` announces the real count
//!   followed by an explicit bounding box; otherwise a simple glyph's box is computed
//!   from its points. A negative count is a composite glyph: its box, then its
//!   components exactly as in TrueType, then (with `WE_HAVE_INSTRUCTIONS`) the two
//!   instruction counts below.
//! * a simple glyph: its contours' end points as 255UShort (the first as is, the others
//!   as differences), one flag byte per point (bit 7 set: off curve; bits 0-6: which of
//!   the 128 triplet encodings), the triplet bytes, then `pushCount` and `codeSize`
//!   (255UShort): `pushCount` values from block 2 (255Short, with the hop codes 251
//!   `A B → A B A C A` and 252 `→ A B A C A D A`) become PUSHB/PUSHW instructions, then
//!   `codeSize` bytes of block 3 follow them.
//!
//! The `cvt ` table is a uint16 count of values, each a delta from the previous one:
//! `0..=237` as is, `238` then an int16, `239..=247` then a byte (negative,
//! `-(238·(code-239) + byte)`), `248..=255` then a byte (`238·(code-247) + byte`).
//!
//! `hdmx` and `VDMX` are coded with the MTX bit-level prediction schemes, which this
//! decoder does not implement: they are dropped (both are optional device-metric hints
//! that renderers recompute; the faces the corpus embeds carry neither).

use super::{Limits, MtxError};

/// A cursor over one stream; every read is checked.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(data: &'a [u8]) -> Self {
        Reader { data, at: 0 }
    }

    fn left(&self) -> usize {
        self.data.len() - self.at
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], MtxError> {
        let end = self.at.checked_add(n).ok_or(MtxError::Truncated)?;
        let out = self.data.get(self.at..end).ok_or(MtxError::Truncated)?;
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, MtxError> {
        Ok(self.bytes(1)?[0])
    }

    fn peek(&self) -> Result<u8, MtxError> {
        self.data.get(self.at).copied().ok_or(MtxError::Truncated)
    }

    fn u16(&mut self) -> Result<u16, MtxError> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn i16(&mut self) -> Result<i16, MtxError> {
        Ok(self.u16()? as i16)
    }

    fn u32(&mut self) -> Result<u32, MtxError> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// 255UShort: `0..=252` as is, `253` then a uint16, `254` then a byte + 506, `255`
    /// then a byte + 253.
    fn u255(&mut self) -> Result<u16, MtxError> {
        Ok(match self.u8()? {
            253 => self.u16()?,
            254 => 506 + u16::from(self.u8()?),
            255 => 253 + u16::from(self.u8()?),
            code => u16::from(code),
        })
    }

    /// 255Short: `253` then an int16; `250` negates what follows; `255` then a byte +
    /// 250, `254` then a byte + 500; other codes as is.
    fn s255(&mut self) -> Result<i16, MtxError> {
        let mut code = self.u8()?;
        if code == 253 {
            return self.i16();
        }
        let negative = code == 250;
        if negative {
            code = self.u8()?;
        }
        let value = match code {
            255 => 250 + i16::from(self.u8()?),
            254 => 500 + i16::from(self.u8()?),
            c => i16::from(c),
        };
        Ok(if negative { -value } else { value })
    }
}

fn be16(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(d.get(at..at + 2)?.try_into().ok()?))
}

/// One table of the CTF directory.
struct Entry {
    tag: [u8; 4],
    offset: usize,
    length: usize,
}

/// Rebuilds the TrueType font from the three decompressed blocks.
pub(super) fn rebuild(
    ctf: &[u8],
    push: &[u8],
    code: &[u8],
    limits: &Limits,
) -> Result<Vec<u8>, MtxError> {
    let mut r = Reader::new(ctf);
    let version = r.u32()?;
    let num_tables = usize::from(r.u16()?);
    r.bytes(6)?;
    if num_tables == 0 || num_tables > limits.max_tables {
        return Err(MtxError::BadDirectory);
    }
    let mut entries = Vec::with_capacity(num_tables);
    for _ in 0..num_tables {
        let tag: [u8; 4] = r.bytes(4)?.try_into().map_err(|_| MtxError::Truncated)?;
        r.u32()?;
        let offset = r.u32()? as usize;
        let length = r.u32()? as usize;
        if entries.iter().any(|e: &Entry| e.tag == tag) {
            return Err(MtxError::BadDirectory);
        }
        entries.push(Entry {
            tag,
            offset,
            length,
        });
    }
    let table = |tag: &[u8; 4]| -> Result<Option<&[u8]>, MtxError> {
        match entries.iter().find(|e| &e.tag == tag) {
            None => Ok(None),
            Some(e) => ctf
                .get(
                    e.offset
                        ..e.offset
                            .checked_add(e.length)
                            .ok_or(MtxError::BadDirectory)?,
                )
                .map(Some)
                .ok_or(MtxError::BadDirectory),
        }
    };
    let head = table(b"head")?.ok_or(MtxError::MissingTable)?;
    let maxp = table(b"maxp")?.ok_or(MtxError::MissingTable)?;
    let num_glyphs = usize::from(be16(maxp, 4).ok_or(MtxError::MissingTable)?);
    let long_loca = be16(head, 50).ok_or(MtxError::MissingTable)? != 0;
    if num_glyphs > limits.max_glyphs {
        return Err(MtxError::TooLarge);
    }

    let mut out: Vec<([u8; 4], Vec<u8>)> = Vec::with_capacity(num_tables + 1);
    let mut loca_format = None;
    let mut budget = limits.max_output;
    let mut take = |n: usize| -> Result<(), MtxError> {
        budget = budget.checked_sub(n).ok_or(MtxError::TooLarge)?;
        Ok(())
    };
    if let Some(glyf) = table(b"glyf")? {
        let (glyf, loca_offsets) = glyphs(glyf, push, code, num_glyphs, limits)?;
        take(glyf.len() + 4 * loca_offsets.len())?;
        // Short offsets are halves: usable while the table stays under 128 KiB.
        let long = long_loca || glyf.len() > 2 * 0xFFFF;
        let mut loca = Vec::with_capacity(loca_offsets.len() * if long { 4 } else { 2 });
        for &o in &loca_offsets {
            if long {
                loca.extend_from_slice(&(o as u32).to_be_bytes());
            } else {
                loca.extend_from_slice(&((o / 2) as u16).to_be_bytes());
            }
        }
        out.push((*b"glyf", glyf));
        out.push((*b"loca", loca));
        loca_format = Some(long);
    }
    for e in &entries {
        match &e.tag {
            b"glyf" | b"loca" | b"hdmx" | b"VDMX" => continue,
            b"cvt " => {
                let data = cvt(table(b"cvt ")?.ok_or(MtxError::BadDirectory)?)?;
                take(data.len())?;
                out.push((e.tag, data));
            }
            _ => {
                let data = table(&e.tag)?.ok_or(MtxError::BadDirectory)?.to_vec();
                take(data.len())?;
                out.push((e.tag, data));
            }
        }
    }
    if let Some((_, head)) = out.iter_mut().find(|(t, _)| t == b"head") {
        if head.len() < 54 {
            return Err(MtxError::MissingTable);
        }
        // Its whole-font checksum is recomputed once the font is laid out.
        head[8..12].fill(0);
        if let Some(long) = loca_format {
            head[50..52].copy_from_slice(&u16::from(long).to_be_bytes());
        }
    }
    Ok(sfnt(version, out))
}

/// The `cvt ` table from its delta coding.
fn cvt(data: &[u8]) -> Result<Vec<u8>, MtxError> {
    let mut r = Reader::new(data);
    let count = usize::from(r.u16()?);
    // Each value takes at least one byte: a count beyond the data is a lie.
    if count > r.left() {
        return Err(MtxError::Truncated);
    }
    let mut out = Vec::with_capacity(2 * count);
    let mut last = 0i16;
    for _ in 0..count {
        let code = r.u8()?;
        let delta = match code {
            248.. => 238 * (i16::from(code) - 247) + i16::from(r.u8()?),
            239..=247 => -(238 * (i16::from(code) - 239) + i16::from(r.u8()?)),
            238 => r.i16()?,
            _ => i16::from(code),
        };
        // The encoder relies on int16 wrap-around between far-apart values.
        last = last.wrapping_add(delta);
        out.extend_from_slice(&last.to_be_bytes());
    }
    Ok(out)
}

/// The 128 triplet encodings of a point's (dx, dy): `(bytes after the flag, x bits, y
/// bits, x offset, y offset, x sign, y sign)`, laid out as the MTX spec's table is.
fn triplet(index: u8, data: &[u8]) -> Option<(i32, i32)> {
    let i = i32::from(index);
    // Bit 0 of the index gives the x sign (set: positive), bit 1 the y sign, in the
    // ranges where both coordinates move.
    let sign = |positive: bool, v: i32| if positive { v } else { -v };
    let b = |n: usize| data.get(n).map(|&v| i32::from(v));
    Some(match index {
        0..=9 => (0, sign(i & 1 == 1, ((i & 0xE) << 7) + b(0)?)),
        10..=19 => (sign(i & 1 == 1, (((i - 10) & 0xE) << 7) + b(0)?), 0),
        20..=83 => {
            let k = i - 20;
            let v = b(0)?;
            (
                sign(i & 1 == 1, 1 + (k & 0x30) + (v >> 4)),
                sign(i & 2 == 2, 1 + ((k & 0x0C) << 2) + (v & 0x0F)),
            )
        }
        84..=119 => {
            let k = i - 84;
            (
                sign(i & 1 == 1, 1 + ((k / 12) << 8) + b(0)?),
                sign(i & 2 == 2, 1 + (((k % 12) >> 2) << 8) + b(1)?),
            )
        }
        120..=123 => {
            let mid = b(1)?;
            (
                sign(i & 1 == 1, (b(0)? << 4) + (mid >> 4)),
                sign(i & 2 == 2, ((mid & 0x0F) << 8) + b(2)?),
            )
        }
        _ => (
            sign(i & 1 == 1, (b(0)? << 8) + b(1)?),
            sign(i & 2 == 2, (b(2)? << 8) + b(3)?),
        ),
    })
}

/// How many bytes follow a point's flag for triplet `index`.
fn triplet_len(index: u8) -> usize {
    match index {
        0..=83 => 1,
        84..=119 => 2,
        120..=123 => 3,
        _ => 4,
    }
}

/// The glyph streams being read.
struct Streams<'a> {
    glyf: Reader<'a>,
    push: Reader<'a>,
    code: Reader<'a>,
}

/// Decodes `count` CTF glyphs into a TrueType `glyf` table and its `count + 1` offsets.
fn glyphs(
    glyf: &[u8],
    push: &[u8],
    code: &[u8],
    count: usize,
    limits: &Limits,
) -> Result<(Vec<u8>, Vec<usize>), MtxError> {
    let mut s = Streams {
        glyf: Reader::new(glyf),
        push: Reader::new(push),
        code: Reader::new(code),
    };
    let mut out = Vec::with_capacity(glyf.len().min(limits.max_output));
    let mut offsets = Vec::with_capacity(count + 1);
    offsets.push(0);
    for _ in 0..count {
        glyph(&mut s, &mut out, limits)?;
        // Even offsets, as the short `loca` format needs.
        if out.len() % 2 == 1 {
            out.push(0);
        }
        if out.len() > limits.max_output {
            return Err(MtxError::TooLarge);
        }
        offsets.push(out.len());
    }
    Ok((out, offsets))
}

fn push16(out: &mut Vec<u8>, v: i16) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn glyph(s: &mut Streams<'_>, out: &mut Vec<u8>, limits: &Limits) -> Result<(), MtxError> {
    let contours = s.glyf.i16()?;
    if contours < 0 {
        return composite(s, out);
    }
    let (contours, bbox) = if contours == 0x7FFF {
        let real = s.glyf.i16()?;
        let bbox = [s.glyf.i16()?, s.glyf.i16()?, s.glyf.i16()?, s.glyf.i16()?];
        (real, Some(bbox))
    } else {
        (contours, None)
    };
    if contours <= 0 {
        // Empty (and a negative count behind 0x7FFF is nonsense kept empty too).
        return if contours == 0 {
            Ok(())
        } else {
            Err(MtxError::Corrupt)
        };
    }
    let contours = contours as usize;
    if contours > limits.max_contours {
        return Err(MtxError::TooLarge);
    }
    let at = out.len();
    push16(out, contours as i16);
    out.resize(at + 10, 0);
    let mut total = 0usize;
    for i in 0..contours {
        let n = usize::from(s.glyf.u255()?);
        // The first end point is stored as is; the others as the points they add.
        total += if i == 0 { n + 1 } else { n };
        if total > limits.max_points {
            return Err(MtxError::TooLarge);
        }
        push16(out, (total - 1) as u16 as i16);
    }
    // One flag byte per point must be there before anything is sized from the count.
    let flags = s.glyf.bytes(total)?;
    let mut xs = Vec::with_capacity(total);
    let mut ys = Vec::with_capacity(total);
    let (mut x, mut y) = (0i32, 0i32);
    let (mut x_min, mut y_min, mut x_max, mut y_max) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for &flag in flags {
        let index = flag & 0x7F;
        let data = s.glyf.bytes(triplet_len(index))?;
        let (dx, dy) = triplet(index, data).ok_or(MtxError::Truncated)?;
        x += dx;
        y += dy;
        if i16::try_from(x).is_err() || i16::try_from(y).is_err() {
            return Err(MtxError::Coordinates);
        }
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
        xs.push(dx as i16);
        ys.push(dy as i16);
    }
    let bbox = bbox.unwrap_or([x_min as i16, y_min as i16, x_max as i16, y_max as i16]);
    for (i, v) in bbox.iter().enumerate() {
        out[at + 2 + 2 * i..at + 4 + 2 * i].copy_from_slice(&v.to_be_bytes());
    }
    instructions(s, out)?;
    // Flags without repeats: on curve, then each coordinate as a short (its sign in the
    // "same" bit), as "same" (a zero delta, not for the first point), or as a word.
    for (i, &flag) in flags.iter().enumerate() {
        let mut f = u8::from(flag & 0x80 == 0);
        for (d, short, same) in [(xs[i], 0x02, 0x10), (ys[i], 0x04, 0x20)] {
            if i > 0 && d == 0 {
                f |= same;
            } else if (-255..0).contains(&d) {
                f |= short;
            } else if (0..256).contains(&d) {
                f |= short | same;
            }
        }
        out.push(f);
    }
    for deltas in [&xs, &ys] {
        for (i, &d) in deltas.iter().enumerate() {
            if i > 0 && d == 0 {
                continue;
            }
            if (-255..256).contains(&d) {
                out.push(d.unsigned_abs() as u8);
            } else {
                push16(out, d);
            }
        }
    }
    Ok(())
}

/// A composite glyph: box and components copied, then its instructions if it has some.
fn composite(s: &mut Streams<'_>, out: &mut Vec<u8>) -> Result<(), MtxError> {
    const ARGS_ARE_WORDS: u16 = 0x0001;
    const HAVE_SCALE: u16 = 0x0008;
    const MORE_COMPONENTS: u16 = 0x0020;
    const HAVE_XY_SCALE: u16 = 0x0040;
    const HAVE_2X2: u16 = 0x0080;
    const HAVE_INSTRUCTIONS: u16 = 0x0100;
    push16(out, -1);
    out.extend_from_slice(s.glyf.bytes(8)?);
    loop {
        let flags = s.glyf.u16()?;
        let args = if flags & ARGS_ARE_WORDS != 0 { 4 } else { 2 };
        let transform = if flags & HAVE_2X2 != 0 {
            8
        } else if flags & HAVE_XY_SCALE != 0 {
            4
        } else if flags & HAVE_SCALE != 0 {
            2
        } else {
            0
        };
        out.extend_from_slice(&flags.to_be_bytes());
        // Glyph index, arguments, transform: as in TrueType. Each component eats at
        // least 6 input bytes, so the loop ends with the stream.
        out.extend_from_slice(s.glyf.bytes(2 + args + transform)?);
        if flags & MORE_COMPONENTS == 0 {
            return if flags & HAVE_INSTRUCTIONS != 0 {
                instructions(s, out)
            } else {
                Ok(())
            };
        }
    }
}

/// `instructionLength` and the instructions: the pushes rebuilt from block 2, then
/// `codeSize` bytes of block 3.
fn instructions(s: &mut Streams<'_>, out: &mut Vec<u8>) -> Result<(), MtxError> {
    let at = out.len();
    out.extend_from_slice(&[0, 0]);
    let count = usize::from(s.glyf.u255()?);
    // Each pushed value takes at least one byte of block 2 for every 3 values.
    if count > 3 * s.push.left() + 3 {
        return Err(MtxError::Truncated);
    }
    let mut values: Vec<i16> = Vec::with_capacity(count);
    while values.len() < count {
        match s.push.peek()? {
            hop @ (251 | 252) => {
                s.push.u8()?;
                let n = if hop == 251 { 3 } else { 5 };
                let a = *values
                    .len()
                    .checked_sub(2)
                    .and_then(|i| values.get(i))
                    .ok_or(MtxError::Corrupt)?;
                if values.len() + n > count {
                    return Err(MtxError::Corrupt);
                }
                values.push(a);
                values.push(s.push.s255()?);
                values.push(a);
                if hop == 252 {
                    values.push(s.push.s255()?);
                    values.push(a);
                }
            }
            _ => values.push(s.push.s255()?),
        }
    }
    // Runs of bytes (0..=255) and of words, at most 255 a run: PUSHB/PUSHW for up to 7
    // values, NPUSHB/NPUSHW from 8 (PUSHB could take 8; libeot's eot2ttf does not, and
    // the same choice keeps the output byte-comparable with it).
    let mut rest = &values[..];
    while let Some(&first) = rest.first() {
        let byte = |v: i16| (0..256).contains(&v);
        let kind = byte(first);
        let run = rest
            .iter()
            .take(255)
            .take_while(|&&v| byte(v) == kind)
            .count();
        let (short, long) = if kind { (0xB0, 0x40) } else { (0xB8, 0x41) };
        if run < 8 {
            out.push(short + (run as u8 - 1));
        } else {
            out.push(long);
            out.push(run as u8);
        }
        for &v in &rest[..run] {
            if kind {
                out.push(v as u8);
            } else {
                push16(out, v);
            }
        }
        rest = &rest[run..];
    }
    let code = usize::from(s.glyf.u255()?);
    out.extend_from_slice(s.code.bytes(code)?);
    let length = u16::try_from(out.len() - at - 2).map_err(|_| MtxError::TooLarge)?;
    out[at..at + 2].copy_from_slice(&length.to_be_bytes());
    Ok(())
}

/// Lays out an sfnt: directory sorted by tag with its binary-search fields, tables
/// 4-byte aligned, each table's checksum, then `head.checkSumAdjustment`.
fn sfnt(version: u32, mut tables: Vec<([u8; 4], Vec<u8>)>) -> Vec<u8> {
    tables.sort_by_key(|t| t.0);
    let n = tables.len();
    let pow = if n == 0 { 0 } else { 1usize << n.ilog2() };
    let search_range = (pow * 16) as u16;
    let entry_selector = pow.max(1).ilog2() as u16;
    let range_shift = (n * 16) as u16 - search_range;
    let dir = 12 + 16 * n;
    let total = dir
        + tables
            .iter()
            .map(|(_, t)| t.len().next_multiple_of(4))
            .sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&version.to_be_bytes());
    for v in [n as u16, search_range, entry_selector, range_shift] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    let mut offset = dir;
    for (tag, data) in &tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        offset += data.len().next_multiple_of(4);
    }
    let mut head_at = None;
    for (tag, data) in &tables {
        if tag == b"head" {
            head_at = Some(out.len());
        }
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    if let Some(at) = head_at {
        let adjust = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at + 8..at + 12].copy_from_slice(&adjust.to_be_bytes());
    }
    out
}

/// The sfnt checksum: the sum of big-endian uint32 words, the tail zero padded.
pub(super) fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        sum.wrapping_add(u32::from_be_bytes(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_length_numbers_decode() {
        let mut r = Reader::new(&[7, 253, 1, 2, 254, 0, 255, 4]);
        assert_eq!(
            [
                r.u255().unwrap(),
                r.u255().unwrap(),
                r.u255().unwrap(),
                r.u255().unwrap()
            ],
            [7, 258, 506, 257]
        );
        let mut r = Reader::new(&[250, 3, 253, 0xFF, 0xFE, 255, 1, 250, 254, 2]);
        assert_eq!(
            [
                r.s255().unwrap(),
                r.s255().unwrap(),
                r.s255().unwrap(),
                r.s255().unwrap()
            ],
            [-3, -2, 251, -502]
        );
        assert_eq!(Reader::new(&[253, 1]).u255(), Err(MtxError::Truncated));
    }

    #[test]
    fn cvt_deltas_accumulate() {
        // 3 values: +10, -(238·1 + 2) = -240, then int16 1000.
        let t = cvt(&[0, 3, 10, 240, 2, 238, 0x03, 0xE8]).unwrap();
        // 10, 10 - 240 = -230, -230 + 1000 = 770.
        assert_eq!(t, [0, 10, 0xFF, 0x1A, 0x03, 0x02]);
        assert_eq!(cvt(&[0xFF, 0xFF, 1]), Err(MtxError::Truncated));
    }

    #[test]
    fn triplets_cover_their_ranges() {
        assert_eq!(triplet(1, &[5]), Some((0, 5)));
        assert_eq!(triplet(0, &[5]), Some((0, -5)));
        assert_eq!(triplet(11, &[5]), Some((5, 0)));
        assert_eq!(triplet(23, &[0x00]), Some((1, 1)));
        assert_eq!(triplet(127, &[1, 0, 0, 2]), Some((256, 2)));
        assert_eq!(triplet(124, &[1, 0, 0, 2]), Some((-256, -2)));
        assert_eq!(triplet(127, &[1, 0]), None);
    }

    #[test]
    fn the_directory_is_searchable() {
        let font = sfnt(
            0x0001_0000,
            vec![
                (*b"zzzz", vec![1]),
                (*b"head", vec![0; 54]),
                (*b"aaaa", vec![]),
            ],
        );
        assert_eq!(&font[12..16], b"aaaa");
        assert_eq!(be16(&font, 6), Some(32));
        assert_eq!(be16(&font, 8), Some(1));
        assert_eq!(be16(&font, 10), Some(16));
        assert_eq!(checksum(&font), 0xB1B0_AFBA);
    }
}
