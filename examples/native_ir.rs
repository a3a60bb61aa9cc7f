//! A small driver for counting the instructions of one native diff export under
//! `valgrind --tool=callgrind`: instruction counts repeat under load, where wall-clock
//! figures on a shared machine do not.
//!
//! It renders the benchmarks' 200-line diff (`benches/common/native_diff.rs`) once to warm
//! the caches (fonts, glyphs, highlighted lines), then `N` more times through [`warm`],
//! each time as a request does: parse the body, build the diff model, render. Counting
//! only [`warm`] leaves start-up out:
//!
//! ```sh
//! cargo build --release --example native_ir
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='native_ir::warm' \
//!     --callgrind-out-file=/tmp/ir.out $CARGO_TARGET_DIR/release/examples/native_ir png 2
//! callgrind_annotate /tmp/ir.out | head -40     # Ir of 2 warm renders, hot functions
//! ```
//!
//! Arguments: the format (`png`, default, or `pdf`) and `N` (default 1). `OUT=PATH`
//! writes the last file. Prints the file's size, scale and PNG colour type.

use previewd::diff::{build_model, DiffDefaults, DiffRequest};
use previewd::export::native::{self, NativeOutput};

#[path = "../benches/common/native_diff.rs"]
mod native_diff;

/// One export as a request makes it: body → request → model → file.
#[inline(never)]
fn export(body: &serde_json::Value) -> NativeOutput {
    let request = DiffRequest::from_json(body, &DiffDefaults::default()).expect("request");
    let outcome = build_model(&request).expect("model");
    let model = outcome.model().expect("a file diff");
    native::render(&request, model).expect("render")
}

/// The measured renders (the callgrind toggle's function).
#[inline(never)]
fn warm(body: &serde_json::Value, n: usize) -> NativeOutput {
    let mut last = export(body);
    for _ in 1..n {
        last = std::hint::black_box(export(body));
    }
    last
}

fn main() {
    let mut args = std::env::args().skip(1);
    let format = args.next().unwrap_or_else(|| "png".into());
    let n: usize = args.next().map_or(1, |a| a.parse().expect("N: a count"));
    let body = native_diff::body(&format);
    std::hint::black_box(export(&body));
    let out = warm(&body, n.max(1));
    // PNG colour type: byte 25 (3 = palette, 2 = RGB).
    let kind = match (format.as_str(), out.bytes.get(25)) {
        ("png", Some(3)) => "palette",
        ("png", Some(2)) => "RGB",
        ("png", _) => "other",
        _ => "pdf",
    };
    println!(
        "{format} {}x{} scale {} {} bytes {kind}",
        out.width,
        out.height,
        out.scale,
        out.bytes.len()
    );
    if let Some(path) = std::env::var_os("OUT") {
        std::fs::write(path, &out.bytes).expect("writing OUT");
    }
}
