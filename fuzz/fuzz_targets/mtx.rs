//! MicroType Express on arbitrary bytes: as a bare MTX stream and as a compressed EOT.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::mtx::run(data));
