//! Record families played end to end, hostile inputs, and the real pictures in
//! `fixtures/metafile/`.

use super::*;

fn le(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// One EMF record: type, size, body padded to four bytes.
fn rec(kind: u32, body: &[u8]) -> Vec<u8> {
    let mut b = body.to_vec();
    while !b.len().is_multiple_of(4) {
        b.push(0);
    }
    let mut r = kind.to_le_bytes().to_vec();
    r.extend_from_slice(&(b.len() as u32 + 8).to_le_bytes());
    r.extend_from_slice(&b);
    r
}

/// An EMF of 96×96 device pixels (a 25.4 mm frame at 3.78 px/mm) with `records`.
fn emf(records: &[Vec<u8>]) -> Vec<u8> {
    let mut body: Vec<u8> = records.concat();
    body.extend_from_slice(&rec(14, &le(&[0, 16, 20])));
    let mut h = Vec::new();
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&88u32.to_le_bytes());
    h.extend_from_slice(&le(&[0, 0, 95, 95])); // bounds
    h.extend_from_slice(&le(&[0, 0, 2540, 2540])); // frame, 0.01 mm
    h.extend_from_slice(b" EMF");
    h.extend_from_slice(&0x10000u32.to_le_bytes());
    h.extend_from_slice(&((88 + body.len()) as u32).to_le_bytes());
    h.extend_from_slice(&(records.len() as u32 + 2).to_le_bytes());
    h.extend_from_slice(&[4, 0, 0, 0]); // handles, reserved
    h.extend_from_slice(&le(&[0, 0, 0])); // description, palette
    h.extend_from_slice(&le(&[960, 960, 254, 254])); // device px, mm
    assert_eq!(h.len(), 88);
    h.extend_from_slice(&body);
    h
}

fn brush(ih: i32, rgb: i32) -> Vec<u8> {
    rec(39, &le(&[ih, 0, rgb, 0]))
}

fn select(ih: u32) -> Vec<u8> {
    rec(37, &ih.to_le_bytes())
}

fn svg(bytes: &[u8]) -> String {
    to_svg(bytes, &MetafileLimits::default()).unwrap().text
}

#[test]
fn polygons_rectangles_and_ellipses_become_paths() {
    let polygon = rec(
        3,
        &[le(&[0, 0, 10, 10]), le(&[3, 0, 0, 10, 0, 10, 10])].concat(),
    );
    let out = svg(&emf(&[
        brush(1, 0x0000FF), // COLORREF 0x00bbggrr: red
        select(1),
        polygon,
        rec(43, &le(&[20, 20, 40, 30])),
        rec(42, &le(&[50, 50, 70, 60])),
    ]));
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 96 96\""));
    assert!(out.contains("<path d=\"M0 0L10 0L10 10Z\" fill=\"#ff0000\" fill-rule=\"evenodd\" stroke=\"#000000\""), "{out}");
    assert!(
        out.contains("<path d=\"M20 20L40 20L40 30L20 30Z\""),
        "{out}"
    );
    // The ellipse is four Bézier quarters starting at its right end.
    assert!(out.contains("<path d=\"M70 55C"), "{out}");
    assert_eq!(out.matches("<path").count(), 3);
}

#[test]
fn null_pen_and_brush_draw_nothing() {
    let out = to_svg(
        &emf(&[
            select(0x8000_0005),
            select(0x8000_0008),
            rec(43, &le(&[0, 0, 5, 5])),
        ]),
        &MetafileLimits::default(),
    );
    assert_eq!(out, Err(MetafileError::Empty));
}

#[test]
fn world_transform_and_mapping_move_points() {
    let scale: Vec<u8> = [2.0f32, 0.0, 0.0, 2.0, 5.0, 0.0]
        .iter()
        .flat_map(|f| f.to_bits().to_le_bytes())
        .collect();
    let out = svg(&emf(&[rec(35, &scale), rec(43, &le(&[1, 1, 3, 3]))]));
    assert!(out.contains("M7 2L11 2L11 6L7 6Z"), "{out}");

    // MM_ANISOTROPIC: window 1000 wide onto a 100-pixel viewport.
    let out = svg(&emf(&[
        rec(17, &le(&[8])),
        rec(9, &le(&[1000, 1000])),
        rec(11, &le(&[100, 100])),
        rec(43, &le(&[100, 200, 300, 400])),
    ]));
    assert!(out.contains("M10 20L30 20L30 40L10 40Z"), "{out}");
}

#[test]
fn pens_set_stroke_width_dashes_and_colour() {
    let pen = rec(38, &le(&[2, 1, 4, 0, 0x00FF00]));
    let line = rec(4, &[le(&[0, 0, 10, 10]), le(&[2, 0, 0, 10, 10])].concat());
    let out = svg(&emf(&[pen, select(2), line]));
    assert!(
        out.contains("stroke=\"#00ff00\" stroke-width=\"4\""),
        "{out}"
    );
    assert!(out.contains("stroke-dasharray=\"24 8\""), "{out}");
    assert!(out.contains("fill=\"none\""), "{out}");
}

fn font_record(ih: i32, height: i32, weight: i32, escapement: i32, face: &str) -> Vec<u8> {
    let mut b = le(&[ih, height, 0, escapement, 0, weight]);
    b.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]); // italic, …
    let mut name: Vec<u16> = face.encode_utf16().collect();
    name.resize(32, 0);
    b.extend(name.iter().flat_map(|u| u.to_le_bytes()));
    rec(82, &b)
}

fn text_record(x: i32, y: i32, text: &str, dx: Option<&[i32]>) -> Vec<u8> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let n = units.len() as i32;
    // Fixed part: 8 head + 16 bounds + 12 mode/scales + 40 EMRTEXT = 76 bytes.
    let off_string = 76;
    let string_len = (units.len() * 2).div_ceil(4) * 4;
    let off_dx = if dx.is_some() {
        off_string + string_len as i32
    } else {
        0
    };
    let mut b = le(&[0, 0, 0, 0, 1]);
    b.extend_from_slice(&1f32.to_bits().to_le_bytes());
    b.extend_from_slice(&1f32.to_bits().to_le_bytes());
    b.extend_from_slice(&le(&[x, y, n, off_string, 0, 0, 0, -1, -1, off_dx]));
    let mut s: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    s.resize(string_len, 0);
    b.extend_from_slice(&s);
    if let Some(d) = dx {
        b.extend_from_slice(&le(d));
    }
    rec(84, &b)
}

#[test]
fn text_uses_the_selected_font_colour_and_alignment() {
    let out = svg(&emf(&[
        font_record(3, -20, 700, 900, "Arial\"><script>"),
        select(3),
        rec(24, &le(&[0x00FF0000])), // blue text
        rec(22, &le(&[24])),         // TA_BASELINE
        text_record(10, 50, "a<&>b", Some(&[5, 5, 5, 5, 5])),
    ]));
    assert!(
        out.contains("font-family=\"'Arialscript', sans-serif\""),
        "{out}"
    );
    assert!(
        out.contains("font-size=\"20\" font-weight=\"bold\" font-style=\"italic\""),
        "{out}"
    );
    assert!(out.contains("fill=\"#0000ff\""), "{out}");
    assert!(out.contains(">a&lt;&amp;&gt;b</text>"), "{out}");
    assert!(out.contains("x=\"0 5 10 15 20\""), "{out}");
    // 90° escapement turns the baseline upwards.
    assert!(out.contains("translate(10 50) rotate(-90)"), "{out}");
    assert!(!out.contains("<script"));
}

#[test]
fn right_aligned_text_without_advances_is_anchored_at_its_end() {
    let out = svg(&emf(&[
        rec(22, &le(&[2])),
        text_record(90, 10, "end", None),
    ]));
    assert!(out.contains("text-anchor=\"end\""), "{out}");
    assert!(out.contains("dy=\"0.88em\""), "{out}");
}

/// A STRETCHDIBITS record drawing a 2×1 24-bit DIB (red, green) into `dest`.
fn stretch_dibits(dest: [i32; 4], info: &[u8], bits: &[u8]) -> Vec<u8> {
    let off_bmi = 80;
    let off_bits = off_bmi + info.len() as i32;
    let mut b = le(&[0, 0, 0, 0, dest[0], dest[1], 0, 0, 2, 1]);
    b.extend_from_slice(&le(&[
        off_bmi,
        info.len() as i32,
        off_bits,
        bits.len() as i32,
        0,
        0x00CC0020,
        dest[2],
        dest[3],
    ]));
    b.extend_from_slice(info);
    b.extend_from_slice(bits);
    rec(81, &b)
}

fn info(w: i32, h: i32, bits: u16) -> Vec<u8> {
    let mut b = le(&[40, w, h]);
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&bits.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b
}

#[test]
fn stretch_dibits_embeds_a_png() {
    let out = svg(&emf(&[stretch_dibits(
        [10, 20, 40, 20],
        &info(2, 1, 24),
        &[0, 0, 255, 0, 255, 0, 0, 0],
    )]));
    assert!(
        out.contains("<image href=\"data:image/png;base64,"),
        "{out}"
    );
    assert!(
        out.contains("transform=\"matrix(40 0 0 20 10 20)\""),
        "{out}"
    );
}

#[test]
fn giant_bitmaps_are_refused() {
    let limits = MetafileLimits::default();
    let out = to_svg(
        &emf(&[stretch_dibits(
            [0, 0, 10, 10],
            &info(100_000, 100_000, 32),
            &[0; 16],
        )]),
        &limits,
    );
    assert_eq!(
        out,
        Err(MetafileError::BitmapTooLarge(limits.max_bitmap_pixels))
    );
}

#[test]
fn clips_intersect_and_restore_dc_drops_them() {
    let out = svg(&emf(&[
        rec(33, &[]),
        rec(30, &le(&[0, 0, 50, 50])),
        rec(43, &le(&[0, 0, 90, 90])),
        rec(34, &le(&[-1])),
        rec(43, &le(&[1, 1, 2, 2])),
    ]));
    assert!(
        out.contains("<clipPath id=\"c1\"><path d=\"M0 0L50 0L50 50L0 50Z\"/></clipPath>"),
        "{out}"
    );
    assert!(out.contains("M0 0L90 0L90 90L0 90Z\" fill=\"#ffffff\" fill-rule=\"evenodd\" stroke=\"#000000\" stroke-width=\"1\" stroke-linecap=\"round\" stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\" clip-path=\"url(#c1)\""), "{out}");
    let last = out.rsplit("<path").next().unwrap();
    assert!(!last.contains("clip-path"), "{out}");
}

#[test]
fn path_brackets_fill_and_clip() {
    let out = svg(&emf(&[
        rec(59, &[]),
        rec(27, &le(&[0, 0])),
        rec(54, &le(&[10, 0])),
        rec(54, &le(&[10, 10])),
        rec(61, &[]),
        rec(60, &[]),
        rec(62, &le(&[0, 0, 0, 0])),
    ]));
    assert!(out.contains("d=\"M0 0L10 0L10 10Z\""), "{out}");
    assert!(out.contains("stroke=\"none\""), "{out}");
}

#[test]
fn hostile_emf_inputs_fail_cleanly() {
    let limits = MetafileLimits::default();
    let good = emf(&[
        brush(1, 0xFF),
        select(1),
        rec(43, &le(&[0, 0, 5, 5])),
        text_record(1, 1, "x", Some(&[3])),
    ]);
    // Every truncation: an error or a partial picture, never a panic.
    for n in 0..good.len() {
        let _ = to_svg(&good[..n], &limits);
    }
    // A record whose size is 0 stops playback (nothing drawn yet: Empty).
    let mut zero = emf(&[]);
    zero.splice(88..88, [43u8, 0, 0, 0, 0, 0, 0, 0]);
    assert!(to_svg(&zero, &limits).is_err());
    // A polygon claiming four billion points is skipped, not allocated.
    let huge = rec(3, &[le(&[0, 0, 0, 0]), vec![0xFF; 4], le(&[0, 0])].concat());
    assert_eq!(to_svg(&emf(&[huge]), &limits), Err(MetafileError::Empty));
    // A poly-polygon with absurd counts.
    let pp = rec(
        8,
        &[le(&[0, 0, 0, 0]), vec![0xFF; 8], le(&[-1, 0, 0])].concat(),
    );
    assert_eq!(to_svg(&emf(&[pp]), &limits), Err(MetafileError::Empty));
    // Text whose offsets point far outside the record.
    let mut t = text_record(0, 0, "abc", Some(&[1, 1, 1]));
    t[8 + 16 + 12 + 12..8 + 16 + 12 + 16].copy_from_slice(&0x7FFF_FFF0u32.to_le_bytes());
    assert_eq!(to_svg(&emf(&[t]), &limits), Err(MetafileError::Empty));
}

#[test]
fn nested_save_dc_is_capped() {
    let limits = MetafileLimits::default();
    let saves: Vec<Vec<u8>> = (0..10_000).map(|_| rec(33, &[])).collect();
    assert_eq!(
        to_svg(&emf(&saves), &limits),
        Err(MetafileError::TooDeep(limits.max_saved_states))
    );
    // Restores past the bottom of the stack are ignored.
    let restores: Vec<Vec<u8>> = (0..100)
        .map(|_| rec(34, &le(&[-5])))
        .chain([rec(43, &le(&[0, 0, 1, 1]))])
        .collect();
    assert!(to_svg(&emf(&restores), &limits).is_ok());
}

#[test]
fn record_work_and_output_caps() {
    let many: Vec<Vec<u8>> = (0..200).map(|i| rec(43, &le(&[i, 0, i + 1, 1]))).collect();
    let bytes = emf(&many);
    let small = |f: fn(&mut MetafileLimits)| {
        let mut l = MetafileLimits::default();
        f(&mut l);
        to_svg(&bytes, &l)
    };
    assert_eq!(
        small(|l| l.max_records = 50),
        Err(MetafileError::TooManyRecords(50))
    );
    assert_eq!(
        small(|l| l.work_budget = 500),
        Err(MetafileError::OverBudget)
    );
    assert_eq!(
        small(|l| l.max_output_bytes = 1000),
        Err(MetafileError::OutputTooLarge(1000))
    );
    assert!(small(|_| {}).is_ok());
}

#[test]
fn not_a_metafile() {
    assert_eq!(
        to_svg(b"hello", &MetafileLimits::default()),
        Err(MetafileError::NotMetafile)
    );
    assert_eq!(
        to_svg(&[], &MetafileLimits::default()),
        Err(MetafileError::NotMetafile)
    );
}

/// A WMF with a placeable header (1000×500 units at 1000 per inch) and `records`
/// (function, parameters as 16-bit words).
fn wmf(records: &[(u16, Vec<i16>)]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&0x9AC6_CDD7u32.to_le_bytes());
    b.extend_from_slice(&[0, 0]);
    for v in [0i16, 0, 1000, 500] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&1000u16.to_le_bytes());
    b.extend_from_slice(&[0; 6]);
    for v in [1u16, 9, 0x300, 0, 0, 4, 0, 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for (f, params) in records.iter().chain([(0u16, vec![])].iter()) {
        b.extend_from_slice(&(3 + params.len() as u32).to_le_bytes());
        b.extend_from_slice(&f.to_le_bytes());
        for p in params {
            b.extend_from_slice(&p.to_le_bytes());
        }
    }
    b
}

fn words(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)]))
        .collect()
}

#[test]
fn wmf_shapes_text_and_objects() {
    let mut font = vec![-40, 0, 0, 0, 700, 0, 0, 0, 0];
    font.extend(words(b"Times New Roman\0\0"));
    let text = [words(b"Hi&"), vec![100, 50]].concat();
    let out = svg(&wmf(&[
        (0x020B, vec![0, 0]),
        (0x020C, vec![500, 1000]),
        (0x02FC, vec![0, 0x00FF, 0, 0]), // brush slot 0: red
        (0x012D, vec![0]),
        (0x02FB, font), // font slot 1
        (0x012D, vec![1]),
        (0x041B, vec![300, 400, 100, 200]), // bottom, right, top, left
        (0x0324, vec![3, 0, 0, 10, 0, 10, 10]),
        (0x0521, [vec![3], text].concat()),
    ]));
    assert!(
        out.contains("viewBox=\"0 0 1000 500\" width=\"96\" height=\"48\""),
        "{out}"
    );
    assert!(
        out.contains("M200 100L400 100L400 300L200 300Z\" fill=\"#ff0000\""),
        "{out}"
    );
    assert!(out.contains("M0 0L10 0L10 10Z"), "{out}");
    assert!(
        out.contains(
            "font-family=\"'Times New Roman', sans-serif\" font-size=\"40\" font-weight=\"bold\""
        ),
        "{out}"
    );
    assert!(out.contains("translate(50 100)"), "{out}");
    assert!(out.contains(">Hi&amp;</text>"), "{out}");
}

#[test]
fn wmf_objects_take_the_lowest_free_slot() {
    let out = svg(&wmf(&[
        (0x02FC, vec![0, 0x00FF, 0, 0]), // slot 0 red
        (0x02FC, vec![0, 0x7F00, 0, 0]), // slot 1 green-ish
        (0x01F0, vec![0]),               // free slot 0
        (0x02FC, vec![0, 0, 0x00FF, 0]), // slot 0 again: blue
        (0x012D, vec![0]),
        (0x041B, vec![10, 10, 0, 0]),
    ]));
    assert!(out.contains("fill=\"#0000ff\""), "{out}");
}

#[test]
fn wmf_flipped_window_keeps_text_upright() {
    let out = svg(&wmf(&[
        (0x020B, vec![500, 0]),
        (0x020C, vec![-500, 1000]),
        (0x0521, [vec![1], words(b"A\0"), vec![400, 10]].concat()),
    ]));
    // y = 400 in a window from 500 going up is 100 from the top; no rotation.
    assert!(out.contains("translate(10 100)\""), "{out}");
}

#[test]
fn hostile_wmf_inputs_fail_cleanly() {
    let limits = MetafileLimits::default();
    let good = wmf(&[
        (0x020C, vec![500, 1000]),
        (0x041B, vec![300, 400, 100, 200]),
        (
            0x0A32,
            [vec![10, 10, 2, 0], words(b"ab"), vec![5, 5]].concat(),
        ),
    ]);
    for n in 0..good.len() {
        let _ = to_svg(&good[..n], &limits);
    }
    // A polygon claiming 32767 points in a short record, and a huge record size.
    assert!(to_svg(&wmf(&[(0x0324, vec![i16::MAX, 0, 0])]), &limits).is_err());
    let mut lying = wmf(&[(0x041B, vec![1, 1, 0, 0])]);
    lying[22 + 18..22 + 22].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(to_svg(&lying, &limits).is_err());
    let saves: Vec<(u16, Vec<i16>)> = (0..1000).map(|_| (0x001E, vec![])).collect();
    assert_eq!(
        to_svg(&wmf(&saves), &limits),
        Err(MetafileError::TooDeep(limits.max_saved_states))
    );
    // A StretchDIB of a giant bitmap.
    let mut dib = vec![0x20, 0xCC, 0, 1, 1, 0, 0, 1, 1, 0, 0];
    dib.extend(words(&info(60_000, 60_000, 24)));
    assert_eq!(
        to_svg(&wmf(&[(0x0F43, dib)]), &limits),
        Err(MetafileError::BitmapTooLarge(limits.max_bitmap_pixels))
    );
}

#[test]
fn real_pictures_convert_to_drawings() {
    let files: [(&str, &[u8]); 4] = [
        (
            "shapecrawler-009_table-image4.emf",
            include_bytes!("../../../fixtures/metafile/shapecrawler-009_table-image4.emf"),
        ),
        (
            "tika-testWORD_EMFAndAttachments-image1.emf",
            include_bytes!("../../../fixtures/metafile/tika-testWORD_EMFAndAttachments-image1.emf"),
        ),
        (
            "tika-test_embedded_zip-image3.wmf",
            include_bytes!("../../../fixtures/metafile/tika-test_embedded_zip-image3.wmf"),
        ),
        (
            "tika-testXLSX_Thumbnail-thumbnail.wmf",
            include_bytes!("../../../fixtures/metafile/tika-testXLSX_Thumbnail-thumbnail.wmf"),
        ),
    ];
    for (name, bytes) in files {
        let svg =
            to_svg(bytes, &MetafileLimits::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(svg.text.starts_with("<svg xmlns="), "{name}");
        assert!(svg.width > 0.0 && svg.height > 0.0, "{name}");
        assert!(
            svg.text.contains("<path") || svg.text.contains("<image") || svg.text.contains("<text"),
            "{name}"
        );
        // Nothing but markup previewd wrote: no scripts, no outside references.
        assert!(!svg.text.contains("<script"), "{name}");
        assert_eq!(
            svg.text.matches("://").count(),
            1,
            "{name}: only the SVG namespace"
        );
    }
}

#[test]
fn clipped_text_and_images_are_clipped_by_a_group_in_device_units() {
    let out = svg(&emf(&[
        rec(30, &le(&[0, 0, 50, 50])),
        text_record(10, 40, "clip", None),
        stretch_dibits(
            [10, 20, 40, 20],
            &info(2, 1, 24),
            &[0, 0, 255, 0, 255, 0, 0, 0],
        ),
    ]));
    // The clip's coordinates would move with the element's own transform, so the
    // clip sits on a group around the transformed element.
    assert!(
        out.contains("<g clip-path=\"url(#c1)\"><text transform=\"translate(10 40)\""),
        "{out}"
    );
    assert!(out.contains("<g clip-path=\"url(#c1)\"><image "), "{out}");
    assert!(!out.contains("xml:space=\"preserve\" clip-path"), "{out}");
}
