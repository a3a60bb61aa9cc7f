//! Text of one cell as drawable atoms, and line breaking like the viewer's
//! `white-space: pre-wrap; overflow-wrap: anywhere`.
//!
//! Every character becomes an atom one glyph advance wide (the shipped font is
//! monospaced, so ASCII sits on a grid; a fallback glyph keeps its own advance). Combining
//! marks have no advance and stack on the atom before them, at most [`MAX_MARKS`] of them
//! (a line of a thousand stacked marks costs no more than one with eight). Tabs advance to
//! the next stop of four spaces. Characters that would be invisible or would reorder the
//! text (C0 controls, DEL, BOM, bidi controls) are drawn as the viewer draws them: a small
//! pill with their control picture or `U+XXXX`. Nothing is ever reordered, so the picture
//! shows the bytes in logical order.

use super::fonts::{fonts, GlyphRef};
use crate::diff::view::is_hidden_control;

/// Combining marks drawn on one base character; further ones are dropped from the picture.
pub const MAX_MARKS: usize = 8;

/// Tab stops every this many spaces (the viewer's `tab-size: 4`).
pub const TAB_SIZE: f32 = 4.0;

/// Font size of a control pill relative to the text (`.ctl { font-size: 0.78em }`).
pub const PILL_SCALE: f32 = 0.78;
/// Horizontal padding inside a pill, CSS px.
pub const PILL_PAD: f32 = 3.0;
/// Margin on either side of a pill, CSS px.
pub const PILL_MARGIN: f32 = 1.0;

/// What an atom draws.
#[derive(Debug, Clone, PartialEq)]
pub enum AtomKind {
    /// A character with the marks stacked on it.
    Glyph {
        /// The character (for the PDF's text layer).
        ch: char,
        /// Its glyph.
        glyph: GlyphRef,
        /// Combining marks drawn at the same position.
        marks: Vec<(char, GlyphRef)>,
    },
    /// White space: a space, or a tab (whose width depends on where it lands).
    Space {
        /// Whether it is a tab.
        tab: bool,
    },
    /// A hidden control shown as a labelled pill.
    Pill {
        /// Control picture or `U+XXXX`.
        label: String,
    },
}

/// One drawable unit of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Atom {
    /// Byte offset of its character in the line text (for colours and word marks).
    pub byte: usize,
    /// Advance at the text's size, CSS px (a tab's is computed when placed).
    pub width: f32,
    /// What it draws.
    pub kind: AtomKind,
}

impl Atom {
    fn is_space(&self) -> bool {
        matches!(self.kind, AtomKind::Space { .. })
    }
}

/// Whether `c` is a combining mark that sits on the character before it.
pub fn is_combining(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A
        | 0x064B..=0x065F | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200D | 0x20D0..=0x20FF
        | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F | 0xE0100..=0xE01EF)
}

/// The label of a hidden control's pill, as the viewer writes it.
pub fn control_label(c: char) -> String {
    let code = c as u32;
    match code {
        0..=0x1f => char::from_u32(0x2400 + code).map(String::from),
        0x7f => Some("\u{2421}".to_string()),
        _ => None,
    }
    .unwrap_or_else(|| format!("U+{code:04X}"))
}

/// Width of a pill with `label` next to text of `size` px.
pub fn pill_width(label: &str, size: f32) -> f32 {
    text_width(label, size * PILL_SCALE, false) + 2.0 * (PILL_PAD + PILL_MARGIN)
}

/// Advance of a plain string (no tabs, no wrapping), CSS px.
pub fn text_width(s: &str, size: f32, bold: bool) -> f32 {
    let f = fonts();
    s.chars()
        .filter(|c| !is_combining(*c))
        .map(|c| {
            let g = f.resolve(c, bold);
            f.face(g.face).advance(g.gid, size)
        })
        .sum()
}

/// The atoms of `text` at `size` px; `bold_at(byte)` says which characters are bold.
pub fn atoms(text: &str, size: f32, bold_at: impl Fn(usize) -> bool) -> Vec<Atom> {
    let f = fonts();
    let space = {
        let g = f.resolve(' ', false);
        f.face(g.face).advance(g.gid, size)
    };
    let mut out: Vec<Atom> = Vec::with_capacity(text.len());
    for (byte, c) in text.char_indices() {
        if c == '\t' || c == ' ' {
            out.push(Atom {
                byte,
                width: space,
                kind: AtomKind::Space { tab: c == '\t' },
            });
        } else if is_hidden_control(c) {
            let label = control_label(c);
            out.push(Atom {
                byte,
                width: pill_width(&label, size),
                kind: AtomKind::Pill { label },
            });
        } else if is_combining(c) {
            if let Some(Atom {
                kind: AtomKind::Glyph { marks, .. },
                ..
            }) = out.last_mut()
            {
                if marks.len() < MAX_MARKS {
                    marks.push((c, f.resolve(c, bold_at(byte))));
                }
            }
            // A mark with nothing to sit on (line start, after a space) is not drawn.
        } else {
            let glyph = f.resolve(c, bold_at(byte));
            out.push(Atom {
                byte,
                width: f.face(glyph.face).advance(glyph.gid, size),
                kind: AtomKind::Glyph {
                    ch: c,
                    glyph,
                    marks: Vec::new(),
                },
            });
        }
    }
    out
}

/// Where an atom landed: its line (0-based) and x from the line's start, and its width
/// there (a tab's depends on its position).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// Line index.
    pub line: u32,
    /// Left edge, CSS px from the content start.
    pub x: f32,
    /// Advance where it landed.
    pub width: f32,
}

/// Breaks `atoms` into lines of at most `width` px (when `wrap`), returning each atom's
/// place and the line count (at least 1). A line breaks after a run of spaces when it can,
/// anywhere otherwise; spaces at a line's end hang past the edge, as in `pre-wrap`. Stops
/// early once `max_lines` lines are used (the caller is over its size limit then).
pub fn place(
    atoms: &[Atom],
    width: f32,
    space: f32,
    wrap: bool,
    max_lines: u32,
) -> (Vec<Placed>, u32) {
    let tab_stop = space * TAB_SIZE;
    let advance = |a: &Atom, x: f32| match a.kind {
        AtomKind::Space { tab: true } => {
            let next = ((x / tab_stop).floor() + 1.0) * tab_stop;
            // A tab narrower than half a space jumps to the stop after.
            if next - x < space / 2.0 {
                next + tab_stop - x
            } else {
                next - x
            }
        }
        _ => a.width,
    };
    let mut placed = Vec::with_capacity(atoms.len());
    let mut line = 0u32;
    let mut x = 0.0f32;
    let mut line_start = 0usize;
    // First atom after the latest run of spaces on this line: where it may break.
    let mut break_at: Option<usize> = None;
    let mut i = 0;
    while i < atoms.len() {
        let a = &atoms[i];
        let w = advance(a, x);
        let fits = !wrap || a.is_space() || x + w <= width + 0.01 || i == line_start;
        if !fits {
            if line + 1 >= max_lines {
                return (placed, line + 1);
            }
            line += 1;
            x = 0.0;
            if let Some(b) = break_at.filter(|&b| b > line_start && b <= i) {
                // Move the word that did not fit onto the new line.
                placed.truncate(b);
                i = b;
            }
            line_start = i;
            break_at = None;
            continue;
        }
        placed.push(Placed { line, x, width: w });
        x += w;
        if a.is_space() && atoms.get(i + 1).is_some_and(|n| !n.is_space()) {
            break_at = Some(i + 1);
        }
        i += 1;
    }
    (placed, line + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<Atom> {
        atoms(s, 10.0, |_| false)
    }

    #[test]
    fn long_words_break_anywhere_and_words_move_whole() {
        let a = chars("aaaa bbbb");
        let cell = a[0].width;
        // Room for six characters: "aaaa " then "bbbb" on the next line.
        let (p, lines) = place(&a, cell * 6.0, cell, true, 100);
        assert_eq!(lines, 2);
        assert_eq!(p.len(), a.len());
        assert_eq!((p[5].line, p[5].x), (1, 0.0));
        // One word of ten in a width of four: broken anywhere, three lines.
        let b = chars("cccccccccc");
        let (p, lines) = place(&b, cell * 4.0, cell, true, 100);
        assert_eq!(lines, 3);
        assert_eq!(p[4].line, 1);
        assert!(p.iter().all(|q| q.x < cell * 4.0));
    }

    #[test]
    fn tabs_go_to_the_next_stop() {
        let a = chars("a\tb");
        let cell = a[0].width;
        let (p, _) = place(&a, 1000.0, cell, false, 1);
        assert!((p[2].x - 4.0 * cell).abs() < 1e-3, "{:?}", p);
        let a = chars("\t\tx");
        let (p, _) = place(&a, 1000.0, cell, false, 1);
        assert!((p[2].x - 8.0 * cell).abs() < 1e-3);
    }

    #[test]
    fn marks_stack_and_are_bounded() {
        let s = format!("e{}", "\u{301}".repeat(1000));
        let a = chars(&s);
        assert_eq!(a.len(), 1);
        match &a[0].kind {
            AtomKind::Glyph { marks, .. } => assert_eq!(marks.len(), MAX_MARKS),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn controls_and_bidi_overrides_become_pills() {
        let a = chars("a\u{0}\u{202e}b");
        assert_eq!(a.len(), 4);
        assert_eq!(
            a[1].kind,
            AtomKind::Pill {
                label: "\u{2400}".into()
            }
        );
        assert_eq!(
            a[2].kind,
            AtomKind::Pill {
                label: "U+202E".into()
            }
        );
    }

    #[test]
    fn a_line_limit_stops_placing() {
        let a = chars(&"x".repeat(10_000));
        let cell = a[0].width;
        let (p, lines) = place(&a, cell * 10.0, cell, true, 5);
        assert_eq!(lines, 5);
        assert!(p.len() <= 50);
    }
}
