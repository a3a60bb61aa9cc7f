//! Where a floating object goes on its page: the position of a `wp:anchor` (or a VML shape
//! with `position:absolute`) turned into CSS (ECMA-376 §20.4.2.3 and §20.4.3).
//!
//! The page frame (`section.docx-page`, `position:relative`) is the reference box:
//! - wrap `none` (in front of or behind the text) becomes `position:absolute` at the
//!   anchor's point of the page; behind the text it sits under the text (`z-index:-1`
//!   inside the page's own stacking context);
//! - `square`, `tight` and `through` become a float on the side the object is nearest, moved
//!   by margins to its offset from the column, so the text wraps beside it;
//! - `topAndBottom` becomes a block at its horizontal offset, text above and below.
//!
//! There is no line layout, so the vertical position of a paragraph is not known here:
//! offsets from the paragraph or line are margins from where the object stands in the
//! text (the browser's "static position"); offsets from the page or margin are exact for
//! absolute objects. A square-wrapped object placed from the page or margin is put at its
//! place over the text (absolute), unless the renderer knows where its line starts (the
//! header's first line, at the header distance): then it floats from that line, moved
//! down by the difference, and the text (the body's too: they share the page's formatting
//! context) wraps beside it. A page frame holds everything up to the next page break, so
//! a page-relative object anchored far down a long frame still lands on the frame's first
//! page.

use super::model::{Anchor, PageSetup};

/// A placement computed for one object: CSS declarations for its box.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Placement {
    /// `position:absolute` from the page's top left; `top: None` keeps the object where
    /// it stands in the text, moved down by `shift`.
    Absolute {
        left: f32,
        top: Option<f32>,
        shift: f32,
        behind: bool,
        /// Stacking order among floating objects (`relativeHeight`, reduced): higher is
        /// nearer the reader.
        z: i64,
    },
    /// A float on the left (`right: false`) or right, `inset` from that column edge
    /// (negative: into the margin), `shift` down from its paragraph.
    Float { right: bool, inset: f32, shift: f32 },
    /// A block `left` of the column's left edge, `shift` down from its paragraph.
    Block { left: f32, shift: f32 },
}

/// Whether an object's vertical place is given from the page or one of its margins, not
/// from its paragraph or line.
pub(super) fn from_page(a: &Anchor) -> bool {
    !matches!(
        a.relative_v.as_deref(),
        None | Some("paragraph" | "line" | "char")
    )
}

/// Space between a float and the text beside it (Word's default `distL`/`distR`, 9 pt).
const GAP: f32 = 9.0;

/// The placement of an object of `width` × `height` points anchored on `page`, in a line
/// whose top on the page is `line_top` when the renderer knows it.
///
/// `relativeHeight` values are Word's z-order, about 2^28 plus 1,024 a step; a tenth of
/// their bits keeps the order in CSS's `z-index` range.
pub(super) fn place(
    a: &Anchor,
    width: f32,
    height: f32,
    page: &PageSetup,
    line_top: Option<f32>,
) -> Placement {
    let text_width = (page.width - page.margin_left - page.margin_right).max(0.0);
    // The horizontal reference box: its left edge from the page's and its width.
    let (ref_left, ref_width) = match a.relative_h.as_deref() {
        Some("page") => (0.0, page.width),
        Some("leftMargin" | "insideMargin") => (0.0, page.margin_left),
        Some("rightMargin" | "outsideMargin") => {
            (page.width - page.margin_right, page.margin_right)
        }
        // margin, column, character: the text column (one column: the margins).
        _ => (page.margin_left, text_width),
    };
    let x = aligned(
        a.align_h.as_deref(),
        offset(a.offset_h, a.share_h, ref_width),
        ref_left,
        ref_width,
        width,
    );
    let from_paragraph = !from_page(a);
    let y = if from_paragraph {
        None
    } else {
        let (top, extent) = match a.relative_v.as_deref() {
            Some("page") => (0.0, page.height),
            Some("topMargin" | "insideMargin") => (0.0, page.margin_top),
            Some("bottomMargin" | "outsideMargin") => {
                (page.height - page.margin_bottom, page.margin_bottom)
            }
            _ => (
                page.margin_top,
                (page.height - page.margin_top - page.margin_bottom).max(0.0),
            ),
        };
        Some(aligned(
            a.align_v.as_deref(),
            offset(a.offset_v, a.share_v, extent),
            top,
            extent,
            height,
        ))
    };
    // From the page or margin, the distance from the line the object stands in, where
    // that line's place is known.
    let from_line = y.zip(line_top).map(|(y, top)| y - top);
    let shift = if from_paragraph {
        a.offset_v.unwrap_or(0.0)
    } else {
        from_line.unwrap_or(0.0)
    };
    match a.wrap.as_str() {
        // A float can only start at its line: one placed from the page or margin is put
        // at its place, over the text, rather than where the text happens to be, unless
        // its line's place is known (the header's first line).
        "square" | "tight" | "through" if from_paragraph || from_line.is_some() => {
            let left_inset = x - page.margin_left;
            let right_inset = page.margin_left + text_width - (x + width);
            // The side with less room left over is the side the object hugs.
            let right = right_inset < left_inset;
            Placement::Float {
                right,
                inset: if right { right_inset } else { left_inset },
                shift,
            }
        }
        "topAndBottom" => Placement::Block {
            left: x - page.margin_left,
            shift,
        },
        _ => Placement::Absolute {
            left: x,
            top: y,
            shift,
            behind: a.behind_text,
            z: a.z_order.map_or(0, |z| i64::from(z >> 10)),
        },
    }
}

/// The size of an object of `width` × `height` points whose anchor gives a relative
/// width or height (Word 2010's `wp14:sizeRelH`/`sizeRelV`), on `page`: each relative
/// side is its share of its reference box, the other side keeps its stored extent.
///
/// The reference boxes follow MS-ODRAWXML (`ST_SizeRelFromH`/`ST_SizeRelFromV`):
/// `margin` is the text area between the margins, `page` the whole page, the margin
/// names one margin's strip; `insideMargin`/`outsideMargin` read as the left/top and
/// right/bottom margins, as on a page without mirrored margins.
pub(super) fn size(a: &Anchor, width: f32, height: f32, page: &PageSetup) -> (f32, f32) {
    let across = |from: &str| match from {
        "page" => page.width,
        "leftMargin" | "insideMargin" => page.margin_left,
        "rightMargin" | "outsideMargin" => page.margin_right,
        _ => page.width - page.margin_left - page.margin_right,
    };
    let down = |from: &str| match from {
        "page" => page.height,
        "topMargin" | "insideMargin" => page.margin_top,
        "bottomMargin" | "outsideMargin" => page.margin_bottom,
        _ => page.height - page.margin_top - page.margin_bottom,
    };
    let share = |r: &Option<super::model::RelativeSize>, reference: &dyn Fn(&str) -> f32, own| {
        r.as_ref()
            .map(|r| reference(&r.from).max(0.0) * r.fraction)
            .filter(|v| v.is_finite())
            .unwrap_or(own)
    };
    (
        share(&a.relative_width, &across, width),
        share(&a.relative_height, &down, height),
    )
}

/// An offset along one axis, points: its share of the reference box's `extent` (a
/// relative position) plus the offset in points.
fn offset(points: Option<f32>, share: Option<f32>, extent: f32) -> Option<f32> {
    match (points, share) {
        (p, Some(s)) => Some(s * extent + p.unwrap_or(0.0)),
        (p, None) => p,
    }
}

/// A position along one axis: the alignment inside the reference box when given, else
/// the offset from its start.
fn aligned(align: Option<&str>, offset: Option<f32>, start: f32, extent: f32, size: f32) -> f32 {
    let pos = match align {
        Some("left" | "top" | "inside") => start,
        Some("right" | "bottom" | "outside") => start + extent - size,
        Some("center") => start + (extent - size) / 2.0,
        _ => start + offset.unwrap_or(0.0),
    };
    if pos.is_finite() {
        pos
    } else {
        start
    }
}

/// Appends the CSS of `p` to `s` (numbers through `num`, the renderer's formatter).
pub(super) fn css(p: &Placement, s: &mut String, num: impl Fn(f32) -> String) {
    use std::fmt::Write as _;
    match *p {
        Placement::Absolute {
            left,
            top,
            shift,
            behind,
            z,
        } => {
            let _ = write!(s, "position:absolute;left:{}pt;", num(left));
            match top {
                Some(t) => {
                    let _ = write!(s, "top:{}pt;", num(t));
                }
                None if shift != 0.0 => {
                    let _ = write!(s, "margin-top:{}pt;", num(shift));
                }
                None => {}
            }
            // Behind the text: below the page's text (negative), still in their own order.
            let z = if behind { z - (1 << 23) } else { z + 1 };
            let _ = write!(s, "z-index:{z};");
        }
        Placement::Float {
            right,
            inset,
            shift,
        } => {
            let (side, far) = if right {
                ("right", "left")
            } else {
                ("left", "right")
            };
            let _ = write!(
                s,
                "float:{side};margin-{side}:{}pt;margin-{far}:{}pt;margin-top:{}pt;margin-bottom:{}pt;",
                num(inset),
                num(GAP),
                num(shift),
                num(GAP / 1.5)
            );
            // The text wraps beside the object, not beside the space above it that moves
            // it down: a float's margin box would shorten those lines too.
            if shift > 0.0 {
                let _ = write!(s, "shape-outside:inset({}pt 0 0 0);", num(shift));
            }
        }
        Placement::Block { left, shift } => {
            let _ = write!(
                s,
                "display:block;margin-left:{}pt;margin-top:{}pt;margin-bottom:6pt;",
                num(left),
                num(shift)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter() -> PageSetup {
        PageSetup {
            width: 612.0,
            height: 792.0,
            margin_top: 72.0,
            margin_right: 90.0,
            margin_bottom: 72.0,
            margin_left: 90.0,
            ..PageSetup::default()
        }
    }

    fn anchor(wrap: &str, h: (&str, Option<&str>, f32), v: (&str, Option<&str>, f32)) -> Anchor {
        Anchor {
            align_h: h.1.map(str::to_owned),
            offset_h: Some(h.2),
            share_h: None,
            relative_h: Some(h.0.to_owned()),
            align_v: v.1.map(str::to_owned),
            offset_v: Some(v.2),
            share_v: None,
            relative_v: Some(v.0.to_owned()),
            wrap: wrap.to_owned(),
            behind_text: false,
            z_order: None,
            relative_width: None,
            relative_height: None,
        }
    }

    #[test]
    fn in_front_objects_sit_at_their_page_or_margin_offset() {
        let a = anchor("none", ("page", None, 300.0), ("page", None, 400.0));
        assert_eq!(
            place(&a, 100.0, 50.0, &letter(), None),
            Placement::Absolute {
                left: 300.0,
                top: Some(400.0),
                shift: 0.0,
                behind: false,
                z: 0
            }
        );
        // From the margins: the margin box's corner plus the offset.
        let a = anchor("none", ("margin", None, 10.0), ("margin", None, 20.0));
        let Placement::Absolute { left, top, .. } = place(&a, 100.0, 50.0, &letter(), None) else {
            panic!("not absolute");
        };
        assert_eq!((left, top), (100.0, Some(92.0)));
        // Aligned: centred on the page, at the bottom of the margin box.
        let a = anchor(
            "none",
            ("page", Some("center"), 0.0),
            ("margin", Some("bottom"), 0.0),
        );
        let Placement::Absolute { left, top, .. } = place(&a, 100.0, 50.0, &letter(), None) else {
            panic!("not absolute");
        };
        assert_eq!((left, top), (256.0, Some(670.0)));
    }

    #[test]
    fn paragraph_offsets_stay_relative_and_behind_goes_under_the_text() {
        let mut a = anchor("none", ("column", None, 36.0), ("paragraph", None, 12.0));
        a.behind_text = true;
        a.z_order = Some(251_659_264);
        let p = place(&a, 100.0, 50.0, &letter(), None);
        assert_eq!(
            p,
            Placement::Absolute {
                left: 126.0,
                top: None,
                shift: 12.0,
                behind: true,
                z: 245_761
            }
        );
        let mut s = String::new();
        css(&p, &mut s, |v| v.to_string());
        assert_eq!(
            s,
            "position:absolute;left:126pt;margin-top:12pt;z-index:-8142847;"
        );
        // Square wrap placed from the page is put at its place, not floated.
        let a = anchor("square", ("page", None, 300.0), ("page", None, 20.0));
        assert!(matches!(
            place(&a, 100.0, 50.0, &letter(), None),
            Placement::Absolute {
                top: Some(20.0),
                ..
            }
        ));
        // Unless the top of its line is known: it floats from there (75 pt from the
        // page's top in a line at 36 pt), 22 pt in from the right margin, the nearer side.
        let a = anchor("square", ("page", None, 400.0), ("page", None, 75.0));
        assert_eq!(
            place(&a, 100.0, 50.0, &letter(), Some(36.0)),
            Placement::Float {
                right: true,
                inset: 22.0,
                shift: 39.0
            }
        );
    }

    #[test]
    fn square_wrap_floats_on_the_nearer_side_at_its_inset() {
        // 72 pt from the left margin: a left float moved 72 pt in.
        let a = anchor("square", ("margin", None, 72.0), ("paragraph", None, 0.0));
        assert_eq!(
            place(&a, 100.0, 50.0, &letter(), None),
            Placement::Float {
                right: false,
                inset: 72.0,
                shift: 0.0
            }
        );
        // Right-aligned to the page: a right float reaching 90 pt into the margin.
        let a = anchor(
            "square",
            ("page", Some("right"), 0.0),
            ("paragraph", None, 6.0),
        );
        assert_eq!(
            place(&a, 100.0, 50.0, &letter(), None),
            Placement::Float {
                right: true,
                inset: -90.0,
                shift: 6.0
            }
        );
        // Top and bottom: a block at its offset.
        let a = anchor(
            "topAndBottom",
            ("page", None, 190.0),
            ("paragraph", None, 0.0),
        );
        assert_eq!(
            place(&a, 100.0, 50.0, &letter(), None),
            Placement::Block {
                left: 100.0,
                shift: 0.0
            }
        );
    }
}
