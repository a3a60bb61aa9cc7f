//! The bitmap sizes a JBIG2 image asks for, read from its segment headers (ITU T.88, 7.2
//! and 7.4) without decoding anything.
//!
//! A JBIG2 stream in a PDF is a sequence of segments (the embedded organization, ISO
//! 32000-1, 7.4.7). Its page information segment gives the size of the page bitmap the
//! decoder allocates, and every region segment the size of one region bitmap; neither has
//! to agree with the image dictionary's `/Width` and `/Height`. hayro's decoder accepts up
//! to 65,535 × 65,535 (half a gigabyte of bits, then a byte per pixel), so a few bytes can
//! ask for gigabytes: the guard holds these sizes to `pdf.max_image_pixels`.

/// Segment types whose data starts with a region segment information field (T.88, 7.4.1):
/// text, halftone, generic and generic refinement regions (intermediate and immediate).
const REGION_TYPES: [u8; 12] = [4, 6, 7, 20, 22, 23, 36, 38, 39, 40, 42, 43];
/// The page information segment (T.88, 7.4.8).
const PAGE_INFORMATION: u8 = 48;
/// Segments read at most; a real image has a handful.
const MAX_SEGMENTS: usize = 10_000;

/// The largest bitmap (width, height in pixels) the segments of `data` declare, by area.
/// Reading stops at the first header that does not parse, or at a segment of unknown
/// length (its data is not skipped over); what was read until then counts.
pub(super) fn largest_bitmap(data: &[u8]) -> Option<(u64, u64)> {
    let mut at = 0;
    let mut largest: Option<(u64, u64)> = None;
    for _ in 0..MAX_SEGMENTS {
        let Some(header) = segment_header(data, at) else {
            break;
        };
        let body = data.get(header.data_at..).unwrap_or_default();
        if header.kind == PAGE_INFORMATION || REGION_TYPES.contains(&header.kind) {
            if let (Some(w), Some(h)) = (be32(body, 0), be32(body, 4)) {
                // A page of unknown height (0xFFFFFFFF) grows by stripes, each of them a
                // region with its own size, so only its width is known here.
                let h = if h == u32::MAX { 0 } else { h };
                let size = (u64::from(w), u64::from(h));
                if largest.is_none_or(|(lw, lh)| size.0 * size.1 > lw * lh) {
                    largest = Some(size);
                }
            }
        }
        let Some(length) = header.length else { break };
        let Some(next) = header.data_at.checked_add(length as usize) else {
            break;
        };
        at = next;
    }
    largest
}

struct Header {
    kind: u8,
    data_at: usize,
    /// `None` when the length is unknown (0xFFFFFFFF).
    length: Option<u32>,
}

/// The header of the segment at `at` (T.88, 7.2).
fn segment_header(data: &[u8], at: usize) -> Option<Header> {
    let number = be32(data, at)?;
    let flags = *data.get(at + 4)?;
    let mut p = at + 5;
    let first = *data.get(p)?;
    let referred = match first >> 5 {
        7 => {
            let count = be32(data, p)? & 0x1fff_ffff;
            p += 4 + (count as usize + 1).div_ceil(8);
            count
        }
        5 | 6 => return None,
        short => {
            p += 1;
            u32::from(short)
        }
    };
    let number_size = match number {
        0..=256 => 1,
        257..=65_536 => 2,
        _ => 4,
    };
    p = p.checked_add(referred as usize * number_size)?;
    p += if flags & 0x40 != 0 { 4 } else { 1 };
    let length = be32(data, p)?;
    Some(Header {
        kind: flags & 0x3f,
        data_at: p + 4,
        length: (length != u32::MAX).then_some(length),
    })
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    let b = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A segment header (number, type, no referred segments, page 1) and its data.
    pub(in crate::pdf::guard) fn segment(number: u32, kind: u8, body: &[u8]) -> Vec<u8> {
        let mut s = number.to_be_bytes().to_vec();
        s.extend_from_slice(&[kind, 0, 1]);
        s.extend_from_slice(&(body.len() as u32).to_be_bytes());
        s.extend_from_slice(body);
        s
    }

    /// A page information segment's data for a `w` × `h` page.
    pub(in crate::pdf::guard) fn page_info(w: u32, h: u32) -> Vec<u8> {
        let mut b = w.to_be_bytes().to_vec();
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[0, 0, 0]);
        b
    }

    #[test]
    fn the_largest_page_or_region_is_found() {
        let mut data = segment(0, PAGE_INFORMATION, &page_info(100, 50));
        let mut region = 3000u32.to_be_bytes().to_vec();
        region.extend_from_slice(&2000u32.to_be_bytes());
        region.extend_from_slice(&[0; 9]);
        data.extend(segment(1, 38, &region));
        data.extend(segment(2, 50, &[])); // end of page
        assert_eq!(largest_bitmap(&data), Some((3000, 2000)));
        // A striped page of unknown height counts by its regions.
        let data = segment(0, PAGE_INFORMATION, &page_info(100, u32::MAX));
        assert_eq!(largest_bitmap(&data), Some((100, 0)));
        // Garbage declares nothing.
        assert_eq!(largest_bitmap(b"not jbig2"), None);
        assert_eq!(largest_bitmap(&[]), None);
    }
}
