//! How many bytes a stream decodes to, counted without keeping them, and stopping as soon
//! as the count passes a bound: the guard's measure of Flate, LZW and RunLength streams.
//!
//! Flate goes through `flate2` into a scratch buffer. LZW and RunLength are counted here
//! from their codes alone (ISO 32000-1, 7.4.4 and 7.4.5): an LZW code's output length is
//! its table entry's length, one more than the entry it extends, so a table of lengths is
//! enough, and nothing is materialized.

use std::io::Read;

/// The filters whose output the guard measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Coding {
    /// zlib/deflate (`/FlateDecode`).
    Flate,
    /// `/LZWDecode`, with its `/EarlyChange` (1 unless the dictionary says 0).
    Lzw { early_change: bool },
    /// `/RunLengthDecode`.
    RunLength,
}

/// Bytes `data` decodes to under `coding`, or a number over `stop` once it passes `stop`.
/// A damaged tail ends the count where it is (the parser copes with such tails; only the
/// size matters here).
pub(super) fn decoded_len(coding: Coding, data: &[u8], stop: u64) -> u64 {
    match coding {
        Coding::Flate => flate_len(data, stop),
        Coding::Lzw { early_change } => lzw_len(data, early_change, stop),
        Coding::RunLength => run_length_len(data, stop),
    }
}

fn flate_len(data: &[u8], stop: u64) -> u64 {
    let mut decoder = flate2::bufread::ZlibDecoder::new(data);
    let mut chunk = vec![0u8; 64 * 1024];
    let mut produced = 0u64;
    while produced <= stop {
        match decoder.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => produced += n as u64,
        }
    }
    produced
}

fn run_length_len(data: &[u8], stop: u64) -> u64 {
    let mut produced = 0u64;
    let mut at = 0usize;
    while let Some(&n) = data.get(at) {
        if produced > stop {
            break;
        }
        match n {
            128 => break,
            0..=127 => {
                // A literal run: the next n + 1 bytes (fewer if the data ends).
                let len = (usize::from(n) + 1).min(data.len() - at - 1);
                produced += len as u64;
                at += 1 + usize::from(n) + 1;
            }
            _ => {
                if at + 1 >= data.len() {
                    break;
                }
                produced += 257 - u64::from(n);
                at += 2;
            }
        }
    }
    produced
}

const LZW_CLEAR: u16 = 256;
const LZW_END: u16 = 257;
const LZW_FIRST: u16 = 258;
const LZW_TABLE: usize = 4096;

fn lzw_len(data: &[u8], early_change: bool, stop: u64) -> u64 {
    let early = u16::from(early_change);
    let mut lengths = vec![0u32; LZW_TABLE];
    let mut bits = Bits {
        data,
        at: 0,
        acc: 0,
        held: 0,
    };
    let mut next = LZW_FIRST;
    let mut width = 9u32;
    // Length of the previous code's output; 0 right after a clear code.
    let mut previous = 0u32;
    let mut produced = 0u64;
    while produced <= stop {
        let Some(code) = bits.read(width) else { break };
        let len = match code {
            LZW_CLEAR => {
                next = LZW_FIRST;
                width = 9;
                previous = 0;
                continue;
            }
            LZW_END => break,
            0..=255 => 1,
            c if c < next => lengths[usize::from(c)],
            // The code being defined by this very step: the previous output plus its own
            // first byte. Anything past it is a corrupt stream; the decoder stops there.
            c if c == next && previous > 0 => previous + 1,
            _ => break,
        };
        if previous > 0 && usize::from(next) < LZW_TABLE {
            lengths[usize::from(next)] = previous + 1;
            next += 1;
        }
        previous = len;
        produced += u64::from(len);
        // The code width grows when the next code no longer fits, one code early with
        // EarlyChange 1; it never exceeds 12 bits.
        let limit = next + early;
        width = match limit {
            0..=511 => 9,
            512..=1023 => 10,
            1024..=2047 => 11,
            _ => 12,
        };
    }
    produced
}

/// A most-significant-bit-first reader of variable-width codes.
struct Bits<'d> {
    data: &'d [u8],
    at: usize,
    acc: u32,
    held: u32,
}

impl Bits<'_> {
    fn read(&mut self, width: u32) -> Option<u16> {
        while self.held < width {
            let byte = *self.data.get(self.at)?;
            self.at += 1;
            self.acc = (self.acc << 8) | u32::from(byte);
            self.held += 8;
        }
        self.held -= width;
        let code = (self.acc >> self.held) & ((1 << width) - 1);
        self.acc &= (1 << self.held) - 1;
        Some(code as u16)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A plain LZW encoder (PDF's variant, EarlyChange 1), for checking the counter.
    fn lzw_encode(input: &[u8]) -> Vec<u8> {
        use std::collections::HashMap;
        let mut out = Vec::new();
        let (mut acc, mut held) = (0u64, 0u32);
        let mut emit = |code: u16, width: u32, out: &mut Vec<u8>| {
            acc = (acc << width) | u64::from(code);
            held += width;
            while held >= 8 {
                held -= 8;
                out.push((acc >> held) as u8);
            }
            acc &= (1 << held) - 1;
        };
        let mut table: HashMap<Vec<u8>, u16> = HashMap::new();
        let mut next = LZW_FIRST;
        let width_for = |next: u16| match next + 1 {
            0..=511 => 9,
            512..=1023 => 10,
            1024..=2047 => 11,
            _ => 12,
        };
        emit(LZW_CLEAR, 9, &mut out);
        let mut current: Vec<u8> = Vec::new();
        for &b in input {
            let mut grown = current.clone();
            grown.push(b);
            if grown.len() == 1 || table.contains_key(&grown) {
                current = grown;
                continue;
            }
            let code = if current.len() == 1 {
                u16::from(current[0])
            } else {
                table[&current]
            };
            emit(code, width_for(next - 1), &mut out);
            if usize::from(next) < LZW_TABLE - 1 {
                table.insert(grown, next);
                next += 1;
            }
            current = vec![b];
        }
        if !current.is_empty() {
            let code = if current.len() == 1 {
                u16::from(current[0])
            } else {
                table[&current]
            };
            emit(code, width_for(next - 1), &mut out);
            next += 1;
        }
        emit(LZW_END, width_for(next - 1), &mut out);
        if held > 0 {
            out.push((acc << (8 - held)) as u8);
        }
        out
    }

    #[test]
    fn lzw_counts_what_the_encoder_put_in() {
        for input in [
            b"-----A---B".to_vec(),
            b"BT /F1 12 Tf (Hello, world) Tj ET\n".repeat(400),
            vec![0u8; 100_000],
            (0..3_000u32).map(|i| (i * 7919 % 251) as u8).collect(),
        ] {
            let encoded = lzw_encode(&input);
            assert_eq!(
                decoded_len(Coding::Lzw { early_change: true }, &encoded, u64::MAX),
                input.len() as u64
            );
        }
    }

    /// Packs LZW codes most significant bit first at PDF's widths (EarlyChange 1), for
    /// streams built code by code.
    pub(in crate::pdf::guard) fn pack_lzw(codes: &[u16]) -> Vec<u8> {
        let (mut out, mut acc, mut held) = (Vec::new(), 0u64, 0u32);
        let mut next = 258u32;
        for (i, &code) in codes.iter().enumerate() {
            let width = match next + 1 {
                0..=511 => 9,
                512..=1023 => 10,
                1024..=2047 => 11,
                _ => 12,
            };
            acc = (acc << width) | u64::from(code);
            held += width;
            while held >= 8 {
                held -= 8;
                out.push((acc >> held) as u8);
            }
            acc &= (1 << held) - 1;
            // The decoder adds an entry from the second data code on.
            if i >= 2 && code != LZW_END {
                next += 1;
            }
        }
        if held > 0 {
            out.push((acc << (8 - held)) as u8);
        }
        out
    }

    /// Codes of a run of one byte, each code one longer than the last: 2,828 codes (about
    /// 4 KiB) for 4 MB.
    pub(in crate::pdf::guard) fn lzw_bomb() -> Vec<u8> {
        let mut codes = vec![LZW_CLEAR, u16::from(b'x')];
        codes.extend(LZW_FIRST..LZW_FIRST + 2_826);
        codes.push(LZW_END);
        pack_lzw(&codes)
    }

    #[test]
    fn an_lzw_bomb_stops_soon_after_the_bound() {
        let bomb = lzw_bomb();
        let total = decoded_len(Coding::Lzw { early_change: true }, &bomb, u64::MAX);
        assert_eq!(total, 2_827 * 2_828 / 2);
        let n = decoded_len(Coding::Lzw { early_change: true }, &bomb, 1000);
        assert!(n > 1000 && n < 5_000, "{n}");
    }

    #[test]
    fn run_length_counts_literals_and_repeats() {
        // 3 literal bytes, a run of 128 'a' (257 - 129), a run of 2 'b', end of data, junk.
        let data = [2, b'x', b'y', b'z', 129, b'a', 255, b'b', 128, 5, 5];
        assert_eq!(decoded_len(Coding::RunLength, &data, u64::MAX), 133);
        // A truncated literal counts what is there.
        assert_eq!(decoded_len(Coding::RunLength, &[10, 1, 2], u64::MAX), 2);
        // 64-fold per two bytes, stopped at the bound.
        let bomb = [129u8, 0].repeat(1_000_000);
        let n = decoded_len(Coding::RunLength, &bomb, 10_000);
        assert!(n > 10_000 && n < 10_200, "{n}");
    }

    #[test]
    fn garbage_never_panics() {
        for seed in 0..200u32 {
            let data: Vec<u8> = (0..(seed * 13 % 700))
                .map(|i| (i.wrapping_mul(seed).wrapping_add(seed * 31) % 256) as u8)
                .collect();
            for coding in [
                Coding::Flate,
                Coding::Lzw { early_change: true },
                Coding::Lzw {
                    early_change: false,
                },
                Coding::RunLength,
            ] {
                let _ = decoded_len(coding, &data, 1 << 20);
            }
        }
    }
}
