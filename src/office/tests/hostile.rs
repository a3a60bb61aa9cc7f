//! Hostile packages: each is refused with a reason that names the limit, quickly, and
//! nothing panics.

use super::support::{minimal_docx, patch_bytes, ZipBuilder, CONTENT_TYPES, PACKAGE_RELS};
use crate::office::{OfficeError, OfficeErrorKind, OfficeLimits, OfficePackage, RelTarget};

const MIB: usize = 1024 * 1024;

/// Opens `bytes` and reads every part as XML or bytes; the first refusal is returned.
/// Asserts the whole attempt took under a second.
fn open_and_read_all(bytes: &[u8], limits: &OfficeLimits) -> Result<(), OfficeError> {
    let result = (|| {
        let package = OfficePackage::open(bytes, limits)?;
        let names: Vec<String> = package.part_names().map(str::to_owned).collect();
        for name in names {
            if name.ends_with(".xml") || name.ends_with(".rels") {
                package.read_xml(&name, &[])?;
            } else {
                package.read_part(&name)?;
            }
        }
        Ok(())
    })();
    result
}

fn refused(bytes: &[u8]) -> OfficeError {
    open_and_read_all(bytes, &OfficeLimits::default()).expect_err("hostile input accepted")
}

/// Sets the uncompressed size that the local and central headers of `name` declare.
fn forge_declared_size(mut bytes: Vec<u8>, name: &str, size: u32) -> Vec<u8> {
    let mut i = 0;
    while i + 46 < bytes.len() {
        let sig = &bytes[i..i + 4];
        let (name_at, size_at) = if sig == b"PK\x03\x04" {
            (30, 22)
        } else if sig == b"PK\x01\x02" {
            (46, 24)
        } else {
            i += 1;
            continue;
        };
        let len_at = if sig == b"PK\x03\x04" { 26 } else { 28 };
        let len = u16::from_le_bytes([bytes[i + len_at], bytes[i + len_at + 1]]) as usize;
        if bytes.get(i + name_at..i + name_at + len) == Some(name.as_bytes()) {
            bytes[i + size_at..i + size_at + 4].copy_from_slice(&size.to_le_bytes());
        }
        i += 4;
    }
    bytes
}

#[test]
fn valid_minimal_package_opens() {
    let bytes = minimal_docx("<w:p/>", &[]);
    assert!(open_and_read_all(&bytes, &OfficeLimits::default()).is_ok());
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    assert_eq!(package.main_part().unwrap().name, "word/document.xml");
    assert!(!package.has_macros());
}

#[test]
fn zip_bomb_huge_part_refused_before_inflating() {
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .zeros("word/document.xml", 65 * MIB)
        .finish();
    assert!(bytes.len() < 200 * 1024, "bomb is small: {}", bytes.len());
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::PartTooLarge);
    assert_eq!(err.code(), "corrupt");
    assert_eq!(
        err.reason(),
        "part word/document.xml inflates past the per-part limit of 64 MiB"
    );
}

#[test]
fn zip_bomb_by_ratio_refused() {
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .zeros("word/media/blob.bin", 8 * MIB)
        .finish();
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::CompressionRatio);
    assert!(
        err.reason().starts_with(
            "part word/media/blob.bin has a compression ratio over the limit of 100:1"
        ),
        "{}",
        err.reason()
    );
}

#[test]
fn zip_bomb_with_lying_header_is_counted_while_inflating() {
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .zeros("word/media/blob.bin", 40 * MIB)
        .finish();
    // The headers now claim 1000 bytes; only counting what inflation produces catches it.
    let bytes = forge_declared_size(bytes, "word/media/blob.bin", 1000);
    let err = refused(&bytes);
    assert!(
        matches!(
            err.kind(),
            OfficeErrorKind::CompressionRatio | OfficeErrorKind::DamagedZip
        ),
        "{err}"
    );
}

#[test]
fn total_inflated_size_is_capped_across_parts() {
    let limits = OfficeLimits {
        max_part_bytes: 2 * MIB as u64,
        max_total_bytes: 3 * MIB as u64,
        max_compression_ratio: u64::MAX,
        ..OfficeLimits::default()
    };
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .zeros("a.bin", MIB + MIB / 2)
        .zeros("b.bin", MIB + MIB / 2)
        .finish();
    let package = OfficePackage::open(&bytes, &limits).unwrap();
    assert_eq!(package.read_part("a.bin").unwrap().len(), MIB + MIB / 2);
    let err = package.read_part("b.bin").unwrap_err();
    assert_eq!(err.kind(), OfficeErrorKind::TotalTooLarge);
    assert_eq!(
        err.reason(),
        "the package inflates past the total limit of 3 MiB"
    );
    // With the header lying, the budget still holds while inflating.
    let forged = forge_declared_size(bytes, "b.bin", 10);
    let package = OfficePackage::open(&forged, &limits).unwrap();
    package.read_part("a.bin").unwrap();
    let err = package.read_part("b.bin").unwrap_err();
    assert!(
        matches!(
            err.kind(),
            OfficeErrorKind::TotalTooLarge | OfficeErrorKind::DamagedZip
        ),
        "{err}"
    );
}

#[test]
fn too_many_entries_refused_before_loading_the_directory() {
    let mut zip = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS);
    for i in 0..10_000 {
        zip = zip.stored(&format!("x/{i}"), b"");
    }
    let bytes = zip.finish();
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::TooManyEntries);
    assert_eq!(
        err.reason(),
        "the zip lists 10002 entries, over the limit of 10000"
    );
}

#[test]
fn forged_entry_count_refused() {
    let mut bytes = minimal_docx("", &[]);
    let eocd = bytes.windows(4).rposition(|w| w == b"PK\x05\x06").unwrap();
    bytes[eocd + 8..eocd + 12].copy_from_slice(&[0xFF; 4]);
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::TooManyEntries);
}

#[test]
fn traversal_names_refused() {
    for (fake, evil, why) in [
        ("zz/evil.xml", "../evil.xml", "`.` or `..` segment"),
        ("word/zz/x.xml", "word/../x.xml", "`.` or `..` segment"),
        ("xetc/passwd", "/etc/passwd", "absolute entry name"),
        ("zz\u{1}evil.xml", "..\\evil.xml", "backslash"),
        ("zzzzzz", "C:/win", "drive letter"),
    ] {
        let bytes = minimal_docx("", &[(fake, b"<x/>")]);
        let bytes = patch_bytes(bytes, fake.as_bytes(), evil.as_bytes());
        let err = refused(&bytes);
        assert_eq!(err.kind(), OfficeErrorKind::BadEntryName, "{evil}");
        assert!(err.reason().contains(why), "{evil}: {}", err.reason());
    }
}

#[test]
fn duplicate_names_refused() {
    let bytes = minimal_docx("", &[("word/a.xml", b"<a/>"), ("word/b.xml", b"<b/>")]);
    let bytes = patch_bytes(bytes, b"word/b.xml", b"word/a.xml");
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::DuplicateEntry);

    let bytes = minimal_docx("", &[("Word/Document.xml", b"<a/>")]);
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::DuplicateEntry);
    assert!(err.reason().contains("ignore case"), "{}", err.reason());
}

#[test]
fn deep_nesting_refused() {
    let deep = format!("{}{}", "<w:p>".repeat(5_000), "</w:p>".repeat(5_000));
    let err = refused(&minimal_docx(&deep, &[]));
    assert_eq!(err.kind(), OfficeErrorKind::XmlTooDeep);
    assert_eq!(
        err.reason(),
        "XML in part word/document.xml is nested deeper than the limit of 256 levels"
    );
}

#[test]
fn billion_laughs_refused() {
    let mut dtd = String::from("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    for i in 1..10 {
        dtd.push_str(&format!(
            "<!ENTITY lol{i} \"{}\">",
            format!("&lol{};", i - 1).repeat(10)
        ));
    }
    dtd.push_str("]><lolz>&lol9;</lolz>");
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .file("word/document.xml", &dtd)
        .finish();
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::XmlDtd);
    assert!(err.reason().contains("DOCTYPE"));

    // In [Content_Types].xml the refusal comes at open time.
    let bytes = ZipBuilder::new().file("[Content_Types].xml", &dtd).finish();
    let err = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap_err();
    assert_eq!(err.kind(), OfficeErrorKind::XmlDtd);
}

#[test]
fn truncated_zip_refused_at_every_cut() {
    let bytes = minimal_docx("<w:p><w:r><w:t>hello</w:t></w:r></w:p>", &[]);
    for cut in (0..bytes.len()).step_by(7) {
        let err = refused(&bytes[..cut]);
        assert!(
            matches!(
                err.kind(),
                OfficeErrorKind::DamagedZip | OfficeErrorKind::NotAPackage
            ),
            "cut {cut}: {err}"
        );
    }
    let err = refused(&bytes[..bytes.len() - 1]);
    assert_eq!(err.kind(), OfficeErrorKind::DamagedZip);
    assert!(err.reason().starts_with("damaged zip archive"));
}

#[test]
fn bad_crc_refused() {
    let text = "<w:p><w:r><w:t>checksum me</w:t></w:r></w:p>";
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .stored("word/document.xml", super::support::document_xml(text))
        .finish();
    let bytes = patch_bytes(bytes, b"checksum me", b"checksum ME");
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::DamagedZip);
    assert_eq!(
        err.reason(),
        "part word/document.xml failed its CRC check (damaged zip)"
    );
}

/// A deterministic byte stream (xorshift), so failures reproduce.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

#[test]
fn random_bytes_refused() {
    let err = refused(&noise(4096, 7));
    assert_eq!(err.kind(), OfficeErrorKind::NotAPackage);
    assert_eq!(
        err.reason(),
        "not an Office Open XML package: not a zip archive"
    );
    let mut pk = b"PK\x03\x04".to_vec();
    pk.extend(noise(4096, 9));
    assert_eq!(refused(&pk).kind(), OfficeErrorKind::DamagedZip);
    assert_eq!(refused(&[]).kind(), OfficeErrorKind::NotAPackage);
    let rtf = refused(b"{\\rtf1\\ansi hello}");
    assert!(rtf.reason().contains("RTF"));
}

#[test]
fn a_zip_that_is_not_office_refused() {
    let bytes = ZipBuilder::new().file("readme.txt", "hi").finish();
    let err = refused(&bytes);
    assert_eq!(err.kind(), OfficeErrorKind::NotAPackage);
}

#[test]
fn mutated_packages_never_panic() {
    let base = minimal_docx(
        "<w:p><w:r><w:t>some text to mutate</w:t></w:r></w:p>",
        &[("word/styles.xml", b"<w:styles/>")],
    );
    let flips = noise(2_000, 3);
    for (i, pair) in flips.chunks(2).enumerate() {
        let mut bytes = base.clone();
        let at = (usize::from(pair[0]) << 8 | usize::from(pair[1])) % bytes.len();
        bytes[at] ^= (i as u8) | 1;
        let _ = open_and_read_all(&bytes, &OfficeLimits::default());
    }
}

fn cfb(stream: &str) -> Vec<u8> {
    let mut bytes = vec![0u8; 2048];
    bytes[..8].copy_from_slice(&crate::office::cfb::CFB_MAGIC);
    // The root entry, then the named stream, in the first directory sector.
    for (slot, name) in ["Root Entry", stream].iter().enumerate() {
        let at = 512 + slot * 128;
        let utf16: Vec<u8> = name.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        bytes[at..at + utf16.len()].copy_from_slice(&utf16);
        bytes[at + 64..at + 66].copy_from_slice(&((utf16.len() + 2) as u16).to_le_bytes());
    }
    bytes
}

#[test]
fn encrypted_compound_file_refused_as_password_protected() {
    for stream in ["EncryptionInfo", "EncryptedPackage"] {
        let err = refused(&cfb(stream));
        assert_eq!(err.kind(), OfficeErrorKind::PasswordProtected);
        assert_eq!(err.code(), "encrypted");
        assert!(err.reason().contains("password-protected"));
    }
}

#[test]
fn legacy_compound_file_refused_as_legacy() {
    let err = refused(&cfb("WordDocument"));
    assert_eq!(err.kind(), OfficeErrorKind::LegacyBinary);
    assert_eq!(err.code(), "unsupported");
    assert!(err
        .reason()
        .starts_with("legacy .doc/.ppt (binary Office format)"));
}

#[test]
fn external_and_escaping_targets_are_never_parts() {
    let rels = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
      <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://example.com/x.png" TargetMode="External"/>
      <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../../../etc/passwd"/>
      <Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd"/>
      <Relationship Id="rId4" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/image" Target="media/a.png"/>
    </Relationships>"#;
    let bytes = minimal_docx("", &[("word/_rels/document.xml.rels", rels.as_bytes())]);
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    let rels = package.relationships("word/document.xml").unwrap();
    assert_eq!(
        rels.get("rId1").unwrap().target,
        RelTarget::External("http://example.com/x.png".into())
    );
    assert_eq!(
        rels.get("rId2").unwrap().target,
        RelTarget::Invalid("../../../etc/passwd".into())
    );
    assert_eq!(
        rels.get("rId3").unwrap().target,
        RelTarget::Invalid("file:///etc/passwd".into())
    );
    let strict = rels.get("rId4").unwrap();
    assert_eq!(strict.target, RelTarget::Part("word/media/a.png".into()));
    assert_eq!(strict.rel_type, crate::office::ns::rel_type::IMAGE);
}

#[test]
fn oversized_image_header_refused() {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&60_000u32.to_be_bytes());
    png.extend_from_slice(&60_000u32.to_be_bytes());
    let bytes = minimal_docx("", &[("word/media/big.png", &png)]);
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    let err = package.image_header("word/media/big.png").unwrap_err();
    assert_eq!(err.kind(), OfficeErrorKind::ImageTooLarge);
    assert_eq!(
        err.reason(),
        "image word/media/big.png is 60000×60000 pixels, over the limit of 50000000 pixels"
    );
}

#[test]
fn macro_enabled_package_is_flagged() {
    let types = CONTENT_TYPES.replace(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        "application/vnd.ms-word.document.macroEnabled.main+xml",
    );
    let bytes = ZipBuilder::new()
        .file("[Content_Types].xml", types)
        .file("_rels/.rels", PACKAGE_RELS)
        .file("word/document.xml", super::support::document_xml(""))
        .finish();
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    assert!(package.has_macros());
    assert_eq!(package.main_part().unwrap().name, "word/document.xml");
}
