//! Cell styles of a workbook (`xl/styles.xml`) resolved to what the grid draws: one CSS
//! declaration list per cell format (`cellXfs` record), its number format, alignment,
//! wrap, indent and rotation. Colours are resolved here, from RGB, the theme (with tint)
//! or the legacy indexed palette, so the viewer only sees `#rrggbb`.

use std::collections::HashMap;
use std::fmt::Write;

use serde::Serialize;

use super::numfmt::{builtin, NumberFormat};
use crate::office::pptx::color::{hsl_to_rgb, rgb_to_hsl};
use crate::office::xml::{Element, XmlDoc};
use crate::office::{Ns, OfficeError, OfficeErrorKind, OfficeResult};

/// The legacy 64-colour palette that `indexed` colours and `[ColorN]` refer to.
const INDEXED: [u32; 64] = [
    0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x000000,
    0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x800000, 0x008000,
    0x000080, 0x808000, 0x800080, 0x008080, 0xC0C0C0, 0x808080, 0x9999FF, 0x993366, 0xFFFFCC,
    0xCCFFFF, 0x660066, 0xFF8080, 0x0066CC, 0xCCCCFF, 0x000080, 0xFF00FF, 0xFFFF00, 0x00FFFF,
    0x800080, 0x800000, 0x008080, 0x0000FF, 0x00CCFF, 0xCCFFFF, 0xCCFFCC, 0xFFFF99, 0x99CCFF,
    0xFF99CC, 0xCC99FF, 0xFFCC99, 0x3366FF, 0x33CCCC, 0x99CC00, 0xFFCC00, 0xFF9900, 0xFF6600,
    0x666699, 0x969696, 0x003366, 0x339966, 0x003300, 0x333300, 0x993300, 0x993366, 0x333399,
    0x333333,
];

/// A colour of the legacy palette (64 and 65 are the system text and window colours).
pub fn indexed_color(i: usize) -> Option<u32> {
    match i {
        64 => Some(0x000000),
        65 => Some(0xFFFFFF),
        _ => INDEXED.get(i).copied(),
    }
}

/// The theme's colour scheme in SpreadsheetML's index order: lt1, dk1, lt2, dk2,
/// accent1–6, hlink, folHlink.
#[derive(Debug, Clone)]
pub struct ThemeColors(pub [u32; 12]);

impl Default for ThemeColors {
    /// The Office theme that files without a theme part are drawn with.
    fn default() -> Self {
        ThemeColors([
            0xFFFFFF, 0x000000, 0xEEECE1, 0x1F497D, 0x4F81BD, 0xC0504D, 0x9BBB59, 0x8064A2,
            0x4BACC6, 0xF79646, 0x0000FF, 0x800080,
        ])
    }
}

impl ThemeColors {
    /// Reads `a:clrScheme` of a theme part; colours it lacks keep the default.
    pub fn from_theme(doc: &XmlDoc) -> ThemeColors {
        let mut out = ThemeColors::default();
        let Some(scheme) = doc.root().find(Ns::A, "clrScheme") else {
            return out;
        };
        // The scheme lists dk1 lt1 dk2 lt2; spreadsheet indexes swap each pair.
        let order = [
            ("dk1", 1),
            ("lt1", 0),
            ("dk2", 3),
            ("lt2", 2),
            ("accent1", 4),
            ("accent2", 5),
            ("accent3", 6),
            ("accent4", 7),
            ("accent5", 8),
            ("accent6", 9),
            ("hlink", 10),
            ("folHlink", 11),
        ];
        for (name, slot) in order {
            let Some(el) = scheme.child(Ns::A, name) else {
                continue;
            };
            let rgb = el.elements().find_map(|c| match c.name() {
                "srgbClr" => c.attr_local("val").and_then(parse_hex),
                "sysClr" => c.attr_local("lastClr").and_then(parse_hex),
                _ => None,
            });
            if let Some(rgb) = rgb {
                out.0[slot] = rgb;
            }
        }
        out
    }
}

fn parse_hex(s: &str) -> Option<u32> {
    let s = s.trim();
    let s = if s.len() == 8 { &s[2..] } else { s };
    if s.len() != 6 {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

/// Applies a tint (−1…1) to a colour the way spreadsheets do: in HLS, darker towards 0
/// luminance for negative tints, lighter towards 1 for positive ones.
pub fn apply_tint(rgb: u32, tint: f64) -> u32 {
    if tint == 0.0 {
        return rgb;
    }
    let (r, g, b) = (
        f64::from((rgb >> 16) & 255) / 255.0,
        f64::from((rgb >> 8) & 255) / 255.0,
        f64::from(rgb & 255) / 255.0,
    );
    let (h, s, l) = rgb_to_hsl(r, g, b);
    let l = if tint < 0.0 {
        l * (1.0 + tint)
    } else {
        l * (1.0 - tint) + tint
    };
    let (r, g, b) = hsl_to_rgb(h, s, l);
    let c = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    (c(r) << 16) | (c(g) << 8) | c(b)
}

/// Resolves a `<color>`-like element (`rgb`, `theme` + `tint`, `indexed`); `auto` and
/// unknown colours are `None` (the default).
pub fn resolve_color(el: Element<'_>, theme: &ThemeColors) -> Option<u32> {
    color_from_attrs(|name| el.attr_local(name), theme)
}

/// [`resolve_color`] over any attribute lookup (the streaming readers have no tree).
pub fn color_from_attrs<'a>(
    attr: impl Fn(&str) -> Option<&'a str>,
    theme: &ThemeColors,
) -> Option<u32> {
    if attr("auto").is_some_and(|v| v == "1" || v == "true") {
        return None;
    }
    let tint = attr("tint")
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0)
        .clamp(-1.0, 1.0);
    let base = if let Some(rgb) = attr("rgb") {
        parse_hex(rgb)
    } else if let Some(t) = attr("theme") {
        t.parse::<usize>()
            .ok()
            .and_then(|i| theme.0.get(i).copied())
    } else if let Some(i) = attr("indexed") {
        i.parse::<usize>().ok().and_then(indexed_color)
    } else {
        None
    }?;
    Some(apply_tint(base, tint))
}

/// Horizontal alignment of a cell format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum HAlign {
    /// By value: numbers and dates right, text left, booleans and errors centred.
    #[default]
    General,
    /// Left (with indent).
    Left,
    /// Centred.
    Center,
    /// Right (with indent).
    Right,
    /// Repeated to fill the cell (shown once).
    Fill,
    /// Justified.
    Justify,
    /// Centred across the selection.
    CenterContinuous,
    /// Distributed.
    Distributed,
}

/// One cell format, resolved.
#[derive(Debug, Clone, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CellFormat {
    /// CSS declarations for font, fill, borders and vertical alignment.
    pub css: String,
    /// Index into [`Styles::formats`].
    #[serde(skip)]
    pub format: u32,
    /// The number-format code, for the formula bar and the JSON model.
    pub format_code: String,
    /// Horizontal alignment.
    pub align: HAlign,
    /// Whether text wraps.
    pub wrap: bool,
    /// Indent level (about three spaces each).
    #[serde(skip_serializing_if = "is_zero")]
    pub indent: u32,
    /// Text rotation: 1–90 counter-clockwise, 91–180 clockwise by (value − 90), 255
    /// stacked vertically.
    #[serde(skip_serializing_if = "is_zero")]
    pub rotation: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// A font, as the CSS it draws with (rich text runs use the same).
pub fn font_css(font: Element<'_>, theme: &ThemeColors) -> String {
    let mut css = String::new();
    let on = |name: &str| {
        font.child(Ns::Sml, name)
            .is_some_and(|e| e.attr_local("val").is_none_or(|v| v != "0" && v != "false"))
    };
    if on("b") {
        css.push_str("font-weight:bold;");
    }
    if on("i") {
        css.push_str("font-style:italic;");
    }
    let underline = font
        .child(Ns::Sml, "u")
        .is_some_and(|e| e.attr_local("val").is_none_or(|v| v != "none"));
    let strike = on("strike");
    match (underline, strike) {
        (true, true) => css.push_str("text-decoration:underline line-through;"),
        (true, false) => css.push_str("text-decoration:underline;"),
        (false, true) => css.push_str("text-decoration:line-through;"),
        _ => {}
    }
    if let Some(sz) = font
        .child(Ns::Sml, "sz")
        .and_then(|e| e.attr_local("val"))
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| (1.0..=409.0).contains(v))
    {
        if (sz - 11.0).abs() > f64::EPSILON {
            let _ = write!(css, "font-size:{sz}pt;");
        }
    }
    if let Some(name) = font
        .child(Ns::Sml, "name")
        .and_then(|e| e.attr_local("val"))
    {
        let clean: String = name
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
            .take(64)
            .collect();
        if !clean.is_empty() && clean != "Calibri" {
            let _ = write!(css, "font-family:'{clean}',Carlito,Calibri,sans-serif;");
        }
    }
    if let Some(rgb) = font
        .child(Ns::Sml, "color")
        .and_then(|c| resolve_color(c, theme))
    {
        let _ = write!(css, "color:#{rgb:06x};");
    }
    if let Some(v) = font
        .child(Ns::Sml, "vertAlign")
        .and_then(|e| e.attr_local("val"))
    {
        match v {
            "superscript" => css.push_str("vertical-align:super;font-size:smaller;"),
            "subscript" => css.push_str("vertical-align:sub;font-size:smaller;"),
            _ => {}
        }
    }
    css
}

fn fill_css(fill: Element<'_>, theme: &ThemeColors) -> String {
    let Some(pattern) = fill.child(Ns::Sml, "patternFill") else {
        // Gradient fills: their first stop's colour.
        if let Some(grad) = fill.child(Ns::Sml, "gradientFill") {
            let colors: Vec<u32> = grad
                .children_named(Ns::Sml, "stop")
                .filter_map(|s| {
                    s.child(Ns::Sml, "color")
                        .and_then(|c| resolve_color(c, theme))
                })
                .collect();
            if let [a, .., b] = colors.as_slice() {
                return format!("background:linear-gradient(90deg,#{a:06x},#{b:06x});");
            }
        }
        return String::new();
    };
    let kind = pattern.attr_local("patternType").unwrap_or("none");
    let fg = pattern
        .child(Ns::Sml, "fgColor")
        .and_then(|c| resolve_color(c, theme));
    let bg = pattern
        .child(Ns::Sml, "bgColor")
        .and_then(|c| resolve_color(c, theme));
    match kind {
        "none" => String::new(),
        "solid" => fg
            .or(bg)
            .map(|c| format!("background:#{c:06x};"))
            .unwrap_or_default(),
        _ => {
            // Patterns: the foreground drawn over the background at the pattern's density.
            let fg = fg.unwrap_or(0x000000);
            let bg = bg.unwrap_or(0xFFFFFF);
            let (density, angle) = match kind {
                "gray0625" => (6, 45),
                "gray125" => (12, 45),
                "lightGray" => (25, 45),
                "mediumGray" => (50, 45),
                "darkGray" => (75, 45),
                "darkHorizontal" | "lightHorizontal" => (40, 0),
                "darkVertical" | "lightVertical" => (40, 90),
                "darkDown" | "lightDown" => (40, 45),
                "darkUp" | "lightUp" => (40, 135),
                _ => (40, 45),
            };
            let band = 4 * density / 100 + 1;
            format!(
                "background:repeating-linear-gradient({angle}deg,#{fg:06x} 0 {band}px,#{bg:06x} {band}px 4px);"
            )
        }
    }
}

/// A SpreadsheetML border style as a CSS width in pixels and line style; `None` for
/// `none`.
pub fn border_line(style: &str) -> Option<(u32, &'static str)> {
    Some(match style {
        "none" => return None,
        "thin" => (1, "solid"),
        "hair" | "dotted" => (1, "dotted"),
        "dashed" | "dashDot" | "dashDotDot" => (1, "dashed"),
        "medium" => (2, "solid"),
        "mediumDashed" | "mediumDashDot" | "mediumDashDotDot" | "slantDashDot" => (2, "dashed"),
        "thick" => (3, "solid"),
        "double" => (3, "double"),
        _ => (1, "solid"),
    })
}

fn border_css(border: Element<'_>, theme: &ThemeColors) -> String {
    let mut css = String::new();
    for side in ["left", "right", "top", "bottom"] {
        let Some(el) = border.child(Ns::Sml, side) else {
            continue;
        };
        let Some(style) = el.attr_local("style") else {
            continue;
        };
        let Some((width, line)) = border_line(style) else {
            continue;
        };
        let color = el
            .child(Ns::Sml, "color")
            .and_then(|c| resolve_color(c, theme))
            .unwrap_or(0);
        let _ = write!(css, "border-{side}:{width}px {line} #{color:06x};");
    }
    css
}

/// A differential format (`dxf`, what a conditional-formatting rule applies) as CSS.
///
/// In a `dxf` a solid fill's colour is its `bgColor` (the cell's own fills use
/// `fgColor`); a file that writes only `fgColor` gets that.
fn dxf_css(dxf: Element<'_>, theme: &ThemeColors) -> String {
    let mut css = String::new();
    if let Some(font) = dxf.child(Ns::Sml, "font") {
        css.push_str(&font_css(font, theme));
    }
    if let Some(p) = dxf
        .child(Ns::Sml, "fill")
        .and_then(|f| f.child(Ns::Sml, "patternFill"))
    {
        let kind = p.attr_local("patternType").unwrap_or("solid");
        let color = |name: &str| p.child(Ns::Sml, name).and_then(|c| resolve_color(c, theme));
        if kind == "solid" {
            if let Some(c) = color("bgColor").or_else(|| color("fgColor")) {
                let _ = write!(css, "background:#{c:06x};");
            }
        } else if kind != "none" {
            if let Some(f) = dxf.child(Ns::Sml, "fill") {
                css.push_str(&fill_css(f, theme));
            }
        }
    }
    if let Some(b) = dxf.child(Ns::Sml, "border") {
        css.push_str(&border_css(b, theme));
    }
    css
}

/// Every cell format of a workbook and the number formats they use.
#[derive(Debug, Clone, Default)]
pub struct Styles {
    /// Cell formats by `cellXfs` index (the `s` attribute of a cell).
    pub cell_formats: Vec<CellFormat>,
    /// Distinct parsed number formats.
    pub formats: Vec<NumberFormat>,
    /// Differential formats of conditional formatting, as CSS, by `dxfId`.
    pub dxfs: Vec<String>,
    /// The workbook's own table styles (`tableStyles`).
    pub table_styles: super::tables::CustomStyles,
}

impl Styles {
    /// Styles of a workbook without a styles part: one General format.
    pub fn plain() -> Styles {
        Styles {
            cell_formats: vec![CellFormat {
                format_code: "General".into(),
                ..CellFormat::default()
            }],
            formats: vec![NumberFormat::parse("General")],
            dxfs: Vec::new(),
            table_styles: Default::default(),
        }
    }

    /// The format of style index `s` (the first one when out of range).
    pub fn cell_format(&self, s: u16) -> &CellFormat {
        self.cell_formats
            .get(usize::from(s))
            .or(self.cell_formats.first())
            .unwrap_or(&FALLBACK)
    }

    /// The number format of style index `s`.
    pub fn number_format(&self, s: u16) -> &NumberFormat {
        self.formats
            .get(self.cell_format(s).format as usize)
            .unwrap_or(&GENERAL)
    }

    /// Reads `styles.xml`, refusing more `cellXfs`, fonts, fills or borders than
    /// `max_records` (each resolved format is kept for the life of the snapshot).
    pub fn from_xml(doc: &XmlDoc, theme: &ThemeColors, max_records: usize) -> OfficeResult<Styles> {
        let root = doc.root();
        let list = |name: &str, item: &str| -> OfficeResult<Vec<Element<'_>>> {
            let items: Vec<Element<'_>> = root
                .child(Ns::Sml, name)
                .map(|l| {
                    l.children_named(Ns::Sml, item)
                        .take(max_records + 1)
                        .collect()
                })
                .unwrap_or_default();
            if items.len() > max_records {
                return Err(OfficeError::new(
                    OfficeErrorKind::SheetLimit,
                    format!(
                        "the workbook's styles list more {name} records than the limit of {max_records}"
                    ),
                ));
            }
            Ok(items)
        };
        let mut codes: HashMap<u32, String> = HashMap::new();
        if let Some(num_fmts) = root.child(Ns::Sml, "numFmts") {
            for nf in num_fmts.children_named(Ns::Sml, "numFmt").take(max_records) {
                if let (Some(id), Some(code)) = (
                    nf.attr_local("numFmtId").and_then(|v| v.parse().ok()),
                    nf.attr_local("formatCode"),
                ) {
                    codes.insert(id, code.chars().take(255).collect());
                }
            }
        }
        let fonts: Vec<String> = list("fonts", "font")?
            .into_iter()
            .map(|f| font_css(f, theme))
            .collect();
        let fills: Vec<String> = list("fills", "fill")?
            .into_iter()
            .map(|f| fill_css(f, theme))
            .collect();
        let borders: Vec<String> = list("borders", "border")?
            .into_iter()
            .map(|b| border_css(b, theme))
            .collect();
        let mut styles = Styles::default();
        let mut format_index: HashMap<String, u32> = HashMap::new();
        for xf in list("cellXfs", "xf")? {
            let idx = |name: &str| {
                xf.attr_local(name)
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(0)
            };
            let num_id = idx("numFmtId") as u32;
            let code = codes
                .get(&num_id)
                .cloned()
                .or_else(|| builtin(num_id).map(str::to_owned))
                // Locale-specific built-in dates (East Asian ids) fall back to a date.
                .or_else(|| matches!(num_id, 27..=36 | 50..=58).then(|| "m/d/yyyy".to_owned()))
                .unwrap_or_else(|| "General".to_owned());
            let next = styles.formats.len() as u32;
            let format = *format_index.entry(code.clone()).or_insert_with(|| {
                styles.formats.push(NumberFormat::parse(&code));
                next
            });
            let mut css = String::new();
            css.push_str(fonts.get(idx("fontId")).map_or("", String::as_str));
            css.push_str(fills.get(idx("fillId")).map_or("", String::as_str));
            css.push_str(borders.get(idx("borderId")).map_or("", String::as_str));
            let mut cf = CellFormat {
                format,
                format_code: code,
                ..CellFormat::default()
            };
            if let Some(al) = xf.child(Ns::Sml, "alignment") {
                cf.align = match al.attr_local("horizontal").unwrap_or("general") {
                    "left" => HAlign::Left,
                    "center" => HAlign::Center,
                    "right" => HAlign::Right,
                    "fill" => HAlign::Fill,
                    "justify" => HAlign::Justify,
                    "centerContinuous" => HAlign::CenterContinuous,
                    "distributed" => HAlign::Distributed,
                    _ => HAlign::General,
                };
                cf.wrap = al
                    .attr_local("wrapText")
                    .is_some_and(|v| v == "1" || v == "true");
                cf.indent = al
                    .attr_local("indent")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0)
                    .min(250);
                cf.rotation = al
                    .attr_local("textRotation")
                    .and_then(|v| v.parse().ok())
                    .filter(|v| *v <= 180 || *v == 255)
                    .unwrap_or(0);
                match al.attr_local("vertical") {
                    Some("top") => css.push_str("align-items:flex-start;"),
                    Some("center") | Some("justify") | Some("distributed") => {
                        css.push_str("align-items:center;")
                    }
                    _ => {}
                }
            }
            cf.css = css;
            styles.cell_formats.push(cf);
        }
        let dxfs: Vec<String> = list("dxfs", "dxf")?
            .into_iter()
            .map(|d| dxf_css(d, theme))
            .collect();
        let table_styles = super::tables::CustomStyles::from_styles(root, theme);
        if styles.cell_formats.is_empty() {
            return Ok(Styles {
                dxfs,
                table_styles,
                ..Styles::plain()
            });
        }
        styles.dxfs = dxfs;
        styles.table_styles = table_styles;
        // Cells name their style with a 16-bit index in the model.
        styles.cell_formats.truncate(usize::from(u16::MAX));
        Ok(styles)
    }
}

static FALLBACK: CellFormat = CellFormat {
    css: String::new(),
    format: 0,
    format_code: String::new(),
    align: HAlign::General,
    wrap: false,
    indent: 0,
    rotation: 0,
};

static GENERAL: std::sync::LazyLock<NumberFormat> =
    std::sync::LazyLock::new(|| NumberFormat::parse("General"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tints_lighten_and_darken_in_hls() {
        // Within one step per channel: the application rounds in its own HLS scale.
        let close = |a: u32, b: u32| {
            (0..3)
                .all(|k| (((a >> (8 * k)) & 255) as i32 - ((b >> (8 * k)) & 255) as i32).abs() <= 1)
        };
        assert_eq!(apply_tint(0x4F81BD, 0.0), 0x4F81BD);
        // accent1 at 40 % lighter and 25 % darker, as the colour picker of the Office
        // theme lists them.
        assert!(close(apply_tint(0x4F81BD, 0.3999755851924192), 0x95B3D7));
        assert!(close(apply_tint(0x4F81BD, -0.249977111117893), 0x366092));
        assert!(close(apply_tint(0xFFFFFF, -0.1499984740745262), 0xD9D9D9));
    }

    #[test]
    fn indexed_palette() {
        assert_eq!(indexed_color(10), Some(0xFF0000));
        assert_eq!(indexed_color(22), Some(0xC0C0C0));
        assert_eq!(indexed_color(64), Some(0x000000));
        assert_eq!(indexed_color(99), None);
    }
}
