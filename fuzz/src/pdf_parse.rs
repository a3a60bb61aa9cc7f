//! The PDF stage's pre-scan, parser and model (outline, links, fonts) on arbitrary bytes.

use previewd::pdf::{PdfDocument, PdfLimits};

/// One input.
pub fn run(data: &[u8]) {
    if let Ok(doc) = PdfDocument::open(data.to_vec().into(), &PdfLimits::default()) {
        std::hint::black_box(&doc.model);
    }
}
