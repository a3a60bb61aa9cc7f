//! Excel tables (`xl/tables/tableN.xml`) and their styles: which cells are the header
//! row, the totals row, the banded rows and columns and the first and last columns, and
//! what each of those parts looks like.
//!
//! A table style is a list of parts (`wholeTable`, `headerRow`, `firstRowStripe` …), each
//! a differential format: a font colour and weight, a fill, borders on the part's outer
//! edges and between its cells. Custom styles are `tableStyles` of `styles.xml` over its
//! `dxfs`; the built-in ones (`TableStyleLight1`–`21`, `TableStyleMedium1`–`28`,
//! `TableStyleDark1`–`11`) are written down here as data, [`BUILTIN`]: seven families of
//! look, each drawn in black/grey and in the six theme accents, expressed in theme colour
//! indexes and tints so that they follow the workbook's theme.
//!
//! Parts are layered as Excel does — whole table, column stripes, row stripes, last
//! column, first column, header row, totals row — and a cell's own formatting wins over
//! the table's (see `viewers/sheet/tables.js`, which lays the parts over the grid's cells
//! with the same rules as [`Table::cell`]).

use std::collections::HashMap;

use serde::Serialize;

use super::model::{parse_range, Rect, Sheet, Workbook};
use super::style::{apply_tint, ThemeColors};
use crate::office::xml::Element;
use crate::office::{Ns, OfficePackage, RelTarget, Relationships};

const REL_TABLE: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/table";
/// Most tables kept on a sheet.
const MAX_TABLES: usize = 1_000;

/// The parts of a table style, in the order they are layered (later ones win).
pub const PARTS: [&str; 9] = [
    "wholeTable",
    "firstColumnStripe",
    "secondColumnStripe",
    "firstRowStripe",
    "secondRowStripe",
    "lastColumn",
    "firstColumn",
    "headerRow",
    "totalRow",
];

/// The sides of a part's borders: its four outer edges, then the lines between its cells.
const SIDES: [&str; 6] = ["left", "right", "top", "bottom", "vertical", "horizontal"];

/// One part of a table style, resolved to CSS values.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartStyle {
    /// `background` value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<String>,
    /// `color` value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Bold text.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bold: bool,
    /// Border values (`1px solid #rrggbb`) by side: left, right, top, bottom, vertical
    /// (between columns), horizontal (between rows).
    pub borders: [Option<String>; 6],
}

impl PartStyle {
    fn is_empty(&self) -> bool {
        *self == PartStyle::default()
    }
}

/// A table on a sheet, with its style resolved.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Its display name.
    pub name: String,
    /// Its cells, header and totals rows included.
    pub rect: Rect,
    /// Header rows at the top (0 or 1).
    pub header_rows: u32,
    /// Totals rows at the bottom (0 or 1).
    pub totals_rows: u32,
    /// The style's name, as the file gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style_name: Option<String>,
    /// Banded rows are shown.
    pub row_stripes: bool,
    /// Banded columns are shown.
    pub column_stripes: bool,
    /// The first column is emphasised.
    pub first_column: bool,
    /// The last column is emphasised.
    pub last_column: bool,
    /// The style's parts by name ([`PARTS`]); parts the style does not have are left out.
    pub parts: HashMap<&'static str, PartStyle>,
}

/// What a table gives one cell: the merged parts that reach it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellLook {
    /// `background` value.
    pub fill: Option<String>,
    /// `color` value.
    pub color: Option<String>,
    /// Bold text.
    pub bold: bool,
    /// Border values: left, right, top, bottom.
    pub borders: [Option<String>; 4],
}

impl Table {
    /// The first and last data rows (between header and totals), when there are any.
    fn data_rows(&self) -> Option<(u32, u32)> {
        let first = self.rect.r0 + self.header_rows;
        let last = self.rect.r1.checked_sub(self.totals_rows)?;
        (first <= last).then_some((first, last))
    }

    /// The region of the sheet a part covers (inclusive), when it reaches row `r`,
    /// column `c`.
    fn region(&self, part: &str, r: u32, c: u32) -> Option<Rect> {
        let t = self.rect;
        let whole_rows = |c0: u32, c1: u32| Rect {
            r0: t.r0,
            c0,
            r1: t.r1,
            c1,
        };
        let data = self.data_rows();
        let in_data = data.is_some_and(|(a, b)| a <= r && r <= b);
        let rect = match part {
            "wholeTable" => t,
            "headerRow" if self.header_rows > 0 && r < t.r0 + self.header_rows => Rect {
                r1: t.r0 + self.header_rows - 1,
                ..t
            },
            "totalRow" if self.totals_rows > 0 && r + self.totals_rows > t.r1 => Rect {
                r0: t.r1 + 1 - self.totals_rows,
                ..t
            },
            "firstColumn" if self.first_column && c == t.c0 => whole_rows(t.c0, t.c0),
            "lastColumn" if self.last_column && c == t.c1 => whole_rows(t.c1, t.c1),
            "firstRowStripe" | "secondRowStripe" if self.row_stripes && in_data => {
                let (first, _) = data?;
                let even = (r - first).is_multiple_of(2);
                if even != (part == "firstRowStripe") {
                    return None;
                }
                Rect { r0: r, r1: r, ..t }
            }
            "firstColumnStripe" | "secondColumnStripe" if self.column_stripes && in_data => {
                let (first, last) = data?;
                let even = (c - t.c0).is_multiple_of(2);
                if even != (part == "firstColumnStripe") {
                    return None;
                }
                Rect {
                    r0: first,
                    r1: last,
                    c0: c,
                    c1: c,
                }
            }
            _ => return None,
        };
        (rect.r0 <= r && r <= rect.r1 && rect.c0 <= c && c <= rect.c1).then_some(rect)
    }

    /// The look the table gives the cell at row `r`, column `c` (inside [`Table::rect`]),
    /// before the cell's own format is laid over it.
    pub fn cell(&self, r: u32, c: u32) -> CellLook {
        let mut out = CellLook::default();
        for name in PARTS {
            let Some(p) = self.parts.get(name) else {
                continue;
            };
            let Some(reg) = self.region(name, r, c) else {
                continue;
            };
            if p.fill.is_some() {
                out.fill.clone_from(&p.fill);
            }
            if p.color.is_some() {
                out.color.clone_from(&p.color);
            }
            out.bold |= p.bold;
            // An outer edge of the part takes its edge border, an inner one the line
            // between cells.
            // A line between two cells is drawn once, as the left or top border of the
            // cell after it, so that it is not doubled.
            let side = [
                Some(if c == reg.c0 { 0 } else { 4 }),
                (c == reg.c1).then_some(1),
                Some(if r == reg.r0 { 2 } else { 5 }),
                (r == reg.r1).then_some(3),
            ];
            for (k, s) in side.into_iter().enumerate() {
                if let Some(b) = s.and_then(|s| p.borders[s].as_ref()) {
                    out.borders[k] = Some(b.clone());
                }
            }
        }
        out
    }
}

/// A colour of a built-in style: a theme index (SpreadsheetML order: lt1, dk1, lt2, dk2,
/// accent1–6) and a tint.
fn theme_hex(theme: &ThemeColors, index: usize, tint: f64) -> Option<String> {
    let base = *theme.0.get(index)?;
    Some(format!("#{:06x}", apply_tint(base, tint)))
}

fn border_value(style: &str, color: &str) -> Option<String> {
    let (w, line) = super::style::border_line(style)?;
    Some(format!("{w}px {line} {color}"))
}

/// One part of a built-in style in the notation of [`BUILTIN`]: space-separated facts,
/// `b` bold, `cT` font colour, `fT` fill, `S=line:T` a border (`S` one of `L R T B V H`,
/// `O` the four outer edges, `*` all six), where a colour `T` is a theme index, `@` the
/// style's accent or `#` its second accent, with an optional signed tint (`@+.8`).
fn builtin_part(spec: &str, accent: usize, second: usize, theme: &ThemeColors) -> PartStyle {
    let color = |s: &str| -> Option<String> {
        let split = s.find(['+', '-']).unwrap_or(s.len());
        let (base, tint) = s.split_at(split);
        let index = match base {
            "@" => accent,
            "#" => second,
            n => n.parse().ok()?,
        };
        let tint = if tint.is_empty() {
            0.0
        } else {
            tint.parse::<f64>().ok()?
        };
        theme_hex(theme, index, tint)
    };
    let mut p = PartStyle::default();
    for fact in spec.split_whitespace() {
        if fact == "b" {
            p.bold = true;
        } else if let Some(c) = fact.strip_prefix('c') {
            p.color = color(c);
        } else if let Some(c) = fact.strip_prefix('f') {
            p.fill = color(c);
        } else if let Some((sides, rest)) = fact.split_once('=') {
            let Some((line, c)) = rest.split_once(':') else {
                continue;
            };
            let Some(value) = color(c).and_then(|c| border_value(line, &c)) else {
                continue;
            };
            let which: &[usize] = match sides {
                "*" => &[0, 1, 2, 3, 4, 5],
                "O" => &[0, 1, 2, 3],
                "L" => &[0],
                "R" => &[1],
                "T" => &[2],
                "B" => &[3],
                "V" => &[4],
                "H" => &[5],
                _ => &[],
            };
            for &k in which {
                p.borders[k] = Some(value.clone());
            }
        }
    }
    p
}

/// A family of built-in styles: its name prefix, its first number, and its parts for
/// the black/grey member (the first) and for the accent members (`@` the accent).
struct Family {
    prefix: &'static str,
    first: u32,
    /// Theme colours of the members after the first: (accent, second accent).
    accents: &'static [(usize, usize)],
    grey: &'static [(&'static str, &'static str)],
    accent: &'static [(&'static str, &'static str)],
}

const SIX: &[(usize, usize)] = &[(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9)];

/// The built-in table styles, as facts: for each family, which part gets which theme
/// colour, tint and border. Read from the preset table style definitions that
/// accompany ECMA-376 (the same facts Apache POI's `presetTableStyles.xml` lists).
const BUILTIN: &[Family] = &[
    // Light 1–7: coloured text between two lines, banded rows in a pale tint.
    Family {
        prefix: "TableStyleLight",
        first: 1,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 T=thin:1 B=thin:1"),
            ("headerRow", "b c1 B=thin:1"),
            ("totalRow", "b c1 T=thin:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f0-.15"),
            ("firstColumnStripe", "f0-.15"),
        ],
        accent: &[
            ("wholeTable", "c@-.25 T=thin:@ B=thin:@"),
            ("headerRow", "b c@-.25 B=thin:@"),
            ("totalRow", "b c@-.25 T=thin:@"),
            ("firstColumn", "b c@-.25"),
            ("lastColumn", "b c@-.25"),
            ("firstRowStripe", "f@+.8"),
            ("firstColumnStripe", "f@+.8"),
        ],
    },
    // Light 8–14: a filled header, an outline, lines between banded rows and columns.
    Family {
        prefix: "TableStyleLight",
        first: 8,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 O=thin:1"),
            ("headerRow", "b c0 f1"),
            ("totalRow", "b c1 T=double:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "T=thin:1"),
            ("secondRowStripe", "T=thin:1"),
            ("firstColumnStripe", "L=thin:1"),
            ("secondColumnStripe", "L=thin:1"),
        ],
        accent: &[
            ("wholeTable", "c1 O=thin:@"),
            ("headerRow", "b c0 f@"),
            ("totalRow", "b c1 T=double:@"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "T=thin:@"),
            ("secondRowStripe", "T=thin:@"),
            ("firstColumnStripe", "L=thin:@"),
            ("secondColumnStripe", "L=thin:@"),
        ],
    },
    // Light 15–21: a full grid in the accent, a heavier line under the header.
    Family {
        prefix: "TableStyleLight",
        first: 15,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 *=thin:1"),
            ("headerRow", "b c1 B=medium:1"),
            ("totalRow", "b c1 T=double:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f0-.15"),
            ("firstColumnStripe", "f0-.15"),
        ],
        accent: &[
            ("wholeTable", "c1 *=thin:@"),
            ("headerRow", "b c1 B=medium:@"),
            ("totalRow", "b c1 T=double:@"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f@+.8"),
            ("firstColumnStripe", "f@+.8"),
        ],
    },
    // Medium 1–7: a filled header, lines between rows, pale banded rows (Medium 2 is
    // Excel's default table style).
    Family {
        prefix: "TableStyleMedium",
        first: 1,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 O=thin:1 H=thin:1"),
            ("headerRow", "b c0 f1"),
            ("totalRow", "b c1 T=double:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f0-.15"),
            ("firstColumnStripe", "f0-.15"),
        ],
        accent: &[
            ("wholeTable", "c1 O=thin:@+.4 H=thin:@+.4"),
            ("headerRow", "b c0 f@"),
            ("totalRow", "b c1 T=double:@"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f@+.8"),
            ("firstColumnStripe", "f@+.8"),
        ],
    },
    // Medium 8–14: tinted cells with white lines, a filled header and totals row.
    Family {
        prefix: "TableStyleMedium",
        first: 8,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 f0-.15 V=thin:0 H=thin:0"),
            ("headerRow", "b c0 f1 B=thick:0"),
            ("totalRow", "b c0 f1 T=thick:0"),
            ("firstColumn", "b c0 f1"),
            ("lastColumn", "b c0 f1"),
            ("firstRowStripe", "f0-.35"),
            ("firstColumnStripe", "f0-.35"),
        ],
        accent: &[
            ("wholeTable", "c1 f@+.8 V=thin:0 H=thin:0"),
            ("headerRow", "b c0 f@ B=thick:0"),
            ("totalRow", "b c0 f@ T=thick:0"),
            ("firstColumn", "b c0 f@"),
            ("lastColumn", "b c0 f@"),
            ("firstRowStripe", "f@+.6"),
            ("firstColumnStripe", "f@+.6"),
        ],
    },
    // Medium 15–21: heavy lines above and below, a filled header, grey bands.
    Family {
        prefix: "TableStyleMedium",
        first: 15,
        accents: SIX,
        grey: &[
            (
                "wholeTable",
                "c1 L=thin:1 R=thin:1 T=medium:1 B=medium:1 V=thin:1 H=thin:1",
            ),
            ("headerRow", "b c0 f1 B=medium:1"),
            ("totalRow", "T=double:1"),
            ("firstColumn", "b c0 f1"),
            ("lastColumn", "b c0 f1"),
            ("firstRowStripe", "f0-.15"),
            ("firstColumnStripe", "f0-.15"),
        ],
        accent: &[
            ("wholeTable", "c1 T=medium:1 B=medium:1"),
            ("headerRow", "b c0 f@ B=medium:1"),
            ("totalRow", "T=double:1"),
            ("firstColumn", "b c0 f@"),
            ("lastColumn", "b c0 f@"),
            ("firstRowStripe", "f0-.15"),
            ("firstColumnStripe", "f0-.15"),
        ],
    },
    // Medium 22–28: tinted cells in a tinted grid, bold header text.
    Family {
        prefix: "TableStyleMedium",
        first: 22,
        accents: SIX,
        grey: &[
            ("wholeTable", "c1 f0-.15 *=thin:1"),
            ("headerRow", "b c1"),
            ("totalRow", "b c1 T=medium:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f0-.35"),
            ("firstColumnStripe", "f0-.35"),
        ],
        accent: &[
            ("wholeTable", "c1 f@+.8 *=thin:@+.4"),
            ("headerRow", "b c1"),
            ("totalRow", "b c1 T=medium:@"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f@+.6"),
            ("firstColumnStripe", "f@+.6"),
        ],
    },
    // Dark 1–7: white text on the accent, a black header, darker bands.
    Family {
        prefix: "TableStyleDark",
        first: 1,
        accents: SIX,
        grey: &[
            ("wholeTable", "c0 f1+.45"),
            ("headerRow", "b c0 f1 B=medium:0"),
            ("totalRow", "b c0 f1+.15 T=medium:0"),
            ("firstColumn", "b c0 f1+.25 R=medium:0"),
            ("lastColumn", "b c0 f1+.25 L=medium:0"),
            ("firstRowStripe", "f1+.25"),
            ("firstColumnStripe", "f1+.25"),
        ],
        accent: &[
            ("wholeTable", "c0 f@"),
            ("headerRow", "b c0 f1 B=medium:0"),
            ("totalRow", "b c0 f@-.5 T=medium:0"),
            ("firstColumn", "b c0 f@-.25 R=medium:0"),
            ("lastColumn", "b c0 f@-.25 L=medium:0"),
            ("firstRowStripe", "f@-.25"),
            ("firstColumnStripe", "f@-.25"),
        ],
    },
    // Dark 8–11: tinted cells under a header in a second accent (pairs 1–2, 3–4, 5–6).
    Family {
        prefix: "TableStyleDark",
        first: 8,
        accents: &[(4, 5), (6, 7), (8, 9)],
        grey: &[
            ("wholeTable", "f0-.15"),
            ("headerRow", "c0 f1"),
            ("totalRow", "b c1 T=double:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f0-.35"),
            ("firstColumnStripe", "f0-.35"),
        ],
        accent: &[
            ("wholeTable", "f@+.8"),
            ("headerRow", "c0 f#"),
            ("totalRow", "b c1 T=double:1"),
            ("firstColumn", "b c1"),
            ("lastColumn", "b c1"),
            ("firstRowStripe", "f@+.6"),
            ("firstColumnStripe", "f@+.6"),
        ],
    },
];

fn part_name(name: &str) -> Option<&'static str> {
    PARTS.iter().copied().find(|p| *p == name)
}

/// The parts of built-in style `name` (`TableStyleMedium2`) against `theme`.
pub fn builtin(name: &str, theme: &ThemeColors) -> Option<HashMap<&'static str, PartStyle>> {
    for fam in BUILTIN {
        let Some(n) = name
            .strip_prefix(fam.prefix)
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Some(k) = n.checked_sub(fam.first) else {
            continue;
        };
        let (spec, (accent, second)) = match k {
            0 => (fam.grey, (1, 1)),
            k => match fam.accents.get(k as usize - 1) {
                Some(a) => (fam.accent, *a),
                None => continue,
            },
        };
        return Some(
            spec.iter()
                .filter_map(|(part, s)| {
                    Some((part_name(part)?, builtin_part(s, accent, second, theme)))
                })
                .collect(),
        );
    }
    None
}

/// A custom table style of `styles.xml`: its parts as differential formats.
#[derive(Debug, Clone, Default)]
pub struct CustomStyles(HashMap<String, HashMap<&'static str, PartStyle>>);

impl CustomStyles {
    /// Reads `tableStyles` of a styles part, resolving each element's `dxfId` into
    /// `dxfs`.
    pub fn from_styles(root: Element<'_>, theme: &ThemeColors) -> CustomStyles {
        let dxfs: Vec<Element<'_>> = root
            .child(Ns::Sml, "dxfs")
            .map(|d| d.children_named(Ns::Sml, "dxf").collect())
            .unwrap_or_default();
        let mut out = HashMap::new();
        let Some(list) = root.child(Ns::Sml, "tableStyles") else {
            return CustomStyles(out);
        };
        for style in list.children_named(Ns::Sml, "tableStyle").take(MAX_TABLES) {
            let Some(name) = style.attr_local("name") else {
                continue;
            };
            if style.attr_local("table").is_some_and(|v| v == "0") {
                continue;
            }
            let mut parts = HashMap::new();
            for el in style.children_named(Ns::Sml, "tableStyleElement") {
                let (Some(part), Some(dxf)) = (
                    el.attr_local("type").and_then(part_name),
                    el.attr_local("dxfId")
                        .and_then(|v| v.parse::<usize>().ok())
                        .and_then(|i| dxfs.get(i)),
                ) else {
                    continue;
                };
                let p = dxf_part(*dxf, theme);
                if !p.is_empty() {
                    parts.insert(part, p);
                }
            }
            out.insert(name.to_owned(), parts);
        }
        CustomStyles(out)
    }
}

/// A `dxf` as a table style part.
fn dxf_part(dxf: Element<'_>, theme: &ThemeColors) -> PartStyle {
    let color = |el: Option<Element<'_>>| {
        el.and_then(|c| super::style::resolve_color(c, theme))
            .map(|c| format!("#{c:06x}"))
    };
    let mut p = PartStyle::default();
    if let Some(font) = dxf.child(Ns::Sml, "font") {
        p.bold = font
            .child(Ns::Sml, "b")
            .is_some_and(|b| b.attr_local("val").is_none_or(|v| v != "0" && v != "false"));
        p.color = color(font.child(Ns::Sml, "color"));
    }
    if let Some(fill) = dxf
        .child(Ns::Sml, "fill")
        .and_then(|f| f.child(Ns::Sml, "patternFill"))
    {
        // In a dxf a solid fill's colour is its bgColor (fgColor when that is all).
        if fill.attr_local("patternType").is_none_or(|t| t != "none") {
            p.fill =
                color(fill.child(Ns::Sml, "bgColor")).or(color(fill.child(Ns::Sml, "fgColor")));
        }
    }
    if let Some(border) = dxf.child(Ns::Sml, "border") {
        for (k, side) in SIDES.iter().enumerate() {
            let Some(el) = border.child(Ns::Sml, side) else {
                continue;
            };
            let c = color(el.child(Ns::Sml, "color")).unwrap_or_else(|| "#000000".into());
            p.borders[k] = el.attr_local("style").and_then(|s| border_value(s, &c));
        }
    }
    p
}

/// Reads the tables of a worksheet from its relationships, with their styles resolved
/// (custom styles of the workbook first, then the built-in ones). A table part that
/// cannot be read is left out.
pub(super) fn read(
    package: &OfficePackage<'_>,
    sheet_rels: &Relationships,
    custom: &CustomStyles,
    theme: &ThemeColors,
) -> Vec<Table> {
    let mut out = Vec::new();
    for rel in sheet_rels.iter().filter(|r| r.rel_type == REL_TABLE) {
        let RelTarget::Part(part) = &rel.target else {
            continue;
        };
        let Ok(doc) = package.read_xml(part, &[]) else {
            continue;
        };
        if let Some(t) = table(doc.root(), custom, theme) {
            out.push(t);
        }
        if out.len() >= MAX_TABLES {
            break;
        }
    }
    out
}

fn table(root: Element<'_>, custom: &CustomStyles, theme: &ThemeColors) -> Option<Table> {
    if !root.is(Ns::Sml, "table") {
        return None;
    }
    let rect = parse_range(root.attr_local("ref")?)?;
    let count = |name: &str, default: u32| {
        root.attr_local(name)
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(default)
            .min(1)
    };
    let info = root.child(Ns::Sml, "tableStyleInfo");
    let flag = |name: &str| {
        info.and_then(|i| i.attr_local(name))
            .is_some_and(|v| v == "1" || v == "true")
    };
    let style_name = info
        .and_then(|i| i.attr_local("name"))
        .map(str::to_owned)
        .filter(|n| !n.is_empty());
    let parts = style_name
        .as_deref()
        .and_then(|n| custom.0.get(n).cloned().or_else(|| builtin(n, theme)))
        .unwrap_or_default();
    Some(Table {
        name: root
            .attr_local("displayName")
            .or(root.attr_local("name"))
            .unwrap_or("")
            .chars()
            .take(255)
            .collect(),
        rect,
        header_rows: count("headerRowCount", 1),
        totals_rows: count("totalsRowCount", 0),
        style_name,
        row_stripes: flag("showRowStripes"),
        column_stripes: flag("showColumnStripes"),
        first_column: flag("showFirstColumn"),
        last_column: flag("showLastColumn"),
        parts,
    })
}

/// The colour a format's CSS sets for text (`color:#rrggbb`), if any.
fn text_color(css: &str) -> Option<&str> {
    css.split(';')
        .find_map(|d| d.trim().strip_prefix("color:"))
        .map(str::trim)
}

/// The CSS a table gives the cell at row `r`, column `c` with style `style`, once the
/// cell's own format has won: a fill, text colour, weight or border side that the
/// cell's format sets itself is left out (a text colour only when it differs from the
/// workbook's default format, as a cell in the Normal style takes the table's).
pub fn cell_css(book: &Workbook, sheet: &Sheet, r: u32, c: u32, style: u16) -> Option<String> {
    use std::fmt::Write;
    let t = sheet
        .tables
        .iter()
        .find(|t| t.rect.r0 <= r && r <= t.rect.r1 && t.rect.c0 <= c && c <= t.rect.c1)?;
    let look = t.cell(r, c);
    let own = book.styles.cell_format(style).css.as_str();
    let normal = book.styles.cell_format(0).css.as_str();
    let mut css = String::new();
    if let Some(fill) = look.fill.as_ref().filter(|_| !own.contains("background")) {
        let _ = write!(css, "background:{fill};");
    }
    let own_color = text_color(own).filter(|c| Some(*c) != text_color(normal));
    if let Some(color) = look.color.as_ref().filter(|_| own_color.is_none()) {
        let _ = write!(css, "color:{color};");
    }
    if look.bold && !own.contains("font-weight") {
        css.push_str("font-weight:bold;");
    }
    for (k, side) in ["left", "right", "top", "bottom"].iter().enumerate() {
        if let Some(b) = &look.borders[k] {
            if !own.contains(&format!("border-{side}:")) {
                let _ = write!(css, "border-{side}:{b};");
            }
        }
    }
    (!css.is_empty()).then_some(css)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_of(style: &str, stripes: bool) -> Table {
        Table {
            name: "T".into(),
            rect: Rect {
                r0: 0,
                c0: 0,
                r1: 4,
                c1: 2,
            },
            header_rows: 1,
            totals_rows: 0,
            style_name: Some(style.into()),
            row_stripes: stripes,
            column_stripes: false,
            first_column: false,
            last_column: false,
            parts: builtin(style, &ThemeColors::default()).unwrap(),
        }
    }

    #[test]
    fn every_builtin_style_is_defined() {
        let theme = ThemeColors::default();
        for (prefix, n) in [
            ("TableStyleLight", 21),
            ("TableStyleMedium", 28),
            ("TableStyleDark", 11),
        ] {
            for i in 1..=n {
                let parts = builtin(&format!("{prefix}{i}"), &theme)
                    .unwrap_or_else(|| panic!("{prefix}{i}"));
                assert!(parts.contains_key("wholeTable") && parts.contains_key("headerRow"));
            }
            assert!(builtin(&format!("{prefix}{}", n + 1), &theme).is_none());
        }
        assert!(builtin("TableStyleMedium0", &theme).is_none());
    }

    /// Within one step per channel of `want` (the application rounds tints in its own
    /// HLS scale).
    fn near(got: Option<&str>, want: u32) -> bool {
        let Some(got) = got.and_then(|g| u32::from_str_radix(g.trim_start_matches('#'), 16).ok())
        else {
            return false;
        };
        (0..3).all(|k| {
            (((got >> (8 * k)) & 255) as i32 - ((want >> (8 * k)) & 255) as i32).abs() <= 1
        })
    }

    #[test]
    fn medium2_is_accent1_with_pale_bands() {
        // The Office 2007 theme's accent1 is #4F81BD; at tint 0.8 it is #DCE6F1 and at
        // 0.4 #95B3D7 (the colour picker's "lighter 80 %" and "40 %").
        let t = table_of("TableStyleMedium2", true);
        let header = t.cell(0, 1);
        assert_eq!(header.fill.as_deref(), Some("#4f81bd"));
        assert_eq!(header.color.as_deref(), Some("#ffffff"));
        assert!(header.bold);
        let band = t.cell(1, 1);
        assert!(near(band.fill.as_deref(), 0xDCE6F1), "{band:?}");
        assert_eq!(band.color.as_deref(), Some("#000000"));
        assert!(!band.bold);
        // The second data row is not banded; the table's outline and row lines are
        // accent1 at 40 %.
        let plain = t.cell(2, 1);
        assert_eq!(plain.fill, None);
        let line = plain.borders[2].as_deref().unwrap();
        assert!(near(line.strip_prefix("1px solid "), 0x95B3D7), "{line}");
        assert_eq!(plain.borders[0], None, "no line between columns");
        assert_eq!(
            t.cell(2, 0).borders[0].as_deref(),
            Some(line),
            "the outline"
        );
        // Without banded rows, no row is filled.
        assert_eq!(table_of("TableStyleMedium2", false).cell(1, 1).fill, None);
    }

    #[test]
    fn first_and_last_columns_and_totals_layer_over_bands() {
        let mut t = table_of("TableStyleDark2", true);
        t.first_column = true;
        t.last_column = true;
        t.totals_rows = 1;
        // Dark 2: accent1 cells, bands at 25 % darker, a black header.
        assert_eq!(t.cell(0, 0).fill.as_deref(), Some("#000000"));
        let first = t.cell(1, 0);
        assert!(first.bold);
        assert_eq!(first.borders[1].as_deref(), Some("2px solid #ffffff"));
        let last = t.cell(2, 2);
        assert_eq!(last.borders[0].as_deref(), Some("2px solid #ffffff"));
        let total = t.cell(4, 1);
        assert_eq!(total.borders[2].as_deref(), Some("2px solid #ffffff"));
        assert!(total.bold);
        // The totals row is not a data row: row 3 is the last band row.
        assert_ne!(t.cell(3, 1).fill, t.cell(4, 1).fill);
    }

    #[test]
    fn dark_pairs_take_their_second_accent_for_the_header() {
        let theme = ThemeColors::default();
        let parts = builtin("TableStyleDark10", &theme).unwrap();
        assert_eq!(parts["headerRow"].fill.as_deref(), Some("#8064a2"));
        assert_eq!(
            parts["wholeTable"].fill,
            theme_hex(&theme, 6, 0.8),
            "accent3 at 80 %"
        );
    }

    #[test]
    fn custom_styles_come_from_the_workbook_dxfs() {
        use crate::office::xml::{parse_xml, XmlOptions};
        let xml = r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dxfs count="2"><dxf><font><b/><color rgb="FFFFFFFF"/></font><fill><patternFill patternType="solid"><bgColor rgb="FF7030A0"/></patternFill></fill></dxf><dxf><border><left style="thin"><color theme="5"/></left><horizontal style="dashed"><color rgb="FF00B050"/></horizontal></border></dxf></dxfs><tableStyles count="2"><tableStyle name="Mine" count="2"><tableStyleElement type="headerRow" dxfId="0"/><tableStyleElement type="wholeTable" dxfId="1"/></tableStyle><tableStyle name="Pivot" table="0"><tableStyleElement type="headerRow" dxfId="0"/></tableStyle></tableStyles></styleSheet>"#;
        let opts = XmlOptions {
            max_depth: 64,
            max_nodes: 10_000,
            understood: &[],
        };
        let doc = parse_xml("styles.xml", xml.as_bytes(), &opts).unwrap();
        let theme = ThemeColors::default();
        let custom = CustomStyles::from_styles(doc.root(), &theme);
        assert!(
            !custom.0.contains_key("Pivot"),
            "pivot-only styles are not table styles"
        );
        let mine = &custom.0["Mine"];
        assert_eq!(mine["headerRow"].fill.as_deref(), Some("#7030a0"));
        assert_eq!(mine["headerRow"].color.as_deref(), Some("#ffffff"));
        assert!(mine["headerRow"].bold);
        // theme 5 is accent2 (#C0504D in the default theme).
        assert_eq!(
            mine["wholeTable"].borders[0].as_deref(),
            Some("1px solid #c0504d")
        );
        assert_eq!(
            mine["wholeTable"].borders[5].as_deref(),
            Some("1px dashed #00b050")
        );
        // The workbook's style of a built-in name wins over the built-in one.
        let root = r#"<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ref="B2:C4" displayName="T"><tableStyleInfo name="Mine" showRowStripes="1"/></table>"#;
        let doc = parse_xml("table1.xml", root.as_bytes(), &opts).unwrap();
        let t = table(doc.root(), &custom, &theme).unwrap();
        assert_eq!(
            (t.rect.r0, t.rect.c0, t.header_rows, t.totals_rows),
            (1, 1, 1, 0)
        );
        assert_eq!(t.cell(1, 2).fill.as_deref(), Some("#7030a0"));
        // Inner lines between rows are drawn as the top border of the lower cell.
        assert_eq!(
            t.cell(3, 1).borders[2].as_deref(),
            Some("1px dashed #00b050")
        );
        assert_eq!(t.cell(2, 2).borders[0], None);
        assert_eq!(
            t.cell(2, 1).borders[0].as_deref(),
            Some("1px solid #c0504d")
        );
    }
}
