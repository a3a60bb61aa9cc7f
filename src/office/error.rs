//! The one error type of the Office layer.
//!
//! Every refusal (a guard that tripped, a damaged zip, a legacy binary file) is an
//! [`OfficeError`]: a stable code (`corrupt` or `unsupported`), a machine-readable
//! [`OfficeErrorKind`] for tests and logs, and a human reason that names the limit or the
//! part. Reasons never carry host paths: the package only ever sees in-memory bytes.

use std::fmt;

/// What went wrong, coarsely; the stable service code is derived from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OfficeErrorKind {
    /// Not a zip at all (and not a recognised legacy format).
    NotAPackage,
    /// A zip whose structure is damaged: truncated, bad central directory, bad CRC.
    DamagedZip,
    /// A compound file carrying `EncryptionInfo`/`EncryptedPackage`.
    PasswordProtected,
    /// A compound file without encryption streams: a legacy `.doc`/`.ppt`.
    LegacyBinary,
    /// More zip entries than [`OfficeLimits::max_entries`](super::OfficeLimits).
    TooManyEntries,
    /// One part inflated past [`OfficeLimits::max_part_bytes`](super::OfficeLimits).
    PartTooLarge,
    /// All parts read so far inflated past the package budget.
    TotalTooLarge,
    /// A large part inflated with a suspicious compression ratio.
    CompressionRatio,
    /// An entry name that is absolute, climbs out, or is otherwise unsafe.
    BadEntryName,
    /// Two entries whose names are equal (ignoring ASCII case).
    DuplicateEntry,
    /// XML nested deeper than the limit.
    XmlTooDeep,
    /// XML with more nodes than the limit.
    XmlTooLarge,
    /// XML carrying a document type declaration.
    XmlDtd,
    /// XML that is not well formed.
    MalformedXml,
    /// A part the format requires is missing (e.g. the main document).
    MissingPart,
    /// An image whose header declares more pixels than the cap.
    ImageTooLarge,
    /// A workbook past one of the sheet limits (sheets, shared strings, style records).
    SheetLimit,
    /// A valid package that uses something this reader does not implement
    /// (encrypted zip entries, an exotic compression method).
    Unsupported,
}

/// A refusal of an Office file, with a stable code and a human reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfficeError {
    kind: OfficeErrorKind,
    reason: String,
}

impl OfficeError {
    /// Builds an error of `kind` with a human `reason`.
    pub fn new(kind: OfficeErrorKind, reason: impl Into<String>) -> Self {
        Self {
            kind,
            reason: reason.into(),
        }
    }

    /// The coarse kind, for tests and logs.
    pub fn kind(&self) -> OfficeErrorKind {
        self.kind
    }

    /// The stable service code: `corrupt`, `unsupported` for files that are valid but
    /// use something this reader does not implement (legacy binary formats, exotic zip
    /// features), or `sheet_too_large` for a workbook past a sheet limit. The service
    /// maps all three to HTTP 422.
    pub fn code(&self) -> &'static str {
        match self.kind {
            OfficeErrorKind::LegacyBinary | OfficeErrorKind::Unsupported => "unsupported",
            OfficeErrorKind::SheetLimit => "sheet_too_large",
            // The same code as a PDF that needs a password: the file is whole, only locked.
            OfficeErrorKind::PasswordProtected => "encrypted",
            _ => "corrupt",
        }
    }

    /// The human reason, naming the limit or the part involved.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for OfficeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.reason)
    }
}

impl std::error::Error for OfficeError {}

/// Shorthand for results of the Office layer.
pub type OfficeResult<T> = Result<T, OfficeError>;

/// Formats a byte count for reasons: whole MiB when it is one, else bytes.
pub(crate) fn human_bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}
