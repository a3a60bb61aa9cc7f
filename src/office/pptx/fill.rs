//! Fills and outlines: `a:noFill`, `a:solidFill`, `a:gradFill`, `a:blipFill`,
//! `a:pattFill`, `a:grpFill`, `a:ln`, and the theme format styles that `p:style`
//! references pull them from.

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{number, percent, ColorCtx};
use super::model::{
    Color, Crop, Fill, Gradient, GradientKind, GradientStop, ImageSource, Line, LineEnd,
};
use super::theme::{StyleList, Theme};

/// Resolves an `r:embed` relationship id of the part being read to an image source.
pub(super) type Images<'r> = dyn FnMut(&str) -> ImageSource + 'r;

/// Line width when an outline names none: 0.75 pt, PowerPoint's default.
const DEFAULT_LINE_WIDTH: i64 = 9525;

/// Widest outline accepted (about 1.4 m): absurd widths are capped, not trusted.
const MAX_LINE_WIDTH: i64 = 20_116_800 * 2;

/// The fill named among the children of `props` (`p:spPr`, `p:bgPr`, `a:tcPr` …);
/// `None` when it names none, so the caller inherits one.
pub(super) fn fill_in(
    props: Element<'_>,
    ctx: &ColorCtx<'_>,
    images: &mut Images<'_>,
    group: Option<&Fill>,
) -> Option<Fill> {
    props
        .elements()
        .find_map(|c| fill_element(c, ctx, images, group))
}

/// One fill element, or `None` when `el` is not a fill.
pub(super) fn fill_element(
    el: Element<'_>,
    ctx: &ColorCtx<'_>,
    images: &mut Images<'_>,
    group: Option<&Fill>,
) -> Option<Fill> {
    if el.ns() != Ns::A {
        return None;
    }
    Some(match el.name() {
        "noFill" => Fill::None,
        "solidFill" => match ctx.child_color(el) {
            Some(color) => Fill::Solid { color },
            None => Fill::None,
        },
        "gradFill" => gradient(el, ctx),
        "blipFill" => {
            let (source, crop) = blip(el, images);
            Fill::Picture {
                source,
                crop,
                tile: el.child(Ns::A, "tile").is_some(),
            }
        }
        "pattFill" => {
            let color = |name: &str| el.child(Ns::A, name).and_then(|c| ctx.child_color(c));
            Fill::Pattern {
                preset: el
                    .attr(Ns::None, "prst")
                    .unwrap_or("pct5")
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .take(32)
                    .collect(),
                foreground: color("fgClr").unwrap_or(Color::rgb(0)),
                background: color("bgClr").unwrap_or(Color::rgb(0xFFFFFF)),
            }
        }
        "grpFill" => group.cloned().unwrap_or(Fill::None),
        _ => return None,
    })
}

/// A `a:gradFill`.
fn gradient(el: Element<'_>, ctx: &ColorCtx<'_>) -> Fill {
    let mut stops: Vec<GradientStop> = el
        .child(Ns::A, "gsLst")
        .into_iter()
        .flat_map(|l| l.children_named(Ns::A, "gs"))
        .filter_map(|gs| {
            let position = gs
                .attr(Ns::None, "pos")
                .and_then(percent)
                .unwrap_or(0.0)
                .clamp(0.0, 1.0);
            Some(GradientStop {
                position,
                color: ctx.child_color(gs)?,
            })
        })
        .take(64)
        .collect();
    stops.sort_by(|a, b| a.position.total_cmp(&b.position));
    if stops.is_empty() {
        return Fill::None;
    }
    if stops.len() == 1 {
        return Fill::Solid {
            color: stops[0].color,
        };
    }
    let kind = if let Some(path) = el.child(Ns::A, "path") {
        let rect = path.child(Ns::A, "fillToRect");
        let side = |n: &str| {
            rect.and_then(|r| r.attr(Ns::None, n))
                .and_then(percent)
                .unwrap_or(0.5)
        };
        GradientKind::Radial {
            cx: ((side("l") + 1.0 - side("r")) / 2.0).clamp(0.0, 1.0),
            cy: ((side("t") + 1.0 - side("b")) / 2.0).clamp(0.0, 1.0),
        }
    } else {
        let angle = el
            .child(Ns::A, "lin")
            .and_then(|l| l.attr(Ns::None, "ang"))
            .and_then(number)
            .map_or(0.0, |a| (a / 60_000.0).rem_euclid(360.0));
        GradientKind::Linear { angle }
    };
    Fill::Gradient(Gradient { kind, stops })
}

/// The image and crop of a `a:blipFill` (picture fill or `p:blipFill`).
pub(super) fn blip(el: Element<'_>, images: &mut Images<'_>) -> (ImageSource, Crop) {
    let source = match el.child(Ns::A, "blip") {
        Some(b) => match (b.attr(Ns::R, "embed"), b.attr(Ns::R, "link")) {
            (Some(id), _) if !id.is_empty() => images(id),
            (_, Some(id)) => match images(id) {
                ImageSource::Part { part } => ImageSource::External { url: part },
                other => other,
            },
            _ => ImageSource::Missing {
                target: String::new(),
            },
        },
        None => ImageSource::Missing {
            target: String::new(),
        },
    };
    let crop = el
        .child(Ns::A, "srcRect")
        .map(|r| {
            // Crops past the whole image are nonsense; keep what is drawable.
            let side = |n: &str| {
                r.attr(Ns::None, n)
                    .and_then(percent)
                    .unwrap_or(0.0)
                    .clamp(-10.0, 0.99)
            };
            Crop {
                left: side("l"),
                top: side("t"),
                right: side("r"),
                bottom: side("b"),
            }
        })
        .unwrap_or_default();
    (source, crop)
}

/// An `a:ln` laid over `base` (the outline from the shape's style). `None` means no
/// outline is drawn.
pub(super) fn line(ln: Element<'_>, ctx: &ColorCtx<'_>, base: Option<Line>) -> Option<Line> {
    let mut explicit_none = false;
    let mut color = None;
    for c in ln.elements() {
        match c.name() {
            "noFill" => explicit_none = true,
            "solidFill" => color = ctx.child_color(c),
            "gradFill" => {
                color = c
                    .child(Ns::A, "gsLst")
                    .and_then(|l| l.child(Ns::A, "gs"))
                    .and_then(|gs| ctx.child_color(gs));
            }
            "pattFill" => color = c.child(Ns::A, "fgClr").and_then(|f| ctx.child_color(f)),
            _ => {}
        }
    }
    if explicit_none {
        return None;
    }
    let width = ln.attr(Ns::None, "w").and_then(number).map(|w| w as i64);
    let mut out = match (base, color) {
        (Some(mut b), c) => {
            if let Some(c) = c {
                b.color = c;
            }
            b
        }
        (None, Some(c)) => Line {
            width: DEFAULT_LINE_WIDTH,
            color: c,
            dash: "solid".to_owned(),
            cap: "flat".to_owned(),
            join: "round".to_owned(),
            head: None,
            tail: None,
        },
        (None, None) => return None,
    };
    if let Some(w) = width {
        out.width = w.clamp(0, MAX_LINE_WIDTH);
    }
    if let Some(cap) = ln.attr(Ns::None, "cap") {
        if matches!(cap, "rnd" | "sq" | "flat") {
            out.cap = cap.to_owned();
        }
    }
    for c in ln.elements() {
        match c.name() {
            "prstDash" => {
                if let Some(v) = c.attr(Ns::None, "val") {
                    out.dash = sanitize_name(v);
                }
            }
            "custDash" => out.dash = "dash".to_owned(),
            "round" | "bevel" | "miter" => out.join = c.name().to_owned(),
            "headEnd" => out.head = line_end(c),
            "tailEnd" => out.tail = line_end(c),
            _ => {}
        }
    }
    Some(out)
}

fn line_end(el: Element<'_>) -> Option<LineEnd> {
    let kind = el.attr(Ns::None, "type").unwrap_or("none");
    if !matches!(kind, "triangle" | "stealth" | "diamond" | "oval" | "arrow") {
        return None;
    }
    let size = |n: &str| match el.attr(Ns::None, n) {
        Some(v @ ("sm" | "lg")) => v.to_owned(),
        _ => "med".to_owned(),
    };
    Some(LineEnd {
        kind: kind.to_owned(),
        width: size("w"),
        length: size("len"),
    })
}

/// Keeps a name safe to echo (ASCII letters and digits, bounded).
fn sanitize_name(v: &str) -> String {
    v.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(32)
        .collect()
}

/// The fill a `p:style/a:fillRef` (or a `p:bgRef`) points at, with its colour as
/// `phClr`.
pub(super) fn style_fill(
    reference: Element<'_>,
    theme: &Theme,
    ctx: &ColorCtx<'_>,
) -> Option<Fill> {
    let idx: u32 = reference.attr(Ns::None, "idx")?.trim().parse().ok()?;
    if idx == 0 || idx == 1000 {
        return Some(Fill::None);
    }
    let ph = ctx.child_color(reference);
    let ctx = ctx.with_ph(ph);
    let entry = theme.format_style(StyleList::Fill, idx);
    match entry {
        Some(e) => {
            // Theme fills cannot reach the theme part's pictures from here; a picture
            // style fill falls back to the reference colour.
            let mut none = |_: &str| ImageSource::Missing {
                target: String::new(),
            };
            match fill_element(e, &ctx, &mut none, None) {
                Some(Fill::Picture { .. }) | None => ph.map(|color| Fill::Solid { color }),
                fill => fill,
            }
        }
        None => ph.map(|color| Fill::Solid { color }),
    }
}

/// The outline a `p:style/a:lnRef` points at, with its colour as `phClr`.
pub(super) fn style_line(
    reference: Element<'_>,
    theme: &Theme,
    ctx: &ColorCtx<'_>,
) -> Option<Line> {
    let idx: u32 = reference.attr(Ns::None, "idx")?.trim().parse().ok()?;
    if idx == 0 {
        return None;
    }
    let ph = ctx.child_color(reference);
    let ctx = ctx.with_ph(ph);
    let base = ph.map(|color| Line {
        width: DEFAULT_LINE_WIDTH,
        color,
        dash: "solid".to_owned(),
        cap: "flat".to_owned(),
        join: "round".to_owned(),
        head: None,
        tail: None,
    });
    match theme.format_style(StyleList::Line, idx) {
        Some(ln) => line(ln, &ctx, base),
        None => base,
    }
}
