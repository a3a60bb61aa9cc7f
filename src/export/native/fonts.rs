//! Fonts of the native export: DejaVu Sans Mono (regular and bold) shipped in the binary,
//! then fonts found on the machine for characters it lacks (CJK, emoji, other scripts).
//!
//! Lookup order for a character: the shipped face of the wanted weight, the shipped
//! regular face, then the machine's fonts (monospaced families first, then by family name,
//! so the choice is the same every run). A character no font has is drawn as the shipped
//! font's `.notdef` glyph, a box one cell wide, as a browser does, and counted.
//!
//! The machine's fonts are scanned once, on the first character the shipped faces lack:
//! each face's cmap segments are kept as code point ranges and its file closed again, so
//! an idle service holds none of them. A face is read into memory only when a character
//! needs it, and then only its advances are decoded; an outline is read when its glyph is
//! first drawn (see [`Outlines`] for why not fontdue there).
//! Rasterized glyphs are cached per face, glyph and pixel size (bounded; cleared when full).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// Index of a face in [`Fonts`]: 0 and 1 are the shipped regular and bold faces.
pub type FaceId = u16;

/// The shipped regular face.
pub const REGULAR: FaceId = 0;
/// The shipped bold face.
pub const BOLD: FaceId = 1;

/// DejaVu Sans Mono, regular (licence: `assets/fonts/LICENSE-DejaVu.txt`).
pub const MONO_REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");
/// DejaVu Sans Mono, bold.
pub const MONO_BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf");

/// The family name the viewer's image variant gives the shipped faces.
pub const IMAGE_FONT_FAMILY: &str = "previewd-mono";

/// Glyphs kept rasterized before the cache is emptied.
const GLYPH_CACHE_ENTRIES: usize = 16_384;

/// Fallback faces larger than this are not loaded (a font collection of many scripts can
/// run to tens of MiB; the service's memory budget is smaller than that).
const MAX_FALLBACK_BYTES: usize = 24 * 1024 * 1024;

/// One loaded face.
pub struct Face {
    /// How glyph outlines are read.
    outlines: Outlines,
    /// The font file (embedded, subset, in PDFs).
    pub data: Arc<[u8]>,
    /// Face index within `data` (font collections).
    pub index: u32,
    /// Family name, for logs and the PDF font name.
    pub family: String,
    /// Ascender and descender (positive) as fractions of the em, from `hhea`.
    pub ascent: f32,
    /// See `ascent`.
    pub descent: f32,
    /// Font units per em.
    pub units_per_em: f32,
}

/// The two ways a face's glyphs are drawn.
///
/// The shipped faces are small (two fonts of ~3,000 glyphs) and drawn for every character
/// of every image, so fontdue parses their outlines once, up front. A machine font found
/// for a fallback can be a CJK collection of 65,000 glyphs: fontdue would parse all of
/// them on load (1.2 s and ~350 MB for Noto Sans CJK), to draw the dozen a diff holds. Those
/// faces keep only their advances; an outline is read by ttf-parser when a glyph is first
/// drawn and filled by `ab_glyph_rasterizer` (the small, dependency-free coverage
/// rasterizer of the ab_glyph family), and the result lands in the same glyph cache.
enum Outlines {
    /// All outlines parsed (the shipped faces).
    Parsed(fontdue::Font),
    /// Outlines read per glyph; the advance of every glyph in font units.
    Lazy { advances: Vec<u16> },
}

impl Face {
    /// A shipped face: every outline parsed now.
    fn parsed(data: Arc<[u8]>, family: String) -> Option<Face> {
        let settings = fontdue::FontSettings::default();
        let font = fontdue::Font::from_bytes(&data[..], settings).ok()?;
        Face::with_outlines(Outlines::Parsed(font), data, 0, family)
    }

    /// A machine face: outlines read when a glyph is drawn.
    fn lazy(data: Arc<[u8]>, index: u32, family: String) -> Option<Face> {
        let parsed = ttf_parser::Face::parse(&data, index).ok()?;
        let advances = (0..parsed.number_of_glyphs())
            .map(|g| {
                parsed
                    .glyph_hor_advance(ttf_parser::GlyphId(g))
                    .unwrap_or(0)
            })
            .collect();
        Face::with_outlines(Outlines::Lazy { advances }, data, index, family)
    }

    fn with_outlines(
        outlines: Outlines,
        data: Arc<[u8]>,
        index: u32,
        family: String,
    ) -> Option<Face> {
        let parsed = ttf_parser::Face::parse(&data, index).ok()?;
        let upem = f32::from(parsed.units_per_em().max(1));
        let ascent = f32::from(parsed.ascender()) / upem;
        let descent = -f32::from(parsed.descender()) / upem;
        Some(Face {
            outlines,
            data,
            index,
            family,
            ascent,
            descent,
            units_per_em: upem,
        })
    }

    /// The glyph `c` maps to; 0 (`.notdef`) when the face lacks it.
    pub fn glyph_index(&self, c: char) -> u16 {
        match &self.outlines {
            Outlines::Parsed(font) => font.lookup_glyph_index(c),
            Outlines::Lazy { .. } => ttf_parser::Face::parse(&self.data, self.index)
                .ok()
                .and_then(|f| f.glyph_index(c))
                .map_or(0, |g| g.0),
        }
    }

    /// Horizontal advance of glyph `gid` at `px`, CSS px.
    pub fn advance(&self, gid: u16, px: f32) -> f32 {
        match &self.outlines {
            Outlines::Parsed(font) => font.metrics_indexed(gid, px).advance_width,
            Outlines::Lazy { advances } => {
                let units = advances.get(usize::from(gid)).copied().unwrap_or(0);
                f32::from(units) * px / self.units_per_em
            }
        }
    }

    /// Advance of `gid` in font units (the PDF widths array).
    pub fn advance_units(&self, gid: u16) -> f32 {
        self.advance(gid, self.units_per_em)
    }

    /// The coverage of `gid` at `px` device pixels.
    fn rasterize(&self, gid: u16, px: f32) -> Bitmap {
        match &self.outlines {
            Outlines::Parsed(font) => {
                let (metrics, coverage) = font.rasterize_indexed(gid, px);
                Bitmap {
                    left: metrics.xmin,
                    top: -(metrics.ymin + metrics.height as i32),
                    width: metrics.width,
                    height: metrics.height,
                    coverage,
                }
            }
            Outlines::Lazy { .. } => {
                let scale = px / self.units_per_em;
                ttf_parser::Face::parse(&self.data, self.index)
                    .ok()
                    .and_then(|face| outline_coverage(&face, gid, scale, px))
                    .unwrap_or(Bitmap::EMPTY)
            }
        }
    }
}

/// Draws the outline of `gid` at `scale` px per font unit into a coverage bitmap: `None`
/// for a glyph without an outline (a space). A bitmap side is capped at eight ems, so a
/// crafted bounding box cannot ask for a huge buffer; the outline is clipped to it.
fn outline_coverage(face: &ttf_parser::Face, gid: u16, scale: f32, px: f32) -> Option<Bitmap> {
    struct Pen {
        raster: ab_glyph_rasterizer::Rasterizer,
        scale: f32,
        left: f32,
        top: f32,
        start: ab_glyph_rasterizer::Point,
        last: ab_glyph_rasterizer::Point,
    }
    impl Pen {
        fn at(&self, x: f32, y: f32) -> ab_glyph_rasterizer::Point {
            ab_glyph_rasterizer::point(x * self.scale - self.left, self.top - y * self.scale)
        }
    }
    impl ttf_parser::OutlineBuilder for Pen {
        fn move_to(&mut self, x: f32, y: f32) {
            self.close();
            self.start = self.at(x, y);
            self.last = self.start;
        }
        fn line_to(&mut self, x: f32, y: f32) {
            let to = self.at(x, y);
            self.raster.draw_line(self.last, to);
            self.last = to;
        }
        fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
            let (c, to) = (self.at(x1, y1), self.at(x, y));
            self.raster.draw_quad(self.last, c, to);
            self.last = to;
        }
        fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
            let (c1, c2, to) = (self.at(x1, y1), self.at(x2, y2), self.at(x, y));
            self.raster.draw_cubic(self.last, c1, c2, to);
            self.last = to;
        }
        fn close(&mut self) {
            if self.last != self.start {
                self.raster.draw_line(self.last, self.start);
                self.last = self.start;
            }
        }
    }

    let bbox = face.glyph_bounding_box(ttf_parser::GlyphId(gid))?;
    let cap = (px * 8.0).ceil().max(1.0);
    let left = (f32::from(bbox.x_min) * scale).floor();
    let top = (f32::from(bbox.y_max) * scale).ceil();
    let width = ((f32::from(bbox.x_max) * scale).ceil() - left).clamp(1.0, cap);
    let height = (top - (f32::from(bbox.y_min) * scale).floor()).clamp(1.0, cap);
    let (width, height) = (width as usize, height as usize);
    let origin = ab_glyph_rasterizer::point(0.0, 0.0);
    let mut pen = Pen {
        raster: ab_glyph_rasterizer::Rasterizer::new(width, height),
        scale,
        left,
        top,
        start: origin,
        last: origin,
    };
    face.outline_glyph(ttf_parser::GlyphId(gid), &mut pen)?;
    ttf_parser::OutlineBuilder::close(&mut pen);
    let mut coverage = vec![0u8; width * height];
    pen.raster.for_each_pixel(|i, alpha| {
        if let Some(c) = coverage.get_mut(i) {
            *c = (alpha.min(1.0) * 255.0).round() as u8;
        }
    });
    Some(Bitmap {
        left: left as i32,
        top: -(top as i32),
        width,
        height,
        coverage,
    })
}

/// A rasterized glyph: coverage bytes, placed relative to the pen position.
pub struct Bitmap {
    /// Left edge relative to the pen, device px.
    pub left: i32,
    /// Top edge relative to the baseline (negative: above), device px.
    pub top: i32,
    /// Width in px.
    pub width: usize,
    /// Height in px.
    pub height: usize,
    /// `width × height` coverage values, row by row.
    pub coverage: Vec<u8>,
}

impl Bitmap {
    /// Nothing to draw (a space, or a glyph whose outline cannot be read).
    const EMPTY: Bitmap = Bitmap {
        left: 0,
        top: 0,
        width: 0,
        height: 0,
        coverage: Vec::new(),
    };
}

/// A machine font that may serve as a fallback: where it is and what it covers.
struct Candidate {
    id: fontdb::ID,
    family: String,
    /// `usWeightClass` (400 regular, 700 bold).
    weight: u16,
    italic: bool,
    /// Sorted, disjoint inclusive code point ranges.
    ranges: Vec<(u32, u32)>,
    loaded: Option<FaceId>,
}

/// Every face in use, the fallback index and the glyph cache.
pub struct Fonts {
    faces: RwLock<Vec<Arc<Face>>>,
    fallback: Mutex<Option<Fallback>>,
    glyphs: Mutex<HashMap<(FaceId, u16, u32), Arc<Bitmap>>>,
}

struct Fallback {
    db: fontdb::Database,
    candidates: Vec<Candidate>,
    /// Characters already looked up.
    chosen: HashMap<(char, bool), Option<(FaceId, u16)>>,
}

/// The process-wide fonts (the shipped faces are parsed on first use).
pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let regular = Face::parsed(Arc::from(MONO_REGULAR_TTF), "DejaVu Sans Mono".into())
            .expect("the shipped regular font parses");
        let bold = Face::parsed(Arc::from(MONO_BOLD_TTF), "DejaVu Sans Mono Bold".into())
            .expect("the shipped bold font parses");
        Fonts {
            faces: RwLock::new(vec![Arc::new(regular), Arc::new(bold)]),
            fallback: Mutex::new(None),
            glyphs: Mutex::new(HashMap::new()),
        }
    })
}

/// Where a character's glyph comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlyphRef {
    /// The face.
    pub face: FaceId,
    /// Glyph index in it; 0 (`.notdef`, a box) when no font has the character.
    pub gid: u16,
    /// Whether no font had the character.
    pub missing: bool,
}

impl Fonts {
    /// The face `id` (ids come from [`Fonts::resolve`], so it exists).
    pub fn face(&self, id: FaceId) -> Arc<Face> {
        let faces = self.faces.read().unwrap_or_else(|e| e.into_inner());
        faces
            .get(usize::from(id))
            .or_else(|| faces.first())
            .cloned()
            .expect("the shipped faces are always loaded")
    }

    /// The glyph for `c` in the wanted weight, falling back as the module says.
    pub fn resolve(&self, c: char, bold: bool) -> GlyphRef {
        let primary = if bold { BOLD } else { REGULAR };
        for id in [primary, REGULAR] {
            let gid = self.face(id).glyph_index(c);
            if gid != 0 {
                return GlyphRef {
                    face: id,
                    gid,
                    missing: false,
                };
            }
        }
        match self.fallback_glyph(c, bold) {
            Some((face, gid)) => GlyphRef {
                face,
                gid,
                missing: false,
            },
            None => GlyphRef {
                face: primary,
                gid: 0,
                missing: true,
            },
        }
    }

    /// The first machine face (in the module's order) that maps `c` to a glyph; for bold
    /// text, the bold face of that family when it has one that maps `c` too.
    fn fallback_glyph(&self, c: char, bold: bool) -> Option<(FaceId, u16)> {
        let mut guard = self.fallback.lock().unwrap_or_else(|e| e.into_inner());
        let fallback = guard.get_or_insert_with(Fallback::scan);
        if let Some(known) = fallback.chosen.get(&(c, bold)) {
            return *known;
        }
        let mut found = None;
        let mut family = None;
        for i in 0..fallback.candidates.len() {
            if let Some(hit) = self.try_candidate(fallback, i, c) {
                found = Some(hit);
                family = Some(i);
                break;
            }
        }
        if let (true, Some(i)) = (bold, family) {
            let name = fallback.candidates[i].family.clone();
            let mut bolds: Vec<usize> = (0..fallback.candidates.len())
                .filter(|&j| {
                    let other = &fallback.candidates[j];
                    other.family == name && !other.italic && other.weight >= 600
                })
                .collect();
            bolds.sort_by_key(|&j| fallback.candidates[j].weight.abs_diff(700));
            if let Some(hit) = bolds
                .into_iter()
                .find_map(|j| self.try_candidate(fallback, j, c))
            {
                found = Some(hit);
            }
        }
        // Hostile text can hold thousands of distinct unknown characters; the memo stays
        // bounded and a forgotten answer is only looked up again.
        if fallback.chosen.len() > 65_536 {
            fallback.chosen.clear();
        }
        fallback.chosen.insert((c, bold), found);
        found
    }

    /// The glyph of `c` in candidate `i`, loading the face on its first use.
    fn try_candidate(&self, fallback: &mut Fallback, i: usize, c: char) -> Option<(FaceId, u16)> {
        let candidate = &fallback.candidates[i];
        let cp = c as u32;
        let at = candidate.ranges.partition_point(|&(_, hi)| hi < cp);
        if candidate.ranges.get(at).is_none_or(|&(lo, _)| lo > cp) {
            return None;
        }
        // The ranges are the cmap's segments; a segment can still map a character to
        // glyph 0, so the face itself has the last word.
        if let Some(id) = candidate.loaded {
            let gid = self.face(id).glyph_index(c);
            return (gid != 0).then_some((id, gid));
        }
        let gid = fallback
            .db
            .with_face_data(candidate.id, |data, index| {
                ttf_parser::Face::parse(data, index)
                    .ok()
                    .and_then(|f| f.glyph_index(c))
            })
            .flatten()
            .map_or(0, |g| g.0);
        if gid == 0 {
            return None;
        }
        match self.load_candidate(&fallback.db, candidate) {
            Some(id) => {
                fallback.candidates[i].loaded = Some(id);
                Some((id, gid))
            }
            None => {
                // Unloadable (too big, unparsable): never try it again.
                fallback.candidates[i].ranges.clear();
                None
            }
        }
    }

    fn load_candidate(&self, db: &fontdb::Database, candidate: &Candidate) -> Option<FaceId> {
        let (data, index) = db.with_face_data(candidate.id, |data, index| {
            (data.len() <= MAX_FALLBACK_BYTES).then(|| (Arc::<[u8]>::from(data), index))
        })??;
        let face = Face::lazy(data, index, candidate.family.clone())?;
        let mut faces = self.faces.write().unwrap_or_else(|e| e.into_inner());
        let id = FaceId::try_from(faces.len()).ok()?;
        faces.push(Arc::new(face));
        tracing::debug!(family = %candidate.family, "fallback font loaded for the export");
        Some(id)
    }

    /// The coverage bitmap of `gid` in `face` at `px` device pixels (cached).
    pub fn bitmap(&self, face: FaceId, gid: u16, px: f32) -> Arc<Bitmap> {
        let key = (face, gid, (px * 64.0).round() as u32);
        if let Some(hit) = self
            .glyphs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Arc::clone(hit);
        }
        let bitmap = Arc::new(self.face(face).rasterize(gid, px));
        let mut cache = self.glyphs.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= GLYPH_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&bitmap));
        bitmap
    }
}

impl Fallback {
    /// Scans the machine's fonts once: each face's coverage, monospaced families first,
    /// then by family name (the regional variants of a CJK family in [`CJK_REGIONS`]
    /// order, the machine locale's first), upright before italic, the weight nearest
    /// regular first (and the PostScript name last, so the order never depends on the
    /// order of the folders).
    fn scan() -> Fallback {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        let region = machine_region();
        let mut faces: Vec<_> = db
            .faces()
            .map(|f| {
                let family = f
                    .families
                    .first()
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
                let italic = f.style != fontdb::Style::Normal;
                let (base, rank) = region_key(&family, region);
                let key = (!f.monospaced, base.to_owned(), rank, italic);
                let order = (key, f.weight.0.abs_diff(400), family);
                (order, f.post_script_name.clone(), f.weight.0, f.id)
            })
            .collect();
        faces.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let mut candidates = Vec::new();
        for (((_, _, _, italic), _, family), _, weight, id) in faces {
            let ranges = db.with_face_data(id, coverage).unwrap_or_default();
            if !ranges.is_empty() {
                candidates.push(Candidate {
                    id,
                    family,
                    weight,
                    italic,
                    ranges,
                    loaded: None,
                });
            }
        }
        tracing::debug!(fonts = candidates.len(), "export fallback fonts scanned");
        Fallback {
            db,
            candidates,
            chosen: HashMap::new(),
        }
    }
}

/// The regional variants of a CJK family (Noto's `… CJK JP`, `… CJK SC` and so on), in
/// the order the fallback tries them: the machine locale's region first, as fontconfig
/// and so Chromium do, then Japanese (fontconfig's choice for a locale that is not East
/// Asian), Simplified Chinese, Traditional Chinese, Hong Kong and Korean. The variants
/// share most characters but draw many of them differently; taking the first by name,
/// as before, drew every Han character in the Hong Kong forms.
const CJK_REGIONS: [&str; 5] = ["JP", "SC", "TC", "HK", "KR"];

/// The region a locale name (`LC_ALL`, `LC_CTYPE` or `LANG`: `zh_TW.UTF-8`, `ko_KR`,
/// `zh-Hant`) asks for, if it is an East Asian one.
fn locale_region(locale: &str) -> Option<&'static str> {
    let l = locale.to_ascii_lowercase().replace('-', "_");
    let lang = l.split(['_', '.', '@']).next().unwrap_or("");
    match lang {
        "ja" => Some("JP"),
        "ko" => Some("KR"),
        "zh" => Some(if l.contains("hk") || l.contains("mo") {
            "HK"
        } else if l.contains("tw") || l.contains("hant") {
            "TC"
        } else {
            "SC"
        }),
        _ => None,
    }
}

/// The region of the process's locale, read the way the C library does (the first
/// non-empty of `LC_ALL`, `LC_CTYPE`, `LANG`).
fn machine_region() -> Option<&'static str> {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .and_then(|v| locale_region(&v))
}

/// A family name without its region tag, and the tag's rank in the fallback order
/// (`preferred` first); a family without a tag is its own base, rank 0.
fn region_key<'a>(family: &'a str, preferred: Option<&str>) -> (&'a str, usize) {
    let Some((base, tag)) = family.rsplit_once(' ') else {
        return (family, 0);
    };
    let Some(at) = CJK_REGIONS.iter().position(|r| *r == tag) else {
        return (family, 0);
    };
    let rank = match preferred {
        Some(p) if p == tag => 0,
        Some(p) if CJK_REGIONS.iter().position(|r| *r == p) < Some(at) => at,
        _ => at + 1,
    };
    (base, rank)
}

/// The code points a face's Unicode cmap subtables cover, as sorted, disjoint inclusive
/// ranges; empty for a face that cannot be drawn (no outlines: a bitmap-only emoji font
/// would give blank glyphs, where a later face or the visible box is better).
///
/// The ranges are the subtables' segments, a superset of the characters with a glyph (a
/// segment may map some to glyph 0), which [`Fonts::fallback_glyph`] checks. Building them
/// from segments keeps the scan of a machine with several CJK collections to one pass over
/// each cmap, with no list of every code point.
fn coverage(data: &[u8], index: u32) -> Vec<(u32, u32)> {
    let Ok(face) = ttf_parser::Face::parse(data, index) else {
        return Vec::new();
    };
    let tables = face.tables();
    if tables.glyf.is_none() && tables.cff.is_none() && tables.cff2.is_none() {
        return Vec::new();
    }
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    if let Some(cmap) = tables.cmap {
        for sub in cmap.subtables {
            if sub.is_unicode() {
                sub.codepoints(|cp| match ranges.last_mut() {
                    Some((_, hi)) if *hi + 1 == cp => *hi = cp,
                    Some((lo, hi)) if (*lo..=*hi).contains(&cp) => {}
                    _ => ranges.push((cp, cp)),
                });
            }
        }
    }
    merge(ranges)
}

/// Sorts inclusive ranges and joins the ones that overlap or touch.
fn merge(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some((_, last)) if lo <= last.saturating_add(1) => *last = (*last).max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// `@font-face` rules and custom properties that make the viewer's image variant draw
/// with the shipped faces (as `data:` URLs, which both the viewer's and the export
/// document's CSP allow), so the Chromium engine and the native one use the same glyphs.
pub fn image_font_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        use base64::Engine as _;
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
        format!(
            "@font-face{{font-family:\"{f}\";font-weight:400;src:url(data:font/ttf;base64,{}) format(\"truetype\")}}\
             @font-face{{font-family:\"{f}\";font-weight:700;src:url(data:font/ttf;base64,{}) format(\"truetype\")}}\
             :root{{--mono:\"{f}\";--sans:\"{f}\";--code-font:\"{f}\"}}",
            b64(MONO_REGULAR_TTF),
            b64(MONO_BOLD_TTF),
            f = IMAGE_FONT_FAMILY,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_faces_cover_ascii_in_both_weights() {
        let f = fonts();
        for c in ['a', 'Z', '0', '{', '~'] {
            let r = f.resolve(c, false);
            assert_eq!((r.face, r.missing), (REGULAR, false), "{c}");
            let b = f.resolve(c, true);
            assert_eq!((b.face, b.missing), (BOLD, false), "{c}");
        }
        let face = f.face(REGULAR);
        assert!((face.ascent - 1901.0 / 2048.0).abs() < 1e-6);
    }

    #[test]
    fn a_character_no_font_has_is_the_notdef_box() {
        // A private-use code point: no font on any machine is expected to map it.
        let r = fonts().resolve('\u{10FFFD}', false);
        assert!(r.missing);
        assert_eq!(r.gid, 0);
        let bitmap = fonts().bitmap(r.face, r.gid, 30.0);
        assert!(bitmap.coverage.iter().any(|&c| c > 0), "the box is visible");
    }

    #[test]
    fn a_lazy_face_draws_a_glyph_as_the_parsed_one_does() {
        let data: Arc<[u8]> = Arc::from(MONO_REGULAR_TTF);
        let parsed = Face::parsed(Arc::clone(&data), "eager".into()).unwrap();
        let lazy = Face::lazy(data, 0, "lazy".into()).unwrap();
        for c in ['a', 'g', 'W', '@', '¶'] {
            let gid = parsed.glyph_index(c);
            assert_eq!(lazy.glyph_index(c), gid, "{c}");
            assert!((lazy.advance(gid, 26.0) - parsed.advance(gid, 26.0)).abs() < 1e-3);
            let (e, l) = (parsed.rasterize(gid, 26.0), lazy.rasterize(gid, 26.0));
            // Same box within a pixel, same ink within 3 %.
            for (a, b) in [(e.left, l.left), (e.top, l.top)] {
                assert!((a - b).abs() <= 1, "{c}: {a} vs {b}");
            }
            assert!(e.width.abs_diff(l.width) <= 1 && e.height.abs_diff(l.height) <= 1);
            let ink = |b: &Bitmap| b.coverage.iter().map(|&v| u64::from(v)).sum::<u64>() as f64;
            let (ie, il) = (ink(&e), ink(&l));
            assert!(ie > 0.0 && (ie - il).abs() / ie < 0.03, "{c}: {ie} vs {il}");
        }
        let space = lazy.glyph_index(' ');
        assert_eq!(lazy.rasterize(space, 26.0).coverage.len(), 0);
    }

    #[test]
    fn a_cjk_character_comes_from_a_machine_face_read_lazily() {
        // The test command installs Noto Sans CJK (scripts/test.sh).
        let r = fonts().resolve('你', false);
        assert!(!r.missing && r.face > BOLD, "{r:?}");
        let face = fonts().face(r.face);
        assert!(
            matches!(face.outlines, Outlines::Lazy { .. }),
            "{}",
            face.family
        );
        let bitmap = fonts().bitmap(r.face, r.gid, 24.0);
        assert!(bitmap.width > 10 && bitmap.height > 10);
        assert!(bitmap.coverage.iter().filter(|&&c| c > 128).count() > 40);
        assert!(face.advance(r.gid, 24.0) > 20.0, "a full-width glyph");
    }

    #[test]
    fn han_comes_from_the_regional_face_of_the_machine_locale() {
        // Noto's collections have a face per region; the locale's (Japanese when the
        // locale is not East Asian, as fontconfig picks) must win over the first by name.
        let want = machine_region().unwrap_or("JP");
        let face = fonts().face(fonts().resolve('\u{76f4}', false).face);
        assert!(
            face.family.ends_with(&format!(" {want}")),
            "{}",
            face.family
        );
    }

    #[test]
    fn locales_name_their_cjk_region() {
        for (locale, region) in [
            ("ja_JP.UTF-8", Some("JP")),
            ("ko_KR", Some("KR")),
            ("zh_CN.GB18030", Some("SC")),
            ("zh_SG", Some("SC")),
            ("zh_TW.UTF-8", Some("TC")),
            ("zh-Hant", Some("TC")),
            ("zh_HK.UTF-8", Some("HK")),
            ("en_US.UTF-8", None),
            ("C.UTF-8", None),
            ("POSIX", None),
        ] {
            assert_eq!(locale_region(locale), region, "{locale}");
        }
    }

    #[test]
    fn regional_variants_sort_with_the_preferred_region_first() {
        let order = |preferred| {
            let mut names = [
                "Noto Sans CJK HK",
                "Noto Sans CJK KR",
                "Noto Sans CJK SC",
                "Noto Sans CJK TC",
                "Noto Sans CJK JP",
            ];
            names.sort_by_key(|n| region_key(n, preferred));
            names.map(|n| n.rsplit(' ').next().unwrap())
        };
        assert_eq!(order(None), ["JP", "SC", "TC", "HK", "KR"]);
        assert_eq!(order(Some("TC")), ["TC", "JP", "SC", "HK", "KR"]);
        assert_eq!(order(Some("KR")), ["KR", "JP", "SC", "TC", "HK"]);
        // A family without a region tag is its own base.
        assert_eq!(region_key("DejaVu Sans", Some("JP")), ("DejaVu Sans", 0));
    }

    #[test]
    fn ranges_merge_when_they_overlap_or_touch() {
        assert_eq!(
            merge(vec![(10, 20), (1, 3), (4, 5), (15, 30), (40, 40)]),
            vec![(1, 5), (10, 30), (40, 40)]
        );
        assert_eq!(merge(vec![(0, u32::MAX), (5, 6)]), vec![(0, u32::MAX)]);
    }

    #[test]
    fn coverage_ranges_are_merged() {
        let ranges = coverage(MONO_REGULAR_TTF, 0);
        assert!(ranges.windows(2).all(|w| w[0].1 + 1 < w[1].0));
        assert!(ranges.iter().any(|&(lo, hi)| lo <= 0x41 && 0x5A <= hi));
    }
}
