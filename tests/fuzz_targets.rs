//! Every fuzz target's body (`fuzz/src/`) built by the main suite and run on seed inputs:
//! the repository's own files of its kind, each also cut in half (a truncated upload), plus
//! a few hostile strings. The targets assert their own properties (balanced markup, caps
//! kept, paths normalised), so a seed that breaks one fails here as it would under
//! libFuzzer; and a body that no longer compiles against previewd fails CI instead of the
//! next fuzzing session (the instrumented build takes hours and is not part of CI).

use std::path::Path;

#[path = "../fuzz/src/apply_patch.rs"]
mod apply_patch;
#[path = "../fuzz/src/chart.rs"]
mod chart;
#[path = "../fuzz/src/csv_sniff.rs"]
mod csv_sniff;
#[path = "../fuzz/src/diff_request.rs"]
mod diff_request;
#[path = "../fuzz/src/docx.rs"]
mod docx;
#[path = "../fuzz/src/drawingml_geometry.rs"]
mod drawingml_geometry;
#[path = "../fuzz/src/highlight.rs"]
mod highlight;
#[path = "../fuzz/src/image_header.rs"]
mod image_header;
#[path = "../fuzz/src/markdown.rs"]
mod markdown;
#[path = "../fuzz/src/math.rs"]
mod math;
#[path = "../fuzz/src/metafile.rs"]
mod metafile;
#[path = "../fuzz/src/mtx.rs"]
mod mtx;
#[path = "../fuzz/src/native_render.rs"]
mod native_render;
#[path = "../fuzz/src/office_package.rs"]
mod office_package;
#[path = "../fuzz/src/pdf_page.rs"]
mod pdf_page;
#[path = "../fuzz/src/pdf_parse.rs"]
mod pdf_parse;
#[path = "../fuzz/src/pptx.rs"]
mod pptx;
#[path = "../fuzz/src/relative_path.rs"]
mod relative_path;
#[path = "../fuzz/src/unified_patch.rs"]
mod unified_patch;
#[path = "../fuzz/src/xlsx.rs"]
mod xlsx;

/// The files directly in `fixtures/{dir}` whose names end with one of `exts`, read.
fn files(dir: &str, exts: &[&str]) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            p.is_file() && exts.iter().any(|x| name.ends_with(x))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no {exts:?} seeds in {}", root.display());
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// A seed and its first half.
fn with_halves(seeds: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for seed in seeds {
        all.push(seed[..seed.len() / 2].to_vec());
        all.push(seed);
    }
    all.extend([
        Vec::new(),
        b"\0\xff\xfe garbage".to_vec(),
        b"PK\x03\x04".to_vec(),
    ]);
    all
}

fn run_bytes(run: fn(&[u8]), seeds: Vec<Vec<u8>>) {
    for seed in with_halves(seeds) {
        run(&seed);
    }
}

fn run_text(run: fn(&str), seeds: Vec<Vec<u8>>) {
    for seed in with_halves(seeds) {
        run(&String::from_utf8_lossy(&seed));
    }
}

#[test]
fn text_targets_run_their_seeds() {
    run_text(unified_patch::run, files("patches", &[".patch", ".diff"]));
    run_text(apply_patch::run, files("patches", &[".patch", ".diff"]));
    run_text(markdown::run, files("docx", &[".md"]));
    let paths: Vec<Vec<u8>> = [
        "a/b.rs",
        "../etc/passwd",
        "/abs",
        "a\0b",
        "a/./b//c",
        "ü/ß",
        ".",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    run_text(relative_path::run, paths);
    let mut code = b"\0".to_vec();
    code.extend(
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/samples/after.rs"))
            .unwrap(),
    );
    run_bytes(highlight::run, vec![code, b"\x03<script>\n\"x\"".to_vec()]);
}

#[test]
fn diff_targets_run_their_seeds() {
    let request = br#"{"before": "a\nb\n", "after": "a\nc\n", "path": "x.rs"}"#.to_vec();
    run_bytes(
        diff_request::run,
        vec![request, br#"{"patch": "--- a\n+++ b\n"}"#.to_vec()],
    );
    for flags in 0u8..16 {
        let mut input = vec![flags];
        input.extend("let x = 1;\n\0let x = 2; // 你好 \u{202e}\t\r\n".as_bytes());
        native_render::run(&input);
    }
}

#[test]
fn office_targets_run_their_seeds() {
    run_bytes(office_package::run, files("corpus/docx", &[".docx"]));
    run_bytes(docx::run, files("docx", &[".docx"]));
    run_bytes(pptx::run, files("pptx", &[".pptx"]));
    run_bytes(xlsx::run, files("xlsx", &[".xlsx", ".xlsm"]));
    run_bytes(csv_sniff::run, files("csv", &[".csv", ".tsv"]));
    run_bytes(metafile::run, files("metafile", &[".emf", ".wmf"]));
    // The MTX stream inside each EOT seed, whole and halved, and the EOT file itself.
    let fonts = files("fonts", &[".fntdata"]);
    let mtx_seeds: Vec<Vec<u8>> = fonts
        .iter()
        .filter_map(|eot| {
            let size = u32::from_le_bytes(eot.get(4..8)?.try_into().ok()?) as usize;
            Some(eot.get(eot.len().checked_sub(size)?..)?.to_vec())
        })
        .chain(fonts.iter().cloned())
        .collect();
    run_bytes(mtx::run, mtx_seeds);
    let mut png = Vec::new();
    image::RgbImage::new(3, 2)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let svg =
        br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>"#;
    run_bytes(image_header::run, vec![png, svg.to_vec()]);
    let geometry = br#"<custGeom xmlns="http://schemas.openxmlformats.org/drawingml/2006/main"><avLst><gd name="adj" fmla="val 50000"/></avLst><pathLst><path w="100" h="100"><moveTo><pt x="0" y="0"/></moveTo><lnTo><pt x="100" y="adj"/></lnTo><arcTo wR="50" hR="50" stAng="0" swAng="5400000"/><close/></path></pathLst></custGeom>"#;
    run_bytes(drawingml_geometry::run, vec![geometry.to_vec()]);
    run_bytes(chart::run, chart_parts());
    let equation = br#"<m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:f><m:num><m:r><m:t>1</m:t></m:r></m:num><m:den><m:r><m:t>x</m:t></m:r></m:den></m:f></m:oMath>"#;
    run_bytes(math::run, vec![equation.to_vec()]);
}

#[test]
fn pdf_targets_run_their_seeds() {
    run_bytes(pdf_parse::run, files("pdf", &[".pdf"]));
    let content = b"BT /F1 24 Tf 20 100 Td (previewd) Tj ET 0 0 1 rg 10 10 50 50 re f".to_vec();
    run_bytes(pdf_page::run, vec![content]);
}

/// The chart parts of the repository's documents (every `charts/chart*.xml` in the
/// `.docx`, `.pptx` and `.xlsx` fixtures), plus a surface and a hostile plot.
fn chart_parts() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (dir, ext) in [("docx", ".docx"), ("pptx", ".pptx"), ("xlsx", ".xlsx")] {
        for bytes in files(dir, &[ext]) {
            let Ok(mut zip) = zip::ZipArchive::new(std::io::Cursor::new(bytes)) else {
                continue;
            };
            for i in 0..zip.len() {
                let Ok(mut f) = zip.by_index(i) else { continue };
                let name = f.name().map(|n| n.into_owned()).unwrap_or_default();
                if name.contains("charts/chart") && name.ends_with(".xml") {
                    let mut part = Vec::new();
                    std::io::Read::read_to_end(&mut f, &mut part).unwrap();
                    out.push(part);
                }
            }
        }
    }
    assert!(!out.is_empty(), "the fixtures hold chart parts");
    let c = r#"xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart""#;
    let pt = |i: usize, v: &str| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#);
    let vals: String = (0..3).map(|i| pt(i, ["1", "1e308", "-1e308"][i])).collect();
    for kind in ["surface3DChart", "lineChart", "pieChart", "scatterChart"] {
        let ser =
            format!(r#"<c:ser><c:idx val="0"/><c:val><c:numLit>{vals}</c:numLit></c:val></c:ser>"#);
        out.push(
            format!(r#"<c:chartSpace {c}><c:chart><c:plotArea><c:{kind}>{ser}{ser}</c:{kind}><c:valAx><c:axId val="0"/><c:scaling><c:min val="5"/><c:max val="-5"/></c:scaling><c:majorUnit val="1e-300"/></c:valAx></c:plotArea></c:chart></c:chartSpace>"#)
                .into_bytes(),
        );
    }
    out
}
