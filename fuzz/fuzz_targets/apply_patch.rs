//! The agent `apply_patch` grammar: never panics; errors name a line inside the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &str| {
    if let Err(e) = previewd::activity::parse_patch(data) {
        assert!(e.line <= data.split('\n').count() + 2);
    }
});
