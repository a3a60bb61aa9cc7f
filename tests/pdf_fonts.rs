//! Broken embedded font programs, of every kind hayro reads: TrueType (`FontFile2`), Type 1
//! (`FontFile`), CFF and OpenType (`FontFile3`), CID fonts under Type 0 (CFF and TrueType
//! outlines), and Type 3 fonts whose glyph procedures recurse or are huge. Each program is
//! truncated, replaced by garbage, or declared with huge lengths. The page must still
//! render with the rest of its content (the broken glyphs fall back or are skipped) or stop
//! at its deadline, and the document keeps working.
//!
//! The programs are made here: the TrueType one is previewd's own DejaVu Sans Mono
//! (`assets/fonts`, its licence next to it), the CFF and Type 1 ones are written by
//! [`cff_font`] and [`type1_font`] (one box glyph for `A`), so the intact versions render a
//! glyph and the tests show which cuts still do.

use previewd::pdf::writer::assemble;
use previewd::pdf::{PdfDocument, PdfError, PdfLimits};

const DEJAVU: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono.ttf");

/// A stream object with `dict` entries and `data`, its `/Length` true unless given.
fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let length = if dict.contains("/Length ") {
        String::new()
    } else {
        format!(" /Length {}", data.len())
    };
    let mut out = format!("<< {dict}{length} >>\nstream\n").into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\nendstream");
    out
}

/// A 200 × 200 page showing `text` (an operand of `Tj`) in font `/F1` (object 5, the
/// first of `fonts`), then a black square at (150, 150)-(190, 190) drawn after the text.
fn font_page(text: &str, fonts: Vec<Vec<u8>>) -> Vec<u8> {
    let content = format!("BT /F1 48 Tf 10 40 Td {text} Tj ET 0 g 150 150 40 40 re f");
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".to_vec(),
        stream("", content.as_bytes()),
    ];
    objects.extend(fonts);
    assemble(&objects)
}

fn descriptor(file_key: &str, file_ref: usize) -> Vec<u8> {
    format!(
        "<< /Type /FontDescriptor /FontName /Test /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /{file_key} {file_ref} 0 R >>"
    )
    .into_bytes()
}

/// A simple font (objects 5, 6, 7): dictionary, descriptor, program stream.
fn simple_font(subtype: &str, file_key: &str, program: Vec<u8>) -> Vec<Vec<u8>> {
    vec![
        format!("<< /Type /Font /Subtype /{subtype} /BaseFont /Test /FirstChar 65 /LastChar 65 /Widths [600] /FontDescriptor 6 0 R >>").into_bytes(),
        descriptor(file_key, 7),
        program,
    ]
}

/// A Type 0 font over a CID font of `cid_subtype` (objects 5-8).
fn cid_font(cid_subtype: &str, file_key: &str, program: Vec<u8>) -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H /DescendantFonts [6 0 R] >>".to_vec(),
        format!("<< /Type /Font /Subtype /{cid_subtype} /BaseFont /Test /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 600 /CIDToGIDMap /Identity >>").into_bytes(),
        descriptor(file_key, 8),
        program,
    ]
}

/// A number in a Type 2 charstring or a CFF DICT, as a 16-bit operand (28).
fn t2_number(v: i16) -> Vec<u8> {
    let [hi, lo] = v.to_be_bytes();
    vec![28, hi, lo]
}

/// A CFF INDEX of `items` with 4-byte offsets.
fn cff_index(items: &[Vec<u8>]) -> Vec<u8> {
    if items.is_empty() {
        return vec![0, 0];
    }
    let mut out = (items.len() as u16).to_be_bytes().to_vec();
    out.push(4);
    let mut offset = 1u32;
    out.extend_from_slice(&offset.to_be_bytes());
    for item in items {
        offset += item.len() as u32;
        out.extend_from_slice(&offset.to_be_bytes());
    }
    for item in items {
        out.extend_from_slice(item);
    }
    out
}

/// A bare CFF font (ISO Adobe charset, standard encoding) whose glyph for `A` (GID 34) is
/// a 500 × 600 box and whose other glyphs are empty.
fn cff_font() -> Vec<u8> {
    let mut boxed = t2_number(100);
    boxed.extend(t2_number(100));
    boxed.push(21); // rmoveto
    boxed.extend(t2_number(500));
    boxed.push(6); // hlineto
    boxed.extend(t2_number(600));
    boxed.push(7); // vlineto
    boxed.extend(t2_number(-500));
    boxed.push(6);
    boxed.push(14); // endchar
    let glyphs: Vec<Vec<u8>> = (0..35)
        .map(|gid| if gid == 34 { boxed.clone() } else { vec![14] })
        .collect();
    let charstrings = cff_index(&glyphs);
    let private = {
        let mut p = t2_number(600);
        p.push(20); // defaultWidthX
        p
    };
    let dict_int = |v: u32| {
        let mut b = vec![29];
        b.extend_from_slice(&v.to_be_bytes());
        b
    };
    let name = cff_index(&[b"Test".to_vec()]);
    // The Top DICT has a fixed size (17 bytes), so the offsets can be worked out first.
    let top_len = cff_index(&[vec![0; 17]]).len();
    let charstrings_at = (4 + name.len() + top_len + 2 + 2) as u32;
    let private_at = charstrings_at + charstrings.len() as u32;
    let mut top = dict_int(charstrings_at);
    top.push(17);
    top.extend(dict_int(private.len() as u32));
    top.extend(dict_int(private_at));
    top.push(18);
    let mut out = vec![1, 0, 4, 4];
    out.extend(name);
    out.extend(cff_index(&[top]));
    out.extend(cff_index(&[])); // strings
    out.extend(cff_index(&[])); // global subroutines
    out.extend(charstrings);
    out.extend(private);
    out
}

/// eexec/charstring encryption (Adobe Type 1 Font Format, 7.1).
fn type1_encrypt(plain: &[u8], mut r: u16) -> Vec<u8> {
    plain
        .iter()
        .map(|&p| {
            let c = p ^ (r >> 8) as u8;
            r = (u16::from(c).wrapping_add(r))
                .wrapping_mul(52845)
                .wrapping_add(22719);
            c
        })
        .collect()
}

/// A number in a Type 1 charstring.
fn t1_number(v: i32) -> Vec<u8> {
    match v {
        -107..=107 => vec![(v + 139) as u8],
        108..=1131 => vec![((v - 108) / 256 + 247) as u8, ((v - 108) % 256) as u8],
        -1131..=-108 => vec![((-v - 108) / 256 + 251) as u8, ((-v - 108) % 256) as u8],
        _ => {
            let mut b = vec![255];
            b.extend_from_slice(&v.to_be_bytes());
            b
        }
    }
}

/// A Type 1 font program (`/Length1` clear text, `/Length2` encrypted part, `/Length3`
/// zeros) whose `A` is a 500 × 600 box. Returns the program and its three lengths.
fn type1_font() -> (Vec<u8>, [usize; 3]) {
    let charstring = |ops: &[(&[i32], u8)]| {
        let mut plain = vec![0u8; 4]; // lenIV
        for (args, op) in ops {
            for &a in *args {
                plain.extend(t1_number(a));
            }
            plain.push(*op);
        }
        type1_encrypt(&plain, 4330)
    };
    let notdef = charstring(&[(&[0, 600], 13), (&[], 14)]);
    let a = charstring(&[
        (&[0, 600], 13), // hsbw
        (&[100, 100], 21),
        (&[500], 6),
        (&[600], 7),
        (&[-500], 6),
        (&[], 9),  // closepath
        (&[], 14), // endchar
    ]);
    let clear = b"%!PS-AdobeFont-1.0: Test 001\n12 dict begin\n/FontName /Test def\n/FontType 1 def\n/FontMatrix [0.001 0 0 0.001 0 0] readonly def\n/FontBBox {0 0 1000 1000} readonly def\n/PaintType 0 def\n/Encoding StandardEncoding def\ncurrentfile eexec\n".to_vec();
    let mut private = b"\0\0\0\0dup /Private 8 dict dup begin\n/RD {string currentfile exch readstring pop} executeonly def\n/ND {noaccess def} executeonly def\n/NP {noaccess put} executeonly def\n/lenIV 4 def\n/BlueValues [] def\n/MinFeature {16 16} def\n/password 5839 def\n2 index /CharStrings 2 dict dup begin\n".to_vec();
    for (name, cs) in [("/.notdef", notdef), ("/A", a)] {
        private.extend_from_slice(format!("{name} {} RD ", cs.len()).as_bytes());
        private.extend_from_slice(&cs);
        private.extend_from_slice(b" ND\n");
    }
    private.extend_from_slice(b"end\nend\nreadonly put\nnoaccess put\ndup /FontName get exch definefont pop\nmark currentfile closefile\n");
    let encrypted = type1_encrypt(&private, 55665);
    let mut trailer = "0".repeat(512);
    trailer.push_str("\ncleartomark\n");
    let lengths = [clear.len(), encrypted.len(), trailer.len()];
    let mut out = clear;
    out.extend(encrypted);
    out.extend_from_slice(trailer.as_bytes());
    (out, lengths)
}

/// Deterministic garbage of `len` bytes.
fn garbage(len: usize) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The ways a program is broken: kept whole (the control), cut to a half, an eighth and
/// 16 bytes, replaced by garbage of its length, and declared with huge lengths.
fn variants(program: &[u8]) -> Vec<(&'static str, Vec<u8>, bool)> {
    vec![
        ("intact", program.to_vec(), false),
        ("half", program[..program.len() / 2].to_vec(), false),
        ("eighth", program[..program.len() / 8].to_vec(), false),
        ("16 bytes", program[..16].to_vec(), false),
        ("garbage", garbage(program.len()), false),
        ("huge lengths", program.to_vec(), true),
    ]
}

const HUGE: &str = "/Length 2147483647 /Length1 2147483647 /Length2 2147483647 /Length3 2147483647";

/// Opens `file`, renders its page and reads its text: the page renders with the square
/// drawn after the text, or stops at its deadline when `may_time_out`.
fn check(label: &str, file: Vec<u8>, may_time_out: bool) {
    let limits = PdfLimits {
        page_timeout_ms: 3_000,
        ..PdfLimits::default()
    };
    let doc = PdfDocument::open(file.into(), &limits)
        .unwrap_or_else(|e| panic!("{label}: does not open: {e}"));
    assert!(!doc.model.fonts.is_empty(), "{label}: no font in the model");
    match doc.render(0, 1.0) {
        Ok(raster) => {
            let img = image::load_from_memory(&raster.png).unwrap().to_luma8();
            assert_eq!((img.width(), img.height()), (200, 200), "{label}");
            // The square drawn after the text: (170, 170) in PDF space.
            assert_eq!(
                img.get_pixel(170, 30)[0],
                0,
                "{label}: the page stopped at the font"
            );
            assert_eq!(img.get_pixel(190, 190)[0], 255, "{label}");
        }
        Err(PdfError::Timeout(_)) if may_time_out => {}
        Err(e) => panic!("{label}: {e:?}"),
    }
    let _ = doc.text(0).unwrap();
}

/// Whether the intact font drew its box glyph for `A` (left of the square, 10..60 pt at
/// 48 pt size from x = 10).
fn glyph_drawn(file: Vec<u8>) -> bool {
    let doc = PdfDocument::open(file.into(), &PdfLimits::default()).unwrap();
    let img = image::load_from_memory(&doc.render(0, 1.0).unwrap().png)
        .unwrap()
        .to_luma8();
    // The box runs from 100 to 600 units across and 100 to 700 up: at 48 pt, x 15-39 and
    // y 45-73 in PDF space.
    img.get_pixel(27, 200 - 60)[0] < 128
}

#[test]
fn broken_truetype_programs_fall_back() {
    for (how, program, huge) in variants(DEJAVU) {
        let dict = if huge {
            HUGE.to_string()
        } else {
            format!("/Length1 {}", program.len())
        };
        let file = font_page(
            "(AAA)",
            simple_font("TrueType", "FontFile2", stream(&dict, &program)),
        );
        check(&format!("TrueType, {how}"), file, false);
    }
}

#[test]
fn broken_type1_programs_fall_back() {
    let (program, [l1, l2, l3]) = type1_font();
    let intact = font_page(
        "(A)",
        simple_font(
            "Type1",
            "FontFile",
            stream(
                &format!("/Length1 {l1} /Length2 {l2} /Length3 {l3}"),
                &program,
            ),
        ),
    );
    assert!(glyph_drawn(intact), "the intact Type 1 font draws its box");
    for (how, program, huge) in variants(&program) {
        let dict = if huge {
            HUGE.to_string()
        } else {
            format!("/Length1 {l1} /Length2 {l2} /Length3 {l3}")
        };
        let file = font_page(
            "(AAA)",
            simple_font("Type1", "FontFile", stream(&dict, &program)),
        );
        check(&format!("Type 1, {how}"), file, false);
    }
}

#[test]
fn broken_cff_and_opentype_programs_fall_back() {
    let cff = cff_font();
    let intact = font_page(
        "(A)",
        simple_font("Type1", "FontFile3", stream("/Subtype /Type1C", &cff)),
    );
    assert!(glyph_drawn(intact), "the intact CFF font draws its box");
    for (how, program, huge) in variants(&cff) {
        let dict = if huge {
            format!("/Subtype /Type1C {HUGE}")
        } else {
            "/Subtype /Type1C".into()
        };
        let file = font_page(
            "(AAA)",
            simple_font("Type1", "FontFile3", stream(&dict, &program)),
        );
        check(&format!("CFF, {how}"), file, false);
    }
    for (how, program, huge) in variants(DEJAVU) {
        let dict = if huge {
            format!("/Subtype /OpenType {HUGE}")
        } else {
            "/Subtype /OpenType".into()
        };
        let file = font_page(
            "(AAA)",
            simple_font("TrueType", "FontFile3", stream(&dict, &program)),
        );
        check(&format!("OpenType, {how}"), file, false);
    }
}

#[test]
fn broken_cid_font_programs_fall_back() {
    // Two-byte codes under Identity-H: glyphs 34 and 36.
    let text = "<00220024>";
    for (how, program, huge) in variants(&cff_font()) {
        let dict = if huge {
            format!("/Subtype /CIDFontType0C {HUGE}")
        } else {
            "/Subtype /CIDFontType0C".into()
        };
        let file = font_page(
            text,
            cid_font("CIDFontType0", "FontFile3", stream(&dict, &program)),
        );
        check(&format!("CIDFontType0, {how}"), file, false);
    }
    for (how, program, huge) in variants(DEJAVU) {
        let dict = if huge {
            HUGE.to_string()
        } else {
            String::new()
        };
        let file = font_page(
            text,
            cid_font("CIDFontType2", "FontFile2", stream(&dict, &program)),
        );
        check(&format!("CIDFontType2, {how}"), file, false);
    }
}

/// A Type 3 font (object 5) whose only glyph, `A`, runs `proc` (object 6) with the font
/// itself as `/F1` in its resources.
fn type3_font(proc: &[u8]) -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /A 6 0 R >> /Encoding << /Type /Encoding /Differences [65 /A] >> /FirstChar 65 /LastChar 65 /Widths [1000] /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
        stream("", proc),
    ]
}

#[test]
fn type3_glyphs_that_recurse_or_are_huge_end() {
    // The glyph shows itself: endless recursion unless the interpreter bounds it.
    let recursive = type3_font(b"1000 0 d0 BT /F1 1000 Tf (A) Tj ET 0 0 500 500 re f");
    check("Type 3, recursive", font_page("(AAA)", recursive), false);
    // The glyph shows itself four times: 4^depth glyphs.
    let fan = type3_font(b"1000 0 d0 0 0 100 100 re f BT /F1 250 Tf (AAAA) Tj ET");
    check("Type 3, fanning out", font_page("(AAA)", fan), true);
    // A glyph of 100,000 paths, shown 200 times.
    let mut huge = b"1000 0 d0\n".to_vec();
    for i in 0..100_000 {
        huge.extend_from_slice(
            format!("{} {} 5 5 re f\n", i % 190 * 5, i / 190 % 190 * 5).as_bytes(),
        );
    }
    let text = format!("({})", "A".repeat(200));
    check("Type 3, huge", font_page(&text, type3_font(&huge)), true);
    // A glyph procedure that is garbage, and one whose stream is cut off.
    check(
        "Type 3, garbage",
        font_page("(AAA)", type3_font(&garbage(4000))),
        false,
    );
    let mut cut = stream("/Length 100000", b"1000 0 d0 0 0 500 500 re");
    cut.truncate(cut.len() - "\nendstream".len());
    let mut objects = type3_font(b"");
    objects[1] = cut;
    check("Type 3, cut off", font_page("(AAA)", objects), false);
}
