//! The decoder on a real PowerPoint face (compared with an independent decoder through
//! committed digests), on small fonts built here, and on hostile streams.

use super::lzcomp::literal_stream;
use super::*;
use sha2::{Digest, Sha256};

/// Calibri Bold Italic as PowerPoint embedded it in a ShapeCrawler test deck (see
/// `fixtures/fonts/README.md`): an EOT whose font data is MTX.
const CALIBRI_BI: &[u8] =
    include_bytes!("../../../../fixtures/fonts/shapecrawler-case008-calibri-bold-italic.fntdata");

/// SHA-256 of each table of the same face decoded by Debian's `eot2ttf` (libeot 0.01),
/// an independent implementation: `eot2ttf font4.fntdata ref.ttf`, then each table's
/// bytes hashed (fontTools' reader). `glyf` is hashed in libeot's form, which leaves out
/// the `instructionLength` of composite glyphs that have instructions (a libeot bug: its
/// output then misreads them); `head` with `checkSumAdjustment` zeroed; `loca` follows
/// from `glyf`.
const EOT2TTF_TABLES: &[(&str, &str)] = &[
    (
        "DSIG",
        "a35e8df38670995be183ed06c48fca39c4a2182d71c66f5ffcc105c35d62e042",
    ),
    (
        "EBDT",
        "5d781935a3e6ac5b24cf23157945f4461cf4550a0c48b8ad07840a579234c676",
    ),
    (
        "EBLC",
        "cd6cdcd8b98a58424c36662153b46f0c7a791072afd0406eb956177741e98ad8",
    ),
    (
        "GDEF",
        "df90d2243bf51d920b59d279e0c6d60b91ded645056ed2b92941f4090be174ed",
    ),
    (
        "GPOS",
        "f6ac357da2ec1f549aee076796e63ae780abafdaeb0c1afeb56aec5bfcb98b66",
    ),
    (
        "GSUB",
        "260395d34dd104597dbd60d35fe8f3b9d20e9264f8c6a19cfe090f457b1e7e9b",
    ),
    (
        "OS/2",
        "96f7a0c1a4bcef2dd001418900c84857e09476351a05e4b9d204eaf24a2fba40",
    ),
    (
        "cmap",
        "7d198baafc9b03155400b78e9bd1b9708597a8cefff4214795318902d44da146",
    ),
    (
        "cvt ",
        "32dec7e9ddfe9fc0330c88f524017b6f95f94caadb29d0c1ab03e6ec074d00e9",
    ),
    (
        "fpgm",
        "3f17d80c34d65e0e54c77726d8325b84d95c409459345f3d75566d8fe62190d1",
    ),
    (
        "gasp",
        "6c2833c9c8768985bfc92af6bbb43590f6800eb348bda227bd6453763fbb4bbd",
    ),
    (
        "glyf",
        "f4817094b0894463bba8b1802d0467b66efbad45020041dce330df76cf99a749",
    ),
    (
        "head",
        "f4a3ab030bcefd0418dd8be7b4521c7668d0a674020c3ec5b80f2002c46bed67",
    ),
    (
        "hhea",
        "5ec0f7512cb1cc46acfa4825df288a0aa29cb3ce82744b2ff5480df6a7552b1c",
    ),
    (
        "hmtx",
        "d0e17c3f358bf60ffd003d08bfa62815623590d9854d2169b9a3559c2117304f",
    ),
    (
        "kern",
        "4a1ffc3b0e977f32c53ca0d7755c1cb7520647a39869ba129678e6b1ccfff735",
    ),
    (
        "maxp",
        "24e8d9995edb85148f6c6cb1e12fb8099e77af1e198905f47ee2b595c7a52243",
    ),
    (
        "meta",
        "105b2d79e29348f5e65dc3621f0e66a699bb9910fe397f4b48983d701b3b850c",
    ),
    (
        "name",
        "31fbcf821e772eb5fb7508883660cf0cfe9687c3d992bd3cbfc6f7ab43d82ba2",
    ),
    (
        "post",
        "6b78a6e5394a2adb56b8eb939a9e856226b75410dd417086317e231bf4d94207",
    ),
    (
        "prep",
        "55edef21f32f504e035b90d9539559c8806b8ca9a05f07750e28b20057c1a674",
    ),
];

fn font_data(eot: &[u8]) -> &[u8] {
    let size = u32::from_le_bytes(eot[4..8].try_into().unwrap()) as usize;
    &eot[eot.len() - size..]
}

fn be16(d: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([d[at], d[at + 1]])
}

fn be32(d: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(d[at..at + 4].try_into().unwrap())
}

/// The tables of an sfnt, in directory order, after checking the directory.
fn tables(font: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let n = usize::from(be16(font, 4));
    let pow = 1usize << n.ilog2();
    assert_eq!(usize::from(be16(font, 6)), 16 * pow, "searchRange");
    assert_eq!(
        usize::from(be16(font, 8)),
        pow.ilog2() as usize,
        "entrySelector"
    );
    assert_eq!(usize::from(be16(font, 10)), 16 * (n - pow), "rangeShift");
    let mut out: Vec<([u8; 4], &[u8])> = Vec::new();
    for i in 0..n {
        let rec = &font[12 + 16 * i..28 + 16 * i];
        let tag: [u8; 4] = rec[..4].try_into().unwrap();
        let (offset, len) = (be32(rec, 8) as usize, be32(rec, 12) as usize);
        assert_eq!(offset % 4, 0, "aligned");
        let data = &font[offset..offset + len];
        let mut sum_data = data.to_vec();
        if &tag == b"head" {
            sum_data[8..12].fill(0);
        }
        assert_eq!(
            ctf::checksum(&sum_data),
            be32(rec, 4),
            "{}",
            String::from_utf8_lossy(&tag)
        );
        if let Some((last, _)) = out.last() {
            assert!(*last < tag, "sorted by tag");
        }
        out.push((tag, data));
    }
    assert_eq!(ctf::checksum(font), 0xB1B0_AFBA, "checkSumAdjustment");
    out
}

/// Each glyph of a `glyf`/`loca` pair.
fn glyph_slices<'a>(glyf: &'a [u8], loca: &[u8], long: bool) -> Vec<&'a [u8]> {
    let offsets: Vec<usize> = if long {
        loca.chunks(4).map(|c| be32(c, 0) as usize).collect()
    } else {
        loca.chunks(2)
            .map(|c| 2 * usize::from(be16(c, 0)))
            .collect()
    };
    offsets.windows(2).map(|w| &glyf[w[0]..w[1]]).collect()
}

/// A glyph as libeot writes it: a composite's `instructionLength` left out.
fn libeot_form(g: &[u8]) -> Vec<u8> {
    if g.len() < 2 || (be16(g, 0) as i16) >= 0 {
        return g.to_vec();
    }
    let mut at = 10;
    loop {
        let flags = be16(g, at);
        at += 4 + if flags & 1 != 0 { 4 } else { 2 };
        at += if flags & 0x80 != 0 {
            8
        } else if flags & 0x40 != 0 {
            4
        } else if flags & 0x08 != 0 {
            2
        } else {
            0
        };
        if flags & 0x20 == 0 {
            return if flags & 0x100 != 0 {
                [&g[..at], &g[at + 2..]].concat()
            } else {
                g.to_vec()
            };
        }
    }
}

fn hex(d: &[u8]) -> String {
    hex::encode(Sha256::digest(d))
}

/// Tracks an outline's points.
#[derive(Default)]
struct Points {
    x: Vec<f32>,
    y: Vec<f32>,
    contours: usize,
}

impl ttf_parser::OutlineBuilder for Points {
    fn move_to(&mut self, x: f32, y: f32) {
        self.x.push(x);
        self.y.push(y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.move_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.move_to(x1, y1);
        self.move_to(x, y);
    }
    fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, x: f32, y: f32) {
        self.move_to(x, y);
    }
    fn close(&mut self) {
        self.contours += 1;
    }
}

#[test]
fn a_powerpoint_face_decodes_to_the_font_the_eot_header_names() {
    let font = decode(font_data(CALIBRI_BI)).unwrap();
    let face = ttf_parser::Face::parse(&font, 0).expect("ttf-parser reads it");
    let family = face
        .names()
        .into_iter()
        .find(|n| n.name_id == ttf_parser::name_id::FAMILY && n.is_unicode())
        .and_then(|n| n.to_string());
    let eot_family = crate::office::fonts::embedded::eot_family_name(CALIBRI_BI);
    assert_eq!(eot_family.as_deref(), Some("Calibri"));
    assert_eq!(family, eot_family);
    assert_eq!(face.number_of_glyphs(), 4787);
    assert!(face.is_bold() && face.is_italic());

    let t = tables(&font);
    let table = |tag: &[u8; 4]| t.iter().find(|(g, _)| g == tag).unwrap().1;
    let long = be16(table(b"head"), 50) != 0;
    let glyphs = glyph_slices(table(b"glyf"), table(b"loca"), long);
    assert_eq!(glyphs.len(), 4787);
    // Every outline reads; the box each glyph header states is the box of its points.
    let mut outlined = 0;
    for (id, g) in glyphs.iter().enumerate() {
        let mut points = Points::default();
        let rect = face.outline_glyph(ttf_parser::GlyphId(id as u16), &mut points);
        assert_eq!(rect.is_some(), !g.is_empty(), "glyph {id}");
        if let Some(rect) = rect {
            outlined += 1;
            let stated = [be16(g, 2), be16(g, 4), be16(g, 6), be16(g, 8)].map(|v| v as i16);
            assert_eq!(
                [rect.x_min, rect.y_min, rect.x_max, rect.y_max],
                stated,
                "glyph {id}"
            );
        }
    }
    // The face is a subset (EOT flag 0x1): only the glyphs the deck uses have outlines.
    assert_eq!(outlined, 378);
    for (c, x_min, advance) in [('A', -64, 1241), ('o', 60, 1080)] {
        let id = face.glyph_index(c).unwrap();
        let g = glyphs[usize::from(id.0)];
        let rect = face.glyph_bounding_box(id).unwrap();
        // The left side bearing `hmtx` gives is the glyph's xMin (TrueType's convention).
        assert_eq!(face.glyph_hor_side_bearing(id), Some(rect.x_min), "{c}");
        assert_eq!(be16(g, 2) as i16, rect.x_min, "{c}");
        assert_eq!(
            (rect.x_min, face.glyph_hor_advance(id)),
            (x_min, Some(advance)),
            "{c}"
        );
        assert!(rect.width() > 500 && rect.height() > 900, "{c}: {rect:?}");
    }

    // Against eot2ttf: every table it wrote, byte for byte (glyf in its form).
    assert_eq!(
        t.len(),
        EOT2TTF_TABLES.len() + 1,
        "the same tables and loca"
    );
    for (tag, expected) in EOT2TTF_TABLES {
        let data = table(tag.as_bytes().try_into().unwrap());
        let got = match *tag {
            "glyf" => hex(&glyphs
                .iter()
                .flat_map(|g| libeot_form(g))
                .collect::<Vec<u8>>()),
            "head" => {
                let mut h = data.to_vec();
                h[8..12].fill(0);
                hex(&h)
            }
            _ => hex(data),
        };
        assert_eq!(&got, expected, "{tag}");
    }
}

#[test]
fn a_cut_or_lying_stream_is_an_error_and_fast() {
    let mtx = font_data(CALIBRI_BI);
    let second = usize::from(mtx[4]) << 16 | usize::from(mtx[5]) << 8 | usize::from(mtx[6]);
    let third = usize::from(mtx[7]) << 16 | usize::from(mtx[8]) << 8 | usize::from(mtx[9]);
    let mut cuts = vec![
        0,
        1,
        9,
        10,
        11,
        second - 1,
        second,
        second + 1,
        third - 1,
        third,
    ];
    cuts.extend([third + 1, mtx.len() - 1]);
    // And 40 pseudo-random points (a fixed LCG: the same points every run).
    let mut seed = 0x2545_F491u64;
    for _ in 0..40 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        cuts.push((seed >> 33) as usize % mtx.len());
    }
    let started = std::time::Instant::now();
    for cut in cuts {
        assert!(decode(&mtx[..cut]).is_err(), "cut at {cut}");
    }
    // Block 1 cut short: its own stream ends early whatever follows.
    let mut short = mtx.to_vec();
    short.drain(second - 100..second);
    let at = second - 100;
    short[4..7].copy_from_slice(&(at as u32).to_be_bytes()[1..]);
    short[7..10].copy_from_slice(&((third - 100) as u32).to_be_bytes()[1..]);
    assert_eq!(decode(&short), Err(MtxError::Truncated));
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());

    let mut header = mtx[..10].to_vec();
    header.extend_from_slice(&[0; 64]);
    header[4..10].copy_from_slice(&[0xFF; 6]);
    assert_eq!(
        decode(&header),
        Err(MtxError::BadHeader),
        "offsets past the end"
    );
    header[4..10].copy_from_slice(&[0, 0, 40, 0, 0, 20]);
    assert_eq!(
        decode(&header),
        Err(MtxError::BadHeader),
        "block 3 before block 2"
    );
    header[0] = 9;
    header[4..10].copy_from_slice(&[0, 0, 20, 0, 0, 30]);
    assert_eq!(decode(&header), Err(MtxError::BadHeader), "unknown version");
    // Zero-length blocks.
    let empty = [3, 0, 0, 0, 0, 0, 10, 0, 0, 10];
    assert_eq!(decode(&empty), Err(MtxError::Truncated));
}

/// An MTX stream of the three blocks, each as a literal-only LZCOMP stream.
fn mtx_of(ctf: &[u8], push: &[u8], code: &[u8]) -> Vec<u8> {
    let blocks = [ctf, push, code].map(|b| literal_stream(b, false, b.len()));
    let second = 10 + blocks[0].len();
    let third = second + blocks[1].len();
    let mut out = vec![3, 0, 0x80, 0];
    out.extend_from_slice(&(second as u32).to_be_bytes()[1..]);
    out.extend_from_slice(&(third as u32).to_be_bytes()[1..]);
    for b in blocks {
        out.extend_from_slice(&b);
    }
    out
}

/// A CTF font: `head`, `hhea`, `maxp` (`glyphs`), `hmtx`, `cvt ` and the CTF `glyf`.
fn ctf_font(glyphs: u16, glyf: &[u8], cvt: &[u8]) -> Vec<u8> {
    let mut head = vec![0u8; 54];
    head[..4].copy_from_slice(&0x0001_0000u32.to_be_bytes());
    head[12..16].copy_from_slice(&0x5F0F_3CF5u32.to_be_bytes());
    head[18..20].copy_from_slice(&1000u16.to_be_bytes());
    let mut hhea = vec![0u8; 36];
    hhea[..4].copy_from_slice(&0x0001_0000u32.to_be_bytes());
    hhea[4..6].copy_from_slice(&800u16.to_be_bytes());
    hhea[34..36].copy_from_slice(&1u16.to_be_bytes());
    let mut maxp = 0x0000_5000u32.to_be_bytes().to_vec();
    maxp.extend_from_slice(&glyphs.to_be_bytes());
    let hmtx = [
        vec![1, 0xF4, 0, 0],
        vec![0; 2 * usize::from(glyphs.max(1) - 1)],
    ]
    .concat();
    let tables: [(&[u8; 4], &[u8]); 6] = [
        (b"cvt ", cvt),
        (b"glyf", glyf),
        (b"head", &head),
        (b"hhea", &hhea),
        (b"hmtx", &hmtx),
        (b"maxp", &maxp),
    ];
    let mut out = 0x0001_0000u32.to_be_bytes().to_vec();
    out.extend_from_slice(&(tables.len() as u16).to_be_bytes());
    out.extend_from_slice(&[0; 6]);
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in &tables {
        out.extend_from_slice(*tag);
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        offset += data.len();
    }
    for (_, data) in &tables {
        out.extend_from_slice(data);
    }
    out
}

/// Glyph 0 empty; glyph 1 a triangle (0,0) (100,0) (50,200) with 5 pushes (1, 300 and a
/// hop code: 1 7 1) and 2 bytes of code.
const TRIANGLE: &[u8] = &[0, 0, 0, 1, 2, 1, 11, 86, 0, 100, 49, 199, 5, 2];
const TRIANGLE_PUSH: &[u8] = &[1, 253, 0x01, 0x2C, 251, 7];
const TRIANGLE_CODE: &[u8] = &[0x2B, 0x2B];

#[test]
fn a_built_font_decodes_to_its_outline_pushes_and_cvt() {
    let ctf = ctf_font(2, TRIANGLE, &[0, 2, 10, 240, 2]);
    let font = decode(&mtx_of(&ctf, TRIANGLE_PUSH, TRIANGLE_CODE)).unwrap();
    let face = ttf_parser::Face::parse(&font, 0).unwrap();
    assert_eq!(face.number_of_glyphs(), 2);
    let mut points = Points::default();
    let rect = face
        .outline_glyph(ttf_parser::GlyphId(1), &mut points)
        .unwrap();
    // ttf-parser closes the contour with a line back to its start.
    assert_eq!(
        (points.x, points.y),
        (vec![0.0, 100.0, 50.0, 0.0], vec![0.0, 0.0, 200.0, 0.0])
    );
    assert_eq!(points.contours, 1);
    assert_eq!(
        (rect.x_min, rect.y_min, rect.x_max, rect.y_max),
        (0, 0, 100, 200)
    );
    assert!(face
        .outline_glyph(ttf_parser::GlyphId(0), &mut Points::default())
        .is_none());

    let t = tables(&font);
    let table = |tag: &[u8; 4]| t.iter().find(|(g, _)| g == tag).unwrap().1;
    assert_eq!(table(b"cvt "), [0, 10, 0xFF, 0x1A]);
    // 33 bytes, padded to 34: the short offset 17.
    assert_eq!(table(b"loca"), [0, 0, 0, 0, 0, 17]);
    let glyph = table(b"glyf");
    // numberOfContours, box, endPts, instructionLength 11: PUSHB[1] 1, PUSHW[1] 300,
    // PUSHB[3] 1 7 1, then the code.
    assert_eq!(
        &glyph[..14],
        &[0, 1, 0, 0, 0, 0, 0, 100, 0, 200, 0, 2, 0, 11]
    );
    assert_eq!(
        &glyph[14..25],
        &[0xB0, 1, 0xB8, 1, 0x2C, 0xB2, 1, 7, 1, 0x2B, 0x2B]
    );
}

#[test]
fn hostile_glyphs_are_clean_errors() {
    let run = |glyf: &[u8], glyphs: u16, push: &[u8]| {
        decode(&mtx_of(&ctf_font(glyphs, glyf, &[0, 0]), push, &[]))
    };
    // 0x7FFF announces the real count: 32767 contours pass the cap.
    assert_eq!(
        run(&[0x7F, 0xFF, 0x7F, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0], 1, &[]),
        Err(MtxError::TooLarge)
    );
    // 65535 as numberOfContours is -1: a composite, whose box and components are missing.
    assert_eq!(run(&[0xFF, 0xFF], 1, &[]), Err(MtxError::Truncated));
    // A composite whose components go on past the data.
    assert_eq!(
        run(
            &[0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 1, 0, 0],
            1,
            &[]
        ),
        Err(MtxError::Truncated)
    );
    // One contour claiming 65536 points; one claiming 60000 with no bytes for them.
    assert_eq!(
        run(&[0, 1, 253, 0xFF, 0xFF], 1, &[]),
        Err(MtxError::TooLarge)
    );
    assert_eq!(
        run(&[0, 1, 253, 0xEA, 0x60, 1, 1], 1, &[]),
        Err(MtxError::Truncated)
    );
    // Two points each moving +32767 in x: the second leaves int16.
    let far = [0, 1, 1, 127, 127, 0x7F, 0xFF, 0, 0, 0x7F, 0xFF, 0, 0, 0, 0];
    assert_eq!(run(&far, 1, &[]), Err(MtxError::Coordinates));
    // maxp claims 65535 glyphs; glyf holds one.
    assert_eq!(run(&[0, 0], 0xFFFF, &[]), Err(MtxError::Truncated));
    // A hop code before two values; pushes claimed but block 2 empty.
    let pushes = [0, 1, 2, 1, 11, 86, 0, 100, 49, 199, 3, 0];
    assert_eq!(run(&pushes, 1, &[251, 1]), Err(MtxError::Corrupt));
    assert_eq!(run(&pushes, 1, &[]), Err(MtxError::Truncated));
    // No tables; a table outside block 1.
    assert_eq!(
        decode(&mtx_of(&[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[], &[])),
        Err(MtxError::BadDirectory)
    );
    let mut ctf = ctf_font(2, TRIANGLE, &[0, 0]);
    ctf[12 + 16 + 8..12 + 16 + 12].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
    assert_eq!(
        decode(&mtx_of(&ctf, TRIANGLE_PUSH, TRIANGLE_CODE)),
        Err(MtxError::BadDirectory)
    );
}
