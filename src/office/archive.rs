//! The zip side of the container guard: counting entries before the central directory is
//! loaded, and inflating one entry under size, budget and ratio caps.
//!
//! Header sizes are hints, never trusted: inflation counts the bytes it actually produces
//! and stops one chunk past a limit, so a lying header costs at most one chunk.

use super::bytes::{le16, le32, le64};
use std::io::{BufRead, BufReader, Cursor, ErrorKind, Read};

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

/// The caps one part is inflated under: per part, what is left of the package budget,
/// and the compression ratio, checked against the bytes actually produced.
struct Caps<'a> {
    part: &'a str,
    entry: &'a EntryInfo,
    limits: &'a OfficeLimits,
    budget_left: u64,
}

impl Caps<'_> {
    /// Refuses what the header already admits to, before anything is inflated.
    fn check_declared(&self) -> OfficeResult<()> {
        self.check(self.entry.declared)
    }

    /// Refuses a part once it has produced `out` bytes past a cap.
    fn check(&self, out: u64) -> OfficeResult<()> {
        let limits = self.limits;
        if out > limits.max_part_bytes {
            return Err(OfficeError::new(
                OfficeErrorKind::PartTooLarge,
                format!(
                    "part {} inflates past the per-part limit of {}",
                    self.part,
                    human_bytes(limits.max_part_bytes)
                ),
            ));
        }
        if out > self.budget_left {
            return Err(OfficeError::new(
                OfficeErrorKind::TotalTooLarge,
                format!(
                    "the package inflates past the total limit of {}",
                    human_bytes(limits.max_total_bytes)
                ),
            ));
        }
        let ratio_breached = out > limits.ratio_threshold_bytes
            && out
                > self
                    .entry
                    .compressed
                    .saturating_mul(limits.max_compression_ratio);
        if ratio_breached {
            return Err(OfficeError::new(
                OfficeErrorKind::CompressionRatio,
                format!(
                    "part {} has a compression ratio over the limit of {}:1 ({} from {} compressed)",
                    self.part,
                    limits.max_compression_ratio,
                    human_bytes(out),
                    human_bytes(self.entry.compressed)
                ),
            ));
        }
        Ok(())
    }
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
    let caps = Caps {
        part,
        entry,
        limits,
        budget_left,
    };
    // Before inflating: refuse what the header already admits to. Only a prefix read is
    // exempt, since it never inflates the whole part.
    if prefix.is_none() {
        caps.check_declared()?;
    }

    // A clone shares the parsed directory; it only copies the cursor.
    let mut archive = archive.clone();
    let mut file = archive
        .by_index(entry.index)
        .map_err(|e| read_error(part, e))?;
    let want = prefix.unwrap_or(u64::MAX);
    let initial = entry
        .declared
        .min(limits.max_part_bytes)
        .min(want)
        .min(4 * 1024 * 1024);
    let mut out: Vec<u8> = Vec::with_capacity(usize::try_from(initial).unwrap_or(0));
    loop {
        // At most one chunk per step, read straight into the output buffer.
        let step = (CHUNK as u64)
            .min(want.saturating_sub(out.len() as u64))
            .max(1);
        match (&mut file).take(step).read_to_end(&mut out) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(part, &e)),
        }
        let produced = out.len() as u64;
        if produced >= want {
            out.truncate(usize::try_from(want).unwrap_or(out.len()));
            return Ok(out);
        }
        caps.check(produced)?;
    }
    Ok(out)
}

/// Inflates one entry as a stream under the same caps as [`inflate`] (checked on every
/// read, so a lying header costs at most one buffer past a cap): `read` gets the bytes
/// through a buffered reader. Returns what `read` returned and the bytes produced.
pub(crate) fn inflate_stream<T>(
    archive: &ZipArchive<Cursor<&[u8]>>,
    part: &str,
    entry: &EntryInfo,
    limits: &OfficeLimits,
    budget_left: u64,
    read: impl FnOnce(&mut dyn BufRead) -> OfficeResult<T>,
) -> OfficeResult<(T, u64)> {
    let caps = Caps {
        part,
        entry,
        limits,
        budget_left,
    };
    caps.check_declared()?;
    let mut archive = archive.clone();
    let file = archive
        .by_index(entry.index)
        .map_err(|e| read_error(part, e))?;
    let mut guarded = BufReader::with_capacity(
        CHUNK,
        Capped {
            inner: file,
            caps: &caps,
            produced: 0,
            refused: None,
        },
    );
    let outcome = read(&mut guarded);
    let capped = guarded.into_inner();
    // A cap or a damaged stream surfaces to the XML reader as a read error; the refusal
    // itself is what the caller gets.
    if let Some(refused) = capped.refused {
        return Err(refused);
    }
    outcome.map(|t| (t, capped.produced))
}

/// A reader that counts what it produces and fails once a cap is passed.
struct Capped<'c, R> {
    inner: R,
    caps: &'c Caps<'c>,
    produced: u64,
    refused: Option<OfficeError>,
}

impl<R: Read> Read for Capped<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.refused.is_some() {
            return Err(std::io::Error::other("refused"));
        }
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => return Err(e),
            Err(e) => {
                self.refused = Some(io_error(self.caps.part, &e));
                return Err(std::io::Error::other("refused"));
            }
        };
        self.produced += n as u64;
        if let Err(refusal) = self.caps.check(self.produced) {
            self.refused = Some(refusal);
            return Err(std::io::Error::other("refused"));
        }
        Ok(n)
    }
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
