//! Markdown rendering and sanitising: never panics and never lets a script element out.

/// One input.
pub fn run(data: &str) {
    let html = previewd::preview::markdown::render(data, "docs", "doc/");
    assert!(!html.to_ascii_lowercase().contains("<script"));
}
