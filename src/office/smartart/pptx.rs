//! Laid-out diagram boxes as shapes of the PPTX model, so the slide renderer draws them
//! like any other shape (for SmartArt saved without its drawing part).

use crate::office::pptx::model::{
    Align, AutoShape, Color, Fill, Frame, Geometry, Line, Paragraph, Run, RunKind, Shape,
    ShapeKind, Spacing, TextBody, VerticalAnchor, DEFAULT_TAB,
};

use super::model::{DiagramShape, Paint};

/// EMU per point.
const EMU_PER_PT: f64 = 12_700.0;

/// `boxes` (points from the graphic's top left) as shapes placed in `frame` (slide EMU).
pub fn shapes(boxes: &[DiagramShape], frame: &Frame) -> Vec<Shape> {
    let emu = |pt: f64| (pt * EMU_PER_PT).round() as i64;
    boxes
        .iter()
        .map(|b| {
            let color = |p: &Paint| Color {
                r: p.rgb[0],
                g: p.rgb[1],
                b: p.rgb[2],
                alpha: p.alpha as f32,
            };
            let paragraphs = b
                .text
                .iter()
                .map(|t| Paragraph {
                    level: 0,
                    align: match b.align.as_str() {
                        "left" => Align::Left,
                        "right" => Align::Right,
                        _ => Align::Center,
                    },
                    margin_left: 0,
                    margin_right: 0,
                    indent: 0,
                    space_before: Spacing::Points(0.0),
                    space_after: Spacing::Points(0.0),
                    line_spacing: Spacing::Percent(90.0),
                    rtl: false,
                    bullet: None,
                    runs: vec![Run {
                        kind: RunKind::Text,
                        text: t.clone(),
                        size: b.font_size,
                        bold: b.bold,
                        italic: false,
                        underline: None,
                        strike: None,
                        color: color(&b.text_color),
                        highlight: None,
                        font: None,
                        baseline: 0.0,
                        caps: None,
                        spacing: 0.0,
                        link: None,
                        shadow: None,
                    }],
                    end_size: b.font_size,
                    tabs: Vec::new(),
                    default_tab: DEFAULT_TAB,
                })
                .collect();
            let inset = emu(3.6);
            Shape {
                id: 0,
                name: String::new(),
                alt: None,
                hidden: false,
                frame: Frame {
                    x: frame.x + emu(b.x),
                    y: frame.y + emu(b.y),
                    width: emu(b.width),
                    height: emu(b.height),
                    rotation: b.rotation,
                    flip_h: false,
                    flip_v: false,
                },
                placeholder: None,
                link: None,
                effects: Default::default(),
                kind: ShapeKind::Shape(AutoShape {
                    geometry: Geometry::Preset {
                        name: b.geometry.clone(),
                        adjust: Vec::new(),
                    },
                    fill: b
                        .fill
                        .map_or(Fill::None, |p| Fill::Solid { color: color(&p) }),
                    line: b.line.map(|(p, w)| Line {
                        width: emu(w),
                        color: color(&p),
                        dash: "solid".to_owned(),
                        cap: "flat".to_owned(),
                        join: "round".to_owned(),
                        head: None,
                        tail: None,
                    }),
                    text: Some(TextBody {
                        insets: [inset, inset, inset, inset],
                        anchor: VerticalAnchor::Middle,
                        anchor_center: false,
                        wrap: true,
                        vertical: "horz".to_owned(),
                        rotation: 0.0,
                        columns: 1,
                        column_gap: 0,
                        autofit: "none".to_owned(),
                        font_scale: 1.0,
                        line_reduction: 0.0,
                        paragraphs,
                    }),
                    connector: false,
                }),
            }
        })
        .collect()
}
