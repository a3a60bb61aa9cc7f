//! Fonts a document carries and what its font table says about the others.
//!
//! DOCX: `word/fontTable.xml` lists every font with `w:family`, `w:pitch`, `w:panose1`,
//! `w:charset` and, for embedded ones, `w:embedRegular`/`w:embedBold`/`w:embedItalic`/
//! `w:embedBoldItalic` pointing at `word/fonts/*.odttf` parts. With a `w:fontKey` GUID the
//! part is obfuscated (ECMA-376 Part 1, 17.8.1): the first 32 bytes are XORed with the
//! GUID's 16 bytes taken from its hex string read backwards, pair by pair.
//!
//! PPTX: the theme fonts (`a:fontScheme`) are the named fonts, and `p:embeddedFontLst` in
//! the presentation part names each embedded face's `.fntdata` part.
//! Those are Embedded OpenType files; PowerPoint writes them MicroType Express compressed
//! (every one in the real corpus), which [`super::mtx`] decompresses back to TrueType.
//! An EOT (compressed or not, optionally XOR-encrypted, as the EOT format allows) or a
//! bare TrueType part is served; one that does not decode or parse is not, and the font
//! falls back to its resolved stack.

use super::catalog::{sfnt_file, FontFile};
use super::resolve::{FontClass, FontHints};
use crate::office::{Ns, OfficePackage, RelTarget};

const FONT_TABLE_REL: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable";

/// Largest embedded font part read (fonts past this are left to the stack).
pub const MAX_EMBEDDED_BYTES: u64 = 16 << 20;

/// How an embedded part is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    /// ODTTF obfuscated with this key (already in XOR order).
    Obfuscated([u8; 16]),
    /// As written: a bare font, or an EOT wrapper around one.
    Plain,
}

/// One embedded face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedFont {
    /// The family the document calls it (safe or not: resolve it before use).
    pub family: String,
    /// Bold face.
    pub bold: bool,
    /// Italic face.
    pub italic: bool,
    /// Its part in the package.
    pub part: String,
    /// How it is stored.
    pub storage: Storage,
}

/// A font named by the document, with its hints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedFont {
    /// `w:name` / `typeface`.
    pub name: String,
    /// What the font table says about it.
    pub hints: FontHints,
}

/// What a package says about its fonts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentFonts {
    /// Every font of the font table (DOCX) or embedded list (PPTX).
    pub named: Vec<NamedFont>,
    /// Embedded faces, in document order (their index is their URL).
    pub embedded: Vec<EmbeddedFont>,
}

/// The 16 XOR key bytes of a `w:fontKey` GUID (`{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`):
/// its 32 hex digits read as bytes from the last pair to the first.
pub fn font_key(guid: &str) -> Option<[u8; 16]> {
    let hex: Vec<u8> = guid
        .bytes()
        .filter(|b| !matches!(b, b'{' | b'}' | b'-'))
        .collect();
    if hex.len() != 32 {
        return None;
    }
    let mut key = [0u8; 16];
    for (i, k) in key.iter_mut().enumerate() {
        let at = 30 - 2 * i;
        let pair = std::str::from_utf8(&hex[at..at + 2]).ok()?;
        *k = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(key)
}

/// XORs the first 32 bytes of `data` with `key` (twice over): obfuscation and
/// de-obfuscation are the same operation.
pub fn xor_header(data: &mut [u8], key: &[u8; 16]) {
    for (i, b) in data.iter_mut().take(32).enumerate() {
        *b ^= key[i % 16];
    }
}

/// Reads the font table (DOCX) or embedded font list (PPTX) of an opened package.
/// Missing or unreadable parts give an empty answer: fonts are never a reason to refuse.
pub fn document_fonts(package: &OfficePackage<'_>) -> DocumentFonts {
    let Ok(main) = package.main_part() else {
        return DocumentFonts::default();
    };
    if main.name.starts_with("ppt/") {
        pptx_fonts(package, &main.name)
    } else {
        docx_fonts(package, &main.name)
    }
}

fn docx_fonts(package: &OfficePackage<'_>, main: &str) -> DocumentFonts {
    let mut out = DocumentFonts::default();
    let Some(table) = package
        .relationships(main)
        .ok()
        .and_then(|r| r.part_of_type(FONT_TABLE_REL).map(str::to_owned))
    else {
        return out;
    };
    let Ok(xml) = package.read_xml(&table, &[]) else {
        return out;
    };
    let rels = package.relationships(&table).unwrap_or_default();
    for font in xml.root().children_named(Ns::W, "font") {
        let Some(name) = font.attr(Ns::W, "name") else {
            continue;
        };
        let val = |child: &str| font.child(Ns::W, child).and_then(|e| e.attr(Ns::W, "val"));
        let hints = FontHints {
            class: val("family").and_then(FontClass::from_ooxml),
            fixed_pitch: val("pitch") == Some("fixed"),
            panose: val("panose1").and_then(FontHints::parse_panose),
            charset: val("charset").and_then(|c| u8::from_str_radix(c, 16).ok()),
        };
        out.named.push(NamedFont {
            name: name.to_owned(),
            hints,
        });
        for (tag, bold, italic) in [
            ("embedRegular", false, false),
            ("embedBold", true, false),
            ("embedItalic", false, true),
            ("embedBoldItalic", true, true),
        ] {
            let Some(embed) = font.child(Ns::W, tag) else {
                continue;
            };
            let Some(part) = embed
                .attr(Ns::R, "id")
                .and_then(|id| rels.get(id))
                .and_then(|r| match &r.target {
                    RelTarget::Part(p) => Some(p.clone()),
                    _ => None,
                })
            else {
                continue;
            };
            let storage = match embed.attr(Ns::W, "fontKey") {
                Some(guid) => match font_key(guid) {
                    Some(key) => Storage::Obfuscated(key),
                    None => continue,
                },
                None => Storage::Plain,
            };
            out.embedded.push(EmbeddedFont {
                family: name.to_owned(),
                bold,
                italic,
                part,
                storage,
            });
        }
    }
    out
}

/// The theme fonts of a deck (`a:majorFont`/`a:minorFont`, Latin and East Asian), which
/// most of its text is set in.
fn theme_fonts(package: &OfficePackage<'_>, out: &mut DocumentFonts) {
    let themes: Vec<String> = package
        .part_names()
        .filter(|n| n.starts_with("ppt/theme/") && n.ends_with(".xml"))
        .take(16)
        .map(str::to_owned)
        .collect();
    for part in themes {
        let Ok(xml) = package.read_xml(&part, &[]) else {
            continue;
        };
        let Some(scheme) = xml.root().find(Ns::A, "fontScheme") else {
            continue;
        };
        for collection in ["majorFont", "minorFont"] {
            let Some(fonts) = scheme.child(Ns::A, collection) else {
                continue;
            };
            for script in ["latin", "ea"] {
                let Some(face) = fonts.child(Ns::A, script) else {
                    continue;
                };
                let Some(name) = face.attr_local("typeface").filter(|n| !n.trim().is_empty())
                else {
                    continue;
                };
                if out.named.iter().any(|f| f.name == name) {
                    continue;
                }
                out.named.push(NamedFont {
                    name: name.to_owned(),
                    hints: FontHints::from_drawingml(
                        face.attr_local("pitchFamily"),
                        face.attr_local("panose"),
                    ),
                });
            }
        }
    }
}

fn pptx_fonts(package: &OfficePackage<'_>, main: &str) -> DocumentFonts {
    let mut out = DocumentFonts::default();
    theme_fonts(package, &mut out);
    let Ok(xml) = package.read_xml(main, &[]) else {
        return out;
    };
    let rels = package.relationships(main).unwrap_or_default();
    let Some(list) = xml.root().child(Ns::P, "embeddedFontLst") else {
        return out;
    };
    for entry in list.children_named(Ns::P, "embeddedFont") {
        let Some(font) = entry.child(Ns::P, "font") else {
            continue;
        };
        let Some(name) = font.attr_local("typeface") else {
            continue;
        };
        // The embedded list's entry is more precise than the theme's: it replaces it.
        out.named.retain(|f| f.name != name);
        out.named.push(NamedFont {
            name: name.to_owned(),
            hints: FontHints::from_drawingml(
                font.attr_local("pitchFamily"),
                font.attr_local("panose"),
            ),
        });
        for (tag, bold, italic) in [
            ("regular", false, false),
            ("bold", true, false),
            ("italic", false, true),
            ("boldItalic", true, true),
        ] {
            let part = entry
                .child(Ns::P, tag)
                .and_then(|e| e.attr(Ns::R, "id"))
                .and_then(|id| rels.get(id))
                .and_then(|r| match &r.target {
                    RelTarget::Part(p) => Some(p.clone()),
                    _ => None,
                });
            if let Some(part) = part {
                out.embedded.push(EmbeddedFont {
                    family: name.to_owned(),
                    bold,
                    italic,
                    part,
                    storage: Storage::Plain,
                });
            }
        }
    }
    out
}

/// Reads and unwraps one embedded face: de-obfuscated, taken out of its EOT wrapper,
/// MicroType Express decompressed, checked by parsing it. `None` when it cannot be shown
/// (damaged, too big).
pub fn load(package: &OfficePackage<'_>, font: &EmbeddedFont) -> Option<FontFile> {
    let mut data = package
        .read_part_prefix(&font.part, MAX_EMBEDDED_BYTES)
        .ok()?;
    if data.len() as u64 >= MAX_EMBEDDED_BYTES {
        return None;
    }
    if let Storage::Obfuscated(key) = &font.storage {
        xor_header(&mut data, key);
    }
    if is_sfnt(&data) {
        return sfnt_file(data);
    }
    sfnt_file(unwrap_eot(&data)?)
}

fn is_sfnt(d: &[u8]) -> bool {
    matches!(d.get(..4), Some(b"\x00\x01\x00\x00" | b"OTTO" | b"true"))
}

/// The font data of an Embedded OpenType file (EOT header: `EOTSize`, `FontDataSize`,
/// `Version`, `Flags`, …, magic `0x504C` at byte 34; the font data is the last
/// `FontDataSize` bytes), XOR-decrypted and MicroType Express decompressed as its
/// `Flags` say. `None` (with the reason logged) when it is not a readable font.
pub fn unwrap_eot(d: &[u8]) -> Option<Vec<u8>> {
    const TTEMBED_TTCOMPRESSED: u32 = 0x4;
    const TTEMBED_XORENCRYPTDATA: u32 = 0x1000_0000;
    let le32 = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(d.get(at..at + 4)?.try_into().ok()?))
    };
    let eot_size = le32(0)? as usize;
    let data_size = le32(4)? as usize;
    let flags = le32(12)?;
    if d.get(34..36)? != [0x4C, 0x50] || eot_size > d.len() || data_size > eot_size {
        return None;
    }
    let mut font = d.get(eot_size - data_size..eot_size)?.to_vec();
    // The EOT writer compresses first, then encrypts: undone the other way round.
    if flags & TTEMBED_XORENCRYPTDATA != 0 {
        font.iter_mut().for_each(|b| *b ^= 0x50);
    }
    if flags & TTEMBED_TTCOMPRESSED != 0 {
        font = match super::mtx::decode(&font) {
            Ok(font) => font,
            Err(e) => {
                tracing::debug!(
                    reason = e.code(),
                    "embedded font: MicroType Express data refused"
                );
                return None;
            }
        };
    }
    is_sfnt(&font).then_some(font)
}

/// The family name an EOT header gives (`FamilyName`, UTF-16LE, after the fixed 82
/// bytes and its size), trailing NULs dropped.
pub fn eot_family_name(d: &[u8]) -> Option<String> {
    let size = usize::from(u16::from_le_bytes(d.get(82..84)?.try_into().ok()?));
    let units: Vec<u16> = d
        .get(84..84 + size)?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Some(
        String::from_utf16_lossy(&units)
            .trim_end_matches('\0')
            .to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DejaVu Sans Mono, shipped in `assets/fonts` (licence there).
    const MONO: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");
    const GUID: &str = "{5F4D2A1B-8C3E-4F60-9A7B-0C1D2E3F4A5B}";

    #[test]
    fn the_key_is_the_guid_read_backwards() {
        let key = font_key(GUID).unwrap();
        assert_eq!(key[0], 0x5B);
        assert_eq!(key[1], 0x4A);
        assert_eq!(key[15], 0x5F);
        assert_eq!(font_key("{not-a-guid}"), None);
    }

    #[test]
    fn an_obfuscated_font_round_trips_and_parses() {
        let original = MONO.to_vec();
        let key = font_key(GUID).unwrap();
        let mut odttf = original.clone();
        xor_header(&mut odttf, &key);
        assert_ne!(odttf[..32], original[..32]);
        assert_eq!(odttf[32..], original[32..]);
        assert!(
            ttf_parser::Face::parse(&odttf, 0).is_err(),
            "obfuscated: unreadable"
        );
        xor_header(&mut odttf, &key);
        assert_eq!(odttf, original);
        let face = ttf_parser::Face::parse(&odttf, 0).unwrap();
        assert!(face.glyph_index('a').is_some());
    }

    #[test]
    fn eot_wrapping_is_undone_unless_compressed() {
        let font = MONO;
        let mut eot = vec![0u8; 82];
        let total = (eot.len() + font.len()) as u32;
        eot[0..4].copy_from_slice(&total.to_le_bytes());
        eot[4..8].copy_from_slice(&(font.len() as u32).to_le_bytes());
        eot[8..12].copy_from_slice(&0x0002_0001u32.to_le_bytes());
        eot[34..36].copy_from_slice(&[0x4C, 0x50]);
        let mut plain = eot.clone();
        plain.extend_from_slice(font);
        assert_eq!(unwrap_eot(&plain).as_deref(), Some(font));
        let mut xored = eot.clone();
        xored[12..16].copy_from_slice(&0x1000_0000u32.to_le_bytes());
        xored.extend(font.iter().map(|b| b ^ 0x50));
        assert_eq!(unwrap_eot(&xored).as_deref(), Some(font));
        let mut compressed = eot;
        compressed[12..16].copy_from_slice(&5u32.to_le_bytes());
        compressed.extend_from_slice(font);
        assert_eq!(unwrap_eot(&compressed), None);
    }

    /// A PowerPoint face, MicroType Express compressed (`fixtures/fonts/README.md`).
    const MTX_EOT: &[u8] =
        include_bytes!("../../../fixtures/fonts/shapecrawler-case008-calibri-bold-italic.fntdata");

    #[test]
    fn a_deck_lists_its_embedded_faces_and_only_readable_ones_load() {
        use crate::office::tests::support::ZipBuilder;
        let mut compressed = vec![0u8; 82];
        compressed[0..4].copy_from_slice(&(82u32 + 4).to_le_bytes());
        compressed[4..8].copy_from_slice(&4u32.to_le_bytes());
        compressed[12..16].copy_from_slice(&5u32.to_le_bytes());
        compressed[34..36].copy_from_slice(&[0x4C, 0x50]);
        compressed.extend_from_slice(b"\0\x01\0\0");
        let rel = |id: &str, target: &str| {
            format!("<Relationship Id=\"{id}\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/font\" Target=\"{target}\"/>")
        };
        let deck = ZipBuilder::new()
            .file("[Content_Types].xml", r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="fntdata" ContentType="application/x-fontdata"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>"#)
            .file("_rels/.rels", r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>"#)
            .file("ppt/_rels/presentation.xml.rels", format!("<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{}{}{}</Relationships>", rel("rId7", "fonts/font1.fntdata"), rel("rId8", "fonts/font2.fntdata"), rel("rId9", "fonts/font3.fntdata")))
            .file("ppt/presentation.xml", r#"<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:embeddedFontLst><p:embeddedFont><p:font typeface="Deck Face" panose="020F0502020204030204" pitchFamily="34" charset="0"/><p:regular r:id="rId7"/><p:bold r:id="rId8"/><p:boldItalic r:id="rId9"/></p:embeddedFont></p:embeddedFontLst></p:presentation>"#)
            .file("ppt/theme/theme1.xml", r#"<?xml version="1.0"?><a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:fontScheme name="x"><a:majorFont><a:latin typeface="Deck Face"/><a:ea typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Verdana" pitchFamily="34"/><a:ea typeface="MS Mincho"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>"#)
            .file("ppt/fonts/font1.fntdata", MONO)
            .file("ppt/fonts/font2.fntdata", &compressed)
            .file("ppt/fonts/font3.fntdata", MTX_EOT)
            .finish();
        let package = OfficePackage::open(&deck, &crate::office::OfficeLimits::default()).unwrap();
        let fonts = document_fonts(&package);
        // Theme fonts, then the embedded list's entry (which replaces the theme's).
        assert_eq!(
            fonts
                .named
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>(),
            ["Verdana", "MS Mincho", "Deck Face"]
        );
        assert_eq!(fonts.named[2].hints.class, Some(FontClass::Swiss));
        assert_eq!(
            fonts
                .embedded
                .iter()
                .map(|e| (e.part.as_str(), e.bold))
                .collect::<Vec<_>>(),
            [
                ("ppt/fonts/font1.fntdata", false),
                ("ppt/fonts/font2.fntdata", true),
                ("ppt/fonts/font3.fntdata", true)
            ]
        );
        assert_eq!(load(&package, &fonts.embedded[0]).unwrap().data, MONO);
        assert!(
            load(&package, &fonts.embedded[1]).is_none(),
            "a damaged MicroType Express stream is not served"
        );
        // A real one is unpacked to TrueType and served.
        let face = load(&package, &fonts.embedded[2]).expect("MTX decoded");
        assert_eq!(face.mime, "font/ttf");
        let parsed = ttf_parser::Face::parse(&face.data, 0).unwrap();
        assert!(parsed.is_bold() && parsed.is_italic());
        assert_eq!(eot_family_name(MTX_EOT).as_deref(), Some("Calibri"));
    }
}
