//! A page's raster and text layer on arbitrary content streams: the input becomes the
//! content of one page (so the fuzzer explores operators, not file syntax), then the whole
//! input is also tried as a file.

use previewd::pdf::writer::{document, PageSpec};
use previewd::pdf::{PdfDocument, PdfLimits};

/// One input.
pub fn run(data: &[u8]) {
    let limits = PdfLimits {
        // Small pages keep each run quick; the caps themselves are what is under test.
        max_page_pixels: 200_000,
        page_timeout_ms: 1_000,
        ..PdfLimits::default()
    };
    let page = PageSpec {
        content: String::from_utf8_lossy(data).into_owned(),
        ..PageSpec::new(300.0, 300.0)
    };
    let file = document(&[page], "fuzz", &[]);
    for bytes in [file, data.to_vec()] {
        if let Ok(doc) = PdfDocument::open(bytes.into(), &limits) {
            let _ = doc.render(0, 1.0);
            let _ = doc.text(0);
        }
    }
}
