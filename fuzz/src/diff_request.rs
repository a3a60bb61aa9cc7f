//! The `diffs` tool contract on arbitrary request bodies, then the model and the viewer.

use previewd::diff::{build_model, DiffDefaults, DiffOutcome, DiffRequest};

/// One input.
pub fn run(data: &[u8]) {
    let Ok(request) = DiffRequest::from_json_bytes(data, &DiffDefaults::default()) else {
        return;
    };
    if let Ok(DiffOutcome::Changed(model)) = build_model(&request) {
        let options = previewd::diff::view::ViewOptions::from_request(
            &request,
            previewd::diff::view::Variant::Viewer,
        );
        let _ = previewd::diff::view::render(&model, &options);
    }
}
