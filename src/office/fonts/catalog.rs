//! The machine's fonts that previewd may serve: the configured font folders are scanned
//! once at start and every face gets a stable id that names it in `/fonts/{id}` URLs.
//! The scan ([`scan`](super::scan)) reads only each face's header tables (names, OS/2,
//! head, hhea) and lets `fontdb` name the face from them, so the family names, weight and
//! style are fontdb's, while a start-up or a one-shot CLI run does not map every font
//! file. Each face also carries its Windows line metrics ([`LineMetrics`]), which pages
//! declare so that a browser spaces lines as Office does.
//!
//! The id is a hash of the face's file path, size, modification time and index in the
//! file: it never shows the path, and it changes when the file does, so a served font can
//! be cached as immutable. Only the faces the resolver can name in a stack (Carlito,
//! Liberation, DejaVu, Noto CJK …) are ever put in a page, but any catalogued face can be
//! fetched by its id; they are all public files of the machine's font folders.
//!
//! previewd also ships a few faces of its own ([`BUILTIN`], in `assets/fonts/`): open
//! metric twins that no Debian package has. They are catalogued on every machine, whatever
//! `fonts.dirs` says, with ids hashed from their bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::advance::{AdvanceSource, Advances};

/// One catalogued face.
#[derive(Debug, Clone)]
pub struct CatalogFace {
    /// Stable id (16 hex digits).
    pub id: String,
    /// English family name (typographic family when the font has one).
    pub family: String,
    /// Other family names of the face (localized and legacy names), lowercase.
    aliases: Vec<String>,
    /// OpenType weight class (400 regular, 700 bold).
    pub weight: u16,
    /// Italic or oblique.
    pub italic: bool,
    /// Full face name for `local()` (PostScript name).
    pub local_name: String,
    /// The face's line metrics as Office lays lines out (`None`: the face has no usable
    /// vertical metrics, and the browser's own reading stands).
    pub metrics: Option<LineMetrics>,
    /// The scripts the face says it covers, of those a stand-in may lack.
    pub scripts: Scripts,
    /// The face's advance widths, read when text in it is first measured.
    pub advances: Advances,
    source: FaceSource,
}

/// A face's ascent and descent as fractions of its em, as Office's line layout reads them:
/// the OS/2 table's `usWinAscent` and `usWinDescent` (Windows' GDI metrics), or `hhea`'s
/// ascender and descender when those are zero.
///
/// Browsers read `hhea`, or the typo values when the face sets USE_TYPO_METRICS (Wine's
/// Tahoma does: ascent 0.765 em where its win ascent is 1.0), and Carlito's `hhea` is
/// Calibri's (0.75 / 0.25) where Office lays Calibri out at 0.952 / 0.269. Declaring each
/// served face with these values as `ascent-override` and `descent-override` puts every
/// line's baseline where Office puts it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineMetrics {
    /// Ascent above the baseline, in em.
    pub ascent: f32,
    /// Descent below the baseline, in em (positive).
    pub descent: f32,
    /// The distance between the baselines of single-spaced lines in a word processor, in
    /// em: `hhea`'s ascender, descender and line gap together (the win values when `hhea`
    /// has none). LibreOffice's Writer reads a face so, and for the stand-ins previewd
    /// serves it is Word's single spacing of the original (Carlito 1.22 as Calibri,
    /// Liberation Sans 1.15 as Arial, Wine's Tahoma 1.21 as Tahoma, whose typo values,
    /// which it asks for with USE_TYPO_METRICS, are not the original's); PowerPoint, unlike
    /// Word, sets every face at 1.2 em.
    pub line: f32,
}

impl LineMetrics {
    /// The metrics from a face's `head`, `hhea` and `OS/2` tables; `None` when it has
    /// neither usable win nor `hhea` values (or an absurd em).
    fn from_tables(head: &[u8], hhea: &[u8], os2: Option<&[u8]>) -> Option<LineMetrics> {
        let u16_at =
            |t: &[u8], at: usize| t.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
        let em = f32::from(u16_at(head, 18)?);
        if !(16.0..=16384.0).contains(&em) {
            return None;
        }
        // usWinAscent and usWinDescent, unsigned, at bytes 74 and 76 of every OS/2
        // version; hhea's ascender and descender (signed) at 4 and 6.
        let win = os2.and_then(|t| Some((u16_at(t, 74)?, u16_at(t, 76)?)));
        let (ascent, descent) = match win {
            Some((a, d)) if a > 0 || d > 0 => (f32::from(a), f32::from(d)),
            _ => {
                let a = u16_at(hhea, 4)? as i16;
                let d = u16_at(hhea, 6)? as i16;
                (f32::from(a), -f32::from(d))
            }
        };
        let (ascent, descent) = (ascent / em, descent / em);
        // Math faces claim lines over 4 em high on purpose (DejaVu Math TeX Gyre 4.27,
        // for stacked operators) and Office honours it; beyond 8 em (or with negative
        // parts) the face is broken: leave it to the browser.
        (ascent > 0.0 && descent >= 0.0 && ascent + descent <= 8.0).then_some(LineMetrics {
            ascent,
            descent,
            line: single_line(hhea, em).unwrap_or(ascent + descent),
        })
    }

    /// The metrics of face `index` of an sfnt or collection in memory.
    pub fn of_data(data: &[u8], index: u32) -> Option<LineMetrics> {
        let face = ttf_parser::RawFace::parse(data, index).ok()?;
        let table = |tag: &[u8; 4]| face.table(ttf_parser::Tag::from_bytes(tag));
        LineMetrics::from_tables(table(b"head")?, table(b"hhea")?, table(b"OS/2"))
    }

    /// The `@font-face` descriptors that make a browser lay the face out with these
    /// metrics and no line gap (Office adds none).
    pub fn css(&self) -> String {
        format!(
            "ascent-override:{:.2}%;descent-override:{:.2}%;line-gap-override:0%",
            self.ascent * 100.0,
            self.descent * 100.0
        )
    }
}

/// [`LineMetrics::line`] from the `hhea` table; `None` when it has no sensible line.
fn single_line(hhea: &[u8], em: f32) -> Option<f32> {
    let at = |i: usize| {
        hhea.get(i..i + 2)
            .map(|b| f32::from(i16::from_be_bytes([b[0], b[1]])))
    };
    // hhea's ascender, descender and lineGap at bytes 4, 6 and 8.
    let (a, d, gap) = (at(4)?, at(6)?, at(8)?);
    let line = (a - d + gap.max(0.0)) / em;
    ((a != 0.0 || d != 0.0) && line > 0.0 && line <= 8.0).then_some(line)
}

/// Scripts a face says it covers (its OS/2 `ulUnicodeRange1` bits), of those Office's
/// open stand-ins may lack: Liberation Serif and Sans draw no Hebrew, where the fonts
/// they stand for do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scripts {
    /// Hebrew (bit 11).
    pub hebrew: bool,
    /// Arabic (bit 13).
    pub arabic: bool,
}

impl Scripts {
    /// The scripts of face `index` of `data`; none when it has no OS/2 table.
    pub fn of_data(data: &[u8], index: u32) -> Scripts {
        let range = ttf_parser::RawFace::parse(data, index)
            .ok()
            .and_then(|f| f.table(ttf_parser::Tag::from_bytes(b"OS/2")))
            .and_then(|os2| os2.get(42..46))
            .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        Scripts {
            hebrew: range & (1 << 11) != 0,
            arabic: range & (1 << 13) != 0,
        }
    }
}

/// Where a catalogued face's bytes are.
#[derive(Debug, Clone)]
enum FaceSource {
    /// Face `index` of a file in a font folder.
    File { path: PathBuf, index: u32 },
    /// A face previewd ships (a single sfnt).
    Builtin(&'static [u8]),
}

/// Faces previewd ships, each a single sfnt (licences in `assets/fonts/`). Gelasio is the
/// metric twin of Georgia (its advance widths), under the SIL Open Font License 1.1; the
/// files are its Latin subset as the `@fontsource/gelasio` 5.3.0 package ships it,
/// unpacked from WOFF to TrueType, with Georgia's vertical metrics (no Debian package
/// carries Gelasio; `assets/fonts/README.md` says what was changed).
pub const BUILTIN: [&[u8]; 4] = [
    include_bytes!("../../../assets/fonts/Gelasio-Regular.ttf"),
    include_bytes!("../../../assets/fonts/Gelasio-Bold.ttf"),
    include_bytes!("../../../assets/fonts/Gelasio-Italic.ttf"),
    include_bytes!("../../../assets/fonts/Gelasio-BoldItalic.ttf"),
];

/// Every catalogued face, by id and by family.
#[derive(Debug, Default)]
pub struct FontCatalog {
    faces: Vec<CatalogFace>,
    by_id: HashMap<String, usize>,
    max_bytes: u64,
}

/// A served font file.
#[derive(Debug)]
pub struct FontFile {
    /// The font bytes (a single sfnt; a collection's face is extracted).
    pub data: Vec<u8>,
    /// `font/ttf` or `font/otf`.
    pub mime: &'static str,
}

impl FontCatalog {
    /// Scans `dirs` (missing folders are skipped); faces whose file is larger than
    /// `max_bytes` are left out (they are never served).
    pub fn scan(dirs: &[PathBuf], max_bytes: u64) -> FontCatalog {
        let mut faces = Vec::new();
        for path in super::scan::font_files(dirs) {
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.len() > max_bytes {
                continue;
            }
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            for header in super::scan::faces(&path) {
                let id = face_id(&path, meta.len(), mtime, header.index);
                let source = FaceSource::File {
                    path: path.clone(),
                    index: header.index,
                };
                faces.extend(CatalogFace::read(&header.sfnt, id, source, max_bytes));
            }
        }
        faces.extend(builtin_faces());
        // The same order every run, whatever order the folders were read in.
        faces.sort_by(|a, b| {
            (&a.family, a.weight, a.italic, a.source_key()).cmp(&(
                &b.family,
                b.weight,
                b.italic,
                b.source_key(),
            ))
        });
        faces.dedup_by(|a, b| a.id == b.id);
        let by_id = faces
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.clone(), i))
            .collect();
        FontCatalog {
            faces,
            by_id,
            max_bytes,
        }
    }

    /// Number of catalogued faces.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// Whether no face was found.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The faces of `family` to declare: for each of regular, bold, italic and bold
    /// italic, the face of the nearest weight with that slant (when there is one).
    pub fn family_faces(&self, family: &str) -> Vec<&CatalogFace> {
        let lower = family.to_lowercase();
        let all: Vec<&CatalogFace> = self
            .faces
            .iter()
            .filter(|f| f.aliases.contains(&lower))
            .collect();
        let mut out: Vec<&CatalogFace> = Vec::new();
        for (want, italic) in [(400u16, false), (700, false), (400, true), (700, true)] {
            let best = all
                .iter()
                .filter(|f| f.italic == italic)
                .min_by_key(|f| (f.weight.abs_diff(want), f.weight))
                .copied();
            // Only a face within 150 of the wanted weight stands for it: the browser
            // synthesizes bold from the regular face better than it would show a
            // hairline face as bold.
            if let Some(face) = best.filter(|f| f.weight.abs_diff(want) <= 150) {
                if !out.iter().any(|o| o.id == face.id) {
                    out.push(face);
                }
            }
        }
        out
    }

    /// The face with `id`.
    pub fn get(&self, id: &str) -> Option<&CatalogFace> {
        self.by_id.get(id).map(|&i| &self.faces[i])
    }

    /// Reads the font file of `id` (blocking): the face alone, as a single sfnt.
    pub fn read(&self, id: &str) -> Option<FontFile> {
        let face = self.get(id)?;
        let (path, index) = match &face.source {
            FaceSource::Builtin(data) => return sfnt_file(data.to_vec()),
            FaceSource::File { path, index } => (path, *index),
        };
        let data = read_capped(path, self.max_bytes)?;
        let data = if data.starts_with(b"ttcf") {
            extract_face(&data, index)?
        } else {
            data
        };
        sfnt_file(data)
    }
}

impl CatalogFace {
    /// The face of the single-face sfnt `data` (a whole font, or the tables
    /// [`super::scan`] copied), named by `fontdb`, under `id`; `None` when it names no
    /// family.
    fn read(data: &[u8], id: String, source: FaceSource, max_bytes: u64) -> Option<CatalogFace> {
        let mut db = fontdb::Database::new();
        db.load_font_data(data.to_vec());
        let info = db.faces().next()?;
        // Condensed and expanded faces share the family name of the normal width; a stack
        // means the normal width.
        if info.stretch != fontdb::Stretch::Normal {
            return None;
        }
        let (family, _) = info.families.first()?;
        Some(CatalogFace {
            id,
            family: family.clone(),
            aliases: info
                .families
                .iter()
                .map(|(n, _)| n.to_lowercase())
                .collect(),
            weight: info.weight.0,
            italic: info.style != fontdb::Style::Normal,
            local_name: info.post_script_name.clone(),
            metrics: LineMetrics::of_data(data, 0),
            scripts: Scripts::of_data(data, 0),
            advances: Advances::new(match &source {
                FaceSource::File { path, index } => AdvanceSource::File {
                    path: path.clone(),
                    index: *index,
                    max_bytes,
                },
                FaceSource::Builtin(data) => AdvanceSource::Builtin(data),
            }),
            source,
        })
    }

    /// Orders faces of one family and style: files by path and index, then built-ins.
    fn source_key(&self) -> (Option<(&Path, u32)>, usize) {
        match &self.source {
            FaceSource::File { path, index } => (Some((path.as_path(), *index)), 0),
            FaceSource::Builtin(data) => (None, data.len()),
        }
    }
}

/// The faces of [`BUILTIN`], read as the folders' faces are.
fn builtin_faces() -> Vec<CatalogFace> {
    BUILTIN
        .iter()
        .filter_map(|data| {
            let id = hex::encode(&Sha256::digest(data)[..8]);
            CatalogFace::read(data, id, FaceSource::Builtin(data), 0)
        })
        .collect()
}

/// Checks that `data` is a font ttf-parser reads and names its MIME type.
pub fn sfnt_file(data: Vec<u8>) -> Option<FontFile> {
    ttf_parser::Face::parse(&data, 0).ok()?;
    let mime = if data.starts_with(b"OTTO") {
        "font/otf"
    } else {
        "font/ttf"
    };
    Some(FontFile { data, mime })
}

pub(super) fn read_capped(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut data = Vec::new();
    file.take(max + 1).read_to_end(&mut data).ok()?;
    (data.len() as u64 <= max).then_some(data)
}

fn face_id(path: &Path, len: u64, mtime: u128, index: u32) -> String {
    let mut h = Sha256::new();
    h.update(path.as_os_str().as_encoded_bytes());
    h.update(len.to_le_bytes());
    h.update(mtime.to_le_bytes());
    h.update(index.to_le_bytes());
    hex::encode(&h.finalize()[..8])
}

fn be16(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(d.get(at..at + 2)?.try_into().ok()?))
}

fn be32(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

/// Face `index` of a TrueType/OpenType collection as a standalone font: its table
/// directory with every table copied after it (4-byte aligned). Browsers do not load
/// collections through `@font-face`.
pub fn extract_face(ttc: &[u8], index: u32) -> Option<Vec<u8>> {
    let count = be32(ttc, 8)?;
    if index >= count {
        return None;
    }
    let offset = be32(ttc, 12 + 4 * index as usize)? as usize;
    let num_tables = usize::from(be16(ttc, offset + 4)?);
    let dir_len = 12 + 16 * num_tables;
    let header = ttc.get(offset..offset + 12)?;
    let mut out = Vec::with_capacity(ttc.len() / count.max(1) as usize + dir_len);
    out.extend_from_slice(header);
    out.resize(dir_len, 0);
    for t in 0..num_tables {
        let rec = offset + 12 + 16 * t;
        let record = ttc.get(rec..rec + 16)?;
        let from = be32(record, 8)? as usize;
        let len = be32(record, 12)? as usize;
        let table = ttc.get(from..from.checked_add(len)?)?;
        let at = out.len();
        let dst = 12 + 16 * t;
        out[dst..dst + 8].copy_from_slice(&record[..8]);
        out[dst + 8..dst + 12].copy_from_slice(&u32::try_from(at).ok()?.to_be_bytes());
        out[dst + 12..dst + 16].copy_from_slice(&record[12..16]);
        out.extend_from_slice(table);
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {

    /// The OS/2 Unicode range bits say which scripts a face covers.
    #[test]
    fn scripts_come_from_the_os2_unicode_ranges() {
        // The shipped DejaVu Sans Mono draws Arabic and no Hebrew.
        let mono = Scripts::of_data(
            include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf"),
            0,
        );
        assert_eq!(
            mono,
            Scripts {
                hebrew: false,
                arabic: true
            }
        );
        assert_eq!(Scripts::of_data(b"not a font", 0), Scripts::default());
    }
    use super::*;

    /// The catalogue previewd builds with its default `fonts.dirs`.
    fn machine() -> FontCatalog {
        FontCatalog::scan(&crate::config::FontsConfig::default().dirs, 64 << 20)
    }

    #[test]
    fn finds_the_open_families_with_their_four_faces() {
        let catalog = machine();
        let carlito = catalog.family_faces("Carlito");
        assert_eq!(
            carlito.len(),
            4,
            "scripts/test.sh installs fonts-crosextra-carlito"
        );
        assert_eq!(
            carlito
                .iter()
                .map(|f| (f.weight, f.italic))
                .collect::<Vec<_>>(),
            [(400, false), (700, false), (400, true), (700, true)]
        );
        // DejaVu Sans has an ExtraLight and condensed faces too: neither stands for regular.
        let dejavu = catalog.family_faces("DejaVu Sans");
        assert_eq!(dejavu[0].weight, 400);
        assert!(dejavu.iter().all(|f| f.weight >= 400));
        let file = catalog.read(&carlito[0].id).expect("Carlito is served");
        assert_eq!(file.mime, "font/ttf");
        assert!(!carlito[0].id.contains('/'));
        assert!(catalog.read("0000000000000000").is_none());
    }

    #[test]
    fn the_stand_ins_for_office_theme_faces_are_found() {
        // The stacks of Century Gothic, Gill Sans MT and Aptos (see `resolve`) name these,
        // and Tahoma's is served under its own name (Wine's Tahoma);
        // previewd can serve them only when the machine has them.
        let catalog = machine();
        for (family, package) in [
            ("URW Gothic", "fonts-urw-base35"),
            ("Gillius ADF", "fonts-adf-gillius"),
            ("Open Sans", "fonts-open-sans"),
            ("Tahoma", "fonts-wine"),
        ] {
            let faces = catalog.family_faces(family);
            assert!(
                faces.iter().any(|f| f.weight == 400 && !f.italic),
                "{family}: scripts/test.sh installs {package}"
            );
        }
    }

    /// The header-only scan names every face as `fontdb` names it from the whole file.
    #[test]
    fn the_header_scan_finds_what_a_whole_file_scan_finds() {
        let dirs = crate::config::FontsConfig::default().dirs;
        let catalog = FontCatalog::scan(&dirs, u64::MAX);
        let mut db = fontdb::Database::new();
        for dir in &dirs {
            db.load_fonts_dir(dir);
        }
        let key = |family: &str, weight: u16, italic: bool, ps: &str| {
            format!("{family}/{weight}/{italic}/{ps}")
        };
        let mut whole: Vec<String> = db
            .faces()
            .filter(|f| f.stretch == fontdb::Stretch::Normal)
            .map(|f| {
                let italic = f.style != fontdb::Style::Normal;
                key(&f.families[0].0, f.weight.0, italic, &f.post_script_name)
            })
            .collect();
        let mut ours: Vec<String> = catalog
            .faces
            .iter()
            .filter(|f| matches!(f.source, FaceSource::File { .. }))
            .map(|f| key(&f.family, f.weight, f.italic, &f.local_name))
            .collect();
        whole.sort();
        ours.sort();
        assert!(
            whole.len() > 100,
            "scripts/test.sh installs the font packages"
        );
        assert_eq!(ours, whole);
        // Every face has line metrics, and Carlito's are Calibri's (Office's 1950 and 550
        // of 2048 units).
        let without: Vec<_> = catalog
            .faces
            .iter()
            .filter(|f| f.metrics.is_none())
            .map(|f| &f.local_name)
            .collect();
        assert!(without.is_empty(), "{without:?}");
        let carlito = catalog.family_faces("Carlito")[0].metrics.unwrap();
        assert_eq!(
            carlito.css(),
            "ascent-override:95.21%;descent-override:26.86%;line-gap-override:0%"
        );
        // Wine's Tahoma asks browsers for its typo ascent (0.765 em); Office uses the win
        // ascent, 2049 units.
        let tahoma = catalog.family_faces("Tahoma")[0].metrics.unwrap();
        assert_eq!((tahoma.ascent * 2048.0).round(), 2049.0);
        // Single spacing as LibreOffice's Writer reads the faces: Carlito's `hhea` with
        // its line gap is Calibri's 1.22 em, Liberation Sans's Arial's 1.15, Noto Sans
        // CJK's 1.448 (LibreOffice spaces 12 pt lines of them 14.65, 13.8 and 17.4 pt).
        let line = |family: &str| catalog.family_faces(family)[0].metrics.unwrap().line;
        assert_eq!((line("Carlito") * 2048.0).round(), 2500.0);
        assert_eq!((line("Liberation Sans") * 2048.0).round(), 2355.0);
        assert_eq!((line("Noto Sans CJK SC") * 1000.0).round(), 1448.0);
    }

    #[test]
    fn the_shipped_faces_are_catalogued_even_with_no_font_folders() {
        let catalog = FontCatalog::scan(&[], 64 << 20);
        let gelasio = catalog.family_faces("Gelasio");
        assert_eq!(
            gelasio
                .iter()
                .map(|f| (f.weight, f.italic))
                .collect::<Vec<_>>(),
            [(400, false), (700, false), (400, true), (700, true)]
        );
        let file = catalog
            .read(&gelasio[0].id)
            .expect("served from the binary");
        assert_eq!(file.mime, "font/ttf");
        assert_eq!(file.data, BUILTIN[0]);
        let face = ttf_parser::Face::parse(&file.data, 0).unwrap();
        assert!(face.glyph_index('é').is_some(), "the Latin subset");
        // Georgia's vertical metrics (assets/fonts/README.md), which Office lays lines
        // out from, in every face.
        for data in BUILTIN {
            let f = ttf_parser::Face::parse(data, 0).unwrap();
            assert_eq!((f.ascender(), f.descender(), f.line_gap()), (1878, -449, 0));
        }
    }

    #[test]
    fn a_collection_face_is_served_alone() {
        let catalog = machine();
        let jp = catalog.family_faces("Noto Serif CJK JP");
        let face = jp.first().expect("scripts/test.sh installs fonts-noto-cjk");
        let file = catalog
            .read(&face.id)
            .expect("extracted from the collection");
        assert!(!file.data.starts_with(b"ttcf"));
        let parsed = ttf_parser::Face::parse(&file.data, 0).unwrap();
        assert!(parsed.glyph_index('明').is_some());
        let family = parsed
            .names()
            .into_iter()
            .filter(|n| {
                n.name_id == ttf_parser::name_id::TYPOGRAPHIC_FAMILY
                    || n.name_id == ttf_parser::name_id::FAMILY
            })
            .filter_map(|n| n.to_string())
            .collect::<Vec<_>>();
        assert!(
            family.iter().any(|f| f == "Noto Serif CJK JP"),
            "{family:?}"
        );
    }
}
