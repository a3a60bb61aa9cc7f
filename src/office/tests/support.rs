//! Builders for in-memory test packages.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Path of the DOCX corpus committed in `fixtures/corpus/docx` (origins and licences in
/// `fixtures/README.md`); the bench reports sit at `../../bench` from it.
pub(crate) const DOCX_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus/docx");

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
#[derive(Default, Clone)]
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
    /// Adds a settings part holding `inner`, related to the main document.
    pub(crate) fn with_settings(&mut self, inner: &str) {
        self.rels.push((
            "rId70".into(),
            "settings".into(),
            "settings.xml".into(),
            false,
        ));
        self.parts.push((
            "word/settings.xml".into(),
            w_part("settings", inner).into_bytes(),
        ));
    }

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

// ----- PPTX ----------------------------------------------------------------------------

/// Path of the PPTX corpus (see [`DOCX_CORPUS`]).
pub(crate) const PPTX_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus/pptx");

/// Path of the benchmark decks and reports (`fixtures/bench/make_corpus.py` made them).
pub(crate) const PPTX_BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench");

const PML_NS: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;
const REL_NS: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

/// A theme with Office's 2013 colours, Calibri fonts and a small format scheme (fills:
/// solid, gradient, solid; lines 0.75, 2 and 3 pt).
pub(crate) const PPTX_THEME: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Test"><a:themeElements>
<a:clrScheme name="Test"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>
<a:fontScheme name="Test"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>
<a:fmtScheme name="Test"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:gradFill><a:gsLst><a:gs pos="0"><a:schemeClr val="phClr"><a:tint val="50000"/></a:schemeClr></a:gs><a:gs pos="100000"><a:schemeClr val="phClr"/></a:gs></a:gsLst><a:lin ang="5400000"/></a:gradFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="80000"/></a:schemeClr></a:solidFill></a:fillStyleLst>
<a:lnStyleLst><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="38100"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>
<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>
<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:tint val="95000"/></a:schemeClr></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="90000"/></a:schemeClr></a:solidFill></a:bgFillStyleLst></a:fmtScheme>
</a:themeElements></a:theme>"#;

/// The master's placeholders: title at (457200, 274638) 8229600×1143000, body (idx 1) at
/// (457200, 1600200) 8229600×4525963, and a slide number placeholder.
pub(crate) const PPTX_MASTER_TREE: &str = r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title Placeholder 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="274638"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr anchor="ctr"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p><a:r><a:t>Master title</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Text Placeholder 2"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="4525963"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>Master text</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:nvSpPr><p:cNvPr id="6" name="Slide Number Placeholder 5"/><p:cNvSpPr/><p:nvPr><p:ph type="sldNum" sz="quarter" idx="4"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="6553200" y="6356350"/><a:ext cx="2133600" cy="365125"/></a:xfrm></p:spPr><p:txBody><a:bodyPr anchor="ctr"/><a:lstStyle><a:lvl1pPr algn="r"><a:defRPr sz="1200"><a:solidFill><a:schemeClr val="tx1"><a:tint val="75000"/></a:schemeClr></a:solidFill></a:defRPr></a:lvl1pPr></a:lstStyle><a:p><a:fld id="{1}" type="slidenum"><a:rPr lang="en-US"/><a:t>‹#›</a:t></a:fld></a:p></p:txBody></p:sp>"#;

/// Master text styles: titles 44 pt major font; body 32/28/24 pt with bullets.
pub(crate) const PPTX_TX_STYLES: &str = r#"<p:txStyles><p:titleStyle><a:lvl1pPr algn="ctr"><a:buNone/><a:defRPr sz="4400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mj-lt"/></a:defRPr></a:lvl1pPr></p:titleStyle><p:bodyStyle><a:lvl1pPr marL="342900" indent="-342900"><a:spcBef><a:spcPct val="20000"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="•"/><a:defRPr sz="3200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr><a:lvl2pPr marL="742950" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="–"/><a:defRPr sz="2800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl2pPr><a:lvl3pPr marL="1143000" indent="-228600"><a:buFont typeface="Arial"/><a:buChar char="•"/><a:defRPr sz="2400"/></a:lvl3pPr></p:bodyStyle><p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr></p:otherStyle></p:txStyles>"#;

/// One slide of a [`PptxFixture`].
#[derive(Default, Clone)]
pub(crate) struct PptxSlide {
    /// Shapes inside `p:spTree` (after the group properties).
    pub tree: String,
    /// Attributes of `p:sld` (e.g. `show="0"`).
    pub attrs: String,
    /// Content of `p:cSld` before the shape tree (e.g. a `p:bg`).
    pub before_tree: String,
    /// Notes text, one string per paragraph.
    pub notes: Vec<String>,
    /// `(id, type suffix or full URI, target, external)` relationships of the slide.
    pub rels: Vec<(String, String, String, bool)>,
    /// Leave out the slide part itself (the relationship still points at it).
    pub omit_part: bool,
    /// Content of `p:clrMapOvr` (default: `a:masterClrMapping`).
    pub clr_map: Option<String>,
}

impl PptxSlide {
    pub(crate) fn new(tree: &str) -> Self {
        Self {
            tree: tree.to_owned(),
            ..Self::default()
        }
    }
}

/// A hand-built presentation: one master (with [`PPTX_MASTER_TREE`] and
/// [`PPTX_TX_STYLES`]), one layout, a theme, and the given slides.
#[derive(Clone)]
pub(crate) struct PptxFixture {
    pub slides: Vec<PptxSlide>,
    /// Shapes of the layout's tree.
    pub layout_tree: String,
    /// Extra shapes of the master's tree (after its placeholders).
    pub master_extra: String,
    /// Content of the master's `p:cSld` before its tree (its background).
    pub master_bg: String,
    /// `p:sldSz` as (cx, cy).
    pub size: (i64, i64),
    /// The theme part; `None` leaves it out.
    pub theme: Option<String>,
    /// Override of the layout's relationship to its master (target), for loop tests.
    pub layout_master_target: Option<String>,
    /// Leave out the layout part.
    pub omit_layout: bool,
    /// Extra parts (media, charts, table styles).
    pub parts: Vec<(String, Vec<u8>)>,
    /// Extra relationships of the presentation part.
    pub pres_rels: Vec<(String, String, String)>,
    /// Order of slides in `sldIdLst`, as indexes into `slides` (default: in order).
    pub order: Option<Vec<usize>>,
}

impl Default for PptxFixture {
    fn default() -> Self {
        Self {
            slides: Vec::new(),
            layout_tree: String::new(),
            master_extra: String::new(),
            master_bg: r#"<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>"#
                .to_owned(),
            size: (9_144_000, 6_858_000),
            theme: Some(PPTX_THEME.to_owned()),
            layout_master_target: None,
            omit_layout: false,
            parts: Vec::new(),
            pres_rels: Vec::new(),
            order: None,
        }
    }
}

fn rels_xml(items: &[(String, String, String, bool)]) -> String {
    let mut s = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for (id, kind, target, external) in items {
        let ty = if kind.contains("://") {
            kind.clone()
        } else {
            format!("{REL_NS}{kind}")
        };
        let mode = if *external {
            r#" TargetMode="External""#
        } else {
            ""
        };
        s.push_str(&format!(
            r#"<Relationship Id="{id}" Type="{ty}" Target="{target}"{mode}/>"#
        ));
    }
    s.push_str("</Relationships>");
    s
}

fn rel(id: &str, kind: &str, target: &str) -> (String, String, String, bool) {
    (id.to_owned(), kind.to_owned(), target.to_owned(), false)
}

/// Group properties every shape tree starts with.
const TREE_START: &str = r#"<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>"#;

impl PptxFixture {
    pub(crate) fn new(slides: Vec<PptxSlide>) -> Self {
        Self {
            slides,
            ..Self::default()
        }
    }

    pub(crate) fn build(&self) -> Vec<u8> {
        let types = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/><Default Extension="emf" ContentType="image/x-emf"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>"#;
        let mut zip = ZipBuilder::new().file("[Content_Types].xml", types).file(
            "_rels/.rels",
            rels_xml(&[rel("rId1", "officeDocument", "ppt/presentation.xml")]),
        );
        let mut pres_rels = vec![
            rel("rId1", "slideMaster", "slideMasters/slideMaster1.xml"),
            rel("rId2", "theme", "theme/theme1.xml"),
        ];
        for (id, kind, target) in &self.pres_rels {
            pres_rels.push(rel(id, kind, target));
        }
        let order: Vec<usize> = self
            .order
            .clone()
            .unwrap_or_else(|| (0..self.slides.len()).collect());
        let mut ids = String::new();
        for (n, &i) in order.iter().enumerate() {
            ids.push_str(&format!(
                r#"<p:sldId id="{}" r:id="rId{}"/>"#,
                256 + n,
                100 + i
            ));
        }
        for i in 0..self.slides.len() {
            pres_rels.push(rel(
                &format!("rId{}", 100 + i),
                "slide",
                &format!("slides/slide{}.xml", i + 1),
            ));
        }
        zip = zip.file("ppt/_rels/presentation.xml.rels", rels_xml(&pres_rels));
        zip = zip.file(
            "ppt/presentation.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><p:presentation {PML_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>{ids}</p:sldIdLst><p:sldSz cx="{}" cy="{}"/><p:notesSz cx="6858000" cy="9144000"/><p:defaultTextStyle><a:lvl1pPr marL="0" algn="l"><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr><a:lvl2pPr marL="457200"><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl2pPr></p:defaultTextStyle></p:presentation>"#,
                self.size.0, self.size.1
            ),
        );
        if let Some(theme) = &self.theme {
            zip = zip.file("ppt/theme/theme1.xml", theme);
        }
        zip = zip.file(
            "ppt/slideMasters/slideMaster1.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><p:sldMaster {PML_NS}><p:cSld>{}<p:spTree>{TREE_START}{PPTX_MASTER_TREE}{}</p:spTree></p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>{PPTX_TX_STYLES}</p:sldMaster>"#,
                self.master_bg, self.master_extra
            ),
        );
        zip = zip.file(
            "ppt/slideMasters/_rels/slideMaster1.xml.rels",
            rels_xml(&[
                rel("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"),
                rel("rId2", "theme", "../theme/theme1.xml"),
            ]),
        );
        if !self.omit_layout {
            zip = zip.file(
                "ppt/slideLayouts/slideLayout1.xml",
                format!(
                    r#"<?xml version="1.0" encoding="UTF-8"?><p:sldLayout {PML_NS} type="obj"><p:cSld name="Title and Content"><p:spTree>{TREE_START}{}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>"#,
                    self.layout_tree
                ),
            );
        }
        let master_target = self
            .layout_master_target
            .clone()
            .unwrap_or_else(|| "../slideMasters/slideMaster1.xml".to_owned());
        zip = zip.file(
            "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
            rels_xml(&[rel("rId1", "slideMaster", &master_target)]),
        );
        for (i, slide) in self.slides.iter().enumerate() {
            let n = i + 1;
            let mut rels = vec![rel(
                "rId1",
                "slideLayout",
                "../slideLayouts/slideLayout1.xml",
            )];
            if !slide.notes.is_empty() {
                rels.push(rel(
                    "rId2",
                    "notesSlide",
                    &format!("../notesSlides/notesSlide{n}.xml"),
                ));
                let paras: String = slide
                    .notes
                    .iter()
                    .map(|p| format!("<a:p><a:r><a:t>{p}</a:t></a:r></a:p>"))
                    .collect();
                zip = zip.file(
                    &format!("ppt/notesSlides/notesSlide{n}.xml"),
                    format!(
                        r#"<?xml version="1.0" encoding="UTF-8"?><p:notes {PML_NS}><p:cSld><p:spTree>{TREE_START}<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>{paras}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>"#
                    ),
                );
            }
            rels.extend(slide.rels.iter().cloned());
            zip = zip.file(
                &format!("ppt/slides/_rels/slide{n}.xml.rels"),
                rels_xml(&rels),
            );
            if !slide.omit_part {
                zip = zip.file(
                    &format!("ppt/slides/slide{n}.xml"),
                    format!(
                        r#"<?xml version="1.0" encoding="UTF-8"?><p:sld {PML_NS} {}><p:cSld>{}<p:spTree>{TREE_START}{}</p:spTree></p:cSld><p:clrMapOvr>{}</p:clrMapOvr></p:sld>"#,
                        slide.attrs,
                        slide.before_tree,
                        slide.tree,
                        slide.clr_map.as_deref().unwrap_or("<a:masterClrMapping/>")
                    ),
                );
            }
        }
        for (name, bytes) in &self.parts {
            zip = zip.file(name, bytes);
        }
        zip.finish()
    }
}

/// A `p:sp`: `ph` is the inside of a `p:ph` element's attributes (e.g. `type="title"`),
/// `xfrm` the box (x, y, cx, cy), `sp_pr` extra shape properties (geometry, fill, line),
/// `body` the paragraphs (`<a:p>…`).
pub(crate) fn pptx_sp(
    id: u32,
    ph: Option<&str>,
    xfrm: Option<(i64, i64, i64, i64)>,
    sp_pr: &str,
    body: &str,
) -> String {
    let ph = ph.map_or(String::new(), |p| format!("<p:ph {p}/>"));
    let xfrm = xfrm.map_or(String::new(), |(x, y, cx, cy)| {
        format!(r#"<a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>"#)
    });
    let tx = if body.is_empty() {
        String::new()
    } else {
        format!("<p:txBody><a:bodyPr/><a:lstStyle/>{body}</p:txBody>")
    };
    format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="{id}" name="Shape {id}"/><p:cNvSpPr/><p:nvPr>{ph}</p:nvPr></p:nvSpPr><p:spPr>{xfrm}{sp_pr}</p:spPr>{tx}</p:sp>"#
    )
}

/// A paragraph with one run.
pub(crate) fn pptx_p(text: &str) -> String {
    format!("<a:p><a:r><a:rPr lang=\"en-US\"/><a:t>{text}</a:t></a:r></a:p>")
}

/// The texts of all `a:t` elements of a part, in document order, after markup
/// compatibility is resolved the way the PPTX parser resolves it.
pub(crate) fn part_texts(bytes: &[u8], part: &str) -> Vec<String> {
    let package =
        crate::office::OfficePackage::open(bytes, &crate::office::OfficeLimits::default()).unwrap();
    let doc = package.read_xml(part, &[]).unwrap();
    doc.root()
        .descendants()
        .filter(|e| e.is(crate::office::Ns::A, "t"))
        .map(|e| e.text().into_owned())
        .filter(|t| !t.is_empty())
        .collect()
}
