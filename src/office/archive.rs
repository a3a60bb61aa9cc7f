//! The zip side of the container guard: counting entries before the central directory is
//! loaded, and inflating one entry under size, budget and ratio caps.
//!
//! Header sizes are hints, never trusted: inflation counts the bytes it actually produces
//! and stops one chunk past a limit, so a lying header costs at most one chunk.

use super::bytes::{le16, le32, le64};
use std::io::{Cursor, ErrorKind, Read};

use zip::result::ZipError;
use zip::ZipArchive;

use super::error::{human_bytes, OfficeError, OfficeErrorKind, OfficeResult};
use super::limits::OfficeLimits;

/// How much is inflated between two limit checks.
const CHUNK: usize = 64 * 1024;

/// The entry count an archive declares, read from its end-of-central-directory record
/// (zip64 aware). The zip reader reads exactly that many directory records, so a count
/// that lies low cannot make it read more.
///
/// This runs before the zip reader loads the central directory, so a package listing a
/// million entries is refused without allocating a million records. `None` when no
/// record is found (the zip reader then reports the damage).
pub(crate) fn declared_entry_count(bytes: &[u8]) -> Option<u64> {
    const EOCD: [u8; 4] = *b"PK\x05\x06";
    const EOCD_LEN: usize = 22;
    let search_from = bytes.len().saturating_sub(EOCD_LEN + u16::MAX as usize);
    let tail = bytes.get(search_from..)?;
    let rel = tail
        .windows(4)
        .rposition(|w| w == EOCD)
        .filter(|&p| p + EOCD_LEN <= tail.len())?;
    let eocd = search_from + rel;
    let entries = u64::from(le16(bytes, eocd + 10)?);
    let dir_size = le32(bytes, eocd + 12)?;
    let mut count = entries;
    if entries == 0xFFFF || dir_size == 0xFFFF_FFFF {
        // Zip64: the locator sits just before the classic record and points at the
        // zip64 end record, whose entry count and directory size are 64-bit.
        if let Some(loc) = eocd.checked_sub(20) {
            if bytes.get(loc..loc + 4) == Some(b"PK\x06\x07") {
                if let Some(z64) = le64(bytes, loc + 8).and_then(|o| usize::try_from(o).ok()) {
                    if bytes.get(z64..z64 + 4) == Some(b"PK\x06\x06") {
                        count = count.max(le64(bytes, z64 + 32).unwrap_or(0));
                    }
                }
            }
        }
    }
    Some(count)
}

/// Opens the zip reader, mapping its errors to refusals.
pub(crate) fn open_zip(bytes: &[u8]) -> OfficeResult<ZipArchive<Cursor<&[u8]>>> {
    ZipArchive::new(Cursor::new(bytes)).map_err(|e| match e {
        ZipError::UnsupportedArchive(msg) => OfficeError::new(
            OfficeErrorKind::Unsupported,
            format!("unsupported zip archive: {msg}"),
        ),
        other => OfficeError::new(
            OfficeErrorKind::DamagedZip,
            format!("damaged zip archive (truncated or corrupted): {other}"),
        ),
    })
}

/// What the central directory says about one entry.
#[derive(Debug, Clone)]
pub(crate) struct EntryInfo {
    /// Index in the archive.
    pub index: usize,
    /// Compressed size from the central directory (bounds the input the reader consumes).
    pub compressed: u64,
    /// Uncompressed size the header claims (a hint).
    pub declared: u64,
}

/// Inflates one entry under the caps.
///
/// `budget_left` is what remains of the package-wide budget; `prefix` stops early (without
/// error) once that many bytes were produced, for header sniffing.
pub(crate) fn inflate(
    archive: &ZipArchive<Cursor<&[u8]>>,
    part: &str,
    entry: &EntryInfo,
    limits: &OfficeLimits,
    budget_left: u64,
    prefix: Option<u64>,
) -> OfficeResult<Vec<u8>> {
    let part_limit = limits.max_part_bytes;
    let too_large = || {
        OfficeError::new(
            OfficeErrorKind::PartTooLarge,
            format!(
                "part {part} inflates past the per-part limit of {}",
                human_bytes(part_limit)
            ),
        )
    };
    let over_budget = || {
        OfficeError::new(
            OfficeErrorKind::TotalTooLarge,
            format!(
                "the package inflates past the total limit of {}",
                human_bytes(limits.max_total_bytes)
            ),
        )
    };
    let ratio_exceeded = |out: u64| {
        OfficeError::new(
            OfficeErrorKind::CompressionRatio,
            format!(
                "part {part} has a compression ratio over the limit of {}:1 ({} from {} compressed)",
                limits.max_compression_ratio,
                human_bytes(out),
                human_bytes(entry.compressed)
            ),
        )
    };
    let ratio_breached = |out: u64| {
        out > limits.ratio_threshold_bytes
            && out
                > entry
                    .compressed
                    .saturating_mul(limits.max_compression_ratio)
    };

    // Before inflating: refuse what the header already admits to. Only a prefix read is
    // exempt, since it never inflates the whole part.
    if prefix.is_none() {
        if entry.declared > part_limit {
            return Err(too_large());
        }
        if entry.declared > budget_left {
            return Err(over_budget());
        }
        if ratio_breached(entry.declared) {
            return Err(ratio_exceeded(entry.declared));
        }
    }

    // A clone shares the parsed directory; it only copies the cursor.
    let mut archive = archive.clone();
    let mut file = archive
        .by_index(entry.index)
        .map_err(|e| read_error(part, e))?;
    let want = prefix.unwrap_or(u64::MAX);
    let initial = entry
        .declared
        .min(part_limit)
        .min(want)
        .min(4 * 1024 * 1024);
    let mut out: Vec<u8> = Vec::with_capacity(usize::try_from(initial).unwrap_or(0));
    loop {
        // At most one chunk per step, read straight into the output buffer.
        let step = (CHUNK as u64)
            .min(want.saturating_sub(out.len() as u64))
            .max(1);
        let n = match (&mut file).take(step).read_to_end(&mut out) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(part, &e)),
        };
        let _ = n;
        let produced = out.len() as u64;
        if produced >= want {
            out.truncate(usize::try_from(want).unwrap_or(out.len()));
            return Ok(out);
        }
        if produced > part_limit {
            return Err(too_large());
        }
        if produced > budget_left {
            return Err(over_budget());
        }
        if ratio_breached(produced) {
            return Err(ratio_exceeded(produced));
        }
    }
    Ok(out)
}

fn read_error(part: &str, e: ZipError) -> OfficeError {
    match e {
        ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED) => OfficeError::new(
            OfficeErrorKind::Unsupported,
            format!("part {part} is encrypted inside the zip"),
        ),
        ZipError::CompressionMethodNotSupported(m) => OfficeError::new(
            OfficeErrorKind::Unsupported,
            format!("part {part} uses an unsupported compression method ({m})"),
        ),
        ZipError::UnsupportedArchive(msg) => {
            OfficeError::new(OfficeErrorKind::Unsupported, format!("part {part}: {msg}"))
        }
        ZipError::Io(io) => io_error(part, &io),
        other => OfficeError::new(
            OfficeErrorKind::DamagedZip,
            format!("part {part} cannot be read: {other}"),
        ),
    }
}

fn io_error(part: &str, e: &std::io::Error) -> OfficeError {
    let text = e.to_string();
    let reason = if text.contains("checksum") {
        format!("part {part} failed its CRC check (damaged zip)")
    } else {
        format!("part {part} cannot be inflated (damaged zip): {text}")
    };
    OfficeError::new(OfficeErrorKind::DamagedZip, reason)
}
