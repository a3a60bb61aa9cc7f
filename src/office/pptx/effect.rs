//! Shape effects (`a:effectLst`, or the theme effect style a `p:style/a:effectRef` points
//! at): outer and inner shadows, glow and soft edges. Reflections, presets and 3-D are not
//! read; they are drawn without the effect.

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{number, ColorCtx};
use super::model::{Effects, Glow, Shadow};
use super::theme::{StyleList, Theme};

/// Largest offset or blur accepted (about 1.4 m, as for line widths): absurd values are
/// capped, not trusted.
const MAX_EMU: f64 = 40_233_600.0;

/// The effects an `a:effectLst` lists.
pub(super) fn effect_list(lst: Element<'_>, ctx: &ColorCtx<'_>) -> Effects {
    let mut out = Effects::default();
    for e in lst.elements().filter(|e| e.ns() == Ns::A) {
        match e.name() {
            name @ ("outerShdw" | "innerShdw") => {
                let Some(color) = ctx.child_color(e) else {
                    continue;
                };
                let emu = |n: &str| {
                    e.attr(Ns::None, n)
                        .and_then(number)
                        .unwrap_or(0.0)
                        .clamp(0.0, MAX_EMU)
                };
                let dist = emu("dist");
                let dir = e
                    .attr(Ns::None, "dir")
                    .and_then(number)
                    .map_or(0.0, |d| (d / 60_000.0).to_radians());
                let shadow = Shadow {
                    dx: dist * dir.cos(),
                    dy: dist * dir.sin(),
                    blur: emu("blurRad"),
                    color,
                };
                if name == "outerShdw" {
                    out.outer_shadow = Some(shadow);
                } else {
                    out.inner_shadow = Some(shadow);
                }
            }
            "glow" => {
                if let Some(color) = ctx.child_color(e) {
                    let radius = e
                        .attr(Ns::None, "rad")
                        .and_then(number)
                        .unwrap_or(0.0)
                        .clamp(0.0, MAX_EMU);
                    out.glow = Some(Glow { radius, color });
                }
            }
            "softEdge" => {
                let radius = e
                    .attr(Ns::None, "rad")
                    .and_then(number)
                    .unwrap_or(0.0)
                    .clamp(0.0, MAX_EMU);
                out.soft_edge = (radius > 0.0).then_some(radius);
            }
            _ => {}
        }
    }
    out
}

/// The effects of the theme effect style a `p:style/a:effectRef` points at, with its
/// colour as `phClr`.
pub(super) fn style_effects(reference: Element<'_>, theme: &Theme, ctx: &ColorCtx<'_>) -> Effects {
    let Some(idx) = reference
        .attr(Ns::None, "idx")
        .and_then(|v| v.trim().parse::<u32>().ok())
    else {
        return Effects::default();
    };
    let ctx = ctx.with_ph(ctx.child_color(reference));
    theme
        .format_style(StyleList::Effect, idx)
        .and_then(|style| style.child(Ns::A, "effectLst"))
        .map(|lst| effect_list(lst, &ctx))
        .unwrap_or_default()
}
