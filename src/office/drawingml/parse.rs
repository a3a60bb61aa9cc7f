//! Reads a geometry element into a [`GeometryDef`]: a preset of the committed definitions
//! (`presets.xml`, no namespace) or a document's `a:custGeom` (DrawingML namespace). Both
//! have the same children (`avLst`, `gdLst`, `rect`, `pathLst`), so elements are matched
//! by local name.
//!
//! A document's geometry is untrusted: guides and commands are counted against limits,
//! an unknown operator or name reads 0, and numbers that are not finite read 0.

use std::collections::HashMap;

use crate::office::xml::Element;

use super::eval::BUILTINS;
use super::model::{
    CommandDef, FillMode, Formula, GeometryDef, Guide, Op, Operand, PathDef, PointDef,
};

/// Bounds on what one geometry may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most guides (adjust values and guides together).
    pub guides: usize,
    /// Most path commands over all paths.
    pub commands: usize,
    /// Most paths.
    pub paths: usize,
}

/// The limits for a document's custom geometry.
pub const DOCUMENT_LIMITS: Limits = Limits {
    guides: 1_000,
    commands: 20_000,
    paths: 1_000,
};

/// Name-to-slot table while parsing one geometry.
struct Names<'a> {
    slots: HashMap<&'a str, u16>,
    next: u16,
}

impl<'a> Names<'a> {
    fn new() -> Names<'a> {
        let mut slots = HashMap::with_capacity(BUILTINS.len() + 32);
        for (i, name) in BUILTINS.iter().enumerate() {
            slots.insert(*name, i as u16);
        }
        Names {
            slots,
            next: BUILTINS.len() as u16,
        }
    }

    /// The slot a guide named `name` writes: its existing one when the name is taken
    /// (a later guide of the same name replaces the value, as evaluation in order
    /// would), else a new one.
    fn define(&mut self, name: &'a str) -> u16 {
        if let Some(s) = self.slots.get(name) {
            return *s;
        }
        let s = self.next;
        self.next += 1;
        self.slots.insert(name, s);
        s
    }

    /// A number, or a name defined so far (else 0, as an undefined guide reads).
    fn operand(&self, token: &str) -> Operand {
        let token = token.trim();
        if let Ok(v) = token.parse::<f64>() {
            return Operand::Num(if v.is_finite() { v } else { 0.0 });
        }
        self.slots
            .get(token)
            .map_or(Operand::Num(0.0), |s| Operand::Slot(*s))
    }

    fn formula(&self, fmla: &str) -> Formula {
        let mut parts = fmla.split_ascii_whitespace();
        let op = parts.next().and_then(Op::from_token);
        let mut args = [Operand::Num(0.0); 3];
        for (slot, token) in args.iter_mut().zip(parts) {
            *slot = self.operand(token);
        }
        match op {
            Some(op) => Formula { op, args },
            // An unknown operator reads 0.
            None => Formula {
                op: Op::Val,
                args: [Operand::Num(0.0); 3],
            },
        }
    }

    fn point(&self, pt: Option<Element<'_>>) -> PointDef {
        let coord = |n: &str| self.operand(pt.and_then(|p| p.attr_local(n)).unwrap_or("0"));
        PointDef {
            x: coord("x"),
            y: coord("y"),
        }
    }
}

fn child<'d>(el: Element<'d>, name: &str) -> Option<Element<'d>> {
    el.elements().find(|e| e.name() == name)
}

/// Reads a geometry element within `limits`.
pub fn geometry(el: Element<'_>, limits: Limits) -> GeometryDef {
    let mut names = Names::new();
    let mut def = GeometryDef::default();
    let mut guide_budget = limits.guides;
    for (list, into_adjust) in [("avLst", true), ("gdLst", false)] {
        let Some(l) = child(el, list) else { continue };
        for gd in l.elements().filter(|e| e.name() == "gd") {
            if guide_budget == 0 {
                break;
            }
            guide_budget -= 1;
            let (Some(name), Some(fmla)) = (gd.attr_local("name"), gd.attr_local("fmla")) else {
                continue;
            };
            // The formula reads the names defined before this guide, then the name is
            // (re)defined.
            let formula = names.formula(fmla);
            let guide = Guide {
                name: name.into(),
                slot: names.define(name),
                formula,
            };
            if into_adjust {
                def.adjust.push(guide);
            } else {
                def.guides.push(guide);
            }
        }
    }
    def.text_rect = child(el, "rect")
        .map(|r| ["l", "t", "r", "b"].map(|n| names.operand(r.attr_local(n).unwrap_or("0"))));
    let mut command_budget = limits.commands;
    if let Some(list) = child(el, "pathLst") {
        for p in list
            .elements()
            .filter(|e| e.name() == "path")
            .take(limits.paths)
        {
            let dim = |n: &str| {
                p.attr_local(n)
                    .and_then(|v| v.trim().parse::<f64>().ok())
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .unwrap_or(0.0)
            };
            let mut commands = Vec::new();
            for c in p.elements() {
                if command_budget == 0 {
                    break;
                }
                command_budget -= 1;
                let mut pts = c.elements().filter(|e| e.name() == "pt");
                let cmd = match c.name() {
                    "moveTo" => CommandDef::MoveTo(names.point(pts.next())),
                    "lnTo" => CommandDef::LineTo(names.point(pts.next())),
                    "quadBezTo" => {
                        let c1 = names.point(pts.next());
                        CommandDef::QuadTo(c1, names.point(pts.next()))
                    }
                    "cubicBezTo" => {
                        let c1 = names.point(pts.next());
                        let c2 = names.point(pts.next());
                        CommandDef::CubicTo(c1, c2, names.point(pts.next()))
                    }
                    "arcTo" => {
                        let g = |n: &str| names.operand(c.attr_local(n).unwrap_or("0"));
                        CommandDef::ArcTo {
                            wr: g("wR"),
                            hr: g("hR"),
                            start: g("stAng"),
                            swing: g("swAng"),
                        }
                    }
                    "close" => CommandDef::Close,
                    _ => continue,
                };
                commands.push(cmd);
            }
            def.paths.push(PathDef {
                width: dim("w"),
                height: dim("h"),
                fill: FillMode::from_attr(p.attr_local("fill")),
                stroke: !matches!(p.attr_local("stroke"), Some("0" | "false")),
                commands,
            });
        }
    }
    def.slots = usize::from(names.next);
    def
}
