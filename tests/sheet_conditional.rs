//! Conditional formatting and formulas saved without results, through the real service,
//! on workbooks written by real tools: `xlsxwriter` and `openpyxl` (made by
//! `fixtures/xlsx/make_conditional.py`) and LibreOffice's test files.
//!
//! Expected styles are worked out from the rules as written in each file (the thresholds,
//! the interpolation of a colour scale, the bar lengths), not from previewd's output.

mod common;

use common::{ids, start, TestServer};
use serde_json::Value;

/// Meta and the first block of rows of sheet 0.
async fn grid(server: &TestServer, rel: &str) -> (Value, Value) {
    server.copy_fixture(rel);
    let snap = server.preview_ok(rel).await;
    let (id, token) = ids(&snap);
    let base = format!("/p/{id}/{token}/grid/");
    let meta: Value = server
        .get(&format!("{base}meta.json"))
        .await
        .json()
        .await
        .unwrap();
    let rows: Value = server
        .get(&format!("{base}rows/0/0"))
        .await
        .json()
        .await
        .unwrap();
    (meta, rows)
}

/// The served cell at zero-based `(row, col)`.
fn at(rows: &Value, row: u64, col: u64) -> Value {
    rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[0] == row)
        .and_then(|r| r[1].as_array().unwrap().iter().find(|c| c["c"] == col))
        .cloned()
        .unwrap_or_else(|| panic!("no cell at {row},{col}"))
}

fn css(rows: &Value, row: u64, col: u64) -> String {
    at(rows, row, col)["x"].as_str().unwrap_or("").to_string()
}

#[tokio::test]
async fn xlsxwriter_rules_style_the_cells_they_match() {
    let server = start(|_| {}).await;
    let (meta, rows) = grid(&server, "xlsx/xlsxwriter-conditional.xlsx").await;
    // Column A: cellIs greaterThan 50 with a red fill and dark red text (dxf 0).
    for (row, hit) in [(1, false), (2, false), (3, false), (4, true), (5, true)] {
        let x = css(&rows, row, 0);
        assert_eq!(
            x.contains("background:#ffc7ce") && x.contains("color:#9c0006"),
            hit,
            "A{}: {x:?}",
            row + 1
        );
    }
    // Column B: between 20 and 40, inclusive: only 30.
    let hits: Vec<u64> = (1..=5)
        .filter(|r| css(&rows, *r, 1).contains("background:#c6efce"))
        .collect();
    assert_eq!(hits, vec![2]);
    // Column C: min / 50th percentile / max at F8696B, FFEB84, 63BE7B; 30 lies halfway
    // between 10 and the median 50: (F8+FF)/2, (69+EB)/2, (6B+84)/2 = FC AA 78.
    assert_eq!(css(&rows, 1, 2), "background:#f8696b;");
    assert_eq!(css(&rows, 2, 2), "background:#fcaa78;");
    assert_eq!(css(&rows, 3, 2), "background:#ffeb84;");
    assert_eq!(css(&rows, 5, 2), "background:#63be7b;");
    // Column D: bars from 10 % (the minimum) to 90 % (the maximum) of the cell.
    let bar = |r| at(&rows, r, 3)["bar"].clone();
    assert_eq!(bar(1)[1], "#638ec6");
    let len = |r| bar(r)[0].as_f64().unwrap();
    assert!((len(1) - 0.1).abs() < 1e-6, "{}", len(1));
    assert!((len(3) - 0.5).abs() < 1e-6, "{}", len(3));
    assert!((len(5) - 0.9).abs() < 1e-6, "{}", len(5));
    // Column E: 3Arrows at 0 / 33 / 67 % of 10..90, that is 36.4 and 63.6.
    let icon = |r| at(&rows, r, 4)["icon"][0].as_str().unwrap().to_string();
    assert_eq!(
        (1..=5).map(icon).collect::<Vec<_>>(),
        ["\u{2193}", "\u{2193}", "\u{2192}", "\u{2191}", "\u{2191}"]
    );
    // Column F: the top two values bold.
    let bold: Vec<u64> = (1..=5)
        .filter(|r| css(&rows, *r, 5).contains("font-weight:bold"))
        .collect();
    assert_eq!(bold, vec![4, 5]);
    // Column G: contains "apple", ignoring case.
    let apples: Vec<u64> = (1..=5)
        .filter(|r| css(&rows, *r, 6).contains("#ffc7ce"))
        .collect();
    assert_eq!(apples, vec![1, 3]);
    // Column H: duplicates, ignoring case: a, b, a, c, B.
    let dups: Vec<u64> = (1..=5)
        .filter(|r| css(&rows, *r, 7).contains("#ffc7ce"))
        .collect();
    assert_eq!(dups, vec![1, 2, 3, 5]);
    // Column I: a formula condition is not evaluated, and the sheet says so.
    assert!((1..=5).all(|r| at(&rows, r, 8).get("x").is_none()));
    assert_eq!(meta["sheets"][0]["conditionalSkipped"], 1);
}

#[tokio::test]
async fn libreoffice_cell_rule_and_icon_sets() {
    let server = start(|_| {}).await;
    // greaterThan 1000 on A2:A9 with the legacy palette's colour 42 (CCFFCC).
    let (_, rows) = grid(&server, "xlsx/lotest-conditional-formatting.xlsx").await;
    let hits: Vec<u64> = (1..=8)
        .filter(|r| css(&rows, *r, 0).contains("background:#ccffcc"))
        .collect();
    assert_eq!(hits, vec![2, 3], "2000 and 2003 only");
    // The header text in A1 is outside the rule's range.
    assert_eq!(css(&rows, 0, 0), "");

    let (meta, rows) = grid(&server, "xlsx/lotest-all_icon_sets.xlsx").await;
    assert_eq!(meta["sheets"][0]["conditionalSkipped"], 0);
    let with_icons = rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r[1].as_array().unwrap().iter())
        .filter(|c| c.get("icon").is_some())
        .count();
    assert!(with_icons >= 18, "{with_icons} cells with icons");
}

#[tokio::test]
async fn formulas_saved_without_results_are_counted_for_the_viewer() {
    let server = start(|_| {}).await;
    let (meta, rows) = grid(&server, "xlsx/openpyxl-uncalculated.xlsx").await;
    // openpyxl writes `=SUM(...)` with no cached value: two cells.
    assert_eq!(meta["sheets"][0]["uncalculated"], 2);
    let d2 = at(&rows, 1, 3);
    assert_eq!(d2["f"], "=SUM(B2:C2)");
    assert!(d2.get("t").is_none(), "{d2}");
    // B3 = 4500 > 4000 gets the rule's fill; B2 = 1200 does not.
    assert!(css(&rows, 2, 1).contains("background:#ffc7ce"));
    assert_eq!(css(&rows, 1, 1), "");
}

/// In Chromium: a rule's fill, a data bar and an icon are drawn; a formula without a
/// result is shown grey and italic; bordered neighbours share one line.
#[tokio::test]
async fn the_grid_draws_rules_formulas_and_shared_borders() {
    use common::browser::{eval, wait_for, TestBrowser};
    let server = start(|_| {}).await;
    server.copy_fixture("xlsx/xlsxwriter-conditional.xlsx");
    server.copy_fixture("xlsx/openpyxl-uncalculated.xlsx");
    let browser = TestBrowser::launch().await;
    let open = |rel: &'static str| {
        let server = &server;
        let browser = &browser;
        async move {
            let snap = server.preview_ok(rel).await;
            let (id, token) = ids(&snap);
            let page = browser
                .open(&format!("{}/p/{id}/{token}/grid/", server.base))
                .await;
            wait_for(
                &page,
                "document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
            )
            .await;
            page
        }
    };
    let find = "(function(t){return Array.from(document.querySelectorAll('.cell')).find(c => c.textContent === t);})";

    let page = open("xlsx/xlsxwriter-conditional.xlsx").await;
    assert_eq!(
        eval(
            &page,
            &format!("getComputedStyle({find}('apple pie')).backgroundColor")
        )
        .await,
        "rgb(255, 199, 206)"
    );
    assert_eq!(
        eval(
            &page,
            &format!("getComputedStyle({find}('banana')).backgroundColor")
        )
        .await,
        "rgba(0, 0, 0, 0)"
    );
    // Data bars: one per cell of column D, the longest for 90.
    let widths = eval(
        &page,
        "Array.from(document.querySelectorAll('.dbar')).map(b => Math.round(b.getBoundingClientRect().width))",
    )
    .await;
    let widths: Vec<i64> = widths
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(widths.len(), 5, "{widths:?}");
    assert!(widths.windows(2).all(|w| w[0] < w[1]), "{widths:?}");
    assert_eq!(
        eval(
            &page,
            "Array.from(document.querySelectorAll('.cficon')).map(i => i.textContent).join('')"
        )
        .await,
        "\u{2193}\u{2193}\u{2192}\u{2191}\u{2191}"
    );

    let page = open("xlsx/openpyxl-uncalculated.xlsx").await;
    let sum = format!("{find}('=SUM(B2:C2)')");
    assert_eq!(
        eval(
            &page,
            &format!("getComputedStyle({sum}.firstElementChild).fontStyle")
        )
        .await,
        "italic"
    );
    // "Rent" (A2) and 1200 (B2) both have thin borders all round: B2's left border lies
    // on A2's right border, one line of one pixel.
    let gap = eval(
        &page,
        &format!("{find}('1200').getBoundingClientRect().left - {find}('Rent').getBoundingClientRect().right"),
    )
    .await;
    assert_eq!(gap.as_f64().unwrap(), -1.0, "B2 starts one pixel inside A2");
    browser.close().await;
}
