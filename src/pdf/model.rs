//! The document model read from the syntax layer: pages (size, rotation, http(s) links),
//! outline, information dictionary and fonts. Nothing here interprets a content stream.

use std::collections::{HashMap, HashSet};

use hayro::hayro_syntax::object::{Array, Dict, Name, Object, ObjectIdentifier, Rect};
use hayro::hayro_syntax::page::{Page, Rotation};
use hayro::hayro_syntax::Pdf;
use serde::Serialize;

use super::PdfLimits;

/// What previewd shows of a PDF besides its pages' pixels and text.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PdfModel {
    /// Number of pages.
    pub page_count: usize,
    /// The PDF version, e.g. `1.7`.
    pub version: String,
    /// Whether the file is encrypted (it opened with the empty user password).
    pub encrypted: bool,
    /// The information dictionary.
    pub metadata: Metadata,
    /// Every page, in order.
    pub pages: Vec<PageInfo>,
    /// Bookmarks, in document order, each with its depth.
    pub outline: Vec<OutlineItem>,
    /// Fonts the pages use (by name and type), in order of first use.
    pub fonts: Vec<FontInfo>,
}

/// The information dictionary, as text.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// `/Title`.
    pub title: Option<String>,
    /// `/Author`.
    pub author: Option<String>,
    /// `/Subject`.
    pub subject: Option<String>,
    /// `/Keywords`.
    pub keywords: Option<String>,
    /// `/Creator`: the application that made the original document.
    pub creator: Option<String>,
    /// `/Producer`: the application that wrote the PDF.
    pub producer: Option<String>,
    /// `/CreationDate`, as RFC 3339.
    pub created: Option<String>,
    /// `/ModDate`, as RFC 3339.
    pub modified: Option<String>,
}

/// One page's geometry and links.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    /// Width in points of the crop box (within the media box), before rotation.
    pub width: f32,
    /// Height in points, before rotation.
    pub height: f32,
    /// Clockwise rotation in degrees: 0, 90, 180 or 270.
    pub rotation: u16,
    /// http and https link annotations, in display coordinates.
    pub links: Vec<Link>,
}

impl PageInfo {
    /// Width and height in points as displayed (after rotation).
    pub fn display_size(&self) -> (f32, f32) {
        if self.rotation % 180 == 90 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }
}

/// A link annotation to an http(s) URL; other actions (JavaScript, launch, files, GoTo
/// into other files) are never exposed.
#[derive(Debug, Clone, Serialize)]
pub struct Link {
    /// The target URL.
    pub url: String,
    /// Left edge in points from the displayed page's left.
    pub x: f32,
    /// Top edge in points from the displayed page's top.
    pub y: f32,
    /// Width in points.
    pub w: f32,
    /// Height in points.
    pub h: f32,
}

/// A bookmark.
#[derive(Debug, Clone, Serialize)]
pub struct OutlineItem {
    /// Its text.
    pub title: String,
    /// Nesting depth, 0 for top-level entries.
    pub depth: usize,
    /// The 0-based page it leads to, when it leads to a page of this document.
    pub page: Option<usize>,
}

/// A font the document uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct FontInfo {
    /// `/BaseFont` without a subset prefix.
    pub name: String,
    /// `/Subtype`: Type1, TrueType, Type0, Type3…
    pub kind: String,
    /// Whether its program is embedded in the file.
    pub embedded: bool,
}

/// Reads the model of an opened document.
pub fn read(pdf: &Pdf, encrypted: bool, limits: &PdfLimits) -> PdfModel {
    let pages = pdf.pages();
    let ids: HashMap<ObjectIdentifier, usize> = pages
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((p.raw().obj_id()?, i)))
        .collect();
    let meta = pdf.metadata();
    let text = |v: &Option<Box<[u8]>>| v.as_deref().map(decode_text).filter(|s| !s.is_empty());
    let date = |d: &Option<hayro::hayro_syntax::object::DateTime>| {
        d.map(|d| {
            let sign = if d.utc_offset_hour < 0 { '-' } else { '+' };
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
                d.year,
                d.month.max(1),
                d.day.max(1),
                d.hour,
                d.minute,
                d.second,
                d.utc_offset_hour.unsigned_abs(),
                d.utc_offset_minute
            )
        })
    };
    PdfModel {
        page_count: pages.len(),
        version: version(pdf),
        encrypted,
        metadata: Metadata {
            title: text(&meta.title),
            author: text(&meta.author),
            subject: text(&meta.subject),
            keywords: text(&meta.keywords),
            creator: text(&meta.creator),
            producer: text(&meta.producer),
            created: date(&meta.creation_date),
            modified: date(&meta.modification_date),
        },
        pages: pages.iter().map(page_info).collect(),
        outline: outline(pdf, &ids, limits.max_outline_items),
        fonts: fonts(pages),
    }
}

fn version(pdf: &Pdf) -> String {
    // The enum's debug name is `Pdf17` and so on.
    let name = format!("{:?}", pdf.version());
    let digits: String = name.chars().filter(char::is_ascii_digit).collect();
    match digits.len() {
        2 => format!("{}.{}", &digits[..1], &digits[1..]),
        _ => digits,
    }
}

fn page_info(page: &Page<'_>) -> PageInfo {
    let (width, height) = page.base_dimensions();
    let rotation = match page.rotation() {
        Rotation::None => 0,
        Rotation::Horizontal => 90,
        Rotation::Flipped => 180,
        Rotation::FlippedHorizontal => 270,
    };
    PageInfo {
        width,
        height,
        rotation,
        links: links(page),
    }
}

/// The http(s) links of a page's annotations, mapped to display coordinates.
fn links(page: &Page<'_>) -> Vec<Link> {
    let Some(annots) = page.raw().get::<Array<'_>>(b"Annots") else {
        return Vec::new();
    };
    let transform = page.initial_transform(true);
    let mut out = Vec::new();
    for annot in annots.iter::<Dict<'_>>().take(10_000) {
        if annot.get::<Name<'_>>(b"Subtype").as_deref() != Some(b"Link".as_slice()) {
            continue;
        }
        let Some(action) = annot.get::<Dict<'_>>(b"A") else {
            continue;
        };
        if action.get::<Name<'_>>(b"S").as_deref() != Some(b"URI".as_slice()) {
            continue;
        }
        let Some(uri) = action.get::<hayro::hayro_syntax::object::String<'_>>(b"URI") else {
            continue;
        };
        let url = String::from_utf8_lossy(uri.as_bytes()).trim().to_string();
        let lower = url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            continue;
        }
        let Some(rect) = annot.get::<Rect>(b"Rect") else {
            continue;
        };
        let bbox = transform_rect(&transform, rect);
        out.push(Link {
            url,
            x: bbox.0,
            y: bbox.1,
            w: bbox.2 - bbox.0,
            h: bbox.3 - bbox.1,
        });
    }
    out
}

fn transform_rect(t: &hayro::hayro_syntax::transform::Transform, r: Rect) -> (f32, f32, f32, f32) {
    let [a, b, c, d, e, f] = (*t).as_coeffs();
    let corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x0, r.y1), (r.x1, r.y1)];
    let mut out = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in corners {
        let (px, py) = (a * x + c * y + e, b * x + d * y + f);
        out = (out.0.min(px), out.1.min(py), out.2.max(px), out.3.max(py));
    }
    (out.0 as f32, out.1 as f32, out.2 as f32, out.3 as f32)
}

/// Walks the outline (`/First`, `/Next`), refusing to visit an item twice, so a cyclic
/// outline ends.
fn outline(pdf: &Pdf, ids: &HashMap<ObjectIdentifier, usize>, max: usize) -> Vec<OutlineItem> {
    let Some(root) = pdf.xref().get::<Dict<'_>>(pdf.xref().root_id()) else {
        return Vec::new();
    };
    let Some(outlines) = root.get::<Dict<'_>>(b"Outlines") else {
        return Vec::new();
    };
    let names = NamedDests::new(&root);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(Dict<'_>, usize)> = Vec::new();
    if let Some(first) = outlines.get::<Dict<'_>>(b"First") {
        stack.push((first, 0));
    }
    while let Some((item, depth)) = stack.pop() {
        if out.len() >= max || depth > 64 {
            break;
        }
        let key = item.obj_id();
        if key.is_some_and(|k| !seen.insert(k)) {
            continue;
        }
        let title = item
            .get::<hayro::hayro_syntax::object::String<'_>>(b"Title")
            .map(|s| decode_text(s.as_bytes()))
            .unwrap_or_default();
        let page = destination(&item, &names).and_then(|id| ids.get(&id).copied());
        out.push(OutlineItem { title, depth, page });
        // Next is pushed first so the children are walked before the siblings.
        if let Some(next) = item.get::<Dict<'_>>(b"Next") {
            stack.push((next, depth));
        }
        if let Some(child) = item.get::<Dict<'_>>(b"First") {
            stack.push((child, depth + 1));
        }
    }
    out
}

/// The page object an outline item's `/Dest` or `/A` (GoTo only) points at.
fn destination(item: &Dict<'_>, names: &NamedDests<'_>) -> Option<ObjectIdentifier> {
    let target = match item.get::<Object<'_>>(b"Dest") {
        Some(dest) => dest,
        None => {
            let action = item.get::<Dict<'_>>(b"A")?;
            if action.get::<Name<'_>>(b"S").as_deref() != Some(b"GoTo".as_slice()) {
                return None;
            }
            action.get::<Object<'_>>(b"D")?
        }
    };
    let array = match target {
        Object::Array(a) => a,
        Object::Name(n) => names.find(&n)?,
        Object::String(s) => names.find(s.as_bytes())?,
        _ => return None,
    };
    let page = array.raw_iter().next()?.as_obj_ref()?;
    Some(ObjectIdentifier::new(page.obj_number, page.gen_number))
}

/// Named destinations: the catalog's `/Dests` dictionary and its `/Names /Dests` tree.
struct NamedDests<'a> {
    dests: Option<Dict<'a>>,
    tree: Option<Dict<'a>>,
}

impl<'a> NamedDests<'a> {
    fn new(root: &Dict<'a>) -> Self {
        NamedDests {
            dests: root.get::<Dict<'a>>(b"Dests"),
            tree: root
                .get::<Dict<'a>>(b"Names")
                .and_then(|n| n.get::<Dict<'a>>(b"Dests")),
        }
    }

    fn find(&self, name: &[u8]) -> Option<Array<'a>> {
        if let Some(found) = self.dests.as_ref().and_then(|d| d.get::<Object<'a>>(name)) {
            return dest_array(found);
        }
        let mut node = self.tree.clone()?;
        // A name tree is shallow; the bound ends a cyclic one.
        for _ in 0..32 {
            if let Some(pairs) = node.get::<Array<'a>>(b"Names") {
                let items: Vec<Object<'a>> = pairs.iter::<Object<'a>>().collect();
                for pair in items.chunks(2) {
                    if let [Object::String(key), value] = pair {
                        if key.as_bytes() == name {
                            return dest_array(value.clone());
                        }
                    }
                }
                return None;
            }
            let kids = node.get::<Array<'a>>(b"Kids")?;
            let mut next = None;
            for kid in kids.iter::<Dict<'a>>() {
                let in_range = kid
                    .get::<Array<'a>>(b"Limits")
                    .map(|l| {
                        let bounds: Vec<hayro::hayro_syntax::object::String<'a>> = l.iter().collect();
                        matches!(bounds.as_slice(), [lo, hi] if lo.as_bytes() <= name && name <= hi.as_bytes())
                    })
                    .unwrap_or(true);
                if in_range {
                    next = Some(kid);
                    break;
                }
            }
            node = next?;
        }
        None
    }
}

fn dest_array(value: Object<'_>) -> Option<Array<'_>> {
    match value {
        Object::Array(a) => Some(a),
        Object::Dict(d) => d.get::<Array<'_>>(b"D"),
        _ => None,
    }
}

/// The fonts of every page's resources, deduplicated by name and type.
fn fonts(pages: &[Page<'_>]) -> Vec<FontInfo> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut visited = HashSet::new();
    for page in pages {
        let fonts = &page.resources().fonts;
        for key in fonts.keys() {
            let Some(font) = fonts.get::<Dict<'_>>(key.as_ref()) else {
                continue;
            };
            if let Some(id) = font.obj_id() {
                if !visited.insert(id) {
                    continue;
                }
            }
            let info = font_info(&font);
            if seen.insert(info.clone()) {
                out.push(info);
            }
            if out.len() >= 1000 {
                return out;
            }
        }
    }
    out
}

fn font_info(font: &Dict<'_>) -> FontInfo {
    let name = font
        .get::<Name<'_>>(b"BaseFont")
        .map(|n| String::from_utf8_lossy(&n).into_owned())
        .unwrap_or_else(|| "(unnamed)".to_string());
    // A subset is named `ABCDEF+Name`.
    let name = match name.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => {
            rest.to_string()
        }
        _ => name,
    };
    let kind = font
        .get::<Name<'_>>(b"Subtype")
        .map(|n| String::from_utf8_lossy(&n).into_owned())
        .unwrap_or_default();
    let descriptor = font.get::<Dict<'_>>(b"FontDescriptor").or_else(|| {
        font.get::<Array<'_>>(b"DescendantFonts")
            .and_then(|a| a.iter::<Dict<'_>>().next())
            .and_then(|d| d.get::<Dict<'_>>(b"FontDescriptor"))
    });
    let embedded = kind == "Type3"
        || descriptor.is_some_and(|d| {
            [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
                .iter()
                .any(|k| d.contains_key(k))
        });
    FontInfo {
        name,
        kind,
        embedded,
    }
}

/// A PDF text string as Rust text: UTF-16BE or UTF-8 with a byte-order mark, otherwise
/// PDFDocEncoding (Latin-1 for every byte that matters here).
pub fn decode_text(bytes: &[u8]) -> String {
    let text = if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else if let Some(rest) = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        bytes.iter().map(|&b| pdf_doc_char(b)).collect()
    };
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect::<String>()
        .trim()
        .to_string()
}

fn pdf_doc_char(b: u8) -> char {
    match b {
        0x80 => '•',
        0x81 => '†',
        0x82 => '‡',
        0x83 => '…',
        0x84 => '—',
        0x85 => '–',
        0x8d => '“',
        0x8e => '”',
        0x8f => '‘',
        0x90 => '’',
        0x92 => '™',
        0x93 => 'ﬁ',
        0x94 => 'ﬂ',
        0xa0 => '€',
        _ => b as char,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_strings_decode() {
        assert_eq!(decode_text(b"\xfe\xff\x00H\x00i"), "Hi");
        assert_eq!(decode_text(b"caf\xe9"), "café");
        assert_eq!(decode_text(b"\xef\xbb\xbfna\xc3\xafve"), "naïve");
    }
}
