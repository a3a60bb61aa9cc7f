//! A bounded pass over a PDF's bytes before the parser sees them.
//!
//! hayro inflates a stream whole when it first reads it (the cross-reference stream while
//! opening, a content stream when a page is interpreted) and has no cap of its own, so a
//! one-megabyte file can ask for gigabytes. This pass finds every `stream … endstream` in the
//! raw bytes, inflates each zlib stream into a counter (nothing is kept) and stops at the
//! caps: the whole scan costs at most `max_total_inflated_bytes` of inflating. It also
//! counts objects and reads the size of every image from its dictionary (and a JPEG 2000
//! image's from its own header, a JBIG2 image's from its page and region segments, in
//! `guard/jbig2.rs`), so oversized images are refused before a decoder allocates for them.
//!
//! Streams of an encrypted file are ciphertext here, so they are measured again after the
//! parser decrypted them ([`check_decrypted_streams`]).

mod ascii;
mod decoded;
mod jbig2;

use super::{PdfError, PdfLimits};
use decoded::{decoded_len, Coding};

/// What the pass saw, for the caller's later checks.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// `endobj` keywords in the file.
    pub objects: usize,
    /// Streams found.
    pub streams: usize,
    /// Bytes all zlib streams inflated to.
    pub inflated: u64,
    /// Whether the file names an `/Encrypt` dictionary.
    pub encrypted: bool,
}

/// Scans `bytes` within `limits`.
pub fn scan(bytes: &[u8], limits: &PdfLimits) -> Result<Scan, PdfError> {
    let mut out = Scan {
        objects: count(bytes, b"endobj"),
        encrypted: find(bytes, b"/Encrypt", 0).is_some(),
        ..Scan::default()
    };
    if out.objects > limits.max_objects {
        return Err(PdfError::limit(format!(
            "the file holds {} objects, over the limit of {} (pdf.max_objects)",
            out.objects, limits.max_objects
        )));
    }
    let mut at = 0;
    let mut budget = Budget::new(limits);
    while let Some(keyword) = find(bytes, b"stream", at) {
        at = keyword + 6;
        if keyword >= 3 && &bytes[keyword - 3..keyword] == b"end" {
            continue;
        }
        let Some(start) = data_start(bytes, at) else {
            continue;
        };
        let end = find(bytes, b"endstream", start).unwrap_or(bytes.len());
        let data = &bytes[start..end];
        out.streams += 1;
        let dict = preceding_dict(bytes, keyword);
        // Streams of an encrypted file are ciphertext here: ASCII filters apply after
        // decryption, so there is nothing to undo.
        let names = if out.encrypted {
            Vec::new()
        } else {
            ascii::filter_names(dict)
        };
        let (data, filters) = ascii::undo_leading(&names, data);
        let image_bytes = check_image(dict, &data, filters, limits)?;
        if !out.encrypted {
            budget.measure(
                &data,
                coding(dict, filters.first().copied(), &data),
                image_bytes,
            )?;
        }
        at = end;
    }
    out.inflated = budget.total;
    Ok(out)
}

/// Measures the decrypted zlib streams of an opened encrypted document.
pub fn check_decrypted_streams(
    pdf: &hayro::hayro_syntax::Pdf,
    limits: &PdfLimits,
) -> Result<(), PdfError> {
    let mut budget = Budget::new(limits);
    for object in pdf.objects() {
        if let hayro::hayro_syntax::object::Object::Stream(stream) = object {
            let data = stream.raw_data();
            budget.measure(&data, is_zlib(&data).then_some(Coding::Flate), None)?;
        }
    }
    Ok(())
}

struct Budget<'l> {
    limits: &'l PdfLimits,
    total: u64,
}

impl<'l> Budget<'l> {
    fn new(limits: &'l PdfLimits) -> Self {
        Budget { limits, total: 0 }
    }

    /// Counts what `data` decodes to under `coding`, against the caps.
    ///
    /// `image_bytes` is the most an image stream can decode to by its declared size. Such a
    /// stream is held to that size instead of to the ratio: a page-sized image of one colour
    /// deflates a thousandfold (a 1275 × 1650 white scan is 6 KiB for 6 MiB), and its
    /// declared size is already capped by `pdf.max_image_pixels`.
    fn measure(
        &mut self,
        data: &[u8],
        coding: Option<Coding>,
        image_bytes: Option<u64>,
    ) -> Result<(), PdfError> {
        let Some(coding) = coding else {
            return Ok(());
        };
        let l = self.limits;
        let by_ratio = (data.len() as u64).saturating_mul(l.max_inflate_ratio);
        let cap = l.max_stream_bytes.min(
            image_bytes
                .map_or(by_ratio, |b| b.max(by_ratio))
                .max(l.ratio_threshold_bytes),
        );
        let room = l.max_total_inflated_bytes.saturating_sub(self.total);
        let produced = decoded_len(coding, data, cap.min(room));
        if produced > room {
            return Err(PdfError::limit(format!(
                "the streams inflate to more than {} bytes together (pdf.max_total_inflated_bytes)",
                l.max_total_inflated_bytes
            )));
        }
        if produced > cap {
            return Err(PdfError::limit(if cap == l.max_stream_bytes {
                format!(
                    "a stream inflates to more than {} bytes (pdf.max_stream_bytes)",
                    l.max_stream_bytes
                )
            } else {
                format!(
                    "a stream of {} bytes inflates more than {}-fold (pdf.max_inflate_ratio)",
                    data.len(),
                    l.max_inflate_ratio
                )
            }));
        }
        self.total += produced;
        Ok(())
    }
}

/// How a stream's bytes (its ASCII filters undone) are coded, for the filters whose output
/// the guard measures: anything with a zlib header is inflated whatever its dictionary
/// says; otherwise the first filter left (`first`) decides (a later filter of a chain works
/// on that one's output, which is not materialized here).
fn coding(dict: &[u8], first: Option<&[u8]>, data: &[u8]) -> Option<Coding> {
    if is_zlib(data) {
        return Some(Coding::Flate);
    }
    match first? {
        b"LZWDecode" | b"LZW" => Some(Coding::Lzw {
            early_change: number_after(dict, b"/EarlyChange") != Some(0),
        }),
        b"RunLengthDecode" | b"RL" => Some(Coding::RunLength),
        _ => None,
    }
}

/// Whether `data` starts with a zlib header (deflate, valid check bits).
fn is_zlib(data: &[u8]) -> bool {
    match data {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

/// Where a stream's data starts: after `stream` and its end of line.
fn data_start(bytes: &[u8], after_keyword: usize) -> Option<usize> {
    match bytes.get(after_keyword..after_keyword + 2)? {
        [b'\r', b'\n'] => Some(after_keyword + 2),
        [b'\n', _] | [b'\r', _] => Some(after_keyword + 1),
        _ => None,
    }
}

/// The text between the `obj` keyword before `keyword` and it: the stream's dictionary (a
/// dictionary is never encrypted, only strings and stream data are).
fn preceding_dict(bytes: &[u8], keyword: usize) -> &[u8] {
    const WINDOW: usize = 4096;
    let from = keyword.saturating_sub(WINDOW);
    let window = &bytes[from..keyword];
    match rfind(window, b"obj") {
        Some(i) => &window[i..],
        None => window,
    }
}

/// Refuses an image whose declared (or, for JPEG 2000, encoded) size is over the cap.
/// For an image with a declared size, returns the most bytes its samples can take.
/// `data` and `filters` are the stream's bytes and filter chain with its ASCII filters
/// undone ([`ascii::undo_leading`]).
fn check_image(
    dict: &[u8],
    data: &[u8],
    filters: &[&[u8]],
    limits: &PdfLimits,
) -> Result<Option<u64>, PdfError> {
    if find(dict, b"/Image", 0).is_none() {
        return Ok(None);
    }
    let declared = match (
        number_after(dict, b"/Width"),
        number_after(dict, b"/Height"),
    ) {
        (Some(w), Some(h)) => Some((w, h)),
        _ => None,
    };
    // The codestream's own header, behind a Flate filter when one comes first. Behind
    // LZW or RunLength it is not read here, so such a chain is refused rather than handed
    // to a decoder that allocates what the header says.
    let codestream =
        find(dict, b"/JPXDecode", 0).is_some() || find(dict, b"/JBIG2Decode", 0).is_some();
    if codestream
        && filters
            .iter()
            .any(|f| matches!(*f, b"LZWDecode" | b"LZW" | b"RunLengthDecode" | b"RL"))
    {
        return Err(PdfError::Corrupt(
            "a JPEG 2000 or JBIG2 image behind LZW or RunLength coding is not read (its size cannot be checked)".into(),
        ));
    }
    let encoded = if find(dict, b"/JPXDecode", 0).is_some() {
        jpx_size(&head(data))
    } else if find(dict, b"/JBIG2Decode", 0).is_some() {
        jbig2::largest_bitmap(&head(data))
    } else {
        None
    };
    for (w, h) in [declared, encoded].into_iter().flatten() {
        if w.saturating_mul(h) > limits.max_image_pixels {
            return Err(PdfError::limit(format!(
                "an image of {w} × {h} pixels is over the limit of {} pixels (pdf.max_image_pixels)",
                limits.max_image_pixels
            )));
        }
    }
    Ok(declared.map(|(w, h)| sample_bytes(dict, w, h)))
}

/// The most bytes the samples of a `w` × `h` image can take: its rows of components, plus
/// one byte per row for a PNG predictor's tag. A colour space given by reference or as an
/// array may be a DeviceN of up to 32 colorants (ISO 32000-1, annex C), so that is assumed.
fn sample_bytes(dict: &[u8], w: u64, h: u64) -> u64 {
    let bits = number_after(dict, b"/BitsPerComponent")
        .unwrap_or(8)
        .clamp(1, 16);
    let components = if find(dict, b"/DeviceGray", 0).is_some() {
        1
    } else if find(dict, b"/DeviceRGB", 0).is_some() {
        3
    } else if find(dict, b"/DeviceCMYK", 0).is_some() {
        4
    } else {
        32
    };
    let row = w
        .saturating_mul(components * bits)
        .div_ceil(8)
        .saturating_add(1);
    row.saturating_mul(h)
}

/// The first bytes of an image stream's codestream: the data itself, or its first 64 KiB
/// inflated when it starts with a zlib header (`[/FlateDecode /JBIG2Decode]`).
fn head(data: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use std::io::Read;
    if !is_zlib(data) {
        return data.into();
    }
    let mut out = Vec::new();
    let _ = flate2::read::ZlibDecoder::new(data)
        .take(64 * 1024)
        .read_to_end(&mut out);
    out.into()
}

/// The image size in a JPEG 2000 codestream's SIZ marker (raw codestream or JP2 box).
fn jpx_size(data: &[u8]) -> Option<(u64, u64)> {
    let head = &data[..data.len().min(4096)];
    let siz = find(head, &[0xff, 0x51], 0)?;
    let field = |at: usize| -> Option<u64> {
        let b = head.get(siz + at..siz + at + 4)?;
        Some(u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    };
    // Marker (2), Lsiz (2), Rsiz (2), then Xsiz, Ysiz, XOsiz, YOsiz.
    let (x, y, xo, yo) = (field(6)?, field(10)?, field(14)?, field(18)?);
    Some((x.saturating_sub(xo), y.saturating_sub(yo)))
}

/// The unsigned integer right after `key` (a direct value; an indirect one is not read).
fn number_after(dict: &[u8], key: &[u8]) -> Option<u64> {
    let mut at = 0;
    while let Some(i) = find(dict, key, at) {
        at = i + key.len();
        // `/Width` must not match `/WidthFoo`.
        let rest = &dict[at..];
        let digits_from = rest.iter().position(|b| !b.is_ascii_whitespace())?;
        if digits_from == 0 && rest.first().is_some_and(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let digits: Vec<u8> = rest[digits_from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .copied()
            .take(19)
            .collect();
        return std::str::from_utf8(&digits).ok()?.parse().ok();
    }
    None
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let hay = hay.get(from..)?;
    let first = *needle.first()?;
    let mut at = 0;
    while at + needle.len() <= hay.len() {
        let i = at
            + hay[at..=hay.len() - needle.len()]
                .iter()
                .position(|b| *b == first)?;
        if hay[i..].starts_with(needle) {
            return Some(from + i);
        }
        at = i + 1;
    }
    None
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    let mut n = 0;
    let mut at = 0;
    while let Some(i) = find(hay, needle, at) {
        n += 1;
        at = i + needle.len();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn with_stream(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut f = format!("%PDF-1.7\n1 0 obj\n{dict}\nstream\n").into_bytes();
        f.extend_from_slice(data);
        f.extend_from_slice(b"\nendstream\nendobj\n");
        f
    }

    #[test]
    fn a_deflate_bomb_stops_at_the_ratio_cap() {
        let bomb = zlib(&vec![0u8; 32 * 1024 * 1024]);
        let file = with_stream("<< /Filter /FlateDecode >>", &bomb);
        let limits = PdfLimits {
            ratio_threshold_bytes: 1024 * 1024,
            ..PdfLimits::default()
        };
        let err = scan(&file, &limits).unwrap_err();
        assert!(err.to_string().contains("pdf.max_inflate_ratio"), "{err}");
    }

    #[test]
    fn a_flat_image_is_held_to_its_declared_size_not_the_ratio() {
        // A page-sized scan of one colour: a thousandfold, and exactly its declared size.
        let (w, h) = (1275usize, 1650usize);
        let samples = zlib(&vec![0xffu8; w * h * 3]);
        let dict = format!(
            "<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode >>"
        );
        let limits = PdfLimits {
            ratio_threshold_bytes: 1024 * 1024,
            ..PdfLimits::default()
        };
        assert!(
            samples.len() * 200 < w * h * 3,
            "the test needs a ratio over the cap"
        );
        let scan = scan(&with_stream(&dict, &samples), &limits).unwrap();
        assert_eq!(scan.inflated, (w * h * 3) as u64);

        // The same stream declared as a tiny image is still a bomb.
        let small = "<< /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceRGB /Filter /FlateDecode >>";
        let err = scan_err(&with_stream(small, &samples), &limits);
        assert!(err.contains("pdf.max_inflate_ratio"), "{err}");
    }

    #[test]
    fn run_length_and_lzw_bombs_stop_at_the_caps() {
        // RunLength expands 64-fold at most (two bytes for 128), under the default ratio.
        let limits = PdfLimits {
            ratio_threshold_bytes: 64 * 1024,
            max_inflate_ratio: 32,
            ..PdfLimits::default()
        };
        // 64 KiB of RunLength pairs decode to 4 MiB: 64-fold.
        let rl = [129u8, 0].repeat(32 * 1024);
        let err = scan_err(&with_stream("<< /Filter /RunLengthDecode >>", &rl), &limits);
        assert!(err.contains("pdf.max_inflate_ratio"), "{err}");
        // In an array, abbreviated, the same.
        let err = scan_err(&with_stream("<< /Filter [/RL] >>", &rl), &limits);
        assert!(err.contains("pdf.max_inflate_ratio"), "{err}");
        let bomb = decoded::tests::lzw_bomb();
        let err = scan_err(&with_stream("<< /Filter /LZWDecode >>", &bomb), &limits);
        assert!(err.contains("pdf.max_inflate_ratio"), "{err}");
        // A small RunLength stream passes and is counted.
        let ok = scan(
            &with_stream("<< /Filter /RunLengthDecode >>", &[2, 1, 2, 3, 128]),
            &limits,
        )
        .unwrap();
        assert_eq!(ok.inflated, 3);
    }

    fn scan_err(file: &[u8], limits: &PdfLimits) -> String {
        scan(file, limits).unwrap_err().to_string()
    }

    #[test]
    fn ordinary_streams_are_counted() {
        let text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET".repeat(100);
        let file = with_stream("<< /Filter /FlateDecode >>", &zlib(&text));
        let scan = scan(&file, &PdfLimits::default()).unwrap();
        assert_eq!(scan.streams, 1);
        assert_eq!(scan.objects, 1);
        assert_eq!(scan.inflated, text.len() as u64);
    }

    #[test]
    fn declared_and_encoded_image_sizes_are_capped() {
        let file = with_stream(
            "<< /Type /XObject /Subtype /Image /Width 200000 /Height 200000 >>",
            b"x",
        );
        assert!(scan(&file, &PdfLimits::default())
            .unwrap_err()
            .to_string()
            .contains("200000 × 200000"));
        let mut siz = vec![0xff, 0x4f, 0xff, 0x51, 0, 41, 0, 0];
        siz.extend_from_slice(&60_000u32.to_be_bytes());
        siz.extend_from_slice(&60_000u32.to_be_bytes());
        siz.extend_from_slice(&[0; 8]);
        let file = with_stream(
            "<< /Subtype /Image /Width 10 /Height 10 /Filter /JPXDecode >>",
            &siz,
        );
        assert!(scan(&file, &PdfLimits::default())
            .unwrap_err()
            .to_string()
            .contains("60000 × 60000"));
    }

    #[test]
    fn a_jbig2_bomb_is_refused_by_the_bitmap_its_segments_declare() {
        use jbig2::tests::{page_info, segment};
        // A 10 × 10 image whose page information segment asks for 60000 × 60000 (450 MB of
        // bits for the decoder, then a byte per pixel).
        let mut data = segment(0, 48, &page_info(60_000, 60_000));
        data.extend(segment(1, 49, &[]));
        let dict = "<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode >>";
        let err = scan_err(&with_stream(dict, &data), &PdfLimits::default());
        assert!(
            err.contains("60000 × 60000") && err.contains("pdf.max_image_pixels"),
            "{err}"
        );
        // The same behind a Flate filter.
        let dict = "<< /Subtype /Image /Width 10 /Height 10 /Filter [/FlateDecode /JBIG2Decode] >>";
        let err = scan_err(&with_stream(dict, &zlib(&data)), &PdfLimits::default());
        assert!(err.contains("60000 × 60000"), "{err}");
        // A page of the size the dictionary declares passes.
        let ok = segment(0, 48, &page_info(10, 10));
        let dict = "<< /Subtype /Image /Width 10 /Height 10 /Filter /JBIG2Decode >>";
        assert!(scan(&with_stream(dict, &ok), &PdfLimits::default()).is_ok());
    }
}
