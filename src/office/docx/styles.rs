//! The style sheet (`word/styles.xml`): document defaults and styles with their `basedOn`
//! chains resolved once, up front.
//!
//! Each style's properties are stored already merged with its ancestors (root first), so
//! resolving a paragraph is one overlay per layer. Chains are cut at a fixed depth and on
//! cycles, which hostile or broken files can contain.

use super::theme::ThemeColors;
use std::collections::HashMap;
use std::rc::Rc;

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::{Borders, Color, Margins};
use super::props::{borders, twips, val, PPr, RPr};

/// Deepest `basedOn` chain followed; real documents stay far below.
const MAX_CHAIN: usize = 32;

/// What a style applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StyleKind {
    Paragraph,
    Character,
    Table,
    Numbering,
}

/// Table-level properties a table style can carry.
#[derive(Debug, Clone, Default)]
pub(crate) struct TablePr {
    pub borders: Borders,
    pub cell_margins: Option<Margins>,
    /// Rows per horizontal band (`w:tblStyleRowBandSize`).
    pub row_band: Option<u32>,
    /// Columns per vertical band (`w:tblStyleColBandSize`).
    pub col_band: Option<u32>,
}

/// Formatting a table style gives one region of a table (`w:tblStylePr`: first row,
/// banded rows …), or the whole table (`wholeTable`, from the style's own `w:tcPr`).
#[derive(Debug, Clone, Default)]
pub(crate) struct CondFormat {
    pub ppr: PPr,
    pub rpr: RPr,
    pub shading: Option<Option<Color>>,
    pub borders: Borders,
}

impl CondFormat {
    fn from_xml(el: Element<'_>, theme: &ThemeColors) -> CondFormat {
        let mut f = CondFormat::default();
        f.overlay_xml(el, theme);
        f
    }

    /// Layers the `pPr`, `rPr` and `tcPr` children of `el` on top.
    fn overlay_xml(&mut self, el: Element<'_>, theme: &ThemeColors) {
        if let Some(p) = el.child(Ns::W, "pPr") {
            self.ppr.overlay(&PPr::from_xml(p, theme));
        }
        if let Some(r) = el.child(Ns::W, "rPr") {
            self.rpr.overlay(&RPr::from_xml(r, theme));
        }
        if let Some(tc) = el.child(Ns::W, "tcPr") {
            if let Some(s) = tc
                .child(Ns::W, "shd")
                .and_then(|s| super::props::shading(s, theme))
            {
                self.shading = Some(s);
            }
            if let Some(b) = tc.child(Ns::W, "tcBorders") {
                super::props::overlay_borders(&mut self.borders, &borders(b, theme));
            }
        }
    }

    /// Puts `top` over `self`.
    pub fn overlay(&mut self, top: &CondFormat) {
        self.ppr.overlay(&top.ppr);
        self.rpr.overlay(&top.rpr);
        if top.shading.is_some() {
            self.shading.clone_from(&top.shading);
        }
        super::props::overlay_borders(&mut self.borders, &top.borders);
    }
}

/// One style with its chain already merged in.
#[derive(Debug, Clone)]
pub(crate) struct Style {
    pub kind: StyleKind,
    pub name: Option<String>,
    pub ppr: PPr,
    pub rpr: RPr,
    pub table: TablePr,
    /// Conditional formats by region name (`firstRow`, `band1Horz`, `wholeTable` …).
    pub conditional: HashMap<String, CondFormat>,
}

/// The resolved style sheet.
#[derive(Debug, Clone, Default)]
pub(crate) struct Styles {
    pub default_ppr: PPr,
    pub default_rpr: RPr,
    pub default_paragraph: Option<String>,
    pub default_table: Option<String>,
    /// Shared, so a table can hold on to its style while the parser walks its cells.
    styles: HashMap<String, Rc<Style>>,
}

/// A style as written, before its chain is merged.
struct RawStyle<'e> {
    kind: StyleKind,
    name: Option<String>,
    based_on: Option<String>,
    el: Element<'e>,
}

impl Styles {
    /// Reads `w:styles`; `None` (no styles part) gives Word's built-in behaviour.
    pub fn from_xml(root: Option<Element<'_>>, theme: &ThemeColors) -> Styles {
        let Some(root) = root else {
            return Styles::default();
        };
        let mut sheet = Styles::default();
        if let Some(defaults) = root.child(Ns::W, "docDefaults") {
            if let Some(p) = defaults
                .child(Ns::W, "pPrDefault")
                .and_then(|d| d.child(Ns::W, "pPr"))
            {
                sheet.default_ppr = PPr::from_xml(p, theme);
            }
            if let Some(r) = defaults
                .child(Ns::W, "rPrDefault")
                .and_then(|d| d.child(Ns::W, "rPr"))
            {
                sheet.default_rpr = RPr::from_xml(r, theme);
            }
        }

        let mut raw: HashMap<String, RawStyle<'_>> = HashMap::new();
        for el in root.children_named(Ns::W, "style") {
            let Some(id) = el.attr(Ns::W, "styleId") else {
                continue;
            };
            let kind = match el.attr(Ns::W, "type") {
                Some("character") => StyleKind::Character,
                Some("table") => StyleKind::Table,
                Some("numbering") => StyleKind::Numbering,
                _ => StyleKind::Paragraph,
            };
            let is_default = el
                .attr(Ns::W, "default")
                .is_some_and(|v| matches!(v, "1" | "true" | "on"));
            if is_default {
                match kind {
                    StyleKind::Paragraph if sheet.default_paragraph.is_none() => {
                        sheet.default_paragraph = Some(id.to_owned())
                    }
                    StyleKind::Table if sheet.default_table.is_none() => {
                        sheet.default_table = Some(id.to_owned())
                    }
                    _ => {}
                }
            }
            raw.entry(id.to_owned()).or_insert(RawStyle {
                kind,
                name: el.child(Ns::W, "name").and_then(val).map(str::to_owned),
                based_on: el.child(Ns::W, "basedOn").and_then(val).map(str::to_owned),
                el,
            });
        }

        for (id, style) in &raw {
            // Collect the chain leaf → root, stopping at cycles and absurd depths.
            let mut chain: Vec<&RawStyle<'_>> = vec![style];
            let mut seen = vec![id.as_str()];
            let mut next = style.based_on.as_deref();
            while let Some(parent_id) = next {
                if seen.contains(&parent_id) || chain.len() >= MAX_CHAIN {
                    break;
                }
                let Some(parent) = raw.get(parent_id) else {
                    break;
                };
                seen.push(parent_id);
                chain.push(parent);
                next = parent.based_on.as_deref();
            }
            let mut merged = Style {
                kind: style.kind,
                name: style.name.clone(),
                ppr: PPr::default(),
                rpr: RPr::default(),
                table: TablePr::default(),
                conditional: HashMap::new(),
            };
            for layer in chain.iter().rev() {
                if let Some(p) = layer.el.child(Ns::W, "pPr") {
                    merged.ppr.overlay(&PPr::from_xml(p, theme));
                }
                if let Some(r) = layer.el.child(Ns::W, "rPr") {
                    merged.rpr.overlay(&RPr::from_xml(r, theme));
                }
                if let Some(t) = layer.el.child(Ns::W, "tblPr") {
                    let table = table_pr(t, theme);
                    super::props::overlay_borders(&mut merged.table.borders, &table.borders);
                    if table.cell_margins.is_some() {
                        merged.table.cell_margins = table.cell_margins;
                    }
                    merged.table.row_band = table.row_band.or(merged.table.row_band);
                    merged.table.col_band = table.col_band.or(merged.table.col_band);
                }
                if style.kind == StyleKind::Table {
                    if let Some(tc) = layer.el.child(Ns::W, "tcPr") {
                        let whole = merged
                            .conditional
                            .entry("wholeTable".to_owned())
                            .or_default();
                        let mut own = CondFormat::default();
                        if let Some(s) = tc
                            .child(Ns::W, "shd")
                            .and_then(|s| super::props::shading(s, theme))
                        {
                            own.shading = Some(s);
                        }
                        whole.overlay(&own);
                    }
                    for cond in layer.el.children_named(Ns::W, "tblStylePr") {
                        let Some(kind) = cond.attr(Ns::W, "type") else {
                            continue;
                        };
                        merged
                            .conditional
                            .entry(kind.to_owned())
                            .or_default()
                            .overlay(&CondFormat::from_xml(cond, theme));
                    }
                }
            }
            // A style's own pStyle would be meaningless; never let it leak into paragraphs.
            merged.ppr.style = None;
            sheet.styles.insert(id.clone(), Rc::new(merged));
        }
        sheet
    }

    /// The style `id`, when it exists.
    pub fn get(&self, id: &str) -> Option<&Style> {
        self.styles.get(id).map(Rc::as_ref)
    }

    /// The style `id` as a shared handle.
    pub fn shared(&self, id: &str) -> Option<Rc<Style>> {
        self.styles.get(id).cloned()
    }

    /// A paragraph style by id, falling back to the default paragraph style.
    pub fn paragraph_style(&self, id: Option<&str>) -> (Option<&str>, Option<&Style>) {
        let found = id.and_then(|id| {
            self.styles
                .get_key_value(id)
                .filter(|(_, s)| s.kind == StyleKind::Paragraph)
        });
        match found {
            Some((id, style)) => (Some(id.as_str()), Some(style.as_ref())),
            None => {
                let id = self.default_paragraph.as_deref();
                (id, id.and_then(|id| self.get(id)))
            }
        }
    }

    /// The heading level (1–9) a paragraph style implies by its name.
    pub fn heading_level_by_name(&self, id: &str) -> Option<u8> {
        let name = self.styles.get(id)?.name.as_deref()?.to_ascii_lowercase();
        let level = name.strip_prefix("heading")?.trim().parse::<u8>().ok()?;
        (1..=9).contains(&level).then_some(level)
    }
}

/// Table properties shared by tables and table styles.
pub(crate) fn table_pr(el: Element<'_>, theme: &ThemeColors) -> TablePr {
    let band = |name: &str| {
        el.child(Ns::W, name)
            .and_then(val)
            .and_then(|v| v.parse::<u32>().ok())
            .map(|n| n.clamp(1, 1000))
    };
    TablePr {
        borders: el
            .child(Ns::W, "tblBorders")
            .map(|b| borders(b, theme))
            .unwrap_or_default(),
        cell_margins: el.child(Ns::W, "tblCellMar").map(margins),
        row_band: band("tblStyleRowBandSize"),
        col_band: band("tblStyleColBandSize"),
    }
}

/// Cell margins (`w:tblCellMar`, `w:tcMar`); widths are twips (`w:type="dxa"`).
pub(crate) fn margins(el: Element<'_>) -> Margins {
    let side = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| el.child(Ns::W, n))
            .and_then(|s| s.attr(Ns::W, "w"))
            .and_then(twips)
            .unwrap_or(0.0)
    };
    Margins {
        top: side(&["top"]),
        right: side(&["right", "end"]),
        bottom: side(&["bottom"]),
        left: side(&["left", "start"]),
    }
}
