//! MicroType Express on arbitrary bytes: the input as a bare MTX stream and as an EOT
//! file (the path `embedded::load` takes). A decoded font must stay under the caps and
//! carry a sorted table directory; nothing may panic or run away.

use previewd::office::fonts::embedded::unwrap_eot;
use previewd::office::fonts::mtx::{decode, EXPANSION_SLACK, MAX_DECODED_BYTES, MAX_EXPANSION};

/// One input.
pub fn run(data: &[u8]) {
    if let Ok(font) = decode(data) {
        assert!(
            font.len()
                <= MAX_DECODED_BYTES.min(data.len() * MAX_EXPANSION + EXPANSION_SLACK) + 4096
        );
        let tables = usize::from(u16::from_be_bytes([font[4], font[5]]));
        let records: Vec<&[u8]> = (0..tables)
            .map(|i| &font[12 + 16 * i..28 + 16 * i])
            .collect();
        assert!(
            records.windows(2).all(|w| w[0][..4] < w[1][..4]),
            "directory sorted"
        );
        for r in records {
            let be32 = |at: usize| u32::from_be_bytes(r[at..at + 4].try_into().unwrap()) as usize;
            assert!(be32(8) + be32(12) <= font.len(), "tables inside the font");
        }
    }
    // The same bytes as the font data of a compressed EOT.
    let mut eot = vec![0u8; 82];
    let total = (eot.len() + data.len()) as u32;
    eot[0..4].copy_from_slice(&total.to_le_bytes());
    eot[4..8].copy_from_slice(&(data.len() as u32).to_le_bytes());
    eot[8..12].copy_from_slice(&0x0002_0002u32.to_le_bytes());
    eot[12..16].copy_from_slice(&4u32.to_le_bytes());
    eot[34..36].copy_from_slice(&[0x4C, 0x50]);
    eot.extend_from_slice(data);
    let _ = unwrap_eot(&eot);
}
