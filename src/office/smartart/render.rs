//! A [`Diagram`] as one inline SVG: preset outlines as paths, text in a
//! `foreignObject` so the browser wraps it in its box. Sized in points; one user unit is
//! one point.

use std::fmt::Write;

use crate::markup::escape_into;

use super::model::{Diagram, DiagramShape};

/// The SVG of `d`, `width` × `height` points.
pub fn svg(d: &Diagram) -> String {
    let mut out = String::new();
    let label: String = d
        .shapes
        .iter()
        .flat_map(|s| s.text.iter())
        .filter(|t| !t.trim().is_empty())
        .take(20)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"smartart\" viewBox=\"0 0 {w} {h}\" width=\"{w}pt\" height=\"{h}pt\" role=\"img\" aria-label=\"",
        w = n(d.width),
        h = n(d.height)
    );
    out.push_str("Diagram");
    if !label.is_empty() {
        out.push_str(": ");
        escape_into(&mut out, &label);
    }
    out.push_str("\" style=\"overflow:hidden;max-width:100%;height:auto\">");
    for s in &d.shapes {
        shape(&mut out, s);
    }
    out.push_str("</svg>");
    out
}

fn n(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn shape(out: &mut String, s: &DiagramShape) {
    let has_text = s.text.iter().any(|t| !t.trim().is_empty());
    let path = outline(&s.geometry, s.x, s.y, s.width, s.height);
    // An outline previewd cannot draw is left out, unless it carries text (then a box).
    let path = match path {
        Some(p) => p,
        None if has_text => outline("rect", s.x, s.y, s.width, s.height).unwrap_or_default(),
        None => return,
    };
    let (cx, cy) = (s.x + s.width / 2.0, s.y + s.height / 2.0);
    let _ = write!(
        out,
        "<g transform=\"rotate({} {} {})\">",
        n(s.rotation),
        n(cx),
        n(cy)
    );
    let _ = write!(out, "<path d=\"{path}\"");
    match &s.fill {
        Some(f) => {
            let _ = write!(out, " fill=\"{}\"", f.hex());
            if f.alpha < 1.0 {
                let _ = write!(out, " fill-opacity=\"{}\"", n(f.alpha));
            }
        }
        None => out.push_str(" fill=\"none\""),
    }
    if let Some((c, w)) = &s.line {
        let _ = write!(out, " stroke=\"{}\" stroke-width=\"{}\"", c.hex(), n(*w));
        if c.alpha < 1.0 {
            let _ = write!(out, " stroke-opacity=\"{}\"", n(c.alpha));
        }
    }
    // Office keeps a diagram shape's text upright (its txXfrm box is not turned with the
    // outline), so the text is drawn outside the rotated group.
    out.push_str("/></g>");
    if has_text {
        let [tx, ty, tw, th] = s.text_box.unwrap_or([s.x, s.y, s.width, s.height]);
        let _ = write!(
            out,
            "<foreignObject x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><div xmlns=\"http://www.w3.org/1999/xhtml\" style=\"box-sizing:border-box;width:100%;height:100%;display:flex;flex-direction:column;justify-content:center;padding:{}px {}px {}px {}px;overflow:hidden;text-align:{};color:{};font:{}{}px/1.15 Calibri,Carlito,Arial,sans-serif;overflow-wrap:anywhere\">",
            n(tx),
            n(ty),
            n(tw.max(1.0)),
            n(th.max(1.0)),
            n(s.insets[1]),
            n(s.insets[2]),
            n(s.insets[3]),
            n(s.insets[0]),
            match s.align.as_str() {
                "left" | "right" => s.align.as_str(),
                _ => "center",
            },
            s.text_color.hex(),
            if s.bold { "bold " } else { "" },
            n(s.font_size)
        );
        for t in &s.text {
            out.push_str("<div>");
            if t.trim().is_empty() {
                out.push_str("&#8203;");
            } else {
                escape_into(out, t);
            }
            out.push_str("</div>");
        }
        out.push_str("</div></foreignObject>");
    }
}

/// The outline of a preset shape in the box, as SVG path data; `None` for presets
/// previewd does not draw.
pub fn outline(name: &str, x: f64, y: f64, w: f64, h: f64) -> Option<String> {
    let m = w.min(h);
    let poly = |pts: &[(f64, f64)]| {
        let mut d = String::new();
        for (i, (px, py)) in pts.iter().enumerate() {
            let _ = write!(
                d,
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                n(x + px),
                n(y + py)
            );
        }
        d.push('Z');
        d
    };
    Some(match name {
        "rect" | "flowChartProcess" | "snip1Rect" | "snip2SameRect" | "snipRoundRect" => {
            poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
        }
        "roundRect"
        | "round1Rect"
        | "round2SameRect"
        | "round2DiagRect"
        | "flowChartAlternateProcess" => {
            let r = m * 0.166_67;
            format!(
                "M{} {}H{}A{r} {r} 0 0 1 {} {}V{}A{r} {r} 0 0 1 {} {}H{}A{r} {r} 0 0 1 {} {}V{}A{r} {r} 0 0 1 {} {}Z",
                n(x + r), n(y), n(x + w - r), n(x + w), n(y + r), n(y + h - r), n(x + w - r), n(y + h),
                n(x + r), n(x), n(y + h - r), n(y + r), n(x + r), n(y),
                r = n(r)
            )
        }
        "ellipse" | "flowChartConnector" | "donut" => {
            let (rx, ry) = (w / 2.0, h / 2.0);
            format!(
                "M{} {}A{} {} 0 1 0 {} {}A{} {} 0 1 0 {} {}Z",
                n(x),
                n(y + ry),
                n(rx),
                n(ry),
                n(x + w),
                n(y + ry),
                n(rx),
                n(ry),
                n(x),
                n(y + ry)
            )
        }
        "triangle" | "flowChartExtract" => poly(&[(w / 2.0, 0.0), (w, h), (0.0, h)]),
        "diamond" | "flowChartDecision" => {
            poly(&[(w / 2.0, 0.0), (w, h / 2.0), (w / 2.0, h), (0.0, h / 2.0)])
        }
        "chevron" => {
            let a = m * 0.5;
            poly(&[
                (0.0, 0.0),
                (w - a, 0.0),
                (w, h / 2.0),
                (w - a, h),
                (0.0, h),
                (a, h / 2.0),
            ])
        }
        "homePlate" => {
            let a = m * 0.5;
            poly(&[(0.0, 0.0), (w - a, 0.0), (w, h / 2.0), (w - a, h), (0.0, h)])
        }
        "hexagon" => {
            let a = m * 0.25;
            poly(&[
                (a, 0.0),
                (w - a, 0.0),
                (w, h / 2.0),
                (w - a, h),
                (a, h),
                (0.0, h / 2.0),
            ])
        }
        "pentagon" => poly(&[
            (w / 2.0, 0.0),
            (w, h * 0.38),
            (w * 0.81, h),
            (w * 0.19, h),
            (0.0, h * 0.38),
        ]),
        "parallelogram" => {
            let a = m * 0.25;
            poly(&[(a, 0.0), (w, 0.0), (w - a, h), (0.0, h)])
        }
        "trapezoid" => {
            let a = m * 0.25;
            poly(&[(a, 0.0), (w - a, 0.0), (w, h), (0.0, h)])
        }
        "rightArrow" => {
            let a = m * 0.5;
            poly(&[
                (0.0, h * 0.25),
                (w - a, h * 0.25),
                (w - a, 0.0),
                (w, h / 2.0),
                (w - a, h),
                (w - a, h * 0.75),
                (0.0, h * 0.75),
            ])
        }
        "leftArrow" => {
            let a = m * 0.5;
            poly(&[
                (w, h * 0.25),
                (a, h * 0.25),
                (a, 0.0),
                (0.0, h / 2.0),
                (a, h),
                (a, h * 0.75),
                (w, h * 0.75),
            ])
        }
        "downArrow" => {
            let a = m * 0.5;
            poly(&[
                (w * 0.25, 0.0),
                (w * 0.75, 0.0),
                (w * 0.75, h - a),
                (w, h - a),
                (w / 2.0, h),
                (0.0, h - a),
                (w * 0.25, h - a),
            ])
        }
        "upArrow" => {
            let a = m * 0.5;
            poly(&[
                (w * 0.25, h),
                (w * 0.75, h),
                (w * 0.75, a),
                (w, a),
                (w / 2.0, 0.0),
                (0.0, a),
                (w * 0.25, a),
            ])
        }
        "line" | "straightConnector1" => format!("M{} {}L{} {}", n(x), n(y), n(x + w), n(y + h)),
        _ => return None,
    })
}
