//! The input of the native export benchmarks: the 200-line diff (every other line
//! changed) at the `standard` preset, as `benches/native_http.py` posts it. Included by
//! `benches/native.rs` and `examples/native_ir.rs` (`#[path]`), so both measure one input.

use previewd::diff::{build_model, DiffDefaults, DiffModel, DiffRequest};

/// The request body of the 200-line diff as `format` (`"png"` or `"pdf"`).
pub fn body(format: &str) -> serde_json::Value {
    let before: String = (0..200)
        .map(|i| format!("    let value_{i} = compute({i}, &state); // line {i}\n"))
        .collect();
    let after: String = (0..200)
        .map(|i| {
            if i % 2 == 1 {
                format!("    let value_{i} = compute_fast({i}, &state); // line {i}\n")
            } else {
                format!("    let value_{i} = compute({i}, &state); // line {i}\n")
            }
        })
        .collect();
    serde_json::json!({
        "before": before, "after": after, "path": "src/lib.rs", "mode": "file",
        "fileFormat": format, "fileQuality": "standard",
    })
}

/// The parsed request and its diff model.
#[allow(dead_code)] // The example parses the body itself, as a request does.
pub fn diff_200(format: &str) -> (DiffRequest, DiffModel) {
    let request = DiffRequest::from_json(&body(format), &DiffDefaults::default()).unwrap();
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}
