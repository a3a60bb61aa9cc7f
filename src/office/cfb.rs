//! Recognising files that are not Office Open XML, so the refusal can say why.
//!
//! Word and PowerPoint write two kinds of OLE compound files (CFB, magic
//! `D0 CF 11 E0 A1 B1 1A E1`): legacy binary documents (`.doc`, `.ppt`) and password-protected
//! OOXML documents, whose encrypted package sits in a CFB stream named `EncryptedPackage`
//! next to `EncryptionInfo`. Both are refused; the reason tells them apart.
//!
//! Instead of walking the CFB sector chains we scan for the UTF-16LE stream names where
//! directory entries can sit: entries are 128 bytes and sectors are multiples of 512
//! bytes after a 512-byte header, so every entry starts at a file offset divisible by 128,
//! and its name length (bytes, with the terminating NUL) sits at entry offset 64. That is
//! exact enough to never confuse document text with a directory entry, and linear in size.

use super::error::{OfficeError, OfficeErrorKind};

/// The eight magic bytes that start every compound file.
pub const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Size of one CFB directory entry.
const DIR_ENTRY: usize = 128;

/// Whether `bytes` starts with the compound-file magic.
pub fn is_compound_file(bytes: &[u8]) -> bool {
    bytes.starts_with(&CFB_MAGIC)
}

/// The refusal for a compound file: password-protected OOXML or a legacy binary file.
pub fn refuse_compound_file(bytes: &[u8]) -> OfficeError {
    if has_stream(bytes, "EncryptedPackage") || has_stream(bytes, "EncryptionInfo") {
        OfficeError::new(
            OfficeErrorKind::PasswordProtected,
            "the document is password-protected (encrypted Office file); remove the password to preview it",
        )
    } else {
        OfficeError::new(
            OfficeErrorKind::LegacyBinary,
            "legacy .doc/.ppt (binary Office format) is not supported; save it as .docx/.pptx to preview it",
        )
    }
}

/// Whether a directory entry named `name` appears at a 128-byte-aligned offset.
fn has_stream(bytes: &[u8], name: &str) -> bool {
    let pattern: Vec<u8> = name.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    // Name length as CFB stores it: UTF-16 bytes plus the terminating NUL.
    let stored_len = (pattern.len() + 2) as u16;
    // Directory sectors start after the 512-byte header.
    let mut offset = 512;
    while let Some(entry) = bytes.get(offset..offset + DIR_ENTRY) {
        let len_field = entry
            .get(64..66)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .unwrap_or(0);
        if len_field == stored_len && entry.starts_with(&pattern) {
            return true;
        }
        offset += DIR_ENTRY;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a minimal compound file whose second sector holds one directory entry.
    fn cfb_with_entry(name: &str) -> Vec<u8> {
        let mut bytes = vec![0u8; 1024];
        bytes[..8].copy_from_slice(&CFB_MAGIC);
        let utf16: Vec<u8> = name.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        bytes[512..512 + utf16.len()].copy_from_slice(&utf16);
        let len = (utf16.len() + 2) as u16;
        bytes[512 + 64..512 + 66].copy_from_slice(&len.to_le_bytes());
        bytes
    }

    #[test]
    fn encrypted_package_is_password_protected() {
        let err = refuse_compound_file(&cfb_with_entry("EncryptedPackage"));
        assert_eq!(err.kind(), OfficeErrorKind::PasswordProtected);
        assert!(err.reason().contains("password-protected"));
        assert_eq!(err.code(), "encrypted");
    }

    #[test]
    fn word_document_stream_is_legacy() {
        let err = refuse_compound_file(&cfb_with_entry("WordDocument"));
        assert_eq!(err.kind(), OfficeErrorKind::LegacyBinary);
        assert!(err.reason().contains("legacy .doc/.ppt"));
    }

    #[test]
    fn name_in_text_at_unaligned_offset_is_not_an_entry() {
        let mut bytes = cfb_with_entry("WordDocument");
        let utf16: Vec<u8> = "EncryptionInfo"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        bytes.extend_from_slice(&[0; 10]);
        bytes.extend_from_slice(&utf16);
        bytes.resize(bytes.len() + 256, 0);
        assert_eq!(
            refuse_compound_file(&bytes).kind(),
            OfficeErrorKind::LegacyBinary
        );
    }
}
