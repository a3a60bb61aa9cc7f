//! Text frames: body properties, list styles and how they stack, paragraphs, runs,
//! bullets and auto-numbering.
//!
//! PowerPoint resolves text formatting by layering, lowest first: the presentation's
//! `p:defaultTextStyle`, the master's `titleStyle`/`bodyStyle`/`otherStyle`, the list
//! styles (`a:lstStyle`) of the master, layout and slide shapes, then the paragraph's
//! `a:pPr` and the run's `a:rPr`. Each layer sets only some properties, so the partial
//! forms here keep `Option`s and [`ParaProps::overlay`] puts one layer over another.

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::{number, percent, ColorCtx};
use super::effect::effect_list;
use super::model::{
    Align, Bullet, Color, Link, Paragraph, Run, RunKind, Shadow, Spacing, TabAlign, TabStop,
    TextBody, VerticalAnchor, DEFAULT_TAB,
};
use super::theme::Theme;

/// The largest font size accepted, in points (PowerPoint's own limit is 4 000).
const MAX_FONT_PT: f64 = 4_000.0;
/// The widest margin or indent accepted, in EMU (PowerPoint's limit, 51 206 400).
const MAX_INDENT: i64 = 51_206_400;
/// Most paragraphs and runs kept per text frame: past this a frame is not a slide.
const MAX_PARAGRAPHS: usize = 20_000;
/// Custom tab stops kept per paragraph (PowerPoint's ruler offers a few dozen at most).
const MAX_TABS: usize = 64;

/// Partial run properties (`a:rPr`, `a:defRPr`, `a:endParaRPr`).
#[derive(Debug, Clone, Default)]
pub(super) struct RunProps {
    size: Option<f64>,
    bold: Option<bool>,
    italic: Option<bool>,
    /// `Some("none")` switches underline off.
    underline: Option<String>,
    /// `Some("noStrike")` switches strike-through off.
    strike: Option<String>,
    pub(super) color: Option<Color>,
    highlight: Option<Color>,
    /// As written (`+mn-lt` resolved later, with the theme).
    pub(super) latin: Option<String>,
    east_asian: Option<String>,
    baseline: Option<f64>,
    caps: Option<String>,
    spacing: Option<f64>,
    /// The text's outer shadow (`a:effectLst`); `Some(None)`: an effect list without one.
    shadow: Option<Option<Shadow>>,
}

impl RunProps {
    /// Reads run properties; colours resolve in `ctx`.
    pub(super) fn read(el: Element<'_>, ctx: &ColorCtx<'_>) -> RunProps {
        let mut r = RunProps {
            size: el
                .attr(Ns::None, "sz")
                .and_then(number)
                .map(|s| (s / 100.0).clamp(1.0, MAX_FONT_PT)),
            bold: el.attr(Ns::None, "b").map(truthy),
            italic: el.attr(Ns::None, "i").map(truthy),
            underline: el.attr(Ns::None, "u").map(safe_name),
            strike: el.attr(Ns::None, "strike").map(safe_name),
            baseline: el
                .attr(Ns::None, "baseline")
                .and_then(percent)
                .map(|b| (b * 100.0).clamp(-100.0, 100.0)),
            caps: el.attr(Ns::None, "cap").map(safe_name),
            spacing: el
                .attr(Ns::None, "spc")
                .and_then(number)
                .map(|s| (s / 100.0).clamp(-400.0, 400.0)),
            ..RunProps::default()
        };
        for c in el.elements() {
            if c.ns() != Ns::A {
                continue;
            }
            match c.name() {
                "solidFill" => r.color = ctx.child_color(c),
                "gradFill" => {
                    r.color = c
                        .child(Ns::A, "gsLst")
                        .and_then(|l| l.child(Ns::A, "gs"))
                        .and_then(|gs| ctx.child_color(gs));
                }
                "noFill" => {
                    r.color = Some(Color {
                        alpha: 0.0,
                        ..Color::rgb(0)
                    })
                }
                "highlight" => r.highlight = ctx.child_color(c),
                "effectLst" => r.shadow = Some(effect_list(c, ctx).outer_shadow),
                "latin" => r.latin = c.attr(Ns::None, "typeface").map(str::to_owned),
                "ea" => r.east_asian = c.attr(Ns::None, "typeface").map(str::to_owned),
                _ => {}
            }
        }
        r
    }

    /// Sets bold and italic where given (table style text).
    pub(super) fn set_flags(&mut self, bold: Option<bool>, italic: Option<bool>) {
        if bold.is_some() {
            self.bold = bold;
        }
        if italic.is_some() {
            self.italic = italic;
        }
    }

    /// Puts `top` over `self`.
    pub(super) fn overlay(&mut self, top: &RunProps) {
        macro_rules! take {
            ($($f:ident),*) => {$(if top.$f.is_some() { self.$f = top.$f.clone(); })*};
        }
        take!(
            size, bold, italic, underline, strike, color, highlight, latin, east_asian, baseline,
            caps, spacing, shadow
        );
    }
}

/// What kind of bullet a paragraph asks for.
#[derive(Debug, Clone, PartialEq)]
enum BulletKind {
    None,
    Char(String),
    Auto {
        scheme: String,
        start: i64,
    },
    /// A picture bullet: shown as a plain bullet character.
    Picture,
}

/// Bullet size.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BulletSize {
    FollowText,
    Percent(f64),
    Points(f64),
}

/// Partial paragraph properties (`a:pPr`, `a:lvlNpPr`), with the level's default run
/// properties.
#[derive(Debug, Clone, Default)]
pub(super) struct ParaProps {
    align: Option<Align>,
    margin_left: Option<i64>,
    margin_right: Option<i64>,
    indent: Option<i64>,
    space_before: Option<Spacing>,
    space_after: Option<Spacing>,
    line_spacing: Option<Spacing>,
    rtl: Option<bool>,
    bullet: Option<BulletKind>,
    /// `Some(None)`: follow the text.
    bullet_font: Option<Option<String>>,
    bullet_color: Option<Option<Color>>,
    bullet_size: Option<BulletSize>,
    /// `a:tabLst`: a paragraph's list replaces the inherited one.
    tabs: Option<Vec<TabStop>>,
    /// `defTabSz`, EMU.
    default_tab: Option<i64>,
    pub(super) run: RunProps,
}

impl ParaProps {
    /// Reads paragraph properties and their `a:defRPr`.
    pub(super) fn read(el: Element<'_>, ctx: &ColorCtx<'_>) -> ParaProps {
        let emu = |n: &str| {
            el.attr(Ns::None, n)
                .and_then(number)
                .map(|v| (v as i64).clamp(-MAX_INDENT, MAX_INDENT))
        };
        let mut p = ParaProps {
            align: el.attr(Ns::None, "algn").map(|a| match a {
                "ctr" => Align::Center,
                "r" => Align::Right,
                "just" | "justLow" => Align::Justify,
                "dist" | "thaiDist" => Align::Distributed,
                _ => Align::Left,
            }),
            margin_left: emu("marL").map(|v| v.max(0)),
            margin_right: emu("marR").map(|v| v.max(0)),
            indent: emu("indent"),
            rtl: el.attr(Ns::None, "rtl").map(truthy),
            // A stop every 0 EMU would be no stop at all: at least 1 pt apart.
            default_tab: emu("defTabSz").filter(|v| *v >= 12_700),
            ..ParaProps::default()
        };
        for c in el.elements() {
            if c.ns() != Ns::A {
                continue;
            }
            match c.name() {
                "lnSpc" => p.line_spacing = spacing(c),
                "spcBef" => p.space_before = spacing(c),
                "spcAft" => p.space_after = spacing(c),
                "buNone" => p.bullet = Some(BulletKind::None),
                "buChar" => {
                    p.bullet = Some(BulletKind::Char(
                        c.attr(Ns::None, "char").unwrap_or("\u{2022}").to_owned(),
                    ))
                }
                "buAutoNum" => {
                    p.bullet = Some(BulletKind::Auto {
                        scheme: safe_name(c.attr(Ns::None, "type").unwrap_or("arabicPeriod")),
                        start: c
                            .attr(Ns::None, "startAt")
                            .and_then(|v| v.trim().parse::<i64>().ok())
                            .unwrap_or(1)
                            .clamp(1, 32_767),
                    })
                }
                "buBlip" => p.bullet = Some(BulletKind::Picture),
                "buFontTx" => p.bullet_font = Some(None),
                "buFont" => {
                    p.bullet_font = Some(c.attr(Ns::None, "typeface").map(str::to_owned));
                }
                "buClrTx" => p.bullet_color = Some(None),
                "buClr" => p.bullet_color = Some(ctx.child_color(c)),
                "buSzTx" => p.bullet_size = Some(BulletSize::FollowText),
                "buSzPct" => {
                    p.bullet_size = c
                        .attr(Ns::None, "val")
                        .and_then(percent)
                        .map(|v| BulletSize::Percent(v.clamp(0.25, 4.0)))
                }
                "buSzPts" => {
                    p.bullet_size = c
                        .attr(Ns::None, "val")
                        .and_then(number)
                        .map(|v| BulletSize::Points((v / 100.0).clamp(1.0, MAX_FONT_PT)))
                }
                "defRPr" => p.run = RunProps::read(c, ctx),
                "tabLst" => p.tabs = Some(tab_list(c)),
                _ => {}
            }
        }
        p
    }

    /// Puts `top` over `self`.
    pub(super) fn overlay(&mut self, top: &ParaProps) {
        macro_rules! take {
            ($($f:ident),*) => {$(if top.$f.is_some() { self.$f = top.$f.clone(); })*};
        }
        take!(
            align,
            margin_left,
            margin_right,
            indent,
            space_before,
            space_after,
            line_spacing,
            rtl,
            bullet,
            bullet_font,
            bullet_color,
            bullet_size,
            tabs,
            default_tab
        );
        self.run.overlay(&top.run);
    }
}

/// The stops of an `a:tabLst`, in position order: at most [`MAX_TABS`], none outside the
/// frame's possible width, none twice at one position.
fn tab_list(list: Element<'_>) -> Vec<TabStop> {
    let mut tabs: Vec<TabStop> = list
        .children_named(Ns::A, "tab")
        .filter_map(|t| {
            let pos = t.attr(Ns::None, "pos").and_then(number)? as i64;
            let align = match t.attr(Ns::None, "algn") {
                Some("r") => TabAlign::Right,
                Some("ctr") => TabAlign::Center,
                Some("dec") => TabAlign::Decimal,
                _ => TabAlign::Left,
            };
            (0..=MAX_INDENT)
                .contains(&pos)
                .then_some(TabStop { pos, align })
        })
        .take(MAX_TABS)
        .collect();
    tabs.sort_by_key(|t| t.pos);
    tabs.dedup_by_key(|t| t.pos);
    tabs
}

/// Paragraph properties for the nine outline levels.
pub(super) type Levels = [ParaProps; 9];

/// Lays a list style (`a:lstStyle`, `p:titleStyle`, `a:defaultTextStyle` …) over
/// `levels`: `a:defPPr` applies to every level, `a:lvlNpPr` to level N.
pub(super) fn overlay_list(levels: &mut Levels, list: Element<'_>, ctx: &ColorCtx<'_>) {
    for c in list.elements() {
        if c.ns() != Ns::A {
            continue;
        }
        let name = c.name();
        if name == "defPPr" {
            let p = ParaProps::read(c, ctx);
            levels.iter_mut().for_each(|l| l.overlay(&p));
        } else if let Some(n) = name
            .strip_prefix("lvl")
            .and_then(|r| r.strip_suffix("pPr"))
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|n| (1..=9).contains(n))
        {
            levels[n - 1].overlay(&ParaProps::read(c, ctx));
        }
    }
}

/// Lays run properties (a style's `a:fontRef`, a table style's text) over every level.
pub(super) fn overlay_runs(levels: &mut Levels, run: &RunProps) {
    levels.iter_mut().for_each(|l| l.run.overlay(run));
}

/// Whether a list style element sets anything (most are empty `<a:lstStyle/>`).
pub(super) fn has_content(list: Option<Element<'_>>) -> bool {
    list.is_some_and(|l| l.elements().next().is_some())
}

/// Partial body properties (`a:bodyPr`).
#[derive(Debug, Clone, Default)]
pub(super) struct BodyProps {
    insets: [Option<i64>; 4],
    anchor: Option<VerticalAnchor>,
    anchor_center: Option<bool>,
    wrap: Option<bool>,
    vertical: Option<String>,
    rotation: Option<f64>,
    columns: Option<u32>,
    column_gap: Option<i64>,
    /// (kind, font scale, line reduction)
    autofit: Option<(String, f64, f64)>,
}

impl BodyProps {
    /// Lays an `a:bodyPr` over these properties.
    pub(super) fn overlay(&mut self, el: Element<'_>) {
        for (i, n) in ["lIns", "tIns", "rIns", "bIns"].iter().enumerate() {
            if let Some(v) = el.attr(Ns::None, n).and_then(number) {
                self.insets[i] = Some((v as i64).clamp(0, MAX_INDENT));
            }
        }
        if let Some(a) = el.attr(Ns::None, "anchor") {
            self.anchor = Some(match a {
                "ctr" => VerticalAnchor::Middle,
                "b" => VerticalAnchor::Bottom,
                _ => VerticalAnchor::Top,
            });
        }
        if let Some(v) = el.attr(Ns::None, "anchorCtr") {
            self.anchor_center = Some(truthy(v));
        }
        if let Some(v) = el.attr(Ns::None, "wrap") {
            self.wrap = Some(v != "none");
        }
        if let Some(v) = el.attr(Ns::None, "vert") {
            self.vertical = Some(safe_name(v));
        }
        if let Some(v) = el.attr(Ns::None, "rot").and_then(number) {
            self.rotation = Some((v / 60_000.0).rem_euclid(360.0));
        }
        if let Some(v) = el.attr(Ns::None, "numCol").and_then(number) {
            self.columns = Some((v as u32).clamp(1, 16));
        }
        if let Some(v) = el.attr(Ns::None, "spcCol").and_then(number) {
            // At most 50 in (a slide is rarely wider than 20 in), never negative.
            self.column_gap = Some((v as i64).clamp(0, 45_720_000));
        }
        for c in el.elements() {
            match c.name() {
                "noAutofit" => self.autofit = Some(("none".to_owned(), 1.0, 0.0)),
                "spAutoFit" => self.autofit = Some(("shape".to_owned(), 1.0, 0.0)),
                "normAutofit" => {
                    let scale = c
                        .attr(Ns::None, "fontScale")
                        .and_then(percent)
                        .unwrap_or(1.0)
                        .clamp(0.01, 1.0);
                    let reduction = c
                        .attr(Ns::None, "lnSpcReduction")
                        .and_then(percent)
                        .unwrap_or(0.0)
                        .clamp(0.0, 0.9);
                    self.autofit = Some(("normal".to_owned(), scale, reduction));
                }
                _ => {}
            }
        }
    }

    /// Explicit insets, for callers that need a different default (table cells).
    pub(super) fn set_default_insets(&mut self, insets: [i64; 4]) {
        for (slot, v) in self.insets.iter_mut().zip(insets) {
            slot.get_or_insert(v);
        }
    }

    /// Explicit anchor, for table cells.
    pub(super) fn set_anchor(&mut self, anchor: VerticalAnchor) {
        self.anchor = Some(anchor);
    }

    /// Explicit text direction, for table cells (`a:tcPr/@vert`).
    pub(super) fn set_vertical(&mut self, vertical: &str) {
        self.vertical = Some(safe_name(vertical));
    }
}

/// What text needs from the slide around it.
pub(super) struct TextCtx<'a> {
    pub(super) colors: ColorCtx<'a>,
    pub(super) theme: &'a Theme,
    /// The slide number fields show.
    pub(super) slide_number: usize,
}

/// Resolves an `a:hlinkClick` to a kept link (or `None`).
pub(super) type Links<'r> = dyn FnMut(Element<'_>) -> Option<Link> + 'r;

/// Builds a text frame from a `p:txBody`/`a:txBody` with the resolved list style, run
/// properties laid over every level (`extra`, e.g. a table style's text) and body
/// properties.
pub(super) fn text_body(
    tx: Element<'_>,
    levels: &Levels,
    extra: Option<&RunProps>,
    body: &BodyProps,
    ctx: &TextCtx<'_>,
    links: &mut Links<'_>,
) -> TextBody {
    let (autofit, font_scale, line_reduction) = body
        .autofit
        .clone()
        .unwrap_or_else(|| ("none".to_owned(), 1.0, 0.0));
    let mut out = TextBody {
        insets: [
            body.insets[0].unwrap_or(91_440),
            body.insets[1].unwrap_or(45_720),
            body.insets[2].unwrap_or(91_440),
            body.insets[3].unwrap_or(45_720),
        ],
        anchor: body.anchor.unwrap_or_default(),
        anchor_center: body.anchor_center.unwrap_or(false),
        wrap: body.wrap.unwrap_or(true),
        vertical: body.vertical.clone().unwrap_or_else(|| "horz".to_owned()),
        rotation: body.rotation.unwrap_or(0.0),
        columns: body.columns.unwrap_or(1),
        column_gap: body.column_gap.unwrap_or(0),
        autofit,
        font_scale,
        line_reduction,
        paragraphs: Vec::new(),
    };
    let mut numbers = Numbering::default();
    for p in tx.children_named(Ns::A, "p").take(MAX_PARAGRAPHS) {
        let para = paragraph(p, levels, extra, &out, ctx, links, &mut numbers);
        out.paragraphs.push(para);
    }
    out
}

/// Auto-number counters per level.
#[derive(Default)]
struct Numbering {
    /// Per level: the scheme, its start and the last value given.
    counters: [Option<(String, i64, i64)>; 9],
}

impl Numbering {
    /// The next value at `level` for `scheme`/`start`: a run continues while paragraphs
    /// at that level keep the same scheme; deeper levels do not interrupt it, shallower
    /// ones end the deeper runs.
    fn next(&mut self, level: usize, scheme: &str, start: i64) -> i64 {
        for deeper in self.counters.iter_mut().skip(level + 1) {
            *deeper = None;
        }
        let value = match &self.counters[level] {
            Some((s, st, v)) if s == scheme && *st == start => v.saturating_add(1),
            _ => start,
        };
        self.counters[level] = Some((scheme.to_owned(), start, value));
        value
    }

    /// A paragraph at `level` without a number ends the runs at that level and deeper.
    fn interrupt(&mut self, level: usize) {
        for c in self.counters.iter_mut().skip(level) {
            *c = None;
        }
    }
}

fn paragraph(
    p: Element<'_>,
    levels: &Levels,
    extra: Option<&RunProps>,
    body: &TextBody,
    ctx: &TextCtx<'_>,
    links: &mut Links<'_>,
    numbers: &mut Numbering,
) -> Paragraph {
    let ppr = p.child(Ns::A, "pPr");
    let level = ppr
        .and_then(|e| e.attr(Ns::None, "lvl"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0)
        .min(8);
    let mut props = levels[level].clone();
    if let Some(e) = extra {
        props.run.overlay(e);
    }
    if let Some(ppr) = ppr {
        props.overlay(&ParaProps::read(ppr, &ctx.colors));
    }
    let mut runs = Vec::new();
    collect_runs(p, &props.run, body.font_scale, ctx, links, &mut runs, 0);
    let end_props = {
        let mut r = props.run.clone();
        if let Some(end) = p.child(Ns::A, "endParaRPr") {
            r.overlay(&RunProps::read(end, &ctx.colors));
        }
        r
    };
    let end_size = end_props.size.unwrap_or(18.0) * body.font_scale;
    let has_text = runs
        .iter()
        .any(|r: &Run| r.kind != RunKind::Break && !r.text.is_empty());

    let bullet = match props.bullet.clone() {
        Some(kind) if has_text && kind != BulletKind::None => {
            let first = runs.iter().find(|r| r.kind != RunKind::Break);
            let text_size = first.map_or(end_size, |r| r.size);
            let size = match props.bullet_size {
                Some(BulletSize::Percent(p)) => text_size * p,
                Some(BulletSize::Points(v)) => v * body.font_scale,
                _ => text_size,
            };
            let font = match &props.bullet_font {
                Some(Some(face)) => ctx.theme.typeface(face),
                _ => first.and_then(|r| r.font.clone()),
            };
            let color = match props.bullet_color {
                Some(Some(c)) => Some(c),
                _ => first.map(|r| r.color),
            };
            let (text, scheme, font) = match kind {
                BulletKind::Char(c) => {
                    let (text, keep_font) = bullet_char(&c, font.as_deref());
                    (text, None, if keep_font { font } else { None })
                }
                BulletKind::Picture => ("\u{2022}".to_owned(), None, None),
                BulletKind::Auto { scheme, start } => {
                    let n = numbers.next(level, &scheme, start);
                    (auto_number(&scheme, n), Some(scheme), font)
                }
                BulletKind::None => unreachable!("filtered above"),
            };
            Some(Bullet {
                text,
                font,
                color,
                size,
                scheme,
            })
        }
        _ => None,
    };
    if has_text && !matches!(props.bullet, Some(BulletKind::Auto { .. })) {
        numbers.interrupt(level);
    }

    // `lnSpcReduction` is subtracted from a percentage line spacing (ECMA-376
    // 21.1.2.1.3: 90 % with a 20 % reduction is 70 %, not 72 %); point spacing keeps its
    // value.
    let mut line_spacing = props.line_spacing.unwrap_or(Spacing::Percent(100.0));
    if let Spacing::Percent(v) = &mut line_spacing {
        *v = (*v - body.line_reduction * 100.0).max(0.0);
    }
    Paragraph {
        level: level as u8,
        align: props.align.unwrap_or_default(),
        margin_left: props.margin_left.unwrap_or(0),
        margin_right: props.margin_right.unwrap_or(0),
        indent: props.indent.unwrap_or(0),
        space_before: props.space_before.unwrap_or(Spacing::Points(0.0)),
        space_after: props.space_after.unwrap_or(Spacing::Points(0.0)),
        line_spacing,
        rtl: props.rtl.unwrap_or(false),
        bullet,
        runs,
        end_size,
        tabs: props.tabs.unwrap_or_default(),
        default_tab: props.default_tab.unwrap_or(DEFAULT_TAB),
    }
}

/// Collects runs, breaks and fields; unknown wrappers are searched so no text is lost.
fn collect_runs(
    parent: Element<'_>,
    base: &RunProps,
    scale: f64,
    ctx: &TextCtx<'_>,
    links: &mut Links<'_>,
    out: &mut Vec<Run>,
    depth: usize,
) {
    for c in parent.elements() {
        let (kind, rpr_el) = match (c.ns(), c.name()) {
            (Ns::A, "r") => (RunKind::Text, c.child(Ns::A, "rPr")),
            (Ns::A, "br") => (RunKind::Break, c.child(Ns::A, "rPr")),
            (Ns::A, "fld") => (
                RunKind::Field {
                    field: safe_name(c.attr(Ns::None, "type").unwrap_or("")),
                },
                c.child(Ns::A, "rPr"),
            ),
            (Ns::A, "pPr" | "endParaRPr") => continue,
            _ => {
                if depth < 8 {
                    collect_runs(c, base, scale, ctx, links, out, depth + 1);
                }
                continue;
            }
        };
        let mut props = base.clone();
        let mut link = None;
        if let Some(rpr) = rpr_el {
            props.overlay(&RunProps::read(rpr, &ctx.colors));
            link = rpr.child(Ns::A, "hlinkClick").and_then(&mut *links);
        }
        let mut text = match kind {
            RunKind::Break => String::new(),
            _ => c
                .child(Ns::A, "t")
                .map(|t| t.text().into_owned())
                .unwrap_or_default(),
        };
        if let RunKind::Field { field } = &kind {
            if field == "slidenum" && (text.is_empty() || text.contains("‹#›")) {
                text = ctx.slide_number.to_string();
            }
        }
        let before = out.iter().rev().find(|r| r.kind != RunKind::Break);
        let run = make_run(kind, text, &props, before, base, scale, ctx, link);
        out.push(run);
    }
}

/// The face a run's properties name, theme references resolved: its Latin font, else
/// its East Asian one.
fn run_font(props: &RunProps, ctx: &TextCtx<'_>) -> Option<String> {
    props
        .latin
        .as_deref()
        .and_then(|f| ctx.theme.typeface(f))
        .or_else(|| {
            props
                .east_asian
                .as_deref()
                .and_then(|f| ctx.theme.typeface(f))
        })
}

/// A run from its merged properties. A symbol-font run's text is shown in the font of
/// `text_font` (the run before it), else of `text_props` (the paragraph's run properties).
#[allow(clippy::too_many_arguments)]
fn make_run(
    kind: RunKind,
    mut text: String,
    props: &RunProps,
    text_font: Option<&Run>,
    text_props: &RunProps,
    scale: f64,
    ctx: &TextCtx<'_>,
    link: Option<Link>,
) -> Run {
    let hyperlink = link.is_some();
    let mut font = run_font(props, ctx);
    // A run in a symbol font (a converter's Wingdings arrow between words) shows the
    // Unicode shapes of its characters in the text's own font: the run before it, else
    // the paragraph's, so that the line keeps that face's height (a run in another face
    // made its line taller).
    if let Some(mapped) = font.as_deref().and_then(|f| symbol_run_text(&text, f)) {
        text = mapped;
        font = text_font.and_then(|f| f.font.clone()).or_else(|| {
            run_font(text_props, ctx).filter(|f| !is_symbol_font(&f.to_ascii_lowercase()))
        });
    }
    let color = if hyperlink {
        // PowerPoint draws links in the theme's hyperlink colour, underlined.
        ctx.colors
            .scheme_color("hlink")
            .unwrap_or(Color::rgb(0x0563C1))
    } else {
        props
            .color
            .or_else(|| ctx.colors.scheme_color("tx1"))
            .unwrap_or(Color::rgb(0))
    };
    let off = |v: &Option<String>, none: &str| v.clone().filter(|s| s != none && !s.is_empty());
    Run {
        kind,
        text,
        size: props.size.unwrap_or(18.0) * scale,
        bold: props.bold.unwrap_or(false),
        italic: props.italic.unwrap_or(false),
        underline: if hyperlink {
            Some("sng".to_owned())
        } else {
            off(&props.underline, "none")
        },
        strike: off(&props.strike, "noStrike"),
        color,
        highlight: props.highlight,
        font,
        baseline: props.baseline.unwrap_or(0.0),
        caps: off(&props.caps, "none"),
        spacing: props.spacing.unwrap_or(0.0),
        shadow: props.shadow.flatten(),
        link,
    }
}

/// Symbol fonts' characters are often written in the private use area (U+F020–U+F0FF
/// stand for the font's bytes 0x20–0xFF): the byte `ch` stands for, or `ch` itself.
fn font_byte(ch: char) -> char {
    match u32::from(ch) {
        v @ 0xF020..=0xF0FF => char::from_u32(v - 0xF000).unwrap_or(ch),
        _ => ch,
    }
}

/// Whether `font` (lower case) is a symbol font: its characters are pictures, written as
/// the font's bytes (0x20–0xFF) or as those bytes moved into the private use area.
fn is_symbol_font(font: &str) -> bool {
    font.starts_with("wingdings") || font == "symbol"
}

/// The Unicode shape that character `ch` of symbol font `font` (lower case) draws, or
/// `None` when the table does not know it. Symbol fonts are rarely installed, so their
/// characters are shown through Unicode instead.
fn symbol_char(ch: char, font: &str) -> Option<char> {
    let ch = font_byte(ch);
    match font {
        // Wingdings 3 is a font of arrows and triangles with its own table: `u` (the
        // Facet theme's bullet, drawn by LibreOffice as a full right-pointing triangle)
        // and `}` are right-pointing triangles; the rest are drawn as a small one.
        "wingdings 3" => Some(match ch {
            'u' | '}' => '\u{25B6}',
            _ => '\u{25B8}',
        }),
        f if f.starts_with("wingdings") => Some(match ch {
            'l' => '\u{25CF}',
            'n' => '\u{25A0}',
            'q' => '\u{2751}',
            'u' => '\u{25C6}',
            'v' => '\u{2756}',
            'w' => '\u{2B25}',
            'Ø' => '\u{27A2}',
            'ü' => '\u{2714}',
            '§' => '\u{25AA}',
            'à' => '\u{2794}',
            'è' => '\u{2794}',
            'Ÿ' => '\u{2022}',
            'o' => '\u{25A1}',
            'p' => '\u{25A1}',
            'r' => '\u{2752}',
            's' | 't' => '\u{29EB}',
            'x' => '\u{2327}',
            '¡' => '\u{25CB}',
            '¤' => '\u{25C9}',
            '¨' => '\u{25FB}',
            'ð' => '\u{21E8}',
            'û' => '\u{2718}',
            'ý' => '\u{2612}',
            'þ' => '\u{2611}',
            _ => return None,
        }),
        "symbol" => Some(match ch {
            '·' => '\u{2022}',
            'Þ' => '\u{21D2}',
            '®' => '\u{2192}',
            '¨' => '\u{2666}',
            '-' => '\u{2212}',
            _ => return None,
        }),
        _ => None,
    }
}

/// A bullet character as shown: symbol-font characters are mapped to the Unicode shape
/// they draw (the fonts are rarely installed). Returns whether the font should be kept:
/// a symbol font is, as the resolver turns it into the faces that draw those shapes at
/// sizes near the symbol font's (OpenSymbol, then DejaVu Sans; `fonts::resolve`): in
/// the text's face a Wingdings square bullet was a third larger and sat lower.
fn bullet_char(c: &str, font: Option<&str>) -> (String, bool) {
    let ch = c.chars().next().unwrap_or('\u{2022}');
    let symbol_font = font
        .map(|f| f.to_ascii_lowercase())
        .filter(|f| is_symbol_font(f));
    let mapped = symbol_font.as_deref().map(|f| {
        symbol_char(ch, f).unwrap_or(match f {
            // An unknown Wingdings bullet is drawn as a small square; a Symbol one as the
            // character it is (Symbol's letters are Greek and its digits digits).
            "symbol" => font_byte(ch),
            _ => '\u{25AA}',
        })
    });
    match mapped {
        Some(m) => (m.to_string(), true),
        // Private-use code points come from symbol fonts too.
        None if ('\u{F000}'..='\u{F0FF}').contains(&ch) => ("\u{2022}".to_owned(), false),
        None => (ch.to_string(), true),
    }
}

/// The text of a run set in a symbol font, with the characters the table knows shown as
/// their Unicode shapes (`None`: not a symbol font, or nothing to map). PowerPoint draws
/// every character of such a run from the font; a character the table does not know is
/// kept (private-use ones become a small square rather than a missing-glyph box).
fn symbol_run_text(text: &str, font: &str) -> Option<String> {
    let font = font.to_ascii_lowercase();
    if !is_symbol_font(&font) {
        return None;
    }
    let mut changed = false;
    let out = text
        .chars()
        .map(|c| {
            let m = symbol_char(c, &font)
                .or_else(|| ('\u{F020}'..='\u{F0FF}').contains(&c).then_some('\u{25AA}'));
            changed |= m.is_some_and(|m| m != c);
            m.unwrap_or(c)
        })
        .collect();
    changed.then_some(out)
}

/// The label of auto-number `n` in `scheme` (`arabicPeriod` → "3.", `alphaLcParenR` →
/// "c)", `romanUcPeriod` → "III.").
pub(super) fn auto_number(scheme: &str, n: i64) -> String {
    let (body, rest) = if let Some(r) = scheme.strip_prefix("arabic") {
        (n.to_string(), r)
    } else if let Some(r) = scheme.strip_prefix("alphaLc") {
        (letters(n), r)
    } else if let Some(r) = scheme.strip_prefix("alphaUc") {
        (letters(n).to_uppercase(), r)
    } else if let Some(r) = scheme.strip_prefix("romanLc") {
        (roman(n), r)
    } else if let Some(r) = scheme.strip_prefix("romanUc") {
        (roman(n).to_uppercase(), r)
    } else if let Some(r) = scheme.strip_prefix("circleNum") {
        let c = u32::try_from(n)
            .ok()
            .filter(|v| (1..=20).contains(v))
            .and_then(|v| char::from_u32(0x2460 + v - 1));
        (c.map_or_else(|| n.to_string(), String::from), r)
    } else {
        (n.to_string(), "Period")
    };
    match rest {
        "ParenBoth" => format!("({body})"),
        "ParenR" => format!("{body})"),
        "Plain" | "DbPlain" | "WdBlackPlain" | "WdWhitePlain" => body,
        "Minus" => format!("- {body} -"),
        "Colon" => format!("{body}:"),
        _ => format!("{body}."),
    }
}

/// a, b, … z, aa, bb … (PowerPoint repeats the letter).
fn letters(n: i64) -> String {
    if n < 1 {
        return n.to_string();
    }
    let n = (n - 1) as usize;
    let letter = char::from(b'a' + (n % 26) as u8);
    std::iter::repeat_n(letter, (n / 26 + 1).min(50)).collect()
}

/// Lower-case roman numerals (plain numbers past 3 999).
fn roman(n: i64) -> String {
    if !(1..4000).contains(&n) {
        return n.to_string();
    }
    const TABLE: [(i64, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut n = n;
    let mut out = String::new();
    for (v, s) in TABLE {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// A spacing element (`a:lnSpc`, `a:spcBef`, `a:spcAft`) holding `a:spcPct` or
/// `a:spcPts`.
fn spacing(el: Element<'_>) -> Option<Spacing> {
    if let Some(p) = el.child(Ns::A, "spcPct") {
        return p
            .attr(Ns::None, "val")
            .and_then(percent)
            .map(|v| Spacing::Percent((v * 100.0).clamp(0.0, 1_000.0)));
    }
    el.child(Ns::A, "spcPts")
        .and_then(|p| p.attr(Ns::None, "val"))
        .and_then(number)
        .map(|v| Spacing::Points((v / 100.0).clamp(0.0, 1_584.0)))
}

/// An XML boolean.
pub(super) fn truthy(v: &str) -> bool {
    matches!(v.trim(), "1" | "true" | "on")
}

/// Keeps an enumerated value safe to echo (ASCII letters and digits, bounded).
pub(super) fn safe_name(v: &str) -> String {
    v.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_number_schemes() {
        assert_eq!(auto_number("arabicPeriod", 3), "3.");
        assert_eq!(auto_number("alphaLcParenR", 2), "b)");
        assert_eq!(auto_number("alphaUcParenBoth", 28), "(BB)");
        assert_eq!(auto_number("romanUcPeriod", 4), "IV.");
        assert_eq!(auto_number("romanLcParenR", 9), "ix)");
        assert_eq!(auto_number("arabicPlain", 7), "7");
        assert_eq!(auto_number("circleNumDbPlain", 2), "\u{2461}");
        assert_eq!(auto_number("somethingNew", 5), "5.");
    }

    #[test]
    fn numbering_runs_continue_across_deeper_levels() {
        let mut n = Numbering::default();
        assert_eq!(n.next(0, "arabicPeriod", 1), 1);
        assert_eq!(n.next(1, "alphaLcPeriod", 1), 1);
        assert_eq!(n.next(1, "alphaLcPeriod", 1), 2);
        assert_eq!(n.next(0, "arabicPeriod", 1), 2);
        // The deeper run restarted after its parent moved on.
        assert_eq!(n.next(1, "alphaLcPeriod", 1), 1);
        n.interrupt(0);
        assert_eq!(n.next(0, "arabicPeriod", 1), 1);
    }

    #[test]
    fn private_use_symbol_bullets_map_like_their_low_byte() {
        // PowerPoint writes Wingdings bullets as U+F0xx (the symbol font's code page
        // moved into the private use area): U+F0FC is the check mark, U+F06E the square.
        assert_eq!(
            bullet_char("\u{F0FC}", Some("Wingdings")),
            ("\u{2714}".to_owned(), true)
        );
        assert_eq!(
            bullet_char("\u{F06E}", Some("Wingdings")),
            ("\u{25A0}".to_owned(), true)
        );
        assert_eq!(
            bullet_char("\u{F0D8}", Some("Wingdings")),
            ("\u{27A2}".to_owned(), true)
        );
        assert_eq!(
            bullet_char("\u{F0DE}", Some("Symbol")),
            ("\u{21D2}".to_owned(), true)
        );
    }

    #[test]
    fn wingdings_3_bullets_use_that_fonts_own_table() {
        // The Facet theme's bullet (shapecrawler-036): Wingdings 3 U+F07D, a right-pointing
        // triangle, not Wingdings' (whose table would draw a small square).
        assert_eq!(
            bullet_char("\u{F07D}", Some("Wingdings 3")),
            ("\u{25B6}".to_owned(), true)
        );
        assert_eq!(
            bullet_char("}", Some("Wingdings 3")),
            ("\u{25B6}".to_owned(), true)
        );
        // The same theme in other decks (powertools-TenSlides, FiveSlides) writes U+F075.
        assert_eq!(
            bullet_char("\u{F075}", Some("Wingdings 3")),
            ("\u{25B6}".to_owned(), true)
        );
        // Wingdings' own check mark is unchanged.
        assert_eq!(
            bullet_char("\u{F0FC}", Some("Wingdings")),
            ("\u{2714}".to_owned(), true)
        );
    }

    #[test]
    fn runs_in_a_symbol_font_show_the_unicode_shapes_of_their_characters() {
        // shapecrawler-031: "Radiology  make requests", the arrow a Wingdings run.
        assert_eq!(
            symbol_run_text("\u{F0E0}", "Wingdings").as_deref(),
            Some("\u{2794}")
        );
        assert_eq!(
            symbol_run_text("\u{F06E} x", "Wingdings").as_deref(),
            Some("\u{25A0} \u{2327}")
        );
        // An unknown private-use character is a small square, not a missing glyph.
        assert_eq!(
            symbol_run_text("\u{F021}", "Wingdings 2").as_deref(),
            Some("\u{25AA}")
        );
        // Symbol's Greek letters stay letters; other fonts are not touched.
        assert_eq!(symbol_run_text("abc", "Symbol"), None);
        assert_eq!(symbol_run_text("\u{F0E0}", "Tahoma"), None);
    }

    #[test]
    fn symbol_bullets_map_to_unicode() {
        assert_eq!(bullet_char("§", Some("Wingdings")), ("▪".to_owned(), true));
        assert_eq!(bullet_char("•", Some("Arial")), ("•".to_owned(), true));
        assert_eq!(bullet_char("\u{F0B7}", None), ("•".to_owned(), false));
    }
}
