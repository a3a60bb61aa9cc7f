//! Charts and pictures anchored to cells, and table styles, through the real service and
//! in real Chromium: the chart SVG and picture routes, chart sheets, the standalone page,
//! the grid's drawing layer (a drawing sits on its anchor cells and scrolls with them) and
//! its table layer (header, bands and outline from the built-in styles; a cell's own fill
//! wins).
//!
//! `fixtures/xlsx/xlsxwriter-drawings.xlsx` is made by `fixtures/xlsx/make_drawings.py`;
//! its geometry, from the script and SpreadsheetML's rules: column A is 20.7109375
//! characters wide (145 px at the 7 px digit width of Calibri 11), B and C 12.7109375
//! (89 px), D the default 64 px; rows are 15 pt (20 px) but row 4, 40 pt (53 px). The chart
//! is anchored at E3 + (10, 5) px, 480 × 288 px; the 120 × 60 px picture at B8 + (4, 2).
//! Its sheet "Tables" holds A1:C5 in TableStyleMedium2 (banded rows), E1:G5 in
//! TableStyleLight9 (banded columns, first and last column) and I1:K5 in
//! TableStyleDark3; the workbook has XlsxWriter's Office 2007 theme (accent1 #4F81BD,
//! accent2 #C0504D).

mod common;

use std::io::Read;

use common::browser::{eval, wait_for, TestBrowser};
use common::{ids, start, TestServer};
use serde_json::Value;

const BOOK: &str = "xlsx/xlsxwriter-drawings.xlsx";
/// E3 + (10, 5): A + B + C + D = 145 + 89 + 89 + 64; two rows of 20 px.
const CHART_BOX: [f64; 4] = [397.0, 45.0, 480.0, 288.0];
/// B8 + (4, 2): A is 145 px; rows 1–7 are 6 × 20 + 53.
const PICTURE_BOX: [f64; 4] = [149.0, 175.0, 120.0, 60.0];

async fn open(server: &TestServer, rel: &str) -> (String, Value) {
    server.copy_fixture(rel);
    let snap = server.preview_ok(rel).await;
    let (id, token) = ids(&snap);
    let base = format!("/p/{id}/{token}");
    let meta: Value = server
        .get(&format!("{base}/grid/meta.json"))
        .await
        .json()
        .await
        .unwrap();
    (base, meta)
}

fn drawing<'a>(meta: &'a Value, sheet: &str, kind: &str) -> (usize, usize, &'a Value) {
    let sheets = meta["sheets"].as_array().unwrap();
    let si = sheets.iter().position(|s| s["name"] == sheet).unwrap();
    let list = sheets[si]["drawings"].as_array().unwrap();
    let n = list.iter().position(|d| d["kind"] == kind).unwrap();
    (si, n, &list[n])
}

fn close(a: &Value, b: [f64; 4]) -> bool {
    (0..4).all(|i| (a[i].as_f64().unwrap() - b[i]).abs() < 1.0)
}

fn part_of(rel: &str, part: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = Vec::new();
    zip.by_name(part).unwrap().read_to_end(&mut out).unwrap();
    out
}

/// The picture's part is served by the media route, byte for byte, and parts the sheets do
/// not show are not.
async fn picture_is_served(server: &TestServer, base: &str, picture: &Value) {
    let part = picture["media"].as_str().unwrap();
    let res = server.get(&format!("{base}/media/{part}")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert_eq!(res.bytes().await.unwrap().to_vec(), part_of(BOOK, part));
    assert_eq!(
        server
            .get(&format!("{base}/media/xl/worksheets/sheet1.xml"))
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn charts_are_served_as_svg_at_their_anchor_size_and_pictures_as_media() {
    let server = start(|_| {}).await;
    let (base, meta) = open(&server, BOOK).await;

    let (si, n, chart) = drawing(&meta, "Data", "chart");
    assert_eq!(chart["title"], "Sales by region");
    assert_eq!(chart["drawn"], true);
    assert!(close(&chart["box"], CHART_BOX), "{chart}");
    assert_eq!(chart["rect"]["c0"], 4);
    assert_eq!(chart["rect"]["r0"], 2);

    let res = server.get(&format!("{base}/grid/chart/{si}/{n}")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    assert!(res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .starts_with("sandbox"));
    let svg = res.text().await.unwrap();
    assert!(svg.starts_with("<svg"), "{svg:.200}");
    // The engine works in points: 480 × 288 px are 360 × 216 pt.
    assert!(svg.contains("viewBox=\"0 0 360 216\""), "{svg:.300}");
    assert!(svg.contains("Sales by region"));
    // The cached categories and both series are drawn.
    for label in ["North", "South", "East", "West", "Q1", "Q2"] {
        assert!(svg.contains(label), "{label} in the chart");
    }
    assert!(!svg.to_ascii_lowercase().contains("<script"));

    // Another size on request (a chart sheet fills the viewer's pane).
    let svg = server
        .get_text(&format!("{base}/grid/chart/{si}/{n}?w=400&h=200"))
        .await;
    assert!(svg.contains("viewBox=\"0 0 300 150\""), "{svg:.300}");

    // A picture is not a chart; a drawing that does not exist is not either.
    let (psi, pn, picture) = drawing(&meta, "Data", "picture");
    assert!(close(&picture["box"], PICTURE_BOX), "{picture}");
    for path in [
        format!("{base}/grid/chart/{psi}/{pn}"),
        format!("{base}/grid/chart/{si}/99"),
        format!("{base}/grid/chart/99/0"),
    ] {
        assert_eq!(server.get(&path).await.status(), 404, "{path}");
    }

    picture_is_served(&server, &base, picture).await;

    // A chart sheet: one tab, no cells, its chart.
    let sheets = meta["sheets"].as_array().unwrap();
    let cs = sheets.iter().position(|s| s["name"] == "Chart").unwrap();
    assert_eq!(sheets[cs]["chartSheet"], true);
    assert_eq!(sheets[cs]["drawings"][0]["title"], "Q1 share");
    let svg = server
        .get_text(&format!("{base}/grid/chart/{cs}/0?w=800&h=600"))
        .await;
    assert!(svg.contains("<path"), "a pie has slices: {svg:.300}");
    assert!(meta["warnings"].as_array().unwrap().is_empty(), "{meta}");
}

#[tokio::test]
async fn real_workbooks_show_their_charts_and_pictures() {
    let server = start(|_| {}).await;
    // ONLYOFFICE's sample: two charts and a PNG logo.
    let (base, meta) = open(&server, "xlsx/onlyoffice-sample.xlsx").await;
    let (si, n, chart) = drawing(&meta, "Sheet1", "chart");
    assert_eq!(chart["title"], "Total Medal Count");
    let svg = server
        .get_text(&format!("{base}/grid/chart/{si}/{n}"))
        .await;
    assert!(svg.starts_with("<svg") && svg.contains("Total Medal Count"));
    let (_, _, picture) = drawing(&meta, "Sheet1", "picture");
    let res = server
        .get(&format!(
            "{base}/media/{}",
            picture["media"].as_str().unwrap()
        ))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");

    // Open-Xml-PowerTools' spreadsheet: a column chart and a JPEG.
    let (base, meta) = open(&server, "xlsx/powertools-Spreadsheet.xlsx").await;
    let (_, _, picture) = drawing(&meta, "Sheet1", "picture");
    let res = server
        .get(&format!(
            "{base}/media/{}",
            picture["media"].as_str().unwrap()
        ))
        .await;
    assert_eq!(res.headers()["content-type"], "image/jpeg");
    let (_, _, chart) = drawing(&meta, "Sheet1", "chart");
    assert_eq!(chart["drawn"], true);

    // A chart sheet whose chart has no series keeps a labelled box.
    let (base, meta) = open(&server, "xlsx/sheetjs-BlankSheetTypes.xlsm").await;
    let (si, n, chart) = drawing(&meta, "Chart1", "chart");
    assert_eq!(meta["sheets"][si]["chartSheet"], true);
    assert!(chart.get("drawn").is_none(), "{chart}");
    assert_eq!(
        server
            .get(&format!("{base}/grid/chart/{si}/{n}"))
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn the_standalone_page_draws_charts_and_embeds_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.html");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(BOOK);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_previewd"))
        .arg("preview")
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("<svg class=\"sheet-chart\""),
        "an inline chart"
    );
    assert!(html.contains("Sales by region"));
    assert!(
        html.contains("src=\"data:image/png;base64,"),
        "an embedded picture"
    );
    assert!(html.contains("Picture at B8"));
    assert!(!html.contains("<script"));
}

/// The rectangle of the first element matching `selector`, relative to the grid's
/// scroller: `[x, y, w, h]`.
async fn rect_of(page: &chromiumoxide::Page, selector: &str) -> Vec<f64> {
    let js = format!(
        "(() => {{ const s = document.getElementById('scroller').getBoundingClientRect(); \
         const e = document.querySelector({selector:?}); if (!e) return null; \
         const r = e.getBoundingClientRect(); return [r.left - s.left, r.top - s.top, r.width, r.height]; }})()"
    );
    let v = eval(page, &js).await;
    v.as_array()
        .unwrap_or_else(|| panic!("no {selector}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// The left edge of column `name`'s header and the top edge of row `n`'s header.
async fn header_edges(page: &chromiumoxide::Page, col: &str, row: u32) -> (f64, f64) {
    let js = format!(
        "(() => {{ const s = document.getElementById('scroller').getBoundingClientRect(); \
         const c = Array.from(document.querySelectorAll('.colhead')).find(e => e.textContent === {col:?}); \
         const r = Array.from(document.querySelectorAll('.rowhead')).find(e => e.textContent === '{row}'); \
         return [c.getBoundingClientRect().left - s.left, r.getBoundingClientRect().top - s.top]; }})()"
    );
    let v = eval(page, &js).await;
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

#[tokio::test]
async fn the_grid_draws_charts_and_pictures_on_their_cells_and_scrolls_them() {
    let server = start(|_| {}).await;
    let (base, _) = open(&server, BOOK).await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&format!("{}{base}/grid/", server.base)).await;
    wait_for(
        &page,
        "document.body.dataset.ready === '1' && !!document.querySelector('img.drawing-img.chart') \
         && document.querySelector('img.drawing-img.chart').complete \
         && document.querySelector('img.drawing-img.picture').complete",
    )
    .await;
    // Both images loaded (an SVG from the chart route, the PNG from the media route).
    assert_eq!(
        eval(
            &page,
            "document.querySelector('img.drawing-img.chart').naturalWidth > 0"
        )
        .await,
        true
    );
    assert_eq!(
        eval(
            &page,
            "document.querySelector('img.drawing-img.picture').naturalWidth"
        )
        .await,
        120
    );

    // The chart's top-left corner is 10 px right of column E's left edge and 5 px below
    // row 3's top edge, as the grid draws them; its size is the anchor's.
    let chart = rect_of(&page, "img.drawing-img.chart").await;
    let (ex, y3) = header_edges(&page, "E", 3).await;
    assert!(
        (chart[0] - (ex + 10.0)).abs() <= 2.0,
        "{chart:?} vs E at {ex}"
    );
    assert!(
        (chart[1] - (y3 + 5.0)).abs() <= 2.0,
        "{chart:?} vs row 3 at {y3}"
    );
    assert!((chart[2] - 480.0).abs() <= 1.0 && (chart[3] - 288.0).abs() <= 1.0);
    let picture = rect_of(&page, "img.drawing-img.picture").await;
    let (bx, y8) = header_edges(&page, "B", 8).await;
    assert!(
        (picture[0] - (bx + 4.0)).abs() <= 2.0,
        "{picture:?} vs B at {bx}"
    );
    assert!(
        (picture[1] - (y8 + 2.0)).abs() <= 2.0,
        "{picture:?} vs row 8 at {y8}"
    );

    // Scrolled by 60 px down and 100 px right, the drawings move with the cells (the
    // chart is cut by the frozen first row, so its visible part is measured by its
    // image's own position inside the pane).
    eval(
        &page,
        "(() => { const s = document.getElementById('scroller'); s.scrollTop = 60; s.scrollLeft = 100; })()",
    )
    .await;
    // Row 4 (53 px tall, from y = 60) is the first one under the frozen row at y = 80.
    wait_for(&page, "document.body.dataset.firstRow === '3'").await;
    let moved = rect_of(&page, "img.drawing-img.picture").await;
    assert!((moved[0] - (picture[0] - 100.0)).abs() <= 1.0, "{moved:?}");
    assert!((moved[1] - (picture[1] - 60.0)).abs() <= 1.0, "{moved:?}");
    let (bx, y8) = header_edges(&page, "B", 8).await;
    assert!((moved[0] - (bx + 4.0)).abs() <= 2.0 && (moved[1] - (y8 + 2.0)).abs() <= 2.0);
    let chart_moved = rect_of(&page, "img.drawing-img.chart").await;
    assert!(
        (chart_moved[0] - (chart[0] - 100.0)).abs() <= 1.0,
        "{chart_moved:?}"
    );
    assert!(
        (chart_moved[1] - (chart[1] - 60.0)).abs() <= 1.0,
        "{chart_moved:?}"
    );
    // One image per drawing per pane it meets: the page does not pile them up.
    assert_eq!(
        eval(
            &page,
            "document.querySelectorAll('img.drawing-img.picture').length"
        )
        .await,
        1
    );

    // The chart sheet: its chart fills the pane.
    eval(
        &page,
        "Array.from(document.querySelectorAll('#tabs button')).find(b => b.textContent === 'Chart').click()",
    )
    .await;
    wait_for(
        &page,
        "!!document.querySelector('img.drawing-img.chart') && document.querySelector('img.drawing-img.chart').complete \
         && document.querySelector('img.drawing-img.chart').naturalWidth > 0 \
         && document.querySelector('img.drawing-img.chart').src.includes('?w=')",
    )
    .await;
    let full = rect_of(&page, "img.drawing-img.chart").await;
    let size = eval(
        &page,
        "[document.getElementById('scroller').clientWidth, document.getElementById('scroller').clientHeight]",
    )
    .await;
    assert!(full[0].abs() <= 1.0 && full[1].abs() <= 1.0, "{full:?}");
    assert!(
        (full[2] - size[0].as_f64().unwrap()).abs() <= 1.0,
        "{full:?} {size}"
    );
    assert!(
        (full[3] - size[1].as_f64().unwrap()).abs() <= 1.0,
        "{full:?} {size}"
    );
    browser.close().await;
}

#[tokio::test]
async fn tables_carry_their_built_in_styles_in_the_meta() {
    let server = start(|_| {}).await;
    let (_, meta) = open(&server, BOOK).await;
    let sheets = meta["sheets"].as_array().unwrap();
    let tables = sheets.iter().find(|s| s["name"] == "Tables").unwrap()["tables"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(tables.len(), 3, "{tables:?}");
    let medium = tables
        .iter()
        .find(|t| t["styleName"] == "TableStyleMedium2")
        .unwrap();
    assert_eq!(
        medium["rect"],
        serde_json::json!({"r0": 0, "c0": 0, "r1": 4, "c1": 2})
    );
    assert_eq!(medium["headerRows"], 1);
    assert_eq!(medium["rowStripes"], true);
    assert_eq!(medium["columnStripes"], false);
    let header = &medium["parts"]["headerRow"];
    assert_eq!(header["fill"], "#4f81bd");
    assert_eq!(header["color"], "#ffffff");
    assert_eq!(header["bold"], true);
    let light = tables
        .iter()
        .find(|t| t["styleName"] == "TableStyleLight9")
        .unwrap();
    assert_eq!(light["columnStripes"], true);
    assert_eq!(light["firstColumn"], true);
    assert_eq!(light["lastColumn"], true);
    assert_eq!(
        light["parts"]["firstColumnStripe"]["borders"][0],
        "1px solid #4f81bd"
    );
    let dark = tables
        .iter()
        .find(|t| t["styleName"] == "TableStyleDark3")
        .unwrap();
    assert_eq!(dark["parts"]["wholeTable"]["fill"], "#c0504d");

    // Open-Xml-PowerTools' spreadsheet: one table in Excel's default style.
    let (_, meta) = open(&server, "xlsx/powertools-Spreadsheet.xlsx").await;
    let t = &meta["sheets"][0]["tables"][0];
    assert_eq!(t["styleName"], "TableStyleMedium2");
    assert_eq!(t["name"], "Funny");
    assert_eq!(
        t["rect"],
        serde_json::json!({"r0": 0, "c0": 0, "r1": 2, "c1": 2})
    );
}

#[tokio::test]
async fn the_grid_draws_table_styles_under_the_cells_own_formats() {
    let server = start(|_| {}).await;
    let (base, _) = open(&server, BOOK).await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&format!("{}{base}/grid/", server.base)).await;
    wait_for(&page, "document.body.dataset.ready === '1'").await;
    eval(
        &page,
        "Array.from(document.querySelectorAll('#tabs button')).find(b => b.textContent === 'Tables').click()",
    )
    .await;
    wait_for(
        &page,
        "Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === 'Name')",
    )
    .await;
    // The style of the cell drawn at (row, col), as the page computes it, found by its
    // position under the column and row headers.
    let style_at = |col: &'static str, row: u32| {
        format!(
            "(() => {{ const c = Array.from(document.querySelectorAll('.colhead')).find(e => e.textContent === '{col}').getBoundingClientRect(); \
             const r = Array.from(document.querySelectorAll('.rowhead')).find(e => e.textContent === '{row}').getBoundingClientRect(); \
             const cell = Array.from(document.querySelectorAll('.cell')).find(e => {{ const b = e.getBoundingClientRect(); \
               return Math.abs(b.left - c.left) < 2 && Math.abs(b.top - r.top) < 2; }}); \
             if (!cell) return null; const s = getComputedStyle(cell); \
             return [s.backgroundColor, s.color, s.fontWeight, s.borderTopWidth + ' ' + s.borderTopColor]; }})()"
        )
    };
    let a1 = eval(&page, &style_at("A", 1)).await;
    assert_eq!(a1[0], "rgb(79, 129, 189)", "{a1}");
    assert_eq!(a1[1], "rgb(255, 255, 255)");
    assert_eq!(a1[2], "700");
    // The first data row is banded at accent1's 80 % tint (#DCE6F1, within a step).
    let a2 = eval(&page, &style_at("A", 2)).await;
    let band: Vec<i64> = a2[0]
        .as_str()
        .unwrap()
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        band.iter()
            .zip([0xDC, 0xE6, 0xF1])
            .all(|(g, w)| (g - w).abs() <= 1),
        "{a2}"
    );
    assert_eq!(a2[1], "rgb(0, 0, 0)");
    // The second is not; rows are separated by accent1's 40 % tint line.
    let a3 = eval(&page, &style_at("A", 3)).await;
    assert_eq!(a3[0], "rgba(0, 0, 0, 0)", "{a3}");
    assert!(a3[3].as_str().unwrap().starts_with("1px rgb(14"), "{a3}");
    // B4 has no cell in the file and is still banded; C2 keeps its own yellow fill.
    let b4 = eval(&page, &style_at("B", 4)).await;
    assert_eq!(b4[0], a2[0], "{b4}");
    let c2 = eval(&page, &style_at("C", 2)).await;
    assert_eq!(c2[0], "rgb(255, 255, 0)", "{c2}");
    // Dark 3: accent2 cells with white text; outside the tables nothing is drawn.
    let j3 = eval(&page, &style_at("J", 3)).await;
    assert_eq!(j3[0], "rgb(192, 80, 77)", "{j3}");
    assert_eq!(j3[1], "rgb(255, 255, 255)");
    assert_eq!(eval(&page, &style_at("D", 3)).await, Value::Null);
    browser.close().await;
}

/// A workbook over `limits.xlsx_stream_bytes` is read in the background; its pictures and
/// charts are served like a whole parse's once the file is in (the media route answered
/// with `model.json` for such snapshots, and the chart route said "no charts").
#[tokio::test]
async fn a_workbook_read_in_the_background_serves_its_pictures_and_charts() {
    let server = start(|c| c.limits.xlsx_stream_bytes = 1).await;
    let (base, mut meta) = open(&server, BOOK).await;
    for _ in 0..600 {
        if meta["complete"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        meta = server
            .get(&format!("{base}/grid/meta.json"))
            .await
            .json()
            .await
            .unwrap();
    }
    assert_eq!(meta["complete"], true, "the workbook was read: {meta}");

    let (psi, pn, picture) = drawing(&meta, "Data", "picture");
    picture_is_served(&server, &base, picture).await;

    let (si, n, _) = drawing(&meta, "Data", "chart");
    let res = server.get(&format!("{base}/grid/chart/{si}/{n}")).await;
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Sales by region"));
    assert_eq!(
        server
            .get(&format!("{base}/grid/chart/{psi}/{pn}"))
            .await
            .status(),
        404
    );
}
