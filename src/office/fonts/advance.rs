//! Advance widths of a catalogued face, for the few layout decisions previewd makes on
//! the server (which tab stop a tab reaches): the browser lays the text out itself, in
//! the same served face, so the widths here are the widths the reader sees.
//!
//! The face's file is read the first time text in it is measured and kept for the
//! process's life (clones share it), so a deck of tabbed lists costs one read per face.
//! Widths are the sum of the glyphs' horizontal advances (`hmtx` via ttf-parser, which
//! the catalogue already depends on): no kerning, as PowerPoint applies none unless a
//! run asks for it, and no shaping, which Latin text in these faces does not need.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::catalog::{extract_face, read_capped};

/// Where a face's bytes come from.
#[derive(Debug, Clone)]
pub(super) enum AdvanceSource {
    /// Face `index` of a font file (capped at `max_bytes`).
    File {
        path: PathBuf,
        index: u32,
        max_bytes: u64,
    },
    /// A face previewd ships.
    Builtin(&'static [u8]),
}

/// The advance widths of one face, read on first use.
#[derive(Clone)]
pub struct Advances(Arc<Inner>);

struct Inner {
    source: AdvanceSource,
    /// The single-face sfnt, or `None` when it could not be read.
    data: OnceLock<Option<Vec<u8>>>,
}

impl std::fmt::Debug for Advances {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Advances")
            .field("source", &self.0.source)
            .field("loaded", &self.0.data.get().is_some())
            .finish()
    }
}

impl Advances {
    pub(super) fn new(source: AdvanceSource) -> Advances {
        Advances(Arc::new(Inner {
            source,
            data: OnceLock::new(),
        }))
    }

    fn data(&self) -> Option<&[u8]> {
        self.0
            .data
            .get_or_init(|| match &self.0.source {
                AdvanceSource::Builtin(data) => Some(data.to_vec()),
                AdvanceSource::File {
                    path,
                    index,
                    max_bytes,
                } => {
                    let data = read_capped(path, *max_bytes)?;
                    if data.starts_with(b"ttcf") {
                        extract_face(&data, *index)
                    } else {
                        Some(data)
                    }
                }
            })
            .as_deref()
    }

    /// The width of `text` in em (a tab, a line break or a character the face lacks
    /// counts as half an em, a common glyph's width); `None` when the face's file cannot
    /// be read.
    pub fn width_em(&self, text: &str) -> Option<f64> {
        let face = ttf_parser::Face::parse(self.data()?, 0).ok()?;
        let em = f64::from(face.units_per_em());
        if em < 16.0 {
            return None;
        }
        Some(
            text.chars()
                .map(|c| {
                    face.glyph_index(c)
                        .filter(|_| !c.is_control())
                        .and_then(|g| face.glyph_hor_advance(g))
                        .map_or(0.5, |a| f64::from(a) / em)
                })
                .sum(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_face_measures_its_own_glyphs() {
        let Some(data) = super::super::catalog::BUILTIN.first() else {
            panic!("previewd ships at least one face");
        };
        let a = Advances::new(AdvanceSource::Builtin(data));
        let one = a.width_em("M").expect("the face parses");
        assert!(one > 0.3 && one < 1.5, "{one}");
        let two = a.width_em("MM").expect("the face parses");
        assert!((two - 2.0 * one).abs() < 1e-9);
        // A narrow letter is narrower than a wide one.
        assert!(a.width_em("i").unwrap() < one);
        assert_eq!(a.width_em("").unwrap(), 0.0);
    }

    #[test]
    fn an_unreadable_file_measures_nothing() {
        let a = Advances::new(AdvanceSource::File {
            path: PathBuf::from("/nonexistent/previewd-font.ttf"),
            index: 0,
            max_bytes: 1 << 20,
        });
        assert_eq!(a.width_em("abc"), None);
    }
}
