//! MicroType Express (MTX): the font compression of Embedded OpenType files whose
//! `Flags` have `TTEMBED_TTCOMPRESSED` (0x4), which is how PowerPoint embeds every face
//! (`ppt/fonts/*.fntdata`). Written from the W3C Member Submission "MicroType Express
//! (MTX) Font Format" (Monotype, 2008).
//!
//! An MTX stream is a 10-byte header and three LZCOMP blocks ([`lzcomp`]):
//!
//! | bytes | field |
//! |---|---|
//! | 0 | version (1, 2 or 3; 1 has no run-length stage) |
//! | 1-3 | copy limit (the encoder's history size; a decoder keeping all of it needs none) |
//! | 4-6 | offset of block 2 (uint24, big-endian) |
//! | 7-9 | offset of block 3 |
//!
//! Block 1 (from byte 10) is the font in Compact Table Format ([`ctf`]), block 2 the
//! glyphs' push data, block 3 their instructions. [`decode`] gives back a TrueType font:
//! `glyf` rebuilt as TrueType, `loca` rebuilt from the offsets it wrote, `cvt ` undone,
//! the directory sorted and every checksum (and `head.checkSumAdjustment`) recomputed.
//!
//! The input is untrusted. Everything read is bounds-checked and nothing is sized from a
//! claimed length before the claim is checked against the bytes there or against the cap
//! ([`MAX_DECODED_BYTES`], and at most [`MAX_EXPANSION`] times the input); no recursion;
//! time is linear in the output (each LZCOMP symbol emits a byte or more, each glyph
//! consumes input). Failures are an [`MtxError`], never a panic.
//!
//! Crates considered: `eot-parse` (1.0.x, MPL-2.0) is libeot run through c2rust and
//! cleaned of `unsafe`; its README says it reproduces "all of the bugs" of libeot, which
//! include dropping the `instructionLength` of composite glyphs with instructions (see
//! the tests) and hdmx/VDMX, and it documents no output caps. `webmedia` carries an MTX
//! decoder inside a general image/video/font crate, far more than previewd needs. Both
//! were judged from their published docs and READMEs, not a full source audit; neither
//! was a better fit than about 1,000 lines written here from the format, tested against
//! libeot's `eot2ttf`. `hdmx` and `VDMX`, coded with MTX's own prediction schemes, are
//! dropped rather than decoded (optional hints; see [`ctf`]).

mod ctf;
mod lzcomp;

/// Largest font [`decode`] produces.
pub const MAX_DECODED_BYTES: usize = 32 << 20;
/// The output is also at most this many times the input (plus [`EXPANSION_SLACK`]):
/// real faces expand 2 to 3 times.
pub const MAX_EXPANSION: usize = 64;
/// What a tiny input may expand to whatever its size.
pub const EXPANSION_SLACK: usize = 1 << 20;

/// Why an MTX stream was refused. The codes are stable (logs, metrics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MtxError {
    /// The header is not an MTX header (version, block offsets).
    BadHeader,
    /// A stream ended before what it announced.
    Truncated,
    /// The output would pass the caps.
    TooLarge,
    /// An LZCOMP or glyph stream contradicts itself (a copy from before the history,
    /// a hop code without two values before it, a negative contour count).
    Corrupt,
    /// The CTF table directory is unusable (no tables, too many, a table outside the
    /// block, a tag twice).
    BadDirectory,
    /// `head` or `maxp` is missing or short.
    MissingTable,
    /// A glyph's points leave the int16 coordinate space.
    Coordinates,
}

impl MtxError {
    /// A short stable code for logs.
    pub fn code(self) -> &'static str {
        match self {
            MtxError::BadHeader => "mtx-bad-header",
            MtxError::Truncated => "mtx-truncated",
            MtxError::TooLarge => "mtx-too-large",
            MtxError::Corrupt => "mtx-corrupt",
            MtxError::BadDirectory => "mtx-bad-directory",
            MtxError::MissingTable => "mtx-missing-table",
            MtxError::Coordinates => "mtx-coordinates",
        }
    }
}

impl std::fmt::Display for MtxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl std::error::Error for MtxError {}

/// The caps of one decode.
struct Limits {
    /// Bytes of output, all blocks and the rebuilt font together.
    max_output: usize,
    max_tables: usize,
    max_glyphs: usize,
    max_contours: usize,
    max_points: usize,
}

/// Decodes an MTX stream (the font data of a compressed EOT) into a TrueType font.
pub fn decode(mtx: &[u8]) -> Result<Vec<u8>, MtxError> {
    let limits = Limits {
        max_output: MAX_DECODED_BYTES.min(
            mtx.len()
                .saturating_mul(MAX_EXPANSION)
                .saturating_add(EXPANSION_SLACK),
        ),
        max_tables: 128,
        max_glyphs: 0xFFFF,
        max_contours: 8192,
        max_points: 0xFFFF,
    };
    let header = mtx.get(..10).ok_or(MtxError::Truncated)?;
    let version = header[0];
    let u24 = |at: usize| {
        usize::from(header[at]) << 16
            | usize::from(header[at + 1]) << 8
            | usize::from(header[at + 2])
    };
    let (second, third) = (u24(4), u24(7));
    if !(1..=3).contains(&version) || second < 10 || third < second || third > mtx.len() {
        return Err(MtxError::BadHeader);
    }
    let mut left = limits.max_output;
    let mut block = |data: &[u8]| -> Result<Vec<u8>, MtxError> {
        let out = lzcomp::decompress(data, version, left)?;
        left -= out.len();
        Ok(out)
    };
    let ctf = block(&mtx[10..second])?;
    let push = block(&mtx[second..third])?;
    let code = block(&mtx[third..])?;
    ctf::rebuild(&ctf, &push, &code, &limits)
}

#[cfg(test)]
mod tests;
