//! previewd's own layout of a data model, for SmartArt saved without a drawing part:
//! one level of nodes becomes a list of boxes (a row when the frame is wide and the list
//! short, else a column); deeper trees become hierarchy boxes, a row per level, each
//! node as wide as the leaves under it. Not Office's layout: the aim is that the text of
//! the diagram is shown, readable and in order, where it would otherwise be blank.

use super::model::{DiagramShape, Node, Paint};

/// Levels drawn; deeper nodes are left out.
const MAX_LEVELS: usize = 4;
/// Boxes drawn in a flat list.
const MAX_LIST: usize = 40;

/// Boxes for `nodes` in a `width` × `height` point frame, filled with `accent` (top
/// level) and a tint of it (lower levels).
pub fn layout(nodes: &[Node], width: f64, height: f64, accent: [u8; 3]) -> Vec<DiagramShape> {
    // NaN fails both comparisons.
    let usable = width > 1.0 && height > 1.0 && width.is_finite() && height.is_finite();
    if nodes.is_empty() || !usable {
        return Vec::new();
    }
    let depth = nodes
        .iter()
        .map(Node::depth)
        .max()
        .unwrap_or(1)
        .min(MAX_LEVELS);
    if depth == 1 {
        list(&nodes[..nodes.len().min(MAX_LIST)], width, height, accent)
    } else {
        hierarchy(nodes, depth, width, height, accent)
    }
}

fn list(nodes: &[Node], width: f64, height: f64, accent: [u8; 3]) -> Vec<DiagramShape> {
    let n = nodes.len() as f64;
    let row = width >= height * 1.6 && nodes.len() <= 6;
    let (along, across) = if row {
        (width, height)
    } else {
        (height, width)
    };
    // Gaps are a fifth of a box; n boxes and n − 1 gaps fill the length.
    let size = along / (n + (n - 1.0) * 0.2);
    let gap = size * 0.2;
    nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let at = i as f64 * (size + gap);
            let (x, y, w, h) = if row {
                (at, across * 0.1, size, across * 0.8)
            } else {
                (0.0, at, across, size)
            };
            boxed(node, x, y, w, h, accent, 0)
        })
        .collect()
}

fn hierarchy(
    nodes: &[Node],
    levels: usize,
    width: f64,
    height: f64,
    accent: [u8; 3],
) -> Vec<DiagramShape> {
    let leaves: usize = nodes.iter().map(Node::leaves).sum::<usize>().max(1);
    let unit = width / leaves as f64;
    let row = height / levels as f64;
    let mut out = Vec::new();
    let mut x = 0.0;
    for node in nodes {
        place(node, x, 0, unit, row, levels, accent, &mut out);
        x += node.leaves() as f64 * unit;
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn place(
    node: &Node,
    x: f64,
    level: usize,
    unit: f64,
    row: f64,
    levels: usize,
    accent: [u8; 3],
    out: &mut Vec<DiagramShape>,
) {
    if level >= levels || out.len() >= super::parse::MAX_NODES {
        return;
    }
    let span = node.leaves() as f64 * unit;
    let (mx, my) = ((span * 0.06).min(12.0), row * 0.12);
    out.push(boxed(
        node,
        x + mx,
        level as f64 * row + my,
        span - 2.0 * mx,
        row - 2.0 * my,
        accent,
        level,
    ));
    let mut cx = x;
    for child in &node.children {
        place(child, cx, level + 1, unit, row, levels, accent, out);
        cx += child.leaves() as f64 * unit;
    }
}

/// A rounded box with `node`'s text, sized to fit.
fn boxed(
    node: &Node,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    accent: [u8; 3],
    level: usize,
) -> DiagramShape {
    let (fill, ink) = if level == 0 {
        (Paint::opaque(accent), Paint::opaque([255, 255, 255]))
    } else {
        // Lower levels: the accent mixed with white, dark text.
        let t = 0.6_f64;
        let mix = accent.map(|c| (f64::from(c) * (1.0 - t) + 255.0 * t).round() as u8);
        (Paint::opaque(mix), Paint::opaque([0x26, 0x26, 0x26]))
    };
    DiagramShape {
        x,
        y,
        width: w.max(0.0),
        height: h.max(0.0),
        rotation: 0.0,
        geometry: "roundRect".to_owned(),
        fill: Some(fill),
        line: Some((Paint::opaque([255, 255, 255]), 1.0)),
        text: vec![node.text.clone()],
        text_box: None,
        text_color: ink,
        font_size: fit(&node.text, w, h),
        bold: false,
        align: "center".to_owned(),
        // The small margins `fit` sizes the text for.
        insets: [4.0, 2.0, 4.0, 2.0],
    }
}

/// The largest size from 24 pt down to 6 pt at which `text` fits a `w` × `h` box,
/// taking an average glyph as half the size wide and a line as 1.2 × the size.
pub fn fit(text: &str, w: f64, h: f64) -> f64 {
    let chars = text.chars().count().max(1) as f64;
    let (w, h) = ((w * 0.9).max(1.0), (h * 0.85).max(1.0));
    let mut size: f64 = 24.0;
    while size > 6.0 {
        let per_line = (w / (size * 0.5)).floor().max(1.0);
        let lines = (chars / per_line).ceil();
        if lines * size * 1.2 <= h {
            break;
        }
        size -= 1.0;
    }
    size.max(6.0)
}
