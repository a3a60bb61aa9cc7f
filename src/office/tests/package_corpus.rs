//! Every corpus package opens, finds its main part and reads all of its parts.

use std::path::PathBuf;

use super::support::DOCX_CORPUS;
use crate::office::ns::rel_type;
use crate::office::{OfficeLimits, OfficePackage};

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(DOCX_CORPUS)
        .expect("DOCX corpus present")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "docx"))
        .collect();
    files.sort();
    assert!(files.len() >= 60, "corpus has {} files", files.len());
    files
}

#[test]
fn every_corpus_package_opens_and_reads() {
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        let package = OfficePackage::open(&bytes, &OfficeLimits::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let main = package.main_part().unwrap();
        assert_eq!(main.name, "word/document.xml", "{}", path.display());
        let rels = package.relationships(&main.name).unwrap();
        for name in package.part_names().map(str::to_owned).collect::<Vec<_>>() {
            if name.ends_with(".xml") || name.ends_with(".rels") {
                package
                    .read_xml(&name, &[])
                    .unwrap_or_else(|e| panic!("{} {name}: {e}", path.display()));
            } else {
                package.read_part(&name).unwrap();
            }
        }
        // Strict packages use purl.oclc.org types; they must read like transitional ones.
        if path.ends_with("mammoth-strict-format.docx") {
            assert_eq!(rels.part_of_type(rel_type::STYLES), Some("word/styles.xml"));
        }
    }
}

#[test]
fn core_properties_are_read() {
    let path = format!("{DOCX_CORPUS}/python-docx-doc-coreprops.docx");
    let bytes = std::fs::read(path).unwrap();
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    let core = package.core_properties().unwrap();
    assert_eq!(core.title.as_deref(), Some("Title"));
    assert_eq!(core.creator.as_deref(), Some("Steve Canny"));
    assert_eq!(core.keywords.as_deref(), Some("key; word; keyword"));

    let path = format!("{DOCX_CORPUS}/python-docx-doc-no-coreprops.docx");
    let bytes = std::fs::read(path).unwrap();
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    assert_eq!(package.core_properties().unwrap().title, None);
}

#[test]
fn external_picture_relationship_is_kept_as_link() {
    let path = format!("{DOCX_CORPUS}/mammoth-external-picture.docx");
    let bytes = std::fs::read(path).unwrap();
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    let rels = package.relationships("word/document.xml").unwrap();
    assert_eq!(
        rels.get("rId2").unwrap().target,
        crate::office::RelTarget::External("tiny-picture.png".into())
    );
}

#[test]
fn package_relative_absolute_target_resolves() {
    let path = format!("{DOCX_CORPUS}/mammoth-utf8-bom.docx");
    let bytes = std::fs::read(path).unwrap();
    let package = OfficePackage::open(&bytes, &OfficeLimits::default()).unwrap();
    assert_eq!(package.main_part().unwrap().name, "word/document.xml");
}
