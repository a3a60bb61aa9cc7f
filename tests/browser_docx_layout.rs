//! DOCX page layout in real Chromium (issue #15): each section's columns side by side
//! on the page they share, column breaks, and unequal columns, measured from the boxes
//! the browser lays out.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::docx::{docx_with_body, docx_with_part_bytes, docx_with_parts};
use common::start;

const VARIOUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/tika-testWORD_various.docx"
);

/// Boxes of the paragraphs of the document view whose text is one of `texts`.
const BOXES: &str = r#"((texts) => {
    const out = {};
    for (const p of document.querySelectorAll('#view-document .docx-p')) {
        const t = p.textContent.trim();
        if (texts.includes(t)) {
            const r = p.getBoundingClientRect();
            out[t] = { left: r.left, right: r.right, top: r.top, width: r.width };
        }
    }
    const page = document.querySelector('#view-document .docx-page').getBoundingClientRect();
    out.page = { left: page.left, right: page.right, width: page.width };
    out.pages = document.querySelectorAll('#view-document .docx-page').length;
    return out;
})"#;

/// Opens the viewer shell in Chromium, waits for the document view and its fonts, and
/// evaluates `script` there.
async fn document_eval(shell_url: &str, script: &str) -> serde_json::Value {
    let browser = TestBrowser::launch().await;
    let page = browser.open(shell_url).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && document.querySelector('#view-document .docx-page') !== null",
    )
    .await;
    eval(&page, "document.fonts.ready.then(() => true)").await;
    let out = eval(&page, script).await;
    browser.close().await;
    out
}

async fn boxes(shell_url: &str, texts: &[&str]) -> serde_json::Value {
    let list = serde_json::to_string(texts).unwrap();
    document_eval(shell_url, &format!("{BOXES}({list})")).await
}

/// A service with the file at `path` in its workspace as `name`, and the URL of its
/// snapshot's viewer shell.
async fn serve(path: &str, name: &str) -> (common::TestServer, String) {
    let s = start(|_| {}).await;
    s.write(name, std::fs::read(path).unwrap());
    let url = s.preview_ok(name).await["url"]
        .as_str()
        .unwrap()
        .to_string();
    (s, url)
}

/// A service with `bytes` in its workspace as `name`, and the URL of its viewer shell.
async fn serve_bytes(name: &str, bytes: Vec<u8>) -> (common::TestServer, String) {
    let s = start(|_| {}).await;
    s.write(name, bytes);
    let url = s.preview_ok(name).await["url"]
        .as_str()
        .unwrap()
        .to_string();
    (s, url)
}

fn f(v: &serde_json::Value, key: &str, side: &str) -> f64 {
    v[key][side]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key}.{side} in {v}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_continuous_two_column_section_lays_out_side_by_side_under_one_column_text() {
    let (_s, url) = serve(VARIOUS, "various.docx").await;
    let texts = [
        "Here is a list:",
        "Row 1 column 1",
        "Row 2 column 1",
        "Row 1 column 2",
        "Row 2 column 2",
    ];
    let b = boxes(&url, &texts).await;
    // The two-column section follows the one-column text on the same page.
    assert_eq!(b["pages"], 1, "{b}");
    // The first section is one column: its text runs past the page's middle.
    let middle = f(&b, "page", "left") + f(&b, "page", "width") / 2.0;
    assert!(f(&b, "Here is a list:", "right") > middle + 100.0, "{b}");
    // Balanced: two paragraphs a column, the second column right of the first.
    for row in [1, 2] {
        let left = format!("Row {row} column 1");
        let right = format!("Row {row} column 2");
        assert!(f(&b, &right, "left") >= f(&b, &left, "right"), "{b}");
        assert!(
            (f(&b, &right, "top") - f(&b, &left, "top")).abs() < 1.0,
            "{b}"
        );
    }
    // 720 twips between the columns: 36 pt = 48 px.
    let gap = f(&b, "Row 1 column 2", "left") - f(&b, "Row 1 column 1", "right");
    assert!((gap - 48.0).abs() < 1.5, "gap {gap}: {b}");
}

#[tokio::test(flavor = "multi_thread")]
async fn column_breaks_and_unequal_columns_place_text_where_the_document_says() {
    let body = concat!(
        // Equal columns: one short paragraph, then a column break.
        r#"<w:p><w:r><w:t>First</w:t><w:br w:type="column"/><w:t>Second</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:sectPr><w:cols w:num="2"/></w:sectPr></w:pPr></w:p>"#,
        // Unequal columns on the next page: 100 pt and 300 pt, 20 pt apart.
        r#"<w:p><w:r><w:t>Narrow</w:t><w:br w:type="column"/><w:t>Wide</w:t></w:r></w:p>"#,
        r#"<w:sectPr><w:cols w:num="2" w:equalWidth="0"><w:col w:w="2000" w:space="400"/><w:col w:w="6000"/></w:cols></w:sectPr>"#,
    );
    let (_s, url) = serve_bytes("columns.docx", docx_with_body(body)).await;
    let b = boxes(&url, &["First", "Second", "Narrow", "Wide"]).await;
    assert_eq!(b["pages"], 2, "{b}");
    // A short first column still ends at the break: "Second" tops the next column.
    assert!(f(&b, "Second", "left") >= f(&b, "First", "right"), "{b}");
    assert!(
        (f(&b, "Second", "top") - f(&b, "First", "top")).abs() < 1.0,
        "{b}"
    );
    // The unequal columns keep their widths (100 pt = 133.3 px, 300 pt = 400 px) and gap.
    assert!((f(&b, "Narrow", "width") - 133.33).abs() < 1.0, "{b}");
    assert!((f(&b, "Wide", "width") - 400.0).abs() < 1.0, "{b}");
    let gap = f(&b, "Wide", "left") - f(&b, "Narrow", "right");
    assert!((gap - 26.67).abs() < 1.0, "gap {gap}: {b}");
    assert!(
        (f(&b, "Wide", "top") - f(&b, "Narrow", "top")).abs() < 1.0,
        "{b}"
    );
}

/// A `w:drawing` anchoring a text box (`text`) of 100 × 50 pt with a theme fill.
fn anchored_box(text: &str, anchor_attrs: &str, position: &str, wrap: &str, rot: u32) -> String {
    format!(
        r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" locked="0" layoutInCell="1" allowOverlap="1" {anchor_attrs}><wp:simplePos x="0" y="0"/>{position}<wp:extent cx="1270000" cy="635000"/>{wrap}<wp:docPr id="1" name="{text}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:spPr><a:xfrm rot="{rot}"><a:off x="0" y="0"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:schemeClr val="accent2"/></a:solidFill></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#
    )
}

fn position(h_from: &str, h_emu: u32, v_from: &str, v_emu: u32) -> String {
    format!(
        r#"<wp:positionH relativeFrom="{h_from}"><wp:posOffset>{h_emu}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="{v_from}"><wp:posOffset>{v_emu}</wp:posOffset></wp:positionV>"#
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn floating_boxes_sit_where_their_anchor_says_in_front_of_or_behind_the_text() {
    const PT: f64 = 4.0 / 3.0;
    let text = "Anchor paragraph with enough words to run across the whole line of the page text.";
    let body = format!(
        "<w:p><w:r><w:t>{text}</w:t></w:r>{}{}{}</w:p><w:p><w:r><w:t>Second paragraph</w:t></w:r>{}</w:p>{}",
        // In front, 300 pt and 400 pt from the page's corner, rotated 90°.
        anchored_box(
            "In front",
            r#"behindDoc="0" relativeHeight="3""#,
            &position("page", 3_810_000, "page", 5_080_000),
            "<wp:wrapNone/>",
            5_400_000
        ),
        // Behind the text, at the margins' corner: over the first line of text.
        anchored_box(
            "Behind",
            r#"behindDoc="1" relativeHeight="2""#,
            &position("margin", 0, "margin", 0),
            "<wp:wrapNone/>",
            0
        ),
        // In front of the text, 200 pt into the column, on the first line of text.
        anchored_box(
            "Cover",
            r#"behindDoc="0" relativeHeight="4""#,
            &position("margin", 2_540_000, "margin", 0),
            "<wp:wrapNone/>",
            0
        ),
        // Square wrap, 100 pt into the column, 10 pt below its paragraph's top.
        anchored_box(
            "Floated",
            r#"behindDoc="0" relativeHeight="5""#,
            &position("column", 1_270_000, "paragraph", 127_000),
            r#"<wp:wrapSquare wrapText="bothSides"/>"#,
            0
        ),
        r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#,
    );
    let (_s, url) = serve_bytes("floats.docx", docx_with_body(&body)).await;
    let b = document_eval(
        &url,
        r#"(() => {
            const out = {};
            const pg = document.querySelector('#view-document .docx-page');
            for (const el of pg.querySelectorAll('.docx-textbox')) {
                const cs = getComputedStyle(el);
                const r = el.getBoundingClientRect();
                out[el.textContent.trim()] = { left: el.offsetLeft, top: el.offsetTop,
                    parent: el.offsetParent === pg, z: cs.zIndex, transform: cs.transform,
                    background: cs.backgroundColor, cx: r.left + r.width / 2, cy: r.top + r.height / 2 };
            }
            const first = pg.querySelector('.docx-p');
            const range = document.createRange();
            range.selectNodeContents(first.firstChild);
            const line = range.getClientRects()[0];
            // What a reader sees at the first line, over the "Behind" box and under "Cover".
            const at = (x) => document.elementFromPoint(x, line.top + line.height / 2);
            const behind = out['Behind'];
            out.hitBehind = at(pg.getBoundingClientRect().left + 96 + 20).closest('.docx-textbox') === null;
            const cover = at(pg.getBoundingClientRect().left + 96 + 200 * 4 / 3 + 20).closest('.docx-textbox');
            out.hitCover = cover ? cover.textContent.trim() : null;
            out.page = { width: pg.getBoundingClientRect().width };
            return out;
        })()"#,
    )
    .await;
    // (The pane may narrow the page; positions are in the page's own points.)
    // Placed from the page's corner, whatever the text around it; rotated about its centre.
    assert_eq!(b["In front"]["parent"], true, "{b}");
    assert!((f(&b, "In front", "left") - 300.0 * PT).abs() < 1.5, "{b}");
    assert!((f(&b, "In front", "top") - 400.0 * PT).abs() < 1.5, "{b}");
    let t = b["In front"]["transform"].as_str().unwrap_or("");
    let m: Vec<f64> = t
        .trim_start_matches("matrix(")
        .trim_end_matches(')')
        .split(',')
        .filter_map(|v| v.trim().parse().ok())
        .collect();
    assert!(
        m.len() == 6 && m[0].abs() < 1e-6 && (m[1] - 1.0).abs() < 1e-6,
        "rotated 90°: {t}"
    );
    // The theme's accent 2 (Office: #ED7D31) as the fill.
    assert_eq!(b["In front"]["background"], "rgb(237, 125, 49)", "{b}");
    // From the margins' corner (72 pt in).
    assert!((f(&b, "Behind", "left") - 72.0 * PT).abs() < 1.5, "{b}");
    assert!((f(&b, "Behind", "top") - 72.0 * PT).abs() < 1.5, "{b}");
    assert!((f(&b, "Cover", "left") - 272.0 * PT).abs() < 1.5, "{b}");
    // Behind the text: the text is what is hit there; in front: the box.
    assert_eq!(b["hitBehind"], true, "{b}");
    assert_eq!(b["hitCover"], "Cover", "{b}");
    assert!(
        b["Behind"]["z"].as_str().unwrap_or("").starts_with('-'),
        "{b}"
    );
    // Square wrap: a float 100 pt into the column, beside its paragraph's text.
    assert!((f(&b, "Floated", "left") - 172.0 * PT).abs() < 1.5, "{b}");
}

const ONLYOFFICE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/onlyoffice-sample.docx"
);

#[tokio::test(flavor = "multi_thread")]
async fn a_drawing_group_is_one_box_with_its_shapes_at_their_child_coordinates() {
    // ONLYOFFICE's sample: a 484.45 × 104.87 pt group of 62,296 × 13,486 child units
    // holding a near-transparent panel with text, a manual-operation shape, a ring and a
    // dot (`flowChartConnector`).
    let (_s, url) = serve(ONLYOFFICE, "sample.docx").await;
    let b = document_eval(
        &url,
        r#"(() => {
            // The body's group (the header has one of its own, the page-top artwork).
            const g = [...document.querySelectorAll('#view-document .docx-group')]
                .find((el) => el.style.width === '484.45pt');
            const box = (el) => { const r = el.getBoundingClientRect();
                return { left: r.left, top: r.top, width: r.width, height: r.height }; };
            const items = [...g.querySelectorAll(':scope > .docx-group-item')].map((it) => {
                const shape = it.firstElementChild;
                const geom = shape.querySelector(':scope > svg.docx-geom');
                const path = geom && geom.querySelector('path');
                return { box: box(shape), geom: geom ? box(geom) : null,
                    background: getComputedStyle(shape).backgroundColor,
                    fill: path ? path.getAttribute('fill') : null };
            });
            const text = [...g.querySelectorAll('.docx-p')].map((p) => box(p));
            return { group: box(g), items, text };
        })()"#,
    )
    .await;
    let n = |v: &serde_json::Value| v.as_f64().unwrap_or_else(|| panic!("{v} in {b}"));
    let group = &b["group"];
    let (gl, gt, gw, gh) = (
        n(&group["left"]),
        n(&group["top"]),
        n(&group["width"]),
        n(&group["height"]),
    );
    // One box of the group's extent (the page may be zoomed: compare in its own px).
    let px_per_pt = gw / 484.45;
    assert!((gh / px_per_pt - 104.87).abs() < 0.5, "{b}");
    let per_unit = (gw / 62_296.0, gh / 13_486.0);
    let items = b["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "{b}");
    for (item, (x, y, w, h)) in items.iter().zip([
        (0.0, 0.0, 62_296.0, 13_486.0),
        (4364.0, 5930.0, 824.0, 2495.0),
        (2253.0, 5296.0, 4984.0, 4896.0),
        (4409.0, 8827.0, 762.0, 730.0),
    ]) {
        // Each shape at its child offset in the group, drawn at its child extent.
        let r = if item["geom"].is_null() {
            &item["box"]
        } else {
            &item["geom"]
        };
        assert!(
            (n(&r["left"]) - gl - x * per_unit.0).abs() < 1.0,
            "{x}: {b}"
        );
        assert!((n(&r["top"]) - gt - y * per_unit.1).abs() < 1.0, "{y}: {b}");
        assert!((n(&r["width"]) - w * per_unit.0).abs() < 1.0, "{w}: {b}");
        assert!((n(&r["height"]) - h * per_unit.1).abs() < 1.0, "{h}: {b}");
    }
    // The ring is a circle (38.8 × 38.1 pt), not stretched over the group.
    let ring = &items[2]["geom"];
    assert!(
        (n(&ring["width"]) / n(&ring["height"]) - 1.018).abs() < 0.02,
        "{b}"
    );
    // The panel's accent fill keeps its 2.7 % alpha: a tint, not a solid blue block.
    let bg = items[0]["background"].as_str().unwrap_or("");
    assert!(bg.starts_with("rgba(") && bg.ends_with(", 0.027)"), "{bg}");
    // The panel's text sits inside the group, not below it.
    for t in b["text"].as_array().unwrap() {
        assert!(n(&t["top"]) >= gt - 1.0 && n(&t["top"]) < gt + gh, "{b}");
    }
}

const TEMPLATE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/tika-testWORD_template.docx"
);

#[tokio::test(flavor = "multi_thread")]
async fn a_page_relative_header_line_runs_down_the_page_as_its_share_says() {
    // Word's résumé template (Apache Tika): the first page's header has a vertical line
    // stored 99 pt tall whose `wp14:sizeRelV` makes it 105 % of the margin height
    // (718.2 pt of the 792 pt page), centred on the page, at 34 % of the page width.
    let (_s, url) = serve(TEMPLATE, "template.docx").await;
    let b = document_eval(
        &url,
        r#"(() => {
            const pg = document.querySelector('#view-document .docx-page');
            const p = pg.getBoundingClientRect();
            const line = pg.querySelector('.docx-header svg.docx-line');
            const r = line.getBoundingClientRect();
            const path = line.querySelector('path').getBoundingClientRect();
            return { page: { width: p.width, height: p.height },
                line: { left: r.left - p.left, top: r.top - p.top, height: r.height },
                stroke: { top: path.top - p.top, bottom: path.bottom - p.top } };
        })()"#,
    )
    .await;
    let n = |v: &serde_json::Value| v.as_f64().unwrap_or_else(|| panic!("{v} in {b}"));
    // CSS points (the pane may narrow the page's width, never its scale): the frame is
    // the 792 pt page.
    let pt = |v: &serde_json::Value| n(v) * 0.75;
    assert!((pt(&b["page"]["height"]) - 792.0).abs() < 1.0, "{b}");
    assert!((pt(&b["line"]["height"]) - 718.2).abs() < 1.0, "{b}");
    assert!((pt(&b["line"]["top"]) - 36.9).abs() < 1.0, "{b}");
    assert!((pt(&b["line"]["left"]) - 208.08).abs() < 1.0, "{b}");
    // The stroke itself runs the box down (to the pixel grid), not 99 pt of it.
    assert!(
        (pt(&b["stroke"]["bottom"]) - pt(&b["stroke"]["top"]) - 718.2).abs() < 2.0,
        "{b}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn header_artwork_of_custom_polygons_paints_polygons_not_boxes() {
    // ONLYOFFICE's sample: the page-top banner in the header is a group of 38
    // `a:custGeom` triangles and quadrilaterals. Each is painted as its outline: the box around it
    // is transparent, its path is filled at its centre of mass and open at the corners
    // of its box that lie outside it.
    let (_s, url) = serve(ONLYOFFICE, "sample.docx").await;
    let b = document_eval(
        &url,
        r#"(() => {
            const header = document.querySelector('#view-document .docx-page .docx-header');
            const shapes = [...header.querySelectorAll('.docx-group-item > .docx-textbox')];
            const out = { shapes: shapes.length, painted: 0, outlined: 0, corners_open: 0 };
            for (const s of shapes) {
                if (getComputedStyle(s).backgroundColor !== 'rgba(0, 0, 0, 0)') out.painted++;
                const path = s.querySelector(':scope > svg.docx-geom path');
                if (!path) continue;
                out.outlined++;
                const bb = path.getBBox();
                const svg = path.ownerSVGElement;
                const at = (fx, fy) => { const q = svg.createSVGPoint();
                    q.x = bb.x + fx * bb.width; q.y = bb.y + fy * bb.height;
                    return path.isPointInFill(q); };
                // A filled box would hold all four corners of its box (2 % in).
                const corners = [[.02, .02], [.98, .02], [.02, .98], [.98, .98]]
                    .filter(([x, y]) => !at(x, y)).length;
                if (corners > 0) out.corners_open++;
            }
            return out;
        })()"#,
    )
    .await;
    let n = |k: &str| b[k].as_u64().unwrap_or_else(|| panic!("{k} in {b}"));
    assert_eq!(n("shapes"), 38, "{b}");
    assert_eq!(n("painted"), 0, "no box paints a rectangle of colour: {b}");
    assert_eq!(
        n("outlined"),
        n("shapes"),
        "every shape has its outline: {b}"
    );
    // Triangles and skewed quadrilaterals: a corner of each box is left open.
    assert!(n("corners_open") * 10 >= n("shapes") * 9, "{b}");
}

/// A numbered paragraph whose first word is wider than the line keeps the word beside
/// its number and breaks it at the margin, as Word does; Chromium had left the number
/// alone on a line above the word. A copy of the paragraph holds the number and the word
/// but not the joiner between them.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_first_word_stays_beside_its_list_number() {
    let numbering = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>"#;
    // A 1.5 in wide page column: the word is far wider.
    let body = concat!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Pneumonoultramicroscopicsilicovolcanoconiosis</w:t></w:r></w:p>"#,
        r#"<w:sectPr><w:pgSz w:w="4320" w:h="8000"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720"/></w:sectPr>"#,
    );
    let (_s, url) = serve_bytes(
        "list.docx",
        docx_with_parts(
            body,
            &[
                ("word/numbering.xml", numbering.to_string()),
                ("word/_rels/document.xml.rels", rels.to_string()),
            ],
        ),
    )
    .await;
    let got = document_eval(
        &url,
        r#"(() => {
            const label = document.querySelector('#view-document .docx-list-label');
            const p = label.closest('p');
            const l = label.getBoundingClientRect();
            const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
            let node = walk.nextNode();
            while (node && !node.data.includes('Pneumono')) node = walk.nextNode();
            const range = document.createRange();
            range.selectNodeContents(node);
            const rects = [...range.getClientRects()];
            // What a reader copies: the paragraph selected whole.
            const whole = document.createRange();
            whole.selectNodeContents(p);
            const sel = window.getSelection();
            sel.removeAllRanges();
            sel.addRange(whole);
            return { label: { top: l.top, bottom: l.bottom, right: l.right, text: label.textContent }, first: rects.length ? { top: rects[0].top, left: rects[0].left } : null, lines: new Set(rects.map(r => Math.round(r.top))).size, copied: sel.toString() };
        })()"#,
    )
    .await;
    assert_eq!(got["label"]["text"], "1.", "{got}");
    // A copy keeps the number and the text, not the word joiner that glues them.
    let copied = got["copied"].as_str().unwrap();
    assert!(
        copied.starts_with("1.") && copied.trim_end().ends_with("coniosis"),
        "{got}"
    );
    assert!(!copied.contains('\u{2060}'), "{got}");
    assert!(
        got["lines"].as_u64().unwrap() >= 2,
        "the word is broken: {got}"
    );
    let label_top = got["label"]["top"].as_f64().unwrap();
    let word_top = got["first"]["top"].as_f64().unwrap();
    assert!(
        (label_top - word_top).abs() < 4.0,
        "number at {label_top}, word from {word_top}: {got}"
    );
    assert!(
        got["first"]["left"].as_f64().unwrap() >= got["label"]["right"].as_f64().unwrap() - 0.5,
        "{got}"
    );
}

/// A paragraph's border lies `w:space` outside its text: the text keeps the indent of
/// its unbordered neighbours and the box grows outwards by the space and the line, as
/// Word draws it (`powertools-HC049-Borders`: the text had touched its box).
#[tokio::test(flavor = "multi_thread")]
async fn a_paragraph_border_lies_its_space_outside_the_text() {
    let body = concat!(
        r#"<w:p><w:r><w:t>Plain</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:pBdr><w:top w:val="single" w:sz="8" w:space="1"/><w:left w:val="single" w:sz="8" w:space="4"/><w:bottom w:val="single" w:sz="8" w:space="1"/><w:right w:val="single" w:sz="8" w:space="4"/></w:pBdr></w:pPr><w:r><w:t>Boxed</w:t></w:r></w:p>"#,
    );
    let (_s, url) = serve_bytes("borders.docx", docx_with_body(body)).await;
    let got = document_eval(
        &url,
        r#"(() => {
            const out = {};
            for (const p of document.querySelectorAll('#view-document .docx-p, #view-document p')) {
                const t = p.textContent.trim();
                if (t !== 'Plain' && t !== 'Boxed') continue;
                const range = document.createRange();
                range.selectNodeContents(p);
                const text = range.getClientRects()[0];
                const box = p.getBoundingClientRect();
                out[t] = { text: text.left, box: box.left, top: box.top, textTop: text.top };
            }
            return out;
        })()"#,
    )
    .await;
    let f = |k: &str, side: &str| got[k][side].as_f64().unwrap_or_else(|| panic!("{got}"));
    // The text lines up with the plain paragraph's.
    assert!(
        (f("Boxed", "text") - f("Plain", "text")).abs() < 0.6,
        "{got}"
    );
    // The box starts 4 pt of space and 1 pt of line further left: 5 pt = 6.67 px.
    let out = f("Boxed", "text") - f("Boxed", "box");
    assert!(
        (out - 6.67).abs() < 0.8,
        "box {out} px left of the text: {got}"
    );
    // And 1 pt of space plus the 1 pt line above the text (the glyphs' box starts a
    // little above the line's top, as it does in the plain paragraph).
    let above =
        (f("Boxed", "textTop") - f("Boxed", "top")) - (f("Plain", "textTop") - f("Plain", "top"));
    assert!((above - 2.67).abs() < 0.6, "{above}: {got}");
}

/// Word's page frame: the header starts its distance below the paper's edge and the
/// body at the top margin (a short header does not pull it up), the footer ends its
/// distance above the bottom edge however little the body holds; and neighbouring
/// paragraphs with the same borders are one box whose sides run through the space
/// between them.
#[tokio::test(flavor = "multi_thread")]
async fn header_body_and_footer_sit_where_the_section_says_and_borders_group() {
    let bdr = r#"<w:pBdr><w:top w:val="single" w:sz="8" w:space="1"/><w:left w:val="single" w:sz="8" w:space="4"/><w:bottom w:val="single" w:sz="8" w:space="1"/><w:right w:val="single" w:sz="8" w:space="4"/></w:pBdr><w:spacing w:after="240"/>"#;
    let boxed = |t: &str| format!(r#"<w:p><w:pPr>{bdr}</w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#);
    let body = format!(
        r#"<w:p><w:r><w:t>Body</w:t></w:r></w:p>{}{}<w:sectPr><w:headerReference w:type="default" r:id="rH"/><w:footerReference w:type="default" r:id="rF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="576" w:gutter="0"/></w:sectPr>"#,
        boxed("Upper"),
        boxed("Lower"),
    );
    let body = body.replace(
        "<w:sectPr>",
        r#"<w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#,
    );
    let part = |root: &str, text: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{root} xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{root}>"#
        )
    };
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>"#;
    let bytes = docx_with_parts(
        &body,
        &[
            ("word/_rels/document.xml.rels", rels.to_string()),
            ("word/header1.xml", part("hdr", "Head")),
            ("word/footer1.xml", part("ftr", "Foot")),
        ],
    );
    let (_s, url) = serve_bytes("frame.docx", bytes).await;
    let got = document_eval(
        &url,
        r#"(() => {
            const pg = document.querySelector('#view-document .docx-page');
            const top = pg.getBoundingClientRect().top;
            const out = { page: pg.getBoundingClientRect().height };
            for (const p of pg.querySelectorAll('.docx-p')) {
                const r = p.getBoundingClientRect();
                const cs = getComputedStyle(p);
                out[p.textContent.trim()] = { top: r.top - top, bottom: r.bottom - top,
                    borderTop: cs.borderTopStyle, borderBottom: cs.borderBottomStyle,
                    borderLeft: cs.borderLeftStyle };
            }
            return out;
        })()"#,
    )
    .await;
    // CSS points: the page is not narrowed in the test window.
    let pt = |k: &str, side: &str| {
        got[k][side]
            .as_f64()
            .unwrap_or_else(|| panic!("no {k}.{side} in {got}"))
            * 0.75
    };
    assert!(
        (got["page"].as_f64().unwrap() * 0.75 - 792.0).abs() < 1.0,
        "{got}"
    );
    assert!((pt("Head", "top") - 36.0).abs() < 0.5, "{got}");
    assert!((pt("Body", "top") - 72.0).abs() < 0.5, "{got}");
    assert!((pt("Foot", "bottom") - (792.0 - 28.8)).abs() < 0.5, "{got}");
    // One box: no line and no gap between the two, the sides on both.
    assert!(
        (pt("Lower", "top") - pt("Upper", "bottom")).abs() < 0.2,
        "{got}"
    );
    assert_eq!(got["Upper"]["borderBottom"], "none", "{got}");
    assert_eq!(got["Lower"]["borderTop"], "none", "{got}");
    assert_eq!(got["Upper"]["borderTop"], "solid", "{got}");
    assert_eq!(got["Lower"]["borderBottom"], "solid", "{got}");
    assert_eq!(got["Lower"]["borderLeft"], "solid", "{got}");
}

/// A paragraph holding only a floating object still has its line, as in Word: a header
/// of a picture paragraph and an empty one (onlyoffice-sample's) is two lines tall, so
/// with a header distance of 36 pt and a top margin of 44 pt it pushes the body down to
/// the header's end (the picture paragraph had no height in CSS).
#[tokio::test(flavor = "multi_thread")]
async fn a_paragraph_of_floating_objects_keeps_its_line() {
    let shape = r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" locked="0" layoutInCell="1" allowOverlap="1" behindDoc="1" relativeHeight="1" distT="0" distB="0" distL="0" distR="0"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1270000" cy="635000"/><wp:wrapNone/><wp:docPr id="1" name="art"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#;
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p>{shape}</w:p><w:p><w:r><w:t>Head</w:t></w:r></w:p></w:hdr>"#
    );
    let body = r#"<w:p><w:r><w:t>Body</w:t></w:r></w:p><w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:headerReference w:type="default" r:id="rH"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="880" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="576" w:gutter="0"/></w:sectPr>"#;
    let got = paragraph_boxes(body, header).await;
    let at = |k: &str, side: &str| f(&got, k, side);
    assert!((at("art", "top") - 36.0).abs() < 0.5, "{got}");
    // The picture paragraph is a line of 11 pt text tall (13.4 pt in Carlito).
    assert!(at("art", "bottom") - at("art", "top") > 12.0, "{got}");
    assert!(
        (at("Head", "top") - at("art", "bottom")).abs() < 0.5,
        "{got}"
    );
    // The header ends past the top margin: the body starts below it.
    assert!(at("Head", "bottom") > 44.0 + 12.0, "{got}");
    assert!(
        (at("Body", "top") - at("Head", "bottom")).abs() < 0.5,
        "{got}"
    );
}

/// A header line whose last tab (`w:ptab` to the right margin) has nothing after it but
/// a square-wrapped picture at the right (`powertools-DB006`): the tab shows nothing, so
/// the line stays beside the picture at the header's top, as in Word and LibreOffice.
/// Laid out as a box reaching the right stop it did not fit beside the picture and went
/// below it.
#[tokio::test(flavor = "multi_thread")]
async fn a_trailing_tab_leaves_the_header_line_beside_its_picture() {
    let shape = header_photo();
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:pPr><w:tabs><w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:pos="9360"/></w:tabs></w:pPr><w:r><w:t>Left</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>Mid</w:t></w:r><w:r><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/></w:r>{shape}</w:p></w:hdr>"#
    );
    let bytes = docx_with_header_photo("<w:p><w:r><w:t>Body</w:t></w:r></w:p>", header);
    let (_s, url) = serve_bytes("header-tab.docx", bytes).await;
    let got = document_eval(
        &url,
        &[
            PHOTO_DRAWN,
            r#"
            const out = {};
            for (const t of ['Left', 'Mid']) {
                const walker = document.createTreeWalker(pg.querySelector('.docx-header'), NodeFilter.SHOW_TEXT);
                let n;
                while ((n = walker.nextNode())) {
                    if (n.data.trim() === t) {
                        const range = document.createRange();
                        range.selectNodeContents(n);
                        const r = range.getBoundingClientRect();
                        out[t] = { top: (r.top - top) * 0.75, left: r.left * 0.75 };
                    }
                }
            }
            const r = img.getBoundingClientRect();
            out.photo = { top: (r.top - top) * 0.75, left: r.left * 0.75 };
            return out;
        })()"#,
        ]
        .concat(),
    )
    .await;
    let at = |k: &str, side: &str| f(&got, k, side);
    // The texts and the picture on the header's first line, 36 pt from the page's top
    // (the tab's box took a line of its own: the picture 12 pt lower, the texts below
    // it in some layouts).
    for t in ["Left", "Mid"] {
        assert!((at(t, "top") - 36.0).abs() < 2.0, "{t}: {got}");
    }
    assert!((at("photo", "top") - 36.0).abs() < 0.5, "{got}");
    assert!(at("photo", "left") - at("Left", "left") > 380.0, "{got}");
    // "Mid" is centred on the 234 pt stop, well right of "Left".
    assert!(at("Mid", "left") - at("Left", "left") > 180.0, "{got}");
}

/// A square-wrapped picture in the header that hangs past the header's lines is not part
/// of the header's height (Word's rule): the body starts at its top margin, and its lines
/// wrap beside the picture, later ones run to the right margin (`powertools-DB006`: the
/// body's title beside the photo). With the header grown to hold the picture, the body
/// started below it, 30 pt lower. The same for a picture placed from the page in the
/// header's first line (`powertools-HeaderContent-built`'s text box), which was put over
/// the body's text.
#[tokio::test(flavor = "multi_thread")]
async fn a_header_picture_hanging_into_the_body_pushes_its_lines_aside_not_down() {
    // From its paragraph (at the header's top) and from the page, 90 pt down: the
    // header's first line is where the renderer knows the picture's line to be, so it
    // floats from there too (it was put over the body's text).
    let page_relative = header_photo().replace(
        r#"<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset>"#,
        r#"<wp:positionV relativeFrom="page"><wp:posOffset>1143000</wp:posOffset>"#,
    );
    for (photo_xml, photo_top) in [(header_photo().to_owned(), 36.0), (page_relative, 90.0)] {
        let header = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:r><w:t>Head</w:t></w:r>{photo_xml}</w:p></w:hdr>"#
        );
        let words: Vec<String> = (1..=200).map(|i| format!("w{i}")).collect();
        let body = format!("<w:p><w:r><w:t>{}</w:t></w:r></w:p>", words.join(" "));
        let (_s, url) =
            serve_bytes("header-photo.docx", docx_with_header_photo(&body, header)).await;
        let got = document_eval(
            &url,
            &[
                PHOTO_DRAWN,
                BODY_LINES,
                r#"
            const r = img.getBoundingClientRect();
            const photo = { top: (r.top - top) * 0.75, bottom: (r.bottom - top) * 0.75, left: (r.left - left) * 0.75 };
            return { lines, photo };
        })()"#,
            ]
            .concat(),
        )
        .await;
        let lines = got["lines"].as_array().unwrap_or_else(|| panic!("{got}"));
        let at = |l: &serde_json::Value, k: &str| l[k].as_f64().unwrap();
        let photo = |k: &str| got["photo"][k].as_f64().unwrap();
        // The photo where its anchor says, 66 pt tall: past the 72 pt top margin.
        assert!((photo("top") - photo_top).abs() < 0.5, "{got}");
        assert!(photo("bottom") > 100.0, "{got}");
        // The body at the top margin, its lines beside the photo where they meet it.
        assert!((at(&lines[0], "top") - 72.0).abs() < 1.0, "{got}");
        assert!(lines_beside(lines, &got["photo"]) >= 2, "{got}");
        // Lines above or below it run to the right margin (the space that moves the
        // photo down is not beside any text).
        let clear: Vec<_> = lines
            .iter()
            .filter(|l| at(l, "bottom") < photo("top") || at(l, "top") > photo("bottom") + 9.0)
            .collect();
        assert!(!clear.is_empty(), "{got}");
        for l in clear.iter().take(clear.len() - 1) {
            assert!(at(l, "right") > photo("left") + 20.0, "{got}");
        }
    }
}

/// The space before the header's first paragraph and after its last stays in the header,
/// and the body's first paragraph's space before is added below it, as in Word: header
/// and body share the page's formatting context, where CSS would collapse those spaces
/// (the body came out 12 pt too high in `tika-testWORD_null_style`, the header 12 pt
/// too low in `powertools-HC061`).
#[tokio::test(flavor = "multi_thread")]
async fn spaces_around_the_header_do_not_collapse_into_the_body() {
    let spaced = |t: &str| {
        format!(
            r#"<w:p><w:pPr><w:spacing w:before="240" w:after="240"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#
        )
    };
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">{}</w:hdr>"#,
        spaced("Head")
    );
    let body = format!(
        r#"{}<w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:headerReference w:type="default" r:id="rH"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="720" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#,
        spaced("Body")
    );
    let got = paragraph_boxes(&body, header).await;
    // The header 36 pt down, its paragraph 12 pt below that.
    assert!((f(&got, "Head", "top") - 48.0).abs() < 0.5, "{got}");
    // 12 pt after the header's paragraph and 12 pt before the body's: 24 pt between.
    let gap = f(&got, "Body", "top") - f(&got, "Head", "bottom");
    assert!((gap - 24.0).abs() < 0.5, "{got}");
}

/// A footer taller than the bottom margin ends the body above it, page after page, as
/// Word ends the body above a tall footer: no line of the body under the footer's text.
/// A box the footer places from the page lands where the page says (the footer's own
/// box is positioned; it reaches from the page's top left so that nothing moves).
#[tokio::test(flavor = "multi_thread")]
async fn a_footer_taller_than_the_bottom_margin_ends_each_page_above_it() {
    let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
    // A box the footer places 100 pt from the page's top and 50 pt from its left.
    let shape = r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" locked="0" layoutInCell="1" allowOverlap="1" behindDoc="0" relativeHeight="1" distT="0" distB="0" distL="0" distR="0"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>635000</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>1270000</wp:posOffset></wp:positionV><wp:extent cx="635000" cy="635000"/><wp:wrapNone/><wp:docPr id="1" name="mark"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="635000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#;
    let lines: String = (1..=10)
        .map(|i| {
            let mark = if i == 1 { shape } else { "" };
            format!("<w:p><w:r><w:t>Foot {i}</w:t></w:r>{mark}</w:p>")
        })
        .collect();
    let footer = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr {w}>{lines}</w:ftr>"#
    );
    let mut body: String = (1..=90)
        .map(|i| {
            format!(r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>Line {i}</w:t></w:r></w:p>"#)
        })
        .collect();
    body.push_str(r#"<w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:footerReference w:type="default" r:id="rF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>"#;
    let bytes = docx_with_parts(
        &body,
        &[
            ("word/_rels/document.xml.rels", rels.to_string()),
            ("word/footer1.xml", footer),
        ],
    );
    let (_s, url) = serve_bytes("tall-footer.docx", bytes).await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            return [...document.querySelectorAll('#view-document .docx-page')].map((f) => {
                const top = f.getBoundingClientRect().top;
                const body = f.querySelector(':scope > .docx-body');
                // The footer's text: its box reaches up to the page's top.
                const foot = f.querySelector(':scope > footer');
                const lines = [...foot.children].map((c) => c.getBoundingClientRect());
                const mark = [...foot.querySelectorAll('*')].find((e) => getComputedStyle(e).position === 'absolute').getBoundingClientRect();
                return {
                    markTop: (mark.top - top) * 0.75,
                    markLeft: (mark.left - f.getBoundingClientRect().left) * 0.75,
                    last: (body.lastElementChild.getBoundingClientRect().bottom - top) * 0.75,
                    footTop: (Math.min(...lines.map((r) => r.top)) - top) * 0.75,
                    footBottom: (Math.max(...lines.map((r) => r.bottom)) - top) * 0.75,
                    lines: body.children.length,
                };
            });
        })()"#,
        ]
        .concat(),
    )
    .await;
    let pages = got.as_array().unwrap_or_else(|| panic!("{got}"));
    assert!(pages.len() >= 2, "{got}");
    let mut total = 0;
    for (i, p) in pages.iter().enumerate() {
        let v = |k: &str| p[k].as_f64().unwrap();
        // The footer ends 36 pt above the paper's bottom and reaches above the 72 pt
        // margin (ten lines of about 13.4 pt).
        assert!((v("footBottom") - (792.0 - 36.0)).abs() < 0.5, "{got}");
        assert!(v("footTop") < 792.0 - 72.0 - 40.0, "{got}");
        // What the footer places from the page is where the page's top left corner
        // says, as an object in the body or header would be.
        assert!((v("markTop") - 100.0).abs() < 0.5, "{got}");
        assert!((v("markLeft") - 50.0).abs() < 0.5, "{got}");
        if i + 1 < pages.len() {
            assert!(v("last") <= v("footTop") + 0.5, "page {}: {got}", i + 1);
            // Filled: one more line would have reached the footer.
            assert!(v("last") > v("footTop") - 16.0, "page {}: {got}", i + 1);
        }
        total += p["lines"].as_u64().unwrap();
    }
    assert_eq!(total, 90, "{got}");
}

/// A box the footer places from the page with square wrapping pushes the body's lines
/// aside where it lies, as Word wraps the body around header and footer objects alike
/// (`powertools-FooterContent-built`'s "Name / Title" box at the top right, drawn over
/// the body's first lines before). With a header and without one.
#[tokio::test(flavor = "multi_thread")]
async fn a_footer_box_placed_on_the_page_wraps_the_body_text() {
    let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
    // 100 × 80 pt at the margin's right edge, 90 pt from the page's top.
    let shape = r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" locked="0" layoutInCell="1" allowOverlap="1" behindDoc="0" relativeHeight="1" distT="0" distB="0" distL="114300" distR="114300"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:align>right</wp:align></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>1143000</wp:posOffset></wp:positionV><wp:extent cx="1270000" cy="1016000"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="card"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="1016000"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#;
    let footer = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr {w}><w:p>{shape}<w:r><w:t>Foot</w:t></w:r></w:p></w:ftr>"#
    );
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr {w}><w:p><w:r><w:t>Head</w:t></w:r></w:p></w:hdr>"#
    );
    let words: Vec<String> = (1..=300).map(|i| format!("w{i}")).collect();
    for with_header in [false, true] {
        let head_ref = if with_header {
            r#"<w:headerReference w:type="default" r:id="rH"/>"#
        } else {
            ""
        };
        let body = format!(
            r#"<w:p><w:r><w:t>{}</w:t></w:r></w:p><w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{head_ref}<w:footerReference w:type="default" r:id="rF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#,
            words.join(" ")
        );
        let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/><Relationship Id="rH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>"#;
        let bytes = docx_with_parts(
            &body,
            &[
                ("word/_rels/document.xml.rels", rels.to_string()),
                ("word/footer1.xml", footer.clone()),
                ("word/header1.xml", header.clone()),
            ],
        );
        let (_s, url) = serve_bytes("footer-box.docx", bytes).await;
        let got = document_eval(
            &url,
            &[
                PAGINATED,
                r#"
            const pg = document.querySelector('#view-document .docx-page');
            const top = pg.getBoundingClientRect().top;"#,
                BODY_LINES,
                r#"            const shapes = [...pg.querySelectorAll('*')].filter((e) => getComputedStyle(e).float !== 'none' && e.getBoundingClientRect().width > 100);
            const r = shapes[0].getBoundingClientRect();
            return {
                lines,
                shapes: shapes.length,
                width: pg.getBoundingClientRect().width * 0.75,
                head: (pg.querySelector('.docx-header')?.textContent || '').trim(),
                foot: (pg.querySelector('.docx-footer')?.textContent || '').trim(),
                box: { top: (r.top - top) * 0.75, bottom: (r.bottom - top) * 0.75, left: (r.left - left) * 0.75, right: (r.right - left) * 0.75 },
            };
        })()"#,
            ]
            .concat(),
        )
        .await;
        let lines = got["lines"].as_array().unwrap_or_else(|| panic!("{got}"));
        let at = |l: &serde_json::Value, k: &str| l[k].as_f64().unwrap();
        let bx = |k: &str| got["box"][k].as_f64().unwrap();
        // Drawn once, where the page says: 90 pt down, ending at the right margin (of
        // the page as wide as the test's window lets it be).
        assert_eq!(got["shapes"], 1, "{got}");
        assert!((bx("top") - 90.0).abs() < 0.5, "{got}");
        let margin_right = got["width"].as_f64().unwrap() - 72.0;
        assert!((bx("right") - margin_right).abs() < 0.5, "{got}");
        assert_eq!(got["foot"], "Foot", "{got}");
        assert_eq!(got["head"], if with_header { "Head" } else { "" }, "{got}");
        // The body still starts at its margin; the lines that meet the box end left of
        // it, those below it run on to the right margin.
        assert!((at(&lines[0], "top") - 72.0).abs() < 1.0, "{got}");
        assert!(lines_beside(lines, &got["box"]) >= 4, "{got}");
        let below: Vec<_> = lines
            .iter()
            .filter(|l| at(l, "top") > bx("bottom") + 1.0)
            .collect();
        assert!(below.len() >= 2, "{got}");
        assert!(at(below[0], "right") > bx("left") + 20.0, "{got}");
    }
}

/// With different odd and even headers (`w:evenAndOddHeaders`), the pages the script
/// makes of one long section alternate between them by their page number, after the
/// title page's own when the section has one (the server's frame is one page; the
/// script's pages took its header, the odd one, on every page).
#[tokio::test(flavor = "multi_thread")]
async fn pages_alternate_odd_and_even_headers_by_their_number() {
    let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
    let part = |tag: &str, text: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{tag} {w}><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{tag}>"#
        )
    };
    let rel = |id: &str, kind: &str, target: &str| {
        format!(
            r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>"#
        )
    };
    for title in [false, true] {
        let mut body: String = (1..=220)
            .map(|i| format!("<w:p><w:r><w:t>Line {i}</w:t></w:r></w:p>"))
            .collect();
        body.push_str(&format!(
            r#"<w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:headerReference w:type="default" r:id="rO"/><w:headerReference w:type="even" r:id="rE"/>{}<w:footerReference w:type="even" r:id="rF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>{}</w:sectPr>"#,
            if title { r#"<w:headerReference w:type="first" r:id="rT"/>"# } else { "" },
            if title { "<w:titlePg/>" } else { "" },
        ));
        let rels = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{}{}{}{}{}</Relationships>"#,
            rel("rO", "header", "header1.xml"),
            rel("rE", "header", "header2.xml"),
            rel("rT", "header", "header3.xml"),
            rel("rF", "footer", "footer1.xml"),
            rel("rS", "settings", "settings.xml"),
        );
        let bytes = docx_with_parts(
            &body,
            &[
                ("word/_rels/document.xml.rels", rels),
                ("word/header1.xml", part("hdr", "Odd head")),
                ("word/header2.xml", part("hdr", "Even head")),
                ("word/header3.xml", part("hdr", "Title head")),
                ("word/footer1.xml", part("ftr", "Even foot")),
                (
                    "word/settings.xml",
                    format!(
                        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings {w}><w:evenAndOddHeaders/></w:settings>"#
                    ),
                ),
            ],
        );
        let (_s, url) = serve_bytes("even-odd.docx", bytes).await;
        let got = document_eval(
            &url,
            &[
                PAGINATED,
                r#"
            return [...document.querySelectorAll('#view-document .docx-page')].map((f) => [
                (f.querySelector(':scope > header')?.textContent || '').trim(),
                (f.querySelector(':scope > footer')?.textContent || '').trim(),
            ]);
        })()"#,
            ]
            .concat(),
        )
        .await;
        let pages: Vec<(String, String)> =
            serde_json::from_value(got.clone()).unwrap_or_else(|e| panic!("{e}: {got}"));
        assert!(pages.len() >= 4, "{got}");
        for (i, (head, foot)) in pages.iter().enumerate() {
            let n = i + 1;
            let (want_head, want_foot) = match n {
                1 if title => ("Title head", ""),
                n if n % 2 == 0 => ("Even head", "Even foot"),
                _ => ("Odd head", ""),
            };
            assert_eq!(
                (head.as_str(), foot.as_str()),
                (want_head, want_foot),
                "page {n}: {got}"
            );
        }
    }
}

/// How many of `lines` (from [`BODY_LINES`]) meet the height of the floating box `bx`
/// (top, bottom, left in points), asserting that each of them ends left of it.
fn lines_beside(lines: &[serde_json::Value], bx: &serde_json::Value) -> usize {
    let at = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
    let beside: Vec<_> = lines
        .iter()
        .filter(|l| at(l, "top") < at(bx, "bottom") && at(l, "bottom") > at(bx, "top"))
        .collect();
    for l in &beside {
        assert!(at(l, "right") < at(bx, "left"), "{l} runs under {bx}");
    }
    beside.len()
}

/// The page-relative boxes (top, bottom in pt) of the paragraphs of a document of `body`
/// with `header` as its default header (`rH`), by their text ("art" when empty).
async fn paragraph_boxes(body: &str, header: String) -> serde_json::Value {
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>"#;
    let bytes = docx_with_parts(
        body,
        &[
            ("word/_rels/document.xml.rels", rels.to_string()),
            ("word/header1.xml", header),
        ],
    );
    let (_s, url) = serve_bytes("header.docx", bytes).await;
    document_eval(
        &url,
        r#"(() => {
            const pg = document.querySelector('#view-document .docx-page');
            const top = pg.getBoundingClientRect().top;
            const out = {};
            for (const p of pg.querySelectorAll('.docx-p')) {
                const r = p.getBoundingClientRect();
                out[p.textContent.trim() || 'art'] = { top: (r.top - top) * 0.75, bottom: (r.bottom - top) * 0.75 };
            }
            return out;
        })()"#,
    )
    .await
}

/// A page script's part that collects the lines of the body's first paragraph on page
/// `pg` (whose top is `top`) as `lines`: top, bottom and right end, in points from the
/// page's top left corner, the pieces of one line joined.
const BODY_LINES: &str = r#"
            const left = pg.getBoundingClientRect().left;
            const range = document.createRange();
            range.selectNodeContents(pg.querySelector('.docx-body .docx-p'));
            const lines = [];
            for (const r of range.getClientRects()) {
                const line = { top: (r.top - top) * 0.75, bottom: (r.bottom - top) * 0.75, right: (r.right - left) * 0.75 };
                const same = lines.find((l) => Math.abs(l.top - line.top) < 2);
                if (same) same.right = Math.max(same.right, line.right); else lines.push(line);
            }"#;

/// The opening of a page script that waits for the pages script to have laid the pages
/// out for good (it has not laid them out again for half a second).
const PAGINATED: &str = r#"(async () => {
    const settled = () => { const t = Number(document.documentElement.dataset.docxPaginated || 0); return t > 0 && Date.now() - t > 500; };
    for (let i = 0; i < 200 && !settled(); i++) await new Promise((r) => setTimeout(r, 50));"#;

/// The opening of a page script for `docx_with_header_photo`'s documents: the page
/// (`pg`), its top (`top`) and the header's picture (`img`), drawn (a lazy image has no
/// box in its line until it loads).
const PHOTO_DRAWN: &str = r#"(async () => {
    const pg = document.querySelector('#view-document .docx-page');
    const img = pg.querySelector('.docx-header img');
    img.loading = 'eager';
    await img.decode();
    const top = pg.getBoundingClientRect().top;"#;

/// The DB006-style header picture: 55 × 66 pt, square-wrapped, 412.65 pt right of the
/// column's left edge and at its paragraph's top.
fn header_photo() -> &'static str {
    r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" locked="0" layoutInCell="1" allowOverlap="1" behindDoc="0" relativeHeight="1" distT="0" distB="0" distL="114300" distR="114300"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>5240655</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="704215" cy="837565"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="photo"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name=""/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:embed="rP"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="704215" cy="837565"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#
}

/// A Letter document of `paragraphs` (1 in margins, the header 0.5 in from the top) with
/// `header` as its default header (`rH`), which holds the picture `rP`, a real PNG.
fn docx_with_header_photo(paragraphs: &str, header: String) -> Vec<u8> {
    let body = format!(
        r#"{paragraphs}<w:sectPr xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:headerReference w:type="default" r:id="rH"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#
    );
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>"#;
    let header_rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rP" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/photo.png"/></Relationships>"#;
    docx_with_part_bytes(
        &body,
        &[
            ("word/_rels/document.xml.rels", rels.as_bytes().to_vec()),
            (
                "word/_rels/header1.xml.rels",
                header_rels.as_bytes().to_vec(),
            ),
            ("word/header1.xml", header.into_bytes()),
            ("word/media/photo.png", common::tiny_png()),
        ],
    )
}

/// A table cell's vertical text (`w:textDirection`): `btLr` runs up from the cell's
/// bottom (a calendar's "notes" label), `tbRl` down from its top; each turned line is
/// taller than wide and the row grows to hold it.
#[tokio::test(flavor = "multi_thread")]
async fn vertical_cell_text_runs_up_or_down_the_cell() {
    let cell = |dir: &str, text: &str| {
        format!(
            r#"<w:tc><w:tcPr><w:tcW w:w="700" w:type="dxa"/><w:textDirection w:val="{dir}"/></w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"#
        )
    };
    let body = format!(
        r#"<w:tbl><w:tblGrid><w:gridCol w:w="700"/><w:gridCol w:w="700"/><w:gridCol w:w="4000"/></w:tblGrid><w:tr>{}{}<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>Beside</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#,
        cell("btLr", "Upwards"),
        cell("tbRl", "Downwards"),
    );
    let (_s, url) = serve_bytes("vertical.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        r#"(() => {
            const out = {};
            for (const td of document.querySelectorAll('#view-document td')) {
                const text = td.textContent.trim();
                const node = [...td.querySelectorAll('*')].map((e) => e.firstChild).find((n) => n && n.nodeType === 3);
                const range = document.createRange();
                range.selectNodeContents(node);
                const box = range.getBoundingClientRect();
                range.setStart(node, 0); range.setEnd(node, 1);
                const first = range.getBoundingClientRect();
                range.setStart(node, node.data.length - 1); range.setEnd(node, node.data.length);
                const last = range.getBoundingClientRect();
                const cell = td.getBoundingClientRect();
                out[text] = { w: box.width, h: box.height, first: first.top, last: last.top,
                    cellTop: cell.top, cellBottom: cell.bottom, boxTop: box.top, boxBottom: box.bottom };
            }
            return out;
        })()"#,
    )
    .await;
    let at = |k: &str, side: &str| f(&got, k, side);
    for k in ["Upwards", "Downwards"] {
        assert!(at(k, "h") > 2.0 * at(k, "w"), "{k} is turned: {got}");
    }
    // Up: the first letter lowest, the text at the cell's bottom.
    assert!(at("Upwards", "first") > at("Upwards", "last"), "{got}");
    assert!(
        at("Upwards", "cellBottom") - at("Upwards", "boxBottom") < 12.0,
        "{got}"
    );
    // Down: the first letter highest, the text at the cell's top.
    assert!(at("Downwards", "first") < at("Downwards", "last"), "{got}");
    assert!(
        at("Downwards", "boxTop") - at("Downwards", "cellTop") < 12.0,
        "{got}"
    );
}

/// A right-to-left paragraph (`w:bidi`) reads `w:jc` and `w:ind` by its own direction, as
/// Word and LibreOffice do: `left` is its leading edge, the right. No alignment and `left`
/// put the text at the right margin, `right` at the left one; a left indent narrows the
/// right side, a hanging indent pulls the first line out to the right margin. A
/// `w:bidiVisual` table puts its first column on the right, its indent in from the right
/// margin (even when that takes it past the left one), and keeps left-to-right cells.
#[tokio::test(flavor = "multi_thread")]
async fn right_to_left_paragraphs_and_tables_take_their_sides_from_their_direction() {
    let arabic = "مرحبا بالعالم هذا نص عربي ";
    let para = |label: &str, ppr: &str, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:bidi/>{ppr}</w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t xml:space="preserve">{label} {text}</w:t></w:r></w:p>"#
        )
    };
    let long = arabic.repeat(12);
    let body = format!(
        r#"{}{}{}{}{}<w:tbl><w:tblPr><w:bidiVisual/><w:tblW w:w="9360" w:type="dxa"/><w:tblInd w:w="720" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="6000"/><w:gridCol w:w="3360"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="6000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>FIRST</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:tcW w:w="3360" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>SECOND</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/><w:tbl><w:tblPr><w:bidiVisual/><w:tblW w:w="2880" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2880"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="2880" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>THIRD</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#,
        para("P0", "", "قصير"),
        para("P1", r#"<w:jc w:val="left"/>"#, "قصير"),
        para("P2", r#"<w:jc w:val="right"/>"#, "قصير"),
        para("P3", r#"<w:ind w:left="1440"/>"#, "قصير"),
        para("P4", r#"<w:ind w:left="1440" w:hanging="1440"/>"#, &long),
    );
    let (_s, url) = serve_bytes("rtl.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        r#"(() => {
            // Distances from the page's text margins (the test window may narrow the page).
            const page = document.querySelector('#view-document .docx-page');
            const pr = page.getBoundingClientRect();
            const cs = getComputedStyle(page);
            const cl = pr.left + parseFloat(cs.paddingLeft), cr = pr.right - parseFloat(cs.paddingRight);
            const out = { width: cr - cl };
            for (const p of document.querySelectorAll('#view-document .docx-p')) {
                const label = p.textContent.trim().split(' ')[0];
                const range = document.createRange();
                range.selectNodeContents(p);
                const lines = new Map();
                for (const r of range.getClientRects()) {
                    if (r.width === 0) continue;
                    const key = Math.round(r.top);
                    const l = lines.get(key) || { left: Infinity, right: Infinity };
                    lines.set(key, { left: Math.min(l.left, r.left - cl), right: Math.min(l.right, cr - r.right) });
                }
                out[label] = [...lines.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
            }
            for (const td of document.querySelectorAll('#view-document td')) {
                const r = td.getBoundingClientRect();
                out['cell-' + td.textContent.trim()] = { left: r.left - cl, right: cr - r.right, width: r.width };
            }
            return out;
        })()"#,
    )
    .await;
    // CSS points: how far a line's ink (or a cell) stays from the left and right margins.
    let x = |label: &str, line: usize, side: &str| {
        got[label][line][side]
            .as_f64()
            .unwrap_or_else(|| panic!("no {label}[{line}].{side} in {got}"))
            * 0.75
    };
    let near = |a: f64, b: f64| (a - b).abs() < 1.5;
    assert!(near(x("P0", 0, "right"), 0.0), "{got}");
    assert!(near(x("P1", 0, "right"), 0.0), "{got}");
    assert!(near(x("P2", 0, "left"), 0.0), "{got}");
    assert!(x("P2", 0, "right") > 100.0, "{got}");
    assert!(near(x("P3", 0, "right"), 72.0), "{got}");
    let lines = got["P4"].as_array().map_or(0, Vec::len);
    assert!(lines >= 2, "the long paragraph wraps: {got}");
    assert!(
        near(x("P4", 0, "right"), 0.0),
        "first line at the margin: {got}"
    );
    assert!(near(x("P4", 1, "right"), 72.0), "the rest indented: {got}");
    let cell = |name: &str, side: &str| got[format!("cell-{name}")][side].as_f64().unwrap() * 0.75;
    // The first column on the right, 36 pt in from the right margin, 300 pt wide.
    assert!(cell("FIRST", "left") > cell("SECOND", "left"), "{got}");
    assert!(near(cell("FIRST", "right"), 36.0), "{got}");
    assert!(near(cell("FIRST", "width"), 300.0), "{got}");
    assert!(near(cell("SECOND", "width"), 168.0), "{got}");
    // A narrow one without an indent sits at the right margin.
    assert!(near(cell("THIRD", "right"), 0.0), "{got}");
    assert!(near(cell("THIRD", "width"), 144.0), "{got}");
}

/// A paragraph whose every run is smaller than its style's size is only as tall as its
/// text, as in Word: the style's 24 pt must not size the line box CSS starts each line
/// with (`lotest-041_fdo_67303`'s 7.5 pt table rows in a 12 pt style were laid out 12 pt
/// tall). A run of the style's own size keeps the paragraph at that size.
#[tokio::test(flavor = "multi_thread")]
async fn lines_are_as_tall_as_their_text_not_the_paragraph_style() {
    let styles = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="48"/></w:rPr></w:style></w:styles>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;
    let run = |size: u32, t: &str| {
        format!(
            r#"<w:r><w:rPr><w:sz w:val="{size}"/></w:rPr><w:t xml:space="preserve">{t}</w:t></w:r>"#
        )
    };
    let body = format!(
        "<w:p>{}{}</w:p><w:p>{}</w:p><w:p>{}{}</w:p>",
        run(16, "Small "),
        run(14, "text"),
        run(48, "Large"),
        run(16, "Mixed "),
        run(48, "sizes"),
    );
    let (_s, url) = serve_bytes(
        "sizes.docx",
        docx_with_parts(
            &body,
            &[
                ("word/styles.xml", styles.to_string()),
                ("word/_rels/document.xml.rels", rels.to_string()),
            ],
        ),
    )
    .await;
    let got = document_eval(
        &url,
        r#"(() => {
            const out = {};
            for (const p of document.querySelectorAll('#view-document .docx-p')) {
                out[p.textContent.trim().split(' ')[0]] = p.getBoundingClientRect().height * 0.75;
            }
            return out;
        })()"#,
    )
    .await;
    let h = |k: &str| got[k].as_f64().unwrap_or_else(|| panic!("{k}: {got}"));
    // Single spacing: about 1.15 of the largest size on the line.
    assert!(h("Small") < 8.0 * 1.6, "an 8 pt line: {got}");
    assert!(h("Large") > 24.0 * 1.05, "{got}");
    assert!((h("Mixed") - h("Large")).abs() < 1.0, "{got}");
}

/// Text that no default and no style sizes is drawn at Word's 10 pt, through the page
/// frame, in the browser (the frame's CSS default is 11 pt).
#[tokio::test(flavor = "multi_thread")]
async fn text_no_style_sizes_is_drawn_at_ten_points() {
    let (_s, url) = serve_bytes(
        "unsized.docx",
        docx_with_body(r#"<w:p><w:r><w:t>Unsized text</w:t></w:r></w:p>"#),
    )
    .await;
    let got = document_eval(
        &url,
        r#"(() => {
            const p = [...document.querySelectorAll('#view-document .docx-p')].find((p) => p.textContent.includes('Unsized'));
            return { size: parseFloat(getComputedStyle(p).fontSize) };
        })()"#,
    )
    .await;
    let pt = got["size"].as_f64().unwrap() * 0.75;
    assert!((pt - 10.0).abs() < 0.05, "{got}");
}

/// Word spaces single lines by the face's own line (ascent, descent and line gap):
/// Calibri's is 1.22 em, Arial's 1.15, a Chinese face's (Noto Sans CJK standing in for
/// Microsoft YaHei) 1.45, and a multiple multiplies it. The pitches below are
/// LibreOffice 7.4's on the same paragraphs (from its PDF), which are Word's.
#[tokio::test(flavor = "multi_thread")]
async fn single_lines_are_as_tall_as_their_faces_say() {
    let fonts = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:font w:name="Calibri"/><w:font w:name="Arial"/><w:font w:name="Microsoft YaHei"/></w:fonts>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable" Target="fontTable.xml"/></Relationships>"#;
    let group = |key: &str, face: &str, line: u32, text: &str| {
        (1..=6)
            .map(|i| {
                format!(
                    r#"<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="{line}" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="{face}" w:hAnsi="{face}" w:eastAsia="Microsoft YaHei"/><w:sz w:val="24"/></w:rPr><w:t>{key}{i} {text}</w:t></w:r></w:p>"#
                )
            })
            .collect::<String>()
    };
    let body = [
        group("calibri", "Calibri", 240, "Single"),
        group("arial", "Arial", 240, "Single"),
        group("multiple", "Calibri", 276, "Multiple"),
        group("chinese", "Calibri", 240, "中文文本"),
    ]
    .concat();
    let (_s, url) = serve_bytes(
        "lines.docx",
        docx_with_parts(
            &body,
            &[
                ("word/fontTable.xml", fonts.to_string()),
                ("word/_rels/document.xml.rels", rels.to_string()),
            ],
        ),
    )
    .await;
    let got = document_eval(
        &url,
        r#"(() => {
            const tops = {};
            for (const p of document.querySelectorAll('#view-document .docx-p')) {
                const key = p.textContent.trim().replace(/[0-9].*$/, '');
                (tops[key] = tops[key] || []).push(p.getBoundingClientRect().top);
            }
            const out = {};
            for (const [k, t] of Object.entries(tops)) out[k] = (t[t.length - 1] - t[0]) / (t.length - 1) * 0.75;
            return out;
        })()"#,
    )
    .await;
    for (key, pitch) in [
        ("calibri", 14.65),
        ("arial", 13.8),
        ("multiple", 16.8),
        ("chinese", 17.4),
    ] {
        let measured = got[key].as_f64().unwrap_or_else(|| panic!("{key}: {got}"));
        assert!((measured - pitch).abs() < 0.1, "{key}: {got}");
    }
}

/// The viewer breaks a frame whose text runs past its page into pages, as a word
/// processor does: between blocks, between the lines of a paragraph (two lines at least
/// on each side) and between the rows of a table (its header row repeated); every page
/// has the section's header and footer, and page number fields count the pages.
#[tokio::test(flavor = "multi_thread")]
async fn long_text_is_broken_into_pages() {
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>"#;
    let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr {w}><w:p><w:r><w:t>Running head</w:t></w:r></w:p></w:hdr>"#
    );
    let footer = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr {w}><w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:fldSimple w:instr="PAGE"><w:r><w:t>1</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> of </w:t></w:r><w:fldSimple w:instr="NUMPAGES"><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p></w:ftr>"#
    );
    let p = |t: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#)
    };
    let mut body: String = (1..=30).map(|i| p(&format!("Line {i}"))).collect();
    // About 40 lines of one paragraph: it must be cut between its lines.
    let words: Vec<String> = (1..=600).map(|i| format!("w{i}")).collect();
    body.push_str(&p(&words.join(" ")));
    body.push_str(r#"<w:tbl><w:tblPr><w:tblBorders><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>"#);
    body.push_str(r#"<w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>Heading row</w:t></w:r></w:p></w:tc></w:tr>"#);
    for i in 1..=80 {
        body.push_str(&format!(
            r#"<w:tr><w:tc><w:p><w:r><w:t>Row {i}</w:t></w:r></w:p></w:tc></w:tr>"#
        ));
    }
    body.push_str("</w:tbl>");
    body.push_str(r#"<w:sectPr><w:headerReference w:type="default" r:id="rId1" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/><w:footerReference w:type="default" r:id="rId2" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let (_s, url) = serve_bytes(
        "long.docx",
        docx_with_parts(
            &body,
            &[
                ("word/_rels/document.xml.rels", rels.to_string()),
                ("word/header1.xml", header),
                ("word/footer1.xml", footer),
            ],
        ),
    )
    .await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            const frames = [...document.querySelectorAll('#view-document .docx-page')];
            const pages = frames.map((f) => {
                const probe = document.createElement('div');
                probe.style.cssText = 'position:absolute;height:calc(var(--page-h) - var(--m-bottom))';
                f.appendChild(probe);
                const limit = f.getBoundingClientRect().top + probe.getBoundingClientRect().height;
                probe.remove();
                const body = f.querySelector(':scope > .docx-body');
                const last = body.lastElementChild;
                return {
                    overflow: last ? last.getBoundingClientRect().bottom - limit : 0,
                    header: (f.querySelector(':scope > header') || {}).textContent || '',
                    footer: (f.querySelector(':scope > footer') || {}).textContent || '',
                    first: (body.firstElementChild || {}).textContent || '',
                    label: f.getAttribute('aria-label'),
                };
            });
            const text = frames.map((f) => f.querySelector(':scope > .docx-body').textContent).join(' ');
            const words = text.match(/w[0-9]+/g) || [];
            const rows = text.match(/Row [0-9]+/g) || [];
            return { pages, words: words.length, rows: rows.length, headings: (text.match(/Heading row/g) || []).length };
        })()"#,
        ]
        .concat(),
    )
    .await;
    let pages = got["pages"].as_array().unwrap_or_else(|| panic!("{got}"));
    assert!(pages.len() >= 3, "{got}");
    let n = pages.len();
    for (i, page) in pages.iter().enumerate() {
        assert!(
            page["overflow"].as_f64().unwrap() <= 1.0,
            "page {}: {got}",
            i + 1
        );
        assert_eq!(page["header"].as_str().unwrap(), "Running head", "{got}");
        assert_eq!(
            page["footer"].as_str().unwrap(),
            format!("Page {} of {n}", i + 1),
            "{got}"
        );
        assert_eq!(page["label"].as_str().unwrap(), format!("Page {}", i + 1));
    }
    // Nothing lost or doubled, but the header row, which repeats on each page of the
    // table; the long paragraph goes on from one page to the next.
    assert_eq!(got["words"], 600, "{got}");
    assert_eq!(got["rows"], 80, "{got}");
    assert!(got["headings"].as_u64().unwrap() >= 2, "{got}");
    assert!(
        pages
            .iter()
            .any(|p| p["first"].as_str().unwrap().starts_with('w')),
        "a page opens with the rest of the long paragraph: {got}"
    );
    assert!(
        pages
            .iter()
            .any(|p| p["first"].as_str().unwrap().starts_with("Heading rowRow")),
        "a page opens with the rest of the table under its header row: {got}"
    );
}

/// Rows are not split between pages, so a row taller than a page stays on its page
/// with the rows before it (moving it would leave a blank page, as it did with a résumé
/// laid out as one tall row), and what follows it starts the next page.
#[tokio::test(flavor = "multi_thread")]
async fn a_table_row_taller_than_a_page_stays_on_its_page() {
    let lines: String = (1..=80)
        .map(|i| format!(r#"<w:p><w:r><w:t>Tall line {i}</w:t></w:r></w:p>"#))
        .collect();
    let body = format!(
        concat!(
            r#"<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>"#,
            r#"<w:tr><w:tc><w:p><w:r><w:t>Row one</w:t></w:r></w:p></w:tc></w:tr>"#,
            r#"<w:tr><w:tc>{}</w:tc></w:tr></w:tbl>"#,
            r#"<w:p><w:r><w:t>After the table</w:t></w:r></w:p>"#,
        ),
        lines
    );
    let (_s, url) = serve_bytes("tall.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            return [...document.querySelectorAll('#view-document .docx-page')].map((f) => f.querySelector(':scope > .docx-body').textContent);
        })()"#,
        ]
        .concat(),
    )
    .await;
    let pages = got.as_array().unwrap_or_else(|| panic!("{got}"));
    assert_eq!(pages.len(), 2, "{got}");
    let first = pages[0].as_str().unwrap();
    assert!(
        first.contains("Row one") && first.contains("Tall line 80"),
        "{got}"
    );
    assert_eq!(pages[1].as_str().unwrap(), "After the table", "{got}");
}

/// Rows whose paragraphs keep with the next (Word's way to keep a table together: "keep
/// with next" on every row but the last) go to the next page with the rows they are kept
/// with, rather than the page breaking inside them. Rows 30 to 58 of 60 keep with the
/// next: page 1 ends after row 29, page 2 starts with row 30 (without the keep the break
/// fell near row 45).
#[tokio::test(flavor = "multi_thread")]
async fn table_rows_kept_with_the_next_move_to_the_next_page_together() {
    // Rows 30 to 59 kept: the page breaks before row 30, not at its end (row 50).
    let pages = kept_rows_pages(0, 1..=60, 30..=58).await;
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert_eq!(pages[0].1, "Row 29", "{pages:?}");
    assert_eq!(pages[1].0, "Row 30", "{pages:?}");
    assert_eq!(pages[1].1, "Row 60", "{pages:?}");
    // Every row but the last kept, the table below 30 paragraphs: the chain reaches the
    // table's first row, so the whole table goes to the next page (it was cut as if
    // unkept); on a page of its own it breaks where the page ends.
    let pages = kept_rows_pages(30, 1..=40, 1..=39).await;
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert_eq!(pages[0], ("".to_owned(), "".to_owned()), "{pages:?}");
    assert_eq!(
        pages[1],
        ("Row 1".to_owned(), "Row 40".to_owned()),
        "{pages:?}"
    );
    let pages = kept_rows_pages(0, 1..=80, 1..=79).await;
    assert!(pages.len() == 2 && pages[0].1 != "Row 80", "{pages:?}");
}

/// The first and last table row on each page of a document of `before` paragraphs and
/// then a table of `rows`, those in `kept` holding a paragraph kept with the next.
async fn kept_rows_pages(
    before: usize,
    rows: std::ops::RangeInclusive<usize>,
    kept: std::ops::RangeInclusive<usize>,
) -> Vec<(String, String)> {
    let mut body: String = (1..=before)
        .map(|i| format!("<w:p><w:r><w:t>Para {i}</w:t></w:r></w:p>"))
        .collect();
    body.push_str(
        r#"<w:tbl><w:tblPr><w:tblBorders><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>"#,
    );
    for i in rows {
        let keep = if kept.contains(&i) {
            "<w:keepNext/>"
        } else {
            ""
        };
        body.push_str(&format!(
            r#"<w:tr><w:tc><w:p><w:pPr>{keep}<w:spacing w:after="0"/></w:pPr><w:r><w:t>Row {i}</w:t></w:r></w:p></w:tc></w:tr>"#
        ));
    }
    body.push_str(r#"</w:tbl><w:p/><w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let (_s, url) = serve_bytes("kept-rows.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            return [...document.querySelectorAll('#view-document .docx-page')].map((f) => {
                const rows = [...f.querySelectorAll(':scope > .docx-body tr')].map((r) => r.textContent.trim());
                return [rows[0] || '', rows[rows.length - 1] || ''];
            });
        })()"#,
        ]
        .concat(),
    )
    .await;
    serde_json::from_value(got.clone()).unwrap_or_else(|e| panic!("{e}: {got}"))
}

/// A paragraph kept with the next (`w:keepNext`, as every built-in heading is) starts a
/// page with it rather than end the page above alone, a chain of them moves together,
/// and a paragraph that keeps its lines together (`w:keepLines`) moves whole rather
/// than split. Lines are 12 pt exactly, so a 648 pt page body holds 54.
#[tokio::test(flavor = "multi_thread")]
async fn kept_paragraphs_move_to_the_next_page_together() {
    let para = |text: &str, keep: &str| {
        format!(
            r#"<w:p><w:pPr>{keep}<w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="exact"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    // Lines of one paragraph, ended by breaks.
    let lines = |key: &str, n: usize, keep: &str| {
        let runs: Vec<String> = (1..=n)
            .map(|i| format!("<w:r><w:t>{key} {i}</w:t></w:r>"))
            .collect();
        format!(
            r#"<w:p><w:pPr>{keep}<w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="exact"/></w:pPr>{}</w:p>"#,
            runs.join("<w:r><w:br/></w:r>")
        )
    };
    let mut body = String::new();
    // Page 1: 51 lines and a chain of two kept paragraphs leave one line, too little for
    // two lines of the paragraph after them: the chain goes over with it.
    for i in 1..=51 {
        body.push_str(&para(&format!("Filler {i}"), ""));
    }
    body.push_str(&para("Chain one", "<w:keepNext/>"));
    body.push_str(&para("Chain two", "<w:keepNext/>"));
    body.push_str(&lines("Long", 4, ""));
    // Page 2: 6 + 45 lines leave three, where six lines kept together do not fit.
    for i in 1..=45 {
        body.push_str(&para(&format!("More {i}"), ""));
    }
    body.push_str(&lines("Together", 6, "<w:keepLines/>"));
    body.push_str(r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let (_s, url) = serve_bytes("kept.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            return [...document.querySelectorAll('#view-document .docx-page')].map((f) => {
                const blocks = [...f.querySelector(':scope > .docx-body').children];
                return { first: blocks[0].textContent, last: blocks[blocks.length - 1].textContent };
            });
        })()"#,
        ]
        .concat(),
    )
    .await;
    let pages = got.as_array().unwrap_or_else(|| panic!("{got}"));
    assert_eq!(pages.len(), 3, "{got}");
    assert_eq!(pages[0]["last"], "Filler 51", "{got}");
    assert_eq!(pages[1]["first"], "Chain one", "{got}");
    assert_eq!(pages[1]["last"], "More 45", "{got}");
    assert_eq!(
        pages[2]["first"], "Together 1Together 2Together 3Together 4Together 5Together 6",
        "{got}"
    );
}

/// A floating table (`w:tblpPr`) placed from the page sits there, and the body text wraps
/// beside it: a letterhead table opening the body at 54 pt from the page's top, 144 pt
/// wide and 72 pt tall, reaches 54 pt into the text area, whose first lines run to its
/// right; the lines below it start at the margin again. (It was drawn in the flow, at
/// the top margin.)
#[tokio::test(flavor = "multi_thread")]
async fn a_floating_table_sits_where_it_says_and_the_text_wraps_beside_it() {
    let words = "Body text that wraps beside the letterhead table. ".repeat(12);
    let body = format!(
        "<w:tbl><w:tblPr><w:tblpPr w:leftFromText=\"180\" w:rightFromText=\"180\" w:vertAnchor=\"page\" w:horzAnchor=\"page\" w:tblpX=\"1440\" w:tblpY=\"1080\"/><w:tblW w:w=\"2880\" w:type=\"dxa\"/>\
         <w:tblCellMar><w:left w:w=\"0\" w:type=\"dxa\"/><w:right w:w=\"0\" w:type=\"dxa\"/></w:tblCellMar>\
         <w:tblBorders><w:top w:val=\"single\" w:sz=\"4\"/><w:bottom w:val=\"single\" w:sz=\"4\"/></w:tblBorders></w:tblPr>\
         <w:tblGrid><w:gridCol w:w=\"2880\"/></w:tblGrid>\
         <w:tr><w:trPr><w:trHeight w:hRule=\"exact\" w:val=\"1440\"/></w:trPr><w:tc><w:tcPr><w:tcW w:w=\"2880\" w:type=\"dxa\"/></w:tcPr><w:p><w:r><w:t>Letterhead</w:t></w:r></w:p></w:tc></w:tr></w:tbl>\
         <w:p><w:r><w:t>{words}</w:t></w:r></w:p>\
         <w:sectPr><w:pgSz w:w=\"12240\" w:h=\"15840\"/><w:pgMar w:top=\"1440\" w:right=\"1440\" w:bottom=\"1440\" w:left=\"1440\" w:header=\"720\" w:footer=\"720\"/></w:sectPr>"
    );
    let (_s, url) = serve_bytes("float-table.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        &format!(
            r#"{PAGINATED}
            const pg = document.querySelector('#view-document .docx-page');
            const top = pg.getBoundingClientRect().top;
            const left = pg.getBoundingClientRect().left;
            const t = pg.querySelector('table').getBoundingClientRect();
            const table = {{ top: (t.top - top) * 0.75, bottom: (t.bottom - top) * 0.75, left: (t.left - left) * 0.75, right: (t.right - left) * 0.75 }};
            const range = document.createRange();
            range.selectNodeContents(pg.querySelector('.docx-body > .docx-p'));
            const lines = [];
            for (const r of range.getClientRects()) {{
                const line = {{ top: (r.top - top) * 0.75, bottom: (r.bottom - top) * 0.75, left: (r.left - left) * 0.75 }};
                const same = lines.find((l) => Math.abs(l.top - line.top) < 2);
                if (same) same.left = Math.min(same.left, line.left); else lines.push(line);
            }}
            return {{ table, lines }};
        }})()"#
        ),
    )
    .await;
    let at = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
    let table = &got["table"];
    assert!((at(table, "top") - 54.0).abs() < 1.5, "{got}");
    assert!((at(table, "left") - 72.0).abs() < 1.5, "{got}");
    assert!((at(table, "bottom") - 126.0).abs() < 2.0, "{got}");
    let lines = got["lines"].as_array().unwrap();
    let beside: Vec<_> = lines
        .iter()
        .filter(|l| at(l, "top") < at(table, "bottom") && at(l, "bottom") > at(table, "top"))
        .collect();
    assert!(beside.len() >= 2, "{got}");
    for l in &beside {
        assert!(
            at(l, "left") >= at(table, "right"),
            "{l} runs under the table: {got}"
        );
    }
    assert!(
        (at(beside[0], "top") - 72.0).abs() < 3.0,
        "text starts at the top margin: {got}"
    );
    let below = lines
        .iter()
        .find(|l| at(l, "top") >= at(table, "bottom"))
        .expect("lines below the table");
    assert!((at(below, "left") - 72.0).abs() < 1.0, "{got}");
}

/// A table row of exact height (`w:hRule="exact"`) keeps it when its text needs more:
/// what does not fit is cut off at the row's bottom, as Word does, and the next row
/// starts where the document says (the row grew to its five lines before).
#[tokio::test(flavor = "multi_thread")]
async fn a_row_of_exact_height_cuts_off_what_does_not_fit() {
    let lines = "<w:p><w:r><w:t>Line</w:t></w:r></w:p>".repeat(5);
    let body = format!(
        "<w:tbl><w:tblPr><w:tblW w:w=\"4320\" w:type=\"dxa\"/></w:tblPr><w:tblGrid><w:gridCol w:w=\"4320\"/></w:tblGrid>\
         <w:tr><w:trPr><w:trHeight w:hRule=\"exact\" w:val=\"720\"/></w:trPr><w:tc><w:tcPr><w:tcW w:w=\"4320\" w:type=\"dxa\"/></w:tcPr>{lines}</w:tc></w:tr>\
         <w:tr><w:tc><w:tcPr><w:tcW w:w=\"4320\" w:type=\"dxa\"/></w:tcPr><w:p><w:r><w:t>Next row</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    );
    let (_s, url) = serve_bytes("exact-row.docx", docx_with_body(&body)).await;
    let got = document_eval(
        &url,
        r#"(() => {
            const rows = [...document.querySelectorAll('#view-document table tr')].map((r) => r.getBoundingClientRect());
            return { first: rows[0].height * 0.75, gap: (rows[1].top - rows[0].top) * 0.75 };
        })()"#,
    )
    .await;
    let first = got["first"].as_f64().unwrap();
    assert!((first - 36.0).abs() < 1.0, "{got}");
    assert!((got["gap"].as_f64().unwrap() - 36.0).abs() < 1.0, "{got}");
}

/// A paragraph that holds an inline picture among its lines is split between its lines
/// at the page's end like any other, the picture's line counting as tall as the picture;
/// it was moved whole to the next page, leaving the bottom of the page empty.
#[tokio::test(flavor = "multi_thread")]
async fn a_paragraph_with_an_inline_picture_breaks_between_its_lines() {
    let p = |t: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#)
    };
    let mut body: String = (1..=40).map(|i| p(&format!("Line {i}"))).collect();
    let before: Vec<String> = (1..=60).map(|i| format!("a{i}")).collect();
    let after: Vec<String> = (1..=200).map(|i| format!("b{i}")).collect();
    // 72 pt × 36 pt, inline between the two runs of words.
    let picture = r#"<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="914400" cy="457200"/><wp:docPr id="1" name="pic"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name=""/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:embed="rP"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="457200"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#;
    body.push_str(&format!(
        r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t xml:space="preserve">{} </w:t></w:r>{picture}<w:r><w:t xml:space="preserve"> {}</w:t></w:r></w:p>"#,
        before.join(" "),
        after.join(" ")
    ));
    body.push_str(r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rP" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/pic.png"/></Relationships>"#;
    let bytes = docx_with_part_bytes(
        &body,
        &[
            ("word/_rels/document.xml.rels", rels.as_bytes().to_vec()),
            ("word/media/pic.png", common::tiny_png()),
        ],
    );
    let (_s, url) = serve_bytes("picture-paragraph.docx", bytes).await;
    let got = document_eval(
        &url,
        &[
            PAGINATED,
            r#"
            const frames = [...document.querySelectorAll('#view-document .docx-page')];
            return frames.map((f) => {
                const body = f.querySelector(':scope > .docx-body');
                const probe = document.createElement('div');
                probe.style.cssText = 'position:absolute;height:calc(var(--page-h) - var(--m-bottom))';
                f.appendChild(probe);
                const limit = f.getBoundingClientRect().top + probe.getBoundingClientRect().height;
                probe.remove();
                const last = body.lastElementChild;
                return {
                    text: body.textContent,
                    pictures: body.querySelectorAll('img').length,
                    rest: (body.firstElementChild || {}).hasAttribute ? body.firstElementChild.hasAttribute('data-docx-rest') : false,
                    overflow: last ? last.getBoundingClientRect().bottom - limit : 0,
                };
            });
        })()"#,
        ]
        .concat(),
    )
    .await;
    let pages = got.as_array().unwrap_or_else(|| panic!("{got}"));
    assert_eq!(pages.len(), 2, "{got}");
    let text = |i: usize| pages[i]["text"].as_str().unwrap();
    // Page 1 ends inside the paragraph, past its picture; page 2 goes on with it.
    assert!(
        text(0).contains("Line 40") && text(0).contains("a60"),
        "{got}"
    );
    assert_eq!(pages[0]["pictures"], 1, "{got}");
    assert!(text(0).contains("b1 "), "{got}");
    assert!(
        text(1).contains("b200") && !text(1).contains("a60"),
        "{got}"
    );
    assert_eq!(pages[1]["rest"], true, "{got}");
    for page in pages {
        assert!(page["overflow"].as_f64().unwrap() <= 1.0, "{got}");
    }
}
