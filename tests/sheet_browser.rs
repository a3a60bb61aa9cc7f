//! The grid viewer in real Chromium: a 1,000,000-row table generated here opens in the
//! preview shell, scrolls to row 900,000 and keeps only the cells on screen in the page; so
//! does a 1,000,000-row workbook, read in the background, on the grid page of its own. A
//! shell opened on another view loads no rows until its Sheet panel is shown.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::xlsx::workbook;
use common::{ids, start};

#[tokio::test]
async fn a_million_row_sheet_opens_and_scrolls_with_few_cells_in_the_page() {
    // The parse of 24 MiB runs in a debug build beside the rest of the suite: give the
    // work pool room beyond its 15 s default (this test measures no time).
    let server = start(|c| c.work.deadline_ms = 120_000).await;
    let mut csv = String::with_capacity(24 * 1_000_000);
    csv.push_str("id,label,amount\n");
    for i in 1..=1_000_000u32 {
        csv.push_str(&format!("{i},item {i},{}.{:02}\n", i % 997, i % 100));
    }
    server.write("million.csv", &csv);
    drop(csv);
    let snap = server.preview_ok("million.csv").await;
    let (id, token) = ids(&snap);
    // The shell's own page, where the grid is drawn in the Sheet panel.
    let url = format!("{}/p/{id}/{token}/", server.base);

    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
    )
    .await;
    assert_eq!(
        eval(&page, "document.querySelectorAll('iframe').length").await,
        0,
        "the grid is part of the shell's document"
    );
    let first = eval(
        &page,
        "Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === 'item 1')",
    )
    .await;
    assert_eq!(first, true);
    // The header row is frozen and bold.
    assert_eq!(
        eval(&page, "document.querySelectorAll('.cell.hdr').length > 0").await,
        true
    );

    // The table is read in the background: row 900,000 may not be in yet, and the grid
    // goes there once it is (a debug build beside the suite may take a while: polled
    // for up to two minutes, no time is measured).
    eval(&page, "window.previewdSheet.scrollToRow(900000)").await;
    let there = "document.body.dataset.firstRow === '900000' && Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === 'item 900000')";
    for _ in 0..2400 {
        if eval(&page, there).await == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        eval(&page, there).await,
        true,
        "the grid reached row 900,000"
    );
    let complete = "document.body.dataset.complete === '1'";
    for _ in 0..2400 {
        if eval(&page, complete).await == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(eval(&page, complete).await, true, "the whole table is read");
    assert_eq!(
        eval(&page, "document.body.dataset.firstRow").await,
        "900000",
        "the scroll stayed"
    );
    let cells = eval(&page, "document.querySelectorAll('.cell').length")
        .await
        .as_u64()
        .unwrap();
    let all = eval(&page, "document.getElementsByTagName('*').length")
        .await
        .as_u64()
        .unwrap();
    assert!(cells > 20 && cells < 3000, "{cells} cells in the page");
    assert!(all < 6000, "{all} elements in the page");
    // Row numbers follow the scroll.
    assert_eq!(
        eval(&page, "Array.from(document.querySelectorAll('.rowhead')).some(h => h.textContent === '900001')").await,
        true
    );
    // Keyboard navigation moves the selection and the formula bar shows the value.
    eval(&page, "window.previewdSheet.select(900000, 2)").await;
    wait_for(
        &page,
        "document.getElementById('cell-ref').textContent === 'C900001'",
    )
    .await;
    assert_eq!(
        eval(&page, "document.getElementById('cell-value').textContent").await,
        "706.00"
    );
    browser.close().await;
}

#[tokio::test]
async fn a_million_row_workbook_streams_opens_and_scrolls_with_few_cells_in_the_page() {
    // One column, generated here: row i holds 3·i, so the value shown proves the row.
    // Rows and cells without their optional `r` (as some writers do): 1,000,000 rows are
    // ~30 MiB of sheet XML, ~2 MiB zipped, under the default limits (`office_bytes`,
    // `max_part_bytes`, the compression ratio), which are not raised.
    let server = start(|c| c.work.deadline_ms = 120_000).await;
    let mut rows = String::with_capacity(45 * 1_000_000);
    for i in 1..=1_000_000u64 {
        rows.push_str(&format!("<row><c><v>{}</v></c></row>", 3 * i));
    }
    let book = workbook(&[("Big", &rows, "")], None, None, "");
    drop(rows);
    assert!(
        book.len() > 1 << 20,
        "over xlsx_stream_bytes: {}",
        book.len()
    );
    server.write("million.xlsx", &book);
    drop(book);
    let snap = server.preview_ok("million.xlsx").await;
    // Answered once the first rows were parsed, before the file's digest is given.
    assert!(snap["sha256"].is_null(), "{snap}");
    let (id, token) = ids(&snap);
    let url = format!("{}/p/{id}/{token}/grid/", server.base);

    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.body.dataset.ready === '1' && Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === '3')",
    )
    .await;
    // The sheet's tab is there while it is read.
    assert_eq!(
        eval(&page, "document.querySelector('#tabs button').textContent").await,
        "Big"
    );

    // Row 900,000 (index 899,999) may not be parsed yet: the grid goes there once it is
    // (a debug build beside the suite parses slowly: polled for up to eight minutes, no
    // time is measured).
    eval(&page, "window.previewdSheet.scrollToRow(899999)").await;
    let there = "document.body.dataset.firstRow === '899999' && Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === '2700000')";
    let complete = "document.body.dataset.complete === '1'";
    for expression in [there, complete] {
        for _ in 0..9600 {
            if eval(&page, expression).await == true {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let state = eval(
            &page,
            "document.body.dataset.firstRow + ' / ' + document.getElementById('notes').textContent",
        )
        .await;
        assert_eq!(eval(&page, expression).await, true, "{expression}: {state}");
    }
    assert_eq!(
        eval(&page, "document.body.dataset.firstRow").await,
        "899999",
        "the scroll stayed"
    );
    assert_eq!(
        eval(&page, "Array.from(document.querySelectorAll('.rowhead')).some(h => h.textContent === '900000')").await,
        true
    );
    let cells = eval(&page, "document.querySelectorAll('.cell').length")
        .await
        .as_u64()
        .unwrap();
    let all = eval(&page, "document.getElementsByTagName('*').length")
        .await
        .as_u64()
        .unwrap();
    assert!(cells > 20 && cells < 3000, "{cells} cells in the page");
    assert!(all < 6000, "{all} elements in the page");
    eval(&page, "window.previewdSheet.select(899999, 0)").await;
    wait_for(
        &page,
        "document.getElementById('cell-ref').textContent === 'A900000'",
    )
    .await;
    assert_eq!(
        eval(&page, "document.getElementById('cell-value').textContent").await,
        "2700000"
    );
    // Once read whole, the snapshot has the file's digest, as a whole parse would.
    let meta: serde_json::Value = server
        .get(&format!("/p/{id}/{token}/grid/meta.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(meta["rowsKnown"], 1_000_000);
    assert!(meta["sha256"].is_string(), "{}", meta["sha256"]);
    browser.close().await;
}

#[tokio::test]
async fn a_shell_opened_on_source_loads_the_grid_only_when_its_sheet_panel_is_shown() {
    let server = start(|_| {}).await;
    server.write("t.csv", "city;people\nOslo;709000\nBergen;291000\n");
    let snap = server.preview_ok("t.csv").await;
    let (id, token) = ids(&snap);
    let browser = TestBrowser::launch().await;
    let page = browser
        .open(&format!("{}/p/{id}/{token}/source", server.base))
        .await;
    wait_for(&page, "document.readyState === 'complete'").await;
    let grid_requests =
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/grid/')).length";
    assert_eq!(
        eval(&page, grid_requests).await,
        0,
        "nothing fetched while hidden"
    );
    assert_eq!(
        eval(&page, "document.querySelectorAll('.cell').length").await,
        0
    );

    eval(&page, "document.getElementById('tab-sheet').click(); true").await;
    wait_for(
        &page,
        "document.body.dataset.ready === '1' && Array.from(document.querySelectorAll('.cell')).some(c => c.textContent === 'Bergen')",
    )
    .await;
    // Sniffed as semicolon-separated, numbers right-aligned, laid out at the panel's size.
    let number = "Array.from(document.querySelectorAll('.cell')).find(c => c.textContent === '291000').classList.contains('ar')";
    assert_eq!(eval(&page, number).await, true);
    let fills = "(function(){var v=document.getElementById('view').getBoundingClientRect();\
        var m=document.querySelector('main').getBoundingClientRect();\
        return Math.round(v.width) === Math.round(m.width) && v.height > 200;})()";
    assert_eq!(eval(&page, fills).await, true);
    assert!(eval(&page, grid_requests).await.as_u64().unwrap() >= 2);
    browser.close().await;
}
