//! PDF: the display list written as one vector page with pdf-writer.
//!
//! The page is the frame's size (1 CSS px = ¾ pt), drawn in CSS px through one flipping
//! transform. Boxes and borders are paths; text is real text: each face the frame uses is
//! embedded as a CID-keyed TrueType font (`Identity-H`), subset to the glyphs drawn
//! (subsetter), with a `ToUnicode` map so `pdftotext`, search and copy give the diff's
//! characters. Glyphs go out in runs positioned with `TJ` adjustments, so the PDF places
//! every glyph where the PNG does. Transparent colours use graphics states with a fill
//! alpha. Streams are deflated.

use std::collections::{BTreeMap, HashMap};
use std::io::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect as PdfRect, Ref, Str};

use super::fonts::{fonts, Face, FaceId};
use super::layout::{Frame, Glyph, Item, Rect};
use super::theme::Rgba;

/// PDF points per CSS px.
const PT_PER_PX: f32 = 0.75;

/// Deflates a stream at `level` (the content stream is made anew for every PDF and goes
/// out at the fastest level; font subsets are cached, so they can afford more).
fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 4),
        flate2::Compression::new(level),
    );
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}

/// One embedded face: its resource name, the new glyph id of each drawn glyph.
struct EmbeddedFace {
    name: String,
    /// Original glyph id → glyph id in the subset (= CID).
    cids: HashMap<u16, u16>,
    /// Advance of each CID in 1/1000 em, by CID.
    widths: Vec<f32>,
}

/// One face cut down to the glyphs a frame draws, deflated, as the PDF embeds it.
struct Subset {
    /// Original glyph id → glyph id in the subset (= CID).
    cids: HashMap<u16, u16>,
    /// The font program, deflated.
    deflated: Vec<u8>,
    /// Its size before deflating (`Length1`).
    raw_len: usize,
}

/// Subsets kept: the same diff exported again embeds the same glyphs, and cutting and
/// deflating a face is most of the PDF writer's own time.
const SUBSET_CACHE_ENTRIES: usize = 16;

/// Largest deflated font program the cache keeps.
const SUBSET_CACHE_MAX_BYTES: usize = 256 * 1024;

/// The subset of `face` for `glyphs`, from a small most-recently-used cache.
fn subset_of(face_id: FaceId, face: &Face, glyphs: &BTreeMap<u16, char>) -> Arc<Subset> {
    type Cache = Mutex<Vec<((FaceId, Vec<u16>), Arc<Subset>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (face_id, glyphs.keys().copied().collect::<Vec<u16>>());
    let cache = CACHE.get_or_init(Cache::default);
    {
        let mut list = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = list.iter().position(|(k, _)| *k == key) {
            let hit = list.remove(at);
            let subset = Arc::clone(&hit.1);
            list.insert(0, hit);
            return subset;
        }
    }
    let mut remapper = subsetter::GlyphRemapper::new();
    let mut cids = HashMap::new();
    for &gid in glyphs.keys() {
        cids.insert(gid, remapper.remap(gid));
    }
    let (data, cids) = match subsetter::subset(&face.data, face.index, &remapper) {
        Ok(data) => (data, cids),
        Err(e) => {
            // Embed the whole face with its own glyph ids rather than lose the text.
            tracing::warn!(error = %e, family = %face.family, "font subsetting failed");
            (face.data.to_vec(), glyphs.keys().map(|&g| (g, g)).collect())
        }
    };
    let subset = Arc::new(Subset {
        cids,
        deflated: deflate(&data, 6),
        raw_len: data.len(),
    });
    // A whole fallback face (subsetting failed) can be megabytes: not kept.
    if subset.deflated.len() <= SUBSET_CACHE_MAX_BYTES {
        let mut list = cache.lock().unwrap_or_else(|e| e.into_inner());
        list.insert(0, (key, Arc::clone(&subset)));
        list.truncate(SUBSET_CACHE_ENTRIES);
    }
    subset
}

/// Graphics-state names for fill alphas.
#[derive(Default)]
struct Alphas {
    names: BTreeMap<u8, String>,
}

impl Alphas {
    fn name(&mut self, a: f32) -> Option<String> {
        let key = (a.clamp(0.0, 1.0) * 255.0).round() as u8;
        if key == 255 {
            return None;
        }
        let n = self.names.len();
        Some(
            self.names
                .entry(key)
                .or_insert_with(|| format!("A{n}"))
                .clone(),
        )
    }
}

fn set_fill(content: &mut Content, alphas: &mut Alphas, c: Rgba) {
    content.set_fill_rgb(
        f32::from(c.r) / 255.0,
        f32::from(c.g) / 255.0,
        f32::from(c.b) / 255.0,
    );
    match alphas.name(c.a) {
        Some(name) => content.set_parameters(Name(name.as_bytes())),
        None => content.set_parameters(Name(b"A255")),
    };
}

fn set_stroke(content: &mut Content, alphas: &mut Alphas, c: Rgba) {
    content.set_stroke_rgb(
        f32::from(c.r) / 255.0,
        f32::from(c.g) / 255.0,
        f32::from(c.b) / 255.0,
    );
    match alphas.name(c.a) {
        Some(name) => content.set_parameters(Name(name.as_bytes())),
        None => content.set_parameters(Name(b"A255")),
    };
}

fn rounded_path(content: &mut Content, r: Rect, radius: f32) {
    let rad = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
    if rad <= 0.0 {
        content.rect(r.x, r.y, r.w, r.h);
        return;
    }
    let k = rad * 0.552_284_8;
    let (x0, y0, x1, y1) = (r.x, r.y, r.x + r.w, r.y + r.h);
    content.move_to(x0 + rad, y0);
    content.line_to(x1 - rad, y0);
    content.cubic_to(x1 - rad + k, y0, x1, y0 + rad - k, x1, y0 + rad);
    content.line_to(x1, y1 - rad);
    content.cubic_to(x1, y1 - rad + k, x1 - rad + k, y1, x1 - rad, y1);
    content.line_to(x0 + rad, y1);
    content.cubic_to(x0 + rad - k, y1, x0, y1 - rad + k, x0, y1 - rad);
    content.line_to(x0, y0 + rad);
    content.cubic_to(x0, y0 + rad - k, x0 + rad - k, y0, x0 + rad, y0);
    content.close_path();
}

/// Writes `frame` as a one-page PDF.
pub fn write(frame: &Frame) -> Vec<u8> {
    let f = fonts();
    // Glyphs per face, with the character each shows.
    let mut used: BTreeMap<FaceId, BTreeMap<u16, char>> = BTreeMap::new();
    for item in &frame.items {
        if let Item::Text { glyphs, .. } = item {
            for g in glyphs {
                used.entry(g.face).or_default().entry(g.gid).or_insert(g.ch);
            }
        }
    }

    let mut pdf = Pdf::new();
    let mut next = 1;
    let mut alloc = move || {
        let r = Ref::new(next);
        next += 1;
        r
    };
    let catalog = alloc();
    let pages = alloc();
    let page = alloc();
    let content_id = alloc();

    let mut embedded: HashMap<FaceId, EmbeddedFace> = HashMap::new();
    let mut font_refs: Vec<(String, Ref)> = Vec::new();
    for (&face_id, glyphs) in &used {
        let face = f.face(face_id);
        let subset = subset_of(face_id, &face, glyphs);
        let cids = subset.cids.clone();
        let max_cid = cids.values().copied().max().unwrap_or(0);
        let mut widths = vec![0.0f32; usize::from(max_cid) + 1];
        for (&gid, &cid) in &cids {
            widths[usize::from(cid)] = face.advance_units(gid) * 1000.0 / face.units_per_em;
        }
        let name = format!("F{face_id}");
        let type0 = alloc();
        let cid_ref = alloc();
        let descriptor = alloc();
        let file = alloc();
        let cmap_ref = alloc();
        let ps_name: String = face
            .family
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        // A subset's name starts with six capital letters and `+`; derive them from the
        // face id so output is the same every run.
        let tag: String = (0..6)
            .map(|i| char::from(b'A' + ((u32::from(face_id) * 7 + i * 3) % 26) as u8))
            .collect();
        let base = format!("{tag}+{ps_name}");
        pdf.type0_font(type0)
            .base_font(Name(base.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid_ref)
            .to_unicode(cmap_ref);
        let info = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        let parsed = ttf_parser::Face::parse(&face.data, face.index).ok();
        // A face with CFF outlines (the Noto CJK collections, most OpenType `.otf`) is a
        // CIDFontType0 whose file is embedded whole as `/OpenType` (FontFile3); only
        // TrueType outlines go in as CIDFontType2 / FontFile2. Declaring a CFF font as
        // TrueType makes strict readers refuse it and poppler warn.
        let cff = parsed
            .as_ref()
            .is_some_and(|p| p.tables().cff.is_some() || p.tables().cff2.is_some());
        {
            let mut cid = pdf.cid_font(cid_ref);
            cid.subtype(if cff {
                CidFontType::Type0
            } else {
                CidFontType::Type2
            })
            .base_font(Name(base.as_bytes()))
            .system_info(info)
            .font_descriptor(descriptor)
            .default_width(0.0);
            if !cff {
                // CIDs are the subset's glyph ids (a CFF subset is CID-keyed the same way).
                cid.cid_to_gid_map_predefined(Name(b"Identity"));
            }
            cid.widths().consecutive(0, widths.iter().copied());
            cid.finish();
        }
        let scale = 1000.0 / face.units_per_em;
        let bbox = parsed
            .as_ref()
            .map(|p| p.global_bounding_box())
            .map(|b| {
                PdfRect::new(
                    f32::from(b.x_min) * scale,
                    f32::from(b.y_min) * scale,
                    f32::from(b.x_max) * scale,
                    f32::from(b.y_max) * scale,
                )
            })
            .unwrap_or(PdfRect::new(0.0, -250.0, 1000.0, 1000.0));
        let cap = parsed
            .as_ref()
            .and_then(|p| p.capital_height())
            .map_or(700.0, |c| f32::from(c) * scale);
        let mut flags = FontFlags::NON_SYMBOLIC;
        if parsed.as_ref().is_some_and(|p| p.is_monospaced()) {
            flags |= FontFlags::FIXED_PITCH;
        }
        let mut fd = pdf.font_descriptor(descriptor);
        fd.name(Name(base.as_bytes()))
            .flags(flags)
            .bbox(bbox)
            .italic_angle(0.0)
            .ascent(face.ascent * 1000.0)
            .descent(-face.descent * 1000.0)
            .cap_height(cap)
            .stem_v(80.0);
        if cff {
            fd.font_file3(file);
        } else {
            fd.font_file2(file);
        }
        fd.finish();
        let mut stream = pdf.stream(file, &subset.deflated);
        stream.filter(Filter::FlateDecode);
        if cff {
            stream.pair(Name(b"Subtype"), Name(b"OpenType"));
        } else {
            stream.pair(Name(b"Length1"), subset.raw_len as i32);
        }
        stream.finish();
        let mut cmap = UnicodeCmap::new(Name(b"Custom"), info);
        for (&gid, &ch) in glyphs {
            if let Some(&cid) = cids.get(&gid) {
                if gid != 0 {
                    cmap.pair(cid, ch);
                }
            }
        }
        let cmap_bytes = cmap.finish();
        pdf.cmap(cmap_ref, &cmap_bytes);
        font_refs.push((name.clone(), type0));
        embedded.insert(face_id, EmbeddedFace { name, cids, widths });
    }

    let mut alphas = Alphas::default();
    let mut content = Content::new();
    let (w, h) = (frame.width, frame.height);
    content.transform([PT_PER_PX, 0.0, 0.0, -PT_PER_PX, 0.0, h * PT_PER_PX]);
    set_fill(&mut content, &mut alphas, frame.background);
    content.rect(0.0, 0.0, w, h).fill_nonzero();
    for item in &frame.items {
        match item {
            Item::Fill {
                rect,
                color,
                radius,
            } => {
                set_fill(&mut content, &mut alphas, *color);
                rounded_path(&mut content, *rect, *radius);
                content.fill_nonzero();
            }
            Item::Stroke {
                rect,
                color,
                radius,
            } => {
                set_stroke(&mut content, &mut alphas, *color);
                content.set_line_width(1.0);
                let inset = Rect {
                    x: rect.x + 0.5,
                    y: rect.y + 0.5,
                    w: rect.w - 1.0,
                    h: rect.h - 1.0,
                };
                rounded_path(&mut content, inset, (radius - 0.5).max(0.0));
                content.stroke();
            }
            Item::Hatch { rect, color } => {
                content.save_state();
                content
                    .rect(rect.x, rect.y, rect.w, rect.h)
                    .clip_nonzero()
                    .end_path();
                set_stroke(&mut content, &mut alphas, *color);
                content.set_line_width(1.0);
                let mut n = 0.0f32;
                loop {
                    let c = (6.5 + 7.0 * n) * std::f32::consts::SQRT_2;
                    if c > rect.w + rect.h {
                        break;
                    }
                    content.move_to(rect.x + c, rect.y);
                    content.line_to(rect.x, rect.y + c);
                    n += 1.0;
                }
                content.stroke();
                content.restore_state();
            }
            Item::Text {
                size,
                color,
                glyphs,
            } => {
                set_fill(&mut content, &mut alphas, *color);
                text_runs(&mut content, &embedded, *size, glyphs);
            }
        }
    }
    let content_bytes = deflate(&content.finish(), 1);
    let mut state_refs = vec![("A255".to_string(), alloc(), 1.0f32)];
    for (key, name) in &alphas.names {
        state_refs.push((name.clone(), alloc(), f32::from(*key) / 255.0));
    }

    pdf.catalog(catalog).pages(pages);
    pdf.pages(pages).kids([page]).count(1);
    {
        let mut p = pdf.page(page);
        p.media_box(PdfRect::new(0.0, 0.0, w * PT_PER_PX, h * PT_PER_PX));
        p.parent(pages);
        p.contents(content_id);
        let mut res = p.resources();
        {
            let mut fonts_dict = res.fonts();
            for (name, r) in &font_refs {
                fonts_dict.pair(Name(name.as_bytes()), *r);
            }
        }
        let mut states = res.ext_g_states();
        for (name, r, _) in &state_refs {
            states.pair(Name(name.as_bytes()), *r);
        }
    }
    for (_, r, a) in &state_refs {
        pdf.ext_graphics(*r)
            .non_stroking_alpha(*a)
            .stroking_alpha(*a);
    }
    pdf.stream(content_id, &content_bytes)
        .filter(Filter::FlateDecode);
    pdf.finish()
}

/// Writes glyphs as text: one `TJ` per baseline run, with adjustments wherever a glyph
/// is not where the previous one's advance leaves the pen.
fn text_runs(
    content: &mut Content,
    embedded: &HashMap<FaceId, EmbeddedFace>,
    size: f32,
    glyphs: &[Glyph],
) {
    content.begin_text();
    let mut i = 0;
    while i < glyphs.len() {
        let first = glyphs[i];
        let Some(face) = embedded.get(&first.face) else {
            i += 1;
            continue;
        };
        let mut j = i;
        while j < glyphs.len() && glyphs[j].face == first.face && glyphs[j].y == first.y {
            j += 1;
        }
        content.set_font(Name(face.name.as_bytes()), size);
        content.set_text_matrix([1.0, 0.0, 0.0, -1.0, first.x, first.y]);
        {
            let mut shown = content.show_positioned();
            let mut items = shown.items();
            let mut pen = first.x;
            for g in &glyphs[i..j] {
                let cid = face.cids.get(&g.gid).copied().unwrap_or(0);
                let gap = g.x - pen;
                if gap.abs() > 0.001 {
                    items.adjust(-gap * 1000.0 / size);
                }
                let bytes = cid.to_be_bytes();
                items.show(Str(&bytes));
                let adv = face.widths.get(usize::from(cid)).copied().unwrap_or(0.0);
                pen = g.x + adv * size / 1000.0;
            }
        }
        i = j;
    }
    content.end_text();
}
