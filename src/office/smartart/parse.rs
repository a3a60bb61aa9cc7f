//! Reading the two SmartArt parts: the data model's text nodes ([`data_tree`]) and the
//! shapes of the drawing part ([`drawing`]). Both are bounded: hostile parts with huge
//! point lists, cycles or absurd sizes give a bounded, finite result.

use std::collections::{HashMap, HashSet};

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{child_paint, resolve};
use super::model::{DiagramShape, Node, Paint};

/// Most data-model points read from one part.
pub const MAX_POINTS: usize = 5_000;
/// Most text nodes kept in a tree.
pub const MAX_NODES: usize = 500;
/// Deepest level kept (deeper nodes are dropped).
pub const MAX_DEPTH: usize = 12;
/// Most shapes read from one drawing part.
pub const MAX_SHAPES: usize = 2_000;
/// Longest text kept per node or shape, in characters.
const MAX_TEXT: usize = 2_000;
/// EMU per point.
const EMU_PER_PT: f64 = 12_700.0;

/// The text nodes of a data model (`dgm:dataModel`), as the trees under its document
/// point, in the order of the `parOf` connections (`srcOrd`).
pub fn data_tree(root: Element<'_>) -> Vec<Node> {
    let mut texts: HashMap<&str, String> = HashMap::new();
    let mut doc = None;
    for pt in root
        .descendants()
        .filter(|e| e.is(Ns::Dgm, "pt"))
        .take(MAX_POINTS)
    {
        let Some(id) = pt.attr_local("modelId") else {
            continue;
        };
        match pt.attr_local("type").unwrap_or("node") {
            "node" | "asst" => {
                texts.insert(id, point_text(pt));
            }
            "doc" => doc = doc.or(Some(id)),
            _ => {}
        }
    }
    let mut children: HashMap<&str, Vec<(u32, &str)>> = HashMap::new();
    let mut has_parent: HashSet<&str> = HashSet::new();
    for cxn in root
        .descendants()
        .filter(|e| e.is(Ns::Dgm, "cxn"))
        .take(MAX_POINTS)
    {
        if cxn.attr_local("type").unwrap_or("parOf") != "parOf" {
            continue;
        }
        let (Some(src), Some(dest)) = (cxn.attr_local("srcId"), cxn.attr_local("destId")) else {
            continue;
        };
        let ord = cxn
            .attr_local("srcOrd")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        children.entry(src).or_default().push((ord, dest));
        has_parent.insert(dest);
    }
    for list in children.values_mut() {
        list.sort_by_key(|(ord, _)| *ord);
    }
    let mut budget = MAX_NODES;
    let mut seen = HashSet::new();
    let roots: Vec<&str> = match doc {
        Some(d) => vec![d],
        // No document point: every node nothing points at is a root, in id order.
        None => {
            let mut r: Vec<&str> = texts
                .keys()
                .copied()
                .filter(|id| !has_parent.contains(id))
                .collect();
            r.sort_unstable();
            r
        }
    };
    let mut out = Vec::new();
    for id in roots {
        if doc.is_some() {
            // The document point itself has no text; its children are the top level.
            seen.insert(id.to_owned());
            out.extend(subtrees(id, &children, &texts, &mut seen, &mut budget, 1));
        } else if let Some(n) = build(id, &children, &texts, &mut seen, &mut budget, 1) {
            out.push(n);
        }
    }
    out
}

fn subtrees(
    id: &str,
    children: &HashMap<&str, Vec<(u32, &str)>>,
    texts: &HashMap<&str, String>,
    seen: &mut HashSet<String>,
    budget: &mut usize,
    depth: usize,
) -> Vec<Node> {
    let mut out = Vec::new();
    if depth > MAX_DEPTH {
        return out;
    }
    for (_, child) in children.get(id).into_iter().flatten() {
        if let Some(n) = build(child, children, texts, seen, budget, depth) {
            out.push(n);
        }
    }
    out
}

fn build(
    id: &str,
    children: &HashMap<&str, Vec<(u32, &str)>>,
    texts: &HashMap<&str, String>,
    seen: &mut HashSet<String>,
    budget: &mut usize,
    depth: usize,
) -> Option<Node> {
    // Points that are not text nodes (and cycles, and nodes past the budget) are left out.
    let text = texts.get(id)?;
    if *budget == 0 || !seen.insert(id.to_owned()) {
        return None;
    }
    *budget -= 1;
    Some(Node {
        text: text.clone(),
        children: subtrees(id, children, texts, seen, budget, depth + 1),
    })
}

/// The text of a data-model point: its paragraphs, joined by a space.
fn point_text(pt: Element<'_>) -> String {
    let Some(t) = pt.child(Ns::Dgm, "t") else {
        return String::new();
    };
    let paragraphs: Vec<String> = t.children_named(Ns::A, "p").map(paragraph_text).collect();
    let mut s = paragraphs
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    truncate(&mut s);
    s
}

fn paragraph_text(p: Element<'_>) -> String {
    let mut s = String::new();
    for e in p.descendants() {
        if e.is(Ns::A, "t") {
            s.push_str(&e.text());
        } else if e.is(Ns::A, "br") {
            s.push(' ');
        }
        if s.len() > MAX_TEXT * 4 {
            break;
        }
    }
    s.chars().filter(|c| !c.is_control()).collect()
}

fn truncate(s: &mut String) {
    if let Some((i, _)) = s.char_indices().nth(MAX_TEXT) {
        s.truncate(i);
    }
}

/// The shapes of a drawing part (`dsp:drawing`), back to front, in points from the
/// graphic's top left. `scheme` resolves the theme's colour slots.
pub fn drawing(root: Element<'_>, scheme: &dyn Fn(&str) -> Option<[u8; 3]>) -> Vec<DiagramShape> {
    root.descendants()
        .filter(|e| e.name() == "sp" && e.ns() == Ns::Other)
        .take(MAX_SHAPES)
        .filter_map(|sp| shape(sp, scheme))
        .collect()
}

/// A child of `el` by local name (the `dsp:` namespace is not one previewd names).
fn local<'d>(el: Element<'d>, name: &str) -> Option<Element<'d>> {
    el.elements()
        .find(|c| c.name() == name && c.ns() == Ns::Other)
}

fn emu(el: Element<'_>, name: &str) -> f64 {
    el.attr_local(name)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        // Anything past 100 m is nonsense; clamping keeps the SVG finite and small.
        .map_or(0.0, |v| v.clamp(-1.0e12, 1.0e12) / EMU_PER_PT)
}

/// Offset and extent of an `a:xfrm`-like element, in points.
fn rect_of(xfrm: Element<'_>) -> Option<[f64; 4]> {
    let off = xfrm.child(Ns::A, "off")?;
    let ext = xfrm.child(Ns::A, "ext")?;
    let (w, h) = (emu(ext, "cx").max(0.0), emu(ext, "cy").max(0.0));
    Some([emu(off, "x"), emu(off, "y"), w, h])
}

fn shape(sp: Element<'_>, scheme: &dyn Fn(&str) -> Option<[u8; 3]>) -> Option<DiagramShape> {
    let pr = local(sp, "spPr")?;
    let xfrm = pr.child(Ns::A, "xfrm")?;
    let [x, y, width, height] = rect_of(xfrm)?;
    let rotation = xfrm
        .attr_local("rot")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map_or(0.0, |v| (v / 60_000.0).rem_euclid(360.0));
    let geometry = pr
        .child(Ns::A, "prstGeom")
        .and_then(|g| g.attr_local("prst"))
        .filter(|p| p.len() <= 40 && p.chars().all(|c| c.is_ascii_alphanumeric()))
        .unwrap_or(if pr.child(Ns::A, "custGeom").is_some() {
            "custom"
        } else {
            "rect"
        })
        .to_owned();
    // Office writes a drawing shape's fill and outline in full in spPr; the colours of its
    // style references are placeholders (`scrgbClr 0 0 0`) and are not used.
    let style = local(sp, "style");
    let fill = if pr.child(Ns::A, "noFill").is_some() {
        None
    } else if let Some(f) = pr.child(Ns::A, "solidFill") {
        child_paint(f, scheme)
    } else if let Some(g) = pr.child(Ns::A, "gradFill") {
        // A gradient is shown as its first stop.
        g.descendants()
            .find(|e| e.is(Ns::A, "gs"))
            .and_then(|gs| child_paint(gs, scheme))
    } else {
        // No fill, or a picture fill (not drawn: the picture is left out).
        None
    };
    let line = match pr.child(Ns::A, "ln") {
        Some(ln) if ln.child(Ns::A, "noFill").is_some() => None,
        Some(ln) => {
            let width = (emu(ln, "w")).clamp(0.0, 50.0);
            let color = ln
                .child(Ns::A, "solidFill")
                .and_then(|f| child_paint(f, scheme));
            color.map(|c| (c, if width > 0.0 { width } else { 0.75 }))
        }
        None => None,
    };
    let body = local(sp, "txBody");
    let mut text = Vec::new();
    let mut font_size = None;
    let mut bold = false;
    let mut color = None;
    let mut align = "center";
    if let Some(body) = body {
        for p in body.children_named(Ns::A, "p").take(200) {
            let mut s = paragraph_text(p);
            truncate(&mut s);
            if let Some(a) = p.child(Ns::A, "pPr").and_then(|pp| pp.attr_local("algn")) {
                if text.is_empty() {
                    align = match a {
                        "l" => "left",
                        "r" => "right",
                        _ => "center",
                    };
                }
            }
            for r in p
                .descendants()
                .filter(|e| e.is(Ns::A, "rPr") || e.is(Ns::A, "endParaRPr"))
            {
                if font_size.is_none() {
                    font_size = r
                        .attr_local("sz")
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .filter(|v| v.is_finite() && *v > 0.0)
                        .map(|v| (v / 100.0).clamp(1.0, 400.0));
                }
                if r.is(Ns::A, "rPr") {
                    bold |= matches!(r.attr_local("b"), Some("1" | "true" | "on"));
                    if color.is_none() {
                        color = r
                            .child(Ns::A, "solidFill")
                            .and_then(|f| child_paint(f, scheme));
                    }
                }
            }
            text.push(s);
        }
        while text.last().is_some_and(|t| t.trim().is_empty()) {
            text.pop();
        }
    }
    let font_color = style
        .and_then(|s| s.child(Ns::A, "fontRef"))
        .and_then(|r| r.elements().find_map(|c| resolve(c, scheme)));
    // Insets as the shape's body says; a diagram's drawing part writes them all.
    let insets = match body.and_then(|b| b.child(Ns::A, "bodyPr")) {
        Some(pr) => {
            let inset = |name: &str, default: f64| {
                if pr.attr_local(name).is_some() {
                    emu(pr, name).clamp(0.0, 1000.0)
                } else {
                    default
                }
            };
            let d = super::model::DEFAULT_INSETS;
            [
                inset("lIns", d[0]),
                inset("tIns", d[1]),
                inset("rIns", d[2]),
                inset("bIns", d[3]),
            ]
        }
        None => super::model::DEFAULT_INSETS,
    };
    let text_box = local(sp, "txXfrm")
        .and_then(rect_of)
        .filter(|tb| *tb != [x, y, width, height]);
    Some(DiagramShape {
        x,
        y,
        width,
        height,
        rotation,
        geometry,
        fill,
        line,
        text,
        text_box,
        text_color: color.or(font_color).unwrap_or(Paint::opaque([0, 0, 0])),
        font_size: font_size.unwrap_or(12.0),
        bold,
        align: align.to_owned(),
        insets,
    })
}
