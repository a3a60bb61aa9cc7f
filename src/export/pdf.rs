//! PDF: the page printed by Chromium (`Page.printToPDF`), so text stays selectable and
//! searchable and colours stay (backgrounds printed, screen media emulated).
//!
//! By default the PDF is one page exactly the size of the frame (CSS px / 96 = inches, no
//! margins). A4 or Letter paging shrinks the frame to the paper's printable width instead.
//! Either way the frame is refused when it is over the pixel cap at scale 1 (where a PNG
//! of it would be refused too) or taller than [`PDF_MAX_PAGES`] pages of
//! [`PDF_PAGE_CSS_PX`]. Chromium's own output meets the contract, so no PDF library
//! post-processes it.

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::PrintToPdfParams;

use super::browser::Lease;
use super::{measure_frame, ExportError};
use crate::diff::input::FileOptions;

/// Most pages a PDF may have (the contract's cap).
pub const PDF_MAX_PAGES: u32 = 50;

/// Height of one page for the page cap, CSS px (11 in at 96 px/in).
pub const PDF_PAGE_CSS_PX: f64 = 1056.0;

/// CSS px per inch.
const CSS_PX_PER_INCH: f64 = 96.0;

/// Viewport height while rendering, CSS px.
const VIEWPORT_HEIGHT: u32 = 900;

/// Page size of the PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PdfPaper {
    /// One page exactly the size of the frame.
    #[default]
    Frame,
    /// ISO A4 pages (210 × 297 mm), the frame scaled to the printable width.
    A4,
    /// US Letter pages (8.5 × 11 in), the frame scaled to the printable width.
    Letter,
}

impl PdfPaper {
    /// Paper width and height in inches, for paged sizes.
    fn inches(self) -> Option<(f64, f64)> {
        match self {
            PdfPaper::Frame => None,
            PdfPaper::A4 => Some((210.0 / 25.4, 297.0 / 25.4)),
            PdfPaper::Letter => Some((8.5, 11.0)),
        }
    }
}

/// Margin of paged sizes, inches.
const PAGED_MARGIN_IN: f64 = 0.4;

/// What to print.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOptions {
    /// Viewport width in CSS px; the image page's frame is exactly this wide.
    pub width: u32,
    /// Pixel cap (CSS px at scale 1) beyond which the frame is refused.
    pub max_pixels: u64,
    /// Page cap, counted in pages of [`PDF_PAGE_CSS_PX`].
    pub max_pages: u32,
    /// Page size.
    pub paper: PdfPaper,
}

impl From<&FileOptions> for PdfOptions {
    fn from(file: &FileOptions) -> Self {
        PdfOptions {
            width: file.max_width,
            max_pixels: file.max_pixels,
            max_pages: PDF_MAX_PAGES,
            paper: PdfPaper::Frame,
        }
    }
}

/// A printed PDF.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOutput {
    /// The PDF file.
    pub bytes: Vec<u8>,
    /// Pages: 1 for [`PdfPaper::Frame`], else as paginated by Chromium.
    pub pages: u32,
    /// The frame's width in CSS px.
    pub css_width: f64,
    /// The frame's height in CSS px.
    pub css_height: f64,
}

pub(crate) async fn render(
    lease: &Lease<'_>,
    html: String,
    options: &PdfOptions,
) -> Result<PdfOutput, ExportError> {
    let width = options.width.max(1);
    lease.set_viewport(width, VIEWPORT_HEIGHT, 1.0).await?;
    lease.load(html).await?;
    let frame = measure_frame(lease).await?;
    // The page is printed from its origin, so whatever lies above or left of the frame
    // (nothing, on the image page) counts too.
    let right = (frame.x + frame.width).ceil();
    let bottom = (frame.y + frame.height).ceil();
    let pages_by_height = (bottom / PDF_PAGE_CSS_PX).ceil();
    if right * bottom > options.max_pixels as f64 || pages_by_height > f64::from(options.max_pages)
    {
        return Err(ExportError::SizeLimit);
    }

    let builder = PrintToPdfParams::builder()
        .print_background(true)
        .display_header_footer(false)
        .prefer_css_page_size(false)
        .landscape(false);
    let params = match options.paper.inches() {
        None => builder
            .paper_width(right / CSS_PX_PER_INCH)
            .paper_height(bottom / CSS_PX_PER_INCH)
            .margin_top(0.0)
            .margin_bottom(0.0)
            .margin_left(0.0)
            .margin_right(0.0)
            .scale(1.0)
            // One page by construction; the range guards against a rounding sliver
            // spilling onto a blank second page.
            .page_ranges("1")
            .build(),
        Some((paper_w, paper_h)) => {
            let printable = (paper_w - 2.0 * PAGED_MARGIN_IN) * CSS_PX_PER_INCH;
            let scale = (printable / right).clamp(0.1, 1.0);
            builder
                .paper_width(paper_w)
                .paper_height(paper_h)
                .margin_top(PAGED_MARGIN_IN)
                .margin_bottom(PAGED_MARGIN_IN)
                .margin_left(PAGED_MARGIN_IN)
                .margin_right(PAGED_MARGIN_IN)
                .scale(scale)
                .build()
        }
    };
    let printed = lease
        .page()
        .execute(params)
        .await
        .map_err(|e| lease.browser_error("print the page", e))?;
    let data: &str = printed.result.data.as_ref();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|_| ExportError::Browser("the PDF was not base64".into()))?;
    if !bytes.starts_with(b"%PDF-") {
        return Err(ExportError::Browser("the browser returned no PDF".into()));
    }
    let pages = count_pages(&bytes);
    if pages == 0 || pages > options.max_pages {
        tracing::warn!(pages, "printed PDF has an unexpected page count");
        return Err(if pages > options.max_pages {
            ExportError::SizeLimit
        } else {
            ExportError::Browser("the printed PDF has no pages".into())
        });
    }
    if options.paper == PdfPaper::Frame && pages != 1 {
        tracing::warn!(pages, "a frame-sized PDF printed on more than one page");
        return Err(ExportError::Browser(
            "the frame did not print on one page".into(),
        ));
    }
    Ok(PdfOutput {
        bytes,
        pages,
        css_width: frame.width,
        css_height: frame.height,
    })
}

/// Page objects in a PDF as Chromium (Skia) writes it: uncompressed object dictionaries
/// with `/Type /Page`, distinct from the `/Type /Pages` tree nodes.
pub(crate) fn count_pages(pdf: &[u8]) -> u32 {
    const NEEDLE: &[u8] = b"/Type /Page";
    let mut count = 0;
    let mut i = 0;
    while let Some(at) = find(&pdf[i..], NEEDLE) {
        let end = i + at + NEEDLE.len();
        if pdf.get(end) != Some(&b's') {
            count += 1;
        }
        i = end;
    }
    count
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_counted_without_the_page_tree() {
        let pdf = b"%PDF-1.4\n1 0 obj\n<</Type /Pages /Count 2>>\n2 0 obj\n<</Type /Page /Parent 1 0 R>>\n3 0 obj\n<</Type /Page\n/Parent 1 0 R>>";
        assert_eq!(count_pages(pdf), 2);
        assert_eq!(count_pages(b"%PDF-1.4"), 0);
    }

    #[test]
    fn paged_sizes_are_in_inches() {
        assert_eq!(PdfPaper::Letter.inches(), Some((8.5, 11.0)));
        let (w, h) = PdfPaper::A4.inches().unwrap();
        assert!((w - 8.2677).abs() < 1e-3 && (h - 11.6929).abs() < 1e-3);
        assert_eq!(PdfPaper::Frame.inches(), None);
    }
}
