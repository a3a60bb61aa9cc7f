//! `previewd preview` on workbooks and tables: a standalone page of the first rows of
//! each sheet (with a note when cut) and the model as JSON.

use std::process::Command;

fn previewd(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_workbook_becomes_a_standalone_page_and_a_json_model() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/xlsx/sheetjs-wtf_path.xlsx");
    let book = dir.path().join("book.xlsx");
    std::fs::copy(fixture, &book).unwrap();
    let html = dir.path().join("book.html");
    let (ok, log) = previewd(&[
        "preview",
        book.to_str().unwrap(),
        "-o",
        html.to_str().unwrap(),
    ]);
    assert!(ok, "{log}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<table class=\"grid"), "{page}");
    assert!(page.contains(">200%<"));
    assert!(page.contains(">2/19/2014<"));
    assert!(page.contains("<a href=\"http://sheetjs.com\""));
    assert!(!page.contains("<script"));
    // The hidden sheet is not shown.
    assert!(!page.contains("<h2>Hidden</h2>"));

    let (ok, json) = previewd(&["preview", book.to_str().unwrap(), "--format", "json"]);
    assert!(ok, "{json}");
    let model: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(model["sheets"][0]["meta"]["name"], "SheetJS");

    // A long table is cut at the configured number of rows, with a note.
    let csv = dir.path().join("long.csv");
    let text: String = (1..=5000).map(|i| format!("{i},x\n")).collect();
    std::fs::write(&csv, text).unwrap();
    let out = dir.path().join("long.html");
    let (ok, log) = previewd(&[
        "preview",
        csv.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{log}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.contains("The first 1000 of 5000 rows are shown."),
        "{}",
        &page[page.len().saturating_sub(400)..]
    );
    assert!(page.contains("<th>1000</th>") && !page.contains("<th>1001</th>"));
}
