//! Fonts of the native export: DejaVu Sans Mono (regular and bold) shipped in the binary,
//! then fonts found on the machine for characters it lacks (CJK, emoji, other scripts).
//!
//! Lookup order for a character: the shipped face of the wanted weight, the shipped
//! regular face, then the machine's fonts (monospaced families first, then by family name,
//! so the choice is the same every run). A character no font has is drawn as the shipped
//! font's `.notdef` glyph, a box one cell wide, as a browser does, and counted.
//!
//! The machine's fonts are scanned once, on the first character the shipped faces lack:
//! each face's character coverage is kept as ranges and its file closed again, so an idle
//! service holds none of them; a face is loaded whole only when a character needs it.
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
    /// The outlines, for rasterizing.
    pub font: fontdue::Font,
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

impl Face {
    fn load(data: Arc<[u8]>, index: u32, family: String) -> Option<Face> {
        let parsed = ttf_parser::Face::parse(&data, index).ok()?;
        let upem = f32::from(parsed.units_per_em().max(1));
        let ascent = f32::from(parsed.ascender()) / upem;
        let descent = -f32::from(parsed.descender()) / upem;
        let settings = fontdue::FontSettings {
            collection_index: index,
            ..fontdue::FontSettings::default()
        };
        let font = fontdue::Font::from_bytes(&data[..], settings).ok()?;
        Some(Face {
            font,
            data,
            index,
            family,
            ascent,
            descent,
            units_per_em: upem,
        })
    }

    /// Horizontal advance of glyph `gid` at `px`, CSS px.
    pub fn advance(&self, gid: u16, px: f32) -> f32 {
        self.font.metrics_indexed(gid, px).advance_width
    }

    /// Advance of `gid` in font units (the PDF widths array).
    pub fn advance_units(&self, gid: u16) -> f32 {
        self.advance(gid, self.units_per_em)
    }
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

/// A machine font that may serve as a fallback: where it is and what it covers.
struct Candidate {
    id: fontdb::ID,
    family: String,
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
    chosen: HashMap<char, Option<FaceId>>,
}

/// The process-wide fonts (the shipped faces are parsed on first use).
pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let regular = Face::load(Arc::from(MONO_REGULAR_TTF), 0, "DejaVu Sans Mono".into())
            .expect("the shipped regular font parses");
        let bold = Face::load(Arc::from(MONO_BOLD_TTF), 0, "DejaVu Sans Mono Bold".into())
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
            let gid = self.face(id).font.lookup_glyph_index(c);
            if gid != 0 {
                return GlyphRef {
                    face: id,
                    gid,
                    missing: false,
                };
            }
        }
        if let Some(face) = self.fallback_face(c) {
            let gid = self.face(face).font.lookup_glyph_index(c);
            if gid != 0 {
                return GlyphRef {
                    face,
                    gid,
                    missing: false,
                };
            }
        }
        GlyphRef {
            face: primary,
            gid: 0,
            missing: true,
        }
    }

    fn fallback_face(&self, c: char) -> Option<FaceId> {
        let mut guard = self.fallback.lock().unwrap_or_else(|e| e.into_inner());
        let fallback = guard.get_or_insert_with(Fallback::scan);
        if let Some(known) = fallback.chosen.get(&c) {
            return *known;
        }
        let cp = c as u32;
        let mut found = None;
        for i in 0..fallback.candidates.len() {
            let covers = {
                let ranges = &fallback.candidates[i].ranges;
                let at = ranges.partition_point(|&(_, hi)| hi < cp);
                ranges.get(at).is_some_and(|&(lo, _)| lo <= cp)
            };
            if !covers {
                continue;
            }
            if let Some(id) = fallback.candidates[i].loaded {
                found = Some(id);
                break;
            }
            if let Some(id) = self.load_candidate(&fallback.db, &fallback.candidates[i]) {
                fallback.candidates[i].loaded = Some(id);
                found = Some(id);
                break;
            }
            // Unloadable (too big, unparsable): never try it again.
            fallback.candidates[i].ranges.clear();
        }
        // Hostile text can hold thousands of distinct unknown characters; the memo stays
        // bounded and a forgotten answer is only looked up again.
        if fallback.chosen.len() > 65_536 {
            fallback.chosen.clear();
        }
        fallback.chosen.insert(c, found);
        found
    }

    fn load_candidate(&self, db: &fontdb::Database, candidate: &Candidate) -> Option<FaceId> {
        let (data, index) = db.with_face_data(candidate.id, |data, index| {
            (data.len() <= MAX_FALLBACK_BYTES).then(|| (Arc::<[u8]>::from(data), index))
        })??;
        let face = Face::load(data, index, candidate.family.clone())?;
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
        let (metrics, coverage) = self.face(face).font.rasterize_indexed(gid, px);
        let bitmap = Arc::new(Bitmap {
            left: metrics.xmin,
            top: -(metrics.ymin + metrics.height as i32),
            width: metrics.width,
            height: metrics.height,
            coverage,
        });
        let mut cache = self.glyphs.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= GLYPH_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&bitmap));
        bitmap
    }
}

impl Fallback {
    /// Scans the machine's fonts once: each face's coverage, monospaced families first.
    fn scan() -> Fallback {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        let mut faces: Vec<(bool, String, fontdb::ID)> = db
            .faces()
            .map(|f| {
                let family = f
                    .families
                    .first()
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
                (!f.monospaced, family, f.id)
            })
            .collect();
        faces.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let mut candidates = Vec::new();
        for (_, family, id) in faces {
            let ranges = db.with_face_data(id, coverage).unwrap_or_default();
            if !ranges.is_empty() {
                candidates.push(Candidate {
                    id,
                    family,
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

/// The code points a face maps to a glyph, as sorted inclusive ranges.
fn coverage(data: &[u8], index: u32) -> Vec<(u32, u32)> {
    let Ok(face) = ttf_parser::Face::parse(data, index) else {
        return Vec::new();
    };
    let mut points = Vec::new();
    if let Some(cmap) = face.tables().cmap {
        for sub in cmap.subtables {
            if sub.is_unicode() {
                sub.codepoints(|cp| {
                    if sub.glyph_index(cp).is_some_and(|g| g.0 != 0) {
                        points.push(cp);
                    }
                });
            }
        }
    }
    points.sort_unstable();
    points.dedup();
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for cp in points {
        match ranges.last_mut() {
            Some((_, hi)) if *hi + 1 == cp => *hi = cp,
            _ => ranges.push((cp, cp)),
        }
    }
    ranges
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
    fn coverage_ranges_are_merged() {
        let ranges = coverage(MONO_REGULAR_TTF, 0);
        assert!(ranges.windows(2).all(|w| w[0].1 + 1 < w[1].0));
        assert!(ranges.iter().any(|&(lo, hi)| lo <= 0x41 && 0x5A <= hi));
    }
}
