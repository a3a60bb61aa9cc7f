//! The lexical check of a request's relativePath: never panics, and anything it accepts is
//! relative, free of `..`, and normalised.

/// One input.
pub fn run(data: &str) {
    if let Ok(path) = previewd::workspace::check_relative_path(data, 4096) {
        let s = path.as_str();
        assert!(!s.is_empty() && !s.starts_with('/') && !s.contains('\\'));
        assert!(s
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != ".."));
    }
}
