//! LZCOMP, the entropy-coded LZ77 of MicroType Express (MTX spec, "LZCOMP compression").
//!
//! One compressed block is a bit stream read most significant bit first:
//!
//! 1. one bit, "run-length coded" (absent in MTX version 1 streams, where it is 0);
//! 2. 24 bits, the length `n` of the LZ output;
//! 3. symbols of three adaptive Huffman models until `n` bytes are out: `sym` (256
//!    literals, the copy symbols `256 + 8·(ranges-1) + lengthBits`, and `DUP2`/`DUP4`/
//!    `DUP6`, one byte repeated from 2, 4 or 6 back), `len` (length continuation, 2 bits
//!    and a "more" bit per symbol) and `dist` (3 distance bits per symbol, as many symbols
//!    as the copy symbol says). Distances of 512 and more carry one implied extra byte of
//!    length.
//!
//! The history starts with a fixed 7,168-byte preload (every pair `k, j` for `k < 32`,
//! `j < 96`, then each byte value four times), so early copies can reach into it.
//! When the run-length bit is set, the LZ output is itself run-length coded: its first
//! byte is the escape; `escape, 0` is a literal escape, `escape, count, byte` a run.
//!
//! Every model is the classic sibling-property adaptive Huffman tree (node 1 the root,
//! node `i`'s children `2i` and `2i+1` at the start, leaves weight 1), with the spec's
//! fixed warm-up of the weights; see [`Model::new`].

use super::MtxError;

/// Bytes of the history preload.
const PRELOAD: usize = 2 * 32 * 96 + 4 * 256;
/// Distances from this one on imply one more byte of length.
const FAR_DISTANCE: usize = 512;
/// Smallest copy length.
const LEN_MIN: usize = 2;

/// MSB-first bit reader over one block; reading past its end is an error.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
    current: u8,
    left: u8,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8]) -> Self {
        Bits {
            data,
            at: 0,
            current: 0,
            left: 0,
        }
    }

    fn bit(&mut self) -> Result<bool, MtxError> {
        if self.left == 0 {
            self.current = *self.data.get(self.at).ok_or(MtxError::Truncated)?;
            self.at += 1;
            self.left = 8;
        }
        self.left -= 1;
        Ok(self.current >> self.left & 1 == 1)
    }

    fn value(&mut self, bits: u32) -> Result<usize, MtxError> {
        let mut v = 0usize;
        for _ in 0..bits {
            v = v << 1 | usize::from(self.bit()?);
        }
        Ok(v)
    }
}

#[derive(Clone, Copy, Default)]
struct Node {
    up: u16,
    left: u16,
    right: u16,
    /// The symbol of a leaf; `None` for an inner node.
    code: Option<u16>,
    weight: u32,
}

/// One adaptive Huffman model over the symbols `0..range`.
struct Model {
    /// `tree[0]` is unused; `tree[1]` is the root; `2·range` nodes in all.
    tree: Vec<Node>,
    /// Where each symbol's leaf is.
    leaf: Vec<u16>,
}

const ROOT: usize = 1;

impl Model {
    /// A fresh model. `range` is at most 512 (the sym model of a 16 MiB block has 323).
    fn new(range: usize) -> Self {
        debug_assert!((2..512).contains(&range));
        let mut tree = vec![Node::default(); 2 * range];
        for (i, node) in tree.iter_mut().enumerate().skip(2) {
            node.up = (i / 2) as u16;
            node.weight = 1;
        }
        for (i, node) in tree.iter_mut().enumerate().take(range).skip(ROOT) {
            node.left = (2 * i) as u16;
            node.right = (2 * i + 1) as u16;
        }
        let mut leaf = Vec::with_capacity(range);
        for s in 0..range {
            tree[range + s].code = Some(s as u16);
            leaf.push((range + s) as u16);
        }
        // Inner weights are the sums of their children: children have higher indices,
        // so one pass from the last inner node up to the root settles them.
        for i in (ROOT..range).rev() {
            tree[i].weight = tree[2 * i].weight + tree[2 * i + 1].weight;
        }
        let mut model = Model { tree, leaf };
        // The spec's warm-up: the sym model (more than 256 symbols) favours the two
        // shortest copy symbols and the DUP2/DUP4 repeats; the small models count every
        // symbol twice.
        if range > 256 {
            model.bump(256);
            model.bump(257);
            for _ in 0..12 {
                model.bump(range - 3);
            }
            for _ in 0..6 {
                model.bump(range - 2);
            }
        } else {
            for _ in 0..2 {
                for s in 0..range {
                    model.bump(s);
                }
            }
        }
        model
    }

    fn bump(&mut self, symbol: usize) {
        let a = usize::from(self.leaf[symbol]);
        self.update(a);
    }

    /// Adds one to the weight of node `a` and its ancestors, first swapping each with the
    /// leftmost node of equal weight so the nodes stay in decreasing weight order.
    fn update(&mut self, mut a: usize) {
        while a != ROOT {
            let weight = self.tree[a].weight;
            let mut b = a - 1;
            if self.tree[b].weight == weight {
                while b > ROOT && self.tree[b - 1].weight == weight {
                    b -= 1;
                }
                if b > ROOT {
                    self.swap(a, b);
                    a = b;
                }
            }
            self.tree[a].weight = weight + 1;
            a = usize::from(self.tree[a].up);
        }
        self.tree[ROOT].weight += 1;
    }

    /// Exchanges the subtrees at `a` and `b` (their parents stay where they are).
    fn swap(&mut self, a: usize, b: usize) {
        let (up_a, up_b) = (self.tree[a].up, self.tree[b].up);
        self.tree.swap(a, b);
        self.tree[a].up = up_a;
        self.tree[b].up = up_b;
        for at in [a, b] {
            let node = self.tree[at];
            match node.code {
                Some(code) => self.leaf[usize::from(code)] = at as u16,
                None => {
                    self.tree[usize::from(node.left)].up = at as u16;
                    self.tree[usize::from(node.right)].up = at as u16;
                }
            }
        }
    }

    fn read(&mut self, bits: &mut Bits<'_>) -> Result<usize, MtxError> {
        let mut a = ROOT;
        // A tree of `range` leaves is at most `range` deep: the loop is bounded even on
        // a corrupt tree, and every step eats one input bit.
        for _ in 0..self.leaf.len() {
            let node = self.tree[a];
            a = usize::from(if bits.bit()? { node.right } else { node.left });
            if let Some(code) = self.tree[a].code {
                self.update(a);
                return Ok(usize::from(code));
            }
        }
        Err(MtxError::Corrupt)
    }
}

/// Decompresses one LZCOMP block of an MTX stream of `version` into at most `cap` bytes.
pub(super) fn decompress(input: &[u8], version: u8, cap: usize) -> Result<Vec<u8>, MtxError> {
    let mut bits = Bits::new(input);
    let run_length = version != 1 && bits.bit()?;
    let mut dist = Model::new(8);
    let mut len = Model::new(8);
    let out_len = bits.value(24)?;
    if out_len > cap {
        return Err(MtxError::TooLarge);
    }
    // The smallest number of 3-bit distance groups that reaches across the output.
    let mut ranges = 1usize;
    while (1usize << (3 * ranges)) < out_len {
        ranges += 1;
    }
    let dup2 = 256 + 8 * ranges;
    let mut sym = Model::new(dup2 + 3);

    // The history: preload, then the output. Reserved from the claimed length only after
    // that was checked against the cap.
    let mut history = Vec::with_capacity(PRELOAD + out_len);
    for k in 0..32u8 {
        for j in 0..96u8 {
            history.push(k);
            history.push(j);
        }
    }
    for j in 0..=255u8 {
        history.extend_from_slice(&[j; 4]);
    }
    let end = PRELOAD + out_len;
    while history.len() < end {
        let symbol = sym.read(&mut bits)?;
        if symbol < 256 {
            history.push(symbol as u8);
            continue;
        }
        if symbol >= dup2 {
            let back = 2 * (symbol - dup2 + 1);
            let byte = history[history.len() - back];
            history.push(byte);
            continue;
        }
        // A copy: length bits (2 per group, the third bit says another group follows),
        // then `groups` 3-bit distance symbols.
        let first = symbol - 256;
        let groups = first / 8 + 1;
        let mut code = first % 8;
        let mut length = 0usize;
        loop {
            length = length << 2 | (code & 3);
            if code & 4 == 0 {
                break;
            }
            if length > out_len {
                return Err(MtxError::Corrupt);
            }
            code = len.read(&mut bits)?;
        }
        length += LEN_MIN;
        let mut distance = 0usize;
        for _ in 0..groups {
            distance = distance << 3 | dist.read(&mut bits)?;
        }
        distance += 1;
        if distance >= FAR_DISTANCE {
            length += 1;
        }
        // `distance` counts back from the last byte of the copy to its source's last.
        let back = distance + length - 1;
        if back > history.len() || history.len() + length > end {
            return Err(MtxError::Corrupt);
        }
        let start = history.len() - back;
        for i in 0..length {
            let byte = history[start + i];
            history.push(byte);
        }
    }
    let lz = history.split_off(PRELOAD);
    if run_length {
        unrun(&lz, cap)
    } else {
        Ok(lz)
    }
}

/// Undoes the run-length stage: the first byte is the escape; `escape 0` is the escape
/// byte itself, `escape n b` is `n` times `b`. At most `cap` bytes come out.
fn unrun(data: &[u8], cap: usize) -> Result<Vec<u8>, MtxError> {
    let Some((&escape, mut rest)) = data.split_first() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(data.len().min(cap));
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != escape {
            out.push(b);
        } else {
            match rest {
                [0, tail @ ..] => {
                    out.push(escape);
                    rest = tail;
                }
                [count, byte, tail @ ..] => {
                    out.resize(out.len() + usize::from(*count), *byte);
                    rest = tail;
                }
                _ => return Err(MtxError::Truncated),
            }
        }
        if out.len() > cap {
            return Err(MtxError::TooLarge);
        }
    }
    Ok(out)
}

/// A literal-only LZCOMP writer, for building test streams (hostile and valid ones)
/// without a real encoder: every byte a literal symbol of the sym model.
#[cfg(test)]
pub(super) fn literal_stream(data: &[u8], run_length: bool, claimed_len: usize) -> Vec<u8> {
    let mut bits = vec![run_length];
    for i in (0..24).rev() {
        bits.push(claimed_len >> i & 1 == 1);
    }
    let mut ranges = 1usize;
    while (1usize << (3 * ranges)) < claimed_len {
        ranges += 1;
    }
    let mut sym = Model::new(256 + 8 * ranges + 3);
    for &b in data {
        let leaf = usize::from(sym.leaf[usize::from(b)]);
        let mut path = Vec::new();
        let mut a = leaf;
        while a != ROOT {
            let up = usize::from(sym.tree[a].up);
            path.push(usize::from(sym.tree[up].right) == a);
            a = up;
        }
        bits.extend(path.iter().rev());
        sym.update(leaf);
    }
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |v, (i, &b)| v | u8::from(b) << (7 - i))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_streams_round_trip() {
        let data: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 251) as u8).collect();
        let stream = literal_stream(&data, false, data.len());
        assert_eq!(decompress(&stream, 3, 1 << 20).unwrap(), data);
        // Version 1 has no run-length bit: the same stream read so is garbage or an error.
        assert_ne!(decompress(&stream, 1, 1 << 20).ok(), Some(data.clone()));
        // Cut anywhere, it is an error, not a panic.
        for cut in [0, 1, 3, 4, stream.len() / 2, stream.len() - 1] {
            assert_eq!(
                decompress(&stream[..cut], 3, 1 << 20),
                Err(MtxError::Truncated)
            );
        }
    }

    #[test]
    fn a_claimed_length_past_the_cap_is_refused_before_any_work() {
        // The 24-bit length field tops out at 16 MiB; a cap below it refuses at once.
        let stream = literal_stream(b"", false, 0xFF_FFFF);
        assert_eq!(decompress(&stream, 3, 1 << 20), Err(MtxError::TooLarge));
    }

    #[test]
    fn run_length_expansion_is_capped() {
        // Escape 0, then runs of 255: 3 bytes each become 255 — a 2 GiB claim in effect
        // would need only 25 MiB of such runs; the cap stops it at once.
        let mut lz = vec![0u8];
        for _ in 0..1000 {
            lz.extend_from_slice(&[0, 255, 7]);
        }
        let stream = literal_stream(&lz, true, lz.len());
        assert_eq!(decompress(&stream, 3, 100_000), Err(MtxError::TooLarge));
        assert_eq!(decompress(&stream, 3, 1 << 20).unwrap().len(), 255_000);
    }

    #[test]
    fn the_models_start_in_sibling_order() {
        for range in [8, 267, 323] {
            let m = Model::new(range);
            for i in ROOT..2 * range - 1 {
                assert!(
                    m.tree[i].weight >= m.tree[i + 1].weight,
                    "range {range} at {i}"
                );
            }
            for (s, &at) in m.leaf.iter().enumerate() {
                assert_eq!(m.tree[usize::from(at)].code, Some(s as u16));
            }
        }
    }

    #[test]
    fn a_run_length_stream_unruns() {
        assert_eq!(
            unrun(&[9, 1, 9, 0, 9, 4, 7, 2], 100).unwrap(),
            [1, 9, 7, 7, 7, 7, 2]
        );
        assert_eq!(unrun(&[9, 9, 200, 7], 100), Err(MtxError::TooLarge));
        assert_eq!(unrun(&[9, 9], 100), Err(MtxError::Truncated));
    }
}
