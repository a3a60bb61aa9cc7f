//! The Office container guard on arbitrary bytes: open, list, read every part as XML.

use previewd::office::{OfficeLimits, OfficePackage};

/// One input.
pub fn run(data: &[u8]) {
    let limits = OfficeLimits::default();
    let Ok(package) = OfficePackage::open(data, &limits) else {
        return;
    };
    let names: Vec<String> = package.part_names().map(str::to_owned).collect();
    for name in names {
        let _ = package.read_xml(&name, &[]);
        let _ = package.relationships(&name);
    }
}
