//! Every corpus document parses, and every `w:t` of its main part reaches the model in
//! document order.

use super::support::{main_part_texts, DOCX_CORPUS};
use crate::office::docx::parse_docx;
use crate::office::OfficeLimits;

#[test]
fn every_corpus_document_parses_without_losing_text() {
    let mut files: Vec<_> = std::fs::read_dir(DOCX_CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "docx"))
        .collect();
    files.sort();
    assert!(files.len() >= 60);
    let mut checked_texts = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let doc = parse_docx(&bytes, &OfficeLimits::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let body = doc.body_text();
        let mut cursor = 0;
        for text in main_part_texts(&bytes) {
            match body[cursor..].find(&text) {
                Some(at) => cursor += at + text.len(),
                None => panic!(
                    "{}: text {text:?} missing or out of order after byte {cursor}",
                    path.display()
                ),
            }
            checked_texts += 1;
        }
        // The model serialises (the model.json view).
        serde_json::to_string(&doc).unwrap();
    }
    assert!(checked_texts >= 260, "only {checked_texts} texts checked");
}

#[test]
fn bench_reports_parse_without_losing_text() {
    for name in ["report-60p.docx", "report-300p.docx"] {
        let path = format!("{DOCX_CORPUS}/../../bench/{name}");
        let bytes = std::fs::read(&path).unwrap();
        let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
        let body = doc.body_text();
        let mut cursor = 0;
        for text in main_part_texts(&bytes) {
            let at = body[cursor..]
                .find(&text)
                .unwrap_or_else(|| panic!("{name}: {text:?} missing"));
            cursor += at + text.len();
        }
        assert!(
            !doc.headers_footers.is_empty(),
            "{name} has a header and footer"
        );
        assert!(doc.media.len() >= 10, "{name} has pictures");
    }
}
