//! Fills and outlines: `a:noFill`, `a:solidFill`, `a:gradFill`, `a:blipFill`,
//! `a:pattFill`, `a:grpFill`, `a:ln`, and the theme format styles that `p:style`
//! references pull them from.

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{number, percent, ColorCtx};
use super::model::{
    Color, Crop, Fill, Gradient, GradientKind, GradientStop, ImageSource, Line, LineEnd, Tile,
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
        "blipFill" => picture_fill(el, ctx, images),
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
        // An absent side is 0, the ECMA-376 default (20.1.8.31).
        let side = |n: &str| {
            rect.and_then(|r| r.attr(Ns::None, n))
                .and_then(percent)
                .unwrap_or(0.0)
                .clamp(-10.0, 10.0)
        };
        let (l, t, r, b) = (side("l"), side("t"), side("r"), side("b"));
        // A focus outside the box (a side over 100 % or below 0) stays where it is: the
        // box then shows only the part of the gradient that reaches it, as PowerPoint
        // draws it (ECMA-376 20.1.8.31 gives the rectangle, not a limit).
        if matches!(path.attr(Ns::None, "path"), Some("rect" | "shape")) {
            // A focus whose sides cross (l + r > 1) collapses to their midpoint.
            let (left, right) = ordered(l, 1.0 - r);
            let (top, bottom) = ordered(t, 1.0 - b);
            GradientKind::Rect {
                left,
                top,
                right,
                bottom,
            }
        } else {
            GradientKind::Radial {
                cx: (l + 1.0 - r) / 2.0,
                cy: (t + 1.0 - b) / 2.0,
            }
        }
    } else {
        let angle = el
            .child(Ns::A, "lin")
            .and_then(|l| l.attr(Ns::None, "ang"))
            .and_then(number)
            .map_or(0.0, |a| (a / 60_000.0).rem_euclid(360.0));
        GradientKind::Linear { angle }
    };
    Fill::Gradient(Gradient {
        kind,
        stops,
        rotate_with_shape: !matches!(
            el.attr(Ns::None, "rotWithShape").map(str::trim),
            Some("0" | "false")
        ),
    })
}

/// `(a, b)`, or their midpoint twice when `a > b`.
fn ordered(a: f64, b: f64) -> (f64, f64) {
    if a <= b {
        (a, b)
    } else {
        let m = (a + b) / 2.0;
        (m, m)
    }
}

/// A `a:blipFill` used as a fill: the picture, its crop, and how it covers the area
/// (tiled, or stretched to `a:fillRect`), recoloured by a `a:duotone`.
fn picture_fill(el: Element<'_>, ctx: &ColorCtx<'_>, images: &mut Images<'_>) -> Fill {
    let (source, crop) = blip(el, images);
    let tile = el.child(Ns::A, "tile").map(|t| {
        // Offsets are bounded like line widths; scales to 0.1 %–10,000 %, so a hostile
        // file cannot ask for millions of tiles or one of a kilometre.
        let emu = |n: &str| {
            t.attr(Ns::None, n)
                .and_then(number)
                .unwrap_or(0.0)
                .clamp(-(MAX_LINE_WIDTH as f64), MAX_LINE_WIDTH as f64)
        };
        let scale = |n: &str| {
            t.attr(Ns::None, n)
                .and_then(percent)
                .unwrap_or(1.0)
                .abs()
                .clamp(0.001, 100.0)
        };
        let flip = t.attr(Ns::None, "flip").unwrap_or("none");
        let align = match t.attr(Ns::None, "algn").unwrap_or("tl") {
            "t" => (0.5, 0.0),
            "tr" => (1.0, 0.0),
            "l" => (0.0, 0.5),
            "ctr" => (0.5, 0.5),
            "r" => (1.0, 0.5),
            "bl" => (0.0, 1.0),
            "b" => (0.5, 1.0),
            "br" => (1.0, 1.0),
            _ => (0.0, 0.0),
        };
        Tile {
            offset_x: emu("tx"),
            offset_y: emu("ty"),
            scale_x: scale("sx"),
            scale_y: scale("sy"),
            flip_x: matches!(flip, "x" | "xy"),
            flip_y: matches!(flip, "y" | "xy"),
            align,
        }
    });
    let stretch = el
        .child(Ns::A, "stretch")
        .and_then(|s| s.child(Ns::A, "fillRect"))
        .map(|r| rect_fractions(r, -10.0, 0.99))
        .unwrap_or_default();
    let duotone = el
        .child(Ns::A, "blip")
        .and_then(|b| b.child(Ns::A, "duotone"))
        .and_then(|d| {
            let mut colors = d.elements().filter_map(|c| ctx.color(c));
            Some([colors.next()?, colors.next()?])
        });
    Fill::Picture {
        source,
        crop,
        tile,
        stretch,
        duotone,
        alpha: blip_alpha(el),
    }
}

/// The opacity `a:blip/a:alphaModFix` gives a picture (`amt`, 100 % when absent), or
/// `None` when it leaves the picture opaque.
pub(super) fn blip_alpha(el: Element<'_>) -> Option<f64> {
    let amt = el
        .child(Ns::A, "blip")?
        .child(Ns::A, "alphaModFix")?
        .attr(Ns::None, "amt")
        .map_or(Some(1.0), percent)?;
    let alpha = amt.clamp(0.0, 1.0);
    (alpha < 1.0).then_some(alpha)
}

/// The four sides of a relative rectangle (`a:srcRect`, `a:fillRect`) as fractions,
/// each clamped to `min..=max`.
fn rect_fractions(r: Element<'_>, min: f64, max: f64) -> Crop {
    let side = |n: &str| {
        r.attr(Ns::None, n)
            .and_then(percent)
            .unwrap_or(0.0)
            .clamp(min, max)
    };
    Crop {
        left: side("l"),
        top: side("t"),
        right: side("r"),
        bottom: side("b"),
    }
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
    // Crops past the whole image are nonsense; keep what is drawable.
    let crop = el
        .child(Ns::A, "srcRect")
        .map(|r| rect_fractions(r, -10.0, 0.99))
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
    images: &mut Images<'_>,
) -> Option<Fill> {
    let idx: u32 = reference.attr(Ns::None, "idx")?.trim().parse().ok()?;
    if idx == 0 || idx == 1000 {
        return Some(Fill::None);
    }
    let ph = ctx.child_color(reference);
    let ctx = ctx.with_ph(ph);
    let entry = theme.format_style(StyleList::Fill, idx);
    match entry {
        Some(e) => match fill_element(e, &ctx, images, None) {
            // A picture the theme does not have falls back to the reference colour.
            Some(Fill::Picture {
                source: ImageSource::Missing { .. },
                ..
            })
            | None => ph.map(|color| Fill::Solid { color }),
            fill => fill,
        },
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
