//! Bounds-checked field reads from one record's bytes: `None` past its end, so a short
//! record is skipped instead of read past.

use crate::office::bytes::{le16, le32};

/// One record's bytes (type and size included).
#[derive(Debug, Clone, Copy)]
pub struct Rec<'a>(pub &'a [u8]);

impl<'a> Rec<'a> {
    /// An unsigned 32-bit field.
    pub fn u32(&self, at: usize) -> Option<u32> {
        le32(self.0, at)
    }

    /// A signed 32-bit field.
    pub fn i32(&self, at: usize) -> Option<f64> {
        le32(self.0, at).map(|v| f64::from(v as i32))
    }

    /// An unsigned 16-bit field.
    pub fn u16(&self, at: usize) -> Option<u16> {
        le16(self.0, at)
    }

    /// A signed 16-bit field.
    pub fn i16(&self, at: usize) -> Option<f64> {
        le16(self.0, at).map(|v| f64::from(v as i16))
    }

    /// A 32-bit float, `None` when not finite.
    pub fn f32(&self, at: usize) -> Option<f64> {
        let v = f64::from(f32::from_bits(le32(self.0, at)?));
        v.is_finite().then_some(v)
    }

    /// `len` bytes at `at`.
    pub fn bytes(&self, at: usize, len: usize) -> Option<&'a [u8]> {
        self.0.get(at..at.checked_add(len)?)
    }

    /// `n` points of two 32-bit (`wide`) or 16-bit coordinates at `at`.
    pub fn points(&self, at: usize, n: usize, wide: bool) -> Option<Vec<(f64, f64)>> {
        let size = if wide { 8 } else { 4 };
        self.bytes(at, n.checked_mul(size)?)?;
        Some(
            (0..n)
                .map(|i| {
                    let p = at + i * size;
                    if wide {
                        (self.i32(p).unwrap_or(0.0), self.i32(p + 4).unwrap_or(0.0))
                    } else {
                        (self.i16(p).unwrap_or(0.0), self.i16(p + 2).unwrap_or(0.0))
                    }
                })
                .collect(),
        )
    }

    /// A RECTL (left, top, right, bottom) at `at`.
    pub fn rect(&self, at: usize) -> Option<(f64, f64, f64, f64)> {
        Some((
            self.i32(at)?,
            self.i32(at + 4)?,
            self.i32(at + 8)?,
            self.i32(at + 12)?,
        ))
    }

    /// A NUL-terminated UTF-16 string of at most `max` units at `at`.
    pub fn utf16(&self, at: usize, max: usize) -> String {
        let units: Vec<u16> = (0..max)
            .map_while(|i| self.u16(at + 2 * i).filter(|&u| u != 0))
            .collect();
        String::from_utf16_lossy(&units)
    }
}

/// Windows-1252 bytes (the ANSI text of WMF and EMR_EXTTEXTOUTA) as UTF-16 units.
pub fn ansi_units(bytes: &[u8]) -> Vec<u16> {
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
    text.encode_utf16().collect()
}
