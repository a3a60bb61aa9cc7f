//! The PDF stage's pre-scan, parser and model (outline, links, fonts) on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use previewd::pdf::{PdfDocument, PdfLimits};

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = PdfDocument::open(data.to_vec().into(), &PdfLimits::default()) {
        std::hint::black_box(&doc.model);
    }
});
