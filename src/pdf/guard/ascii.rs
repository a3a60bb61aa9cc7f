//! A stream's filter chain as the guard reads it, and its leading ASCII filters undone.
//!
//! `ASCIIHexDecode` and `ASCII85Decode` only re-spell bytes (their output is smaller than
//! their input), but whatever they spell is what the next filter decodes: a deflate bomb or
//! a JBIG2 page of gigapixels written in hex looks like text to a guard that reads only the
//! raw bytes. Undoing them costs at most the stream's own size, so the guard does it and
//! measures what follows as if it were the stream.

use std::borrow::Cow;

/// The filter names of a stream's dictionary, in order (`/Filter /A` or `/Filter [/A /B]`),
/// without their slashes. A filter given by reference is not read (nothing is returned).
pub(super) fn filter_names(dict: &[u8]) -> Vec<&[u8]> {
    let Some(at) = super::find(dict, b"/Filter", 0) else {
        return Vec::new();
    };
    let rest = &dict[at + b"/Filter".len()..];
    let start = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    let list = match rest.first() {
        Some(b'[') => {
            let end = rest.iter().position(|b| *b == b']').unwrap_or(rest.len());
            &rest[1..end]
        }
        Some(b'/') => {
            let end = 1 + rest[1..]
                .iter()
                .position(|b| !b.is_ascii_alphanumeric())
                .unwrap_or(rest.len() - 1);
            &rest[..end]
        }
        _ => return Vec::new(),
    };
    list.split(|b| *b == b'/')
        .skip(1)
        .map(|name| {
            let end = name
                .iter()
                .position(|b| !b.is_ascii_alphanumeric())
                .unwrap_or(name.len());
            &name[..end]
        })
        .collect()
}

/// `data` with the ASCII filters at the head of `filters` undone, and the filters left.
pub(super) fn undo_leading<'d, 'n>(
    filters: &'n [&'n [u8]],
    data: &'d [u8],
) -> (Cow<'d, [u8]>, &'n [&'n [u8]]) {
    let mut data = Cow::Borrowed(data);
    let mut rest = filters;
    while let Some((first, tail)) = rest.split_first() {
        let decoded = match *first {
            b"ASCIIHexDecode" | b"AHx" => hex(&data),
            b"ASCII85Decode" | b"A85" => base85(&data),
            _ => break,
        };
        data = Cow::Owned(decoded);
        rest = tail;
    }
    (data, rest)
}

/// ASCIIHexDecode (ISO 32000-1, 7.4.2): hex digits up to `>`, whitespace ignored, an odd
/// last digit followed by 0. Other bytes end the data (the parser fails there too).
fn hex(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut high: Option<u8> = None;
    for &b in data {
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            b if b.is_ascii_whitespace() => continue,
            _ => break,
        };
        match high.take() {
            Some(h) => out.push(h << 4 | digit),
            None => high = Some(digit),
        }
    }
    if let Some(h) = high {
        out.push(h << 4);
    }
    out
}

/// ASCII85Decode (ISO 32000-1, 7.4.3): groups of five digits `!`..`u` to four bytes, `z`
/// for four zeros, a short last group, up to `~>`. Other bytes end the data.
fn base85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 5 * 4 + 4);
    let mut group = [0u8; 5];
    let mut n = 0;
    let flush = |group: &[u8; 5], n: usize, out: &mut Vec<u8>| {
        if n < 2 {
            return;
        }
        let mut padded = *group;
        padded[n..].fill(84);
        let value = padded.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
        let bytes = (value as u32).to_be_bytes();
        out.extend_from_slice(&bytes[..n - 1]);
    };
    for &b in data {
        match b {
            b'!'..=b'u' => {
                group[n] = b - b'!';
                n += 1;
                if n == 5 {
                    flush(&group, 5, &mut out);
                    n = 0;
                }
            }
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b if b.is_ascii_whitespace() => {}
            _ => break,
        }
    }
    flush(&group, n, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_chains_are_read_and_ascii_heads_undone() {
        assert_eq!(
            filter_names(b"<< /Filter /FlateDecode >>"),
            [b"FlateDecode"]
        );
        assert_eq!(
            filter_names(b"<< /Filter [/AHx /Fl /JBIG2Decode] /Length 3 >>"),
            [&b"AHx"[..], b"Fl", b"JBIG2Decode"]
        );
        assert!(filter_names(b"<< /Filter 5 0 R >>").is_empty());
        assert!(filter_names(b"<< /Length 5 >>").is_empty());

        assert_eq!(hex(b"48 65 6c6C6f>"), b"Hello");
        assert_eq!(hex(b"414>"), b"A@");
        // "Man " and "sure" in the encoding's own example, a zero group and a short tail.
        assert_eq!(base85(b"9jqo^F*2M7z/c~>"), b"Man sure\0\0\0\0.");
        let names = filter_names(b"<< /Filter [/ASCIIHexDecode /ASCII85Decode /RL] >>");
        let (data, rest) = undo_leading(&names, b"3c 7e>");
        assert_eq!((data.as_ref(), rest), (&b""[..], &[&b"RL"[..]][..]));
    }
}
