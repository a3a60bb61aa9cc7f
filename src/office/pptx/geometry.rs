//! Shape outlines for slides: preset geometries and custom geometry (`a:custGeom`)
//! through the shared DrawingML engine ([`crate::office::drawingml`]: the standard's
//! preset definitions and one guide evaluator), and arrow heads.
//!
//! Custom geometry is evaluated when parsing (its guides need the shape size, in EMU)
//! and stored in the model as plain commands in each path's own coordinate space;
//! presets are evaluated when rendering, at the shape size in points.

use crate::office::drawingml::{self, parse, Command, FillMode, Path, PathBuilder};
use crate::office::xml::Element;

use super::model::EMU_PER_POINT;
use super::model::{Frame, GeomPath, Geometry, LineEnd, PathCommand};

pub(super) use crate::office::drawingml::SubPath;

/// A point.
pub(super) type P = (f64, f64);

/// A geometry drawn in a box of `w` × `h` points: its sub-paths and its text rectangle
/// `[left, top, right, bottom]` in points of the box.
pub(super) struct Outline {
    /// The sub-paths, in drawing order.
    pub(super) paths: Vec<SubPath>,
    /// Where text goes.
    pub(super) text_rect: [f64; 4],
}

/// The outline of `geometry` in a box of `w` × `h` points.
pub(super) fn outline(geometry: &Geometry, w: f64, h: f64) -> Outline {
    match geometry {
        Geometry::Preset { name, adjust } => {
            let o = drawingml::preset_outline(name, w, h, adjust);
            Outline {
                paths: drawingml::svg_paths(&o.paths, w, h),
                text_rect: o.text_rect,
            }
        }
        Geometry::Custom { paths } => {
            let paths: Vec<Path> = paths.iter().map(engine_path).collect();
            Outline {
                paths: drawingml::svg_paths(&paths, w, h),
                text_rect: [0.0, 0.0, w, h],
            }
        }
    }
}

/// The room between the shape box and a text rectangle `[l, t, r, b]` (points), as
/// insets in EMU (left, top, right, bottom), mirrored with the shape's flips (the
/// geometry flips, the text does not) and never negative.
pub(super) fn text_insets(rect: [f64; 4], f: &Frame) -> [i64; 4] {
    let w = f.width as f64 / EMU_PER_POINT;
    let h = f.height as f64 / EMU_PER_POINT;
    let [l, t, r, b] = rect;
    let (mut left, mut right) = (l, w - r);
    let (mut top, mut bottom) = (t, h - b);
    if f.flip_h {
        std::mem::swap(&mut left, &mut right);
    }
    if f.flip_v {
        std::mem::swap(&mut top, &mut bottom);
    }
    [left, top, right, bottom].map(|v| (v.max(0.0) * EMU_PER_POINT).round().min(1e12) as i64)
}

/// The sub-paths that draw `geometry` in a box of `w` × `h` points.
pub(super) fn shape_paths(geometry: &Geometry, w: f64, h: f64) -> Vec<SubPath> {
    outline(geometry, w, h).paths
}

/// A model path as the engine's evaluated path.
pub(crate) fn engine_path(p: &GeomPath) -> Path {
    Path {
        width: p.width,
        height: p.height,
        fill: if p.fill {
            FillMode::Norm
        } else {
            FillMode::None
        },
        stroke: p.stroke,
        commands: p
            .commands
            .iter()
            .map(|c| match *c {
                PathCommand::MoveTo { x, y } => Command::MoveTo(x, y),
                PathCommand::LineTo { x, y } => Command::LineTo(x, y),
                PathCommand::ArcTo {
                    wr,
                    hr,
                    start,
                    swing,
                } => Command::ArcTo {
                    wr,
                    hr,
                    start,
                    swing,
                },
                PathCommand::QuadTo { x1, y1, x, y } => Command::QuadTo((x1, y1), (x, y)),
                PathCommand::CubicTo {
                    x1,
                    y1,
                    x2,
                    y2,
                    x,
                    y,
                } => Command::CubicTo((x1, y1), (x2, y2), (x, y)),
                PathCommand::Close => Command::Close,
            })
            .collect(),
    }
}

/// SVG for an arrow head at `tip`, arriving from `from`, for a line `width` points
/// wide. Filled heads use `fill`; the open `arrow` kind is stroked.
pub(super) fn arrow_head(end: &LineEnd, tip: P, from: P, width: f64) -> (String, bool) {
    let scale = |s: &str| match s {
        "sm" => 2.0,
        "lg" => 5.0,
        _ => 3.0,
    };
    let lw = width.max(1.0);
    let half = scale(&end.width) * lw / 2.0;
    let len = scale(&end.length) * lw;
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let norm = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if norm > 1e-9 {
        (dx / norm, dy / norm)
    } else {
        (1.0, 0.0)
    };
    let (nx, ny) = (-uy, ux);
    let at = |along: f64, across: f64| {
        (
            tip.0 - ux * along + nx * across,
            tip.1 - uy * along + ny * across,
        )
    };
    let pts: Vec<P> = match end.kind.as_str() {
        "stealth" => vec![
            at(0.0, 0.0),
            at(len, half),
            at(len * 0.6, 0.0),
            at(len, -half),
        ],
        "diamond" => vec![
            at(-len / 2.0, 0.0),
            at(0.0, half),
            at(len / 2.0, 0.0),
            at(0.0, -half),
        ],
        "oval" => {
            let mut b = PathBuilder::new();
            b.ellipse(tip.0, tip.1, len / 2.0, half);
            return (b.finish().d, true);
        }
        "arrow" => {
            let mut b = PathBuilder::new();
            b.m(at(len, half)).l(at(0.0, 0.0)).l(at(len, -half));
            return (b.finish().d, false);
        }
        _ => vec![at(0.0, 0.0), at(len, half), at(len, -half)],
    };
    let mut b = PathBuilder::new();
    b.poly(&pts);
    (b.finish().d, true)
}

/// Reads an `a:custGeom` for a shape of `w` × `h` EMU, evaluating its guides with the
/// engine.
pub(super) fn custom_geometry(el: Element<'_>, w: f64, h: f64) -> Geometry {
    Geometry::Custom {
        paths: custom_paths(el, w, h),
    }
}

/// The paths of an `a:custGeom` for a shape of `w` × `h` (EMU, or a group's child
/// units), guides evaluated. A path without its own `w`/`h` is in the shape's units: it
/// gets the shape's size, so a renderer can scale every path the same way. Shared with
/// the DOCX renderer, whose shapes use the same DrawingML.
pub(crate) fn custom_paths(el: Element<'_>, w: f64, h: f64) -> Vec<GeomPath> {
    let def = parse::geometry(el, parse::DOCUMENT_LIMITS);
    let outline = drawingml::evaluate(&def, w, h, &[]);
    outline
        .paths
        .into_iter()
        .map(|p| GeomPath {
            width: if p.width > 0.0 { p.width } else { w },
            height: if p.height > 0.0 { p.height } else { h },
            fill: p.fill != FillMode::None,
            stroke: p.stroke,
            commands: p
                .commands
                .into_iter()
                .map(|c| match c {
                    Command::MoveTo(x, y) => PathCommand::MoveTo { x, y },
                    Command::LineTo(x, y) => PathCommand::LineTo { x, y },
                    Command::ArcTo {
                        wr,
                        hr,
                        start,
                        swing,
                    } => PathCommand::ArcTo {
                        wr,
                        hr,
                        start,
                        swing,
                    },
                    Command::QuadTo((x1, y1), (x, y)) => PathCommand::QuadTo { x1, y1, x, y },
                    Command::CubicTo((x1, y1), (x2, y2), (x, y)) => PathCommand::CubicTo {
                        x1,
                        y1,
                        x2,
                        y2,
                        x,
                        y,
                    },
                    Command::Close => PathCommand::Close,
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str, w: f64, h: f64, adjust: &[(String, f64)]) -> Outline {
        outline(
            &Geometry::Preset {
                name: name.to_owned(),
                adjust: adjust.to_vec(),
            },
            w,
            h,
        )
    }

    fn d(name: &str, w: f64, h: f64) -> String {
        preset(name, w, h, &[]).paths[0].d.clone()
    }

    #[test]
    fn simple_presets() {
        assert_eq!(d("rect", 10.0, 5.0), "M0 0L10 0L10 5L0 5Z");
        // The standard's diamond starts at its left corner.
        assert_eq!(d("diamond", 10.0, 4.0), "M0 2L5 0L10 2L5 4Z");
        assert_eq!(d("triangle", 10.0, 4.0), "M0 4L5 0L10 4Z");
        assert_eq!(
            d("rightArrow", 100.0, 50.0),
            "M0 12.5L75 12.5L75 0L100 25L75 50L75 37.5L0 37.5Z"
        );
        assert_eq!(
            d("chevron", 100.0, 40.0),
            "M0 0L80 0L100 20L80 40L0 40L20 20Z"
        );
        // Unknown presets draw their box.
        assert_eq!(d("noSuchPreset", 2.0, 2.0), "M0 0L2 0L2 2L0 2Z");
    }

    #[test]
    fn adjusted_round_rect_and_star() {
        let p = preset("roundRect", 100.0, 50.0, &[("adj".to_owned(), 20_000.0)]);
        assert!(p.paths[0].d.starts_with("M0 10C"), "{}", p.paths[0].d);
        let star = d("star5", 100.0, 100.0);
        assert_eq!(star.matches('L').count(), 9);
        assert!(star.starts_with("M"));
    }

    #[test]
    fn lines_know_their_ends() {
        let p = &preset("straightConnector1", 10.0, 0.0, &[]).paths[0];
        assert!(!p.fill);
        assert_eq!(p.start, Some(((0.0, 0.0), (10.0, 0.0))));
        assert_eq!(p.end, Some(((10.0, 0.0), (0.0, 0.0))));
        let bent = &preset("bentConnector3", 10.0, 10.0, &[]).paths[0];
        assert_eq!(bent.end, Some(((10.0, 10.0), (5.0, 10.0))));
    }

    #[test]
    fn arcs_become_curves() {
        // The standard's ellipse starts at its left and turns clockwise in four arcs.
        let p = d("ellipse", 20.0, 10.0);
        assert_eq!(p.matches('C').count(), 4);
        assert!(p.starts_with("M0 5C"), "{p}");
    }

    #[test]
    fn text_rect_of_presets() {
        let o = preset("ellipse", 100.0, 100.0, &[]);
        assert!((o.text_rect[0] - 14.64).abs() < 0.01, "{:?}", o.text_rect);
        let o = preset("rect", 40.0, 20.0, &[]);
        assert_eq!(o.text_rect, [0.0, 0.0, 40.0, 20.0]);
    }
}
