//! The native export on arbitrary before/after texts: layout, PNG and PDF never panic, and
//! stay within the caps (a size-limit error is a valid answer).

use previewd::diff::{build_model, DiffDefaults, DiffOutcome, DiffRequest};

/// One input.
pub fn run(data: &[u8]) {
    // First byte: options; the rest split at the first NUL into before and after.
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (before, after) = text.split_once('\0').unwrap_or((&text, ""));
    let body = serde_json::json!({
        "before": before,
        "after": after,
        "path": if flags & 1 == 0 { "a.rs" } else { "notes.txt" },
        "layout": if flags & 2 == 0 { "unified" } else { "split" },
        "theme": if flags & 4 == 0 { "light" } else { "dark" },
        "fileFormat": if flags & 8 == 0 { "png" } else { "pdf" },
        "fileScale": 1,
        "fileMaxWidth": 640,
    });
    let Ok(request) = DiffRequest::from_json(&body, &DiffDefaults::default()) else {
        return;
    };
    if let Ok(DiffOutcome::Changed(model)) = build_model(&request) {
        if let Ok(out) = previewd::export::native::render(&request, &model) {
            assert!(u64::from(out.width) * u64::from(out.height) <= request.file.max_pixels);
        }
    }
}
