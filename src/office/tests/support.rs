//! Builders for in-memory test packages.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Path of the shared DOCX corpus, valid both in the main crate and in scratch crates
/// that sit next to a `shared` link.
pub(crate) const DOCX_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/docx");

/// Builds a zip in memory, one entry at a time.
pub(crate) struct ZipBuilder {
    writer: ZipWriter<Cursor<Vec<u8>>>,
}

impl ZipBuilder {
    pub(crate) fn new() -> Self {
        Self {
            writer: ZipWriter::new(Cursor::new(Vec::new())),
        }
    }

    /// Adds a deflated entry.
    pub(crate) fn file(self, name: &str, bytes: impl AsRef<[u8]>) -> Self {
        self.entry(name, bytes.as_ref(), CompressionMethod::Deflated)
    }

    /// Adds a stored (uncompressed) entry.
    pub(crate) fn stored(self, name: &str, bytes: impl AsRef<[u8]>) -> Self {
        self.entry(name, bytes.as_ref(), CompressionMethod::Stored)
    }

    /// Adds a deflated entry of `len` zero bytes, written in chunks.
    pub(crate) fn zeros(mut self, name: &str, len: usize) -> Self {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .large_file(len as u64 >= u32::MAX as u64);
        self.writer.start_file(name, options).unwrap();
        let chunk = vec![0u8; 1 << 20];
        let mut left = len;
        while left > 0 {
            let n = left.min(chunk.len());
            self.writer.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
        self
    }

    fn entry(mut self, name: &str, bytes: &[u8], method: CompressionMethod) -> Self {
        let options = SimpleFileOptions::default().compression_method(method);
        self.writer.start_file(name, options).unwrap();
        self.writer.write_all(bytes).unwrap();
        self
    }

    pub(crate) fn finish(self) -> Vec<u8> {
        self.writer.finish().unwrap().into_inner()
    }
}

pub(crate) const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;

pub(crate) const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

pub(crate) const W_NS: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/// A main document part wrapping `body` (the inside of `w:body`).
pub(crate) fn document_xml(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="{W_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>{body}</w:body></w:document>"#
    )
}

/// A zip with the three parts every Word package has, plus `extra` entries.
pub(crate) fn minimal_docx(body: &str, extra: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = ZipBuilder::new()
        .file("[Content_Types].xml", CONTENT_TYPES)
        .file("_rels/.rels", PACKAGE_RELS)
        .file("word/document.xml", document_xml(body));
    for (name, bytes) in extra {
        zip = zip.file(name, bytes);
    }
    zip.finish()
}

/// Replaces every occurrence of `from` by `to` (same length) in raw zip bytes, to forge
/// names the writer would refuse.
pub(crate) fn patch_bytes(mut bytes: Vec<u8>, from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut i = 0;
    let mut hits = 0;
    while i + from.len() <= bytes.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            hits += 1;
            i += from.len();
        } else {
            i += 1;
        }
    }
    assert!(hits > 0, "pattern not found");
    bytes
}

/// A hand-built Word package: a body plus optional styles, numbering, notes and
/// comments parts, and extra relationships of the main document.
#[derive(Default)]
pub(crate) struct DocxFixture {
    pub body: String,
    pub styles: Option<String>,
    pub numbering: Option<String>,
    pub footnotes: Option<String>,
    pub comments: Option<String>,
    pub core: Option<String>,
    /// `(id, type suffix, target, external)` relationships of `word/document.xml`.
    pub rels: Vec<(String, String, String, bool)>,
    /// Extra parts (media, headers).
    pub parts: Vec<(String, Vec<u8>)>,
}

/// Wraps part content in a root element declaring the usual namespaces.
pub(crate) fn w_part(root: &str, inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:{root} xmlns:w="{W_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{inner}</w:{root}>"#
    )
}

impl DocxFixture {
    pub(crate) fn new(body: &str) -> Self {
        Self {
            body: body.to_owned(),
            ..Self::default()
        }
    }

    pub(crate) fn build(&self) -> Vec<u8> {
        const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
        let mut rels = String::new();
        let mut zip = ZipBuilder::new().file("[Content_Types].xml", CONTENT_TYPES);
        let mut package_rels = PACKAGE_RELS.to_owned();
        if let Some(core) = &self.core {
            package_rels = package_rels.replace(
                "</Relationships>",
                r#"<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#,
            );
            zip = zip.file("docProps/core.xml", core);
        }
        zip = zip.file("_rels/.rels", package_rels);
        let mut n = 100;
        for (kind, content) in [
            ("styles", &self.styles),
            ("numbering", &self.numbering),
            ("footnotes", &self.footnotes),
            ("comments", &self.comments),
        ] {
            if let Some(content) = content {
                n += 1;
                rels.push_str(&format!(
                    r#"<Relationship Id="rId{n}" Type="{REL}{kind}" Target="{kind}.xml"/>"#
                ));
                zip = zip.file(&format!("word/{kind}.xml"), content);
            }
        }
        for (id, kind, target, external) in &self.rels {
            let mode = if *external {
                r#" TargetMode="External""#
            } else {
                ""
            };
            rels.push_str(&format!(
                r#"<Relationship Id="{id}" Type="{REL}{kind}" Target="{target}"{mode}/>"#
            ));
        }
        zip = zip.file(
            "word/_rels/document.xml.rels",
            format!(
                r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#
            ),
        );
        zip = zip.file("word/document.xml", document_xml(&self.body));
        for (name, bytes) in &self.parts {
            zip = zip.file(name, bytes);
        }
        zip.finish()
    }
}

/// A paragraph with one plain run.
pub(crate) fn para(text: &str) -> String {
    format!("<w:p><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>")
}

/// A paragraph in list `num_id` at `level`.
pub(crate) fn list_para(num_id: u32, level: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

/// The first 24 bytes of a PNG: enough for its header.
pub(crate) fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0]);
    b
}

/// The texts of all `w:t` elements of the main part, in document order, after markup
/// compatibility is resolved the way the parser resolves it.
pub(crate) fn main_part_texts(bytes: &[u8]) -> Vec<String> {
    let package =
        crate::office::OfficePackage::open(bytes, &crate::office::OfficeLimits::default()).unwrap();
    let main = package.main_part().unwrap();
    let doc = package
        .read_xml(
            &main.name,
            &[crate::office::Ns::Wps, crate::office::Ns::Wpg],
        )
        .unwrap();
    doc.root()
        .descendants()
        .filter(|e| e.is(crate::office::Ns::W, "t"))
        .map(|e| e.text().into_owned())
        .filter(|t| !t.is_empty())
        .collect()
}
