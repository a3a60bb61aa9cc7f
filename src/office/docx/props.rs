//! Partial paragraph and run properties (`w:pPr`, `w:rPr`) and how they stack.
//!
//! Word resolves formatting by layering: document defaults, then the style chain, then
//! numbering, then direct formatting. Each layer sets only some properties, so the partial
//! forms here keep `Option`s; [`PPr::overlay`]/[`RPr::overlay`] put one layer on top of
//! another and [`RPr::apply`] writes the result into the model's [`RunFormat`].

use std::sync::Arc;

use crate::office::xml::Element;
use crate::office::Ns;

use super::theme::{ThemeColors, FILL_COLOR, LINE_COLOR, RUN_COLOR};

use super::model::{
    Align, Border, Borders, Color, LineSpacing, ListSuffix, RunFormat, TabAlign, TabLeader,
    TabStop, VerticalAlign,
};

/// Twentieths of a point (twips) to points.
pub(crate) fn twips(v: &str) -> Option<f32> {
    number(v).map(|n| n / 20.0)
}

/// English Metric Units to points.
pub(crate) fn emu(v: &str) -> Option<f32> {
    number(v).map(|n| n / 12_700.0)
}

/// A decimal number; Word sometimes writes fractional values where integers are due.
pub(crate) fn number(v: &str) -> Option<f32> {
    let n: f32 = v.trim().parse().ok()?;
    n.is_finite().then_some(n)
}

/// The `w:val` attribute.
pub(crate) fn val(el: Element<'_>) -> Option<&str> {
    el.attr(Ns::W, "val")
}

/// An on/off property: present without `w:val`, or with a true value, means on.
pub(crate) fn on_off(el: Element<'_>) -> bool {
    !matches!(val(el), Some("0" | "false" | "off" | "none"))
}

/// A hex colour; `None` for `auto` and anything malformed.
pub(crate) fn hex_color(v: &str) -> Option<Color> {
    Color::from_hex(v.trim())
}

/// The colour of a `w:highlight` name.
pub(crate) fn highlight_color(name: &str) -> Option<Color> {
    highlight_hex(name).and_then(|hex| Color::from_hex(&hex[1..]))
}

/// The CSS colour of a `w:highlight` name.
fn highlight_hex(name: &str) -> Option<&'static str> {
    Some(match name {
        "yellow" => "#FFFF00",
        "green" => "#00FF00",
        "cyan" => "#00FFFF",
        "magenta" => "#FF00FF",
        "blue" => "#0000FF",
        "red" => "#FF0000",
        "darkBlue" => "#000080",
        "darkCyan" => "#008080",
        "darkGreen" => "#008000",
        "darkMagenta" => "#800080",
        "darkRed" => "#800000",
        "darkYellow" => "#808000",
        "darkGray" => "#808080",
        "lightGray" => "#C0C0C0",
        "black" => "#000000",
        "white" => "#FFFFFF",
        _ => return None,
    })
}

/// The fill of a `w:shd`: `Some(None)` for an explicit "no fill".
pub(crate) fn shading(el: Element<'_>, theme: &ThemeColors) -> Option<Option<Color>> {
    let pattern = val(el).unwrap_or("clear");
    if pattern == "nil" {
        return Some(None);
    }
    // A solid pattern shows the pattern colour, not the fill.
    if pattern == "solid" {
        if let Some(c) = theme.resolve(el, &LINE_COLOR) {
            return Some(Some(c));
        }
    }
    let has_fill = el.attr(Ns::W, "fill").is_some() || el.attr(Ns::W, "themeFill").is_some();
    // A pattern is dots or lines of the pattern colour over the fill, which Word shows
    // on screen as their mix: `pct5` is 5 % of `w:color` (automatic: black) over
    // `w:fill` (automatic: none, the white page), the light grey of many old forms.
    if let Some(share) = pattern_share(pattern) {
        let ink = theme
            .resolve(el, &LINE_COLOR)
            .unwrap_or(Color::rgb(0, 0, 0));
        let paper = has_fill
            .then(|| theme.resolve(el, &FILL_COLOR))
            .flatten()
            .unwrap_or(Color::rgb(0xFF, 0xFF, 0xFF));
        return Some(Some(mix(ink, paper, share)));
    }
    has_fill.then(|| theme.resolve(el, &FILL_COLOR))
}

/// How much of a shading pattern (`w:shd/@w:val`, ECMA-376 §17.18.78) is its pattern
/// colour: `pctN` is N %; the heavy stripes and crosses cover half the area, the thin
/// ones a quarter. `None` for `clear` and `solid` (handled above) and unknown values.
fn pattern_share(pattern: &str) -> Option<f32> {
    if let Some(n) = pattern.strip_prefix("pct") {
        return n
            .parse::<u8>()
            .ok()
            .filter(|n| (1..100).contains(n))
            .map(|n| f32::from(n) / 100.0);
    }
    match pattern {
        "horzStripe" | "vertStripe" | "reverseDiagStripe" | "diagStripe" | "horzCross"
        | "diagCross" => Some(0.5),
        "thinHorzStripe"
        | "thinVertStripe"
        | "thinReverseDiagStripe"
        | "thinDiagStripe"
        | "thinHorzCross"
        | "thinDiagCross" => Some(0.25),
        _ => None,
    }
}

/// `share` of `ink` over `paper`, channel by channel.
fn mix(ink: Color, paper: Color, share: f32) -> Color {
    let [a, b] = [ink.channels(), paper.channels()];
    let ch = |i: usize| (f32::from(a[i]) * share + f32::from(b[i]) * (1.0 - share)).round() as u8;
    Color::rgb(ch(0), ch(1), ch(2))
}

/// A border line (`w:top`, `w:insideH` …); sizes are in eighths of a point.
pub(crate) fn border(el: Element<'_>, theme: &ThemeColors) -> Border {
    let style = border_style(val(el).unwrap_or("single"));
    let width = el
        .attr(Ns::W, "sz")
        .and_then(number)
        .map(|s| s / 8.0)
        .unwrap_or(0.5);
    // Word caps the distance at 31 pt.
    let space = el
        .attr(Ns::W, "space")
        .and_then(number)
        .map_or(0.0, |v| v.clamp(0.0, 31.0));
    Border {
        style,
        width,
        color: theme.resolve(el, &LINE_COLOR),
        space,
        shadow: el
            .attr(Ns::W, "shadow")
            .is_some_and(|v| matches!(v, "1" | "true" | "on")),
    }
}

/// The border styles a viewer distinguishes; art borders and rarer line styles draw as
/// the nearest plain line.
fn border_style(v: &str) -> &'static str {
    match v {
        "nil" | "none" => "none",
        "double" | "triple" | "thinThickSmallGap" | "thickThinSmallGap" | "thinThickMediumGap"
        | "thickThinMediumGap" | "thinThickLargeGap" | "thickThinLargeGap" | "doubleWave" => {
            "double"
        }
        "dotted" => "dotted",
        "dashed" | "dashSmallGap" | "dotDash" | "dotDotDash" | "dashDotStroked" => "dashed",
        "thick" => "thick",
        "wave" => "wave",
        "inset" | "threeDEngrave" => "inset",
        "outset" | "threeDEmboss" => "outset",
        _ => "single",
    }
}

/// Reads the sides of a border container (`w:pBdr`, `w:tblBorders`, `w:tcBorders`).
pub(crate) fn borders(el: Element<'_>, theme: &ThemeColors) -> Borders {
    let mut b = Borders::default();
    for side in el.elements() {
        if side.ns() != Ns::W {
            continue;
        }
        let line = Some(border(side, theme));
        match side.name() {
            "top" => b.top = line,
            "bottom" => b.bottom = line,
            "left" | "start" => b.left = line,
            "right" | "end" => b.right = line,
            "insideH" | "between" => b.inside_h = line,
            "insideV" => b.inside_v = line,
            _ => {}
        }
    }
    b
}

/// Puts the sides set in `top` over `base`.
pub(crate) fn overlay_borders(base: &mut Borders, top: &Borders) {
    for (b, t) in [
        (&mut base.top, &top.top),
        (&mut base.right, &top.right),
        (&mut base.bottom, &top.bottom),
        (&mut base.left, &top.left),
        (&mut base.inside_h, &top.inside_h),
        (&mut base.inside_v, &top.inside_v),
    ] {
        if t.is_some() {
            b.clone_from(t);
        }
    }
}

/// A reference to a numbering instance and level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NumRef {
    /// `w:numId`; "0" removes numbering.
    pub num_id: Option<String>,
    /// `w:ilvl`.
    pub level: Option<u8>,
}

/// Partial paragraph properties.
#[derive(Debug, Clone, Default)]
pub(crate) struct PPr {
    pub style: Option<String>,
    pub align: Option<Align>,
    pub indent_left: Option<f32>,
    pub indent_right: Option<f32>,
    pub indent_first_line: Option<f32>,
    pub space_before: Option<f32>,
    pub space_after: Option<f32>,
    /// `w:beforeAutospacing` / `w:afterAutospacing`: the application's own spacing
    /// instead of the value beside it.
    pub auto_before: Option<bool>,
    pub auto_after: Option<bool>,
    pub line_spacing: Option<LineSpacing>,
    pub page_break_before: Option<bool>,
    pub keep_next: Option<bool>,
    pub keep_lines: Option<bool>,
    pub bidi: Option<bool>,
    pub contextual_spacing: Option<bool>,
    pub snap_to_grid: Option<bool>,
    pub shading: Option<Option<Color>>,
    pub borders: Borders,
    pub tabs: Vec<TabStop>,
    pub cleared_tabs: Vec<f32>,
    pub num: Option<NumRef>,
    pub outline_level: Option<u8>,
    /// Run properties of the paragraph mark (`w:pPr/w:rPr`).
    pub mark: RPr,
}

impl PPr {
    /// Reads a `w:pPr` element (or the `w:pPr` of a style or numbering level).
    pub fn from_xml(el: Element<'_>, theme: &ThemeColors) -> PPr {
        let mut p = PPr::default();
        for c in el.elements() {
            if c.ns() != Ns::W {
                continue;
            }
            match c.name() {
                "pStyle" => p.style = val(c).map(str::to_owned),
                "jc" => {
                    p.align = match val(c) {
                        Some("center") => Some(Align::Center),
                        Some("right" | "end") => Some(Align::Right),
                        Some("both" | "lowKashida" | "mediumKashida" | "highKashida") => {
                            Some(Align::Justify)
                        }
                        Some("distribute" | "thaiDistribute") => Some(Align::Distribute),
                        Some("left" | "start") => Some(Align::Left),
                        _ => None,
                    }
                }
                "ind" => {
                    let get = |names: &[&str]| names.iter().find_map(|n| c.attr(Ns::W, n));
                    if let Some(v) = get(&["start", "left"]).and_then(twips) {
                        p.indent_left = Some(v);
                    }
                    if let Some(v) = get(&["end", "right"]).and_then(twips) {
                        p.indent_right = Some(v);
                    }
                    if let Some(v) = c.attr(Ns::W, "firstLine").and_then(twips) {
                        p.indent_first_line = Some(v);
                    }
                    // A hanging indent wins over a first-line indent.
                    if let Some(v) = c.attr(Ns::W, "hanging").and_then(twips) {
                        p.indent_first_line = Some(-v);
                    }
                }
                "spacing" => {
                    if let Some(v) = c.attr(Ns::W, "before").and_then(twips) {
                        p.space_before = Some(v);
                    }
                    if let Some(v) = c.attr(Ns::W, "after").and_then(twips) {
                        p.space_after = Some(v);
                    }
                    let flag = |name| {
                        c.attr(Ns::W, name)
                            .map(|v| matches!(v, "1" | "true" | "on"))
                    };
                    p.auto_before = flag("beforeAutospacing").or(p.auto_before);
                    p.auto_after = flag("afterAutospacing").or(p.auto_after);
                    if let Some(line) = c.attr(Ns::W, "line").and_then(number) {
                        p.line_spacing = Some(match c.attr(Ns::W, "lineRule") {
                            Some("exact") => LineSpacing::Exact(line / 20.0),
                            Some("atLeast") => LineSpacing::AtLeast(line / 20.0),
                            _ => LineSpacing::Multiple(line / 240.0),
                        });
                    }
                }
                "pageBreakBefore" => p.page_break_before = Some(on_off(c)),
                "keepNext" => p.keep_next = Some(on_off(c)),
                "keepLines" => p.keep_lines = Some(on_off(c)),
                "bidi" => p.bidi = Some(on_off(c)),
                "contextualSpacing" => p.contextual_spacing = Some(on_off(c)),
                "snapToGrid" => p.snap_to_grid = Some(on_off(c)),
                "shd" => p.shading = shading(c, theme),
                "pBdr" => p.borders = borders(c, theme),
                "tabs" => {
                    for tab in c.children_named(Ns::W, "tab") {
                        let Some(pos) = tab.attr(Ns::W, "pos").and_then(twips) else {
                            continue;
                        };
                        let align = match val(tab) {
                            Some("clear") => {
                                p.cleared_tabs.push(pos);
                                continue;
                            }
                            Some("center") => TabAlign::Center,
                            Some("right" | "end") => TabAlign::Right,
                            Some("decimal") => TabAlign::Decimal,
                            Some("bar") => TabAlign::Bar,
                            // left, start, the list tab `num`, and anything unknown.
                            _ => TabAlign::Left,
                        };
                        let leader = match tab.attr(Ns::W, "leader") {
                            Some("dot") => Some(TabLeader::Dot),
                            Some("hyphen") => Some(TabLeader::Hyphen),
                            Some("underscore") => Some(TabLeader::Underscore),
                            Some("middleDot") => Some(TabLeader::MiddleDot),
                            Some("heavy") => Some(TabLeader::Heavy),
                            _ => None,
                        };
                        p.tabs.push(TabStop {
                            position: pos,
                            align,
                            leader,
                        });
                    }
                }
                "numPr" => {
                    p.num = Some(NumRef {
                        num_id: c.child(Ns::W, "numId").and_then(val).map(str::to_owned),
                        level: c
                            .child(Ns::W, "ilvl")
                            .and_then(val)
                            .and_then(|v| v.parse::<u8>().ok())
                            .map(|l| l.min(8)),
                    })
                }
                "outlineLvl" => {
                    p.outline_level = val(c).and_then(|v| v.parse::<u8>().ok());
                }
                "rPr" => p.mark = RPr::from_xml(c, theme),
                _ => {}
            }
        }
        p
    }

    /// Puts the properties set in `top` over `self`.
    pub fn overlay(&mut self, top: &PPr) {
        macro_rules! take {
            ($($f:ident),*) => { $( if top.$f.is_some() { self.$f.clone_from(&top.$f); } )* };
        }
        take!(
            style,
            align,
            indent_left,
            indent_right,
            indent_first_line,
            space_before,
            space_after,
            auto_before,
            auto_after,
            line_spacing,
            page_break_before,
            keep_next,
            keep_lines,
            bidi,
            contextual_spacing,
            snap_to_grid,
            shading,
            outline_level
        );
        if let Some(num) = &top.num {
            // A level without an id keeps the inherited id, and the reverse.
            let merged = match &self.num {
                Some(base) => NumRef {
                    num_id: num.num_id.clone().or_else(|| base.num_id.clone()),
                    level: num.level.or(base.level),
                },
                None => num.clone(),
            };
            self.num = Some(merged);
        }
        overlay_borders(&mut self.borders, &top.borders);
        self.tabs.retain(|t| {
            !top.cleared_tabs
                .iter()
                .any(|c| (c - t.position).abs() < 0.5)
        });
        for tab in &top.tabs {
            self.tabs
                .retain(|t| (t.position - tab.position).abs() >= 0.5);
            self.tabs.push(tab.clone());
        }
        self.mark.overlay(&top.mark);
    }
}

/// Partial run properties.
#[derive(Debug, Clone, Default)]
pub(crate) struct RPr {
    pub style: Option<String>,
    pub bold: Option<bool>,
    pub italic: Option<bool>,
    pub underline: Option<Option<String>>,
    pub underline_color: Option<Option<Color>>,
    pub strike: Option<bool>,
    pub double_strike: Option<bool>,
    pub color: Option<Option<Color>>,
    pub size: Option<f32>,
    pub font: Option<FontRef>,
    pub highlight: Option<Option<Color>>,
    pub shading: Option<Option<Color>>,
    pub vertical_align: Option<Option<VerticalAlign>>,
    pub caps: Option<bool>,
    pub small_caps: Option<bool>,
    pub hidden: Option<bool>,
    pub spacing: Option<f32>,
    pub rtl: Option<bool>,
    /// The complex-script twins (`w:szCs`, `w:bCs`, `w:iCs`, `w:rFonts/@w:cs`): Word
    /// draws Arabic, Hebrew, Thai … text and right-to-left runs with these.
    pub size_cs: Option<f32>,
    pub bold_cs: Option<bool>,
    pub italic_cs: Option<bool>,
    pub font_cs: Option<Arc<str>>,
    /// `w:rFonts/@w:eastAsia`: Word sets Chinese, Japanese and Korean characters in it,
    /// the run's Latin text staying in the `ascii`/`hAnsi` face.
    pub font_ea: Option<Arc<str>>,
    /// `w:cs`: the run is complex script whatever its characters.
    pub cs: Option<bool>,
}

/// Whether `text` holds characters Word sets with a run's complex-script properties:
/// Hebrew, Arabic, Syriac, Thaana, N'Ko and the other right-to-left scripts, Thai and
/// Lao, and the Hebrew and Arabic presentation forms.
pub(crate) fn complex_script(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c as u32,
            0x0590..=0x08FF | 0x0E00..=0x0EFF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF
            | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
    })
}

/// Whether `text` holds characters Word sets in a run's East Asian face: CJK ideographs
/// and their symbols and punctuation, kana, Hangul, Bopomofo and the full-width forms.
pub(crate) fn east_asian(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c as u32,
            0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3000..=0x31FF | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
    })
}

/// A font named directly or through the theme (`minorHAnsi` …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FontRef {
    Named(Arc<str>),
    /// `true` for the major (heading) font, else the minor (body) font.
    Theme {
        major: bool,
    },
}

impl RPr {
    /// Reads a `w:rPr` element.
    pub fn from_xml(el: Element<'_>, theme: &ThemeColors) -> RPr {
        let mut r = RPr::default();
        for c in el.elements() {
            if c.ns() != Ns::W {
                continue;
            }
            match c.name() {
                "rStyle" => r.style = val(c).map(str::to_owned),
                "b" => r.bold = Some(on_off(c)),
                "i" => r.italic = Some(on_off(c)),
                "strike" => r.strike = Some(on_off(c)),
                "dstrike" => r.double_strike = Some(on_off(c)),
                "caps" => r.caps = Some(on_off(c)),
                "smallCaps" => r.small_caps = Some(on_off(c)),
                "vanish" => r.hidden = Some(on_off(c)),
                "rtl" => r.rtl = Some(on_off(c)),
                "cs" => r.cs = Some(on_off(c)),
                "bCs" => r.bold_cs = Some(on_off(c)),
                "iCs" => r.italic_cs = Some(on_off(c)),
                "szCs" => {
                    if let Some(half_points) = val(c).and_then(number) {
                        r.size_cs = Some(half_points / 2.0);
                    }
                }
                "u" => {
                    r.underline = Some(match val(c) {
                        None => Some("single".to_owned()),
                        Some("none" | "0" | "false") => None,
                        Some(style) => Some(style.to_owned()),
                    });
                    if c.attr(Ns::W, "color").is_some() || c.attr(Ns::W, "themeColor").is_some() {
                        r.underline_color = Some(theme.resolve(c, &LINE_COLOR));
                    }
                }
                "color" => r.color = Some(theme.resolve(c, &RUN_COLOR)),
                "sz" => {
                    if let Some(half_points) = val(c).and_then(number) {
                        r.size = Some(half_points / 2.0);
                    }
                }
                "rFonts" => {
                    if let Some(cs) = c.attr(Ns::W, "cs").filter(|n| !n.trim().is_empty()) {
                        r.font_cs = Some(cs.into());
                    }
                    if let Some(ea) = c.attr(Ns::W, "eastAsia").filter(|n| !n.trim().is_empty()) {
                        r.font_ea = Some(ea.into());
                    }
                    // The Latin face only: a run that names just its East Asian or
                    // complex-script face keeps the Latin one it inherits.
                    let named = ["ascii", "hAnsi"].iter().find_map(|n| c.attr(Ns::W, n));
                    let theme = ["asciiTheme", "hAnsiTheme"]
                        .iter()
                        .find_map(|n| c.attr(Ns::W, n));
                    // A theme font wins over the literal name, as in Word.
                    if let Some(theme) = theme {
                        r.font = Some(FontRef::Theme {
                            major: theme.starts_with("major"),
                        });
                    } else if let Some(name) = named {
                        r.font = Some(FontRef::Named(name.into()));
                    }
                }
                "highlight" => r.highlight = Some(val(c).and_then(highlight_color)),
                "shd" => r.shading = shading(c, theme),
                "vertAlign" => {
                    r.vertical_align = Some(match val(c) {
                        Some("superscript") => Some(VerticalAlign::Superscript),
                        Some("subscript") => Some(VerticalAlign::Subscript),
                        _ => None,
                    })
                }
                "spacing" => r.spacing = val(c).and_then(twips),
                _ => {}
            }
        }
        r
    }

    /// Puts the properties set in `top` over `self`.
    pub fn overlay(&mut self, top: &RPr) {
        macro_rules! take {
            ($($f:ident),*) => { $( if top.$f.is_some() { self.$f.clone_from(&top.$f); } )* };
        }
        take!(
            style,
            bold,
            italic,
            underline,
            underline_color,
            strike,
            double_strike,
            color,
            size,
            font,
            highlight,
            shading,
            vertical_align,
            caps,
            small_caps,
            hidden,
            spacing,
            rtl,
            size_cs,
            bold_cs,
            italic_cs,
            font_cs,
            font_ea,
            cs
        );
    }

    /// Whether the run's own properties make it complex script (`w:rtl`, `w:cs`).
    pub fn complex(&self) -> bool {
        self.rtl == Some(true) || self.cs == Some(true)
    }

    /// The resolved model formatting for complex-script text: size, bold, italic and
    /// font from their complex-script twins where the document sets them (a document
    /// that sets only `w:sz` keeps it for such text too, rather than Word's 10 pt).
    pub fn apply_complex(&self, fonts: &ThemeFonts) -> RunFormat {
        let mut f = self.apply(fonts);
        if let Some(size) = self.size_cs {
            f.size = Some(size);
        }
        if let Some(b) = self.bold_cs {
            f.bold = b;
        }
        if let Some(i) = self.italic_cs {
            f.italic = i;
        }
        if let Some(font) = &self.font_cs {
            f.font = Some(font.clone());
        }
        f
    }

    /// The resolved model formatting for East Asian text: the run's `w:eastAsia` face,
    /// when it names one.
    pub fn apply_east_asian(&self, fonts: &ThemeFonts) -> RunFormat {
        let mut f = self.apply(fonts);
        if let Some(font) = &self.font_ea {
            f.font = Some(font.clone());
        }
        f
    }

    /// [`Self::apply_complex`] when the run's properties make it complex script, else
    /// [`Self::apply`].
    pub fn apply_for_run(&self, fonts: &ThemeFonts) -> RunFormat {
        if self.complex() {
            self.apply_complex(fonts)
        } else {
            self.apply(fonts)
        }
    }

    /// The resolved model formatting; theme fonts are looked up in `fonts`.
    pub fn apply(&self, fonts: &ThemeFonts) -> RunFormat {
        RunFormat {
            bold: self.bold.unwrap_or(false),
            italic: self.italic.unwrap_or(false),
            underline: self.underline.clone().flatten(),
            underline_color: self
                .underline
                .as_ref()
                .and_then(|u| u.as_ref())
                .and(self.underline_color.flatten()),
            strike: self.strike.unwrap_or(false),
            double_strike: self.double_strike.unwrap_or(false),
            color: self.color.flatten(),
            size: self.size,
            font: match &self.font {
                Some(FontRef::Named(n)) => Some(n.clone()),
                Some(FontRef::Theme { major }) => {
                    if *major {
                        fonts.major.clone()
                    } else {
                        fonts.minor.clone()
                    }
                }
                None => None,
            },
            highlight: self.highlight.flatten(),
            shading: self.shading.flatten(),
            vertical_align: self.vertical_align.flatten(),
            caps: self.caps.unwrap_or(false),
            small_caps: self.small_caps.unwrap_or(false),
            hidden: self.hidden.unwrap_or(false),
            spacing: self.spacing.filter(|s| *s != 0.0),
            rtl: self.rtl.unwrap_or(false),
        }
    }
}

/// Latin typefaces of the theme's font scheme.
#[derive(Debug, Clone, Default)]
pub(crate) struct ThemeFonts {
    pub major: Option<Arc<str>>,
    pub minor: Option<Arc<str>>,
}

impl ThemeFonts {
    /// Reads `a:fontScheme` from a parsed theme part.
    pub fn from_theme(root: Element<'_>) -> ThemeFonts {
        let latin = |which: &str| {
            root.find(Ns::A, which)
                .and_then(|f| f.child(Ns::A, "latin"))
                .and_then(|l| l.attr_local("typeface"))
                .filter(|t| !t.is_empty())
                .map(Arc::from)
        };
        ThemeFonts {
            major: latin("majorFont"),
            minor: latin("minorFont"),
        }
    }
}

/// The suffix after a list label (`w:suff`).
pub(crate) fn list_suffix(v: Option<&str>) -> ListSuffix {
    match v {
        Some("space") => ListSuffix::Space,
        Some("nothing") => ListSuffix::Nothing,
        _ => ListSuffix::Tab,
    }
}
