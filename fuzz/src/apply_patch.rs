//! The agent `apply_patch` grammar: never panics; errors name a line inside the input.

/// One input.
pub fn run(data: &str) {
    if let Err(e) = previewd::activity::parse_patch(data) {
        assert!(e.line <= data.split('\n').count() + 2);
    }
}
