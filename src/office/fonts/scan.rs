//! Reading the font folders without reading the fonts: every font file is opened once and
//! only its table directory and five small tables are read (`name`, `OS/2`, the head of
//! `post`, `head`, `hhea`), positioned reads of a few KiB a face.
//!
//! `fontdb` reads the same tables, but maps each whole file to do it; mapping and
//! unmapping the 200-odd files of a Debian font set cost about 9 CPU-ms, and the unmaps
//! stall the page faults of a thread rendering beside them, so the CLI's standalone page
//! (which scans on every run) was 6 ms slower for it. Here the few tables are copied into
//! a small sfnt of their own, which `fontdb` then names (family, weight, style) exactly as
//! it names a whole file.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Deepest folder nesting followed below a font folder.
const MAX_DEPTH: usize = 16;
/// Most font files read in one scan.
const MAX_FILES: usize = 20_000;
/// Most faces read from one collection.
const MAX_FACES: u32 = 64;
/// Largest `name` table read (a CJK face's is ≈ 30 KiB).
const MAX_NAME_BYTES: u32 = 1 << 20;

/// The tables a face's catalogue entry is read from, with the longest prefix of each that
/// is needed.
const TABLES: [(&[u8; 4], u32); 5] = [
    (b"name", MAX_NAME_BYTES),
    (b"OS/2", 100),
    (b"post", 16),
    (b"head", 54),
    (b"hhea", 36),
];

/// One face of a font file, as a small sfnt holding only the tables in [`TABLES`].
pub struct FaceHeader {
    /// The face's index in its file (0 unless the file is a collection).
    pub index: u32,
    /// The small sfnt.
    pub sfnt: Vec<u8>,
}

/// Every font file (`.ttf`, `.otf`, `.ttc`, `.otc`) under `dirs`, symlinks followed,
/// missing folders skipped.
pub fn font_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in dirs {
        walk(dir, 0, &mut out);
    }
    out
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if out.len() >= MAX_FILES {
            return;
        }
        let path = entry.path();
        // `metadata` follows symlinks, as font folders often hold links to shared files.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            walk(&path, depth + 1, out);
        } else if meta.is_file() && is_font_name(&path) {
            out.push(path);
        }
    }
}

fn is_font_name(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["ttf", "otf", "ttc", "otc"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

/// The faces of the font file at `path`; empty when it is not an sfnt or collection.
pub fn faces(path: &Path) -> Vec<FaceHeader> {
    let Ok(file) = File::open(path) else {
        return Vec::new();
    };
    let Some(header) = read_at(&file, 0, 12) else {
        return Vec::new();
    };
    let offsets: Vec<u32> = if header.starts_with(b"ttcf") {
        let count = be32(&header, 8).unwrap_or(0).min(MAX_FACES);
        match read_at(&file, 12, 4 * count as usize) {
            Some(list) => list.chunks_exact(4).filter_map(|c| be32(c, 0)).collect(),
            None => return Vec::new(),
        }
    } else {
        vec![0]
    };
    (0u32..)
        .zip(offsets)
        .filter_map(|(index, offset)| {
            let sfnt = face_sfnt(&file, u64::from(offset))?;
            Some(FaceHeader { index, sfnt })
        })
        .collect()
}

/// The face whose table directory is at `offset`, as a small sfnt of the tables in
/// [`TABLES`] it has (it must have `name`).
fn face_sfnt(file: &File, offset: u64) -> Option<Vec<u8>> {
    let header = read_at(file, offset, 12)?;
    let tag = be32(&header, 0)?;
    // TrueType outlines (0x00010000 or 'true') or CFF ('OTTO').
    if ![
        0x0001_0000,
        u32::from_be_bytes(*b"true"),
        u32::from_be_bytes(*b"OTTO"),
    ]
    .contains(&tag)
    {
        return None;
    }
    let count = usize::from(u16::from_be_bytes([header[4], header[5]]));
    let records = read_at(file, offset + 12, 16 * count)?;
    let mut tables: Vec<(&[u8; 4], Vec<u8>)> = Vec::new();
    for (tag, longest) in TABLES {
        let Some(record) = records.chunks_exact(16).find(|r| &r[..4] == tag) else {
            continue;
        };
        let at = be32(record, 8)?;
        let len = be32(record, 12)?.min(longest);
        tables.push((tag, read_at(file, u64::from(at), len as usize)?));
    }
    if !tables.iter().any(|(tag, _)| *tag == b"name") {
        return None;
    }
    Some(sfnt(&header[..4], &mut tables))
}

/// A single-face sfnt of `tables` (no checksums: nothing here checks them).
fn sfnt(version: &[u8], tables: &mut [(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    // Readers find a table by binary search: the directory is sorted by tag.
    tables.sort_by_key(|t| *t.0);
    let count = tables.len() as u16;
    let mut out = Vec::with_capacity(
        12 + 16 * tables.len() + tables.iter().map(|t| t.1.len() + 3).sum::<usize>(),
    );
    out.extend_from_slice(version);
    out.extend_from_slice(&count.to_be_bytes());
    out.extend_from_slice(&[0; 6]);
    let mut at = 12 + 16 * tables.len();
    for (tag, data) in tables.iter() {
        out.extend_from_slice(*tag);
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(at as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        at += data.len().next_multiple_of(4);
    }
    for (_, data) in tables.iter() {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

fn read_at(file: &File, at: u64, len: usize) -> Option<Vec<u8>> {
    let mut buf = vec![0; len];
    file.read_exact_at(&mut buf, at).ok()?;
    Some(buf)
}

fn be32(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_gives_each_face_with_its_names() {
        let dir = tempfile::tempdir().unwrap();
        // Two faces of previewd's own fonts in one collection, by hand.
        let a = crate::office::fonts::catalog::BUILTIN[0];
        let b = crate::office::fonts::catalog::BUILTIN[1];
        let mut ttc = b"ttcf\0\x01\0\0\0\0\0\x02".to_vec();
        let first = 12 + 8;
        let second = first + a.len();
        ttc.extend_from_slice(&(first as u32).to_be_bytes());
        ttc.extend_from_slice(&(second as u32).to_be_bytes());
        // Table offsets in a collection are from the file's start: shift each face's.
        for (face, base) in [(a, first), (b, second)] {
            let mut face = face.to_vec();
            let n = usize::from(u16::from_be_bytes([face[4], face[5]]));
            for t in 0..n {
                let at = 12 + 16 * t + 8;
                let off = be32(&face, at).unwrap() + base as u32;
                face[at..at + 4].copy_from_slice(&off.to_be_bytes());
            }
            ttc.extend_from_slice(&face);
        }
        let path = dir.path().join("pair.TTC");
        std::fs::write(&path, &ttc).unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"not a font").unwrap();
        std::fs::write(dir.path().join("broken.ttf"), b"\0\x01\0\0\xff\xff").unwrap();
        assert_eq!(font_files(&[dir.path().into()]).len(), 2);
        let faces = faces(&path);
        assert_eq!(faces.iter().map(|f| f.index).collect::<Vec<_>>(), [0, 1]);
        let mut db = fontdb::Database::new();
        for face in faces {
            db.load_font_data(face.sfnt);
        }
        let named: Vec<_> = db
            .faces()
            .map(|f| {
                (
                    f.families[0].0.clone(),
                    f.weight.0,
                    f.post_script_name.clone(),
                )
            })
            .collect();
        assert_eq!(
            named,
            [
                ("Gelasio".to_owned(), 400, "Gelasio-Regular".to_owned()),
                ("Gelasio".to_owned(), 700, "Gelasio-Bold".to_owned()),
            ]
        );
        assert!(self::faces(&dir.path().join("broken.ttf")).is_empty());
    }
}
