//! The CSV stage on arbitrary bytes: encoding detection, delimiter sniffing, quoting and
//! the first block of the grid.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::csv_sniff::run(data));
